//! Keys and their canonical bytes (docs/format.md, "Hash contract";
//! docs/reference.md, "Typed keys").
//!
//! A [`Key`] stands for the SQL value a driver would send for it: `Int` for
//! smallint/integer/bigint, `Text` for text (UTF-8: a UTF8 database), and
//! so on. A filter that records its key type converts a key as the server
//! converts a probe of another type: text is read by the key type's input
//! function ("5" against bigint keys is 5), a whole float against integer
//! keys is that integer, a fractional one is absent. Where SQL has no
//! comparison the check is an error ([`Error::KeyTypeMismatch`]), never a
//! silent "absent".

use std::borrow::Cow;

use crate::error::{Error, Result};
use crate::murmur;

pub const UNTYPED: u32 = 0;
pub const BOOL: u32 = 16;
pub const BYTEA: u32 = 17;
pub const CHAR: u32 = 18;
pub const NAME: u32 = 19;
pub const INT8: u32 = 20;
pub const INT2: u32 = 21;
pub const INT4: u32 = 23;
pub const TEXT: u32 = 25;
pub const OID: u32 = 26;
pub const FLOAT4: u32 = 700;
pub const FLOAT8: u32 = 701;
pub const BPCHAR: u32 = 1042;
pub const VARCHAR: u32 = 1043;
pub const DATE: u32 = 1082;
pub const TIME: u32 = 1083;
pub const TIMESTAMP: u32 = 1114;
pub const TIMESTAMPTZ: u32 = 1184;
pub const INTERVAL: u32 = 1186;
pub const TIMETZ: u32 = 1266;
pub const NUMERIC: u32 = 1700;
pub const RECORD: u32 = 2249;
pub const UUID: u32 = 2950;

/// The high bit of a key type that is a row signature.
pub const ROW_FLAG: u32 = 0x8000_0000;
const ROW_MAX_COLUMNS: usize = 6;
/// Row signature codes 1..29 (docs/format.md): a stored format, appended to only.
const ROW_CODES: [u32; 30] = [
    0, INT2, INT4, INT8, TEXT, VARCHAR, BPCHAR, NAME, BYTEA, UUID, NUMERIC, FLOAT4, FLOAT8, BOOL,
    CHAR, DATE, TIME, TIMETZ, TIMESTAMP, TIMESTAMPTZ, INTERVAL, 869, 650, OID, 790, 829, 774,
    1560, 1562, 3220,
];

/// The 62 key types a filter may record (docs/format.md, "Key types"), sorted.
const VALID: [u32; 62] = [
    16, 17, 18, 19, 20, 21, 23, 25, 26, 650, 651, 700, 701, 774, 775, 790, 791, 829, 869, 1000,
    1001, 1002, 1003, 1005, 1006, 1007, 1009, 1013, 1014, 1015, 1016, 1021, 1022, 1028, 1040,
    1041, 1042, 1043, 1082, 1083, 1114, 1115, 1182, 1183, 1184, 1185, 1186, 1187, 1231, 1266,
    1270, 1560, 1561, 1562, 1563, 1700, 2249, 2287, 2950, 2951, 3220, 3221,
];

/// Microseconds in a day.
const DAY_USEC: i64 = 86_400_000_000;

/// A key: the SQL value a driver sends for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Key<'a> {
    /// SQL NULL: only as a row's column (a NULL key is never added or checked).
    Null,
    /// smallint, integer, bigint.
    Int(i64),
    /// text (UTF-8); against a typed filter, read by the key type's input function.
    Text(&'a str),
    /// bytea.
    Bytes(&'a [u8]),
    /// uuid: its 16 bytes in the usual (big-endian) order.
    Uuid([u8; 16]),
    /// double precision (a Rust f32 widens exactly, as SQL compares real with it).
    Float(f64),
    /// numeric, as its decimal text (`"1.50"`, `"-3e4"`, `"NaN"`).
    Numeric(&'a str),
    /// boolean.
    Bool(bool),
    /// date: days since 2000-01-01 ([`Key::date`] computes it).
    Date(i32),
    /// timestamp without time zone: microseconds since 2000-01-01 00:00.
    Timestamp(i64),
    /// timestamp with time zone: microseconds since 2000-01-01 00:00 UTC.
    TimestampTz(i64),
    /// A row (`ROW(a, b)`), one key per column.
    Row(&'a [Key<'a>]),
}

impl<'a> Key<'a> {
    /// `Key::Date` of a proleptic Gregorian date.
    pub fn date(year: i32, month: u32, day: u32) -> Key<'static> {
        Key::Date(days_from_2000(year, month, day) as i32)
    }

    /// `Key::Timestamp` of a date and time of day.
    pub fn timestamp(year: i32, month: u32, day: u32, h: u32, m: u32, s: u32, usec: u32) -> Key<'static> {
        Key::Timestamp(
            days_from_2000(year, month, day) * DAY_USEC
                + ((h as i64 * 60 + m as i64) * 60 + s as i64) * 1_000_000
                + usec as i64,
        )
    }

    /// `Key::Uuid` from its text form; None if it is not one.
    pub fn uuid(text: &str) -> Option<Key<'static>> {
        parse_uuid(text).ok().map(Key::Uuid)
    }

    /// The key type the server records when this key is the first added
    /// to an untyped empty filter: the type of the value.
    pub fn natural_type(&self) -> u32 {
        match self {
            Key::Null => UNTYPED,
            Key::Int(_) => INT8,
            Key::Text(_) => TEXT,
            Key::Bytes(_) => BYTEA,
            Key::Uuid(_) => UUID,
            Key::Float(_) => FLOAT8,
            Key::Numeric(_) => NUMERIC,
            Key::Bool(_) => BOOL,
            Key::Date(_) => DATE,
            Key::Timestamp(_) => TIMESTAMP,
            Key::TimestampTz(_) => TIMESTAMPTZ,
            Key::Row(cols) => row_signature(cols),
        }
    }
}

impl From<i64> for Key<'_> {
    fn from(v: i64) -> Self {
        Key::Int(v)
    }
}
impl From<i32> for Key<'_> {
    fn from(v: i32) -> Self {
        Key::Int(v as i64)
    }
}
impl From<i16> for Key<'_> {
    fn from(v: i16) -> Self {
        Key::Int(v as i64)
    }
}
impl From<f64> for Key<'_> {
    fn from(v: f64) -> Self {
        Key::Float(v)
    }
}
impl From<f32> for Key<'_> {
    fn from(v: f32) -> Self {
        Key::Float(v as f64)
    }
}
impl From<bool> for Key<'_> {
    fn from(v: bool) -> Self {
        Key::Bool(v)
    }
}
impl<'a> From<&'a str> for Key<'a> {
    fn from(v: &'a str) -> Self {
        Key::Text(v)
    }
}
impl<'a> From<&'a String> for Key<'a> {
    fn from(v: &'a String) -> Self {
        Key::Text(v)
    }
}
impl<'a> From<&'a [u8]> for Key<'a> {
    fn from(v: &'a [u8]) -> Self {
        Key::Bytes(v)
    }
}
impl<'a> From<&'a Vec<u8>> for Key<'a> {
    fn from(v: &'a Vec<u8>) -> Self {
        Key::Bytes(v)
    }
}
impl<'a, const N: usize> From<&'a [u8; N]> for Key<'a> {
    fn from(v: &'a [u8; N]) -> Self {
        Key::Bytes(v)
    }
}
impl<'a> From<&'a [Key<'a>]> for Key<'a> {
    fn from(v: &'a [Key<'a>]) -> Self {
        Key::Row(v)
    }
}

/// The bytes a key hashes as: an 8-byte word (integers, most floats) or bytes.
pub(crate) enum Canon<'a> {
    Word(u64),
    Bytes(Cow<'a, [u8]>),
}

impl Canon<'_> {
    #[inline]
    pub(crate) fn hash(&self, seed: u32) -> (u64, u64) {
        match self {
            Canon::Word(w) => murmur::hash_word(*w, seed),
            Canon::Bytes(b) => murmur::hash128(b, seed),
        }
    }

    fn into_vec(self) -> Vec<u8> {
        match self {
            Canon::Word(w) => w.to_le_bytes().to_vec(),
            Canon::Bytes(b) => b.into_owned(),
        }
    }
}

/// The bytes of a canonical form.
pub(crate) fn canon_vec(c: Canon) -> Vec<u8> {
    c.into_vec()
}

/// The SQL name of a key type, for messages.
pub fn type_name(oid: u32) -> String {
    let name = match oid {
        UNTYPED => "untyped",
        BOOL => "boolean",
        BYTEA => "bytea",
        CHAR => "\"char\"",
        NAME => "name",
        INT8 => "bigint",
        INT2 => "smallint",
        INT4 => "integer",
        TEXT => "text",
        OID => "oid",
        FLOAT4 => "real",
        FLOAT8 => "double precision",
        BPCHAR => "character",
        VARCHAR => "character varying",
        DATE => "date",
        TIME => "time without time zone",
        TIMESTAMP => "timestamp without time zone",
        TIMESTAMPTZ => "timestamp with time zone",
        INTERVAL => "interval",
        TIMETZ => "time with time zone",
        NUMERIC => "numeric",
        RECORD => "record",
        UUID => "uuid",
        _ => {
            if let Some(cols) = row_signature_columns(oid) {
                let names: Vec<String> = cols.iter().map(|&c| type_name(c)).collect();
                return format!("record({})", names.join(", "));
            }
            return format!("type OID {}", oid);
        }
    };
    name.to_string()
}

/// The column key types of a row signature, or None if `key_type` is not one.
pub fn row_signature_columns(key_type: u32) -> Option<Vec<u32>> {
    if key_type & ROW_FLAG == 0 {
        return None;
    }
    let mut rest = key_type & !ROW_FLAG;
    let mut cols = Vec::new();
    while cols.len() < ROW_MAX_COLUMNS && rest & 31 != 0 {
        let code = (rest & 31) as usize;
        if code >= ROW_CODES.len() {
            return None;
        }
        cols.push(ROW_CODES[code]);
        rest >>= 5;
    }
    if cols.is_empty() || rest != 0 {
        None
    } else {
        Some(cols)
    }
}

/// The key type the server records for a row: its row signature, or
/// `record` when a column is NULL, of a type without a code, or past six.
fn row_signature(cols: &[Key]) -> u32 {
    if cols.is_empty() || cols.len() > ROW_MAX_COLUMNS {
        return RECORD;
    }
    let mut sig = ROW_FLAG;
    for (i, c) in cols.iter().enumerate() {
        let t = c.natural_type();
        match ROW_CODES.iter().skip(1).position(|&x| x == t) {
            Some(p) if !matches!(c, Key::Null) => sig |= ((p + 1) as u32) << (5 * i),
            _ => return RECORD,
        }
    }
    sig
}

/// Whether input accepts this key type: 0, one of the 62 OIDs, or a row signature.
pub fn valid_key_type(oid: u32) -> bool {
    if oid & ROW_FLAG != 0 {
        return row_signature_columns(oid).is_some();
    }
    oid == UNTYPED || VALID.binary_search(&oid).is_ok()
}

fn is_integer(oid: u32) -> bool {
    oid == INT2 || oid == INT4 || oid == INT8
}

/// The key type `bf_set_key_type` gives: any to an untyped filter, a typed
/// one only among smallint, integer and bigint.
pub(crate) fn reset_key_type(current: u32, oid: u32) -> Result<u32> {
    if !valid_key_type(oid) {
        return Err(Error::InvalidArgument(format!(
            "key type {} is not 0 or the OID of a built-in type that filters hash",
            oid
        )));
    }
    if current == UNTYPED || current == oid || (is_integer(current) && is_integer(oid)) {
        return Ok(oid);
    }
    Err(Error::KeyTypeMismatch(format!(
        "cannot change the key type of a filter from {} to {}: only smallint, integer and bigint keys hash alike",
        type_name(current),
        type_name(oid)
    )))
}

fn refuse(key: &Key, oid: u32) -> Error {
    Error::KeyTypeMismatch(format!(
        "a key of type {} cannot be compared with keys of type {}",
        type_name(key.natural_type()),
        type_name(oid)
    ))
}

fn bad_text(s: &str, oid: u32) -> Error {
    Error::InvalidKey(format!("invalid input syntax for type {}: \"{}\"", type_name(oid), s))
}

fn out_of_range(s: &str, oid: u32) -> Error {
    Error::InvalidKey(format!("value \"{}\" is out of range for type {}", s, type_name(oid)))
}

const PG_SPACE: &[char] = &[' ', '\t', '\n', '\r', '\x0b', '\x0c'];

/* ---- canonical bytes of hash id 2 ---- */

/// Hash id 2's float rule: a whole number within int8 as that integer, else
/// the float8's bits, every NaN as one.
#[inline]
pub(crate) fn float_word(d: f64) -> u64 {
    if d.is_nan() {
        return 0x7FF8_0000_0000_0000;
    }
    if d.is_finite() && d == d.trunc() && d >= -9.223372036854775808e18 && d < 9.223372036854775808e18 {
        return d as i64 as u64;
    }
    d.to_bits()
}

/// A numeric's canonical bytes from its decimal text: a whole number within
/// int8 as that int8, else the ASCII text with trailing fractional zeros
/// removed, in plain notation.
fn numeric_canon(s: &str) -> Result<Canon<'static>> {
    let t = s.trim_matches(PG_SPACE);
    match t.to_ascii_lowercase().as_str() {
        "nan" => return Ok(Canon::Bytes(Cow::Borrowed(b"NaN"))),
        "infinity" | "+infinity" | "inf" | "+inf" => {
            return Ok(Canon::Bytes(Cow::Borrowed(b"Infinity")))
        }
        "-infinity" | "-inf" => return Ok(Canon::Bytes(Cow::Borrowed(b"-Infinity"))),
        _ => {}
    }
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let (mant, exp) = match body.find(|c| c == 'e' || c == 'E') {
        Some(i) => {
            let e = &body[i + 1..];
            let digits = e.strip_prefix(|c| c == '+' || c == '-').unwrap_or(e);
            if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) || digits.len() > 6 {
                return Err(bad_text(s, NUMERIC));
            }
            (&body[..i], e.parse::<i64>().map_err(|_| bad_text(s, NUMERIC))?)
        }
        None => (body, 0),
    };
    let (ip, fp) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    if (ip.is_empty() && fp.is_empty())
        || !ip.bytes().all(|c| c.is_ascii_digit())
        || !fp.bytes().all(|c| c.is_ascii_digit())
    {
        return Err(bad_text(s, NUMERIC));
    }
    let digits: Vec<u8> = ip.bytes().chain(fp.bytes()).collect();
    let point = ip.len() as i64 + exp;
    let (mut int_part, mut frac_part): (Vec<u8>, Vec<u8>) = if point <= 0 {
        let mut f = vec![b'0'; (-point) as usize];
        f.extend_from_slice(&digits);
        (Vec::new(), f)
    } else if point as usize >= digits.len() {
        let mut i = digits.clone();
        i.resize(point as usize, b'0');
        (i, Vec::new())
    } else {
        (digits[..point as usize].to_vec(), digits[point as usize..].to_vec())
    };
    while frac_part.last() == Some(&b'0') {
        frac_part.pop();
    }
    let lead = int_part.iter().take_while(|&&c| c == b'0').count();
    int_part.drain(..lead);
    if frac_part.is_empty() {
        if int_part.is_empty() {
            return Ok(Canon::Word(0));
        }
        if int_part.len() <= 19 {
            let mag: i128 = std::str::from_utf8(&int_part).unwrap().parse().unwrap();
            let v = if neg { -mag } else { mag };
            if v >= i64::MIN as i128 && v <= i64::MAX as i128 {
                return Ok(Canon::Word(v as i64 as u64));
            }
        }
        let mut out = Vec::with_capacity(int_part.len() + 1);
        if neg {
            out.push(b'-');
        }
        out.extend_from_slice(&int_part);
        return Ok(Canon::Bytes(Cow::Owned(out)));
    }
    let mut out = Vec::with_capacity(int_part.len() + frac_part.len() + 3);
    if neg {
        out.push(b'-');
    }
    if int_part.is_empty() {
        out.push(b'0');
    }
    out.extend_from_slice(&int_part);
    out.push(b'.');
    out.extend_from_slice(&frac_part);
    Ok(Canon::Bytes(Cow::Owned(out)))
}

/// The integer value of a numeric's text, if it is whole and within int8.
fn numeric_whole(s: &str) -> Result<Option<i64>> {
    Ok(match numeric_canon(s)? {
        Canon::Word(w) => Some(w as i64),
        Canon::Bytes(_) => None,
    })
}

fn parse_int(s: &str, oid: u32) -> Result<i64> {
    let t = s.trim_matches(PG_SPACE);
    let digits = t.strip_prefix(|c| c == '+' || c == '-').unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return Err(bad_text(s, oid));
    }
    let v: i128 = if digits.len() > 30 {
        return Err(out_of_range(s, oid));
    } else {
        t.trim_start_matches('+').parse().map_err(|_| bad_text(s, oid))?
    };
    let lim: i128 = match oid {
        INT2 => 1 << 15,
        INT4 => 1 << 31,
        _ => 1 << 63,
    };
    if v < -lim || v >= lim {
        return Err(out_of_range(s, oid));
    }
    Ok(v as i64)
}

/// float8in and float4in: NaN and infinities by name, decimal notation;
/// an overflow or an underflow to zero is an error.
fn parse_float(s: &str, oid: u32) -> Result<f64> {
    let t = s.trim_matches(PG_SPACE);
    match t.to_ascii_lowercase().as_str() {
        "nan" | "+nan" | "-nan" => return Ok(f64::NAN),
        "infinity" | "+infinity" | "inf" | "+inf" => return Ok(f64::INFINITY),
        "-infinity" | "-inf" => return Ok(f64::NEG_INFINITY),
        _ => {}
    }
    let ok = {
        let b = t.strip_prefix(|c| c == '+' || c == '-').unwrap_or(t);
        let (m, e) = match b.find(|c| c == 'e' || c == 'E') {
            Some(i) => (&b[..i], Some(&b[i + 1..])),
            None => (b, None),
        };
        let mdig = m.bytes().filter(|c| c.is_ascii_digit()).count();
        let mok = mdig > 0 && m.bytes().all(|c| c.is_ascii_digit() || c == b'.') && m.matches('.').count() <= 1;
        let eok = e.map_or(true, |e| {
            let d = e.strip_prefix(|c| c == '+' || c == '-').unwrap_or(e);
            !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit())
        });
        mok && eok
    };
    if !ok {
        return Err(bad_text(s, oid));
    }
    let nonzero = t
        .split(|c| c == 'e' || c == 'E')
        .next()
        .unwrap()
        .bytes()
        .any(|c| (b'1'..=b'9').contains(&c));
    let d = if oid == FLOAT4 {
        let f: f32 = t.parse().map_err(|_| bad_text(s, oid))?;
        f as f64
    } else {
        t.parse::<f64>().map_err(|_| bad_text(s, oid))?
    };
    if d.is_infinite() || (d == 0.0 && nonzero) {
        return Err(out_of_range(s, oid));
    }
    Ok(d)
}

fn parse_bool(s: &str) -> Result<bool> {
    let t = s.trim_matches(PG_SPACE).to_ascii_lowercase();
    let prefix = |word: &str, min: usize| t.len() >= min && word.starts_with(t.as_str());
    if t == "1" {
        Ok(true)
    } else if t == "0" {
        Ok(false)
    } else if prefix("on", 2) {
        Ok(true)
    } else if prefix("off", 2) {
        Ok(false)
    } else if prefix("true", 1) || prefix("yes", 1) {
        Ok(true)
    } else if prefix("false", 1) || prefix("no", 1) {
        Ok(false)
    } else {
        Err(bad_text(s, BOOL))
    }
}

/// uuid input: 32 hex digits, a hyphen allowed after any group of four, braces.
fn parse_uuid(s: &str) -> Result<[u8; 16]> {
    let t = s.strip_prefix('{').and_then(|x| x.strip_suffix('}')).unwrap_or(s);
    let b = t.as_bytes();
    let mut hex = Vec::with_capacity(32);
    for (i, &c) in b.iter().enumerate() {
        if c == b'-' && hex.len() % 4 == 0 && !hex.is_empty() && hex.len() < 32 && i + 1 < b.len() && b[i + 1] != b'-' {
            continue;
        }
        match (c as char).to_digit(16) {
            Some(d) => hex.push(d as u8),
            None => return Err(bad_text(s, UUID)),
        }
    }
    if hex.len() != 32 {
        return Err(bad_text(s, UUID));
    }
    let mut out = [0u8; 16];
    for i in 0..16 {
        out[i] = hex[2 * i] << 4 | hex[2 * i + 1];
    }
    Ok(out)
}

/// bytea input: the hex format (\x...) or the escape format.
fn parse_bytea(s: &str) -> Result<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    if let Some(hex) = s.strip_prefix("\\x") {
        let h = hex.as_bytes();
        let mut i = 0;
        while i < h.len() {
            if (h[i] as char).is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let hi = (h[i] as char).to_digit(16);
            let lo = h.get(i + 1).and_then(|&c| (c as char).to_digit(16));
            match (hi, lo) {
                (Some(hi), Some(lo)) => out.push((hi * 16 + lo) as u8),
                _ => return Err(bad_text(s, BYTEA)),
            }
            i += 2;
        }
        return Ok(out);
    }
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
        } else if b.get(i + 1) == Some(&b'\\') {
            out.push(b'\\');
            i += 2;
        } else if i + 3 < b.len()
            && (b'0'..=b'3').contains(&b[i + 1])
            && (b'0'..=b'7').contains(&b[i + 2])
            && (b'0'..=b'7').contains(&b[i + 3])
        {
            out.push(((b[i + 1] - b'0') << 6) | ((b[i + 2] - b'0') << 3) | (b[i + 3] - b'0'));
            i += 4;
        } else {
            return Err(bad_text(s, BYTEA));
        }
    }
    Ok(out)
}

/// Days from 2000-01-01 to a proleptic Gregorian date.
pub(crate) fn days_from_2000(year: i32, month: u32, day: u32) -> i64 {
    // days from 0000-03-01, with March the first month of the year
    let y = year as i64 - if month <= 2 { 1 } else { 0 };
    let m = month as i64;
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - (719_468 + 10_957) // to 1970-01-01, then to 2000-01-01
}

fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ => {
            if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 {
                29
            } else {
                28
            }
        }
    }
}

fn num<T: std::str::FromStr>(s: &str, len: usize) -> Option<T> {
    if s.len() == len && s.bytes().all(|c| c.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

/// ISO 8601 text: YYYY-MM-DD, then optionally [T ]HH:MM[:SS[.ffffff]] and
/// an offset (Z, ±HH, ±HH:MM); (days, usec of day, offset seconds east).
fn parse_iso(s: &str, oid: u32) -> Result<(i64, i64, Option<i64>)> {
    let bad = || {
        Error::InvalidKey(format!(
            "cannot read \"{}\" as {} here: give ISO 8601 text (YYYY-MM-DD HH:MM:SS.ffffff+HH:MM)",
            s,
            type_name(oid)
        ))
    };
    let t = s.trim_matches(PG_SPACE);
    if t.len() < 10 {
        return Err(bad());
    }
    let (y, mo, d) = (num::<i32>(&t[0..4], 4), num::<u32>(&t[5..7], 2), num::<u32>(&t[8..10], 2));
    let (y, mo, d) = match (y, mo, d) {
        (Some(y), Some(mo), Some(d)) if &t[4..5] == "-" && &t[7..8] == "-" && (1..=12).contains(&mo) => (y, mo, d),
        _ => return Err(bad()),
    };
    if d < 1 || d > days_in_month(y, mo) {
        return Err(Error::InvalidKey(format!("date/time field value out of range: \"{}\"", s)));
    }
    let days = days_from_2000(y, mo, d);
    let rest = &t[10..];
    if rest.is_empty() {
        return Ok((days, 0, None));
    }
    let rest = rest.strip_prefix(|c| c == 'T' || c == ' ').ok_or_else(bad)?;
    let zone_at = rest.find(|c| c == 'Z' || c == 'z' || c == '+' || c == '-').unwrap_or(rest.len());
    let (clock, zone) = rest.split_at(zone_at);
    let mut parts = clock.split(':');
    let h: i64 = parts.next().and_then(|x| num(x, 2)).ok_or_else(bad)?;
    let mi: i64 = parts.next().and_then(|x| num(x, 2)).ok_or_else(bad)?;
    let (sec, usec) = match parts.next() {
        None => (0, 0),
        Some(x) => {
            let (whole, frac) = match x.find('.') {
                Some(i) => (&x[..i], &x[i + 1..]),
                None => (x, ""),
            };
            let sec: i64 = num(whole, 2).ok_or_else(bad)?;
            if frac.len() > 6 || !frac.bytes().all(|c| c.is_ascii_digit()) {
                return Err(bad());
            }
            let mut us: i64 = if frac.is_empty() { 0 } else { frac.parse().map_err(|_| bad())? };
            for _ in frac.len()..6 {
                us *= 10;
            }
            (sec, us)
        }
    };
    if parts.next().is_some() || h > 24 || mi > 59 || sec > 60 || (h == 24 && (mi, sec, usec) != (0, 0, 0)) {
        return Err(bad());
    }
    let tod = ((h * 60 + mi) * 60 + sec) * 1_000_000 + usec;
    let offset = if zone.is_empty() {
        None
    } else if zone.eq_ignore_ascii_case("z") {
        Some(0)
    } else {
        let sign = if zone.starts_with('-') { -1 } else { 1 };
        let z = &zone[1..];
        let (zh, zm) = match z.len() {
            2 => (num::<i64>(z, 2), Some(0)),
            4 => (num::<i64>(&z[..2], 2), num::<i64>(&z[2..], 2)),
            5 if &z[2..3] == ":" => (num::<i64>(&z[..2], 2), num::<i64>(&z[3..], 2)),
            _ => (None, None),
        };
        match (zh, zm) {
            (Some(zh), Some(zm)) if zh <= 15 && zm <= 59 => Some(sign * (zh * 3600 + zm * 60)),
            _ => return Err(bad()),
        }
    };
    Ok((days, tod, offset))
}

fn le_word(v: i64) -> Canon<'static> {
    Canon::Word(v as u64)
}

fn owned(v: Vec<u8>) -> Canon<'static> {
    Canon::Bytes(Cow::Owned(v))
}

/// A key's bytes as the value of its own type (an untyped filter, a record
/// column, an array element).
fn natural<'a>(key: &Key<'a>) -> Result<Option<Canon<'a>>> {
    Ok(Some(match *key {
        Key::Null => return Err(Error::InvalidArgument("a NULL key is never added or checked".into())),
        Key::Int(v) => le_word(v),
        Key::Text(s) => Canon::Bytes(Cow::Borrowed(s.as_bytes())),
        Key::Bytes(b) => Canon::Bytes(Cow::Borrowed(b)),
        Key::Uuid(u) => owned(u.to_vec()),
        Key::Float(d) => Canon::Word(float_word(d)),
        Key::Numeric(s) => numeric_canon(s)?,
        Key::Bool(b) => owned(vec![b as u8]),
        Key::Date(d) => owned(d.to_be_bytes().to_vec()),
        Key::Timestamp(t) | Key::TimestampTz(t) => owned(t.to_be_bytes().to_vec()),
        Key::Row(cols) => return record(cols, |c| natural(c)),
    }))
}

/// int32 column count, then each column as int32 length (-1: NULL) and bytes.
fn record<'a, F>(cols: &[Key<'a>], mut enc: F) -> Result<Option<Canon<'a>>>
where
    F: FnMut(&Key<'a>) -> Result<Option<Canon<'a>>>,
{
    let mut out = (cols.len() as u32).to_le_bytes().to_vec();
    for c in cols {
        if matches!(c, Key::Null) {
            out.extend_from_slice(&(-1i32).to_le_bytes());
            continue;
        }
        match enc(c)? {
            None => return Ok(None),
            Some(canon) => {
                let b = canon.into_vec();
                out.extend_from_slice(&(b.len() as u32).to_le_bytes());
                out.extend_from_slice(&b);
            }
        }
    }
    Ok(Some(owned(out)))
}

/// The bytes a key hashes as in a filter of this hash id and key type;
/// Ok(None) when no key of that type can equal it (a check answers false,
/// an add is refused).
pub(crate) fn canonical<'a>(key: &Key<'a>, hash_id: u8, key_type: u32) -> Result<Option<Canon<'a>>> {
    if hash_id == 1 {
        return canonical_v1(key, key_type);
    }
    if key_type == UNTYPED {
        return natural(key);
    }
    typed(key, key_type)
}

/// The bytes the server hashes for `key` in a filter of this hash id and
/// key type; Ok(None) when no value of the key type equals the key.
/// Whether a filter of this hash id, made in a database of this
/// `server_encoding`, hashed text this client cannot reproduce beyond
/// ASCII. Hash id 5 (bloomfilter 1.5) hashes text as UTF-8 in every
/// database; hash ids 1 and 2 (1.4 and earlier) hashed it in the
/// database's encoding, which is UTF-8 in a UTF8 database and, in a
/// SQL_ASCII one, the UTF-8 this client sends. This crate has no other
/// encoding's tables: ASCII, which every server encoding shares, is hashed
/// and other text refused.
pub(crate) fn ascii_text_only(hash_id: u8, server_encoding: &str) -> bool {
    let name: String = server_encoding
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .collect::<String>()
        .to_ascii_uppercase();
    hash_id != 5 && !matches!(name.as_str(), "UTF8" | "UNICODE" | "SQLASCII")
}

/// Refuse a key with non-ASCII text (a row's columns too) where only ASCII
/// text hashes as the filter's database did.
pub(crate) fn check_text(key: &Key, ascii_only: bool) -> Result<()> {
    if !ascii_only {
        return Ok(());
    }
    match key {
        Key::Text(s) if !s.is_ascii() => Err(Error::InvalidKey(format!(
            "cannot hash the non-ASCII text {:?}: this filter has hash id 2 (made by bloomfilter 1.4 or \
             earlier) in a database whose encoding is neither UTF8 nor SQL_ASCII, and hashed text as that \
             encoding's bytes, which this client cannot produce",
            s
        ))),
        Key::Row(cols) => cols.iter().try_for_each(|c| check_text(c, true)),
        _ => Ok(()),
    }
}

pub fn canonical_bytes(key: &Key, hash_id: u8, key_type: u32) -> Result<Option<Vec<u8>>> {
    Ok(canonical(key, hash_id, key_type)?.map(Canon::into_vec))
}

fn typed<'a>(key: &Key<'a>, oid: u32) -> Result<Option<Canon<'a>>> {
    if let Some(cols) = row_signature_columns(oid) {
        return match key {
            Key::Row(row) if row.len() == cols.len() => {
                let mut i = 0;
                record(row, |c| {
                    let t = cols[i];
                    i += 1;
                    typed(c, t)
                })
            }
            Key::Row(row) => Err(Error::KeyTypeMismatch(format!(
                "a row of {} columns cannot be compared with keys of type {}",
                row.len(),
                type_name(oid)
            ))),
            _ => Err(refuse(key, oid)),
        };
    }
    let k = *key;
    Ok(match oid {
        INT2 | INT4 | INT8 => match k {
            Key::Int(v) => Some(le_word(v)),
            Key::Text(s) => Some(le_word(parse_int(s, oid)?)),
            Key::Float(d) => {
                if !d.is_finite() || d != d.trunc() || d.abs() > 9.223372036854775808e18 {
                    None
                } else if d.abs() >= 9_007_199_254_740_992.0 {
                    return Err(Error::KeyTypeMismatch(format!(
                        "several integers equal the double precision key {} (give the integer)",
                        d
                    )));
                } else {
                    Some(le_word(d as i64))
                }
            }
            Key::Numeric(s) => numeric_whole(s)?.map(le_word),
            _ => return Err(refuse(key, oid)),
        },
        NUMERIC => match k {
            Key::Int(v) => Some(le_word(v)),
            Key::Numeric(s) | Key::Text(s) => Some(numeric_canon(s)?),
            Key::Float(_) => {
                return Err(Error::KeyTypeMismatch(
                    "a double precision key cannot be compared with keys of type numeric: SQL compares them as double precision, where many numerics are equal (give the numeric's text)".into(),
                ))
            }
            _ => return Err(refuse(key, oid)),
        },
        FLOAT4 | FLOAT8 => match k {
            Key::Float(d) => Some(Canon::Word(float_word(d))),
            Key::Int(v) => Some(Canon::Word(float_word(v as f64))),
            Key::Text(s) => Some(Canon::Word(float_word(parse_float(s, oid)?))),
            Key::Numeric(s) => {
                let d = parse_float(s, FLOAT8)?;
                Some(Canon::Word(float_word(d)))
            }
            _ => return Err(refuse(key, oid)),
        },
        TEXT | VARCHAR => match k {
            Key::Text(s) => Some(Canon::Bytes(Cow::Borrowed(s.as_bytes()))),
            _ => return Err(refuse(key, oid)),
        },
        BPCHAR => match k {
            // char(n) keys lost their trailing blanks, and SQL compares
            // char(n) with a string ignoring them
            Key::Text(s) => Some(Canon::Bytes(Cow::Borrowed(s.trim_end_matches(' ').as_bytes()))),
            _ => return Err(refuse(key, oid)),
        },
        NAME => match k {
            Key::Text(s) => {
                // namein clips to 63 bytes at a character boundary
                let mut n = s.len().min(63);
                while !s.is_char_boundary(n) {
                    n -= 1;
                }
                Some(Canon::Bytes(Cow::Borrowed(s[..n].as_bytes())))
            }
            _ => return Err(refuse(key, oid)),
        },
        BYTEA => match k {
            Key::Bytes(b) => Some(Canon::Bytes(Cow::Borrowed(b))),
            Key::Text(s) => Some(owned(parse_bytea(s)?)),
            _ => return Err(refuse(key, oid)),
        },
        UUID => match k {
            Key::Uuid(u) => Some(owned(u.to_vec())),
            Key::Text(s) => Some(owned(parse_uuid(s)?.to_vec())),
            _ => return Err(refuse(key, oid)),
        },
        BOOL => match k {
            Key::Bool(b) => Some(owned(vec![b as u8])),
            Key::Text(s) => Some(owned(vec![parse_bool(s)? as u8])),
            _ => return Err(refuse(key, oid)),
        },
        DATE => {
            let days = match k {
                Key::Date(d) => Some(d as i64),
                Key::Timestamp(t) => {
                    if t.rem_euclid(DAY_USEC) == 0 {
                        Some(t.div_euclid(DAY_USEC))
                    } else {
                        None
                    }
                }
                Key::Text(s) => match parse_iso(s, oid)? {
                    (d, 0, None) => Some(d),
                    _ => return Err(bad_text(s, oid)),
                },
                _ => return Err(refuse(key, oid)),
            };
            days.map(|d| owned((d as i32).to_be_bytes().to_vec()))
        }
        TIMESTAMP => {
            let t = match k {
                Key::Timestamp(t) => t,
                Key::Date(d) => d as i64 * DAY_USEC,
                Key::Text(s) => match parse_iso(s, oid)? {
                    (d, tod, None) => d * DAY_USEC + tod,
                    _ => {
                        return Err(Error::InvalidKey(format!(
                            "a timestamp key's text must have no UTC offset: \"{}\"",
                            s
                        )))
                    }
                },
                _ => return Err(refuse(key, oid)),
            };
            Some(owned(t.to_be_bytes().to_vec()))
        }
        TIMESTAMPTZ => {
            let t = match k {
                Key::TimestampTz(t) => t,
                Key::Text(s) => match parse_iso(s, oid)? {
                    (d, tod, Some(off)) => d * DAY_USEC + tod - off * 1_000_000,
                    _ => {
                        return Err(Error::InvalidKey(format!(
                            "a timestamptz key's text needs a UTC offset (the server would read it in the session's TimeZone): \"{}\"",
                            s
                        )))
                    }
                },
                // a date or timestamp compares with timestamptz in the session's TimeZone
                _ => return Err(refuse(key, oid)),
            };
            Some(owned(t.to_be_bytes().to_vec()))
        }
        RECORD => match k {
            Key::Row(_) => natural(key)?,
            _ => return Err(refuse(key, oid)),
        },
        _ => {
            return Err(Error::Unsupported(format!(
                "this client does not convert keys for a filter of key type {} (OID {}), which the server does: convert the key on the server",
                type_name(oid),
                oid
            )))
        }
    })
}

/// Hash id 1 (filters made by 1.0 and 1.1): integers, text, bytea, uuid and
/// the types with one send form per value hash as their own bytes; a typed
/// one converts text and keys of the same bytes only.
fn canonical_v1<'a>(key: &Key<'a>, key_type: u32) -> Result<Option<Canon<'a>>> {
    let nat = key.natural_type();
    let v1_type = |t: u32| {
        matches!(t, INT2 | INT4 | INT8 | TEXT | VARCHAR | BPCHAR | NAME | BYTEA | UUID | BOOL | DATE | TIMESTAMP | TIMESTAMPTZ)
    };
    let group = |t: u32| match t {
        INT2 | INT4 | INT8 => INT8,
        TEXT | VARCHAR | BPCHAR | NAME => TEXT,
        x => x,
    };
    if key_type == UNTYPED {
        if !v1_type(nat) {
            return Err(Error::Unsupported(format!(
                "keys of type {} are not supported by a filter of hash id 1 (made by bloomfilter 1.0 or 1.1)",
                type_name(nat)
            )));
        }
        return natural(key);
    }
    if !v1_type(key_type) {
        return Err(Error::Unsupported(format!(
            "keys of type {} are not supported by a filter of hash id 1 (made by bloomfilter 1.0 or 1.1)",
            type_name(key_type)
        )));
    }
    if !matches!(key, Key::Text(_)) && group(nat) != group(key_type) {
        return Err(refuse(key, key_type));
    }
    typed(key, key_type)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(k: Key, t: u32) -> Option<Vec<u8>> {
        canonical(&k, 2, t).unwrap().map(|c| c.into_vec())
    }

    #[test]
    fn numerics() {
        let w = |v: i64| Some(v.to_le_bytes().to_vec());
        assert_eq!(bytes(Key::Numeric("2.00"), 0), w(2));
        assert_eq!(bytes(Key::Numeric("-0"), 0), w(0));
        assert_eq!(bytes(Key::Numeric("1.5e1"), 0), w(15));
        assert_eq!(bytes(Key::Numeric("1.50"), 0), Some(b"1.5".to_vec()));
        assert_eq!(bytes(Key::Numeric("-.250"), 0), Some(b"-0.25".to_vec()));
        assert_eq!(bytes(Key::Numeric("25e-3"), 0), Some(b"0.025".to_vec()));
        assert_eq!(bytes(Key::Numeric("nan"), 0), Some(b"NaN".to_vec()));
        assert_eq!(bytes(Key::Numeric("9223372036854775808"), 0), Some(b"9223372036854775808".to_vec()));
        assert_eq!(bytes(Key::Numeric("-9223372036854775808"), 0), w(i64::MIN));
        assert!(canonical(&Key::Numeric("1..2"), 2, 0).is_err());
    }

    #[test]
    fn floats() {
        assert_eq!(float_word(2.0), 2);
        assert_eq!(float_word(-0.0), 0);
        assert_eq!(float_word(f64::NAN), 0x7FF8_0000_0000_0000);
        assert_eq!(float_word(0.5), 0.5f64.to_bits());
        assert_eq!(bytes(Key::Float(5.5), INT8), None);
        assert_eq!(bytes(Key::Text(" 7 "), INT4), Some(7i64.to_le_bytes().to_vec()));
        assert!(matches!(canonical(&Key::Text("70000"), 2, INT2), Err(Error::InvalidKey(_))));
        assert!(matches!(canonical(&Key::Bytes(b"x"), 2, INT8), Err(Error::KeyTypeMismatch(_))));
    }

    #[test]
    fn dates() {
        assert_eq!(days_from_2000(2000, 1, 1), 0);
        assert_eq!(days_from_2000(1999, 12, 31), -1);
        assert_eq!(days_from_2000(2024, 1, 6), 8771);
        assert_eq!(days_from_2000(1970, 1, 1), -10957);
    }

    #[test]
    fn row_signatures() {
        let row = [Key::Int(5), Key::date(2024, 1, 6)];
        // ROW(5, '2024-01-06'::date) gives 0x800001E2... for int4; int8 here is code 3
        assert_eq!(Key::Row(&row).natural_type(), 0x8000_0000 | 3 | 15 << 5);
        assert_eq!(row_signature_columns(0x8000_01E2), Some(vec![INT4, DATE]));
        assert!(valid_key_type(0x8000_01E2));
        assert!(!valid_key_type(0x8000_0000));
        assert!(!valid_key_type(9999));
    }
}

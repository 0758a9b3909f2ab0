"""Canonical bytes of a key: the bytes the server hashes for it.

The server reduces each SQL value to canonical bytes (its
src/bloomfilter_elem.c) and hashes those.  A Python key stands for the SQL
value psycopg would send for it, and gets that value's bytes:

=====================  =====================  ==============================
Python key             SQL value              canonical bytes (hash id 2)
=====================  =====================  ==============================
int (int8 range)       int2, int4, int8       8 bytes little-endian
int (beyond int8)      numeric                its decimal digits, ASCII
bool                   boolean                1 byte, 0 or 1
str                    text, varchar          UTF-8 (hash id 2: the
                                              database's encoding)
bytes, bytearray, ...  bytea                  the bytes
uuid.UUID              uuid                   its 16 bytes
float                  float8                 whole within int8: as that
                                              int; else 8 bytes LE, NaN one
decimal.Decimal        numeric                whole within int8: as that
                                              int; else ASCII, trailing
                                              fractional zeros removed
datetime.date          date                   send form: int32 BE days
datetime.datetime      timestamp (naive),     send form: int64 BE
                       timestamptz (aware)    microseconds since 2000-01-01
datetime.time          time (naive),          send form: int64 BE
                       timetz (aware)         microseconds (+ int32 zone)
datetime.timedelta     interval               int128 LE microseconds
ipaddress objects      inet, cidr             send form, is-cidr byte zero
tuple                  record                 int32 count, then each column
                                              as int32 length + its bytes
list (nested: dims)    array                  ndim, dims, lower bounds 1,
                                              each element length + bytes
=====================  =====================  ==============================

Hash id 5 (new filters from 1.5) hashes text as UTF-8 in every database.
Hash ids 2 (1.2 to 1.4) and 1 hashed text in the encoding of the database
the filter was made in: ``encoder(..., encoding='LATIN1')`` encodes a str
so (``text_codec``), and refuses one that encoding cannot hold
(``UnencodableKey``) rather than hash other bytes.

Hash id 1 (filters made by 1.0 and 1.1) hashed every type but the common
ones (integers, text, bytea, uuid) by its binary send form; of the keys
above, bool, date, datetime and time have one send form per value and are
hashed so; float, Decimal, timedelta, addresses, tuples and lists have
several (or carry type OIDs) and are refused.

A filter that records its key type (header bytes 12..15 of a bloomfilter,
40..43 of a cuckoofilter: a built-in type OID, 0 for none) converts a key
as the server converts a probe of another type: a str is read by the key
type's input function ('5' against an int8 filter is 5), a float against an
integer filter is that integer when whole, and so on (``encoder``).  A key
that cannot equal any value of the key type is *absent*: the encoder gives
None, a check answers False and an add raises.  A key SQL cannot compare
with the key type at all raises TypeError, never a silent "absent".

An untyped empty filter records the key type of the first key added
(``natural_key_type``: the type of the SQL value psycopg would send, an
int as bigint), as the server's adds record the type of their argument.
"""

import datetime as _dt
import decimal
import ipaddress
import re
import struct
import uuid

__all__ = ["canonical_bytes", "encoder", "KEY_TYPE_NAMES", "UnsupportedKey",
           "UnencodableKey", "natural_key_type", "key_type_oid", "same_bytes",
           "VALID_KEY_TYPES", "text_codec", "pg_encoding", "HASH_ID_UTF8"]

# hash id 5: hash id 2's rules with text as UTF-8 whatever the database's
# encoding; ids 1 and 2 hashed text in the database's encoding
HASH_ID_UTF8 = 5

# built-in type OIDs (pg_type.dat); stable across releases and pg_upgrade
BOOL, BYTEA, NAME, INT8, INT2, INT4, TEXT, OID = 16, 17, 19, 20, 21, 23, 25, 26
FLOAT4, FLOAT8, CIDR, INET, BPCHAR, VARCHAR = 700, 701, 650, 869, 1042, 1043
DATE, TIME, TIMESTAMP, TIMESTAMPTZ, INTERVAL = 1082, 1083, 1114, 1184, 1186
TIMETZ, NUMERIC, UUID_T, RECORD = 1266, 1700, 2950, 2249

KEY_TYPE_NAMES = {
    BOOL: "boolean", BYTEA: "bytea", NAME: "name", INT8: "bigint",
    INT2: "smallint", INT4: "integer", TEXT: "text", OID: "oid",
    FLOAT4: "real", FLOAT8: "double precision", CIDR: "cidr", INET: "inet",
    BPCHAR: "character", VARCHAR: "character varying", DATE: "date",
    TIME: "time without time zone", TIMESTAMP: "timestamp without time zone",
    TIMESTAMPTZ: "timestamp with time zone", INTERVAL: "interval",
    TIMETZ: "time with time zone", NUMERIC: "numeric", UUID_T: "uuid",
    RECORD: "record",
}

# The key types a filter may record: the OIDs the server's key-type rules
# give for a type filters hash (bloom_key_types[] in src/bloom_core.c, the
# same list); values of other key types are refused, as the server's input
# refuses them.  More than this client converts keys of (money, macaddr,
# bit, pg_lsn, int2vector[], ...): those it reads and checks keys of its
# own types against.
VALID_KEY_TYPES = frozenset((
    16, 17, 18, 19, 20, 21, 23, 25, 26, 650, 651, 700, 701, 774, 775, 790,
    791, 829, 869, 1000, 1001, 1002, 1003, 1005, 1006, 1007, 1009, 1013, 1014,
    1015, 1016, 1021, 1022, 1028, 1040, 1041, 1042, 1043, 1082, 1083, 1114,
    1115, 1182, 1183, 1184, 1185, 1186, 1187, 1231, 1266, 1270, 1560, 1561,
    1562, 1563, 1700, 2249, 2287, 2950, 2951, 3220, 3221))

# array type OID -> element type OID, for the element types above
ARRAY_OF = {
    1000: BOOL, 1001: BYTEA, 1003: NAME, 1016: INT8, 1005: INT2, 1007: INT4,
    1009: TEXT, 1028: OID, 1021: FLOAT4, 1022: FLOAT8, 651: CIDR, 1041: INET,
    1014: BPCHAR, 1015: VARCHAR, 1182: DATE, 1183: TIME, 1115: TIMESTAMP,
    1185: TIMESTAMPTZ, 1187: INTERVAL, 1270: TIMETZ, 1231: NUMERIC,
    2951: UUID_T, 2287: RECORD,
}
for _arr, _elem in ARRAY_OF.items():
    KEY_TYPE_NAMES[_arr] = KEY_TYPE_NAMES[_elem] + "[]"

INT8_MIN, INT8_MAX = -(1 << 63), (1 << 63) - 1
_I64_LE = struct.Struct("<q").pack
_I32_LE = struct.Struct("<i").pack
_U32_LE = struct.Struct("<I").pack
_I64_BE = struct.Struct(">q").pack
_I32_BE = struct.Struct(">i").pack
_U32_BE = struct.Struct(">I").pack
_F64_LE = struct.Struct("<d").pack
_F64_BE = struct.Struct(">d").pack
_F32_BE = struct.Struct(">f").pack
_NAN_BYTES = bytes.fromhex("000000000000f87f")  # 0x7FF8000000000000 LE
_PG_EPOCH = _dt.date(2000, 1, 1)
_PG_EPOCH_TS = _dt.datetime(2000, 1, 1)
_PG_EPOCH_TSTZ = _dt.datetime(2000, 1, 1, tzinfo=_dt.timezone.utc)
_USEC = _dt.timedelta(microseconds=1)
_NUMERIC_MAX_DSCALE = 16383


class UnsupportedKey(TypeError):
    """A key no SQL value of the filter's key type could equal or be
    compared with (42804 on the server), or a Python type with no exact
    SQL counterpart."""


class UnencodableKey(ValueError):
    """A str the encoding a filter's text keys were hashed in cannot hold
    (the server, in such a database, refuses the literal: 22021 or
    22P05): hashing any other bytes could answer a silent "absent"."""


# ---- text in a database's encoding ----
#
# Filters of hash ids 1 and 2 hashed text as the bytes of the database the
# filter was made in; hash id 5 hashes UTF-8.  The server encodings
# PostgreSQL has (pg_wchar.h), by the name server_encoding reports, and the
# Python codec of each; SQL_ASCII text has no encoding and holds what
# clients sent, UTF-8 from this one.  An encoding Python has no codec for
# (EUC_TW, MULE_INTERNAL) hashes ASCII, which every server encoding shares,
# and refuses the rest.

_PY_CODECS = {
    "UTF8": "utf-8", "SQL_ASCII": "utf-8",
    "LATIN1": "iso8859-1", "LATIN2": "iso8859-2", "LATIN3": "iso8859-3",
    "LATIN4": "iso8859-4", "LATIN5": "iso8859-9", "LATIN6": "iso8859-10",
    "LATIN7": "iso8859-13", "LATIN8": "iso8859-14", "LATIN9": "iso8859-15",
    "LATIN10": "iso8859-16", "ISO_8859_5": "iso8859-5",
    "ISO_8859_6": "iso8859-6", "ISO_8859_7": "iso8859-7",
    "ISO_8859_8": "iso8859-8", "WIN866": "cp866", "WIN874": "cp874",
    "WIN1250": "cp1250", "WIN1251": "cp1251", "WIN1252": "cp1252",
    "WIN1253": "cp1253", "WIN1254": "cp1254", "WIN1255": "cp1255",
    "WIN1256": "cp1256", "WIN1257": "cp1257", "WIN1258": "cp1258",
    "KOI8R": "koi8-r", "KOI8U": "koi8-u", "EUC_JP": "euc-jp",
    "EUC_CN": "gb2312", "EUC_KR": "euc-kr",
    # Python's euc-jis-2004 encodes 3,163 characters PostgreSQL's cannot
    "EUC_JIS_2004": None, "EUC_TW": None, "MULE_INTERNAL": None,
}
# Characters whose Python bytes are not PostgreSQL's (its UTF8 -> EUC_JP
# conversion maps U+2116 elsewhere and refuses the others, whose Python
# bytes it reads as other characters: 0xA1C1 is U+FF5E there); and EUC_KR
# Hangul outside KS X 1001, which Python writes as 8-byte jamo sequences
# and PostgreSQL refuses.  Measured over every code point against
# PostgreSQL 15's convert_to; test_encodings.py repeats it.
_PG_REFUSES = {"EUC_JP": frozenset("\u2116\xa2\xa3\xa5\xac\u2016\u203e\u2212"
                                   "\u301c")}
# what PostgreSQL also accepts for them (pg_encname_tbl), without _ and -
_PG_ALIASES = {"UNICODE": "UTF8", "UTF8": "UTF8", "SQLASCII": "SQL_ASCII",
               "ISO88591": "LATIN1", "ISO88592": "LATIN2",
               "ISO88593": "LATIN3", "ISO88594": "LATIN4",
               "ISO88599": "LATIN5", "ISO885910": "LATIN6",
               "ISO885913": "LATIN7", "ISO885914": "LATIN8",
               "ISO885915": "LATIN9", "ISO885916": "LATIN10",
               "KOI8": "KOI8R", "WIN": "WIN1251", "ALT": "WIN866",
               "WINDOWS1252": "WIN1252", "WINDOWS1251": "WIN1251"}
for _name in _PY_CODECS:
    _PG_ALIASES.setdefault(_name.replace("_", ""), _name)


def pg_encoding(name):
    """A server encoding's name as server_encoding reports it ('UTF8',
    'LATIN1', 'EUC_JP', ...), from that or an alias PostgreSQL takes
    ('utf-8', 'latin1', 'ISO-8859-1', 'euc_jp'); None stays None (UTF8)."""
    if name is None:
        return "UTF8"
    key = re.sub(r"[-_ ]", "", str(name)).upper()
    found = _PG_ALIASES.get(key)
    if found is None:
        raise ValueError("unknown database encoding %r: give the name "
                         "server_encoding reports (UTF8, LATIN1, EUC_JP, ...)"
                         % (name,))
    return found


def _unencodable(ch, encoding, codec):
    return UnencodableKey(
        "character %r has no equivalent in encoding %s, the encoding this "
        "filter's text keys were hashed in (hash id 2, made by bloomfilter "
        "1.4 or earlier)%s"
        % (ch, encoding, "" if codec else ": this client has no codec for it "
           "and hashes ASCII text only"))


def _make_text_codec(encoding):
    codec = _PY_CODECS[encoding]
    if codec == "utf-8":
        return _utf8
    refused = _PG_REFUSES.get(encoding, frozenset())
    korean = encoding == "EUC_KR"

    def in_encoding(s):
        try:
            b = s.encode(codec) if codec else s.encode("ascii")
        except UnicodeEncodeError as e:
            raise _unencodable(s[e.start:e.end], encoding, codec) from None
        if not s.isascii():
            for ch in s:
                if ch in refused or (korean and "\uac00" <= ch <= "\ud7a3"
                                     and len(ch.encode(codec)) != 2):
                    raise _unencodable(ch, encoding, codec)
        return b
    return in_encoding


_TEXT_CODECS = {}


def text_codec(encoding):
    """str -> the bytes of that text in a database of this encoding (a
    server_encoding name; None: UTF8), raising UnencodableKey for a str it
    cannot hold."""
    enc = pg_encoding(encoding)
    f = _TEXT_CODECS.get(enc)
    if f is None:
        f = _TEXT_CODECS[enc] = _make_text_codec(enc)
    return f


def _type_name(oid):
    cols = row_signature_columns(oid)
    if cols is not None:
        return "record(%s)" % ", ".join(_type_name(c) for c in cols)
    return KEY_TYPE_NAMES.get(oid, "type %d" % oid)


# ---- canonical bytes of hash id 2, one function per SQL type ----

def _int8(v):
    return _I64_LE(v)


def _int_or_numeric(v):
    # psycopg sends an int beyond int8 as numeric: a whole numeric outside
    # int8 hashes as its decimal digits
    if INT8_MIN <= v <= INT8_MAX:
        return _I64_LE(v)
    return str(v).encode("ascii")


def _float8(f):
    if f != f:
        return _NAN_BYTES
    if -9.223372036854775808e18 <= f < 9.223372036854775808e18 and f == int(f):
        return _I64_LE(int(f))          # -0.0 becomes 0, as on the server
    return _F64_LE(f)


def _numeric(d):
    if d.is_snan():
        raise ValueError("a signalling NaN has no numeric value")
    if d.is_nan():
        return b"NaN"
    if d.is_infinite():
        return b"-Infinity" if d < 0 else b"Infinity"
    sign, digits, exp = d.as_tuple()
    if exp >= 0 or all(x == 0 for x in digits[len(digits) + exp:]):
        return _int_or_numeric(int(d))
    digits = list(digits)
    while exp < 0 and digits[-1] == 0:   # trim_scale, without rounding
        digits.pop()
        exp += 1
    if -exp > _NUMERIC_MAX_DSCALE:
        raise ValueError("Decimal %s has more fractional digits than numeric "
                         "keeps (%d)" % (d, _NUMERIC_MAX_DSCALE))
    text = format(decimal.Decimal((sign, tuple(digits), exp)), "f")
    return text.encode("ascii")


def _date(d):
    return _I32_BE((d - _PG_EPOCH).days)


def _timestamp(t):
    return _I64_BE((t - _PG_EPOCH_TS) // _USEC)


def _timestamptz(t):
    return _I64_BE((t - _PG_EPOCH_TSTZ) // _USEC)


def _time_usec(t):
    return ((t.hour * 60 + t.minute) * 60 + t.second) * 1_000_000 \
        + t.microsecond


def _time(t):
    return _I64_BE(_time_usec(t))


def _timetz(t):
    off = t.utcoffset()
    if off is None or off % _dt.timedelta(seconds=1):
        raise ValueError("time %s has no fixed whole-second UTC offset, which "
                         "timetz needs" % t)
    # timetz keeps the zone as seconds west of UTC
    return _I64_BE(_time_usec(t)) + _I32_BE(-int(off.total_seconds()))


def _interval(td):
    return (td // _USEC).to_bytes(16, "little", signed=True)


def _bool(b):
    return b"\x01" if b else b"\x00"


def _oid(v):
    return _U32_BE(v)


def _inet(a):
    if isinstance(a, (ipaddress.IPv4Network, ipaddress.IPv6Network)):
        bits, addr = a.prefixlen, a.network_address.packed
    elif isinstance(a, (ipaddress.IPv4Interface, ipaddress.IPv6Interface)):
        bits, addr = a.network.prefixlen, a.ip.packed
    else:
        bits, addr = a.max_prefixlen, a.packed
    family = 2 if a.version == 4 else 3     # PGSQL_AF_INET, PGSQL_AF_INET6
    return bytes((family, bits, 0, len(addr))) + addr


def _nested(enc, value):
    """A column or array element: int32 length (-1: NULL), then bytes."""
    if value is None:
        return b"\xff\xff\xff\xff"
    data = enc(value)
    if data is None:
        return None
    return _U32_LE(len(data)) + data


def _join_nested(head, values, enc):
    """head, then each value as a nested value; None if one is absent."""
    out = [head]
    for v in values:
        part = _nested(enc, v)
        if part is None:
            return None
        out.append(part)
    return b"".join(out)


def _record(row, enc_col):
    return _join_nested(_U32_LE(len(row)), row, enc_col)


def _array_shape(value):
    """(dims, flat elements) of nested lists; ValueError if ragged."""
    dims = []
    level = value
    while isinstance(level, list):
        dims.append(len(level))
        if not level:
            break
        level = level[0]
    if dims == [0]:
        return [], []
    flat = [value]
    for n in dims:
        nxt = []
        for item in flat:
            if not isinstance(item, list) or len(item) != n:
                raise ValueError("a list key must be rectangular, as a SQL "
                                 "array is")
            nxt.extend(item)
        flat = nxt
    if any(isinstance(x, list) for x in flat):
        raise ValueError("a list key must be rectangular, as a SQL array is")
    return dims, flat


def _array(value, enc_elem):
    dims, flat = _array_shape(value)
    head = _U32_LE(len(dims)) + b"".join(_U32_LE(n) + _U32_LE(1) for n in dims)
    return _join_nested(head, flat, enc_elem)


def _bytes(b):
    return bytes(b)


def _utf8(s):
    return s.encode("utf-8")


def _uuid(u):
    return u.bytes


def _datetime_any(t):
    return _timestamptz(t) if t.tzinfo is not None \
        and t.utcoffset() is not None else _timestamp(t)


def _time_any(t):
    return _timetz(t) if t.tzinfo is not None else _time(t)


_UNTYPED_V2 = {
    int: _int_or_numeric,
    bool: _bool,
    str: _utf8,
    bytes: _bytes,
    bytearray: _bytes,
    memoryview: _bytes,
    uuid.UUID: _uuid,
    float: _float8,
    decimal.Decimal: _numeric,
    _dt.datetime: _datetime_any,
    _dt.date: _date,
    _dt.time: _time_any,
    _dt.timedelta: _interval,
    ipaddress.IPv4Address: _inet, ipaddress.IPv6Address: _inet,
    ipaddress.IPv4Interface: _inet, ipaddress.IPv6Interface: _inet,
    ipaddress.IPv4Network: _inet, ipaddress.IPv6Network: _inet,
}


def _untyped_v2(key):
    f = _UNTYPED_V2.get(type(key))
    if f is None:
        f = _by_isinstance(key, _UNTYPED_V2)
    return f(key)


def _untyped_with(table):
    def untyped(key):
        f = table.get(type(key))
        if f is None:
            f = _by_isinstance(key, table)
        return f(key)
    return untyped


_UNTYPED_V2[tuple] = lambda row: _record(row, _untyped_v2)
_UNTYPED_V2[list] = lambda arr: _array(arr, _untyped_v2)


def _int8_only(v):
    if not INT8_MIN <= v <= INT8_MAX:
        raise OverflowError("integer key %d is outside the int8 range, which "
                            "a filter of hash id 1 cannot hold" % v)
    return _I64_LE(v)


_UNTYPED_V1 = {
    int: _int8_only,
    bool: _bool,
    str: _utf8,
    bytes: _bytes,
    bytearray: _bytes,
    memoryview: _bytes,
    uuid.UUID: _uuid,
    _dt.datetime: _datetime_any,
    _dt.date: _date,
    _dt.time: _time_any,
}


def _by_isinstance(key, table):
    """The encoder for a subclass (IntEnum, a str subclass, ...), or raise."""
    if key is None:
        raise TypeError("a key cannot be None (SQL NULL is never in a filter)")
    for base in (bool, int, str, bytes, bytearray, memoryview, uuid.UUID,
                 float, decimal.Decimal, _dt.datetime, _dt.date, _dt.time,
                 _dt.timedelta, tuple, list):
        if isinstance(key, base):
            f = table.get(base)
            if f is not None:
                return f
            break
    if float not in table:              # hash id 1's tables
        raise UnsupportedKey(
            "%s keys are not supported by a filter of hash id 1 (made by "
            "bloomfilter 1.0 or 1.1): it hashes them by a binary form with "
            "several values per key" % type(key).__name__)
    raise UnsupportedKey("unsupported key type %s" % type(key).__name__)


def _untyped_v1(key):
    f = _UNTYPED_V1.get(type(key))
    if f is None:
        f = _by_isinstance(key, _UNTYPED_V1)
    return f(key)


_UNTYPED_CACHE = {}


def _untyped(hash_id, text):
    """(key -> bytes, {type: bytes function}) of an untyped filter of this
    hash id whose text is hashed by ``text`` (str -> bytes)."""
    v1 = hash_id == 1
    if text is _utf8:
        return (_untyped_v1, _UNTYPED_V1) if v1 else (_untyped_v2, _UNTYPED_V2)
    hit = _UNTYPED_CACHE.get((v1, text))
    if hit is None:
        table = dict(_UNTYPED_V1 if v1 else _UNTYPED_V2)
        table[str] = text
        fn = _untyped_with(table)
        if not v1:
            table[tuple] = lambda row: _record(row, fn)
            table[list] = lambda arr: _array(arr, fn)
        hit = _UNTYPED_CACHE[(v1, text)] = (fn, table)
    return hit


# ---- the key type a key records: the SQL type psycopg would send ----
#
# An untyped empty filter records the key type of the first key added, as
# the server does (bloom_key_first_add).  A Python int is int8 (numeric
# beyond int8's range): psycopg sends the smallest integer type that holds
# it, but int2, int4 and int8 keys hash alike, so only the recorded header
# field differs; give the filter a key type to record another.

_NATURAL = {
    bool: BOOL, str: TEXT, bytes: BYTEA, bytearray: BYTEA, memoryview: BYTEA,
    uuid.UUID: UUID_T, float: FLOAT8, decimal.Decimal: NUMERIC,
    _dt.date: DATE, _dt.timedelta: INTERVAL, tuple: RECORD,
    ipaddress.IPv4Address: INET, ipaddress.IPv6Address: INET,
    ipaddress.IPv4Interface: INET, ipaddress.IPv6Interface: INET,
    ipaddress.IPv4Network: CIDR, ipaddress.IPv6Network: CIDR,
}
ARRAY_TYPE = {_elem: _arr for _arr, _elem in ARRAY_OF.items()}


def _first_leaf(value):
    """The first element of nested lists that is neither a list nor None."""
    for item in value:
        if isinstance(item, list):
            item = _first_leaf(item)
        if item is not None:
            return item
    return None


def natural_key_type(key):
    """The key type (a type OID) that the first key added to an untyped
    empty filter records: that of the SQL value psycopg would send."""
    if type(key) is int:
        return INT8 if INT8_MIN <= key <= INT8_MAX else NUMERIC
    if isinstance(key, tuple):
        return _row_signature(key)
    oid = _NATURAL.get(type(key))
    if oid is not None:
        return oid
    if isinstance(key, bool):
        return BOOL
    if isinstance(key, int):
        return INT8 if INT8_MIN <= key <= INT8_MAX else NUMERIC
    if isinstance(key, _dt.datetime):
        return TIMESTAMPTZ if _aware(key) else TIMESTAMP
    if isinstance(key, _dt.time):
        return TIMETZ if key.tzinfo is not None else TIME
    if isinstance(key, list):
        leaf = _first_leaf(key)
        if leaf is None:
            raise UnsupportedKey("a list with no element but None has no "
                                 "element type to record: give the filter a "
                                 "key type")
        return ARRAY_TYPE[natural_key_type(leaf)]
    for base, oid in _NATURAL.items():
        if isinstance(key, base):
            return oid
    if key is None:
        raise TypeError("a key cannot be None (SQL NULL is never in a filter)")
    raise UnsupportedKey("unsupported key type %s" % type(key).__name__)


_INTS = (INT2, INT4, INT8)
_TEXTS = (TEXT, VARCHAR, BPCHAR, NAME)
_FLOATS = (FLOAT4, FLOAT8)


def same_bytes(s, k, hash_id=2):
    """Whether values of key types s and k that SQL calls equal have the
    same canonical bytes, so that one is hashed as it is against a filter
    of the other (bloom_key_same_bytes)."""
    if s == k or (s in _INTS and k in _INTS):
        return True
    if s in _TEXTS and k in _TEXTS:
        # char(n) keys lost their trailing blanks and name keys were
        # clipped: other strings are converted; a char(n) value against
        # varchar keys is refused (bloom_key_same_bytes)
        return not ((k == BPCHAR and s != BPCHAR) or (k == VARCHAR and s == BPCHAR)
                    or (k == NAME and s != NAME))
    s_elem, k_elem = ARRAY_OF.get(s), ARRAY_OF.get(k)
    if s_elem is not None and k_elem is not None:
        return same_bytes(s_elem, k_elem, hash_id)
    if hash_id == 1:
        return False
    return ((k == NUMERIC and s in _INTS) or (s in _FLOATS and k in _FLOATS)
            or (s in (INET, CIDR) and k in (INET, CIDR)))


_TYPE_ALIASES = {
    "int8": INT8, "int4": INT4, "int": INT4, "int2": INT2, "float8": FLOAT8,
    "float4": FLOAT4, "float": FLOAT8, "bool": BOOL, "varchar": VARCHAR,
    "decimal": NUMERIC, "timestamp": TIMESTAMP, "timestamptz": TIMESTAMPTZ,
    "time": TIME, "timetz": TIMETZ, "bpchar": BPCHAR,
}


def key_type_oid(key_type):
    """A key type given as a type OID (int) or an SQL type name ('bigint',
    'int8', 'text[]', ...) as the OID a filter records; 0 for none."""
    if key_type is None:
        return 0
    if isinstance(key_type, str):
        name = " ".join(key_type.lower().split())
        array = name.endswith("[]")
        base = name[:-2].strip() if array else name
        oid = _TYPE_ALIASES.get(base)
        if oid is None:
            oid = next((o for o, n in KEY_TYPE_NAMES.items() if n == base),
                       None)
        if oid is not None and array:
            oid = ARRAY_TYPE.get(oid)
        if oid is None:
            raise ValueError("unknown key type %r: give a type OID or one of "
                             "the names this client knows (%s)"
                             % (key_type, ", ".join(sorted(
                                 n for n in KEY_TYPE_NAMES.values()
                                 if not n.endswith("[]")))))
        return oid
    return key_type


# ---- the server's input functions, for str keys of a typed filter ----

_PG_SPACE = " \t\n\r\v\f"
_INT_RE = re.compile(r"[+-]?[0-9]+\Z")
_FLOAT_RE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
# strtod, under float8in and float4in, reads hexadecimal floats too
_HEX_FLOAT_RE = re.compile(r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|"
                           r"\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?\Z")
_INT_RANGE = {INT2: 1 << 15, INT4: 1 << 31, INT8: 1 << 63}
_BOOL_WORDS = {"t": True, "true": True, "y": True, "yes": True, "on": True,
               "1": True, "f": False, "false": False, "n": False, "no": False,
               "of": False, "off": False, "0": False}


def _bad_text(s, oid):
    return ValueError('invalid input syntax for type %s: "%s"'
                      % (_type_name(oid), s))


def _parse_int(s, oid):
    t = s.strip(_PG_SPACE)
    if not _INT_RE.match(t):
        raise _bad_text(s, oid)
    v = int(t)
    lim = _INT_RANGE.get(oid, 1 << 63)
    if not -lim <= v < lim:
        raise ValueError('value "%s" is out of range for type %s'
                         % (s, _type_name(oid)))
    return v


def _parse_numeric(s):
    t = s.strip(_PG_SPACE)
    low = t.lower()
    if low == "nan":
        return decimal.Decimal("NaN")
    if low in ("infinity", "+infinity", "inf", "+inf"):
        return decimal.Decimal("Infinity")
    if low in ("-infinity", "-inf"):
        return decimal.Decimal("-Infinity")
    if not _FLOAT_RE.match(t):
        raise _bad_text(s, NUMERIC)
    return decimal.Decimal(t)


def _parse_float8(s, oid=FLOAT8):
    t = s.strip(_PG_SPACE)
    low = t.lower()
    if low in ("nan", "+nan", "-nan"):
        return float("nan")
    if low in ("infinity", "+infinity", "inf", "+inf"):
        return float("inf")
    if low in ("-infinity", "-inf"):
        return float("-inf")
    if _HEX_FLOAT_RE.match(t):
        try:
            f = float.fromhex(t)
        except OverflowError:
            f = float("inf")
    elif _FLOAT_RE.match(t):
        f = float(t)
    else:
        raise _bad_text(s, oid)
    if f in (float("inf"), float("-inf")) or (f == 0.0 and _nonzero(t)):
        raise ValueError('"%s" is out of range for type %s'
                         % (s, _type_name(oid)))
    return f


def _nonzero(t):
    """Whether a float literal's digits are not all zero (an underflow to
    0 is then an error, as float8in and float4in raise)."""
    low = t.lower()
    if _HEX_FLOAT_RE.match(t):
        return any(c in "123456789abcdef" for c in low[low.index("x") + 1:]
                   .split("p")[0])
    return any(c in "123456789" for c in low.split("e")[0])


def _to_float4(exact, f):
    """The float4 nearest the exact value (a Decimal), as strtof rounds it;
    f is the double nearest it.  Rounding through the double differs from
    rounding once only when the double is exactly halfway between two
    float4s (a double is within half its own ulp of the exact value, far
    less than a float4's); that case is settled against the exact value."""
    try:
        r = struct.unpack("<f", struct.pack("<f", f))[0]
    except OverflowError:
        raise ValueError("value out of range for type real") from None
    if r == f:
        return r
    mag = struct.unpack("<I", struct.pack("<f", abs(r)))[0]
    mag += 1 if abs(f) > abs(r) else -1
    nb = struct.unpack("<f", struct.pack("<I", mag))[0]
    nb = -nb if f < 0 else nb
    with decimal.localcontext(decimal.Context(prec=400)):
        mid = (decimal.Decimal(r) + decimal.Decimal(nb)) / 2
    if decimal.Decimal(f) == mid and exact != mid:
        lo, hi = (r, nb) if r < nb else (nb, r)
        return hi if exact > mid else lo
    return r


def _parse_float4(s):
    f = _parse_float8(s, FLOAT4)
    if f != f or f in (float("inf"), float("-inf")):
        return f
    t = s.strip(_PG_SPACE)
    # XXX a hexadecimal float with more bits than a double is rounded twice
    exact = decimal.Decimal(f) if _HEX_FLOAT_RE.match(t) else decimal.Decimal(t)
    r = _to_float4(exact, f)
    if r == 0.0 and _nonzero(t):
        raise ValueError('"%s" is out of range for type real' % s)
    return r


def _parse_bool(s):
    t = s.strip(_PG_SPACE).lower()
    if t in _BOOL_WORDS:
        return _BOOL_WORDS[t]
    # boolin takes any unambiguous prefix of true, false, yes, no (2+ for on/off)
    for word, val in (("true", True), ("false", False), ("yes", True),
                      ("no", False)):
        if t and word.startswith(t):
            return val
    raise _bad_text(s, BOOL)


def _parse_bytea(s, db=_utf8):
    if s.startswith("\\x"):
        hexpart = "".join(s[2:].split())
        try:
            return bytes.fromhex(hexpart)
        except ValueError:
            raise _bad_text(s, BYTEA) from None
    out = bytearray()
    raw = db(s)                         # byteain reads the database's bytes
    i = 0
    while i < len(raw):
        c = raw[i]
        if c != 0x5C:
            out.append(c)
            i += 1
        elif raw[i + 1:i + 2] == b"\\":
            out.append(0x5C)
            i += 2
        elif re.match(rb"[0-3][0-7][0-7]", raw[i + 1:i + 4]):
            out.append(int(raw[i + 1:i + 4], 8))
            i += 4
        else:
            raise _bad_text(s, BYTEA)
    return bytes(out)


def _parse_uuid(s):
    t = s                               # uuid_in skips no blanks
    if t.startswith("{") and t.endswith("}"):
        t = t[1:-1]
    hexdigits = t.replace("-", "")
    # uuid_in allows a hyphen after any group of four digits
    if len(hexdigits) != 32 or not re.fullmatch(r"[0-9a-fA-F]{4}(-?[0-9a-fA-F]{4}){7}", t):
        raise _bad_text(s, UUID_T)
    return uuid.UUID(hex=hexdigits)


def _parse_iso(kind, s, oid):
    try:
        return kind.fromisoformat(s.strip(_PG_SPACE))
    except ValueError:
        raise ValueError('cannot read "%s" as %s here: give an ISO 8601 string '
                         "or a %s object" % (s, _type_name(oid), kind.__name__)) \
            from None


# ---- typed filters: a key converted as the server converts a probe ----
#
# Each converter takes a Python key and returns the value of the key type
# that SQL's equality would compare it as, or None when no value of that
# type can equal it (absent); it raises UnsupportedKey where SQL has no
# comparison (42804 on the server) and ValueError where the server's input
# function would reject a str.

_FLOAT_INT_EXACT = float(1 << 53)
_FLOAT_INT8 = float(1 << 63)    # beyond, no int8 converts to the float


def _refuse(key, oid, hint=""):
    raise UnsupportedKey("cannot look up a %s key in a filter of %s keys%s"
                         % (type(key).__name__, _type_name(oid), hint))


def _conv_int(key, oid):
    if isinstance(key, bool):
        _refuse(key, oid)
    if isinstance(key, int):
        return int(key) if INT8_MIN <= key <= INT8_MAX else None
    if isinstance(key, str):
        return _parse_int(key, oid)
    if isinstance(key, decimal.Decimal):
        if not key.is_finite() or key != key.to_integral_value():
            return None
        v = int(key)
        return v if INT8_MIN <= v <= INT8_MAX else None
    if isinstance(key, float):
        if key != key or key in (float("inf"), float("-inf")) \
                or key != int(key) or abs(key) > _FLOAT_INT8:
            return None
        if abs(key) >= _FLOAT_INT_EXACT:
            _refuse(key, oid, ": several integers equal %r as float8 (cast "
                    "the key to int or Decimal)" % key)
        return int(key)
    _refuse(key, oid)


def _conv_oid(key, oid):
    if isinstance(key, str):
        t = key.strip(_PG_SPACE)
        if not _INT_RE.match(t):
            raise _bad_text(key, OID)
        key = int(t)
        if not -(1 << 31) <= key < (1 << 32):
            raise ValueError('value "%s" is out of range for type oid' % t)
    if isinstance(key, bool) or not isinstance(key, int):
        _refuse(key, oid)
    if -(1 << 31) <= key < 0:
        return key + (1 << 32)          # oid = int4 compares as oid
    return int(key) if 0 <= key < (1 << 32) else None


def _conv_numeric(key, oid):
    if isinstance(key, bool):
        _refuse(key, oid)
    if isinstance(key, int):
        return decimal.Decimal(int(key))
    if isinstance(key, decimal.Decimal):
        return key
    if isinstance(key, str):
        return _parse_numeric(key)
    if isinstance(key, float):
        _refuse(key, oid, ": SQL compares numeric with float8 as float8, "
                "where many numerics are equal (give a Decimal)")
    _refuse(key, oid)


def _conv_float(key, oid):
    if isinstance(key, bool):
        _refuse(key, oid)
    if isinstance(key, float):
        return key
    if isinstance(key, int):
        return float(key)               # the SQL cast to float8
    if isinstance(key, decimal.Decimal):
        f = float(key)
        # numeric_float8 reads the digits as float8in does: out of range
        # is an error, not an infinity or a zero
        if key.is_finite() and (f in (float("inf"), float("-inf"))
                                or (f == 0.0 and key != 0)):
            raise ValueError("value out of range for type double precision: "
                             "%s" % key)
        return f
    if isinstance(key, str):
        return _parse_float4(key) if oid == FLOAT4 else _parse_float8(key)
    _refuse(key, oid)


def _conv_text(key, oid):
    if isinstance(key, str):
        return key
    _refuse(key, oid)


def _conv_name(key, oid, db=_utf8):
    # read as a name, as SQL reads an untyped string: clipped to 63 bytes
    # (NAMEDATALEN - 1) of the database's encoding at a character
    # boundary, as namein clips
    if isinstance(key, str):
        if len(db(key)) <= 63:
            return key
        n = 0
        for i, ch in enumerate(key):
            n += len(db(ch))
            if n > 63:
                return key[:i]
        return key
    _refuse(key, oid)


def _conv_bpchar(key, oid):
    # char(n) keys lost their trailing blanks, and SQL compares char(n)
    # with an untyped string ignoring them: so does the server
    if isinstance(key, str):
        return key.rstrip(" ")
    _refuse(key, oid)


def _conv_bytea(key, oid, db=_utf8):
    if isinstance(key, (bytes, bytearray, memoryview)):
        return bytes(key)
    if isinstance(key, str):
        return _parse_bytea(key, db)
    _refuse(key, oid)


def _conv_uuid(key, oid):
    if isinstance(key, uuid.UUID):
        return key
    if isinstance(key, str):
        return _parse_uuid(key)
    _refuse(key, oid)


def _conv_bool(key, oid):
    if isinstance(key, bool):
        return key
    if isinstance(key, str):
        return _parse_bool(key)
    _refuse(key, oid)


def _aware(t):
    return t.tzinfo is not None and t.utcoffset() is not None


_TZ_HINT = (": the comparison would depend on the session's TimeZone (convert "
            "the key to the filter's type first)")


def _conv_date(key, oid):
    if isinstance(key, str):
        key = _parse_iso(_dt.date, key, oid)
    if isinstance(key, _dt.datetime):
        if _aware(key):
            _refuse(key, oid, _TZ_HINT)
        return key.date() if key.time() == _dt.time(0) else None
    if isinstance(key, _dt.date):
        return key
    _refuse(key, oid)


def _conv_timestamp(key, oid):
    if isinstance(key, str):
        key = _parse_iso(_dt.datetime, key, oid)
        if _aware(key):
            raise ValueError("a timestamp filter's str key must have no UTC "
                             "offset")
    if isinstance(key, _dt.datetime):
        if _aware(key):
            _refuse(key, oid, _TZ_HINT)
        return key
    if isinstance(key, _dt.date):
        return _dt.datetime(key.year, key.month, key.day)
    _refuse(key, oid)


def _conv_timestamptz(key, oid):
    if isinstance(key, str):
        key = _parse_iso(_dt.datetime, key, oid)
        if not _aware(key):
            raise ValueError("a timestamptz filter's str key needs a UTC "
                             "offset (without one the server would read it "
                             "in the session's TimeZone)")
    if isinstance(key, _dt.datetime) and _aware(key):
        return key
    if isinstance(key, _dt.date):
        _refuse(key, oid, _TZ_HINT)
    _refuse(key, oid)


def _conv_time(key, oid):
    want_tz = oid == TIMETZ
    if isinstance(key, str):
        key = _parse_iso(_dt.time, key, oid)
        if (key.tzinfo is not None) != want_tz:
            raise ValueError("a %s filter's str key %s a UTC offset"
                             % (_type_name(oid), "needs" if want_tz else
                                "must have no"))
    if isinstance(key, _dt.time):
        if (key.tzinfo is not None) != want_tz:
            _refuse(key, oid, _TZ_HINT)
        return key
    _refuse(key, oid)


def _conv_interval(key, oid):
    if isinstance(key, _dt.timedelta):
        return key
    _refuse(key, oid, " (give a datetime.timedelta)")


def _conv_inet(key, oid):
    if isinstance(key, str):
        try:
            key = (ipaddress.ip_network(key.strip(_PG_SPACE)) if oid == CIDR
                   else ipaddress.ip_interface(key.strip(_PG_SPACE)))
        except ValueError:
            raise _bad_text(key, oid) from None
    if isinstance(key, (ipaddress.IPv4Address, ipaddress.IPv6Address,
                        ipaddress.IPv4Interface, ipaddress.IPv6Interface,
                        ipaddress.IPv4Network, ipaddress.IPv6Network)):
        return key
    _refuse(key, oid)


def _conv_record(key, oid):
    if isinstance(key, tuple):
        return key
    _refuse(key, oid, " (records have no text input: give a tuple)")


# key type -> (converter, hash id 2 bytes, hash id 1 bytes or None)
_TYPED = {
    INT2: (_conv_int, _int8, _int8),
    INT4: (_conv_int, _int8, _int8),
    INT8: (_conv_int, _int8, _int8),
    OID: (_conv_oid, _oid, _oid),
    NUMERIC: (_conv_numeric, _numeric, None),
    FLOAT4: (_conv_float, _float8, None),
    FLOAT8: (_conv_float, _float8, lambda f: _F64_BE(f)),
    TEXT: (_conv_text, _utf8, _utf8),
    VARCHAR: (_conv_text, _utf8, _utf8),
    BPCHAR: (_conv_bpchar, _utf8, _utf8),
    NAME: (_conv_name, _utf8, _utf8),
    BYTEA: (_conv_bytea, _bytes, _bytes),
    UUID_T: (_conv_uuid, _uuid, _uuid),
    BOOL: (_conv_bool, _bool, _bool),
    DATE: (_conv_date, _date, _date),
    TIMESTAMP: (_conv_timestamp, _timestamp, _timestamp),
    TIMESTAMPTZ: (_conv_timestamptz, _timestamptz, _timestamptz),
    TIME: (_conv_time, _time, _time),
    TIMETZ: (_conv_time, _timetz, _timetz),
    INTERVAL: (_conv_interval, _interval, None),
    INET: (_conv_inet, _inet, None),
    CIDR: (_conv_inet, _inet, None),
    RECORD: (_conv_record, lambda row: _record(row, _untyped_v2), None),
}


# Row signatures (docs/format.md): key types with the high bit set name
# the key types of a row's columns, five bits a column; codes index this.
ROW_FLAG = 0x80000000
ROW_MAX_COLUMNS = 6
_ROW_CODES = (0, INT2, INT4, INT8, TEXT, VARCHAR, BPCHAR, NAME, BYTEA, UUID_T,
              NUMERIC, FLOAT4, FLOAT8, BOOL, 18, DATE, TIME, TIMETZ, TIMESTAMP,
              TIMESTAMPTZ, INTERVAL, INET, CIDR, OID, 790, 829, 774, 1560,
              1562, 3220)


def row_signature_columns(key_type):
    """The column key types of a row signature, or None if key_type is not
    a well-formed one."""
    if not key_type & ROW_FLAG:
        return None
    rest, cols = key_type & ~ROW_FLAG, []
    while len(cols) < ROW_MAX_COLUMNS and rest & 31:
        code = rest & 31
        if code >= len(_ROW_CODES):
            return None
        cols.append(_ROW_CODES[code])
        rest >>= 5
    return cols if cols and rest == 0 else None


def _row_signature(row):
    """The key type the server records for a row of these values' natural
    types: their row signature, or record if one does not fit."""
    if not 0 < len(row) <= ROW_MAX_COLUMNS or any(v is None for v in row):
        return RECORD
    sig = ROW_FLAG
    for i, v in enumerate(row):
        try:
            code = _ROW_CODES.index(natural_key_type(v), 1)
        except (ValueError, UnsupportedKey):
            return RECORD
        sig |= code << (5 * i)
    return sig


def valid_key_type(key_type):
    """A key type a stored value may hold: 0, a type OID below 10000, or a
    row signature."""
    if key_type & ROW_FLAG:
        return row_signature_columns(key_type) is not None
    return 0 <= key_type < 10000


def _row_encoder(key_type, hash_id, text, db):
    cols = [_typed_encoder(oid, hash_id, text, db)
            for oid in row_signature_columns(key_type)]

    def enc_row(key):
        if not isinstance(key, tuple):
            _refuse(key, RECORD, " (give a tuple)")
        if len(key) != len(cols):
            raise UnsupportedKey("a row of %d columns cannot be a key among rows "
                                 "of %d columns" % (len(key), len(cols)))
        out = [_U32_LE(len(key))]
        for enc, v in zip(cols, key):
            part = _nested(enc, v)
            if part is None:
                return None
            out.append(part)
        return b"".join(out)
    return enc_row


def _typed_encoder(key_type, hash_id, text=_utf8, db=_utf8):
    """text: str -> the bytes hashed for text; db: str -> its bytes in the
    database's encoding (what name clipping and bytea input read)."""
    if key_type & ROW_FLAG:
        return _row_encoder(key_type, hash_id, text, db)
    untyped = _untyped(hash_id, text)[0]
    elem = ARRAY_OF.get(key_type)
    if elem is not None:
        if hash_id == 1:
            return _refuse_v1(key_type)

        # SQL compares arrays by casting one to the other's type: the
        # server converts no element, and hashes a list whose element type
        # has the same bytes as the key type's as it is
        def enc_elem(v):
            if not same_bytes(natural_key_type(v), elem):
                _refuse(v, elem, " inside a list (the server converts no "
                        "element of an array)")
            return untyped(v)

        def enc_array(key):
            if not isinstance(key, list):
                _refuse(key, key_type, " (give a list)")
            return _array(key, enc_elem)
        return enc_array
    entry = _TYPED.get(key_type)
    if entry is None:
        def unknown(key):
            raise UnsupportedKey("this client cannot convert keys for a filter "
                                 "of key type %s (OID %d)"
                                 % (_type_name(key_type), key_type))
        return unknown
    conv, enc2, enc1 = entry
    enc = enc2 if hash_id != 1 else enc1
    if enc is None:
        return _refuse_v1(key_type)
    if enc is _utf8:
        enc = text
    if key_type == RECORD:
        enc = lambda row: _record(row, untyped)     # noqa: E731
    if key_type == NAME:
        conv = lambda k, o: _conv_name(k, o, db)    # noqa: E731
    if key_type == BYTEA:
        conv = lambda k, o: _conv_bytea(k, o, db)   # noqa: E731
    if key_type == FLOAT4 and hash_id == 1:
        enc = _float4_send

    def typed(key):
        v = conv(key, key_type)
        return None if v is None else enc(v)
    if hash_id == 1:
        return _typed_v1(key_type, typed)
    return typed


def _typed_v1(key_type, typed):
    """A filter of hash id 1 converts only a str (by the key type's input
    function) and keys whose bytes are the key type's (the integers)."""
    def typed1(key):
        if not isinstance(key, str) and \
                not same_bytes(natural_key_type(key), key_type, 1):
            _refuse(key, key_type, ": a filter of hash id 1 (made by "
                    "bloomfilter 1.1 or earlier) converts only str and int "
                    "keys")
        return typed(key)
    return typed1


def _float4_send(f):
    # a float4 column's send form: a key that is no float4 equals none
    try:
        b = _F32_BE(f)
    except OverflowError:
        return None
    r = struct.unpack(">f", b)[0]
    return b if r == f or f != f else None


def _refuse_v1(key_type):
    def refuse(key):
        raise UnsupportedKey("keys of type %s are not supported by a filter of "
                             "hash id 1 (made by bloomfilter 1.0 or 1.1)"
                             % _type_name(key_type))
    return refuse


def _codecs(hash_id, encoding):
    """(text, db): how a filter of this hash id made in a database of this
    encoding hashes text, and the database's own bytes of a str."""
    db = text_codec(encoding)
    return (_utf8 if hash_id == HASH_ID_UTF8 else db), db


def encoder(hash_id=HASH_ID_UTF8, key_type=0, encoding=None):
    """The function key -> canonical bytes (None: no value of the key type
    equals this key) for a filter of this hash id and key type, made in a
    database of this encoding (a server_encoding name; None: UTF8), which
    hash ids 1 and 2 hash text in."""
    text, db = _codecs(hash_id, encoding)
    if key_type:
        return _typed_encoder(key_type, hash_id, text, db)
    return _untyped(hash_id, text)[0]


def fast_table(hash_id=HASH_ID_UTF8, key_type=0, encoding=None):
    """{python type: bytes function} for the types a filter can encode
    without conversion, so hot loops can skip encoder's dispatch."""
    text = _codecs(hash_id, encoding)[0]
    if key_type in (INT2, INT4, INT8):
        return {int: _int8_checked}
    if key_type in (TEXT, VARCHAR):
        return {str: text}
    if key_type == BPCHAR:
        return {str: lambda s: text(s.rstrip(" "))}
    if key_type == UUID_T:
        return {uuid.UUID: _uuid}
    if key_type == BYTEA:
        return {bytes: _bytes}
    if key_type:
        return {}
    table = _untyped(hash_id, text)[1]
    return {t: f for t, f in table.items() if t in (int, str, bytes, uuid.UUID)}


def _int8_checked(v):
    # an int beyond int8 against an integer filter equals no key: absent
    return _I64_LE(v) if INT8_MIN <= v <= INT8_MAX else None


def canonical_bytes(key, hash_id=HASH_ID_UTF8, key_type=0, encoding=None):
    """The bytes the server hashes for this key in a filter of this hash id
    and key type (made in a database of this encoding, which hash ids 1
    and 2 hash text in); None if no key of that type can equal it."""
    return encoder(hash_id, key_type, encoding)(key)

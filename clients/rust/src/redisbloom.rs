//! Layout 6, `redisbloom`, with hash id 4 (docs/format.md, "RedisBloom:
//! layout 6 and hash id 4", from bloomfilter 1.5): a RedisBloom 2.x
//! scalable chain inside a `bloomfilter` value. Read, checked, added to and
//! built here; the dump (`bf_to_redisbloom`) is the payload cut as
//! format.md says, left to the server.

use crate::blocks;
use crate::bytes::{ld32, ld64, st32, st64};
use crate::error::{Error, Result};
use crate::keys::{self, canonical, Canon, Key, BPCHAR, BYTEA, INT2, INT4, INT8, TEXT, VARCHAR};
use crate::sizing::MAX_BYTES;

pub const LAYOUT_REDISBLOOM: u8 = 6;
pub const HASH_REDISBLOOM: u8 = 4;
const HEADER: usize = 48;
const MAGIC: u32 = 0x464D_4C42;
const CHAIN: usize = 20;
const LINK: usize = 53;
const MAX_LINKS: usize = 64;
const M: u64 = 0xc6a4_a793_5bd1_e995;
const LN2: f64 = 0.693147180559945;
const LN2_SQ: f64 = 0.480453013918201;
const NOROUND: u32 = 1;
const ENTS_IS_BITS: u32 = 2;
const FORCE64: u32 = 4;
const NO_SCALING: u32 = 8;
/// bf_create's bounds for `expansion`, which a scaling chain's growth keeps.
const MAX_GROWTH: u32 = 1024;
/// How far a link's bpe may stray from its rate's, and entries × bpe from
/// its bits, relatively (another C library's `log` may differ in the last
/// bits).
const REL_SLACK: f64 = 1e-9;

const E_LINK: &str = "A link fails RedisBloom's checks: its error rate must be in (0, 1), its bits 8 times its bytes (at least one), its hashes ceil(ln 2 * bpe), and n2 below 64 and within its bits.";
const E_BPE: &str = "A RedisBloom link's bpe must be the bits per element its error rate gives, |ln(error)| / ln(2)^2.";
const E_ENTRIES: &str = "A RedisBloom link's entries must be what its bits hold at its bpe, as RedisBloom sizes a link.";
const E_SIZE: &str = "A RedisBloom link's size, the elements it counted, must not exceed its entries.";
const E_NEXT: &str = "Each RedisBloom link after the first must be the one growth made: half the error rate of the link before it and its entries times the growth; a NONSCALING chain has one link.";
const E_GROWTH: &str = "A RedisBloom chain that scales must have a growth between 1 and 1024, and not the option ENTS_IS_BITS (2), with which a link of e entries is followed by one of 2^(e * growth) bits.";

/// MurmurHash64A (64-bit MurmurHash2), as format.md spells it out.
pub fn murmur64a(data: &[u8], seed: u64) -> u64 {
    let mut h = seed ^ (data.len() as u64).wrapping_mul(M);
    let mut words = data.chunks_exact(8);
    for w in &mut words {
        let mut k = u64::from_le_bytes(w.try_into().unwrap()).wrapping_mul(M);
        k ^= k >> 47;
        k = k.wrapping_mul(M);
        h = (h ^ k).wrapping_mul(M);
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        let mut w = 0u64;
        for (i, &b) in tail.iter().enumerate() {
            w |= (b as u64) << (8 * i);
        }
        h = (h ^ w).wrapping_mul(M);
    }
    h ^= h >> 47;
    h = h.wrapping_mul(M);
    h ^ (h >> 47)
}

fn redis_key_type(t: u32) -> bool {
    matches!(t, 0 | INT2 | INT4 | INT8 | TEXT | VARCHAR | BPCHAR | BYTEA)
}

#[derive(Clone, Copy, Debug)]
struct Link {
    at: usize,   // the link's 53-byte record
    data: usize, // its bytes
    bits: u64,
    hashes: u32,
    n2: u8,
}

/// A `bloomfilter` of layout 6: a RedisBloom chain.
#[derive(Clone, Debug)]
pub struct RedisBloomFilter {
    buf: Vec<u8>,
    links: Vec<Link>,
    key_type: u32,
}

fn bad(msg: &str) -> Error {
    Error::InvalidValue(format!("invalid bloomfilter value: {}", msg))
}

/// A link's record (53 bytes, format.md), decoded.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rec {
    bytes: u64,
    bits: u64,
    size: u64,
    error: f64,
    bpe: f64,
    hashes: u32,
    entries: u64,
    n2: u8,
}

impl Rec {
    fn read(b: &[u8], at: usize) -> Rec {
        Rec {
            bytes: ld64(b, at),
            bits: ld64(b, at + 8),
            size: ld64(b, at + 16),
            error: f64::from_bits(ld64(b, at + 24)),
            bpe: f64::from_bits(ld64(b, at + 32)),
            hashes: ld32(b, at + 40),
            entries: ld64(b, at + 44),
            n2: b[at + 52],
        }
    }

    fn write(&self) -> [u8; LINK] {
        let mut rec = [0u8; LINK];
        st64(&mut rec, 0, self.bytes);
        st64(&mut rec, 8, self.bits);
        st64(&mut rec, 16, self.size);
        st64(&mut rec, 24, self.error.to_bits());
        st64(&mut rec, 32, self.bpe.to_bits());
        st32(&mut rec, 40, self.hashes);
        st64(&mut rec, 44, self.entries);
        rec[52] = self.n2;
        rec
    }

    /// The server's rb_link_check: what RedisBloom checks when it loads a
    /// link, then what every link its bloom_init makes holds (bpe from the
    /// rate, entries within what the bits hold, size at most entries),
    /// since the entries size the next link.
    fn check(&self) -> std::result::Result<(), &'static str> {
        let k = LN2 * self.bpe;
        if !(self.error > 0.0 && self.error < 1.0)
            || self.bytes == 0
            || self.bytes > MAX_BYTES
            || self.bits != self.bytes * 8
            || self.n2 > 63
            || (self.n2 != 0 && self.bits < 1u64 << self.n2)
            || !(k > 0.0 && k <= 2048.0)
            || self.hashes != k.ceil() as u32
        {
            return Err(E_LINK);
        }
        if !((self.bpe - bpe_of(self.error)).abs() <= REL_SLACK * self.bpe) {
            return Err(E_BPE);
        }
        let x = self.entries as f64 * self.bpe;
        let fits = if self.n2 == 0 {
            let m = self.bits as f64;
            x < m + 1.0 + m * REL_SLACK && x > m - 64.0 - m * REL_SLACK
        } else {
            let m = (1u64 << self.n2) as f64;
            x <= m + m * REL_SLACK && x >= m / 2.0 - self.bpe - 1.0 - m * REL_SLACK
        };
        if !fits {
            return Err(E_ENTRIES);
        }
        if self.size > self.entries {
            return Err(E_SIZE);
        }
        Ok(())
    }

    /// The server's rb_link_follows: whether this link is the one growth
    /// makes after `prev` in a chain of these options and growth.
    fn follows(&self, prev: &Rec, options: u32, growth: u32) -> bool {
        if options & NO_SCALING != 0 || self.error != prev.error * 0.5 {
            return false;
        }
        match prev.entries.checked_mul(growth as u64) {
            Some(want) if options & NOROUND != 0 => self.entries == want,
            Some(want) => self.entries >= want,
            None => false,
        }
    }
}

fn bpe_of(error: f64) -> f64 {
    (error.ln() / LN2_SQ).abs()
}

/// RedisBloom's bloom_init: the record of a new, empty link, or None where
/// it fails or would make a link this layout refuses (no bits, a shift of
/// 64, more than a value holds); nothing is allocated here.
fn link_shape(entries: u64, error: f64, options: u32) -> Option<Rec> {
    if entries == 0 || !(error > 0.0 && error < 1.0) {
        return None;
    }
    let bpe = bpe_of(error);
    let mut entries = entries;
    let mut n2 = 0u8;
    let bits = if options & ENTS_IS_BITS != 0 {
        if entries > 63 {
            return None;
        }
        n2 = entries as u8;
        entries = ((1u64 << n2) as f64 / bpe) as u64;
        1u64 << n2
    } else if options & NOROUND != 0 {
        let want = entries as f64 * bpe;
        if !(want < 18446744073709551616.0) {
            return None;
        }
        want as u64
    } else {
        let want = entries as f64 * bpe;
        // C's logb: the binary exponent, exact (log2 may round up to it)
        let bn2 = ((want.to_bits() >> 52) & 0x7ff) as i64 - 1023;
        if !want.is_finite() || !(0..63).contains(&bn2) {
            return None;
        }
        n2 = (bn2 + 1) as u8;
        let bits = 1u64 << n2;
        entries += ((bits as f64 - want) as u64 as f64 / bpe) as u64;
        bits
    };
    if bits == 0 || bits / 8 > MAX_BYTES {
        return None;
    }
    let bytes = if bits % 64 == 0 { bits / 8 } else { (bits / 64 + 1) * 8 };
    let rec = Rec { bytes, bits: bytes * 8, size: 0, error, bpe, hashes: (LN2 * bpe).ceil() as u32, entries, n2 };
    rec.check().ok().map(|_| rec)
}

fn full() -> Error {
    Error::Full(
        "redisbloom bloom filter cannot grow any further: a RedisBloom chain is limited to 64 links and the size limit of a bloom filter value"
            .into(),
    )
}

impl RedisBloomFilter {
    fn locate(&mut self) {
        let n = ld32(&self.buf, HEADER + 8) as usize;
        let mut data = HEADER + CHAIN + LINK * n;
        self.links.clear();
        for i in 0..n {
            let at = HEADER + CHAIN + LINK * i;
            let bytes = ld64(&self.buf, at) as usize;
            self.links.push(Link {
                at,
                data,
                bits: ld64(&self.buf, at + 8),
                hashes: ld32(&self.buf, at + 40),
                n2: self.buf[at + 52],
            });
            data += bytes;
        }
        self.key_type = ld32(&self.buf, 12);
    }

    /// A layout-6 value's bytes, with the documented input checks (the
    /// server's messages for them are not all reproduced: bad bytes are
    /// refused with a detail of this client's own).
    pub fn from_bytes(b: &[u8]) -> Result<RedisBloomFilter> {
        if b.len() < HEADER + CHAIN || ld32(b, 0) != MAGIC || b[4] != 1 || b[5] != LAYOUT_REDISBLOOM {
            return Err(bad("The value is not a RedisBloom chain (layout 6)."));
        }
        if b[6] != HASH_REDISBLOOM {
            return Err(bad("The hash function is not supported by this build."));
        }
        if !redis_key_type(ld32(b, 12)) {
            return Err(bad("The key type must be 0 or the OID of a built-in type that filters hash."));
        }
        if b.len() as u64 > MAX_BYTES {
            return Err(bad("The links exceed the size limit of a bloom filter value."));
        }
        let n = ld32(b, HEADER + 8) as usize;
        let options = ld32(b, HEADER + 12);
        let growth = ld32(b, HEADER + 16);
        if n == 0 || n > MAX_LINKS || n != b[7] as usize || ld32(b, 8) != 0 {
            return Err(bad("The chain's header does not match the value's."));
        }
        if options & !15 != 0 || options & FORCE64 == 0 {
            return Err(bad("The chain's options are not supported by this build."));
        }
        // the growth sizes every later link (with ENTS_IS_BITS, as
        // 2^(entries * growth) bits, which no RedisBloom command makes); a
        // NONSCALING chain makes none
        if options & NO_SCALING == 0 && (!(1..=MAX_GROWTH).contains(&growth) || options & ENTS_IS_BITS != 0) {
            return Err(bad(E_GROWTH));
        }
        if b.len() < HEADER + CHAIN + LINK * n {
            return Err(bad("The length does not match the header."));
        }
        let mut data = HEADER + CHAIN + LINK * n;
        let (mut size, mut nbits, mut set) = (0u64, 0u64, 0u64);
        let mut prev: Option<Rec> = None;
        for i in 0..n {
            let l = Rec::read(b, HEADER + CHAIN + LINK * i);
            l.check().map_err(bad)?;
            if let Some(p) = prev {
                if !l.follows(&p, options, growth) {
                    return Err(bad(E_NEXT));
                }
            }
            if l.bytes > (b.len() - data) as u64 {
                return Err(bad("The length does not match the header."));
            }
            size = size.checked_add(l.size).ok_or_else(|| bad("The links' sizes do not add up to the chain's size."))?;
            nbits += l.bits;
            set += blocks::popcount(&b[data..data + l.bytes as usize]);
            data += l.bytes as usize;
            prev = Some(l);
        }
        if data != b.len() || size != ld64(b, HEADER) || nbits != ld64(b, 16) || set != ld64(b, 40) {
            return Err(bad("The chain's counts do not match the value's header."));
        }
        let first = Rec::read(b, HEADER + CHAIN);
        let rate = if options & NO_SCALING != 0 { first.error } else { first.error / 0.5 };
        if first.entries != ld64(b, 24) || first.entries == 0 || first.entries > i64::MAX as u64 || rate.to_bits() != ld64(b, 32) || !(rate < 1.0) {
            return Err(bad("The first link's entries and error rate make no valid capacity and rate."));
        }
        let mut f = RedisBloomFilter { buf: b.to_vec(), links: Vec::new(), key_type: 0 };
        f.locate();
        Ok(f)
    }

    /// `bf_create(capacity, error, expansion => e, layout => 'redisbloom')`
    /// (`BF.RESERVE`; expansion 0 is NONSCALING).
    pub fn new(capacity: u64, error: f64, expansion: u32) -> Result<RedisBloomFilter> {
        if capacity == 0 || capacity > i64::MAX as u64 || !(error > 0.0 && error < 1.0) {
            return Err(Error::InvalidArgument(format!(
                "a RedisBloom filter needs a positive capacity and an error rate between 0 and 1, got {} and {}",
                capacity, error
            )));
        }
        let options = NOROUND | FORCE64 | if expansion == 0 { NO_SCALING } else { 0 };
        let growth = if expansion == 0 { 2 } else { expansion };
        let link_error = if expansion == 0 { error } else { error * 0.5 };
        let mut b = vec![0u8; HEADER + CHAIN];
        st32(&mut b, 0, MAGIC);
        b[4] = 1;
        b[5] = LAYOUT_REDISBLOOM;
        b[6] = HASH_REDISBLOOM;
        st32(&mut b, HEADER + 12, options);
        st32(&mut b, HEADER + 16, growth);
        let mut f = RedisBloomFilter { buf: b, links: Vec::new(), key_type: 0 };
        f.append_link(capacity, link_error).map_err(|_| {
            Error::Full(format!(
                "a RedisBloom filter for {} elements at error rate {} has no bits or exceeds the size limit",
                capacity, error
            ))
        })?;
        Ok(f)
    }

    /// A new, empty link for `entries` at `error`, as SBChain_AddLink makes
    /// it; `Error::Full` (the server's 54000) past 64 links or the size
    /// limit, checked before anything is allocated, and where memory for
    /// the grown value cannot be had.
    fn append_link(&mut self, entries: u64, error: f64) -> Result<()> {
        let n = self.links.len();
        if n >= MAX_LINKS {
            return Err(full());
        }
        let options = ld32(&self.buf, HEADER + 12);
        let rec = link_shape(entries, error, options).ok_or_else(full)?;
        let grown = (self.buf.len() as u64).checked_add(LINK as u64 + rec.bytes).ok_or_else(full)?;
        if grown > MAX_BYTES {
            return Err(full());
        }
        let at = HEADER + CHAIN + LINK * n;
        let mut out = Vec::new();
        out.try_reserve_exact(grown as usize).map_err(|_| full())?;
        out.extend_from_slice(&self.buf[..at]);
        out.extend_from_slice(&rec.write());
        out.extend_from_slice(&self.buf[at..]);
        out.resize(grown as usize, 0);
        self.buf = out;
        st32(&mut self.buf, HEADER + 8, (n + 1) as u32);
        self.buf[7] = (n + 1) as u8;
        let nbits = ld64(&self.buf, 16) + rec.bits;
        st64(&mut self.buf, 16, nbits);
        let first = HEADER + CHAIN;
        let cap = ld64(&self.buf, first + 44);
        st64(&mut self.buf, 24, cap);
        let e0 = f64::from_bits(ld64(&self.buf, first + 24));
        let rate = if options & NO_SCALING != 0 { e0 } else { e0 / 0.5 };
        st64(&mut self.buf, 32, rate.to_bits());
        self.locate();
        Ok(())
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        self.buf.clone()
    }
    pub fn key_type(&self) -> u32 {
        self.key_type
    }
    pub fn links(&self) -> usize {
        self.links.len()
    }

    /// The bytes a Redis client sends for the key, converted to the key type first.
    fn element(&self, key: &Key, key_type: u32) -> Result<Option<Vec<u8>>> {
        let t = if key_type == 0 { key.natural_type() } else { key_type };
        if !redis_key_type(t) || t == 0 {
            return Err(Error::Unsupported(format!(
                "a RedisBloom filter's keys are integers, text or bytea, not {}",
                keys::type_name(t)
            )));
        }
        Ok(match canonical(key, 2, t)? {
            None => None,
            Some(Canon::Word(w)) => Some((w as i64).to_string().into_bytes()),
            Some(c) => Some(keys::canon_vec(c)),
        })
    }

    fn hash(e: &[u8]) -> (u64, u64) {
        let a = murmur64a(e, M);
        (a, murmur64a(e, a))
    }

    fn holds(&self, l: &Link, a: u64, b: u64) -> bool {
        let m = if l.n2 != 0 { 1u64 << l.n2 } else { l.bits };
        (0..l.hashes as u64).all(|i| {
            let x = a.wrapping_add(i.wrapping_mul(b)) % m;
            self.buf[l.data + (x >> 3) as usize] >> (x & 7) & 1 == 1
        })
    }

    /// `bf_contains(f, key)` (`BF.EXISTS`).
    pub fn contains<'k, K: Into<Key<'k>>>(&self, key: K) -> Result<bool> {
        Ok(match self.element(&key.into(), self.key_type)? {
            Some(e) => {
                let (a, b) = Self::hash(&e);
                self.links.iter().rev().any(|l| self.holds(l, a, b))
            }
            None => false,
        })
    }

    /// `bf_add(f, key)` (`BF.ADD`): the same bytes as the server's add.
    pub fn add<'k, K: Into<Key<'k>>>(&mut self, key: K) -> Result<()> {
        let key = key.into();
        if matches!(key, Key::Null) {
            return Ok(());
        }
        let t = if self.key_type == 0 && ld64(&self.buf, HEADER) == 0 { key.natural_type() } else { self.key_type };
        let e = self.element(&key, t)?.ok_or_else(|| {
            Error::KeyTypeMismatch(format!("the key {:?} equals no value of the filter's key type {}", key, keys::type_name(t)))
        })?;
        if t != self.key_type {
            st32(&mut self.buf, 12, t);
            self.key_type = t;
        }
        let (a, b) = Self::hash(&e);
        if self.links.iter().any(|l| self.holds(l, a, b)) {
            return Ok(());
        }
        let last = *self.links.last().unwrap();
        if ld64(&self.buf, last.at + 16) >= ld64(&self.buf, last.at + 44) {
            let options = ld32(&self.buf, HEADER + 12);
            if options & NO_SCALING != 0 {
                return Err(Error::Full("non scaling filter is full".into()));
            }
            // from_bytes held the growth to 1 ..= 1024; checked again, as
            // it sizes what is allocated
            let growth = ld32(&self.buf, HEADER + 16);
            if !(1..=MAX_GROWTH).contains(&growth) || options & ENTS_IS_BITS != 0 {
                return Err(full());
            }
            let entries = ld64(&self.buf, last.at + 44).checked_mul(growth as u64).ok_or_else(full)?;
            let error = f64::from_bits(ld64(&self.buf, last.at + 24)) * 0.5;
            self.append_link(entries, error)?;
        }
        let l = *self.links.last().unwrap();
        let m = if l.n2 != 0 { 1u64 << l.n2 } else { l.bits };
        let mut newly = 0u64;
        for i in 0..l.hashes as u64 {
            let x = a.wrapping_add(i.wrapping_mul(b)) % m;
            let at = l.data + (x >> 3) as usize;
            let bit = 1u8 << (x & 7);
            if self.buf[at] & bit == 0 {
                self.buf[at] |= bit;
                newly += 1;
            }
        }
        let set = ld64(&self.buf, 40) + newly;
        st64(&mut self.buf, 40, set);
        if newly > 0 {
            let s = ld64(&self.buf, l.at + 16) + 1;
            st64(&mut self.buf, l.at + 16, s);
            let c = ld64(&self.buf, HEADER) + 1;
            st64(&mut self.buf, HEADER, c);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// format.md's table of MurmurHash64A values.
    #[test]
    fn documented_hashes() {
        let rows: [(&[u8], u64, u64); 5] = [
            (b"", 0x1ab11ea5a7b2c56e, 0xbbddcb5ab56dd547),
            (b"1", 0x447dd899fc2bb5ea, 0x6beceac5ee0df626),
            (b"-42", 0x83a1d7ebae665eab, 0x98fc0ad75e8bfd55),
            ("ключ".as_bytes(), 0xc43a53f2f63c8353, 0x624c643129ab114f),
            (b"abcdefghi", 0xa2c004e44bd0a465, 0x28459a22cef68950),
        ];
        for (bytes, a, b) in rows {
            assert_eq!(RedisBloomFilter::hash(bytes), (a, b), "{:?}", bytes);
        }
    }

    #[test]
    fn grows_and_reads_back() {
        let mut f = RedisBloomFilter::new(100, 0.01, 2).unwrap();
        for i in 0..1000i64 {
            f.add(i).unwrap();
        }
        assert!(f.links() > 1);
        assert!((0..1000i64).all(|i| f.contains(i).unwrap()));
        let g = RedisBloomFilter::from_bytes(&f.to_bytes()).unwrap();
        assert_eq!(g.to_bytes(), f.to_bytes());
    }
}

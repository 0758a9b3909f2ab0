//! Layout 5, `guava`, with hash id 3 (docs/format.md, "Layout 5, guava,
//! and hash id 3", from bloomfilter 1.5): the bits of Guava's
//! `BloomFilter` (strategy MURMUR128_MITZ_64) inside a `bloomfilter`
//! value, and Guava's own serialized form (`bf_to_guava`, `bf_from_guava`).

use crate::blocks;
use crate::bytes::{ld32, ld64, st32, st64};
use crate::error::{Error, Result};
use crate::keys::{self, canonical, Canon, Key, BYTEA, INT4, INT8, TEXT};
use crate::sizing::MAX_BYTES;

pub const LAYOUT_GUAVA: u8 = 5;
pub const HASH_GUAVA: u8 = 3;
const HEADER: usize = 48;
const MAGIC: u32 = 0x464D_4C42;
const MAX_LONGS: u64 = (MAX_BYTES - HEADER as u64) / 8;
const MAX_HASHES: u32 = 255;
/// Guava's serialized form: strategy ordinal, k, number of longs.
const GUAVA_PREFIX: usize = 6;
const MITZ_64: u8 = 1;

/// A `bloomfilter` of layout 5: Guava's bits, keys of one of the four
/// funnels' types (bigint, integer, text, bytea), seed 0.
#[derive(Clone, Debug)]
pub struct GuavaFilter {
    buf: Vec<u8>,
    k: u32,
    nbits: u64,
    key_type: u32,
}

fn bad(msg: &str) -> Error {
    Error::InvalidValue(format!("invalid bloomfilter value: {}", msg))
}

fn funnel_key_type(t: u32) -> bool {
    t == INT8 || t == INT4 || t == TEXT || t == BYTEA
}

/// The server's input check of a layout-5 value, in its order.
pub(crate) fn validate(b: &[u8]) -> Result<()> {
    if b.len() < HEADER {
        return Err(bad("The length does not match the header."));
    }
    if ld32(b, 0) != MAGIC {
        return Err(bad("The value does not start with the bloomfilter magic number."));
    }
    if b[4] != 1 {
        return Err(bad("The format version is not supported by this build."));
    }
    if b[5] != LAYOUT_GUAVA {
        return Err(bad("The bit layout is not supported by this build."));
    }
    if b[6] != HASH_GUAVA {
        return Err(bad("The hash function is not supported by this build."));
    }
    let key_type = ld32(b, 12);
    if !funnel_key_type(key_type) && !(key_type < 10000 || keys::row_signature_columns(key_type).is_some()) {
        return Err(bad("The key type must be 0 or the OID of a built-in type that filters hash."));
    }
    if ld32(b, 8) != 0 {
        return Err(bad("Reserved header fields must be zero."));
    }
    if !funnel_key_type(key_type) {
        return Err(bad("The key type must be 0 or the OID of a built-in type that filters hash."));
    }
    let nbits = ld64(b, 16);
    if nbits == 0 || nbits % 64 != 0 || nbits / 64 > MAX_LONGS {
        return Err(bad("The number of bits must be a positive multiple of 512 within the size limit."));
    }
    if (b.len() - HEADER) as u64 != nbits / 8 {
        return Err(bad("The length does not match the header."));
    }
    if b[7] == 0 {
        return Err(bad("The number of hash functions must be between 1 and 64."));
    }
    if ld64(b, 40) > nbits {
        return Err(bad("The count of bits set does not match the bits."));
    }
    let capacity = ld64(b, 24);
    if capacity == 0 || capacity > i64::MAX as u64 {
        return Err(bad("The capacity must be between 1 and 9223372036854775807."));
    }
    let rate = f64::from_bits(ld64(b, 32));
    if !(rate > 0.0 && rate < 1.0) {
        return Err(bad("The error rate must be greater than 0 and less than 1."));
    }
    if blocks::popcount(&b[HEADER..]) != ld64(b, 40) {
        return Err(bad("The count of bits set does not match the bits."));
    }
    Ok(())
}

/// Guava's BloomFilter.create sizing with Java's arithmetic: (longs, k).
pub fn guava_size(capacity: u64, rate: f64) -> Result<(u64, u32)> {
    let n = capacity.max(1) as f64;
    let ln2 = 2f64.ln();
    let bits_d = -n * rate.ln() / (ln2 * ln2);
    // Java's (long) cast: towards 0, NaN to 0, saturating
    let bits: i64 = if bits_d.is_nan() {
        0
    } else if bits_d >= i64::MAX as f64 {
        i64::MAX
    } else {
        bits_d as i64
    };
    if bits <= 0 {
        return Err(Error::InvalidArgument(format!(
            "a Guava filter for {} elements at error rate {} would have no bits",
            capacity, rate
        )));
    }
    // Math.round: the nearest, halves up (these values are positive)
    let k = ((bits as f64 / n * ln2).round() as i64).max(1);
    if k > MAX_HASHES as i64 {
        return Err(Error::InvalidArgument(format!(
            "a Guava filter at error rate {} would need {} hash functions, more than Guava's 255",
            rate, k
        )));
    }
    let longs = (bits as u64 + 63) / 64;
    if longs > MAX_LONGS {
        return Err(Error::Full(format!(
            "Guava filter for {} elements at error rate {} is too large (the limit is {} bytes)",
            capacity, rate, MAX_BYTES
        )));
    }
    Ok((longs, k as u32))
}

impl GuavaFilter {
    /// `bf_create(capacity, rate, layout => 'guava', key_type => key_type)`:
    /// key type bigint, integer, text or bytea (the funnel).
    pub fn new(capacity: u64, rate: f64, key_type: u32) -> Result<GuavaFilter> {
        if !funnel_key_type(key_type) {
            return Err(Error::Unsupported(format!(
                "a Guava filter's keys are bigint, integer, text or bytea, not {}",
                keys::type_name(key_type)
            )));
        }
        if capacity == 0 || capacity > i64::MAX as u64 || !(rate > 0.0 && rate < 1.0) {
            return Err(Error::InvalidArgument(format!(
                "a Guava filter needs a positive capacity and an error rate between 0 and 1, got {} and {}",
                capacity, rate
            )));
        }
        let (longs, k) = guava_size(capacity, rate)?;
        let mut b = vec![0u8; HEADER + longs as usize * 8];
        st32(&mut b, 0, MAGIC);
        b[4] = 1;
        b[5] = LAYOUT_GUAVA;
        b[6] = HASH_GUAVA;
        b[7] = k as u8;
        st32(&mut b, 12, key_type);
        st64(&mut b, 16, longs * 64);
        st64(&mut b, 24, capacity);
        st64(&mut b, 32, rate.to_bits());
        Ok(GuavaFilter::from_buf(b))
    }

    fn from_buf(buf: Vec<u8>) -> GuavaFilter {
        GuavaFilter { k: buf[7] as u32, nbits: ld64(&buf, 16), key_type: ld32(&buf, 12), buf }
    }

    /// A layout-5 value's bytes (`f::bytea`), checked as the server's input checks them.
    pub fn from_bytes(bytes: &[u8]) -> Result<GuavaFilter> {
        validate(bytes)?;
        Ok(GuavaFilter::from_buf(bytes.to_vec()))
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        self.buf.clone()
    }

    /// `bf_from_guava(bytes, key_type)`: Guava's `writeTo` bytes.
    pub fn from_guava(bytes: &[u8], key_type: u32) -> Result<GuavaFilter> {
        let bad = |m: &str| Error::InvalidValue(format!("invalid Guava BloomFilter bytes: {}", m));
        if !funnel_key_type(key_type) {
            return Err(Error::Unsupported(format!(
                "a Guava filter's keys are bigint, integer, text or bytea, not {}",
                keys::type_name(key_type)
            )));
        }
        if bytes.len() < GUAVA_PREFIX {
            return Err(bad("They are shorter than the 6-byte prefix."));
        }
        match bytes[0] {
            MITZ_64 => {}
            0 => return Err(Error::Unsupported("strategy MURMUR128_MITZ_32 (ordinal 0) is not read".into())),
            _ => return Err(bad("The strategy ordinal names no strategy.")),
        }
        let k = bytes[1];
        if k == 0 {
            return Err(bad("The number of hash functions is 0."));
        }
        let longs = i32::from_be_bytes(bytes[2..6].try_into().unwrap());
        if longs <= 0 {
            return Err(bad("The number of longs must be positive."));
        }
        if longs as u64 > MAX_LONGS {
            return Err(Error::Full("The filter is larger than a bloomfilter value can be.".into()));
        }
        if (bytes.len() - GUAVA_PREFIX) as u64 != longs as u64 * 8 {
            return Err(bad("The data's length does not match the number of longs."));
        }
        let nbits = longs as u64 * 64;
        let mut b = vec![0u8; HEADER + nbits as usize / 8];
        for (i, w) in bytes[GUAVA_PREFIX..].chunks_exact(8).enumerate() {
            let v = u64::from_be_bytes(w.try_into().unwrap());
            st64(&mut b, HEADER + 8 * i, v);
        }
        let set = blocks::popcount(&b[HEADER..]);
        let ln2 = 2f64.ln();
        let capacity = ((nbits as f64 * ln2 / k as f64 + 0.5).floor() as u64).max(1);
        st32(&mut b, 0, MAGIC);
        b[4] = 1;
        b[5] = LAYOUT_GUAVA;
        b[6] = HASH_GUAVA;
        b[7] = k;
        st32(&mut b, 12, key_type);
        st64(&mut b, 16, nbits);
        st64(&mut b, 24, capacity);
        st64(&mut b, 32, 0.5f64.powi(k as i32).to_bits());
        st64(&mut b, 40, set);
        Ok(GuavaFilter::from_buf(b))
    }

    /// `bf_to_guava(f)`: the bytes Guava's `writeTo` writes for this filter.
    pub fn to_guava(&self) -> Vec<u8> {
        let longs = (self.nbits / 64) as i32;
        let mut out = Vec::with_capacity(GUAVA_PREFIX + self.nbits as usize / 8);
        out.push(MITZ_64);
        out.push(self.k as u8);
        out.extend_from_slice(&longs.to_be_bytes());
        for w in self.buf[HEADER..].chunks_exact(8) {
            out.extend_from_slice(&u64::from_le_bytes(w.try_into().unwrap()).to_be_bytes());
        }
        out
    }

    pub fn key_type(&self) -> u32 {
        self.key_type
    }
    pub fn nhashes(&self) -> u32 {
        self.k
    }
    pub fn nbits(&self) -> u64 {
        self.nbits
    }
    pub fn capacity(&self) -> u64 {
        ld64(&self.buf, 24)
    }
    pub fn error_rate(&self) -> f64 {
        f64::from_bits(ld64(&self.buf, 32))
    }
    pub fn bits_set(&self) -> u64 {
        ld64(&self.buf, 40)
    }

    /// The funnel's bytes of a key converted to the key type, hashed with seed 0.
    fn hash_of(&self, key: &Key) -> Result<Option<(u64, u64)>> {
        let canon = match canonical(key, 2, self.key_type)? {
            Some(c) => c,
            None => return Ok(None),
        };
        Ok(match (self.key_type, canon) {
            (INT4, Canon::Word(w)) => {
                let v = w as i64;
                if v < i32::MIN as i64 || v > i32::MAX as i64 {
                    None // no integer equals it
                } else {
                    Some(crate::murmur::hash128(&(v as i32).to_le_bytes(), 0))
                }
            }
            (_, c) => Some(c.hash(0)),
        })
    }

    fn bits(&self, h1: u64, h2: u64) -> impl Iterator<Item = u64> {
        let (m, k) = (self.nbits, self.k);
        (0..k as u64).map(move |i| (h1.wrapping_add(h2.wrapping_mul(i)) & i64::MAX as u64) % m)
    }

    /// `bf_contains(f, key)`.
    pub fn contains<'k, K: Into<Key<'k>>>(&self, key: K) -> Result<bool> {
        Ok(match self.hash_of(&key.into())? {
            Some((h1, h2)) => self.bits(h1, h2).all(|b| self.buf[HEADER + (b >> 3) as usize] >> (b & 7) & 1 == 1),
            None => false,
        })
    }

    /// `bf_add(f, key)`.
    pub fn add<'k, K: Into<Key<'k>>>(&mut self, key: K) -> Result<()> {
        let key = key.into();
        if matches!(key, Key::Null) {
            return Ok(());
        }
        let (h1, h2) = self.hash_of(&key)?.ok_or_else(|| {
            Error::KeyTypeMismatch(format!(
                "the key {:?} equals no value of the filter's key type {}",
                key,
                keys::type_name(self.key_type)
            ))
        })?;
        let bits: Vec<u64> = self.bits(h1, h2).collect();
        let mut set = self.bits_set();
        for b in bits {
            let at = HEADER + (b >> 3) as usize;
            let mask = 1u8 << (b & 7);
            if self.buf[at] & mask == 0 {
                self.buf[at] |= mask;
                set += 1;
            }
        }
        st64(&mut self.buf, 40, set);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figures docs/format.md gives for layout 5.
    #[test]
    fn documented_figures() {
        assert_eq!(crate::murmur::hash128(&42i64.to_le_bytes(), 0), (0xb6ac_c399_89d2_7df8, 0x24b9_17fb_96f2_2f80));
        assert_eq!(guava_size(1000, 0.01).unwrap(), (150, 7));
        assert!(matches!(guava_size(1, 0.9), Err(Error::InvalidArgument(_))));
        assert!(matches!(guava_size(1000, 1e-80), Err(Error::InvalidArgument(_))));
    }

    #[test]
    fn round_trips() {
        let mut f = GuavaFilter::new(1000, 0.01, INT4).unwrap();
        for i in 0..500i64 {
            f.add(i * 3).unwrap();
        }
        assert!((0..500i64).all(|i| f.contains(i * 3).unwrap()));
        assert!(!f.contains(1i64 << 40).unwrap());
        let g = GuavaFilter::from_guava(&f.to_guava(), INT4).unwrap();
        assert_eq!(g.to_guava(), f.to_guava());
        assert_eq!(GuavaFilter::from_bytes(&f.to_bytes()).unwrap().to_bytes(), f.to_bytes());
        assert!(matches!(f.add(1i64 << 40), Err(Error::KeyTypeMismatch(_))));
        assert!(matches!(f.contains("x"), Err(Error::InvalidKey(_))));
    }
}

//! `cuckoofilter` values (docs/format.md, "cuckoofilter binary format",
//! "hash scheme", "sizing and growth", "inserting, merging, deleting").

use crate::bytes::{ld16, ld32, ld64, mul_high, st16, st32, st64};
use crate::error::{Error, Result};
use crate::keys::{self, canonical, Key, UNTYPED};
use crate::murmur::fmix64;
use crate::sizing::{self, cuckoo_buckets_ok, cuckoo_room, cuckoo_slot_bytes, MARGIN, MAX_BYTES};

pub const HEADER: usize = 48;
pub const MAGIC: u32 = 0x464F_4B43; // "CKOF" little-endian
const SUB_HEADER: usize = 24;
const MAX_SUBS: usize = 64;
const DEFAULT_MAX_KICKS: u16 = 500;
const MIN_ERROR_RATE: f64 = 1e-8;
const WEAK_SEED_MAX: u32 = 8;
const KICK_MULT: u64 = 6364136223846793005;
const KICK_ADD: u64 = 1442695040888963407;
/// Zero bytes kept past the value, so that a slot word is always read whole.
const PAD: usize = 8;

#[derive(Clone, Copy, Debug)]
struct Sub {
    desc: usize,
    n: u64,
    f: u32,
}

/// A `cuckoofilter` value: counts copies, deletes, grows by sub-filters.
/// Checks take `&self` and never write (`Send + Sync`).
#[derive(Clone, Debug)]
pub struct CuckooFilter {
    buf: Vec<u8>,
    len: usize,
    b: u64,
    seed: u32,
    key_type: u32,
    subs: Vec<Sub>,
    /// hash id 2 made in a database whose text this client cannot encode
    ascii_text: bool,
}

fn bad(msg: &str) -> Error {
    Error::InvalidValue(format!("invalid cuckoofilter value: {}", msg))
}

const E_LENGTH: &str = "The length does not match the header and sub-filters.";
const E_FP: &str = "Fingerprint bits must be between 2 and 32, the same in the header as in the first sub-filter.";
const E_COUNTS: &str = "The item counts do not match the slots.";
const E_RESERVED: &str = "Reserved fields must be zero.";

/// The server's cuckoo_validate, with its messages.
fn validate(v: &[u8]) -> Result<()> {
    if v.len() < HEADER || v.len() as u64 > MAX_BYTES {
        return Err(bad(E_LENGTH));
    }
    if ld32(v, 0) != MAGIC {
        return Err(bad("The value does not start with the cuckoofilter magic number."));
    }
    if v[4] != 1 {
        return Err(bad("The format version is not supported by this build."));
    }
    if v[5] != 2 && v[5] != 5 {
        return Err(bad("The hash id must be 2 or 5.")); // the server's words
    }
    if ld32(v, 44) != 0 {
        return Err(bad(E_RESERVED));
    }
    if !keys::valid_key_type(ld32(v, 40)) {
        return Err(bad("The key type must be 0 or the OID of a built-in type that filters hash."));
    }
    let b = v[6] as u64;
    if b != 2 && b != 4 && b != 8 {
        return Err(bad("The bucket size must be 2, 4 or 8."));
    }
    let f0 = v[7] as u64;
    if !(2..=32).contains(&f0) {
        return Err(bad(E_FP));
    }
    let nsub = ld16(v, 12) as usize;
    if !(1..=MAX_SUBS).contains(&nsub) {
        return Err(bad("The number of sub-filters must be between 1 and 64."));
    }
    if ld16(v, 14) > 4096 {
        return Err(bad("The kick limit must be at most 4096."));
    }
    let capacity = ld64(v, 16);
    if capacity == 0 || capacity > i64::MAX as u64 {
        return Err(bad("The capacity must be between 1 and 9223372036854775807."));
    }
    let rate = f64::from_bits(ld64(v, 24));
    if !(rate > 0.0 && rate < 1.0) {
        return Err(bad("The error rate must be greater than 0 and less than 1."));
    }
    let mut off = HEADER;
    let mut items = 0u64;
    for i in 0..nsub {
        if v.len() - off < SUB_HEADER {
            return Err(bad(E_LENGTH));
        }
        let n = ld64(v, off);
        let count = ld64(v, off + 8);
        let f = v[off + 16] as u64;
        if v[off + 17..off + 24].iter().any(|&x| x != 0) {
            return Err(bad(E_RESERVED));
        }
        if !(2..=32).contains(&f) || (i == 0 && f != f0) {
            return Err(bad(E_FP));
        }
        if !cuckoo_buckets_ok(n, b, f) {
            return Err(bad("The number of buckets of a sub-filter must be positive and within the size limit."));
        }
        if count > n * b {
            return Err(bad(E_COUNTS));
        }
        off += SUB_HEADER;
        let slot_bytes = cuckoo_slot_bytes(n, b, f) as usize;
        if v.len() - off < slot_bytes {
            return Err(bad(E_LENGTH));
        }
        let slots = &v[off..off + slot_bytes];
        let mask = (1u64 << f) - 1;
        let mut used = 0u64;
        for k in 0..n * b {
            let bit = k * f;
            let at = (bit >> 3) as usize;
            let mut w = 0u64;
            for (j, &x) in slots[at..slot_bytes.min(at + 8)].iter().enumerate() {
                w |= (x as u64) << (8 * j);
            }
            used += ((w >> (bit & 7)) & mask != 0) as u64;
        }
        if used != count {
            return Err(bad(E_COUNTS));
        }
        let pad = slot_bytes as u64 * 8 - n * b * f;
        if pad > 0 && (slots[slot_bytes - 1] as u64) >> (8 - pad) != 0 {
            return Err(bad("The unused bits after the last slot must be zero."));
        }
        off += slot_bytes;
        items += count;
    }
    if off != v.len() {
        return Err(bad(E_LENGTH));
    }
    if items != ld64(v, 32) {
        return Err(bad(E_COUNTS));
    }
    // the capacity sizes every later sub-filter, so the first has a slot for each element of it
    if (ld64(v, HEADER) as u128) * (b as u128) < capacity as u128 {
        return Err(bad("The first sub-filter must have at least as many slots as the capacity."));
    }
    Ok(())
}

#[inline]
fn fingerprint(h2: u64, f: u32) -> u64 {
    let fp = h2 >> (64 - f);
    if fp != 0 {
        fp
    } else {
        1
    }
}

#[inline]
fn alt(bucket: u64, fp: u64, n: u64) -> u64 {
    let h = mul_high(fmix64(fp), n);
    if h >= bucket {
        h - bucket
    } else {
        h + n - bucket
    }
}

impl CuckooFilter {
    fn from_padded(buf: Vec<u8>, len: usize) -> CuckooFilter {
        let mut c = CuckooFilter {
            b: buf[6] as u64,
            seed: ld32(&buf, 8),
            key_type: ld32(&buf, 40),
            subs: Vec::new(),
            ascii_text: false,
            buf,
            len,
        };
        c.locate_subs();
        c
    }

    fn locate_subs(&mut self) {
        let nsub = ld16(&self.buf, 12) as usize;
        let mut at = HEADER;
        self.subs.clear();
        for _ in 0..nsub {
            let n = ld64(&self.buf, at);
            let f = self.buf[at + 16] as u32;
            self.subs.push(Sub { desc: at, n, f });
            at += SUB_HEADER + cuckoo_slot_bytes(n, self.b, f as u64) as usize;
        }
    }

    /// A value in the bytes `f::bytea` gives, validated as strictly as the server's input.
    pub fn from_bytes(bytes: &[u8]) -> Result<CuckooFilter> {
        validate(bytes)?;
        let mut buf = Vec::with_capacity(bytes.len() + PAD);
        buf.extend_from_slice(bytes);
        buf.resize(bytes.len() + PAD, 0);
        Ok(CuckooFilter::from_padded(buf, bytes.len()))
    }

    /// As [`CuckooFilter::from_bytes`], for a value made in a database of
    /// this `server_encoding`, as [`crate::BloomFilter::from_bytes_in`].
    pub fn from_bytes_in(bytes: &[u8], server_encoding: &str) -> Result<CuckooFilter> {
        let mut f = CuckooFilter::from_bytes(bytes)?;
        f.ascii_text = crate::keys::ascii_text_only(f.buf[5], server_encoding);
        Ok(f)
    }

    /// 2: text in the database's encoding (1.3, 1.4); 5: text as UTF-8 (1.5).
    pub fn hash_id(&self) -> u8 {
        self.buf[5]
    }

    pub fn from_base64(text: &str) -> Result<CuckooFilter> {
        CuckooFilter::from_bytes(&crate::base64::decode(text)?)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        self.buf[..self.len].to_vec()
    }

    pub fn to_base64(&self) -> String {
        crate::base64::encode(&self.to_bytes())
    }

    /// `cf_create(capacity, rate, seed)`: untyped until its first key.
    pub fn new(capacity: u64, rate: f64, seed: u32) -> Result<CuckooFilter> {
        if capacity == 0 || capacity > i64::MAX as u64 {
            return Err(Error::InvalidArgument(format!("cuckoo filter capacity must be positive, got {}", capacity)));
        }
        if !(rate >= MIN_ERROR_RATE && rate < 1.0) {
            return Err(Error::InvalidArgument(format!(
                "cuckoo filter error rate must be at least {} and less than 1, got {}",
                MIN_ERROR_RATE, rate
            )));
        }
        if (1..=WEAK_SEED_MAX).contains(&seed) {
            return Err(Error::InvalidArgument(format!(
                "cuckoo filter seed must not be between 1 and {}: with a seed equal to a key's length MurmurHash3 ties its fingerprint to its bucket; use seed 0 or any seed above {}",
                WEAK_SEED_MAX, WEAK_SEED_MAX
            )));
        }
        let (b, f, n) = sizing::cuckoo_size(capacity, rate).ok_or_else(|| {
            Error::Full(format!("cuckoo filter for {} elements at error rate {} is too large", capacity, rate))
        })?;
        let total = HEADER + SUB_HEADER + cuckoo_slot_bytes(n, b, f as u64) as usize;
        let mut v = vec![0u8; total + PAD];
        st32(&mut v, 0, MAGIC);
        v[4] = 1;
        v[5] = 5; // hash id 5: text as UTF-8
        v[6] = b as u8;
        v[7] = f as u8;
        st32(&mut v, 8, seed);
        st16(&mut v, 12, 1);
        st16(&mut v, 14, DEFAULT_MAX_KICKS);
        st64(&mut v, 16, capacity);
        st64(&mut v, 24, rate.to_bits());
        st64(&mut v, HEADER, n);
        v[HEADER + 16] = f as u8;
        Ok(CuckooFilter::from_padded(v, total))
    }

    /// The same filter recording this key type (`key_type => ...`, `cf_set_key_type`).
    pub fn with_key_type(mut self, key_type: u32) -> Result<CuckooFilter> {
        let t = keys::reset_key_type(self.key_type, key_type)?;
        self.store_key_type(t);
        Ok(self)
    }

    fn store_key_type(&mut self, oid: u32) {
        st32(&mut self.buf, 40, oid);
        self.key_type = oid;
    }

    pub fn seed(&self) -> u32 {
        self.seed
    }
    pub fn key_type(&self) -> u32 {
        self.key_type
    }
    pub fn bucket_size(&self) -> u32 {
        self.b as u32
    }
    pub fn fingerprint_bits(&self) -> u32 {
        self.buf[7] as u32
    }
    pub fn subfilters(&self) -> usize {
        self.subs.len()
    }
    pub fn max_kicks(&self) -> u16 {
        ld16(&self.buf, 14)
    }
    pub fn capacity(&self) -> u64 {
        ld64(&self.buf, 16)
    }
    pub fn error_rate(&self) -> f64 {
        f64::from_bits(ld64(&self.buf, 24))
    }
    /// Occupied slots of all sub-filters (`cf_cardinality`).
    pub fn items(&self) -> u64 {
        ld64(&self.buf, 32)
    }

    /// `cf_fpp`: the sum of the sub-filters' modelled rates at their fill, at most 1.
    pub fn fpp(&self) -> f64 {
        let sum: f64 = self.subs.iter().map(|s| sizing::cuckoo_model_fpp(s.f, self.sub_count(s), s.n)).sum();
        sum.min(1.0)
    }

    /* ---- slots ---- */

    #[inline]
    fn get(&self, s: &Sub, k: u64) -> u64 {
        let bit = k * s.f as u64;
        let at = s.desc + SUB_HEADER + (bit >> 3) as usize;
        (ld64(&self.buf, at) >> (bit & 7)) & ((1u64 << s.f) - 1)
    }

    fn set(&mut self, s: &Sub, k: u64, fp: u64) {
        let bit = k * s.f as u64;
        let at = s.desc + SUB_HEADER + (bit >> 3) as usize;
        let shift = bit & 7;
        let mask = (1u64 << s.f) - 1;
        let w = (ld64(&self.buf, at) & !(mask << shift)) | (fp << shift);
        st64(&mut self.buf, at, w);
    }

    /// The slot of the bucket holding fp (0: an empty one), or None.
    #[inline]
    fn find(&self, s: &Sub, bucket: u64, fp: u64) -> Option<u64> {
        (0..self.b).find(|&j| self.get(s, bucket * self.b + j) == fp)
    }

    fn sub_count(&self, s: &Sub) -> u64 {
        ld64(&self.buf, s.desc + 8)
    }

    fn add_count(&mut self, s: &Sub, delta: i64) {
        let c = (ld64(&self.buf, s.desc + 8) as i64 + delta) as u64;
        st64(&mut self.buf, s.desc + 8, c);
        let t = (ld64(&self.buf, 32) as i64 + delta) as u64;
        st64(&mut self.buf, 32, t);
    }

    /* ---- checks ---- */

    #[inline]
    fn hash_of(&self, key: &Key) -> Result<Option<(u64, u64)>> {
        crate::keys::check_text(key, self.ascii_text)?;
        Ok(canonical(key, 2, self.key_type)?.map(|c| c.hash(self.seed)))
    }

    /// `cf_contains(f, key)`.
    #[inline]
    pub fn contains<'k, K: Into<Key<'k>>>(&self, key: K) -> Result<bool> {
        Ok(match self.hash_of(&key.into())? {
            Some((h1, h2)) => self.test_hash(h1, h2),
            None => false,
        })
    }

    pub(crate) fn test_hash(&self, h1: u64, h2: u64) -> bool {
        self.subs.iter().any(|s| {
            let fp = fingerprint(h2, s.f);
            let i1 = mul_high(h1, s.n);
            self.find(s, i1, fp).is_some() || self.find(s, alt(i1, fp, s.n), fp).is_some()
        })
    }

    /// `cf_count(f, key)`: entries matching the key over every sub-filter.
    pub fn count<'k, K: Into<Key<'k>>>(&self, key: K) -> Result<u32> {
        let (h1, h2) = match self.hash_of(&key.into())? {
            Some(h) => h,
            None => return Ok(0),
        };
        let mut count = 0;
        for s in &self.subs {
            let fp = fingerprint(h2, s.f);
            let i1 = mul_high(h1, s.n);
            let i2 = alt(i1, fp, s.n);
            for j in 0..self.b {
                count += (self.get(s, i1 * self.b + j) == fp) as u32;
                if i2 != i1 {
                    count += (self.get(s, i2 * self.b + j) == fp) as u32;
                }
            }
        }
        Ok(count)
    }

    /* ---- adds and deletes ---- */

    /// `cf_add(f, key)`: one more copy, the same bytes as the server's add.
    pub fn add<'k, K: Into<Key<'k>>>(&mut self, key: K) -> Result<()> {
        if let Some((h1, h2)) = self.hash_for_add(&key.into())? {
            self.add_hash(h1, h2)?;
        }
        Ok(())
    }

    /// `cf_add_nx(f, key)`: added only if it does not test present; whether it was.
    pub fn add_if_absent<'k, K: Into<Key<'k>>>(&mut self, key: K) -> Result<bool> {
        match self.hash_for_add(&key.into())? {
            Some((h1, h2)) if !self.test_hash(h1, h2) => {
                self.add_hash(h1, h2)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn hash_for_add(&mut self, key: &Key) -> Result<Option<(u64, u64)>> {
        if matches!(key, Key::Null) {
            return Ok(None);
        }
        let t = if self.key_type == UNTYPED && self.items() == 0 { key.natural_type() } else { self.key_type };
        match canonical(key, 2, t)? {
            Some(c) => {
                if t != self.key_type {
                    self.store_key_type(t);
                }
                Ok(Some(c.hash(self.seed)))
            }
            None => Err(Error::KeyTypeMismatch(format!(
                "the key {:?} equals no value of the filter's key type {}",
                key,
                keys::type_name(t)
            ))),
        }
    }

    /// `cf_remove(f, key)`: one copy removed; Ok(false) (nothing changed) if
    /// none is there, or if the key matches sub-filters of two shapes.
    pub fn remove<'k, K: Into<Key<'k>>>(&mut self, key: K) -> Result<bool> {
        let (h1, h2) = match self.hash_of(&key.into())? {
            Some(h) => h,
            None => return Ok(false),
        };
        let mut found: Option<(Sub, u64, u64)> = None;
        for s in self.subs.clone().iter().rev() {
            if let Some((bucket, j)) = self.matching(s, h1, h2) {
                match found {
                    None => found = Some((*s, bucket, j)),
                    Some((f, _, _)) if f.n != s.n || f.f != s.f => return Ok(false),
                    _ => {}
                }
            }
        }
        match found {
            None => Ok(false),
            Some((s, bucket, j)) => {
                self.set(&s, bucket * self.b + j, 0);
                self.add_count(&s, -1);
                Ok(true)
            }
        }
    }

    fn matching(&self, s: &Sub, h1: u64, h2: u64) -> Option<(u64, u64)> {
        let fp = fingerprint(h2, s.f);
        let mut bucket = mul_high(h1, s.n);
        for _ in 0..2 {
            if let Some(j) = self.find(s, bucket, fp) {
                return Some((bucket, j));
            }
            bucket = alt(bucket, fp, s.n);
        }
        None
    }

    /// Room of sub-filter i: capacity·2^i entries, at most its slots (the
    /// first) or its room (later ones).
    fn sub_room(&self, i: usize) -> u64 {
        let s = &self.subs[i];
        let cap = self.capacity();
        let want = if cap > (i64::MAX as u64) >> i { i64::MAX as u64 } else { cap << i };
        let have = if i == 0 { s.n * self.b } else { cuckoo_room(self.b, s.n) };
        want.min(have)
    }

    pub(crate) fn add_hash(&mut self, h1: u64, h2: u64) -> Result<()> {
        while !self.try_add(h1, h2) {
            self.grow()?;
        }
        Ok(())
    }

    fn try_add(&mut self, h1: u64, h2: u64) -> bool {
        let last = self.subs.len() - 1;
        for i in (0..=last).rev() {
            let s = self.subs[i];
            if self.matching(&s, h1, h2).is_none() {
                continue;
            }
            let bucket = mul_high(h1, s.n);
            let fp = fingerprint(h2, s.f);
            if self.place(&s, bucket, fp) || self.kick(&s, bucket, fp, h2) {
                return true;
            }
            break;
        }
        for i in (0..=last).rev() {
            let s = self.subs[i];
            if self.sub_count(&s) < self.sub_room(i) && self.place(&s, mul_high(h1, s.n), fingerprint(h2, s.f)) {
                return true;
            }
        }
        let s = self.subs[last];
        if self.sub_count(&s) >= self.sub_room(last) {
            return false;
        }
        self.kick(&s, mul_high(h1, s.n), fingerprint(h2, s.f), h2)
    }

    fn place(&mut self, s: &Sub, bucket: u64, fp: u64) -> bool {
        for bk in [bucket, alt(bucket, fp, s.n)] {
            if let Some(j) = self.find(s, bk, 0) {
                self.set(s, bk * self.b + j, fp);
                self.add_count(s, 1);
                return true;
            }
        }
        false
    }

    /// The kick walk; undone, every byte as before, if it fails.
    fn kick(&mut self, s: &Sub, bucket: u64, fp: u64, mut r: u64) -> bool {
        let kicks = self.max_kicks() as usize;
        let mut path = Vec::with_capacity(kicks);
        let mut hand = fp;
        r = r.wrapping_mul(KICK_MULT).wrapping_add(KICK_ADD);
        let mut cur = if r >> 63 != 0 { alt(bucket, fp, s.n) } else { bucket };
        for _ in 0..kicks {
            r = r.wrapping_mul(KICK_MULT).wrapping_add(KICK_ADD);
            let j = (r >> 61) & (self.b - 1);
            let k = cur * self.b + j;
            let victim = self.get(s, k);
            self.set(s, k, hand);
            path.push(k);
            hand = victim;
            cur = alt(cur, hand, s.n);
            if let Some(j) = self.find(s, cur, 0) {
                self.set(s, cur * self.b + j, hand);
                self.add_count(s, 1);
                return true;
            }
        }
        while let Some(k) = path.pop() {
            let taken = self.get(s, k);
            self.set(s, k, hand);
            hand = taken;
        }
        false
    }

    /// Sub-filter k sized for capacity·2^k at 0.9ε/2^k with the header's b.
    fn grow(&mut self) -> Result<()> {
        let k = self.subs.len();
        let full = || format!("cuckoo filter is full: it holds {} items in {} sub-filters", self.items(), k);
        if k >= MAX_SUBS || self.capacity() > (i64::MAX as u64) >> k {
            return Err(Error::Full(full()));
        }
        let c = self.capacity() << k;
        let (f, n) = sizing::cuckoo_shape(c, self.error_rate() * MARGIN / 2f64.powi(k as i32), self.b)
            .ok_or_else(|| Error::Full(full()))?;
        let slot_bytes = cuckoo_slot_bytes(n, self.b, f as u64);
        if !cuckoo_buckets_ok(n, self.b, f as u64) || self.len as u64 + SUB_HEADER as u64 + slot_bytes > MAX_BYTES {
            return Err(Error::Full(full()));
        }
        let at = self.len;
        let grown = at + SUB_HEADER + slot_bytes as usize;
        self.buf.truncate(at);
        self.buf.resize(grown + PAD, 0);
        st64(&mut self.buf, at, n);
        self.buf[at + 16] = f as u8;
        st16(&mut self.buf, 12, (k + 1) as u16);
        self.len = grown;
        self.locate_subs();
        Ok(())
    }
}

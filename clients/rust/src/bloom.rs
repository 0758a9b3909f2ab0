//! `bloomfilter` values (docs/format.md, "bloomfilter binary format"):
//! layout 1 blocked512, 2 counting4, 3 scalable, 4 a list of hashes.

use crate::blocks;
use crate::bytes::{ld32, ld64, mul_high, st32, st64};
use crate::error::{Error, Result};
use crate::keys::{self, canonical, Key, UNTYPED};
use crate::sizing::{self, MAX_BYTES, MIN_ERROR_RATE};

pub const HEADER: usize = 48;
pub const MAGIC: u32 = 0x464D_4C42; // "BLMF" little-endian
pub const LAYOUT_PLAIN: u8 = 1;
pub const LAYOUT_COUNTING: u8 = 2;
pub const LAYOUT_SCALABLE: u8 = 3;
pub const LAYOUT_HASHES: u8 = 4;
/// RedisBloom's chains (bloomfilter 1.5), with hash id 4: recognised, not read.
pub const LAYOUT_REDISBLOOM: u8 = 6;
const HASH_REDISBLOOM: u8 = 4;
const PREFIX: usize = 16;
const SUB_HEAD: usize = 8 + HEADER;
const MAX_SUBS: usize = 64;
const MAX_EXPANSION: u32 = 1024;
const COUNTER_MAX: u8 = 15;
const HASH_CELL: usize = 16;
const MAX_CELLS: u64 = (MAX_BYTES - HEADER as u64 - PREFIX as u64) / HASH_CELL as u64;

/// A scalable filter's sub-filter: where its count and its bits are.
#[derive(Clone, Debug)]
struct Sub {
    at: usize,
    nblocks: u64,
    k: u32,
}

/// A `bloomfilter` value, read from the server's bytes or built locally
/// with the bytes the server would build. Checks take `&self` and never
/// write: share one between threads freely (it is `Send + Sync`).
#[derive(Clone, Debug)]
pub struct BloomFilter {
    buf: Vec<u8>,
    layout: u8,
    hash_id: u8,
    seed: u32,
    key_type: u32,
    k: u32,
    nblocks: u64,
    subs: Vec<Sub>,
    /// a list of hashes that is an aggregate's running state (trimmed when it leaves)
    agg_state: bool,
    /// hash id 1 or 2 made in a database whose text this client cannot encode
    ascii_text: bool,
}

fn bad(msg: &str) -> Error {
    Error::InvalidValue(format!("invalid bloomfilter value: {}", msg))
}

const E_LENGTH: &str = "The length does not match the header.";
const E_NBITS: &str = "The number of bits must be a positive multiple of 512 within the size limit.";
const E_BITSSET: &str = "The count of bits set does not match the bits.";
const E_LAYOUT: &str = "The bit layout is not supported by this build.";
const E_HASH: &str = "The hash function is not supported by this build.";
const E_CAPACITY: &str = "The capacity must be between 1 and 9223372036854775807.";
const E_RATE: &str = "The error rate must be greater than 0 and less than 1.";
const E_RESERVED: &str = "Reserved header fields must be zero.";
const E_K: &str = "The number of hash functions must be between 1 and 64.";

const E_MAGIC: &str = "The value does not start with the bloomfilter magic number.";
const E_SUBFILTER: &str = "A sub-filter is not sized as its position in the filter requires.";
const E_KEY_TYPE: &str = "The key type must be 0 or the OID of a built-in type that filters hash.";
const E_HASH_LIST: &str = "A list of hashes has k 0, a capacity equal to its cells and zero cells past its count.";

/// The server's check of a value from outside (bloom_validate: every input
/// path), in its order and with its messages.
fn validate(b: &[u8]) -> Result<()> {
    if b.len() < HEADER {
        return Err(bad(E_LENGTH));
    }
    if ld32(b, 0) != MAGIC {
        return Err(bad(E_MAGIC));
    }
    check_header(b)?;
    // a stored value may keep any key type below 10000; input takes only the list
    if !keys::valid_key_type(ld32(b, 12)) {
        return Err(bad(E_KEY_TYPE));
    }
    match b[5] {
        LAYOUT_SCALABLE => check_scalable(b),
        LAYOUT_HASHES => check_hashes(b),
        l => check_cells(b, if l == LAYOUT_COUNTING { 4 } else { 1 }),
    }
}

/// bloom_validate_header: the header against the value's length.
fn check_header(b: &[u8]) -> Result<()> {
    let layout = b[5];
    if b[4] != 1 {
        return Err(bad("The format version is not supported by this build."));
    }
    // 1.5's layouts: 5 (guava, src/guava.rs) and 6 (redisbloom) have hash
    // ids of their own (3 and 4) and take no other; the others take 1 or 2
    if !(1..=6).contains(&layout) {
        return Err(bad(E_LAYOUT));
    }
    let own_hash = match layout {
        crate::guava::LAYOUT_GUAVA => Some(crate::guava::HASH_GUAVA),
        LAYOUT_REDISBLOOM => Some(HASH_REDISBLOOM),
        _ => None,
    };
    if !(1..=5).contains(&b[6]) || own_hash.map_or(!matches!(b[6], 1 | 2 | 5), |h| b[6] != h) {
        return Err(bad(E_HASH));
    }
    if layout == crate::guava::LAYOUT_GUAVA {
        crate::guava::validate(b)?;
        return Err(Error::Unsupported(
            "a Guava filter (layout 5) is read by GuavaFilter::from_bytes or Filter::from_bytes".into(),
        ));
    }
    if layout == LAYOUT_REDISBLOOM {
        return Err(Error::Unsupported(
            "a RedisBloom chain (layout 6) is read by RedisBloomFilter::from_bytes or Filter::from_bytes".into(),
        ));
    }
    let key_type = ld32(b, 12);
    let readable = if key_type & keys::ROW_FLAG != 0 {
        keys::row_signature_columns(key_type).is_some()
    } else {
        key_type < 10000
    };
    if !readable {
        return Err(bad(E_KEY_TYPE));
    }
    let payload = (b.len() - HEADER) as u64;
    let nbits = ld64(b, 16);
    let k = b[7] as u64;
    let bits_set = ld64(b, 40);
    match layout {
        LAYOUT_HASHES => {
            if k != 0 {
                return Err(bad(E_HASH_LIST));
            }
            if nbits == 0 || nbits % 128 != 0 || nbits / 128 > MAX_CELLS {
                return Err(bad(E_NBITS));
            }
            if payload != PREFIX as u64 + nbits / 8 {
                return Err(bad(E_LENGTH));
            }
            if bits_set > nbits / 128 {
                return Err(bad(E_BITSSET));
            }
            if ld64(b, 24) != nbits / 128 {
                return Err(bad(E_HASH_LIST));
            }
        }
        LAYOUT_SCALABLE => {
            if k == 0 || k > MAX_SUBS as u64 {
                return Err(bad(E_K));
            }
            if nbits == 0 || nbits % 512 != 0 || nbits / 8 > MAX_BYTES {
                return Err(bad(E_NBITS));
            }
            if payload != PREFIX as u64 + k * SUB_HEAD as u64 + nbits / 8 || payload > MAX_BYTES - HEADER as u64 {
                return Err(bad(E_LENGTH));
            }
            if bits_set > nbits {
                return Err(bad(E_BITSSET));
            }
        }
        _ => {
            let cell_bits = if layout == LAYOUT_COUNTING { 4 } else { 1 };
            let max_cells = (MAX_BYTES - HEADER as u64) * 8 / cell_bits;
            if nbits == 0 || nbits % 512 != 0 || nbits > max_cells {
                return Err(bad(E_NBITS));
            }
            if payload != nbits / 8 * cell_bits {
                return Err(bad(E_LENGTH));
            }
            if k == 0 || k > 64 {
                return Err(bad(E_K));
            }
            if bits_set > nbits {
                return Err(bad(E_BITSSET));
            }
        }
    }
    let capacity = ld64(b, 24);
    if capacity == 0 || capacity > i64::MAX as u64 {
        return Err(bad(E_CAPACITY));
    }
    let rate = f64::from_bits(ld64(b, 32));
    if !(rate > 0.0 && rate < 1.0) {
        return Err(bad(E_RATE));
    }
    Ok(())
}

/// Cells set (blocked) or non-zero counters (counting) against the header's count.
fn check_cells(b: &[u8], cell_bits: u64) -> Result<()> {
    let nbits = ld64(b, 16) as usize;
    let cells = &b[HEADER..HEADER + nbits / 8 * cell_bits as usize];
    let count = if cell_bits == 1 {
        blocks::popcount(cells)
    } else {
        cells.iter().map(|&x| (x & 0x0F != 0) as u64 + (x & 0xF0 != 0) as u64).sum()
    };
    if count != ld64(b, 40) {
        return Err(bad(E_BITSSET));
    }
    Ok(())
}

fn check_hashes(b: &[u8]) -> Result<()> {
    let expansion = ld32(b, HEADER);
    if !(1..=MAX_EXPANSION).contains(&expansion) || b[HEADER + 4..HEADER + PREFIX].iter().any(|&x| x != 0) {
        return Err(bad(E_RESERVED));
    }
    let used = HEADER + PREFIX + ld64(b, 40) as usize * HASH_CELL;
    if b[used..].iter().any(|&x| x != 0) {
        return Err(bad(E_HASH_LIST));
    }
    Ok(())
}

fn sub_capacity(capacity: u64, expansion: u64, i: usize) -> Option<u64> {
    let mut c = capacity;
    for _ in 0..i {
        if c > i64::MAX as u64 / expansion {
            return None;
        }
        c *= expansion;
    }
    Some(c)
}

/// The sub-filter a scalable filter has at position i: capacity, rate and
/// the sizing of them; None where none can be.
fn sub_shape(b: &[u8], expansion: u64, i: usize) -> Option<(u64, f64, u64, u32)> {
    let capacity = sub_capacity(ld64(b, 24), expansion, i)?;
    let rate = f64::from_bits(ld64(b, 32)) / 2f64.powi(i as i32 + 1);
    if rate < MIN_ERROR_RATE {
        return None;
    }
    let (nbits, k) = sizing::bloom_size(capacity, rate)?;
    Some((capacity, rate, nbits, k))
}

/// Every sub-filter valid, of the shape its position gives (sized again:
/// the sizing here is the server's), the sums matching.
fn check_scalable(b: &[u8]) -> Result<()> {
    let expansion = ld32(b, HEADER);
    let divisor = ld32(b, HEADER + 4);
    if !(1..=MAX_EXPANSION).contains(&expansion) || divisor == 0 || ld64(b, HEADER + 8) != 0 {
        return Err(bad(E_RESERVED));
    }
    // a fill divisor above 1 exists only inside a running parallel aggregate
    if divisor != 1 {
        return Err(bad("The fill divisor of a scalable filter must be 1 outside a running aggregate."));
    }
    let n = b[7] as usize;
    // the walk, trusting only the top header's length
    let end = b.len();
    let mut subs = Vec::with_capacity(n);
    let mut off = HEADER + PREFIX;
    while subs.len() < n && off + SUB_HEAD <= end {
        let h = off + 8;
        let sub_bits = ld64(b, h + 16);
        let sub_k = b[h + 7];
        if sub_bits % 512 != 0 || sub_bits == 0 || sub_bits / 8 > (end - off - SUB_HEAD) as u64 || sub_k == 0 || sub_k > 64 {
            break;
        }
        subs.push(h);
        off += SUB_HEAD + (sub_bits / 8) as usize;
    }
    if subs.len() != n {
        return Err(bad(E_NBITS));
    }
    let (mut nbits, mut bits_set) = (0u64, 0u64);
    for (i, &h) in subs.iter().enumerate() {
        let (capacity, rate, want_bits, want_k) = sub_shape(b, expansion as u64, i).ok_or_else(|| bad(E_NBITS))?;
        if ld32(b, h + 12) != 0 {
            return Err(bad("The sub-filters of a scalable filter must have key type 0."));
        }
        let sub = &b[h..h + HEADER + (ld64(b, h + 16) / 8) as usize];
        validate(sub)?;
        if sub[5] != LAYOUT_PLAIN {
            return Err(bad(E_LAYOUT));
        }
        if ld32(sub, 8) != ld32(b, 8) || sub[6] != b[6] {
            return Err(bad(E_HASH));
        }
        if ld64(sub, 24) != capacity {
            return Err(bad(E_CAPACITY));
        }
        if f64::from_bits(ld64(sub, 32)) != rate {
            return Err(bad(E_RATE));
        }
        if ld64(sub, 16) != want_bits || sub[7] as u32 != want_k {
            return Err(bad(E_SUBFILTER));
        }
        nbits += ld64(sub, 16);
        bits_set += ld64(sub, 40);
    }
    if nbits != ld64(b, 16) {
        return Err(bad(E_NBITS));
    }
    if bits_set != ld64(b, 40) {
        return Err(bad(E_BITSSET));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn write_header(b: &mut [u8], at: usize, layout: u8, k: u8, seed: u32, nbits: u64, capacity: u64, rate: f64) {
    st32(b, at, MAGIC);
    b[at + 4] = 1;
    b[at + 5] = layout;
    b[at + 6] = 5; // hash id 5: text as UTF-8
    b[at + 7] = k;
    st32(b, at + 8, seed);
    st32(b, at + 12, 0);
    st64(b, at + 16, nbits);
    st64(b, at + 24, capacity);
    st64(b, at + 32, rate.to_bits());
    st64(b, at + 40, 0);
}

fn check_request(capacity: u64, rate: f64) -> Result<()> {
    if capacity == 0 || capacity > i64::MAX as u64 {
        return Err(Error::InvalidArgument(format!("bloom filter capacity must be positive, got {}", capacity)));
    }
    if !(rate > 0.0 && rate < 1.0) {
        return Err(Error::InvalidArgument(format!(
            "bloom filter error rate must be greater than 0 and less than 1, got {}",
            rate
        )));
    }
    if rate < MIN_ERROR_RATE {
        return Err(Error::InvalidArgument(format!(
            "bloom filter error rate {} is below the supported minimum of {}",
            rate, MIN_ERROR_RATE
        )));
    }
    Ok(())
}

fn check_expansion(expansion: u32) -> Result<()> {
    if !(1..=MAX_EXPANSION).contains(&expansion) {
        return Err(Error::InvalidArgument(format!(
            "bloom filter expansion {} is out of range (1 .. {})",
            expansion, MAX_EXPANSION
        )));
    }
    Ok(())
}

fn too_large(capacity: u64, rate: f64) -> Error {
    Error::Full(format!(
        "bloom filter for {} elements at error rate {} is too large (the limit is {} bytes)",
        capacity, rate, MAX_BYTES
    ))
}

impl BloomFilter {
    fn from_buf(buf: Vec<u8>) -> BloomFilter {
        let layout = buf[5];
        let mut f = BloomFilter {
            layout,
            hash_id: buf[6],
            seed: ld32(&buf, 8),
            key_type: ld32(&buf, 12),
            k: 0,
            nblocks: 0,
            subs: Vec::new(),
            agg_state: false,
            ascii_text: false,
            buf,
        };
        match layout {
            LAYOUT_SCALABLE => f.locate_subs(),
            LAYOUT_HASHES => {}
            _ => {
                f.k = f.buf[7] as u32;
                f.nblocks = ld64(&f.buf, 16) / 512;
            }
        }
        f
    }

    /* ---- reading ---- */

    /// A value in the bytes `f::bytea`, binary COPY or the binary protocol
    /// give, validated as strictly as the server's binary input.
    pub fn from_bytes(bytes: &[u8]) -> Result<BloomFilter> {
        validate(bytes)?;
        Ok(BloomFilter::from_buf(bytes.to_vec()))
    }

    /// As [`BloomFilter::from_bytes`], for a value made in a database of
    /// this `server_encoding` (`from_bytes` takes UTF8): a filter of hash id
    /// 2 made in a database that is not UTF8 needs its encoding. This client
    /// hashes text of UTF8 and SQL_ASCII databases; of any other it checks
    /// ASCII text of such a filter and refuses other text
    /// ([`Error::InvalidKey`]) rather than answer wrongly.
    pub fn from_bytes_in(bytes: &[u8], server_encoding: &str) -> Result<BloomFilter> {
        let mut f = BloomFilter::from_bytes(bytes)?;
        f.ascii_text = keys::ascii_text_only(f.hash_id, server_encoding);
        Ok(f)
    }

    /// A value in its text form (base64, as the type's output writes).
    pub fn from_base64(text: &str) -> Result<BloomFilter> {
        BloomFilter::from_bytes(&crate::base64::decode(text)?)
    }

    /// The value's bytes, exactly as `f::bytea` gives them.
    pub fn to_bytes(&self) -> Vec<u8> {
        if self.agg_state {
            return hashes_trimmed(&self.buf);
        }
        self.buf.clone()
    }

    /// The text form: base64 of the bytes.
    pub fn to_base64(&self) -> String {
        crate::base64::encode(&self.to_bytes())
    }

    /* ---- building ---- */

    /// `bf_create(capacity, rate, seed)`: a plain filter, untyped until its
    /// first key, whose type it records.
    pub fn new(capacity: u64, rate: f64, seed: u32) -> Result<BloomFilter> {
        BloomFilter::fixed(capacity, rate, seed, LAYOUT_PLAIN)
    }

    /// `bf_create(capacity, rate, seed, counting => true)`.
    pub fn new_counting(capacity: u64, rate: f64, seed: u32) -> Result<BloomFilter> {
        BloomFilter::fixed(capacity, rate, seed, LAYOUT_COUNTING)
    }

    /// `bf_create(capacity, rate, seed, expansion => expansion)`: a scalable
    /// filter (`bf_agg(x)` without sizing finishes as one of these).
    pub fn new_scalable(capacity: u64, rate: f64, seed: u32, expansion: u32) -> Result<BloomFilter> {
        check_request(capacity, rate)?;
        check_expansion(expansion)?;
        if rate / 2.0 < MIN_ERROR_RATE {
            return Err(Error::InvalidArgument(format!(
                "bloom filter error rate {} is too small for a scalable filter",
                rate
            )));
        }
        let mut b = vec![0u8; HEADER + PREFIX];
        write_header(&mut b, 0, LAYOUT_SCALABLE, 0, seed, 0, capacity, rate);
        st32(&mut b, HEADER, expansion);
        st32(&mut b, HEADER + 4, 1);
        let mut f = BloomFilter::from_buf(b);
        if !f.grow() {
            return Err(too_large(capacity, rate));
        }
        Ok(f)
    }

    /// The same filter recording this key type (`key_type => ...` at creation).
    pub fn with_key_type(mut self, key_type: u32) -> Result<BloomFilter> {
        let t = keys::reset_key_type(self.key_type, key_type)?;
        self.store_key_type(t);
        Ok(self)
    }

    fn fixed(capacity: u64, rate: f64, seed: u32, layout: u8) -> Result<BloomFilter> {
        check_request(capacity, rate)?;
        let cell_bits = if layout == LAYOUT_COUNTING { 4 } else { 1 };
        let (nbits, k) = sizing::bloom_size(capacity, rate).ok_or_else(|| too_large(capacity, rate))?;
        if nbits > (MAX_BYTES - HEADER as u64) * 8 / cell_bits {
            return Err(too_large(capacity, rate));
        }
        let mut b = vec![0u8; HEADER + (nbits / 8 * cell_bits) as usize];
        write_header(&mut b, 0, layout, k as u8, seed, nbits, capacity, rate);
        Ok(BloomFilter::from_buf(b))
    }

    /// The list of hashes an unsized `bf_agg(x)` keeps (layout 4), empty:
    /// add keys, then [`finish`](Self::finish) gives what the aggregate
    /// returns (`bf_agg(x)` uses rate 0.01, seed 0, expansion 2).
    pub fn new_hash_list(rate: f64, seed: u32, expansion: u32) -> Result<BloomFilter> {
        check_request(1, rate)?;
        check_expansion(expansion)?;
        let mut b = vec![0u8; HEADER + PREFIX + HASH_CELL];
        write_header(&mut b, 0, LAYOUT_HASHES, 0, seed, 128, 1, rate);
        st32(&mut b, HEADER, expansion);
        let mut f = BloomFilter::from_buf(b);
        f.agg_state = true;
        Ok(f)
    }

    /// An empty filter of exactly this one's shape (a scalable filter
    /// restarts with its first sub-filter): to build locally a filter that
    /// combines with a fetched one whatever the sizing.
    pub fn empty_copy(&self) -> BloomFilter {
        match self.layout {
            LAYOUT_HASHES => {
                let mut f = BloomFilter::new_hash_list(self.error_rate(), self.seed, ld32(&self.buf, HEADER))
                    .expect("a valid value's parameters");
                f.buf[6] = self.hash_id;
                f.hash_id = self.hash_id;
                f.store_key_type(self.key_type);
                f
            }
            LAYOUT_SCALABLE => {
                let s0 = &self.subs[0];
                let len = HEADER + PREFIX + SUB_HEAD + (s0.nblocks * 64) as usize;
                let mut b = vec![0u8; len];
                b[..HEADER + PREFIX].copy_from_slice(&self.buf[..HEADER + PREFIX]);
                b[HEADER + PREFIX + 8..HEADER + PREFIX + SUB_HEAD]
                    .copy_from_slice(&self.buf[s0.at + 8..s0.at + SUB_HEAD]);
                st64(&mut b, HEADER + PREFIX + 8 + 40, 0);
                b[7] = 1;
                st64(&mut b, 16, s0.nblocks * 512);
                st64(&mut b, 40, 0);
                BloomFilter::from_buf(b)
            }
            _ => {
                let mut b = vec![0u8; self.buf.len()];
                b[..HEADER].copy_from_slice(&self.buf[..HEADER]);
                st64(&mut b, 40, 0);
                BloomFilter::from_buf(b)
            }
        }
    }

    /* ---- the header ---- */

    /// 1 plain (blocked512), 2 counting (counting4), 3 scalable, 4 hashes.
    pub fn layout(&self) -> u8 {
        self.layout
    }
    /// 1: the canonical bytes of 1.0/1.1; 2: SQL-equal values hash equal.
    pub fn hash_id(&self) -> u8 {
        self.hash_id
    }
    pub fn seed(&self) -> u32 {
        self.seed
    }
    /// The key type recorded: a type OID or row signature, 0 for untyped.
    pub fn key_type(&self) -> u32 {
        self.key_type
    }
    /// Cells per key (plain, counting); the number of sub-filters (scalable).
    pub fn nhashes(&self) -> u32 {
        self.buf[7] as u32
    }
    pub fn nbits(&self) -> u64 {
        ld64(&self.buf, 16)
    }
    pub fn capacity(&self) -> u64 {
        ld64(&self.buf, 24)
    }
    pub fn error_rate(&self) -> f64 {
        f64::from_bits(ld64(&self.buf, 32))
    }
    /// Bits set (plain), non-zero counters (counting), their sum (scalable), hashes held (list).
    pub fn bits_set(&self) -> u64 {
        ld64(&self.buf, 40)
    }

    fn store_key_type(&mut self, oid: u32) {
        st32(&mut self.buf, 12, oid);
        self.key_type = oid;
    }

    /* ---- checks ---- */

    #[inline]
    fn hash_of(&self, key: &Key) -> Result<Option<(u64, u64)>> {
        keys::check_text(key, self.ascii_text)?;
        Ok(canonical(key, self.hash_id, self.key_type)?.map(|c| c.hash(self.seed)))
    }

    /// `bf_contains(f, key)`: false if the key was certainly never added.
    /// An error where the server refuses the probe (`42804`).
    #[inline]
    pub fn contains<'k, K: Into<Key<'k>>>(&self, key: K) -> Result<bool> {
        Ok(match self.hash_of(&key.into())? {
            Some((h1, h2)) => self.test_hash(h1, h2),
            None => false,
        })
    }

    /// `bf_count(f, key)`: the smallest of a counting filter's counters; 0 or 1 otherwise.
    pub fn count<'k, K: Into<Key<'k>>>(&self, key: K) -> Result<u32> {
        Ok(match self.hash_of(&key.into())? {
            Some((h1, h2)) if self.layout == LAYOUT_COUNTING => self.count_cells(h1, h2) as u32,
            Some((h1, h2)) => self.test_hash(h1, h2) as u32,
            None => 0,
        })
    }

    #[inline]
    pub(crate) fn test_hash(&self, h1: u64, h2: u64) -> bool {
        match self.layout {
            LAYOUT_PLAIN => {
                let at = HEADER + mul_high(h1, self.nblocks) as usize * 64;
                blocks::test(&self.buf[at..at + 64], h1, h2, self.k)
            }
            LAYOUT_COUNTING => self.count_cells(h1, h2) > 0,
            LAYOUT_HASHES => {
                let used = self.bits_set() as usize;
                (0..used).any(|i| {
                    let at = HEADER + PREFIX + i * HASH_CELL;
                    ld64(&self.buf, at) == h1 && ld64(&self.buf, at + 8) == h2
                })
            }
            _ => self.subs.iter().rev().any(|s| {
                let at = s.at + SUB_HEAD + mul_high(h1, s.nblocks) as usize * 64;
                blocks::test(&self.buf[at..at + 64], h1, h2, s.k)
            }),
        }
    }

    fn counter_base(&self, h1: u64) -> usize {
        HEADER + mul_high(h1, self.nblocks) as usize * 256
    }

    fn count_cells(&self, h1: u64, h2: u64) -> u8 {
        let mut cells = [0u16; 64];
        let n = blocks::draw(h1, h2, self.k, &mut cells);
        let base = self.counter_base(h1);
        cells[..n].iter().map(|&c| counter(&self.buf, base, c)).min().unwrap_or(COUNTER_MAX)
    }

    /* ---- adds ---- */

    /// `bf_add(f, key)`: the same bytes as the server's add. The first key
    /// added to an untyped empty filter records its type; a key no value of
    /// the filter's key type equals is refused (`42804` on the server).
    pub fn add<'k, K: Into<Key<'k>>>(&mut self, key: K) -> Result<()> {
        let key = key.into();
        if matches!(key, Key::Null) {
            return Ok(()); // the server's adds leave the filter as it is
        }
        // the first key added to an untyped empty filter gives it its type
        let t = if self.key_type == UNTYPED && self.bits_set() == 0 {
            key.natural_type()
        } else {
            self.key_type
        };
        match canonical(&key, self.hash_id, t)? {
            Some(c) => {
                if t != self.key_type {
                    self.store_key_type(t);
                }
                let (h1, h2) = c.hash(self.seed);
                self.add_hash(h1, h2)
            }
            None => Err(Error::KeyTypeMismatch(format!(
                "the key {:?} equals no value of the filter's key type {}",
                key,
                keys::type_name(t)
            ))),
        }
    }

    pub(crate) fn add_hash(&mut self, h1: u64, h2: u64) -> Result<()> {
        match self.layout {
            LAYOUT_PLAIN => {
                let at = HEADER + mul_high(h1, self.nblocks) as usize * 64;
                let added = blocks::add(&mut self.buf[at..at + 64], h1, h2, self.k);
                let n = ld64(&self.buf, 40) + added;
                st64(&mut self.buf, 40, n);
            }
            LAYOUT_COUNTING => self.add_counters(h1, h2, true),
            LAYOUT_HASHES => self.hashes_append(h1, h2)?,
            _ => self.add_scalable(h1, h2)?,
        }
        Ok(())
    }

    fn add_counters(&mut self, h1: u64, h2: u64, up: bool) {
        let mut cells = [0u16; 64];
        let n = blocks::draw(h1, h2, self.k, &mut cells);
        let base = self.counter_base(h1);
        let mut nonzero = self.bits_set();
        for &c in &cells[..n] {
            let v = counter(&self.buf, base, c);
            if up {
                nonzero += (v == 0) as u64;
                if v < COUNTER_MAX {
                    set_counter(&mut self.buf, base, c, v + 1);
                }
            } else if v < COUNTER_MAX {
                set_counter(&mut self.buf, base, c, v - 1);
                nonzero -= (v == 1) as u64;
            }
        }
        st64(&mut self.buf, 40, nonzero);
    }

    /// `bf_remove(f, key)`, counting filters only: one copy taken out if it
    /// tests present; Ok(false) (nothing changed) if it tests absent.
    pub fn remove<'k, K: Into<Key<'k>>>(&mut self, key: K) -> Result<bool> {
        if self.layout != LAYOUT_COUNTING {
            return Err(Error::InvalidArgument("only a counting filter can remove a key".into()));
        }
        match self.hash_of(&key.into())? {
            Some((h1, h2)) if self.count_cells(h1, h2) > 0 => {
                self.add_counters(h1, h2, false);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /* ---- scalable ---- */

    fn locate_subs(&mut self) {
        let n = self.buf[7] as usize;
        let mut at = HEADER + PREFIX;
        self.subs.clear();
        for _ in 0..n {
            let nblocks = ld64(&self.buf, at + 8 + 16) / 512;
            self.subs.push(Sub { at, nblocks, k: self.buf[at + 8 + 7] as u32 });
            at += SUB_HEAD + (nblocks * 64) as usize;
        }
    }

    /// The server's add: a key present in any sub-filter is not added again;
    /// a new one goes into the newest, followed by a new one once full.
    fn add_scalable(&mut self, h1: u64, h2: u64) -> Result<()> {
        if self.test_hash(h1, h2) {
            return Ok(());
        }
        let mut last = self.subs.len() - 1;
        let items = ld64(&self.buf, self.subs[last].at);
        let divisor = ld32(&self.buf, HEADER + 4) as u64;
        let share = ld64(&self.buf, self.subs[last].at + 8 + 24) / divisor;
        if items >= share.max(1) {
            if !self.grow() {
                return Err(Error::Full("scalable bloom filter cannot grow any further".into()));
            }
            last += 1;
        }
        self.sub_add(last, h1, h2);
        let at = self.subs[last].at;
        let items = ld64(&self.buf, at) + 1;
        st64(&mut self.buf, at, items);
        Ok(())
    }

    fn sub_add(&mut self, i: usize, h1: u64, h2: u64) -> u64 {
        let s = self.subs[i].clone();
        let at = s.at + SUB_HEAD + mul_high(h1, s.nblocks) as usize * 64;
        let added = blocks::add(&mut self.buf[at..at + 64], h1, h2, s.k);
        let sub_set = ld64(&self.buf, s.at + 8 + 40) + added;
        st64(&mut self.buf, s.at + 8 + 40, sub_set);
        let top = ld64(&self.buf, 40) + added;
        st64(&mut self.buf, 40, top);
        added
    }

    /// Append an empty sub-filter of the shape its position gives; false if none can follow.
    fn grow(&mut self) -> bool {
        let i = self.subs.len();
        let expansion = ld32(&self.buf, HEADER) as u64;
        let rate = self.error_rate() / 2f64.powi(i as i32 + 1);
        if i >= MAX_SUBS || rate < MIN_ERROR_RATE {
            return false;
        }
        let capacity = match sub_capacity(self.capacity(), expansion, i) {
            Some(c) => c,
            None => return false,
        };
        let (nbits, k) = match sizing::bloom_size(capacity, rate) {
            Some(s) => s,
            None => return false,
        };
        let at = self.buf.len();
        let grown = at as u64 + SUB_HEAD as u64 + nbits / 8;
        if grown > MAX_BYTES {
            return false;
        }
        self.buf.resize(grown as usize, 0);
        write_header(&mut self.buf, at + 8, LAYOUT_PLAIN, k as u8, self.seed, nbits, capacity, rate);
        self.buf[at + 8 + 6] = self.hash_id;
        self.buf[7] = (i + 1) as u8;
        let total = ld64(&self.buf, 16) + nbits;
        st64(&mut self.buf, 16, total);
        self.locate_subs();
        true
    }

    /// Elements each sub-filter took (scalable).
    pub fn subfilter_items(&self) -> Vec<u64> {
        self.subs.iter().map(|s| ld64(&self.buf, s.at)).collect()
    }

    /* ---- lists of hashes (layout 4) ---- */

    fn hashes_append(&mut self, h1: u64, h2: u64) -> Result<()> {
        let used = self.bits_set();
        let mut cells = ld64(&self.buf, 24);
        if used >= cells {
            if cells >= MAX_CELLS {
                return Err(Error::Full("list of hashes is at the size limit".into()));
            }
            cells = if cells > MAX_CELLS / 2 { MAX_CELLS } else { 2 * cells };
            self.buf.resize(HEADER + PREFIX + cells as usize * HASH_CELL, 0);
            st64(&mut self.buf, 16, cells * 128);
            st64(&mut self.buf, 24, cells);
        }
        let at = HEADER + PREFIX + used as usize * HASH_CELL;
        st64(&mut self.buf, at, h1);
        st64(&mut self.buf, at + 8, h2);
        st64(&mut self.buf, 40, used + 1);
        Ok(())
    }

    /// A list of hashes (layout 4) finished as the aggregate finishes it: a
    /// scalable filter whose capacity is the estimated distinct count (at
    /// least 1,000), every hash in its first sub-filter.
    pub fn finish(&self) -> Result<BloomFilter> {
        if self.layout != LAYOUT_HASHES {
            return Err(Error::InvalidArgument("only a list of hashes is finished".into()));
        }
        let used = self.bits_set() as usize;
        let hashes: Vec<(u64, u64)> = (0..used)
            .map(|i| {
                let at = HEADER + PREFIX + i * HASH_CELL;
                (ld64(&self.buf, at), ld64(&self.buf, at + 8))
            })
            .collect();
        let mut capacity = hll_distinct(&hashes).max(1000);
        let expansion = ld32(&self.buf, HEADER);
        loop {
            let mut f = BloomFilter::new_scalable(capacity, self.error_rate(), self.seed, expansion)?;
            f.buf[6] = self.hash_id;
            let s0 = f.subs[0].at;
            f.buf[s0 + 8 + 6] = self.hash_id;
            f.hash_id = self.hash_id;
            f.store_key_type(self.key_type);
            let mut items = 0;
            for &(h1, h2) in &hashes {
                items = f.take_hash(h1, h2);
            }
            if items <= capacity + capacity / 20 {
                return Ok(f);
            }
            capacity = items;
        }
    }

    /// bloom_scalable_take: a hash into the last sub-filter however full (one
    /// that sets no bit is not counted); the items the last one holds.
    fn take_hash(&mut self, h1: u64, h2: u64) -> u64 {
        let last = self.subs.len() - 1;
        let present = self.subs[..last].iter().any(|s| {
            let at = s.at + SUB_HEAD + mul_high(h1, s.nblocks) as usize * 64;
            blocks::test(&self.buf[at..at + 64], h1, h2, s.k)
        });
        let at = self.subs[last].at;
        if !present && self.sub_add(last, h1, h2) > 0 {
            let n = ld64(&self.buf, at) + 1;
            st64(&mut self.buf, at, n);
        }
        ld64(&self.buf, at)
    }
}

fn counter(b: &[u8], base: usize, cell: u16) -> u8 {
    (b[base + (cell >> 1) as usize] >> ((cell & 1) * 4)) & 0xF
}

fn set_counter(b: &mut [u8], base: usize, cell: u16, v: u8) {
    let shift = (cell & 1) * 4;
    let at = base + (cell >> 1) as usize;
    b[at] = (b[at] & !(0xF << shift)) | (v << shift);
}

/// As many cells as hashes (one if none), as a state leaves the aggregate.
fn hashes_trimmed(buf: &[u8]) -> Vec<u8> {
    let cells = ld64(buf, 40).max(1);
    let mut out = buf[..HEADER + PREFIX + cells as usize * HASH_CELL].to_vec();
    st64(&mut out, 16, cells * 128);
    st64(&mut out, 24, cells);
    out
}

/// bloom_hashes_distinct: a HyperLogLog of 2¹⁴ registers over the hashes,
/// in the server's double arithmetic.
fn hll_distinct(hashes: &[(u64, u64)]) -> u64 {
    const BITS: u32 = 14;
    const M: usize = 1 << BITS;
    let n = hashes.len() as u64;
    let mut reg = vec![0u8; M];
    for &(h1, h2) in hashes {
        let r = (h1 >> (64 - BITS)) as usize;
        let rank = h2.leading_zeros() as u8 + 1;
        if rank > reg[r] {
            reg[r] = rank;
        }
    }
    let mut sum = 0.0f64;
    let mut zeros = 0;
    for &r in &reg {
        sum += 2f64.powi(-(r as i32));
        zeros += (r == 0) as usize;
    }
    let m = M as f64;
    let mut estimate = 0.7213 / (1.0 + 1.079 / m) * m * m / sum;
    if estimate <= 2.5 * m && zeros > 0 {
        estimate = m * (m / zeros as f64).ln();
    }
    if estimate > n as f64 {
        return n;
    }
    if n > 0 && estimate < 1.0 {
        return 1;
    }
    let whole = estimate.floor();
    whole as u64 + (estimate - whole >= 0.5) as u64
}

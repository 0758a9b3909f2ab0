//! Read, check and build the `bloomfilter` and `cuckoofilter` values of the
//! PostgreSQL extension `bloomfilter`, byte for byte as the server does
//! (docs/format.md in the repository is the contract this follows).
//!
//! ```
//! use pgbloomfilter::{BloomFilter, Filter};
//! let mut f = BloomFilter::new(100_000, 0.01, 0).unwrap();   // bf_create(100000, 0.01)
//! f.add(42i64).unwrap();                                     // bf_add(f, 42)
//! assert!(f.contains(42i64).unwrap());                       // bf_contains(f, 42)
//! let same = Filter::from_bytes(&f.to_bytes()).unwrap();     // f::bytea, read back
//! assert!(same.contains(42i64).unwrap());
//! ```
//!
//! Checks take `&self` and never write: filters are `Send + Sync`, so one
//! filter (in an `Arc`) serves any number of threads.

mod base64;
mod blocks;
mod bloom;
mod bytes;
mod cuckoo;
mod error;
mod guava;
pub mod keys;
mod murmur;
mod redisbloom;
#[cfg(feature = "postgres-types")]
mod pg;
mod shard;
mod sizing;

pub use crate::bloom::{BloomFilter, LAYOUT_COUNTING, LAYOUT_HASHES, LAYOUT_PLAIN, LAYOUT_REDISBLOOM, LAYOUT_SCALABLE};
pub use crate::cuckoo::CuckooFilter;
pub use crate::error::{Error, Result};
pub use crate::guava::{guava_size, GuavaFilter, HASH_GUAVA, LAYOUT_GUAVA};
pub use crate::keys::Key;
pub use crate::redisbloom::{murmur64a, RedisBloomFilter};
pub use crate::murmur::{fmix64, hash128 as murmur3_x64_128};
pub use crate::shard::{shard, shard_capacity, shard_typed, MAX_SHARDS, SHARD_SEED};
pub use crate::sizing::{bloom_size, cuckoo_size, MAX_BYTES};

/// Either type, told apart by the magic number of its bytes.
#[derive(Clone, Debug)]
pub enum Filter {
    Bloom(BloomFilter),
    Cuckoo(CuckooFilter),
    /// Layout 5 (bloomfilter 1.5): Guava's bits, in a `bloomfilter` value.
    Guava(GuavaFilter),
    /// Layout 6 (bloomfilter 1.5): a RedisBloom chain, in a `bloomfilter` value.
    RedisBloom(RedisBloomFilter),
}

impl Filter {
    /// A `bloomfilter` or `cuckoofilter` value from its bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Filter> {
        if bytes.len() >= 4 && bytes[..4] == *b"CKOF" {
            return CuckooFilter::from_bytes(bytes).map(Filter::Cuckoo);
        }
        if bytes.len() >= crate::bloom::HEADER && bytes[..4] == *b"BLMF" && bytes[5] == LAYOUT_GUAVA {
            return GuavaFilter::from_bytes(bytes).map(Filter::Guava);
        }
        if bytes.len() >= crate::bloom::HEADER && bytes[..4] == *b"BLMF" && bytes[5] == LAYOUT_REDISBLOOM {
            return RedisBloomFilter::from_bytes(bytes).map(Filter::RedisBloom);
        }
        BloomFilter::from_bytes(bytes).map(Filter::Bloom)
    }

    /// As [`Filter::from_bytes`], for a value made in a database of this
    /// `server_encoding` (`from_bytes` takes UTF8): a filter of hash id 2
    /// made in a database that is not UTF8 needs its encoding
    /// ([`BloomFilter::from_bytes_in`]). Guava and RedisBloom values hash
    /// text as UTF-8 in every database.
    pub fn from_bytes_in(bytes: &[u8], server_encoding: &str) -> Result<Filter> {
        if bytes.len() >= 4 && bytes[..4] == *b"CKOF" {
            return CuckooFilter::from_bytes_in(bytes, server_encoding).map(Filter::Cuckoo);
        }
        match Filter::from_bytes(bytes)? {
            Filter::Bloom(_) => BloomFilter::from_bytes_in(bytes, server_encoding).map(Filter::Bloom),
            other => Ok(other),
        }
    }

    /// Either type's text form (base64).
    pub fn from_base64(text: &str) -> Result<Filter> {
        Filter::from_bytes(&base64::decode(text)?)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Filter::Bloom(f) => f.to_bytes(),
            Filter::Cuckoo(f) => f.to_bytes(),
            Filter::Guava(f) => f.to_bytes(),
            Filter::RedisBloom(f) => f.to_bytes(),
        }
    }

    /// `bf_contains` / `cf_contains`.
    #[inline]
    pub fn contains<'k, K: Into<Key<'k>>>(&self, key: K) -> Result<bool> {
        match self {
            Filter::Bloom(f) => f.contains(key),
            Filter::Cuckoo(f) => f.contains(key),
            Filter::Guava(f) => f.contains(key),
            Filter::RedisBloom(f) => f.contains(key),
        }
    }

    /// `bf_count` / `cf_count`.
    pub fn count<'k, K: Into<Key<'k>>>(&self, key: K) -> Result<u32> {
        match self {
            Filter::Bloom(f) => f.count(key),
            Filter::Cuckoo(f) => f.count(key),
            Filter::Guava(f) => f.contains(key).map(|x| x as u32),
            Filter::RedisBloom(f) => f.contains(key).map(|x| x as u32),
        }
    }

    pub fn key_type(&self) -> u32 {
        match self {
            Filter::Bloom(f) => f.key_type(),
            Filter::Cuckoo(f) => f.key_type(),
            Filter::Guava(f) => f.key_type(),
            Filter::RedisBloom(f) => f.key_type(),
        }
    }
}

// Filters cross threads: checked at compile time.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<BloomFilter>();
    send_sync::<CuckooFilter>();
    send_sync::<GuavaFilter>();
    send_sync::<RedisBloomFilter>();
    send_sync::<Filter>();
};

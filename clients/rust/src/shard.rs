//! `bf_shard(key, n)` and `bf_shard_capacity(capacity, n)` (docs/format.md, "Shards").

use crate::bytes::mul_high;
use crate::error::{Error, Result};
use crate::keys::{canonical, Key};

/// The fixed seed of shard routing, "SHRD".
pub const SHARD_SEED: u32 = 0x4452_4853;
pub const MAX_SHARDS: u32 = 65536;

fn check(nshards: u32) -> Result<()> {
    if !(1..=MAX_SHARDS).contains(&nshards) {
        return Err(Error::InvalidArgument(format!(
            "number of shards must be between 1 and {}, got {}",
            MAX_SHARDS, nshards
        )));
    }
    Ok(())
}

/// `bf_shard(key, nshards)`: the key hashed as a value of its own type
/// (hash id 2's canonical bytes) with the shard seed; the high word of h2·n.
pub fn shard<'k, K: Into<Key<'k>>>(key: K, nshards: u32) -> Result<u32> {
    check(nshards)?;
    let canon = canonical(&key.into(), 2, 0)?.expect("a key of its own type");
    let (_, h2) = canon.hash(SHARD_SEED);
    Ok(mul_high(h2, nshards as u64) as u32)
}

/// `bf_shard(key, nshards, key_type)`: the key converted to `key_type`
/// first, as a filter of that key type converts a probe; a key no value of
/// that type equals gets shard 0.
pub fn shard_typed<'k, K: Into<Key<'k>>>(key: K, nshards: u32, key_type: u32) -> Result<u32> {
    check(nshards)?;
    match canonical(&key.into(), 2, key_type)? {
        Some(c) => Ok(mul_high(c.hash(SHARD_SEED).1, nshards as u64) as u32),
        None => Ok(0),
    }
}

/// `bf_shard_capacity(capacity, nshards)`: the share plus six standard
/// deviations of a shard's binomial count, at most the capacity.
pub fn shard_capacity(capacity: u64, nshards: u32) -> Result<u64> {
    if capacity == 0 || capacity > i64::MAX as u64 {
        return Err(Error::InvalidArgument(format!("bloom filter capacity must be positive, got {}", capacity)));
    }
    check(nshards)?;
    let p = 1.0 / nshards as f64;
    let mean = capacity as f64 * p;
    let want = (mean + 6.0 * (capacity as f64 * p * (1.0 - p)).sqrt()).ceil();
    if want >= capacity as f64 {
        return Ok(capacity);
    }
    Ok((want as u64).max(1))
}

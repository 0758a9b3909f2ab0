//! MurmurHash3 x64_128, the hash of every filter (docs/format.md, "Hash
//! contract"): the two little-endian 64-bit output words are h1 and h2.
//! Written from the algorithm's description; a unit test holds it to
//! SMHasher's verification value 0x6384BA69.

const C1: u64 = 0x87c3_7b91_1142_53d5;
const C2: u64 = 0x4cf5_ad43_2745_937f;

/// MurmurHash3's 64-bit finaliser (also the cuckoo filter's alternate-bucket mix).
#[inline]
pub fn fmix64(mut k: u64) -> u64 {
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

#[inline]
fn mix_k1(k: u64) -> u64 {
    k.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2)
}

#[inline]
fn mix_k2(k: u64) -> u64 {
    k.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1)
}

#[inline]
fn load_le(b: &[u8]) -> u64 {
    // b has 1..=8 bytes: the tail's bytes, low first
    let mut w = 0u64;
    for (i, &x) in b.iter().enumerate() {
        w |= (x as u64) << (8 * i);
    }
    w
}

#[inline]
fn finish(mut h1: u64, mut h2: u64, len: u64) -> (u64, u64) {
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    (h1, h2)
}

/// (h1, h2) of `data` under `seed`.
pub fn hash128(data: &[u8], seed: u32) -> (u64, u64) {
    let mut h1 = seed as u64;
    let mut h2 = seed as u64;
    let mut blocks = data.chunks_exact(16);
    for block in &mut blocks {
        let k1 = u64::from_le_bytes(block[0..8].try_into().unwrap());
        let k2 = u64::from_le_bytes(block[8..16].try_into().unwrap());
        h1 ^= mix_k1(k1);
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);
        h2 ^= mix_k2(k2);
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }
    let tail = blocks.remainder();
    if tail.len() > 8 {
        h2 ^= mix_k2(load_le(&tail[8..]));
    }
    if !tail.is_empty() {
        h1 ^= mix_k1(load_le(&tail[..tail.len().min(8)]));
    }
    finish(h1, h2, data.len() as u64)
}

/// (h1, h2) of the 8 little-endian bytes of `word`: an integer key, without
/// going through a byte slice (the hot path of `contains(i64)`).
#[inline]
pub fn hash_word(word: u64, seed: u32) -> (u64, u64) {
    let s = seed as u64;
    finish(s ^ mix_k1(word), s, 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SMHasher's VerificationTest: hash keys {}, {0}, {0,1}, ... of lengths
    /// 0..255 with seed 256 - len, hash the concatenated digests with seed 0,
    /// and take the first four bytes little-endian.
    #[test]
    fn smhasher_verification_value() {
        let mut digests = Vec::with_capacity(256 * 16);
        let key: Vec<u8> = (0..=255u8).collect();
        for len in 0..256usize {
            let (h1, h2) = hash128(&key[..len], (256 - len) as u32);
            digests.extend_from_slice(&h1.to_le_bytes());
            digests.extend_from_slice(&h2.to_le_bytes());
        }
        let (h1, _) = hash128(&digests, 0);
        assert_eq!(h1 as u32, 0x6384_BA69);
    }

    #[test]
    fn word_path_equals_bytes_path() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for seed in [0u32, 1, 8, 0x4452_4853, u32::MAX] {
            for _ in 0..1000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                assert_eq!(hash_word(x, seed), hash128(&x.to_le_bytes(), seed));
            }
        }
    }
}

//! Little-endian loads and stores, and the high word of a 128-bit product.

#[inline]
pub fn ld16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
#[inline]
pub fn ld32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
#[inline]
pub fn ld64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}
#[inline]
pub fn st16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_le_bytes());
}
#[inline]
pub fn st32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
#[inline]
pub fn st64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}
/// ⌊a·n / 2⁶⁴⌋: a block, bucket or shard from a hash word.
#[inline]
pub fn mul_high(a: u64, n: u64) -> u64 {
    ((a as u128 * n as u128) >> 64) as u64
}

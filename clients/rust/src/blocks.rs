//! An element's cells inside its 512-cell block (docs/format.md, "Bit
//! positions"): x₀ = h2, xᵢ₊₁ = xᵢ·6364136223846793005 + (h1 | 1), cell
//! xᵢ >> 55 for i ≥ 1, repeats skipped, until k distinct ones. Shared by the
//! plain, counting and scalable layouts.

const LCG_MULT: u64 = 6364136223846793005;
/// The server's bound on draws (16 per cell asked for, k ≤ 64).
const MAX_DRAWS: usize = 1024;

/// The element's distinct cells in draw order; their number (k but for the bound).
pub fn draw(h1: u64, h2: u64, k: u32, out: &mut [u16; 64]) -> usize {
    let mut drawn = [0u64; 8];
    let mut x = h2;
    let c = h1 | 1;
    let mut got = 0;
    let mut draws = 0;
    while got < k as usize && draws < MAX_DRAWS {
        draws += 1;
        x = x.wrapping_mul(LCG_MULT).wrapping_add(c);
        let pos = (x >> 55) as usize;
        let bit = 1u64 << (pos & 63);
        if drawn[pos >> 6] & bit != 0 {
            continue;
        }
        drawn[pos >> 6] |= bit;
        out[got] = pos as u16;
        got += 1;
    }
    got
}

/// Whether all of the element's bits are set in the 64-byte block; stops at
/// the first clear bit, so most absent keys cost a draw or two.
#[inline]
pub fn test(block: &[u8], h1: u64, h2: u64, k: u32) -> bool {
    let block: &[u8; 64] = block[..64].try_into().unwrap();
    let mut drawn = [0u64; 8];
    let mut x = h2;
    let c = h1 | 1;
    let mut got = 0u32;
    let mut draws = 0;
    while got < k && draws < MAX_DRAWS {
        draws += 1;
        x = x.wrapping_mul(LCG_MULT).wrapping_add(c);
        let pos = (x >> 55) as usize;
        let bit = 1u64 << (pos & 63);
        let seen = drawn[pos >> 6];
        if seen & bit != 0 {
            continue;
        }
        drawn[pos >> 6] = seen | bit;
        got += 1;
        if block[pos >> 3] & (1 << (pos & 7)) == 0 {
            return false;
        }
    }
    true
}

/// Set the element's bits in the block; how many were newly set.
pub fn add(block: &mut [u8], h1: u64, h2: u64, k: u32) -> u64 {
    let mut cells = [0u16; 64];
    let n = draw(h1, h2, k, &mut cells);
    let mut added = 0;
    for &c in &cells[..n] {
        let at = (c >> 3) as usize;
        let bit = 1u8 << (c & 7);
        if block[at] & bit == 0 {
            block[at] |= bit;
            added += 1;
        }
    }
    added
}

pub fn popcount(b: &[u8]) -> u64 {
    let mut chunks = b.chunks_exact(8);
    let mut n: u64 = 0;
    for c in &mut chunks {
        n += u64::from_le_bytes(c.try_into().unwrap()).count_ones() as u64;
    }
    n + chunks.remainder().iter().map(|x| x.count_ones() as u64).sum::<u64>()
}

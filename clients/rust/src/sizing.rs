//! Sizing, as the server's src/core/sizing.c and src/core/cuckoo.c compute
//! it (docs/format.md, "bloomfilter sizing" and "cuckoofilter sizing and
//! growth"). The shape is part of the bytes, so the exact blocked model is
//! evaluated with the same double operations in the same order, and with
//! the same library functions: `lgamma_r`, `exp`, `log` and `log1p` are
//! glibc's (Rust's f64::exp, ln and ln_1p call the platform's libm), so a
//! local filter has the server's shape for any request.

use std::collections::HashMap;
use std::sync::Mutex;

pub const BLOCK_BITS: u64 = 512;
pub const MAX_HASHES: usize = 64;
/// The largest value either type stores: 767 MB.
pub const MAX_BYTES: u64 = 767 * 1024 * 1024;
pub const MAX_BLOCKS: u64 = (MAX_BYTES - 48) / 64;
pub const MARGIN: f64 = 0.9;
/// The smallest error rate `bf_create` takes.
pub const MIN_ERROR_RATE: f64 = 1e-10;

extern "C" {
    // glibc's, reentrant: the server's sizing calls lgamma, the same routine
    fn lgamma_r(x: f64, sign: *mut i32) -> f64;
}

fn lgamma(x: f64) -> f64 {
    let mut sign = 0i32;
    // SAFETY: lgamma_r only writes the sign through the pointer.
    unsafe { lgamma_r(x, &mut sign) }
}

fn log_choose(n: f64, k: f64) -> f64 {
    lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0)
}

/// The hypergeometric transitions of one k: trans[u][t], the chance that an
/// element covers t more of the u uncovered probe bits.
fn transitions(k: usize) -> Vec<Vec<f64>> {
    let b = BLOCK_BITS as f64;
    let lc_bk = log_choose(b, k as f64);
    (0..=k)
        .map(|u| {
            (0..=u)
                .map(|t| {
                    (log_choose(u as f64, t as f64) + log_choose(b - u as f64, (k - t) as f64)
                        - lc_bk)
                        .exp()
                })
                .collect()
        })
        .collect()
}

/// C_k(j), the chance j elements cover all k probe bits, extended on demand
/// and shared by every request (the values depend on k and j only).
struct Cover {
    trans: Vec<Vec<f64>>,
    table: Vec<f64>,
    state: [f64; MAX_HASHES + 1],
}

impl Cover {
    fn new(k: usize) -> Cover {
        let mut state = [0.0; MAX_HASHES + 1];
        state[0] = 1.0;
        Cover { trans: transitions(k), table: Vec::new(), state }
    }

    fn extend(&mut self, k: usize, len: usize) {
        while self.table.len() < len {
            self.table.push(self.state[k]);
            let mut next = [0.0f64; MAX_HASHES + 1];
            for c in 0..=k {
                let u = k - c;
                if self.state[c] == 0.0 {
                    continue;
                }
                for t in 0..=u {
                    next[c + t] += self.state[c] * self.trans[u][t];
                }
            }
            self.state = next;
        }
    }
}

static COVERS: Mutex<Vec<Option<Cover>>> = Mutex::new(Vec::new());

/// One sizing request: the binomial terms per block count, the model per
/// (block count, k).
struct Search {
    n: f64,
    lg_n1: f64,
    pmfs: HashMap<u64, Vec<f64>>,
    models: HashMap<(u64, usize), f64>,
}

impl Search {
    fn new(n: f64) -> Search {
        Search { n, lg_n1: lgamma(n + 1.0), pmfs: HashMap::new(), models: HashMap::new() }
    }

    fn pmf(&mut self, nblocks: u64) -> &Vec<f64> {
        let n = self.n;
        let lg_n1 = self.lg_n1;
        self.pmfs.entry(nblocks).or_insert_with(|| {
            let q = 1.0 / nblocks as f64;
            let lambda = n * q;
            let jmax = if nblocks == 1 {
                n
            } else {
                n.min((lambda + 12.0 * lambda.sqrt() + 30.0).ceil())
            };
            let log_q = q.ln();
            let log1m_q = (-q).ln_1p();
            let mut p = Vec::with_capacity(jmax as usize + 1);
            let mut j = 0.0f64;
            while j <= jmax {
                if nblocks == 1 {
                    p.push(if j == n { 1.0 } else { 0.0 });
                } else {
                    let lc = lg_n1 - lgamma(j + 1.0) - lgamma(n - j + 1.0);
                    p.push((lc + j * log_q + (n - j) * log1m_q).exp());
                }
                j += 1.0;
            }
            p
        })
    }

    /// bloom_model_fpp(n, nblocks, k): the same terms summed in the same order.
    fn model(&mut self, nblocks: u64, k: usize) -> f64 {
        if let Some(&m) = self.models.get(&(nblocks, k)) {
            return m;
        }
        let p = self.pmf(nblocks).clone();
        let mut covers = COVERS.lock().unwrap_or_else(|e| e.into_inner());
        if covers.len() <= k {
            covers.resize_with(MAX_HASHES + 1, || None);
        }
        let cover = covers[k].get_or_insert_with(|| Cover::new(k));
        cover.extend(k, p.len());
        let mut fpp = 0.0;
        for (i, pi) in p.iter().enumerate() {
            fpp += pi * cover.table[i];
        }
        drop(covers);
        self.models.insert((nblocks, k), fpp);
        fpp
    }

    /// best_k_walk: the rate is unimodal in k; down from the guess, then up.
    fn best_k(&mut self, nblocks: u64) -> (f64, usize) {
        let lambda = self.n / nblocks as f64;
        let g = (2.0f64.ln() * BLOCK_BITS as f64 / lambda.max(1e-9)).floor();
        // C's (int) conversion of a value this size; clamped to 1..64 below
        let guess = (g.min(i32::MAX as f64) as i64).clamp(1, MAX_HASHES as i64) as usize;
        let mut best = 2.0;
        let mut best_k = guess;
        let mut k = guess;
        while k >= 1 {
            let f = self.model(nblocks, k);
            if f < best {
                best = f;
                best_k = k;
            } else {
                break;
            }
            k -= 1;
        }
        let mut k = guess + 1;
        while k <= MAX_HASHES {
            let f = self.model(nblocks, k);
            if f < best {
                best = f;
                best_k = k;
            } else {
                break;
            }
            k += 1;
        }
        (best, best_k)
    }
}

/// (nbits, k) of a blocked filter for `capacity` elements at `rate`, or
/// None if it would pass the size limit. The smallest block count whose
/// best k meets 90% of the rate (the server's secant search finds the same
/// count: the rate falls as blocks are added), then the smallest k that
/// meets it there.
pub fn bloom_size(capacity: u64, rate: f64) -> Option<(u64, u32)> {
    let target = rate * MARGIN;
    let n = capacity as f64;
    let m_std = -n * target.ln() / (2.0f64.ln() * 2.0f64.ln());
    let lo_d = (m_std / BLOCK_BITS as f64 * 0.95).floor();
    if lo_d > MAX_BLOCKS as f64 {
        return None;
    }
    let mut lo = if lo_d < 1.0 { 1 } else { lo_d as u64 };
    let mut hi = lo;
    let mut s = Search::new(n);
    while s.best_k(hi).0 > target {
        lo = hi + 1;
        if hi >= MAX_BLOCKS {
            return None;
        }
        hi = if hi * 2 > MAX_BLOCKS { MAX_BLOCKS } else { hi * 2 };
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if s.best_k(mid).0 <= target {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let (_, mut k) = s.best_k(hi);
    for fewer in 1..k {
        if s.model(hi, fewer) <= target {
            k = fewer;
            break;
        }
    }
    Some((hi * BLOCK_BITS, k as u32))
}

/* ---- cuckoo filters ---- */

pub const CUCKOO_FLOOR_FP_BITS: u32 = 7;
const CUCKOO_HEADER: u64 = 48;
const CUCKOO_SUB_HEADER: u64 = 24;

/// rate(f, m, n): the expected matches of a non-member in a sub-filter of n
/// buckets and f-bit fingerprints holding m entries.
pub fn cuckoo_model_fpp(f: u32, items: u64, n: u64) -> f64 {
    let q = ((2.0f64).powi(f as i32) + 2.0) / (2.0f64).powi(2 * f as i32);
    2.0 * items as f64 * q / n as f64
}

/// room(b, n): the most entries adds put in n buckets of b slots.
pub fn cuckoo_room(b: u64, n: u64) -> u64 {
    let slots = n * b;
    let (permille, beta) = match b {
        8 => (960, 3),
        4 => (930, 4),
        _ => (800, 4),
    };
    let load = slots * permille / 1000;
    let x = beta * beta * slots;
    let mut spread = (x as f64).sqrt() as u64;
    while spread * spread < x {
        spread += 1;
    }
    while spread > 0 && (spread - 1) * (spread - 1) >= x {
        spread -= 1;
    }
    if load <= spread || load - spread < b {
        b
    } else {
        load - spread
    }
}

pub fn cuckoo_buckets_ok(n: u64, b: u64, f: u64) -> bool {
    n >= 1 && n <= MAX_BYTES * 8 / (b * f)
}

pub fn cuckoo_slot_bytes(n: u64, b: u64, f: u64) -> u64 {
    (n * b * f + 7) / 8
}

/// The fewest buckets whose room holds `capacity`, or None.
fn room_buckets(capacity: u64, b: u64, max_n: u64) -> Option<u64> {
    let (load, beta) = if b == 8 { (0.96, 3.0) } else { (0.93, 4.0) };
    let guess = (capacity as f64 + beta * (capacity as f64 / load).sqrt()) / (b as f64 * load);
    if guess > max_n as f64 {
        return None;
    }
    let mut n = if guess > 1.0 { guess as u64 } else { 1 };
    while n > 1 && cuckoo_room(b, n - 1) >= capacity {
        n -= 1;
    }
    while cuckoo_room(b, n) < capacity {
        n += 1;
        if n > max_n {
            return None;
        }
    }
    Some(n)
}

/// (f, buckets) of the sub-filter for `capacity` entries at a modelled rate
/// of at most `target` with b slots a bucket, in the fewest bits n·f.
pub fn cuckoo_shape(capacity: u64, target: f64, b: u64) -> Option<(u32, u64)> {
    let max_n = MAX_BYTES * 8 / (b * CUCKOO_FLOOR_FP_BITS as u64);
    let n_room = room_buckets(capacity, b, max_n)?;
    let mut best = f64::INFINITY;
    let mut out = None;
    for f in CUCKOO_FLOOR_FP_BITS..=32 {
        let need = cuckoo_model_fpp(f, capacity, 1) / target;
        if !(need <= max_n as f64) {
            continue;
        }
        let mut n = if need > n_room as f64 { need.ceil() as u64 } else { n_room };
        while n > n_room && cuckoo_model_fpp(f, capacity, n - 1) <= target {
            n -= 1;
        }
        while cuckoo_model_fpp(f, capacity, n) > target {
            n += 1;
        }
        if cuckoo_buckets_ok(n, b, f as u64)
            && CUCKOO_HEADER + CUCKOO_SUB_HEADER + cuckoo_slot_bytes(n, b, f as u64) <= MAX_BYTES
            && (n as f64) * (f as f64) < best
        {
            best = n as f64 * f as f64;
            out = Some((f, n));
        }
    }
    out
}

/// cf_create's shape: (b, f, buckets), b = 4 unless 8 takes fewer bits.
pub fn cuckoo_size(capacity: u64, rate: f64) -> Option<(u64, u32, u64)> {
    let target = rate * MARGIN;
    let mut best = f64::INFINITY;
    let mut out = None;
    for b in [4u64, 8] {
        if let Some((f, n)) = cuckoo_shape(capacity, target, b) {
            let bits = n as f64 * b as f64 * f as f64;
            if bits < best {
                best = bits;
                out = Some((b, f, n));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table in docs/format.md ("bloomfilter sizing"): k and size.
    #[test]
    fn documented_bloom_sizes() {
        let rows: [(u64, f64, u32, f64); 5] = [
            (1_000, 0.01, 6, 1.3 * 1024.0),
            (1_000_000, 0.10, 3, 619.0 * 1024.0),
            (1_000_000, 0.01, 7, 1.2 * 1024.0 * 1024.0),
            (1_000_000, 0.001, 9, 1.9 * 1024.0 * 1024.0),
            (1_000_000, 0.0001, 12, 2.7 * 1024.0 * 1024.0),
        ];
        for (n, p, k, size) in rows {
            let (nbits, got_k) = bloom_size(n, p).unwrap();
            assert_eq!(got_k, k, "k for {} at {}", n, p);
            let bytes = (nbits / 8 + 48) as f64;
            assert!((bytes / size - 1.0).abs() < 0.05, "size for {} at {}: {}", n, p, bytes);
        }
    }

    #[test]
    fn documented_cuckoo_shapes() {
        // capacity 1,000,000: b = 4 and f = 10, 13, 17 at 1%, 0.1%, 0.01%
        for (p, f) in [(0.01, 10u32), (0.001, 13), (0.0001, 17)] {
            let (b, got_f, _) = cuckoo_size(1_000_000, p).unwrap();
            assert_eq!((b, got_f), (4, f), "rate {}", p);
        }
    }
}

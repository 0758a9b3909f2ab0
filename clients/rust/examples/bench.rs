//! Checks per second, one thread: `contains(i64)` on a 12 MB plain filter
//! (capacity 10,000,000 at 1%), the same filter, keys and probes as the
//! Java client's bench (clients/java/src/bench: keys i·0x9E3779B97F4A7C15,
//! probes from java.util.Random(42), half members), best of several rounds.
//! `make bench-rust` runs it interleaved with the Java bench.
//!
//!     cargo run --release --offline --example bench [rounds]

use std::time::Instant;

use pgbloomfilter::{BloomFilter, CuckooFilter};

const CAPACITY: u64 = 10_000_000;
const RATE: f64 = 0.01;
const PROBES: usize = 4_000_000;
const MIX: i64 = 0x9E37_79B9_7F4A_7C15u64 as i64;

/// java.util.Random, as its documentation specifies it, for the same probes.
struct JavaRandom(u64);

impl JavaRandom {
    fn new(seed: u64) -> JavaRandom {
        JavaRandom((seed ^ 0x5_DEEC_E66D) & ((1 << 48) - 1))
    }
    fn next(&mut self, bits: u32) -> u64 {
        self.0 = (self.0.wrapping_mul(0x5_DEEC_E66D).wrapping_add(0xB)) & ((1 << 48) - 1);
        self.0 >> (48 - bits)
    }
    fn next_double(&mut self) -> f64 {
        (((self.next(26) << 27) + self.next(27)) as f64) * (1.0 / (1u64 << 53) as f64)
    }
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(7);
    let mut plain = BloomFilter::new(CAPACITY, RATE, 0).unwrap();
    let mut cuckoo = CuckooFilter::new(CAPACITY, RATE, 0).unwrap();
    for i in 0..CAPACITY as i64 {
        plain.add(i.wrapping_mul(MIX)).unwrap();
        cuckoo.add(i.wrapping_mul(MIX)).unwrap();
    }
    let mut r = JavaRandom::new(42);
    let probes: Vec<i64> = (0..PROBES)
        .map(|i| {
            let j = (r.next_double() * CAPACITY as f64) as i64;
            if i % 2 == 0 {
                j.wrapping_mul(MIX)
            } else {
                (j + CAPACITY as i64).wrapping_mul(MIX)
            }
        })
        .collect();
    println!(
        "plain: {} bytes (k = {}); cuckoo: {} bytes",
        plain.to_bytes().len(),
        plain.nhashes(),
        cuckoo.to_bytes().len()
    );
    let measure = |check: &dyn Fn(i64) -> bool| {
        let t0 = Instant::now();
        let hits = probes.iter().filter(|&&p| check(p)).count();
        let secs = t0.elapsed().as_secs_f64();
        assert!(hits >= PROBES / 2, "a member answered absent");
        PROBES as f64 / secs
    };
    let (mut best_plain, mut best_cuckoo) = (0f64, 0f64);
    for _ in 0..rounds {
        best_plain = best_plain.max(measure(&|k| plain.contains(k).unwrap()));
        best_cuckoo = best_cuckoo.max(measure(&|k| cuckoo.contains(k).unwrap()));
    }
    println!("checks/s, one thread, best of {} rounds of {} probes (half members):", rounds, PROBES);
    println!("  BloomFilter::contains(i64), 12 MB plain   {:>14.0}", best_plain);
    println!("  CuckooFilter::contains(i64)               {:>14.0}", best_cuckoo);
}

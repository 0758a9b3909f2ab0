//! Growth a value cannot forge (issue 32, items 7 and 8), without a server:
//! the fields of a RedisBloom chain (layout 6) that size later links,
//! rewritten in genuine chains with everything else kept consistent, are
//! refused by `from_bytes` as the server's input refuses them; no value
//! makes the client allocate past the size limit (growth stops with
//! `Error::Full`, the server's 54000) or abort.

use pgbloomfilter::{Error, Filter, RedisBloomFilter};

// offsets in the value: chain at 48, link i at 68 + 53 i
const CHAIN_SIZE: usize = 48;
const NFILTERS: usize = 56;
const OPTIONS: usize = 60;
const GROWTH: usize = 64;
fn link(i: usize) -> usize {
    68 + 53 * i
}
const L_BITS: usize = 8;
const L_SIZE: usize = 16;
const L_ERROR: usize = 24;
const L_BPE: usize = 32;
const L_HASHES: usize = 40;
const L_ENTRIES: usize = 44;

fn ld32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn ld64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}
fn st32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn st64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}
fn f64_at(b: &[u8], at: usize) -> f64 {
    f64::from_bits(ld64(b, at))
}

/// The derived fields made to agree, as a forger would: each link's hashes
/// from its bpe, the chain's size the links' sum, the header's capacity and
/// rate link 0's.
fn consistent(mut b: Vec<u8>) -> Vec<u8> {
    let n = ld32(&b, NFILTERS) as usize;
    let mut total = 0u64;
    for i in 0..n {
        let bpe = f64_at(&b, link(i) + L_BPE);
        st32(&mut b, link(i) + L_HASHES, (0.693147180559945 * bpe).ceil() as u32);
        total = total.wrapping_add(ld64(&b, link(i) + L_SIZE));
    }
    st64(&mut b, CHAIN_SIZE, total);
    let cap = ld64(&b, link(0) + L_ENTRIES);
    st64(&mut b, 24, cap);
    let e0 = f64_at(&b, link(0) + L_ERROR);
    let rate = if ld32(&b, OPTIONS) & 8 != 0 { e0 } else { e0 / 0.5 };
    st64(&mut b, 32, rate.to_bits());
    b
}

/// Genuine chains: bf_create's shapes, grown by adds.
fn genuine() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for &(cap, rate, expansion, adds) in &[
        (1u64, 0.5, 3u32, 40i64),
        (7, 0.2, 2, 300),
        (100, 0.01, 2, 1000),
        (50, 0.001, 1, 300),
        (1000, 1e-5, 4, 5000),
        (20, 0.3, 0, 20),
        (3, 0.9, 2, 200),
        (10, 0.01, 1024, 30),
        (100_000, 1e-6, 0, 0),
    ] {
        let mut f = RedisBloomFilter::new(cap, rate, expansion).unwrap();
        for i in 0..adds {
            f.add(i.wrapping_mul(2654435761) % 1000000007).unwrap();
        }
        out.push(f.to_bytes());
    }
    out
}

fn refused_with(b: &[u8], detail: &str) -> bool {
    match RedisBloomFilter::from_bytes(b) {
        Err(Error::InvalidValue(m)) => m.contains(detail),
        _ => false,
    }
}

const E_ENTRIES: &str = "entries must be what its bits hold";
const E_SIZE: &str = "must not exceed its entries";
const E_BPE: &str = "bpe must be the bits per element";
const E_GROWTH: &str = "must have a growth between 1 and 1024";
const E_NEXT: &str = "after the first must be the one growth made";

#[test]
fn genuine_chains_read_back() {
    for b in genuine() {
        let f = RedisBloomFilter::from_bytes(&b).unwrap();
        assert_eq!(f.to_bytes(), b);
        assert!(matches!(Filter::from_bytes(&b), Ok(Filter::RedisBloom(_))));
    }
}

/// Every link of every genuine chain, each field forged in turn.
#[test]
fn forged_fields_refused() {
    let mut cases = 0;
    for g in genuine() {
        let n = ld32(&g, NFILTERS) as usize;
        let scaling = ld32(&g, OPTIONS) & 8 == 0;
        for i in 0..n {
            let at = link(i);
            let m = ld64(&g, at + L_BITS) as f64;
            let bpe = f64_at(&g, at + L_BPE);
            let entries = ld64(&g, at + L_ENTRIES);
            let mut forged: Vec<(Vec<u8>, &str)> = Vec::new();
            for e in [((m + 1.0) / bpe).floor() as u64 + 2, entries * 1000, 1_000_000_000_000_000, 250_000_000] {
                let mut b = g.clone();
                st64(&mut b, at + L_ENTRIES, e);
                forged.push((consistent(b), E_ENTRIES));
            }
            // entries = size = 10^15, the issue's Rust case
            let mut b = g.clone();
            st64(&mut b, at + L_ENTRIES, 1_000_000_000_000_000);
            st64(&mut b, at + L_SIZE, 1_000_000_000_000_000);
            forged.push((consistent(b), E_ENTRIES));
            let mut b = g.clone();
            st64(&mut b, at + L_SIZE, entries + 1);
            forged.push((consistent(b), E_SIZE));
            for f in [2.0, 0.5] {
                let mut b = g.clone();
                st64(&mut b, at + L_BPE, (bpe * f).to_bits());
                forged.push((consistent(b), E_BPE));
            }
            for (b, detail) in forged {
                cases += 1;
                assert!(refused_with(&b, detail), "chain of {} links, link {}: not refused with {:?}: {:?}",
                        n, i, detail, RedisBloomFilter::from_bytes(&b).map(|_| ()));
            }
        }
        for growth in [0u32, 1025, 500_000_000, u32::MAX] {
            let mut b = g.clone();
            st32(&mut b, GROWTH, growth);
            cases += 1;
            if scaling {
                assert!(refused_with(&b, E_GROWTH), "growth {} taken", growth);
            } else {
                // a NONSCALING chain never grows: its growth sizes nothing
                assert!(RedisBloomFilter::from_bytes(&b).is_ok());
            }
        }
        // ENTS_IS_BITS: the next link would have 2^(entries * growth) bits
        let mut b = g.clone();
        let options = ld32(&b, OPTIONS);
        st32(&mut b, OPTIONS, options | 2);
        cases += 1;
        if scaling {
            assert!(refused_with(&b, E_GROWTH), "ENTS_IS_BITS taken in a scaling chain");
        }
        if n > 1 {
            let mut b = g.clone();
            let growth = ld32(&b, GROWTH);
            st32(&mut b, GROWTH, growth + 1);
            cases += 1;
            assert!(refused_with(&b, E_NEXT) || growth == 1024);
            let mut b = g.clone();
            let options = ld32(&b, OPTIONS);
            st32(&mut b, OPTIONS, options | 8);
            cases += 1;
            assert!(refused_with(&consistent(b), E_NEXT));
        }
    }
    assert!(cases > 200, "{} cases", cases);
}

/// The issue's values: one 8-byte link with entries = size = 10^15, and
/// growth 2^32 - 1, refused at from_bytes (before: accepted, and the next
/// add aborted the process, "memory allocation of 3117612114786534 bytes
/// failed", or grew to 6.7 GB).
#[test]
fn the_issue_values() {
    let g = RedisBloomFilter::new(1, 0.01, 2).unwrap().to_bytes();
    assert_eq!(g.len(), 129);
    let mut b = g.clone();
    st64(&mut b, link(0) + L_ENTRIES, 1_000_000_000_000_000);
    st64(&mut b, link(0) + L_SIZE, 1_000_000_000_000_000);
    let b = consistent(b);
    assert!(refused_with(&b, E_ENTRIES));
    assert!(matches!(Filter::from_bytes(&b), Err(Error::InvalidValue(_))));
    let mut b = g.clone();
    st32(&mut b, GROWTH, u32::MAX);
    assert!(refused_with(&b, E_GROWTH));
}

/// Growth that would pass the size limit stops with Error::Full, checked
/// before anything is allocated: a chain of 1,000,000 at 1% with expansion
/// 1024, its link full, would next make a link of about 1.6 GB.  And a
/// request too large for one link is Error::Full, not an abort.
#[test]
fn growth_stops_at_the_size_limit() {
    let mut b = RedisBloomFilter::new(1_000_000, 0.01, 1024).unwrap().to_bytes();
    let entries = ld64(&b, link(0) + L_ENTRIES);
    st64(&mut b, link(0) + L_SIZE, entries);
    let b = consistent(b);
    let mut f = RedisBloomFilter::from_bytes(&b).unwrap();
    match f.add(42i64) {
        Err(Error::Full(m)) => assert!(m.contains("cannot grow any further"), "{}", m),
        other => panic!("expected Error::Full, got {:?}", other),
    }
    assert_eq!(f.to_bytes(), b, "a refused add changes nothing");
    for &(cap, rate) in &[(1_000_000_000_000_000u64, 0.01), (i64::MAX as u64, 1e-30), (1_000_000_000, 1e-10)] {
        assert!(matches!(RedisBloomFilter::new(cap, rate, 2), Err(Error::Full(_))), "{} at {}", cap, rate);
    }
    // a genuine chain at expansion 1024 grows while the next link fits
    let mut f = RedisBloomFilter::new(1, 0.01, 1024).unwrap();
    for i in 0..4i64 {
        f.add(i).unwrap();
    }
    assert_eq!(f.links(), 2);
}

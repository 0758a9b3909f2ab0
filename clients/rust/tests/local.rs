//! Without a server: threads, text forms, argument checks, counting and
//! cuckoo removals, typed keys.

use std::sync::Arc;

use pgbloomfilter::{keys, BloomFilter, CuckooFilter, Error, Filter, Key};

fn keys_of(n: i64, salt: i64) -> Vec<i64> {
    (0..n).map(|i| (i ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64)).collect()
}

/// Eight threads check one filter of each kind; every answer equals the
/// single-threaded one, and no member is absent.
#[test]
fn eight_threads_agree() {
    let members = keys_of(50_000, 0);
    let probes: Vec<i64> = members.iter().copied().chain(keys_of(50_000, 0x5555)).collect();
    let mut filters: Vec<Filter> = Vec::new();
    let mut plain = BloomFilter::new(50_000, 0.01, 0).unwrap();
    let mut counting = BloomFilter::new_counting(50_000, 0.01, 3).unwrap();
    let mut scalable = BloomFilter::new_scalable(5_000, 0.01, 9, 2).unwrap();
    let mut list = BloomFilter::new_hash_list(0.01, 0, 2).unwrap();
    let mut cuckoo = CuckooFilter::new(20_000, 0.01, 0).unwrap();
    for &k in &members {
        plain.add(k).unwrap();
        counting.add(k).unwrap();
        scalable.add(k).unwrap();
        list.add(k).unwrap();
        cuckoo.add(k).unwrap();
    }
    assert!(scalable.subfilter_items().len() > 1);
    assert!(cuckoo.subfilters() > 1);
    filters.push(Filter::Bloom(plain));
    filters.push(Filter::Bloom(counting));
    filters.push(Filter::Bloom(scalable));
    filters.push(Filter::Bloom(list.finish().unwrap()));
    filters.push(Filter::Bloom(list));
    filters.push(Filter::Cuckoo(cuckoo));
    for f in filters {
        let single: Vec<bool> = probes.iter().map(|&k| f.contains(k).unwrap()).collect();
        assert!(single[..members.len()].iter().all(|&x| x), "a member is absent");
        let f = Arc::new(f);
        let probes = Arc::new(probes.clone());
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let (f, probes) = (Arc::clone(&f), Arc::clone(&probes));
                std::thread::spawn(move || {
                    probes.iter().skip(t).step_by(8).map(|&k| f.contains(k).unwrap()).collect::<Vec<bool>>()
                })
            })
            .collect();
        for (t, h) in handles.into_iter().enumerate() {
            let got = h.join().unwrap();
            let want: Vec<bool> = single.iter().copied().skip(t).step_by(8).collect();
            assert_eq!(got, want, "thread {}", t);
        }
    }
}

#[test]
fn text_form_round_trip() {
    let mut f = BloomFilter::new(1000, 0.01, 5).unwrap();
    f.add("a").unwrap();
    let g = BloomFilter::from_base64(&f.to_base64()).unwrap();
    assert_eq!(g.to_bytes(), f.to_bytes());
    let mut c = CuckooFilter::new(1000, 0.01, 0).unwrap();
    c.add(Key::uuid("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11").unwrap()).unwrap();
    match Filter::from_base64(&c.to_base64()).unwrap() {
        Filter::Cuckoo(d) => assert_eq!(d.to_bytes(), c.to_bytes()),
        _ => panic!("a cuckoo filter read as another type"),
    }
    assert!(matches!(BloomFilter::from_base64("not base64!"), Err(Error::InvalidValue(_))));
    assert!(matches!(Filter::from_bytes(b"BLMF"), Err(Error::InvalidValue(_))));
}

#[test]
fn arguments_are_checked() {
    assert!(matches!(BloomFilter::new(0, 0.01, 0), Err(Error::InvalidArgument(_))));
    assert!(matches!(BloomFilter::new(10, 1.0, 0), Err(Error::InvalidArgument(_))));
    assert!(matches!(BloomFilter::new(10, 1e-11, 0), Err(Error::InvalidArgument(_))));
    assert!(matches!(BloomFilter::new_scalable(10, 0.01, 0, 0), Err(Error::InvalidArgument(_))));
    for seed in 1..=8 {
        assert!(matches!(CuckooFilter::new(100, 0.01, seed), Err(Error::InvalidArgument(_))));
    }
    assert!(CuckooFilter::new(100, 0.01, 9).is_ok());
    let mut plain = BloomFilter::new(10, 0.01, 0).unwrap();
    assert!(matches!(plain.remove(1i64), Err(Error::InvalidArgument(_))));
    assert!(matches!(pgbloomfilter::shard(1i64, 0), Err(Error::InvalidArgument(_))));
}

#[test]
fn key_types() {
    // the first key gives an untyped empty filter its type
    let mut f = BloomFilter::new(100, 0.01, 0).unwrap();
    f.add(5i32).unwrap();
    assert_eq!(f.key_type(), keys::INT8);
    assert!(f.contains("5").unwrap());
    assert!(f.contains(5.0f64).unwrap());
    assert!(!f.contains(5.5f64).unwrap());
    assert!(f.contains(Key::Numeric("5.000")).unwrap());
    assert!(matches!(f.contains(&b"x"[..]), Err(Error::KeyTypeMismatch(_))));
    assert!(matches!(f.contains("five"), Err(Error::InvalidKey(_))));
    // a refused add leaves the filter as it was
    let before = f.to_bytes();
    assert!(f.add(5.5f64).is_err());
    assert_eq!(f.to_bytes(), before);
    // smallint, integer and bigint change among themselves only
    let g = f.clone().with_key_type(keys::INT4).unwrap();
    assert_eq!(g.key_type(), keys::INT4);
    assert!(matches!(f.with_key_type(keys::TEXT), Err(Error::KeyTypeMismatch(_))));
    // char(n): trailing blanks do not count
    let mut c = BloomFilter::new(100, 0.01, 0).unwrap().with_key_type(keys::BPCHAR).unwrap();
    c.add("ab  ").unwrap();
    assert!(c.contains("ab").unwrap() && c.contains("ab      ").unwrap());
    // a row's columns convert to the signature's types
    let mut r = BloomFilter::new(100, 0.01, 0).unwrap();
    r.add(Key::Row(&[Key::Int(5), Key::date(2024, 1, 6)])).unwrap();
    assert!(r.contains(Key::Row(&[Key::Text("5"), Key::timestamp(2024, 1, 6, 0, 0, 0, 0)])).unwrap());
    assert!(!r.contains(Key::Row(&[Key::Int(5), Key::timestamp(2024, 1, 6, 0, 0, 1, 0)])).unwrap());
    assert!(matches!(r.contains(Key::Row(&[Key::Int(5)])), Err(Error::KeyTypeMismatch(_))));
}

#[test]
fn counts_and_removals() {
    let mut c = BloomFilter::new_counting(1000, 0.01, 0).unwrap();
    for _ in 0..3 {
        c.add("k").unwrap();
    }
    assert_eq!(c.count("k").unwrap(), 3);
    assert!(c.remove("k").unwrap());
    assert_eq!(c.count("k").unwrap(), 2);
    assert!(!c.remove("absent").unwrap());
    let mut k = CuckooFilter::new(1000, 0.01, 0).unwrap();
    k.add(1i64).unwrap();
    k.add(1i64).unwrap();
    assert!(!k.add_if_absent(1i64).unwrap());
    assert_eq!(k.count(1i64).unwrap(), 2);
    assert!(k.remove(1i64).unwrap() && k.remove(1i64).unwrap());
    assert!(!k.contains(1i64).unwrap());
    assert_eq!(k.items(), 0);
}

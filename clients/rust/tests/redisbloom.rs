//! Layout 6 (RedisBloom chains, bloomfilter 1.5) against a server that has
//! it: skipped, with a note, when the server's bf_create has no `layout`
//! 'redisbloom'.

mod common;

use common::{hex_decode, write_lines, Rng, Server, Val};
use pgbloomfilter::{keys, Filter, RedisBloomFilter};

#[test]
fn redisbloom_layout_against_the_server() {
    let server = Server::start();
    if server.psql("SELECT bf_create(10, layout => 'redisbloom')").is_err() {
        eprintln!("skipped: this server has no RedisBloom layout (bloomfilter 1.5's layout 6)");
        return;
    }
    let mut fails: Vec<String> = Vec::new();
    let mut r = Rng(6);
    let cases: Vec<(&str, u32, Vec<Val>, u64, u32)> = vec![
        ("int8", keys::INT8, (0..40_000).map(|_| Val::Int(r.next() as i64 >> r.below(64))).collect(), 2_000, 2),
        ("int4", keys::INT4, (0..40_000).map(|_| Val::Int((r.next() as i64) >> 32)).collect(), 20_000, 0),
        ("text", keys::TEXT, (0..40_000).map(|_| Val::Text(format!("ключ{:x}", r.next() >> r.below(60)))).collect(), 1_000, 3),
        ("bytea", keys::BYTEA, (0..40_000).map(|_| Val::Bytes(r.next().to_le_bytes()[..r.below(9) as usize].to_vec())).collect(), 5_000, 2),
    ];
    for (t, key_type, vals, cap, expansion) in cases {
        let n = vals.len() / 2;
        let what = format!("redisbloom {} (capacity {}, expansion {})", t, cap, expansion);
        let file = server.scratch("redis");
        write_lines(&file, vals.iter().enumerate().map(|(i, v)| format!("{}\t{}", i, v.copy_text())));
        let out = server.psql(&format!(
            "CREATE TEMP TABLE k (o int, v {t}); \\copy k FROM '{f}'\n\
             CREATE TEMP TABLE f AS SELECT bf_add_all(bf_create({c}, 0.01, expansion => {e}, layout => 'redisbloom', key_type => '{t}'), array_agg(v ORDER BY o)) AS flt FROM k WHERE o < {n};\n\
             SELECT encode(flt::bytea, 'hex') FROM f;\n\
             SELECT string_agg(CASE WHEN bf_contains(flt, v) THEN '1' ELSE '0' END, '' ORDER BY o) FROM f, k;\n\
             DROP TABLE k, f",
            t = t,
            f = file.display(),
            c = cap,
            e = expansion,
            n = n
        ));
        let out = match out {
            Ok(o) => o,
            Err(e) => {
                let _ = server.psql("DROP TABLE IF EXISTS k, f");
                fails.push(format!("{}: {}", what, e));
                continue;
            }
        };
        let l: Vec<&str> = out.lines().collect();
        let bytes = hex_decode(l[0]);
        let f = match Filter::from_bytes(&bytes) {
            Ok(Filter::RedisBloom(g)) => g,
            other => {
                fails.push(format!("{}: read as {:?}", what, other.map(|_| ())));
                continue;
            }
        };
        let got: String = vals.iter().map(|v| if f.contains(v.key()).unwrap() { '1' } else { '0' }).collect();
        if got != l[1] {
            fails.push(format!("{}: answers differ", what));
        }
        let mut local = RedisBloomFilter::new(cap, 0.01, expansion).unwrap();
        let mut local_typed_ok = true;
        for v in &vals[..n] {
            if let Err(e) = local.add(v.key()) {
                fails.push(format!("{}: local add: {}", what, e));
                local_typed_ok = false;
                break;
            }
        }
        if local_typed_ok && local.key_type() != key_type {
            // the server recorded the column's type; a local build of
            // Key::Int records bigint: compare the rest of the bytes
            let mut b = local.to_bytes();
            b[12..16].copy_from_slice(&key_type.to_le_bytes());
            if b != bytes {
                fails.push(format!("{}: the local build's bytes differ", what));
            }
        } else if local_typed_ok && local.to_bytes() != bytes {
            fails.push(format!("{}: the local build's bytes differ", what));
        }
        eprintln!("ok: {} ({} links)", what, f.links());
    }
    drop(server);
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n"));
}

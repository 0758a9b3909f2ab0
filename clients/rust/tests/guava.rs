//! Layout 5 (Guava's bits, bloomfilter 1.5) against a server that has it:
//! skipped, with a note, when the server's bf_create has no `layout`.

mod common;

use common::{hex_decode, hex_encode, write_lines, Rng, Server, Val};
use pgbloomfilter::{keys, Error, Filter, GuavaFilter};

#[test]
fn guava_layout_against_the_server() {
    let server = Server::start();
    if server.psql("SELECT bf_create(10, layout => 'guava', key_type => 'bigint')").is_err() {
        eprintln!("skipped: this server has no Guava layout (bloomfilter 1.5's layout 5)");
        return;
    }
    let mut fails: Vec<String> = Vec::new();
    let mut r = Rng(5);
    // (column type, key type, members, probes of the column's type, extra probes of another type)
    let cases: Vec<(&str, u32, Vec<Val>, &str, Vec<Val>)> = vec![
        ("int8", keys::INT8, (0..60_000).map(|_| Val::Int(r.next() as i64)).collect(), "text", (0..300).map(|i| Val::Text(format!("{}", i - 150))).collect()),
        ("int4", keys::INT4, (0..60_000).map(|_| Val::Int((r.next() as i64) >> 32)).collect(), "int8", (0..300).map(|i| Val::Int((i - 150) * (1 << 25))).collect()),
        ("text", keys::TEXT, (0..60_000).map(|_| Val::Text(format!("é{:x}", r.next() >> r.below(60)))).collect(), "text", (0..300).map(|i| Val::Text(format!("é{:x}", i))).collect()),
        ("bytea", keys::BYTEA, (0..60_000).map(|_| Val::Bytes(r.next().to_le_bytes()[..r.below(9) as usize].to_vec())).collect(), "bytea", (0..300).map(|i| Val::Bytes(vec![i as u8])).collect()),
        ("int8", keys::INT8, (-300..300).map(|i| Val::Int(i * 4)).collect(), "float8", (-600..600).map(|i| Val::Float(i as f64 * 0.5)).collect()),
        ("int8", keys::INT8, (-300..300).map(|i| Val::Int(i * 4)).collect(), "numeric", (-600..600).map(|i| Val::Numeric(format!("{}.{}", i, if i % 2 == 0 { "00" } else { "5" }))).collect()),
    ];
    for (t, key_type, vals, ptype, extra) in cases {
        let n = vals.len() / 2;
        let what = format!("guava {} ({} probes)", t, ptype);
        let file = server.scratch("guava");
        write_lines(&file, vals.iter().enumerate().map(|(i, v)| format!("{}\t{}", i, v.copy_text())));
        let pfile = server.scratch("guava-probes");
        write_lines(&pfile, extra.iter().enumerate().map(|(i, v)| format!("{}\t{}", i, v.copy_text())));
        let out = server.query(&format!(
            "CREATE TEMP TABLE k (o int, v {t}); \\copy k FROM '{f}'\n\
             CREATE TEMP TABLE p (o int, v {p}); \\copy p FROM '{pf}'\n\
             CREATE TEMP TABLE f AS SELECT bf_agg(v, bf_create({n}, 0.01, layout => 'guava', key_type => '{t}')) AS flt FROM k WHERE o < {n};\n\
             SELECT encode(flt::bytea, 'hex') FROM f;\n\
             SELECT string_agg(CASE WHEN bf_contains(flt, v) THEN '1' ELSE '0' END, '' ORDER BY o) FROM f, k;\n\
             SELECT string_agg(CASE WHEN bf_contains(flt, v) THEN '1' ELSE '0' END, '' ORDER BY o) FROM f, p;\n\
             SELECT encode(bf_to_guava(flt), 'hex') FROM f;\n\
             DROP TABLE k, p, f",
            t = t,
            p = ptype,
            f = file.display(),
            pf = pfile.display(),
            n = n
        ));
        let l: Vec<&str> = out.lines().collect();
        let bytes = hex_decode(l[0]);
        let f = match Filter::from_bytes(&bytes) {
            Ok(Filter::Guava(g)) => g,
            other => {
                fails.push(format!("{}: read as {:?}", what, other.map(|_| ())));
                continue;
            }
        };
        let got: String = vals.iter().map(|v| if f.contains(v.key()).unwrap() { '1' } else { '0' }).collect();
        if got != l[1] {
            fails.push(format!("{}: answers differ", what));
        }
        let got: String = extra.iter().map(|v| if f.contains(v.key()).unwrap() { '1' } else { '0' }).collect();
        if got != l[2] {
            fails.push(format!("{}: probes of another type differ: server {} client {}", what, l[2], got));
        }
        let mut local = GuavaFilter::new(n as u64, 0.01, key_type).unwrap();
        vals[..n].iter().for_each(|v| local.add(v.key()).unwrap());
        if local.to_bytes() != bytes {
            fails.push(format!("{}: the local build's bytes differ", what));
        }
        if local.to_guava() != hex_decode(l[3]) {
            fails.push(format!("{}: bf_to_guava differs", what));
        }
        let back = server.query(&format!("SELECT encode(bf_from_guava('\\x{}'::bytea, '{}')::bytea, 'hex')", hex_encode(&local.to_guava()), t));
        if GuavaFilter::from_guava(&local.to_guava(), key_type).unwrap().to_bytes() != hex_decode(&back) {
            fails.push(format!("{}: bf_from_guava differs", what));
        }
        eprintln!("ok: {}", what);
    }
    // sizing over a grid: the empty values' bytes
    for c in [1u64, 7, 100, 1000, 65537, 1_000_000] {
        for p in [0.5, 0.1, 0.01, 1e-3, 1e-6, 1e-12] {
            let server_says = server.psql(&format!("SELECT encode(bf_create({}, {:?}, layout => 'guava', key_type => 'text')::bytea, 'hex')", c, p));
            match (server_says, GuavaFilter::new(c, p, keys::TEXT)) {
                (Ok(h), Ok(g)) if hex_decode(&h) == g.to_bytes() => {}
                (Err(_), Err(_)) => {}
                (s, g) => fails.push(format!("guava sizing ({}, {}): server {:?} client {:?}", c, p, s.map(|h| h.len()), g.map(|g| g.nbits()))),
            }
        }
    }
    // bad bytes: refused exactly when the server refuses them, with its detail
    server.query(
        "CREATE FUNCTION try_in(b bytea) RETURNS text LANGUAGE plpgsql AS $$ DECLARE d text; \
         BEGIN PERFORM b::bloomfilter; RETURN 'ok'; \
         EXCEPTION WHEN others THEN GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL; RETURN SQLSTATE || ' ' || coalesce(d, ''); END $$",
    );
    let mut base = GuavaFilter::new(300, 0.05, keys::INT8).unwrap();
    for i in 0..100i64 {
        base.add(i).unwrap();
    }
    let b = base.to_bytes();
    let mut cases = vec![b.clone()];
    for _ in 0..600 {
        let mut m = b.clone();
        match r.below(4) {
            0 | 1 => {
                let at = r.below(56) as usize;
                m[at] = [0u8, 1, 2, 3, 4, 5, 6, 17, 20, 23, 25, 64, 0x80, 0xFF][r.below(14) as usize];
            }
            2 => {
                let at = r.below(b.len() as u64) as usize;
                m[at] ^= 1 << r.below(8);
            }
            _ => m.truncate(b.len() - 1 - r.below(16) as usize),
        }
        cases.push(m);
    }
    let file = server.scratch("guava-mutations");
    write_lines(&file, cases.iter().enumerate().map(|(i, m)| format!("{}\t\\\\x{}", i, hex_encode(m))));
    let out = server.query(&format!("CREATE TEMP TABLE m (o int, b bytea); \\copy m FROM '{}'\nSELECT try_in(b) FROM m ORDER BY o", file.display()));
    // the client knows 1.5's layout 6 (redisbloom): against a server without
    // it, a value claiming it is refused by both, with another detail
    let has_redis = server.psql("SELECT bf_create(10, layout => 'redisbloom')").is_ok();
    for (m, s) in cases.iter().zip(out.lines()) {
        let client = Filter::from_bytes(m);
        let layout6 = !has_redis && m.len() > 5 && m[5] == 6;
        let agree = match (&client, s) {
            (Ok(_), "ok") => true,
            (Err(Error::InvalidValue(msg)), s) if s.starts_with("22P03 ") => msg.ends_with(&s[6..]) || layout6,
            _ => false,
        };
        if !agree {
            fails.push(format!("guava bytes {}: server {}, client {:?}", hex_encode(&m[..48.min(m.len())]), s, client.map(|_| ())));
        }
    }
    eprintln!("ok: guava sizing and {} mutated values", cases.len());
    drop(server);
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n"));
}

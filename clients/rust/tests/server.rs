//! Against a real server (tests/common: a private cluster, or
//! BLOOMFILTER_TEST_DSN): for each filter kind and key type, 100,000 members
//! and 100,000 non-members answer exactly as bf_contains/cf_contains over
//! the same values, checked from 8 threads; local builds are byte-identical
//! to the server's; typed keys convert and refuse as the server does; bad
//! bytes are refused exactly when the server refuses them; shards and
//! sizing agree.

mod common;

use std::collections::HashSet;
use std::sync::Arc;

use common::{date_text, hex_decode, hex_encode, ts_text, write_lines, Rng, Server, Val};
use pgbloomfilter::{keys, BloomFilter, CuckooFilter, Error, Filter, Key};

const N: usize = 100_000;
const THREADS: usize = 8;

const ALPHABET: &[&str] = &["a", "b", "c", "x", "z", "0", "9", " ", "_", "-", "é", "日本", "\u{a0}", "😀", "\u{301}", "'", "\""];

fn gen_text(r: &mut Rng, max: u64) -> String {
    let n = r.below(max);
    (0..n).map(|_| ALPHABET[r.below(ALPHABET.len() as u64) as usize]).collect()
}

fn gen_int(r: &mut Rng, bits: u32) -> i64 {
    let x = r.next() as i64;
    match bits {
        16 => x >> 48,
        32 => x >> 32,
        _ => match r.below(3) {
            0 => x >> 48,
            1 => x >> 32,
            _ => x,
        },
    }
}

fn gen_numeric(r: &mut Rng, whole: bool) -> String {
    let sign = if r.below(2) == 0 { "" } else { "-" };
    let int = r.next() >> r.below(64);
    if whole {
        match r.below(4) {
            0 => format!("{}{}.000", sign, int),
            1 => format!("{}{}{:05}", sign, int, r.below(100_000)), // beyond int8 at times
            _ => format!("{}{}", sign, int),
        }
    } else {
        let frac = r.below(1_000_000) + 1;
        format!("{}{}.{:06}{}", sign, int >> 20, frac, if r.below(2) == 0 { "00" } else { "" })
    }
}

fn gen_float(r: &mut Rng, single: bool) -> f64 {
    let d = match r.below(5) {
        0 => (r.next() as i64 >> r.below(60)) as f64,
        1 => f64::from_bits(r.next()),
        2 => (r.below(2_000_000) as f64 - 1e6) / 64.0,
        _ => (r.next() as f64) * 1e-12 * if r.below(2) == 0 { 1.0 } else { -1.0 },
    };
    let d = if d.is_nan() { r.below(1000) as f64 + 0.5 } else { d };
    if single {
        let f = d as f32;
        if f.is_finite() {
            f as f64
        } else {
            r.below(1000) as f64 / 8.0
        }
    } else {
        d
    }
}

/// A key type's case: the column(s), the key expression, a value generator.
struct Case {
    name: &'static str,
    columns: &'static str,
    expr: &'static str,
    key_type: u32,
    members: usize,
    gen: fn(&mut Rng) -> Val,
}

fn cases() -> Vec<Case> {
    vec![
        Case { name: "bigint", columns: "v int8", expr: "v", key_type: keys::INT8, members: N, gen: |r| Val::Int(gen_int(r, 64)) },
        Case { name: "integer", columns: "v int4", expr: "v", key_type: keys::INT4, members: N, gen: |r| Val::Int(gen_int(r, 32)) },
        Case { name: "smallint", columns: "v int2", expr: "v", key_type: keys::INT2, members: 30_000, gen: |r| Val::Int(gen_int(r, 16)) },
        Case { name: "text", columns: "v text", expr: "v", key_type: keys::TEXT, members: N, gen: |r| Val::Text(gen_text(r, 24)) },
        Case { name: "varchar", columns: "v varchar", expr: "v", key_type: keys::VARCHAR, members: 20_000, gen: |r| Val::Text(gen_text(r, 12)) },
        Case { name: "char(n)", columns: "v char(30)", expr: "v", key_type: keys::BPCHAR, members: 20_000, gen: |r| Val::Text(gen_text(r, 12)) },
        Case { name: "name", columns: "v name", expr: "v", key_type: keys::NAME, members: 20_000, gen: |r| Val::Text(gen_text(r, 12)) },
        Case { name: "bytea", columns: "v bytea", expr: "v", key_type: keys::BYTEA, members: N, gen: |r| {
            let n = r.below(40);
            Val::Bytes((0..n).map(|_| r.next() as u8).collect())
        } },
        Case { name: "uuid", columns: "v uuid", expr: "v", key_type: keys::UUID, members: N, gen: |r| {
            let (a, b) = (r.next(), r.next());
            let mut u = [0u8; 16];
            u[..8].copy_from_slice(&a.to_be_bytes());
            u[8..].copy_from_slice(&b.to_be_bytes());
            Val::Uuid(u)
        } },
        Case { name: "numeric whole", columns: "v numeric", expr: "v", key_type: keys::NUMERIC, members: N, gen: |r| Val::Numeric(gen_numeric(r, true)) },
        Case { name: "numeric non-whole", columns: "v numeric", expr: "v", key_type: keys::NUMERIC, members: N, gen: |r| Val::Numeric(gen_numeric(r, false)) },
        Case { name: "double precision", columns: "v float8", expr: "v", key_type: keys::FLOAT8, members: N, gen: |r| Val::Float(gen_float(r, false)) },
        Case { name: "real", columns: "v float4", expr: "v", key_type: keys::FLOAT4, members: 50_000, gen: |r| Val::Float(gen_float(r, true)) },
        Case { name: "boolean", columns: "v bool", expr: "v", key_type: keys::BOOL, members: 1, gen: |r| Val::Bool(r.below(2) == 0) },
        Case { name: "date", columns: "v date", expr: "v", key_type: keys::DATE, members: 50_000, gen: |r| Val::Date(r.below(400_000) as i32 - 200_000) },
        Case { name: "timestamp", columns: "v timestamp", expr: "v", key_type: keys::TIMESTAMP, members: N, gen: |r| Val::Ts(r.below(1 << 52) as i64 - (1 << 51)) },
        Case { name: "timestamptz", columns: "v timestamptz", expr: "v", key_type: keys::TIMESTAMPTZ, members: N, gen: |r| Val::Tstz(r.below(1 << 50) as i64 - (1 << 49)) },
        Case { name: "row(int4, date)", columns: "a int4, b date", expr: "ROW(a, b)", key_type: 0x8000_0000 | 2 | 15 << 5, members: N, gen: |r| {
            Val::Row(vec![Val::Int(gen_int(r, 32)), Val::Date(r.below(20_000) as i32)])
        } },
        Case { name: "row(text, uuid, numeric)", columns: "a text, b uuid, c numeric", expr: "ROW(a, b, c)", key_type: 0x8000_0000 | 4 | 9 << 5 | 10 << 10, members: 30_000, gen: |r| {
            let mut u = [0u8; 16];
            u[..8].copy_from_slice(&r.next().to_be_bytes());
            Val::Row(vec![Val::Text(gen_text(r, 8)), Val::Uuid(u), { let whole = r.below(2) == 0; Val::Numeric(gen_numeric(r, whole)) }])
        } },
    ]
}

/// Distinct values: `members` and as many non-members (fewer when the
/// type has fewer values), each with its COPY text.
fn values(case: &Case) -> (Vec<Val>, usize) {
    let mut r = Rng(0x5EED ^ case.name.len() as u64 ^ (case.name.as_bytes()[0] as u64) << 8);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let want = 2 * case.members;
    let mut tries = 0;
    while out.len() < want && tries < 20 * want + 100 {
        tries += 1;
        let v = (case.gen)(&mut r);
        // equal SQL values must not be both member and non-member: dedupe on the
        // canonical bytes the server hashes (the filter's own rules)
        let canon = v.with_key(&mut |k| keys::canonical_bytes(&k, 2, case.key_type).unwrap());
        if seen.insert(canon) {
            out.push(v);
        }
    }
    let members = case.members.min(out.len() / 2).max(1);
    (out, members)
}

/// The server's answers as a string of 0 and 1, in order.
fn answers_local(f: &Filter, vals: &[Val]) -> String {
    let f = Arc::new(f.clone());
    let chunk = (vals.len() + THREADS - 1) / THREADS;
    let parts: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = vals
            .chunks(chunk.max(1))
            .map(|part| {
                let f = Arc::clone(&f);
                s.spawn(move || {
                    part.iter()
                        .map(|v| if v.with_key(&mut |k| f.contains(k).unwrap()) { '1' } else { '0' })
                        .collect::<String>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    parts.concat()
}

fn first_difference(a: &str, b: &str, vals: &[Val]) -> String {
    match a.chars().zip(b.chars()).position(|(x, y)| x != y) {
        Some(i) => format!("first at {}: {:?} server {} client {}", i, vals[i], &a[i..i + 1], &b[i..i + 1]),
        None => format!("lengths {} and {}", a.len(), b.len()),
    }
}

struct Failures(Vec<String>);

impl Failures {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            let m = what();
            eprintln!("FAIL: {}", m);
            self.0.push(m);
        }
    }
}

/// The kinds, each: the server expression over the members (in order) and
/// the same built locally.
fn kinds(case: &Case, members: usize) -> Vec<(&'static str, String, Box<dyn Fn(&[Val]) -> Filter>)> {
    let e = case.expr;
    let cap = members as u64;
    let scal_cap = (members as u64 / 10).max(1);
    // a local build of these keys records the column's type as the server's aggregate does
    let kt = case.key_type;
    vec![
        (
            "plain",
            format!("bf_agg({}, {}, 0.01 ORDER BY o)", e, cap),
            Box::new(move |m: &[Val]| {
                let mut f = BloomFilter::new(cap, 0.01, 0).unwrap().with_key_type(kt).unwrap();
                m.iter().for_each(|v| v.with_key(&mut |k| f.add(k).unwrap()));
                Filter::Bloom(f)
            }),
        ),
        (
            "counting",
            // bf_agg with a template and ORDER BY copies the filter at every row
            // (quadratic on the server): bf_add_all makes the same adds in order
            format!("bf_add_all(bf_create({}, 0.02, 77, counting => true), array_agg({} ORDER BY o))", cap, e),
            Box::new(move |m: &[Val]| {
                let mut f = BloomFilter::new_counting(cap, 0.02, 77).unwrap().with_key_type(kt).unwrap();
                m.iter().for_each(|v| v.with_key(&mut |k| f.add(k).unwrap()));
                Filter::Bloom(f)
            }),
        ),
        (
            "scalable",
            format!("bf_add_all(bf_create({}, 0.01, 4294967295, expansion => 2), array_agg({} ORDER BY o))", scal_cap, e),
            Box::new(move |m: &[Val]| {
                let mut f = BloomFilter::new_scalable(scal_cap, 0.01, u32::MAX, 2).unwrap().with_key_type(kt).unwrap();
                m.iter().for_each(|v| v.with_key(&mut |k| f.add(k).unwrap()));
                Filter::Bloom(f)
            }),
        ),
        (
            "unsized bf_agg",
            format!("bf_agg({} ORDER BY o)", e),
            Box::new(move |m: &[Val]| {
                let mut f = BloomFilter::new_hash_list(0.01, 0, 2).unwrap().with_key_type(kt).unwrap();
                m.iter().for_each(|v| v.with_key(&mut |k| f.add(k).unwrap()));
                Filter::Bloom(f.finish().unwrap())
            }),
        ),
        (
            "cuckoo",
            format!("cf_agg({}, {}, 0.01 ORDER BY o)", e, (cap / 2).max(1)),
            Box::new(move |m: &[Val]| {
                let mut f = CuckooFilter::new((cap / 2).max(1), 0.01, 0).unwrap().with_key_type(kt).unwrap();
                m.iter().for_each(|v| v.with_key(&mut |k| f.add(k).unwrap()));
                Filter::Cuckoo(f)
            }),
        ),
    ]
}

fn members_and_answers(server: &Server, fails: &mut Failures) {
    for case in cases() {
        let (vals, members) = values(&case);
        let table = format!("k_{}", case.name.replace(|c: char| !c.is_ascii_alphanumeric(), "_"));
        let file = server.scratch(&table);
        write_lines(&file, vals.iter().enumerate().map(|(i, v)| format!("{}\t{}", i, v.copy_text())));
        server.query(&format!(
            "CREATE TABLE {t} (o int, {c}); \\copy {t} FROM '{f}'\nANALYZE {t}",
            t = table,
            c = case.columns,
            f = file.display()
        ));
        for (kind, sql, local) in kinds(&case, members) {
            let out = server.query(&format!(
                "CREATE TEMP TABLE f AS SELECT {sql} AS flt FROM {t} WHERE o < {m};\n\
                 SELECT encode(flt::bytea, 'hex') FROM f;\n\
                 SELECT string_agg(CASE WHEN {c}(flt, {e}) THEN '1' ELSE '0' END, '' ORDER BY o) FROM f, {t};\n\
                 DROP TABLE f",
                sql = sql,
                t = table,
                m = members,
                e = case.expr,
                c = if kind == "cuckoo" { "cf_contains" } else { "bf_contains" },
            ));
            let mut lines = out.lines();
            let bytes = hex_decode(lines.next().unwrap());
            let want = lines.next().unwrap().to_string();
            let what = format!("{} / {}", case.name, kind);
            let f = match Filter::from_bytes(&bytes) {
                Ok(f) => f,
                Err(e) => {
                    fails.check(false, || format!("{}: the server's value is refused: {}", what, e));
                    continue;
                }
            };
            fails.check(f.key_type() == case.key_type, || format!("{}: key type {:#x}, want {:#x}", what, f.key_type(), case.key_type));
            let got = answers_local(&f, &vals);
            fails.check(got == want, || format!("{}: answers differ, {}", what, first_difference(&want, &got, &vals)));
            let members_found = got[..members].chars().all(|c| c == '1');
            fails.check(members_found, || format!("{}: a member answered absent", what));
            let built = local(&vals[..members]);
            fails.check(built.to_bytes() == bytes, || format!("{}: the local build's bytes differ from the server's", what));
            eprintln!("ok: {} ({} members, {} probes)", what, members, vals.len());
        }
        let _ = std::fs::remove_file(&file);
        server.query(&format!("DROP TABLE {}", table));
    }
}

/// Probes of other types against typed filters: converted as the server
/// converts them (the answers equal), or refused where it refuses (42804).
fn typed_probes(server: &Server, fails: &mut Failures) {
    // (filter column type, members SQL, probe SQL type, probes)
    let mut probes: Vec<(&str, String, &str, Vec<Val>)> = Vec::new();
    let int_text: Vec<Val> = (-400..400).map(|i| Val::Text(format!(" {}{} ", if i % 3 == 0 && i >= 0 { "+" } else { "" }, i * 5))).collect();
    let int_float: Vec<Val> = (-400..400).map(|i| Val::Float(i as f64 * 3.5)).collect();
    let int_num: Vec<Val> = (-400..400).map(|i| Val::Numeric(format!("{}.{}", i * 2, if i % 2 == 0 { "000" } else { "5" }))).collect();
    let big: Vec<Val> = (0..200).map(|i| Val::Int((1i64 << 40) + i * 7 - 700)).chain((-100..100).map(|i| Val::Int(i * 7))).collect();
    for t in ["int8", "int4", "int2"] {
        probes.push((t, "(g * 7)".into(), "text", int_text.clone()));
        probes.push((t, "(g * 7)".into(), "float8", int_float.clone()));
        probes.push((t, "(g * 7)".into(), "numeric", int_num.clone()));
        probes.push((t, "(g * 7)".into(), "int8", big.clone()));
    }
    probes.push(("numeric", "(g * 7)".into(), "int8", (-300..300).map(|i| Val::Int(i * 3)).collect()));
    probes.push(("numeric", "(g * 7 / 4.0)".into(), "text", (-500..500).map(|i| Val::Text(format!("{}e-2", i * 175))).collect()));
    probes.push(("float8", "(g * 0.25)".into(), "int8", (-200..200).map(Val::Int).collect()));
    probes.push(("float8", "(g * 0.25)".into(), "text", (-300..300).map(|i| Val::Text(format!("{:e}", i as f64 * 0.125))).collect()));
    probes.push(("float8", "(g * 0.25)".into(), "numeric", (-300..300).map(|i| Val::Numeric(format!("{}", i as f64 * 0.125))).collect()));
    probes.push(("float4", "(g * 0.1)".into(), "float8", (-300..300).map(|i| Val::Float(((i as f32) * 0.1f32) as f64)).chain((-300..300).map(|i| Val::Float(i as f64 * 0.1))).collect()));
    probes.push(("float4", "(g * 0.1)".into(), "text", (-300..300).map(|i| Val::Text(format!("{}", i as f64 * 0.05))).collect()));
    probes.push(("float4", "(g * 0.5)".into(), "int8", (-300..300).map(Val::Int).collect()));
    probes.push(("char(10)", "('k' || g || repeat(' ', g % 3))".into(), "text", (-600i32..600).map(|i| Val::Text(format!("k{}{}", i, " ".repeat((i.rem_euclid(4)) as usize)))).collect()));
    probes.push(("name", "('n' || g)".into(), "text", (-600..600).map(|i| Val::Text(format!("n{}", i))).collect()));
    probes.push(("date", "('2000-01-01'::date + g * 3)".into(), "timestamp", (-600..600).map(|i| Val::Ts(i as i64 * 43_200_000_000)).collect()));
    probes.push(("timestamp", "('2000-01-01'::timestamp + g * interval '12 hours')".into(), "date", (-600..600).map(Val::Date).collect()));
    probes.push(("timestamp", "('2000-01-01'::timestamp + g * interval '12 hours')".into(), "text", (-600..600).map(|i| Val::Text(ts_text(i as i64 * 21_600_000_000))).collect()));
    probes.push(("timestamptz", "('2000-01-01 00:00+00'::timestamptz + g * interval '1 hour')".into(), "text", (-300..300).map(|i| Val::Text(format!("{}+02:00", ts_text((i as i64 + 2) * 1_800_000_000)))).collect()));
    probes.push(("date", "('2000-01-01'::date + g)".into(), "text", (-300..300).map(|i| Val::Text(date_text(i as i64 * 2))).collect()));
    probes.push(("uuid", "('00000000-0000-0000-0000-' || lpad(to_hex(g + 300), 12, '0'))".into(), "text", (0..600).map(|i| Val::Text(format!("{{00000000-0000-0000-0000-{:012x}}}", i * 2))).collect()));
    probes.push(("bytea", "decode(lpad(to_hex(g * 11), 8, '0'), 'hex')".into(), "text", (0..600).map(|i| Val::Text(format!("\\x{:08x}", i * 5))).collect()));
    probes.push(("bool", "(g > 1000)".into(), "text", ["yes", "no", "t", "0", "on", "off"].iter().map(|s| Val::Text(s.to_string())).collect()));

    for (ftype, members, ptype, vals) in probes {
        let file = server.scratch("probes");
        write_lines(&file, vals.iter().enumerate().map(|(i, v)| format!("{}\t{}", i, v.copy_text())));
        let out = server.psql(&format!(
            "CREATE TEMP TABLE p (o int, v {p}); \\copy p FROM '{f}'\n\
             CREATE TEMP TABLE f AS SELECT bf_agg({m}::{t}, 10000, 0.01) AS bf FROM generate_series(-300, 300) g;\n\
             SELECT encode(bf::bytea, 'hex') FROM f;\n\
             SELECT string_agg(CASE WHEN bf_contains(bf, v) THEN '1' ELSE '0' END, '' ORDER BY o) FROM f, p;\n\
             DROP TABLE p, f",
            p = ptype,
            f = file.display(),
            m = members,
            t = ftype
        ));
        let what = format!("{} filter, {} probes", ftype, ptype);
        let out = match out {
            Ok(o) => o,
            Err(e) => {
                let _ = server.psql("DROP TABLE IF EXISTS p, f");
                fails.check(false, || format!("{}: {}", what, e));
                continue;
            }
        };
        let mut lines = out.lines();
        let f = Filter::from_bytes(&hex_decode(lines.next().unwrap())).unwrap();
        let want = lines.next().unwrap();
        let got: String = vals.iter().map(|v| if v.with_key(&mut |k| f.contains(k).unwrap()) { '1' } else { '0' }).collect();
        fails.check(got == want, || format!("{}: {}", what, first_difference(want, &got, &vals)));
        fails.check(want.contains('1') && want.contains('0'), || format!("{}: a probe set that tests nothing: {}", what, want));
        eprintln!("ok: {}", what);
    }
}

/// Keys the server refuses with 42804 are refused here (KeyTypeMismatch),
/// and keys it accepts are accepted.
fn refusals(server: &Server, fails: &mut Failures) {
    let cases: Vec<(&str, &str, Val)> = vec![
        ("int8", "'\\x01'::bytea", Val::Bytes(vec![1])),
        ("int8", "'5'::text", Val::Text("5".into())),
        ("int8", "true", Val::Bool(true)),
        ("int8", "'2000-01-01'::date", Val::Date(0)),
        ("text", "5::int8", Val::Int(5)),
        ("text", "'\\x01'::bytea", Val::Bytes(vec![1])),
        ("uuid", "5::int8", Val::Int(5)),
        ("bytea", "5::int8", Val::Int(5)),
        ("numeric", "'2000-01-01'::date", Val::Date(0)),
        ("numeric", "1.5::float8", Val::Float(1.5)),
        ("float8", "'\\x01'::bytea", Val::Bytes(vec![1])),
        ("date", "5::int8", Val::Int(5)),
        ("date", "'2000-01-01 00:00+00'::timestamptz", Val::Tstz(0)),
        ("timestamptz", "'2000-01-01'::date", Val::Date(0)),
        ("timestamptz", "'2000-01-01'::timestamp", Val::Ts(0)),
        ("bool", "1::int8", Val::Int(1)),
        ("int4", "'x'::text", Val::Text("x".into())),
        ("int2", "'70000'::text", Val::Text("70000".into())),
        ("uuid", "'not a uuid'::text", Val::Text("not a uuid".into())),
    ];
    for (ftype, probe, val) in cases {
        let sql = format!(
            "\\set VERBOSITY sqlstate\nSELECT bf_contains(bf_create(100, key_type => '{}'), {})",
            ftype, probe
        );
        let server_says = match server.psql(&sql) {
            Ok(_) => "ok".to_string(),
            Err(e) => e.split_whitespace().find(|w| w.len() == 5 && w.chars().all(|c| c.is_ascii_alphanumeric() && !c.is_ascii_lowercase())).unwrap_or("?").to_string(),
        };
        let t = keys_oid(ftype);
        let f = BloomFilter::new(100, 0.01, 0).unwrap().with_key_type(t).unwrap();
        let client_says = match val.with_key(&mut |k| f.contains(k)) {
            Ok(_) => "ok",
            Err(Error::KeyTypeMismatch(_)) => "42804",
            Err(Error::InvalidKey(_)) => "22P02|22003",
            Err(_) => "other",
        };
        let agree = server_says == client_says || client_says.split('|').any(|c| c == server_says);
        fails.check(agree, || format!("{} filter probed with {}: server {} client {}", ftype, probe, server_says, client_says));
    }
    eprintln!("ok: refusals");
}

fn keys_oid(t: &str) -> u32 {
    match t {
        "int8" => keys::INT8,
        "int4" => keys::INT4,
        "int2" => keys::INT2,
        "text" => keys::TEXT,
        "uuid" => keys::UUID,
        "bytea" => keys::BYTEA,
        "numeric" => keys::NUMERIC,
        "float8" => keys::FLOAT8,
        "date" => keys::DATE,
        "timestamptz" => keys::TIMESTAMPTZ,
        "bool" => keys::BOOL,
        _ => panic!("{}", t),
    }
}

/// Bad bytes: mutations of valid values of every kind are refused by the
/// client exactly when the server's input refuses them, with the same detail.
fn validation(server: &Server, fails: &mut Failures) {
    server.query(
        "CREATE FUNCTION try_in(b bytea, cuckoo bool) RETURNS text LANGUAGE plpgsql AS $$\n\
         DECLARE d text;\n\
         BEGIN\n\
           IF cuckoo THEN PERFORM b::cuckoofilter; ELSE PERFORM b::bloomfilter; END IF;\n\
           RETURN 'ok';\n\
         EXCEPTION WHEN others THEN\n\
           GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;\n\
           RETURN SQLSTATE || ' ' || coalesce(d, '');\n\
         END $$",
    );
    let mut bases: Vec<(String, Vec<u8>)> = Vec::new();
    let mut plain = BloomFilter::new(300, 0.05, 9).unwrap();
    let mut counting = BloomFilter::new_counting(300, 0.05, 9).unwrap();
    let mut scalable = BloomFilter::new_scalable(20, 0.05, 9, 2).unwrap();
    let mut list = BloomFilter::new_hash_list(0.01, 0, 2).unwrap();
    let mut cuckoo = CuckooFilter::new(40, 0.05, 0).unwrap();
    let mut rows = BloomFilter::new(100, 0.05, 0).unwrap();
    for i in 0..100i64 {
        plain.add(i).unwrap();
        counting.add(i % 30).unwrap();
        scalable.add(i).unwrap();
        list.add(i % 7).unwrap();
        cuckoo.add(i).unwrap();
        rows.add(Key::Row(&[Key::Int(i), Key::Text("r")])).unwrap();
    }
    bases.push(("plain".into(), plain.to_bytes()));
    bases.push(("counting".into(), counting.to_bytes()));
    bases.push(("scalable".into(), scalable.to_bytes()));
    bases.push(("hashes".into(), list.to_bytes()));
    bases.push(("cuckoo".into(), cuckoo.to_bytes()));
    bases.push(("rows".into(), rows.to_bytes()));
    let mut r = Rng(77);
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for (name, b) in &bases {
        cases.push((format!("{} as is", name), b.clone()));
        for i in 0..400 {
            let mut m = b.clone();
            let what = match i % 8 {
                0..=3 => {
                    // a header byte (or a sub-filter header's) set to a value near the edge
                    let at = r.below(b.len().min(if name == "scalable" { 400 } else { 72 }) as u64) as usize;
                    let v = [0u8, 1, 2, 3, 4, 5, 7, 8, 0x40, 0x41, 0x80, 0xFF][r.below(12) as usize];
                    m[at] = v;
                    format!("byte {} = {}", at, v)
                }
                4 | 5 => {
                    let at = r.below(b.len() as u64) as usize;
                    let bit = r.below(8);
                    m[at] ^= 1 << bit;
                    format!("bit {} of byte {}", bit, at)
                }
                6 => {
                    let n = 1 + r.below(9) as usize;
                    m.truncate(b.len() - n.min(b.len()));
                    format!("{} bytes fewer", n)
                }
                _ => {
                    let n = 1 + r.below(9) as usize;
                    m.extend(std::iter::repeat(0).take(n));
                    format!("{} zero bytes more", n)
                }
            };
            cases.push((format!("{}: {}", name, what), m));
        }
    }
    let file = server.scratch("mutations");
    write_lines(&file, cases.iter().enumerate().map(|(i, (name, b))| {
        format!("{}\t\\\\x{}\t{}", i, hex_encode(b), if name.starts_with("cuckoo") { "t" } else { "f" })
    }));
    let out = server.query(&format!(
        "CREATE TEMP TABLE m (o int, b bytea, cuckoo bool); \\copy m FROM '{}'\n\
         SELECT try_in(b, cuckoo) FROM m ORDER BY o",
        file.display()
    ));
    let results: Vec<&str> = out.lines().collect();
    assert_eq!(results.len(), cases.len());
    // the client knows 1.5's layouts 5 (guava) and 6 (redisbloom): against a
    // server without one, a value claiming it is refused by both, with
    // another detail (the layout there, the hash id here)
    let has_guava = server.psql("SELECT bf_create(10, layout => 'guava', key_type => 'bigint')").is_ok();
    let has_redis = server.psql("SELECT bf_create(10, layout => 'redisbloom')").is_ok();
    let mut refused = 0;
    for ((name, b), server_says) in cases.iter().zip(results) {
        let client = if name.starts_with("cuckoo") {
            CuckooFilter::from_bytes(b).map(|_| ())
        } else {
            BloomFilter::from_bytes(b).map(|_| ())
        };
        match (client, server_says) {
            (Ok(()), "ok") => {}
            (Err(Error::InvalidValue(m)), s) if s.starts_with("22P03 ") => {
                refused += 1;
                let detail = &s[6..];
                let layout5 = !name.starts_with("cuckoo")
                    && b.len() > 5
                    && ((!has_guava && b[5] == 5) || (!has_redis && b[5] == 6));
                fails.check(m.ends_with(detail) || layout5, || format!("{}: server says \"{}\", client \"{}\"", name, detail, m));
            }
            (c, s) => fails.check(false, || format!("{}: server {}, client {:?}", name, s, c)),
        }
    }
    let _ = std::fs::remove_file(&file);
    eprintln!("ok: {} mutated values, {} refused", cases.len(), refused);
}

/// bf_shard and bf_shard_capacity.
fn shards(server: &Server, fails: &mut Failures) {
    let out = server.query(
        "SELECT string_agg(bf_shard(g::int8, 7)::text || ',' || bf_shard(g::int4 * 1000003, 65536)::text || ',' \
         || bf_shard('s' || g, 13)::text || ',' || bf_shard(g * 0.5, 100)::text || ',' \
         || bf_shard(('2000-01-01'::date + g), 3)::text, ' ' ORDER BY g) FROM generate_series(-2000, 2000) g",
    );
    let got: Vec<String> = (-2000i64..=2000)
        .map(|g| {
            let half_text = format!("{}", g as f64 * 0.5);
            let half = pgbloomfilter::shard(Key::Numeric(&half_text), 100).unwrap();
            format!(
                "{},{},{},{},{}",
                pgbloomfilter::shard(g, 7).unwrap(),
                pgbloomfilter::shard(g * 1000003, 65536).unwrap(),
                pgbloomfilter::shard(format!("s{}", g).as_str(), 13).unwrap(),
                half,
                pgbloomfilter::shard(Key::Date(g as i32), 3).unwrap()
            )
        })
        .collect();
    let want: Vec<&str> = out.split(' ').collect();
    let bad = want.iter().zip(&got).position(|(a, b)| a != b);
    fails.check(bad.is_none(), || {
        let i = bad.unwrap();
        format!("bf_shard at {}: server {} client {}", i as i64 - 2000, want[i], got[i])
    });
    let out = server.query(
        "SELECT string_agg(bf_shard_capacity(c, n)::text, ' ' ORDER BY c, n) FROM unnest('{1,10,1000,123456,100000000,9223372036854775807}'::int8[]) c, unnest('{1,2,7,64,65536}'::int[]) n",
    );
    let mut got = Vec::new();
    for c in [1u64, 10, 1000, 123456, 100000000, 9223372036854775807] {
        for n in [1u32, 2, 7, 64, 65536] {
            got.push(pgbloomfilter::shard_capacity(c, n).unwrap().to_string());
        }
    }
    fails.check(out == got.join(" "), || format!("bf_shard_capacity: server {} client {}", out, got.join(" ")));
    eprintln!("ok: shards");
}

/// bf_create and cf_create over a grid: the empty values' bytes equal.
fn sizing(server: &Server, fails: &mut Failures) {
    let caps = [1u64, 2, 7, 100, 1000, 4321, 65536, 1_000_000, 10_000_000];
    let rates = [0.5, 0.2, 0.1, 0.05, 0.01, 0.003, 0.001, 1e-4, 1e-6, 1e-8];
    let out = server.query(&format!(
        "SELECT string_agg(bf_nbits(bf_create(c, p))::text || '/' || bf_nhashes(bf_create(c, p))::text || '/' \
         || ((cf_info(cf_create(c, p)))->>'buckets') || '/' || ((cf_info(cf_create(c, p)))->>'fingerprint_bits') \
         || '/' || ((cf_info(cf_create(c, p)))->>'bucket_size'), ' ' ORDER BY c, p) \
         FROM unnest('{{{}}}'::int8[]) c, unnest('{{{}}}'::float8[]) p",
        caps.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","),
        rates.iter().map(|p| format!("{:?}", p)).collect::<Vec<_>>().join(",")
    ));
    let mut sorted_rates = rates.to_vec();
    sorted_rates.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mut got = Vec::new();
    for c in caps {
        for p in &sorted_rates {
            let b = BloomFilter::new(c, *p, 0).unwrap();
            let cf = CuckooFilter::new(c, *p, 0).unwrap();
            let buckets = pgbloomfilter::cuckoo_size(c, *p).unwrap().2;
            got.push(format!("{}/{}/{}/{}/{}", b.nbits(), b.nhashes(), buckets, cf.fingerprint_bits(), cf.bucket_size()));
        }
    }
    let want: Vec<&str> = out.split(' ').collect();
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        fails.check(w == g, || format!("sizing of ({}, {}): server {} client {}", caps[i / rates.len()], sorted_rates[i % rates.len()], w, g));
    }
    // and the bytes of a few whole empty values
    for (c, p) in [(1000u64, 0.01), (123_457, 0.001), (5, 0.3)] {
        let out = server.query(&format!("SELECT encode(bf_create({c}, {p}, 4242)::bytea, 'hex'), encode(cf_create({c}, {p}, 4242)::bytea, 'hex')", c = c, p = p));
        let mut parts = out.split('|');
        fails.check(hex_decode(parts.next().unwrap()) == BloomFilter::new(c, p, 4242).unwrap().to_bytes(), || format!("bf_create({}, {}) bytes", c, p));
        fails.check(hex_decode(parts.next().unwrap()) == CuckooFilter::new(c, p, 4242).unwrap().to_bytes(), || format!("cf_create({}, {}) bytes", c, p));
    }
    eprintln!("ok: sizing");
}

/// Layout 4, an unsized bf_agg's partial state: read, answered (contains,
/// count) as the server answers, its bytes those of the local list; the
/// final function's filter equals finish().
fn hash_list_state(server: &Server, fails: &mut Failures) {
    server.query("CREATE AGGREGATE bf_agg_partial(bigint) (SFUNC = bloomfilter_agg_trans, STYPE = bloomfilter)");
    let out = server.query(
        "WITH s AS (SELECT bf_agg_partial(i % 700 ORDER BY i) AS s FROM generate_series(1, 900) i) \
         SELECT encode(s::bytea, 'hex'), \
         (SELECT string_agg(CASE WHEN bf_contains(s, g::int8) THEN '1' ELSE '0' END, '' ORDER BY g) FROM generate_series(-500, 1500) g), \
         (SELECT string_agg(bf_count(s, g::int8)::text, ',' ORDER BY g) FROM generate_series(-500, 1500) g), \
         encode(bf_add(s, 5000::int8)::bytea, 'hex'), encode(bloomfilter_agg_final(s)::bytea, 'hex') FROM s",
    );
    let p: Vec<&str> = out.split('|').collect();
    let f = BloomFilter::from_bytes(&hex_decode(p[0])).unwrap();
    fails.check(f.layout() == pgbloomfilter::LAYOUT_HASHES, || "the partial state is no list of hashes".into());
    let answers: String = (-500i64..=1500).map(|g| if f.contains(g).unwrap() { '1' } else { '0' }).collect();
    let counts: Vec<String> = (-500i64..=1500).map(|g| f.count(g).unwrap().to_string()).collect();
    fails.check(answers == p[1], || "contains on a list of hashes".into());
    fails.check(counts.join(",") == p[2], || "count on a list of hashes".into());
    let mut local = BloomFilter::new_hash_list(0.01, 0, 2).unwrap();
    for i in 1..=900i64 {
        local.add(i % 700).unwrap();
    }
    fails.check(local.to_bytes() == hex_decode(p[0]), || "the local list's bytes".into());
    let mut added = f.clone();
    added.add(5000i64).unwrap();
    fails.check(added.to_bytes() == hex_decode(p[3]), || "bf_add to a list".into());
    fails.check(f.finish().unwrap().to_bytes() == hex_decode(p[4]), || "the final function".into());
    eprintln!("ok: list of hashes");
}

/// Counting removes and cuckoo deletes and add-if-absent, as the server's.
fn removals(server: &Server, fails: &mut Failures) {
    let out = server.query(
        "WITH c AS (SELECT bf_agg(g % 500, bf_create(1000, 0.01, counting => true) ORDER BY g) AS c, \
                           cf_agg(g % 500, 600, 0.01 ORDER BY g) AS k FROM generate_series(1, 2000) g), \
         r AS (SELECT bf_remove_all(c, ARRAY(SELECT generate_series(0, 300, 3))) AS c, \
                      cf_remove_all(cf_add_nx(cf_add_nx(k, 7), 100000), ARRAY(SELECT generate_series(0, 300, 3))) AS k FROM c) \
         SELECT encode(c.c::bytea, 'hex'), encode(c.k::bytea, 'hex'), encode(r.c::bytea, 'hex'), encode(r.k::bytea, 'hex') FROM c, r",
    );
    let p: Vec<&str> = out.split('|').collect();
    let mut c = BloomFilter::from_bytes(&hex_decode(p[0])).unwrap();
    let mut k = CuckooFilter::from_bytes(&hex_decode(p[1])).unwrap();
    k.add_if_absent(7).unwrap();
    k.add_if_absent(100000).unwrap();
    for g in (0..=300).step_by(3) {
        c.remove(g).unwrap();
        k.remove(g).unwrap();
    }
    fails.check(c.to_bytes() == hex_decode(p[2]), || "bf_remove_all on a counting filter".into());
    fails.check(k.to_bytes() == hex_decode(p[3]), || "cf_add_nx and cf_remove_all".into());
    eprintln!("ok: removals");
}

#[test]
fn against_the_server() {
    let server = Server::start();
    let mut fails = Failures(Vec::new());
    sizing(&server, &mut fails);
    hash_list_state(&server, &mut fails);
    removals(&server, &mut fails);
    shards(&server, &mut fails);
    refusals(&server, &mut fails);
    typed_probes(&server, &mut fails);
    validation(&server, &mut fails);
    members_and_answers(&server, &mut fails);
    drop(server);
    assert!(fails.0.is_empty(), "{} failures:\n{}", fails.0.len(), fails.0.join("\n"));
}

//! Filters made in databases of four encodings (UTF8, LATIN1, SQL_ASCII,
//! EUC_JP) from generated ASCII and non-ASCII text keys. Hash id 5 (what
//! 1.5 makes: text as UTF-8) answers as the server everywhere, from raw
//! bytes and with no encoding given; local builds have its bytes. Hash id
//! 2 (what 1.4 made: text in the database's encoding) answers as the
//! server in UTF8 and SQL_ASCII databases; elsewhere this client, which has
//! no other encoding's tables, answers ASCII keys as the server and refuses
//! other text (Error::InvalidKey), never a wrong answer. This server makes
//! no id-2 value: the test makes what 1.4 stored, the same filter over
//! `convert_to(key, <database encoding>)` as bytea (the bytes 1.4 hashed for
//! the text) with the hash id set back to 2 and the key type to text's.

mod common;

use common::{hex_decode, Rng, Server};
use pgbloomfilter::{BloomFilter, CuckooFilter, Error, Filter};

fn pool(enc: &str) -> Vec<char> {
    let ranges: &[(u32, u32)] = match enc {
        "LATIN1" => &[(0xA0, 0x100)],
        // hiragana, katakana and kanji of JIS X 0208 level 1 (U+4E9C..)
        "EUC_JP" => &[(0x3041, 0x3094), (0x30A1, 0x30F7), (0x4E9C, 0x4E9D), (0x5516, 0x5517), (0x4E00, 0x4E01)],
        _ => &[(0xA0, 0x250), (0x391, 0x3CA), (0x410, 0x450), (0x4E00, 0x4F00), (0x1F600, 0x1F640)],
    };
    ranges.iter().flat_map(|&(a, b)| (a..b).filter_map(char::from_u32)).collect()
}

fn keys(enc: &str, n: usize) -> Vec<String> {
    let mut r = Rng(0x5eed ^ enc.len() as u64 ^ ((enc.as_bytes()[0] as u64) << 8));
    let pool = pool(enc);
    let ascii: Vec<char> = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_@.".chars().collect();
    let mut out: Vec<String> = Vec::new();
    while out.len() < n {
        let len = 1 + r.below(10);
        let share = r.below(4);
        let s: String = (0..len)
            .map(|_| if r.below(3) < share { pool[r.below(pool.len() as u64) as usize] } else { ascii[r.below(ascii.len() as u64) as usize] })
            .collect();
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

fn lit(keys: &[String]) -> String {
    let quoted: Vec<String> = keys.iter().map(|k| format!("'{}'", k.replace('\'', "''"))).collect();
    format!("ARRAY[{}]::text[]", quoted.join(","))
}

fn legacy(raw: &[u8], text_typed: &[u8]) -> Vec<u8> {
    let mut b = raw.to_vec();
    if &b[..4] == b"CKOF" {
        b[5] = 2;
        b[40..44].copy_from_slice(&text_typed[40..44]);
    } else {
        b[6] = 2;
        b[12..16].copy_from_slice(&text_typed[12..16]);
    }
    b
}

#[test]
fn encodings() {
    let server = Server::start();
    for enc in ["UTF8", "LATIN1", "SQL_ASCII", "EUC_JP"] {
        let dsn = server.encoding_db(enc);
        let all = keys(enc, 800);
        let (members, _) = all.split_at(400);
        let m = lit(members);
        for (kind, build, check) in [
            ("plain", "bf_add_all(bf_create(1000, 0.01), {K})", "bf_contains"),
            ("cuckoo", "cf_add_all(cf_create(1000, 0.01), {K})", "cf_contains"),
        ] {
            let typ = if kind == "cuckoo" { "cuckoofilter" } else { "bloomfilter" };
            let fresh = hex_decode(&server.query_in(&dsn, &format!("SELECT encode(({})::bytea, 'hex')", build.replace("{K}", &m))));
            let conv = format!("(SELECT array_agg(convert_to(k, '{}') ORDER BY o) FROM unnest({}) WITH ORDINALITY u(k, o))", enc, m);
            let made = hex_decode(&server.query_in(&dsn, &format!("SELECT encode(({})::bytea, 'hex')", build.replace("{K}", &conv))));
            let old = legacy(&made, &fresh);
            for (raw, id) in [(&fresh, 5u8), (&old, 2u8)] {
                let want: Vec<bool> = server
                    .query_in(
                        &dsn,
                        &format!(
                            "SELECT string_agg({}(decode('{}', 'hex')::{}, p)::text, ',' ORDER BY o) FROM unnest({}) WITH ORDINALITY u(p, o)",
                            check,
                            common::hex_encode(raw),
                            typ,
                            lit(&all)
                        ),
                    )
                    .split(',')
                    .map(|s| s == "true")
                    .collect();
                assert!(want[..400].iter().all(|&w| w), "{} {} id {}: a member absent on the server", enc, kind, id);
                let in_enc = Filter::from_bytes_in(raw, enc).unwrap();
                let plain = Filter::from_bytes(raw).unwrap();
                let utf8_like = enc == "UTF8" || enc == "SQL_ASCII";
                for (i, k) in all.iter().enumerate() {
                    let got = in_enc.contains(k.as_str());
                    if id == 5 || utf8_like || k.is_ascii() {
                        assert_eq!(got.unwrap(), want[i], "{} {} id {}: {:?}", enc, kind, id, k);
                    } else {
                        assert!(matches!(got, Err(Error::InvalidKey(_))), "{} {} id {}: {:?} not refused", enc, kind, id, k);
                    }
                    if id == 5 || utf8_like {
                        assert_eq!(plain.contains(k.as_str()).unwrap(), want[i]);
                    }
                }
            }
            // local builds have the server's bytes (hash id 5)
            let local = if kind == "cuckoo" {
                let mut f = CuckooFilter::new(1000, 0.01, 0).unwrap();
                for k in members {
                    f.add(k.as_str()).unwrap();
                }
                f.to_bytes()
            } else {
                let mut f = BloomFilter::new(1000, 0.01, 0).unwrap();
                for k in members {
                    f.add(k.as_str()).unwrap();
                }
                f.to_bytes()
            };
            assert_eq!(local, fresh, "{} {} local build", enc, kind);
        }
    }
}

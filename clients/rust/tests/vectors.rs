//! The server's key-type vectors (test/vectors/keys.json, written from the
//! key-type table src/core/keytypes.c by sql/key_types.sql): this client's
//! key types and row codes are the server's, and for each key type the
//! table says this client reads, a text key gives the server's canonical
//! bytes and hash under every hash id it takes; a text key of another key
//! type is refused. The file has one key type or one vector a line, every
//! field but "text" a number, a boolean, a list or a string without escapes,
//! so a line is read here without a JSON library.

use std::collections::{HashMap, HashSet};

use pgbloomfilter::{keys, murmur3_x64_128, Key};

fn lines() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../test/vectors/keys.json");
    std::fs::read_to_string(path).expect("test/vectors/keys.json").lines().map(String::from).collect()
}

/// The fields of one line before "text", the last: name -> value, quotes removed.
fn fields(line: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut rest = line;
    while let Some(start) = rest.find('"') {
        let after = &rest[start + 1..];
        let end = after.find('"').unwrap();
        let name = &after[..end];
        let value_at = &after[end + 1..];
        if !value_at.starts_with(": ") || name == "text" {
            break;
        }
        let value = &value_at[2..];
        let (v, len) = if let Some(s) = value.strip_prefix('"') {
            let e = s.find('"').unwrap();
            (&s[..e], e + 2)
        } else if value.starts_with('[') {
            let e = value.find(']').unwrap();
            (&value[..=e], e + 1)
        } else {
            let e = value.find(|c| c == ',' || c == '}' || c == ']').unwrap_or(value.len());
            (&value[..e], e)
        };
        out.insert(name.to_string(), v.to_string());
        rest = &value[len..];
    }
    out
}

fn ints(list: &str) -> Vec<u32> {
    list.trim_matches(|c| c == '[' || c == ']' || c == ',')
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2).map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap()).collect()
}

#[test]
fn key_types_and_row_codes_are_the_servers() {
    let lines = lines();
    let valid: HashSet<u32> = lines
        .iter()
        .find_map(|l| l.strip_prefix("\"valid\": "))
        .map(|l| ints(l).into_iter().collect())
        .unwrap();
    let codes = lines.iter().find_map(|l| l.strip_prefix("\"row_codes\": ")).map(ints).unwrap();
    assert!(!valid.is_empty());
    for oid in 1..10_000u32 {
        assert_eq!(keys::valid_key_type(oid), valid.contains(&oid), "key type {}", oid);
    }
    for (code, &oid) in codes.iter().enumerate().skip(1) {
        assert_eq!(keys::row_signature_columns(0x8000_0000 | code as u32), Some(vec![oid]), "code {}", code);
    }
    assert_eq!(keys::row_signature_columns(0x8000_0000 | codes.len() as u32), None);
}

#[test]
fn vectors_of_the_key_types_this_client_reads() {
    let mut read = HashSet::new();
    let (mut checked, mut refused) = (0, 0);
    for line in lines() {
        if line.starts_with("{\"oid\": ") {
            let kt = fields(&line);
            if kt["clients"].contains("\"rust\"") {
                read.insert(kt["oid"].parse::<u32>().unwrap());
            }
            continue;
        }
        if !line.starts_with("{\"key_type\": ") {
            continue;
        }
        let v = fields(&line);
        let hash_id: u8 = v["hash_id"].parse().unwrap();
        if hash_id != 1 && hash_id != 2 {
            continue;
        }
        let key_type: u32 = v["key_type"].parse().unwrap();
        let text = String::from_utf8(hex(&v["text_hex"])).unwrap();
        let got = keys::canonical_bytes(&Key::Text(&text), hash_id, key_type);
        if !read.contains(&key_type) {
            if hash_id == 2 {
                assert!(got.is_err(), "key type {}: {:?} read", key_type, text);
                refused += 1;
            }
            continue;
        }
        let bytes = match got {
            Ok(Some(b)) => b,
            // the table is about hash id 2; under hash id 1 a type may be refused
            Err(_) if hash_id == 1 => continue,
            other => panic!("key type {} hash id {}: {:?} gave {:?}", key_type, hash_id, text, other),
        };
        assert_eq!(bytes, hex(&v["bytes"]), "key type {} hash id {}: {:?}", key_type, hash_id, text);
        let (h1, h2) = murmur3_x64_128(&bytes, 0);
        assert_eq!((format!("{:016x}", h1), format!("{:016x}", h2)), (v["h1"].clone(), v["h2"].clone()));
        checked += 1;
    }
    assert!(!read.is_empty() && checked >= 2 * read.len() && refused > 0, "{} checked, {} refused", checked, refused);
}

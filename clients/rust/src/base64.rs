//! RFC 4648 base64, padded, no line breaks: the types' text form.

use crate::error::{Error, Result};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn encode(b: &[u8]) -> String {
    let mut out = String::with_capacity((b.len() + 2) / 3 * 4);
    for c in b.chunks(3) {
        let w = (c[0] as u32) << 16 | (*c.get(1).unwrap_or(&0) as u32) << 8 | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                out.push(ALPHABET[(w >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub fn decode(text: &str) -> Result<Vec<u8>> {
    let bad = || Error::InvalidValue("invalid filter text: not base64".into());
    let t = text.trim_end_matches(['\n', '\r']);
    let b = t.as_bytes();
    if b.len() % 4 != 0 {
        return Err(bad());
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    for (ci, c) in b.chunks(4).enumerate() {
        let last = ci == b.len() / 4 - 1;
        let mut w = 0u32;
        let mut pad = 0;
        for (i, &x) in c.iter().enumerate() {
            let v = match x {
                b'A'..=b'Z' => x - b'A',
                b'a'..=b'z' => x - b'a' + 26,
                b'0'..=b'9' => x - b'0' + 52,
                b'+' => 62,
                b'/' => 63,
                b'=' if last && i >= 2 => {
                    pad += 1;
                    0
                }
                _ => return Err(bad()),
            };
            if pad > 0 && x != b'=' {
                return Err(bad());
            }
            w = w << 6 | v as u32;
        }
        let bytes = [(w >> 16) as u8, (w >> 8) as u8, w as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Ok(out)
}

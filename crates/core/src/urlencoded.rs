//! `application/x-www-form-urlencoded`, the format of a URL's query string: what `query` reads and
//! writes. Ours rather than the `form_urlencoded` crate's because the widget downloads it: the
//! crate's iterator types and its 768-byte table of `%XX` spellings were about 0.8 KB of the
//! widget's gzipped wasm, for the two small loops below. `crates/core/tests/it/properties.rs` holds both to the
//! crate's output on arbitrary input.
//!
//! The rules are the URL Standard's (https://url.spec.whatwg.org/#application/x-www-form-urlencoded):
//! parsing splits on `&`, then at the first `=`, reads `+` as a space and `%` with two hex digits
//! as that byte (any other `%` as itself), and decodes the bytes as UTF-8, a bad sequence becoming
//! U+FFFD. Serializing keeps `A-Z a-z 0-9 * - . _`, writes a space as `+` and every other byte
//! of the UTF-8 as `%` and two upper-case hex digits.

/// The `(name, value)` pairs of `query` (no leading `?`), in order; empty pieces are skipped.
pub fn parse(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    query.split('&').filter(|piece| !piece.is_empty()).map(|piece| {
        let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
        (decode(name), decode(value))
    })
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let byte = match bytes[i] {
            b'+' => b' ',
            b'%' => match (bytes.get(i + 1).and_then(hex), bytes.get(i + 2).and_then(hex)) {
                (Some(high), Some(low)) => {
                    i += 2;
                    high << 4 | low
                }
                _ => b'%',
            },
            other => other,
        };
        out.push(byte);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn hex(digit: &u8) -> Option<u8> {
    (*digit as char).to_digit(16).map(|d| d as u8)
}

/// Appends `name=value` to `out`, encoded, after a `&` unless `out` is empty.
pub fn append_pair(out: &mut String, name: &str, value: &str) {
    if !out.is_empty() {
        out.push('&');
    }
    encode_into(out, name);
    out.push('=');
    encode_into(out, value);
}

fn encode_into(out: &mut String, text: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &byte in text.as_bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => out.push(byte as char),
            b' ' => out.push('+'),
            _ => {
                out.push('%');
                out.push(HEX[usize::from(byte >> 4)] as char);
                out.push(HEX[usize::from(byte & 15)] as char);
            }
        }
    }
}

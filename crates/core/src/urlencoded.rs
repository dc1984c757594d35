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
    utf8_lossy(&out)
}

/// `bytes` as UTF-8, each bad sequence U+FFFD, as `String::from_utf8_lossy` reads them: a bad
/// sequence is the longest start of a valid one (or one byte), so `E0 80` is two of them and
/// `F0 9F 98` one. By hand: `from_utf8_lossy` and the `from_utf8` before it were 1.8 KB of the
/// widget's wasm (twiggy), for this one call. The second byte's range is what keeps overlong
/// forms, surrogates and code points past U+10FFFF out (the Unicode Standard's table 3-7).
fn utf8_lossy(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let lead = bytes[i];
        i += 1;
        let (len, second) = match lead {
            0x00..=0x7F => {
                out.push(char::from(lead));
                continue;
            }
            0xC2..=0xDF => (2, 0x80..=0xBF),
            0xE0 => (3, 0xA0..=0xBF),
            0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80..=0xBF),
            0xED => (3, 0x80..=0x9F),
            0xF0 => (4, 0x90..=0xBF),
            0xF1..=0xF3 => (4, 0x80..=0xBF),
            0xF4 => (4, 0x80..=0x8F),
            _ => {
                out.push(char::REPLACEMENT_CHARACTER);
                continue;
            }
        };
        // The lead byte's own bits, then six from each continuation byte that fits.
        let mut code = u32::from(lead) & (0x7F >> len);
        let mut taken = 1;
        while taken < len {
            let range = if taken == 1 { second.clone() } else { 0x80..=0xBF };
            match bytes.get(i) {
                Some(&next) if range.contains(&next) => code = code << 6 | u32::from(next & 0x3F),
                _ => break,
            }
            i += 1;
            taken += 1;
        }
        out.push(if taken == len {
            char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
        } else {
            char::REPLACEMENT_CHARACTER
        });
    }
    out
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

#[cfg(test)]
mod tests {
    use super::utf8_lossy;

    /// Every sequence of one or two bytes, and every three- and four-byte one built from the
    /// bytes where UTF-8's rules change, reads as the standard library reads it.
    #[test]
    fn bad_utf8_becomes_what_from_utf8_lossy_makes_of_it() {
        let edges: Vec<u8> = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1]
            .into_iter()
            .chain([0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF])
            .collect();
        let mut inputs: Vec<Vec<u8>> = (0..=0xFFFFu32).map(|n| vec![(n >> 8) as u8, n as u8]).collect();
        inputs.extend((0..=0xFFu8).map(|b| vec![b]));
        for &a in &edges {
            for &b in &edges {
                for &c in &edges {
                    inputs.push(vec![a, b, c]);
                    for &d in &edges {
                        inputs.push(vec![a, b, c, d]);
                    }
                }
            }
        }
        inputs.push("a€😀\u{10FFFF}".as_bytes().to_vec());
        for bytes in inputs {
            assert_eq!(utf8_lossy(&bytes), String::from_utf8_lossy(&bytes), "{bytes:02X?}");
        }
    }
}

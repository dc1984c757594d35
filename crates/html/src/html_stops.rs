//! Where HTML escaping may have work to do in a text, found eight bytes at a time: the converter
//! module escapes megabytes of code lines and reasons, nearly all of it plain ASCII, and a table
//! look-up per byte was a large part of its view. Only in the builds with the migrator's views:
//! the widget escapes a few snippets, and its bytes count.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `word` that may stop HTML escaping: `&`, `<`, `>`, `"`, `'`, or
/// any byte of a character outside ASCII (its high bit set; the bidirectional controls are among
/// those, and `next_html_stop` decides). Bytes above a marked byte may be marked too (a borrow), never
/// one below it, so the lowest mark is always a true one.
fn marks(word: u64) -> u64 {
    // The high bit of each byte that is zero (and perhaps of bytes above one that is).
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    // Setting bit 0 makes `&` (0x26) and `'` (0x27) one value; setting bit 1, `<` (0x3c) and
    // `>` (0x3e): three comparisons find all five.
    zero(word ^ (ONES * u64::from(b'"')))
        | zero((word | ONES) ^ (ONES * u64::from(b'\'')))
        | zero((word | (ONES * 0x02)) ^ (ONES * u64::from(b'>')))
        | word & HIGHS
}

/// The first index from `from` on whose byte `push_escaped_html` stops (`HTML_STOPS`): one of
/// the five characters it escapes, or the lead byte of a bidirectional control (D8 or E2). None
/// when there is none in the rest of `bytes`.
pub(crate) fn next_html_stop(bytes: &[u8], from: usize) -> Option<usize> {
    let mut from = from;
    loop {
        let at = next_mark(bytes, from)?;
        // Any other byte of a character outside ASCII (`→`, `é`) is no stop.
        if matches!(bytes[at], 0..0x80 | 0xd8 | 0xe2) {
            return Some(at);
        }
        from = at + 1;
    }
}

/// The first index from `from` on whose byte `marks` marks; the last few bytes are padded with
/// spaces (nothing to escape) to a word.
fn next_mark(bytes: &[u8], from: usize) -> Option<usize> {
    let word = |chunk: &[u8]| u64::from_le_bytes(chunk.try_into().unwrap_or_default());
    let first = |found: u64| found.trailing_zeros() as usize / 8;
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        match marks(word(chunk)) {
            0 => i += 8,
            found => return Some(i + first(found)),
        }
    }
    let rest = bytes.get(i..)?;
    let mut padded = [b' '; 8];
    padded[..rest.len()].copy_from_slice(rest);
    Some(marks(word(&padded))).filter(|&found| found != 0).map(|found| i + first(found))
}

#[cfg(test)]
mod tests {
    use super::next_html_stop;
    use crate::highlight::HTML_STOPS;

    /// The first stop is the first byte `HTML_STOPS` holds, wherever it falls in a word or the
    /// padded tail, whatever bytes are beside it; none in text without one.
    #[test]
    fn finds_the_first_byte_html_escaping_stops_at() {
        let expected = |bytes: &[u8], from: usize| {
            bytes[from..].iter().position(|&b| HTML_STOPS[usize::from(b)]).map(|n| from + n)
        };
        let plain: Vec<u8> = (0u8..=255).filter(|&b| !HTML_STOPS[usize::from(b)]).collect();
        assert_eq!(next_html_stop(&plain, 0), None);
        for b in 0u8..=255 {
            for len in 1..20 {
                for at in 0..len {
                    let mut text = vec![b'a'; len];
                    text[at] = b;
                    // A byte just below it before it and after it, so that a borrow has a chance
                    // to mark a byte that is no stop.
                    if at > 0 {
                        text[at - 1] = b.wrapping_sub(1);
                    }
                    if at + 1 < len {
                        text[at + 1] = b.wrapping_sub(1);
                    }
                    for from in 0..=at {
                        assert_eq!(next_html_stop(&text, from), expected(&text, from), "{text:?} from {from}");
                    }
                }
            }
        }
    }
}

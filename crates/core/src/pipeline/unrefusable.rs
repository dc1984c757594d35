//! Whether a text's own bytes prove that reading it meets none of the refusals the input door
//! can only find by reading (`input::accept`): the budget of values and characters, the bound on
//! a document's reads, the number of documents, an input of empty documents alone. Then its
//! documents can be handed on as they are read, with no first read to find a refusal before the
//! first of them (issue 36: that read is the parser's, as dear as the read itself).
//!
//! The proof counts indicators rather than parsing. A value other than a document's root is
//! introduced by an indicator of its own: a block entry's `-`, a mapping value's `:` (or, with no
//! `:`, its explicit key's `?`), a flow entry's `[`, `{` or `,`; a key is introduced by the `:`
//! after it, the `?` before it, or a flow entry's indicator. So a document reads as at most one
//! value more than the indicators in its text, and as at most twice as many keys and values as
//! that. It holds only where each read is of the text once and no longer than it is written: no
//! alias (`*`), tag (`!`) or escape (`\`), and where the documents are the parts between the
//! lines that start with `---` or `...`: no line break but `\n` (libyaml also breaks lines at
//! `\r`, U+2028 and U+2029) and no byte order mark.

use super::input::{MAX_DOCUMENTS, READS_PER_NODE};

/// Whether reading `text`, whose documents' texts count `nodes` nodes each (`written::scan`, a
/// lower bound, per document the parser yields), within `values` values and its size in
/// characters, is sure to meet no refusal.
pub(super) fn unrefusable(text: &str, nodes: &[usize], values: usize) -> bool {
    let unproven = |b: &u8| matches!(b, b'*' | b'!' | b'\\' | b'\r') || *b == 0xe2 || *b == 0xef;
    // U+2028, U+2029 and U+FEFF start with E2 or EF, as some other characters do: those are
    // left to the reader too.
    if text.as_bytes().iter().any(unproven) {
        return false;
    }
    // The parts between document markers: each document the parser yields lies in one, and one
    // of nothing but blank lines and comments is empty (not counted) or none.
    let (mut parts, mut written_parts, mut indicators, mut most_in_a_part) = (1usize, 0usize, 0usize, 0usize);
    let (mut in_part, mut written) = (0usize, false);
    for line in text.split('\n') {
        let marker = |m: &str| line.starts_with(m) && (line.len() == 3 || line[3..].starts_with([' ', '\t']));
        let content = if marker("---") || marker("...") {
            parts += 1;
            written_parts += usize::from(written);
            (in_part, written) = (0, false);
            &line[3..]
        } else {
            line
        };
        let count = content.bytes().filter(|b| matches!(b, b'-' | b':' | b'?' | b',' | b'[' | b'{')).count();
        in_part += count;
        indicators += count;
        most_in_a_part = most_in_a_part.max(in_part);
        written |= !matches!(content.trim_start_matches([' ', '\t']).bytes().next(), None | Some(b'#'));
    }
    written_parts += usize::from(written);
    // Each document: its root, and a value per indicator at most; keys and values, twice that.
    let most_reads = 2 * (most_in_a_part + 1);
    let fewest_nodes = nodes.iter().copied().min().unwrap_or(0);
    written_parts <= MAX_DOCUMENTS
        && parts.saturating_add(indicators) <= values
        && most_reads <= fewest_nodes.saturating_mul(READS_PER_NODE)
        // A document the scan counts a node in beyond its root is no empty one: not all are.
        && nodes.iter().any(|&n| n >= 2)
}

//! How many values each document of a YAML stream is written with, counted from its text before
//! the parser reads it (`input::documents`). yaml_serde keeps every event of a document (about
//! 130 bytes each, a number or a key included) until the document is read, so the budget, which
//! counts values as they are read, comes too late for a document written densely: 4 MiB of
//! `[1,1,…]` took 303 MiB before being refused.
//!
//! The count is a lower bound of what the budget counts for the same document: it counts only
//! the entries it is sure of (a block entry `- `, a block value `: `, a flow collection, the entry
//! after a flow comma), and skips what it cannot read without parsing (block scalars' bodies,
//! the continuation lines of a plain scalar, quoted text, comments). So a document it finds over
//! the budget is one the budget refuses too, with the same message, and nothing the budget
//! accepts is refused here.

/// The first document written with more than `budget` values: its index among the documents
/// the parser yields, and 1 when the reader skips a leading empty document (as
/// `input::documents` counts them). `starts` are the documents' first lines (`start_lines`).
pub(super) fn first_over(text: &str, starts: &[usize], budget: usize) -> Option<(usize, usize)> {
    let mut segments: Vec<Segment> = Vec::with_capacity(starts.len());
    let mut scan = Scan::default();
    for line in text.lines() {
        let marker = |m: &str| line.starts_with(m) && (line.len() == 3 || line[3..].starts_with([' ', '\t']));
        if marker("---") {
            // The separators `input::start_lines` counts; what follows the marker is the new
            // document's first line.
            segments.push(scan.finish());
            scan = Scan::default();
            scan.line(&line[3..]);
        } else if marker("...") {
            // A document's end: what follows (before the next `---`) is counted afresh.
            let most = scan.values.max(scan.most);
            scan = Scan { most, has_content: scan.has_content, ..Scan::default() };
        } else {
            scan.line(line);
        }
        if scan.values.max(scan.most) > budget {
            break;
        }
    }
    segments.push(scan.finish());
    // The parser yields no document for what precedes the first `---` when that is empty.
    let first_yields = segments[0].has_content;
    let over = segments.iter().position(|s| s.most > budget)?;
    let index = if first_yields { over } else { over.saturating_sub(1) };
    let leading_empty = {
        let first = if first_yields { 0 } else { 1 };
        index > 0 && text.trim_start().starts_with("---") && segments.get(first).is_some_and(|s| !s.has_content)
    };
    Some((index, usize::from(leading_empty)))
}

/// One document's count, when its scan is finished.
struct Segment {
    /// The most values counted between two document ends.
    most: usize,
    /// Whether it holds anything but blank lines, comments and directives.
    has_content: bool,
}

/// The state of the scan of one document, line by line.
#[derive(Default)]
struct Scan {
    values: usize,
    most: usize,
    has_content: bool,
    /// Open flow collections (`[`, `{`).
    flow: usize,
    /// Inside a quoted scalar, which may span lines: its quote.
    quote: Option<u8>,
    /// Inside a block scalar's body: the indentation of the line that opened it (its body is
    /// every following line indented further, or blank).
    block_scalar: Option<usize>,
    /// After a line that ended inside a plain scalar: that line's indentation (a following line
    /// indented further may continue the scalar).
    plain: Option<usize>,
    /// The node that starts next is already counted (after `- `, `: ` or a flow comma).
    counted: bool,
}

impl Scan {
    fn finish(self) -> Segment {
        Segment { most: self.values.max(self.most), has_content: self.has_content }
    }

    fn line(&mut self, line: &str) {
        let bytes = line.as_bytes();
        let indent = bytes.iter().take_while(|&&b| b == b' ').count();
        let blank = bytes[indent..].iter().all(|&b| b == b' ' || b == b'\t');
        if let Some(opened) = self.block_scalar {
            if blank || indent > opened {
                return;
            }
            self.block_scalar = None;
        }
        if let Some(started) = self.plain {
            if self.quote.is_none() && self.flow == 0 && (blank || indent > started) {
                return;
            }
            self.plain = None;
        }
        let rest = &bytes[indent..];
        if self.quote.is_none() && self.flow == 0 && matches!(rest.first(), Some(b'#' | b'%') | None) {
            return;
        }
        if !blank {
            self.has_content = true;
        }
        self.scan(bytes, indent);
    }

    /// Counts the entries of one line, from its first character after the indentation.
    fn scan(&mut self, bytes: &[u8], indent: usize) {
        let ends_token = |at: usize| matches!(bytes.get(at), None | Some(b' ' | b'\t'));
        // At the start of a node: a quote opens a quoted scalar, `[` a flow collection.
        let mut token_start = true;
        let mut after_space = true;
        // The last thing on the line was a plain scalar's text.
        let mut in_plain = false;
        let mut at = indent;
        while at < bytes.len() {
            let c = bytes[at];
            at += 1;
            if let Some(q) = self.quote {
                match c {
                    b'\\' if q == b'"' => at += 1,
                    b'\'' if q == b'\'' && bytes.get(at) == Some(&b'\'') => at += 1,
                    _ if c == q => {
                        self.quote = None;
                        token_start = false;
                    }
                    _ => {}
                }
                continue;
            }
            let space = matches!(c, b' ' | b'\t');
            match c {
                _ if space => {}
                b'#' if after_space => break,
                b'"' | b'\'' if token_start => {
                    self.quote = Some(c);
                    self.counted = false;
                    in_plain = false;
                }
                b'[' | b'{' if token_start || self.flow > 0 => {
                    if !self.counted {
                        self.values += 1;
                    }
                    self.flow += 1;
                    self.counted = false;
                    token_start = true;
                    in_plain = false;
                }
                b']' | b'}' if self.flow > 0 => {
                    self.flow -= 1;
                    self.counted = false;
                    token_start = false;
                    in_plain = false;
                }
                b',' if self.flow > 0 => {
                    self.values += 1;
                    self.counted = true;
                    token_start = true;
                    in_plain = false;
                }
                b'-' if token_start && self.flow == 0 && ends_token(at) => {
                    self.values += 1;
                    self.counted = true;
                    in_plain = false;
                }
                b'?' if token_start && ends_token(at) => in_plain = false,
                b':' if ends_token(at) || self.flow > 0 && matches!(bytes.get(at), Some(b',' | b']' | b'}')) => {
                    // A block mapping's value is counted; a flow mapping's entries are, by commas.
                    if self.flow == 0 {
                        self.values += 1;
                        self.counted = true;
                    } else {
                        self.counted = false;
                    }
                    token_start = true;
                    in_plain = false;
                }
                b'|' | b'>' if token_start && self.flow == 0 => {
                    self.block_scalar = Some(indent);
                    return;
                }
                // An anchor or a tag precedes the node it names: the node is still to come.
                b'&' | b'!' if token_start => {
                    while at < bytes.len() && !matches!(bytes[at], b' ' | b'\t') {
                        at += 1;
                    }
                }
                _ => {
                    token_start = false;
                    self.counted = false;
                    in_plain = true;
                }
            }
            after_space = space;
        }
        if in_plain && self.flow == 0 && self.quote.is_none() {
            self.plain = Some(indent);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::input::{start_lines, values_read};

    /// The lower bound of a one-document text.
    fn count(text: &str) -> usize {
        let mut scan = Scan::default();
        text.lines().for_each(|l| scan.line(l));
        scan.finish().most
    }

    #[test]
    fn counts_no_more_than_the_reader_reads() {
        let texts = [
            "x: [1,1,1]\n",
            "x: []\n",
            "a: 1\nb:\n  - c\n  - d: 2\n",
            "k: |\n  - a\n  b: c\nj: >-\n  [1,2]\n",
            "k: a plain\n  - continued, b c\nj: 1\n",
            "k: \"multi\n  - line, [x]\"\n",
            "k: 'it''s: - [a, b]'\n",
            "k: {a: [1, 2], b: c}  # [1,2,3]\n",
            "- &a [1, 2]\n- *a\n- !!str x\n",
            "- - - x\n  - y\n",
            "url: http://x:80/a#b\nlist: [a, b, ]\n",
            "? k\n: v\n",
        ];
        for text in texts {
            let read = values_read(text).unwrap_or_else(|| panic!("{text:?} reads"));
            assert!(count(text) <= read, "{text:?}: counted {} of {read}", count(text));
        }
        // Where nothing hides entries, it counts all but a flow collection's first one.
        assert_eq!(count("x: [1,1,1]\n"), 3);
        assert_eq!(count("a: 1\nb:\n  - c\n  - d: 2\n"), values_read("a: 1\nb:\n  - c\n  - d: 2\n").unwrap() - 1);
        assert_eq!(count("k: |\n  - a\n  b: c\nj: >-\n  [1,2]\n"), 2);
        assert_eq!(count("k: a plain\n  - continued, b c\nj: 1\n"), 2);
    }

    /// Documents put together from pieces that hide or look like entries (quotes holding commas
    /// and brackets, block scalars' bodies, plain scalars over several lines, comments, anchors
    /// and aliases): for every one the reader reads, the scan counts no more than it reads.
    #[test]
    fn counts_no_more_than_the_reader_reads_for_any_mix() {
        const PIECES: [&str; 16] = [
            "- a\n",
            "- [1, \"x, [y]\", 'it''s, ok']\n",
            "k{i}: v\n",
            "k{i}: [a, {b: [c, d]}, ]\n",
            "k{i}: |\n  - not, [an entry]\n  k: v\n",
            "k{i}: >-\n    a: [b, c]\n\n    - d\n",
            "k{i}: plain text\n  - continued, [too]\n",
            "k{i}: \"two\n  - lines, [x]\"\n",
            "k{i}: 'single\n  ''quoted'', [x]'\n",
            "# - a comment, [1, 2]\n",
            "k{i}: &a{i} [1, 2, 3]\n",
            "k{i}: *a0\n",
            "- - - x\n",
            "k{i}:\n  - a: 1\n    b: [2, 3]  # [4, 5]\n",
            "k{i}: {x: 1, y: [2, 3]}\n",
            "k{i}: http://host:80/a#b, c\n",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut checked = 0;
        for _ in 0..3000 {
            let text: String =
                (0..1 + next(8)).map(|i| PIECES[next(PIECES.len())].replace("{i}", &i.to_string())).collect();
            if let Some(read) = values_read(&text) {
                checked += 1;
                assert!(count(&text) <= read, "{text:?}: counted {} of {read}", count(&text));
            }
        }
        assert!(checked > 300, "only {checked} of the mixes read");
    }

    #[test]
    fn finds_the_document_over_the_budget_as_the_reader_numbers_them() {
        let dense = format!("x: [{}]\n", vec!["1"; 20].join(","));
        let over = |t: &str| first_over(t, &start_lines(t), 10);
        assert_eq!(over(&dense), Some((0, 0)));
        assert_eq!(over(&format!("a: 1\n---\n{dense}")), Some((1, 0)));
        assert_eq!(over(&format!("# only a comment\n---\na: 1\n---\n{dense}")), Some((1, 0)));
        assert_eq!(over(&format!("---\n---\na: 1\n---\n{dense}")), Some((2, 1)));
        assert_eq!(over(&format!("--- {dense}")), Some((0, 0)));
        assert_eq!(over("a: [1,2,3]\n---\nb: [1,2,3]\n"), None);
    }
}

//! How many values each document of a YAML stream reads as, counted from its text before the
//! parser reads it (`input::documents`). yaml_serde keeps every event of a document (about 130
//! bytes each, a number or a key included) until the document is read, and replays an anchor's
//! events for each alias, so the budget, which counts values as they are read, comes too late
//! for a document written densely (4 MiB of `[1,1,…]` took 303 MiB before being refused) or one
//! whose aliases repeat a large anchor (4 MB: 94 MiB).
//!
//! The count is a lower bound of what the budget counts for the same document: it counts only
//! the nodes it is sure of (the document's root, a block entry `- `, a block value `: `, a flow
//! collection and each of its entries, and for an alias `*name` what its
//! anchor's node was counted as beyond its root), and skips what it cannot read without parsing
//! (block scalars' bodies, the continuation lines of a plain scalar, quoted text, comments, an
//! anchor on a scalar or a key). So a document it finds over the budget is one the budget refuses
//! too, with the same message, and nothing the budget accepts is refused here.
//!
//! The same scan counts, per document the parser yields, the nodes written in it (an alias
//! `*name` once, as the one event the parser holds for it, and an explicit key `? k` as its key's
//! event, its value being optional): a lower bound of the parser's events for that document,
//! which bounds how often the parser follows its aliases (`input::documents`).

use std::collections::HashMap;

/// The bytes that may end a plain scalar's run of text for [`Scan::scan`]: a blank (after
/// which `#` starts a comment), `:` (a value's indicator) and the flow indicators. Any other
/// byte after plain text is more of it.
const AFTER_PLAIN: [bool; 256] = crate::text::byte_set(b" \t:,[]{}");

/// What the scan of a stream found.
pub(super) struct Written {
    /// The first document written with more than the budget's values: its index among the
    /// documents the parser yields, and 1 when the reader skips a leading empty document (as
    /// `input::documents` counts them).
    pub(super) over: Option<(usize, usize)>,
    /// The nodes written in each document the parser yields, in its order (a leading empty
    /// document included); complete only when `over` is `None`.
    pub(super) nodes: Vec<usize>,
    /// The line each part of the stream starts on (1-based): the stream's first, then the one
    /// after each `---` separator (`input::start_lines`); complete only when `over` is `None`.
    /// Found here, in the one pass over the lines the door makes for it, not in a pass of its own.
    pub(super) starts: Vec<usize>,
}

/// Scans the stream's documents against `budget` values each.
pub(super) fn scan(text: &str, budget: usize) -> Written {
    let checked: Result<Written, std::convert::Infallible> = scan_checking(text, budget, |_, _| Ok(()));
    checked.unwrap_or_else(|never| match never {})
}

/// [`scan`], with `check` run on each line of the text (its number, 0-based, and its text, as
/// `str::lines` yields them), every line, in order, past where the scan stops too: the first
/// error of `check` is the answer. So a check that goes line by line needs no split of its own.
pub(super) fn scan_checking<E>(
    text: &str,
    budget: usize,
    mut check: impl FnMut(usize, &str) -> Result<(), E>,
) -> Result<Written, E> {
    let mut segments: Vec<Segment> = Vec::new();
    let mut nodes = Vec::new();
    let mut starts = vec![1];
    let mut scan = Scan::new();
    // The parser yields a document for a part of the stream that `---` opens, and for one that
    // holds anything but comments after the stream's start or a `...`.
    let mut explicit = false;
    let mut lines = text.lines().enumerate();
    for (n, line) in lines.by_ref() {
        check(n, line)?;
        let marker = |m: &str| line.starts_with(m) && (line.len() == 3 || line[3..].starts_with([' ', '\t']));
        if marker("---") {
            // A separator: what follows the marker is the new document's first line.
            starts.push(n + 2);
            if explicit || scan.part_content {
                nodes.push(scan.written);
            }
            segments.push(scan.finish());
            scan = Scan::new();
            explicit = true;
            scan.line(&line[3..]);
        } else if marker("...") {
            // A document's end: what follows (before the next `---`) is counted afresh.
            if explicit || scan.part_content {
                nodes.push(scan.written);
            }
            let most = scan.values.max(scan.most);
            scan = Scan { most, has_content: scan.has_content, ..Scan::new() };
            explicit = false;
        } else {
            scan.line(line);
        }
        if scan.values.max(scan.most) > budget {
            break;
        }
    }
    for (n, line) in lines {
        check(n, line)?;
    }
    if explicit || scan.part_content {
        nodes.push(scan.written);
    }
    segments.push(scan.finish());
    Ok(Written { over: over(text, &segments, budget), nodes, starts })
}

/// The first document written with more than `budget` values (see [`Written::over`]).
fn over(text: &str, segments: &[Segment], budget: usize) -> Option<(usize, usize)> {
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

/// The first document written with more than `budget` values: [`Written::over`] alone.
#[cfg(test)]
pub(super) fn first_over(text: &str, budget: usize) -> Option<(usize, usize)> {
    scan(text, budget).over
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
    /// The nodes written since the document (or the part after its last `...`) started, each
    /// alias once: what `values` counts without what aliases repeat.
    written: usize,
    has_content: bool,
    /// Whether the part since the document's start or its last `...` holds anything but blank
    /// lines, comments and directives.
    part_content: bool,
    /// Open flow collections (`[`, `{`).
    flow: usize,
    /// Inside a quoted scalar, which may span lines: its quote.
    quote: Option<u8>,
    /// Inside a block scalar's body: the column of the node it is the value of (the key of
    /// `k: |`, the `-` of `- |`; the line's indentation when there is none): its body is every
    /// following line indented further, or blank.
    block_scalar: Option<usize>,
    /// After a line that ended inside a plain scalar: the column of the node it is the value
    /// of, as for a block scalar (a following line indented further may continue the scalar;
    /// the next key of `- name: x` is not indented further than `name`).
    plain: Option<usize>,
    /// The node that starts next is already counted (the root, or after `- `, `: ` or a flow
    /// comma).
    counted: bool,
    /// Just after a flow collection opened or a comma: the entry, if one starts, is still to
    /// count.
    first_entry: bool,
    /// The column of the block node whose value starts next: the last `- ` or block key of
    /// the line (a node on the following lines is what is indented further).
    parent: Option<usize>,
    /// An anchor (`&name`) whose node has not started yet.
    anchor: Option<String>,
    /// Anchored nodes not finished yet, innermost last.
    open: Vec<Anchored>,
    /// What each finished anchor's node was counted as, beyond its root.
    anchors: HashMap<String, usize>,
}

/// An anchored node being counted: its name, the count where it started, and where it ends.
struct Anchored {
    name: String,
    start: usize,
    end: End,
}

enum End {
    /// A block node: at the first line indented no further than this column.
    Block(usize),
    /// A flow collection: when the open flow collections are this many again.
    Flow(usize),
}

impl Scan {
    /// A document's scan: its root, once it has one, is a value.
    fn new() -> Self {
        Scan { values: 1, written: 1, counted: true, ..Scan::default() }
    }

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
            self.part_content = true;
        }
        if self.quote.is_none() && self.flow == 0 {
            // A line indented no further than an anchored block node's parent ends that node.
            while let Some(Anchored { end: End::Block(column), .. }) = self.open.last() {
                if indent > *column {
                    break;
                }
                self.close();
            }
            self.parent = None;
        }
        self.scan(bytes, indent);
        if let Some(name) = self.anchor.take() {
            // An anchor ending its line names the block node below it, the value of the key or
            // entry before it; elsewhere (a flow collection's line break) it is not counted.
            if let (0, Some(column)) = (self.flow, self.parent) {
                self.open.push(Anchored { name, start: self.values, end: End::Block(column) });
            }
        }
    }

    /// The innermost anchored node is finished: what it was counted as, beyond its root, is
    /// what each alias of it adds.
    fn close(&mut self) {
        if let Some(Anchored { name, start, .. }) = self.open.pop() {
            self.anchors.insert(name, self.values.saturating_sub(start));
        }
    }

    /// A node starts: a flow collection's entry counts.
    fn node_starts(&mut self) {
        if std::mem::take(&mut self.first_entry) && !self.counted {
            self.node();
            self.counted = true;
        }
    }

    /// One node written (its value read once).
    fn node(&mut self) {
        self.values = self.values.saturating_add(1);
        self.written = self.written.saturating_add(1);
    }

    /// Counts the entries of one line, from its first character after the indentation.
    fn scan(&mut self, bytes: &[u8], indent: usize) {
        let ends_token = |at: usize| matches!(bytes.get(at), None | Some(b' ' | b'\t'));
        // Where an anchor's or an alias's name ends: at a space or a flow indicator.
        let name_end = |from: usize| {
            from + bytes[from..]
                .iter()
                .take_while(|&&b| !matches!(b, b' ' | b'\t' | b',' | b'[' | b']' | b'{' | b'}'))
                .count()
        };
        // At the start of a node: a quote opens a quoted scalar, `[` a flow collection.
        let mut token_start = true;
        let mut after_space = true;
        // The column where the last node of the line started (a block key's, for `: `).
        let mut token_column = indent;
        // A quoted scalar just closed (a flow mapping's `:` may follow it without a space).
        let mut after_quote = false;
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
                        after_quote = true;
                    }
                    _ => {}
                }
                continue;
            }
            let space = matches!(c, b' ' | b'\t');
            let json_key = std::mem::take(&mut after_quote);
            match c {
                _ if space => {}
                b'#' if after_space => break,
                b'"' | b'\'' if token_start => {
                    self.node_starts();
                    self.anchor = None;
                    self.quote = Some(c);
                    self.counted = false;
                    token_column = at - 1;
                    in_plain = false;
                }
                b'[' | b'{' if token_start || self.flow > 0 => {
                    self.node_starts();
                    if self.flow == 0 {
                        token_column = at - 1;
                    }
                    if !self.counted {
                        self.node();
                    }
                    if let Some(name) = self.anchor.take() {
                        self.open.push(Anchored { name, start: self.values, end: End::Flow(self.flow) });
                    }
                    self.flow += 1;
                    self.counted = false;
                    self.first_entry = true;
                    token_start = true;
                    in_plain = false;
                }
                b']' | b'}' if self.flow > 0 => {
                    self.flow -= 1;
                    while let Some(Anchored { end: End::Flow(level), .. }) = self.open.last() {
                        if *level < self.flow {
                            break;
                        }
                        self.close();
                    }
                    self.counted = false;
                    self.first_entry = false;
                    token_start = false;
                    in_plain = false;
                }
                b',' if self.flow > 0 => {
                    // The next entry counts where it starts (a trailing comma has none).
                    self.counted = false;
                    self.first_entry = true;
                    self.anchor = None;
                    token_start = true;
                    in_plain = false;
                }
                b'-' if token_start && self.flow == 0 && ends_token(at) => {
                    self.node();
                    self.counted = true;
                    self.parent = Some(at - 1);
                    in_plain = false;
                }
                // An explicit key: the parser's events are a key's and a value's, as for `k: v`,
                // but its value may be left out (`? k` alone reads as `k: null`), so the key is
                // counted here as a node written (`written` only: a key is no value of the budget,
                // and a `: v` after it counts its value where it is written). The key is the node
                // below it, as an entry's is below `- `.
                b'?' if token_start && ends_token(at) => {
                    self.written = self.written.saturating_add(1);
                    if self.flow == 0 {
                        self.parent = Some(at - 1);
                    }
                    in_plain = false;
                }
                b':' if ends_token(at)
                    || self.flow > 0 && (json_key || matches!(bytes.get(at), Some(b',' | b']' | b'}'))) =>
                {
                    // A block mapping's value is counted here; a flow mapping's entries are
                    // counted where they start, so its value is counted already.
                    if self.flow == 0 {
                        self.node();
                        self.parent = Some(token_column);
                    }
                    self.counted = true;
                    self.anchor = None;
                    token_start = true;
                    in_plain = false;
                }
                b'|' | b'>' if token_start && self.flow == 0 => {
                    self.anchor = None;
                    self.block_scalar = Some(self.parent.unwrap_or(indent));
                    return;
                }
                // An anchor or a tag precedes the node it names: the node is still to come.
                b'&' | b'!' if token_start => {
                    let end = name_end(at);
                    if c == b'&' {
                        self.anchor = Some(String::from_utf8_lossy(&bytes[at..end]).into_owned());
                    }
                    at = end;
                }
                // An alias reads as its anchor's node again.
                b'*' if token_start => {
                    self.node_starts();
                    token_column = at - 1;
                    let end = name_end(at);
                    let name = String::from_utf8_lossy(&bytes[at..end]);
                    if let Some(&values) = self.anchors.get(name.as_ref()) {
                        self.values = self.values.saturating_add(values);
                    }
                    at = end;
                    token_start = false;
                    self.counted = false;
                    self.anchor = None;
                    in_plain = false;
                }
                _ => {
                    if token_start {
                        self.node_starts();
                        self.anchor = None;
                        token_column = at - 1;
                    }
                    token_start = false;
                    self.counted = false;
                    in_plain = true;
                    // The rest of the scalar's text up to a byte that can change the count: each
                    // byte skipped would land here again with nothing more to do (no arm above
                    // but these acts after plain text), most of a manifest's bytes.
                    at += bytes[at..].iter().take_while(|&&b| !AFTER_PLAIN[usize::from(b)]).count();
                }
            }
            after_space = space;
        }
        if in_plain && self.flow == 0 && self.quote.is_none() {
            self.plain = Some(self.parent.unwrap_or(indent));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::input::values_read;

    /// The lower bound of a one-document text.
    fn count(text: &str) -> usize {
        let mut scan = Scan::new();
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
            "{\"a\":[1, 2],\"b\":{\"c\": [3]}, \"d\": 'e'}\n",
            "x: [[1], [2, [3]], {a: [1]}, {b: 1, c: [2]}]\n",
            "a: &a\n  - [1, 2]\n  - 3\nb: [*a, *a]\nc:\n  - *a\n",
            "- k: &b\n    x: [1, 2]\n  o: 1\n  p:\n  - *b\n",
            "k: &s scalar\n&t j: v\nl: [*s, *t]\n",
            "a: &a\n- 1\n- 2\nb: *a\n",
        ];
        for text in texts {
            let read = values_read(text).unwrap_or_else(|| panic!("{text:?} reads"));
            assert!(count(text) <= read, "{text:?}: counted {} of {read}", count(text));
        }
        // Where nothing hides entries, it counts them all, and aliases as what they repeat.
        for text in [
            "x: [1,1,1]\n",
            "a: 1\nb:\n  - c\n  - d: 2\n",
            "k: |\n  - a\n  b: c\nj: >-\n  [1,2]\n",
            "k: a plain\n  - continued, b c\nj: 1\n",
            "{\"a\":[1, 2],\"b\":{\"c\": [3]}, \"d\": 'e'}\n",
            "x: [[1], [2, [3]], {a: [1]}, {b: 1, c: [2]}]\n",
            "a: &a\n  - [1, 2]\n  - 3\nb: [*a, *a]\nc:\n  - *a\n",
            "- k: &b\n    x: [1, 2]\n  o: 1\n  p:\n  - *b\n",
            // The keys after `- name: x` or `- name: |` are no continuation of its value (a
            // CRD's versions: counted 18 of its thousands of nodes before).
            "versions:\n- name: v1\n  schema:\n    a: 1\n  served: true\n- name: v2\n  x: [1]\n",
            "- d: |\n    text\n  type: string\n- d: >-\n    more\n  e: [1, 2]\n",
            "- d: plain\n    continued\n  type: string\n",
        ] {
            assert_eq!(count(text), values_read(text).unwrap(), "{text:?}");
        }
        // An anchor on a scalar or a key adds nothing it could not be sure of.
        assert_eq!(count("k: &s scalar\n&t j: v\nl: [*s, *t]\n"), 6);
    }

    /// The parser's node events (scalars, aliases, lists and maps started) in each document of
    /// `text`; `None` when it does not parse.
    fn node_events(text: &str) -> Option<Vec<usize>> {
        use crate::pipeline::events::{Event, Events};
        let mut events = Events::new(text);
        let mut documents = Vec::new();
        loop {
            match events.next().ok()? {
                Event::DocumentStart => documents.push(0),
                Event::StreamEnd => return Some(documents),
                Event::Alias(_) | Event::Scalar { .. } | Event::SequenceStart { .. } | Event::MappingStart { .. } => {
                    *documents.last_mut()? += 1;
                }
                _ => {}
            }
        }
    }

    /// The nodes written in each document of `text` (`scan`'s second count), with no budget.
    fn nodes_written(text: &str) -> Vec<usize> {
        scan(text, usize::MAX).nodes
    }

    /// The line each part of the stream starts on is the one after its `---` (a marker followed
    /// by a blank or alone on its line; `---x` and `...` start none), found in the scan's pass,
    /// also in a stream read past a document over the budget (red with the line of the marker
    /// itself).
    #[test]
    fn finds_the_line_each_part_starts_on() {
        let text = "a: 1\n---\nb: 2\n--- # c\n---x: 3\n...\n---\t\n---\n";
        assert_eq!(scan(text, usize::MAX).starts, [1, 3, 5, 8, 9]);
        assert_eq!(crate::pipeline::input::start_lines(text), [1, 3, 5, 8, 9]);
        let dense = format!("a: 1\n---\n# c\nb: [{}1]\n", "1,".repeat(2_000));
        let refused = crate::pipeline::input::documents(&dense).err();
        assert!(
            matches!(refused, Some(crate::pipeline::input::InputError::PastTheBudget { document: 2, line: 3, .. })),
            "{refused:?}"
        );
    }

    /// An explicit key is a key's event and a value's, as `k: v` is, even when its value is left
    /// out: counted as one node written (red before: `? k` counted nothing, so 3,000 of them were
    /// refused as repeating aliases, input.rs's `explicit_keys_are_not_taken_for_aliases`).
    #[test]
    fn counts_an_explicit_key_as_a_node_written() {
        for (text, written) in [
            ("? k\n? j\n", 3),
            ("? k\n: v\n? j\n", 4),
            ("? k\n:\n", 3),
            ("m:\n  ? k\n  ? j\n", 4),
            ("- ? k\n  ? j\n", 4),
            ("{? a, b: c}\n", 4),
        ] {
            assert_eq!(nodes_written(text), [written], "{text:?}");
            assert!(written <= node_events(text).unwrap()[0], "{text:?}");
        }
    }

    /// Documents put together from pieces that hide or look like entries (quotes holding commas
    /// and brackets, block scalars' bodies, plain scalars over several lines, comments, anchors
    /// and aliases, explicit keys): for every one the reader reads, the scan counts no more values
    /// than it reads, and no more nodes than the parser has events.
    #[test]
    fn counts_no_more_than_the_reader_reads_for_any_mix() {
        const PIECES: [&str; 29] = [
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
            "k{i}: {\"a\":[1, 2],\"b\":{\"c\": [3]}}\n",
            "k{i}: [[1], [2, [3]], {a: [1]}, *a0, *b0]\n",
            "- &b{i}\n  - x\n  - [y, z]\n",
            "k{i}: &b{i}\n  a: [1, 2]\n  b: *a0\n",
            "- *b0\n",
            "- k{i}: &c{i}\n    x: [1, 2]\n  o{i}: *c{i}\n",
            "k{i}: &s{i} scalar\n",
            "k{i}: [*s0, *b0, *c0]\n",
            "- k{i}: plain\n    continued, [x]\n  j{i}: [1]\n",
            "- k{i}: |\n    - not, [x]\n  j{i}: {a: 2}\n",
            "? k{i}\n",
            "? k{i}\n: [1, *a0]\n",
            "? |\n  k{i}\n: v\n",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut checked, mut aliased) = (0, 0);
        for _ in 0..20_000 {
            let text: String =
                (0..1 + next(8)).map(|i| PIECES[next(PIECES.len())].replace("{i}", &i.to_string())).collect();
            if let Some(read) = values_read(&text) {
                checked += 1;
                aliased += usize::from(text.contains('*'));
                assert!(count(&text) <= read, "{text:?}: counted {} of {read}", count(&text));
                let (nodes, events) = (nodes_written(&text), node_events(&text).expect("what reads parses"));
                assert!(nodes.iter().zip(&events).all(|(n, e)| n <= e), "{text:?}: nodes {nodes:?}, events {events:?}");
            }
        }
        assert!(checked > 300, "only {checked} of the mixes read");
        assert!(aliased > 50, "only {aliased} of the mixes read an alias");
    }

    #[test]
    fn finds_the_document_over_the_budget_as_the_reader_numbers_them() {
        let dense = format!("x: [{}]\n", vec!["1"; 20].join(","));
        let over = |t: &str| first_over(t, 10);
        assert_eq!(over(&dense), Some((0, 0)));
        assert_eq!(over(&format!("a: 1\n---\n{dense}")), Some((1, 0)));
        assert_eq!(over(&format!("# only a comment\n---\na: 1\n---\n{dense}")), Some((1, 0)));
        assert_eq!(over(&format!("---\n---\na: 1\n---\n{dense}")), Some((2, 1)));
        assert_eq!(over(&format!("--- {dense}")), Some((0, 0)));
        assert_eq!(over("a: [1,2,3]\n---\nb: [1,2,3]\n"), None);
    }

    /// What aliases repeat is counted before the parser replays it: one anchored list named by
    /// many aliases (alias-fan-out: 94 MiB before), n aliases of a list of n, nested aliases.
    #[test]
    fn finds_aliases_past_the_budget_before_the_parser() {
        let items: String = (0..1000).map(|i| format!("  - item{i}\n")).collect();
        let fan_out = format!("big: &big\n{items}copies:\n{}", "  - *big\n".repeat(5));
        assert_eq!(count(&fan_out), values_read(&fan_out).unwrap());
        let over = |t: &str, budget| first_over(t, budget);
        assert_eq!(over(&fan_out, 5000), Some((0, 0)));
        assert_eq!(over(&fan_out, 7000), None);
        let square = format!("a: &a [{}]\nx: [{}]\n", vec!["1"; 100].join(","), vec!["*a"; 100].join(","));
        assert_eq!(count(&square), values_read(&square).unwrap());
        let mut nested = String::from("l0: &l0 [1, 1]\n");
        for n in 1..=5 {
            nested.push_str(&format!("l{n}: &l{n} [*l{}, *l{}, *l{}]\n", n - 1, n - 1, n - 1));
        }
        assert_eq!(count(&nested), values_read(&nested).unwrap());
    }
}

//! A small block-style YAML emitter over `model::Value` (and, for the front ends' output,
//! serde_json's tree).
//!
//! Why not serde_yaml's emitter: it costs about 35 KB gzipped in the widget (UX.md §4.1) and
//! cannot tell which line came from which field. Every line here carries its field path, which
//! is what lets the widget mark the V1 lines a runtime now owns, and the migrator mark each V1
//! line as mapped, moved or dropped. Native tests parse every emitted document back with
//! serde_yaml and compare values, and a property test does the same for random values.

use crate::model::{Map, Value};

/// One step of a field path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathSeg {
    /// A mapping's key.
    Key(String),
    /// A list's index (0-based).
    Index(usize),
}

/// A field's path from the document's root.
pub type Path = Vec<PathSeg>;

/// One emitted line and the path of the field it shows (empty for comments and separators).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line's text, without its line break.
    pub text: String,
    /// The field it shows (empty for comments and separators).
    pub path: Path,
}

/// Renders a path as `spec.trainer.command[0]`, for the tests of the emitter's paths.
#[cfg(test)]
fn path_to_string(path: &[PathSeg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            PathSeg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            PathSeg::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
    out
}

/// Where the emitter puts what it writes: each line's text, and (for sinks that want them) the
/// field path the line shows. The emitter writes each line into `line()` and then calls
/// `end_line`; `enter_*`/`leave` bracket the fields, so a sink that ignores paths pays nothing
/// for them (the migrator's 4 MiB inputs emit hundreds of thousands of lines).
pub trait Sink {
    /// The buffer the next line's text goes into (empty, or the sink's whole output).
    fn line(&mut self) -> &mut String;
    /// The line written into `line()` is complete.
    fn end_line(&mut self);
    /// The emitter goes into the value of `key`.
    fn enter_key(&mut self, key: &str);
    /// The emitter goes into item `i` of a list.
    fn enter_index(&mut self, i: usize);
    /// The emitter leaves the value it went into last.
    fn leave(&mut self);
    /// Whether the sink hands its text on as it is written ([`Sink::piece_written`]): the emitter
    /// then writes a long string in pieces, not whole into one line (a 3 MB string is a 3 MB
    /// line). Off for the sinks that hold their whole text anyway, whose code stays as it was.
    const IN_PIECES: bool = false;
    /// A piece of a long string was written into `line()`: what the line holds so far may be
    /// handed on, the rest of the line to follow.
    fn piece_written(&mut self) {}
}

/// Collects `Line`s, each with its own copy of the path.
#[derive(Default)]
struct Lines {
    text: String,
    path: Path,
    out: Vec<Line>,
}

impl Sink for Lines {
    fn line(&mut self) -> &mut String {
        &mut self.text
    }

    fn end_line(&mut self) {
        self.out.push(Line { text: std::mem::take(&mut self.text), path: self.path.clone() });
    }

    fn enter_key(&mut self, key: &str) {
        self.path.push(PathSeg::Key(key.to_string()));
    }

    fn enter_index(&mut self, i: usize) {
        self.path.push(PathSeg::Index(i));
    }

    fn leave(&mut self) {
        self.path.pop();
    }
}

/// Writes the text straight into one string, a newline after each line.
struct Text(String);

impl Sink for Text {
    fn line(&mut self) -> &mut String {
        &mut self.0
    }

    fn end_line(&mut self) {
        self.0.push('\n');
    }

    fn enter_key(&mut self, _: &str) {}

    fn enter_index(&mut self, _: usize) {}

    fn leave(&mut self) {}
}

/// Writes the text as [`Text`] does, and hands it to `out` whenever a run of lines reaches
/// [`Runs::LENGTH`]: the text held at once is one run, not the whole output.
#[cfg(feature = "yaml-input")]
struct Runs<'o> {
    text: String,
    out: &'o mut dyn FnMut(&str),
}

#[cfg(feature = "yaml-input")]
impl Runs<'_> {
    /// Long enough that handing a run on costs little beside writing it (a write to a pipe, in the
    /// CLI), short enough to be nothing beside the tree it is written from.
    const LENGTH: usize = 16 * 1024;

    /// Hands on what was written since the last run.
    fn hand_on(&mut self) {
        if !self.text.is_empty() {
            (self.out)(&self.text);
            self.text.clear();
        }
    }
}

#[cfg(feature = "yaml-input")]
impl Sink for Runs<'_> {
    fn line(&mut self) -> &mut String {
        &mut self.text
    }

    fn end_line(&mut self) {
        self.text.push('\n');
        self.piece_written();
    }

    fn enter_key(&mut self, _: &str) {}

    fn enter_index(&mut self, _: usize) {}

    fn leave(&mut self) {}

    const IN_PIECES: bool = true;

    fn piece_written(&mut self) {
        if self.text.len() >= Self::LENGTH {
            self.hand_on();
        }
    }
}

/// Emits one document. Top-level scalars and sequences are allowed, though Kubernetes objects
/// are always maps.
pub fn emit(value: &Value) -> Vec<Line> {
    let mut lines = Lines::default();
    emit_into(value, &mut lines);
    lines.out
}

/// Emits one document into `sink`.
pub fn emit_into(value: &Value, sink: &mut impl Sink) {
    emit_tree(value, sink);
}

/// Emits one of serde_json's documents into `sink`, read in place: the same lines as
/// [`emit_into`] of its `model::Value`, without building and dropping that copy first (the
/// migrator's view emits every V1 document it converts).
#[cfg(feature = "yaml-input")]
pub fn emit_json_into(value: &serde_json::Value, sink: &mut impl Sink) {
    emit_tree(value, sink);
}

/// One node of a tree the emitter walks, borrowed: the emitter is written once for the
/// snippets' `model::Value` and for serde_json's tree, which the front ends build and which
/// would otherwise be copied whole into a `model::Value` to be written.
enum Node<'a, T: Tree> {
    Null,
    Bool(bool),
    Number(crate::model::Number),
    String(&'a str),
    Array(&'a [T]),
    Object(&'a T::Map),
}

/// A tree the emitter can walk (an owned one: both are).
trait Tree: Sized + 'static {
    /// Its mapping type.
    type Map;
    /// What the value is.
    fn node(&self) -> Node<'_, Self>;
    /// The number of a mapping's entries.
    fn len(map: &Self::Map) -> usize;
    /// A mapping's entries, in order.
    fn entries(map: &Self::Map) -> impl Iterator<Item = (&str, &Self)>;
}

impl Tree for Value {
    type Map = Map;

    fn node(&self) -> Node<'_, Self> {
        match self {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => Node::Number(*n),
            Value::String(s) => Node::String(s),
            Value::Array(items) => Node::Array(items),
            Value::Object(map) => Node::Object(map),
        }
    }

    fn len(map: &Map) -> usize {
        map.len()
    }

    fn entries(map: &Map) -> impl Iterator<Item = (&str, &Self)> {
        map.iter().map(|(k, v)| (k.as_str(), v))
    }
}

#[cfg(feature = "yaml-input")]
impl Tree for serde_json::Value {
    type Map = serde_json::Map<String, serde_json::Value>;

    fn node(&self) -> Node<'_, Self> {
        use serde_json::Value as Json;
        match self {
            Json::Null => Node::Null,
            Json::Bool(b) => Node::Bool(*b),
            Json::Number(n) => Node::Number(crate::model::Number::from(n)),
            Json::String(s) => Node::String(s),
            Json::Array(items) => Node::Array(items),
            Json::Object(map) => Node::Object(map),
        }
    }

    fn len(map: &Self::Map) -> usize {
        map.len()
    }

    fn entries(map: &Self::Map) -> impl Iterator<Item = (&str, &Self)> {
        map.iter().map(|(k, v)| (k.as_str(), v))
    }
}

fn emit_tree<T: Tree>(value: &T, sink: &mut impl Sink) {
    match value.node() {
        Node::Object(map) if T::len(map) > 0 => emit_map::<T>(map, 0, false, sink),
        Node::Array(items) if !items.is_empty() => emit_seq(items, 0, sink),
        other => {
            push_inline(sink.line(), other);
            sink.end_line();
        }
    }
}

/// Emits several documents separated by `---`, with optional leading comments per document.
pub(crate) fn emit_documents<'a>(docs: impl IntoIterator<Item = (&'a [String], &'a Value)>) -> Vec<Line> {
    let mut lines = Lines::default();
    for (i, (comments, value)) in docs.into_iter().enumerate() {
        if i > 0 {
            lines.out.push(Line { text: "---".into(), path: Vec::new() });
        }
        for c in comments {
            lines.out.push(Line { text: format!("# {c}"), path: Vec::new() });
        }
        emit_into(value, &mut lines);
    }
    lines.out
}

/// The text `join(&emit_documents(…))` gives for documents without comments, written directly.
/// The trees may be borrowed or owned: an owned one is dropped once written.
pub fn documents_text(docs: impl IntoIterator<Item = impl std::borrow::Borrow<Value>>) -> String {
    trees_text::<Value>(docs)
}

/// [`documents_text`] of serde_json's trees, written from them as they are: the same text as
/// of their `model::Value`s, without building one (a 4 MiB manifest's tree is 40 MB and more).
#[cfg(feature = "yaml-input")]
pub(crate) fn json_documents_text<'a>(docs: impl IntoIterator<Item = &'a serde_json::Value>) -> String {
    trees_text::<serde_json::Value>(docs)
}

/// [`json_documents_text`]'s text, handed to `out` a run of whole lines at a time as it is
/// written, never held whole: the CLI prints a 4 MiB manifest's YAML (a quarter million labels)
/// without holding its text beside the tree it comes from. Concatenated, the runs are that text.
#[cfg(feature = "yaml-input")]
pub fn write_json_documents<'a>(docs: impl IntoIterator<Item = &'a serde_json::Value>, out: &mut dyn FnMut(&str)) {
    let mut runs = Runs { text: String::new(), out };
    emit_trees::<serde_json::Value>(docs, &mut runs);
    runs.hand_on();
}

fn trees_text<T: Tree>(docs: impl IntoIterator<Item = impl std::borrow::Borrow<T>>) -> String {
    let mut text = Text(String::new());
    emit_trees::<T>(docs, &mut text);
    text.0
}

/// Each document, a `---` line between them.
fn emit_trees<T: Tree>(docs: impl IntoIterator<Item = impl std::borrow::Borrow<T>>, sink: &mut impl Sink) {
    for (i, value) in docs.into_iter().enumerate() {
        if i > 0 {
            sink.line().push_str("---");
            sink.end_line();
        }
        emit_tree(value.borrow(), sink);
    }
}

/// The lines as one text, each ending in a line break.
pub fn join(lines: &[Line]) -> String {
    let mut s = String::new();
    for l in lines {
        s.push_str(&l.text);
        s.push('\n');
    }
    s
}

fn push_pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

/// A map's entries at `indent`. With `dash`, the first line is a sequence item's ("- name: node"):
/// its last two columns of indentation read "- ".
fn emit_map<T: Tree>(map: &T::Map, indent: usize, dash: bool, sink: &mut impl Sink) {
    for (n, (key, value)) in T::entries(map).enumerate() {
        sink.enter_key(key);
        let line = sink.line();
        if dash && n == 0 {
            push_pad(line, indent - 2);
            line.push_str("- ");
        } else {
            push_pad(line, indent);
        }
        push_scalar_string(line, key);
        line.push(':');
        match value.node() {
            Node::Object(m) if T::len(m) > 0 => {
                sink.end_line();
                emit_map::<T>(m, indent + 2, false, sink);
            }
            Node::Array(items) if !items.is_empty() => {
                sink.end_line();
                emit_seq(items, indent + 2, sink);
            }
            Node::String(s) if block_literal_fits(s) => {
                line.push(' ');
                line.push_str(block_header(s));
                sink.end_line();
                push_block_body(s, indent + 2, sink);
            }
            other => {
                line.push(' ');
                push_inline_into(sink, other);
                sink.end_line();
            }
        }
        sink.leave();
    }
}

fn emit_seq<T: Tree>(items: &[T], indent: usize, sink: &mut impl Sink) {
    for (i, item) in items.iter().enumerate() {
        sink.enter_index(i);
        match item.node() {
            // The first entry sits on the dash line: "- name: node".
            Node::Object(m) if T::len(m) > 0 => emit_map::<T>(m, indent + 2, true, sink),
            Node::Array(inner) if !inner.is_empty() => {
                push_pad(sink.line(), indent);
                sink.line().push('-');
                sink.end_line();
                emit_seq(inner, indent + 2, sink);
            }
            Node::String(s) if block_literal_fits(s) => {
                let line = sink.line();
                push_pad(line, indent);
                line.push_str("- ");
                line.push_str(block_header(s));
                sink.end_line();
                push_block_body(s, indent + 2, sink);
            }
            other => {
                let line = sink.line();
                push_pad(line, indent);
                line.push_str("- ");
                push_inline_into(sink, other);
                sink.end_line();
            }
        }
        sink.leave();
    }
}

/// Multi-line scripts (`python -c`) read best as `|` blocks. Only used where the literal
/// round-trips exactly: no tabs or carriage returns, no leading space on the first line, and no
/// trailing spaces that a block would keep but a reader could not see.
fn block_literal_fits(s: &str) -> bool {
    // Bytes, not `str::contains(char)`: for a char that is not ASCII it searches for the char's
    // UTF-8 as a `&str`, which links the standard library's two-way string searcher (3.7 KB of
    // the widget's wasm) even when every char given is ASCII.
    s.as_bytes().contains(&b'\n')
        && !s.starts_with([' ', '\n'])
        && !s.contains(['\t', '\r'])
        && s.chars().all(|c| !must_escape(c) || c == '\n')
        && s.lines().all(|l| !l.ends_with(' '))
}

fn block_header(s: &str) -> &'static str {
    let trailing = s.len() - s.trim_end_matches('\n').len();
    match trailing {
        0 => "|-",
        1 => "|",
        _ => "|+",
    }
}

fn push_block_body(s: &str, indent: usize, sink: &mut impl Sink) {
    let body = s.strip_suffix('\n').unwrap_or(s);
    for line in body.split('\n') {
        if !line.is_empty() {
            push_pad(sink.line(), indent);
            push_in_pieces(sink, line, String::push_str);
        }
        sink.end_line();
    }
}

/// [`push_inline`] into the sink's line, a long string in pieces for a sink that takes them.
fn push_inline_into<T: Tree, S: Sink>(sink: &mut S, v: Node<'_, T>) {
    if !S::IN_PIECES {
        return push_inline(sink.line(), v);
    }
    match v {
        Node::String(s) if plain_is_safe(s) => push_in_pieces(sink, s, String::push_str),
        Node::String(s) => {
            sink.line().push('"');
            push_in_pieces(sink, s, push_escaped);
            sink.line().push('"');
        }
        other => push_inline(sink.line(), other),
    }
}

/// Writes `s` into the sink's line with `push`: whole, or for a sink that takes pieces
/// ([`Sink::IN_PIECES`]), a piece of [`PIECE`] bytes at a time (cut between chars: `push` writes
/// each char on its own), each handed on as written.
fn push_in_pieces<S: Sink>(sink: &mut S, s: &str, push: fn(&mut String, &str)) {
    if !S::IN_PIECES || s.len() <= PIECE {
        push(sink.line(), s);
        return;
    }
    let mut rest = s;
    while !rest.is_empty() {
        let mut end = PIECE.min(rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        push(sink.line(), &rest[..end]);
        sink.piece_written();
        rest = &rest[end..];
    }
}

/// The longest piece of a string [`push_in_pieces`] writes at once.
const PIECE: usize = 16 * 1024;

/// A value on its key's or dash's line: a scalar, or an empty list or map.
fn push_inline<T: Tree>(out: &mut String, v: Node<'_, T>) {
    use std::fmt::Write;
    match v {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Node::Number(n) => {
            // Writing to a String cannot fail.
            let _ = write!(out, "{n}");
        }
        Node::String(s) => push_scalar_string(out, s),
        Node::Array(_) => out.push_str("[]"),
        Node::Object(_) => out.push_str("{}"),
    }
}

/// A string as a plain scalar when YAML would read it back as the same string, else
/// double-quoted (JSON escapes are valid YAML double-quoted escapes).
pub fn scalar_string(s: &str) -> String {
    let mut out = String::new();
    push_scalar_string(&mut out, s);
    out
}

fn push_scalar_string(out: &mut String, s: &str) {
    if plain_is_safe(s) {
        out.push_str(s);
    } else {
        push_double_quoted(out, s);
    }
}

/// Control characters (C0, DEL, C1 such as NEL) and the Unicode line separators, which would
/// otherwise break or fold a line when read back; and the bidirectional controls, which would
/// reorder what a reader sees of the line (`crate::terminal`).
fn must_escape(c: char) -> bool {
    c.is_control() || crate::terminal::is_bidi_control(c) || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
}

/// A double-quoted string with the escapes YAML, JSON and Python share (`\"`, `\\`, `\n`, `\t`,
/// `\r`, `\uXXXX`): the YAML emitter and the Python snippet writer both use it. (Not
/// `serde_json::to_string`: it writes through `std::io`, whose error strings cost KBs of wasm.)
pub(crate) fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_double_quoted(&mut out, s);
    out
}

fn push_double_quoted(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    push_escaped(out, s);
    out.push('"');
}

/// The inside of [`push_double_quoted`]: each char as itself or its escape.
fn push_escaped(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if must_escape(c) => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let n = c as u32;
                out.push_str("\\u");
                for shift in [12, 8, 4, 0] {
                    out.push(HEX[((n >> shift) & 0xf) as usize] as char);
                }
            }
            c => out.push(c),
        }
    }
}

fn plain_is_safe(s: &str) -> bool {
    let Some(&first) = s.as_bytes().first() else {
        return false;
    };
    if !is_plain_text(s) {
        return false;
    }
    // Indicators that start another construct (each ASCII, so a first byte is one only when it
    // is the first character). A '-' is fine when a non-space follows ("-De").
    if INDICATORS[usize::from(first)] || s.starts_with("- ") || s == "-" {
        return false;
    }
    // ": " and " #" looked for by hand (see block_literal_fits), one byte pair at a time.
    let comment_or_mapping = s.as_bytes().windows(2).any(|pair| matches!(pair, [b':', b' '] | [b' ', b'#']));
    if s.starts_with("---") || s.starts_with("...") || comment_or_mapping || s.ends_with(':') {
        return false;
    }
    !resolves_to_non_string(s)
}

/// The characters that start another construct when a plain scalar would start with them.
const INDICATORS: [bool; 256] = crate::text::byte_set(b"?:,[]{}#&*!|>'\"%@`");

/// What a number, a date or a time is written with besides digits: hex digits, base prefixes,
/// separators, signs and exponents.
const NUMBER_BYTES: [bool; 256] = crate::text::byte_set(b"0123456789abcdefABCDEFxXoO_.+-:eE");

/// Whether `s` is as a plain scalar would read it back: nothing that trimming removes at either
/// end, and no character that must be escaped. Every key and most values of an emitted document
/// are ASCII, where both come down to bytes (the ASCII white space but the space are controls,
/// and every other character `must_escape` names is beyond ASCII); other text is decoded and
/// judged character by character.
fn is_plain_text(s: &str) -> bool {
    if s.is_ascii() {
        let bytes = s.as_bytes();
        bytes.first() != Some(&b' ') && bytes.last() != Some(&b' ') && !bytes.iter().any(|&b| b < 0x20 || b == 0x7f)
    } else {
        s.trim() == s && !s.chars().any(must_escape)
    }
}

/// The words YAML 1.1 or 1.2 reads as a bool, null or number, in any case.
const NON_STRING_WORDS: [&str; 14] =
    ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ".inf", "-.inf", "+.inf", ".nan"];

/// Whether YAML 1.1 or 1.2 would read `s` as a bool, null, number or timestamp.
fn resolves_to_non_string(s: &str) -> bool {
    // A string longer than every word is none of them: not compared with each.
    const LONGEST: usize = {
        let (mut longest, mut i) = (0, 0);
        while i < NON_STRING_WORDS.len() {
            if NON_STRING_WORDS[i].len() > longest {
                longest = NON_STRING_WORDS[i].len();
            }
            i += 1;
        }
        longest
    };
    if s.len() <= LONGEST && (NON_STRING_WORDS.iter().any(|w| w.eq_ignore_ascii_case(s)) || s == "<<") {
        return true;
    }
    // Anything made only of digits and number punctuation (hex, octal, floats, sexagesimal,
    // dates) is quoted; this over-quotes a little and never under-quotes. (An ASCII digit is
    // one byte, and no byte of a longer character is one.)
    s.bytes().any(|b| b.is_ascii_digit()) && s.bytes().all(|b| NUMBER_BYTES[usize::from(b)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree;

    fn round_trip(v: &Value) -> Value {
        let text = join(&emit(v));
        serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn kubernetes_shape_matches_upstream_style() {
        let v = tree!({"spec": {"containers": [{"name": "node", "args": ["-De", "-f"]}], "torch": {}}});
        assert_eq!(
            join(&emit(&v)),
            "spec:\n  containers:\n    - name: node\n      args:\n        - -De\n        - -f\n  torch: {}\n"
        );
    }

    #[test]
    fn ambiguous_strings_are_quoted() {
        for s in [
            "true",
            "No",
            "1.0",
            "0x1F",
            "2026-11-29",
            "",
            " x",
            "a: b",
            "a #b",
            "#c",
            "- x",
            "12:30",
            "~",
            "1e3",
            "a\u{85}b",
            "x\u{2028}y",
            "access\u{202e}\u{2066}x\u{2069}",
            "\u{7f}",
        ] {
            assert!(scalar_string(s).starts_with('"'), "{s:?} must be quoted");
            assert_eq!(round_trip(&tree!({ "k": s })), tree!({ "k": s }));
        }
        assert_eq!(scalar_string("nvidia.com/gpu"), "nvidia.com/gpu");
        assert_eq!(scalar_string("20Gi"), "20Gi");
    }

    /// The byte-level judgement of ASCII text agrees with the character rule it stands for
    /// (nothing trimmed at either end, nothing that must be escaped), for every string of up to
    /// three characters from the ASCII white space and controls, DEL, the space, plain
    /// characters and characters beyond ASCII (a no-break space is white space to `trim`).
    #[test]
    fn plain_text_is_judged_by_bytes_as_by_characters() {
        let alphabet = [
            '\0', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1f}', ' ', 'a', '~', '\u{7f}', 'é', '\u{85}', '\u{a0}',
            '\u{2028}',
        ];
        // Each length's strings, from the shorter ones and one more character.
        let mut strings = vec![String::new()];
        let mut shorter = strings.clone();
        for _ in 0..3 {
            shorter = shorter.iter().flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}"))).collect();
            strings.extend(shorter.iter().cloned());
        }
        for s in &strings {
            let by_characters = s.trim() == s && !s.chars().any(must_escape);
            assert_eq!(is_plain_text(s), by_characters, "{s:?}");
        }
    }

    /// Every word YAML reads as other than a string is quoted, whatever its case: none is
    /// skipped as too long to be one.
    #[test]
    fn every_word_that_reads_as_no_string_is_quoted() {
        for word in NON_STRING_WORDS {
            for s in [word.to_string(), word.to_ascii_uppercase()] {
                assert!(resolves_to_non_string(&s), "{s:?}");
                assert!(scalar_string(&s).starts_with('"'), "{s:?}");
            }
        }
        assert!(!resolves_to_non_string("falsey") && !resolves_to_non_string("nulls"));
    }

    /// serde_json's tree is written as its `model::Value` copy was (what `pipeline::output_yaml`
    /// wrote before it walked serde_json's tree itself): every kind of node, numbers of each kind.
    #[cfg(feature = "yaml-input")]
    #[test]
    fn a_json_tree_is_written_as_its_model_value() {
        let docs = [
            serde_json::json!({
                "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x", "labels": {}},
                "data": {"script": "import jax\n\nprint(1)\n", "quoted": "yes", "empty": "", "none": null},
                "numbers": [0, -7, 18446744073709551615u64, 1.5, 1e21, -0.0, 3.0],
                "nested": [[], [1, [2]], {}, [{"a": true, "b": false}], "- x"],
            }),
            serde_json::json!("a scalar document"),
            serde_json::json!([]),
        ];
        let as_model: Vec<Value> = docs.iter().map(Value::from).collect();
        assert_eq!(json_documents_text(&docs), documents_text(&as_model));
    }

    /// The runs `write_json_documents` hands on are the text `json_documents_text` writes, none
    /// much longer than a run, even where one string is a line of hundreds of KB (plain, quoted,
    /// in a block, of chars of several bytes): the CLI prints them as they come.
    #[cfg(feature = "yaml-input")]
    #[test]
    fn the_documents_handed_on_in_runs_are_their_text() {
        let labels: serde_json::Map<String, serde_json::Value> =
            (0..4000).map(|i| (format!("label-{i}"), serde_json::Value::from(format!("value {i}")))).collect();
        let docs = [
            serde_json::json!({"kind": "ConfigMap", "metadata": {"name": "big", "labels": labels}}),
            serde_json::json!({"kind": "ConfigMap", "data": {"script": "import jax\n\nprint(1)\n"}}),
            serde_json::json!("a scalar document"),
            serde_json::json!({"pad": "abcdefghij0123456789 ".repeat(10_000).trim_end(), "quoted": "\"é\t€ ".repeat(20_000)}),
            serde_json::json!({"block": format!("{}\nend\n", "x€y".repeat(30_000)), "last": "ü".repeat(40_000)}),
        ];
        let mut runs = Vec::new();
        write_json_documents(&docs, &mut |run: &str| runs.push(run.to_string()));
        assert!(runs.len() > 40, "a text of {} bytes in {} runs", runs.concat().len(), runs.len());
        let longest = runs.iter().map(String::len).max().unwrap_or_default();
        // A piece of a quoted string grows by its escapes; a whole line would be hundreds of KB.
        assert!(longest < Runs::LENGTH + 2 * PIECE, "a run of {longest} bytes");
        assert_eq!(runs.concat(), json_documents_text(&docs));
    }

    #[test]
    fn scripts_become_literal_blocks() {
        let v = tree!({"command": ["python3", "-c", "import jax\n\nprint(1)\n"]});
        let text = join(&emit(&v));
        assert!(text.contains("- |\n    import jax\n\n    print(1)\n"), "{text}");
        assert_eq!(round_trip(&v), v);
    }

    #[test]
    fn lines_carry_their_paths() {
        let v = tree!({"spec": {"replicas": 3, "list": [{"a": 1}]}});
        let lines = emit(&v);
        let paths: Vec<_> = lines.iter().map(|l| path_to_string(&l.path)).collect();
        assert_eq!(paths, ["spec", "spec.replicas", "spec.list", "spec.list[0].a"]);
    }
}

//! Each document's tree built from the parser's events as they come (`events.rs`), against the
//! input's budget, so a document's events are never held all at once beside its tree (issue 36:
//! yaml_serde held 100.7 MB of events beside a 75.5 MB tree on dense-at-the-limit).
//!
//! The tree is the one `input::documents` built from yaml_serde (0.10.7, `de.rs`): the same
//! scalars read as the same values, an alias as a copy of what its anchor names, a repeated key's
//! last value in its first place. Whatever that reading would meet an error on or treat apart (a
//! tag, a key that is not a scalar, an alias as a key, nesting past yaml_serde's 128 levels, a
//! number past 64 bits, the parser's own errors), and any count of the budget that would run
//! out, is not read here: the document is handed back (`Fallback`) to be read by yaml_serde,
//! whose errors and refusals are the reader's. So this reads the documents yaml_serde reads
//! without error, as it reads them, and no others.

use super::events::{Event, Events};
use super::input::Budget;
use serde_json::{Map, Number, Value};
use std::collections::HashMap;

/// yaml_serde's nesting limit (`remaining_depth: 128`): lists and maps inside one another, those
/// an alias repeats counted where it stands.
const YAML_SERDE_DEPTH: usize = 128;

/// A document this reader leaves to yaml_serde (see the module's comment).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Fallback;

/// What one call of [`Reader::document`] read.
pub(super) enum Read {
    /// A document's tree (`Null` for an empty document).
    Document(Value),
    /// The stream has ended.
    End,
}

/// The budget's three counts at one moment: the document's reads, the values, the characters.
#[derive(Clone, Copy)]
struct Counts {
    reads: usize,
    values: usize,
    text: usize,
}

/// What an anchor names, as an alias repeats it.
enum Anchored {
    /// A node still being read: an alias of it repeats itself.
    Open,
    /// Something an alias of it cannot repeat here (a key).
    Unusable,
    /// A finished node: its tree, what reading it again costs, and how deep it nests.
    Done { value: Value, cost: Counts, height: usize },
}

/// A list or map being read.
struct Frame {
    /// Its anchor, if it has one, and the budget's counts where it started.
    anchor: Option<(Vec<u8>, Counts)>,
    /// Its deepest child's height.
    height: usize,
    node: Node,
}

enum Node {
    Seq(Vec<Value>),
    /// The map's entries, and the key whose value comes next.
    Map(Entries, Option<String>),
}

/// A map's entries as they are read: the first [`FEW`] in a list, so that a small map (most of a
/// manifest's: an env variable, a port, a volume mount) is made with room for its own entries
/// alone, not for the next power of two past them (issue 36: the 70,000 maps of two entries of
/// many-env took 312 bytes of entries each, not 208); past them, in the map itself, which grows as
/// it must (a map of 100,000 labels is not held twice while it is made).
enum Entries {
    Few(Vec<(String, Value)>),
    Many(Map<String, Value>),
}

/// The most entries a map holds in a list before it is made (`Entries`): more than most maps of a
/// manifest have.
const FEW: usize = 16;

impl Entries {
    fn new() -> Entries {
        Entries::Few(Vec::with_capacity(FEW))
    }

    fn insert(&mut self, key: String, value: Value) {
        match self {
            Entries::Few(few) if few.len() < FEW => few.push((key, value)),
            Entries::Few(few) => {
                let mut map = map_of(std::mem::take(few));
                map.insert(key, value);
                *self = Entries::Many(map);
            }
            Entries::Many(map) => {
                map.insert(key, value);
            }
        }
    }

    fn into_map(self) -> Map<String, Value> {
        match self {
            Entries::Few(few) => map_of(few),
            Entries::Many(map) => map,
        }
    }
}

/// A map of `entries`, with room for them alone; a repeated key's last value in its first place
/// (`Map::insert`, as yaml_serde reads it).
fn map_of(entries: Vec<(String, Value)>) -> Map<String, Value> {
    let mut map = Map::with_capacity(entries.len());
    for (key, value) in entries {
        map.insert(key, value);
    }
    map
}

/// Reads the documents of one stream, one at a time.
pub(super) struct Reader<'text> {
    events: Events<'text>,
    /// Whether a document was read: a stream of none reads as one empty document, as yaml_serde's.
    any: bool,
    /// Whether each document's whole tree is built, or only its outline (see [`Reader::outline`]).
    whole: bool,
}

impl<'text> Reader<'text> {
    pub(super) fn new(text: &'text str) -> Reader<'text> {
        Reader { events: Events::new(text), any: false, whole: true }
    }

    /// A reader of each document's outline: its root's own members (a scalar as the whole tree
    /// reads it, a list or map empty), read from the same events against the same budget,
    /// spending it as the whole tree does and falling back where it does. What the door's first
    /// read needs (which documents refuse the input, which are empty, what each one's `kind`
    /// is) without the tree of a single job (issue 36).
    pub(super) fn outline(text: &'text str) -> Reader<'text> {
        Reader { whole: false, ..Reader::new(text) }
    }

    /// The next document's tree, read against `budget`: its counts are spent as yaml_serde's
    /// reading spends them. On `Fallback` they are as they were before the call, and the reader
    /// is not to be asked again.
    /// `aliases`: whether an alias may be read (else the document is left to yaml_serde).
    pub(super) fn document(&mut self, budget: &Budget, aliases: bool) -> Result<Read, Fallback> {
        let before = counts(budget);
        let read = self.read_document(budget, aliases);
        if read.is_err() {
            budget.restore(before.reads, before.values, before.text);
        }
        read
    }

    fn read_document(&mut self, budget: &Budget, aliases: bool) -> Result<Read, Fallback> {
        let first = !self.any;
        self.any = true;
        match self.events.next().map_err(|_| Fallback)? {
            Event::DocumentStart => {}
            Event::StreamEnd if first => {
                budget_value(budget)?;
                return Ok(Read::Document(Value::Null));
            }
            Event::StreamEnd => return Ok(Read::End),
            _ => return Err(Fallback),
        }
        let value = self.root(budget, aliases)?;
        match self.events.next().map_err(|_| Fallback)? {
            Event::DocumentEnd => Ok(Read::Document(value)),
            _ => Err(Fallback),
        }
    }

    /// The document's root node, read to its end.
    fn root(&mut self, budget: &Budget, aliases: bool) -> Result<Value, Fallback> {
        let mut anchors: HashMap<Vec<u8>, Anchored> = HashMap::new();
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            let mut event = self.events.next().map_err(|_| Fallback)?;
            // A key of a map comes first: text, not a value.
            if let Some(Frame { node: Node::Map(_, key @ None), .. }) = stack.last_mut() {
                match event {
                    Event::MappingEnd => {}
                    Event::Scalar { anchor, tagged: false, text: Some(text), .. } => {
                        key_charge(budget, text.len())?;
                        if let Some(name) = anchor {
                            anchors.insert(name, Anchored::Unusable);
                        }
                        *key = Some(text);
                        continue;
                    }
                    _ => return Err(Fallback),
                }
            }
            // A finished node and how deep it nests, or a list or map opened.
            let (value, height) = match event {
                Event::Scalar { anchor, tagged: false, plain, text: Some(text) } => {
                    let start = counts(budget);
                    let value = if plain { plain_scalar(text).ok_or(Fallback)? } else { Value::String(text) };
                    match &value {
                        Value::String(text) => spend(budget, text.len())?,
                        _ => budget_value(budget)?,
                    }
                    if let Some(name) = anchor {
                        let cost = spent(start, counts(budget));
                        anchors.insert(name, Anchored::Done { value: value.clone(), cost, height: 0 });
                    }
                    (value, 0)
                }
                Event::Alias(_) if !aliases => return Err(Fallback),
                Event::Alias(name) => match anchors.get(&name) {
                    Some(Anchored::Done { value, cost, height }) => {
                        if stack.len() + height > YAML_SERDE_DEPTH {
                            return Err(Fallback);
                        }
                        charge(budget, *cost)?;
                        (value.clone(), *height)
                    }
                    _ => return Err(Fallback),
                },
                Event::SequenceStart { ref mut anchor, tagged: false }
                | Event::MappingStart { ref mut anchor, tagged: false } => {
                    let anchor = anchor.take();
                    if stack.len() >= YAML_SERDE_DEPTH {
                        return Err(Fallback);
                    }
                    let start = counts(budget);
                    budget_value(budget)?;
                    let anchor = anchor.map(|name| {
                        anchors.insert(name.clone(), Anchored::Open);
                        (name, start)
                    });
                    let node = if matches!(event, Event::SequenceStart { .. }) {
                        Node::Seq(Vec::new())
                    } else {
                        Node::Map(Entries::new(), None)
                    };
                    stack.push(Frame { anchor, height: 0, node });
                    continue;
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    let Some(frame) = stack.pop() else { return Err(Fallback) };
                    let value = match frame.node {
                        Node::Seq(mut items) => {
                            // A list grows by doubling: without this, up to half of its room
                            // stays allocated as long as the tree lives (as yaml_serde's reading
                            // did, input.rs).
                            items.shrink_to_fit();
                            Value::Array(items)
                        }
                        Node::Map(entries, None) => Value::Object(entries.into_map()),
                        Node::Map(_, Some(_)) => return Err(Fallback),
                    };
                    let height = frame.height + 1;
                    // Unless a node inside it took its anchor's name since (yaml_serde's alias
                    // then names that one).
                    if let Some((name, start)) = frame.anchor {
                        if let Some(anchored @ Anchored::Open) = anchors.get_mut(&name) {
                            let cost = spent(start, counts(budget));
                            *anchored = Anchored::Done { value: value.clone(), cost, height };
                        }
                    }
                    (value, height)
                }
                _ => return Err(Fallback),
            };
            // Into its parent, or the root; an outline keeps the root's own members only.
            let keep = self.whole || stack.len() == 1;
            let Some(parent) = stack.last_mut() else { return Ok(value) };
            parent.height = parent.height.max(height);
            match &mut parent.node {
                Node::Seq(items) if keep => items.push(value),
                Node::Seq(_) => {}
                Node::Map(entries, key) => {
                    let key = key.take().ok_or(Fallback)?;
                    if keep {
                        entries.insert(key, value);
                    }
                }
            }
        }
    }
}

fn counts(budget: &Budget) -> Counts {
    let (reads, values, text) = budget.left();
    Counts { reads, values, text }
}

/// What was spent between `start` and `end`.
fn spent(start: Counts, end: Counts) -> Counts {
    Counts { reads: start.reads - end.reads, values: start.values - end.values, text: start.text - end.text }
}

fn charge(budget: &Budget, cost: Counts) -> Result<(), Fallback> {
    if budget.spend_all(cost.reads, cost.values, cost.text) {
        Ok(())
    } else {
        Err(Fallback)
    }
}

/// A value that is not text: a read and a value.
fn budget_value(budget: &Budget) -> Result<(), Fallback> {
    charge(budget, Counts { reads: 1, values: 1, text: 0 })
}

/// A string value of `chars` bytes.
fn spend(budget: &Budget, chars: usize) -> Result<(), Fallback> {
    charge(budget, Counts { reads: 1, values: 1, text: chars })
}

/// A key of `chars` bytes: a read and its characters.
fn key_charge(budget: &Budget, chars: usize) -> Result<(), Fallback> {
    charge(budget, Counts { reads: 1, values: 0, text: chars })
}

/// A plain (unquoted, untagged) scalar as yaml_serde reads it into a value (`de.rs`
/// `visit_untagged_scalar`): null, a boolean, an integer, a float, or else text. `None` for an
/// integer past 64 bits, which yaml_serde hands on as 128 bits (left to it).
fn plain_scalar(text: String) -> Option<Value> {
    if text.is_empty() || is_null(&text) {
        return Some(Value::Null);
    }
    match text.as_str() {
        "true" | "True" | "TRUE" => return Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Value::Bool(false)),
        _ => {}
    }
    if let Some(n) = unsigned(&text, u64::from_str_radix) {
        return Some(Value::Number(n.into()));
    }
    if let Some(n) = negative(&text, i64::from_str_radix) {
        return Some(Value::Number(n.into()));
    }
    if unsigned(&text, u128::from_str_radix).is_some() || negative(&text, i128::from_str_radix).is_some() {
        return None;
    }
    if !leading_zero_digits(&text) {
        if let Some(x) = float(&text) {
            // Infinities and NaN have no JSON number: null, as serde_json's `Number::from_f64`.
            return Some(Number::from_f64(x).map_or(Value::Null, Value::Number));
        }
    }
    Some(Value::String(text))
}

fn is_null(text: &str) -> bool {
    matches!(text, "null" | "Null" | "NULL" | "~")
}

/// The radix prefixes yaml_serde reads integers with.
const RADIXES: [(&str, u32); 3] = [("0x", 16), ("0o", 8), ("0b", 2)];

/// A non-negative integer: an optional `+`, then hexadecimal, octal or binary digits after their
/// prefix, or decimal ones without a leading zero.
fn unsigned<T>(text: &str, parse: fn(&str, u32) -> Result<T, std::num::ParseIntError>) -> Option<T> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    for (prefix, radix) in RADIXES {
        if let Some(rest) = digits.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(n) = parse(rest, radix) {
                return Some(n);
            }
        }
    }
    if digits.starts_with(['+', '-']) || leading_zero_digits(text) {
        return None;
    }
    parse(digits, 10).ok()
}

/// An integer read as signed (yaml_serde's negative forms): `-` and a prefix, or decimal digits
/// with an optional sign and no leading zero.
fn negative<T>(text: &str, parse: fn(&str, u32) -> Result<T, std::num::ParseIntError>) -> Option<T> {
    for (prefix, radix) in RADIXES {
        if let Some(rest) = text.strip_prefix('-').and_then(|t| t.strip_prefix(prefix)) {
            if let Ok(n) = parse(&format!("-{rest}"), radix) {
                return Some(n);
            }
        }
    }
    if leading_zero_digits(text) {
        return None;
    }
    parse(text, 10).ok()
}

/// Digits after a leading zero (and an optional sign): text in YAML 1.2, not a number.
fn leading_zero_digits(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    digits.len() > 1 && digits.starts_with('0') && digits.bytes().skip(1).all(|b| b.is_ascii_digit())
}

/// A float: `.inf`, `.nan` in their three spellings, or a finite number Rust reads.
fn float(text: &str) -> Option<f64> {
    let unsigned = match text.strip_prefix('+') {
        Some(rest) if rest.starts_with(['+', '-']) => return None,
        Some(rest) => rest,
        None => text,
    };
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return Some(f64::INFINITY);
    }
    if matches!(text, "-.inf" | "-.Inf" | "-.INF") {
        return Some(f64::NEG_INFINITY);
    }
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return Some(f64::NAN);
    }
    unsigned.parse::<f64>().ok().filter(|x| x.is_finite())
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::input::{documents, documents_buffered, InputError, RawDoc};

    /// Everything a reader of the door's answer sees: each document's number, line and JSON (its
    /// keys in order), or its error's text and place; or the refusal.
    pub(crate) fn answer(read: Result<Vec<RawDoc>, InputError>) -> Result<Vec<(usize, usize, String)>, InputError> {
        Ok(read?
            .into_iter()
            .map(|doc| {
                let value = match &doc.value {
                    Ok(value) => serde_json::to_string(value).expect("JSON"),
                    Err(e) => format!("error {e} at {:?}", e.location().map(|l| (l.index(), l.line(), l.column()))),
                };
                (doc.index, doc.line, value)
            })
            .collect())
    }

    /// `text` read as events come is read as yaml_serde reads it.
    fn same(text: &str) {
        assert_eq!(answer(documents(text)), answer(documents_buffered(text)), "{text:?}");
    }

    #[test]
    fn plain_scalars_read_as_yaml_serde_reads_them() {
        let scalars = [
            "",
            "~",
            "null",
            "Null",
            "NULL",
            "nULL",
            "true",
            "True",
            "TRUE",
            "tRUE",
            "false",
            "FALSE",
            "yes",
            "no",
            "on",
            "off",
            "y",
            "0x1F",
            "+0x1F",
            "0x-1",
            "0x+1",
            "-0x1F",
            "-0x-1",
            "0o17",
            "+0o17",
            "-0o17",
            "0o8",
            "0b101",
            "-0b101",
            "+0b101",
            "0b2",
            "0x",
            "0o",
            "0b",
            "+12",
            "-12",
            "++12",
            "+-12",
            "-+12",
            "--12",
            "012",
            "-012",
            "+012",
            "00",
            "0",
            "-0",
            "+0",
            "1.5",
            "1e3",
            "1E3",
            "-1.5e-3",
            "+1.5",
            "1.",
            ".5",
            "+.5",
            "-.5",
            ".",
            "e5",
            "1e",
            ".inf",
            ".Inf",
            ".INF",
            "-.inf",
            "-.Inf",
            "+.inf",
            "+.INF",
            ".nan",
            ".NaN",
            ".NAN",
            "-.nan",
            "+.nan",
            "NaN",
            "nan",
            "inf",
            "-inf",
            "infinity",
            "1e400",
            "-1e400",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "9223372036854775807",
            "9223372036854775808",
            "340282366920938463463374607431768211455",
            "340282366920938463463374607431768211456",
            "-170141183460469231731687303715884105729",
            "0xFFFFFFFFFFFFFFFFF",
            "-0x8000000000000001",
            "1_000",
            "1,000",
            "0.0",
            "-0.0",
            "01.5",
            "0012.5",
            "1:2",
            "2001-12-14",
            "é",
            "0x1F ",
            "- 1",
            "12 # comment",
        ];
        for scalar in scalars {
            same(&format!("v: {scalar}\n"));
            same(&format!("[{scalar}]\n"));
            same(&format!("{scalar}: k\n"));
        }
    }

    #[test]
    fn nodes_read_as_yaml_serde_reads_them() {
        let texts = [
            "a: 1\na: 2\nb: 3\n",
            "a: &x {k: [1, 'two', \"3\"]}\nb: *x\nc: [*x, *x]\n",
            "a: &x 1\nb: *x\na: &x 2\nc: *x\n",
            "&k a: b\nc: *k\n",
            "a: &x [*x]\n",
            "a: &x [1, {b: *x}]\n",
            "a: &x [&x 1, *x]\nb: *x\n",
            "a: &x {k: &x [2], l: *x}\nb: *x\n",
            "? [1]\n: x\n",
            "? {a: 1}\n: x\n",
            "*x: 1\n",
            "a: &x k\n*x : 1\n",
            "[1, 2]\n",
            "plain\n",
            "{}\n",
            "[]\n",
            "---\n---\na: 1\n...\n---\nb: 2\n",
            "---\na: 1\n---\n",
            "a: 1\n--- {garbage: [\n",
            "a: 1\n---\nb: *missing\n---\nc: 3\n",
            "a:\n  b: c\n d: e\n",
            "# only a comment\n",
            "---\n",
            "a: !!binary aGVsbG8=\n",
            "a: !!str 5\nb: !!int '7'\nc: !!float 1\nd: !!null ''\ne: !!bool yes\n",
            "a: !custom x\n",
            "a: ! x\n",
            "a: !custom [1]\n",
            "!!map {a: 1}\n",
            "!!str k: v\n",
            "b: &b\n  <<: {x: 1}\nc:\n  <<: *b\n  y: 2\n",
            "a: |\n  literal\n  text\nb: >\n  folded\n  text\nc: 'single'\nd: \"dou\\tble\\u00e9\"\n",
            "a: \"\\xff\"\n",
            "- a\n- - b\n  - c\n- {d: e}\n",
            "%YAML 1.2\n---\na: 1\n",
            "%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n",
            "a: 1\n...\n",
            "a: 1\nb",
            "a: [1, 2\n",
            "\u{feff}a: 1\n",
            "a: 18446744073709551616\nb: 1\n",
        ];
        for text in texts {
            same(text);
        }
    }

    /// Aliases nested past yaml_serde's 128 levels (each text nests 64 at most): its error, from it.
    #[test]
    fn nesting_past_yaml_serde_s_limit_through_aliases_reads_as_its_error() {
        let deep = |n: usize, inner: &str| format!("{}{inner}{}", "[".repeat(n), "]".repeat(n));
        for (outer, inner) in [(60, 60), (64, 64), (64, 65), (63, 64), (1, 127), (2, 127)] {
            let text = format!("a: &a {}\nb: {}\n", deep(inner.min(63), "1"), deep(outer.min(63), "*a"));
            same(&text);
        }
        let text = format!("a: &a {}\nb: &b {}\nc: {}\n", deep(50, "1"), deep(50, "*a"), deep(50, "*b"));
        same(&text);
    }
}

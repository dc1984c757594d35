//! Each document's tree built from the parser's events as they come (`events.rs`), against the
//! input's budget, so a document's events are never held all at once beside its tree (issue 36:
//! yaml_serde held 100.7 MB of events beside a 75.5 MB tree on dense-at-the-limit).
//!
//! The tree is the one `input::documents` built from yaml_serde (0.10.7, `de.rs`): the same
//! scalars read as the same values, tags as yaml_serde reads them (`events::Tag`), a repeated
//! key's last value in its first place; but an alias as a copy of what the YAML spec names, the
//! latest node before it with its anchor's name, as go-yaml reads it (kubectl, the API server),
//! where yaml_serde can name a later node (`serde_aliases.rs`). Whatever that reading would meet
//! an error on or treat apart (a local tag, a key that is not a scalar, an alias as a key,
//! nesting past yaml_serde's 128 levels, a number past 64 bits, the parser's own errors), and
//! any count of the budget that would run out, is not read here: the document is handed back
//! (`Fallback`) to be read by yaml_serde, whose errors and refusals are the reader's, unless it
//! would read an alias otherwise (`input::InputError::AnchorReused`). So this reads the documents
//! yaml_serde reads without error, as it reads them but for such aliases, and no others.

use super::anchors::AliasesWritten;
use super::events::{Event, Events, Tag};
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
    /// A finished node: its tree, kept while an alias of it may come (`None` once none can, or
    /// the last took it), what reading it again costs, and how deep it nests.
    Done { value: Option<Value>, cost: Counts, height: usize },
}

impl Anchored {
    /// A finished node named `name`: its tree is copied only if an alias of that name may come.
    fn done(name: &[u8], value: &Value, cost: Counts, height: usize, written: Option<&AliasesWritten>) -> Anchored {
        let none_to_come = written.is_some_and(|written| written.left(name) == Some(0));
        Anchored::Done { value: (!none_to_come).then(|| value.clone()), cost, height }
    }
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

/// The lists of [`FEW`] entries that maps read so far have given back, empty, for the next maps
/// to fill: a list of 16 entries is 1.7 KB, past glibc's per-thread cache of freed blocks (1,032
/// bytes), and making one for each of the 13,860 maps of make bench's 1 MB manifest, freed once
/// the map was made, took 11.1M instructions in malloc alone. At most one list is kept for each
/// map open at once (a document nests 128 deep at most).
#[derive(Default)]
struct SpareLists(Vec<Vec<(String, Value)>>);

impl SpareLists {
    /// An empty list with room for [`FEW`] entries.
    fn take(&mut self) -> Vec<(String, Value)> {
        self.0.pop().unwrap_or_else(|| Vec::with_capacity(FEW))
    }

    /// The map of `few`'s entries (`map_of`); the list, emptied, is kept for the next map.
    fn map_of(&mut self, mut few: Vec<(String, Value)>) -> Map<String, Value> {
        let map = map_of(few.drain(..));
        self.0.push(few);
        map
    }
}

impl Entries {
    fn new(spare: &mut SpareLists) -> Entries {
        Entries::Few(spare.take())
    }

    fn insert(&mut self, key: String, value: Value, spare: &mut SpareLists) {
        match self {
            Entries::Few(few) if few.len() < FEW => few.push((key, value)),
            Entries::Few(few) => {
                let mut map = spare.map_of(std::mem::take(few));
                map.insert(key, value);
                *self = Entries::Many(map);
            }
            Entries::Many(map) => {
                map.insert(key, value);
            }
        }
    }

    fn into_map(self, spare: &mut SpareLists) -> Map<String, Value> {
        match self {
            Entries::Few(few) => spare.map_of(few),
            Entries::Many(map) => map,
        }
    }
}

/// A map of `entries`, with room for them alone; a repeated key's last value in its first place
/// (`Map::insert`, as yaml_serde reads it).
fn map_of(entries: impl ExactSizeIterator<Item = (String, Value)>) -> Map<String, Value> {
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
    /// The aliases of each name that may still come (`anchors.rs`), for a whole tree.
    written: Option<AliasesWritten>,
    /// Entry lists for the maps of every document to come.
    spare: SpareLists,
}

impl<'text> Reader<'text> {
    pub(super) fn new(text: &'text str) -> Reader<'text> {
        Reader::of_events(Events::new(text), true, Some(AliasesWritten::of(text)))
    }

    /// [`Reader::new`] of a text given to it, which the parser frees as it passes it
    /// ([`Events::given`]).
    pub(super) fn given(text: String) -> Reader<'static> {
        let written = Some(AliasesWritten::of(&text));
        Reader::of_events(Events::given(text), true, written)
    }

    /// A reader of `events` from the stream's start (the one constructor the others share).
    fn of_events(events: Events<'text>, whole: bool, written: Option<AliasesWritten>) -> Reader<'text> {
        Reader { events, any: false, whole, written, spare: SpareLists::default() }
    }

    /// A reader of each document's outline: its root's own members (a scalar as the whole tree
    /// reads it, a list or map empty), read from the same events against the same budget,
    /// spending it as the whole tree does and falling back where it does. What the door's first
    /// read needs (which documents refuse the input, which are empty, what each one's `kind`
    /// is) without the tree of a single job (issue 36).
    pub(super) fn outline(text: &'text str) -> Reader<'text> {
        Reader::of_events(Events::new(text), false, None)
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
                    // A key reads as its text whatever its tag (yaml_serde's `deserialize_str`).
                    Event::Scalar { anchor, text: Some(text), .. } => {
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
                Event::Scalar { anchor, tag, plain, text: Some(text) } => {
                    let start = counts(budget);
                    let value = scalar(tag, plain, text).ok_or(Fallback)?;
                    match &value {
                        Value::String(text) => spend(budget, text.len())?,
                        _ => budget_value(budget)?,
                    }
                    if let Some(name) = anchor {
                        let cost = spent(start, counts(budget));
                        let anchored = Anchored::done(&name, &value, cost, 0, self.written.as_ref());
                        anchors.insert(name, anchored);
                    }
                    (value, 0)
                }
                Event::Alias(_) if !aliases => return Err(Fallback),
                Event::Alias(name) => {
                    let Some(Anchored::Done { value: Some(value), cost, height }) = anchors.get(&name) else {
                        return Err(Fallback);
                    };
                    let (cost, height) = (*cost, *height);
                    if stack.len() + height > YAML_SERDE_DEPTH {
                        return Err(Fallback);
                    }
                    charge(budget, cost)?;
                    // The last alias of its name takes the node itself: no other can follow.
                    let last = self.written.as_mut().is_some_and(|written| {
                        written.met(&name);
                        written.left(&name) == Some(0)
                    });
                    let value = if last {
                        match anchors.insert(name, Anchored::Done { value: None, cost, height }) {
                            Some(Anchored::Done { value: Some(value), .. }) => value,
                            _ => return Err(Fallback),
                        }
                    } else {
                        value.clone()
                    };
                    (value, height)
                }
                Event::SequenceStart { ref mut anchor, tag: Tag::None | Tag::Global }
                | Event::MappingStart { ref mut anchor, tag: Tag::None | Tag::Global } => {
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
                        Node::Map(Entries::new(&mut self.spare), None)
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
                        Node::Map(entries, None) => Value::Object(entries.into_map(&mut self.spare)),
                        Node::Map(_, Some(_)) => return Err(Fallback),
                    };
                    let height = frame.height + 1;
                    // Unless a node inside it took its anchor's name since (an alias then names
                    // that one).
                    if let Some((name, start)) = frame.anchor {
                        if let Some(anchored @ Anchored::Open) = anchors.get_mut(&name) {
                            let cost = spent(start, counts(budget));
                            *anchored = Anchored::done(&name, &value, cost, height, self.written.as_ref());
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
                        entries.insert(key, value, &mut self.spare);
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

/// A scalar as yaml_serde reads it into a value (`de.rs` `visit_scalar`): by its tag, else a
/// plain one by its text (`plain_scalar`), else as text. `None` where yaml_serde meets an error
/// (text its tag does not read, a local tag) or reads a number past 64 bits.
fn scalar(tag: Tag, plain: bool, text: String) -> Option<Value> {
    match tag {
        Tag::Null => is_null(&text).then_some(Value::Null),
        Tag::Bool => boolean(&text).map(Value::Bool),
        Tag::Int => integer(&text),
        Tag::Float => float(&text).map(|x| Number::from_f64(x).map_or(Value::Null, Value::Number)),
        Tag::Global => Some(Value::String(text)),
        Tag::Local => None,
        Tag::None if plain => plain_scalar(text),
        Tag::None => Some(Value::String(text)),
    }
}

/// A plain (unquoted, untagged) scalar as yaml_serde reads it into a value (`de.rs`
/// `visit_untagged_scalar`): null, a boolean, an integer, a float, or else text. `None` for an
/// integer past 64 bits, which yaml_serde hands on as 128 bits (left to it).
fn plain_scalar(text: String) -> Option<Value> {
    if text.is_empty() || is_null(&text) {
        return Some(Value::Null);
    }
    if let Some(b) = boolean(&text) {
        return Some(Value::Bool(b));
    }
    if let Some(n) = integer(&text) {
        return Some(n);
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

fn boolean(text: &str) -> Option<bool> {
    match text {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// An integer of 64 bits (yaml_serde's `visit_int`, its first two forms).
fn integer(text: &str) -> Option<Value> {
    if let Some(n) = unsigned(text, u64::from_str_radix) {
        return Some(Value::Number(n.into()));
    }
    negative(text, i64::from_str_radix).map(|n| Value::Number(n.into()))
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
            "!custom j: w\n!!int 1: v\n",
            "a: !!null\nb: !!str\nc: !!int 012\nd: !!float 012\ne: !!bool True\nf: !!null ~\n",
            "a: !!int\n",
            "a: !!null ''\n",
            "a: !!float x\n",
            "a: !!bool yes\n",
            "a: !!int 18446744073709551616\n",
            "a: !!int -0x1F\nb: !!float .NaN\nc: !!float -.inf\nd: !!float 1e400\ne: !!int \"7\"\n",
            "a: !!map {b: 1}\nc: !!seq [1]\nd: !!str [1]\ne: !!timestamp 2001-12-14\nf: !<tag:yaml.org,2002:int> 3\n",
            "a: &x !!str 5\nb: *x\nc: &y !!map {k: !!float 2}\nd: [*y, *x]\n",
            "a: !<!x> 1\n",
            "- !x [1]\n",
            "- !x {a: 1}\n",
        ];
        for text in texts {
            same(text);
        }
    }

    /// Each map is made of its own entries alone, though the lists they are read into are handed
    /// from one map to the next (`SpareLists`): maps side by side, inside one another, in lists,
    /// past `FEW` entries, and in document after document read as yaml_serde reads them (red with
    /// a list handed on as it was, not emptied).
    #[test]
    fn maps_read_one_after_another_hold_their_own_entries() {
        let many: String = (0..super::FEW + 4).map(|i| format!("k{i}: {i}\n")).collect();
        let nested: String = many.lines().map(|line| format!("  {line}\n")).collect();
        let texts = [
            "a: {b: 1, c: {d: 2}}\ne: {f: 3}\ng: [{h: 4}, {i: 5, j: 6}, {}]\n".to_string(),
            format!("a: 1\n---\n{many}---\nb: {{c: 1}}\n---\n{many}"),
            format!("m:\n{nested}n: {{o: 1}}\np:\n{nested}"),
            format!("- {{a: 1}}\n- m:\n  {}\n- {{b: 2}}\n", nested.trim_start()),
        ];
        for text in &texts {
            same(text);
        }
    }

    /// The JSON text of each document `documents` reads from `text`.
    fn read(text: &str) -> Vec<String> {
        let docs = documents(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        docs.iter().map(|doc| serde_json::to_string(doc.value.as_ref().expect("read")).expect("JSON")).collect()
    }

    /// An alias reads as the latest node before it with its anchor's name, as the YAML spec and
    /// go-yaml read it (sigs.k8s.io/yaml v1.4.0's `YAMLToJSON`: `{"a":"1","b":"2","c":"2","d":"3"}`),
    /// with a tag anywhere in the document too: yaml_serde, which read every document with a tag
    /// before, reads `c` as "3" (red before: `!!str` left the document to it).
    #[test]
    fn an_alias_reads_as_the_latest_anchor_before_it_with_a_tag_too() {
        let aliases = "a: &x \"1\"\nb: &x \"2\"\nc: *x\nd: &y \"3\"\n";
        for tag in ["", "t: !!str tagged\n", "t: !!int 1\n", "t: !!map {}\n", "t: !!binary aGVsbG8=\n"] {
            let text = format!("{tag}{aliases}");
            let json = &read(&text)[0];
            assert!(json.ends_with(r#""a":"1","b":"2","c":"2","d":"3"}"#), "{text:?}: {json}");
        }
        let lists = "a: &x [1]\nb: &x !!seq [2]\nc: *x\nd: &y [3]\ne: &z !!map {k: &x 4}\nf: *x\ng: *z\n";
        assert_eq!(read(lists), [r#"{"a":[1],"b":[2],"c":[2],"d":[3],"e":{"k":4},"f":4,"g":{"k":4}}"#]);
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

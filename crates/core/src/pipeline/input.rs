//! Reading untrusted YAML: limits first, then parsing, one document at a time.

use super::events::Events;
use super::serde_aliases::Aliases;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::fmt;

/// Larger input is refused before parsing. A 1 MB manifest must convert; 4 MiB leaves room.
pub const MAX_INPUT_BYTES: usize = 4 * 1024 * 1024;
/// Deeper nesting is refused before parsing. Kubernetes objects nest about 20 levels deep.
pub const MAX_DEPTH: usize = 64;
/// More documents than this in one stream are refused.
pub const MAX_DOCUMENTS: usize = 10_000;
/// Bytes of input per value (scalar, list or map) a stream may read as, aliases (`*name`)
/// counted as what they repeat. Each value costs memory (a tree node of 72 bytes, the parser's
/// event of about 96 beside it, then the models, the report and the output built from it), so the
/// count, not the text, bounds what a command uses: at one value per 10 bytes the tree alone is
/// 7.2 times the input, under issue 36's 10 (at one per 8 it was 9 times, and every command
/// peaked at 11.7-16.8 times the input on dense-at-the-limit). Real manifests are written with 16
/// bytes a value or more (issue 36, measured on every input we have: `../shared/real-v1` 24-45,
/// the reference's V1 and V2 examples and runtimes 20 or more, the conformance cases 21.7 or more,
/// the tests' fixtures 16.6 or more; the same jobs as one-line JSON 13 or more): one value per 10
/// bytes leaves the real YAML twice the room it needs (migrate-wasm's test
/// `every_real_input_reads_as_at_most_half_its_value_budget`), and a file written denser (a flow
/// list of numbers is 2 bytes a value) or a few kilobytes of aliases standing for a million
/// values are refused.
pub const BYTES_PER_VALUE: usize = 10;
/// Values a stream may read as beyond one per [`BYTES_PER_VALUE`] bytes: room for a small file's
/// dense lists and the anchors people write to keep two replicas alike (a 2 KB job whose pod
/// template is named by three aliases reads as about 300 values).
pub const EXPANSION_MARGIN: usize = 1024;
/// The most values a stream may read as: those of an input at the size limit.
pub const MAX_VALUES: usize = MAX_INPUT_BYTES / BYTES_PER_VALUE + EXPANSION_MARGIN;
/// Characters of text (strings and keys) a stream may read as beyond its size in bytes, aliases
/// counted as what they repeat: plain YAML never reads as more than its size.
pub(crate) const TEXT_MARGIN: usize = 8 * EXPANSION_MARGIN;
/// The most characters a stream may read as: the input limit.
pub(crate) const MAX_TEXT: usize = MAX_INPUT_BYTES;
/// Keys and values a document may read as per node written in it (an alias counted once, as
/// written), so that its aliases stop in our reader before the parser's own limit: yaml_serde
/// (0.10.7, `de.rs` `jump`) refuses a document once it has followed more than 100 aliases per
/// event of it. Each alias it follows yields a key or a value, read and counted before it
/// follows the next, and a document has at least one event per node written (counted from its
/// text, `written.rs`, a lower bound), so 99 reads a node leave its limit one alias per node
/// out of reach.
pub const READS_PER_NODE: usize = 99;

/// How many values, and how many characters, a stream of `bytes` bytes may read as: one value
/// per [`BYTES_PER_VALUE`] bytes plus [`EXPANSION_MARGIN`], and its size plus [`TEXT_MARGIN`]
/// characters (at most [`MAX_TEXT`]). What aliases expand to counts against it, so a small input
/// stays small in memory (issue 36: 3.7 KB of aliases read as 518,400 values and took 119-151
/// MiB), and so does a dense one (a 1 MB flow list of 520,000 numbers took 100-125 MiB).
pub fn read_budget(bytes: usize) -> (usize, usize) {
    let values = (bytes / BYTES_PER_VALUE).saturating_add(EXPANSION_MARGIN);
    (values.min(MAX_VALUES), bytes.saturating_add(TEXT_MARGIN).min(MAX_TEXT))
}

/// One document of the stream: where it starts, and its value or why it could not be read.
pub struct RawDoc {
    /// Its position in the stream (1-based; a leading empty document is not counted).
    pub index: usize,
    /// The line it starts on (1-based).
    pub line: usize,
    /// Its value, or the parser's error.
    pub value: Result<Value, YamlError>,
}

/// A document the YAML parser could not read: the parser's own error, shared (not copied) by the
/// outcomes that report it. Its text (`Display`) is the parser's.
#[derive(Clone, Debug)]
pub struct YamlError(std::sync::Arc<serde_yaml::Error>);

impl YamlError {
    /// Where the parser stopped, when it knows.
    pub fn location(&self) -> Option<serde_yaml::Location> {
        self.0.location()
    }
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for YamlError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.0)
    }
}

/// Why the input door refused a whole input. Its text (`Display`) is what every command prints.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputError {
    /// Larger than [`MAX_INPUT_BYTES`]: its real size, not what was read of it; `more` when the
    /// size is only known to be larger (a stream that did not end).
    TooLarge {
        /// The size in bytes.
        size: u64,
        /// Whether it is only known to be larger.
        more: bool,
    },
    /// Bytes that are not UTF-8: where the first one is (1-based line and column in
    /// characters; its 0-based byte offset).
    NotUtf8 {
        /// The line (1-based).
        line: usize,
        /// The column, in characters (1-based).
        column: usize,
        /// The byte's offset (0-based).
        byte: usize,
    },
    /// Nothing but white space.
    Empty,
    /// A control character other than a line break or a tab, where it is (1-based).
    ControlCharacter {
        /// The line (1-based).
        line: usize,
        /// The column, in characters (1-based).
        column: usize,
    },
    /// Nesting deeper than [`MAX_DEPTH`]: the line, and the column of the flow bracket past it
    /// (`None` for block indentation).
    TooDeep {
        /// The line (1-based).
        line: usize,
        /// The column of the flow bracket past the limit; `None` for block indentation.
        column: Option<usize>,
    },
    /// A document that reads as more values or characters than the input's budget
    /// ([`read_budget`]): its number (1-based) and first line, and the input's size in bytes.
    PastTheBudget {
        /// The document's number (1-based).
        document: usize,
        /// The line it starts on.
        line: usize,
        /// The input's size in bytes.
        bytes: usize,
    },
    /// A document whose aliases repeat more than the YAML parser follows: it reads as more keys
    /// and values than [`READS_PER_NODE`] for each node counted in its text. Its number
    /// (1-based) and first line, and the nodes counted.
    TooManyRepeats {
        /// The document's number (1-based).
        document: usize,
        /// The line it starts on.
        line: usize,
        /// The nodes counted in its text (each alias once).
        nodes: usize,
    },
    /// A document that gives an anchor's name to two nodes and that only the YAML parser reads
    /// (a local tag such as `!x`, a key that is not plain text), which would read an alias of
    /// that name as another node than the YAML spec and the API server name (the latest before
    /// it): its number (1-based), first line and the alias's name.
    AnchorReused {
        /// The document's number (1-based).
        document: usize,
        /// The line it starts on.
        line: usize,
        /// The alias's name (`*name`).
        name: String,
    },
    /// More than [`MAX_DOCUMENTS`] documents.
    TooManyDocuments,
    /// Only empty documents (`---` alone, or comments).
    NoDocuments,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            InputError::TooLarge { size, more } => {
                let than = if more { "more than " } else { "" };
                write!(f, "input is {than}{size} bytes; the limit is {MAX_INPUT_BYTES} bytes (split the file)")
            }
            InputError::NotUtf8 { line, column, byte } => {
                write!(f, "binary data at line {line} column {column} (byte {byte} is not UTF-8): expected YAML text")
            }
            InputError::Empty => f.write_str("input is empty: expected one or more YAML documents"),
            InputError::ControlCharacter { line, column } => {
                write!(f, "binary data at line {line} column {column}: expected YAML text")
            }
            InputError::TooDeep { line, column: None } => {
                write!(f, "nesting deeper than {MAX_DEPTH} levels at line {line}")
            }
            InputError::TooDeep { line, column: Some(column) } => {
                write!(f, "nesting deeper than {MAX_DEPTH} levels at line {line} column {column}")
            }
            InputError::PastTheBudget { document, line, bytes } => {
                let (values, characters) = read_budget(bytes);
                write!(
                    f,
                    "document {document} (line {line}) reads as more than the input limit holds: aliases (*name) \
                     count as what they repeat, and an input of {bytes} bytes may read as at most {values} values \
                     and {characters} characters (a value per {BYTES_PER_VALUE} bytes plus {EXPANSION_MARGIN}, and its \
                     size plus {TEXT_MARGIN} characters): write the repeated parts out, or split it into smaller \
                     documents"
                )
            }
            InputError::TooManyRepeats { document, line, nodes } => write!(
                f,
                "document {document} (line {line}) repeats its aliases (*name) more than the YAML parser follows: it \
                 reads as more than {} keys and values, {READS_PER_NODE} for each of the {nodes} nodes counted in its \
                 text: write the repeated parts out",
                nodes.saturating_mul(READS_PER_NODE)
            ),
            InputError::AnchorReused { document, line, ref name } => write!(
                f,
                "document {document} (line {line}) gives the anchor name &{name} to more than one node, and the \
                 YAML parser its other forms need would read an alias *{name} as a node after the one the API \
                 server reads (the latest &{name} before it): give each anchor its own name"
            ),
            InputError::TooManyDocuments => write!(f, "more than {MAX_DOCUMENTS} documents: split the input"),
            InputError::NoDocuments => f.write_str("no YAML documents found"),
        }
    }
}

impl std::error::Error for InputError {}

/// The refusal of input of `size` bytes, over the limit: its real size, not what was read of it.
pub fn too_large(size: u64) -> InputError {
    InputError::TooLarge { size, more: false }
}

/// Bytes handed to a command (a file, standard input) as text: first the limit, on the whole
/// size, then UTF-8, judged on the whole input, so a character the limit would cut is never
/// called binary. A caller that stopped reading past the limit names the real size with
/// [`too_large`] instead.
pub fn text_of(bytes: &[u8]) -> Result<&str, InputError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let before = String::from_utf8_lossy(&bytes[..at]);
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        InputError::NotUtf8 {
            line: before.matches('\n').count() + 1,
            column: before[line_start..].chars().count() + 1,
            byte: at,
        }
    })
}

/// Checks that apply to the whole input, before any parsing. The nesting's is not among them:
/// `open` checks it ([`Depth`]) on the lines the scan after them splits the text into.
fn precheck(text: &str) -> Result<(), InputError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(too_large(text.len() as u64));
    }
    if text.trim().is_empty() {
        return Err(InputError::Empty);
    }
    if let Some((line, col)) = first_control_character(text) {
        return Err(InputError::ControlCharacter { line, column: col });
    }
    Ok(())
}

/// Line and column (1-based, in characters) of the first control character other than a line
/// break or tab. Scans bytes, not characters: a C0 control or DEL is one byte, and a C1 control
/// (U+0080 to U+009F) is the two bytes C2 80 to C2 9F.
fn first_control_character(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    // Only a C2 needs the byte after it.
    let control = |at: usize| bytes[at] != 0xc2 || matches!(bytes.get(at + 1), Some(0x80..=0x9f));
    let mut from = 0;
    let at = loop {
        let at = next_may_be_control(bytes, from)?;
        if control(at) {
            break at;
        }
        from = at + 1;
    };
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    Some((before.matches('\n').count() + 1, text[line_start..at].chars().count() + 1))
}

/// The place of the first byte at or after `from` that may be a control character
/// (`MAY_BE_CONTROL`). Eight bytes' look-ups are or-ed and tested once: a byte at a time, the
/// test and its branch cost more than the look-up.
fn next_may_be_control(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let mut clean = 0;
    for chunk in rest.chunks_exact(8) {
        if chunk.iter().fold(false, |any, &b| any | MAY_BE_CONTROL[usize::from(b)]) {
            break;
        }
        clean += 8;
    }
    rest[clean..].iter().position(|&b| MAY_BE_CONTROL[usize::from(b)]).map(|n| from + clean + n)
}

/// The bytes that may be a control character: a C0 control other than a line break or tab,
/// DEL, and C2, the first byte of a C1 control (and of U+00A0 to U+00BF, which are none).
const MAY_BE_CONTROL: [bool; 256] = {
    let mut may = [false; 256];
    let mut b = 0;
    while b < 256 {
        may[b] = matches!(b as u8, 0..=0x1f | 0x7f | 0xc2) && !matches!(b as u8, b'\n' | b'\r' | b'\t');
        b += 1;
    }
    may
};

/// The bytes `depth_check` acts on within a line: a comment's start, quotes, flow brackets.
const DEPTH_BYTES: [bool; 256] = crate::text::byte_set(b"#\"'[{]}");

/// Bounds nesting without parsing: block indentation (in steps of the smallest indent seen)
/// and flow brackets outside quotes, line by line ([`Depth::line`]), the first line too deep
/// refused. Scans bytes: every character it looks for is ASCII, and no byte of a multi-byte
/// character is.
#[derive(Default)]
struct Depth {
    /// The flow brackets open after the lines seen so far.
    flow: usize,
}

impl Depth {
    /// Line `n` (0-based, as `str::lines` yields them) of the text, after every line before it.
    fn line(&mut self, n: usize, line: &str) -> Result<(), InputError> {
        // By bytes (both are ASCII): `trim_start_matches` decoded each as a character.
        let indent = line.bytes().take_while(|&b| b == b' ' || b == b'-').count();
        // Two columns per level is the tightest YAML nesting a person writes ("- - - x" counts too).
        if indent / 2 > MAX_DEPTH {
            return Err(InputError::TooDeep { line: n + 1, column: None });
        }
        let mut quote: Option<u8> = None;
        // The other bytes change nothing: skipped by one table look-up each.
        for (at, &c) in line.as_bytes().iter().enumerate().filter(|&(_, &c)| DEPTH_BYTES[usize::from(c)]) {
            match (quote, c) {
                (None, b'#') => break,
                (None, b'"' | b'\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, b'[' | b'{') => {
                    self.flow += 1;
                    if self.flow > MAX_DEPTH {
                        return Err(InputError::TooDeep { line: n + 1, column: Some(line[..at].chars().count() + 1) });
                    }
                }
                (None, b']' | b'}') => self.flow = self.flow.saturating_sub(1),
                _ => {}
            }
        }
        Ok(())
    }
}

/// The line each document starts on (1-based), from the `---` separators (`written::scan` finds
/// them as it counts the documents' values).
pub(super) fn start_lines(text: &str) -> Vec<usize> {
    super::written::scan(text, usize::MAX).starts
}

/// Parses every document. A document that fails to parse is reported and, where the parser can
/// resynchronise, the following ones are still read. Holds every document's tree at once: a
/// caller that answers one document at a time reads them with [`each_document`].
pub fn documents(text: &str) -> Result<Vec<RawDoc>, InputError> {
    read_documents(text, true)
}

/// [`documents`] read by yaml_serde alone, as before each document's tree was built from the
/// parser's events as they come: the answer the streaming reader is held to (the door's fuzz
/// target, the tests), but for a document whose aliases yaml_serde reads otherwise than the
/// YAML spec, which it refuses ([`InputError::AnchorReused`]) where the streaming reader may read
/// it. Not for a command: it holds a whole document's events beside its tree.
#[doc(hidden)]
pub fn documents_buffered(text: &str) -> Result<Vec<RawDoc>, InputError> {
    read_documents(text, false)
}

/// An input the door has read through and accepted: its documents, handed on one at a time by
/// [`Accepted::documents`].
pub struct Accepted(Held);

/// What an accepted input holds until its documents are handed on.
enum Held {
    /// Its documents, read already (an input written as one document).
    Read(Vec<RawDoc>),
    /// What the checks before the parser found in its text, which is read again: the text's
    /// place and length, to know it again.
    Again { found: Found, text: (usize, usize) },
}

/// Reads `text` through the door: refused (size, UTF-8, nesting, aliases, documents) with the
/// same error as [`documents`], before any document is handed on, even when what is refused comes
/// after thousands of documents. On the way, each document's outline is handed to `outline`: its
/// root's own members as [`documents`] reads them, a list or map among them empty (or more: the
/// whole tree), for a caller that must know what the input holds before it answers its first
/// document. They are handed on before the input is accepted: keep nothing of them when it is
/// not.
///
/// An input written as one document is read once, whole, and held (the tree [`documents`]
/// holds). Any other is read through in outline (the parser's events, against the same budget,
/// no tree below each root), and its documents are read again when [`Accepted::documents`] hands
/// them on, each tree built when its turn comes and the caller's to drop: 10,000 jobs are never
/// held as 10,000 trees (issue 36: 35 MB of trees for a 4 MiB input).
pub fn accept(text: &str, outline: impl FnMut(&RawDoc)) -> Result<Accepted, InputError> {
    accepted(text, Some(outline))
}

/// [`accept`], with no outline to hand on when `outline` is `None`: then a text that proves it
/// meets no refusal (`unrefusable.rs`) is not read through first.
fn accepted(text: &str, outline: Option<impl FnMut(&RawDoc)>) -> Result<Accepted, InputError> {
    accepted_opened(open(text)?, outline)
}

/// [`accepted`] of a text through the checks before the parser.
fn accepted_opened(opened: Opened<'_>, mut outline: Option<impl FnMut(&RawDoc)>) -> Result<Accepted, InputError> {
    let text = opened.text;
    // The scan counts at least the documents the parser yields: one at most needs no second read.
    if opened.found.nodes.len() <= 1 {
        let docs = collected(Stream::new(opened, Reading::Events))?;
        if let Some(outline) = outline {
            docs.iter().for_each(outline);
        }
        return Ok(Accepted(Held::Read(docs)));
    }
    let (values, _) = read_budget(text.len());
    let again = Held::Again { found: opened.found.clone(), text: place_of(text) };
    if outline.is_none() && super::unrefusable::unrefusable(text, &opened.found.nodes, values) {
        return Ok(Accepted(again));
    }
    let mut read = 0;
    for doc in Stream::new(opened, Reading::Outline) {
        let doc = doc?;
        if let Some(outline) = &mut outline {
            outline(&doc);
        }
        read += 1;
    }
    if read == 0 {
        return Err(InputError::NoDocuments);
    }
    Ok(Accepted(again))
}

/// Where a text is and how long: the same text, unchanged while borrowed, is at the same place.
fn place_of(text: &str) -> (usize, usize) {
    (text.as_ptr() as usize, text.len())
}

impl Accepted {
    /// Whether [`Accepted::documents`] reads the text again: else its caller may drop it now.
    pub fn reads_the_text_again(&self) -> bool {
        matches!(self.0, Held::Again { .. })
    }

    /// The documents of `text`, the text [`accept`] accepted, as [`documents`] reads them, handed
    /// on one at a time. Another text is read through the door again (none, if it refuses it).
    pub fn documents(self, text: &str) -> Documents<'_> {
        Documents(match self.0 {
            Held::Read(docs) => Handed::Read(docs.into_iter()),
            Held::Again { found, text: place } if place == place_of(text) => {
                Handed::Reading(Box::new(Stream::new(Opened { text, found }, Reading::Events)))
            }
            Held::Again { .. } => match accept(text, |_| {}) {
                Ok(accepted) => return accepted.documents(text),
                Err(_) => Handed::Read(Vec::new().into_iter()),
            },
        })
    }
}

/// [`accept`]'s documents, as [`documents`] reads them, handed on one at a time.
pub fn each_document(text: &str) -> Result<Documents<'_>, InputError> {
    Ok(accept_documents(text)?.documents(text))
}

/// [`accept`] for a caller that needs no outline: a text that proves it meets no refusal is not
/// read through first. A caller that holds the text can drop it at once when the answer does not
/// read it again ([`Accepted::reads_the_text_again`]).
pub fn accept_documents(text: &str) -> Result<Accepted, InputError> {
    accepted(text, None::<fn(&RawDoc)>)
}

/// What the door made of a text handed to it ([`accept_given`], [`accept_given_documents`]).
pub enum Given {
    /// Accepted as [`accept`] accepts it.
    Accepted {
        /// The text while `accepted` reads it again ([`Accepted::reads_the_text_again`]); `None`
        /// once freed (an input written as one document, freed as the parser passed it).
        text: Option<String>,
        /// What [`accept`] answers.
        accepted: Accepted,
    },
    /// Freed, but its document is one that only the whole text reads (yaml_serde's: an error, a
    /// local tag, a count run out; or none at all): read it again and hand it to [`accept`],
    /// which answers it (issue 36: such a document is rare, and its text is not held for it).
    Again,
}

/// [`accept`] of a text handed over, for a caller that can read it again: an input written as
/// one document is read with the text held in blocks and each freed once the parser has passed
/// it, so that the text is not held beside its tree (issue 36: 4 MiB at the peak of every
/// command on a 4 MiB job). The same refusals as [`accept`], and the same documents and outlines,
/// or [`Given::Again`].
pub fn accept_given(text: String, outline: impl FnMut(&RawDoc)) -> Result<Given, InputError> {
    given(text, Some(outline))
}

/// [`accept_given`] with no outline, as [`accept_documents`].
pub fn accept_given_documents(text: String) -> Result<Given, InputError> {
    given(text, None::<fn(&RawDoc)>)
}

fn given(text: String, outline: Option<impl FnMut(&RawDoc)>) -> Result<Given, InputError> {
    let opened = open(&text)?;
    // The scan counts at least the documents the parser yields (as in `accepted`): more are read
    // as `accept` reads them, from the text.
    if opened.found.nodes.len() > 1 {
        let accepted = accepted_opened(opened, outline)?;
        return Ok(Given::Accepted { text: Some(text), accepted });
    }
    let found = opened.found;
    let nodes = found.nodes.first().copied();
    let (values, characters) = read_budget(text.len());
    let budget = Budget::new(values, characters);
    budget.document(nodes.map_or(usize::MAX, |n| n.saturating_mul(READS_PER_NODE)));
    let mut reader = super::tree::Reader::given(text);
    // What `Stream` keeps of such a text: its one document, a tree, not empty, then the end.
    let value = match reader.document(&budget, nodes.is_some()) {
        Ok(super::tree::Read::Document(value)) if !value.is_null() => value,
        _ => return Ok(Given::Again),
    };
    if !matches!(reader.document(&budget, false), Ok(super::tree::Read::End)) {
        return Ok(Given::Again);
    }
    let line = found.starts.first().copied().unwrap_or(1);
    let doc = RawDoc { index: 1, line, value: Ok(value) };
    if let Some(mut outline) = outline {
        outline(&doc);
    }
    Ok(Given::Accepted { text: None, accepted: Accepted(Held::Read(vec![doc])) })
}

/// An accepted input's documents, one at a time ([`Accepted::documents`]).
pub struct Documents<'text>(Handed<'text>);

enum Handed<'text> {
    Read(std::vec::IntoIter<RawDoc>),
    /// Boxed: a stream is 240 bytes beside the documents' 32 (clippy's `large_enum_variant`).
    Reading(Box<Stream<'text>>),
}

impl Iterator for Documents<'_> {
    type Item = RawDoc;

    fn next(&mut self) -> Option<RawDoc> {
        match &mut self.0 {
            Handed::Read(docs) => docs.next(),
            // The same text read again reads the same: the refusal `accept` did not meet is not
            // met here either.
            Handed::Reading(stream) => match stream.next()? {
                Ok(doc) => Some(doc),
                Err(e) => {
                    debug_assert!(false, "an accepted input refused on its second read: {e}");
                    None
                }
            },
        }
    }
}

fn read_documents(text: &str, stream: bool) -> Result<Vec<RawDoc>, InputError> {
    let reading = if stream { Reading::Events } else { Reading::Serde };
    collected(Stream::new(open(text)?, reading))
}

/// Every document of `stream`, or its refusal.
fn collected(stream: Stream<'_>) -> Result<Vec<RawDoc>, InputError> {
    let out = stream.collect::<Result<Vec<_>, _>>()?;
    if out.is_empty() {
        return Err(InputError::NoDocuments);
    }
    Ok(out)
}

/// A text through the checks before the parser, with what they found.
#[derive(Clone)]
struct Opened<'text> {
    text: &'text str,
    found: Found,
}

/// What the checks before the parser found in a text.
#[derive(Clone)]
struct Found {
    /// Each document's first line (`start_lines`).
    starts: Vec<usize>,
    /// The nodes counted in each document's text (`written::scan`).
    nodes: Vec<usize>,
}

/// The checks before the parser: the whole text's (`precheck`), then its nesting's and what its
/// documents are written with.
fn open(text: &str) -> Result<Opened<'_>, InputError> {
    precheck(text)?;
    let (values, _) = read_budget(text.len());
    // Before the parser: yaml_serde holds every event of a document (about 130 bytes each)
    // before our budget sees the first value, and replays an anchor's for each alias, so a
    // document that is written with more values than the budget, or whose aliases repeat
    // more, is refused here, from its text (a 4 MiB flow list of numbers: 303 MiB before;
    // 4 MB of aliases of one 2 MB list: 94 MiB). The nesting is checked on each line the
    // scan splits the text into (every line, past a document over the budget too), not in a
    // pass of its own: a text too deep anywhere is refused so, whatever the scan found.
    let mut depth = Depth::default();
    let written = super::written::scan_checking(text, values, |n, line| depth.line(n, line))?;
    if let Some((i, skipped)) = written.over {
        // The scan stopped there: the document's line from a whole one.
        let line = start_lines(text).get(i).copied().unwrap_or(1);
        return Err(InputError::PastTheBudget { document: i + 1 - skipped, line, bytes: text.len() });
    }
    Ok(Opened { text, found: Found { starts: written.starts, nodes: written.nodes } })
}

/// How a [`Stream`] reads each document.
#[derive(Clone, Copy)]
enum Reading {
    /// Its tree, from the parser's events as they come (`tree.rs`).
    Events,
    /// Its outline, from the same events (`tree::Reader::outline`).
    Outline,
    /// Its tree, by yaml_serde from the first document (`documents_buffered`).
    Serde,
}

/// The documents of a text, read one at a time; the input's refusal, met partway, is the last
/// item.
struct Stream<'text> {
    budget: Budget,
    taken: Taken<'text>,
    /// The parser the next document is read by.
    reader: Parser<'text>,
    /// The next document's position, as the parser counts them (0-based).
    i: usize,
}

/// Each document is read from the parser's events as they come (`tree.rs`); one that reader
/// leaves to yaml_serde (a local tag, an error, a count run out) is read by yaml_serde from there
/// on, as every document was before: its errors and refusals are the reader's, but a document
/// whose aliases it would misread is refused (the same documents' events followed beside it,
/// `serde_aliases.rs`).
enum Parser<'text> {
    Events(super::tree::Reader<'text>),
    Serde(serde_yaml::Deserializer<'text>, Events<'text>),
    Done,
}

/// A document as the parser yields it: its value or the parser's error, or the name of an alias
/// yaml_serde would misread (`InputError::AnchorReused`).
enum Read {
    Value(Result<Value, serde_yaml::Error>),
    Misread(String),
}

/// yaml_serde's documents from the one numbered `i` (0-based) on, with the same documents' events.
fn serde_from(text: &str, i: usize) -> Option<Parser<'_>> {
    let mut serde = serde_yaml::Deserializer::from_str(text);
    let mut events = Events::new(text);
    // Both count the documents from the stream's start.
    for _ in 0..i {
        serde.next()?;
        super::serde_aliases::next_document(&mut events);
    }
    Some(Parser::Serde(serde, events))
}

impl<'text> Stream<'text> {
    fn new(opened: Opened<'text>, reading: Reading) -> Stream<'text> {
        let text = opened.text;
        let (values, characters) = read_budget(text.len());
        let reader = match reading {
            Reading::Events => Parser::Events(super::tree::Reader::new(text)),
            Reading::Outline => Parser::Events(super::tree::Reader::outline(text)),
            Reading::Serde => Parser::Serde(serde_yaml::Deserializer::from_str(text), Events::new(text)),
        };
        Stream {
            budget: Budget::new(values, characters),
            taken: Taken { opened, read: 0, skipped_leading_empty: 0 },
            reader,
            i: 0,
        }
    }

    /// The next document the parser yields, kept or not (`None` at the stream's end).
    fn next_read(&mut self) -> Option<(usize, Read, Option<usize>)> {
        let i = self.i;
        // A document the scan did not tell apart (the parser yielded more than it counted) is
        // read without the bound per node, so yaml_serde's own limit (following aliases: 100
        // per event of the document, which only a whole document's events tell) could come
        // first: its error is the document's, as any other. The event reader leaves one with
        // an alias to yaml_serde.
        let nodes = self.taken.opened.found.nodes.get(i).copied();
        self.budget.document(nodes.map_or(usize::MAX, |n| n.saturating_mul(READS_PER_NODE)));
        let value = loop {
            match &mut self.reader {
                Parser::Events(reader) => match reader.document(&self.budget, nodes.is_some()) {
                    Ok(super::tree::Read::Document(value)) => break Read::Value(Ok(value)),
                    Ok(super::tree::Read::End) => {
                        self.reader = Parser::Done;
                        return None;
                    }
                    Err(super::tree::Fallback) => self.reader = serde_from(self.taken.opened.text, i)?,
                },
                Parser::Serde(serde, events) => match serde.next() {
                    Some(doc) => match super::serde_aliases::next_document(events) {
                        Aliases::Misread(name) => break Read::Misread(String::from_utf8_lossy(&name).into_owned()),
                        Aliases::AsTheSpecReads | Aliases::End => break Read::Value(self.budget.read(doc)),
                    },
                    None => {
                        self.reader = Parser::Done;
                        return None;
                    }
                },
                Parser::Done => return None,
            }
        };
        self.i += 1;
        Some((i, value, nodes))
    }
}

impl Iterator for Stream<'_> {
    type Item = Result<RawDoc, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        while let Some((i, read, nodes)) = self.next_read() {
            let taken = match read {
                Read::Value(value) => self.taken.take(i, value, &self.budget, nodes),
                Read::Misread(name) => Err(self.taken.anchor_reused(i, name)),
            };
            // After a refusal, or a document that does not read (serde_yaml stops at the first
            // syntax error in a stream), nothing more is read. An empty document (`---` alone,
            // or comments) is skipped and the stream goes on, as kubectl reads it (cli-runtime
            // `v0.35.6:pkg/resource/visitor.go:601-603`: an empty or `null` document, `continue`).
            if matches!(taken, Err(_) | Ok(Some(RawDoc { value: Err(_), .. }))) {
                self.reader = Parser::Done;
            }
            if let Some(taken) = taken.transpose() {
                return Some(taken);
            }
        }
        None
    }
}

/// What the documents read so far tell the next.
struct Taken<'text> {
    opened: Opened<'text>,
    /// The documents kept so far.
    read: usize,
    skipped_leading_empty: usize,
}

impl Taken<'_> {
    /// The refusal of document `i` (0-based, as the parser counts them) for an alias named `name`
    /// that yaml_serde would misread.
    fn anchor_reused(&self, i: usize, name: String) -> InputError {
        let line = self.opened.found.starts.get(i).copied().unwrap_or(1);
        InputError::AnchorReused { document: i + 1 - self.skipped_leading_empty, line, name }
    }

    /// Document `i` (0-based, as the parser counts them), read with `nodes` counted in its text:
    /// kept, skipped when empty (`None`), or the refusal of the whole input its budget ran out on.
    fn take(
        &mut self,
        i: usize,
        value: Result<Value, serde_yaml::Error>,
        budget: &Budget,
        nodes: Option<usize>,
    ) -> Result<Option<RawDoc>, InputError> {
        let text = self.opened.text;
        let line = self.opened.found.starts.get(i).copied().unwrap_or(1);
        let document = i + 1 - self.skipped_leading_empty;
        match (value.is_err(), budget.ran_out()) {
            (true, Some(Limit::Input)) => return Err(InputError::PastTheBudget { document, line, bytes: text.len() }),
            (true, Some(Limit::Repeats)) => {
                return Err(InputError::TooManyRepeats { document, line, nodes: nodes.unwrap_or_default() })
            }
            _ => {}
        }
        let value = value.map_err(|e| YamlError(std::sync::Arc::new(e)));
        // A leading `---` yields an empty first document; it is not the reader's.
        if i == 0 && matches!(value, Ok(Value::Null)) && text.trim_start().starts_with("---") {
            self.skipped_leading_empty = 1;
            return Ok(None);
        }
        if matches!(value, Ok(Value::Null)) {
            return Ok(None);
        }
        // Counted as read, so a trailing `---` does not count as one more.
        if self.read >= MAX_DOCUMENTS {
            return Err(InputError::TooManyDocuments);
        }
        self.read += 1;
        Ok(Some(RawDoc { index: i + 1 - self.skipped_leading_empty, line, value }))
    }
}

/// Which count of the [`Budget`] ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Limit {
    /// The stream's values or characters ([`read_budget`]).
    Input,
    /// The document's keys and values, [`READS_PER_NODE`] per node written in it.
    Repeats,
}

/// Reads documents into JSON trees while counting the values and the characters they read as
/// (see `read_budget`), so aliases stop at the limit instead of filling memory, and each
/// document's keys and values (see [`READS_PER_NODE`]), so they stop before the parser's own
/// limit. The same trees as `serde_json::Value::deserialize` builds.
pub(super) struct Budget {
    values: Cell<usize>,
    text: Cell<usize>,
    /// The keys and values the document being read may still read as.
    reads: Cell<usize>,
    /// The count that ran out, once one has.
    ran_out: Cell<Option<Limit>>,
}

impl Budget {
    fn new(values: usize, characters: usize) -> Budget {
        Budget {
            values: Cell::new(values),
            text: Cell::new(characters),
            reads: Cell::new(usize::MAX),
            ran_out: Cell::new(None),
        }
    }

    /// A document starts: it may read as `reads` keys and values.
    fn document(&self, reads: usize) {
        self.reads.set(reads);
    }

    fn read<'de, D: de::Deserializer<'de>>(&self, doc: D) -> Result<Value, D::Error> {
        Tree(self).deserialize(doc)
    }

    fn ran_out(&self) -> Option<Limit> {
        self.ran_out.get()
    }

    /// What is left: the document's reads, the values, the characters.
    pub(super) fn left(&self) -> (usize, usize, usize) {
        (self.reads.get(), self.values.get(), self.text.get())
    }

    /// Back to what [`Budget::left`] gave, no count run out.
    pub(super) fn restore(&self, reads: usize, values: usize, text: usize) {
        self.reads.set(reads);
        self.values.set(values);
        self.text.set(text);
        self.ran_out.set(None);
    }

    /// Spends `reads`, `values` and `text` at once, if all three are left (else nothing).
    pub(super) fn spend_all(&self, reads: usize, values: usize, text: usize) -> bool {
        let (Some(r), Some(v), Some(t)) = (
            self.reads.get().checked_sub(reads),
            self.values.get().checked_sub(values),
            self.text.get().checked_sub(text),
        ) else {
            return false;
        };
        self.restore(r, v, t);
        true
    }

    /// One value; a string also counts its characters (`chars`, in bytes).
    fn spend<E: de::Error>(&self, chars: usize) -> Result<(), E> {
        self.value()?;
        self.characters(chars)
    }

    fn value<E: de::Error>(&self) -> Result<(), E> {
        self.take(&self.reads, 1, Limit::Repeats)?;
        self.take(&self.values, 1, Limit::Input)
    }

    /// A key of `chars` bytes: a read of the document, and its characters.
    fn key<E: de::Error>(&self, chars: usize) -> Result<(), E> {
        self.take(&self.reads, 1, Limit::Repeats)?;
        self.characters(chars)
    }

    fn characters<E: de::Error>(&self, chars: usize) -> Result<(), E> {
        self.take(&self.text, chars, Limit::Input)
    }

    fn take<E: de::Error>(&self, left: &Cell<usize>, units: usize, limit: Limit) -> Result<(), E> {
        match left.get().checked_sub(units) {
            Some(rest) => {
                left.set(rest);
                Ok(())
            }
            None => {
                left.set(0);
                self.ran_out.set(Some(limit));
                Err(E::custom("the input expands past its limit"))
            }
        }
    }
}

/// One value, read against the budget.
#[derive(Clone, Copy)]
struct Tree<'b>(&'b Budget);

impl<'de> DeserializeSeed<'de> for Tree<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

/// A map key: text, counted like a string.
struct Key<'b>(&'b Budget);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = String;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        let key = <String as serde::Deserialize>::deserialize(d)?;
        self.0.key(key.len())?;
        Ok(key)
    }
}

impl<'de> Visitor<'de> for Tree<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::Number(n.into()))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::Number(n.into()))
    }

    fn visit_i128<E: de::Error>(self, n: i128) -> Result<Value, E> {
        self.0.value()?;
        serde::Deserialize::deserialize(de::value::I128Deserializer::<E>::new(n)).map(Value::Number)
    }

    fn visit_u128<E: de::Error>(self, n: u128) -> Result<Value, E> {
        self.0.value()?;
        serde::Deserialize::deserialize(de::value::U128Deserializer::<E>::new(n)).map(Value::Number)
    }

    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Value, E> {
        self.0.value()?;
        Ok(Number::from_f64(x).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        self.0.spend(s.len())?;
        Ok(Value::String(s.to_string()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        self.0.spend(s.len())?;
        Ok(Value::String(s))
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.0.value()?;
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        // A list grows by doubling: without this, up to half of every list's room (72 bytes a
        // value) stays allocated as long as the tree lives.
        items.shrink_to_fit();
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        self.0.value()?;
        let mut map = Map::new();
        while let Some(key) = access.next_key_seed(Key(self.0))? {
            let value = access.next_value_seed(self)?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

/// The values the budget counts in reading `text`'s documents (the root included), the most of
/// any one document; `None` when a document does not read.
#[cfg(test)]
pub(super) fn values_read(text: &str) -> Option<usize> {
    let mut most = 0;
    for doc in serde_yaml::Deserializer::from_str(text) {
        let budget = Budget::new(usize::MAX, usize::MAX);
        budget.read(doc).ok()?;
        most = most.max(usize::MAX - budget.values.get());
    }
    Some(most)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document written out, with where it is, so that two reads compare.
    fn written(doc: &RawDoc) -> String {
        format!("{} {} {:?}", doc.index, doc.line, doc.value)
    }

    /// A text handed to the door (`accept_given`) reads as `accept` reads it: written as one
    /// document, the same document and the same outline, with nothing of the text kept; written
    /// as more, handed back whole; refused alike; and a document that only the whole text reads
    /// (yaml_serde's: a local tag, an error, none at all) is to be read again, not answered from
    /// a text already freed (red with the event reader's fallback answered as no document: the
    /// local tag's, the error's and the unknown alias's inputs then accepted, holding none).
    #[test]
    fn a_given_text_reads_as_accept_reads_it() {
        let labels: String = (0..30_000).map(|i| format!("    l{i}: v{i}\n")).collect();
        let one = [
            format!("kind: TrainJob\nmetadata:\n  labels:\n{labels}spec: {{}}\n"),
            "a: &x [1, 'two', \"th\\tree\"]\nb: *x\n".into(),
            "# a comment\n- 1\n- 2.5\n".into(),
            "plain".into(),
        ];
        for text in one {
            let (mut outlines, mut expected_outlines) = (Vec::new(), Vec::new());
            let accepted = accept(&text, |d| expected_outlines.push(written(d))).unwrap();
            let expected: Vec<String> = accepted.documents(&text).map(|d| written(&d)).collect();
            let Ok(Given::Accepted { text: None, accepted }) =
                accept_given(text.clone(), |d| outlines.push(written(d)))
            else {
                panic!("not read: {}", &text[..20.min(text.len())]);
            };
            let docs: Vec<String> = accepted.documents("").map(|d| written(&d)).collect();
            assert_eq!((docs, outlines), (expected, expected_outlines));
        }
        let more = "a: 1\n---\nb: &x 2\nc: *x\n";
        let expected: Vec<String> = accept_documents(more).unwrap().documents(more).map(|d| written(&d)).collect();
        let Ok(Given::Accepted { text: Some(text), accepted }) = accept_given_documents(more.into()) else {
            panic!("not kept: {more:?}");
        };
        assert_eq!(
            (text.as_str(), accepted.documents(&text).map(|d| written(&d)).collect::<Vec<_>>()),
            (more, expected)
        );
        for again in ["a: !t 1\n", "a: [1\n", "a: 1\n]\n", "# nothing but a comment\n", "a: *none\n"] {
            assert!(matches!(accept_given_documents(again.into()), Ok(Given::Again)), "{again:?}");
        }
        let dense = format!("[{}1]\n", "1,".repeat(2000));
        for refused in ["", "a: \u{1}\n", dense.as_str()] {
            let expected = accept(refused, |_| {}).err();
            assert!(expected.is_some(), "{refused:?}");
            assert_eq!(accept_given(refused.into(), |_| {}).err(), expected, "{refused:?}");
            assert_eq!(accept_given_documents(refused.into()).err(), expected, "{refused:?}");
        }
    }

    /// Lists of two aliases of the list before, `levels` deep: few values, many alias jumps.
    fn doubling(levels: usize) -> String {
        let mut text = String::from("l0: &l0 [1, 1]\n");
        for n in 1..=levels {
            text.push_str(&format!("l{n}: &l{n} [*l{}, *l{}]\n", n - 1, n - 1));
        }
        text
    }

    #[test]
    fn the_parsers_repetition_limit_is_refused_as_the_budget() {
        // 12 levels read as about 16,000 values, more than the budget of its 300 bytes: the scan
        // refuses it before the parser, with the budget's message (read without any bound, it
        // takes more alias jumps than yaml_serde allows, 100 per event).
        let text = doubling(12);
        assert!(values_read(&text).is_none(), "the parser refuses it");
        let error = documents(&text).err().expect("refused as a whole");
        assert_eq!(error, InputError::PastTheBudget { document: 1, line: 1, bytes: text.len() });
        assert!(error.to_string().starts_with("document 1 (line 1) reads as more than the input limit holds"));
        assert!(documents(&doubling(6)).is_ok_and(|docs| docs[0].value.is_ok()));
    }

    /// Padded with comments, the input's budget holds what 12 levels read as, so neither the
    /// scan before the parser (`written::scan`) nor the input's budget refuses it, yet it follows
    /// more aliases than yaml_serde allows (100 per event of the document). The bound per node
    /// written stops it first, in our reader, with its own message; the parser's limit is not
    /// reached (main before this matched the parser's text and called it the input budget's
    /// refusal, whose numbers it does not pass).
    #[test]
    fn the_parsers_repetition_limit_is_not_reached() {
        let text = format!("{}{}", "# padding\n".repeat(40_000), doubling(12));
        let (values, _) = read_budget(text.len());
        let written = super::super::written::scan(&text, values);
        assert!(written.over.is_none());
        assert!(values_read(&text).is_none(), "the parser refuses it when read without the bound");
        let nodes = written.nodes[0];
        let budget = Budget::new(values, usize::MAX);
        budget.document(nodes * READS_PER_NODE);
        let doc = serde_yaml::Deserializer::from_str(&text).next().expect("one document");
        assert!(budget.read(doc).is_err());
        assert_eq!(budget.ran_out(), Some(Limit::Repeats), "our bound, not the parser's, stopped it");
        let error = documents(&text).err().expect("refused as a whole");
        assert_eq!(error, InputError::TooManyRepeats { document: 1, line: 1, nodes });
        assert_eq!(
            error.to_string(),
            format!(
                "document 1 (line 1) repeats its aliases (*name) more than the YAML parser follows: it reads as \
                 more than {} keys and values, 99 for each of the {nodes} nodes counted in its text: write the \
                 repeated parts out",
                nodes * 99
            )
        );
    }

    /// 3,000 explicit keys and no alias read as 6,001 keys and values: the parser has as many
    /// events, so the bound per node does not refuse them (red before: the scan counted no node
    /// for `? k`, and the document was refused as repeating its aliases, 99 reads for 1 node).
    #[test]
    fn explicit_keys_are_not_taken_for_aliases() {
        let text: String = (0..3000).map(|i| format!("? k{i}\n")).collect();
        let docs = documents(&text).expect("read");
        let Ok(Value::Object(map)) = &docs[0].value else { panic!("{:?}", docs[0].value.as_ref().err()) };
        assert_eq!((map.len(), &map["k2999"]), (3000, &Value::Null));
        let with_values: String = (0..3000).map(|i| format!("? k{i}\n: v\n")).collect();
        assert!(documents(&with_values).is_ok_and(|docs| docs[0].value.is_ok()));
    }

    /// yaml_serde's error when it stops following a document's aliases: the test's judge only
    /// (the reader never reads an error's text).
    fn is_the_parsers_repetition_limit(error: &YamlError) -> bool {
        error.to_string() == "repetition limit exceeded"
    }

    /// The document and nodes a refusal for repeating aliases names.
    fn repeats_claim(error: &InputError) -> Option<(usize, usize)> {
        match *error {
            InputError::TooManyRepeats { document, nodes, .. } => Some((document, nodes)),
            _ => None,
        }
    }

    /// What a generated document reads as, counted as it is written.
    #[derive(Default, Clone, Copy, Debug)]
    struct Reads {
        /// Values (the budget's count).
        values: usize,
        /// Characters of keys and strings.
        chars: usize,
        /// Keys and values.
        reads: usize,
        /// Value nodes written, each alias once, and explicit keys (what `written.rs` counts for
        /// these forms).
        nodes: usize,
        /// The parser's events (node starts, ends, scalars, keys, aliases).
        events: usize,
    }

    /// A document of anchored levels, each a list or a map of aliases of earlier levels (few
    /// nodes, many alias jumps), after `pad` comment lines: its text and what it reads as.
    fn alias_heavy(next: &mut impl FnMut(usize) -> usize, pad: usize) -> (String, Reads) {
        let mut text = "# padding\n".repeat(pad);
        // What each level reads as (values, chars, reads), the root map's entry excluded.
        let mut levels: Vec<(usize, usize, usize)> = Vec::new();
        let mut r = Reads { values: 1, reads: 1, nodes: 1, events: 2, ..Reads::default() };
        let depth = 1 + next(14);
        for n in 0..depth {
            let key = format!("l{n}");
            let (mut values, mut chars, mut reads) = (1, 0, 1);
            let width = 2 + next(3);
            // A list in flow, a map in flow, a list in block, a map of explicit keys in block.
            let style = next(4);
            let mut items = Vec::new();
            for k in 0..width {
                let (item, (v, c, rd)) = if n == 0 {
                    ("x".to_string(), (1, 1, 1))
                } else {
                    let to = if next(3) == 0 { next(n) } else { n - 1 };
                    (format!("*l{to}"), levels[to])
                };
                values += v;
                chars += c;
                reads += rd;
                r.events += 1;
                items.push(match style {
                    1 | 3 => {
                        chars += 2 + usize::from(k > 9);
                        reads += 1;
                        r.events += 1;
                        format!("k{k}: {item}")
                    }
                    _ => item,
                });
            }
            r.events += 3; // the key, the collection's start and end
                           // Its value's `:` and an entry's start, `-` or `:`; an explicit key's `?` too.
            r.nodes += 1 + width + if style == 3 { width } else { 0 };
            text.push_str(&match style {
                0 => format!("{key}: &{key} [{}]\n", items.join(", ")),
                1 => format!("{key}: &{key} {{{}}}\n", items.join(", ")),
                2 => format!("{key}: &{key}\n{}", items.iter().map(|i| format!("  - {i}\n")).collect::<String>()),
                _ => format!(
                    "{key}: &{key}\n{}",
                    items.iter().map(|i| format!("  ? {}\n", i.replacen(": ", "\n  : ", 1))).collect::<String>()
                ),
            });
            levels.push((values, chars, reads));
            r.values += values;
            r.chars += chars + key.len();
            r.reads += reads + 1;
        }
        (text, r)
    }

    /// For random documents whose aliases repeat a lot (one to three to a stream, after
    /// `---` or `...` and `---`, padded with comments so that the input's budget may hold them), the
    /// reader never meets the parser's repetition limit: each stream is read, or refused by one
    /// of our counts, and each refusal's numbers are true of it (the input's budget was passed,
    /// or the document reads as more than its nodes allow, nodes no more than its events). A
    /// stream within every count is read. Red on main, which matched the parser's error and
    /// called it a refusal of the input's budget, whose numbers it passed; red too, for maps of
    /// explicit keys, when the scan counted no node for `? k`.
    #[test]
    fn random_alias_heavy_documents_never_meet_the_parsers_limit() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n.max(1) as u64) as usize
        };
        let (mut read, mut repeats, mut budget) = (0, 0, 0);
        for case in 0..300 {
            let mut text = String::new();
            let mut docs = Vec::new();
            for d in 0..1 + next(3) {
                if d > 0 || next(4) == 0 {
                    text.push_str(if d > 0 && next(3) == 0 { "...\n---\n" } else { "---\n" });
                }
                // Padding that lets the input's budget hold about what the document reads as.
                let pad = if next(3) == 0 { 0 } else { next(30_000) };
                let (doc, reads) = alias_heavy(&mut next, pad);
                text.push_str(&doc);
                docs.push(reads);
            }
            let (values, characters) = read_budget(text.len());
            let within = |upto: usize| {
                let used = docs[..upto].iter().fold((0, 0), |(v, c), r| (v + r.values, c + r.chars));
                used.0 <= values && used.1 <= characters
            };
            let result = documents(&text);
            // Read as events come, as yaml_serde reads the whole document.
            let answer = super::super::tree::tests::answer;
            assert_eq!(answer(documents(&text)), answer(documents_buffered(&text)), "case {case}");
            match &result {
                Ok(out) => {
                    read += 1;
                    assert_eq!(out.len(), docs.len(), "case {case}");
                    for doc in out {
                        if let Err(e) = &doc.value {
                            assert!(!is_the_parsers_repetition_limit(e), "case {case}: the parser's limit");
                            panic!("case {case}: document {} does not read: {e}", doc.index);
                        }
                    }
                }
                Err(InputError::PastTheBudget { document, .. }) => {
                    budget += 1;
                    assert!(!within(*document), "case {case}: document {document} is within the input's budget");
                }
                Err(error) => {
                    let (document, nodes) = repeats_claim(error).unwrap_or_else(|| panic!("case {case}: {error}"));
                    repeats += 1;
                    let doc = docs[document - 1];
                    assert!(doc.reads > nodes * READS_PER_NODE, "case {case}: {doc:?} within {nodes} nodes");
                    assert!(nodes <= doc.events, "case {case}: {nodes} nodes of {doc:?}");
                    assert!(within(document), "case {case}: the input's budget was passed first");
                }
            }
            // Within every count, it is read.
            if within(docs.len()) && docs.iter().all(|d| d.reads <= d.nodes * READS_PER_NODE) {
                assert!(result.is_ok(), "case {case}: refused within every count");
            }
        }
        assert!(read > 30 && repeats > 30 && budget > 30, "read {read}, repeats {repeats}, budget {budget}");
    }

    /// A document only yaml_serde reads (here an alias as a key) whose aliases it would read as
    /// a later node than the spec names is refused, with the alias's name; in a stream, from
    /// that document on, as a budget's refusal is (red before: `c` read as "3", and a local tag's
    /// document as yaml_serde's error).
    #[test]
    fn a_document_left_to_yaml_serde_that_would_misread_an_alias_is_refused() {
        let aliases = "a: &x \"1\"\nb: &x \"2\"\nc: *x\nd: &y \"3\"\n";
        let alias_key = format!("{aliases}&k e: f\n*k : g\n");
        let refusal = |document, line| InputError::AnchorReused { document, line, name: "x".into() };
        assert_eq!(documents(&alias_key).err(), Some(refusal(1, 1)));
        assert_eq!(documents_buffered(&alias_key).err(), Some(refusal(1, 1)));
        let local_tag = format!("k: v\n---\nt: !x tagged\n{aliases}");
        assert_eq!(documents(&local_tag).err(), Some(refusal(2, 3)));
        assert_eq!(
            refusal(2, 3).to_string(),
            "document 2 (line 3) gives the anchor name &x to more than one node, and the YAML parser its other forms \
             need would read an alias *x as a node after the one the API server reads (the latest &x before it): \
             give each anchor its own name"
        );
        // Without a new name after the reused one, yaml_serde reads the alias as the spec does.
        let no_new_name = "&k e: f\na: &x \"1\"\nb: &x \"2\"\nc: *x\n*k : g\n";
        let docs = documents(no_new_name).expect("read");
        let value = docs[0].value.as_ref().expect("read");
        assert_eq!((&value["c"], &value["e"]), (&Value::from("2"), &Value::from("g")));
        // A stream whose every document the door refuses (or accepts) alike when read through first.
        assert!(matches!(accept(&local_tag, |_| {}), Err(InputError::AnchorReused { document: 2, .. })));
        assert!(accept_documents(&local_tag).is_err());
    }

    #[test]
    fn control_characters_are_found_where_a_reader_counts_them() {
        // Columns count characters, not bytes; C1 controls (U+0085 is C2 85) count, other
        // two-byte characters starting C2 (U+00A0 is C2 A0) do not.
        assert_eq!(first_control_character("a: b\nc: \u{0}"), Some((2, 4)));
        assert_eq!(first_control_character("é: ü\u{7f}"), Some((1, 5)));
        assert_eq!(first_control_character("k: \u{a0}x\n\tv: \u{85}"), Some((2, 5)));
        assert_eq!(first_control_character("k: \u{a0}\r\n\tv: é\n"), None);
        // Every character of one or two bytes, after a line and a character, as the one to find.
        for c in ('\0'..='\u{7ff}').filter(|c| !matches!(c, '\n' | '\r' | '\t')) {
            let control = c.is_control();
            let found = first_control_character(&format!("k\né{c}\u{a0}"));
            assert_eq!(found, control.then_some((2, 2)), "U+{:04X}", u32::from(c));
        }
        // A control character in every place of a line longer than the eight bytes the scan
        // reads at a time, after a C2 that is none.
        let line = "k: \u{a0} value of thirty bytes or so\t";
        for at in (0..=line.len()).filter(|&at| line.is_char_boundary(at)) {
            let text = format!("x\n{}\u{1}{}", &line[..at], &line[at..]);
            assert_eq!(first_control_character(&text), Some((2, line[..at].chars().count() + 1)), "{text:?}");
        }
        assert_eq!(
            Depth::default().line(0, &format!("a: é{}", "[".repeat(MAX_DEPTH + 1))).unwrap_err().to_string(),
            format!("nesting deeper than {MAX_DEPTH} levels at line 1 column {}", MAX_DEPTH + 5)
        );
    }

    /// The nesting is checked on the lines the scan before the parser splits the text into, and
    /// judged before what the scan finds: a text too deep after a document the scan finds over
    /// the budget (where it stops counting) is refused as too deep, on the line it is.
    #[test]
    fn a_text_too_deep_after_a_document_over_the_budget_is_refused_as_too_deep() {
        let dense = format!("[{}1]", "1,".repeat(5_000));
        let over = documents(&dense).err().expect("refused");
        assert!(matches!(over, InputError::PastTheBudget { document: 1, line: 1, .. }), "{over:?}");
        let text = format!("{dense}\n---\nk: {}", "[".repeat(MAX_DEPTH + 1));
        let refused = documents(&text).err().expect("refused");
        assert_eq!(refused, InputError::TooDeep { line: 3, column: Some(MAX_DEPTH + 4) });
    }
}

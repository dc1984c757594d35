//! The YAML parser's events, one at a time: the only `unsafe` of the core. libyaml-rs (the
//! parser yaml_serde reads with, so the same events and the same grammar) has a C-shaped API of
//! raw pointers; this module owns one parser, hands each event out as plain owned data and frees
//! libyaml's copy at once, so nothing of a document is held but what the reader keeps of it
//! (yaml_serde holds every event of a document, about 130 bytes each, until the document ends).
#![allow(unsafe_code)]

use libyaml_rs as sys;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::mem::MaybeUninit;

/// One event of the stream, as the reader needs it. Text that is not UTF-8 is not told apart
/// further: the reader leaves such a document to yaml_serde.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Event {
    /// A document starts (`---`, or implied).
    DocumentStart,
    /// The document ends.
    DocumentEnd,
    /// The stream ends.
    StreamEnd,
    /// `*name`.
    Alias(Vec<u8>),
    /// A scalar: its anchor, its tag, whether it was written plain (not quoted, not a block
    /// scalar), and its text (`None` when not UTF-8).
    Scalar { anchor: Option<Vec<u8>>, tag: Tag, plain: bool, text: Option<String> },
    /// A list starts.
    SequenceStart { anchor: Option<Vec<u8>>, tag: Tag },
    /// The list ends.
    SequenceEnd,
    /// A map starts.
    MappingStart { anchor: Option<Vec<u8>>, tag: Tag },
    /// The map ends.
    MappingEnd,
}

/// A node's tag, told apart as far as reading it needs: as yaml_serde 0.10.7 reads a node into a
/// tree (`de.rs` `deserialize_any`, `visit_scalar`, `parse_tag`), by the tag libyaml resolved
/// (`!!int` is `tag:yaml.org,2002:int`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tag {
    /// None written.
    None,
    /// `!!null`: a scalar reads as null, if its text is one of null's spellings.
    Null,
    /// `!!bool`: a scalar reads as a boolean, if its text is one.
    Bool,
    /// `!!int`: a scalar reads as an integer, if its text is one, quoted or not.
    Int,
    /// `!!float`: a scalar reads as a float, if its text is one.
    Float,
    /// Any other tag that does not start with `!` (`!!str`, `!!binary`, `!!timestamp`, `!!map`,
    /// `!!seq`, a `%TAG` prefix's): a scalar reads as its text, a list or map as it is.
    Global,
    /// A local tag (`!x`, `!`): yaml_serde reads the node as an enum, which no tree holds.
    Local,
}

/// The core schema's tags a scalar reads by (`Tag`), as libyaml resolves `!!null` and the rest.
const CORE_TAGS: [(&[u8], Tag); 4] = [
    (b"tag:yaml.org,2002:null", Tag::Null),
    (b"tag:yaml.org,2002:bool", Tag::Bool),
    (b"tag:yaml.org,2002:int", Tag::Int),
    (b"tag:yaml.org,2002:float", Tag::Float),
];

/// A node's tag from libyaml's resolved text (`None` when none was written).
fn tag_of(resolved: Option<&[u8]>) -> Tag {
    match resolved {
        None => Tag::None,
        Some(text) if text.starts_with(b"!") => Tag::Local,
        Some(text) => CORE_TAGS.iter().find(|(core, _)| *core == text).map_or(Tag::Global, |&(_, tag)| tag),
    }
}

/// The parser's error (its text is yaml_serde's to give: the reader then reads the document with
/// yaml_serde, which meets the same error).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct ParseError;

/// A libyaml parser over a text: borrowed for as long as the parser lives ([`Events::new`]), or
/// given to it and freed as it passes ([`Events::given`]).
pub(super) struct Events<'text> {
    /// Boxed: libyaml keeps a pointer to the parser itself (its read handler's data), so it
    /// must not move once initialised.
    parser: Box<MaybeUninit<sys::yaml_parser_t>>,
    /// Set once an error was returned.
    failed: bool,
    /// Set once the stream's end was returned.
    ended: bool,
    /// What the parser reads: a scalar's text is copied from it where it stands there as it reads.
    input: Input<'text>,
    /// How many scalars' text was copied from `input` (what the tests check).
    #[cfg(test)]
    from_input: usize,
}

/// What a parser reads.
enum Input<'text> {
    /// A text borrowed whole: libyaml reads it in place.
    Whole(&'text str),
    /// A text given to the parser, in blocks, each freed once the parser and the events handed
    /// on have passed it: a caller that hands the door its text does not hold it beside the tree
    /// it becomes (issue 36: 4 MiB of many-labels' peak). Boxed, as libyaml's read handler
    /// holds a pointer to it; in a `RefCell`, which the handler borrows while libyaml reads.
    Given(Box<RefCell<Blocks>>),
}

/// The bytes a given text is held in, a block at a time. Each block is large enough that the
/// allocator maps it on its own (glibc: 128 KiB or more), so freeing one gives its pages back
/// to the system rather than to the heap. The fuzz build cuts the text into many small blocks,
/// so that the door's fuzz target reads scalars across their ends (fuzz/fuzz_targets/door.rs).
#[cfg(not(fuzzing))]
const BLOCK: usize = 256 * 1024;
#[cfg(fuzzing)]
const BLOCK: usize = 16;

/// A given text's blocks not yet passed, in order, each with where it starts in the text
/// (bytes). Block `k` starts at the last character boundary at or before `k * BLOCK` (at most 3
/// bytes before it: a character is 4 bytes at most), so each block is whole characters, and a
/// scalar's text is copied from them as text: its bytes need no second check.
struct Blocks {
    blocks: VecDeque<(usize, Box<str>)>,
    /// How many blocks were freed (the text's block number of the first one held).
    freed: usize,
    /// How far libyaml has read (bytes).
    read: usize,
}

impl Blocks {
    /// `text` in blocks, cut from its end, its own allocation shrunk after each cut: the text is
    /// never held twice.
    fn of(mut text: String) -> Blocks {
        let mut blocks = VecDeque::with_capacity(text.len().div_ceil(BLOCK));
        while !text.is_empty() {
            // The character boundary at or before the block's multiple (`floor_char_boundary`
            // is newer than the crates' minimum Rust).
            let mut last = (text.len() - 1) / BLOCK * BLOCK;
            while !text.is_char_boundary(last) {
                last -= 1;
            }
            blocks.push_front((last, Box::from(&text[last..])));
            text.truncate(last);
            text.shrink_to_fit();
        }
        Blocks { blocks, freed: 0, read: 0 }
    }

    /// The place in `blocks` of the block holding the byte at `at` (a place in the text), if it
    /// is held.
    fn holding(&self, at: usize) -> Option<usize> {
        // Block `at / BLOCK` starts at or before `at`, and the next one may too (its start is up
        // to 3 bytes before its multiple of BLOCK).
        let index = (at / BLOCK).checked_sub(self.freed)?;
        let index = match self.blocks.get(index + 1) {
            Some(&(next, _)) if next <= at => index + 1,
            _ => index,
        };
        let (start, block) = self.blocks.get(index)?;
        (at - start < block.len()).then_some(index)
    }

    /// The bytes from `read` to the end of its block (none at the text's end). Bytes, not text:
    /// libyaml asks for as many as its buffer holds, so `read` may stop inside a character.
    fn unread(&self) -> &[u8] {
        self.holding(self.read).map_or(&[][..], |index| {
            let (start, block) = &self.blocks[index];
            &block.as_bytes()[self.read - start..]
        })
    }

    /// The text `at` (a range of the text), if it is all still held: one piece per block, most
    /// often one; a piece is `None` where the range does not start or end between characters
    /// (then it is no scalar's text).
    fn pieces(&self, at: std::ops::Range<usize>) -> Option<impl Iterator<Item = Option<&str>>> {
        if at.start > at.end {
            return None;
        }
        // The blocks from the one holding the first byte to the one holding the last (none for
        // an empty range).
        let (first, last) =
            if at.is_empty() { (0, 0) } else { (self.holding(at.start)?, self.holding(at.end - 1)? + 1) };
        Some((first..last).map(move |index| {
            let (start, block) = &self.blocks[index];
            block.get(at.start.max(*start) - start..at.end.min(start + block.len()) - start)
        }))
    }

    /// Frees every block that ends at or before `passed` and that libyaml has read.
    fn free_to(&mut self, passed: usize) {
        let passed = passed.min(self.read);
        while let Some((start, block)) = self.blocks.front() {
            if start + block.len() > passed {
                break;
            }
            self.blocks.pop_front();
            self.freed += 1;
        }
    }
}

/// libyaml's read handler for a given text: the next bytes of its blocks, at most `size`, into
/// `buffer`; none at the text's end.
///
/// # Safety
/// `data` is the `RefCell<Blocks>` of [`Input::Given`], which outlives the parser; `buffer`
/// holds `size` bytes and `size_read` one count, both libyaml's.
unsafe fn read_blocks(data: *mut std::ffi::c_void, buffer: *mut u8, size: u64, size_read: *mut u64) -> i32 {
    // SAFETY: per the contract above.
    let blocks = unsafe { &*data.cast::<RefCell<Blocks>>() };
    // Never borrowed while libyaml reads (`Events` borrows it between calls): a failed borrow
    // is libyaml's input error, not a panic.
    let Ok(mut blocks) = blocks.try_borrow_mut() else { return 0 };
    let unread = blocks.unread();
    let n = unread.len().min(usize::try_from(size).unwrap_or(usize::MAX));
    // SAFETY: `n` bytes fit in `buffer` (`size`) and are read from `unread`, a separate
    // allocation of ours.
    unsafe {
        std::ptr::copy_nonoverlapping(unread.as_ptr(), buffer, n);
        *size_read = n as u64;
    }
    blocks.read += n;
    1
}

impl<'text> Events<'text> {
    pub(super) fn new(text: &'text str) -> Events<'text> {
        let mut parser = Box::new(MaybeUninit::<sys::yaml_parser_t>::uninit());
        let raw = parser.as_mut_ptr();
        // SAFETY: `raw` points to a live, boxed (so never moved) parser, which
        // `yaml_parser_initialize` fills in before anything reads it; a failure (it only fails to
        // allocate) stops here. The input pointer and length are `text`'s, which outlives the
        // parser (`'text`), and libyaml only reads it.
        unsafe {
            initialize(raw);
            sys::yaml_parser_set_input_string(raw, text.as_ptr(), text.len() as u64);
        }
        Events {
            parser,
            failed: false,
            ended: false,
            input: Input::Whole(text),
            #[cfg(test)]
            from_input: 0,
        }
    }

    /// A parser over `text`, which it holds in blocks, each freed once passed ([`Input::Given`]):
    /// the same events as [`Events::new`] of the same text.
    pub(super) fn given(text: String) -> Events<'static> {
        let blocks = Box::new(RefCell::new(Blocks::of(text)));
        let mut parser = Box::new(MaybeUninit::<sys::yaml_parser_t>::uninit());
        let raw = parser.as_mut_ptr();
        // SAFETY: as in `new`; the read handler's data is the boxed blocks (never moved), which
        // the `Events` holds and drops after the parser (`Drop` deletes the parser first).
        unsafe {
            initialize(raw);
            let data = std::ptr::from_ref::<RefCell<Blocks>>(&blocks).cast_mut().cast();
            sys::yaml_parser_set_input(raw, read_blocks, data);
        }
        Events {
            parser,
            failed: false,
            ended: false,
            input: Input::Given(blocks),
            #[cfg(test)]
            from_input: 0,
        }
    }

    /// The next event (never the stream's start; after its end, its end again), or the parser's
    /// error (then always that).
    pub(super) fn next(&mut self) -> Result<Event, ParseError> {
        loop {
            // libyaml answers a parser that failed or ended with an empty event and no error:
            // it is not asked again.
            if self.failed {
                return Err(ParseError);
            }
            if self.ended {
                return Ok(Event::StreamEnd);
            }
            let mut event = MaybeUninit::<sys::yaml_event_t>::uninit();
            // SAFETY: the parser was initialised in `new` (or `given`) and is only used through
            // `&mut self`; `yaml_parser_parse` writes a whole event into `event` when it
            // succeeds, and only then is it read, and deleted (once) after its data were copied
            // out.
            let (converted, end) = unsafe {
                let parser = self.parser.as_mut_ptr();
                if sys::yaml_parser_parse(parser, event.as_mut_ptr()).fail {
                    (Converted::Nothing, 0)
                } else {
                    let event = event.as_mut_ptr();
                    let converted = convert(&*event, &self.input);
                    let end = (*event).end_mark.index;
                    sys::yaml_event_delete(event);
                    (converted, end)
                }
            };
            let event = match converted {
                Converted::Nothing => {
                    self.failed = true;
                    continue;
                }
                Converted::Skip => continue,
                Converted::Event(event) => event,
                // Written only now that libyaml's copy is freed.
                Converted::ScalarInInput { anchor, tag, plain, text, room } => {
                    #[cfg(test)]
                    {
                        self.from_input += 1;
                    }
                    Event::Scalar { anchor, tag, plain, text: self.input.copied(text, room) }
                }
            };
            // The next event starts where this one ends: what is before it is passed.
            self.input.passed(end);
            self.ended = event == Event::StreamEnd;
            return Ok(event);
        }
    }

    /// How many blocks of a given text are held (what the tests check).
    #[cfg(test)]
    fn blocks_held(&self) -> usize {
        match &self.input {
            Input::Whole(_) => 0,
            Input::Given(blocks) => blocks.borrow().blocks.len(),
        }
    }
}

impl<'text> Input<'text> {
    /// A scalar's text where it stands in the input as it reads ([`in_input`]), written into
    /// `room`, its own.
    fn copied(&self, text: InInput<'text>, mut room: String) -> Option<String> {
        match (text, self) {
            (InInput::Whole(text), _) => {
                room.push_str(text);
                Some(room)
            }
            (InInput::Given(at), Input::Given(blocks)) => {
                for piece in blocks.try_borrow().ok()?.pieces(at)? {
                    room.push_str(piece?);
                }
                Some(room)
            }
            (InInput::Given(_), Input::Whole(_)) => None,
        }
    }

    /// A given text's blocks, borrowed (`None` for a text borrowed whole).
    fn given_blocks(&self) -> Option<std::cell::RefMut<'_, Blocks>> {
        match self {
            Input::Given(blocks) => blocks.try_borrow_mut().ok(),
            Input::Whole(_) => None,
        }
    }

    /// Frees what a given text holds before `end` (a byte offset, as libyaml counts them).
    fn passed(&self, end: u64) {
        // Borrowed, not reached through `&mut`: libyaml's read handler holds a pointer to it.
        if let Some(mut blocks) = self.given_blocks() {
            blocks.free_to(usize::try_from(end).unwrap_or(usize::MAX));
        }
    }
}

/// Initialises the parser at `raw` to read UTF-8.
///
/// # Safety
/// `raw` points to a live, boxed (so never moved) parser, not yet initialised.
unsafe fn initialize(raw: *mut sys::yaml_parser_t) {
    // SAFETY: per the contract above; a failure (it only fails to allocate) stops here.
    unsafe {
        if sys::yaml_parser_initialize(raw).fail {
            panic!("libyaml could not allocate its parser");
        }
        sys::yaml_parser_set_encoding(raw, sys::YAML_UTF8_ENCODING);
    }
}

/// Where a scalar's text stands in the input as it reads ([`in_input`]).
enum InInput<'text> {
    /// In a text borrowed whole.
    Whole(&'text str),
    /// In a given text's blocks: its bytes.
    Given(std::ops::Range<usize>),
}

/// An event of libyaml's, as [`Events::next`] hands it on.
enum Converted<'text> {
    Event(Event),
    /// A scalar whose text stands as it reads in the input (most do: a plain scalar on one line,
    /// a quoted one without escapes or line breaks), to be copied from there once libyaml's
    /// event is freed: libyaml's copy of a long scalar (up to twice its length: its buffer grows
    /// by doubling) and ours are never written at once (issue 36: 7.5 MB resident at the peak of
    /// dense-at-the-limit's 3.3 MB string, not 4.2). `room`, the text's own, is taken while
    /// libyaml's copy is held, as it was when that copy was copied: a large block's pages count
    /// only once written, and glibc, which raises its threshold for mapping a block of its own
    /// when it frees one, then serves and takes back the same blocks as before (taken after,
    /// the room came from its heap, which keeps what is freed: migrate on long-string held
    /// 4 MiB more).
    ScalarInInput {
        anchor: Option<Vec<u8>>,
        tag: Tag,
        plain: bool,
        text: InInput<'text>,
        room: String,
    },
    /// The stream's start, which the reader does not need.
    Skip,
    /// No event: the parser failed, or was asked past the stream's end.
    Nothing,
}

impl Drop for Events<'_> {
    fn drop(&mut self) {
        // SAFETY: initialised in `new` (which panics before returning otherwise), deleted once.
        unsafe { sys::yaml_parser_delete(self.parser.as_mut_ptr()) }
    }
}

/// An event's data, copied out (a scalar's text left in `input` where it stands there, see
/// [`Converted::ScalarInInput`]).
///
/// # Safety
/// `event` is one `yaml_parser_parse` filled in and not yet deleted: its union holds the field
/// of its type, and its strings are NUL-terminated (anchors, tags) or `length` bytes long.
unsafe fn convert<'text>(event: &sys::yaml_event_t, input: &Input<'text>) -> Converted<'text> {
    // SAFETY (each block): the union field read is the one of the event's type, and the
    // pointers in it are libyaml's own, valid until the event is deleted.
    Converted::Event(match event.type_ {
        sys::YAML_STREAM_START_EVENT => return Converted::Skip,
        sys::YAML_STREAM_END_EVENT => Event::StreamEnd,
        sys::YAML_DOCUMENT_START_EVENT => Event::DocumentStart,
        sys::YAML_DOCUMENT_END_EVENT => Event::DocumentEnd,
        sys::YAML_ALIAS_EVENT => Event::Alias(unsafe { c_bytes(event.data.alias.anchor) }.unwrap_or_default()),
        sys::YAML_SCALAR_EVENT => {
            let scalar = unsafe { event.data.scalar };
            let bytes = if scalar.value.is_null() || scalar.length == 0 {
                &[][..]
            } else {
                unsafe { std::slice::from_raw_parts(scalar.value, scalar.length as usize) }
            };
            let anchor = unsafe { c_bytes(scalar.anchor) };
            let tag = tag_of(unsafe { c_str(scalar.tag) });
            let plain = scalar.style == sys::YAML_PLAIN_SCALAR_STYLE;
            if let Some(text) = in_input(input, bytes, scalar.style, event.end_mark.index) {
                return Converted::ScalarInInput { anchor, tag, plain, text, room: String::with_capacity(bytes.len()) };
            }
            Event::Scalar { anchor, tag, plain, text: std::str::from_utf8(bytes).ok().map(str::to_owned) }
        }
        sys::YAML_SEQUENCE_START_EVENT => {
            let start = unsafe { event.data.sequence_start };
            Event::SequenceStart { anchor: unsafe { c_bytes(start.anchor) }, tag: tag_of(unsafe { c_str(start.tag) }) }
        }
        sys::YAML_SEQUENCE_END_EVENT => Event::SequenceEnd,
        sys::YAML_MAPPING_START_EVENT => {
            let start = unsafe { event.data.mapping_start };
            Event::MappingStart { anchor: unsafe { c_bytes(start.anchor) }, tag: tag_of(unsafe { c_str(start.tag) }) }
        }
        sys::YAML_MAPPING_END_EVENT => Event::MappingEnd,
        // libyaml yields no other event from a successful parse.
        _ => return Converted::Nothing,
    })
}

/// A scalar's text where it stands in `input` as it reads (`bytes`), if it does: right before the
/// scalar's end (`end`, a byte offset, as libyaml counts them), or its closing quote. Checked
/// byte for byte, so that a scalar read otherwise (escapes, folded lines, a block scalar's
/// indentation) is never taken from there; in a given text, only while its blocks are held.
fn in_input<'text>(
    input: &Input<'text>,
    bytes: &[u8],
    style: sys::yaml_scalar_style_t,
    end: u64,
) -> Option<InInput<'text>> {
    let closing_quote = match style {
        sys::YAML_PLAIN_SCALAR_STYLE => 0,
        sys::YAML_SINGLE_QUOTED_SCALAR_STYLE | sys::YAML_DOUBLE_QUOTED_SCALAR_STYLE => 1,
        _ => return None,
    };
    let end = usize::try_from(end).ok()?.checked_sub(closing_quote)?;
    let start = end.checked_sub(bytes.len())?;
    match input {
        &Input::Whole(text) => text.get(start..end).filter(|text| text.as_bytes() == bytes).map(InInput::Whole),
        Input::Given(blocks) => {
            let mut rest = bytes;
            for piece in blocks.try_borrow().ok()?.pieces(start..end)? {
                rest = rest.strip_prefix(piece?.as_bytes())?;
            }
            rest.is_empty().then_some(InInput::Given(start..end))
        }
    }
}

/// A NUL-terminated string of libyaml's, copied; `None` for a null pointer.
///
/// # Safety
/// `text` is null or points to a NUL-terminated string valid for the call.
unsafe fn c_bytes(text: *const u8) -> Option<Vec<u8>> {
    // SAFETY: per the contract above.
    unsafe { c_str(text) }.map(<[u8]>::to_vec)
}

/// A NUL-terminated string of libyaml's, borrowed; `None` for a null pointer.
///
/// # Safety
/// `text` is null or points to a NUL-terminated string that outlives `'a`.
unsafe fn c_str<'a>(text: *const u8) -> Option<&'a [u8]> {
    if text.is_null() {
        return None;
    }
    // SAFETY: per the contract above.
    Some(unsafe { std::ffi::CStr::from_ptr(text.cast()) }.to_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<Result<Event, ParseError>> {
        let mut events = Events::new(text);
        let mut out = Vec::new();
        loop {
            let next = events.next();
            let end = matches!(next, Ok(Event::StreamEnd) | Err(_));
            out.push(next);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn events_carry_anchors_tags_styles_and_text() {
        let scalar = |anchor: Option<&str>, tag, plain, text: &str| {
            Ok(Event::Scalar { anchor: anchor.map(|a| a.as_bytes().to_vec()), tag, plain, text: Some(text.into()) })
        };
        assert_eq!(
            all("a: &x [1, 'two']\nb: [1\n"),
            vec![
                Ok(Event::DocumentStart),
                Ok(Event::MappingStart { anchor: None, tag: Tag::None }),
                scalar(None, Tag::None, true, "a"),
                Ok(Event::SequenceStart { anchor: Some(b"x".to_vec()), tag: Tag::None }),
                scalar(None, Tag::None, true, "1"),
                scalar(None, Tag::None, false, "two"),
                Ok(Event::SequenceEnd),
                scalar(None, Tag::None, true, "b"),
                Ok(Event::SequenceStart { anchor: None, tag: Tag::None }),
                scalar(None, Tag::None, true, "1"),
                Err(ParseError),
            ]
        );
        assert_eq!(
            all("a: *x\n--- !t é\n"),
            vec![
                Ok(Event::DocumentStart),
                Ok(Event::MappingStart { anchor: None, tag: Tag::None }),
                scalar(None, Tag::None, true, "a"),
                Ok(Event::Alias(b"x".to_vec())),
                Ok(Event::MappingEnd),
                Ok(Event::DocumentEnd),
                Ok(Event::DocumentStart),
                scalar(None, Tag::Local, true, "é"),
                Ok(Event::DocumentEnd),
                Ok(Event::StreamEnd),
            ]
        );
    }

    /// A scalar's text is copied from the input (after libyaml's copy is freed) where it stands
    /// there as it reads, whatever comes before it (an anchor, a tag), and from libyaml's copy
    /// where it does not; the same text either way (red with the end of a quoted scalar taken
    /// as its closing quote's: no quoted scalar was found in the input).
    #[test]
    fn a_scalar_standing_in_the_input_as_it_reads_is_copied_from_there() {
        // Each text: the value's, as read, and whether it stands in the input (the key `v` does).
        let cases = [
            ("v: plain words\n", "plain words", true),
            ("v: 'single'\n", "single", true),
            ("v: \"double quoted\"\n", "double quoted", true),
            ("v: ''\n", "", true),
            ("v: &anchor x\n", "x", true),
            ("v: !!str 'tagged'\n", "tagged", true),
            ("v: &a !!str \"both\"  # comment\n", "both", true),
            ("v: ééé\n", "ééé", true),
            ("{v: [flow]}\n", "flow", true),
            ("v: \"esc\\tape\"\n", "esc\tape", false),
            ("v: 'it''s'\n", "it's", false),
            ("v: \"two\n  lines\"\n", "two lines", false),
            ("v: folded\n  plain\n", "folded plain", false),
            ("v: |\n  block\n", "block\n", false),
            ("v: >\n  folded\n", "folded\n", false),
        ];
        for (text, value, in_input) in cases {
            let mut events = Events::new(text);
            let mut scalars = Vec::new();
            loop {
                match events.next() {
                    Ok(Event::Scalar { text: Some(text), .. }) => scalars.push(text),
                    Ok(Event::StreamEnd) => break,
                    Ok(_) => {}
                    Err(e) => panic!("{text:?}: {e:?}"),
                }
            }
            assert_eq!(scalars, ["v", value], "{text:?}");
            assert_eq!(events.from_input, if in_input { 2 } else { 1 }, "{text:?}");
        }
    }

    /// A text given to the parser reads as the same events as the same text borrowed, each
    /// scalar copied from where it stands in the input alike, across its blocks too (a long
    /// scalar spans several); and its blocks are freed as the parser passes them: halfway
    /// through a text of many small values, half of it is held, and at its end a block at most
    /// (red with nothing freed: all seven blocks held to the end). Blocks end between characters
    /// (red with a block cut where a character's bytes go on: the text cannot be cut there).
    #[test]
    fn a_given_text_reads_as_the_same_events_and_is_freed_as_passed() {
        let long = "abcdefghij0123456789 ".repeat(BLOCK / 8);
        let labels: String = (0..100_000).map(|i| format!("  l{i}: v{i}\n")).collect();
        // Three bytes a character: most multiples of BLOCK fall inside one.
        let euros = "€".repeat(BLOCK / 2);
        let texts = [
            format!("a: {euros}\nb: '{euros}'\nc: [{}]\n", "€, ".repeat(BLOCK / 4)),
            format!("a: {long}\nb: '{long}'\nc: \"{long}\"\nd: \"es\\tc\"\n"),
            format!("labels:\n{labels}x: [1, 'two', \"ééé\"]\n--- !t é\n"),
            format!("a: [1\nb: '{long}\n"),
        ];
        for text in texts {
            let mut whole = Events::new(&text);
            let mut given = Events::given(text.clone());
            let blocks = text.len().div_ceil(BLOCK);
            // Blocks held once the label halfway through is read, and once the document is.
            let (mut halfway, mut at_end) = (blocks, blocks);
            loop {
                let (expected, got) = (whole.next(), given.next());
                assert_eq!(got, expected, "{}", &text[..40]);
                match &got {
                    Ok(Event::Scalar { text: Some(text), .. }) if text == "l50000" => halfway = given.blocks_held(),
                    Ok(Event::DocumentEnd) if at_end == blocks => at_end = given.blocks_held(),
                    _ => {}
                }
                if matches!(got, Ok(Event::StreamEnd) | Err(_)) {
                    break;
                }
            }
            assert_eq!(given.from_input, whole.from_input, "{}", &text[..40]);
            if text.starts_with("labels") {
                assert!(blocks == 7 && halfway <= 4 && at_end <= 1, "{halfway} and {at_end} of {blocks} blocks held");
            }
        }
    }

    /// Each tag as libyaml resolves it: the core schema's four by name, every other tag not
    /// starting with `!` (its `!!` shorthand, a `%TAG` prefix, a verbatim one) as global.
    #[test]
    fn tags_are_told_apart_as_resolved() {
        let text = "%TAG !e! tag:example.com,2000:\n---\n- !!null a\n- !!bool a\n- !!int a\n- !!float a\n- !!str a\n\
                    - !!binary a\n- !e!x a\n- !<tag:yaml.org,2002:int> a\n- !x a\n- ! a\n- !<!y> a\n- a\n\
                    - !!map {}\n- !x []\n";
        let tags: Vec<Tag> = all(text)
            .into_iter()
            .filter_map(|event| match event {
                Ok(Event::Scalar { tag, .. } | Event::SequenceStart { tag, .. } | Event::MappingStart { tag, .. }) => {
                    Some(tag)
                }
                _ => None,
            })
            .collect();
        let (none, global, local) = (Tag::None, Tag::Global, Tag::Local);
        assert_eq!(
            tags,
            [
                none,
                Tag::Null,
                Tag::Bool,
                Tag::Int,
                Tag::Float,
                global,
                global,
                global,
                Tag::Int,
                local,
                local,
                local,
                none,
                global,
                local
            ]
        );
    }
}

//! The YAML parser's events, one at a time: the only `unsafe` of the core. libyaml-rs (the
//! parser yaml_serde reads with, so the same events and the same grammar) has a C-shaped API of
//! raw pointers; this module owns one parser, hands each event out as plain owned data and frees
//! libyaml's copy at once, so nothing of a document is held but what the reader keeps of it
//! (yaml_serde holds every event of a document, about 130 bytes each, until the document ends).
#![allow(unsafe_code)]

use libyaml_rs as sys;
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

/// A libyaml parser over `text`, borrowed for as long as the parser lives.
pub(super) struct Events<'text> {
    /// Boxed: libyaml keeps a pointer to the parser itself (its read handler's data), so it
    /// must not move once initialised.
    parser: Box<MaybeUninit<sys::yaml_parser_t>>,
    /// Set once an error was returned.
    failed: bool,
    /// Set once the stream's end was returned.
    ended: bool,
    /// What the parser reads: a scalar's text is copied from it where it stands there as it reads.
    text: &'text str,
    /// How many scalars' text was copied from `text` (what the tests check).
    #[cfg(test)]
    from_input: usize,
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
            if sys::yaml_parser_initialize(raw).fail {
                panic!("libyaml could not allocate its parser");
            }
            sys::yaml_parser_set_encoding(raw, sys::YAML_UTF8_ENCODING);
            sys::yaml_parser_set_input_string(raw, text.as_ptr(), text.len() as u64);
        }
        Events {
            parser,
            failed: false,
            ended: false,
            text,
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
            // SAFETY: the parser was initialised in `new` and is only used through `&mut self`;
            // `yaml_parser_parse` writes a whole event into `event` when it succeeds, and only
            // then is it read, and deleted (once) after its data were copied out.
            let converted = unsafe {
                let parser = self.parser.as_mut_ptr();
                if sys::yaml_parser_parse(parser, event.as_mut_ptr()).fail {
                    Converted::Nothing
                } else {
                    let event = event.as_mut_ptr();
                    let converted = convert(&*event, self.text);
                    sys::yaml_event_delete(event);
                    converted
                }
            };
            match converted {
                Converted::Nothing => self.failed = true,
                Converted::Skip => continue,
                Converted::Event(event) => {
                    self.ended = event == Event::StreamEnd;
                    return Ok(event);
                }
                // Written only now that libyaml's copy is freed.
                Converted::ScalarInInput { anchor, tag, plain, text, mut room } => {
                    #[cfg(test)]
                    {
                        self.from_input += 1;
                    }
                    room.push_str(text);
                    return Ok(Event::Scalar { anchor, tag, plain, text: Some(room) });
                }
            }
        }
    }
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
        text: &'text str,
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
unsafe fn convert<'text>(event: &sys::yaml_event_t, input: &'text str) -> Converted<'text> {
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
                return Converted::ScalarInInput { anchor, tag, plain, text, room: String::with_capacity(text.len()) };
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
/// indentation) is never taken from there.
fn in_input<'text>(input: &'text str, bytes: &[u8], style: sys::yaml_scalar_style_t, end: u64) -> Option<&'text str> {
    let closing_quote = match style {
        sys::YAML_PLAIN_SCALAR_STYLE => 0,
        sys::YAML_SINGLE_QUOTED_SCALAR_STYLE | sys::YAML_DOUBLE_QUOTED_SCALAR_STYLE => 1,
        _ => return None,
    };
    let end = usize::try_from(end).ok()?.checked_sub(closing_quote)?;
    let start = end.checked_sub(bytes.len())?;
    input.get(start..end).filter(|text| text.as_bytes() == bytes)
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

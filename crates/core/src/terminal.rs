//! Text that came from input, made safe where it is printed: on a terminal, a control character
//! is not shown but obeyed (ESC starts a sequence that sets the title, clears the screen or colours
//! what follows; CR moves back over what was written), and a bidirectional control reorders what
//! a reader sees (the "Trojan Source" pattern). Every CLI print path writes input-derived text
//! through [`escape`], every JSON answer through [`json_pretty`], and the YAML emitter quotes
//! strings holding such characters (`crate::yaml`).

use std::borrow::Cow;

/// The Unicode bidirectional controls: embeddings and overrides (U+202A-202E), isolates
/// (U+2066-2069), and the marks LRM, RLM and ALM.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// A character a terminal obeys instead of showing: C0 controls except TAB and LF, DEL, C1
/// controls (U+0080-009F), and the bidirectional controls.
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && c != '\t' && c != '\n') || is_bidi_control(c)
}

/// Whether a hidden character starts at byte `at` of `text`, whose byte `b` is: every hidden
/// character starts with an ASCII control or with the lead byte of a C1 control (C2), ALM (D8) or
/// another bidirectional control (E2); only those characters are decoded. Natively inlined where
/// it is called, as when it was `has_hidden`'s own closure (called, it cost `-o json`'s
/// `has_hidden` 44% more instructions); the widget's build for size chooses for itself (forced,
/// its wasm grew by 98 bytes).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn hidden_at(text: &str, at: usize, b: u8) -> bool {
    match b {
        b'\t' | b'\n' => false,
        0..=0x1f | 0x7f => true,
        // A lead byte starts a character, so `at` is a boundary.
        0xc2 | 0xd8 | 0xe2 => text[at..].chars().next().is_some_and(is_hidden),
        _ => false,
    }
}

/// How many bytes the scans below pass over at once when none of them needs a look: a test
/// without an early exit, which the compiler does 16 bytes at a time.
const RUN: usize = 16;

/// Whether `b` is printable ASCII: neither hidden, nor TAB, nor a line's end.
fn printable_ascii(b: u8) -> bool {
    b.wrapping_sub(b' ') < 0x5f
}

/// Whether `text` holds a hidden character, judged byte by byte: the CLI escapes its whole
/// answer (3 MB of report for 330 jobs), and decoding each character to look it up in Unicode's
/// tables cost 8% of a migration.
fn has_hidden(text: &str) -> bool {
    // Runs of printable ASCII, TAB or LF (almost all of an answer) are passed over whole.
    let plain = |b: u8| printable_ascii(b) || b == b'\t' || b == b'\n';
    let bytes = text.as_bytes();
    let runs = bytes.chunks_exact(RUN);
    let tail = runs.remainder().len();
    for (n, run) in runs.enumerate() {
        if !run.iter().fold(true, |all, &b| all & plain(b))
            && run.iter().enumerate().any(|(i, &b)| hidden_at(text, n * RUN + i, b))
        {
            return true;
        }
    }
    let start = bytes.len() - tail;
    bytes[start..].iter().enumerate().any(|(i, &b)| hidden_at(text, start + i, b))
}

/// The lines of `text` as [`str::lines`] splits them, each judged for hidden characters in the
/// same pass that finds its end: the CLI prints a report of a hundred thousand lines, and
/// splitting it and then scanning each line read every byte twice.
pub fn lines(text: &str) -> Lines<'_> {
    Lines { rest: text }
}

/// The iterator of [`lines`].
pub struct Lines<'a> {
    /// The text after the lines given so far.
    rest: &'a str,
}

/// A line of [`lines`].
pub struct Line<'a> {
    text: &'a str,
    hidden: bool,
}

impl<'a> Line<'a> {
    /// The line as [`str::lines`] gives it: without its `\n` or `\r\n`.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The line [`escape`]d: borrowed whole when the scan found nothing hidden in it.
    pub fn shown(&self) -> Cow<'a, str> {
        if self.hidden {
            escape(self.text)
        } else {
            Cow::Borrowed(self.text)
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        if self.rest.is_empty() {
            return None;
        }
        let (end, hidden) = line_end(self.rest);
        let text = &self.rest[..end];
        let ended = end < self.rest.len();
        self.rest = if ended { &self.rest[end + 1..] } else { "" };
        // A `\r` before the `\n` is part of the line's end, as in `str::lines`; it is hidden, so
        // only a line judged to hold a hidden character can end so.
        let text = if ended && hidden { text.strip_suffix('\r').unwrap_or(text) } else { text };
        Some(Line { text, hidden })
    }
}

/// Where the first line of `text` ends (its `\n`, else the text's end), and whether a hidden
/// character comes before. Runs of printable ASCII are passed over whole; in a run that is not,
/// only its bytes that are not (found eight at a time by [`not_printable_ascii`]) are looked at.
fn line_end(text: &str) -> (usize, bool) {
    let bytes = text.as_bytes();
    let mut hidden = false;
    let mut at = 0;
    loop {
        while let Some(run) = bytes[at..].first_chunk::<RUN>() {
            if !run.iter().fold(true, |all, &b| all & printable_ascii(b)) {
                break;
            }
            at += RUN;
        }
        let eight = match bytes[at..].first_chunk::<8>() {
            Some(eight) => *eight,
            None if at == bytes.len() => return (at, hidden),
            // The last bytes, made eight by spaces, which are printable.
            None => {
                let mut eight = [b' '; 8];
                eight[..bytes.len() - at].copy_from_slice(&bytes[at..]);
                eight
            }
        };
        let mut marks = not_printable_ascii(&eight);
        while marks != 0 {
            let i = at + marks.trailing_zeros() as usize / 8;
            if bytes[i] == b'\n' {
                return (i, hidden);
            }
            hidden |= hidden_at(text, i, bytes[i]);
            // The next mark.
            marks &= marks - 1;
        }
        at = bytes.len().min(at + 8);
    }
}

/// The bytes of `eight` that are not printable ASCII (controls, DEL, and the bytes of every
/// character past ASCII), each marked by its top bit in the word read from them (lowest byte
/// first). Each byte's low seven bits `y` are added to separately, never carrying into the next:
/// `y + 0x60` sets the top bit when `y >= 0x20`, `y + 1` when `y` is 0x7f.
fn not_printable_ascii(eight: &[u8; 8]) -> u64 {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const TOPS: u64 = ONES * 0x80;
    let word = u64::from_le_bytes(*eight);
    let low = word & !TOPS;
    (word | !(low + ONES * 0x60) | (low + ONES)) & TOPS
}

/// `text` with every hidden character (see [`is_hidden`]) written as Rust writes it, `\u{1b}`, so
/// it is seen and not obeyed, as `kubectl` and `git` show such bytes. A backslash is left alone:
/// the output is for reading, not for reading back.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !has_hidden(text) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(escape_each(text, is_hidden))
}

/// `text` with each character `escaped` picks written `\u{1b}`, its code point in hex as Rust
/// writes it: the one notation of what a line of the CLI shows in place of a character, a hidden
/// one ([`escape`]) or a line break inside a report line (`crate::pipeline::one_line`). `escaped`
/// is a function pointer, not a generic, so one copy serves both: the upgrade module, which has
/// both, came out 208 gzip bytes smaller so than with a copy for each.
pub(crate) fn escape_each(text: &str, escaped: fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escaped(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// The one JSON writer for answers that carry input: `serde_json`'s pretty printing, with every
/// control character `\u`-escaped (serde_json escapes C0 only; DEL, the C1 controls and the
/// bidirectional controls are written raw by it) so the JSON can be shown on a terminal as is.
pub fn json_pretty<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::with_capacity(128);
    write_json_pretty(&mut out, value)?;
    String::from_utf8(out).map_err(<serde_json::Error as serde::ser::Error>::custom)
}

/// [`json_pretty`]'s text of `value`, written to `out` as it is made: an answer is never held
/// whole as text beside the values it is written from.
pub fn write_json_pretty<W: std::io::Write, T: serde::Serialize + ?Sized>(
    out: W,
    value: &T,
) -> Result<(), serde_json::Error> {
    value.serialize(&mut serde_json::Serializer::with_formatter(out, Escaping(serde_json::ser::PrettyFormatter::new())))
}

/// [`json_pretty`]'s text of `value` as a member of an array, written to `out` as it is made: for
/// an answer too big to hold whole (the JSON of a job of a quarter million labels is 40 MB of
/// text), written one member at a time. Its lines after the first are indented as the member's
/// (the caller writes the array's brackets, commas and the first line's indent). It holds no
/// hidden character.
pub fn write_json_pretty_member<W: std::io::Write, T: serde::Serialize + ?Sized>(
    out: W,
    value: &T,
) -> Result<(), serde_json::Error> {
    use serde_json::ser::Formatter;
    let mut formatter = serde_json::ser::PrettyFormatter::new();
    // The formatter inside an array, one level deep: what entering it writes is the caller's.
    let entered = formatter
        .begin_array(&mut std::io::sink())
        .and_then(|()| formatter.begin_array_value(&mut std::io::sink(), true));
    entered.map_err(serde_json::Error::io)?;
    value.serialize(&mut serde_json::Serializer::with_formatter(out, Escaping(formatter)))
}

/// serde_json's pretty formatter, escaping in string contents what it leaves raw.
struct Escaping<'a>(serde_json::ser::PrettyFormatter<'a>);

impl serde_json::ser::Formatter for Escaping<'_> {
    fn write_string_fragment<W: ?Sized + std::io::Write>(&mut self, w: &mut W, fragment: &str) -> std::io::Result<()> {
        if !has_hidden(fragment) {
            return w.write_all(fragment.as_bytes());
        }
        let mut copied = 0;
        for (i, c) in fragment.char_indices() {
            if is_hidden(c) {
                w.write_all(&fragment.as_bytes()[copied..i])?;
                write!(w, "\\u{:04x}", c as u32)?;
                copied = i + c.len_utf8();
            }
        }
        w.write_all(&fragment.as_bytes()[copied..])
    }

    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_shown_and_the_rest_left_alone() {
        let name = "job\u{1b}]0;owned\u{7}\u{1b}[2J\u{1b}[1;31m";
        assert_eq!(escape(name), "job\\u{1b}]0;owned\\u{7}\\u{1b}[2J\\u{1b}[1;31m");
        assert_eq!(escape("a\u{7f}b\u{85}c\u{9f}\r"), "a\\u{7f}b\\u{85}c\\u{9f}\\u{d}");
        assert_eq!(escape("access\u{202e}\u{2066}x\u{2069}"), "access\\u{202e}\\u{2066}x\\u{2069}");
        assert!(matches!(escape("tab\there\nline, é ü 中 \u{a0}"), Cow::Borrowed(_)));
        // The byte scan says what the character test says, for every character up to U+FFFF
        // (each hidden one is below U+2070), alone and between others.
        for c in (0..=0xffff).filter_map(char::from_u32) {
            assert_eq!(has_hidden(&c.to_string()), is_hidden(c), "{c:?}");
            assert_eq!(has_hidden(&format!("é{c}x")), is_hidden(c), "{c:?}");
        }
        // And at every place in a run of 16 bytes, past the first run (every hidden character is
        // below U+2100).
        for c in (0..0x2100).filter_map(char::from_u32) {
            for before in 0..=17 {
                let text = format!("{}{c}{}", "a".repeat(before), "b".repeat(20));
                assert_eq!(has_hidden(&text), is_hidden(c), "{c:?} after {before} bytes");
            }
        }
    }

    /// `str::lines` of `text`, each line escaped character by character from [`is_hidden`]
    /// alone: what the CLI printed before [`lines`] judged the lines in its own pass.
    fn lines_escaped_one_by_one(text: &str) -> Vec<(String, String)> {
        let escaped = |line: &str| -> String {
            line.chars().map(|c| if is_hidden(c) { format!("\\u{{{:x}}}", c as u32) } else { c.to_string() }).collect()
        };
        text.lines().map(|line| (line.to_string(), escaped(line))).collect()
    }

    fn lines_judged(text: &str) -> Vec<(String, String)> {
        lines(text).map(|line| (line.text().to_string(), line.shown().into_owned())).collect()
    }

    #[test]
    fn the_bytes_not_printable_ascii_are_marked_wherever_they_are() {
        for b in 0..=u8::MAX {
            for at in 0..8 {
                let mut eight = [b'a'; 8];
                eight[at] = b;
                let marked = if printable_ascii(b) { 0 } else { 0x80 << (8 * at) };
                assert_eq!(not_printable_ascii(&eight), marked, "{b:#04x} at {at}");
            }
        }
    }

    #[test]
    fn lines_are_split_and_escaped_as_one_line_at_a_time_was() {
        // Line ends: `\n`, `\r\n`, a bare `\r` (hidden, not an end), none at all, empty lines.
        for text in ["", "\n", "\n\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "a\rb", "a\r", "\r\n", "\r\r\n", "a\n\r"] {
            assert_eq!(lines_judged(text), lines_escaped_one_by_one(text), "{text:?}");
        }
        // Every character up to U+FFFF, alone, between others and on the line before another.
        for c in (0..=0xffff).filter_map(char::from_u32) {
            for text in [c.to_string(), format!("é{c}x"), format!("x{c}\r\nnext\u{1b}\nlast")] {
                assert_eq!(lines_judged(&text), lines_escaped_one_by_one(&text), "{c:?} in {text:?}");
            }
        }
        // And at every place in and past the first run of 16 bytes, in the first line and the
        // second (every hidden character is below U+2100), one line ending in the run.
        for c in (0..0x2100).filter_map(char::from_u32) {
            for before in 0..=33 {
                let a = "a".repeat(before);
                let b = "b".repeat(20);
                for text in [format!("{a}{c}{b}"), format!("{b}\n{a}{c}\n{b}"), format!("{a}{c}\n{b}")] {
                    assert_eq!(lines_judged(&text), lines_escaped_one_by_one(&text), "{c:?} after {before} bytes");
                }
            }
        }
    }

    #[test]
    fn json_escapes_every_control_character_and_reads_back_the_same() {
        let text = "e\u{1b} del\u{7f} nel\u{85} c1\u{9f} rlo\u{202e} lri\u{2066} é";
        let json = json_pretty(&serde_json::json!({ "name": text })).unwrap();
        assert!(json.contains(r"e\u001b del\u007f nel\u0085 c1\u009f rlo\u202e lri\u2066 é"), "{json}");
        assert!(!json.chars().any(is_hidden));
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back["name"], text);
        // Otherwise serde_json's own pretty printing.
        let plain = serde_json::json!({ "a": [1, "b\u{1b}c", { "d": null }], "e": "é\t\n" });
        assert_eq!(json_pretty(&plain).unwrap(), serde_json::to_string_pretty(&plain).unwrap());
    }
}

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

/// Whether `text` holds a hidden character, judged byte by byte: the CLI escapes its whole
/// answer (3 MB of report for 330 jobs), and decoding each character to look it up in Unicode's
/// tables cost 8% of a migration. Every hidden character starts with an ASCII control or with
/// the lead byte of a C1 control (C2), ALM (D8) or another bidirectional control (E2); only
/// those characters are decoded.
fn has_hidden(text: &str) -> bool {
    let hidden_at = |at: usize, b: u8| match b {
        b'\t' | b'\n' => false,
        0..=0x1f | 0x7f => true,
        // A lead byte starts a character, so `at` is a boundary.
        0xc2 | 0xd8 | 0xe2 => text[at..].chars().next().is_some_and(is_hidden),
        _ => false,
    };
    // Runs of 16 bytes of printable ASCII, TAB or LF (almost all of an answer) are passed over
    // whole: a test without an early exit, which the compiler does 16 bytes at a time.
    const RUN: usize = 16;
    let plain = |b: u8| b.wrapping_sub(b' ') < 0x5f || b == b'\t' || b == b'\n';
    let bytes = text.as_bytes();
    let runs = bytes.chunks_exact(RUN);
    let tail = runs.remainder().len();
    for (n, run) in runs.enumerate() {
        if !run.iter().fold(true, |all, &b| all & plain(b))
            && run.iter().enumerate().any(|(i, &b)| hidden_at(n * RUN + i, b))
        {
            return true;
        }
    }
    let start = bytes.len() - tail;
    bytes[start..].iter().enumerate().any(|(i, &b)| hidden_at(start + i, b))
}

/// `text` with every hidden character (see [`is_hidden`]) written as Rust writes it, `\u{1b}`, so
/// it is seen and not obeyed, as `kubectl` and `git` show such bytes. A backslash is left alone:
/// the output is for reading, not for reading back.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !has_hidden(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
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

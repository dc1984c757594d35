//! Syntax highlighting for the two languages the widget shows. Small on purpose: a general
//! highlighter would cost more wasm bytes than the whole widget, and we only ever highlight the
//! YAML and Python our own generators (or the migrator) produce.

use explorer_core::snippets::Language;
use std::ops::Range;

/// What a token is, which picks its colour (`t-<id>` in the CSS).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Anything else: punctuation, white space, names.
    Plain,
    /// A YAML key, or the name of a Python keyword argument.
    Key,
    /// A string.
    Str,
    /// A number.
    Num,
    /// YAML's `true`, `false`, `null`, `~`; Python's `True`, `False`, `None`.
    Const,
    /// A comment.
    Comment,
    /// A language keyword (`import`, `def`, ...).
    Keyword,
    /// A function or method being called.
    Func,
}

impl Class {
    /// CSS class suffix.
    pub fn id(self) -> &'static str {
        match self {
            Class::Plain => "pl",
            Class::Key => "k",
            Class::Str => "s",
            Class::Num => "n",
            Class::Const => "c",
            Class::Comment => "cm",
            Class::Keyword => "kw",
            Class::Func => "f",
        }
    }
}

impl Class {
    /// The element a token of this class starts with: `<span class="t-` and its `id`, in one
    /// string (`push_spans_unescaped`).
    fn open_tag(self) -> &'static str {
        match self {
            Class::Plain => "<span class=\"t-pl\">",
            Class::Key => "<span class=\"t-k\">",
            Class::Str => "<span class=\"t-s\">",
            Class::Num => "<span class=\"t-n\">",
            Class::Const => "<span class=\"t-c\">",
            Class::Comment => "<span class=\"t-cm\">",
            Class::Keyword => "<span class=\"t-kw\">",
            Class::Func => "<span class=\"t-f\">",
        }
    }
}

/// A token's class and its byte range in its line.
pub type Span = (Class, Range<usize>);

/// Spans for every line of `code`. Byte ranges index into each line and cover it completely.
pub fn highlight(language: Language, code: &str) -> Vec<Vec<Span>> {
    let mut out = Vec::new();
    for_each_line(language, code, |_, spans| out.push(spans.to_vec()));
    out
}

/// Calls `f` with each line of `code` and its spans, reusing one buffer for the spans (the
/// migrator's view highlights hundreds of thousands of lines).
fn for_each_line(language: Language, code: &str, mut f: impl FnMut(&str, &[Span])) {
    let mut spans = Vec::new();
    // Inside a YAML `|` block scalar: the indentation its content must exceed.
    let mut block_parent: Option<usize> = None;
    for line in code.lines() {
        spans.clear();
        match language {
            Language::Yaml => yaml_line_in_context(line, &mut block_parent, &mut spans),
            Language::Python => python_line(line, &mut spans),
        }
        f(line, &spans);
    }
}

fn yaml_line_in_context(line: &str, block_parent: &mut Option<usize>, spans: &mut Vec<Span>) {
    let indent = leading_whitespace(line);
    if let Some(parent) = *block_parent {
        if line.trim().is_empty() || indent > parent {
            spans.push((Class::Str, 0..line.len()));
            return;
        }
        *block_parent = None;
    }
    if yaml_line(line, indent, spans) {
        *block_parent = Some(indent);
    }
}

/// The length of the white space `s` starts with (what `trim_start` takes off).
fn leading_whitespace(s: &str) -> usize {
    // The converter's view highlights hundreds of thousands of lines, each with its indent and
    // the space after its key: there a run of spaces and then a character that is no white space
    // (nearly every line) is counted in bytes, not decoded character by character. Only in the
    // builds with the migrator's views: the widget highlights a few snippets, and its bytes count.
    #[cfg(feature = "migrate")]
    {
        let spaces = s.bytes().take_while(|&b| b == b' ').count();
        match s.as_bytes().get(spaces) {
            None => return spaces,
            Some(&next) if (b'!'..0x80).contains(&next) => return spaces,
            Some(_) => {}
        }
    }
    s.len() - s.trim_start().len()
}

/// Pushes the spans of one line, whose white space at the start is `indent` bytes long; returns
/// whether the line opens a block scalar.
fn yaml_line(line: &str, indent: usize, spans: &mut Vec<Span>) -> bool {
    let mut i = indent;
    if i > 0 {
        spans.push((Class::Plain, 0..i));
    }
    let rest = &line[i..];
    if rest.starts_with('#') {
        spans.push((Class::Comment, i..line.len()));
        return false;
    }
    if rest == "---" {
        spans.push((Class::Plain, i..line.len()));
        return false;
    }
    if rest.starts_with("- ") || rest == "-" {
        spans.push((Class::Plain, i..i + 1));
        i += 1;
        let ws = leading_whitespace(&line[i..]);
        if ws > 0 {
            spans.push((Class::Plain, i..i + ws));
            i += ws;
        }
    }
    if let Some(colon) = key_end(&line[i..]) {
        spans.push((Class::Key, i..i + colon));
        spans.push((Class::Plain, i + colon..i + colon + 1));
        i += colon + 1;
        let ws = leading_whitespace(&line[i..]);
        if ws > 0 {
            spans.push((Class::Plain, i..i + ws));
            i += ws;
        }
    }
    let value = &line[i..];
    let opens_block = matches!(value, "|" | "|-" | "|+");
    if !value.is_empty() {
        spans.push((yaml_value_class(value), i..line.len()));
    }
    opens_block
}

/// Byte offset of the `:` ending a mapping key, outside quotes.
fn key_end(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut quote: Option<u8> = None;
    let mut k = 0;
    while k < bytes.len() {
        let b = bytes[k];
        match quote {
            Some(q) if b == b'\\' && q == b'"' => k += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if (b == b'"' || b == b'\'') && k == 0 => quote = Some(b),
            None if b == b':' && (k + 1 == bytes.len() || bytes[k + 1] == b' ') => return Some(k),
            None if b == b'#' && k > 0 && bytes[k - 1] == b' ' => return None,
            None => {}
        }
        k += 1;
    }
    None
}

fn yaml_value_class(v: &str) -> Class {
    match v {
        "true" | "false" | "null" | "~" => Class::Const,
        "|" | "|-" | "|+" | "{}" | "[]" => Class::Plain,
        _ if is_number(v) => Class::Num,
        _ => Class::Str,
    }
}

/// `-12`, `3.5`, `1e3`: a plain YAML number. (Not `str::parse::<f64>`, whose float parser
/// costs several KB of wasm for a colour.)
fn is_number(v: &str) -> bool {
    let v = v.strip_prefix(['-', '+']).unwrap_or(v);
    // A number's mantissa starts with a digit or its point: any other value (most are words) is
    // none, and is not searched for an exponent and a point. Only in the converter's builds, as
    // `leading_whitespace`'s fast path.
    #[cfg(feature = "migrate")]
    if !matches!(v.as_bytes().first(), Some(b'0'..=b'9' | b'.')) {
        return false;
    }
    let (mantissa, exponent) = match v.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['-', '+']).unwrap_or(e))),
        None => (v, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((a, b)) => (digits(a) || a.is_empty()) && (digits(b) || b.is_empty()) && !(a.is_empty() && b.is_empty()),
        None => digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(digits)
}

const PY_KEYWORDS: [&str; 17] = [
    "def", "import", "from", "for", "in", "return", "if", "else", "elif", "with", "as", "while", "not", "and", "or",
    "class", "lambda",
];

fn python_line(line: &str, spans: &mut Vec<Span>) {
    let bytes = line.as_bytes();
    let mut i = 0;
    let push = |spans: &mut Vec<Span>, class: Class, r: Range<usize>| {
        // Merge runs of the same class so the DOM stays small.
        if let Some((c, last)) = spans.last_mut() {
            if *c == class && last.end == r.start {
                last.end = r.end;
                return;
            }
        }
        spans.push((class, r));
    };
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        if b == b'#' {
            push(spans, Class::Comment, i..bytes.len());
            break;
        }
        let is_prefix = (b == b'f' || b == b'r' || b == b'b') && matches!(bytes.get(i + 1), Some(b'"' | b'\''));
        if b == b'"' || b == b'\'' || is_prefix {
            let q = if is_prefix { bytes[i + 1] } else { b };
            i += if is_prefix { 2 } else { 1 };
            while i < bytes.len() && bytes[i] != q {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(bytes.len());
            push(spans, Class::Str, start..i);
            continue;
        }
        if b.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.' || bytes[i] == b'_') {
                i += 1;
            }
            push(spans, Class::Num, start..i);
            continue;
        }
        if b.is_ascii_alphabetic() || b == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &line[start..i];
            let next = bytes.get(i).copied();
            let class = if PY_KEYWORDS.contains(&word) {
                Class::Keyword
            } else if matches!(word, "True" | "False" | "None") {
                Class::Const
            } else if next == Some(b'(') {
                Class::Func
            } else if next == Some(b'=') && bytes.get(i + 1) != Some(&b'=') {
                Class::Key
            } else {
                Class::Plain
            };
            push(spans, class, start..i);
            continue;
        }
        // Multi-byte characters stay whole: advance to the next char boundary.
        i += 1;
        while i < bytes.len() && !line.is_char_boundary(i) {
            i += 1;
        }
        push(spans, Class::Plain, start..i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(lang: Language, code: &str) -> Vec<Vec<(Class, String)>> {
        highlight(lang, code)
            .into_iter()
            .zip(code.lines())
            .map(|(spans, line)| spans.into_iter().map(|(c, r)| (c, line[r].to_string())).collect())
            .collect()
    }

    #[test]
    fn yaml_keys_values_and_blocks() {
        let got = classes(Language::Yaml, "a:\n  - name: node\n  s: |\n    x: 1\n  n: 2\n");
        assert_eq!(got[1][1], (Class::Plain, "-".into()));
        assert_eq!(got[1][3], (Class::Key, "name".into()));
        assert_eq!(got[1][6], (Class::Str, "node".into()));
        assert_eq!(got[3], vec![(Class::Str, "    x: 1".into())], "block content is not a key");
        assert_eq!(got[4][4], (Class::Num, "2".into()));
    }

    #[test]
    fn numbers_are_recognised_without_a_float_parser() {
        for n in ["0", "-12", "3.5", ".5", "1e3", "2.5E-3", "+7"] {
            assert!(is_number(n), "{n}");
        }
        for s in ["", "-", ".", "1e", "0x1F", "1.2.3", "e3", "12Gi"] {
            assert!(!is_number(s), "{s}");
        }
    }

    /// The converter's fast path counts a line's leading spaces in bytes; any other white space
    /// (a tab, a no-break or ideographic space, a next-line) is still white space.
    #[test]
    fn leading_white_space_is_what_trim_start_takes_off() {
        for s in
            ["", "   ", "a", "  a: 1", "  \tx", "\t  x", "  \u{a0}x", "  \u{3000}x", "  \u{85}x", "  é", "  \u{1}x"]
        {
            assert_eq!(leading_whitespace(s), s.len() - s.trim_start().len(), "{s:?}");
        }
    }

    #[test]
    fn python_tokens() {
        let got = classes(Language::Python, "job = client.train(runtime=\"x\")  # go");
        assert!(got[0].contains(&(Class::Func, "train".into())));
        assert!(got[0].contains(&(Class::Key, "runtime".into())));
        assert!(got[0].contains(&(Class::Str, "\"x\"".into())));
        assert!(got[0].contains(&(Class::Comment, "# go".into())));
    }

    #[test]
    fn spans_cover_every_byte_even_with_unicode() {
        for code in ["print(\"héllo\") → ok", "k: \"ü\" # ∞"] {
            for lang in [Language::Python, Language::Yaml] {
                for (spans, line) in highlight(lang, code).iter().zip(code.lines()) {
                    let mut at = 0;
                    for (_, r) in spans {
                        assert_eq!(r.start, at);
                        assert!(line.is_char_boundary(r.end));
                        at = r.end;
                    }
                    assert_eq!(at, line.len(), "{line}");
                }
            }
        }
    }
}

/// Escapes text for HTML element content and attribute values.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped_html(&mut out, s);
    out
}

/// The bytes `push_escaped_html` stops at: the five characters it escapes, and the lead bytes of
/// the bidirectional controls (D8 for U+061C, E2 for the rest).
pub(crate) const HTML_STOPS: [bool; 256] = explorer_core::text::byte_set(b"&<>\"'\xd8\xe2");

/// `escape_html`, written onto the end of `out`. Copies the runs between the characters it
/// escapes whole; those are ASCII, so a byte that matches one is that character, or the lead byte
/// of a bidirectional control, which a reader is shown as `\u{202e}` instead of having the text
/// around it reordered ("Trojan Source"). The runs are found by a table lookup per byte: the
/// answer of a large paste is megabytes of escaped text, and a `match` per byte was 7% of the
/// converter module's work. The converter's builds find them eight bytes at a time
/// (`html_stops`): the pods' reasons alone are megabytes of prose.
pub fn push_escaped_html(out: &mut String, s: &str) {
    #[cfg(feature = "migrate")]
    push_escaped_html_breaking(out, s, crate::html_stops::next_html_stop, |_, _| false);
    #[cfg(not(feature = "migrate"))]
    push_escaped_html_breaking(out, s, |bytes, from| next_stop(bytes, from, &HTML_STOPS), |_, _| false);
}

/// The first index from `from` on whose byte is in `stops`.
fn next_stop(bytes: &[u8], from: usize, stops: &[bool; 256]) -> Option<usize> {
    bytes[from..].iter().position(|&b| stops[usize::from(b)]).map(|n| from + n)
}

/// `push_escaped_html` of `s`, which also stops where `next_stop(bytes, from)` finds an ASCII
/// byte that is none of `HTML_STOPS`'s and writes a `<wbr>` after it where `breaks_after(bytes,
/// i)` says so: one scan of the text, its runs copied whole between the stops of both kinds.
fn push_escaped_html_breaking(
    out: &mut String,
    s: &str,
    next_stop: impl Fn(&[u8], usize) -> Option<usize>,
    breaks_after: impl Fn(&[u8], usize) -> bool,
) {
    let bytes = s.as_bytes();
    let mut copied = 0;
    let mut from = 0;
    while let Some(i) = next_stop(bytes, from) {
        from = i + 1;
        let escaped = match bytes[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            b if b.is_ascii() => {
                if breaks_after(bytes, i) {
                    out.push_str(&s[copied..=i]);
                    out.push_str("<wbr>");
                    copied = i + 1;
                }
                continue;
            }
            _ => match s[i..].chars().next() {
                Some(c) if explorer_core::terminal::is_bidi_control(c) => {
                    out.push_str(&s[copied..i]);
                    out.push_str(&explorer_core::terminal::escape(&s[i..i + c.len_utf8()]));
                    copied = i + c.len_utf8();
                    from = copied;
                    continue;
                }
                _ => continue,
            },
        };
        out.push_str(&s[copied..i]);
        out.push_str(escaped);
        copied = i + 1;
    }
    out.push_str(&s[copied..]);
}

/// What `push_breakable` writes a line-break opportunity after.
#[cfg(feature = "explain")]
const VALUE_BREAKS: &[u8] = b"/.,[:=";

/// The bytes `push_breakable` stops at: `HTML_STOPS`, and `VALUE_BREAKS`. A `static`, looked up
/// in place.
#[cfg(feature = "explain")]
static BREAKABLE_STOPS: [bool; 256] = {
    let mut stops = HTML_STOPS;
    let mut i = 0;
    while i < VALUE_BREAKS.len() {
        stops[VALUE_BREAKS[i] as usize] = true;
        i += 1;
    }
    stops
};

/// `v` escaped, with a line-break opportunity (`<wbr>`) after each of `VALUE_BREAKS` (`/`, `.`,
/// `,`, `[`, `:` and `=`): a long value (`fieldRef:metadata.annotations['batch.kubernetes.io/…']`, a JSON command)
/// wraps between its parts, and a short one (`PET_MASTER_PORT`) never wraps inside itself. A
/// version's dot is none (`alpine:3.10`, not `alpine:3.|10`). For values in tables and prose (the
/// pod comparison, "What Kubernetes runs"), not code boxes. Escaped and broken in one scan, not
/// escaped part by part: the field report has tens of thousands of these, a few bytes apart.
#[cfg(feature = "explain")]
pub(crate) fn push_breakable(out: &mut String, v: &str) {
    push_escaped_html_breaking(
        out,
        v,
        |bytes, from| next_stop(bytes, from, &BREAKABLE_STOPS),
        |b, i| {
            // Never after the last byte; a dot between two digits is a version's.
            let Some(&next) = b.get(i + 1) else { return false };
            let version_dot = b[i] == b'.' && i > 0 && b[i - 1].is_ascii_digit() && next.is_ascii_digit();
            !version_dot
        },
    );
}

/// The bytes `push_note` stops at: `HTML_STOPS`, and `/`.
#[cfg(feature = "migrate")]
static NOTE_STOPS: [bool; 256] = {
    let mut stops = HTML_STOPS;
    stops[b'/' as usize] = true;
    stops
};

/// A report's note (prose) escaped, with a line-break opportunity (`<wbr>`) after each `/`: a
/// note may cite an upstream line (`jobset v0.12.0:pkg/webhooks/jobset_webhook.go:125-126`), one
/// word wider than a phone's column, which then wraps between its path's parts. Prose has no
/// other use for a slash that a break would cut.
#[cfg(feature = "migrate")]
pub(crate) fn push_note(out: &mut String, note: &str) {
    push_escaped_html_breaking(out, note, |bytes, from| next_stop(bytes, from, &NOTE_STOPS), |b, i| i + 1 < b.len());
}

/// How the code box shows a line wider than itself: it scrolls (the default), or, with the
/// widget's "Wrap long lines" on, it wraps. A wrapping box needs each line that may wrap to be
/// an element of its own, so that its continuation hangs under its indent; a scrolling one has
/// no use for those elements, and every element is work on each toggle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LongLines {
    /// Long lines scroll sideways.
    #[default]
    Scroll,
    /// Long lines wrap, each continuation under its indent.
    Wrap,
}

/// Highlighted code as a `<code>` element, as the widget's code blocks and the page's static
/// figures both show it: tokens as `<span class="t-…">`, and a `<span class="ln …">` around each
/// marked line (`ln o` where a V1 line is infrastructure a runtime now owns).
///
/// Plain lines and punctuation get no element of their own: every element is DOM work on each
/// toggle, and these two were 60% of them (with a block per line, a toggle parsed and swapped
/// about 360 elements; now about 150).
pub fn code_html(language: Language, code: &str, owned: &[bool], long_lines: LongLines) -> String {
    let mut out = String::with_capacity(code.len() * 2 + 13);
    out.push_str("<code>");
    push_owned_lines(&mut out, language, code, owned, long_lines);
    out.push_str("</code>");
    out
}

fn push_owned_lines(out: &mut String, language: Language, code: &str, owned: &[bool], long_lines: LongLines) {
    let classes: Vec<Option<&str>> = owned.iter().map(|o| o.then_some("o")).collect();
    push_code_lines(out, language, code, &classes, long_lines, long_lines == LongLines::Wrap);
}

/// The deepest a wrapped line hangs (`.i2` to `.i40` in the widget's stylesheet); a deeper line
/// hangs at this one.
const MAX_HANG: usize = 40;

/// The deepest hang a narrow widget (a phone's, whose boxes hold 26 to 38 columns) wraps under.
/// A deeper line is `deep`, and there it does not wrap (the box scrolls sideways for it): wrapped,
/// its key had a row of its own at column 0 and its words broke every few letters (the
/// runtimePatches' affinity in real-v1's CoreWeave PyTorchJob, 30 to 40 columns deep). A wide
/// box wraps it under its hang like any line.
const DEEP_HANG: usize = 20;

/// The longest line that fits every code box, so never wraps: the narrowest, on a 320 px phone,
/// holds 31 columns (measured in Chromium on the post), less what a host page's own padding takes.
const NEVER_WRAPS: usize = 28;

/// Whether a line is long enough to wrap, and so to need a hang. A shorter one gets no element:
/// the elements are what a toggle parses and inserts. Over the main widget's views of every
/// framework, a hang element on every indented line made 1,544 elements (1,180 without any;
/// 1,313 with this test), and the unprepared toggle's median was 0.7 to 1.2 ms slower than
/// without them (A/B in headless Chromium, 2 Dec). Hence also `LongLines`: no hangs at all
/// while the box scrolls.
fn may_wrap(line: &str) -> bool {
    line.len() > NEVER_WRAPS && line.chars().count() > NEVER_WRAPS
}

/// Whether the first piece after a hanging line's indent (up to a space or a `<wbr>` of
/// `break_points`) may be too long for the rest of the narrowest box's first row. The browser
/// then wraps after the indent, which is a break opportunity, and the row shows nothing but
/// spaces: a blank line that is not in the code. Such a line is `deep`: a narrow widget does not
/// wrap it (breaking it anywhere instead broke its words, `RAN|K`).
fn first_word_may_not_fit(line: &str, start: usize, breaks: &[usize]) -> bool {
    let space = line[start..].bytes().position(|b| b == b' ').map_or(line.len(), |p| start + p);
    let end = breaks.iter().copied().find(|&p| p > start).map_or(space, |p| p.min(space));
    end > NEVER_WRAPS
}

/// The characters of `line` from `from` on, each with its offset from `from`, as far as
/// `some_piece_may_not_fit` tells them apart: a space, a hyphen, or another. The converter's
/// builds take them from the bytes, not decoded (a character's first byte stands for it, as a
/// Latin-1 character that is neither; the bytes that continue it are skipped): their code boxes'
/// long lines are megabytes. The widget decodes them.
#[cfg(feature = "migrate")]
fn characters_from(line: &str, from: usize) -> impl Iterator<Item = (usize, char)> + '_ {
    let starts = |(_, b): &(usize, &u8)| **b & 0xc0 != 0x80;
    line.as_bytes()[from..].iter().enumerate().filter(starts).map(|(i, &b)| (i, char::from(b)))
}

#[cfg(not(feature = "migrate"))]
fn characters_from(line: &str, from: usize) -> impl Iterator<Item = (usize, char)> + '_ {
    line[from..].char_indices()
}

/// Whether some piece of a hanging line (between its spaces, hyphens and `<wbr>`s) is longer
/// than the narrowest box's row beside its hang: wrapped there, the piece would break inside a
/// word (`pytorch_dist_resnet|50` in migrate mode's V1 job on a 375 px phone).
fn some_piece_may_not_fit(line: &str, key: usize, hang: usize, breaks: &[usize]) -> bool {
    let room = NEVER_WRAPS.saturating_sub(hang);
    let mut next_break = breaks.iter().copied().peekable();
    let mut piece = 0;
    for (i, c) in characters_from(line, key) {
        if next_break.next_if(|&p| p <= key + i).is_some() {
            piece = 0;
        }
        if c == ' ' {
            piece = 0;
            continue;
        }
        piece += 1;
        if piece > room {
            return true;
        }
        if c == '-' {
            piece = 0;
        }
    }
    false
}

/// What a long word of code may break after when its box wraps: Chromium breaks a line at spaces
/// and hyphens only, so `image: tensorflow/tensorflow:2.16.1` or `trainer=CustomTrainer(func=train,`
/// on a phone broke wherever the row ended, inside a word (`tensorfl|ow`, `func=trai|n`).
const BREAK_AFTER: &[u8] = b"/.:=,([{";

/// Whether `c` is one of `BREAK_AFTER`. The converter's builds look it up in a table: their code
/// boxes' long words are megabytes, and comparing each byte with the eight was most of their
/// break points' work. The widget, with a few snippets, compares.
fn breaks_after(c: u8) -> bool {
    #[cfg(feature = "migrate")]
    {
        static BREAK_AFTER_SET: [bool; 256] = explorer_core::text::byte_set(BREAK_AFTER);
        BREAK_AFTER_SET[usize::from(c)]
    }
    #[cfg(not(feature = "migrate"))]
    BREAK_AFTER.contains(&c)
}

/// Where a wrapping line gets a `<wbr>` (byte offsets it goes before): after each `BREAK_AFTER`
/// character of a space-separated word longer than the narrowest box's row beside the line's
/// hang, unless the next character is one of them too, or it is a version's dot (`2.16`). A word
/// that fits a row gets none: the browser moves it whole, and every element is work on a toggle.
fn break_points(line: &str, hang: usize) -> Vec<usize> {
    let room = NEVER_WRAPS.saturating_sub(hang);
    let mut points = Vec::new();
    for (start, word) in words(line) {
        let b = word.as_bytes();
        // A word of no more bytes than the room has no more characters: counted only when longer.
        if b.len() > room && word.chars().count() > room {
            for i in 1..b.len().saturating_sub(1) {
                let c = b[i];
                if !breaks_after(c) {
                    continue;
                }
                let (before, next) = (b[i - 1], b[i + 1]);
                let version_dot = c == b'.' && before.is_ascii_digit() && next.is_ascii_digit();
                if !breaks_after(next) && !version_dot {
                    points.push(start + i + 1);
                }
            }
        }
    }
    points
}

/// The words of `line` between its spaces, each with its byte offset. The converter's builds
/// find them with a byte scan and skip the empty ones (`break_points` has nothing to do in
/// those): with `str::split`, each space of an indent was an empty word and a turn of its
/// searcher. The widget, whose bytes count, splits.
#[cfg(feature = "migrate")]
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = line.as_bytes();
    let mut start = 0;
    std::iter::from_fn(move || {
        start += bytes.get(start..)?.iter().take_while(|&&b| b == b' ').count();
        let end = bytes[start..].iter().position(|&b| b == b' ').map_or(bytes.len(), |n| start + n);
        let word = (start, &line[start..end]);
        start = end;
        Some(word).filter(|(_, w)| !w.is_empty())
    })
}

#[cfg(not(feature = "migrate"))]
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    line.split(' ').map(move |word| {
        let at = start;
        start += word.len() + 1;
        (at, word)
    })
}

/// How far a line's wrapped continuation hangs: two columns past its key, that is past its
/// indent with YAML's `- ` list markers, in an even number of columns (every emitter here
/// indents by 2 or 4). Under the key itself, a continuation read as the next key of the block
/// (`image: tensorflow/` then `tensorflow:2.16.1`), and a top-level line's went on at column 0.
fn hang(key_column: usize) -> usize {
    ((key_column + 2) & !1).min(MAX_HANG)
}

/// Where a line's key (or first word) starts: past its indent and YAML's `- ` list markers.
fn key_column(line: &str) -> usize {
    let mut cols = 0;
    let bytes = line.as_bytes();
    while let Some(&b) = bytes.get(cols) {
        if !(b == b' ' || b == b'-' && bytes.get(cols + 1) == Some(&b' ')) {
            break;
        }
        cols += 1;
    }
    cols
}

/// The inside of a `<code>` like `code_html`'s, with a CSS class of its own per line (the migrator's
/// mapped/moved/dropped; each line of "What Kubernetes runs").
pub fn to_html_with_classes(language: Language, code: &str, line_classes: &[Option<&str>]) -> String {
    let mut out = String::with_capacity(code.len() * 2);
    push_lines(&mut out, language, code, line_classes);
    out
}

/// [`to_html_with_classes`] appended to `out`, for a page written into one string. These boxes
/// (migrate mode's V1 job and objects, "What Kubernetes runs") are rendered once and scrolled or
/// wrapped by the stylesheet alone (the widget's "Wrap long lines"), so their long lines are
/// ready for both: break points (`<wbr>`, no effect while the box scrolls), so wrapped they
/// break at their punctuation, not inside a word; and their hangs (class `iN`, no effect while
/// the box scrolls), with `deep` for a line a narrow widget does not wrap.
pub fn push_lines(out: &mut String, language: Language, code: &str, line_classes: &[Option<&str>]) {
    push_code_lines(out, language, code, line_classes, LongLines::Wrap, true);
}

/// With `LongLines::Wrap`, a line that may wrap is an element too, with its hang as a class
/// (`i4`): with "Wrap long lines" on a phone, its continuation then starts past its key, not at
/// column 0, where it read as a new line outside its block; `deep` too for a line that a narrow
/// widget does not wrap (deeper than `DEEP_HANG`, or its first word may not fit its first row, or
/// another piece the row beside its hang).
/// The indent stays the line's own spaces, so the text a selection or
/// a screen reader takes out of the box is the code, unchanged.
fn push_code_lines(
    out: &mut String,
    language: Language,
    code: &str,
    line_classes: &[Option<&str>],
    long_lines: LongLines,
    breakable: bool,
) {
    let mut i = 0;
    for_each_line(language, code, |line, spans| {
        let class = line_classes.get(i).copied().flatten();
        i += 1;
        let long = may_wrap(line);
        let wraps = long_lines == LongLines::Wrap && long;
        let key = key_column(line);
        let hung = hang(key);
        let breaks = if breakable && long { break_points(line, hung) } else { Vec::new() };
        let mut next_break = breaks.iter().copied().peekable();
        let marked = class.is_some() || wraps;
        if marked {
            out.push_str("<span class=\"ln");
            if let Some(class) = class {
                out.push(' ');
                out.push_str(class);
            }
            if wraps {
                out.push_str(" i");
                push_number(out, hung);
                let deep = hung > DEEP_HANG
                    || first_word_may_not_fit(line, key, &breaks)
                    || some_piece_may_not_fit(line, key, hung, &breaks);
                if deep {
                    out.push_str(" deep");
                }
            }
            out.push_str("\">");
        }
        let unescaped = needs_no_escaping(line);
        if unescaped && breaks.is_empty() {
            push_spans_unescaped(out, line, spans);
        } else {
            // A line with nothing to escape has its pieces copied as they are.
            let push_text = |out: &mut String, text: &str| match unescaped {
                true => out.push_str(text),
                false => push_escaped_html(out, text),
            };
            for (class, range) in spans {
                if *class != Class::Plain {
                    out.push_str("<span class=\"t-");
                    out.push_str(class.id());
                    out.push_str("\">");
                }
                // The text, with a `<wbr>` before each break point inside it.
                let mut at = range.start;
                while let Some(p) = next_break.next_if(|&p| p < range.end) {
                    push_text(out, &line[at..p]);
                    out.push_str("<wbr>");
                    at = p;
                }
                push_text(out, &line[at..range.end]);
                if *class != Class::Plain {
                    out.push_str("</span>");
                }
            }
        }
        // The newline goes after a marked line's element, never inside it: the element is an
        // inline-block (a block would make the browser's innerText, which is what screen readers,
        // drag-and-drop and copy buttons of host sites read, show every marked line twice).
        if marked {
            out.push_str("</span>");
        }
        out.push('\n');
    });
}

/// Whether `line` holds nothing HTML escapes, so that its tokens can be written as they are.
/// Only the converter's builds look (eight bytes at a time, `html_stops`): their code boxes are
/// hundreds of thousands of lines, nearly all of them plain ASCII, and escaping token by token
/// was a call and a copy per token. The widget escapes every token, as before.
#[cfg(feature = "migrate")]
fn needs_no_escaping(line: &str) -> bool {
    crate::html_stops::next_html_stop(line.as_bytes(), 0).is_none()
}

#[cfg(not(feature = "migrate"))]
fn needs_no_escaping(_: &str) -> bool {
    false
}

/// The spans of a line with nothing to escape and no break point, each run of plain tokens
/// between two classed ones copied whole.
fn push_spans_unescaped(out: &mut String, line: &str, spans: &[Span]) {
    let mut plain_from = 0;
    for (class, range) in spans.iter().filter(|(class, _)| *class != Class::Plain) {
        out.push_str(&line[plain_from..range.start]);
        out.push_str(class.open_tag());
        out.push_str(&line[range.clone()]);
        out.push_str("</span>");
        plain_from = range.end;
    }
    out.push_str(&line[plain_from..]);
}

/// `n` (below 100) in decimal, without the formatting machinery.
fn push_number(out: &mut String, n: usize) {
    if n >= 10 {
        out.push(char::from(b'0' + (n / 10) as u8));
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

#[cfg(test)]
mod html_tests {
    use super::*;

    /// A note's path wraps after its slashes (the field report never scrolls sideways on a phone),
    /// its prose is escaped as before, and a slash that ends the note gets no break after it.
    #[cfg(feature = "migrate")]
    #[test]
    fn a_notes_path_breaks_after_its_slashes() {
        let mut out = String::new();
        push_note(&mut out, "JobSet's webhook (jobset v0.12.0:pkg/webhooks/jobset_webhook.go:125-126) <a & b>/");
        assert_eq!(
            out,
            "JobSet&#39;s webhook (jobset v0.12.0:pkg/<wbr>webhooks/<wbr>jobset_webhook.go:125-126) &lt;a &amp; b&gt;/"
        );
    }

    /// The inside of `code_html`'s `<code>` element.
    fn to_html(language: Language, code: &str, owned: &[bool], long_lines: LongLines) -> String {
        let html = code_html(language, code, owned, long_lines);
        html["<code>".len()..html.len() - "</code>".len()].to_string()
    }

    /// In a wrapping box, a line long enough to wrap hangs two columns past its key (list
    /// markers counted), a top-level one too; one that fits the narrowest code box has no element
    /// of its own. A line deeper than `DEEP_HANG` is `deep` too (a narrow widget does not wrap it),
    /// and so is one whose first word may not fit its first row. A scrolling box has
    /// no hang at all, and the same text.
    #[test]
    fn only_lines_that_may_wrap_hang_and_only_when_the_box_wraps() {
        let long = "      - --model_dir=/mnt/models/a-long-path";
        let deep = "                    nodeSelectorTerms: [a-long-value]";
        let code = format!("spec:\n  replicas: 1\n{long}\nimage: registry.example.com/team/trainer:1\n{deep}\n");
        let line_elements = |html: &str| {
            html.match_indices("<span class=\"ln").map(|(i, _)| html[i..i + 22].to_string()).collect::<Vec<_>>()
        };
        let wrapping = code_html(Language::Yaml, &code, &[], LongLines::Wrap);
        assert_eq!(
            line_elements(&wrapping),
            ["<span class=\"ln i10\"> ", "<span class=\"ln i2\"><s", "<span class=\"ln i22 de"],
            "in {wrapping}"
        );
        assert!(
            wrapping.contains(
                "<span class=\"ln i10\">      - <span class=\"t-s\">--model_dir=/<wbr>mnt/<wbr>models/<wbr>a-long-path"
            ),
            "the long line's own element, its long word breakable after its punctuation: {wrapping}"
        );
        assert!(
            wrapping.contains(
                "<span class=\"ln i22 deep\">                    <span class=\"t-k\">nodeSelectorTerms</span>:"
            ),
            "a line deeper than a narrow widget wraps: {wrapping}"
        );
        // A first piece too long to fit beside the indent on the narrowest box makes its line deep;
        // one that ends at a break point fits (coordinator_address=, then os.environ[).
        let python = "    jax.distributed.initialize(\n        coordinator_address=os.environ[\"JAX_COORDINATOR_ADDRESS\"],\n        a_parameter_name_of_thirty_one=1,\n";
        let html = code_html(Language::Python, python, &[], LongLines::Wrap);
        assert!(
            html.contains("<span class=\"ln i10 deep\">        <span class=\"t-k\">coordinator_address</span>=<wbr>os.<wbr>environ[<span class=\"t-s\"><wbr>&quot;JAX"),
            "a word broken at its punctuation, and deep: its quoted name is too long for a row beside the hang: {html}"
        );
        assert!(
            html.contains(
                "<span class=\"ln i10 deep\">        <span class=\"t-k\">a_parameter_name_of_thirty_one</span>="
            ),
            "a piece too long for its row: {html}"
        );
        assert_eq!(html.matches("<span class=\"ln").count(), 3, "{html}");
        // A version's dots are no break point; a word that fits the row has none at all.
        let image = code_html(Language::Yaml, "  - image: tensorflow/tensorflow:2.16.1-gpu\n", &[], LongLines::Wrap);
        assert!(image.contains("tensorflow/<wbr>tensorflow:<wbr>2.16.1-gpu</span>"), "{image}");
        let short = code_html(Language::Yaml, "  - image: registry.example/x:1 # the team's\n", &[], LongLines::Wrap);
        assert!(!short.contains("<wbr>"), "{short}");
        // One whose first word fits beside its indent breaks at its spaces, as any line.
        let yaml = code_html(Language::Yaml, "    image: registry.example.com/team/trainer:1\n", &[], LongLines::Wrap);
        assert!(yaml.starts_with("<code><span class=\"ln i6\">"), "{yaml}");
        // A piece longer than the row beside the hang would break inside a word: deep.
        let piece =
            code_html(Language::Yaml, "          image: navarrepratt/pytorch_dist_resnet50:14\n", &[], LongLines::Wrap);
        assert!(piece.starts_with("<code><span class=\"ln i12 deep\">"), "{piece}");
        let scrolling = code_html(Language::Yaml, &code, &[], LongLines::Scroll);
        assert_eq!(line_elements(&scrolling), Vec::<String>::new(), "in {scrolling}");
        assert!(scrolling.contains("\n      - <span class=\"t-s\">--model_dir"), "the long line as it is: {scrolling}");
        assert_eq!(text_of(&scrolling), text_of(&wrapping), "the same code either way");
    }

    /// The boxes rendered once (migrate mode, "What Kubernetes runs") are ready to wrap: their
    /// long lines carry their hang or `deep`, with their own class kept, and their break points.
    #[test]
    fn boxes_rendered_once_carry_their_hangs() {
        let code = "kind: TrainJob\napiVersion: trainer.kubeflow.org/v1alpha1\n                            requiredDuringSchedulingIgnoredDuringExecution:\n";
        let html = to_html_with_classes(Language::Yaml, code, &[Some("l"), Some("l"), Some("d")]);
        assert!(html.starts_with("<span class=\"ln l\"><span class=\"t-k\">kind"), "{html}");
        assert!(html.contains("<span class=\"ln l i2\"><span class=\"t-k\">apiVersion</span>: <span class=\"t-s\">trainer.<wbr>kubeflow.<wbr>org/<wbr>v1alpha1"), "{html}");
        assert!(
            html.contains(
                "<span class=\"ln d i30 deep\">                            <span class=\"t-k\">requiredDuring"
            ),
            "{html}"
        );
        assert_eq!(text_of(&html), code);
    }

    /// The text a browser shows for `html`: its tags stripped and its five escapes read.
    fn text_of(html: &str) -> String {
        let mut text = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    }

    /// A line with nothing to escape is written as token by token escaping writes it: each
    /// classed token in its element, the plain ones between them as they are.
    #[test]
    fn a_line_without_escapes_is_written_as_its_tokens_escaped() {
        let code = "  - name: pytorch\n    replicas: 2\n# a comment\nkind: PyTorchJob\n  enabled: true\n---\n- x\n";
        for (spans, line) in highlight(Language::Yaml, code).iter().zip(code.lines()) {
            let mut expected = String::new();
            for (class, range) in spans {
                let text = escape_html(&line[range.clone()]);
                match class {
                    Class::Plain => expected.push_str(&text),
                    _ => expected.push_str(&format!("<span class=\"t-{}\">{text}</span>", class.id())),
                }
            }
            let mut written = String::new();
            push_spans_unescaped(&mut written, line, spans);
            assert_eq!(written, expected, "{line:?}");
        }
        for class in [
            Class::Plain,
            Class::Key,
            Class::Str,
            Class::Num,
            Class::Const,
            Class::Comment,
            Class::Keyword,
            Class::Func,
        ] {
            assert_eq!(class.open_tag(), format!("<span class=\"t-{}\">", class.id()));
        }
    }

    /// The words and characters the wrapping checks read are `str::split`'s words (the empty
    /// ones aside) and `char_indices`' characters, as far as those checks tell them apart.
    #[test]
    fn words_and_characters_are_the_strings_own() {
        for line in ["", " ", "a", "  - image: x/y:1  ", "ab  cd", "  ü→ é-x  ", "-- a"] {
            let mut start = 0;
            let mut split = Vec::new();
            for word in line.split(' ') {
                if !word.is_empty() {
                    split.push((start, word));
                }
                start += word.len() + 1;
            }
            assert_eq!(words(line).filter(|(_, w)| !w.is_empty()).collect::<Vec<_>>(), split, "{line:?}");
            let kind = |c: char| [c == ' ', c == '-'];
            let decoded: Vec<_> = line.char_indices().map(|(i, c)| (i, kind(c))).collect();
            let ours: Vec<_> = characters_from(line, 0).map(|(i, c)| (i, kind(c))).collect();
            assert_eq!(ours, decoded, "{line:?}");
        }
    }

    /// A value breaks after its punctuation, not at a version's dot, and keeps its text.
    #[test]
    fn breakable_values_break_after_punctuation_but_not_in_a_version() {
        let mut out = String::new();
        push_breakable(&mut out, "initContainers[init] (alpine:3.10) <a>/b.c");
        assert_eq!(out, "initContainers[<wbr>init] (alpine:<wbr>3.10) &lt;a&gt;/<wbr>b.<wbr>c");
    }

    #[test]
    fn html_is_escaped_and_keeps_the_text() {
        let code = "k: \"<script>&\"\n";
        let html = to_html(Language::Yaml, code, &[true], LongLines::Scroll);
        assert!(!html.contains("<script>"));
        assert!(html.starts_with("<span class=\"ln o\">"));
        assert_eq!(html.matches("<span").count(), 3, "the marked line, its key and its string: {html}");
        // Stripping tags and unescaping gives back the code: copying from the page is faithful.
        assert_eq!(text_of(&html), code);
    }

    #[test]
    fn escaping_replaces_exactly_the_five_characters() {
        let s = "a&b<c>d\"e'f ü→∞ &amp;";
        assert_eq!(escape_html(s), "a&amp;b&lt;c&gt;d&quot;e&#39;f ü→∞ &amp;amp;");
        assert_eq!(escape_html("plain"), "plain");
        assert_eq!(escape_html("'"), "&#39;");
    }

    #[test]
    fn bidirectional_controls_are_shown_not_obeyed() {
        // "Trojan Source": U+202E would show "access" as "sseca" and reorder what follows.
        assert_eq!(
            escape_html("job\u{202e}<x>\u{2066}é\u{2069}\u{61c}\u{200f}→"),
            "job\\u{202e}&lt;x&gt;\\u{2066}é\\u{2069}\\u{61c}\\u{200f}→"
        );
        // Other characters starting with the same bytes are left alone.
        assert_eq!(escape_html("–—…€→∞\u{2070}\u{600}"), "–—…€→∞\u{2070}\u{600}");
    }

    #[test]
    fn a_marked_line_holds_its_text_and_its_newline_follows_it() {
        // The line element is an inline-block: a newline inside it would end the element's own
        // line and put the next line of code beside it.
        let html = to_html(Language::Python, "a\nb\n\nc\n", &[false, true, true, false], LongLines::Scroll);
        assert_eq!(html, "a\n<span class=\"ln o\">b</span>\n<span class=\"ln o\"></span>\nc\n");
    }

    #[test]
    fn plain_lines_and_punctuation_add_no_elements() {
        let html = to_html(Language::Python, "x = f(a, b)\n\nprint(x)\n", &[], LongLines::Scroll);
        assert_eq!(html, "x = <span class=\"t-f\">f</span>(a, b)\n\n<span class=\"t-f\">print</span>(x)\n");
    }
}

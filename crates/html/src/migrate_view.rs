//! What the widget shows for a migration: the converted YAML, the documents' status list and
//! each converted document's marked V1 lines and field report, as HTML. The converter runs in a
//! separate, lazily loaded wasm module; this is what crosses between the two (as JSON).
//!
//! Written straight into the output strings: a 4 MiB input can have hundreds of thousands of
//! report rows and V1 lines, and a copy or an allocation per row is what made it slow.

use crate::highlight::{push_breakable, push_escaped_html, push_lines, push_note};
use explorer_core::migrate::pods::{Compared, NotCompared, PodComparison};
use explorer_core::migrate::report::{Entry, EntryIndex, Kind};
use explorer_core::migrate::{DocResult, Migration, Outcome};
use explorer_core::snippets::Language;
use explorer_core::yaml::{self, Sink};
use std::fmt::Write;

fn class_of(kind: Kind) -> &'static str {
    match kind {
        Kind::Mapped | Kind::Renamed | Kind::Converted | Kind::Added | Kind::Attention => "m",
        Kind::Moved => "v",
        Kind::Dropped | Kind::Omitted => "d",
        // The field still has its counterpart, under V2's fixed name.
        Kind::NameFixed => "m",
    }
}

/// A document's title ("PyTorchJob pytorch-simple"), status (converted | lossy | refused |
/// passed | invalid) and message.
fn describe(d: &DocResult) -> (String, &'static str, String) {
    match &d.outcome {
        Outcome::Written { name, kind, report, lossy, .. } => {
            let message = if *lossy {
                let dropped = report.iter().filter(|e| e.kind == Kind::Dropped).count();
                format!("Converted; {dropped} field(s) could not be carried over (see the report).")
            } else {
                "Converted without losses.".into()
            };
            (format!("{kind} {name}"), if *lossy { "lossy" } else { "converted" }, message)
        }
        Outcome::Refused { name, kind, reason } => (format!("{kind} {name}"), "refused", reason.to_string()),
        Outcome::PassedThrough { name, kind, .. } => {
            (format!("{kind} {name}"), "passed", "Not a Training Operator job: passed through unchanged.".into())
        }
        Outcome::Invalid { error } => ("Invalid document".into(), "invalid", error.to_string()),
    }
}

/// The documents' status list, as HTML (escaped). The converter module renders it, so the
/// widget needs no JSON decoder.
pub fn summary_html(m: &Migration) -> String {
    let mut out = String::from("<ul class=\"doc-status\">");
    for d in &m.docs {
        let (title, status, message) = describe(d);
        let _ = write!(out, "<li class=\"doc {status}\"><span class=\"badge\">{status}</span> <strong>");
        push_escaped_html(&mut out, &title);
        let _ = write!(
            out,
            "</strong> <span class=\"where\">(document {}, line {})</span> <span class=\"doc-msg\">",
            d.index, d.line
        );
        push_escaped_html(&mut out, &message);
        out.push_str("</span></li>");
    }
    out.push_str("</ul>");
    out
}

/// The V1 document re-emitted, one line per field, each line classed m (mapped), v (moved) or
/// d (dropped) by the report entry that accounts for its field.
struct MarkedSource<'a> {
    index: EntryIndex<'a>,
    report: &'a [Entry],
    text: String,
    classes: Vec<Option<&'static str>>,
    /// The current line's field path, as the report writes it (`spec.a.b[0]`), kept up to date
    /// field by field rather than built for each line.
    path: String,
    /// The path's length before each field entered.
    starts: Vec<usize>,
}

impl Sink for MarkedSource<'_> {
    fn line(&mut self) -> &mut String {
        &mut self.text
    }

    fn end_line(&mut self) {
        self.text.push('\n');
        self.classes.push(self.index.find(&self.path).map(|i| class_of(self.report[i].kind)));
    }

    fn enter_key(&mut self, key: &str) {
        self.starts.push(self.path.len());
        if !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(key);
    }

    fn enter_index(&mut self, i: usize) {
        self.starts.push(self.path.len());
        let _ = write!(self.path, "[{i}]");
    }

    fn leave(&mut self) {
        self.path.truncate(self.starts.pop().unwrap_or(0));
    }
}

/// The V1 document's lines as highlighted HTML, each marked by the report, appended to `out`.
fn push_marked_source_html(out: &mut String, source: &serde_json::Value, report: &[Entry]) {
    let mut marked = MarkedSource {
        index: EntryIndex::new(report),
        report,
        text: String::new(),
        classes: Vec::new(),
        path: String::new(),
        starts: Vec::new(),
    };
    yaml::emit_json_into(source, &mut marked);
    out.reserve(marked.text.len() * 2);
    push_lines(out, Language::Yaml, &marked.text, &marked.classes);
}

/// Each converted document's marked V1 lines and field report.
pub fn report_html(m: &Migration) -> String {
    let mut out = String::new();
    for d in &m.docs {
        let Outcome::Written { name, kind, report, .. } = &d.outcome else { continue };
        if report.is_empty() {
            continue;
        }
        let mut title = String::new();
        push_escaped_html(&mut title, &format!("{kind} {name}"));
        let _ = write!(
            out,
            "<details class=\"report\" open><summary>Where each field of {title} went</summary><div class=\"report-grid\">\
             <figure class=\"snippet yaml v1-marked\"><figcaption><span class=\"title\">The V1 job</span>\
             <span class=\"key\"><span class=\"k-m\">mapped</span><span class=\"k-v\">moved</span><span class=\"k-d\">dropped</span></span></figcaption>\
             <pre tabindex=\"0\" aria-label=\"{title} with each line marked\"><code>"
        );
        // Written in place: the marked lines of a large job are megabytes.
        if let Some(source) = &d.source {
            push_marked_source_html(&mut out, source, report);
        }
        let _ = write!(
            out,
            "</code></pre></figure>\
             <div class=\"table-wrap\" tabindex=\"0\" role=\"region\" aria-label=\"Field report for {title}\"><table>\
             <thead><tr><th scope=\"col\">V1 field</th><th scope=\"col\">Outcome</th><th scope=\"col\">V2 / reason</th></tr></thead><tbody>"
        );
        // Pushed, not `write!`, which goes through the formatting machinery: a row for each of
        // tens of thousands of fields.
        for e in report {
            let status = e.kind.id();
            out.push_str("<tr class=\"");
            out.push_str(status);
            out.push_str("\"><td><code>");
            push_breakable(&mut out, &e.from);
            out.push_str("</code></td><td>");
            out.push_str(status);
            out.push_str("</td><td>");
            if let Some(v2) = e.place().filter(|v2| !v2.is_empty()) {
                out.push_str("<code>");
                push_breakable(&mut out, v2);
                out.push_str("</code>");
            }
            if !e.note.is_empty() {
                out.push_str(" <span class=\"note\">");
                push_note(&mut out, &e.note);
                out.push_str("</span>");
            }
            out.push_str("</td></tr>");
        }
        out.push_str("</tbody></table></div></div></details>");
    }
    out
}

/// A value as the comparison shows it, cut to a readable length (a command line can run to
/// kilobytes; the CLI's `--format json` has it whole).
fn push_value(out: &mut String, value: Option<&str>) {
    const SHOWN: usize = 160;
    match value {
        None => out.push_str("<span class=\"none\">(none)</span>"),
        Some(v) => {
            out.push_str("<code>");
            // A value of no more bytes than that has no more characters: not counted (nearly
            // every value; the comparison shows tens of thousands).
            let cut = if v.len() <= SHOWN { None } else { v.char_indices().nth(SHOWN) };
            match cut {
                Some((at, _)) => {
                    push_breakable(out, &v[..at]);
                    out.push('…');
                }
                None => push_breakable(out, v),
            }
            out.push_str("</code>");
        }
    }
}

/// "What changes for your pods": for each converted document, the pod-by-pod comparison
/// (`migrate::pods`) role by role, each difference with its reason, and the variables V1's
/// operator set that V2 replaces as a small table (V1 variable and value, what V2 sets instead,
/// how they relate). `compared` is `migrate::pods::explained_documents(m)`.
pub fn pods_html(m: &Migration, compared: &[Option<Compared>]) -> String {
    pods_and_runs_html(m, compared).0
}

/// "What changes for your pods" and "What Kubernetes runs" (`migrate_runs`) for each converted
/// document, from one comparison each (`compared`, in the documents' order): the explanation of
/// what Trainer runs is computed once.
fn pods_and_runs_html(m: &Migration, compared: &[Option<Compared>]) -> (String, String) {
    let (mut pods, mut runs) = (String::new(), crate::migrate_runs::RunsSections::default());
    for (d, compared) in m.docs.iter().zip(compared) {
        let (Outcome::Written { name, kind, objects, .. }, Some(compared)) = (&d.outcome, compared) else { continue };
        push_pods_html(&mut pods, &format!("{kind} {name}"), &compared.comparison);
        runs.push(objects, &compared.runs);
    }
    (pods, runs.finish(m.target))
}

/// One document's "What changes for your pods", titled `title` ("PyTorchJob mnist"): the
/// differences that change how the pods run first, marked and tagged with what they are about
/// (scheduling, resources, environment, command, ...), role by role; then the operators'
/// plumbing V2 does its own way; then their bookkeeping (labels and annotations they set to find
/// their pods), folded with its count and each reason said once.
fn push_pods_html(out: &mut String, title: &str, comparison: &Result<PodComparison, NotCompared>) {
    use explorer_core::migrate::pods::{Concern, Difference};
    let title = {
        let mut escaped = String::new();
        push_escaped_html(&mut escaped, title);
        escaped
    };
    let _ = write!(
        out,
        "<section class=\"pods-changes\" aria-label=\"What changes for the pods of {title}\">\
         <p class=\"pods-h3\" role=\"heading\" aria-level=\"3\">What changes for your pods <span class=\"pods-of\">{title}</span></p>"
    );
    let c = match comparison {
        Ok(c) => c,
        Err(e) => {
            out.push_str("<p class=\"pods-error\">Not compared: ");
            push_escaped_html(out, &e.to_string());
            out.push_str("</p></section>");
            return;
        }
    };
    let count = |keep: &dyn Fn(Concern) -> bool| c.differences.iter().filter(|d| keep(d.concern)).count();
    let behaviour = count(&|k| k.changes_behaviour());
    let plumbing = count(&|k| k == Concern::Plumbing);
    let bookkeeping = count(&|k| k == Concern::Bookkeeping);
    out.push_str("<p class=\"pods-sides\">");
    push_escaped_html(out, &format!("{} ran the V1 job; Trainer {} runs the conversion. ", c.operator, c.trainer));
    let unexplained = c.unexplained().count();
    let _ = write!(
        out,
        "{} difference(s), {}: <strong>what changes how the pods run, {behaviour}</strong>; plumbing V2 does its own way, \
         {plumbing}; the operators' bookkeeping, {bookkeeping}.</p>",
        c.differences.len(),
        if unexplained == 0 { "each with its reason".to_string() } else { format!("{unexplained} unexplained") }
    );
    // The roles in the comparison's order, then any it added (V2 pods no V1 role had).
    let mut roles: Vec<&str> = c.roles.iter().map(String::as_str).collect();
    for diff in &c.differences {
        if !roles.contains(&diff.role.as_str()) {
            roles.push(&diff.role);
        }
    }
    let same: Vec<&str> = roles.iter().copied().filter(|r| !c.differences.iter().any(|d| d.role == *r)).collect();
    if !same.is_empty() {
        out.push_str("<p class=\"pods-same\">The same pods: ");
        push_escaped_html(out, &same.join(", "));
        out.push_str(".</p>");
    }
    type Keep<'a> = &'a dyn Fn(Concern) -> bool;
    let groups: [(&str, &str, Keep); 2] = [
        ("pods-behaviour", "Changes how your pods run", &|k: Concern| k.changes_behaviour()),
        ("pods-plumbing", "Done another way in V2", &|k: Concern| k == Concern::Plumbing),
    ];
    for (class, heading, keep) in groups {
        let n = count(keep);
        if n == 0 {
            continue;
        }
        let _ = write!(
            out,
            "<div class=\"pods-group {class}\"><p class=\"pods-h4\" role=\"heading\" aria-level=\"4\">{heading} <span class=\"pods-count\">({n})</span></p>"
        );
        // Each role's list first, then the roles' variable tables: a table runs long, and the
        // scheduling and resource changes of a later role must not wait below it.
        for tables in [false, true] {
            for role in &roles {
                let mut here: Vec<&Difference> = c
                    .differences
                    .iter()
                    .filter(|x| x.role == *role && keep(x.concern) && x.rename.is_some() == tables)
                    .collect();
                if here.is_empty() {
                    continue;
                }
                // Scheduling first, then resources, variables, commands, ... (Concern's order).
                explorer_core::order::sort_by_key(&mut here, |x| x.concern);
                push_role_html(out, role, &here, !tables);
            }
        }
        out.push_str("</div>");
    }
    if bookkeeping > 0 {
        push_bookkeeping_html(out, c, bookkeeping);
    }
    out.push_str("</section>");
}

/// One role's differences of a group: the list (each tagged with its concern, the rules it adds
/// or drops said in words), then the variables V2 replaces as a table.
fn push_role_html(out: &mut String, role: &str, here: &[&explorer_core::migrate::pods::Difference], heading: bool) {
    use explorer_core::migrate::pods::Difference;
    out.push_str("<div class=\"pods-role\">");
    if heading {
        // Headings as role=heading paragraphs: a host's table of contents (jekyll-toc) lists
        // every <h3>/<h4>, and these belong to a figure, not to the post's outline.
        out.push_str("<p class=\"pods-h5\" role=\"heading\" aria-level=\"5\">");
        push_escaped_html(out, role);
        out.push_str("</p>");
    }
    let (renames, others): (Vec<&Difference>, Vec<&Difference>) = here.iter().partition(|x| x.rename.is_some());
    if !others.is_empty() {
        out.push_str("<ul class=\"pods-diffs\">");
        for x in others {
            let class = if x.explained() { "" } else { " class=\"unexplained\"" };
            let concern = x.concern.id();
            // Pushed, not `write!`, as the field report's rows are.
            for piece in ["<li", class, "><span class=\"pods-tag pods-tag-", concern, "\">", concern] {
                out.push_str(piece);
            }
            out.push_str("</span> <span class=\"pods-field\"><code>");
            push_escaped_html(out, &x.field);
            out.push_str("</code></span> ");
            if !x.terms.is_empty() {
                out.push_str("<ul class=\"pods-terms\">");
                for t in &x.terms {
                    out.push_str("<li>");
                    push_escaped_html(out, t);
                    out.push_str("</li>");
                }
                out.push_str("</ul>");
            }
            out.push_str("<span class=\"pods-values\">");
            push_value(out, x.v1.as_deref());
            out.push_str(" → ");
            push_value(out, x.v2.as_deref());
            out.push_str("</span> <span class=\"pods-why\">");
            push_escaped_html(
                out,
                x.reason.as_deref().unwrap_or("Unexplained: the migrator cannot say why; please report it."),
            );
            out.push_str("</span></li>");
        }
        out.push_str("</ul>");
    }
    if !renames.is_empty() {
        // A group per role, labelled with its role. A group, not a region: the same job can show
        // in the post and in the widget at once, and landmarks must be unique on the page
        // (axe landmark-unique). On a phone its rows stack (pods.css), so nothing scrolls sideways.
        out.push_str("<div class=\"pods-env\" role=\"group\" aria-label=\"Environment renames, ");
        push_escaped_html(out, role);
        out.push_str("\"><table><caption>Variables V1 set that V2 replaces, ");
        push_escaped_html(out, role);
        out.push_str(
            "</caption><thead><tr><th scope=\"col\">V1 variable</th>\
             <th scope=\"col\">V1 value</th><th scope=\"col\">V2 sets instead</th>\
             <th scope=\"col\">How they relate</th></tr></thead><tbody>",
        );
        for x in renames {
            let Some(r) = &x.rename else { continue };
            out.push_str("<tr><th scope=\"row\"><code>");
            push_escaped_html(out, &r.v1);
            out.push_str("</code></th><td data-label=\"V1 value\">");
            push_value(out, x.v1.as_deref());
            out.push_str("</td><td data-label=\"V2 sets instead\">");
            if r.v2.is_empty() {
                out.push_str("<span class=\"none\">nothing</span>");
            }
            for (i, (n, v)) in r.v2.iter().enumerate() {
                if i > 0 {
                    out.push_str("<br>");
                }
                out.push_str("<code>");
                push_escaped_html(out, n);
                out.push_str("</code> = ");
                push_value(out, Some(v));
            }
            out.push_str("</td><td data-label=\"How they relate\">");
            push_escaped_html(out, &r.relation);
            out.push_str("</td></tr>");
        }
        out.push_str("</tbody></table></div>");
    }
    out.push_str("</div>");
}

/// The operators' bookkeeping, folded: each reason once, with the fields it covers and the
/// roles they were on.
fn push_bookkeeping_html(out: &mut String, c: &PodComparison, n: usize) {
    use explorer_core::migrate::pods::Concern;
    let _ = write!(
        out,
        "<details class=\"pods-bookkeeping\"><summary><span class=\"pods-h4\" role=\"heading\" aria-level=\"4\">\
         The operators' bookkeeping <span class=\"pods-count\">({n})</span></span> labels and annotations an \
         operator sets to find its pods</summary>"
    );
    // (reason, [(field, [roles])]) in first-seen order.
    /// A field and the roles it was on.
    type Fields<'a> = Vec<(&'a str, Vec<&'a str>)>;
    let mut by_reason: Vec<(&str, Fields)> = Vec::new();
    for d in c.differences.iter().filter(|d| d.concern == Concern::Bookkeeping) {
        let reason = d.reason.as_deref().unwrap_or_default();
        let at = match by_reason.iter().position(|(r, _)| *r == reason) {
            Some(i) => i,
            None => {
                by_reason.push((reason, vec![]));
                by_reason.len() - 1
            }
        };
        let fields = &mut by_reason[at].1;
        let role = d.role.split_once(" → ").map_or(d.role.as_str(), |(from, _)| from);
        match fields.iter_mut().find(|(f, _)| *f == d.field) {
            Some((_, roles)) => roles.push(role),
            None => fields.push((&d.field, vec![role])),
        }
    }
    for (reason, fields) in by_reason {
        out.push_str("<p class=\"pods-why\">Why: ");
        push_escaped_html(out, reason);
        out.push_str("</p><ul class=\"pods-kept\">");
        for (field, roles) in fields {
            out.push_str("<li><code>");
            push_breakable(out, field);
            out.push_str("</code> <span class=\"pods-roles\">");
            push_escaped_html(out, &roles.join(", "));
            out.push_str("</span></li>");
        }
        out.push_str("</ul>");
    }
    out.push_str("</details>");
}

/// `s` as a JSON string (quoted and escaped), appended to `out`: the bytes `serde_json` writes
/// (`"` and `\` escaped, the controls as `\n`, `\t`, ... or `\u00xx`), except that every
/// character outside ASCII is written as `\uxxxx` too (`push_json_contents` says why).
fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    push_json_contents(out, s);
    out.push('"');
}

/// `s` escaped as the inside of a JSON string (`push_json_string`), appended to `out`, scanned
/// eight bytes at a time: the answer is megabytes of HTML, mostly runs of plain text between
/// attribute quotes, and serde_json's byte-by-byte escaping was a tenth of the converter
/// module's work on a 1 MB manifest.
///
/// Characters outside ASCII are escaped as `\uxxxx` (UTF-16, as JSON spells them), so the
/// answer is ASCII: the browser then holds it as a one-byte string. A single `→` in a report
/// made the whole answer a two-byte string, twice its size, and decoding it from the module's
/// memory (without the decoder's ASCII fast path), posting it from the worker to the page and
/// parsing it there each took several times longer (BENCHMARKS.md, "A reader's first large
/// paste"). JSON.parse reads back the same strings.
fn push_json_contents(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len());
    let (mut copied, mut from) = (0, 0);
    while let Some(at) = next_to_escape(bytes, from) {
        out.push_str(&s[copied..at]);
        // The escapes the answer's HTML is full of (its attributes' quotes, its code's line
        // breaks) are pushed here, in the scanning loop; the others in a call of their own.
        from = match bytes.get(at) {
            Some(b'"') => {
                out.push_str("\\\"");
                at + 1
            }
            Some(b'\n') => {
                out.push_str("\\n");
                at + 1
            }
            _ => push_rare_json_escape(out, s, at),
        };
        copied = from;
    }
    out.push_str(&s[copied..]);
}

/// Where the first byte from `from` on that JSON escapes is (`push_json_contents`): a control
/// (below 0x20), `"`, `\`, or any byte of a character outside ASCII (its high bit set). Eight
/// bytes at a time, two words a turn while they hold nothing (the answer's runs between its
/// quotes are a few dozen bytes), the last few padded with spaces (nothing to escape) to a word.
fn next_to_escape(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte of `word` that is below `n` (at most 0x80); bytes above such a
    // byte may be marked too (a borrow), never one below it, so the lowest mark is always one.
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS;
    // Flipping bit 1 of each byte turns `"` (0x22) into 0x20 and keeps the controls below 0x20
    // (and every other byte at or above 0x21): one comparison finds both.
    let marks = |word: &[u8]| {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        below(word ^ (ONES * 0x02), 0x21) | below(word ^ (ONES * u64::from(b'\\')), 1) | word & HIGHS
    };
    let first = |marks: u64| marks.trailing_zeros() as usize / 8;
    let mut i = from;
    while let Some(pair) = bytes.get(i..i + 16) {
        let (low, high) = pair.split_at(8);
        let (low, high) = (marks(low), marks(high));
        if low | high != 0 {
            return Some(i + if low != 0 { first(low) } else { 8 + first(high) });
        }
        i += 16;
    }
    if let Some(word) = bytes.get(i..i + 8) {
        match marks(word) {
            0 => i += 8,
            found => return Some(i + first(found)),
        }
    }
    let rest = bytes.get(i..)?;
    let mut word = [b' '; 8];
    word[..rest.len()].copy_from_slice(rest);
    Some(marks(&word)).filter(|&found| found != 0).map(|found| i + first(found))
}

/// Appends the escape of the character at `at` of `s` (a control, `\` or a character outside
/// ASCII) to `out`; returns the index after that character.
fn push_rare_json_escape(out: &mut String, s: &str, at: usize) -> usize {
    let Some(&byte) = s.as_bytes().get(at) else { return s.len() };
    if !byte.is_ascii() {
        let wide = s[at..].chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
        push_utf16_escapes(out, wide);
        return at + wide.len_utf8();
    }
    // One push of a fixed-length escape, not three that each check the capacity.
    match byte {
        b'"' => out.push_str("\\\""),
        b'\\' => out.push_str("\\\\"),
        b'\n' => out.push_str("\\n"),
        b'\t' => out.push_str("\\t"),
        b'\r' => out.push_str("\\r"),
        0x08 => out.push_str("\\b"),
        0x0c => out.push_str("\\f"),
        control => push_utf16_escapes(out, char::from(control)),
    }
    at + 1
}

/// `c` as JSON's `\uxxxx` escapes of its UTF-16 units (two, a surrogate pair, above U+FFFF).
fn push_utf16_escapes(out: &mut String, c: char) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for unit in c.encode_utf16(&mut [0; 2]) {
        out.push_str("\\u");
        for shift in [12, 8, 4, 0] {
            out.push(char::from(HEX[usize::from(*unit >> shift & 0xf)]));
        }
    }
}

/// What crosses from the converter module to the widget, as JSON text: `{"error", "yaml",
/// "summary", "html", "objects"}` in that order, each a string (`error` null when there is none),
/// written straight into one string. Texts the answer shows as one (the report and the pods,
/// the objects and what runs) are joined inside their JSON string, not copied together first.
fn answer_json(error: Option<&str>, parts: [(&str, &[&str]); 4]) -> String {
    let len: usize = parts.iter().flat_map(|(_, texts)| texts.iter()).map(|t| t.len() + t.len() / 8).sum();
    let mut out = String::with_capacity(len + 64);
    out.push_str("{\"error\":");
    match error {
        Some(e) => push_json_string(&mut out, e),
        None => out.push_str("null"),
    }
    for (key, texts) in parts {
        out.push_str(",\"");
        out.push_str(key);
        out.push_str("\":\"");
        for text in texts {
            push_json_contents(&mut out, text);
        }
        out.push('"');
    }
    out.push('}');
    out
}

/// A conversion (`migrate::migrate_to`) as `{"error", "yaml", "summary", "html", "objects"}` JSON
/// for the wasm boundary, `compared` being `migrate::pods::explained_documents` of it. When the
/// input as a whole could not be read (empty, binary, too large, too deep), only `error` is set.
pub fn rendered_json<E: std::fmt::Display>(migration: &Result<Migration, E>, compared: &[Option<Compared>]) -> String {
    match migration {
        Ok(m) => {
            // "What changes for your pods" follows the field report, in the same answer.
            // "What Kubernetes runs" for each TrainJob follows the objects to apply.
            let (pods, runs) = pods_and_runs_html(m, compared);
            let (summary, report) = (summary_html(m), report_html(m));
            let (objects, yaml) = crate::migrate_output::output_html_and_yaml(&m.docs, m.target);
            let html: &[&str] = &[&report, &pods];
            let objects: &[&str] = &[&objects, &runs];
            answer_json(None, [("yaml", &[&yaml]), ("summary", &[&summary]), ("html", html), ("objects", objects)])
        }
        Err(e) => answer_json(Some(&e.to_string()), [("yaml", &[]), ("summary", &[]), ("html", &[]), ("objects", &[])]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value is cut after its 160th character, counted in characters, not bytes.
    #[test]
    fn a_value_is_shown_up_to_its_160th_character() {
        let shown = |v: &str| {
            let mut out = String::new();
            push_value(&mut out, Some(v));
            out
        };
        for (c, n) in [('a', 160), ('é', 160), ('→', 100)] {
            let v: String = std::iter::repeat_n(c, n).collect();
            assert_eq!(shown(&v), format!("<code>{v}</code>"), "{n} of {c:?}");
        }
        for c in ['a', 'é'] {
            let v: String = std::iter::repeat_n(c, 161).collect();
            let first: String = std::iter::repeat_n(c, 160).collect();
            assert_eq!(shown(&v), format!("<code>{first}…</code>"), "161 of {c:?}");
        }
    }

    /// serde_json's bytes for ASCII texts; for others, ASCII that reads back as the text.
    #[test]
    fn the_answer_escapes_its_strings_as_serde_json_does_and_writes_ascii() {
        let mut texts: Vec<String> = [
            "",
            "plain",
            "<a class=\"x\">it's &amp; \\ back\\slash</a>",
            "tab\there\nnew line\r\u{8}\u{c}\u{0}\u{1f}\u{7f} end",
            "ünïcødé → 漢字 \u{2028} \u{1F600}\"",
            "→",
            "\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}",
            "exactly8",
            "seven_7",
            "\"\"\"\"\"\"\"\"\"",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every ASCII byte at every place of a pair of eight-byte words, the word after them and
        // the tail after that, and beside a multi-byte character.
        for b in 0u8..0x80 {
            for at in 0..26 {
                let mut t = "abcdefghijklmnopqrstuvwxyz".to_string();
                t.replace_range(at..=at, &char::from(b).to_string());
                texts.push(t.clone());
                texts.push(format!("é{t}"));
            }
        }
        for t in &texts {
            let mut ours = String::new();
            push_json_string(&mut ours, t);
            assert!(ours.is_ascii(), "{t:?} written as {ours:?}");
            assert_eq!(serde_json::from_str::<String>(&ours).unwrap(), *t, "{ours:?}");
            if t.is_ascii() {
                assert_eq!(ours, serde_json::to_string(t).unwrap(), "{t:?}");
            }
        }
        let whole = answer_json(
            Some("bad \"x\""),
            [("yaml", &["a\n"]), ("summary", &[]), ("html", &["<p>", "\\"]), ("objects", &["o"])],
        );
        let expected =
            serde_json::json!({"error": "bad \"x\"", "yaml": "a\n", "summary": "", "html": "<p>\\", "objects": "o"});
        assert_eq!(whole, expected.to_string());
    }
}

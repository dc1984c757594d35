//! The one pipeline behind `migrate` (V1 jobs → Trainer V2) and `upgrade` (a V2 manifest → a
//! newer release). Both read a YAML stream (`input`), decide per document what becomes of it
//! (an [`Outcome`]), and hand back the documents in input order with what each one wrote and
//! its report. Everything after that decision is here, written once: the output YAML, the
//! objects in apply order (`output`), the lines for a document that failed (`failure`) and the
//! shape of the report for people. The two front ends differ only in what they read, how they
//! write, and the words of their report.

mod anchors;
mod events;
pub mod failure;
pub mod input;
pub mod json;
pub mod output;
pub mod paths;
pub mod report;
mod serde_aliases;
mod tree;
mod unrefusable;
mod written;

use crate::{terminal, yaml};
use failure::{document_at, failure_lines, Failure};
pub use failure::{Invalid, Refusal};
use report::Entry;
use serde_json::Value;
use std::borrow::Cow;

/// What became of one document of the input.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Written for the target release: the objects it became, in the order the front end made
    /// them, and the report of where each field went. `lossy` when something was dropped.
    Written {
        /// The object's kind.
        kind: String,
        /// The object's name.
        name: String,
        /// What it was written as.
        objects: Vec<Value>,
        /// Where each field went.
        report: Vec<Entry>,
        /// Whether something was dropped.
        lossy: bool,
    },
    /// An object the front end reads but will not write for the target release, and why.
    Refused {
        /// The object's kind.
        kind: String,
        /// The object's name.
        name: String,
        /// Why.
        reason: Refusal,
    },
    /// Another Kubernetes object (a PVC, a ConfigMap): kept as it is.
    PassedThrough {
        /// The object's kind.
        kind: String,
        /// The object's name.
        name: String,
        /// The object as it was read.
        object: Value,
    },
    /// Not something the front end reads (not YAML, not a Kubernetes object).
    Invalid {
        /// Why.
        error: Invalid,
    },
}

impl Outcome {
    /// Why the document was not written, when it was refused or invalid.
    pub fn failure(&self) -> Option<Failure<'_>> {
        match self {
            Outcome::Refused { name, kind, reason } => Some(Failure::Refused { kind, name, reason }),
            Outcome::Invalid { error } => Some(Failure::Invalid { error }),
            Outcome::Written { .. } | Outcome::PassedThrough { .. } => None,
        }
    }

    /// The objects this document contributes to the output: what it was written as, or itself
    /// when passed through; none when it failed.
    pub fn output(&self) -> &[Value] {
        match self {
            Outcome::Written { objects, .. } => objects,
            Outcome::PassedThrough { object, .. } => std::slice::from_ref(object),
            Outcome::Refused { .. } | Outcome::Invalid { .. } => &[],
        }
    }
}

/// One input document and what became of it.
#[derive(Clone, Debug)]
pub struct Document {
    /// 1-based position in the stream.
    pub index: usize,
    /// The line the document starts on.
    pub line: usize,
    /// The document as parsed, when it parsed; `None` in `migrate` for a document passed
    /// through, whose output is the document itself.
    pub source: Option<Value>,
    /// What became of it.
    pub outcome: Outcome,
}

/// Every output object as one YAML stream, in input order: what each document was written as,
/// and the documents passed through unchanged.
pub fn output_yaml(docs: &[Document]) -> String {
    // Written from serde_json's trees as they are: a copy of each as the snippets' tree, which
    // the emitter also walks, took as much memory again as the object (dense-at-the-limit).
    yaml::json_documents_text(docs.iter().flat_map(|d| d.outcome.output()))
}

/// True when nothing was refused or invalid.
#[cfg(feature = "migrate")]
pub(crate) fn all_written(docs: &[Document]) -> bool {
    docs.iter().all(|d| d.outcome.failure().is_none())
}

/// One line per refused or invalid document, for the CLI's exit-1 case.
pub fn failures(docs: &[Document]) -> Vec<String> {
    failure_lines(docs.iter().map(|d| (d.index, d.line, d.outcome.failure())))
}

/// How a front end words its report.
pub trait Wording {
    /// The line that opens a written document's block, after `document 2 (line 9): `:
    /// `PyTorchJob mine converted for Trainer v2.3.0 with losses`.
    fn headline(&self, kind: &str, name: &str, report: &[Entry], lossy: bool) -> String;
    /// The lines of a written document's report, each ending in a newline, written to `out`.
    fn report_lines(&self, doc: &Document, report: &[Entry], out: &mut ReportWriter<'_>);
    /// Why a passed-through document was not read: `not a Training Operator job`.
    fn passed_through_because(&self) -> &'static str;
    /// A written document's outcome in `--format json`: `converted`, `rewritten`.
    fn written(&self) -> &'static str;
    /// One entry of a written document's report in `--format json`.
    fn entry_json(&self, e: &Entry) -> Value;
}

/// `text` as part of one line of a report: a line break in it is written `\u{a}`, as the CLI
/// writes the characters a terminal would obey (`terminal::escape_each`). A key or value from
/// the input can hold one (a quoted YAML string, a block scalar); written as it is, it would start
/// a line of its own, which the reader takes for one of the report's (`FILE: ...`).
pub fn one_line(text: &str) -> Cow<'_, str> {
    if text.contains('\n') {
        Cow::Owned(terminal::escape_each(text, |c| c == '\n'))
    } else {
        Cow::Borrowed(text)
    }
}

/// A report as it is written: whole lines handed to a sink about 64 KiB at a time, so that a
/// report of a quarter million lines (one per label of a big job: 20 MB of text) is never held
/// as one text while the CLI prints it.
pub struct ReportWriter<'a> {
    pending: String,
    /// Where the line being written starts in `pending`.
    line_start: usize,
    sink: &'a mut dyn FnMut(&str),
}

impl<'a> ReportWriter<'a> {
    /// How much text is held before it is handed on (at the end of a line).
    const CHUNK: usize = 64 * 1024;

    /// A writer handing its lines to `sink`, each call a run of whole lines.
    pub fn new(sink: &'a mut dyn FnMut(&str)) -> Self {
        ReportWriter { pending: String::new(), line_start: 0, sink }
    }

    /// Appends text to the line being written.
    pub fn push_str(&mut self, text: &str) {
        self.pending.push_str(text);
    }

    /// Appends one character to the line being written.
    pub fn push(&mut self, c: char) {
        self.pending.push(c);
    }

    /// Ends the line, a line break pushed within it written `\u{a}` ([`one_line`]); hands the
    /// lines on once enough is held. Looked for once a line, not in each piece: a report has
    /// hundreds of thousands of lines of several pieces each.
    pub fn end_line(&mut self) {
        self.keep_line_whole();
        self.pending.push('\n');
        self.line_start = self.pending.len();
        if self.pending.len() >= Self::CHUNK {
            (self.sink)(&self.pending);
            self.pending.clear();
            self.line_start = 0;
        }
    }

    fn keep_line_whole(&mut self) {
        if self.pending[self.line_start..].contains('\n') {
            let line = self.pending.split_off(self.line_start);
            self.pending.push_str(&one_line(&line));
        }
    }

    /// Hands on what is left.
    pub fn finish(mut self) {
        self.keep_line_whole();
        if !self.pending.is_empty() {
            (self.sink)(&self.pending);
            self.pending.clear();
        }
    }
}

/// The report for people: one block per document, in input order.
pub fn report_text(docs: &[Document], wording: &impl Wording) -> String {
    let mut text = String::new();
    write_report(docs, wording, &mut |lines| text.push_str(lines));
    // Grown by doubling: up to half of it would stay allocated while the CLI prints it.
    text.shrink_to_fit();
    text
}

/// `report_text`, handed to `sink` a run of whole lines at a time as it is written.
pub fn write_report(docs: &[Document], wording: &impl Wording, sink: &mut dyn FnMut(&str)) {
    let mut out = ReportWriter::new(sink);
    for d in docs {
        let at = document_at(d.index, d.line);
        match &d.outcome {
            Outcome::Written { kind, name, report, lossy, .. } => {
                // Pushed in pieces, not joined by a `format!` first.
                out.push_str(&at);
                out.push_str(": ");
                out.push_str(&wording.headline(kind, name, report, *lossy));
                out.end_line();
                wording.report_lines(d, report, &mut out);
            }
            Outcome::PassedThrough { kind, name, .. } => {
                out.push_str(&format!(
                    "{at}: {kind} {name} passed through unchanged: {}",
                    wording.passed_through_because()
                ));
                out.end_line();
            }
            Outcome::Refused { .. } | Outcome::Invalid { .. } => {
                if let Some(failure) = d.outcome.failure() {
                    out.push_str(&failure.report_line(&at));
                    out.end_line();
                }
            }
        }
    }
    out.finish();
}

/// `--quiet`: the headline of each document written with losses, nothing else.
pub fn lossy_headlines(docs: &[Document], wording: &impl Wording) -> Vec<String> {
    docs.iter()
        .filter_map(|d| match &d.outcome {
            Outcome::Written { kind, name, report, lossy: true, .. } => {
                let line = format!("{}: {}", document_at(d.index, d.line), wording.headline(kind, name, report, true));
                Some(one_line(&line).into_owned())
            }
            _ => None,
        })
        .collect()
}

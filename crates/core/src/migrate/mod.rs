//! V1 → V2 migration: paste Training Operator jobs, get TrainJobs (and runtimes where needed),
//! with a report of where every field went. Pure: shared by the widget and the CLI.

pub mod convert;
pub mod pods;
pub mod report;

pub use report::{Entry, Kind};

use crate::pipeline::{self, ReportWriter, Wording};
use explorer_data::releases::{Release, NEWEST};
use std::borrow::Cow;

/// What became of one V1 document; a written one carries its field report.
pub type Outcome = pipeline::Outcome;
/// One input document and what became of it.
pub type DocResult = pipeline::Document;

/// Why a stream could not be migrated at all. A document that cannot be converted is not an
/// error: it is that document's [`Outcome`].
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The input door refused the text as a whole (`pipeline::input`: empty, too large, binary,
    /// too deep, too many documents or aliases), in its words.
    Input(pipeline::input::InputError),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Input(refusal) => std::fmt::Display::fmt(refusal, f),
        }
    }
}

impl std::error::Error for Error {}

/// A migrated stream: what became of each document, in input order.
pub struct Migration {
    /// Each input document and its outcome.
    pub docs: Vec<DocResult>,
    /// The Trainer release the output is written for.
    pub target: Release,
}

/// Converts a YAML stream for the newest release: see [`migrate_to`].
pub fn migrate(text: &str) -> Result<Migration, Error> {
    migrate_to(text, NEWEST)
}

/// Converts a YAML stream into objects for the `target` release. `Err` only when the input as a
/// whole cannot be read (too large, empty, binary, too deep); per-document problems are outcomes.
/// Each report has one entry per field, as the views and the judges read it.
pub fn migrate_to(text: &str, target: Release) -> Result<Migration, Error> {
    Ok(Migration { docs: migrate_each(text, target, Sources::Kept)?.map(with_entry_per_field).collect(), target })
}

/// A document whose report has one entry per field: each run of a map's keys written out.
fn with_entry_per_field(mut d: DocResult) -> DocResult {
    if let Outcome::Written { report, objects, .. } = &mut d.outcome {
        if report.iter().any(|e| e.to.keys().is_some()) {
            *report = report.iter().flat_map(|e| e.each_field(objects)).map(Cow::into_owned).collect();
        }
    }
    d
}

/// What a migration keeps of each document it converts, as its `source`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sources {
    /// Every document as it was parsed (the page shows the V1 job beside its report).
    Kept,
    /// What the pod comparison reads: a job of more values than it reads
    /// (`pods::MAX_COMPARED_VALUES`) is not kept, and gives its labels, its annotations and its
    /// trainer's variables and args to its TrainJob rather than a copy of them
    /// (`convert::convert_owned`), so that a job of a quarter million labels is not held twice.
    /// For a caller that writes the objects and the report and nothing of the source (the CLI).
    ForOutput,
}

/// [`migrate_to`] one document at a time: each is converted when the iterator reaches it, so a
/// caller that reports and writes a document before taking the next (the CLI) holds one
/// document's objects and report at a time, not those of 10,000 jobs. A report's entry can stand
/// for a run of a map's keys (a job's labels, `Places::keys`): read it with `Entry::each_field`.
pub fn migrate_each(
    text: &str,
    target: Release,
    sources: Sources,
) -> Result<impl Iterator<Item = DocResult> + '_, Error> {
    Ok(migrate_documents(pipeline::input::each_document(text).map_err(Error::Input)?, target, sources))
}

/// [`migrate_each`] of the documents the input door accepted (`pipeline::input::accept_documents`).
pub fn migrate_documents(
    raw: pipeline::input::Documents<'_>,
    target: Release,
    sources: Sources,
) -> impl Iterator<Item = DocResult> + '_ {
    raw.map(move |d| {
        // A `null` member is absent (model::without_nulls): converted, and kept as the
        // document's source, without copying the tree.
        let (mut outcome, source) = match d.value.map(crate::model::into_without_nulls) {
            Err(e) => (Outcome::Invalid { error: pipeline::Invalid::Yaml(e) }, None),
            // The comparison would not read it: converted from the tree itself (a document passed
            // through comes back as its own output).
            Ok(v) if sources == Sources::ForOutput && !pods::compares(&v) => (convert::convert_owned(v, target), None),
            Ok(v) => (convert::convert(&v, target), Some(v)),
        };
        if let Outcome::Written { report, .. } = &mut outcome {
            report.iter_mut().for_each(|e| e.number(d.index));
        }
        // A document passed through is its own output: moved there, not copied.
        let source = match (&mut outcome, source) {
            (Outcome::PassedThrough { object, .. }, Some(v)) => {
                *object = v;
                None
            }
            (_, source) => source,
        };
        DocResult { index: d.index, line: d.line, source, outcome }
    })
}

/// How the migration's report reads.
pub(crate) struct MigrationWording {
    pub(crate) target: Release,
}

impl Wording for MigrationWording {
    fn headline(&self, kind: &str, name: &str, _: &[Entry], lossy: bool) -> String {
        format!("{kind} {name} converted for Trainer {}{}", self.target.tag, if lossy { " with losses" } else { "" })
    }

    fn report_lines(&self, doc: &DocResult, report: &[Entry], out: &mut ReportWriter<'_>) {
        // Written in place: a report can have hundreds of thousands of entries.
        for e in report.iter().flat_map(|e| e.each_field(doc.outcome.output())) {
            // `format!("  {:<8} {}")` by hand: the kind's word left-aligned in eight columns, a
            // longer one whole. `write!` with a width cost about 560 instructions an entry.
            let kind = e.kind.id();
            out.push_str("  ");
            out.push_str(kind);
            out.push_str(&"        "[kind.chars().count().min(8)..]);
            out.push(' ');
            out.push_str(&e.from);
            if let Some(target) = e.place() {
                out.push_str(" -> ");
                out.push_str(target);
            }
            if !e.note.is_empty() {
                out.push_str(" (");
                out.push_str(&e.note);
                out.push(')');
            }
            out.end_line();
        }
        // What the pods run differently, from the pod-by-pod comparison.
        if let Some(c) = pods::for_document(doc, self.target) {
            for line in pods::report_lines(&c) {
                out.push_str(&line);
                out.end_line();
            }
        }
    }

    fn passed_through_because(&self) -> &'static str {
        "not a Training Operator job"
    }

    fn written(&self) -> &'static str {
        "converted"
    }

    /// `{status, v1, v2, note}`: the fields `migrate --format json` has always had (others read them).
    fn entry_json(&self, e: &Entry) -> serde_json::Value {
        serde_json::json!({"status": e.kind.id(), "v1": e.from, "v2": e.place(), "note": e.note})
    }
}

impl Migration {
    /// Every output object as one YAML stream: generated runtimes, TrainJobs, and the documents
    /// passed through unchanged.
    pub fn output_yaml(&self) -> String {
        pipeline::output_yaml(&self.docs)
    }

    /// True when nothing was refused or invalid.
    pub fn all_converted(&self) -> bool {
        pipeline::all_written(&self.docs)
    }

    /// The report for people: one block per document.
    pub fn report_text(&self) -> String {
        pipeline::report_text(&self.docs, &MigrationWording { target: self.target })
    }

    /// `report_text`, handed to `sink` a run of whole lines at a time as it is written.
    pub fn write_report(&self, sink: &mut dyn FnMut(&str)) {
        pipeline::write_report(&self.docs, &MigrationWording { target: self.target }, sink);
    }

    /// The headline of each document converted with losses (the CLI's `--quiet`).
    pub fn lossy_headlines(&self) -> Vec<String> {
        pipeline::lossy_headlines(&self.docs, &MigrationWording { target: self.target })
    }

    /// One line per refused or invalid document, for the CLI's exit-1 case.
    pub fn failures(&self) -> Vec<String> {
        pipeline::failures(&self.docs)
    }
}

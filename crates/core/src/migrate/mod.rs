//! V1 → V2 migration: paste Training Operator jobs, get TrainJobs (and runtimes where needed),
//! with a report of where every field went. Pure: shared by the widget and the CLI.

pub mod claims;
pub mod convert;
pub mod failure;
pub mod input;
pub mod output;
pub mod pods;
pub mod report;

pub use convert::Outcome;
pub use failure::Failure;
pub use report::{Entry, Status};

use crate::model::Value;
use crate::releases::{Release, NEWEST};
use crate::yaml;
use failure::{document_at, failure_lines};

/// One input document and what became of it.
pub struct DocResult {
    /// 1-based position in the stream.
    pub index: usize,
    /// The line the document starts on.
    pub line: usize,
    /// The document as parsed, when it parsed.
    pub source: Option<serde_json::Value>,
    pub outcome: Outcome,
}

pub struct Migration {
    pub docs: Vec<DocResult>,
    /// The Trainer release the output is written for.
    pub target: Release,
}

/// Converts a YAML stream for the newest release: see [`migrate_to`].
pub fn migrate(text: &str) -> Result<Migration, String> {
    migrate_to(text, NEWEST)
}

/// Converts a YAML stream into objects for the `target` release. `Err` only when the input as a
/// whole cannot be read (too large, empty, binary, too deep); per-document problems are outcomes.
pub fn migrate_to(text: &str, target: Release) -> Result<Migration, String> {
    let raw = input::documents(text)?;
    let docs = raw
        .into_iter()
        .map(|d| {
            let outcome = match &d.value {
                Ok(v) => convert::convert(v, target),
                Err(e) => Outcome::Invalid { message: format!("not valid YAML: {e}") },
            };
            DocResult { index: d.index, line: d.line, source: d.value.ok(), outcome }
        })
        .collect();
    Ok(Migration { docs, target })
}

impl Migration {
    /// Every output object as one YAML stream: generated runtimes, TrainJobs, and the documents
    /// passed through unchanged.
    pub fn output_yaml(&self) -> String {
        let mut values = Vec::new();
        for d in &self.docs {
            match &d.outcome {
                Outcome::Converted { objects, .. } => values.extend(objects.iter()),
                Outcome::PassedThrough { object, .. } => values.push(object),
                _ => {}
            }
        }
        // The emitter walks the snippets' tree; the migrator builds serde_json's.
        let trees: Vec<Value> = values.into_iter().map(Value::from).collect();
        yaml::documents_text(&trees)
    }

    /// True when nothing was refused or invalid.
    pub fn all_converted(&self) -> bool {
        self.docs.iter().all(|d| matches!(d.outcome, Outcome::Converted { .. } | Outcome::PassedThrough { .. }))
    }

    /// The report for people: one block per document.
    pub fn report_text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for d in &self.docs {
            let at = document_at(d.index, d.line);
            if let Some(failure) = d.outcome.failure() {
                out.push_str(&failure.report_line(&at));
                out.push('\n');
                continue;
            }
            match &d.outcome {
                Outcome::Converted { name, kind, report, lossy, .. } => {
                    out.push_str(&format!(
                        "{at}: {kind} {name} converted for Trainer {}{}\n",
                        self.target.tag,
                        if *lossy { " with losses" } else { "" }
                    ));
                    // Written in place: a report can have hundreds of thousands of entries.
                    for e in report {
                        let _ = write!(out, "  {:<8} {}", e.status.id(), e.v1);
                        if let Some(target) = &e.v2 {
                            out.push_str(" -> ");
                            out.push_str(target);
                        }
                        if !e.note.is_empty() {
                            out.push_str(" (");
                            out.push_str(&e.note);
                            out.push(')');
                        }
                        out.push('\n');
                    }
                    // What the pods run differently, from the pod-by-pod comparison.
                    if let Some(c) = pods::for_document(d, self.target) {
                        for line in pods::report_lines(&c) {
                            out.push_str(&line);
                            out.push('\n');
                        }
                    }
                }
                Outcome::PassedThrough { name, kind, .. } => out
                    .push_str(&format!("{at}: {kind} {name} passed through unchanged: not a Training Operator job\n")),
                Outcome::Refused { .. } | Outcome::Invalid { .. } => {} // written above
            }
        }
        out
    }

    /// One line per refused or invalid document, for the CLI's exit-1 case.
    pub fn failures(&self) -> Vec<String> {
        failure_lines(self.docs.iter().map(|d| (d.index, d.line, d.outcome.failure())))
    }
}

impl Outcome {
    /// Why the document was not converted, when it was refused or invalid.
    pub fn failure(&self) -> Option<Failure<'_>> {
        match self {
            Outcome::Refused { name, kind, reason } => Some(Failure::Refused { kind, name, reason }),
            Outcome::Invalid { message } => Some(Failure::Invalid { message }),
            Outcome::Converted { .. } | Outcome::PassedThrough { .. } => None,
        }
    }
}

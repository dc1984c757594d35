//! `migrate`'s documents reported where they were converted: the pod comparison and the report
//! text are most of a document's work (callgrind on the 1 MB manifest: the comparison alone 40%
//! of the CLI's instructions), so they run on the worker threads that convert
//! (`migrate::migrate_documents_then`) and the calling thread only prints.

use super::FileOutcome;
use explorer_core::migrate::Migration;
use explorer_core::pipeline::{Document, Outcome};

/// The most report text a document is written to ahead of printing. A report of a quarter
/// million labels is 20 MB, which `FileOutcome::write_report` never holds whole: such a document
/// is reported when printed, as without threads.
const MAX_HELD_REPORT: usize = 1 << 20;

/// The most fields a report written ahead has, about [`MAX_HELD_REPORT`] at 100 bytes a line:
/// a document of more is reported when printed without being written once for nothing.
const MAX_HELD_FIELDS: usize = 10_000;

/// One document of `migrate`, reported or to be reported.
pub(super) enum Reported {
    /// Reported ahead: what `write_report` hands out, and what is printed of the document.
    Ahead {
        /// What `FileOutcome::failures` answers.
        failures: Vec<String>,
        /// The runs of whole lines `FileOutcome::write_report` handed out, for `quiet`.
        runs: Vec<String>,
        quiet: bool,
        /// The document, its source and report dropped: only its objects are printed.
        docs: Vec<Document>,
    },
    /// Too much report to hold: reported when printed.
    /// Boxed: a migration names its release, 200 bytes beside the other's 80 (clippy's
    /// `large_enum_variant`).
    Later(Box<Migration>),
}

impl Reported {
    /// `migration` reported as `write_report(quiet, …)` would, when its report is small.
    pub(super) fn ahead(migration: Migration, quiet: bool) -> Self {
        if fields(&migration) > MAX_HELD_FIELDS {
            return Reported::Later(Box::new(migration));
        }
        let (mut runs, mut held, mut too_much) = (Vec::new(), 0, false);
        FileOutcome::write_report(&migration, quiet, &mut |run| {
            held += run.len();
            too_much |= held > MAX_HELD_REPORT;
            if !too_much {
                runs.push(run.to_owned());
            }
        });
        if too_much {
            return Reported::Later(Box::new(migration));
        }
        let failures = FileOutcome::failures(&migration);
        let mut docs = migration.docs;
        for d in &mut docs {
            d.source = None;
            if let Outcome::Written { report, .. } = &mut d.outcome {
                *report = Vec::new();
            }
        }
        Reported::Ahead { failures, runs, quiet, docs }
    }
}

/// How many fields the reports of `migration` have, a run of a map's keys counted as its keys.
fn fields(migration: &Migration) -> usize {
    let entries = migration.docs.iter().flat_map(|d| match &d.outcome {
        Outcome::Written { report, .. } => report.as_slice(),
        _ => &[],
    });
    entries.map(|e| e.to.keys().map_or(1, |keys| keys.len())).sum()
}

impl FileOutcome for Reported {
    fn failures(&self) -> Vec<String> {
        match self {
            Reported::Ahead { failures, .. } => failures.clone(),
            Reported::Later(migration) => FileOutcome::failures(&**migration),
        }
    }

    fn write_report(&self, quiet: bool, sink: &mut dyn FnMut(&str)) {
        match self {
            Reported::Ahead { runs, quiet: written_for, .. } => {
                debug_assert_eq!(quiet, *written_for, "reported ahead for the other mode");
                runs.iter().for_each(|run| sink(run));
            }
            Reported::Later(migration) => FileOutcome::write_report(&**migration, quiet, sink),
        }
    }

    fn into_docs(self) -> Vec<Document> {
        match self {
            Reported::Ahead { docs, .. } => docs,
            Reported::Later(migration) => migration.docs,
        }
    }
}

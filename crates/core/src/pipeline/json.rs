//! `--format json`: per document of the stream, what became of it, the objects it was written
//! as and its report, in one shape for both front ends (a migration adds its pod comparison).

use super::{Document, Outcome, Wording};
use crate::pipeline::report::Entry;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

/// One document: `{document, line, outcome, kind, name}`, and for a written one `lossy`,
/// `objects` and `report` (each entry as the front end words it), for a failed one `reason`.
pub fn document_json(d: &Document, wording: impl Wording) -> Value {
    let json = DocumentJson { doc: d, wording, extra: Vec::new() };
    serde_json::to_value(json).unwrap_or(Value::Null)
}

/// [`document_json`] and then the `extra` members (a migration's `pods`, the CLI's `file`),
/// serialized straight from the document rather than through a tree of JSON values: a report of
/// a quarter million entries took about 350 bytes of tree each, ten times its text.
pub struct DocumentJson<'a, W> {
    /// The document.
    pub doc: &'a Document,
    /// How the front end words its entries.
    pub wording: W,
    /// Members written after the document's own, in this order.
    pub extra: Vec<(&'static str, Value)>,
}

impl<W: Wording> Serialize for DocumentJson<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let d = self.doc;
        let mut out = serializer.serialize_map(None)?;
        out.serialize_entry("document", &d.index)?;
        out.serialize_entry("line", &d.line)?;
        let (outcome, name, kind) = match &d.outcome {
            Outcome::Written { name, kind, .. } => (self.wording.written(), Some(name), Some(kind)),
            Outcome::Refused { name, kind, .. } => ("refused", Some(name), Some(kind)),
            Outcome::PassedThrough { name, kind, .. } => ("passed-through", Some(name), Some(kind)),
            Outcome::Invalid { .. } => ("invalid", None, None),
        };
        out.serialize_entry("outcome", outcome)?;
        out.serialize_entry("kind", &kind)?;
        out.serialize_entry("name", &name)?;
        match &d.outcome {
            Outcome::Written { objects, report, lossy, .. } => {
                out.serialize_entry("lossy", lossy)?;
                out.serialize_entry("objects", objects)?;
                out.serialize_entry("report", &Entries { report, objects, wording: &self.wording })?;
            }
            Outcome::Refused { reason, .. } => out.serialize_entry("reason", &reason.to_string())?,
            Outcome::Invalid { error } => out.serialize_entry("reason", &error.to_string())?,
            Outcome::PassedThrough { .. } => {}
        }
        for (key, value) in &self.extra {
            out.serialize_entry(key, value)?;
        }
        out.end()
    }
}

/// A report's entries, each worded and written in turn (one entry's JSON value at a time), one
/// per field (`Entry::each_field`, a run's keys read from the objects it went to).
struct Entries<'a, W> {
    report: &'a [Entry],
    objects: &'a [Value],
    wording: &'a W,
}

impl<W: Wording> Serialize for Entries<'_, W> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let entries = self.report.iter().flat_map(|e| e.each_field(self.objects));
        serializer.collect_seq(entries.map(|e| self.wording.entry_json(&e)))
    }
}

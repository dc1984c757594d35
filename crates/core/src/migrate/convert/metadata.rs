//! The TrainJob's metadata: name, namespace, labels, annotations.

use super::*;
use crate::snippets::trainjob::QUEUE_LABEL;

impl Conversion<'_> {
    /// The TrainJob's metadata: name (made a valid RFC 1035 label if needed), namespace,
    /// labels (the Kueue queue label stays a label) and annotations.
    pub(super) fn trainjob_meta(&mut self) -> ObjectMeta {
        let mut meta = ObjectMeta::named(&rfc1035(&self.name));
        if meta.name.as_deref() != Some(self.name.as_str()) {
            self.report.mapped_derived(
                "metadata.name",
                "metadata.name",
                format!("renamed to {}: TrainJob names must be RFC 1035 labels", meta.name.clone().unwrap_or_default()),
            );
        } else {
            self.report.mapped("metadata.name", "metadata.name", "");
        }
        if let Some(ns) = &self.meta.namespace {
            meta.namespace = Some(ns.clone());
            self.report.mapped("metadata.namespace", "metadata.namespace", "");
        }
        // Taken, not copied (a job can have 150,000 labels): the TrainJob's metadata is built once.
        meta.labels = std::mem::take(&mut self.meta.labels);
        for key in meta.labels.keys() {
            let note = if key == QUEUE_LABEL { "Kueue reads the same label on a TrainJob" } else { "" };
            let path = format!("metadata.labels.{key}");
            self.report.mapped(path.clone(), path, note);
        }
        meta.annotations = std::mem::take(&mut self.meta.annotations);
        if !meta.annotations.is_empty() {
            self.report.mapped("metadata.annotations", "metadata.annotations", "");
        }
        for key in ["labels", "annotations"] {
            let raw = self.doc.get("metadata").and_then(|m| m.get(key));
            if raw.is_some_and(|v| v.as_object().is_none_or(|m| m.is_empty())) {
                self.report.dropped(format!("metadata.{key}"), "empty: nothing to carry over");
            }
        }
        for key in self.meta.extra.keys() {
            self.report.dropped(format!("metadata.{key}"), "set by the API server; not carried over");
        }
        meta
    }
}

/// A valid TrainJob name: RFC 1035 label, at most 63 characters.
pub(super) fn rfc1035(name: &str) -> String {
    let mut s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    if !s.starts_with(|c: char| c.is_ascii_lowercase()) {
        s.insert_str(0, "job-");
    }
    s.truncate(63);
    while s.ends_with('-') {
        s.pop();
    }
    s
}

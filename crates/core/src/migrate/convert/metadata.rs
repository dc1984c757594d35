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
        // A job whose own name the V1 cluster refused ran no pod, so no Service of it was refused.
        if !self.note_refused_name() {
            self.note_refused_services();
        }
        if let Some(ns) = &self.meta.namespace {
            meta.namespace = Some(ns.clone());
            self.report.mapped("metadata.namespace", "metadata.namespace", "");
        }
        // Taken, not copied (a job can have 150,000 labels): the TrainJob's metadata is built once.
        meta.labels = std::mem::take(&mut self.meta.labels);
        // The labels carried as they are: one entry for each run of them between those with an
        // entry of their own (the Kueue queue label, with its note), not one each: a job can
        // have 200,000 labels, and an entry each held 40 MB until the report was written.
        let mut run_start = 0;
        for (i, key) in meta.labels.keys().enumerate().filter(|(_, key)| *key == QUEUE_LABEL) {
            self.report.mapped_each_key("metadata.labels", run_start..i);
            let path = format!("metadata.labels.{key}");
            self.report.mapped(path.clone(), path, "Kueue reads the same label on a TrainJob");
            run_start = i + 1;
        }
        self.report.mapped_each_key("metadata.labels", run_start..meta.labels.len());
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

impl Conversion<'_> {
    /// Says on the name's entry that the V1 cluster refused the job's own name (the API server's
    /// check of every custom resource's name, else Training Operator's webhook), in explain's
    /// words (explain::v1::check): V1 ran nothing for it. Whether it did.
    fn note_refused_name(&mut self) -> bool {
        let training_operator_kind = match self.source {
            Source::V1(kind) => Some(kind),
            Source::MpiV2beta1 => None,
        };
        let refused = crate::explain::v1::name_refusals(training_operator_kind, &self.name);
        if refused.is_empty() {
            return false;
        }
        let reasons: Vec<String> = refused.iter().map(ToString::to_string).collect();
        let note = format!(
            "the V1 cluster refused this {} as written, so V1 ran no pod: {}",
            self.kind_name,
            reasons.join("; ")
        );
        if let Some(e) = self.report.entries.iter_mut().rev().find(|e| e.from == "metadata.name") {
            e.note = if e.note.is_empty() { note } else { format!("{}; {note}", e.note) };
        }
        true
    }

    /// Says on the `metadata.name` entry where Training Operator v1.9 could not create a pod's
    /// Service by its name (`<job>-<type>-<index>` longer than 63 characters, or no DNS-1035
    /// label): it ran the pods, but not the job as written (`explain::v1`'s `failsAfterAdmission`).
    fn note_refused_services(&mut self) {
        let kind = self.source.kind();
        if self.source != Source::V1(kind) {
            return;
        }
        let refused: Vec<String> = self
            .replicas
            .iter()
            .filter_map(|(rtype, rep)| {
                let count = rep.spec.replicas.unwrap_or(1);
                let (name, errors) = crate::explain::v1::refused_service(kind, &self.name, rtype, count)?;
                Some(format!("{}: {}", rep.path, crate::explain::v1::service_refused(kind, &name, &errors)))
            })
            .collect();
        if refused.is_empty() {
            return;
        }
        let note = format!("Training Operator v1.9 did not run this job as written: {}", refused.join("; "));
        if let Some(e) = self.report.entries.iter_mut().rev().find(|e| e.from == "metadata.name") {
            e.note = if e.note.is_empty() { note } else { format!("{}; {note}", e.note) };
        }
    }
}

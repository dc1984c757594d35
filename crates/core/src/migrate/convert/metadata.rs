//! The TrainJob's metadata: name, namespace, labels, annotations.

use super::*;
use crate::model::tracked::PathError;
use crate::snippets::trainjob::QUEUE_LABEL;
use std::borrow::Cow;

/// The V1 job's labels and annotations, which the TrainJob carries as they are. Read from the
/// job's tree, not through the model: a job can have a quarter million labels, and the model's
/// metadata (a `#[serde(flatten)]` struct, read through serde's buffer of every member) held them
/// twice more while the tree held them too.
#[derive(Default)]
pub(super) struct Carried<'a> {
    pub(super) labels: Cow<'a, Map<String, Value>>,
    pub(super) annotations: Cow<'a, Map<String, Value>>,
}

/// The V1 job's `metadata` as the model reads it, but for its labels and annotations
/// ([`Carried`]): those `taken` out of the tree already (`take_carried`), else borrowed from it
/// where each is a map of text. Where one is anything else, the model reads the whole metadata,
/// as before, for its error and its path.
pub(super) fn read_metadata<'a>(
    metadata: &'a Value,
    taken: Carried<'static>,
) -> Result<(ObjectMeta, Carried<'a>), PathError> {
    if let (Some(members), Some(labels), Some(annotations)) =
        (metadata.as_object(), of_text(metadata, "labels"), of_text(metadata, "annotations"))
    {
        // The other members (a name, a namespace) copied for the model: a map of text gives it
        // no error, so it reads these as it read them beside the labels.
        let others = members.iter().filter(|(key, _)| !CARRIED.contains(&key.as_str()));
        let meta = crate::model::tracked::deserialize(&Value::Object(
            others.map(|(key, value)| (key.clone(), value.clone())).collect(),
        ))?;
        let or_borrowed = |taken: Cow<'static, Map<String, Value>>, map: Option<&'a Map<String, Value>>| {
            if taken.is_empty() {
                map.map_or_else(Cow::default, Cow::Borrowed)
            } else {
                taken
            }
        };
        let carried = Carried {
            labels: or_borrowed(taken.labels, labels),
            annotations: or_borrowed(taken.annotations, annotations),
        };
        return Ok((meta, carried));
    }
    let mut meta: ObjectMeta = crate::model::tracked::deserialize(metadata)?;
    let owned = |map: crate::model::vecmap::VecMap<String, String>| {
        Cow::Owned(map.into_iter_freeing().map(|(key, value)| (key, Value::String(value))).collect())
    };
    let carried = Carried {
        labels: owned(std::mem::take(&mut meta.labels)),
        annotations: owned(std::mem::take(&mut meta.annotations)),
    };
    Ok((meta, carried))
}

/// The members of metadata a TrainJob carries as they are.
const CARRIED: [&str; 2] = ["labels", "annotations"];

/// The map of text at `metadata.key`: `Some(None)` where there is none, `None` where it is
/// something else (the model's to refuse).
fn of_text<'a>(metadata: &'a Value, key: &str) -> Option<Option<&'a Map<String, Value>>> {
    match metadata.get(key) {
        None => Some(None),
        Some(Value::Object(map)) if map.values().all(Value::is_string) => Some(Some(map)),
        Some(_) => None,
    }
}

/// The job's labels and annotations, taken out of its tree where both are maps of text (as
/// `read_metadata` reads them) and each is not empty (an empty one is reported as it is
/// written, from the tree); nothing where the model must read them.
pub(super) fn take_carried(doc: &mut Value) -> Carried<'static> {
    let Some(metadata) = doc.get_mut("metadata") else { return Carried::default() };
    if of_text(metadata, "labels").is_none() || of_text(metadata, "annotations").is_none() {
        return Carried::default();
    }
    let Some(members) = metadata.as_object_mut() else { return Carried::default() };
    // `shift_remove`: the other members keep their order (the model's `extra`, reported in it).
    let mut take = |key: &str| match members.get(key) {
        Some(Value::Object(map)) if !map.is_empty() => match members.shift_remove(key) {
            Some(Value::Object(map)) => Cow::Owned(map),
            _ => Cow::default(),
        },
        _ => Cow::default(),
    };
    Carried { labels: take("labels"), annotations: take("annotations") }
}

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
        // The labels and annotations are not in `meta`: the TrainJob's are `self.carried`, written
        // after the model's members (`trainjob_value`).
        // The labels carried as they are: one entry for each run of them between those with an
        // entry of their own (the Kueue queue label, with its note), not one each: a job can
        // have 200,000 labels, and an entry each held 40 MB until the report was written.
        let labels = &self.carried.labels;
        let mut run_start = 0;
        for (i, key) in labels.keys().enumerate().filter(|(_, key)| *key == QUEUE_LABEL) {
            self.report.mapped_each_key("metadata.labels", run_start..i);
            let path = format!("metadata.labels.{key}");
            self.report.mapped(path.clone(), path, "Kueue reads the same label on a TrainJob");
            run_start = i + 1;
        }
        self.report.mapped_each_key("metadata.labels", run_start..labels.len());
        if !self.carried.annotations.is_empty() {
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
    /// Says on the name's entry that the V1 cluster refused the job: its own name (the API
    /// server's check of every custom resource's name), else whatever Training Operator's webhook
    /// refuses in it, in explain's words (explain::v1::check): V1 ran nothing for it. Whether it
    /// did.
    fn note_refused_name(&mut self) -> bool {
        let training_operator_kind = match self.source {
            Source::V1(kind) => Some(kind),
            Source::MpiV2beta1 => None,
        };
        let mut refused = crate::explain::v1::name_refusals(training_operator_kind, &self.name);
        // The API server refuses a name before the webhook sees the job; else the webhook's
        // every error (as explain::v1::check gives them).
        if refused.is_empty() {
            refused = std::mem::take(&mut self.webhook_refusals);
        }
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

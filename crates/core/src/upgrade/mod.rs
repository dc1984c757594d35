//! Upgrade a Trainer V2 manifest (TrainJob, TrainingRuntime, ClusterTrainingRuntime) written
//! for one release to a newer one, with a report of what happened to every field that changed
//! and why. Pure, like `crate::migrate`: shared by the CLI and the upgrade notes of a selection.
//!
//! The changes come from one table, `crate::release_changes::API_CHANGES`; a downgrade is
//! refused, because the newer shapes hold more than the older ones (a runtime patch can set a
//! security context, which no v2.1 override can) and what to leave out is the reader's call.

pub mod notes;
mod refusal;
pub mod report;
pub mod rewrite;

pub use notes::{upgrade_notes, Note};
pub use refusal::{Invalid, Refusal};
pub use report::{Entry, Kind};

use crate::pipeline::input::RawDoc;
use crate::pipeline::{self, Wording};
use crate::release_changes::{changes_between, position, Rewrite, Subject, API_CHANGES};
use explorer_data::releases::{Release, RELEASES};
use serde_json::Value;
use std::collections::HashSet;

/// The group and version of every Trainer V2 release.
pub const API_VERSION: &str = "trainer.kubeflow.org/v1alpha1";

/// What became of one document; a rewritten one carries its report: what happened to each
/// field an API change concerns, and what needs the reader (`Kind::Attention`).
pub type Outcome = pipeline::Outcome;
/// One input document and what became of it.
pub type DocResult = pipeline::Document;

/// Why a stream could not be upgraded at all, or a release not named. A document that cannot
/// be rewritten is not an error: it is that document's [`Outcome`].
#[non_exhaustive]
#[derive(Clone, Debug)]
pub enum Error {
    /// A release that is not in the release data: the name asked for.
    UnknownRelease(String),
    /// An upgrade to an older release (the two lines, `v2.3` and `v2.1`): see the module comment.
    Downgrade {
        /// The line the manifest is written for.
        from: &'static str,
        /// The older line asked for.
        to: &'static str,
    },
    /// The input door refused the text as a whole (`pipeline::input`), in its words.
    Input(crate::pipeline::input::InputError),
    /// The input holds no Trainer V2 object to upgrade.
    NoTrainerObject,
    /// The notes of a selection's YAML: the first document that could not be upgraded, with its
    /// outcome (refused or invalid); its text is that document's failure line.
    Document(Box<DocResult>),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::UnknownRelease(name) => {
                let lines: Vec<&str> = RELEASES.iter().map(|r| r.line).collect();
                write!(f, "unknown Trainer release {name:?}: one of {}", lines.join(", "))
            }
            Error::Downgrade { from, to } => write!(
                f,
                "{from} → {to} is a downgrade: upgrade only rewrites for a newer release. Write the manifest for {to} \
                 instead (the widget's Trainer release, or `export --query 'release={to}&...'`)"
            ),
            Error::Input(refusal) => std::fmt::Display::fmt(refusal, f),
            Error::Document(doc) => match doc.outcome.failure() {
                Some(failure) => f.write_str(&failure.line(&pipeline::failure::document_at(doc.index, doc.line))),
                None => write!(f, "{}", pipeline::failure::document_at(doc.index, doc.line)),
            },
            Error::NoTrainerObject => write!(
                f,
                "no Trainer V2 object ({API_VERSION} TrainJob, TrainingRuntime or ClusterTrainingRuntime) in the input"
            ),
        }
    }
}

impl std::error::Error for Error {}

/// An upgraded stream: what became of each document, in input order.
pub struct Upgrade {
    /// The release the manifests were written for.
    pub from: Release,
    /// The release they are rewritten for.
    pub to: Release,
    /// Each input document and its outcome.
    pub docs: Vec<DocResult>,
}

/// A release by its line (`v2.1`) or the tag that serves it (`v2.1.0`).
pub fn parse_release(s: &str) -> Result<&'static Release, Error> {
    RELEASES.iter().find(|r| r.line == s || r.tag == s).ok_or_else(|| Error::UnknownRelease(s.into()))
}

/// Rewrites a YAML stream written for `from` so that `to` accepts it. `Err` when the request or
/// the input as a whole cannot be used (a downgrade, unreadable input, no Trainer object);
/// per-document problems are outcomes.
pub fn upgrade(text: &str, from: Release, to: Release) -> Result<Upgrade, Error> {
    refuse_downgrade(from, to)?;
    rewrite_documents(pipeline::input::each_document(text).map_err(Error::Input)?, from, to, Sources::Keep)
}

/// [`upgrade`] for a caller that writes the output and the report (the CLI), not the documents
/// as parsed, and that hands the input door the text itself, freed as it is parsed
/// (`pipeline::input::accept_given`), then the documents it hands on (`Accepted::documents`): each
/// [`DocResult::source`] is `None`. Each document's tree moves into its rewrite (or its output,
/// passed through) instead of being copied beside its source: a document of 4 MiB is held as one
/// tree, not two (issue 36: upgrade took 20× its input). The documents come from the door one at
/// a time, and one that is no Trainer object to rewrite (a V1 job refused, an invalid one) is
/// dropped as soon as it is classified: only the Trainer objects, which the changes read across
/// documents, are held together (issue 36: 10,000 V1 jobs took 13 times their 4 MiB as 10,000
/// trees). The caller checks the releases ([`refuse_downgrade`]) before the door.
pub fn upgrade_documents_without_sources(
    raw: impl IntoIterator<Item = RawDoc>,
    from: Release,
    to: Release,
) -> Result<Upgrade, Error> {
    rewrite_documents(raw, from, to, Sources::Drop)
}

/// Whether an upgrade keeps each document as parsed beside what it became.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sources {
    Keep,
    Drop,
}

/// Classifies each document as it comes (`raw`: in input order), then applies the changes to
/// the Trainer objects among them, all at once: a change may read one object to rewrite another
/// (a runtime's `numProcPerNode` goes to the TrainJobs of the input that use it).
fn rewrite_documents(
    raw: impl IntoIterator<Item = RawDoc>,
    from: Release,
    to: Release,
    sources: Sources,
) -> Result<Upgrade, Error> {
    refuse_downgrade(from, to)?;
    let mut docs = Vec::new();
    // Every input document and what became of it, in input order. A Trainer object's outcome is
    // known once the changes have run: it is written in its place then (`rewritten`), in place of
    // the placeholder it holds until then. One list, not the documents and then their outcomes
    // beside them: 10,000 documents' outcomes are 4 MB.
    let mut out: Vec<DocResult> = Vec::new();
    // Per Trainer object: its place in `out`, and in `docs`.
    let mut rewritten: Vec<(usize, usize)> = Vec::new();
    for mut d in raw {
        let outcome = match &mut d.value {
            Err(e) => Outcome::Invalid { error: pipeline::Invalid::Yaml(e.clone()) },
            Ok(parsed) => {
                // A `null` member is absent (crate::model::without_nulls): a copy when the source
                // is kept, else the tree itself.
                let v = match sources {
                    Sources::Keep => crate::model::without_nulls(parsed).into_owned(),
                    Sources::Drop => crate::model::into_without_nulls(std::mem::take(parsed)),
                };
                match classify(v, from) {
                    Classified::Other(outcome) => outcome,
                    Classified::Manifest(v) => match Subject::of_kind(v["kind"].as_str().unwrap_or_default()) {
                        Some(subject) => {
                            rewritten.push((out.len(), docs.len()));
                            docs.push(rewrite::Doc { index: d.index, subject, value: v, refused: None });
                            // The placeholder: no object, no report, until the changes have run.
                            Outcome::PassedThrough { kind: String::new(), name: String::new(), object: Value::Null }
                        }
                        None => invalid(Invalid::NotTrainer),
                    },
                }
            }
        };
        let source = if sources == Sources::Keep { d.value.ok() } else { None };
        out.push(DocResult { index: d.index, line: d.line, source, outcome });
    }
    if docs.is_empty() && out.iter().all(|d| matches!(d.outcome, Outcome::PassedThrough { .. })) {
        return Err(Error::NoTrainerObject);
    }

    let mut report = report::Report::default();
    for change in changes_between(from, to) {
        rewrite::apply(change, &mut docs, &mut report);
    }
    let defined: HashSet<(String, String)> = docs.iter().map(|d| (kind_of(&d.value), name_of(&d.value))).collect();
    // Each document's entries by its 1-based position, in the order the steps recorded them. A
    // list, not a map: the converter module carries no map of this type for it. Sized by the last
    // position, not the count: an empty document in the stream is skipped but keeps its place.
    let last = out.last().map_or(0, |d| d.index);
    let mut by_doc: Vec<Vec<Entry>> = std::iter::repeat_with(Vec::new).take(last + 1).collect();
    for e in report.entries {
        if let Some(entries) = by_doc.get_mut(e.doc) {
            entries.push(e);
        }
    }

    for (place, at) in rewritten {
        let doc = &mut docs[at];
        let (kind, name) = (kind_of(&doc.value), name_of(&doc.value));
        out[place].outcome = match doc.refused.take() {
            Some(reason) => refused(kind, name, reason),
            None => {
                let mut entries = by_doc.get_mut(doc.index).map(std::mem::take).unwrap_or_default();
                entries.extend(removed_runtime(doc, from, to, &defined));
                let lossy = entries.iter().any(|e| e.kind == Kind::Dropped);
                let objects = vec![std::mem::take(&mut doc.value)];
                Outcome::Written { kind, name, objects, report: entries, lossy }
            }
        };
    }
    Ok(Upgrade { from, to, docs: out })
}

/// Upgrade only goes to a newer release (or stays): see the module comment.
pub fn refuse_downgrade(from: Release, to: Release) -> Result<(), Error> {
    if position(to) >= position(from) {
        return Ok(());
    }
    Err(Error::Downgrade { from: from.line, to: to.line })
}

fn refused(kind: String, name: String, reason: Refusal) -> Outcome {
    Outcome::Refused { kind, name, reason: pipeline::Refusal::Upgrade(reason) }
}

fn invalid(error: Invalid) -> Outcome {
    Outcome::Invalid { error: pipeline::Invalid::Upgrade(error) }
}

fn kind_of(v: &Value) -> String {
    v["kind"].as_str().unwrap_or("object").to_string()
}

fn name_of(v: &Value) -> String {
    v["metadata"]["name"].as_str().unwrap_or("(unnamed)").to_string()
}

/// What an input document is to the upgrade.
enum Classified {
    /// A Trainer object that is a manifest for `from`: to rewrite.
    Manifest(Value),
    /// Anything else, with the outcome to report (a document passed through moves into it).
    Other(Outcome),
}

fn classify(v: Value, from: Release) -> Classified {
    match refusal_of(&v, from) {
        Some(outcome) => Classified::Other(outcome),
        None if is_trainer_manifest(&v, from) => Classified::Manifest(v),
        None => Classified::Other(Outcome::PassedThrough { kind: kind_of(&v), name: name_of(&v), object: v }),
    }
}

/// Whether `v` is an object of a kind and version `from` serves.
fn is_trainer_manifest(v: &Value, from: Release) -> bool {
    v.is_object() && from.serves(v["apiVersion"].as_str().unwrap_or_default(), &kind_of(v))
}

/// What becomes of `v` when it is neither a manifest for `from` nor passed through: `None` for
/// either of those.
fn refusal_of(v: &Value, from: Release) -> Option<Outcome> {
    let (kind, name) = (kind_of(v), name_of(v));
    if !v.is_object() {
        return Some(invalid(Invalid::NotAnObject));
    }
    let api = v["apiVersion"].as_str().unwrap_or_default();
    if from.serves(api, &kind) {
        if !v["spec"].is_object() && !v["spec"].is_null() {
            return Some(refused(kind, name, Refusal::SpecNotAMap));
        }
        return fields_of_release(v, from).err().map(|reason| refused(kind, name, Refusal::NotOfRelease(reason)));
    }
    if api.starts_with("kubeflow.org/") {
        return Some(refused(kind, name, Refusal::V1Object));
    }
    // A Trainer kind at a version the release's CRDs do not serve (explorer_data::served): the
    // cluster's REST mapper refuses it, so there is nothing of the release to upgrade.
    if api.starts_with("trainer.kubeflow.org/") && Subject::of_kind(&kind).is_some() {
        let reason = Refusal::NotServed { kind: kind.clone(), api_version: api.into() };
        return Some(refused(kind, name, reason));
    }
    if api.starts_with("trainer.kubeflow.org/") {
        let reason = Refusal::NotAJobOrRuntime { api_version: api.into(), kind: kind_of(v) };
        return Some(refused(kind, name, reason));
    }
    None
}

/// Checks, from the change table, that the object has no field that `from` had already removed
/// or did not have yet: a v2.2 manifest given as `--from v2.1` would otherwise pass unchanged.
fn fields_of_release(v: &Value, from: Release) -> Result<(), rewrite::Refusal> {
    let subject = Subject::of_kind(v["kind"].as_str().unwrap_or_default());
    let present = |path: &str| v.pointer(&format!("/{}", path.replace('.', "/"))).is_some();
    for c in API_CHANGES.iter().filter(|c| Some(c.subject) == subject) {
        let passed = position(c.release) <= position(from);
        let removes = !matches!(
            c.rewrite,
            Rewrite::Arrived | Rewrite::ProcsToInt32 | Rewrite::ListsAtMost128 | Rewrite::StorageUriWithScheme
        );
        if passed && removes && present(c.field) {
            let (field, release, source) = (c.field, c.release.line, c.source().to_string());
            return Err(rewrite::Refusal::RemovedBefore { field, release, source, from: from.line });
        }
        let arrives = if c.rewrite == Rewrite::Arrived { Some(c.field) } else { c.becomes };
        if let Some(field) = arrives.filter(|f| !passed && present(f)) {
            let (release, source) = (c.release.line, c.source().to_string());
            return Err(rewrite::Refusal::ArrivedAfter { field, release, source, from: from.line });
        }
    }
    Ok(())
}

/// A TrainJob naming a built-in ClusterTrainingRuntime that `from` ships and `to` does not
/// (from `Release::runtimes`), unless the input defines it: the field stays, and needs the reader.
fn removed_runtime(
    doc: &rewrite::Doc,
    from: Release,
    to: Release,
    defined: &HashSet<(String, String)>,
) -> Option<Entry> {
    let v = &doc.value;
    let r = &v["spec"]["runtimeRef"];
    let name = r["name"].as_str()?;
    let kind = r["kind"].as_str().unwrap_or("ClusterTrainingRuntime");
    if v["kind"] != "TrainJob"
        || kind != "ClusterTrainingRuntime"
        || defined.contains(&(kind.to_string(), name.to_string()))
    {
        return None;
    }
    from.runtime(name)?;
    let gone = RELEASES.get(position(from) + 1..=position(to))?.iter().find(|r| r.runtime(name).is_none())?;
    let note = format!(
        "{name} is a built-in runtime of {} that {} no longer ships: install it yourself (its {} manifest) \
         before this TrainJob, or pick another runtime",
        from.line, gone.line, from.line
    );
    let mut e = Entry::new("spec.runtimeRef.name".into(), Kind::Attention, None, note);
    e.number(doc.index);
    e.since = Some(gone);
    Some(e)
}

/// How the upgrade's report reads.
struct UpgradeWording {
    from: Release,
    to: Release,
}

impl Wording for UpgradeWording {
    fn headline(&self, kind: &str, name: &str, report: &[Entry], lossy: bool) -> String {
        let how = if report.is_empty() {
            " unchanged: no API change between them concerns it"
        } else if lossy {
            " with losses"
        } else {
            ""
        };
        format!("{kind} {name} rewritten for {} → {}{how}", self.from.line, self.to.line)
    }

    fn report_lines(&self, _: &DocResult, report: &[Entry], out: &mut pipeline::ReportWriter<'_>) {
        for e in report {
            out.push_str("  ");
            out.push_str(&report::line(e));
            out.end_line();
        }
    }

    fn passed_through_because(&self) -> &'static str {
        "not a Trainer object"
    }

    fn written(&self) -> &'static str {
        "rewritten"
    }

    /// `{status, from, to, note}` as a migration's `{status, v1, v2, note}` where the meaning is
    /// the same (`status`, `note`); `to` names each place with its document, as a value can land
    /// in another one; `changes` are the API changes it went through, `release` the one from
    /// which a field needs the reader (`attention`).
    fn entry_json(&self, e: &Entry) -> serde_json::Value {
        let to: Vec<serde_json::Value> =
            e.to.iter().map(|t| serde_json::json!({"document": t.doc, "path": t.path})).collect();
        let changes: Vec<serde_json::Value> = e
            .changes
            .iter()
            .map(|c| serde_json::json!({"release": c.release.line, "pr": c.pr, "reason": c.reason}))
            .collect();
        let mut out =
            serde_json::json!({"status": e.kind.id(), "from": e.from, "to": to, "note": e.note, "changes": changes});
        if let Some(release) = e.since {
            out["release"] = release.line.into();
        }
        out
    }
}

impl Upgrade {
    /// Every output object as one YAML stream, in input order.
    pub fn output_yaml(&self) -> String {
        pipeline::output_yaml(&self.docs)
    }

    /// Whether a rewrite dropped something.
    pub fn is_lossy(&self) -> bool {
        self.docs.iter().any(|d| matches!(d.outcome, Outcome::Written { lossy: true, .. }))
    }

    /// Every entry of every rewritten document (refused documents have none), in input order.
    pub fn entries(&self) -> Vec<Entry> {
        self.docs
            .iter()
            .filter_map(|d| match &d.outcome {
                Outcome::Written { report, .. } => Some(report.iter().cloned()),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// The report for people: one block per document.
    pub fn report_text(&self) -> String {
        pipeline::report_text(&self.docs, &self.wording())
    }

    /// `report_text`, handed to `sink` a run of whole lines at a time as it is written.
    pub fn write_report(&self, sink: &mut dyn FnMut(&str)) {
        pipeline::write_report(&self.docs, &self.wording(), sink);
    }

    /// The headline of each document rewritten with losses (the CLI's `--quiet`).
    pub fn lossy_headlines(&self) -> Vec<String> {
        pipeline::lossy_headlines(&self.docs, &self.wording())
    }

    /// One line per refused or invalid document, for the CLI's exit-1 case.
    pub fn failures(&self) -> Vec<String> {
        pipeline::failures(&self.docs)
    }

    /// Every document as `upgrade --format json` prints it (`crate::pipeline::json`).
    pub fn documents_json(&self) -> Vec<serde_json::Value> {
        self.docs.iter().map(|d| pipeline::json::document_json(d, self.wording())).collect()
    }

    /// The document at `i` as `upgrade --format json` prints it, then the `extra` members,
    /// written straight from the document (`pipeline::json::DocumentJson`).
    pub fn document_json_with(&self, i: usize, extra: Vec<(&'static str, Value)>) -> impl serde::Serialize + '_ {
        pipeline::json::DocumentJson { doc: &self.docs[i], wording: self.wording(), extra }
    }

    fn wording(&self) -> UpgradeWording {
        UpgradeWording { from: self.from, to: self.to }
    }
}

//! A user's own manifests: YAML text holding one TrainJob and the runtime it references, read
//! into the typed models plus the per-replicatedJob counts those models drop.

use super::after_admission::NegativeCounts;
use super::memo::Memo;
use super::{Input, JobCounts, Legacy, Release, Written};
use crate::model::v2::{TrainJob, TrainingRuntime};
use serde_json::Value as Json;
use std::borrow::Cow;
use std::rc::Rc;

/// The TrainJob and runtime found in `text` (any order, other documents ignored).
pub struct Documents<'a> {
    /// The TrainJob, as its typed model reads it.
    pub job: TrainJob,
    /// Shared with the other jobs of a paste on the same runtime (`read_runtime`).
    pub runtime: Rc<TrainingRuntime>,
    /// Each replicatedJob's `replicas` and `parallelism`, which the typed runtime model drops.
    pub counts: Vec<JobCounts>,
    /// Fields of an older release's shape the typed models do not hold.
    pub legacy: Legacy,
    /// Set when the input held no runtime and the TrainJob names one the release ships.
    pub shipped_runtime: Option<String>,
    /// The two documents as written, for the CRD checks: the TrainJob borrowed when the trees
    /// are held elsewhere (the pod comparison's converted objects), not copied.
    pub written_job: Cow<'a, Json>,
    /// The runtime as written (shared like `runtime`).
    pub written_runtime: Rc<Json>,
}

impl Documents<'_> {
    /// What explain judges: the documents borrowed as one input.
    pub fn input(&self) -> Input<'_> {
        Input {
            job: &self.job,
            runtime: &self.runtime,
            counts: &self.counts,
            legacy: &self.legacy,
            written: Some(Written { job: &self.written_job, runtime: &self.written_runtime }),
        }
    }
}

/// Takes out of the TrainJob what only older releases' CRDs hold: a string `numProcPerNode`
/// (v2.0-v2.1) and the `podSpecOverrides` (v2.0) or `podTemplateOverrides` (v2.1) list. The
/// release's checks then judge them (validate.rs).
/// Whether `take_legacy` would take anything out of `job`.
fn has_legacy(job: &Json) -> bool {
    let num_proc = super::v1::at(job, &["spec", "trainer", "numProcPerNode"]).is_some_and(Json::is_string)
        && super::v1::at(job, &["spec", "trainer"]).is_some_and(Json::is_object);
    let spec = job.get("spec").and_then(Json::as_object);
    let fields = ["podSpecOverrides", "podTemplateOverrides", "labels", "annotations"];
    num_proc || spec.is_some_and(|spec| fields.iter().any(|f| spec.contains_key(*f)))
}

fn take_legacy(job: &mut Json) -> Legacy {
    let mut legacy = Legacy::default();
    if let Some(trainer) = job.pointer_mut("/spec/trainer").and_then(Json::as_object_mut) {
        if let Some(Json::String(text)) = trainer.get("numProcPerNode") {
            legacy.num_proc_per_node = Some(text.clone());
            trainer.remove("numProcPerNode");
        }
    }
    if let Some(spec) = job.get_mut("spec").and_then(Json::as_object_mut) {
        for name in ["podSpecOverrides", "podTemplateOverrides"] {
            if let Some(value) = spec.remove(name) {
                legacy.pod_settings.push((name.to_string(), crate::model::Value::from(&value)));
            }
        }
        let strings = |v: Json| -> crate::model::vecmap::VecMap<String, String> {
            v.as_object()
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.clone(), v.as_str().map(String::from).unwrap_or_else(|| v.to_string())))
                .collect()
        };
        legacy.labels = spec.remove("labels").map(strings);
        legacy.annotations = spec.remove("annotations").map(strings);
    }
    legacy
}

/// Why the runtime a TrainJob's `runtimeRef` names is not there.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MissingRuntime {
    /// The input holds runtimes, none of that kind and name.
    NotInInput {
        /// The kind `runtimeRef` names.
        kind: String,
        /// The name `runtimeRef` names.
        name: String,
        /// The runtimes the input holds, each as `<kind> <name>`.
        found: Vec<String>,
    },
    /// The input holds no runtime, and the release ships none of that kind and name.
    NotShipped {
        /// The kind `runtimeRef` names.
        kind: String,
        /// The name `runtimeRef` names.
        name: String,
        /// The release's tag.
        release: &'static str,
        /// Where it ships: the tag it arrived in, and the line it left in (if it did).
        ships: Option<(&'static str, Option<&'static str>)>,
    },
}

impl std::fmt::Display for MissingRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MissingRuntime::NotInInput { kind, name, found } => {
                write!(f, "the TrainJob references the {kind} {name:?}, but the input has {}", found.join(", "))
            }
            MissingRuntime::NotShipped { kind, name, release, ships } => {
                write!(
                    f,
                    "no TrainingRuntime or ClusterTrainingRuntime in the input, and Trainer {release} ships no {kind} {name:?}"
                )?;
                match ships {
                    Some((since, Some(gone))) => write!(f, " (it ships in {since} to {gone})"),
                    Some((since, None)) => write!(f, " (it ships from {since})"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl std::error::Error for MissingRuntime {}

/// Why [`from_refs`] read no documents.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum ReadError {
    /// The input holds no TrainJob.
    NoTrainJob,
    /// The input holds this many TrainJobs: explain reads one at a time.
    SeveralTrainJobs(usize),
    /// The runtime the TrainJob references is neither in the input nor shipped by the release.
    Runtime(MissingRuntime),
    /// A count of the runtime's replicatedJobs that is no whole number (`runtime spec.…`).
    Count(super::Rejection),
    /// A value the typed model of the TrainJob or (`in_runtime`) its runtime refuses; the path is
    /// from that object's root.
    Model {
        /// Whether the value is the runtime's (else the TrainJob's).
        in_runtime: bool,
        /// The typed model's refusal.
        error: super::Rejection,
    },
}

impl ReadError {
    /// The field error it is, named in the object it is in.
    fn rejection(self) -> super::Rejection {
        match self {
            ReadError::NoTrainJob | ReadError::SeveralTrainJobs(_) | ReadError::Runtime(_) => {
                super::Rejection::message("", self.to_string())
            }
            ReadError::Count(error) => error,
            ReadError::Model { in_runtime, error } => {
                super::Rejection { path: super::FieldPath { in_runtime, ..error.path }, ..error }
            }
        }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NoTrainJob => f.write_str("no TrainJob in the input"),
            ReadError::SeveralTrainJobs(n) => write!(f, "{n} TrainJobs in the input: explain reads one at a time"),
            ReadError::Runtime(missing) => write!(f, "{missing}"),
            ReadError::Count(error) => write!(f, "{error}"),
            ReadError::Model { in_runtime, error } => {
                let object = if *in_runtime { "runtime" } else { "TrainJob" };
                write!(f, "{object}: {}", crate::field_error::said(error))
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// Why explain read nothing to judge from a user's text.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Error {
    /// The input door refused the text (pipeline::input: size, control bytes, nesting, aliases,
    /// documents).
    #[cfg(feature = "yaml-input")]
    Door(crate::pipeline::input::InputError),
    /// A document that is no YAML: its number and first line, and the parser's error.
    #[cfg(feature = "yaml-input")]
    Document {
        /// The document's number in the stream (1-based).
        index: usize,
        /// The line it starts on.
        line: usize,
        /// The parser's error.
        error: crate::pipeline::input::YamlError,
    },
    /// The documents hold no TrainJob to judge, or one the typed models refuse.
    Read(ReadError),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            #[cfg(feature = "yaml-input")]
            Error::Door(error) => write!(f, "{error}"),
            #[cfg(feature = "yaml-input")]
            Error::Document { index, line, error } => write!(f, "document {index} (line {line}): {error}"),
            Error::Read(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<ReadError> for Error {
    fn from(error: ReadError) -> Error {
        Error::Read(error)
    }
}

fn typed<T: serde::de::DeserializeOwned>(doc: &Json, in_runtime: bool) -> Result<T, ReadError> {
    crate::model::tracked::deserialize(doc)
        .map_err(|e| ReadError::Model { in_runtime, error: crate::field_error::kubernetes(e.path(), e.inner()) })
}

/// A replicatedJob's count at `path` (in the runtime).
fn count(v: Option<&Json>, path: &str) -> Result<Option<u32>, ReadError> {
    let invalid = |detail: String| {
        let path = super::FieldPath::parse(path).in_runtime();
        ReadError::Count(super::Rejection::new(super::ErrorType::Invalid, path, detail))
    };
    match v {
        None | Some(Json::Null) => Ok(None),
        Some(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()).map(Some).ok_or_else(|| match n.as_i64() {
            Some(negative) if negative < 0 => invalid(format!("{negative}: must be greater than or equal to 0")),
            _ => invalid(format!("{n}: must be a whole number of at most {}", u32::MAX)),
        }),
    }
}

/// The runtime a TrainJob's `runtimeRef` names: by name, and by kind when the ref gives one
/// (its CRD default is ClusterTrainingRuntime), as the controller checks a snapshot
/// (pkg/runtime/core/snapshot.go:68-92).
fn referenced<'r>(job: &Json, runtimes: &[&'r Json]) -> Result<&'r Json, MissingRuntime> {
    let name = super::v1::at(job, &["spec", "runtimeRef", "name"]).and_then(Json::as_str).unwrap_or_default();
    let kind =
        super::v1::at(job, &["spec", "runtimeRef", "kind"]).and_then(Json::as_str).unwrap_or("ClusterTrainingRuntime");
    runtimes
        .iter()
        .copied()
        .find(|r| {
            super::v1::at(r, &["metadata", "name"]).and_then(Json::as_str) == Some(name)
                && (r.get("kind").and_then(Json::as_str) == Some(kind) || !is_runtime_kind(kind))
        })
        .ok_or_else(|| {
            // The runtimes the input holds, named only when the one referenced is not among them.
            let found = runtimes
                .iter()
                .map(|r| {
                    let k = r.get("kind").and_then(Json::as_str).unwrap_or_default();
                    format!(
                        "{k} {}",
                        super::v1::at(r, &["metadata", "name"]).and_then(Json::as_str).unwrap_or_default()
                    )
                })
                .collect();
            MissingRuntime::NotInInput { kind: kind.into(), name: name.into(), found }
        })
}

/// A kind a runtime can have. A ref of another kind finds the runtime of its name whatever its
/// kind, so the webhook's `unsupported runtime` answers it (validate.rs), not the reader.
pub fn is_runtime_kind(kind: &str) -> bool {
    matches!(kind, "TrainingRuntime" | "ClusterTrainingRuntime")
}

/// The runtime `runtimeRef` names, as `release` ships it, when the input holds none: a
/// ClusterTrainingRuntime of the release's data (snippets::runtimes builds it as the release's
/// manifests install it), with the note saying so (`input_has_none`: the input holds no runtime
/// at all, rather than none of that name).
fn shipped(job: &Json, release: Release, input_has_none: bool) -> Result<(Rc<Json>, String), MissingRuntime> {
    let name = super::v1::at(job, &["spec", "runtimeRef", "name"]).and_then(Json::as_str).unwrap_or_default();
    let kind =
        super::v1::at(job, &["spec", "runtimeRef", "kind"]).and_then(Json::as_str).unwrap_or("ClusterTrainingRuntime");
    let runtime = (kind == "ClusterTrainingRuntime" || !is_runtime_kind(kind))
        .then(|| crate::snippets::runtimes::builtin_runtime_trees(&release))
        .and_then(|trees| {
            trees.iter().find(|r| super::v1::at(r, &["metadata", "name"]).and_then(Json::as_str) == Some(name)).cloned()
        });
    match runtime {
        Some(rt) => {
            let input = if input_has_none { "the input holds no runtime" } else { "the input holds none of that name" };
            Ok((rt, format!("the ClusterTrainingRuntime {name:?} as Trainer {} installs it ({input})", release.tag)))
        }
        None => {
            let ships = match Release::life_span(name) {
                (Some(since), gone) => Some((since.tag, gone.map(|g| g.line))),
                (None, _) => None,
            };
            Err(MissingRuntime::NotShipped { kind: kind.into(), name: name.into(), release: release.tag, ships })
        }
    }
}

/// The TrainJob and runtime of YAML `text` (`trees`, then `from_trees`).
#[cfg(feature = "yaml-input")]
pub fn documents(text: &str, release: Release) -> Result<Documents<'static>, Error> {
    Ok(from_trees(trees(text)?, release)?)
}

/// The documents of YAML `text`, read through the input door every command shares
/// (`pipeline::input::documents`: its size, nesting, alias and document limits); the first
/// document that does not read is the error.
#[cfg(feature = "yaml-input")]
pub fn trees(text: &str) -> Result<Vec<Json>, Error> {
    crate::pipeline::input::documents(text)
        .map_err(Error::Door)?
        .into_iter()
        .map(|doc| doc.value.map_err(|error| Error::Document { index: doc.index, line: doc.line, error }))
        .collect()
}

/// `documents` for objects already read as trees (the pod comparison's converted objects), so
/// they are not printed and parsed again. The TrainJob is moved out of them, not copied (a
/// TrainJob of 4 MiB is a tree of about 36 MB).
pub fn from_trees(mut docs: Vec<Json>, release: Release) -> Result<Documents<'static>, ReadError> {
    let jobs: Vec<usize> = (0..docs.len()).filter(|&i| is_train_job(&docs[i])).collect();
    let job = match jobs[..] {
        [i] => crate::model::into_without_nulls(std::mem::take(&mut docs[i])),
        [] => return Err(ReadError::NoTrainJob),
        _ => return Err(ReadError::SeveralTrainJobs(jobs.len())),
    };
    from_job(Cow::Owned(job), &docs.iter().collect::<Vec<_>>(), None, release)
}

/// `from_trees` for trees held elsewhere (the pod comparison's built-in runtime), not copied:
/// the TrainJob is borrowed unless it holds a null to take out.
pub fn from_refs<'a>(docs: &[&'a Json], release: Release) -> Result<Documents<'a>, ReadError> {
    from_refs_holding(docs, None, release)
}

/// `from_refs` where the runtime among `docs` may be the tree behind `held` (a built-in
/// runtime's): its reading is then found again by address for the next job on it
/// (explain::memo), not by comparing the whole tree.
pub fn from_refs_holding<'a>(
    docs: &[&'a Json],
    held: Option<&Rc<Json>>,
    release: Release,
) -> Result<Documents<'a>, ReadError> {
    let mut jobs = docs.iter().filter(|doc| is_train_job(doc));
    let job = match (jobs.next(), jobs.count()) {
        (Some(job), 0) => crate::model::without_nulls(job),
        (None, _) => return Err(ReadError::NoTrainJob),
        (Some(_), more) => return Err(ReadError::SeveralTrainJobs(more + 1)),
    };
    from_job(job, docs, held, release)
}

/// Whether `doc` is a TrainJob (by its kind).
pub fn is_train_job(doc: &Json) -> bool {
    doc.get("kind").and_then(Json::as_str) == Some("TrainJob")
}

/// The documents of `job` (its nulls taken out) and the runtime among `docs` it references (the
/// tree behind `held`, when it is that one).
fn from_job<'a>(
    job: Cow<'a, Json>,
    docs: &[&Json],
    held: Option<&Rc<Json>>,
    release: Release,
) -> Result<Documents<'a>, ReadError> {
    // The runtimes as written: nulls are taken out of the one referenced (`read_runtime`), and
    // finding it by kind and name reads no null.
    let runtimes: Vec<&Json> = docs
        .iter()
        .copied()
        .filter(|doc| {
            matches!(doc.get("kind").and_then(Json::as_str), Some("TrainingRuntime" | "ClusterTrainingRuntime"))
        })
        .collect();
    let mut shipped_runtime = None;
    let shipped_tree;
    let runtime = if runtimes.is_empty() {
        let (runtime, note) = shipped(&job, release, true).map_err(ReadError::Runtime)?;
        shipped_runtime = Some(note);
        shipped_tree = runtime;
        read_runtime(&shipped_tree, Some(&shipped_tree), false)
    } else {
        let runtime = referenced(&job, &runtimes).map_err(ReadError::Runtime)?;
        read_runtime(runtime, held.filter(|h| std::ptr::eq(Rc::as_ptr(h), runtime)), true)
    };
    // The job as written, and the tree the typed model reads: a copy less its legacy fields
    // only when it has some (a TrainJob of 4 MiB was held three times).
    let written_job = job;
    let (legacy, stripped) = if has_legacy(&written_job) {
        let mut job = Json::clone(&written_job);
        (take_legacy(&mut job), Some(job))
    } else {
        (Legacy::default(), None)
    };
    let counts = runtime.counts.clone()?;
    let job = typed(stripped.as_ref().unwrap_or(&written_job), false)?;
    Ok(Documents {
        job,
        runtime: runtime.typed.clone()?,
        counts,
        legacy,
        shipped_runtime,
        written_job,
        written_runtime: runtime.tree.clone(),
    })
}

/// A runtime read for explain: the tree the CRD checks see, the typed model and its counts.
struct ReadRuntime {
    tree: Rc<Json>,
    counts: Result<Vec<JobCounts>, ReadError>,
    typed: Result<Rc<TrainingRuntime>, ReadError>,
}

/// `runtime` read (its nulls taken out when `written`, a runtime from the input): once per
/// runtime for a paste of many jobs on the same one (explain::memo; `held`: the `Rc` `runtime`
/// is behind, if any, by which the memo finds it).
fn read_runtime(runtime: &Json, held: Option<&Rc<Json>>, written: bool) -> Rc<ReadRuntime> {
    thread_local! {
        static READ: Memo<ReadRuntime> = const { Memo::new() };
    }
    let key = if written { "written" } else { "shipped" };
    let work = || {
        let tree = if written { crate::model::without_nulls(runtime).into_owned() } else { runtime.clone() };
        let rjobs = super::v1::at(&tree, &["spec", "template", "spec", "replicatedJobs"]).and_then(Json::as_array);
        let counts = rjobs
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, rj)| {
                let at = format!("spec.template.spec.replicatedJobs[{i}]");
                Ok(JobCounts {
                    replicas: count(rj.get("replicas"), &format!("{at}.replicas"))?,
                    parallelism: count(
                        super::v1::at(rj, &["template", "spec", "parallelism"]),
                        &format!("{at}.template.spec.parallelism"),
                    )?,
                })
            })
            .collect::<Result<Vec<_>, ReadError>>();
        let typed = typed(&tree, true).map(Rc::new);
        ReadRuntime { tree: Rc::new(tree), counts, typed }
    };
    READ.with(|memo| match held {
        Some(held) => memo.get_shared(key, held, work),
        None => memo.get(key, runtime, work),
    })
}

/// `documents` then `explain`.
#[cfg(feature = "yaml-input")]
pub fn explain_text(text: &str, release: Release) -> Result<super::Explanation, Error> {
    Ok(explain_trees(trees(text)?, release)?)
}

/// `explain_text` for documents already read (by [`trees`]).
pub fn explain_trees(mut trees: Vec<Json>, release: Release) -> Result<super::Explanation, ReadError> {
    let counts = negative_counts(&mut trees, release);
    let docs = from_trees(trees, release)?;
    let explanation =
        super::Explanation { shipped_runtime: docs.shipped_runtime.clone(), ..super::explain(docs.input(), release) };
    Ok(explanation.with_negative_counts(counts))
}

/// The negative counts of the one TrainJob of `trees` and of the runtime it references, taken out
/// (explain::after_admission). Nothing when the trees hold no single TrainJob: reading them
/// says so.
fn negative_counts(trees: &mut [Json], release: Release) -> NegativeCounts {
    let is = |t: &Json, kinds: &[&str]| t.get("kind").and_then(Json::as_str).is_some_and(|k| kinds.contains(&k));
    let jobs: Vec<usize> = (0..trees.len()).filter(|&i| is(&trees[i], &["TrainJob"])).collect();
    let [j] = jobs[..] else { return NegativeCounts::default() };
    let runtimes: Vec<&Json> = trees.iter().filter(|t| is(t, &["TrainingRuntime", "ClusterTrainingRuntime"])).collect();
    let target = referenced(&trees[j], &runtimes).ok().map(|r| r as *const Json);
    let r = trees.iter().position(|t| target.is_some_and(|p| std::ptr::eq(t, p)));
    let flux = r.is_some_and(|r| super::after_admission::is_flux(&trees[r]));
    let mut job = Cow::Owned(std::mem::take(&mut trees[j]));
    let mut runtime = r.map(|r| Cow::Owned(std::mem::take(&mut trees[r])));
    let counts = NegativeCounts::take(Some(&mut job), runtime.as_mut(), flux, release);
    trees[j] = job.into_owned();
    if let (Some(r), Some(runtime)) = (r, runtime) {
        trees[r] = runtime.into_owned();
    }
    counts
}

/// One TrainJob of an input, judged by `release` with the runtime it references: the one of
/// `runtimes` (the input's, in order) its `runtimeRef` names, else the release's built-in of that
/// name. Every error the release's API server and webhook give is in `rejected` (a value the
/// typed models cannot read too, with the other errors of its stage: `check_unreadable`); else
/// what the controller creates. `explain` and `validate` both judge TrainJobs with this.
pub fn judge(job: &Json, runtimes: &[&Json], release: Release) -> super::Explanation {
    let trainer = release.tag.to_string();
    let mut job = crate::model::without_nulls(job);
    let (mut runtime, shipped_runtime) = match runtime_of(&job, runtimes, release) {
        Ok(found) => found,
        Err(reason) => {
            let path = super::FieldPath::new("spec").child("runtimeRef");
            let missing = super::Rejection::new(super::ErrorType::RuntimeNotFound, path, reason.to_string());
            return super::Explanation::rejected(trainer, vec![missing]);
        }
    };
    // Each tree is copied only if it holds a negative count (NegativeCounts::take).
    let flux = super::after_admission::is_flux(&runtime);
    let counts = NegativeCounts::take(Some(&mut job), Some(&mut runtime), flux, release);
    let explanation = match from_refs(&[&job, &runtime], release) {
        Ok(docs) => super::Explanation { shipped_runtime, ..super::explain(docs.input(), release) },
        Err(e) => {
            let runtime = crate::model::without_nulls(&runtime);
            let decoding = decoding_errors(&job, &runtime, release, e);
            super::Explanation::rejected(trainer, super::validate::check_unreadable(&job, &runtime, release, decoding))
        }
    };
    explanation.with_negative_counts(counts)
}

/// The most values of a wrong type reported for one TrainJob and its runtime.
const MAX_DECODING_ERRORS: usize = 100;

/// Every value of the TrainJob and its runtime the typed models refuse, not only the first
/// (`first`): each refused value is taken out and the objects read again, until they read or a
/// refusal names nothing that can be taken out (a required field that is missing).
fn decoding_errors(job: &Json, runtime: &Json, release: Release, first: ReadError) -> Vec<super::Rejection> {
    let (mut job, mut runtime) = (job.clone(), runtime.clone());
    let mut errors = Vec::new();
    let mut error = first;
    while errors.len() < MAX_DECODING_ERRORS {
        let rejection = error.rejection();
        let object = if rejection.path.in_runtime { &mut runtime } else { &mut job };
        let removed = remove_at(object, &rejection.path);
        errors.push(rejection);
        if !removed {
            break;
        }
        match from_trees(vec![job.clone(), runtime.clone()], release) {
            Ok(_) => break,
            Err(next) => error = next,
        }
    }
    errors
}

/// Takes out the value at a field path (`spec.trainer.args`, `spec.x[0].y`) of `object`; false
/// when the path names no value (the root, or a map key, which no reading error names).
pub(super) fn remove_at(object: &mut Json, path: &super::FieldPath) -> bool {
    use crate::k8s::field::Step;
    let Some((last, parents)) = path.steps.split_last() else { return false };
    let mut at = object;
    for step in parents {
        let next = match (step, at) {
            (Step::Field(name), Json::Object(map)) => map.get_mut(name),
            (Step::Index(i), Json::Array(items)) => items.get_mut(*i),
            _ => None,
        };
        match next {
            Some(v) => at = v,
            None => return false,
        }
    }
    match (last, at) {
        (Step::Field(name), Json::Object(map)) => map.remove(name).is_some(),
        (Step::Index(i), Json::Array(items)) if *i < items.len() => {
            // An item of a list is replaced by an empty object, not removed, so the later
            // items keep their indexes.
            items[*i] = Json::Object(Default::default());
            true
        }
        _ => false,
    }
}

/// The runtime `job` references among `runtimes` (as written, not copied: explain::read's
/// `read_runtime` reads each once for a paste's jobs), else the release's built-in of its name
/// (with the note saying so).
fn runtime_of<'r>(
    job: &Json,
    runtimes: &[&'r Json],
    release: Release,
) -> Result<(std::borrow::Cow<'r, Json>, Option<String>), MissingRuntime> {
    let runtime_kind = |r: &&Json| is_runtime_kind(r.get("kind").and_then(Json::as_str).unwrap_or_default());
    let all: Vec<&Json> = runtimes.iter().copied().filter(runtime_kind).collect();
    match referenced(job, &all) {
        Ok(runtime) => Ok((std::borrow::Cow::Borrowed(runtime), None)),
        Err(not_in_input) => runtime_elsewhere(job, release, all.is_empty(), not_in_input)
            .map(|(runtime, note)| (std::borrow::Cow::Owned(runtime), note)),
    }
}

/// No runtime of the input is the one `job` references: the release's built-in of its name, or
/// why there is none (`not_in_input` when the input holds other runtimes).
fn runtime_elsewhere(
    job: &Json,
    release: Release,
    input_has_none: bool,
    not_in_input: MissingRuntime,
) -> Result<(Json, Option<String>), MissingRuntime> {
    match shipped(job, release, input_has_none) {
        Ok((runtime, note)) => Ok((Rc::unwrap_or_clone(runtime), Some(note))),
        Err(not_shipped) if input_has_none => Err(not_shipped),
        Err(_) => Err(not_in_input),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A runtime's refused value is named in the runtime by its typed path (which object the
    /// value is taken out of follows from it), and the reader's line keeps its words.
    #[test]
    fn a_model_error_knows_its_object() {
        use crate::model::tracked::{Found, Misfit, Wanted};
        let wanted = Some(Wanted::Integer { bits: 32, signed: false });
        let negative = Misfit::InvalidValue { found: Found::Signed(-1), expected: "u32".into(), wanted }.into();
        let error = crate::field_error::kubernetes("spec.mlPolicy.numNodes", &negative);
        let read = ReadError::Model { in_runtime: true, error };
        assert_eq!(
            read.to_string(),
            "runtime: spec.mlPolicy.numNodes: Invalid value: -1: must be greater than or equal to 0"
        );
        let rejection = read.rejection();
        assert!(rejection.path.in_runtime);
        assert_eq!(rejection.field(), "runtime spec.mlPolicy.numNodes");
        let input = ReadError::NoTrainJob.rejection();
        assert_eq!((input.field().as_str(), input.reason().as_str()), ("<nil>", "no TrainJob in the input"));
    }
}

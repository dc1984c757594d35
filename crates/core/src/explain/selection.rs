//! The explanation for a widget selection: the TrainJob and runtime the snippets write for it,
//! read by the controller of the selection's release. Shared by `trainer-explorer explain
//! --query` and the converter module behind the widget's "What Kubernetes runs" pane.

use super::sources::{Origins, Shown};
use super::{explain, Explanation, Input, Rejection};
use crate::model::v2::{TrainJob, TrainingRuntime};
use crate::selection::Selection;
use crate::snippets::runtimes::runtime_for;
use crate::snippets::trainjob::trainjob_for;
use crate::yaml::Line;
use explorer_data::catalog::{Framework, Persona};
use explorer_data::releases::{Release, RELEASES};

/// Why a selection or a query has nothing to explain.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The query is not one the widget writes (`query::parse_strict`).
    Query(crate::query::QueryIssue),
    /// The selection's framework has no Trainer V2 runtime in any release.
    NoRuntime(Framework),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Query(issue) => write!(f, "{issue}"),
            Error::NoRuntime(framework) => {
                write!(f, "{} has no Trainer V2 runtime, so there is nothing to explain", framework.id())
            }
        }
    }
}

impl std::error::Error for Error {}

/// The explanation for `sel`, or why there is nothing to explain (no V2 runtime).
pub fn for_selection(sel: &Selection) -> Result<Explanation, Error> {
    let release = sel.release;
    let (Some(job), Some(runtime)) = (trainjob_for(sel), runtime_for(sel)) else {
        // A framework (or model) this release lacks but another ships: the TrainJob a reader
        // would copy from that release's snippets meets this release's webhook.
        let elsewhere =
            RELEASES.iter().map(|r| Selection { release: *r, ..sel.clone() }).find_map(|s| trainjob_for(&s));
        if let Some(rejected) = elsewhere.and_then(|job| missing_builtin(&job.spec.runtime_ref, release)) {
            return Ok(Explanation::rejected(release.tag.to_string(), vec![rejected]));
        }
        return Err(Error::NoRuntime(sel.framework));
    };
    if let Some(rejected) = missing_builtin(&job.spec.runtime_ref, release) {
        return Ok(Explanation::rejected(release.tag.to_string(), vec![rejected]));
    }
    Ok(explain(Input::new(&job, &runtime), release))
}

/// A built-in runtime (of some release) that this release does not install: the webhook cannot
/// find it (pkg/runtime/core/clustertrainingruntime.go:82-91 @v2.0.1, :99-108 @v2.3.0). A
/// runtime no release ships is the platform engineer's own, shown next to the TrainJob.
fn missing_builtin(runtime_ref: &crate::model::v2::RuntimeRef, release: Release) -> Option<Rejection> {
    let name = &runtime_ref.name;
    let cluster = runtime_ref.kind.as_deref().unwrap_or("ClusterTrainingRuntime") == "ClusterTrainingRuntime";
    let (since, removed) = Release::life_span(name);
    let (true, Some(since), None) = (cluster, since, release.runtime(name)) else { return None };
    let ships = match removed {
        Some(removed) => format!("it ships in {} to {}", since.tag, removed.line),
        None => format!("it ships from {}", since.tag),
    };
    Some(Rejection::message(
        "spec.RuntimeRef",
        format!(
            "clustertrainingruntimes.trainer.kubeflow.org {name:?} not found: specified clusterTrainingRuntime \
             must be created before the TrainJob is created ({} does not install it; {ships})",
            release.tag
        ),
    ))
}

/// An explanation with what links its items to their sources: the TrainJob and runtime it was
/// worked out from, and their YAML as the view shows it beside the items.
pub struct Linked {
    /// What Trainer runs for the selection's TrainJob.
    pub explanation: Explanation,
    /// The TrainJob the selection writes.
    pub job: TrainJob,
    /// The runtime it references.
    pub runtime: TrainingRuntime,
    /// The two as YAML, as the view shows them.
    pub shown: Shown,
    /// The release that judged them.
    pub release: Release,
}

impl Linked {
    /// Where each item of the explanation comes from in the shown YAML.
    pub fn origins(&self) -> Origins<'_> {
        Origins::new(Input::new(&self.job, &self.runtime), self.release)
    }
}

/// `for_selection`, linked; the bare explanation when there is nothing to link (a rejection).
pub fn linked(sel: &Selection) -> Result<Result<Linked, Explanation>, Error> {
    let explanation = for_selection(sel)?;
    let (Some(job), Some(runtime), true) = (trainjob_for(sel), runtime_for(sel), explanation.admitted()) else {
        return Ok(Err(explanation));
    };
    let shown = Shown {
        trainjob: pane_lines(&Selection { persona: Persona::DataScientist, ..sel.clone() }, &job),
        runtime: pane_lines(&crate::snippets::runtimes::runtime_view(sel), &runtime),
    };
    Ok(Ok(Linked { explanation, job, runtime, shown, release: sel.release }))
}

/// The YAML the V2 pane shows for `sel` (the TrainJob, or the runtime), line by line
/// with the field path of each: the pane's text is its leading comments, then `object` emitted.
/// A line that is not the emitted one (never expected) gets no path, so nothing points at it.
fn pane_lines<T: serde::Serialize>(sel: &Selection, object: &T) -> Vec<Line> {
    let yaml = crate::snippets::v2_yaml(sel);
    let code = yaml.first().map(String::as_str).unwrap_or("");
    let emitted = crate::yaml::emit(&crate::model::to_value(object));
    let texts: Vec<&str> = code.lines().collect();
    let comments = texts.len().saturating_sub(emitted.len());
    texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let line = i.checked_sub(comments).and_then(|j| emitted.get(j)).filter(|l| l.text == *text);
            Line { text: text.to_string(), path: line.map(|l| l.path.clone()).unwrap_or_default() }
        })
        .collect()
}

/// The explanation for a widget URL query.
pub fn for_query(query: &str) -> Result<Explanation, Error> {
    let sel = crate::query::parse_strict(query).map_err(Error::Query)?;
    for_selection(&sel)
}

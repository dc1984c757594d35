//! The V2 half: what the Trainer controller of the target release runs for the converted
//! objects. `explain` merges the TrainJob's pod settings into its runtime as the controller does
//! (explain::patch); the pods' final templates come from that same merge.

use super::NotCompared;
use crate::explain::memo::Memo;
use crate::explain::{self, Explanation};
use crate::snippets::runtimes::builtin_runtime_trees;
use explorer_data::releases::Release;
use serde_json::{json, Value as Json};
use std::rc::Rc;

/// Each replicatedJob's pod template by name, shared by the jobs of a paste on one runtime.
pub(super) type Templates = Rc<Vec<(String, Json)>>;

/// The converted job as Trainer runs it.
pub(super) struct V2Pods {
    pub explanation: Explanation,
    /// Each replicatedJob's pod template (`metadata` and `spec`) after the pod settings.
    pub templates: Vec<(String, Json)>,
    /// The same before the TrainJob's settings: what the runtime itself sets.
    pub base_templates: Templates,
    pub runtime: String,
    /// The release's built-in runtime the pods come from, and its replicatedJobs' pod templates:
    /// the one referenced, or the one a generated runtime copies (same framework label). Its
    /// settings are the cluster's, not the converter's choice.
    pub builtin: Option<(String, Templates)>,
    /// mlPolicy.mpi.runLauncherAsNode: the launcher is one of the numNodes training nodes.
    pub launcher_as_node: bool,
    /// The target release: its controller's code is what `facts::trainer_metadata` cites.
    pub release: Release,
    /// The variables the TrainJob's `spec.trainer.env` sets on the `node` container.
    pub trainer_env: Vec<String>,
}

/// Who put a label or annotation on a V2 pod template.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MetadataSource {
    /// The runtime's own replicatedJob pod template.
    Runtime,
    /// The TrainJob's pod settings merged into that template (explain::patch).
    TrainJob,
    /// Neither template: a controller plugin (the explanation's pod group).
    Controller,
}

impl V2Pods {
    /// Where `rjob`'s pod template got `what` (`labels` or `annotations`) `key`.
    pub(super) fn metadata_source(&self, rjob: &str, what: &str, key: &str) -> MetadataSource {
        let has = |templates: &[(String, Json)]| {
            templates
                .iter()
                .find(|(n, _)| n == rjob)
                .and_then(|(_, t)| t.get("metadata")?.get(what)?.get(key))
                .is_some()
        };
        if has(&self.base_templates) {
            MetadataSource::Runtime
        } else if has(&self.templates) {
            MetadataSource::TrainJob
        } else {
            MetadataSource::Controller
        }
    }

    /// What the runtime's own template (before the TrainJob's settings) sets for a pod field of
    /// `rjob`, or for its `node` container's field when `container` is true.
    pub(super) fn builtin_sets(&self, rjob: &str, key: &str, container: bool) -> Option<&Json> {
        let (_, templates) = self.builtin.as_ref()?;
        let template = templates.iter().find(|(n, _)| n == rjob).map(|(_, t)| t)?;
        let spec = template.get("spec")?;
        if !container {
            return spec.get(key);
        }
        let containers = spec.get("containers")?.as_array()?;
        containers.iter().find(|c| c.get("name").and_then(Json::as_str) == Some("node"))?.get(key)
    }
}

pub(super) use crate::explain::v1::at;

fn kind_of(v: &Json) -> &str {
    v.get("kind").and_then(Json::as_str).unwrap_or_default()
}

fn name_of(v: &Json) -> Option<&str> {
    v.get("metadata")?.get("name")?.as_str()
}

/// The TrainJob among `objects`, its runtime (generated among them, else the release's built-in
/// one) with the TrainJob's pod settings merged in, and what the controller makes of them.
pub(super) fn run(objects: &[Json], release: Release) -> Result<V2Pods, NotCompared> {
    let job = objects.iter().find(|o| kind_of(o) == "TrainJob").ok_or(NotCompared::NoTrainJob)?;
    let name = at(job, &["spec", "runtimeRef", "name"]).and_then(Json::as_str).unwrap_or_default().to_string();
    let generated = objects
        .iter()
        .find(|o| matches!(kind_of(o), "TrainingRuntime" | "ClusterTrainingRuntime") && name_of(o) == Some(&name));
    const FRAMEWORK: &[&str] = &["metadata", "labels", "trainer.kubeflow.org/framework"];
    let builtins = builtin_runtime_trees(&release);
    let named = |n: &str| builtins.iter().find(|r| name_of(r) == Some(n));
    let builtin = match generated {
        Some(g) => at(g, FRAMEWORK).and_then(|f| builtins.iter().find(|r| at(r, FRAMEWORK) == Some(f))),
        None => named(&name),
    }
    .map(|r| (name_of(r).unwrap_or_default().to_string(), templates(r)));
    // Which runtime the explanation reads, said to the reader: the answer holds only the TrainJob
    // when it runs on a built-in runtime (then `held`, the `Rc` its tree is behind).
    let (runtime, held, from) = match generated {
        Some(r) => (r, None, format!("the {} {name:?} written with this TrainJob", kind_of(r))),
        None => {
            let r = named(&name)
                .ok_or_else(|| NotCompared::UnshippedRuntime { name: name.clone(), release: release.tag })?;
            (&**r, Some(r), format!("the ClusterTrainingRuntime {name:?} as Trainer {} installs it", release.tag))
        }
    };
    let docs = explain::read::from_refs_holding(&[runtime, job], held, release).map_err(NotCompared::Read)?;
    let input = docs.input();
    let (explained, patched) = explain::explain_patched(input, release);
    let explanation = Explanation { shipped_runtime: Some(from), ..explained };
    let launcher_as_node = at(runtime, &["spec", "mlPolicy", "mpi", "runLauncherAsNode"]) == Some(&json!(true));
    // Each replicatedJob's pod template after the TrainJob's settings (as `explain` merged them,
    // else merged here): only the templates are read, so only they become JSON, not the whole
    // runtime.
    let patched = patched.unwrap_or_else(|| explain::patch::patched_runtime(input));
    let patched_templates = patched
        .spec
        .template
        .spec
        .replicated_jobs
        .iter()
        .map(|rj| {
            let template = serde_json::to_value(&rj.template.spec.template);
            Ok((rj.name.clone(), template.map_err(|e| NotCompared::Template(std::sync::Arc::new(e)))?))
        })
        .collect::<Result<Vec<_>, NotCompared>>()?;
    Ok(V2Pods {
        explanation,
        templates: patched_templates,
        base_templates: match held {
            Some(held) => templates(held),
            None => templates_written(runtime),
        },
        runtime: name,
        builtin,
        launcher_as_node,
        release,
        trainer_env: at(job, &["spec", "trainer", "env"])
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(|e| e.get("name").and_then(Json::as_str).map(String::from))
            .collect(),
    })
}

thread_local! {
    /// Each runtime's templates, for a paste of many jobs on the same one (explain::memo).
    static TEMPLATES: Memo<Vec<(String, Json)>> = const { Memo::new() };
}

/// Each replicatedJob's pod template of the built-in runtime behind `runtime`, by name: once per
/// runtime, found again by its `Rc`.
fn templates(runtime: &Rc<Json>) -> Templates {
    TEMPLATES.with(|memo| memo.get_shared("templates", runtime, || templates_of(runtime)))
}

/// [`templates`] of a runtime written with the TrainJob: found again by comparing it.
fn templates_written(runtime: &Json) -> Templates {
    TEMPLATES.with(|memo| memo.get("templates", runtime, || templates_of(runtime)))
}

/// Each replicatedJob's pod template, by name.
fn templates_of(runtime: &Json) -> Vec<(String, Json)> {
    at(runtime, &["spec", "template", "spec", "replicatedJobs"])
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .map(|rj| {
            let rjob = rj.get("name").and_then(Json::as_str).unwrap_or_default().to_string();
            (rjob, at(rj, &["template", "spec", "template"]).cloned().unwrap_or(Json::Null))
        })
        .collect()
}

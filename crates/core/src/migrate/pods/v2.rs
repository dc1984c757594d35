//! The V2 half: what the Trainer controller of the target release runs for the converted
//! objects. `explain` merges the TrainJob's pod settings into its runtime as the controller does
//! (explain::patch); the pods' final templates come from that same merge.

use crate::explain::{self, Explanation};
use crate::releases::Release;
use crate::snippets::runtimes::builtin_runtimes_of;
use serde_json::{json, Value as Json};

/// The converted job as Trainer runs it.
pub struct V2Pods {
    pub explanation: Explanation,
    /// Each replicatedJob's pod template (`metadata` and `spec`) after the pod settings.
    pub templates: Vec<(String, Json)>,
    /// The same before the TrainJob's settings: what the runtime itself sets.
    pub base_templates: Vec<(String, Json)>,
    pub runtime: String,
}

fn kind_of(v: &Json) -> &str {
    v.get("kind").and_then(Json::as_str).unwrap_or_default()
}

/// The TrainJob among `objects`, its runtime (generated among them, else the release's built-in
/// one) with the TrainJob's pod settings merged in, and what the controller makes of them.
pub fn run(objects: &[Json], release: Release) -> Result<V2Pods, String> {
    let job = objects.iter().find(|o| kind_of(o) == "TrainJob").ok_or("no TrainJob in the output")?;
    let name = job.pointer("/spec/runtimeRef/name").and_then(Json::as_str).unwrap_or_default().to_string();
    let generated = objects
        .iter()
        .find(|o| {
            matches!(kind_of(o), "TrainingRuntime" | "ClusterTrainingRuntime")
                && o.pointer("/metadata/name") == Some(&json!(name))
        })
        .cloned();
    let runtime = match generated {
        Some(r) => r,
        None => builtin_runtimes_of(&release)
            .into_iter()
            .find(|r| r.metadata.name.as_deref() == Some(name.as_str()))
            .map(|r| serde_json::to_value(r).map_err(|e| e.to_string()))
            .transpose()?
            .ok_or(format!("the TrainJob references {name:?}, which Trainer {} does not ship", release.tag))?,
    };
    let text = [&runtime, job].iter().map(|v| v.to_string()).collect::<Vec<_>>().join("\n---\n");
    let docs = explain::read::documents(&text, release)?;
    let input = docs.input();
    let explanation = explain::explain(input, release);
    let patched = serde_json::to_value(explain::patch::patched_runtime(input)).map_err(|e| e.to_string())?;
    Ok(V2Pods { explanation, templates: templates(&patched), base_templates: templates(&runtime), runtime: name })
}

/// Each replicatedJob's pod template, by name.
fn templates(runtime: &Json) -> Vec<(String, Json)> {
    runtime
        .pointer("/spec/template/spec/replicatedJobs")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .map(|rj| {
            let rjob = rj.get("name").and_then(Json::as_str).unwrap_or_default().to_string();
            (rjob, rj.pointer("/template/spec/template").cloned().unwrap_or(Json::Null))
        })
        .collect()
}

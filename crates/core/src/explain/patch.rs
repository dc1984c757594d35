//! The TrainJob's pod settings applied to the runtime's replicatedJobs, as the controller of each
//! release merges them before anything else: `podSpecOverrides` (v2.0,
//! pkg/runtime/core/trainingruntime.go:190-221 @v2.0.1), `podTemplateOverrides` (v2.1,
//! trainingruntime.go:190-236 @v2.1.0) and `runtimePatches` (v2.2+, trainingruntime.go:252-289
//! @v2.3.0). All three are Kubernetes strategic merge patches; [`merge`] is the part of that
//! algorithm their types reach.

use super::Input;
use crate::model::v2::{ReplicatedJob, TrainingRuntime};
use crate::model::Value;
use serde_json::{Map, Value as Json};

/// The list fields of a JobSet spec, pod template and container that a strategic merge patch
/// merges item by item, and the key that identifies an item (the `patchMergeKey` of the
/// upstream Go types: k8s.io/api core/v1 types.go, sigs.k8s.io/jobset api jobset_types.go).
/// Every other list (`tolerations`, `command`, `nodeSelectorTerms`, ...) is replaced whole.
fn merge_key(field: &str) -> Option<&'static str> {
    match field {
        "replicatedJobs"
        | "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "env"
        | "volumes"
        | "imagePullSecrets"
        | "schedulingGates"
        | "resourceClaims" => Some("name"),
        "volumeMounts" | "volumeDevices" => Some("mountPath"),
        "ports" => Some("containerPort"),
        "hostAliases" => Some("ip"),
        _ => None,
    }
}

/// `patch` merged into `base`: maps key by key (`null` deletes), keyed lists item by item (a
/// new item is appended), anything else replaced.
pub fn merge(base: &mut Json, patch: &Json) {
    match (base, patch) {
        (Json::Object(b), Json::Object(p)) => {
            for (k, pv) in p {
                if pv.is_null() {
                    b.remove(k);
                    continue;
                }
                match (b.get_mut(k), merge_key(k)) {
                    (Some(Json::Array(items)), Some(key)) => merge_list(items, pv, key),
                    (Some(bv @ Json::Object(_)), None) if pv.is_object() => merge(bv, pv),
                    _ => {
                        b.insert(k.clone(), pv.clone());
                    }
                }
            }
        }
        (b, p) => *b = p.clone(),
    }
}

fn merge_list(items: &mut Vec<Json>, patch: &Json, key: &str) {
    let Json::Array(patched) = patch else {
        return;
    };
    for p in patched {
        let id = p.get(key);
        match items.iter_mut().find(|item| id.is_some() && item.get(key) == id) {
            Some(item) => merge(item, p),
            None => items.push(p.clone()),
        }
    }
}

/// One replicatedJob's patch, shaped as its `template` (a batch/v1 JobTemplateSpec).
struct JobPatch {
    job: String,
    template: Json,
}

fn json(v: &Value) -> Json {
    serde_json::to_value(v).unwrap_or(Json::Null)
}

/// The TrainJob's pod settings as per-job template patches, in the order the controller applies
/// them.
fn job_patches(input: Input) -> Vec<JobPatch> {
    let mut out = Vec::new();
    for patch in &input.job.spec.runtime_patches {
        let patch = json(patch);
        let jobs = patch.pointer("/trainingRuntimeSpec/template/spec/replicatedJobs").and_then(Json::as_array);
        for rjob in jobs.into_iter().flatten() {
            let Some(name) = rjob.get("name").and_then(Json::as_str) else { continue };
            out.push(JobPatch { job: name.into(), template: rjob.get("template").cloned().unwrap_or(Json::Null) });
        }
    }
    for (field, value) in &input.legacy.pod_settings {
        for item in json(value).as_array().into_iter().flatten() {
            let Some(Json::Object(item)) = Some(item) else { continue };
            let targets: Vec<String> = item
                .get("targetJobs")
                .and_then(Json::as_array)
                .into_iter()
                .flatten()
                .filter_map(|t| t.get("name").and_then(Json::as_str).map(String::from))
                .collect();
            let pod_template = match field.as_str() {
                // trainingruntime.go:202-216 @v2.1.0: `metadata.labels`, `metadata.annotations`
                // and `spec` over the pod template.
                "podTemplateOverrides" => {
                    let mut t = Map::new();
                    if let Some(Json::Object(meta)) = item.get("metadata") {
                        let kept: Map<String, Json> = meta
                            .iter()
                            .filter(|(k, _)| *k == "labels" || *k == "annotations")
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect();
                        if !kept.is_empty() {
                            t.insert("metadata".into(), Json::Object(kept));
                        }
                    }
                    if let Some(spec) = item.get("spec") {
                        t.insert("spec".into(), spec.clone());
                    }
                    Json::Object(t)
                }
                // trainingruntime.go:197-215 @v2.0.1: the whole override over the pod spec
                // (its `targetJobs` is not a PodSpec field and falls away).
                _ => {
                    let mut spec = item.clone();
                    spec.remove("targetJobs");
                    serde_json::json!({ "spec": spec })
                }
            };
            for job in targets {
                out.push(JobPatch {
                    job,
                    template: serde_json::json!({ "spec": { "template": pod_template.clone() } }),
                });
            }
        }
    }
    out
}

/// The runtime as the controller sees it once the TrainJob's pod settings are merged in. A patch
/// naming a job the runtime lacks changes nothing (the webhook refuses it first, validate.rs).
pub(crate) fn patched_runtime(input: Input) -> TrainingRuntime {
    let mut runtime = input.runtime.clone();
    for patch in job_patches(input) {
        let Some(rjob) = runtime.spec.template.spec.replicated_jobs.iter_mut().find(|r| r.name == patch.job) else {
            continue;
        };
        let mut template = serde_json::to_value(&rjob.template).unwrap_or(Json::Null);
        merge(&mut template, &patch.template);
        if let Ok(merged) = crate::model::from_json::<crate::model::v2::JobTemplate>(&template) {
            *rjob = ReplicatedJob { template: merged, ..rjob.clone() };
        }
    }
    runtime
}

//! The strategic merge patch Trainer applies a TrainJob's pod settings with, on the JSON tree:
//! `runtimePatches` (kubeflow/trainer v2.3.0:pkg/runtime/core/trainingruntime.go:251-290),
//! `podTemplateOverrides` (v2.1.0:pkg/runtime/core/trainingruntime.go:190-238) and
//! `podSpecOverrides` (v2.0.1:pkg/runtime/core/trainingruntime.go:190-218) all go through
//! `strategicpatch.StrategicMergePatch`.
//!
//! Maps merge key by key (`null` deletes); a list merges item by item on its merge key where the
//! Kubernetes type declares `patchStrategy:"merge"` (k8s.io/api core/v1 types.go: containers,
//! initContainers, volumes, env, imagePullSecrets by `name`, volumeMounts by `mountPath`, ports by
//! `containerPort`; JobSet's replicatedJobs by `name`); every other list is replaced.

use serde_json::Value as Json;

fn merge_key(field: &str) -> Option<&'static str> {
    match field {
        "containers" | "initContainers" | "volumes" | "env" | "imagePullSecrets" | "replicatedJobs" => Some("name"),
        "volumeMounts" => Some("mountPath"),
        "ports" => Some("containerPort"),
        _ => None,
    }
}

/// `patch` merged into `base`.
pub fn merge(base: &mut Json, patch: &Json) {
    match (base, patch) {
        (Json::Object(b), Json::Object(p)) => {
            for (k, pv) in p {
                if pv.is_null() {
                    b.remove(k);
                    continue;
                }
                match (b.get_mut(k), merge_key(k)) {
                    (Some(Json::Array(items)), Some(key)) if pv.is_array() => merge_list(items, pv, key),
                    (Some(bv), _) if bv.is_object() && pv.is_object() => merge(bv, pv),
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
    for p in patch.as_array().into_iter().flatten() {
        let id = p.get(key);
        match items.iter_mut().find(|i| id.is_some() && i.get(key) == id) {
            Some(item) => merge(item, p),
            None => items.push(p.clone()),
        }
    }
}

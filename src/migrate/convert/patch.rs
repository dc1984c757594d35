//! The runtime patch the migrator writes on a TrainJob.

use super::*;

/// Why pod settings went to a runtime patch, or to a generated runtime: the report says so.
pub(super) const PATCH_WHY: &str = "kept on the TrainJob as a runtime patch: the built-in runtime stays shared";

/// The `manager` of the runtime patch the migrator writes.
pub const PATCH_MANAGER: &str = "trainer-v2-explorer/migrate";

impl Conversion<'_> {
    /// A RuntimePatch entry setting the pod settings of the named replicated jobs.
    pub(super) fn patch_for(&mut self, jobs: &[(&str, &PodSettings)]) -> Value {
        let mut replicated = Vec::new();
        for (job, s) in jobs {
            if s.is_empty() {
                continue;
            }
            let target = format!(
                "spec.runtimePatches[{PATCH_MANAGER}].trainingRuntimeSpec.template.spec.replicatedJobs[{job}].template.spec.template"
            );
            let mut pod = Map::new();
            for (k, (v, path)) in &s.pod_patchable {
                pod.insert(k.clone(), v.clone());
                self.report.moved(path.clone(), format!("{target}.spec.{k}"), PATCH_WHY);
            }
            let mut container = Map::new();
            for (k, (v, path)) in &s.container_patchable {
                container.insert(k.clone(), v.clone());
                self.report.moved(path.clone(), format!("{target}.spec.containers[node].{k}"), PATCH_WHY);
            }
            if !container.is_empty() {
                container.insert("name".into(), json!("node"));
                pod.insert("containers".into(), json!([Value::Object(reorder_name_first(container))]));
            }
            let mut template = Map::new();
            if let Some((m, path)) = &s.metadata {
                template.insert("metadata".into(), m.clone());
                for key in m.as_object().into_iter().flat_map(|m| m.keys()) {
                    self.report.moved(format!("{path}.{key}"), format!("{target}.metadata.{key}"), PATCH_WHY);
                }
            }
            template.insert("spec".into(), Value::Object(pod));
            replicated.push(json!({"name": job, "template": {"spec": {"template": Value::Object(template)}}}));
        }
        json!({
            "manager": PATCH_MANAGER,
            "trainingRuntimeSpec": {"template": {"spec": {"replicatedJobs": replicated}}}
        })
    }
}

pub(super) fn reorder_name_first(mut m: Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(n) = m.remove("name") {
        out.insert("name".into(), n);
    }
    out.extend(m);
    out
}

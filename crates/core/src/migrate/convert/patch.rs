//! The TrainJob's own pod settings the migrator writes, in the shape of the target release:
//! `podSpecOverrides` (v2.0), `podTemplateOverrides` (v2.1) or `runtimePatches` (v2.2+).

use super::*;

/// The `manager` of the runtime patch the migrator writes.
pub(crate) const PATCH_MANAGER: &str = "trainer-v2-explorer/migrate";

/// One entry of a release's pod-settings field, as the report names it.
pub(super) fn pod_settings_entry(field: PodSettingsField) -> &'static str {
    match field {
        PodSettingsField::PodSpecOverrides => "a pod spec override",
        PodSettingsField::PodTemplateOverrides => "a pod template override",
        PodSettingsField::RuntimePatches => "a runtime patch",
    }
}

impl Conversion<'_> {
    /// The entries setting the pod settings of the named replicated jobs: one runtime patch for
    /// them all (v2.2+), or one override per job, each naming its job in `targetJobs`. Each
    /// setting's value is moved into its entry, not copied: a `nodeSelector` can hold 200,000 keys.
    pub(super) fn pod_overrides_for(&mut self, jobs: &mut [(&str, &mut PodSettings)]) -> Vec<Value> {
        let field = self.release.pod_settings();
        let why = format!("kept on the TrainJob as {}: the built-in runtime stays shared", pod_settings_entry(field));
        let mut entries = Vec::new();
        let mut replicated = Vec::new();
        for (job, s) in jobs.iter_mut().filter(|(_, s)| !s.is_empty()) {
            // Where the pod template lives, and its spec within it (v2.0's override is flat).
            let template = match field {
                PodSettingsField::RuntimePatches => format!(
                    "spec.runtimePatches[{PATCH_MANAGER}].trainingRuntimeSpec.template.spec.replicatedJobs[{job}].template.spec.template"
                ),
                _ => format!("spec.{}[{}]", field.field(), entries.len()),
            };
            let spec_at =
                if field == PodSettingsField::PodSpecOverrides { template.clone() } else { format!("{template}.spec") };
            let mut pod = Map::new();
            for (k, (v, path)) in &mut s.pod_patchable {
                pod.insert(k.clone(), v.take());
                self.report.moved(path.clone(), format!("{spec_at}.{k}"), &why);
            }
            let mut container = Map::new();
            for (k, (v, path)) in &mut s.container_patchable {
                container.insert(k.clone(), v.take());
                self.report.moved(path.clone(), format!("{spec_at}.containers[node].{k}"), &why);
            }
            if !container.is_empty() {
                container.insert("name".into(), json!("node"));
                pod.insert("containers".into(), Value::Array(vec![Value::Object(reorder_name_first(container))]));
            }
            // `fits_trainjob` sent pod metadata to a generated runtime where the field has none.
            let metadata = s.metadata.as_mut().map(|(m, path)| {
                for key in m.as_object().into_iter().flat_map(|m| m.keys()) {
                    self.report.moved(format!("{path}.{key}"), format!("{template}.metadata.{key}"), &why);
                }
                m.take()
            });
            let mut entry = Map::new();
            if field != PodSettingsField::RuntimePatches {
                entry.insert("targetJobs".into(), json!([{"name": job}]));
            }
            if let Some(m) = metadata {
                entry.insert("metadata".into(), m);
            }
            match field {
                PodSettingsField::PodSpecOverrides => entry.extend(pod),
                _ => {
                    entry.insert("spec".into(), Value::Object(pod));
                }
            }
            match field {
                PodSettingsField::RuntimePatches => replicated.push(object([
                    ("name", Value::from(*job)),
                    ("template", object([("spec", object([("template", Value::Object(entry))]))])),
                ])),
                _ => entries.push(Value::Object(entry)),
            }
        }
        if field == PodSettingsField::RuntimePatches {
            let replicated = object([("replicatedJobs", Value::Array(replicated))]);
            entries.push(object([
                ("manager", Value::from(PATCH_MANAGER)),
                ("trainingRuntimeSpec", object([("template", object([("spec", replicated)]))])),
            ]));
        }
        entries
    }
}

/// A JSON object of these members, each value moved in. Not `json!`: it serializes a value it is
/// handed as an expression, a copy of the setting (a `nodeSelector` of 200,000 keys) held beside it.
fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(members.into_iter().map(|(key, value)| (key.to_string(), value)).collect())
}

pub(super) fn reorder_name_first(mut m: Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(n) = m.remove("name") {
        out.insert("name".into(), n);
    }
    out.extend(m);
    out
}

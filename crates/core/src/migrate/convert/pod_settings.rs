//! The pod-level settings of one replica, sorted by where V2 can keep them.

use super::Error;
use super::*;
use crate::pipeline::paths::{item, member};
use std::mem::take;

/// Container fields the TrainJob's `trainer` holds, or that V2 makes unnecessary.
pub(super) const TRAINER_CONTAINER: [&str; 7] = ["name", "image", "command", "args", "env", "resources", "ports"];

/// Settings by field name, each with its value and its path in the V1 job; in field-name order.
/// A list sorted once rather than a BTreeMap: the fields of one object are distinct, nothing
/// looks one up, and a map of these types was about 2 KB of the converter's gzipped wasm.
pub(super) type Settings = Vec<(String, (Value, String))>;

/// The pod-level settings of one replica, sorted by where V2 can keep them.
#[derive(Default)]
pub(super) struct PodSettings {
    pub(super) pod_patchable: Settings,
    pub(super) pod_other: Settings,
    pub(super) container_patchable: Settings,
    pub(super) container_other: Settings,
    pub(super) init_containers: Vec<(Value, String)>,
    pub(super) sidecars: Vec<(Value, String)>,
    pub(super) metadata: Option<(Value, String)>,
    /// Settings no V2 object holds: (path, reason).
    pub(super) dropped: Vec<(String, String)>,
}

impl PodSettings {
    /// Sorts by what the target release's TrainJob can set (`Release::pod_settings_pod_fields`).
    /// The pod spec's fields the model does not name (`nodeSelector`, `tolerations`, ...) are
    /// moved out of `template` into the settings, not copied: a `nodeSelector` can hold 200,000
    /// keys, and no caller reads them in the template after. `taken` holds those the caller took
    /// out of the job's tree before the model read it (`moved_settings`), in the order written.
    pub(super) fn collect(
        template: &mut crate::model::pod::PodTemplateSpec,
        main: usize,
        path: &str,
        release: &Release,
        taken: Vec<(String, Value)>,
    ) -> Result<PodSettings, Error> {
        let mut s = PodSettings::default();
        let unnamed = std::mem::take(&mut template.spec.extra);
        // The main container's args and env are the trainer's (`TRAINER_CONTAINER`, skipped below):
        // left out of the tree rather than copied into it (200,000 of them), and put back after,
        // where the Master/Worker comparison reads them.
        let trainer_lists = template.spec.containers.get_mut(main).map(|c| (take(&mut c.args), take(&mut c.env)));
        let written = to_value(&*template);
        if let (Some(c), Some((args, env))) = (template.spec.containers.get_mut(main), trainer_lists) {
            (c.args, c.env) = (args, env);
        }
        let mut v = written?;
        // Where the model writes them (`#[serde(flatten)]`): after the spec's named fields.
        if let (false, Some(spec)) =
            (unnamed.is_empty() && taken.is_empty(), v.get_mut("spec").and_then(Value::as_object_mut))
        {
            for (k, field) in unnamed {
                spec.insert(k, into_json(field)?);
            }
            spec.extend(taken);
        }
        if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
            // Taken out of the tree, as the spec below: the labels can be 200,000 keys.
            let kept: Map<String, Value> = meta
                .iter_mut()
                .filter(|(k, _)| matches!(k.as_str(), "labels" | "annotations"))
                .map(|(k, v)| (k.clone(), v.take()))
                .collect();
            if !kept.is_empty() {
                s.metadata = Some((Value::Object(kept), format!("{path}.metadata")));
            }
            for key in meta.keys().filter(|k| !matches!(k.as_str(), "labels" | "annotations")) {
                s.dropped.push((
                    format!("{path}.metadata.{key}"),
                    "pod template metadata other than labels and annotations has no place in a runtime".into(),
                ));
            }
        }
        // Taken out of the tree rather than copied: a pod setting can be a map of 150,000 keys.
        let Some(Value::Object(spec)) = v.get_mut("spec").map(Value::take) else { return Ok(s) };
        let spec_path = member(path, "spec");
        for (k, val) in spec {
            let p = member(&spec_path, &k);
            match k.as_str() {
                "containers" => {
                    let Value::Array(containers) = val else { continue };
                    for (i, c) in containers.into_iter().enumerate() {
                        let cp = item(&p, i);
                        if i != main {
                            s.sidecars.push((c, cp));
                            continue;
                        }
                        let Value::Object(fields) = c else { continue };
                        for (ck, cv) in fields {
                            if TRAINER_CONTAINER.contains(&ck.as_str()) || ck == "imagePullPolicy" {
                                continue;
                            }
                            let target = if release.pod_settings_container_fields.contains(&ck.as_str()) {
                                &mut s.container_patchable
                            } else {
                                &mut s.container_other
                            };
                            let at = member(&cp, &ck);
                            target.push((ck, (cv, at)));
                        }
                    }
                }
                "initContainers" => s.init_containers.push((val, p)),
                // V1's operators overwrote it with the replica's restartPolicy (ExitCode as Never;
                // the note cites where), so it never ran.
                "restartPolicy" => s.dropped.push((
                    p,
                    format!(
                        "V1 ran its replica's restartPolicy in its place (training-operator v1.9.0:pkg/core/pod.go:81-88, \
                         mpi-operator v0.6.0:pkg/controller/mpi_job_controller.go:1611-1617); {}",
                        super::policies::v2_pods_restart_policy(release)
                    ),
                )),
                _ if release.pod_settings_pod_fields.contains(&k.as_str()) => {
                    s.pod_patchable.push((k, (val, p)));
                }
                _ => {
                    s.pod_other.push((k, (val, p)));
                }
            }
        }
        for settings in [&mut s.pod_patchable, &mut s.pod_other, &mut s.container_patchable, &mut s.container_other] {
            crate::order::sort_by(settings, |a, b| a.0.cmp(&b.0));
        }
        Ok(s)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.pod_patchable.is_empty()
            && self.pod_other.is_empty()
            && self.container_patchable.is_empty()
            && self.container_other.is_empty()
            && self.init_containers.is_empty()
            && self.sidecars.is_empty()
            && self.metadata.is_none()
    }

    /// Whether the target release's TrainJob can hold all of it (no sidecars, init containers,
    /// fields its override or patch lacks, or pod metadata where it has none).
    pub(super) fn fits_trainjob(&self, release: &Release) -> bool {
        (self.metadata.is_none() || release.pod_settings().holds_pod_metadata())
            && self.pod_other.is_empty()
            && self.container_other.is_empty()
            && self.init_containers.is_empty()
            && self.sidecars.is_empty()
    }
}

/// `serde_json::to_value` of a model value, its strings, lists and maps moved rather than copied.
fn into_json(v: crate::model::Value) -> Result<Value, Error> {
    use crate::model::Value as Model;
    Ok(match v {
        Model::String(s) => Value::String(s),
        Model::Array(items) => Value::Array(items.into_iter().map(into_json).collect::<Result<_, _>>()?),
        Model::Object(map) => {
            // Room for every member at once, not grown by doubling; the model's entries given back
            // as they move: a `nodeSelector` of 200,000 keys is not held twice, whole.
            let mut out = Map::with_capacity(map.len());
            for (k, field) in map.into_iter_freeing() {
                out.insert(k, into_json(field)?);
            }
            Value::Object(out)
        }
        leaf => to_value(&leaf)?,
    })
}

//! The core/v1 pieces both APIs embed: containers, pod specs, resources.

use super::ObjectMeta;
use super::{Map, Value};
use crate::model::extra::with_extra;
use crate::model::value::Listed;
use crate::model::vecmap::VecMap;
use serde::{Deserialize, Serialize};

/// One entry of a container's `env`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvVar {
    /// The variable's name.
    pub name: String,
    /// A literal value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// `valueFrom` (a field, a Secret, a ConfigMap), kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_from: Option<Value>,
}

impl EnvVar {
    /// A variable with a literal value.
    pub fn new(name: &str, value: &str) -> Self {
        EnvVar { name: name.into(), value: Some(value.into()), value_from: None }
    }
}

/// One entry of a container's `ports`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerPort {
    /// The port number.
    pub container_port: i64,
    /// The port's name, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `TCP` (Kubernetes' default when absent), `UDP` or `SCTP`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
}

/// Quantities stay `Value`s: `2`, `"4Gi"` and `500m` must come out the way they went in.
/// Read by [`with_extra!`](super::extra::with_extra) (model/extra.rs), written by the derive.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Resources {
    /// `limits`, by resource name.
    #[serde(skip_serializing_if = "VecMap::is_empty")]
    pub limits: Map,
    /// `requests`, by resource name.
    #[serde(skip_serializing_if = "VecMap::is_empty")]
    pub requests: Map,
    /// Every other field (`claims`), kept as written.
    #[serde(flatten)]
    pub extra: Map,
}

impl Resources {
    /// `nvidia.com/gpu: N` limits, the way both APIs' docs request GPUs. `None` for CPU-only.
    pub fn gpus(gpus: u32) -> Option<Resources> {
        (gpus > 0).then(|| {
            let mut r = Resources::default();
            r.limits.insert("nvidia.com/gpu".into(), Value::from(gpus));
            r
        })
    }

    /// The same GPUs as requests too, as kubeflow-training 1.9.4 writes a `resources_per_worker`
    /// dict (`utils.get_container_spec`: `V1ResourceRequirements(requests=..., limits=...)`).
    pub(crate) fn gpus_requested(gpus: u32) -> Option<Resources> {
        Resources::gpus(gpus).map(|mut r| {
            r.requests = r.limits.clone();
            r
        })
    }

    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        self.limits.is_empty() && self.requests.is_empty() && self.extra.is_empty()
    }
}

/// A container, with the fields the tools read typed and the rest kept in `extra`. Read by
/// [`with_extra!`](super::extra::with_extra) (model/extra.rs), written by the derive.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    /// The container's name (Trainer's runtimes call the trainer's `node`), which a manifest must
    /// write.
    pub name: String,
    /// `image`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// `imagePullPolicy`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_pull_policy: Option<String>,
    /// `securityContext`, kept as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security_context: Option<Value>,
    /// `command`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// `args`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// `env`, in order. Read into room for exactly its variables ([`super::value::held`]):
    /// serde's list of 66,859 variables held room for 104,856.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<EnvVar>,
    /// `ports`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ContainerPort>,
    /// `resources`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<Resources>,
    /// `readinessProbe`, kept as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readiness_probe: Option<Value>,
    /// `volumeMounts`, kept as written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub volume_mounts: Vec<Value>,
    /// Every other container field, kept as written.
    #[serde(flatten)]
    pub extra: Map,
}

impl Container {
    /// A container with a name and an image and nothing else.
    pub fn new(name: &str, image: &str) -> Self {
        Container { name: name.into(), image: Some(image.into()), ..Default::default() }
    }
}

/// A pod's spec, with the fields the tools read typed and the rest kept in `extra`. Read by
/// [`with_extra!`](super::extra::with_extra) (model/extra.rs), written by the derive.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    /// `serviceAccountName`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<String>,
    /// The pod's `securityContext`, kept as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security_context: Option<Value>,
    /// `initContainers`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<Container>,
    /// `containers`, which a manifest must write.
    pub containers: Vec<Container>,
    /// `restartPolicy`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    /// `volumes`, kept as written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub volumes: Vec<Value>,
    /// Every other pod field, kept as written.
    #[serde(flatten)]
    pub extra: Map,
}

with_extra!(Resources, required [], { "limits" => limits, "requests" => requests });

with_extra!(Container, required ["name"], {
    "name" => name,
    "image" => image,
    "imagePullPolicy" => image_pull_policy,
    "securityContext" => security_context,
    "command" => command,
    "args" => args,
    "env" => env as Listed<EnvVar>,
    "ports" => ports,
    "resources" => resources,
    "readinessProbe" => readiness_probe,
    "volumeMounts" => volume_mounts,
});

with_extra!(PodSpec, required ["containers"], {
    "serviceAccountName" => service_account_name,
    "securityContext" => security_context,
    "initContainers" => init_containers,
    "containers" => containers,
    "restartPolicy" => restart_policy,
    "volumes" => volumes,
});

#[cfg(feature = "explain")]
impl PodSpec {
    /// The fields the model names, as a manifest writes them: every other is kept in `extra`.
    pub(crate) const NAMED: &'static [&'static str] = <PodSpec as super::extra::WithExtra<'static>>::FIELDS;
}

/// A pod template: what a V1 replica spec and a JobSet's job template hold.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PodTemplateSpec {
    /// The pods' `metadata`, if the template sets any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,
    /// The pods' `spec`.
    pub spec: PodSpec,
}

impl PodTemplateSpec {
    /// A template of these containers and nothing else.
    pub fn of(containers: Vec<Container>) -> Self {
        PodTemplateSpec { metadata: None, spec: PodSpec { containers, ..Default::default() } }
    }
}

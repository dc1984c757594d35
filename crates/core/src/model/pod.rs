//! The core/v1 pieces both APIs embed: containers, pod specs, resources.

use super::ObjectMeta;
use super::{Map, Value};
use crate::model::vecmap::VecMap;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EnvVar {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value_from: Option<Value>,
}

impl EnvVar {
    pub fn new(name: &str, value: &str) -> Self {
        EnvVar { name: name.into(), value: Some(value.into()), value_from: None }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerPort {
    pub container_port: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
}

/// Quantities stay `Value`s: `2`, `"4Gi"` and `500m` must come out the way they went in.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Resources {
    #[serde(default, skip_serializing_if = "VecMap::is_empty")]
    pub limits: Map,
    #[serde(default, skip_serializing_if = "VecMap::is_empty")]
    pub requests: Map,
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

    pub fn is_empty(&self) -> bool {
        self.limits.is_empty() && self.requests.is_empty() && self.extra.is_empty()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Container {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_pull_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security_context: Option<Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<EnvVar>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ContainerPort>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<Resources>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readiness_probe: Option<Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volume_mounts: Vec<Value>,
    #[serde(flatten)]
    pub extra: Map,
}

impl Container {
    pub fn new(name: &str, image: &str) -> Self {
        Container { name: name.into(), image: Some(image.into()), ..Default::default() }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PodSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service_account_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security_context: Option<Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub init_containers: Vec<Container>,
    pub containers: Vec<Container>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volumes: Vec<Value>,
    #[serde(flatten)]
    pub extra: Map,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PodTemplateSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,
    pub spec: PodSpec,
}

impl PodTemplateSpec {
    pub fn of(containers: Vec<Container>) -> Self {
        PodTemplateSpec { metadata: None, spec: PodSpec { containers, ..Default::default() } }
    }
}

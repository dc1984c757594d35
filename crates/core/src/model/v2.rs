//! Trainer V2 objects (`trainer.kubeflow.org/v1alpha1`, as of v2.3.0).

use super::pod::{EnvVar, PodTemplateSpec, Resources};
use super::ObjectMeta;
use super::{Map, Value};
use serde::{Deserialize, Serialize};

pub const API_VERSION: &str = "trainer.kubeflow.org/v1alpha1";
/// The group a runtimeRef without `apiGroup` names (explain's webhook check).
#[cfg(feature = "explain")]
pub(crate) const API_GROUP: &str = "trainer.kubeflow.org";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainJob {
    pub api_version: String,
    pub kind: String,
    pub metadata: ObjectMeta,
    pub spec: TrainJobSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainJobSpec {
    pub runtime_ref: RuntimeRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initializer: Option<Initializer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trainer: Option<Trainer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_deadline_seconds: Option<i64>,
    /// Each patch is a `RuntimePatch` object; kept as values because the migrator builds them
    /// from whatever pod-level settings the V1 job had.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runtime_patches: Vec<Value>,
    /// `trainer.kubeflow.org/trainjob-controller` (the default) or another controller, such as
    /// Kueue's MultiKueue, that runs the job instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub managed_by: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeRef {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_group: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Initializer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<StorageInitializer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<StorageInitializer>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StorageInitializer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_uri: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<EnvVar>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_ref: Option<Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Trainer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<EnvVar>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_nodes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_proc_per_node: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources_per_node: Option<Resources>,
}

/// `ClusterTrainingRuntime` and `TrainingRuntime` share this shape; `kind` tells them apart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainingRuntime {
    pub api_version: String,
    pub kind: String,
    pub metadata: ObjectMeta,
    pub spec: TrainingRuntimeSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainingRuntimeSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ml_policy: Option<MlPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_group_policy: Option<Value>,
    pub template: JobSetTemplate,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MlPolicy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_nodes: Option<u32>,
    /// `torch: {}`: the v2.2+ torch policy has no required fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torch: Option<Map>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mpi: Option<MpiPolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jax: Option<Map>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xgboost: Option<Map>,
    /// The Flux framework policy (v2.2+): `numProcPerNode`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flux: Option<Map>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MpiPolicy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_proc_per_node: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mpi_implementation: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ssh_auth_mount_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_launcher_as_node: Option<bool>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobSetTemplate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,
    pub spec: JobSetSpec,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobSetSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_policy: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_policy: Option<Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volume_claim_policies: Vec<Value>,
    /// Optional in JobSet's API (`replicatedJobs,omitempty`) and in every release's runtime CRD,
    /// which the API server admits without it; upstream's jobset_test.go validates a TrainJob
    /// against such a runtime ("no initializer job", v2.3.0 jobset_test.go:350-356).
    #[serde(default)]
    pub replicated_jobs: Vec<ReplicatedJob>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicatedJob {
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<DependsOn>,
    pub template: JobTemplate,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DependsOn {
    pub name: String,
    pub status: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobTemplate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,
    pub spec: JobSpec,
}

/// batch/v1 JobSpec: the pod template plus failure handling (`backoffLimit`, `podFailurePolicy`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_failure_policy: Option<Value>,
    pub template: PodTemplateSpec,
}

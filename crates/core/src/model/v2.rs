//! Trainer V2 objects (`trainer.kubeflow.org/v1alpha1`, as of v2.3.0).

use super::pod::{EnvVar, PodTemplateSpec, Resources};
use super::ObjectMeta;
use super::{Map, Value};
use serde::{Deserialize, Serialize};

/// The `apiVersion` of every Trainer V2 object, in every release line.
pub const API_VERSION: &str = "trainer.kubeflow.org/v1alpha1";
/// The group a runtimeRef without `apiGroup` names (explain's webhook check).
#[cfg(feature = "explain")]
pub(crate) const API_GROUP: &str = "trainer.kubeflow.org";

/// A `TrainJob`: the data scientist's object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainJob {
    /// `apiVersion`.
    pub api_version: String,
    /// `kind` (`TrainJob`).
    pub kind: String,
    /// `metadata`.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: TrainJobSpec,
}

/// A TrainJob's `spec`: the runtime it uses and what it sets on top.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainJobSpec {
    /// `runtimeRef`: the runtime the job runs on.
    pub runtime_ref: RuntimeRef,
    /// `suspend`: no pods until it is unsuspended (Kueue does so when it admits the job).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,
    /// `initializer`: the dataset and model downloads before training.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initializer: Option<Initializer>,
    /// `trainer`: the trainer's image, command, env, nodes and resources over the runtime's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trainer: Option<Trainer>,
    /// `activeDeadlineSeconds`.
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

/// A TrainJob's `runtimeRef`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeRef {
    /// The runtime's name.
    pub name: String,
    /// `apiGroup` (the CRD's default: `trainer.kubeflow.org`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_group: Option<String>,
    /// `kind`: `ClusterTrainingRuntime` (the CRD's default) or `TrainingRuntime`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// A TrainJob's `initializer`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Initializer {
    /// `dataset`: what the dataset initializer downloads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<StorageInitializer>,
    /// `model`: what the model initializer downloads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<StorageInitializer>,
}

/// One initializer's settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StorageInitializer {
    /// `storageUri` (`hf://…`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_uri: Option<String>,
    /// `env` for the initializer's container.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<EnvVar>,
    /// `secretRef` (an access token), kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_ref: Option<Value>,
}

/// A TrainJob's `trainer`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Trainer {
    /// `image` over the runtime's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// `command` over the runtime's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// `args` over the runtime's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// `env` added to the trainer's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<EnvVar>,
    /// `numNodes` over the runtime's `mlPolicy.numNodes`; an int32 (`model::int32`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::count")]
    pub num_nodes: Option<u32>,
    /// `numProcPerNode` as a number (v2.0-v2.1 also took `auto`, `cpu` or `gpu`, which explain reads apart).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_proc_per_node: Option<u32>,
    /// `resourcesPerNode`: each node's resources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources_per_node: Option<Resources>,
}

/// `ClusterTrainingRuntime` and `TrainingRuntime` share this shape; `kind` tells them apart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainingRuntime {
    /// `apiVersion`.
    pub api_version: String,
    /// `kind`: `ClusterTrainingRuntime` or `TrainingRuntime`.
    pub kind: String,
    /// `metadata`.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: TrainingRuntimeSpec,
}

/// A runtime's `spec`: the ML policy, gang scheduling and the JobSet template.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrainingRuntimeSpec {
    /// `mlPolicy`: the framework plugin that runs and the node count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ml_policy: Option<MlPolicy>,
    /// `podGroupPolicy` (coscheduling or Volcano), kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_group_policy: Option<Value>,
    /// `template`: the JobSet every TrainJob on this runtime becomes.
    pub template: JobSetTemplate,
}

/// A runtime's `mlPolicy`: one framework source, and the node count.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MlPolicy {
    /// `numNodes`; an int32 (`model::int32`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::count")]
    pub num_nodes: Option<u32>,
    /// `torch: {}`: the v2.2+ torch policy has no required fields.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torch: Option<Map>,
    /// `mpi`: the MPI plugin's settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mpi: Option<MpiPolicy>,
    /// `jax: {}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jax: Option<Map>,
    /// `xgboost: {}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xgboost: Option<Map>,
    /// The Flux framework policy (v2.2+): `numProcPerNode`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flux: Option<Map>,
}

/// `mlPolicy.mpi`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MpiPolicy {
    /// `numProcPerNode`: MPI slots per node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_proc_per_node: Option<u32>,
    /// `mpiImplementation` (`OpenMPI`, the CRD's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mpi_implementation: Option<String>,
    /// `sshAuthMountPath` (the CRD's default: `/root/.ssh`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ssh_auth_mount_path: Option<String>,
    /// `runLauncherAsNode`: the launcher is one of the nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_launcher_as_node: Option<bool>,
}

/// A runtime's `template`: the JobSet's metadata and spec.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobSetTemplate {
    /// The JobSet's `metadata`, if the runtime sets any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,
    /// The JobSet's `spec`.
    pub spec: JobSetSpec,
}

/// A JobSet's `spec`: its replicated jobs and the JobSet policies, kept as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobSetSpec {
    /// `network` (the headless Service, hostnames), kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<Value>,
    /// `successPolicy`, kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_policy: Option<Value>,
    /// `failurePolicy`, kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_policy: Option<Value>,
    /// `volumeClaimPolicies` (JobSet v0.11+, Trainer v2.2+), kept as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volume_claim_policies: Vec<Value>,
    /// Optional in JobSet's API (`replicatedJobs,omitempty`) and in every release's runtime CRD,
    /// which the API server admits without it; upstream's jobset_test.go validates a TrainJob
    /// against such a runtime ("no initializer job", v2.3.0 jobset_test.go:350-356).
    #[serde(default)]
    pub replicated_jobs: Vec<ReplicatedJob>,
}

/// One of a JobSet's `replicatedJobs`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicatedJob {
    /// Its name (`node`, `launcher`, `dataset-initializer`, ...).
    pub name: String,
    /// `dependsOn`: the jobs that must reach a status first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub depends_on: Vec<DependsOn>,
    /// The Job template.
    pub template: JobTemplate,
}

/// One `dependsOn` entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DependsOn {
    /// The replicated job waited for.
    pub name: String,
    /// The status it must reach (`Ready` or `Complete`).
    pub status: String,
}

/// A replicated job's Job template.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobTemplate {
    /// The Job's `metadata` (the ancestor-step label), if set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<ObjectMeta>,
    /// The Job's `spec`.
    pub spec: JobSpec,
}

/// batch/v1 JobSpec: the pod template plus failure handling (`backoffLimit`, `podFailurePolicy`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobSpec {
    /// `backoffLimit`: pod failures before the Job fails.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_limit: Option<u32>,
    /// `podFailurePolicy`, kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_failure_policy: Option<Value>,
    /// The pod template.
    pub template: PodTemplateSpec,
}

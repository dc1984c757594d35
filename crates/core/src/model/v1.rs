//! Training Operator V1 jobs (`kubeflow.org/v1`, v1.9.x).

use super::pod::PodTemplateSpec;
use super::ObjectMeta;
use super::{Map, Value};
use crate::model::vecmap::VecMap;
use explorer_data::catalog::V1Kind;
use serde::{Deserialize, Serialize};

/// The `apiVersion` of the Training Operator's jobs (mpi-operator's MPIJob is `kubeflow.org/v2beta1`).
pub const API_VERSION: &str = "kubeflow.org/v1";

/// A Training Operator V1 job of any of the six kinds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Job {
    /// `apiVersion`.
    pub api_version: String,
    /// `kind`: which of the six, and so which `*ReplicaSpecs` field holds the replicas.
    pub kind: String,
    /// `metadata`.
    pub metadata: ObjectMeta,
    /// `spec`.
    pub spec: V1JobSpec,
}

/// One replica type (`Master`, `Worker`, `Launcher`, ...).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSpec {
    /// How many pods of this type; V1 defaulting sets a missing one to 1 (an MPIJob's Worker to 0).
    /// An int32 in the CRD: read as one (`model::int32`).
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "super::int32::count")]
    pub replicas: Option<u32>,
    /// `restartPolicy` of this type's pods, as the operator reads it (`OnFailure`, `ExitCode`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    /// The pod template every replica of this type runs.
    pub template: PodTemplateSpec,
}

/// The union of the six kinds' specs. Exactly one `*ReplicaSpecs` field is set, matching `kind`;
/// `V1JobSpec::new` enforces that for generated jobs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct V1JobSpec {
    /// MPIJob: the slots each worker offers to `mpirun`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots_per_worker: Option<u32>,
    /// PyTorchJob: a string (`"auto"`, `"cpu"`, `"gpu"` or a number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nproc_per_node: Option<String>,
    /// `runPolicy` (cleanup, TTL, backoff, scheduling), kept as a tree: the migrator reads the fields it carries over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_policy: Option<Value>,
    /// PyTorchJob's replicas by type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pytorch_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    /// MPIJob's replicas by type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mpi_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    /// JAXJob's replicas by type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jax_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    /// XGBoostJob's replicas by type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xgb_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    /// TFJob's replicas by type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tf_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    /// PaddleJob's replicas by type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paddle_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    /// Every other spec field, kept as written.
    #[serde(flatten)]
    pub extra: Map,
}

impl V1JobSpec {
    /// A spec of `kind` with `replicas` in that kind's field and nothing else set.
    pub fn new(kind: V1Kind, replicas: VecMap<String, ReplicaSpec>) -> Self {
        let mut spec = V1JobSpec::default();
        *spec.replica_specs_mut(kind) = Some(replicas);
        spec
    }

    pub(crate) fn replica_specs(&self, kind: V1Kind) -> Option<&VecMap<String, ReplicaSpec>> {
        match kind {
            V1Kind::PyTorchJob => self.pytorch_replica_specs.as_ref(),
            V1Kind::MpiJob => self.mpi_replica_specs.as_ref(),
            V1Kind::JaxJob => self.jax_replica_specs.as_ref(),
            V1Kind::XgBoostJob => self.xgb_replica_specs.as_ref(),
            V1Kind::TfJob => self.tf_replica_specs.as_ref(),
            V1Kind::PaddleJob => self.paddle_replica_specs.as_ref(),
        }
    }

    fn replica_specs_mut(&mut self, kind: V1Kind) -> &mut Option<VecMap<String, ReplicaSpec>> {
        match kind {
            V1Kind::PyTorchJob => &mut self.pytorch_replica_specs,
            V1Kind::MpiJob => &mut self.mpi_replica_specs,
            V1Kind::JaxJob => &mut self.jax_replica_specs,
            V1Kind::XgBoostJob => &mut self.xgb_replica_specs,
            V1Kind::TfJob => &mut self.tf_replica_specs,
            V1Kind::PaddleJob => &mut self.paddle_replica_specs,
        }
    }
}

//! Training Operator V1 jobs (`kubeflow.org/v1`, v1.9.x).

use super::pod::PodTemplateSpec;
use super::ObjectMeta;
use super::{Map, Value};
use crate::model::vecmap::VecMap;
use explorer_data::catalog::V1Kind;
use serde::{Deserialize, Serialize};

pub const API_VERSION: &str = "kubeflow.org/v1";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Job {
    pub api_version: String,
    pub kind: String,
    pub metadata: ObjectMeta,
    pub spec: V1JobSpec,
}

/// One replica type (`Master`, `Worker`, `Launcher`, ...).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restart_policy: Option<String>,
    pub template: PodTemplateSpec,
}

/// The union of the six kinds' specs. Exactly one `*ReplicaSpecs` field is set, matching `kind`;
/// `V1JobSpec::new` enforces that for generated jobs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct V1JobSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots_per_worker: Option<u32>,
    /// PyTorchJob: a string (`"auto"`, `"cpu"`, `"gpu"` or a number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nproc_per_node: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_policy: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pytorch_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mpi_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jax_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub xgb_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tf_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paddle_replica_specs: Option<VecMap<String, ReplicaSpec>>,
    #[serde(flatten)]
    pub extra: Map,
}

impl V1JobSpec {
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

//! The ML-policy plugins' `EnforceMLPolicy`: node counts and the environment each framework's
//! launcher reads. Paths under pkg/runtime/framework/plugins/, lines at v2.3.0 unless a tag is
//! named; where releases differ the rule reads the release's [`Controller`] facts.
//!
//! Upstream runs these plugins in Go map order (pkg/runtime/framework/core/framework.go:59), so
//! where two plugins touch one env list (plainml and xgboost) the order between them is not fixed;
//! the names never collide (xgboost's webhook refuses its reserved names), so the values are.
//!
//! No variable a plugin sets lists the job's pods, unlike V1's TF_CONFIG and WORKER_ADDRS, which
//! `explain::v1` bounds by etcd's request limit (`explain::ETCD_REQUEST_LIMIT`): each names one
//! coordinator address or a count, and a pod's rank comes from its completion index. The pod
//! sets' addresses (`Endpoints`, jobset/jobset.go:288) are read by one plugin alone, MPI, for its
//! hostfile ConfigMap (mpi/mpi.go:326), which `build::run` bounds by a ConfigMap's limit. So a V2
//! pod outgrows etcd only with what the TrainJob and the runtime wrote themselves, not with the
//! number of pods.
//!
//! One file per plugin, as upstream has one package per plugin: [`torch`], [`jax`], [`plainml`],
//! [`xgboost`], [`mpi`]. This file holds what they share: which policy the runtime sets, the
//! node's resources (pkg/runtime/runtime.go) and the trainer's pod set, and the order they run in.

mod jax;
mod mpi;
mod plainml;
mod torch;
mod xgboost;

pub(super) use mpi::MpiOutcome;
pub(super) use torch::{env_injection_targets, torch_procs, Procs};

use super::build::{PodSet, ANCESTOR_TRAINER, NODE};
use super::quantity::ceil_value;
use super::{Input, Rejection};
use crate::model::pod::{EnvVar, Resources};
use crate::model::v2::MpiPolicy;
use crate::model::Value;
use explorer_data::releases::Release;

/// Which ML policy the runtime sets.
pub(super) struct Policy {
    pub torch: bool,
    pub mpi: Option<MpiPolicy>,
    pub jax: bool,
    pub xgboost: bool,
}

impl Policy {
    pub(super) fn of(input: Input) -> Policy {
        let ml = input.runtime.spec.ml_policy.as_ref();
        Policy {
            torch: ml.is_some_and(|m| m.torch.is_some()),
            mpi: ml.and_then(|m| m.mpi.clone()),
            jax: ml.is_some_and(|m| m.jax.is_some()),
            xgboost: ml.is_some_and(|m| m.xgboost.is_some()),
        }
    }
}

/// The resources one node gets: the TrainJob's `resourcesPerNode` if set, else the runtime's
/// trainer container's (torch.go:127-130, mpi.go:132-135, xgboost.go:104-108), found the way
/// `ExtractResourcePerNodeFromRuntime` does (pkg/runtime/runtime.go:254-277): the first
/// replicatedJob named `node` or with the trainer ancestor, its `node` container.
pub(super) fn resources_per_node(input: Input) -> Option<Resources> {
    if let Some(r) = input.job.spec.trainer.as_ref().and_then(|t| t.resources_per_node.clone()) {
        return Some(r);
    }
    input
        .runtime
        .spec
        .template
        .spec
        .replicated_jobs
        .iter()
        .filter(|rj| {
            rj.name == NODE
                || rj.template.metadata.as_ref().and_then(|m| m.labels.get(super::build::ANCESTOR_LABEL))
                    == Some(&ANCESTOR_TRAINER.to_string())
        })
        .find_map(|rj| rj.template.spec.template.spec.containers.iter().find(|c| c.name == NODE)?.resources.clone())
}

/// `GetNumGPUPerNode` (runtime.go:280-298): the first resource whose name contains "gpu", from
/// requests, else from limits.
pub(super) fn gpus(res: Option<&Resources>) -> u64 {
    let Some(res) = res else { return 0 };
    let first_gpu = |list: &crate::model::Map| {
        list.iter().find(|(k, _)| k.to_ascii_lowercase().contains("gpu")).and_then(|(_, v)| ceil_value(v)).unwrap_or(0)
    };
    let requested = first_gpu(&res.requests);
    if requested == 0 {
        first_gpu(&res.limits)
    } else {
        requested
    }
}

fn trainer_set(sets: &mut [PodSet]) -> Option<&mut PodSet> {
    sets.iter_mut().find(|s| s.ancestor.as_deref() == Some(ANCESTOR_TRAINER))
}

/// The TrainJob's `numNodes` on the trainer's pod set (torch.go:116-119, jax.go:63-67,
/// xgboost.go:87-90, plainml.go:56-60).
fn set_trainer_count(input: Input, sets: &mut [PodSet]) {
    if let (Some(ps), Some(n)) = (trainer_set(sets), input.job.spec.trainer.as_ref().and_then(|t| t.num_nodes)) {
        ps.count = n;
    }
}

/// The trainer's `node` container, only when the TrainJob has a `trainer` block: without one no
/// plugin injects anything (torch.go:139-143, jax.go:70-71, xgboost.go:94-97).
fn trainer_container<'s>(input: Input, sets: &'s mut [PodSet]) -> Option<(u32, &'s mut crate::model::pod::Container)> {
    input.job.spec.trainer.as_ref()?;
    let ps = trainer_set(sets)?;
    let count = ps.count;
    Some((count, ps.containers.iter_mut().find(|c| c.name == NODE)?))
}
pub(super) fn enforce(
    input: Input,
    release: Release,
    policy: &Policy,
    sets: &mut [PodSet],
) -> Result<Option<MpiOutcome>, Rejection> {
    let name = super::build::job_name(input);
    let coordinator = format!("{name}-{NODE}-0-0.{name}");
    // Borrowed: each plugin copies the variables it sets into the pods.
    let job_env: &[EnvVar] = input.job.spec.trainer.as_ref().map_or(&[], |t| &t.env);
    if policy.torch {
        torch::torch(input, release, sets, &coordinator, job_env);
    }
    if policy.jax {
        jax::jax(input, sets, &coordinator);
    }
    // plainml.go:47-68: any runtime without torch, mpi or jax (so xgboost too) gets the
    // TrainJob's numNodes and env on the trainer.
    if !(policy.torch || policy.mpi.is_some() || policy.jax) {
        plainml::plainml(input, sets, job_env);
    }
    if policy.xgboost {
        xgboost::xgboost(input, sets, &coordinator);
    }
    match &policy.mpi {
        Some(mpi) => mpi::mpi_plugin(input, &release.controller, mpi, sets).map(Some),
        None => Ok(None),
    }
}

/// The quantity a reader wrote, if it is not one Kubernetes would read.
pub(super) fn bad_quantity(res: &Resources) -> Option<(String, Value)> {
    res.limits
        .iter()
        .map(|(k, v)| (format!("limits.{k}"), v))
        .chain(res.requests.iter().map(|(k, v)| (format!("requests.{k}"), v)))
        .find(|(_, v)| ceil_value(v).is_none())
        .map(|(k, v)| (k, v.clone()))
}

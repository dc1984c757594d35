//! Negative counts: what the API server admits, and what refuses it later.
//!
//! No release's CRD puts a minimum on a TrainJob's `spec.trainer.numNodes`, nor on a runtime's
//! `mlPolicy.numNodes`, a replicatedJob's `replicas` or its Job template's `parallelism` and
//! `backoffLimit` (`format: int32`, nothing else: trainjobs.yaml:5791-5794 and the runtimes'
//! CRDs at v2.3.0, the same at v2.0.1-v2.2.1), and Trainer's webhook checks none of them for a
//! negative value: its numNodes rules are `> 1` (torchtune.go:46-50) and `>= 2` (mpi.go:88-93,
//! v2.3.0; the same rules at v2.0.1-v2.2.1). So the API server admits such a TrainJob, and the
//! failure comes when an object built from it is created:
//!
//! - numNodes and parallelism become the PodSet's count, which the jobset plugin writes as the
//!   Job template's `parallelism` and `completions` (jobset.go:316-317 at v2.3.0, :281-282 at
//!   v2.2.1, :263-264 at v2.1.0, builder.go:116-117 at v2.0.1; trainingruntime.go:189 reads the
//!   runtime's parallelism). JobSet's webhook has no rule against it on create
//!   (jobset_webhook.go:215-260 at JobSet v0.12.0); the JobSet controller creates the Job
//!   (jobset_controller.go:749 at v0.12.0, :670 at v0.11.1, :577 at v0.8.2 and v0.10.1), and
//!   the API server's Job validation refuses it: Kubernetes' `validateJobSpec`
//!   (pkg/apis/batch/validation/validation.go) runs `ValidateNonnegativeField` on parallelism,
//!   completions and backoffLimit. The JobSet stays, with no Job and no pod.
//! - A negative `replicas` gets no Job at all: the JobSet controller creates Jobs for indexes
//!   below it (jobset_controller.go:927 at v0.12.0, :776 at v0.11.1, :683 at v0.8.2 and v0.10.1).
//!   On a replicatedJob with the ancestor label, Trainer's runtime webhook refuses any count but
//!   1 (trainingruntime_webhook.go:79-80 at v2.3.0, :78-80 at v2.2.1, :84-86 at v2.1.0, :70-79 at
//!   v2.0.1, which also holds the `launcher` to 1).
//!
//! - A negative numProcPerNode (the TrainJob's, or the runtime's MPI policy's: no minimum in
//!   the CRDs either) reaches the pods: torch's `PET_NPROC_PER_NODE`, MPI's hostfile `slots`.
//!   Nothing in Kubernetes checks it; only Flux's webhook refuses fewer than one
//!   (flux.go:116-119 at v2.3.0, the TrainJob's value from v2.3.0 on: `flux_checks_trainjob_procs`).
//!
//! Each such value is taken out of the objects (replaced by one the checks judge alike) so the
//! API server's and the webhook's checks run on the rest; when they admit it, the answer is
//! "admitted, then fails" with what refuses it and when.

use super::build::ANCESTOR_LABEL;
use super::{ErrorType, FieldPath, Rejection};
use explorer_data::releases::Release;
use serde_json::Value as Json;
use std::borrow::Cow;

/// The replicatedJobs whose count Trainer's runtime webhook holds to 1 (their ancestor label).
const ANCESTORS: [&str; 3] = ["trainer", "model-initializer", "dataset-initializer"];

/// The negative counts of a TrainJob and its runtime: those a webhook refuses on create, and those
/// admitted that fail later.
#[derive(Debug, Default)]
pub(super) struct NegativeCounts {
    pub refused: Vec<Rejection>,
    pub later: Vec<Rejection>,
}

impl NegativeCounts {
    /// The negative counts of `job` and `runtime` (either may be absent), each replaced by the
    /// value the checks judge alike (1 for a count, 0 for backoffLimit).
    /// `flux`: the runtime has a Flux policy (its webhook refuses fewer than one process).
    pub(super) fn take(
        job: Option<&mut Cow<'_, Json>>,
        runtime: Option<&mut Cow<'_, Json>>,
        flux: bool,
        release: Release,
    ) -> NegativeCounts {
        let mut found = NegativeCounts::default();
        let crd = format!("the {} CRD sets no minimum", release.tag);
        let job_refused = |field: &str, n: i64| {
            format!(
                "{n}: admitted: the API server takes it ({crd}), and so does Trainer's webhook; \
                 the controller writes it into the JobSet as the {field} Jobs' parallelism and completions, and \
                 the API server refuses each such Job when JobSet {} creates it (spec.parallelism, \
                 spec.completions: Invalid value: {n}: must be greater than or equal to 0): those pods never run",
                release.jobset
            )
        };
        // numNodes, from the TrainJob or the runtime, sizes the trainer's Jobs in place of their
        // template's parallelism (the PodSet's count, trainingruntime.go:189 then the plugins).
        let num_nodes_of = |tree: Option<&Json>, pointer: &str| tree.and_then(|t| t.pointer(pointer)).is_some();
        let num_nodes = num_nodes_of(job.as_deref().map(|j| &**j), "/spec/trainer/numNodes")
            || num_nodes_of(runtime.as_deref().map(|r| &**r), "/spec/mlPolicy/numNodes");
        let procs_reach_pods = |n: i64| {
            format!(
                "{n}: admitted: the API server takes it ({crd}), and so does Trainer's webhook; the \
                 controller writes it into the trainer pods (torch's PET_NPROC_PER_NODE, the MPI hostfile's slots), \
                 which nothing in Kubernetes checks: the pods start, and their launcher is given a negative number \
                 of processes"
            )
        };
        if let Some(job) = job {
            if let Some(n) = take_negative(job, "/spec/trainer/numNodes", 1) {
                found.later.push(Rejection::new(
                    ErrorType::Invalid,
                    FieldPath::parse("spec.trainer.numNodes"),
                    job_refused("trainer", n),
                ));
            }
            if let Some(n) = take_negative(job, "/spec/trainer/numProcPerNode", 1) {
                if flux && release.controller.flux_checks_trainjob_procs {
                    found.refused.push(super::flux::too_few_procs(n));
                } else {
                    let field = FieldPath::parse("spec.trainer.numProcPerNode");
                    found.later.push(Rejection::new(ErrorType::Invalid, field, procs_reach_pods(n)));
                }
            }
        }
        let Some(runtime) = runtime else { return found };
        if let Some(n) = take_negative(runtime, "/spec/mlPolicy/mpi/numProcPerNode", 1) {
            let field = FieldPath::parse("spec.mlPolicy.mpi.numProcPerNode").in_runtime();
            found.later.push(Rejection::new(ErrorType::Invalid, field, procs_reach_pods(n)));
        }
        if let Some(n) = take_negative(runtime, "/spec/mlPolicy/numNodes", 1) {
            found.later.push(Rejection::new(
                ErrorType::Invalid,
                FieldPath::parse("spec.mlPolicy.numNodes").in_runtime(),
                job_refused("trainer", n),
            ));
        }
        let count = runtime.pointer("/spec/template/spec/replicatedJobs").and_then(Json::as_array).map_or(0, Vec::len);
        for i in 0..count {
            let at = format!("/spec/template/spec/replicatedJobs/{i}");
            let shown = format!("spec.template.spec.replicatedJobs[{i}]");
            let name = runtime.pointer(&format!("{at}/name")).and_then(Json::as_str).unwrap_or_default().to_string();
            let ancestor = runtime
                .pointer(&format!("{at}/template/metadata/labels"))
                .and_then(|labels| labels.get(ANCESTOR_LABEL))
                .and_then(Json::as_str)
                .is_some_and(|step| ANCESTORS.contains(&step));
            // v2.0.1's webhook also holds the launcher to one Job (trainingruntime_webhook.go:70-72).
            let held_to_one = ancestor || (release.line == "v2.0" && name == "launcher");
            if let Some(n) = take_negative(runtime, &format!("{at}/replicas"), 1) {
                let field = FieldPath::parse(&format!("{shown}.replicas")).in_runtime();
                if held_to_one {
                    found.refused.push(Rejection::new(ErrorType::Invalid, field, format!("{n}: always must be 1")));
                } else {
                    found.later.push(Rejection::new(
                        ErrorType::Invalid,
                        field,
                        format!(
                            "{n}: admitted: the API server takes it ({crd}), and so do Trainer's and \
                             JobSet's webhooks; JobSet {} creates this replicatedJob's Jobs for the indexes below \
                             replicas, so it creates none: its pods never run",
                            release.jobset
                        ),
                    ));
                }
            }
            let trainer = runtime
                .pointer(&format!("{at}/template/metadata/labels"))
                .and_then(|labels| labels.get(ANCESTOR_LABEL))
                .is_some_and(|step| step == "trainer");
            for (key, neutral) in [("parallelism", 1), ("backoffLimit", 0)] {
                let replaced = key == "parallelism" && trainer && num_nodes;
                if let Some(n) = take_negative(runtime, &format!("{at}/template/spec/{key}"), neutral) {
                    if replaced {
                        // numNodes takes its place: the value never reaches a Job.
                        continue;
                    }
                    found.later.push(Rejection::new(
                        ErrorType::Invalid,
                        FieldPath::parse(&format!("{shown}.template.spec.{key}")).in_runtime(),
                        format!(
                            "{n}: admitted: the API server takes it ({crd}), and so does Trainer's \
                             webhook; the controller copies it into the JobSet's {name:?} Jobs, and the API server \
                             refuses each Job when JobSet {} creates it (spec.{key}: Invalid value: {n}: must be \
                             greater than or equal to 0): those pods never run",
                            release.jobset
                        ),
                    ));
                }
            }
        }
        found
    }
}

/// Whether a runtime has a Flux policy.
pub(super) fn is_flux(runtime: &Json) -> bool {
    runtime.pointer("/spec/mlPolicy/flux").is_some()
}

/// The negative integer at `pointer`, replaced by `neutral` (the tree copied then, if borrowed).
fn take_negative(tree: &mut Cow<'_, Json>, pointer: &str, neutral: i64) -> Option<i64> {
    let n = tree.pointer(pointer)?.as_i64().filter(|n| *n < 0)?;
    // Only a tree that holds a negative count is copied (a borrowed one, on its first).
    *tree.to_mut().pointer_mut(pointer)? = neutral.into();
    Some(n)
}

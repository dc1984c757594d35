//! Why a V1 document is not converted: refused (a job the target release cannot run as the V1
//! operator did) or invalid (not a Kubernetes object, or a job the converter cannot read). Each
//! prints the sentence the migrator has always printed.

use super::{framework_of, Error};
use explorer_data::catalog::V1Kind;
use explorer_data::releases::RELEASES;
use std::fmt;

/// Why the migrator will not write a V1 job for the target release.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Refusal {
    /// A TFJob or PaddleJob with a replica type Training Operator v1.9 does not know.
    UnknownReplicaType {
        /// TFJob or PaddleJob.
        kind: V1Kind,
        /// The replica type as written.
        replica_type: String,
    },
    /// A TFJob with `enableDynamicWorker: true`: workers join and leave, a TrainJob's pods are
    /// fixed.
    DynamicWorker,
    /// A PaddleJob whose leader (`Master`, else `Worker`) sets no command to wrap.
    PaddleLeaderWithoutCommand {
        /// The leader's replica type.
        leader: &'static str,
    },
    /// A TFJob with both a Chief and a Master that v1.9's webhook admitted: one was written in
    /// another case (`chief`), which the webhook does not count and the defaulting renames (the
    /// webhook refuses both spelled exactly: `convert` gives its reason).
    ChiefAndMaster,
    /// A JAXJob or XGBoostJob for a release before its framework's runtime and mlPolicy.
    NoRuntimeYet {
        /// The V1 kind.
        kind: V1Kind,
        /// The tag of the release written for.
        release: &'static str,
    },
    /// A Training Operator or MPI Operator kind at an API version the migrator does not read.
    UnservedVersion {
        /// The `apiVersion` as written.
        api_version: String,
        /// The `kind` as written.
        kind: String,
    },
    /// An MPIJob of another MPI implementation than OpenMPI.
    MpiImplementation {
        /// The implementation as written (`Intel`, `MPICH`).
        implementation: String,
        /// The tag of the release written for.
        release: &'static str,
    },
    /// An MPIJob whose TrainJob the target release's controller cannot start: the MPI plugin's
    /// hostfile ConfigMap, one line per node pod, holds more than the API server takes in one
    /// ConfigMap (`explain::CONFIGMAP_DATA_LIMIT`), while the V1 operator's own took the job
    /// (`explain::v1` refuses it otherwise, before the conversion).
    HostfileTooLarge {
        /// The Worker replica spec, as written.
        path: String,
        /// Its `replicas`: the TrainJob's `numNodes`.
        workers: u32,
        /// The V1 operator that ran the job.
        operator: explorer_data::served::V1Operator,
        /// The tag of the release written for.
        release: &'static str,
        /// The bytes of the TrainJob's hostfile, as explain counts them.
        bytes: u64,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::UnknownReplicaType { kind, replica_type } => write!(
                f,
                "spec.{}.{replica_type}: Training Operator v1.9 knows the {} replica types {}; a generated runtime \
                 cannot say what the operator would give an unknown one",
                kind.replica_specs_field(),
                kind.kind(),
                kind.replica_types().join(", ")
            ),
            Refusal::DynamicWorker => f.write_str(
                "spec.enableDynamicWorker: Training Operator v1.9 gives each worker a sparse TF_CONFIG naming only \
                 itself and the PS tasks (training-operator v1.9.0:pkg/controller.v1/tensorflow/tensorflow.go:74-83,125-135), so workers can join and leave; a TrainJob's pods are \
                 fixed, and the generated runtime writes the whole cluster. Keep this TFJob on Training Operator v1.9, \
                 or drop enableDynamicWorker and migrate",
            ),
            Refusal::PaddleLeaderWithoutCommand { leader } => write!(
                f,
                "spec.{}.{leader}: its first pod must name its own IP in PADDLE_MASTER, which one V2 template \
                 can give only by wrapping the container's command, and this container sets none (the image's \
                 entrypoint runs). Set the command the image runs (e.g. python -m paddle.distributed.launch ...), \
                 then migrate",
                V1Kind::PaddleJob.replica_specs_field()
            ),
            Refusal::ChiefAndMaster => f.write_str(
                "spec.tfReplicaSpecs: a Chief and a Master once v1.9's defaulting renamed a `chief` or `master` \
                 (training-operator v1.9.0:pkg/apis/kubeflow.org/v1/defaulting_utils.go:50-59): its webhook counts \
                 only the exact spellings (pkg/webhooks/tensorflow/tfjob_webhook.go:105-107,123-125), so it admitted \
                 this TFJob and ran both; the migrator converts a TFJob with one of them. Keep one, then migrate",
            ),
            Refusal::NoRuntimeYet { kind, release } => not_yet(f, *kind, release),
            Refusal::UnservedVersion { api_version, kind } => unserved(f, api_version, kind),
            Refusal::MpiImplementation { implementation, release } => write!(
                f,
                "mpiImplementation {implementation}: Trainer {release} runs only OpenMPI (IntelMPI is on the roadmap, \
                 trainer#1807). Keep this MPIJob on the MPI Operator, or rebuild the image with OpenMPI."
            ),
            Refusal::HostfileTooLarge { path, workers, operator, release, bytes } => write!(
                f,
                "{path}: {workers} workers are spec.trainer.numNodes {workers} for Trainer {release}: {}; keep this \
                 MPIJob on {}, whose own hostfile ConfigMap takes them, or give it fewer workers",
                crate::explain::hostfile_refused(*bytes),
                operator.name
            ),
        }
    }
}

impl std::error::Error for Refusal {}

/// Why a Training Operator or MPI Operator kind at an API version the migrator does not read is
/// refused: older versions (`kubeflow.org/v1alpha2` MPIJobs, the pre-v1 betas) lay out their
/// specs differently, and reading them as v1 would convert the wrong fields.
fn unserved(f: &mut fmt::Formatter<'_>, api: &str, kind: &str) -> fmt::Result {
    let (read, rewrite) = if kind == "MPIJob" {
        ("kubeflow.org/v1 and kubeflow.org/v2beta1", "kubeflow.org/v2beta1")
    } else {
        ("kubeflow.org/v1", "kubeflow.org/v1")
    };
    // The cluster's own answer first (no V1 operator's CRD serves the pair: explorer_data::served).
    write!(
        f,
        "{}: no operator serves {api} for a {kind} (the migrator reads {read}); this older version \
         lays out its spec differently. Rewrite the {kind} as {rewrite} first, then migrate.",
        explorer_data::served::no_matches(kind, api)
    )
}

/// Why a JAXJob or XGBoostJob is refused for a release before its framework's runtime and
/// mlPolicy: a generated runtime cannot stand in for the policy, which is what gives every node
/// the coordinator's address and its rank, so the nodes would never form one job.
fn not_yet(f: &mut fmt::Formatter<'_>, kind: V1Kind, release: &str) -> fmt::Result {
    let framework = framework_of(kind);
    let since = RELEASES.iter().find_map(|r| Some((r, r.builtin_for(framework)?)));
    let arrived = since
        .map_or(String::new(), |(r, rt)| format!(": both arrived in {} ({}, mlPolicy.{})", r.line, rt.name, rt.policy));
    let retarget = since
        .map_or_else(|| "Keep".to_string(), |(r, _)| format!("Migrate with --target {} or newer, or keep", r.line));
    write!(
        f,
        "Trainer {} has no {} runtime or mlPolicy{arrived}. A generated runtime cannot stand in for the \
         mlPolicy, which gives every node the coordinator's address and its rank. {retarget} this {} on \
         Training Operator v1.9.",
        release,
        framework.label(),
        kind.kind()
    )
}

/// Why a document is not a V1 job the migrator can read.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Invalid {
    /// Not a mapping.
    NotAMapping,
    /// `apiVersion` or `kind` missing or not a string.
    NoKind,
    /// A V1 kind written in another case (`PytorchJob`): the API server serves no such kind.
    MisspeltKind {
        /// The `apiVersion` as written.
        api_version: String,
        /// The `kind` as written.
        kind: String,
        /// `metadata.name` as written ("" when absent).
        name: String,
        /// The kind it spells.
        meant: &'static str,
    },
    /// A job the converter cannot read: its kind and name as written, and why.
    Job {
        /// The `kind` as written.
        kind: String,
        /// `metadata.name` as written ("" when absent).
        name: String,
        /// Why.
        error: Error,
    },
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::NotAMapping => f.write_str("not a Kubernetes object: expected a mapping with apiVersion and kind"),
            Invalid::NoKind => f.write_str("not a Kubernetes object: apiVersion and kind must be strings"),
            Invalid::MisspeltKind { api_version, kind, name, meant } => write!(
                f,
                "{kind}{}{name}: {}",
                if name.is_empty() { "" } else { " " },
                explorer_data::served::misspelt_kind_error(kind, api_version, meant)
            ),
            // A job without a name is said by its kind alone.
            Invalid::Job { kind, name, error } if name.is_empty() => write!(f, "{kind}: {error}"),
            Invalid::Job { kind, name, error } => write!(f, "{kind} {name}: {error}"),
        }
    }
}

impl std::error::Error for Invalid {}

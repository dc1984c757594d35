//! Why one V1 job cannot be converted: printed after `<kind> <name>: ` as the document's
//! `Invalid` outcome, in the words the converter has always used.

use super::numbers::INT32_MAX;
use crate::k8s::field::Rejection;
use serde_json::Value;
use std::fmt;

/// Why the converter cannot read a V1 job (printed after `<kind> <name>: `).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Error {
    /// A field the job must have (`metadata.name is missing`), and what needs it.
    Missing {
        /// The field.
        path: String,
        /// What needs it.
        needed_by: Option<String>,
    },
    /// `spec` is missing or no mapping.
    NoSpec,
    /// A value the typed model refuses, as the API server words it.
    Field(Rejection),
    /// A replica's pod template without containers (the path of its `containers`).
    NoContainers(String),
    /// A count outside `min..=INT32_MAX` (the CRDs' int32).
    OutOfRange {
        /// The field.
        path: String,
        /// Its value.
        value: u64,
        /// The least it may be.
        min: u64,
    },
    /// A count that is no whole number.
    NotACount {
        /// The field.
        path: String,
        /// Its value as written.
        value: Value,
        /// The least it may be.
        min: u64,
    },
    /// An MPIJob whose Worker has no `replicas` (the operators default it to 0).
    NoWorkerCount(String),
    /// An MPIJob with another launcher count than one.
    Launchers {
        /// The launcher's replica spec.
        path: String,
        /// Its `replicas`.
        count: u32,
    },
    /// Every replica type has `replicas: 0` (the path of the replica specs).
    NoPods(String),
    /// More pods in all than any cluster runs (`explain::MAX_PODS`), any kind: explain and
    /// validate refuse the job alike, and their hostnames, written into every pod's TF_CONFIG,
    /// would take gigabytes.
    TooManyPods(u64),
    /// A single-template kind with neither Master nor Worker.
    NeitherMasterNorWorker(String),
    /// Counts or quantities that are unrendered template variables (their paths).
    Unrendered(Vec<String>),
    /// The pod settings of a replicated job that no pod spec holds (serde_json's complaint).
    PodSpec {
        /// The replicated job.
        job: String,
        /// serde_json's complaint.
        error: String,
    },
    /// Pod metadata at `path` that no ObjectMeta holds.
    PodMetadata {
        /// Where the metadata is.
        path: String,
        /// serde_json's complaint.
        error: String,
    },
    /// A job its V1 operator does not run (its webhook refuses it, or the API server what the
    /// operator creates for it), found by `explain::v1::refused_replica_type`.
    V1Refused(crate::explain::v1::NotRun),
    /// The converter's own invariant broken (never expected): what was missing.
    Internal(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Missing { path, needed_by: None } => write!(f, "{path} is missing"),
            Error::Missing { path, needed_by: Some(why) } => write!(f, "{path} is missing: {why}"),
            Error::NoSpec => f.write_str("spec is missing or not a mapping"),
            Error::Field(rejection) => f.write_str(&crate::field_error::said(rejection)),
            Error::NoContainers(path) => write!(f, "{path} is empty"),
            Error::OutOfRange { path, value, min } => write!(
                f,
                "{path} is {value}, out of range: it must be between {min} and {INT32_MAX} (int32 in the CRD)"
            ),
            Error::NotACount { path, value, min } => {
                write!(f, "{path} is {value}: it must be an integer between {min} and {INT32_MAX} (int32 in the CRD)")
            }
            Error::NoWorkerCount(path) => write!(
                f,
                "{path}.replicas is absent, and the MPI operators default it to 0: the V1 launcher ran with \
                 no workers, while a TrainJob runs at least one node. Set the number of workers you meant, then migrate"
            ),
            Error::Launchers { path, count } => {
                write!(f, "{path}.replicas is {count}: an MPIJob has exactly one launcher")
            }
            Error::NoPods(path) => write!(f, "{path}: every replica type has replicas: 0, so the V1 job ran no pods"),
            Error::TooManyPods(pods) => {
                f.write_str(&crate::explain::too_many_pods(*pods, "migrate does not convert them"))
            }
            Error::NeitherMasterNorWorker(path) => write!(f, "{path} has neither Master nor Worker"),
            Error::Unrendered(paths) => {
                match paths.as_slice() {
                    [one] => write!(f, "{one} is")?,
                    more => write!(f, "{} are each", more.join(", "))?,
                }
                f.write_str(
                    " an unrendered template variable: this file is a template. Render it first (envsubst, \
                     helm template, or the repository's own deploy script), then migrate the result",
                )
            }
            Error::PodSpec { job, error } => {
                write!(f, "the pod settings of {job} do not form a pod spec the runtime can hold: {error}")
            }
            Error::PodMetadata { path, error } => {
                write!(f, "{path} does not form pod metadata the runtime can hold: {error}")
            }
            Error::V1Refused(reason) => write!(f, "{reason}"),
            Error::Internal(what) => write!(f, "internal error: {what}"),
        }
    }
}

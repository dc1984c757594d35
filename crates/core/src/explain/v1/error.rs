//! Why a V1 job was not run: what the reader, the operator's webhook or the operator itself
//! refuses. Each error prints the sentence `explain` has always printed, and is the typed field
//! error (`Rejection`) `check` reports, so no caller reads the sentence back.

use super::super::{ErrorType, FieldPath, Rejection};
use explorer_data::catalog::V1Kind;
use explorer_data::served;
use std::fmt;

/// Why a V1 job's pods could not be worked out.
#[non_exhaustive]
#[derive(Clone, Debug)]
pub enum Error {
    /// The text is no input at all (explain::read's door or a document that is no YAML).
    Input(super::super::read::Error),
    /// More than one V1 job in the input: explain reads one at a time.
    SeveralJobs(usize),
    /// Neither a Training Operator nor an MPI Operator kind.
    NotAV1Job {
        /// The `apiVersion` as written.
        api: String,
        /// The `kind` as written.
        kind: String,
    },
    /// A `kubeflow.org` kind at a version neither V1 operator serves (the REST mapper's answer).
    NoKindMatch {
        /// The `apiVersion` as written.
        api: String,
        /// The `kind` as written.
        kind: String,
    },
    /// A kind the Training Operator's group serves that it does not run.
    NotOperatorJob {
        /// The `apiVersion` as written.
        api: String,
        /// The `kind` as written.
        kind: String,
    },
    /// A field the job must have (`metadata.name is missing`); `or_not_a_mapping` for one that
    /// must be a mapping too.
    Missing {
        /// The field.
        path: FieldPath,
        /// Whether it must be a mapping too.
        or_not_a_mapping: bool,
    },
    /// A replica spec whose pod template has no container (the path of its `containers`).
    NoContainers(FieldPath),
    /// A value the schema refuses (of a wrong type, out of range, required and missing).
    Field(Rejection),
    /// More pods than any cluster runs (`explain::MAX_PODS`).
    TooManyPods(u64),
    /// The Training Operator's webhook refuses the job's replica count at `path` (`must be 1`).
    Webhook {
        /// The replica count's field.
        path: FieldPath,
        /// The webhook's rule (`must be 1`).
        rule: &'static str,
        /// The job's kind.
        kind: V1Kind,
    },
    /// The API server refuses the pods the controller names after the replica type at `path`
    /// (`errors`: apimachinery's reasons for the name): the job is admitted, and none of its
    /// pods runs.
    PodName {
        /// The replica type's field.
        path: FieldPath,
        /// The job's kind.
        kind: V1Kind,
        /// apimachinery's reasons the pods' names are refused.
        errors: Vec<String>,
    },
    /// The API server refuses the `replica-type` label the controller gives the pods of the
    /// replica type at `path` (`errors`: apimachinery's reasons for the label value): the job is
    /// admitted, and none of its pods runs.
    PodLabel {
        /// The replica type's field.
        path: FieldPath,
        /// The job's kind.
        kind: V1Kind,
        /// The label's value (the type in lower case).
        value: String,
        /// apimachinery's reasons the value is refused.
        errors: Vec<String>,
    },
    /// Every pod of the replica type at `path` carries a `variable` listing the job's pods, at
    /// least `bytes` long: more than etcd stores in one request
    /// (`explain::ETCD_REQUEST_LIMIT`), so the API server refuses each pod the controller creates.
    /// The job is admitted, and none of these pods runs.
    PodTooLarge {
        /// The replica type's field.
        path: FieldPath,
        /// The job's kind.
        kind: V1Kind,
        /// The variable and what it lists (`TF_CONFIG listing every pod's address`).
        variable: &'static str,
        /// The fewest bytes the variable takes.
        bytes: u64,
    },
    /// The ConfigMap an MPIJob's `operator` creates before any pod, its hostfile listing every
    /// worker, holds `bytes` of data: more than the API server takes in one ConfigMap
    /// (`explain::CONFIGMAP_DATA_LIMIT`). Creating it fails on every sync, which stops there:
    /// the job is admitted, and none of its pods runs.
    HostfileTooLarge {
        /// The operator that writes it (Training Operator v1.9 or mpi-operator).
        operator: served::V1Operator,
        /// The bytes of data the ConfigMap holds at creation.
        bytes: u64,
    },
    /// Two or more spellings of one replica type, none its own (`worker`, `WORKER`): which spec
    /// v1.9's defaulting runs as the type is Go's random map order. The job is admitted.
    AmbiguousReplicaType {
        /// The replica specs' field.
        path: FieldPath,
        /// The job's kind.
        kind: V1Kind,
        /// The type and its spellings.
        ambiguous: super::defaults::Ambiguous,
    },
    /// The operator fails: a replica has no container with the port the operator reads
    /// (`upstream`: the operator's own words for it, where it gives some).
    NoPort {
        /// The replica type.
        replica: String,
        /// The container the operator reads the port from.
        container: &'static str,
        /// The port's name.
        port: &'static str,
        /// The operator's own words for the failure, where it gives some.
        upstream: Option<&'static str>,
    },
    /// The operator fails: an elastic PyTorchJob without `rdzvPort` needs the Worker's port.
    NoRendezvousPort,
}

impl Error {
    /// The field error it is, as `check` reports it: a missing field is `Required`; a value the
    /// schema refuses keeps its type; a sentence about a field names that field; the others
    /// are sentences about the object.
    pub fn rejection(&self) -> Rejection {
        match self {
            Error::Missing { path, .. } => Rejection::new(ErrorType::Required, path.clone(), ""),
            Error::Field(rejection) => rejection.clone(),
            Error::NoContainers(path) => Rejection::new(ErrorType::Message, path.clone(), "is empty"),
            Error::Webhook { path, rule, kind } => {
                Rejection::new(ErrorType::Message, path.clone(), format!("{rule}: {}", webhook_refuses(*kind)))
            }
            Error::PodName { path, kind, errors } => {
                Rejection::new(ErrorType::Message, path.clone(), pods_refused(*kind, errors))
            }
            Error::PodLabel { path, kind, value, errors } => {
                Rejection::new(ErrorType::Message, path.clone(), label_refused(*kind, value, errors))
            }
            Error::AmbiguousReplicaType { path, kind, ambiguous } => {
                Rejection::new(ErrorType::Message, path.clone(), ambiguous_type(*kind, ambiguous))
            }
            Error::PodTooLarge { path, kind, variable, bytes } => {
                Rejection::new(ErrorType::Message, path.clone(), pod_too_large(*kind, variable, *bytes))
            }
            Error::HostfileTooLarge { operator, bytes } => {
                Rejection::new(ErrorType::Message, hostfile_path(), hostfile_too_large(*operator, *bytes))
            }
            Error::NotAV1Job { api, kind } => {
                Rejection::new(ErrorType::Message, FieldPath::new("apiVersion"), not_a_v1_job(api, kind))
            }
            Error::NoKindMatch { api, kind } => {
                Rejection::new(ErrorType::NoKindMatch, FieldPath::new("apiVersion"), served::no_matches(kind, api))
            }
            Error::Input(_)
            | Error::SeveralJobs(_)
            | Error::NotOperatorJob { .. }
            | Error::TooManyPods(_)
            | Error::NoPort { .. }
            | Error::NoRendezvousPort => Rejection::message("", self.to_string()),
        }
    }
}

/// What follows `apiVersion` in [`Error::NotAV1Job`]'s sentence.
fn not_a_v1_job(api: &str, kind: &str) -> String {
    format!(
        "{api:?} kind {kind:?}: explain reads a kubeflow.org/v1 {}, or a kubeflow.org/v2beta1 MPIJob",
        V1Kind::all_in_words()
    )
}

/// What follows the replica type's path in [`Error::PodName`]'s sentence.
fn pods_refused(kind: V1Kind, errors: &[String]) -> String {
    format!(
        "the {} controller names this replica type's pods <job>-<type in lower case>-<index> \
         (training-operator v1.9.0:pkg/core/utils.go:30-33), and the API server refuses that pod name \
         (metadata.name: {}): the job is admitted, but no pod of it runs",
        kind.kind(),
        errors.join("; ")
    )
}

/// What follows the replica type's path in [`Error::PodLabel`]'s sentence.
fn label_refused(kind: V1Kind, value: &str, errors: &[String]) -> String {
    format!(
        "the {} controller labels this replica type's pods training.kubeflow.org/replica-type: <type in lower case> \
         (training-operator v1.9.0:pkg/controller.v1/common/pod.go:277,401-404), and the API server refuses that \
         label (metadata.labels: Invalid value: {value:?}: {}): the job is admitted, but no pod of it runs",
        kind.kind(),
        errors.join("; ")
    )
}

/// What follows the replica type's path in [`Error::PodTooLarge`]'s sentence.
pub(crate) fn pod_too_large(kind: V1Kind, variable: &str, bytes: u64) -> String {
    format!(
        "the {} controller gives each of this replica type's pods a {variable}, at least {bytes} bytes, and etcd refuses a request over {} bytes by default (--max-request-bytes; \
         etcd v3.6.14:server/embed/config.go:67, server/etcdserver/v3_server.go:863-865): the API server cannot store \
         such a pod, so every attempt to create one fails (training-operator \
         v1.9.0:pkg/controller.v1/control/pod_control.go:152-154): the job is admitted, but no pod of this type runs",
        kind.kind(),
        super::super::ETCD_REQUEST_LIMIT
    )
}

/// The field [`Error::HostfileTooLarge`] is said of: the Workers, whose count sizes the hostfile.
fn hostfile_path() -> FieldPath {
    FieldPath::new("spec").child("mpiReplicaSpecs").child("Worker")
}

/// What follows the Workers' path in [`Error::HostfileTooLarge`]'s sentence: what the operator
/// has created when the ConfigMap fails, and that it retries.
pub(crate) fn hostfile_too_large(operator: served::V1Operator, bytes: u64) -> String {
    let (made, fails) = if operator == served::MPI_OPERATOR {
        (
            "after the job's headless Service and before its SSH Secret, worker pods and launcher Job",
            "mpi-operator v0.6.0:pkg/controller/mpi_job_controller.go:635-642,844-846, requeued with backoff at :529-531",
        )
    } else {
        (
            "after the launcher's ServiceAccount and before its Role, worker pods and launcher pod",
            "training-operator v1.9.0:pkg/controller.v1/mpi/mpijob_controller.go:371-378,695-705, requeued with backoff as Reconcile returns the error at :171-175",
        )
    };
    format!(
        "{} creates the ConfigMap <job>-config, whose hostfile lists every worker, {made}; its data is {bytes} bytes, \
         and the API server refuses a ConfigMap holding more than {} bytes (ValidateConfigMap): every sync fails \
         there ({fails}), so the job is admitted, but no pod of it runs",
        operator.name,
        super::super::CONFIGMAP_DATA_LIMIT
    )
}

/// Why the Service `name` of a replica is refused, and what that does to the job.
pub(crate) fn service_refused(kind: V1Kind, name: &str, errors: &[String]) -> String {
    format!(
        "the {} controller names each pod's headless Service <job>-<type in lower case>-<index> \
         (training-operator v1.9.0:pkg/controller.v1/common/service.go:243), and the API server refuses {name:?} \
         (metadata.name: {}): the pods are created, but every sync stops at that Service before it updates the \
         job's status (common/job.go:345-354), so the job's status never reaches Running or Succeeded, and no pod \
         reaches {name} by its name",
        kind.kind(),
        errors.join("; ")
    )
}

/// What follows the replica specs' path in [`Error::AmbiguousReplicaType`]'s sentence.
fn ambiguous_type(kind: V1Kind, ambiguous: &super::defaults::Ambiguous) -> String {
    let spellings: Vec<String> = ambiguous.spellings.iter().map(|s| format!("{s:?}")).collect();
    format!(
        "{} are each the replica type {} in another case: the {} controller's defaulting renames the first of them \
         it meets in Go's map order, which is random, to {} and leaves the others as written \
         (training-operator v1.9.0:pkg/apis/kubeflow.org/v1/defaulting_utils.go:50-59), so which of them runs as \
         the {} is chance: write one of them, as {}",
        spellings.join(" and "),
        ambiguous.rtype,
        kind.kind(),
        ambiguous.rtype,
        ambiguous.rtype,
        ambiguous.rtype
    )
}

fn webhook_refuses(kind: V1Kind) -> String {
    format!("the Training Operator's webhook refuses the {}", kind.kind())
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(error) => write!(f, "{error}"),
            Error::SeveralJobs(n) => write!(f, "{n} V1 jobs in the input: explain reads one at a time"),
            Error::NotAV1Job { api, kind } => write!(f, "apiVersion {}", not_a_v1_job(api, kind)),
            Error::NoKindMatch { api, kind } => f.write_str(&served::no_matches(kind, api)),
            Error::NotOperatorJob { api, kind } => write!(f, "{api} {kind} is not a Training Operator job"),
            Error::Missing { path, or_not_a_mapping } => {
                write!(f, "{path} is missing{}", if *or_not_a_mapping { " or not a mapping" } else { "" })
            }
            Error::NoContainers(path) => write!(f, "{path} is empty"),
            Error::Field(rejection) => f.write_str(&crate::field_error::said(rejection)),
            Error::TooManyPods(pods) => f.write_str(&super::super::too_many_pods(*pods, "explain does not model them")),
            Error::Webhook { path, rule, kind } => write!(f, "{path} {rule}: {}", webhook_refuses(*kind)),
            Error::PodName { path, kind, errors } => write!(f, "{path}: {}", pods_refused(*kind, errors)),
            Error::PodLabel { path, kind, value, errors } => write!(f, "{path}: {}", label_refused(*kind, value, errors)),
            Error::PodTooLarge { path, kind, variable, bytes } => {
                write!(f, "{path}: {}", pod_too_large(*kind, variable, *bytes))
            }
            Error::HostfileTooLarge { operator, bytes } => {
                write!(f, "{}: {}", hostfile_path(), hostfile_too_large(*operator, *bytes))
            }
            Error::AmbiguousReplicaType { path, kind, ambiguous } => {
                write!(f, "{path}: {}", ambiguous_type(*kind, ambiguous))
            }
            Error::NoPort { replica, container, port, upstream } => {
                write!(f, "the {replica} has no {container} container with the {port} port: the operator fails")?;
                match upstream {
                    Some(words) => write!(f, " ({words})"),
                    None => Ok(()),
                }
            }
            Error::NoRendezvousPort => f.write_str(
                "elasticPolicy without rdzvPort needs the Worker's pytorchjob-port: the operator fails (port not found)",
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Why a V1 operator runs no pod of a job as written: its webhook refuses the job, or admits it
/// and the operator's own error follows. `migrate` refuses such a job with it
/// (`refused_replica_type`), as its operator never ran it.
#[non_exhaustive]
#[derive(Clone, Debug)]
pub enum NotRun {
    /// The Training Operator's webhook refuses the job: every error it gives (a replica type it
    /// does not take alone, else its rules on the pods asked for).
    Webhook {
        /// The job's kind.
        kind: V1Kind,
        /// The webhook's errors, in its order.
        refusals: Vec<Rejection>,
    },
    /// The job is admitted, and what the operator makes of it fails: two spellings of one replica
    /// type, pods whose name or label the API server refuses, pods too large to store, a hostfile
    /// ConfigMap too large (the error `explain` gives the job).
    Operator(Error),
}

impl fmt::Display for NotRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotRun::Webhook { kind, refusals } => {
                for (i, refusal) in refusals.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    f.write_str(&crate::field_error::said(refusal))?;
                }
                write!(f, ": {}", webhook_refuses(*kind))
            }
            NotRun::Operator(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for NotRun {}

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
    NotAV1Job { api: String, kind: String },
    /// A `kubeflow.org` kind at a version neither V1 operator serves (the REST mapper's answer).
    NoKindMatch { api: String, kind: String },
    /// A kind the Training Operator's group serves that it does not run.
    NotOperatorJob { api: String, kind: String },
    /// A field the job must have (`metadata.name is missing`); `or_not_a_mapping` for one that
    /// must be a mapping too.
    Missing { path: FieldPath, or_not_a_mapping: bool },
    /// A replica spec whose pod template has no container (the path of its `containers`).
    NoContainers(FieldPath),
    /// A value the schema refuses (of a wrong type, out of range, required and missing).
    Field(Rejection),
    /// More pods than any cluster runs (`explain::MAX_PODS`).
    TooManyPods(u64),
    /// The Training Operator's webhook refuses the job's replica count at `path` (`must be 1`).
    Webhook { path: FieldPath, rule: &'static str, kind: V1Kind },
    /// The API server refuses the pods the controller names after the replica type at `path`
    /// (`errors`: apimachinery's reasons for the name): the job is admitted, and none of its
    /// pods runs.
    PodName { path: FieldPath, kind: V1Kind, errors: Vec<String> },
    /// The operator fails: a replica has no container with the port the operator reads
    /// (`upstream`: the operator's own words for it, where it gives some).
    NoPort { replica: String, container: &'static str, port: &'static str, upstream: Option<&'static str> },
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
pub(crate) fn pods_refused(kind: V1Kind, errors: &[String]) -> String {
    format!(
        "the {} controller names this replica type's pods <job>-<type in lower case>-<index> \
         (training-operator v1.9.0:pkg/core/utils.go:30-33), and the API server refuses that pod name \
         (metadata.name: {}): the job is admitted, but no pod of it runs",
        kind.kind(),
        errors.join("; ")
    )
}

pub(super) fn webhook_refuses(kind: V1Kind) -> String {
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
            Error::TooManyPods(pods) => f.write_str(&super::super::too_many_pods(*pods)),
            Error::Webhook { path, rule, kind } => write!(f, "{path} {rule}: {}", webhook_refuses(*kind)),
            Error::PodName { path, kind, errors } => write!(f, "{path}: {}", pods_refused(*kind, errors)),
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

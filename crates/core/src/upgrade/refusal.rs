//! Why a document is not rewritten: refused (a Trainer manifest the upgrade cannot rewrite for
//! the newer release) or invalid (not a Trainer object). Each prints the sentence the upgrade has
//! always printed.

use super::rewrite;
use crate::release_changes::ApiChange;
use std::fmt;

/// Why the upgrade will not rewrite a document.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Refusal {
    /// A Trainer object whose `spec` is not a map.
    SpecNotAMap,
    /// A field the release it is said to be written for (`--from`) does not have.
    NotOfRelease(rewrite::Refusal),
    /// A change of the releases crossed cannot rewrite it: why, and the change.
    Change {
        /// Why.
        refusal: rewrite::Refusal,
        /// The change (its source and reason follow the refusal).
        change: &'static ApiChange,
    },
    /// A Training Operator (V1) object.
    V1Object,
    /// A Trainer kind at a version the release's CRDs do not serve.
    NotServed {
        /// The `kind` as written.
        kind: String,
        /// The `apiVersion` as written.
        api_version: String,
    },
    /// A `trainer.kubeflow.org` object that is no TrainJob or runtime.
    NotAJobOrRuntime {
        /// The `apiVersion` as written.
        api_version: String,
        /// The `kind` as written (`object` when absent).
        kind: String,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::SpecNotAMap => f.write_str("spec: expected a map"),
            Refusal::NotOfRelease(refusal) => fmt::Display::fmt(refusal, f),
            Refusal::Change { refusal, change } => write!(f, "{refusal} ({}: {})", change.source(), change.reason),
            Refusal::V1Object => f.write_str(
                "a Training Operator (V1) object, not a Trainer V2 one: convert it with `trainer-explorer migrate`",
            ),
            Refusal::NotServed { kind, api_version } => {
                f.write_str(&explorer_data::served::no_matches(kind, api_version))
            }
            Refusal::NotAJobOrRuntime { api_version, kind } => {
                write!(f, "{api_version} {kind} is not a TrainJob or a runtime")
            }
        }
    }
}

impl std::error::Error for Refusal {}

/// Why a document is not something the upgrade reads.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Invalid {
    /// Not a map.
    NotAnObject,
    /// Not a Trainer object (nor one the upgrade passes through).
    NotTrainer,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::NotAnObject => f.write_str("not a Kubernetes object (expected a map with apiVersion and kind)"),
            Invalid::NotTrainer => f.write_str("not a Trainer object"),
        }
    }
}

impl std::error::Error for Invalid {}

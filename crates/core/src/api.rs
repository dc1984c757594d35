//! The core for a Rust caller that is not the widget or the CLI (an mdBook preprocessor, a docs
//! build): five functions, each with a typed [`Error`], over the modules that do the work.
//!
//! - [`release`]: a Trainer release by its line (`v2.1`) or tag (`v2.1.0`);
//! - [`render_selection`]: the V1 and V2 panes the widget shows for a query (`framework=jax&nodes=2`);
//! - [`migrate`]: V1 jobs (every kind of `explorer_data::catalog::V1Kind::ALL`) to Trainer V2 objects;
//! - [`upgrade`]: Trainer V2 manifests written for one release, rewritten for a newer one;
//! - [`explain`]: what the Trainer controller creates for a TrainJob and its runtime.
//!
//! ```
//! use explorer_core::api;
//!
//! let view = api::render_selection("framework=jax&nodes=2").unwrap();
//! let trainjob = &view.v2.snippets[0].code;
//! assert!(trainjob.contains("kind: TrainJob") && trainjob.contains("numNodes: 2"));
//! ```

use crate::explain::Explanation;
use crate::migrate::Migration;
use crate::snippets::View;
use crate::upgrade::Upgrade;
use explorer_data::releases::Release;

/// Why a call could not answer. Problems with one document of a stream are not errors: they are
/// that document's outcome in the [`Migration`] or [`Upgrade`]. Each variant holds the typed
/// error of the module that refused; its text (`Display`) is that module's.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Error {
    /// A release that is not in the release data: the name asked for (the text lists the known
    /// lines).
    UnknownRelease(String),
    /// A selection query with an unknown key or a value out of range.
    Query(crate::query::QueryIssue),
    /// An upgrade to an older release (the two lines, `v2.3` and `v2.1`): the manifest should be
    /// written for that release instead.
    Downgrade {
        /// The line the manifest is written for.
        from: &'static str,
        /// The older line asked for.
        to: &'static str,
    },
    /// V1 input that cannot be read as a whole (empty, too large, binary, too deep, ...).
    Migrate(crate::migrate::Error),
    /// V2 input that cannot be upgraded as a whole: unreadable, or without a Trainer object.
    Upgrade(crate::upgrade::Error),
    /// Input explain cannot read: unreadable, not YAML, or without one TrainJob it can judge.
    Explain(crate::explain::read::Error),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::UnknownRelease(name) => {
                std::fmt::Display::fmt(&crate::upgrade::Error::UnknownRelease(name.clone()), f)
            }
            Error::Query(issue) => std::fmt::Display::fmt(issue, f),
            Error::Downgrade { from, to } => {
                write!(f, "{from} → {to} is a downgrade: upgrade only rewrites for a newer release")
            }
            Error::Migrate(e) => std::fmt::Display::fmt(e, f),
            Error::Upgrade(e) => std::fmt::Display::fmt(e, f),
            Error::Explain(e) => std::fmt::Display::fmt(e, f),
        }
    }
}

impl std::error::Error for Error {}

/// A release by its line or the tag that serves it.
///
/// ```
/// use explorer_core::api::{self, Error};
///
/// assert_eq!(api::release("v2.1").unwrap().tag, "v2.1.0");
/// assert_eq!(api::release("v2.1.0").unwrap().line, "v2.1");
/// assert!(matches!(api::release("v1.9"), Err(Error::UnknownRelease(_))));
/// ```
pub fn release(name: &str) -> Result<Release, Error> {
    crate::upgrade::parse_release(name).copied().map_err(|_| Error::UnknownRelease(name.to_string()))
}

/// The panes the widget shows for a query in its URL syntax (`persona`, `framework`, `release`,
/// `nodes`, ...). Unknown keys and bad values are errors, not defaults.
///
/// ```
/// use explorer_core::api::{self, Error};
///
/// let view = api::render_selection("persona=data-scientist&framework=pytorch&release=v2.1").unwrap();
/// assert!(view.v2.heading.ends_with("v2.1.0"));
/// assert!(matches!(api::render_selection("framework=cobol"), Err(Error::Query(_))));
/// ```
pub fn render_selection(query: &str) -> Result<View, Error> {
    let selection = crate::query::parse_strict(query).map_err(Error::Query)?;
    Ok(crate::snippets::render(&selection))
}

/// Converts a stream of V1 jobs into objects for `target`. Each document's outcome (converted,
/// converted with losses, refused) is in the answer; [`Migration::output_yaml`] is the stream to apply.
///
/// ```
/// use explorer_core::api;
///
/// let v1 = "apiVersion: kubeflow.org/v1
/// kind: PyTorchJob
/// metadata: {name: mnist}
/// spec:
///   pytorchReplicaSpecs:
///     Worker:
///       replicas: 2
///       template: {spec: {containers: [{name: pytorch, image: 'pytorch/pytorch:2.5.1'}]}}
/// ";
/// let migration = api::migrate(v1, api::release("v2.3").unwrap()).unwrap();
/// let yaml = migration.output_yaml();
/// assert!(yaml.contains("kind: TrainJob") && yaml.contains("numNodes: 2"), "{yaml}");
/// assert!(api::migrate("", api::release("v2.3").unwrap()).is_err());
/// ```
pub fn migrate(v1_yaml: &str, target: Release) -> Result<Migration, Error> {
    crate::migrate::migrate_to(v1_yaml, target).map_err(Error::Migrate)
}

/// Rewrites Trainer V2 manifests written for `from` so that `to` accepts them.
///
/// ```
/// use explorer_core::api::{self, Error};
///
/// let v2_1 = "apiVersion: trainer.kubeflow.org/v1alpha1
/// kind: TrainJob
/// metadata: {name: mnist}
/// spec:
///   runtimeRef: {name: torch-distributed}
///   labels: {team: vision}
/// ";
/// let (from, to) = (api::release("v2.1").unwrap(), api::release("v2.3").unwrap());
/// let upgraded = api::upgrade(v2_1, from, to).unwrap().output_yaml();
/// assert!(upgraded.contains("runtimePatches") && !upgraded.contains("\n  labels:"), "{upgraded}");
/// assert!(matches!(api::upgrade(v2_1, to, from), Err(Error::Downgrade { .. })));
/// ```
pub fn upgrade(v2_yaml: &str, from: Release, to: Release) -> Result<Upgrade, Error> {
    if crate::upgrade::refuse_downgrade(from, to).is_err() {
        return Err(Error::Downgrade { from: from.line, to: to.line });
    }
    crate::upgrade::upgrade(v2_yaml, from, to).map_err(Error::Upgrade)
}

/// What the Trainer controller of `release` creates for a TrainJob: the JobSet, the pods with
/// their environment, and the other objects. The stream holds the TrainJob and, unless it uses a
/// runtime the release installs, its runtime. A TrainJob the release's webhooks refuse is an
/// answer too: [`Explanation::rejected`] says why.
///
/// ```
/// use explorer_core::api;
///
/// let job = "apiVersion: trainer.kubeflow.org/v1alpha1
/// kind: TrainJob
/// metadata: {name: mnist}
/// spec:
///   runtimeRef: {name: torch-distributed}
///   trainer: {numNodes: 3}
/// ";
/// let explanation = api::explain(job, api::release("v2.3").unwrap()).unwrap();
/// assert!(explanation.rejected.is_empty());
/// assert_eq!(explanation.jobset.unwrap().replicated_jobs[0].parallelism, 3);
/// assert!(api::explain("kind: [", api::release("v2.3").unwrap()).is_err());
/// ```
pub fn explain(v2_yaml: &str, release: Release) -> Result<Explanation, Error> {
    crate::explain::read::explain_text(v2_yaml, release).map_err(Error::Explain)
}

//! The kinds each API server serves, and at which group/version: a cluster answers any other
//! `apiVersion`/`kind` pair with the REST mapper's `no matches for kind "K" in version "G/V"`
//! (k8s.io/apimachinery pkg/api/meta/errors.go, `NoKindMatchError.Error`), before any schema,
//! webhook or controller sees the object.
//!
//! Read from each release's CRDs (`spec.group`, `spec.names.kind`, the `spec.versions` with
//! `served: true`): `v2-crds/<tag>/*.yaml` for Trainer, `v1-crds/*.yaml` for Training Operator
//! v1.9, `mpi-operator-v2beta1/kubeflow.org_mpijobs.yaml` for mpi-operator. crates/data/tests/it/release_data.rs
//! reads those files and fails when this table says anything else.

/// One kind an API server serves, at one group/version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ServedKind {
    /// `group/version`, as an object's `apiVersion` writes it.
    pub api_version: &'static str,
    /// The kind, as an object's `kind` writes it.
    pub kind: &'static str,
}

const fn served(api_version: &'static str, kind: &'static str) -> ServedKind {
    ServedKind { api_version, kind }
}

/// What every Trainer V2 release serves (v2.0.1 to v2.3.0: the three CRDs, `v1alpha1` only).
pub const TRAINER_V1ALPHA1: &[ServedKind] = &[
    served("trainer.kubeflow.org/v1alpha1", "TrainJob"),
    served("trainer.kubeflow.org/v1alpha1", "TrainingRuntime"),
    served("trainer.kubeflow.org/v1alpha1", "ClusterTrainingRuntime"),
];

/// A V1 operator: the name `explain` gives it and the kinds its CRDs serve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct V1Operator {
    /// The operator's name, as `explain` and `validate` print it.
    pub name: &'static str,
    /// What its CRDs serve.
    pub served: &'static [ServedKind],
}

/// Training Operator v1.9 (kubeflow-training 1.9.4): manifests/base/crds at v1.9.4.
pub const TRAINING_OPERATOR: V1Operator = V1Operator {
    name: "training-operator v1.9",
    served: &[
        served("kubeflow.org/v1", "JAXJob"),
        served("kubeflow.org/v1", "MPIJob"),
        served("kubeflow.org/v1", "PaddleJob"),
        served("kubeflow.org/v1", "PyTorchJob"),
        served("kubeflow.org/v1", "TFJob"),
        served("kubeflow.org/v1", "XGBoostJob"),
    ],
};

/// The MPI Operator: its MPIJob CRD serves `v2beta1` only (v0.8.0's
/// manifests/base/kubeflow.org_mpijobs.yaml, the copy in the reference). The rules `explain`
/// follows are v0.6.0's, whose CRD serves the same.
pub const MPI_OPERATOR: V1Operator =
    V1Operator { name: "mpi-operator v0.6", served: &[served("kubeflow.org/v2beta1", "MPIJob")] };

/// Both V1 operators. One cluster cannot install both MPIJob CRDs (one name,
/// `mpijobs.kubeflow.org`); each serves its own version.
pub const V1_OPERATORS: [V1Operator; 2] = [TRAINING_OPERATOR, MPI_OPERATOR];

/// Whether `kinds` has `kind` at `api_version`.
pub fn serves(kinds: &[ServedKind], api_version: &str, kind: &str) -> bool {
    kinds.iter().any(|s| s.api_version == api_version && s.kind == kind)
}

/// The V1 operator that serves `kind` at `api_version`.
pub fn v1_operator(api_version: &str, kind: &str) -> Option<V1Operator> {
    V1_OPERATORS.into_iter().find(|op| serves(op.served, api_version, kind))
}

/// The REST mapper's error for a pair no installed CRD serves (`NoKindMatchError`, printed by
/// `kubectl apply` as `resource mapping not found ...: no matches for kind ...`).
pub fn no_matches(kind: &str, api_version: &str) -> String {
    format!("no matches for kind {kind:?} in version {api_version:?}")
}

/// The kind `kind` spells in another case (`PytorchJob`, `mpijob`, `Trainjob`) among those the
/// Trainer releases and the V1 operators serve in `api_version`'s group, if it is one. The REST
/// mapper matches a kind exactly, so such a document meets [`no_matches`] on every cluster; the
/// group's other kinds (a Notebook, a Profile) are not ours to judge.
pub fn misspelt_kind(api_version: &str, kind: &str) -> Option<&'static str> {
    let ours = TRAINER_V1ALPHA1.iter().chain(V1_OPERATORS.iter().flat_map(|op| op.served));
    ours.filter(|s| group_of(s.api_version) == group_of(api_version))
        .map(|s| s.kind)
        .find(|served| *served != kind && served.eq_ignore_ascii_case(kind))
}

/// The group of an `apiVersion` (`kubeflow.org` of `kubeflow.org/v1`); "" for the core group.
fn group_of(api_version: &str) -> &str {
    api_version.split_once('/').map_or("", |(group, _)| group)
}

/// What `migrate`, `validate` and `explain` say of a kind [`misspelt_kind`] finds: the API
/// server's own words first, then the kind meant.
pub fn misspelt_kind_error(kind: &str, api_version: &str, meant: &str) -> String {
    format!("{}: did you mean {meant}? Kubernetes matches a kind exactly", no_matches(kind, api_version))
}

//! Training Operator v1.9's validating webhooks (the only admission webhooks it installs:
//! manifests/base/webhook/manifests.yaml, no mutating one, so they see the job as written, before
//! any default). Paths under training-operator v1.9.0:pkg/webhooks/; each error is apimachinery's
//! `field.Error` at the webhook's own path, a map key written `[Worker]` as field.Path writes it.
//! MPIJob (kubeflow.org/v1) has no webhook; mpi-operator's v2beta1 MPIJob neither.

use super::super::{ErrorType, FieldPath, Rejection};
use super::at;
use explorer_data::catalog::V1Kind;
use serde_json::Value as Json;

/// `spec.runPolicy.managedBy`'s default, the Training Operator itself (common_types.go:40).
pub(crate) const JOBS_CONTROLLER: &str = "kubeflow.org/training-operator";
/// Kueue's MultiKueue as `spec.runPolicy.managedBy` names it (common_types.go:43), which
/// Trainer's TrainJob `spec.managedBy` takes too.
pub(crate) const MULTIKUEUE: &str = "kueue.x-k8s.io/multikueue";

/// util/webhooks.go:11-13 (common_types.go:40,43): the controllers `spec.runPolicy.managedBy`
/// may name, sorted.
const MANAGERS: [&str; 2] = [JOBS_CONTROLLER, MULTIKUEUE];

/// The replica types a kind's webhook allows (`validRoleTypes`), `None` where it checks none
/// (TFJob), and whether it checks `runPolicy` (JAX's does not: jax/jaxjob_webhook.go:72-80).
fn rules(kind: V1Kind) -> Option<(Option<&'static [&'static str]>, bool)> {
    Some(match kind {
        // pytorch/pytorchjob_webhook.go:124-132
        V1Kind::PyTorchJob => (Some(&["Master", "Worker"]), true),
        // xgboost/xgboostjob_webhook.go:102-109
        V1Kind::XgBoostJob => (Some(&["Master", "Worker"]), true),
        // paddlepaddle/paddlepaddle_webhook.go:97-104
        V1Kind::PaddleJob => (Some(&["Master", "Worker"]), true),
        // jax/jaxjob_webhook.go:95-102
        V1Kind::JaxJob => (Some(&["Worker"]), false),
        // tensorflow/tfjob_webhook.go:90-126: no replica type check
        V1Kind::TfJob => (None, true),
        V1Kind::MpiJob => return None,
    })
}

/// Why the webhook refuses a replica type its kind does not take (`validRoleTypes`, e.g.
/// pytorch/pytorchjob_webhook.go:125-132), as its `field.NotSupported` says it at
/// `spec.<replica specs>[<type>]`: compared as written, before any defaulting, so `worker` is
/// refused too. None for a TFJob's, which its webhook does not check, and an MPIJob's.
pub(super) fn unsupported_replica_type(kind: V1Kind, rtype: &str) -> Option<String> {
    let (Some(allowed), _) = rules(kind)? else { return None };
    if allowed.contains(&rtype) {
        return None;
    }
    let listed: Vec<String> = allowed.iter().map(|r| format!("{r:?}")).collect();
    Some(format!("{rtype:?}: supported values: {}", listed.join(", ")))
}

/// Every error the kind's webhook gives on creating `doc` (a `kubeflow.org/v1` job, its nulls
/// taken out), in the webhook's order.
pub(super) fn refusals(doc: &Json) -> Vec<Rejection> {
    judged(doc).into_iter().map(|(rejection, _)| rejection).collect()
}

/// What a webhook error is about: the pods the job asks for (its replica types and counts, the
/// elastic policy's Worker and process count), or the rest (the job's name, `managedBy`, a
/// replica's containers and images).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Scope {
    Pods,
    Other,
}

/// Whether Training Operator v1.9 installs a validating webhook for `kind`.
#[cfg(feature = "migrate")]
pub(super) fn has_webhook(kind: V1Kind) -> bool {
    rules(kind).is_some()
}

/// validate<Kind>Job's first check, the same in every kind's webhook: NameIsDNS1035Label
/// (e.g. pytorchjob_webhook.go:80-82), at `metadata.name`.
pub(super) fn name_refusal(name: &str) -> Option<Rejection> {
    let bad_name = crate::k8s::names::is_dns1035_label(name);
    (!bad_name.is_empty())
        .then(|| Rejection::invalid("metadata.name", format!("{name:?}: should match: {}", bad_name.join(","))))
}

/// [`refusals`], each with its [`Scope`]: one about the pods ([`Scope::Pods`]) leaves a
/// converter nothing to say of the pods V1 would have run, since v1.9 ran none.
pub(super) fn judged(doc: &Json) -> Vec<(Rejection, Scope)> {
    let kind = doc.get("kind").and_then(Json::as_str).and_then(V1Kind::from_kind);
    let api = doc.get("apiVersion").and_then(Json::as_str);
    let (Some(kind), Some("kubeflow.org/v1")) = (kind, api) else { return vec![] };
    let Some((_, checks_run_policy)) = rules(kind) else { return vec![] };
    let mut out = Vec::new();
    let name = at(doc, &["metadata", "name"]).and_then(Json::as_str).unwrap_or_default();
    if let Some(refusal) = name_refusal(name) {
        out.push((refusal, Scope::Other));
    }
    let mut refuse = |ty: ErrorType, field: String, detail: String| {
        // Its manager, a replica's containers and images are not what runs where (nor the job's
        // name, above): the rest is.
        let other = field.starts_with("spec.runPolicy") || field.contains(".template.spec");
        let scope = if other { Scope::Other } else { Scope::Pods };
        out.push((Rejection::new(ty, FieldPath::parse(&field), detail), scope))
    };
    // util/webhooks.go:15-25, called by every kind's but JAX's.
    if let Some(manager) = at(doc, &["spec", "runPolicy", "managedBy"]).and_then(Json::as_str) {
        if checks_run_policy && !MANAGERS.contains(&manager) {
            let allowed: Vec<String> = MANAGERS.iter().map(|m| format!("{m:?}")).collect();
            refuse(
                ErrorType::NotSupported,
                "spec.runPolicy.managedBy".into(),
                format!("{manager:?}: supported values: {}", allowed.join(", ")),
            );
        }
    }
    let field = kind.replica_specs_field();
    let specs = at(doc, &["spec", field]).and_then(Json::as_object);
    // pytorchjob_webhook.go:96-110: an elastic policy needs a Worker; its nProcPerNode is
    // deprecated and forbidden beside spec.nprocPerNode.
    let set = |keys: &[&str]| at(doc, keys).filter(|v| !v.is_null());
    if let (V1Kind::PyTorchJob, Some(elastic)) = (kind, set(&["spec", "elasticPolicy"])) {
        if !specs.is_some_and(|s| s.contains_key("Worker")) {
            refuse(
                ErrorType::Required,
                format!("spec.{field}[Worker]"),
                "must be configured if elastic policy is used".into(),
            );
        }
        if elastic.get("nProcPerNode").is_some_and(|n| !n.is_null()) && set(&["spec", "nprocPerNode"]).is_some() {
            refuse(
                ErrorType::Forbidden,
                "spec.elasticPolicy.nProcPerNode".into(),
                "must not be used with spec.nprocPerNode".into(),
            );
        }
    }
    // validate<Kind>ReplicaSpecs (pytorchjob_webhook.go:115-160 and the same in each kind's).
    let Some(specs) = specs else {
        refuse(ErrorType::Required, format!("spec.{field}"), "must be required".into());
        return out;
    };
    let container = kind.container_name();
    let mut chief_or_master = 0;
    for (rtype, spec) in specs {
        // The paths are written only for an error: a job the webhook admits costs no text.
        let role = || format!("spec.{field}[{rtype}]");
        let containers_at = || format!("spec.{field}[{rtype}].template.spec.containers");
        if let Some(detail) = unsupported_replica_type(kind, rtype) {
            refuse(ErrorType::NotSupported, role(), detail);
        }
        let containers = at(spec, &["template", "spec", "containers"])
            .and_then(Json::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        if containers.is_empty() {
            refuse(ErrorType::Required, containers_at(), "must be specified".into());
        }
        for (i, c) in containers.iter().enumerate() {
            if c.get("image").and_then(Json::as_str).unwrap_or_default().is_empty() {
                refuse(ErrorType::Required, format!("{}[{i}].image", containers_at()), "must be required".into());
            }
        }
        if !containers.iter().any(|c| c.get("name").and_then(Json::as_str) == Some(container)) {
            let name = if kind == V1Kind::PaddleJob { format!("{container:?}") } else { container.to_string() };
            refuse(ErrorType::Required, containers_at(), format!("must have at least one container with name {name}"));
        }
        let replicas = spec.get("replicas").and_then(Json::as_i64);
        match (kind, rtype.as_str()) {
            // pytorchjob_webhook.go:152-158, xgboostjob_webhook.go:129-134: the Master is one pod,
            // and `replicas` must say so (nothing defaults it before the webhook).
            (V1Kind::PyTorchJob | V1Kind::XgBoostJob, "Master") if replicas != Some(1) => {
                refuse(ErrorType::Forbidden, format!("{}.replicas", role()), "must be 1".into());
            }
            (V1Kind::PyTorchJob, _) if replicas.is_some_and(|n| n < 1) => {
                refuse(ErrorType::Forbidden, format!("{}.replicas", role()), "must be at least 1".into());
            }
            _ => {}
        }
        // tfjob_webhook.go:105-107 (IsChiefOrMaster).
        if matches!(rtype.as_str(), "Chief" | "Master") {
            chief_or_master += 1;
        }
    }
    if kind == V1Kind::TfJob && chief_or_master > 1 {
        refuse(ErrorType::Forbidden, format!("spec.{field}"), "must not have more than 1 Chief or Master role".into());
    }
    // xgboostjob_webhook.go:136-138.
    if kind == V1Kind::XgBoostJob && !specs.contains_key("Master") {
        refuse(ErrorType::Required, format!("spec.{field}[Master]"), "must be present".into());
    }
    out
}

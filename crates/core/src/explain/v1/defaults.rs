//! What the API server's defaulting does to a V1 job before any controller reads it, and the
//! labels every pod gets.

use super::{Job, Source};
use crate::model::pod::{ContainerPort, PodSpec};
use crate::model::v1::ReplicaSpec;
use explorer_data::catalog::V1Kind;
use std::fmt::Write as _;

/// Go's `strings.EqualFold` on a replica type and one of ours: Unicode's simple case folding,
/// which joins two characters outside ASCII with ASCII letters of our types, the Kelvin sign
/// U+212A with `k` and the long s U+017F with `s`; `fold` maps those, so the comparison is Go's
/// without linking Unicode's case tables.
fn equal_fold(rtype: &str, known: &str) -> bool {
    let fold = |c: char| match c {
        '\u{212a}' => 'k',
        '\u{17f}' => 's',
        c => c.to_ascii_lowercase(),
    };
    rtype.chars().map(fold).eq(known.chars().map(fold))
}

/// The replica type `rtype` is defaulted to, as `setTypeNameToCamelCase`
/// (training-operator v1.9.0:pkg/apis/kubeflow.org/v1/defaulting_utils.go:50-59) renames it
/// where it is the only spelling of its type: `worker` or `WORKER` becomes `Worker`. The MPIJob
/// is not renamed (mpi_defaults.go:25-39 has no such step).
#[cfg(feature = "migrate")]
pub(super) fn camel_case(kind: V1Kind, rtype: &str) -> String {
    if kind == V1Kind::MpiJob {
        return rtype.to_string();
    }
    kind.replica_types().iter().find(|t| equal_fold(rtype, t)).map_or_else(|| rtype.to_string(), |t| t.to_string())
}

/// Two or more spellings of one replica type, none of them the type's own (`worker` and
/// `WORKER`): `setTypeNameToCamelCase` renames the first it meets in Go's map order, which is
/// random, and leaves the others as written, so which replica spec runs as the type is chance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ambiguous {
    /// The type they are spellings of (`Worker`).
    pub rtype: &'static str,
    /// The spellings, as written.
    pub spellings: Vec<String>,
}

/// The replica specs after `Set<Kind>TypeNamesToCamelCase` (e.g.
/// training-operator v1.9.0:pkg/apis/kubeflow.org/v1/tensorflow_defaults.go:36-47,62, and the same
/// in pytorch_defaults.go:58-65,84, xgboost_defaults.go:35-42,53, paddlepaddle_defautls.go:54-61,72,
/// jax_defaults.go:35-41,52): each as (the type it runs as, the key as written), in the order
/// written. For each of the kind's types, `setTypeNameToCamelCase` (defaulting_utils.go:50-59)
/// looks for a key equal to it under case folding but spelled otherwise; it moves the first it
/// finds to the type's own key, over a spec already there, and stops. So one such spelling
/// replaces the type's own spec (`{Worker, worker}` runs `worker`'s), and two are
/// [`Ambiguous`]. A key the kind does not know stays as written. The defaulting runs in the
/// controller (tfjob_controller.go:151, `r.Scheme.Default`), after the webhook judged the keys
/// as written.
pub(super) fn renamed_types<'a>(
    kind: V1Kind,
    keys: impl Iterator<Item = &'a str> + Clone,
) -> Result<Vec<(String, &'a str)>, Ambiguous> {
    let mut out: Vec<(String, &str)> = keys.clone().map(|k| (k.to_string(), k)).collect();
    if kind == V1Kind::MpiJob {
        return Ok(out);
    }
    for known in kind.replica_types() {
        let others: Vec<&str> = keys.clone().filter(|k| k != known && equal_fold(k, known)).collect();
        match others.as_slice() {
            [] => {}
            [one] => {
                // The type's own spec, if written, is replaced: its key now holds `one`'s.
                out.retain(|(_, written)| written != known);
                if let Some(entry) = out.iter_mut().find(|(_, written)| written == one) {
                    entry.0 = known.to_string();
                }
            }
            more => return Err(Ambiguous { rtype: known, spellings: more.iter().map(|s| s.to_string()).collect() }),
        }
    }
    Ok(out)
}

/// Go's `strings.ToLower` of a replica type, which names the operator's pods, Services and
/// `replica-type` labels (training-operator v1.9.0:pkg/controller.v1/common/pod.go:277,
/// pkg/core/utils.go:30-33). Outside ASCII, Go's simple case mapping lowers only two characters
/// into it, U+0130 `İ` to `i` and the Kelvin sign U+212A to `k`; any other character stays
/// outside ASCII in lower case, so a name holding it is no valid pod name and `read` refuses the
/// job ([`pod_name_errors`]) before a name is made. Those are left as they are here: the
/// converter links no Unicode case tables for names no pod may have.
pub(crate) fn lower(rtype: &str) -> String {
    let mut lowered = String::with_capacity(rtype.len());
    push_lower(&mut lowered, rtype);
    lowered
}

/// [`lower`] of `rtype` written at the end of `out` (a pod's or Service's name being put
/// together), with no string of its own.
fn push_lower(out: &mut String, rtype: &str) {
    if rtype.is_ascii() {
        // Every replica type an operator runs: lowered in place, byte by byte.
        let start = out.len();
        out.push_str(rtype);
        out[start..].make_ascii_lowercase();
        return;
    }
    out.extend(rtype.chars().map(|c| match c {
        '\u{130}' => 'i',
        '\u{212a}' => 'k',
        c => c.to_ascii_lowercase(),
    }));
}

/// Why the API server refuses the first pod the controller creates for `rtype`, named
/// `<job>-<rtype in lower case>-0` (common/pod.go:414 with pkg/core/utils.go:30-33, `/` made
/// `-`): apimachinery's reasons for a name that is no RFC 1123 subdomain, none when it is one.
/// The controller creates a replica's pods before its Services (common/job.go:339-345), so the
/// pod is the first object refused. The webhook refuses a job name that is no DNS-1035 label
/// (e.g. tensorflow/tfjob_webhook.go:75-77): such a name is not blamed on the replica type, which
/// is judged with a valid one instead.
pub(super) fn pod_name_errors(job: &str, rtype: &str) -> Vec<String> {
    let job = if crate::k8s::names::is_dns1035_label(job).is_empty() { job } else { "job" };
    crate::k8s::names::is_dns1123_subdomain(&replica_name(job, rtype, 0))
}

/// `<job>-<rtype in lower case>-<index>` with every `/` made `-`: the name of a replica's pod and
/// of its Service (pkg/core/utils.go:30-33). Written into one string sized once (no lowered copy
/// of the type, no text of the index, no `format!`): a job's pods, Services and variables name
/// its replicas several times each, for every job of a paste.
pub(crate) fn replica_name(job: &str, rtype: &str, index: u32) -> String {
    let mut name = String::with_capacity(job.len() + rtype.len() + 12);
    name.push_str(job);
    name.push('-');
    push_lower(&mut name, rtype);
    name.push('-');
    // Writing into a `String` cannot fail.
    let _ = write!(name, "{index}");
    // Written again only where it holds a `/`.
    if name.contains('/') {
        name.replace('/', "-")
    } else {
        name
    }
}

/// Why the API server refuses the `training.kubeflow.org/replica-type` label the controller gives
/// `rtype`'s pods and Services, the type in lower case (common/pod.go:277,401-404,
/// common/service.go:219-221): apimachinery's reasons for a label value, none when it is one (a
/// `/`, which the pod's name turns into `-`, or more than 63 characters).
pub(super) fn replica_type_label_errors(rtype: &str) -> Vec<String> {
    crate::k8s::names::is_valid_label_value(&lower(rtype))
}

/// Per kind: (default container, default port name, default port, default restartPolicy)
/// (pkg/apis/kubeflow.org/v1/{pytorch,mpi,jax,xgboost,tensorflow,paddlepaddle}_types.go:23-31).
pub(super) fn kind_defaults(kind: V1Kind) -> (&'static str, &'static str, i64, &'static str) {
    let (port, port_name) = kind.default_port();
    let restart = match kind {
        V1Kind::PyTorchJob | V1Kind::PaddleJob => "OnFailure",
        _ => "Never",
    };
    (kind.container_name(), port_name, i64::from(port), restart)
}

/// The `SetDefaults_*Job` functions: replicas (1; the MPIJob's Worker 0), restartPolicy, and the
/// default port on the default container (or the first) where no port has its name
/// (pytorch_defaults.go:77-95, jax_defaults.go:45-61, xgboost_defaults.go:46-61,
/// tensorflow_defaults.go:50-72, paddlepaddle_defautls.go:65-81, mpi_defaults.go:25-38;
/// mpi-operator v0.6.0:pkg/apis/kubeflow/v2beta1/default.go:27-80).
pub(super) fn apply(source: Source, job: &mut Job) {
    let kind = source.kind();
    let (container, port_name, port, restart) = kind_defaults(kind);
    for (rtype, spec) in job.replicas.iter_mut() {
        if spec.replicas.is_none() {
            spec.replicas = Some(default_replicas(kind, rtype));
        }
        if spec.restart_policy.is_none() {
            // v2beta1.DefaultLauncherRestartPolicy is OnFailure, DefaultRestartPolicy Never
            // (mpi-operator v0.6.0:pkg/apis/kubeflow/v2beta1/types.go).
            let policy = match source {
                Source::MpiOperator if rtype == "Launcher" => "OnFailure",
                _ => restart,
            };
            spec.restart_policy = Some(policy.into());
        }
        if kind != V1Kind::MpiJob {
            default_port(&mut spec.template.spec, container, port_name, port);
        }
    }
}

/// The count of `rtype` pods a job that writes none runs: 1, the MPIJob's Worker 0 (`apply`'s
/// sources).
pub(crate) fn default_replicas(kind: V1Kind, rtype: &str) -> u32 {
    if kind == V1Kind::MpiJob && rtype == "Worker" {
        0
    } else {
        1
    }
}

/// defaulting_utils.go:8-34: `getDefaultContainerIndex` (the named container, else index 0),
/// `hasDefaultPort`, `setDefaultPort`.
fn default_port(spec: &mut PodSpec, container: &str, port_name: &str, port: i64) {
    let i = spec.containers.iter().position(|c| c.name == container).unwrap_or(0);
    let Some(c) = spec.containers.get_mut(i) else { return };
    if !c.ports.iter().any(|p| p.name.as_deref() == Some(port_name)) {
        c.ports.push(ContainerPort { container_port: port, name: Some(port_name.into()), protocol: None });
    }
}

/// The pod's restartPolicy from the replica's (`ExitCode` becomes `Never`): pkg/core/pod.go:81-88.
pub(super) fn pod_restart_policy(spec: &ReplicaSpec) -> String {
    match spec.restart_policy.as_deref() {
        Some("ExitCode") | None => "Never".into(),
        Some(p) => p.into(),
    }
}

/// `GenLabels` (common/job_controller.go:236-242) with the replica type and index
/// (pkg/util/labels/labels.go:32-60), and `job-role: master` on the master role's pods
/// (common/pod.go:406-408) as each kind's `IsMasterRole` decides.
pub(super) fn labels(kind: V1Kind, job: &Job, rtype: &str, index: u32) -> Vec<(String, String)> {
    let controller = format!("{}-controller", kind.kind().to_ascii_lowercase());
    let mut out = vec![
        ("training.kubeflow.org/operator-name".to_string(), controller),
        ("training.kubeflow.org/job-name".to_string(), job.name.replace('/', "-")),
        ("training.kubeflow.org/replica-type".to_string(), lower(rtype)),
        ("training.kubeflow.org/replica-index".to_string(), index.to_string()),
    ];
    if is_master_role(kind, job, rtype, index) {
        out.push(("training.kubeflow.org/job-role".to_string(), "master".to_string()));
    }
    out
}

fn is_master_role(kind: V1Kind, job: &Job, rtype: &str, index: u32) -> bool {
    match kind {
        // pytorch/pytorchjob_controller.go:499-506: the Master, else Worker 0.
        V1Kind::PyTorchJob if job.replica("Master").is_some() => rtype == "Master",
        V1Kind::PyTorchJob => rtype == "Worker" && index == 0,
        // tensorflow/tfjob_controller.go:598-605: the Chief or Master, else Worker 0.
        V1Kind::TfJob if job.replica("Chief").is_some() || job.replica("Master").is_some() => {
            rtype == "Chief" || rtype == "Master"
        }
        V1Kind::TfJob => rtype == "Worker" && index == 0,
        // jax/jaxjob_controller.go:462-465: index 0.
        V1Kind::JaxJob => index == 0,
        // xgboost/xgboostjob_controller.go:451-454, paddlepaddle/paddlepaddle_controller.go:505-508.
        V1Kind::XgBoostJob | V1Kind::PaddleJob => rtype == "Master",
        // mpi/mpijob_controller.go:304-307.
        V1Kind::MpiJob => rtype == "Launcher",
    }
}

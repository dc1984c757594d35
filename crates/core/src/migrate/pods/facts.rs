//! One pod of a role as both sides are compared: its pod settings, metadata, volumes and
//! containers, read the same way from V1's pods and from V2's templates and `explain` view;
//! and the reasons a difference is expected.

use super::v2::{at, MetadataSource, V2Pods};
use crate::explain::v1::{Operated, Role};
use crate::explain::ContainerView;
use crate::model::pod::{Container, PodSpec, PodTemplateSpec, Resources};
use crate::model::vecmap::VecMap;
use crate::model::Value;
use crate::order::map_of;
use explorer_data::catalog::V1Kind;
use serde_json::Value as Json;
use std::borrow::Cow;
use std::collections::BTreeMap;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod one_reader;

/// The pod fields compared as settings (the issue's list, with the networking ones the MPI
/// Operator sets).
const SETTINGS: &[&str] = &[
    "nodeSelector",
    "tolerations",
    "affinity",
    "serviceAccountName",
    "serviceAccount",
    "securityContext",
    "hostNetwork",
    "hostIPC",
    "hostPID",
    "priorityClassName",
    "schedulerName",
    "imagePullSecrets",
    "runtimeClassName",
    "topologySpreadConstraints",
    "dnsPolicy",
    "dnsConfig",
    "hostname",
    "subdomain",
    "shareProcessNamespace",
    "terminationGracePeriodSeconds",
    "schedulingGates",
];

/// A pod's facts, borrowing its containers' names, images, commands and arguments from the V1
/// model and from `explain`'s view (see [`ContainerFacts`]).
#[derive(Clone, Debug, Default)]
pub(super) struct PodFacts<'a> {
    pub labels: BTreeMap<String, String>,
    pub annotations: BTreeMap<String, String>,
    pub settings: BTreeMap<String, Json>,
    pub volumes: BTreeMap<String, Json>,
    pub main: ContainerFacts<'a>,
    pub sidecars: Vec<ContainerFacts<'a>>,
    pub init: Vec<ContainerFacts<'a>>,
    /// V1 only: what the job's own template had, before the operator.
    pub user_labels: BTreeMap<String, String>,
    pub user_annotations: BTreeMap<String, String>,
    pub user_settings: BTreeMap<String, Json>,
}

/// A container's facts. Its name, image, command and arguments are borrowed from the container
/// read (the V1 model's, `explain`'s view), which outlive the comparison: copied, each was
/// allocated and freed again for every container of every job.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct ContainerFacts<'a> {
    pub name: &'a str,
    pub image: Option<&'a str>,
    pub command: &'a [String],
    pub args: &'a [String],
    /// Limits and requests with every quantity as text, keys sorted.
    pub resources: Option<String>,
    pub security_context: Option<String>,
    /// Mount path to volume name.
    pub mounts: BTreeMap<String, String>,
    pub env: VecMap<String, String>,
    /// V1: the env the job's template wrote.
    pub user_env: VecMap<String, String>,
    /// V2: the names the runtime's own template sets (before the TrainJob's settings).
    pub runtime_env: Vec<String>,
}

impl ContainerFacts<'_> {
    pub(super) fn command_text(&self) -> Option<String> {
        (!self.command.is_empty()).then(|| shell_words(self.command))
    }

    pub(super) fn args_text(&self) -> Option<String> {
        (!self.args.is_empty()).then(|| shell_words(self.args))
    }

    /// A field compared as one value (`image`, `command`, `args`, `resources`,
    /// `securityContext`) as a difference shows it; `None` for any other field.
    pub(super) fn scalar(&self, field: &str) -> Option<String> {
        match field {
            "image" => self.image.map(String::from),
            "command" => self.command_text(),
            "args" => self.args_text(),
            "resources" => self.resources.clone(),
            "securityContext" => self.security_context.clone(),
            _ => None,
        }
    }

    pub(super) fn summary(&self) -> String {
        format!("{} ({})", self.name, self.image.unwrap_or("no image"))
    }
}

fn shell_words(words: &[String]) -> String {
    serde_json::to_string(words).unwrap_or_default()
}

fn quantity_text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A container's resources as the comparison reads them: `{"limits": {...}, "requests": {...}}`
/// with sorted keys and text quantities; `None` when empty. Read from the typed lists, not from
/// the resources turned into JSON first (their `extra` flattened beside them, every key hashed
/// into a map): the operators' init containers have resources, in every job. Written straight
/// from the sorted pairs, each text borrowed where it is one: a JSON map of copies, each key
/// hashed into it, was built for each container of every job only to be written out.
fn resources_facts(r: Option<&Resources>) -> Option<String> {
    let r = r?;
    let lists: Vec<(&str, SortedQuantities<'_>)> = [("limits", &r.limits), ("requests", &r.requests)]
        .into_iter()
        .filter(|(_, quantities)| !quantities.is_empty())
        .map(|(list, quantities)| (list, sorted_quantities(quantities)))
        .collect();
    let lists: Vec<(&str, InOrder<'_, Cow<'_, str>>)> =
        lists.iter().map(|(list, pairs)| (*list, InOrder(pairs))).collect();
    (!lists.is_empty()).then(|| serde_json::to_string(&InOrder(&lists)).unwrap_or_default())
}

/// A container's `resources` (JSON, as written or as [`resources_facts`] wrote them) as the API
/// server stores them in a pod, every quantity as text: a limit the container asks no request
/// for is its request too (kubernetes 023f88a:pkg/apis/core/v1/defaults.go:164-180,
/// `SetDefaults_Pod`). Two containers whose texts differ may so run with the same resources.
pub(crate) fn resources_in_pod(resources: &Json) -> Json {
    let as_text = |list: &str| -> serde_json::Map<String, Json> {
        let quantities = resources.get(list).and_then(Json::as_object).into_iter().flatten();
        quantities.map(|(k, v)| (k.clone(), Json::String(quantity_text(v)))).collect()
    };
    let limits = as_text("limits");
    let mut requests = as_text("requests");
    for (name, limit) in &limits {
        requests.entry(name.clone()).or_insert_with(|| limit.clone());
    }
    let lists = [("limits", limits), ("requests", requests)];
    Json::Object(lists.into_iter().filter(|(_, l)| !l.is_empty()).map(|(k, l)| (k.into(), Json::Object(l))).collect())
}

/// Whether two containers' resources as [`resources_facts`] wrote them run the same once the
/// API server defaulted their requests ([`resources_in_pod`]).
pub(super) fn same_resources_in_pod(a: Option<&str>, b: Option<&str>) -> bool {
    let in_pod = |text: Option<&str>| {
        text.map(|t| serde_json::from_str::<Json>(t).map(|r| resources_in_pod(&r)).ok()).unwrap_or(Some(Json::Null))
    };
    a == b || matches!((in_pod(a), in_pod(b)), (Some(x), Some(y)) if x == y || is_empty(&x) && is_empty(&y))
}

fn is_empty(resources: &Json) -> bool {
    resources.as_object().is_none_or(serde_json::Map::is_empty)
}

/// A list's quantities as text, sorted by name: `[("cpu", "2"), ("memory", "1Gi")]`.
type SortedQuantities<'a> = Vec<(&'a str, Cow<'a, str>)>;

/// A list of quantities (`limits`, `requests`) as text, sorted by name.
fn sorted_quantities(quantities: &crate::model::Map) -> SortedQuantities<'_> {
    let mut pairs: SortedQuantities<'_> =
        quantities.iter().map(|(k, v)| (k.as_str(), typed_quantity_text(v))).collect();
    crate::order::sort_by_key(&mut pairs, |(k, _)| *k);
    pairs
}

/// Pairs already in their keys' order, written as a JSON object in that order.
struct InOrder<'a, V>(&'a [(&'a str, V)]);

impl<V: serde::Serialize> serde::Serialize for InOrder<'_, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// [`quantity_text`] of a quantity in the typed model: a string as written (borrowed), anything
/// else as its JSON.
fn typed_quantity_text(v: &Value) -> Cow<'_, str> {
    match v {
        Value::String(s) => Cow::Borrowed(s),
        other => Cow::Owned(quantity_text(&serde_json::to_value(other).unwrap_or_default())),
    }
}

fn string_map(v: Option<&Json>) -> BTreeMap<String, String> {
    v.and_then(Json::as_object)
        .map(|m| map_of(m.iter().map(|(k, v)| (k.clone(), quantity_text(v)))))
        .unwrap_or_default()
}

fn settings_of(spec: &Json) -> BTreeMap<String, Json> {
    // The spec's own few keys looked up among the settings, rather than each of the settings
    // hashed and looked up in the spec, for every pod of every job.
    let settings = spec.as_object().into_iter().flatten();
    map_of(
        settings.filter(|(k, v)| SETTINGS.contains(&k.as_str()) && !v.is_null()).map(|(k, v)| (k.clone(), v.clone())),
    )
}

fn volumes_of(spec: &Json) -> BTreeMap<String, Json> {
    map_of(
        spec.get("volumes")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| Some((v.get("name")?.as_str()?.to_string(), v.clone()))),
    )
}

fn container_json<'a>(spec: &'a Json, list: &str, name: &str) -> Option<&'a Json> {
    spec.get(list)?.as_array()?.iter().find(|c| c.get("name").and_then(Json::as_str) == Some(name))
}

/// A container's `securityContext` as one line of JSON text.
fn security_text(json: Option<&Json>) -> Option<String> {
    json.and_then(|c| c.get("securityContext")).map(Json::to_string)
}

/// V2: a container of `explain`'s view (with resourcesPerNode merged in, not the template's).
fn from_view(view: &ContainerView, security_context: Option<String>) -> ContainerFacts<'_> {
    ContainerFacts {
        name: &view.name,
        image: view.image.as_deref(),
        command: &view.command,
        args: &view.args,
        resources: resources_facts(view.resources.as_ref()),
        security_context,
        mounts: map_of(view.volume_mounts.iter().map(|m| (m.mount_path.clone(), m.name.clone()))),
        // The env as the comparison reads it: each value in one line of text (`EnvValue::text`).
        env: view.env.iter().map(|(name, value)| (name.clone(), value.text())).collect(),
        user_env: VecMap::new(),
        runtime_env: vec![],
    }
}

/// V1: a container of a role's pods, with its variables `env` as text, read as [`from_view`]
/// reads its view (`explain`'s `container_view`), without building the view: its fields and
/// variables were copied into it only to be copied again here, for every container of every job.
fn from_container(c: &Container, env: VecMap<String, String>, security_context: Option<String>) -> ContainerFacts<'_> {
    ContainerFacts {
        name: &c.name,
        image: c.image.as_deref(),
        command: &c.command,
        args: &c.args,
        resources: resources_facts(c.resources.as_ref().filter(|r| !r.is_empty())),
        security_context,
        mounts: map_of(crate::explain::mount_views(c).map(|m| (m.mount_path, m.name))),
        env,
        user_env: VecMap::new(),
        runtime_env: vec![],
    }
}

/// The variables of a role's container `i` across the role's pods as text (`per pod: [...]`
/// where they differ), each name once (`per_pod_env`'s), their values moved into their texts.
fn role_env(role: &Role, i: usize) -> VecMap<String, String> {
    let env = crate::explain::v1::per_pod_env(role, i).into_iter().map(|(name, value)| (name, value.into_text()));
    VecMap::from_distinct(env.collect())
}

/// A container's own variables as text (an init container's: the operator writes none into it).
fn own_env(c: &Container) -> VecMap<String, String> {
    c.env.iter().map(|e| (e.name.clone(), crate::explain::env_text(e))).collect()
}

/// A pod as JSON without its containers: what the comparison reads as JSON (metadata, pod
/// settings, volumes). The containers, most of a pod's tree (every variable of every one), are
/// read from the typed model.
fn without_containers(pod: &PodTemplateSpec) -> Json {
    let s = &pod.spec;
    // Every field named, so a new one is not left out unseen.
    let spec = PodSpec {
        service_account_name: s.service_account_name.clone(),
        security_context: s.security_context.clone(),
        init_containers: Vec::new(),
        containers: Vec::new(),
        restart_policy: s.restart_policy.clone(),
        volumes: s.volumes.clone(),
        extra: s.extra.clone(),
    };
    serde_json::to_value(PodTemplateSpec { metadata: pod.metadata.clone(), spec }).unwrap_or(Json::Null)
}

/// A typed container's `securityContext` as `security_text` reads it from the pod's JSON.
fn container_security(containers: &[Container], name: &str) -> Option<String> {
    security_of(containers.iter().find(|c| c.name == name)?)
}

/// [`container_security`] of the container found.
fn security_of(c: &Container) -> Option<String> {
    c.security_context.as_ref().map(|v| serde_json::to_value(v).unwrap_or(Json::Null).to_string())
}

/// V1: the role's first pod (env varying per pod reads `per pod: [...]`).
pub(super) fn v1_pod(kind: V1Kind, role: &Role) -> PodFacts<'_> {
    // Read from the role's template and what the operator adds to it, without building the pod
    // (a copy of the template, then of it as JSON, for every role of every job).
    let empty = PodTemplateSpec::default();
    let base = role.pod_base(0);
    // The containers borrowed from the role, never from `empty`, which dies here.
    let pod_containers = base.map_or(&[][..], |(pod, _)| &pod.spec.containers[..]);
    let (pod, operator_labels) = base.unwrap_or((&empty, None));
    let user = without_containers(&role.template);
    let user_spec = user.get("spec").unwrap_or(&Json::Null);
    let user_labels = string_map(at(&user, &["metadata", "labels"]));
    let user_annotations = string_map(at(&user, &["metadata", "annotations"]));
    let user_settings = settings_of(user_spec);
    // The pod is the template where the operator only decorates it: its annotations, pod
    // settings and volumes are the template's, its labels the template's with the operator's over
    // them (`Role::pod`).
    let (mut labels, annotations, settings, volumes) = if std::ptr::eq(pod, &role.template) {
        (user_labels.clone(), user_annotations.clone(), user_settings.clone(), volumes_of(user_spec))
    } else {
        let json = without_containers(pod);
        let spec = json.get("spec").unwrap_or(&Json::Null);
        (
            string_map(at(&json, &["metadata", "labels"])),
            string_map(at(&json, &["metadata", "annotations"])),
            settings_of(spec),
            volumes_of(spec),
        )
    };
    for (k, v) in operator_labels.into_iter().flat_map(|l| l.iter()) {
        labels.insert(k.clone(), v.clone());
    }
    // The operators' main container: the kind's default name, else the first (the MPIJob's is
    // always the first).
    let main = match kind {
        V1Kind::MpiJob => 0,
        _ => pod_containers.iter().position(|c| c.name == kind.container_name()).unwrap_or(0),
    };
    let mut containers = Vec::new();
    for (i, c) in pod_containers.iter().enumerate() {
        // The variables across the role's pods (`per pod: [...]` where they differ), each name
        // once (`per_pod_env`'s), their values moved into their texts.
        let mut facts = from_container(c, role_env(role, i), container_security(pod_containers, &c.name));
        // Only the template container's variables.
        facts.user_env = role
            .template
            .spec
            .containers
            .iter()
            .find(|u| u.name == c.name)
            .map(|u| u.env.iter().map(|e| (e.name.clone(), crate::explain::env_text(e))).collect())
            .unwrap_or_default();
        containers.push(facts);
    }
    let main = containers.remove(main.min(containers.len().saturating_sub(1)));
    let init_containers: Vec<&Container> = role.init_containers(0).collect();
    let init = init_containers
        .iter()
        .map(|c| {
            let security = init_containers.iter().copied().find(|i| i.name == c.name).and_then(security_of);
            from_container(c, own_env(c), security)
        })
        .collect();
    PodFacts {
        labels,
        annotations,
        settings,
        volumes,
        main,
        sidecars: containers,
        init,
        user_labels,
        user_annotations,
        user_settings,
    }
}

/// V2: a replicatedJob's pod template (with the TrainJob's settings) and `explain`'s containers.
pub(super) fn v2_pod<'a>(v2: &'a V2Pods, rjob: &str) -> Option<PodFacts<'a>> {
    let group = v2.explanation.pods.iter().find(|p| p.replicated_job == rjob)?;
    let template = v2.templates.iter().find(|(n, _)| n == rjob).map(|(_, t)| t)?;
    let base = v2.base_templates.iter().find(|(n, _)| n == rjob).map(|(_, t)| t);
    let spec = template.get("spec").unwrap_or(&Json::Null);
    let mut main = None;
    let mut sidecars = Vec::new();
    let mut init = Vec::new();
    for view in &group.containers {
        let list = if view.init { "initContainers" } else { "containers" };
        let mut facts = from_view(view, security_text(container_json(spec, list, &view.name)));
        facts.runtime_env = base
            .and_then(|b| b.get("spec"))
            .and_then(|s| container_json(s, list, &view.name))
            .and_then(|c| c.get("env"))
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
            .filter_map(|e| e.get("name").and_then(Json::as_str).map(String::from))
            .collect();
        match (view.init, view.name.as_str()) {
            (true, _) => init.push(facts),
            (false, "node") => main = Some(facts),
            _ => sidecars.push(facts),
        }
    }
    // The template's metadata, and what the controller's plugins add to every pod template
    // (the gang schedulers' label or annotation: explain::podgroup).
    let mut labels = string_map(at(template, &["metadata", "labels"]));
    let mut annotations = string_map(at(template, &["metadata", "annotations"]));
    for (k, v) in group.labels.iter() {
        labels.entry(k.clone()).or_insert_with(|| v.clone());
    }
    for (k, v) in group.annotations.iter() {
        annotations.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Some(PodFacts {
        labels,
        annotations,
        settings: settings_of(spec),
        volumes: volumes_of(spec),
        main: main.unwrap_or_default(),
        sidecars,
        init,
        ..Default::default()
    })
}

fn is_mpi_operator(op: &Operated) -> bool {
    op.operator == crate::explain::v1::MPI_OPERATOR
}

/// A pod setting that differs: expected where the V1 operator set it for its own networking.
pub(super) fn settings_reason(
    op: &Operated,
    key: &str,
    user: Option<&Json>,
    v1: Option<&Json>,
    _v2: Option<&Json>,
) -> Option<String> {
    if user == v1 {
        // The job's own setting did not arrive as it was.
        return None;
    }
    match key {
        "hostname" | "subdomain" | "dnsConfig" | "dnsPolicy" if is_mpi_operator(op) => Some(
            "the MPI Operator's networking: each pod named in the job's Service, with its search domain; in V2 JobSet \
             gives every pod its hostname in the JobSet's Service"
                .into(),
        ),
        "serviceAccountName" if op.kind == V1Kind::MpiJob => Some(
            "V1's launcher ran as the ServiceAccount the operator made for kubectl exec; V2's launcher reaches the \
             nodes over SSH and needs none"
                .into(),
        ),
        _ => None,
    }
}

/// An init container only the V1 operator adds.
pub(super) fn operator_init(op: &Operated, name: &str) -> Option<String> {
    match (op.kind, name) {
        (V1Kind::PyTorchJob, "init-pytorch") => Some(
            "the Training Operator made each Worker wait until the Master's name resolved; V2 starts every node at \
             once and torchrun waits at the rendezvous"
                .into(),
        ),
        (V1Kind::MpiJob, "kubectl-delivery") => Some(
            "the Training Operator copied kubectl into the launcher for kubectl exec; V2 starts ranks over SSH".into(),
        ),
        _ => None,
    }
}

/// A V1 pod label or annotation the operator set.
pub(super) fn operator_metadata(_op: &Operated, key: &str) -> String {
    if key.starts_with("training.kubeflow.org/") {
        "set by the V1 operator to find its pods; V2's pods carry JobSet's jobset.sigs.k8s.io/* and Trainer's labels instead".into()
    } else {
        "set by the V1 operator".into()
    }
}

/// Why a V2 pod of replicatedJob `rjob` carries `what` (`labels` or `annotations`) `key`, which
/// V1's pods did not have: the runtime's pod template, the TrainJob's pod settings, or one of the
/// release's plugins. Paths under pkg/runtime/ of kubeflow/trainer at the target release.
pub(super) fn trainer_metadata(v2: &V2Pods, rjob: &str, what: &str, key: &str) -> Option<String> {
    let tag = v2.release.tag;
    let at = |lines: [&str; 4]| {
        let i = ["v2.0.1", "v2.1.0", "v2.2.1"].iter().position(|t| *t == tag).unwrap_or(3);
        format!("{} @{tag}", lines[i])
    };
    let reason = match v2.metadata_source(rjob, what, key) {
        MetadataSource::Runtime => format!(
            "from the pod template of the runtime {:?}: the controller builds the JobSet from the runtime's template \
             (core/{})",
            v2.runtime,
            at(["trainingruntime.go:99", "trainingruntime.go:100", "trainingruntime.go:101", "trainingruntime.go:119"])
        ),
        MetadataSource::TrainJob => format!(
            "from the TrainJob's pod settings, merged into the runtime's pod template (core/{})",
            at([
                "trainingruntime.go:190-219 (podSpecOverrides)",
                "trainingruntime.go:190-238 (podTemplateOverrides)",
                "trainingruntime.go:203-239 (runtimePatches)",
                "trainingruntime.go:251-290 (runtimePatches)",
            ])
        ),
        MetadataSource::Controller => {
            let (plugin, lines) = match (what, key) {
                ("labels", "scheduling.x-k8s.io/pod-group") => (
                    "coscheduling",
                    [
                        "coscheduling/coscheduling.go:101, jobset/jobset.go:277",
                        "coscheduling/coscheduling.go:89, jobset/jobset.go:294",
                        "coscheduling/coscheduling.go:89, jobset/jobset.go:318",
                        "coscheduling/coscheduling.go:89, jobset/jobset.go:423",
                    ],
                ),
                // v2.0 has no Volcano plugin.
                ("annotations", "scheduling.k8s.io/group-name") if tag != "v2.0.1" => (
                    "Volcano",
                    [
                        "",
                        "volcano/volcano.go:137, jobset/jobset.go:295",
                        "volcano/volcano.go:137, jobset/jobset.go:319",
                        "volcano/volcano.go:137, jobset/jobset.go:424",
                    ],
                ),
                _ => return None,
            };
            format!(
                "Trainer's {plugin} plugin joins every pod to the PodGroup named after the TrainJob \
                 (framework/plugins/{}, given to the pods by the JobSet plugin)",
                at(lines)
            )
        }
    };
    Some(reason)
}

/// A V1 volume only the operator adds, and what V2 uses instead.
pub(super) fn operator_volume(op: &Operated, name: &str) -> Option<String> {
    match name {
        "ssh-auth" if is_mpi_operator(op) => {
            Some("the MPI Operator's SSH key Secret; V2 mounts Trainer's generated key (mpi-ssh-auth) instead".into())
        }
        "mpi-job-config" if op.kind == V1Kind::MpiJob => {
            Some("the operator's hostfile ConfigMap; V2's launcher mounts Trainer's (mpi-hostfile) at /etc/mpi".into())
        }
        "mpi-job-kubectl" if op.kind == V1Kind::MpiJob => {
            Some("kubectl for kubexec.sh (V1 started ranks with kubectl exec); V2 starts them over SSH".into())
        }
        _ => None,
    }
}

/// A V2 volume only Trainer adds.
pub(super) fn trainer_volume(name: &str) -> Option<String> {
    match name {
        "mpi-ssh-auth" => Some("Trainer's MPI plugin: the generated SSH key Secret <job>-mpi-ssh-auth".into()),
        "mpi-hostfile" => Some("Trainer's MPI plugin: the hostfile ConfigMap <job>-mpi-hostfile".into()),
        _ => None,
    }
}

/// The `$(NAME)` references Kubernetes expands in a container's command and args.
pub(super) fn expanded_vars(command: &[String], args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for word in command.iter().chain(args) {
        let mut rest = word.as_str();
        while let Some(start) = rest.find("$(") {
            let after = &rest[start + 2..];
            let Some(end) = after.find(')') else { break };
            let name = &after[..end];
            if !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !out.iter().any(|o| o == name)
            {
                out.push(name.to_string());
            }
            rest = &after[end..];
        }
    }
    out
}

/// An MPIJob's workers, on the runtime's `node` pods (`convert::mpi`).
const WORKER_ON_NODE: super::Role<'static> = super::Role { from: "Worker", to: "node" };

/// A variable an MPI worker's template set, absent on V2's node pods. The ranks V2 starts over
/// SSH see only what mpirun forwards from the launcher, not the node container's env, so the
/// converter leaves it to the launcher's (spec.trainer.env).
pub(super) fn worker_env_over_ssh(
    op: &Operated,
    role: super::Role<'_>,
    theirs: &ContainerFacts,
    unset: bool,
) -> Option<String> {
    let sshd = theirs.command.iter().chain(theirs.args).any(|w| w.contains("sshd"));
    if !(op.kind == V1Kind::MpiJob && role == WORKER_ON_NODE && sshd && unset) {
        return None;
    }
    Some(if is_mpi_operator(op) {
        "V1 and V2 both start the ranks over SSH, so the worker container's env never reached them; mpirun forwards \
         the launcher's (spec.trainer.env, with mpirun -x NAME)"
            .into()
    } else {
        "V1 started the ranks with kubectl exec, which gave them the worker container's env; V2 starts them over \
         SSH, where they see what mpirun forwards from the launcher: set it in spec.trainer.env and pass mpirun -x NAME"
            .into()
    })
}

/// A container field that differs: expected where the operator (not the job) chose it.
pub(super) fn container_reason(
    op: &Operated,
    role: super::Role<'_>,
    ours: &ContainerFacts,
    theirs: &ContainerFacts,
    field: &str,
    v1: Option<&str>,
) -> Option<String> {
    let runs_sshd = |c: &ContainerFacts| c.command.iter().chain(c.args).any(|w| w.contains("sshd"));
    // A PaddleJob leader's command, wrapped so that its first pod names its own IP (convert::roles).
    if field == "command"
        && op.kind == V1Kind::PaddleJob
        && super::contract::leader_wrapper(theirs.command).is_some()
        && theirs.command.get(4..) == Some(ours.command)
    {
        return Some(
            "the same command, wrapped by sh: the leader's first pod sets PADDLE_MASTER to its own IP (as V1 gave it), \
             then execs the command with its arguments unchanged"
                .into(),
        );
    }
    if matches!(field, "command" | "args") {
        if let Some(reason) = rewritten(op.kind, ours, theirs, field) {
            return Some(reason);
        }
    }
    let sleep = Some(r#"["sleep"]"#);
    let worker = role == WORKER_ON_NODE;
    match field {
        // training-operator v1.9.0:pkg/controller.v1/mpi/mpijob_controller.go:942-945.
        "command" | "args" if op.kind == V1Kind::MpiJob && !is_mpi_operator(op) && (v1 == sleep || v1 == Some(r#"["365d"]"#)) => {
            Some("a V1 worker without a command slept (`sleep 365d`) while the launcher ran kubectl exec; a V2 node runs sshd (the runtime's command) for the launcher's SSH".into())
        }
        // A worker that ran its own command: V1's launcher reached it with kubectl exec (v1) or
        // the command had to serve SSH itself (v2beta1); V2's launcher needs sshd on every node.
        "command" | "args" if op.kind == V1Kind::MpiJob && runs_sshd(theirs) && !runs_sshd(ours) && worker => {
            Some("V2's launcher starts the ranks over SSH, so the node pods run sshd (the runtime's command) in place of the worker's own".into())
        }
        // mpi-operator v0.6.0:pkg/controller/mpi_job_controller.go:1442-1444.
        "command" | "args"
            if is_mpi_operator(op) && runs_sshd(ours) && runs_sshd(theirs) =>
        {
            Some("both run sshd for the launcher's SSH; V1's default, V2's from the runtime".into())
        }
        _ => None,
    }
}

impl PodFacts<'_> {
    /// The value a difference's `field` names, as the difference shows it (main container
    /// fields unprefixed).
    pub(super) fn value(&self, field: &str) -> Option<String> {
        let text = |v: &Json| match v {
            Json::String(s) => s.clone(),
            other => other.to_string(),
        };
        if let Some(k) = field.strip_prefix("labels.") {
            return self.labels.get(k).cloned();
        }
        if let Some(k) = field.strip_prefix("annotations.") {
            return self.annotations.get(k).cloned();
        }
        if let Some(k) = field.strip_prefix("volumes.") {
            return self.volumes.get(k).map(text);
        }
        if let Some(k) = field.strip_prefix("env.") {
            return self.main.env.get(k).cloned();
        }
        if let Some(k) = field.strip_prefix("volumeMounts.") {
            return self.main.mounts.get(k).cloned();
        }
        let named = |list: &[ContainerFacts], prefix: &str| {
            let name = field.strip_prefix(prefix)?.strip_suffix(']')?;
            list.iter().find(|c| c.name == name).map(ContainerFacts::summary)
        };
        if field.starts_with("initContainers[") {
            return named(&self.init, "initContainers[");
        }
        if field.starts_with("containers[") {
            return named(&self.sidecars, "containers[");
        }
        match field {
            "image" | "command" | "args" | "resources" | "securityContext" => self.main.scalar(field),
            "pod.securityContext" => self.settings.get("securityContext").map(text),
            k => self.settings.get(k).map(text),
        }
    }
}

/// The command with V1's `$(VAR)`s rewritten to the V2 variables that carry the same value
/// (`super::env`'s table; a count only where V1's and V2's values are equal).
fn rewritten(kind: V1Kind, ours: &ContainerFacts, theirs: &ContainerFacts, field: &str) -> Option<String> {
    let (mut text, target) = match field {
        "command" => (ours.command_text()?, theirs.command_text()?),
        _ => (ours.args_text()?, theirs.args_text()?),
    };
    let mut done = Vec::new();
    for r in super::env::table(kind) {
        let from = format!("$({})", r.v1);
        for to in
            r.v2.iter().filter(|v| **v != r.v1).map(|v| format!("$({v})")).filter(|to| target.contains(to.as_str()))
        {
            let name = &to[2..to.len() - 1];
            // A per-pod or per-system value (rank, address, port) is the same fact; a count must
            // be the same number.
            let same = r.v1 != "WORLD_SIZE" || ours.env.get(r.v1) == theirs.env.get(name);
            if text.contains(&from) && same {
                text = text.replace(&from, &to);
                done.push(format!("{from} → {to}"));
            }
        }
    }
    (text == target && !done.is_empty()).then(|| {
        format!("rewritten to V2's variables ({}); see the env entries for how the values relate", done.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::resources_facts;
    use crate::model::pod::Resources;
    use crate::model::Value;

    /// A container's resources read as one line of JSON: the lists in their order, each one's
    /// quantities sorted by name whatever order they were written in, a number as its text, an
    /// empty list left out, and no resources at all as none.
    #[test]
    fn resources_are_one_line_of_sorted_text_quantities() {
        let mut r = Resources::default();
        r.requests.insert("memory".into(), Value::from("1Gi"));
        r.requests.insert("cpu".into(), Value::from(2u64));
        r.requests.insert("nvidia.com/gpu".into(), Value::from("1"));
        assert_eq!(
            resources_facts(Some(&r)).as_deref(),
            Some(r#"{"requests":{"cpu":"2","memory":"1Gi","nvidia.com/gpu":"1"}}"#)
        );
        r.limits.insert("cpu".into(), Value::from("500m"));
        assert_eq!(
            resources_facts(Some(&r)).as_deref(),
            Some(r#"{"limits":{"cpu":"500m"},"requests":{"cpu":"2","memory":"1Gi","nvidia.com/gpu":"1"}}"#)
        );
        assert_eq!(resources_facts(Some(&Resources::default())), None);
        assert_eq!(resources_facts(None), None);
    }
}

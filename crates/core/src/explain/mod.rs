//! "What Kubernetes runs": from a TrainJob plus its runtime to what the Trainer controller makes of
//! them at a release: the JobSet, the pods of each replicatedJob with their environment, and the
//! objects around them (SSH Secret, hostfile, runtime snapshot, ...), or the validating webhook's
//! rejection.
//!
//! Pure: no I/O, no web-sys. Every rule is taken from the upstream Go code at the release's tag and
//! names its file and line (paths relative to github.com/kubeflow/trainer at `v2.3.0` unless a
//! comment names another tag). Where releases differ, the rule reads a fact of
//! [`explorer_data::releases::Controller`] (or another field of the release data), never a tag.
//! The pipeline follows the controller's: `newRuntimeInfo` (pod sets and counts), the ML-policy
//! plugins, the JobSet builder, then each component builder's objects.

mod after_admission;
mod build;
pub mod crd;
mod flux;
pub(crate) mod memo;
mod objects;
pub mod patch;
mod plugins;
mod podgroup;
pub mod quantity;
pub mod read;
pub mod selection;
pub mod sources;
pub mod summary;
mod torchtune;
pub mod v1;
mod validate;

/// A container's volume mounts as the view shows them: the pod comparison reads a V1
/// container's without building its view.
#[cfg(feature = "migrate")]
pub(crate) use build::mount_views;
/// The field a pod's index in its Job is read from (a `fieldRef`), as the view names it.
pub use build::COMPLETION_INDEX;
/// The views the pod comparison's own reader of a V1 container is held to (`migrate::pods::facts`).
#[cfg(all(test, feature = "migrate"))]
pub(crate) use build::{container_view, container_view_with_env};
/// A runtime alone, judged as the API server judges its creation.
pub use validate::check_runtime;
#[cfg(feature = "migrate")]
pub(crate) use validate::MPI_RESERVED;
/// The MPI hostfile past what one ConfigMap holds, as the controller meets it: migrate refuses an
/// MPIJob whose TrainJob would get one, with explain's words.
#[cfg(feature = "migrate")]
pub(crate) use {build::mpi_hostfile_past_limit, objects::hostfile_refused};

use crate::model::pod::{EnvVar, Resources};
use crate::model::v2::{DependsOn, TrainJob, TrainingRuntime};
use crate::model::vecmap::VecMap;
use crate::model::Value;
pub use explorer_data::releases::Release;
use serde::Serialize;
use std::borrow::Cow;

/// What the typed runtime model does not keep of a replicatedJob, and the controller reads:
/// `replicas` and `template.spec.parallelism`. `None` is Kubernetes' default (1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobCounts {
    /// The replicatedJob's `replicas`.
    pub replicas: Option<u32>,
    /// Its Job template's `spec.parallelism`.
    pub parallelism: Option<u32>,
}

/// What the typed TrainJob model (v2.3's shape) cannot hold of another release's TrainJob.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Legacy {
    /// `spec.trainer.numProcPerNode` written as a string (`auto`, `cpu`, `gpu`): v2.0-v2.1's
    /// IntOrString.
    pub num_proc_per_node: Option<String>,
    /// The TrainJob's v2.0/v2.1 pod-settings fields (`podSpecOverrides`, `podTemplateOverrides`)
    /// by name, as written.
    pub pod_settings: Vec<(String, Value)>,
    /// v2.0-v2.1's `spec.labels` and `spec.annotations`, which the controller copies onto the
    /// JobSet over the runtime template's (trainingruntime.go:126-141 @v2.1.0).
    pub labels: Option<VecMap<String, String>>,
    /// v2.0-v2.1's `spec.annotations`, as `labels` above.
    pub annotations: Option<VecMap<String, String>>,
}

/// A TrainJob with nothing outside the typed model.
pub(crate) static NO_LEGACY: Legacy =
    Legacy { num_proc_per_node: None, pod_settings: Vec::new(), labels: None, annotations: None };

/// A TrainJob and the runtime it references. `counts` lines up with the runtime's
/// `replicatedJobs` (missing entries mean the defaults).
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// The TrainJob.
    pub job: &'a TrainJob,
    /// The runtime it references.
    pub runtime: &'a TrainingRuntime,
    /// The counts the runtime model drops, one per replicatedJob.
    pub counts: &'a [JobCounts],
    /// What the TrainJob model drops of an older release's TrainJob.
    pub legacy: &'a Legacy,
    /// The TrainJob and runtime as written, when they were read from text: the CRD checks then
    /// see every field, also those the typed models do not keep.
    pub written: Option<Written<'a>>,
}

/// A TrainJob and its runtime as JSON, as the user wrote them.
#[derive(Clone, Copy, Debug)]
pub struct Written<'a> {
    /// The TrainJob as written.
    pub job: &'a serde_json::Value,
    /// The runtime as written, shared by the jobs of a paste on it (explain::memo finds its
    /// checks again by this `Rc`).
    pub runtime: &'a std::rc::Rc<serde_json::Value>,
}

impl<'a> Input<'a> {
    /// A TrainJob and runtime as the typed models hold them, with the default counts.
    pub fn new(job: &'a TrainJob, runtime: &'a TrainingRuntime) -> Input<'a> {
        Input { job, runtime, counts: &[], legacy: &NO_LEGACY, written: None }
    }

    /// The TrainJob and runtime as the API server receives them: as written, or else the typed
    /// models with the legacy fields put back.
    pub(crate) fn as_json(&self) -> (Cow<'a, serde_json::Value>, Cow<'a, serde_json::Value>) {
        if let Some(w) = self.written {
            return (Cow::Borrowed(w.job), Cow::Borrowed(&**w.runtime));
        }
        let mut job = serde_json::to_value(self.job).unwrap_or_default();
        if let Some(spec) = job.get_mut("spec").and_then(serde_json::Value::as_object_mut) {
            if let Some(text) = &self.legacy.num_proc_per_node {
                if let Some(trainer) = spec.get_mut("trainer").and_then(serde_json::Value::as_object_mut) {
                    trainer.insert("numProcPerNode".into(), text.clone().into());
                }
            }
            for (name, value) in &self.legacy.pod_settings {
                spec.insert(name.clone(), serde_json::to_value(value).unwrap_or_default());
            }
        }
        let runtime = serde_json::to_value(self.runtime).unwrap_or_default();
        (Cow::Owned(job), Cow::Owned(runtime))
    }
}

/// What the Trainer controller of a release makes of a TrainJob and its runtime: the JobSet, the
/// pods and the objects around them, or why nothing is created.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    /// The full tag, e.g. `v2.3.0`.
    pub trainer: String,
    /// The JobSet the controller creates; `None` when nothing is created.
    pub jobset: Option<JobSetView>,
    /// The pods of each replicatedJob.
    pub pods: Vec<PodGroup>,
    /// The other objects (Secrets, ConfigMaps, PodGroups, ...), who creates each and when.
    pub objects: Vec<Object>,
    /// Set when `spec.managedBy` names another controller (Kueue's MultiKueue): the Trainer
    /// controller leaves the TrainJob alone and creates nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub managed_by: Option<String>,
    /// Where the runtime came from when the reader does not see it beside the TrainJob: the
    /// release's shipped one (the input held none), or the one a migration wrote with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shipped_runtime: Option<String>,
    /// Every error the release's API server (CRD schema and rules) and validating webhook give,
    /// in the order they report them; empty when the TrainJob is admitted. Nothing is created
    /// when it is not empty.
    pub rejected: Vec<Rejection>,
    /// When `rejected` is empty: errors that come after the API server and the webhook admitted
    /// the TrainJob (a negative count, explain::after_admission), each saying what refuses it and
    /// when. The TrainJob exists, but what it asks for does not run: nothing is shown as created.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fails_after_admission: Vec<Rejection>,
}

/// The JobSet as the controller writes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JobSetView {
    /// Its name: the TrainJob's.
    pub name: String,
    /// Copied from the TrainJob: Kueue admits a queued job by flipping it to false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,
    /// Its labels: the runtime template's, with (v2.0-v2.1) the TrainJob's `spec.labels` over them.
    #[serde(skip_serializing_if = "VecMap::is_empty")]
    pub labels: VecMap<String, String>,
    /// Its annotations, as the labels.
    #[serde(skip_serializing_if = "VecMap::is_empty")]
    pub annotations: VecMap<String, String>,
    /// Its replicated jobs, in the runtime's order.
    pub replicated_jobs: Vec<ReplicatedJobView>,
    /// As the runtime sets them; `null` leaves them to JobSet's defaults.
    pub success_policy: Option<Value>,
    /// As `success_policy`.
    pub failure_policy: Option<Value>,
}

/// One replicated job of the JobSet, with the counts JobSet reads.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplicatedJobView {
    /// Its name (`node`, `launcher`, ...).
    pub name: String,
    /// How many Jobs of it JobSet creates.
    pub replicas: u32,
    /// Pods each Job runs at once.
    pub parallelism: u32,
    /// Pods each Job must complete.
    pub completions: u32,
    /// The jobs it waits for.
    pub depends_on: Vec<DependsOn>,
    /// The Job template's own labels and annotations.
    #[serde(skip_serializing_if = "VecMap::is_empty")]
    pub labels: VecMap<String, String>,
    /// As `labels`.
    #[serde(skip_serializing_if = "VecMap::is_empty")]
    pub annotations: VecMap<String, String>,
}

/// The pods of one replicatedJob.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PodGroup {
    /// The replicated job the pods belong to.
    pub replicated_job: String,
    /// How many pods it runs.
    pub count: u32,
    /// `<job>-<rjob>-<replica>-<index>.<subdomain>`, in index order.
    pub hostnames: Vec<String>,
    /// The pod template's labels and annotations, with those a gang scheduler's plugin adds.
    #[serde(skip_serializing_if = "VecMap::is_empty")]
    pub labels: VecMap<String, String>,
    /// As `labels`.
    #[serde(skip_serializing_if = "VecMap::is_empty")]
    pub annotations: VecMap<String, String>,
    /// The pod-level fields (everything but the containers): serviceAccountName, nodeSelector,
    /// affinity, tolerations, volumes, ...
    #[serde(skip_serializing_if = "VecMap::is_empty")]
    pub spec: crate::model::Map,
    /// Their containers and init containers (`init` tells them apart).
    pub containers: Vec<ContainerView>,
}

/// One container of a pod as the controller leaves it, its environment resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerView {
    /// Its name.
    pub name: String,
    /// Its image.
    pub image: Option<String>,
    /// Its command.
    pub command: Vec<String>,
    /// Its args.
    pub args: Vec<String>,
    /// Its container ports.
    pub ports: Vec<i64>,
    /// The names the runtime (or the V1 job) gives its ports, by port number; most have none.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub port_names: std::collections::BTreeMap<i64, String>,
    /// Its resources.
    pub resources: Option<Resources>,
    /// Name to value, as [`EnvValue`] tells: one text for every pod, the source Kubernetes fills
    /// it from in each pod, or (V1, where the operator writes each pod) one entry per pod.
    pub env: VecMap<String, EnvValue>,
    /// Whole Secrets or ConfigMaps read as env: `secretRef:NAME`, `configMapRef:NAME`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub env_from: Vec<String>,
    /// In the container's order; one volume may be mounted at several paths.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub volume_mounts: Vec<MountView>,
    /// Its `securityContext`, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub security_context: Option<Value>,
    /// An init container (runs to completion before the others start).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub init: bool,
}

/// One volume mount of a container.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MountView {
    /// The volume's name.
    pub name: String,
    /// Where it is mounted.
    pub mount_path: String,
    /// Whether it is mounted read-only.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub read_only: bool,
}

/// An object next to the JobSet (a Secret, a ConfigMap, a PodGroup, ...).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Object {
    /// Its kind.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Who creates it (the Trainer controller, a plugin, JobSet, ...).
    pub created_by: String,
    /// When it is created.
    pub when: String,
    /// Content the controller writes at creation, key by key, exactly as it writes it (a
    /// ConfigMap's `data`: a hostfile, a script).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<VecMap<String, String>>,
    /// Keys the real object also holds whose content is not known here (a key pair generated at
    /// creation) or not written out, each with a sentence on what it holds. Apart from `data`, so
    /// a script never takes a description for content.
    #[serde(skip_serializing_if = "VecMap::is_empty")]
    pub described: VecMap<String, String>,
    /// How the content changes after creation, when the controller rewrites it as pods run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<String>,
    /// The object's `spec` as the controller writes it, in Kubernetes' shape (a V1
    /// HorizontalPodAutoscaler's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec: Option<serde_json::Value>,
}

impl Object {
    /// An object of which nothing is known yet but who creates it and when.
    pub fn new(kind: &str, name: String, created_by: &str, when: &str) -> Object {
        Object {
            kind: kind.into(),
            name,
            created_by: created_by.into(),
            when: when.into(),
            data: None,
            described: VecMap::new(),
            changes: None,
            spec: None,
        }
    }

    /// Keys whose content is only described (see `described`).
    pub fn described(mut self, keys: &[(&str, &str)]) -> Object {
        self.described = keys.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        self
    }

    /// How the content changes after creation (see `changes`).
    pub fn changes(mut self, how: &str) -> Object {
        self.changes = Some(how.into());
        self
    }
}

/// One error the API server or the validating webhook answers instead of creating anything:
/// its type, the field path it names and its detail (`k8s::field`).
pub use crate::k8s::field::{ErrorType, Path as FieldPath, Rejection};

/// What the controller of `release` creates for this TrainJob, or the rejection the API server or
/// the webhook gives at that release.
pub fn explain(input: Input, release: Release) -> Explanation {
    explain_patched(input, release).0
}

/// [`explain`], and the runtime with the TrainJob's pod settings merged in
/// ([`patch::patched_runtime`]) where the controller got as far as merging them (`None` when
/// the TrainJob is rejected or another controller manages it): the pod comparison reads the
/// merged pod templates, and merging them again cost as much as reading them, for every job.
pub(crate) fn explain_patched(input: Input, release: Release) -> (Explanation, Option<TrainingRuntime>) {
    let trainer = release.tag.to_string();
    let rejected = validate::check(input, release);
    if !rejected.is_empty() {
        return (Explanation::rejected(trainer, rejected), None);
    }
    // pkg/controller/trainjob_controller.go:89-92 and pkg/util/trainjob/trainjob.go:39-41
    // @v2.3.0: a TrainJob another controller manages is skipped, nothing is created.
    let other_manager = input.job.spec.managed_by.as_deref().filter(|m| *m != TRAINJOB_CONTROLLER);
    if let Some(other) = other_manager.filter(|_| release.controller.skips_other_managers) {
        return (Explanation { managed_by: Some(other.to_string()), ..Explanation::rejected(trainer, vec![]) }, None);
    }
    let runtime = patch::patched_runtime(input);
    let explanation = explained(Input { runtime: &runtime, ..input }, release, trainer);
    (explanation, Some(runtime))
}

/// What the controller builds for a TrainJob on its runtime with the pod settings merged in.
fn explained(input: Input, release: Release, trainer: String) -> Explanation {
    match build::run(input, release) {
        Ok(built) => Explanation {
            trainer,
            jobset: Some(built.jobset),
            pods: built.pods,
            objects: built.objects,
            managed_by: None,
            shipped_runtime: None,
            rejected: vec![],
            fails_after_admission: vec![],
        },
        // The controller's reconcile error (the webhook let it through): shown the same way.
        Err(rejected) => Explanation::rejected(trainer, vec![rejected]),
    }
}

/// The most pods `explain` models for one job. Kubernetes supports at most 150,000 pods in a
/// cluster (kubernetes.io/docs/setup/best-practices/cluster-large/, "No more than 150,000 total
/// pods"): a job asking for more cannot run anywhere, and listing its hostnames, hostfile or
/// TF_CONFIG would take gigabytes, so it gets a message instead of a hang.
pub const MAX_PODS: u64 = 150_000;

/// etcd's default limit on one request: 1.5 MiB (`--max-request-bytes`; etcd
/// v3.6.14:server/embed/config.go:67, the same in v3.5.17:server/embed/config.go:59). etcd refuses
/// a larger write ("etcdserver: request is too large", v3.6.14:server/etcdserver/v3_server.go:863-865),
/// so the API server cannot store an object larger than that: a pod whose environment alone is
/// larger is never created.
pub const ETCD_REQUEST_LIMIT: u64 = 1_572_864;

/// The most data one ConfigMap holds: 1 MiB, its `data` and `binaryData` values together. The API
/// server's validation refuses a larger ConfigMap before etcd sees it (Kubernetes
/// pkg/apis/core/validation/validation.go `ValidateConfigMap`: `totalSize > core.MaxSecretSize`,
/// cited by function, as the Kubernetes repository is too large to mirror here; the constant is
/// `kubernetes/api v0.36.3:core/v1/types.go:7970`), so an MPI hostfile past it is never created.
pub const CONFIGMAP_DATA_LIMIT: u64 = 1_048_576;

/// The decimal digits of 0, 1, ..., `count - 1` written one after another.
pub(crate) fn digits_of_indices(count: u32) -> u64 {
    let count = u64::from(count);
    let (mut total, mut digits, mut from, mut next_width) = (0, 1, 0, 10);
    // [0, 10) one digit each, [10, 100) two, ...
    while from < count {
        let to = next_width.min(count);
        total += (to - from) * digits;
        (from, next_width, digits) = (to, next_width * 10, digits + 1);
    }
    total
}

/// The message for a job of `pods` pods, above [`MAX_PODS`], ending in what the command does not
/// do with them (`"explain does not model them"`).
pub(crate) fn too_many_pods(pods: u64, so: &str) -> String {
    format!(
        "{pods} pods: no Kubernetes cluster runs that many (the supported limit is {MAX_PODS} pods per cluster), so {so}"
    )
}

/// `spec.managedBy`'s default (pkg/util/trainjob/trainjob.go:33 @v2.3.0).
pub(crate) const TRAINJOB_CONTROLLER: &str = "trainer.kubeflow.org/trainjob-controller";
/// The GPUs per node Trainer reads from a runtime alone, for a TrainJob without
/// `resourcesPerNode` (see `plugins::resources_per_node`): what MPI's slots follow from v2.1.
#[cfg(feature = "migrate")]
pub(crate) fn runtime_gpus_per_node(runtime: &TrainingRuntime) -> u64 {
    let job = TrainJob {
        api_version: crate::model::v2::API_VERSION.into(),
        kind: "TrainJob".into(),
        metadata: Default::default(),
        spec: Default::default(),
    };
    plugins::gpus(plugins::resources_per_node(Input::new(&job, runtime)).as_ref())
}

impl Explanation {
    /// Nothing is created: the answer is the rejection (one or more errors).
    pub fn rejected(trainer: String, rejected: Vec<Rejection>) -> Explanation {
        Explanation {
            trainer,
            jobset: None,
            pods: vec![],
            objects: vec![],
            managed_by: None,
            shipped_runtime: None,
            rejected,
            fails_after_admission: vec![],
        }
    }

    /// `self` with the negative counts taken out before it was judged: those a webhook refuses
    /// join `rejected`; those admitted, when nothing else is refused, are the answer.
    fn with_negative_counts(self, counts: after_admission::NegativeCounts) -> Explanation {
        let shipped_runtime = self.shipped_runtime.clone();
        if !counts.refused.is_empty() {
            let mut rejected = self.rejected;
            rejected.extend(counts.refused);
            return Explanation { shipped_runtime, ..Explanation::rejected(self.trainer, rejected) };
        }
        // Another controller's TrainJob (managedBy): this one builds nothing that could fail.
        if !self.rejected.is_empty() || counts.later.is_empty() || self.managed_by.is_some() {
            return self;
        }
        Explanation {
            shipped_runtime,
            fails_after_admission: counts.later,
            ..Explanation::rejected(self.trainer, vec![])
        }
    }

    /// Admitted: the API server and the webhook raised no error.
    pub fn admitted(&self) -> bool {
        self.rejected.is_empty()
    }
}

/// One env variable of a group of pods, as data a script reads without parsing strings.
///
/// The JSON is a string when every pod has the same text (most variables, so the common case
/// stays `"NAME": "value"`); Kubernetes' own `{"valueFrom": {...}}` when Kubernetes fills it in each
/// pod (a V2 pod template's completion index, a Secret's key), so a reader who knows a pod spec
/// knows it; and `{"perPod": [...]}` when the operator wrote a different value into each pod (V1):
/// index `i` is pod `i`'s value, `null` where that pod has no such variable (an empty value is
/// `""`, so the two stay apart). One entry per pod rather than a map of distinct values: a script
/// asks "what does pod 3 get", and reads it as `perPod[3]`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum EnvValue {
    /// The same text in every pod.
    Text(String),
    /// Filled in by Kubernetes in each pod.
    From {
        /// Kubernetes' `valueFrom`, as written.
        #[serde(rename = "valueFrom")]
        value_from: Value,
    },
    /// A value per pod, written by the operator (V1).
    PerPod {
        /// The first [`v1::PODS_MODELLED`] pods at most, in index order (the pods past them
        /// differ from these only by their index).
        #[serde(rename = "perPod")]
        per_pod: Vec<Option<EnvValue>>,
        /// How many pods the group has, for the text form's "(the first 16 of 64 pods)".
        #[serde(skip)]
        pods: u32,
    },
}

/// An env var's value as Kubernetes gives it to the pod, borrowed from the variable: what
/// [`EnvValue::of`] copies.
#[derive(PartialEq)]
enum Given<'a> {
    Text(&'a str),
    From(&'a Value),
}

impl Given<'_> {
    fn of(var: &EnvVar) -> Given<'_> {
        match (&var.value, &var.value_from) {
            (None, Some(from)) => Given::From(from),
            (value, _) => Given::Text(value.as_deref().unwrap_or_default()),
        }
    }
}

impl EnvValue {
    /// An env var's value as Kubernetes gives it to the pod: its text, or its source.
    pub fn of(var: &EnvVar) -> EnvValue {
        match Given::of(var) {
            Given::From(from) => EnvValue::From { value_from: from.clone() },
            Given::Text(text) => EnvValue::Text(text.into()),
        }
    }

    /// [`EnvValue::of`] of a variable the caller hands over, and its name: moved, not copied.
    pub(crate) fn of_owned(var: EnvVar) -> (String, EnvValue) {
        let value = match (var.value, var.value_from) {
            (None, Some(value_from)) => EnvValue::From { value_from },
            (value, _) => EnvValue::Text(value.unwrap_or_default()),
        };
        (var.name, value)
    }

    /// Whether two variables give their pods the same value (`of` each would be equal), without
    /// copying either: a V1 role's pods are compared variable by variable.
    pub(crate) fn same(a: &EnvVar, b: &EnvVar) -> bool {
        Given::of(a) == Given::of(b)
    }

    /// [`EnvValue::text`] of a value the caller hands over: a text is moved, not copied.
    #[cfg(feature = "migrate")]
    pub(crate) fn into_text(self) -> String {
        match self {
            EnvValue::Text(text) => text,
            other => other.text(),
        }
    }

    /// How the value reads in a line of text (the HTML view, the pod comparison): the value, the
    /// source as `fieldRef:PATH` or `secretKeyRef:NAME/KEY`, or `per pod: ["0",null]`.
    pub fn text(&self) -> String {
        match self {
            EnvValue::Text(text) => text.clone(),
            EnvValue::From { value_from } => source_text(value_from),
            EnvValue::PerPod { per_pod, pods } => {
                let texts: Vec<Option<String>> = per_pod.iter().map(|v| v.as_ref().map(EnvValue::text)).collect();
                let list = serde_json::to_string(&texts).unwrap_or_default();
                let more = if *pods as usize > per_pod.len() {
                    format!(" (the first {} of {pods} pods)", per_pod.len())
                } else {
                    String::new()
                };
                format!("per pod: {list}{more}")
            }
        }
    }
}

/// How an env var reads in the view: its value, or where a per-pod value comes from. What
/// `EnvValue::of(var).text()` gives, read from the variable without copying its source first.
pub fn env_text(var: &EnvVar) -> String {
    match Given::of(var) {
        Given::Text(text) => text.to_owned(),
        Given::From(from) => source_text(from),
    }
}

/// A `valueFrom` in one line: `fieldRef:PATH`, `KIND:NAME/KEY`.
fn source_text(from: &Value) -> String {
    let Value::Object(from) = from else { return String::new() };
    match from.iter().next() {
        Some((kind, Value::Object(sel))) if kind == "fieldRef" => match sel.get("fieldPath") {
            Some(Value::String(path)) => format!("fieldRef:{path}"),
            _ => "fieldRef:".into(),
        },
        Some((kind, Value::Object(sel))) => {
            let text = |k: &str| match sel.get(k) {
                Some(Value::String(s)) => s.clone(),
                _ => String::new(),
            };
            format!("{kind}:{}/{}", text("name"), text("key"))
        }
        Some((kind, _)) => format!("{kind}:"),
        None => String::new(),
    }
}

//! The controller's pipeline at v2.3.0, in its order:
//! 1. `newRuntimeInfo` (pkg/runtime/core/trainingruntime.go:141-249): one pod set per replicatedJob
//!    with its count, and `resourcesPerNode` merged into the trainer's `node` container;
//! 2. the ML-policy plugins (`plugins/`, one file per plugin);
//! 3. the JobSet plugin's `IdentifyPodNetwork`, `SyncParallelCount` and `Build`
//!    (pkg/runtime/framework/plugins/jobset/jobset.go, builder.go);
//! 4. the objects each component builder adds (`objects.rs`).

use super::plugins::{self, MpiOutcome, Policy};
use super::{ContainerView, EnvValue, Input, JobSetView, MountView, Object, PodGroup, Rejection, ReplicatedJobView};
use crate::model::pod::{Container, ContainerPort, EnvVar, Resources};
use crate::model::v2::ReplicatedJob;
use crate::model::vecmap::VecMap;
use crate::model::Value;
use explorer_data::releases::{Release, ResourcesPerNodeRule};

/// pkg/constants/constants.go:41,66,69,92 at v2.3.0.
pub(super) const ANCESTOR_LABEL: &str = "trainer.kubeflow.org/trainjob-ancestor-step";
pub(super) const ANCESTOR_TRAINER: &str = "trainer";
pub(super) const NODE: &str = "node";
pub(super) const LAUNCHER: &str = "launcher";
pub(super) const DATASET_INITIALIZER: &str = "dataset-initializer";
pub(super) const MODEL_INITIALIZER: &str = "model-initializer";
/// constants.go:72 `ContainerTrainerPort`.
pub(super) const TRAINER_PORT: i64 = 29500;
pub use crate::plain_ml::COMPLETION_INDEX;

/// The controller's `runtime.PodSet` (pkg/runtime/runtime.go:63-78), for one replicatedJob.
#[derive(Clone, Debug)]
pub(super) struct PodSet {
    pub name: String,
    pub ancestor: Option<String>,
    pub count: u32,
    /// The runtime's `replicas` (default 1): what `IdentifyPodNetwork` counts endpoints with.
    pub runtime_replicas: u32,
    pub containers: Vec<Container>,
    pub init_containers: Vec<Container>,
    /// The pod's volumes, the runtime's and those the plugins add (`apply.UpsertVolumes`).
    pub volumes: Vec<Value>,
    /// The rest of the pod spec (serviceAccountName, nodeSelector, affinity, ...), as the runtime
    /// and the TrainJob's pod settings leave it.
    pub pod_fields: crate::model::Map,
    /// The pod template's labels and annotations, then those the scheduler plugins add
    /// (`info.Scheduler.PodLabels`, `PodAnnotations`).
    pub pod_labels: VecMap<String, String>,
    pub pod_annotations: VecMap<String, String>,
}

pub(super) struct Built {
    pub jobset: JobSetView,
    pub pods: Vec<PodGroup>,
    pub objects: Vec<Object>,
}

pub(super) fn job_name(input: Input) -> String {
    input.job.metadata.name.clone().unwrap_or_default()
}

/// The headless Service's name: `network.subdomain`, else the TrainJob's name (jobset.go:281-284).
pub(super) fn subdomain(input: Input) -> String {
    let custom = input.runtime.spec.template.spec.network.as_ref().and_then(|n| match n {
        Value::Object(m) => match m.get("subdomain") {
            Some(Value::String(s)) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    });
    custom.unwrap_or_else(|| job_name(input))
}

fn ancestor_of(rjob: &ReplicatedJob) -> Option<String> {
    rjob.template.metadata.as_ref().and_then(|m| m.labels.get(ANCESTOR_LABEL).cloned())
}

/// Upsert by name, as `apply.UpsertEnvVars`: replace in place, else append.
pub(super) fn upsert_env(env: &mut Vec<EnvVar>, vars: impl IntoIterator<Item = EnvVar>) {
    for var in vars {
        match env.iter_mut().find(|e| e.name == var.name) {
            Some(slot) => *slot = var,
            None => env.push(var),
        }
    }
}

pub(super) fn upsert_port(ports: &mut Vec<ContainerPort>, port: i64) {
    if !ports.iter().any(|p| p.container_port == port) {
        ports.push(ContainerPort { container_port: port, name: None, protocol: None });
    }
}

/// `apply.UpsertVolumeMounts` (pkg/apply/apply.go:55-59,72-74): a mount replaces the one at the
/// same path, else it is appended; one volume may be mounted at several paths.
pub(super) fn upsert_mount(c: &mut Container, name: &str, path: &str, read_only: bool) {
    let mut mount = crate::tree!({"name": name, "mountPath": path});
    if read_only {
        if let Value::Object(m) = &mut mount {
            m.insert("readOnly".into(), Value::Bool(true));
        }
    }
    let same_path = |m: &Value| matches!(m, Value::Object(o) if o.get("mountPath") == Some(&Value::from(path)));
    match c.volume_mounts.iter_mut().find(|m| same_path(m)) {
        Some(slot) => *slot = mount,
        None => c.volume_mounts.push(mount),
    }
}

/// `apply.UpsertVolumes` (apply.go:49-53): by volume name.
pub(super) fn upsert_volume(volumes: &mut Vec<Value>, volume: Value) {
    let name = |v: &Value| match v {
        Value::Object(o) => o.get("name").cloned(),
        _ => None,
    };
    let key = name(&volume);
    match volumes.iter_mut().find(|v| name(v) == key) {
        Some(slot) => *slot = volume,
        None => volumes.push(volume),
    }
}

pub(super) fn field_ref_env(name: &str, path: &str) -> EnvVar {
    EnvVar { name: name.into(), value: None, value_from: Some(crate::tree!({"fieldRef": {"fieldPath": path}})) }
}

/// `resourcesPerNode` merged over the container's own resources, key by key, as the strategic
/// merge in pkg/util/trainingruntime/trainingruntime.go:47-65 does for `limits` and `requests`.
fn merge_resources(base: Option<&Resources>, over: &Resources) -> Resources {
    let mut out = base.cloned().unwrap_or_default();
    for (k, v) in over.limits.iter() {
        out.limits.insert(k.clone(), v.clone());
    }
    for (k, v) in over.requests.iter() {
        out.requests.insert(k.clone(), v.clone());
    }
    out
}

/// `newRuntimeInfo` (trainingruntime.go:186-246): counts and the TrainJob's resources.
fn pod_sets(input: Input, release: Release) -> Vec<PodSet> {
    let rule = release.controller.resources_per_node;
    let ml = input.runtime.spec.ml_policy.as_ref();
    let launcher_as_node = ml.and_then(|m| m.mpi.as_ref()).and_then(|m| m.run_launcher_as_node).unwrap_or(false);
    let over = input.job.spec.trainer.as_ref().and_then(|t| t.resources_per_node.as_ref());
    let rjobs = &input.runtime.spec.template.spec.replicated_jobs;
    rjobs
        .iter()
        .enumerate()
        .map(|(i, rjob)| {
            let counts = input.counts.get(i).copied().unwrap_or_default();
            let ancestor = ancestor_of(rjob);
            let is_trainer = ancestor.as_deref() == Some(ANCESTOR_TRAINER) && ml.is_some();
            // :189 count is the Job's parallelism; :193-195 the trainer's is the runtime's numNodes.
            let mut count = counts.parallelism.unwrap_or(1);
            if is_trainer {
                count = ml.and_then(|m| m.num_nodes).unwrap_or(1);
            }
            let mut containers = rjob.template.spec.template.spec.containers.clone();
            // :199-237 resourcesPerNode reaches the trainer's `node` container, and MPI's `node`
            // job when the launcher runs as a node (from v2.1.0, builder.go:142-162; v2.0.1
            // builder.go:111-144 only the trainer's). Until v2.2.1 the builder replaces the
            // container's resources (builder.go:148-158 @v2.2.1); v2.3.0 merges them.
            let as_node_job = launcher_as_node && rjob.name == NODE && rule != ResourcesPerNodeRule::ReplaceTrainer;
            if let Some(over) = over.filter(|o| !o.is_empty()) {
                if is_trainer || as_node_job {
                    if let Some(c) = containers.iter_mut().find(|c| c.name == NODE) {
                        c.resources = Some(match rule {
                            ResourcesPerNodeRule::Merge => merge_resources(c.resources.as_ref(), over),
                            _ => over.clone(),
                        });
                    }
                }
            }
            let pod = &rjob.template.spec.template;
            let meta = pod.metadata.clone().unwrap_or_default();
            PodSet {
                name: rjob.name.clone(),
                ancestor,
                // runtime.go:147 `max(count, 1)`.
                count: count.max(1),
                runtime_replicas: counts.replicas.unwrap_or(1),
                containers,
                init_containers: pod.spec.init_containers.clone(),
                volumes: pod.spec.volumes.clone(),
                pod_fields: pod_fields(&pod.spec),
                pod_labels: meta.labels,
                pod_annotations: meta.annotations,
            }
        })
        .collect()
}

/// A pod spec without what the view shows on its own: containers, init containers, volumes.
fn pod_fields(spec: &crate::model::pod::PodSpec) -> crate::model::Map {
    let mut fields = match crate::model::to_value(spec) {
        Value::Object(m) => m,
        _ => crate::model::Map::new(),
    };
    for shown in ["containers", "initContainers", "volumes"] {
        fields.remove(shown);
    }
    fields
}

/// `IdentifyPodNetwork` (jobset.go:285-297): replica-major, then pod index.
pub(super) fn endpoints(input: Input, name: &str, replicas: u32, count: u32) -> Vec<String> {
    let job = job_name(input);
    let sub = subdomain(input);
    (0..replicas)
        .flat_map(|r| (0..count).map(move |p| (r, p)))
        .map(|(r, p)| endpoint(&job, name, &r.to_string(), &p.to_string(), &sub))
        .collect()
}

/// One pod's address in [`endpoints`]: `<job>-<replicatedJob>-<replica>-<pod>.<subdomain>`
/// (jobset.go:285-297); with empty indices, the text every address of the replicatedJob shares.
pub(super) fn endpoint(job: &str, name: &str, replica: &str, pod: &str, subdomain: &str) -> String {
    format!("{job}-{name}-{replica}-{pod}.{subdomain}")
}

/// The bytes of the MPI hostfile, where they are more than one ConfigMap holds
/// (`explain::CONFIGMAP_DATA_LIMIT`): the API server refuses that ConfigMap.
fn hostfile_past_limit(input: Input, sets: &[PodSet], mpi: &MpiOutcome) -> Option<u64> {
    let bytes = super::objects::hostfile_bytes(input, sets, mpi);
    (bytes > super::CONFIGMAP_DATA_LIMIT).then_some(bytes)
}

/// The bytes of the MPI hostfile the controller of `release` would write for `input`, where they
/// are more than one ConfigMap holds: `run`'s own check, for migrate, which writes the TrainJob
/// and so must not write one whose hostfile the API server refuses. `None` also where the runtime
/// has no MPI policy or the MPI plugin refuses the job first. The runtime is not patched with the
/// TrainJob's pod settings first, as `explain` does: they set no count, replicatedJob name or
/// subdomain, which are all the hostfile reads.
#[cfg(feature = "migrate")]
pub(crate) fn mpi_hostfile_past_limit(input: Input, release: Release) -> Option<u64> {
    let mut sets = pod_sets(input, release);
    let mpi = plugins::enforce(input, release, &Policy::of(input), &mut sets).ok()??;
    hostfile_past_limit(input, &sets, &mpi)
}

pub(super) fn run(input: Input, release: Release) -> Result<Built, Rejection> {
    let mut sets = pod_sets(input, release);
    let policy = Policy::of(input);
    let mpi = plugins::enforce(input, release, &policy, &mut sets)?;
    let flux_command = super::flux::enforce(input, &mut sets)?;
    super::podgroup::enforce(input, &mut sets);
    let trainer = input.job.spec.trainer.as_ref();
    // builder.go:142-162 @v2.2.1: the TrainJob's env also reaches MPI's `node` job when the
    // launcher runs as a node (not in v2.0.1, builder.go:145-148).
    let launcher_as_node = mpi.as_ref().is_some_and(|m| m.launcher_as_node)
        && release.controller.resources_per_node != ResourcesPerNodeRule::ReplaceTrainer;
    let pods: u64 = sets.iter().map(|s| u64::from(s.runtime_replicas) * u64::from(s.count)).sum();
    if pods > super::MAX_PODS {
        return Err(Rejection::message(
            "spec.trainer.numNodes",
            super::too_many_pods(pods, "explain does not model them"),
        ));
    }
    if let Some(bytes) = mpi.as_ref().and_then(|mpi| hostfile_past_limit(input, &sets, mpi)) {
        return Err(super::objects::hostfile_too_large(bytes));
    }
    let rjobs = &input.runtime.spec.template.spec.replicated_jobs;

    let mut views = Vec::new();
    let mut pods = Vec::new();
    for (set, rjob) in sets.iter_mut().zip(rjobs) {
        let ancestor = set.ancestor.as_deref();
        // builder.go:52,78,123: initializers and the trainer run one replica.
        let replicas = match ancestor {
            Some(ANCESTOR_TRAINER | DATASET_INITIALIZER | MODEL_INITIALIZER) => 1,
            _ => set.runtime_replicas,
        };
        super::objects::initializer_env(input, ancestor, &mut set.containers);
        for c in set.containers.iter_mut().filter(|c| c.name == NODE) {
            if ancestor == Some(ANCESTOR_TRAINER) {
                // builder.go:128-138: the TrainJob's image, command and args win.
                if let Some(t) = trainer {
                    if let Some(image) = &t.image {
                        c.image = Some(image.clone());
                    }
                    // flux.go:150-152: Flux replaces the TrainJob's command and drops its args
                    // (they are in the command line it wraps), so the runtime's args stay.
                    match &flux_command {
                        Some(command) => c.command = command.clone(),
                        None => {
                            if !t.command.is_empty() {
                                c.command = t.command.clone();
                            }
                            if !t.args.is_empty() {
                                c.args = t.args.clone();
                            }
                        }
                    }
                }
            }
            // builder.go:142-155: the TrainJob's env, after what the plugins set.
            if ancestor == Some(ANCESTOR_TRAINER) || (launcher_as_node && set.name == NODE) {
                if let Some(t) = trainer {
                    upsert_env(&mut c.env, t.env.iter().cloned());
                }
            }
        }
        // Torchtune rewrites the command it was given (torch.go:175-201).
        if ancestor == Some(ANCESTOR_TRAINER) {
            if let Some(command) = super::torchtune::command(input, release, &policy, set.count) {
                if let Some(c) = set.containers.iter_mut().find(|c| c.name == NODE) {
                    c.command = command;
                }
            }
        }
        // jobset.go:316-317 SyncParallelCount: parallelism and completions are the pod set's count.
        let job_meta = rjob.template.metadata.clone().unwrap_or_default();
        views.push(ReplicatedJobView {
            name: set.name.clone(),
            replicas,
            parallelism: set.count,
            completions: set.count,
            depends_on: rjob.depends_on.clone(),
            labels: job_meta.labels,
            annotations: job_meta.annotations,
        });
        let mut spec = set.pod_fields.clone();
        if !set.volumes.is_empty() {
            spec.insert("volumes".into(), Value::Array(set.volumes.clone()));
        }
        pods.push(PodGroup {
            replicated_job: set.name.clone(),
            count: replicas * set.count,
            hostnames: endpoints(input, &set.name, replicas, set.count),
            labels: set.pod_labels.clone(),
            annotations: set.pod_annotations.clone(),
            spec,
            // Init containers first, in the order the kubelet runs them.
            containers: set
                .init_containers
                .iter()
                .map(|c| ContainerView { init: true, ..container_view(c) })
                .chain(set.containers.iter().map(container_view))
                .collect(),
        });
    }

    let template = &input.runtime.spec.template;
    let (labels, annotations) = propagated_metadata(input);
    let jobset = JobSetView {
        name: job_name(input),
        // builder.go:176-178 and jobset.go:425.
        suspend: input.job.spec.suspend,
        // trainingruntime.go:144-161: the runtime template's labels, then the patches'.
        labels,
        annotations,
        replicated_jobs: views,
        success_policy: template.spec.success_policy.clone(),
        failure_policy: template.spec.failure_policy.clone(),
    };
    let objects = super::objects::objects(input, release, &sets, mpi.as_ref());
    Ok(Built { jobset, pods, objects })
}

/// The JobSet's labels and annotations: the runtime template's, then (v2.2+) each runtime
/// patch's `trainingRuntimeSpec.template.metadata` over them in patch order
/// (trainingruntime.go:144-161 @v2.3.0), or (v2.0-v2.1) the TrainJob's `spec.labels` and
/// `spec.annotations` (trainingruntime.go:126-141 @v2.1.0).
pub(super) fn propagated_metadata(input: Input) -> (VecMap<String, String>, VecMap<String, String>) {
    let meta = input.runtime.spec.template.metadata.clone().unwrap_or_default();
    let (mut labels, mut annotations) = (meta.labels, meta.annotations);
    let strings = |v: Option<&Value>, into: &mut VecMap<String, String>| {
        if let Some(Value::Object(m)) = v {
            for (k, v) in m.iter() {
                if let Value::String(v) = v {
                    into.insert(k.clone(), v.clone());
                }
            }
        }
    };
    for patch in &input.job.spec.runtime_patches {
        let at = |key: &str| {
            ["trainingRuntimeSpec", "template", "metadata", key].iter().try_fold(patch, |v, k| match v {
                Value::Object(m) => m.get(*k),
                _ => None,
            })
        };
        strings(at("labels"), &mut labels);
        strings(at("annotations"), &mut annotations);
    }
    for (k, v) in input.legacy.labels.iter().flat_map(|m| m.iter()) {
        labels.insert(k.clone(), v.clone());
    }
    for (k, v) in input.legacy.annotations.iter().flat_map(|m| m.iter()) {
        annotations.insert(k.clone(), v.clone());
    }
    (labels, annotations)
}

fn env_from(c: &Container) -> Vec<String> {
    let Some(Value::Array(sources)) = c.extra.get("envFrom") else { return vec![] };
    sources
        .iter()
        .filter_map(|source| match source {
            Value::Object(m) => m.iter().find_map(|(kind, sel)| match sel {
                Value::Object(sel) => match sel.get("name") {
                    Some(Value::String(name)) => Some(format!("{kind}:{name}")),
                    _ => None,
                },
                _ => None,
            }),
            _ => None,
        })
        .collect()
}

pub(crate) fn container_view(c: &Container) -> ContainerView {
    container_view_with_env(c, c.env.iter().map(|e| (e.name.clone(), EnvValue::of(e))).collect())
}

/// A container's volume mounts as the view shows them: those that name their volume and path.
pub(crate) fn mount_views(c: &Container) -> impl Iterator<Item = MountView> + '_ {
    let text = |o: &crate::model::Map, k: &str| match o.get(k) {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    c.volume_mounts.iter().filter_map(move |m| match m {
        Value::Object(o) => Some(MountView {
            name: text(o, "name")?,
            mount_path: text(o, "mountPath")?,
            read_only: o.get("readOnly") == Some(&Value::Bool(true)),
        }),
        _ => None,
    })
}

/// `container_view` with `env` in place of the container's own (a V1 role's, across its pods).
pub(crate) fn container_view_with_env(c: &Container, env: VecMap<String, EnvValue>) -> ContainerView {
    let mounts = mount_views(c).collect();
    ContainerView {
        name: c.name.clone(),
        image: c.image.clone(),
        command: c.command.clone(),
        args: c.args.clone(),
        ports: c.ports.iter().map(|p| p.container_port).collect(),
        port_names: crate::order::map_of(c.ports.iter().filter_map(|p| Some((p.container_port, p.name.clone()?)))),
        resources: c.resources.clone().filter(|r| !r.is_empty()),
        env,
        env_from: env_from(c),
        volume_mounts: mounts,
        security_context: c.security_context.clone(),
        init: false,
    }
}

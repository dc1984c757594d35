//! The platform engineer's side: the runtimes a Trainer release ships, built from typed models
//! and release data (explorer_data::releases).
//!
//! Built-ins are reproduced as the release's runtimes overlay installs them
//! (manifests/overlays/runtimes): the Kubeflow-built images tagged with the release and the
//! `trainer.kubeflow.org/webhook-validation: disabled` label. A native test applies that overlay to
//! the shipped base manifests and compares field for field.

use crate::model::pod::{Container, EnvVar, PodSpec, PodTemplateSpec, Resources};
use crate::model::v2::{
    DependsOn, JobSetSpec, JobSetTemplate, JobSpec, JobTemplate, MlPolicy, MpiPolicy, ReplicatedJob, TrainingRuntime,
    TrainingRuntimeSpec, API_VERSION,
};
use crate::model::Map;
use crate::model::ObjectMeta;
use crate::selection::ParamKey;
use crate::selection::{RuntimeScope, Selection, CUSTOM_MPI_RUNTIME};
use crate::tree;
use explorer_data::catalog::{Framework, LlmModel, Persona, V2Support};
use explorer_data::releases::{BuiltinRuntime, Release};

pub(crate) const FRAMEWORK_LABEL: &str = "trainer.kubeflow.org/framework";
pub(crate) const ANCESTOR_LABEL: &str = "trainer.kubeflow.org/trainjob-ancestor-step";
pub(crate) const WEBHOOK_LABEL: &str = "trainer.kubeflow.org/webhook-validation";

/// The runtime the platform engineer owns for this selection, as the selected release ships or
/// admits it, or `None` when the release has none.
pub fn runtime_for(sel: &Selection) -> Option<TrainingRuntime> {
    let custom = sel.v2_support() == V2Support::CustomRuntime;
    let mut rt = match sel.v2_support() {
        V2Support::BuiltIn => builtin_runtime(&sel.release, sel.builtin()?)?,
        V2Support::CustomRuntime => custom_mpi_runtime(sel),
        V2Support::GeneratedRuntime => return super::generated::objects_for(sel).map(|(rt, _)| rt),
        V2Support::Unsupported => return None,
    };
    let own = sel.persona == Persona::PlatformEngineer && !platform_fields(sel, &mut rt).is_empty();
    if sel.scope == RuntimeScope::Namespaced || custom || own {
        // A runtime the platform engineer writes is no longer a built-in: it keeps webhook
        // validation, which only the shipped runtimes switch off.
        rt.metadata.labels.remove(WEBHOOK_LABEL);
    }
    if sel.scope == RuntimeScope::Namespaced {
        rt.kind = RuntimeScope::Namespaced.kind().into();
        rt.metadata.namespace = sel.namespace().map(String::from);
    }
    Some(rt)
}

/// The fields a platform engineer types that shape the runtime they write: the image of its
/// training nodes, their GPUs, and the node count as `numNodes`' default (a TrainJob may still
/// set its own). TorchTune's runtime runs one node (`Selection::nodes`); an MPI runtime keeps 1.
pub fn platform_takes(sel: &Selection, key: ParamKey) -> bool {
    key.applies_to(sel.framework)
        && match key {
            ParamKey::Image | ParamKey::Gpus => true,
            // An MPI runtime's launcher is the trainer's job, whose pod count is the runtime's
            // numNodes (trainingruntime.go:193-195, explain::build::pod_sets): a default above 1
            // would start that many launchers.
            ParamKey::Nodes => sel.framework != Framework::TorchTune && sel.framework.ml_policy() != Some("mpi"),
            _ => false,
        }
}

/// The platform engineer's selection whose V2 pane shows `runtime_for(sel)`: `sel` itself for
/// the platform engineer; for the data scientist, whose fields shape the TrainJob and not the
/// runtime it references, the platform engineer's view without them (plain MPI's runtime runs
/// the TrainJob's image for both; a runtime generated for the job is shaped by all its fields).
pub fn runtime_view(sel: &Selection) -> Selection {
    let mut view = Selection { persona: Persona::PlatformEngineer, ..sel.clone() };
    let support = sel.v2_support();
    if sel.persona != Persona::PlatformEngineer && matches!(support, V2Support::BuiltIn | V2Support::CustomRuntime) {
        view.params.nodes = None;
        view.params.gpus = None;
        if support != V2Support::CustomRuntime {
            view.params.image = None;
        }
    }
    view
}

/// The fields the reader typed that the platform engineer's runtime takes, in the fields' order.
pub(crate) fn platform_typed(sel: &Selection) -> Vec<ParamKey> {
    let p = &sel.params;
    let typed = |key: ParamKey| match key {
        ParamKey::Image => p.image.is_some(),
        ParamKey::Nodes => p.nodes.is_some(),
        ParamKey::Gpus => p.gpus.is_some(),
        _ => false,
    };
    // Pushed in a loop (see `owned`).
    let mut keys = Vec::new();
    for key in ParamKey::ALL {
        if typed(key) && platform_takes(sel, key) {
            keys.push(key);
        }
    }
    keys
}

/// Writes the fields the platform engineer typed (`platform_takes`) into `rt`: the image and the
/// GPU limit on each training container (`node` in the trainer's job and in the node job, so
/// an MPI launcher that runs as a node too), the node count into `mlPolicy.numNodes`. Returns
/// the fields it wrote; a field left at its default leaves the runtime as the release ships it.
pub(crate) fn platform_fields(sel: &Selection, rt: &mut TrainingRuntime) -> Vec<ParamKey> {
    let p = &sel.params;
    let wrote = platform_typed(sel);
    if wrote.contains(&ParamKey::Nodes) {
        rt.spec.ml_policy.get_or_insert_with(MlPolicy::default).num_nodes = p.nodes;
    }
    for job in rt.spec.template.spec.replicated_jobs.iter_mut().filter(|j| j.name == "node" || is_trainer_step(j)) {
        for c in job.template.spec.template.spec.containers.iter_mut().filter(|c| c.name == "node") {
            if wrote.contains(&ParamKey::Image) {
                c.image = p.image.clone();
            }
            if let Some(gpus) = p.gpus.filter(|_| wrote.contains(&ParamKey::Gpus)) {
                c.resources = Resources::gpus(gpus);
            }
        }
    }
    wrote
}

/// A release's built-in runtime from its data entry. `None` only for data we cannot build (a
/// TorchTune runtime named after an unknown model).
fn builtin_runtime(release: &Release, data: &BuiltinRuntime) -> Option<TrainingRuntime> {
    let image = release.image(data.image);
    let mut rt = match data.framework {
        "torchtune" => torchtune_runtime(release, data, LlmModel::from_id(torchtune_model(data))?),
        _ if data.policy == "mpi" => mpi_runtime(release, data.name, data.framework, &image),
        _ => single_node_runtime(release, data.name, data.framework, &image, data.policy),
    };
    if !data.command.is_empty() {
        let trainer = rt.spec.template.spec.replicated_jobs.iter_mut().find(|job| is_trainer_step(job))?;
        let container = trainer.template.spec.template.spec.containers.first_mut()?;
        container.command = owned(data.command);
        container.args = owned(data.args);
    }
    if !release.builtins_skip_webhook {
        rt.metadata.labels.remove(WEBHOOK_LABEL);
    }
    Some(rt)
}

/// `list` as owned strings. One loop for both of a built-in's lists: each `map(..).collect()`
/// compiled the standard library's collecting code once more, for its own iterator type.
fn owned(list: &[&str]) -> Vec<String> {
    let mut strings = Vec::with_capacity(list.len());
    for s in list {
        strings.push((*s).to_string());
    }
    strings
}

/// The model id a TorchTune runtime is named after (`torchtune-llama3.2-1b` → `llama3.2-1b`).
fn torchtune_model(data: &BuiltinRuntime) -> &'static str {
    data.name.split_once('-').map_or("", |(_, model)| model)
}

fn runtime_meta(name: &str, framework_label: &str) -> ObjectMeta {
    let meta = ObjectMeta::named(name);
    // v2.0's mpi-distributed has no framework label.
    let meta = if framework_label.is_empty() { meta } else { meta.with_label(FRAMEWORK_LABEL, framework_label) };
    meta.with_label(WEBHOOK_LABEL, "disabled")
}

/// The replicatedJob the TrainJob's `trainer` overrides.
fn is_trainer_step(job: &ReplicatedJob) -> bool {
    job.template.metadata.as_ref().is_some_and(|m| m.labels.get(ANCESTOR_LABEL).map(String::as_str) == Some("trainer"))
}

fn cluster_runtime(metadata: ObjectMeta, ml_policy: MlPolicy, jobset: JobSetSpec) -> TrainingRuntime {
    TrainingRuntime {
        api_version: API_VERSION.into(),
        kind: RuntimeScope::Cluster.kind().into(),
        metadata,
        spec: TrainingRuntimeSpec {
            ml_policy: Some(ml_policy),
            pod_group_policy: None,
            template: JobSetTemplate { metadata: None, spec: jobset },
        },
    }
}

fn step_meta(step: &str) -> Option<ObjectMeta> {
    Some(ObjectMeta::default().with_label(ANCESTOR_LABEL, step))
}

fn replicated_job(name: &str, step: Option<&str>, depends_on: Vec<DependsOn>, pod: PodSpec) -> ReplicatedJob {
    ReplicatedJob {
        name: name.into(),
        depends_on,
        template: JobTemplate {
            metadata: step.and_then(step_meta),
            spec: JobSpec { template: PodTemplateSpec { metadata: None, spec: pod }, ..Default::default() },
        },
    }
}

fn empty_policy() -> Option<Map> {
    Some(Map::new())
}

/// `mlPolicy.torch` of a built-in: `numProcPerNode: auto` while the field exists (v2.0–v2.1).
fn torch_policy(release: &Release) -> Option<Map> {
    let mut policy = Map::new();
    if release.builtin_torch_procs_auto {
        policy.insert("numProcPerNode".into(), tree!("auto"));
    }
    Some(policy)
}

/// The torch, jax and xgboost built-ins: one `node` job, image only.
fn single_node_runtime(
    release: &Release,
    name: &str,
    framework_label: &str,
    image: &str,
    policy: &str,
) -> TrainingRuntime {
    let mut ml = MlPolicy { num_nodes: Some(1), ..Default::default() };
    match policy {
        "torch" => ml.torch = torch_policy(release),
        "jax" => ml.jax = empty_policy(),
        _ => ml.xgboost = empty_policy(),
    }
    let pod = PodSpec { containers: vec![Container::new("node", image)], ..Default::default() };
    let jobset = JobSetSpec {
        replicated_jobs: vec![replicated_job("node", Some("trainer"), vec![], pod)],
        ..Default::default()
    };
    cluster_runtime(runtime_meta(name, framework_label), ml, jobset)
}

fn mpi_policy() -> MpiPolicy {
    MpiPolicy {
        num_proc_per_node: Some(1),
        mpi_implementation: Some("OpenMPI".into()),
        ssh_auth_mount_path: Some("/home/mpiuser/.ssh".into()),
        run_launcher_as_node: Some(true),
    }
}

/// The pod both MPI replicated jobs share: uid 1000 (mpiuser), and from v2.3 fsGroup 1000 for
/// the SSH keys.
fn mpi_pod(image: &str, sshd: bool, fs_group: bool) -> PodSpec {
    let mut c = Container::new("node", image);
    c.security_context = Some(tree!({"runAsUser": 1000}));
    if sshd {
        // Workers only run sshd; the launcher reaches them over SSH with the generated keys.
        c.command = vec!["/usr/sbin/sshd".into()];
        c.args = vec!["-De".into(), "-f".into(), "/home/mpiuser/.sshd_config".into()];
        c.readiness_probe = Some(tree!({"tcpSocket": {"port": 2222}, "initialDelaySeconds": 5}));
    }
    let security_context = fs_group.then(|| tree!({"fsGroup": 1000}));
    PodSpec { security_context, containers: vec![c], ..Default::default() }
}

/// `node` (sshd) and `launcher`. `waits`: the v2.3 layout, where the launcher is listed last and
/// waits for the nodes to be Ready (see `Release::mpi_launcher_waits_for_nodes`).
fn mpi_jobset(image: &str, waits: bool) -> JobSetSpec {
    let node = replicated_job("node", None, vec![], mpi_pod(image, true, waits));
    let depends_on = if waits { vec![DependsOn { name: "node".into(), status: "Ready".into() }] } else { vec![] };
    let launcher = replicated_job("launcher", Some("trainer"), depends_on, mpi_pod(image, false, waits));
    JobSetSpec {
        network: Some(tree!({"publishNotReadyAddresses": true})),
        success_policy: Some(tree!({"operator": "All", "targetReplicatedJobs": ["launcher"]})),
        replicated_jobs: if waits { vec![node, launcher] } else { vec![launcher, node] },
        ..Default::default()
    }
}

/// The MPI built-ins (deepspeed, mlx): `node` runs sshd, `launcher` is also a node.
fn mpi_runtime(release: &Release, name: &str, framework_label: &str, image: &str) -> TrainingRuntime {
    let ml = MlPolicy { num_nodes: Some(1), mpi: Some(mpi_policy()), ..Default::default() };
    cluster_runtime(runtime_meta(name, framework_label), ml, mpi_jobset(image, release.mpi_launcher_waits_for_nodes))
}

/// The image of the plain-MPI runtime the platform engineer owns: the reader's, else the pi demo.
pub(crate) fn custom_mpi_image(sel: &Selection) -> String {
    sel.params.image.clone().unwrap_or_else(|| "mpioperator/mpi-pi:openmpi".into())
}

/// Plain MPI where the release ships no built-in for it (v2.1 removed `mpi-distributed`): the
/// runtime a platform engineer writes, on the pattern of the release's own MPI built-ins (from
/// v2.3 the launcher waits for sshd on every node).
fn custom_mpi_runtime(sel: &Selection) -> TrainingRuntime {
    let image = custom_mpi_image(sel);
    let ml = MlPolicy { num_nodes: Some(1), mpi: Some(mpi_policy()), ..Default::default() };
    let jobset = mpi_jobset(&image, sel.release.mpi_launcher_waits_for_nodes);
    cluster_runtime(runtime_meta(CUSTOM_MPI_RUNTIME, "mpi"), ml, jobset)
}

fn initializer_job(step: &str, image: &str, storage_uri: &str) -> ReplicatedJob {
    let mut c = Container::new(step, image);
    c.env = vec![EnvVar::new("STORAGE_URI", storage_uri)];
    c.volume_mounts = vec![tree!({"name": "initializer", "mountPath": "/workspace"})];
    replicated_job(step, Some(step), vec![], PodSpec { containers: vec![c], ..Default::default() })
}

/// Before JobSet volume claims (v2.0–v2.1), every TorchTune pod mounts the PVC the user
/// pre-creates, named after the runtime.
fn mount_precreated_claim(jobset: &mut JobSetSpec, claim: &str) {
    for job in &mut jobset.replicated_jobs {
        job.template.spec.template.spec.volumes =
            vec![tree!({"name": "initializer", "persistentVolumeClaim": {"claimName": claim}})];
    }
}

/// The TorchTune runtimes, one per model.
fn torchtune_runtime(release: &Release, data: &BuiltinRuntime, model: LlmModel) -> TrainingRuntime {
    let mut command: Vec<String> = [
        "tune",
        "run",
        "--rdzv_endpoint=localhost:29500",
        "full_finetune_distributed",
        "--config",
        model.torchtune_config(),
        "dataset=torchtune.datasets.instruct_dataset",
        "dataset.source=parquet",
        "dataset.data_dir=/workspace/dataset/data",
        "output_dir=/workspace/output",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    match model {
        LlmModel::Qwen25_1_5b => {
            command.push("tokenizer.path=/workspace/model/vocab.json".into());
            command.push("tokenizer.merges_file=/workspace/model/merges.txt".into());
        }
        _ => command.push("tokenizer.path=/workspace/model/original/tokenizer.model".into()),
    }
    command.push("checkpointer.checkpoint_dir=/workspace/model".into());

    let mut trainer = Container::new("node", &release.image(data.image));
    trainer.command = command;
    trainer.resources = Resources::gpus(2);
    trainer.volume_mounts = vec![tree!({"name": "initializer", "mountPath": "/workspace"})];

    let complete = |name: &str| DependsOn { name: name.into(), status: "Complete".into() };
    let node_waits_for = if release.torchtune_chained_initializers {
        vec![complete("model-initializer")]
    } else {
        vec![complete("dataset-initializer"), complete("model-initializer")]
    };
    let node = replicated_job(
        "node",
        Some("trainer"),
        node_waits_for,
        PodSpec { containers: vec![trainer], ..Default::default() },
    );
    let mut model_initializer =
        initializer_job("model-initializer", &release.kubeflow_image("model-initializer"), model.hf_uri());
    if release.torchtune_chained_initializers {
        model_initializer.depends_on = vec![complete("dataset-initializer")];
    }
    let mut jobset = JobSetSpec {
        // JobSet creates the shared volume per TrainJob; the initializers download into it once.
        volume_claim_policies: vec![tree!({"templates": [{
            "metadata": {"name": "initializer"},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "20Gi"}}}
        }]})],
        replicated_jobs: vec![
            initializer_job(
                "dataset-initializer",
                &release.kubeflow_image("dataset-initializer"),
                "hf://tatsu-lab/alpaca",
            ),
            model_initializer,
            node,
        ],
        ..Default::default()
    };
    if !release.jobset_volume_claims {
        jobset.volume_claim_policies.clear();
        mount_precreated_claim(&mut jobset, data.name);
    }
    let ml = MlPolicy { num_nodes: Some(1), torch: torch_policy(release), ..Default::default() };
    cluster_runtime(runtime_meta(data.name, data.framework), ml, jobset)
}

/// `builtin_runtimes_of` as JSON trees, built once per release and thread: explain (a TrainJob
/// without its runtime) and the pod comparison read them for every document of a paste that may
/// hold ten thousand jobs, and building and serializing them each time was a tenth of a
/// conversion. Each tree behind its own `Rc`, so explain::memo finds it again by address.
#[cfg(feature = "explain")]
pub(crate) fn builtin_runtime_trees(release: &Release) -> std::rc::Rc<Vec<std::rc::Rc<serde_json::Value>>> {
    use std::cell::RefCell;
    use std::rc::Rc;
    /// Per release tag, its built-in runtimes' trees.
    type Built = Vec<(&'static str, Rc<Vec<Rc<serde_json::Value>>>)>;
    thread_local! {
        static BUILT: RefCell<Built> = const { RefCell::new(Vec::new()) };
    }
    BUILT.with(|built| {
        if let Some((_, trees)) = built.borrow().iter().find(|(tag, _)| *tag == release.tag) {
            return trees.clone();
        }
        let trees: Rc<Vec<Rc<serde_json::Value>>> = Rc::new(
            builtin_runtimes_of(release)
                .into_iter()
                .filter_map(|r| serde_json::to_value(r).ok().map(Rc::new))
                .collect(),
        );
        built.borrow_mut().push((release.tag, trees.clone()));
        trees
    })
}

/// Every built-in runtime a release's data lists and we model, in the data's order: the
/// field-for-field test runs this on every release entry, including a throwaway one.
pub fn builtin_runtimes_of(release: &Release) -> Vec<TrainingRuntime> {
    release.runtimes.iter().filter_map(|data| builtin_runtime(release, data)).collect()
}

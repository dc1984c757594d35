//! What the same work took with Training Operator v1.9: one V1 job per framework.

use super::trainjob::job_meta;
use super::workload;
use crate::model::pod::{Container, ContainerPort, PodSpec, PodTemplateSpec, Resources};
use crate::model::v1::{ReplicaSpec, V1Job, V1JobSpec, API_VERSION};
use crate::model::vecmap::VecMap;
use crate::model::ObjectMeta;
use crate::model::Value;
use crate::selection::Selection;
use crate::tree;
use explorer_data::catalog::{Framework, V1Kind};
use explorer_data::releases::NEWEST;

/// The image V1 jobs must name: V1 had no runtime to inherit one from.
pub(crate) fn v1_image(sel: &Selection) -> String {
    sel.params.image.clone().unwrap_or_else(|| match sel.framework {
        Framework::Mpi => "mpioperator/mpi-pi:openmpi".into(),
        Framework::TensorFlow => "tensorflow/tensorflow:2.16.1".into(),
        Framework::Paddle => "registry.baidubce.com/paddlepaddle/paddle:2.4.0rc0-cpu".into(),
        Framework::TorchTune => "ghcr.io/kubeflow/training-v1/trainer-huggingface".into(),
        // The frameworks with a V2 built-in run the image the newest release ships. Not the
        // selected release's: the V1 pane is the Training Operator v1.9 job, the same whichever
        // Trainer release the V2 pane shows (issue 22 item 10).
        f => NEWEST.builtin_for(f).map(|rt| NEWEST.image(rt.image)).unwrap_or_default(),
    })
}

fn replica(replicas: u32, restart: Option<&str>, pod: PodSpec) -> ReplicaSpec {
    ReplicaSpec {
        replicas: Some(replicas),
        restart_policy: restart.map(String::from),
        template: PodTemplateSpec { metadata: None, spec: pod },
    }
}

fn container(sel: &Selection, kind: V1Kind, command: Vec<String>, with_port: bool) -> Container {
    let mut c = Container::new(kind.container_name(), &v1_image(sel));
    c.command = command;
    c.resources = Resources::gpus(sel.gpus());
    if with_port {
        let (port, name) = kind.default_port();
        c.ports = vec![ContainerPort { container_port: i64::from(port), name: Some(name.into()), protocol: None }];
    }
    c
}

fn pod(c: Container) -> PodSpec {
    PodSpec { containers: vec![c], ..Default::default() }
}

/// Master + Workers: V1's way of saying "N nodes" for PyTorch and XGBoost.
fn master_workers(sel: &Selection, restart: &str, c: Container) -> VecMap<String, ReplicaSpec> {
    let mut specs = VecMap::new();
    specs.insert("Master".into(), replica(1, Some(restart), pod(c.clone())));
    if sel.nodes() > 1 {
        specs.insert("Worker".into(), replica(sel.nodes() - 1, Some(restart), pod(c)));
    }
    specs
}

/// The Training Operator v1.9 job the selection would have been (for TorchTune, the PyTorchJob
/// that the V1 SDK's `train()` created).
pub fn v1_job_for(sel: &Selection) -> V1Job {
    let kind = sel.framework.v1_kind();
    let mut spec = match sel.framework {
        Framework::PyTorch => {
            let c = container(sel, kind, workload::v1_command(sel), false);
            let mut spec = V1JobSpec::new(kind, master_workers(sel, "OnFailure", c));
            spec.nproc_per_node = sel.procs().map(|p| crate::text::decimal(p.into()));
            spec
        }
        Framework::XgBoost => {
            let c = container(sel, kind, workload::v1_command(sel), true);
            V1JobSpec::new(kind, master_workers(sel, "Never", c))
        }
        Framework::DeepSpeed | Framework::Mlx | Framework::Mpi => {
            let mut launcher = Container::new(kind.container_name(), &v1_image(sel));
            launcher.command = workload::v1_command(sel);
            let worker = container(sel, kind, Vec::new(), false);
            let mut specs = VecMap::new();
            specs.insert("Launcher".into(), replica(1, None, pod(launcher)));
            specs.insert("Worker".into(), replica(sel.nodes(), None, pod(worker)));
            let mut spec = V1JobSpec::new(kind, specs);
            spec.slots_per_worker = Some(workload::slots_per_node(sel));
            spec.run_policy = Some(tree!({"cleanPodPolicy": "Running"}));
            spec
        }
        Framework::Jax | Framework::TensorFlow => {
            let c = container(sel, kind, workload::v1_command(sel), false);
            // The SDK pane's create_job sets no restartPolicy, so the operator's default applies:
            // Never for TFJob (training-operator v1.9.0:pkg/apis/kubeflow.org/v1/tensorflow_types.go:30). A JAXJob is applied as YAML.
            let restart = if sel.framework == Framework::TensorFlow { "Never" } else { "OnFailure" };
            let mut specs = VecMap::new();
            specs.insert("Worker".into(), replica(sel.nodes(), Some(restart), pod(c)));
            V1JobSpec::new(kind, specs)
        }
        Framework::Paddle => {
            let command = ["python3", "-m", "paddle.distributed.launch", "/workspace/train.py"];
            let c = container(sel, kind, command.map(String::from).to_vec(), true);
            let mut specs = VecMap::new();
            specs.insert("Worker".into(), replica(sel.nodes(), Some("OnFailure"), pod(c)));
            V1JobSpec::new(kind, specs)
        }
        Framework::TorchTune => return train_api_job(sel),
    };
    spec.extra = Default::default();
    // kubeflow-training 1.9.4 cannot read a JAXJob, XGBoostJob or PaddleJob back without
    // runPolicy (its models refuse None), so the SDK pane could not watch the job this YAML
    // applies. PyTorchJob and TFJob get theirs from the SDK, MPIJob sets cleanPodPolicy.
    if matches!(sel.framework, Framework::Jax | Framework::XgBoost | Framework::Paddle) {
        spec.run_policy = Some(tree!({}));
    }
    V1Job { api_version: API_VERSION.into(), kind: kind.kind().into(), metadata: job_meta(sel), spec }
}

/// The storage-initializer volume that `TrainingClient.train()` mounts everywhere.
fn storage_mount() -> Value {
    tree!({"name": "storage-initializer", "mountPath": "/workspace"})
}

/// The PyTorchJob that kubeflow-training 1.9.4's `train()` created for LLM fine-tuning: a
/// storage-initializer init container on the Master, and a PVC named after the job. The trainer's
/// `--lora_config` and `--training_parameters` are abridged: `train()` serialises the whole
/// LoraConfig and TrainingArguments there.
fn train_api_job(sel: &Selection) -> V1Job {
    let model = sel.model();
    let dataset = sel.dataset();
    let repo_id = super::hf_repo_id(&dataset);
    // V1 put the token into the init container's arguments, in plain text. train() serialises
    // every field of the parameter dataclasses, unset ones as null.
    let token = if model.gated() { "\"<HF_TOKEN>\"" } else { "null" };
    let model_params = format!(
        "{{\"model_uri\": \"{}\", \"transformer_type\": \"AutoModelForCausalLM\", \"access_token\": {token}, \"num_labels\": null}}",
        model.hf_uri()
    );
    let mut init = Container::new("storage-initializer", "ghcr.io/kubeflow/training-v1/storage-initializer");
    init.args = vec![
        "--model_provider".into(),
        "hf".into(),
        "--model_provider_parameters".into(),
        model_params,
        "--dataset_provider".into(),
        "hf".into(),
        "--dataset_provider_parameters".into(),
        format!("{{\"repo_id\": \"{repo_id}\", \"access_token\": null, \"split\": null}}"),
    ];
    init.volume_mounts = vec![storage_mount()];

    let mut trainer = Container::new("pytorch", "ghcr.io/kubeflow/training-v1/trainer-huggingface");
    trainer.args = vec![
        "--model_uri".into(),
        model.hf_uri().into(),
        "--transformer_type".into(),
        "AutoModelForCausalLM".into(),
        "--num_labels".into(),
        "None".into(),
        "--model_dir".into(),
        "/workspace/model".into(),
        "--dataset_dir".into(),
        "/workspace/dataset".into(),
        "--lora_config".into(),
        "{\"r\": 8, \"lora_alpha\": 16}".into(),
        "--training_parameters".into(),
        "{\"num_train_epochs\": 1}".into(),
    ];
    trainer.volume_mounts = vec![storage_mount()];
    trainer.resources = Resources::gpus_requested(sel.gpus());

    let volume = tree!({"name": "storage-initializer", "persistentVolumeClaim": {"claimName": (sel.name())}});
    // train() opted its pods out of Istio sidecars, which would keep the Job from completing.
    let mut template_meta = ObjectMeta::default();
    template_meta.annotations.insert("sidecar.istio.io/inject".into(), "false".into());
    let master = PodTemplateSpec {
        metadata: Some(template_meta),
        spec: PodSpec {
            init_containers: vec![init],
            containers: vec![trainer],
            volumes: vec![volume],
            ..Default::default()
        },
    };
    let mut specs = VecMap::new();
    specs.insert("Master".into(), ReplicaSpec { replicas: Some(1), restart_policy: None, template: master });
    let mut spec = V1JobSpec::new(V1Kind::PyTorchJob, specs);
    spec.nproc_per_node = Some("1".into());
    spec.run_policy = Some(tree!({}));
    V1Job { api_version: API_VERSION.into(), kind: "PyTorchJob".into(), metadata: job_meta(sel), spec }
}

/// The PVC `train()` created before the job (10Gi by default).
pub(crate) fn train_api_pvc(sel: &Selection) -> Value {
    let mut meta = crate::model::Map::new();
    meta.insert("name".into(), sel.name().into());
    if let Some(ns) = sel.namespace() {
        meta.insert("namespace".into(), ns.into());
    }
    tree!({
        "apiVersion": "v1",
        "kind": "PersistentVolumeClaim",
        "metadata": meta,
        "spec": {"accessModes": ["ReadWriteOnce", "ReadOnlyMany"], "resources": {"requests": {"storage": "10Gi"}}}
    })
}

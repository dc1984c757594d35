//! Each parameter reaches the right field on both sides (V2 and V1, YAML and SDK).
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

use explorer_judges as common;

use explorer_core::query;
use explorer_core::snippets::{all_snippets, render, Api, Language};
use explorer_data::catalog::{Framework, Persona};
use serde_json::Value;

fn sel(q: &str) -> explorer_core::selection::Selection {
    query::parse_strict(q).unwrap()
}

fn yaml(q: &str, api: Api) -> Value {
    let s = all_snippets(&sel(q)).into_iter().find(|s| s.api == api && s.language == Language::Yaml).unwrap();
    common::yaml_docs(&s.code).pop().unwrap()
}

fn python(q: &str, api: Api) -> String {
    all_snippets(&sel(q)).into_iter().find(|s| s.api == api && s.language == Language::Python).unwrap().code
}

#[test]
fn nodes_map_to_num_nodes_and_master_plus_workers() {
    let q = "persona=data-scientist&framework=pytorch&nodes=4";
    assert_eq!(yaml(q, Api::V2)["spec"]["trainer"]["numNodes"], 4);
    let v1 = yaml(q, Api::V1);
    assert_eq!(v1["spec"]["pytorchReplicaSpecs"]["Master"]["replicas"], 1);
    assert_eq!(v1["spec"]["pytorchReplicaSpecs"]["Worker"]["replicas"], 3);
    assert!(python(q, Api::V2).contains("num_nodes=4"));
    assert!(python(q, Api::V1).contains("num_workers=4"));
}

#[test]
fn one_node_has_no_worker_replicas() {
    let v1 = yaml("framework=pytorch&nodes=1", Api::V1);
    assert!(v1["spec"]["pytorchReplicaSpecs"].get("Worker").is_none());
}

#[test]
fn gpus_reach_limits_and_both_sdks() {
    let q = "persona=data-scientist&framework=pytorch&gpus=2";
    assert_eq!(yaml(q, Api::V2)["spec"]["trainer"]["resourcesPerNode"]["limits"]["nvidia.com/gpu"], 2);
    let v1 = yaml(q, Api::V1);
    for t in ["Master", "Worker"] {
        assert_eq!(
            v1["spec"]["pytorchReplicaSpecs"][t]["template"]["spec"]["containers"][0]["resources"]["limits"]
                ["nvidia.com/gpu"],
            2
        );
    }
    assert!(python(q, Api::V2).contains("resources_per_node={\"gpu\": 2}"));
    assert!(python(q, Api::V1).contains("resources_per_worker={\"gpu\": 2}"));
}

#[test]
fn zero_gpus_means_cpu_and_no_gpu_fields() {
    let q = "framework=pytorch&gpus=0";
    assert!(yaml(q, Api::V2)["spec"]["trainer"].get("resourcesPerNode").is_none());
    assert!(python(q, Api::V2).contains("backend=\"gloo\""));
    assert!(!python(q, Api::V1).contains("gpu"));
}

#[test]
fn queue_labels_both_jobs_and_suspends_the_trainjob() {
    let q = "framework=jax&queue=team-q";
    let v2 = yaml(q, Api::V2);
    assert_eq!(v2["metadata"]["labels"]["kueue.x-k8s.io/queue-name"], "team-q");
    assert_eq!(v2["spec"]["suspend"], true);
    assert_eq!(yaml(q, Api::V1)["metadata"]["labels"]["kueue.x-k8s.io/queue-name"], "team-q");
    assert!(python(q, Api::V2).contains("Labels(labels={\"kueue.x-k8s.io/queue-name\": \"team-q\"})"));
    assert!(python("framework=pytorch&queue=team-q", Api::V1).contains("queue_name=\"team-q\""));
}

#[test]
fn procs_reach_nproc_slots_and_num_proc_per_node() {
    assert_eq!(yaml("framework=pytorch&procs=4", Api::V2)["spec"]["trainer"]["numProcPerNode"], 4);
    assert_eq!(yaml("framework=pytorch&procs=4", Api::V1)["spec"]["nprocPerNode"], "4");
    assert_eq!(yaml("framework=deepspeed&procs=4", Api::V1)["spec"]["slotsPerWorker"], 4);
    assert!(python("framework=pytorch&procs=4", Api::V1).contains("num_procs_per_worker=4"));
    // JAX and XGBoost policies take no process count.
    assert!(yaml("framework=jax&procs=4", Api::V2)["spec"]["trainer"].get("numProcPerNode").is_none());
}

#[test]
fn namespaced_scope_changes_kind_on_both_sides_of_the_reference() {
    let rt = yaml("persona=platform-engineer&framework=pytorch&scope=namespaced&namespace=team-a", Api::V2);
    assert_eq!(rt["kind"], "TrainingRuntime");
    assert_eq!(rt["metadata"]["namespace"], "team-a");
    assert!(rt["metadata"]["labels"].get("trainer.kubeflow.org/webhook-validation").is_none());
    let job = yaml("framework=pytorch&scope=namespaced&namespace=team-a", Api::V2);
    assert_eq!(job["spec"]["runtimeRef"]["kind"], "TrainingRuntime");
    assert_eq!(job["metadata"]["namespace"], "team-a");
}

#[test]
fn llm_parameters_pick_the_runtime_and_initializers() {
    let q = "framework=torchtune&model=qwen2.5-1.5b&dataset=hf://org/ds/train";
    let v2 = yaml(q, Api::V2);
    assert_eq!(v2["spec"]["runtimeRef"]["name"], "torchtune-qwen2.5-1.5b");
    assert_eq!(v2["spec"]["initializer"]["dataset"]["storageUri"], "hf://org/ds/train");
    assert_eq!(v2["spec"]["initializer"]["model"]["storageUri"], "hf://Qwen/Qwen2.5-1.5B-Instruct");
    assert!(v2["spec"]["trainer"]["args"]
        .as_array()
        .unwrap()
        .contains(&"dataset.data_dir=/workspace/dataset/train".into()));
    // Qwen is not gated: no token anywhere.
    assert!(!python(q, Api::V2).contains("access_token"));
    assert!(python("framework=torchtune", Api::V2).contains("access_token=os.environ[\"HF_TOKEN\"]"));
}

/// TensorFlow and PaddlePaddle get what `migrate` writes for their V1 job: the fields reach the
/// generated runtime (its name, count and each pod's contract) and the TrainJob on it.
#[test]
fn tensorflow_and_paddle_fields_reach_the_generated_runtime_and_trainjob() {
    let q = "framework=tensorflow&name=mnist&namespace=team-a&nodes=3&image=tf:custom";
    let rt = yaml(&format!("persona=platform-engineer&{q}"), Api::V2);
    assert_eq!(
        (rt["kind"].as_str(), rt["metadata"]["name"].as_str()),
        (Some("TrainingRuntime"), Some("mnist-runtime"))
    );
    assert_eq!(rt["metadata"]["namespace"], "team-a");
    assert_eq!(rt["spec"]["mlPolicy"], serde_json::json!({"numNodes": 3}));
    let node =
        &rt["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(node["image"], "tf:custom");
    let tf_config = node["env"].as_array().unwrap().iter().find(|e| e["name"] == "TF_CONFIG").unwrap()["value"].clone();
    let hosts = ["mnist-node-0-0.mnist:2222", "mnist-node-0-1.mnist:2222", "mnist-node-0-2.mnist:2222"];
    assert!(
        tf_config.as_str().unwrap().contains(&format!("{{\"worker\":{}}}", serde_json::json!(hosts))),
        "{tf_config}"
    );
    let job = yaml(&format!("persona=data-scientist&{q}&gpus=2"), Api::V2);
    assert_eq!(job["spec"]["runtimeRef"], serde_json::json!({"name": "mnist-runtime", "kind": "TrainingRuntime"}));
    assert_eq!(job["spec"]["trainer"]["numNodes"], 3);
    assert_eq!(job["spec"]["trainer"]["resourcesPerNode"]["limits"]["nvidia.com/gpu"], 2);
    // Paddle: the leader's command is wrapped, and the user's command follows it unchanged.
    let job = yaml("persona=data-scientist&framework=paddle", Api::V2);
    let command: Vec<&str> =
        job["spec"]["trainer"]["command"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(command[..2], ["sh", "-c"]);
    assert_eq!(
        command[3..],
        ["paddle-leader", "python3", "-m", "paddle.distributed.launch", "/workspace/train.py"][..]
    );
    for f in [Framework::TensorFlow, Framework::Paddle] {
        for p in Persona::ALL {
            let view = render(&explorer_core::selection::Selection::new(p, f));
            assert!(!view.v1.snippets.is_empty(), "V1 still shows what the job was");
        }
    }
}

#[test]
fn platform_engineer_v1_pane_marks_the_infrastructure_the_runtime_owns() {
    let view = render(&sel("persona=platform-engineer&framework=pytorch"));
    let v1 = &view.v1.snippets[0];
    let marked: Vec<&str> =
        v1.code.lines().zip(&v1.owned_by_runtime).filter(|(_, m)| **m).map(|(l, _)| l.trim()).collect();
    for expected in ["Master:", "replicas: 1", "restartPolicy: OnFailure", "- name: pytorch"] {
        assert!(marked.contains(&expected), "{expected} not marked in {marked:?}");
    }
    assert!(marked.iter().any(|l| l.starts_with("image:")));
    // The training command is the reader's own, in V1 and V2 alike.
    assert!(!marked.iter().any(|l| l.contains("torchrun")));
    assert!(view.summary.contains(&format!("{} of the {}", v1.owned_count(), v1.line_count())), "{}", view.summary);
}

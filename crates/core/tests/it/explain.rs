//! The controller view against upstream's own unit tests at v2.3.0. Each case names the test file
//! and case it is transcribed from (paths in github.com/kubeflow/trainer at tag v2.3.0): the same
//! input, then the expected env, counts and hostfile. Upstream feeds its plugins a hand-built
//! `runtime.Info`; here the same pod set is a one-job runtime and the TrainJob goes through the
//! whole pipeline, so the expectations also cover the steps around the plugin.
#![cfg(not(target_arch = "wasm32"))]

use explorer_core::explain::read::explain_text;
use explorer_core::explain::{EnvValue, Explanation, PodGroup, Rejection};
use explorer_data::releases::{Release, RELEASES, V2_0, V2_1, V2_2, V2_3};

const NODE_INDEX: &str = "fieldRef:metadata.annotations['batch.kubernetes.io/job-completion-index']";

/// A runtime with one `node` job of the trainer step, as upstream's
/// `WithPodSet(constants.Node, ptr.To(constants.AncestorTrainer), 1, ...)`.
fn one_node_runtime(policy: &str, container: &str) -> String {
    format!(
        r#"apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {{name: test-runtime}}
spec:
  mlPolicy: {{numNodes: 1, {policy}}}
  template:
    spec:
      replicatedJobs:
      - name: node
        template:
          metadata: {{labels: {{trainer.kubeflow.org/trainjob-ancestor-step: trainer}}}}
          spec: {{template: {{spec: {{containers: [{container}]}}}}}}
"#
    )
}

/// Upstream's plugin tests name their job `trainJob`, which the API server refuses (the CRD's
/// RFC 1035 name rule, from v2.1; v2.0's webhook): the fixtures here name it `trainjob`.
fn trainjob(name: &str, runtime: &str, trainer: &str) -> String {
    format!(
        r#"apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata: {{name: {name}}}
spec:
  runtimeRef: {{name: {runtime}}}
  trainer: {trainer}
"#
    )
}

/// Explains `job` with `runtime` named as the job's `runtimeRef` (the fixtures share one runtime
/// text; upstream's unit tests hand the plugin the runtime directly, whatever the ref says).
fn explain(job: &str, runtime: &str) -> Explanation {
    explain_at(job, runtime, V2_3)
}

/// `explain` by the controller of `release`.
fn explain_at(job: &str, runtime: &str, release: Release) -> Explanation {
    let rest = job.split("runtimeRef: {name: ").nth(1).expect("a runtimeRef");
    let name = &rest[..rest.find([',', '}']).unwrap()];
    let runtime = runtime.replacen("name: test-runtime", &format!("name: {name}"), 1);
    explain_text(&format!("{job}---\n{runtime}"), release).unwrap()
}

/// The first error of the webhook's answer; fails when the TrainJob is accepted.
fn rejection(job: &str, runtime: &str) -> Rejection {
    rejection_at(job, runtime, V2_3)
}

fn rejection_at(job: &str, runtime: &str, release: Release) -> Rejection {
    let e = explain_at(job, runtime, release);
    assert!(e.jobset.is_none() && e.pods.is_empty() && e.objects.is_empty(), "{e:#?}");
    e.rejected.into_iter().next().unwrap_or_else(|| panic!("accepted: {job}"))
}

fn group<'e>(e: &'e Explanation, rjob: &str) -> &'e PodGroup {
    e.pods.iter().find(|p| p.replicated_job == rjob).unwrap_or_else(|| panic!("no {rjob} pods in {e:#?}"))
}

fn env(e: &Explanation, rjob: &str, name: &str) -> Option<String> {
    group(e, rjob).containers.iter().find(|c| c.name == "node")?.env.get(name).map(EnvValue::text)
}

fn hostfile(e: &Explanation) -> &str {
    let cm = e.objects.iter().find(|o| o.name.ends_with("-mpi-hostfile")).expect("no hostfile ConfigMap");
    cm.data.as_ref().unwrap().get("hostfile").unwrap()
}

// ---- torch: pkg/runtime/framework/plugins/torch/torch_test.go (TestTorch, TestValidate) ----

struct TorchCase {
    upstream: &'static str,
    job: &'static str,
    trainer: &'static str,
    nnodes: &'static str,
    nproc: &'static str,
    master: bool,
}

#[test]
fn torch_cases_from_torch_test_go() {
    let cases = [
        TorchCase { upstream: "trainJob numNodes is respected rather than mlPolicy one", job: "trainjob",
            trainer: "{numNodes: 2}", nnodes: "2", nproc: "1", master: true },
        TorchCase { upstream: "nproc_per_node=auto with CPU limit", job: "test-job",
            trainer: "{image: test:image, resourcesPerNode: {requests: {cpu: '4'}}}", nnodes: "1", nproc: "4", master: true },
        TorchCase { upstream: "nproc_per_node=auto with no CPU resources", job: "test-job",
            trainer: "{image: test:image, resourcesPerNode: {}}", nnodes: "1", nproc: "1", master: true },
        TorchCase { upstream: "nproc_per_node=auto with low CPU limit", job: "test-job",
            trainer: "{image: test:image, resourcesPerNode: {requests: {cpu: '2'}}}", nnodes: "1", nproc: "2", master: true },
        TorchCase { upstream: "nproc_per_node=auto with CPU request but no limit", job: "test-job",
            trainer: "{image: test:image, resourcesPerNode: {requests: {cpu: '3'}}}", nnodes: "1", nproc: "3", master: true },
        TorchCase { upstream: "nproc_per_node=auto with millicore CPU limit", job: "test-job",
            trainer: "{image: test:image, resourcesPerNode: {requests: {cpu: '2.5'}}}", nnodes: "1", nproc: "3", master: true },
        TorchCase { upstream: "nproc_per_node=auto with fractional CPU limit", job: "test-job",
            trainer: "{image: test:image, resourcesPerNode: {requests: {cpu: '0.7'}}}", nnodes: "1", nproc: "1", master: true },
        TorchCase { upstream: "nproc_per_node=auto with GPU request should remain auto", job: "test-job",
            trainer: "{image: test:image, resourcesPerNode: {requests: {example.com/gpu: '2'}}}", nnodes: "1", nproc: "auto", master: true },
        TorchCase { upstream: "explicitly set nproc_per_node should be preserved", job: "test-job",
            trainer: "{numProcPerNode: 3, image: test:image, resourcesPerNode: {requests: {cpu: '8'}}}", nnodes: "1", nproc: "3", master: true },
        TorchCase { upstream: "nproc_per_node=auto with millicore CPU limit in m format", job: "test-job",
            trainer: "{image: test:image, resourcesPerNode: {requests: {cpu: 2500m}}}", nnodes: "1", nproc: "3", master: true },
        TorchCase { upstream: "nproc_per_node=cpu with CPU limit", job: "cpu-job",
            trainer: "{image: test:image, resourcesPerNode: {requests: {cpu: '4'}}}", nnodes: "1", nproc: "4", master: true },
        TorchCase { upstream: "nproc_per_node=auto resolves to GPU count when GPU resources present", job: "cpu-gpu-job",
            trainer: "{image: test:image, resourcesPerNode: {requests: {cpu: '6', example.com/gpu: '2'}}}", nnodes: "1", nproc: "auto", master: true },
        TorchCase { upstream: "nproc_per_node=cpu with fractional CPU", job: "cpu-frac-job",
            trainer: "{image: test:image, resourcesPerNode: {requests: {cpu: '3.7'}}}", nnodes: "1", nproc: "4", master: true },
        TorchCase { upstream: "multi-node multi-GPU training with complete info", job: "gpu-job",
            trainer: "{numNodes: 4, image: test:image, resourcesPerNode: {requests: {cpu: '8', memory: 16Gi, example.com/gpu: '4'}}}",
            nnodes: "4", nproc: "auto", master: true },
        TorchCase { upstream: "multi-devices full fine-tuning with torchtune", job: "torchtune-job",
            trainer: "{numNodes: 1, image: ghcr.io/kubeflow/trainer/torchtune-trainer, command: [tune, run], args: [dtype=fp16], resourcesPerNode: {requests: {cpu: '8', memory: 16Gi, example.com/gpu: '4'}}}",
            nnodes: "1", nproc: "auto", master: false },
        TorchCase { upstream: "single-device full fine-tuning with torchtune", job: "torchtune-job",
            trainer: "{numNodes: 1, numProcPerNode: 1, image: ghcr.io/kubeflow/trainer/torchtune-trainer, command: [tune, run], resourcesPerNode: {requests: {cpu: '8', memory: 16Gi, example.com/gpu: '1'}}}",
            nnodes: "1", nproc: "1", master: false },
        TorchCase { upstream: "multi-nodes full fine-tuning with torchtune", job: "torchtune-job",
            trainer: "{numNodes: 2, numProcPerNode: 8, image: ghcr.io/kubeflow/trainer/torchtune-trainer, command: [tune, run], resourcesPerNode: {requests: {cpu: '8', memory: 16Gi, example.com/gpu: '8'}}}",
            nnodes: "2", nproc: "8", master: false },
    ];
    let runtime = one_node_runtime("torch: {}", "{name: node}");
    for c in cases {
        // Upstream's runtimeRef: llama3.3-70b for the multi-node torchtune case (the only model
        // the webhook lets run on several nodes), llama3.2-1b for the others.
        let runtime_ref =
            if c.upstream.starts_with("multi-nodes") { "torchtune-llama3.3-70b" } else { "torchtune-llama3.2-1b" };
        let e = explain(&trainjob(c.job, runtime_ref, c.trainer), &runtime);
        let at = c.upstream;
        assert_eq!(e.rejected, vec![], "{at}");
        assert_eq!(env(&e, "node", "PET_NNODES").as_deref(), Some(c.nnodes), "{at}");
        assert_eq!(env(&e, "node", "PET_NPROC_PER_NODE").as_deref(), Some(c.nproc), "{at}");
        assert_eq!(env(&e, "node", "PET_NODE_RANK").as_deref(), Some(NODE_INDEX), "{at}");
        let master = format!("{0}-node-0-0.{0}", c.job);
        assert_eq!(env(&e, "node", "PET_MASTER_ADDR").as_deref(), c.master.then_some(master.as_str()), "{at}");
        assert_eq!(env(&e, "node", "PET_MASTER_PORT").as_deref(), c.master.then_some("29500"), "{at}");
        assert_eq!(group(&e, "node").containers[0].ports, vec![29500], "{at}");
        let nodes: u32 = c.nnodes.parse().unwrap();
        assert_eq!(group(&e, "node").count, nodes, "{at}");
        assert_eq!(e.jobset.as_ref().unwrap().replicated_jobs[0].parallelism, nodes, "{at}");
    }
}

#[test]
fn torch_reserved_env_is_rejected_as_in_torch_test_go() {
    // TestValidate "reserved environment variable present".
    let runtime = one_node_runtime("torch: {}", "{name: node}");
    let job = trainjob(
        "test",
        "torch-distributed",
        "{env: [{name: test, value: value}, {name: PET_NPROC_PER_NODE, value: value}]}",
    );
    let r = rejection(&job, &runtime);
    assert_eq!(r.field(), "spec.trainer.env");
    assert_eq!(r.reason(), "must not have reserved envs, invalid envs configured: [PET_NPROC_PER_NODE]");
}

/// The webhook's `(field, reason)`, or `None` for accepted.
type Expected = Option<(&'static str, &'static str)>;

#[test]
fn torchtune_rejections_from_torch_test_go() {
    // TestValidate in torch_test.go: (case, runtime, trainer, field, reason); None = accepted.
    let lora = "'model.lora_attn_modules=[q_proj, v_proj, output_proj]'";
    let cases: [(&str, &str, String, Expected); 7] = [
        ("unsupported pretrained model", "torchtune-llama3.1-70b", "{numNodes: 1, command: [tune, run]}".into(),
            Some(("spec.runtimeRef.name", "must have a supported pretrained model, invalid model configured: llama3_1/70B"))),
        ("multi-node mode is only enabled for Llama-3.3-70b", "torchtune-llama3.2-3b", "{numNodes: 2, command: [tune, run]}".into(),
            Some(("spec.trainer.numNodes", "must be 1 for llama3_2/3B model"))),
        ("qlora is not supported for qwen in torchtune", "torchtune-qwen2.5-1.5b",
            format!("{{numNodes: 1, command: [tune, run], args: [{lora}, model.quantize_base=True]}}"),
            Some(("spec.runtimeRef.name", "QLoRA is not supported for qwen2_5/1.5B model"))),
        ("muti-devices qlora is not supported for llama3.2-1b in torchtune", "torchtune-llama3.2-1b",
            format!("{{numNodes: 1, command: [tune, run], args: [{lora}, model.quantize_base=True], resourcesPerNode: {{requests: {{example.com/gpu: '2'}}}}}}"),
            Some(("spec.trainer.numProcPerNode", "must be auto or 1 for llama3_2/1B model when using QLoRA"))),
        ("lora is not supported for multi-node training in torchtune", "torchtune-llama3.3-70b",
            format!("{{numNodes: 2, command: [tune, run], args: [{lora}]}}"),
            Some(("spec.trainer.numNodes", "LoRA fine-tuning is not supported for multi-node training in TorchTune"))),
        ("lora is supported for single-node training in torchtune", "torchtune-llama3.3-70b",
            format!("{{numNodes: 1, command: [tune, run], args: [{lora}]}}"), None),
        ("immutable runtime config must not be set in trainer args", "torchtune-llama3.2-1b",
            "{numNodes: 1, command: [tune, run], args: [output_dir=/custom/output]}".into(),
            Some(("spec.trainer.args[0]", r#"must not set immutable config "output_dir" in trainer args; it is managed by the runtime"#))),
    ];
    let runtime = one_node_runtime("torch: {}", "{name: node}");
    for (at, runtime_name, trainer, want) in cases {
        let job = trainjob("test", runtime_name, &trainer);
        match want {
            Some((field, reason)) => {
                let r = rejection(&job, &runtime);
                assert_eq!((r.field().as_str(), r.reason().as_str()), (field, reason), "{at}");
            }
            None => assert_eq!(explain(&job, &runtime).rejected, vec![], "{at}"),
        }
    }
}

/// pkg/runtime/core/trainingruntime_test.go "succeeded to build Jobset with TorchTune values from
/// the TrainJob (DoRA)": the trainer command the torch plugin completes.
#[test]
fn torchtune_command_from_trainingruntime_test_go() {
    let command =
        "[tune, run, --rdzv_endpoint=localhost:29500, full_finetune_distributed, --config, llama3_2/1B_full, \
        dataset=torchtune.datasets.instruct_dataset, dataset.source=parquet, dataset.data_dir=/workspace/dataset/data, \
        output_dir=/workspace/output, tokenizer.path=/workspace/model/original/tokenizer.model, \
        checkpointer.checkpoint_dir=/workspace/model]";
    let runtime = one_node_runtime(
        "torch: {}",
        &format!("{{name: node, image: 'test:runtime', command: {command}, args: [runtime]}}"),
    )
    .replace("name: test-runtime", "name: torchtune-llama3.2-1b");
    let job = trainjob(
        "test-job",
        "torchtune-llama3.2-1b",
        "{image: 'test:trainjob', command: [tune, run], args: [dataset.data_dir=/workspace/dataset/data, \
         model.apply_lora_to_mlp=True, 'model.lora_attn_modules=[q_proj,k_proj,v_proj,output_proj]', \
         model.quantize_base=True, model.use_dora=True, dataset=torchtune.datasets.instruct_dataset, \
         dataset.source=parquet], numNodes: 1, resourcesPerNode: {requests: {cpu: '1', example.com/gpu: '2'}}}",
    );
    let e = explain(&job, &runtime);
    let node = &group(&e, "node").containers[0];
    assert_eq!(
        node.command,
        [
            "tune",
            "run",
            "--rdzv_endpoint=test-job-node-0-0.test-job:29500",
            "lora_finetune_distributed",
            "--config",
            "llama3_2/1B_lora",
            "output_dir=/workspace/output",
            "tokenizer.path=/workspace/model/original/tokenizer.model",
            "checkpointer.checkpoint_dir=/workspace/model",
        ]
    );
    assert_eq!(node.image.as_deref(), Some("test:trainjob"));
    assert_eq!(node.args[0], "dataset.data_dir=/workspace/dataset/data");
    assert_eq!(node.env.get("PET_NPROC_PER_NODE").map(EnvValue::text).as_deref(), Some("auto"));
    assert_eq!(node.env.get("PET_MASTER_ADDR"), None);
}

// ---- jax: pkg/runtime/framework/plugins/jax/jax_test.go (TestJAX) ----

#[test]
fn jax_cases_from_jax_test_go() {
    let cases = [
        ("single node JAX training", "test-job", "{numNodes: 1}", "1"),
        ("multi-node JAX training", "multi-node-job", "{numNodes: 4}", "4"),
        ("trainJob numNodes is respected", "trainjob", "{numNodes: 3}", "3"),
        (
            "JAX training with GPU resources",
            "gpu-job",
            "{numNodes: 2, image: 'jax/jax:latest', resourcesPerNode: {requests: {cpu: '8', memory: 32Gi, nvidia.com/gpu: '4'}}}",
            "2",
        ),
    ];
    let runtime = one_node_runtime("jax: {}", "{name: node}");
    for (at, name, trainer, processes) in cases {
        let e = explain(&trainjob(name, "jax-distributed", trainer), &runtime);
        assert_eq!(env(&e, "node", "JAX_NUM_PROCESSES").as_deref(), Some(processes), "{at}");
        assert_eq!(env(&e, "node", "JAX_PROCESS_ID").as_deref(), Some(NODE_INDEX), "{at}");
        assert_eq!(
            env(&e, "node", "JAX_COORDINATOR_ADDRESS").as_deref(),
            Some(format!("{name}-node-0-0.{name}:29500").as_str()),
            "{at}"
        );
        assert_eq!(group(&e, "node").count.to_string(), processes, "{at}");
        assert_eq!(group(&e, "node").containers[0].ports, vec![29500], "{at}");
    }
}

// ---- xgboost: pkg/runtime/framework/plugins/xgboost/xgboost_test.go (TestXGBoost, TestValidate) ----

#[test]
fn xgboost_cases_from_xgboost_test_go() {
    // (case, job, trainer, GPUs on the runtime's node container, DMLC_NUM_WORKER, pods)
    let cases = [
        ("single node XGBoost training (CPU)", "test-job", "{numNodes: 1}", None, "1", 1),
        ("multi-node XGBoost training (CPU)", "multi-node-job", "{numNodes: 4}", None, "4", 4),
        (
            "XGBoost training with GPU resources",
            "gpu-job",
            "{numNodes: 2, image: 'xgboost/xgboost:latest', resourcesPerNode: {requests: {cpu: '8', memory: 32Gi, example.com/gpu: '4'}}}",
            None,
            "8",
            2,
        ),
        ("trainJob numNodes is respected", "trainjob", "{numNodes: 3}", None, "3", 3),
        ("resources not set - defaults to 1 worker per node", "no-res-job", "{numNodes: 2}", None, "2", 2),
        ("resources set in Runtime only", "runtime-res-job", "{numNodes: 3}", Some("2"), "6", 3),
        (
            "resources set in TrainJob only",
            "trainjob-res",
            "{numNodes: 2, image: 'xgboost/xgboost:latest', resourcesPerNode: {requests: {example.com/gpu: '4'}}}",
            None,
            "8",
            2,
        ),
        (
            "resources set in both Runtime and TrainJob",
            "both-res-job",
            "{numNodes: 2, image: 'xgboost/xgboost:latest', resourcesPerNode: {requests: {example.com/gpu: '3'}}}",
            Some("1"),
            "6",
            2,
        ),
    ];
    for (at, name, trainer, runtime_gpus, workers, pods) in cases {
        let container = match runtime_gpus {
            Some(g) => format!("{{name: node, resources: {{requests: {{example.com/gpu: '{g}'}}}}}}"),
            None => "{name: node}".into(),
        };
        let e = explain(&trainjob(name, "xgboost-distributed", trainer), &one_node_runtime("xgboost: {}", &container));
        assert_eq!(
            env(&e, "node", "DMLC_TRACKER_URI").as_deref(),
            Some(format!("{name}-node-0-0.{name}").as_str()),
            "{at}"
        );
        assert_eq!(env(&e, "node", "DMLC_TRACKER_PORT").as_deref(), Some("29500"), "{at}");
        assert_eq!(env(&e, "node", "DMLC_TASK_ID").as_deref(), Some(NODE_INDEX), "{at}");
        assert_eq!(env(&e, "node", "DMLC_NUM_WORKER").as_deref(), Some(workers), "{at}");
        assert_eq!(group(&e, "node").count, pods, "{at}");
    }
}

#[test]
fn xgboost_reserved_env_is_rejected_as_in_xgboost_test_go() {
    // TestValidate "error when using reserved DMLC_NUM_WORKER env".
    let runtime = one_node_runtime("xgboost: {}", "{name: node}");
    let job = trainjob("test", "xgboost-distributed", "{env: [{name: DMLC_NUM_WORKER, value: '4'}]}");
    let r = rejection(&job, &runtime);
    assert_eq!(r.field(), "spec.trainer.env[0]");
    assert_eq!(r.reason(), "DMLC_NUM_WORKER is reserved for the XGBoost runtime");
}

// ---- mpi: pkg/runtime/framework/plugins/mpi/mpi_test.go (TestMPI, TestValidate) ----

/// Upstream's MPI test pod sets: `launcher` then `node` (the trainer step), OpenMPI, /root/.ssh.
fn mpi_runtime(procs: u32, launcher_as_node: bool) -> String {
    format!(
        r#"apiVersion: trainer.kubeflow.org/v1alpha1
kind: ClusterTrainingRuntime
metadata: {{name: test-runtime}}
spec:
  mlPolicy:
    numNodes: 1
    mpi: {{numProcPerNode: {procs}, mpiImplementation: OpenMPI, sshAuthMountPath: /root/.ssh, runLauncherAsNode: {launcher_as_node}}}
  template:
    spec:
      replicatedJobs:
      - name: launcher
        template: {{spec: {{template: {{spec: {{containers: [{{name: node}}]}}}}}}}}
      - name: node
        template:
          metadata: {{labels: {{trainer.kubeflow.org/trainjob-ancestor-step: trainer}}}}
          spec: {{template: {{spec: {{containers: [{{name: node}}]}}}}}}
"#
    )
}

#[test]
fn mpi_cases_from_mpi_test_go() {
    // (case, runtime procs, runLauncherAsNode, trainer, node pods, slots)
    let cases = [
        ("trainJob numNodes is respected rather than mlPolicy one", 1, false, "{numNodes: 2}", 2, "1"),
        (
            "trainJob numProcPerNode is respected rather than mlPolicy one",
            1,
            false,
            "{numNodes: 1, numProcPerNode: 2}",
            1,
            "2",
        ),
        (
            "numProcPerNode is set to number of GPUs in TrainJob",
            1,
            false,
            "{numNodes: 1, image: 'test:image', resourcesPerNode: {requests: {custom.com/gpu: '5'}}}",
            1,
            "5",
        ),
        ("runLauncherAsNode is true", 1, true, "{numNodes: 10}", 9, "1"),
    ];
    for (at, procs, as_node, trainer, nodes, slots) in cases {
        let e = explain(&trainjob("trainjob", "test-runtime", trainer), &mpi_runtime(procs, as_node));
        assert_eq!(e.rejected, vec![], "{at}");
        assert_eq!(group(&e, "node").count, nodes, "{at}");
        // Only the launcher's `node` container gets the OpenMPI variables (mpi.go:201-224).
        assert_eq!(env(&e, "launcher", "OMPI_MCA_orte_set_default_slots").as_deref(), Some(slots), "{at}");
        assert_eq!(env(&e, "launcher", "OMPI_MCA_orte_default_hostfile").as_deref(), Some("/etc/mpi/hostfile"), "{at}");
        assert_eq!(env(&e, "launcher", "OMPI_MCA_orte_keep_fqdn_hostnames").as_deref(), Some("true"), "{at}");
        assert_eq!(env(&e, "launcher", "OMPI_MCA_plm_rsh_args").as_deref(), Some("-o ConnectionAttempts=10"), "{at}");
        assert_eq!(env(&e, "node", "OMPI_MCA_orte_set_default_slots").as_deref(), None, "{at}");
        // The hostfile: one line per node pod with these slots, the launcher first when it is a node.
        let mut want: String =
            if as_node { format!("trainjob-launcher-0-0.trainjob slots={slots}\n") } else { String::new() };
        for i in 0..nodes {
            want.push_str(&format!("trainjob-node-0-{i}.trainjob slots={slots}\n"));
        }
        assert_eq!(hostfile(&e), want, "{at}");
        let secret = e.objects.iter().find(|o| o.kind == "Secret").expect("SSH Secret");
        assert_eq!(secret.name, "trainjob-mpi-ssh-auth", "{at}");
        let mounts = &group(&e, "launcher").containers[0].volume_mounts;
        let path = |volume: &str| mounts.iter().find(|m| m.name == volume).map(|m| m.mount_path.as_str());
        assert_eq!(path("mpi-ssh-auth"), Some("/root/.ssh"), "{at}");
        assert_eq!(path("mpi-hostfile"), Some("/etc/mpi"), "{at}");
    }
}

/// pkg/runtime/core/trainingruntime_test.go "succeeded to build JobSet with OpenMPI values from the
/// TrainJob": the hostfile ConfigMap's exact content.
#[test]
fn mpi_hostfile_from_trainingruntime_test_go() {
    let runtime = mpi_runtime(1, false).replace(
        "metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}\n          spec: {template: {spec: {containers: [{name: node}]}}}",
        "spec: {template: {spec: {containers: [{name: node, image: 'test:runtime'}]}}}",
    );
    let runtime = runtime.replace(
        "- name: launcher\n        template: {",
        "- name: launcher\n        template: {metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}, ",
    );
    assert_eq!(runtime.matches("trainjob-ancestor-step: trainer}}, spec").count(), 1, "{runtime}");
    let e = explain(&trainjob("test-job", "test-runtime", "{numNodes: 2, numProcPerNode: 8}"), &runtime);
    assert_eq!(hostfile(&e), "test-job-node-0-0.test-job slots=8\ntest-job-node-0-1.test-job slots=8\n");
    assert_eq!(group(&e, "launcher").count, 1);
}

/// The hostfile's text as upstream's tests expect it, at each release that has the case (our
/// `host_line` and `hostfile` in explain/objects.rs cite them): a launcher that runs as a node
/// first, then each node pod, `<host> slots=<n>` and a newline.
/// - "succeeded to build JobSet with container resources applied both to Launcher and Node
///   replicatedJob" (pkg/runtime/framework/core/framework_test.go: v2.1.0:1278-1280,
///   v2.2.1:1310-1312, v2.3.0:1335-1337): one launcher as a node and two nodes, one slot each;
/// - "succeeded to build JobSet with OpenMPI values from the TrainJob"
///   (pkg/runtime/core/trainingruntime_test.go: v2.0.1:1173-1174, v2.1.0:1690-1691,
///   v2.2.1:1955-1956, v2.3.0:1993-1994): two nodes of the TrainJob's eight slots.
#[test]
fn mpi_hostfile_text_is_upstreams() {
    let launcher_as_node = "test-job-launcher-0-0.test-job slots=1\ntest-job-node-0-0.test-job slots=1\n\
                            test-job-node-0-1.test-job slots=1\n";
    let from_trainjob = "test-job-node-0-0.test-job slots=8\ntest-job-node-0-1.test-job slots=8\n";
    // (releases with the case, runLauncherAsNode, the TrainJob's trainer, upstream's hostfile)
    let cases = [
        (&[V2_1, V2_2, V2_3][..], true, "{numNodes: 3}", launcher_as_node),
        (&[V2_0, V2_1, V2_2, V2_3][..], false, "{numNodes: 2, numProcPerNode: 8}", from_trainjob),
    ];
    for (releases, as_node, trainer, want) in cases {
        for &release in releases {
            let e = explain_at(&trainjob("test-job", "test-runtime", trainer), &mpi_runtime(1, as_node), release);
            assert_eq!(e.rejected, vec![], "{}", release.tag);
            assert_eq!(hostfile(&e), want, "{} {trainer}", release.tag);
        }
    }
}

/// The MPI plugin's hostfile ConfigMap lists every node pod, and the API server refuses a
/// ConfigMap holding more than 1 MiB: past 27,171 nodes here the reconcile fails at it (explain
/// listed a 5 MB hostfile for 149,999). Counted without writing the hostfile, to the byte: the
/// last accepted hostfile's bytes and the first refused one's were counted by hand.
#[test]
fn an_mpi_hostfile_the_api_server_refuses_fails_the_reconcile() {
    // (numNodes, runLauncherAsNode, the hostfile's bytes: written if accepted, said if refused)
    let cases = [(27_171, false, Some(1_048_559)), (27_172, false, None), (27_172, true, None), (149_999, false, None)];
    for (nodes, as_node, written) in cases {
        let e =
            explain(&trainjob("trainjob", "test-runtime", &format!("{{numNodes: {nodes}}}")), &mpi_runtime(1, as_node));
        match written {
            Some(bytes) => {
                assert_eq!(e.rejected, vec![], "{nodes}");
                assert_eq!(hostfile(&e).len(), bytes, "{nodes}");
            }
            None => {
                assert!(e.jobset.is_none() && e.objects.is_empty(), "{nodes}");
                let [r] = &e.rejected[..] else { panic!("{nodes}: {:?}", e.rejected) };
                assert_eq!(r.field(), "spec.trainer.numNodes");
                let said = r.reason();
                assert!(said.starts_with("the MPI plugin writes the ConfigMap <trainjob>-mpi-hostfile"), "{said}");
                assert!(said.contains("refuses a ConfigMap holding more than 1048576 bytes"), "{said}");
                let bytes = match (nodes, as_node) {
                    (27_172, _) => "here 1048598 bytes",
                    _ => "bytes",
                };
                assert!(said.contains(bytes), "{said}");
            }
        }
    }
}

#[test]
fn mpi_rejections_from_mpi_test_go() {
    // TestValidate "runtime does not have Launcher even though MPI with runLauncherAsNode has 2 numNodes".
    let no_launcher = one_node_runtime(
        "mpi: {numProcPerNode: 1, mpiImplementation: OpenMPI, runLauncherAsNode: true}",
        "{name: node}",
    );
    let r = rejection(&trainjob("test", "test-runtime", "{numNodes: 2}"), &no_launcher);
    assert_eq!(r.field(), "spec.trainer.numNodes");
    assert_eq!(
        r.reason(),
        "must have 1 when MPI trainingRuntime with enabled runLauncherAsNode does not have either launcher and node"
    );
    // "runtime does not have Launcher but TrainJob has only 1 numNodes": accepted.
    assert_eq!(explain(&trainjob("test", "test-runtime", "{numNodes: 1}"), &no_launcher).rejected, vec![]);
    // "trainer has multiple reserved MPI envs".
    let job = trainjob(
        "test",
        "test-runtime",
        "{env: [{name: OMPI_MCA_orte_default_hostfile, value: /custom/hostfile}, {name: OMPI_MCA_plm_rsh_args, value: custom-args}]}",
    );
    let r = rejection(&job, &mpi_runtime(1, false));
    assert_eq!(r.field(), "spec.trainer.env");
    assert_eq!(
        r.reason(),
        "must not have reserved envs, invalid envs configured: [OMPI_MCA_orte_default_hostfile OMPI_MCA_plm_rsh_args]"
    );
}

#[test]
fn an_unreadable_quantity_is_a_clear_rejection() {
    let runtime = one_node_runtime("torch: {}", "{name: node}");
    let job = trainjob("q", "torch-distributed", "{resourcesPerNode: {limits: {cpu: lots}}}");
    let r = rejection(&job, &runtime);
    assert_eq!(r.field(), "spec.trainer.resourcesPerNode.limits.cpu");
}

/// pkg/runtime/core/clustertrainingruntime_test.go "succeeded to build PodGroup and JobSet with
/// NumNodes from the Runtime and container from the Trainer.": no framework policy (plainml),
/// coscheduling, a suspended TrainJob.
#[test]
fn podgroup_and_jobset_from_clustertrainingruntime_test_go() {
    let container = |name: &str| {
        format!("{{name: {name}, image: 'test:runtime', command: [runtime], args: [runtime], resources: {{requests: {{cpu: '1'}}}}}}")
    };
    let rjob = |name: &str, step: &str, depends: &str| {
        format!(
            "      - name: {name}\n        {depends}template:\n          metadata: {{labels: {{trainer.kubeflow.org/trainjob-ancestor-step: {step}}}}}\n          spec: {{template: {{spec: {{containers: [{}]}}}}}}\n",
            container(name)
        )
    };
    let runtime = format!(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: {{name: test-runtime}}\nspec:\n  \
         mlPolicy: {{numNodes: 100}}\n  podGroupPolicy: {{coscheduling: {{scheduleTimeoutSeconds: 120}}}}\n  template:\n    spec:\n      replicatedJobs:\n{}{}{}",
        rjob("dataset-initializer", "dataset-initializer", ""),
        rjob("model-initializer", "model-initializer", ""),
        rjob("node", "trainer", "dependsOn: [{name: dataset-initializer, status: Complete}, {name: model-initializer, status: Complete}]\n        "),
    );
    let job = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: test-job}\nspec:\n  suspend: true\n  \
               runtimeRef: {name: test-runtime, kind: ClusterTrainingRuntime}\n  \
               trainer: {image: 'test:trainjob', command: [trainjob], args: [trainjob], resourcesPerNode: {requests: {cpu: '1'}}}\n";
    let e = explain(job, &runtime);
    let jobset = e.jobset.as_ref().expect("a JobSet");
    assert_eq!(jobset.suspend, Some(true));
    let rjobs: Vec<(&str, u32, u32)> =
        jobset.replicated_jobs.iter().map(|r| (r.name.as_str(), r.replicas, r.parallelism)).collect();
    assert_eq!(rjobs, [("dataset-initializer", 1, 1), ("model-initializer", 1, 1), ("node", 1, 100)]);
    assert_eq!(jobset.replicated_jobs[2].depends_on.len(), 2);
    let node = &group(&e, "node").containers[0];
    assert_eq!(
        (node.image.as_deref(), node.command.as_slice(), node.args.as_slice()),
        (Some("test:trainjob"), &["trainjob".to_string()][..], &["trainjob".to_string()][..])
    );
    let pg = e.objects.iter().find(|o| o.kind == "PodGroup").expect("PodGroup");
    // scheduler-plugins' PodGroup holds them in its spec (apis/scheduling/v1alpha1/types.go:145-159).
    assert_eq!(pg.data, None, "a PodGroup has no data");
    let spec = pg.spec.as_ref().expect("the PodGroup's spec");
    // "102 replicas = 100 Trainer nodes + 2 Initializers."
    assert_eq!(spec["minMember"], 102);
    assert_eq!(spec["scheduleTimeoutSeconds"], 120);
    assert_eq!(spec["minResources"], serde_json::json!({"cpu": "102"}));
    let node = &group(&e, "node");
    assert_eq!(node.labels.get("scheduling.x-k8s.io/pod-group").map(String::as_str), Some("test-job"));
}

/// trainingruntime.go:144-161: runtime patches add their template labels to the JobSet's.
#[test]
fn runtime_patch_labels_reach_the_jobset() {
    let runtime = one_node_runtime("torch: {}", "{name: node}")
        .replace("  template:\n    spec:", "  template:\n    metadata: {labels: {team: a, tier: gold}}\n    spec:");
    let job = trainjob("p", "torch-distributed", "{numNodes: 1}").replace(
        "  trainer:",
        "  runtimePatches:\n  - manager: kueue.x-k8s.io/manager\n    trainingRuntimeSpec: {template: {metadata: {labels: {tier: silver, queue: q}}}}\n  trainer:",
    );
    let labels = explain(&job, &runtime).jobset.unwrap().labels;
    let got: Vec<(&str, &str)> = labels.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(got, [("team", "a"), ("tier", "silver"), ("queue", "q")]);
}

/// torch_test.go TestTorch "envInjection with init container" and "envInjection with torchtune
/// command" (targets also get the master address), TestValidate "envInjection target container
/// does not exist".
#[test]
fn torch_env_injection_from_torch_test_go() {
    let policy = |container: &str| {
        format!("torch: {{envInjection: {{targets: [{{jobName: node, containerNames: [{container}]}}]}}}}")
    };
    let runtime = |container: &str| {
        one_node_runtime(&policy(container), "{name: node}").replace(
            "spec: {template: {spec: {containers:",
            "spec: {template: {spec: {initContainers: [{name: preflight-check}], containers:",
        )
    };
    let e = explain(&trainjob("test-job", "torch-distributed", "{numNodes: 2}"), &runtime("preflight-check"));
    let pods = group(&e, "node");
    let names: Vec<(&str, bool)> = pods.containers.iter().map(|c| (c.name.as_str(), c.init)).collect();
    assert_eq!(names, [("preflight-check", true), ("node", false)]);
    for c in &pods.containers {
        let env: Vec<(&str, String)> = c.env.iter().map(|(k, v)| (k.as_str(), v.text())).collect();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert_eq!(
            env,
            [
                ("PET_NNODES", "2"),
                ("PET_NPROC_PER_NODE", "1"),
                ("PET_NODE_RANK", NODE_INDEX),
                ("PET_MASTER_ADDR", "test-job-node-0-0.test-job"),
                ("PET_MASTER_PORT", "29500"),
            ],
            "{}",
            c.name
        );
    }
    // With torchtune the main container has no master address, the target still does.
    let tune = trainjob("test-job", "torchtune-llama3.2-1b", "{numNodes: 1, command: [tune, run]}");
    let e = explain(&tune, &runtime("preflight-check"));
    let [init, main] = &group(&e, "node").containers[..] else { panic!("two containers") };
    assert_eq!(init.env.get("PET_MASTER_ADDR").map(EnvValue::text).as_deref(), Some("test-job-node-0-0.test-job"));
    assert_eq!(main.env.get("PET_MASTER_ADDR"), None);

    let r = rejection(&trainjob("test-job", "torch-distributed", "{numNodes: 2}"), &runtime("missing-container"));
    assert_eq!(r.field(), "spec.runtimeRef");
    assert_eq!(
        r.reason(),
        r#"envInjection target podSet "node" container "missing-container" not found in runtime template"#
    );
}

/// builder.go:42-101 (initializers): STORAGE_URI from the TrainJob, then its env, and its
/// secretRef as `envFrom`; each initializer runs one pod.
#[test]
fn initializers_get_the_trainjobs_storage_uri_env_and_secret() {
    let init = |step: &str| {
        format!(
            "      - name: {step}\n        template:\n          metadata: {{labels: {{trainer.kubeflow.org/trainjob-ancestor-step: {step}}}}}\n          \
             spec: {{template: {{spec: {{containers: [{{name: {step}, image: 'init:1', env: [{{name: STORAGE_URI, value: 'hf://runtime/default'}}], volumeMounts: [{{name: initializer, mountPath: /workspace}}]}}]}}}}}}\n"
        )
    };
    let runtime = format!(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: {{name: test-runtime}}\nspec:\n  mlPolicy: {{numNodes: 1, torch: {{}}}}\n  template:\n    spec:\n      replicatedJobs:\n{}{}      - name: node\n        template:\n          metadata: {{labels: {{trainer.kubeflow.org/trainjob-ancestor-step: trainer}}}}\n          spec: {{template: {{spec: {{containers: [{{name: node}}]}}}}}}\n",
        init("dataset-initializer"),
        init("model-initializer"),
    );
    let job = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: ft}\nspec:\n  runtimeRef: {name: test-runtime}\n  \
               initializer:\n    dataset: {storageUri: 'hf://tatsu-lab/alpaca', env: [{name: SPLIT, value: train}]}\n    \
               model: {storageUri: 'hf://meta-llama/Llama-3.2-1B', secretRef: {name: hf-token}}\n  trainer: {numNodes: 1}\n";
    let e = explain(job, &runtime);
    let dataset = &group(&e, "dataset-initializer").containers[0];
    let env: Vec<(&str, String)> = dataset.env.iter().map(|(k, v)| (k.as_str(), v.text())).collect();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(env, [("STORAGE_URI", "hf://tatsu-lab/alpaca"), ("SPLIT", "train")]);
    let model = &group(&e, "model-initializer").containers[0];
    assert_eq!(model.env.get("STORAGE_URI").map(EnvValue::text).as_deref(), Some("hf://meta-llama/Llama-3.2-1B"));
    assert_eq!(model.env_from, ["secretRef:hf-token"]);
    assert_eq!(group(&e, "model-initializer").count, 1);
    // Without the initializer volume mount the webhook refuses the dataset (jobset.go:119-138).
    let unmounted = runtime.replacen(", volumeMounts: [{name: initializer, mountPath: /workspace}]", "", 1);
    let r = rejection(job, &unmounted);
    assert_eq!(
        r.reason(),
        "must have volumeMount with name - initializer in container dataset-initializer of the dataset-initializer job"
    );
}

// ---- where releases differ: cases from the upstream tests at the older tag ----

/// v2.0.1 pkg/runtime/framework/plugins/torch/torch_test.go TestTorch: the runtime's
/// `torch.numProcPerNode: auto`, the TrainJob's `numProcPerNode` string, `resourcesPerNode`
/// requests (upstream's `Container(..., resRequests)`), and the PET_NPROC_PER_NODE it expects.
#[test]
fn torch_procs_from_v2_0_1_torch_test_go() {
    let cases = [
        ("nproc_per_node=auto with CPU limit", "{numProcPerNode: auto, resourcesPerNode: {requests: {cpu: '4'}}}", "4"),
        ("nproc_per_node=auto with no CPU resources", "{numProcPerNode: auto, resourcesPerNode: {}}", "1"),
        ("nproc_per_node=auto with millicore CPU limit", "{numProcPerNode: auto, resourcesPerNode: {requests: {cpu: '2.5'}}}", "3"),
        ("nproc_per_node=auto with GPU request should remain auto",
            "{numProcPerNode: auto, resourcesPerNode: {requests: {example.com/gpu: '2'}}}", "auto"),
        ("explicitly set nproc_per_node should be preserved",
            "{numProcPerNode: 3, resourcesPerNode: {requests: {cpu: '8'}}}", "3"),
        ("nproc_per_node=cpu with GPU resources",
            "{numProcPerNode: cpu, resourcesPerNode: {requests: {cpu: '6', example.com/gpu: '2'}}}", "6"),
        ("nproc_per_node=cpu with fractional CPU", "{numProcPerNode: cpu, resourcesPerNode: {requests: {cpu: '3.7'}}}", "4"),
        ("multi-node multi-GPU training with complete info",
            "{numNodes: 4, numProcPerNode: auto, resourcesPerNode: {requests: {cpu: '8', memory: 16Gi, example.com/gpu: '4'}}}", "auto"),
    ];
    let runtime = one_node_runtime("torch: {numProcPerNode: auto}", "{name: node}");
    for (at, trainer, nproc) in cases {
        let e = explain_at(&trainjob("test-job", "torch-distributed", trainer), &runtime, V2_0);
        assert_eq!(e.rejected, vec![], "{at}");
        assert_eq!(env(&e, "node", "PET_NPROC_PER_NODE").as_deref(), Some(nproc), "{at}");
    }
    // The same "cpu with GPU resources" input at v2.2.1 cannot be written: numProcPerNode is an
    // int32 (the case became "nproc_per_node=auto resolves to GPU count ..." there).
    let r = rejection_at(&trainjob("j", "torch-distributed", "{numProcPerNode: cpu}"), &runtime, V2_2);
    assert_eq!(r.field(), "spec.trainer.numProcPerNode");
}

/// The API server reports every error of an object, not the first (field.ErrorList): a v2.0
/// TrainJob and runtime meet the v2.2.1 CRDs with two fields they no longer have.
#[test]
fn every_error_is_reported() {
    let runtime = one_node_runtime("torch: {numProcPerNode: auto}", "{name: node}");
    let e = explain_at(&trainjob("j", "torch-distributed", "{numProcPerNode: cpu}"), &runtime, V2_2);
    let fields: Vec<String> = e.rejected.iter().map(|r| r.field()).collect();
    assert_eq!(fields, ["spec.trainer.numProcPerNode", "runtime spec.mlPolicy.torch.numProcPerNode"]);
}

/// Where v2.0 and v2.1 part (no upstream case covers it; the code: v2.0.1 torch.go:126-157 reads
/// only the TrainJob's resourcesPerNode, limits before requests; v2.1.0 torch.go:114-122 falls
/// back to the runtime's node container and reads requests first).
#[test]
fn torch_procs_per_release_from_the_code() {
    let runtime = one_node_runtime("torch: {numProcPerNode: auto}", "{name: node, resources: {requests: {cpu: '4'}}}");
    let plain = trainjob("j", "torch-distributed", "{numNodes: 2}");
    // Only the runtime has resources: v2.0 keeps `auto`, v2.1+ counts its 4 CPUs.
    assert_eq!(env(&explain_at(&plain, &runtime, V2_0), "node", "PET_NPROC_PER_NODE").as_deref(), Some("auto"));
    assert_eq!(env(&explain_at(&plain, &runtime, V2_1), "node", "PET_NPROC_PER_NODE").as_deref(), Some("4"));
    // A GPU limit and no requests: v2.0's empty requests list gives 1; v2.1 keeps `auto`.
    let gpu_limit =
        trainjob("j", "torch-distributed", "{numNodes: 2, resourcesPerNode: {limits: {nvidia.com/gpu: 2}}}");
    assert_eq!(env(&explain_at(&gpu_limit, &runtime, V2_0), "node", "PET_NPROC_PER_NODE").as_deref(), Some("1"));
    assert_eq!(env(&explain_at(&gpu_limit, &runtime, V2_1), "node", "PET_NPROC_PER_NODE").as_deref(), Some("auto"));
    // v2.3's torch policy has no numProcPerNode field: the same job on `torch: {}`.
    let v2_3_runtime = one_node_runtime("torch: {}", "{name: node, resources: {requests: {cpu: '4'}}}");
    assert_eq!(
        env(&explain_at(&gpu_limit, &v2_3_runtime, V2_3), "node", "PET_NPROC_PER_NODE").as_deref(),
        Some("auto")
    );
    assert_eq!(rejection_at(&plain, &runtime, V2_3).field(), "runtime spec.mlPolicy.torch.numProcPerNode");
}

/// v2.1.0 torch_test.go TestValidate "reserved environment variable present" sets
/// `numProcPerNode: auto` and is refused; "no action when info does not have numProcPerNode":
/// without it the v2.0/v2.1 webhook returns at once (torch.go:57 @v2.1.0), so the same reserved
/// name passes, and since the JobSet builder applies the TrainJob's env after the plugins
/// (builder.go:145-148 @v2.0.1), the reader's value reaches torchrun. v2.2 dropped that return.
#[test]
fn torch_reserved_env_needs_num_proc_per_node_until_v2_2() {
    let env_list = "env: [{name: test, value: value}, {name: PET_NPROC_PER_NODE, value: value}]";
    let with_procs = trainjob("test", "torch-distributed", &format!("{{numProcPerNode: auto, {env_list}}}"));
    let without = trainjob("test", "torch-distributed", &format!("{{{env_list}}}"));
    let runtime = one_node_runtime("torch: {numProcPerNode: auto}", "{name: node}");
    for release in [V2_0, V2_1] {
        let r = rejection_at(&with_procs, &runtime, release);
        assert_eq!(
            r.reason(),
            "must not have reserved envs, invalid envs configured: [PET_NPROC_PER_NODE]",
            "{}",
            release.tag
        );
        let e = explain_at(&without, &runtime, release);
        assert_eq!(e.rejected, vec![], "{}", release.tag);
        assert_eq!(
            env(&e, "node", "PET_NPROC_PER_NODE").as_deref(),
            Some("value"),
            "{}: the reader's value wins",
            release.tag
        );
    }
    let r = rejection_at(&without, &one_node_runtime("torch: {}", "{name: node}"), V2_2);
    assert_eq!(r.field(), "spec.trainer.env");
    // v2.0.1 torch_test.go "numProcPerNode is string and invalid".
    let npu = trainjob("test", "torch-distributed", "{numProcPerNode: npu}");
    assert_eq!(
        rejection_at(&npu, &runtime, V2_0).reason(),
        r#"Invalid value: "npu": must have an int value or [auto cpu gpu]"#
    );
}

/// v2.1.0 mpi_test.go TestMPI "numProcPerNode is set to number of GPUs in TrainJob" (slots=5);
/// v2.0.1 has no such rule (mpi.go:126-128 keeps the runtime's 1). TestValidate
/// "numProcPerNode typed is string" (v2.1.0). The reserved OMPI_* check is v2.3's alone
/// (mpi.go:95-107 @v2.3.0; v2.2.1 mpi_test.go has no such case).
#[test]
fn mpi_per_release_from_mpi_test_go() {
    let gpus =
        trainjob("trainjob", "test-runtime", "{numNodes: 1, resourcesPerNode: {requests: {custom.com/gpu: '5'}}}");
    let slots = |release| {
        let e = explain_at(&gpus, &mpi_runtime(1, false), release);
        env(&e, "launcher", "OMPI_MCA_orte_set_default_slots").as_deref().map(String::from)
    };
    assert_eq!(slots(V2_1).as_deref(), Some("5"));
    assert_eq!(slots(V2_0).as_deref(), Some("1"));
    let r = rejection_at(&trainjob("test", "test-runtime", "{numProcPerNode: invalid}"), &mpi_runtime(1, false), V2_1);
    assert_eq!(
        (r.field().as_str(), r.reason().as_str()),
        ("spec.trainer.numProcPerNode", r#"Invalid value: "invalid": must have an int value for MPI TrainJob"#)
    );
    let reserved = trainjob("test", "test-runtime", "{env: [{name: OMPI_MCA_plm_rsh_args, value: custom-args}]}");
    assert_eq!(rejection_at(&reserved, &mpi_runtime(1, false), V2_3).field(), "spec.trainer.env");
    let e = explain_at(&reserved, &mpi_runtime(1, false), V2_2);
    assert_eq!(e.rejected, vec![]);
    // Accepted; the TrainJob's env goes to the trainer step (`node` here), so the launcher keeps
    // the plugin's value (mpi.go:201-224).
    assert_eq!(env(&e, "launcher", "OMPI_MCA_plm_rsh_args").as_deref(), Some("-o ConnectionAttempts=10"));
}

/// The Flux ConfigMap holds the scripts the plugin writes (pkg/runtime/framework/plugins/flux/
/// flux.go `generateInitEntrypoint`, `generateFluxEntrypoint` and templates/ at each tag): the
/// embedded template with this job's hosts, node count, processes and GPUs filled in.
#[test]
fn flux_configmap_holds_the_plugins_scripts() {
    let runtime = one_node_runtime("flux: {numProcPerNode: 1}", "{name: node}");
    let job = trainjob(
        "flux-job",
        "test-runtime",
        "{numNodes: 3, numProcPerNode: 4, resourcesPerNode: {limits: {nvidia.com/gpu: 2}}}",
    );
    for release in [V2_2, V2_3] {
        let e = explain_at(&job, &runtime, release);
        let at = release.tag;
        let cm = e.objects.iter().find(|o| o.name == "flux-job-flux-entrypoint").expect("no Flux ConfigMap");
        assert!(cm.described.is_empty(), "{at}: {:?}", cm.described);
        let data = cm.data.as_ref().unwrap_or_else(|| panic!("{at}: no data"));
        let (init, entrypoint) = (data.get("init.sh").unwrap(), data.get("entrypoint.sh").unwrap());
        // v2.3.0 put the license header above both scripts' `#!/bin/sh`.
        let first = if release == V2_3 { "# Copyright The Kubeflow Authors.\n" } else { "#!/bin/sh\n" };
        assert!(init.starts_with(first) && entrypoint.starts_with(first), "{at}:\n{init}\n{entrypoint}");
        assert!(init.contains("\nfluxroot=/opt/view\nmainHost=flux-job-0\n"), "{at}:\n{init}");
        assert!(init.contains("\nhosts=\"flux-job-node-0-[0-2]\"\n"), "{at}:\n{init}");
        // broker.toml inside init.sh, its `%p`/`%h` left for Flux.
        assert!(init.contains("\ndefault_bind = \"tcp://eth0:%p\"\n"), "{at}:\n{init}");
        assert!(
            init.contains("\ndefault_connect = \"tcp://%h.flux-job.default.svc.cluster.local:%p\"\n"),
            "{at}:\n{init}"
        );
        assert!(init.contains("\n{ host=\"flux-job-node-0-[0-2]\"},\n"), "{at}:\n{init}");
        assert!(init.contains("\nqueue-policy = \"fcfs\"\n\nEOT\n"), "{at}:\n{init}");
        assert!(init.ends_with("echo \"Application is done.\"\n"), "{at}");
        // 3 nodes × 4 processes, 2 GPUs per task.
        assert!(entrypoint.contains("\nmainHost=\"flux-job-node-0-0\"\n"), "{at}:\n{entrypoint}");
        assert!(entrypoint.contains("\n    flags=\"-N 3 -n 12 -g 2  \"\n"), "{at}:\n{entrypoint}");
        let encode = if release == V2_3 { "--cores=0-3 --gpu=0-1" } else { "--local" };
        assert!(entrypoint.contains(&format!("\nflux R encode --hosts=${{hosts}} {encode} > /tmp/R\n")), "{at}");
        assert!(entrypoint.ends_with("touch $viewbase/flux-operator-complete.txt\n"), "{at}");
        assert!(!init.contains("%s") && !entrypoint.contains("%s"), "{at}: a verb left unfilled");
        let secret = e.objects.iter().find(|o| o.name == "flux-job-flux-curve").expect("no CURVE Secret");
        assert!(secret.data.is_none() && secret.described.contains_key("curve.cert"), "{at}: {secret:?}");
    }
    // The TrainJob's numProcPerNode unset: the Flux policy's; no GPUs, no `-g`.
    let e = explain(&trainjob("flux-job", "test-runtime", "{numNodes: 1}"), &runtime);
    let cm = e.objects.iter().find(|o| o.name == "flux-job-flux-entrypoint").unwrap();
    let entrypoint = cm.data.as_ref().unwrap().get("entrypoint.sh").unwrap();
    assert!(entrypoint.contains("\n    flags=\"-N 1 -n 1  \"\n"), "{entrypoint}");
    assert!(entrypoint.contains("--hosts=${hosts} --cores=0 > /tmp/R\n"), "{entrypoint}");
    assert!(cm.data.as_ref().unwrap().get("init.sh").unwrap().contains("\nhosts=\"flux-job-node-0-[0]\"\n"));
}

/// The runtime snapshot ConfigMap exists from v2.3.0 only (pkg/runtime/core/snapshot.go).
#[test]
fn runtime_snapshot_only_from_v2_3() {
    let job = trainjob("j", "torch-distributed", "{numNodes: 2}");
    let runtime = one_node_runtime("torch: {}", "{name: node}");
    for release in RELEASES.iter().copied() {
        let e = explain_at(&job, &runtime, release);
        let has = e.objects.iter().any(|o| o.name == "j-runtime-snapshot");
        assert_eq!(has, release.controller.runtime_snapshot, "{}", release.tag);
        assert_eq!(has, !release.is_before(&V2_3), "{}: from v2.3 on", release.tag);
    }
}

/// resourcesPerNode replaces the trainer's resources until v2.2.1 (builder.go:148-158 @v2.2.1)
/// and is merged over them from v2.3.0 (trainingruntime.go:199-237, util/trainingruntime:47-65).
#[test]
fn resources_per_node_replace_then_merge() {
    let runtime = one_node_runtime("torch: {}", "{name: node, resources: {requests: {cpu: '2', memory: 4Gi}}}");
    let job = trainjob("j", "torch-distributed", "{numNodes: 1, resourcesPerNode: {requests: {cpu: '8'}}}");
    let requests = |release| {
        let e = explain_at(&job, &runtime, release);
        let res = group(&e, "node").containers[0].resources.clone().unwrap();
        res.requests.keys().cloned().collect::<Vec<_>>()
    };
    assert_eq!(requests(V2_2), ["cpu"]);
    assert_eq!(requests(V2_3), ["cpu", "memory"]);
}

/// A field the release's CRD lacks is refused before any webhook: pod settings per release,
/// mlPolicy sources, torch.envInjection.
#[test]
fn fields_a_release_does_not_have_are_refused() {
    let runtime = one_node_runtime("torch: {}", "{name: node}");
    let patches = trainjob("p", "torch-distributed", "{numNodes: 1}").replace(
        "  trainer:",
        "  runtimePatches:\n  - manager: example.com/me\n    trainingRuntimeSpec: {}\n  trainer:",
    );
    assert_eq!(
        rejection_at(&patches, &runtime, V2_1).reason(),
        r#"strict decoding error: unknown field "spec.runtimePatches" (not in the v2.1.0 CRD)"#
    );
    assert_eq!(explain_at(&patches, &runtime, V2_2).rejected, vec![]);
    let overrides = trainjob("p", "torch-distributed", "{numNodes: 1}")
        .replace("  trainer:", "  podTemplateOverrides:\n  - targetJobs: [{name: node}]\n  trainer:");
    assert_eq!(explain_at(&overrides, &runtime, V2_1).rejected, vec![]);
    assert_eq!(rejection_at(&overrides, &runtime, V2_0).field(), "spec.podTemplateOverrides");
    assert_eq!(rejection_at(&overrides, &runtime, V2_3).field(), "spec.podTemplateOverrides");
    let jax = one_node_runtime("jax: {}", "{name: node}");
    let job = trainjob("j", "jax-distributed", "{numNodes: 2}");
    assert_eq!(rejection_at(&job, &jax, V2_1).field(), "runtime spec.mlPolicy.jax");
    assert_eq!(explain_at(&job, &jax, V2_2).rejected, vec![]);
    let injection = one_node_runtime("torch: {envInjection: {targets: []}}", "{name: node}");
    assert_eq!(
        rejection_at(&trainjob("j", "torch-distributed", "{}"), &injection, V2_2).field(),
        "runtime spec.mlPolicy.torch.envInjection"
    );
}

/// v2.1.0 pkg/runtime/core/trainingruntime_test.go "succeeded to build Jobset with TorchTune values
/// from the TrainJob (LoRA)": LoRA args on one node with 2 GPUs pick the LoRA recipe. v2.0.1 knows
/// only full fine-tuning (torch.go:249-260), so the same TrainJob runs the full recipe. QLoRA:
/// v2.1.0 takes any `model.quantize_base` mention (torchtune.go:115-128), v2.3.0 only `=True`.
#[test]
fn torchtune_recipes_per_release() {
    let runtime = one_node_runtime(
        "torch: {}",
        "{name: node, command: [tune, run, output_dir=/workspace/output, tokenizer.path=/workspace/model/original/tokenizer.model, checkpointer.checkpoint_dir=/workspace/model]}",
    );
    let job = |args: &str| {
        trainjob(
            "test-job",
            "torchtune-llama3.2-1b",
            &format!("{{numNodes: 1, numProcPerNode: auto, command: [tune, run], args: [{args}], resourcesPerNode: {{requests: {{example.com/gpu: '2'}}}}}}"),
        )
    };
    let lora = job("model.apply_lora_to_mlp=True, 'model.lora_attn_modules=[q_proj,k_proj,v_proj,output_proj]'");
    let command = |job: &str, release| group(&explain_at(job, &runtime, release), "node").containers[0].command.clone();
    let head = |recipe: &str, config: &str| {
        ["tune", "run", "--rdzv_endpoint=test-job-node-0-0.test-job:29500", recipe, "--config", config]
            .map(String::from)
            .to_vec()
    };
    assert_eq!(command(&lora, V2_1)[..6], head("lora_finetune_distributed", "llama3_2/1B_lora")[..]);
    assert_eq!(command(&lora, V2_0)[..6], head("full_finetune_distributed", "llama3_2/1B_full")[..]);
    assert_eq!(
        command(&lora, V2_1)[6..],
        [
            "output_dir=/workspace/output",
            "tokenizer.path=/workspace/model/original/tokenizer.model",
            "checkpointer.checkpoint_dir=/workspace/model"
        ]
    );
    // `model.quantize_base=False`: QLoRA for v2.1's name match, refused for the 1B model on 2
    // devices by its webhook (torchtune.go:59-71); plain LoRA for v2.3 (numProcPerNode is an int
    // there, so the v2.3 job leaves it out).
    let not_quantized = job("model.quantize_base=False, 'model.lora_attn_modules=[q_proj]'");
    let r = rejection_at(&not_quantized, &runtime, V2_1);
    assert_eq!(r.reason(), "must be auto or 1 for llama3_2/1B model when using QLoRA");
    let v2_3_job = not_quantized.replace("numProcPerNode: auto, ", "");
    assert_eq!(command(&v2_3_job, V2_3)[3..6], ["lora_finetune_distributed", "--config", "llama3_2/1B_lora"]);
}

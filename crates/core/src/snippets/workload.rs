//! What the job runs, per framework. V1 and V2 run the same workload, so the two panes differ
//! only in what the API makes the reader write around it.

use super::Api;
use crate::selection::Selection;
use explorer_data::catalog::Framework;

/// The placeholder script path. Snippets say it is a placeholder next to it.
pub(crate) fn script_path(framework: Framework) -> &'static str {
    if framework.is_mpi() {
        // The V2 MPI runtimes run as mpiuser (uid 1000); the SDK writes its files here too.
        "/home/mpiuser/train.py"
    } else {
        "/workspace/train.py"
    }
}

/// The V2 `trainer.command`. The runtime sets up the distributed environment, so the command is
/// only the launcher the framework needs.
pub(crate) fn v2_command(sel: &Selection) -> Vec<String> {
    let script = script_path(sel.framework).to_string();
    match sel.framework {
        Framework::PyTorch => vec!["torchrun".into(), script],
        Framework::DeepSpeed | Framework::Mlx => {
            vec!["mpirun".into(), "--hostfile".into(), "/etc/mpi/hostfile".into(), "python3".into(), script]
        }
        // The pi demo the v2.0 `mpi-distributed` runtime shipped, as a plain-MPI workload.
        Framework::Mpi => {
            vec!["mpirun".into(), "--hostfile".into(), "/etc/mpi/hostfile".into(), "/home/mpiuser/pi".into()]
        }
        _ => vec!["python3".into(), script],
    }
}

/// The V1 command. MPIJob launchers had to size `mpirun` themselves (`-np`), since the V1 hostfile
/// carried no slot count the job could rely on across kinds.
pub(crate) fn v1_command(sel: &Selection) -> Vec<String> {
    let script = "/workspace/train.py".to_string();
    let np = (sel.nodes() * slots_per_node(sel)).to_string();
    match sel.framework {
        // kubeflow-training's create_job starts a single process with python unless the job
        // spans nodes or sets processes per node; the YAML runs what the SDK would.
        Framework::PyTorch if sel.nodes() > 1 || sel.procs().is_some() => vec!["torchrun".into(), script],
        Framework::DeepSpeed | Framework::Mlx => {
            vec!["mpirun".into(), "-np".into(), np, "--allow-run-as-root".into(), "python3".into(), script]
        }
        Framework::Mpi => vec!["mpirun".into(), "-np".into(), np, "/home/mpiuser/pi".into()],
        _ => vec!["python3".into(), script],
    }
}

/// MPI slots per node: processes if set, else one per GPU, else one.
pub(crate) fn slots_per_node(sel: &Selection) -> u32 {
    sel.procs().unwrap_or(sel.gpus().max(1))
}

/// The body of the training function passed to the SDKs (`CustomTrainer(func=...)` in V2,
/// `create_job(train_func=...)` in V1). Lines are indented by the caller.
/// tests/python/run_training.py runs each V2 function (and the V1 PyTorch one) on two local
/// processes with the env the controller gives each pod; crates/core/tests/it/v1_tf_snippet.rs and
/// crates/core/tests/it/v1_paddle_snippet.rs run the V1 TensorFlow and PaddlePaddle ones once per pod.
pub fn function_body(sel: &Selection, api: Api) -> Vec<String> {
    let gpu = sel.gpus() > 0;
    let lines: Vec<&str> = match sel.framework {
        Framework::PyTorch => vec![
            "import torch.distributed as dist",
            "",
            match api {
                // The V2 torch runtime always starts the command with torchrun
                // (v2.3.0:pkg/runtime/framework/plugins/torch/torch.go sets PET_* for it).
                Api::V2 => "# torchrun set the rank and world size.",
                // kubeflow-training 1.9.4 starts torchrun on several nodes or processes, else
                // one process with python, which reads the pod env the operator sets: RANK and
                // WORLD_SIZE (pkg/controller.v1/pytorch/envvar.go:86-93 @v1.9.0), MASTER_ADDR
                // and MASTER_PORT (master.go:15-16).
                Api::V1 => "# torchrun or, for one process, the operator's pod env set the rank and world size.",
            },
            if gpu { "dist.init_process_group(backend=\"nccl\")" } else { "dist.init_process_group(backend=\"gloo\")" },
            "print(f\"rank {dist.get_rank()} of {dist.get_world_size()}\")",
            "# ... build the model, wrap it in DistributedDataParallel, train ...",
            "dist.destroy_process_group()",
        ],
        Framework::DeepSpeed => vec![
            "import deepspeed",
            "",
            "# mpirun started one process per slot; DeepSpeed joins them into one group.",
            "deepspeed.init_distributed()",
            "# ... model_engine, optimizer, _, _ = deepspeed.initialize(...) and train ...",
        ],
        Framework::Mlx => vec![
            "import mlx.core as mx",
            "",
            "world = mx.distributed.init()",
            "print(f\"rank {world.rank()} of {world.size()}\")",
            "# ... average gradients with mx.distributed.all_sum and train ...",
        ],
        // jax reads only JAX_COORDINATOR_ADDRESS from the env (jax/_src/distributed.py); the
        // process count and id it would find by cluster auto-detection, which on Kubernetes
        // needs the `kubernetes` package and the right to read Pods. The runtime sets both
        // (v2.3.0:pkg/runtime/framework/plugins/jax/jax.go:76-97, the same since v2.2).
        Framework::Jax => vec![
            "import os",
            "",
            "import jax",
            "",
            "# The runtime sets these; jax itself reads only the coordinator's address.",
            "jax.distributed.initialize(",
            "    coordinator_address=os.environ[\"JAX_COORDINATOR_ADDRESS\"],",
            "    num_processes=int(os.environ[\"JAX_NUM_PROCESSES\"]),",
            "    process_id=int(os.environ[\"JAX_PROCESS_ID\"]),",
            ")",
            "print(f\"process {jax.process_index()} sees {jax.device_count()} devices\")",
            "# ... shard the batch over jax.devices() and train ...",
        ],
        // The runtime only points every worker at rank 0's pod (DMLC_TRACKER_URI and _PORT,
        // v2.3.0:pkg/runtime/framework/plugins/xgboost/xgboost.go:115-139); nothing in the image
        // starts the tracker, so rank 0's code does.
        Framework::XgBoost => {
            let mut lines = vec![
                "import os",
                "",
                "from xgboost import collective",
                "from xgboost.tracker import RabitTracker",
                "",
                "# The runtime sets DMLC_*; the tracker the workers meet at is rank 0's to start.",
                "rank = int(os.environ[\"DMLC_TASK_ID\"])",
                "port = int(os.environ[\"DMLC_TRACKER_PORT\"])",
            ];
            if gpu {
                lines.extend([
                    "# DMLC_NUM_WORKER counts a worker per GPU, but each node runs this once: start a",
                    "# process per GPU (task id DMLC_TASK_ID * GPUs + GPU index), or the tracker waits.",
                ]);
            }
            lines.extend([
                "tracker = None",
                "if rank == 0:",
                "    workers = int(os.environ[\"DMLC_NUM_WORKER\"])",
                "    tracker = RabitTracker(",
                "        n_workers=workers, host_ip=\"0.0.0.0\", port=port, sortby=\"task\"",
                "    )",
                "    tracker.start()",
                "with collective.CommunicatorContext(",
                "    dmlc_tracker_uri=os.environ[\"DMLC_TRACKER_URI\"],",
                "    dmlc_tracker_port=port,",
                "    dmlc_task_id=str(rank),",
                "):",
                "    print(\"worker\", collective.get_rank(), \"of\", collective.get_world_size())",
                "    # ... xgboost.train(params, xgboost.DMatrix(this worker's shard)) ...",
                "if tracker is not None:",
                "    tracker.wait_for()",
            ]);
            lines
        }
        // Training Operator v1.9 gives a TFJob's pods TF_CONFIG (this pod's task type and index),
        // not RANK, and none at all when the job has one pod (v1.9.0:pkg/controller.v1/tensorflow/
        // tensorflow.go:112-188, tfjob_controller.go:561-564); plain_ml keeps the same for V2.
        Framework::TensorFlow => vec![
            "import json",
            "import os",
            "",
            "# The operator sets TF_CONFIG on each pod (none when the job has one pod).",
            "task = json.loads(os.environ.get(\"TF_CONFIG\", \"{}\")).get(\"task\", {})",
            "print(\"task\", task.get(\"type\", \"worker\"), task.get(\"index\", 0))",
            "# ... your training code ...",
        ],
        // Training Operator v1.9 gives a PaddleJob's pods no rank: PADDLE_JOB_ID, PADDLE_NNODES
        // and PADDLE_MASTER, where the pods meet (the first pod's own address there, the first
        // pod's Service elsewhere; v1.9.0:pkg/controller.v1/paddlepaddle/envvar.go:65-124).
        // paddle.distributed.launch meets the others there and gives each process its rank
        // (PADDLE_TRAINER_ID); plain_ml keeps the same variables for V2.
        Framework::Paddle => vec![
            "import os",
            "",
            "# The operator sets no rank: paddle.distributed.launch meets the other pods at",
            "# PADDLE_MASTER and gives each process its own (PADDLE_TRAINER_ID).",
            "master = os.environ[\"PADDLE_MASTER\"]",
            "print(\"job\", os.environ[\"PADDLE_JOB_ID\"], \"nodes\", os.environ[\"PADDLE_NNODES\"], \"master\", master)",
            "# ... your training code ...",
        ],
        Framework::Mpi | Framework::TorchTune => {
            vec!["import os", "", "print(\"rank\", os.environ.get(\"RANK\", \"0\"))", "# ... your training code ..."]
        }
    };
    lines.into_iter().map(String::from).collect()
}

/// Writes `def train():` with the framework's body, set apart by blank lines as PEP 8 asks.
pub(crate) fn write_train_function(script: &mut super::python::Script, sel: &Selection, api: Api) {
    script.blank();
    script.line("def train():");
    for line in function_body(sel, api) {
        script.line(if line.is_empty() { line } else { format!("    {line}") });
    }
    script.blank();
    script.blank();
}

//! What the job runs, per framework. V1 and V2 run the same workload, so the two panes differ
//! only in what the API makes the reader write around it.

use crate::catalog::Framework;
use crate::selection::Selection;

/// The placeholder script path. Snippets say it is a placeholder next to it.
pub fn script_path(framework: Framework) -> &'static str {
    if framework.is_mpi() {
        // The V2 MPI runtimes run as mpiuser (uid 1000); the SDK writes its files here too.
        "/home/mpiuser/train.py"
    } else {
        "/workspace/train.py"
    }
}

/// The V2 `trainer.command`. The runtime sets up the distributed environment, so the command is
/// only the launcher the framework needs.
pub fn v2_command(sel: &Selection) -> Vec<String> {
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
pub fn v1_command(sel: &Selection) -> Vec<String> {
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
pub fn slots_per_node(sel: &Selection) -> u32 {
    sel.procs().unwrap_or(sel.gpus().max(1))
}

/// The body of the training function passed to the SDKs (`CustomTrainer(func=...)` in V2,
/// `create_job(train_func=...)` in V1). Lines are indented by the caller.
pub fn function_body(sel: &Selection) -> Vec<String> {
    let gpu = sel.gpus() > 0;
    let lines: Vec<&str> = match sel.framework {
        Framework::PyTorch => vec![
            "import torch.distributed as dist",
            "",
            "# The launcher (torchrun, or python for one process) set the rank and world size.",
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
        Framework::Jax => vec![
            "import jax",
            "",
            "jax.distributed.initialize()",
            "print(f\"process {jax.process_index()} sees {jax.device_count()} devices\")",
            "# ... shard the batch over jax.devices() and train ...",
        ],
        Framework::XgBoost => vec![
            "import os",
            "",
            "# The runtime sets DMLC_* variables; rank 0 also starts the Rabit tracker.",
            "print(\"worker\", os.environ[\"DMLC_TASK_ID\"], \"of\", os.environ[\"DMLC_NUM_WORKER\"])",
            "# ... xgboost.collective.CommunicatorContext(...) and xgboost.train(...) ...",
        ],
        Framework::Mpi | Framework::TorchTune | Framework::TensorFlow | Framework::Paddle => {
            vec!["import os", "", "print(\"rank\", os.environ.get(\"RANK\", \"0\"))", "# ... your training code ..."]
        }
    };
    lines.into_iter().map(String::from).collect()
}

/// Writes `def train():` with the framework's body, set apart by blank lines as PEP 8 asks.
pub fn write_train_function(script: &mut super::python::Script, sel: &Selection) {
    script.blank();
    script.line("def train():");
    for line in function_body(sel) {
        script.line(if line.is_empty() { line } else { format!("    {line}") });
    }
    script.blank();
    script.blank();
}

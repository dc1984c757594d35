//! What the job runs, per framework. V1 and V2 run the same workload, so the two panes differ
//! only in what the API makes the reader write around it.

use super::Api;
use crate::selection::Selection;
use explorer_data::catalog::Framework;
use explorer_data::templates::train;

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
    let np = crate::text::decimal((sel.nodes() * slots_per_node(sel)).into());
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
/// `create_job(train_func=...)` in V1), from its template (explorer_data::templates::train, which
/// says where each body's facts come from and which tests run it). Lines are indented by the caller.
pub fn function_body(sel: &Selection, api: Api) -> Vec<String> {
    let template = match sel.framework {
        Framework::PyTorch => train::PYTORCH,
        Framework::DeepSpeed => train::DEEPSPEED,
        Framework::Mlx => train::MLX,
        Framework::Jax => train::JAX,
        Framework::XgBoost => train::XGBOOST,
        Framework::TensorFlow => train::TENSORFLOW,
        Framework::Paddle => train::PADDLE,
        Framework::Mpi | Framework::TorchTune => train::RANK,
    };
    let pane = match api {
        Api::V1 => "v1",
        Api::V2 => "v2",
    };
    let flags: &[&str] = if sel.gpus() > 0 { &[pane, "gpu"] } else { &[pane] };
    // Pushed, not collected: each `map(..).collect()` compiled the standard library's collecting
    // code once more for its own iterator type (wasm bytes).
    let mut body = Vec::new();
    for line in crate::template::fill(template, flags).lines() {
        body.push(line.to_string());
    }
    body
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

//! Kubeflow SDK (`pip install kubeflow`, the version explorer_data::releases pairs with the selected
//! release) code for the data scientist. The classes, `train()` keywords and `TrainerClient`
//! methods used here are the same in 0.3.1, 0.4.1 and 0.5.0 (tests/python/check_snippets.py binds
//! them to each wheel); what differs is how the SDK refers to a namespaced runtime.

use super::python::{raw, s, Call, Py, Script};
use super::trainjob::{HF_SECRET, QUEUE_LABEL};
use super::workload;
use super::Api;
use crate::selection::{RuntimeScope, Selection};
use explorer_data::catalog::Framework;
use explorer_data::releases::SdkNamespacedRuntimes;

const TRAINER: &str = "kubeflow.trainer";
const OPTIONS: &str = "kubeflow.trainer.options";

/// How long the LLM fine-tuning examples wait, as Python: a model download plus fine-tuning.
pub(crate) const LLM_WAIT: &str = "4 * 60 * 60";

/// Where the TrainJob YAML says what the SDK cannot: each note names the YAML field, so
/// tests/python/run_snippets.py accepts that difference and no other.
fn notes(sel: &Selection) -> Vec<String> {
    let sdk = sel.release.sdk;
    let mut notes = Vec::new();
    if sel.procs().is_some() {
        match sel.framework.ml_policy() {
            Some("torch") => {
                notes.push(format!("SDK {sdk} has no per-node process count: the torch runtime starts one"));
                notes.push("process per GPU (per CPU without GPUs).".into());
            }
            Some("mpi") => {
                notes.push(format!("SDK {sdk} has no per-node process count: each node gets the runtime's"));
                notes.push("mpi.numProcPerNode slots (the GPU count when more GPUs are requested).".into());
            }
            _ => {}
        }
        if matches!(sel.framework.ml_policy(), Some("torch" | "mpi")) {
            notes.push("Set spec.trainer.numProcPerNode in the TrainJob YAML to override.".into());
        }
    }
    if sel.queue().is_some() {
        notes.push("The SDK only labels the TrainJob; Kueue's webhook suspends it until admitted,".into());
        notes.push("which the YAML's spec.suspend says up front.".into());
    }
    if sel.framework == Framework::TorchTune && sel.model().gated() {
        notes.push("The SDK writes the token into the TrainJob as a plain ACCESS_TOKEN value; the".into());
        notes.push(format!("YAML's initializer.model.env reads it from the {HF_SECRET} Secret instead."));
    }
    notes
}

fn resources(sel: &Selection) -> Option<Py> {
    (sel.gpus() > 0).then(|| Py::Dict(vec![("gpu".into(), Py::Int(i64::from(sel.gpus())))]))
}

fn client_call(sel: &Selection, script: &mut Script) -> Call {
    match sel.namespace() {
        Some(ns) => {
            script.import(TRAINER, "KubernetesBackendConfig");
            Call::new("TrainerClient")
                .kw("backend_config", Call::new("KubernetesBackendConfig").kw("namespace", s(ns)).into_py())
        }
        None => Call::new("TrainerClient"),
    }
}

fn options(sel: &Selection, script: &mut Script) -> Py {
    script.import(OPTIONS, "Name");
    let mut opts = vec![Call::new("Name").kw("name", s(&sel.name())).into_py()];
    if let Some(q) = sel.queue() {
        script.import(OPTIONS, "Labels");
        opts.push(Call::new("Labels").kw("labels", Py::Dict(vec![(QUEUE_LABEL.into(), s(q))])).into_py());
    }
    Py::List(opts)
}

/// `None` where V2 has no runtime.
pub(crate) fn sdk_v2(sel: &Selection) -> Option<String> {
    let runtime = sel.runtime_name()?;
    let mut script = Script::new();
    script.import(TRAINER, "TrainerClient");
    let client = client_call(sel, &mut script);
    if sel.scope == RuntimeScope::Namespaced && sel.release.sdk_namespaced_runtimes != SdkNamespacedRuntimes::Supported
    {
        return Some(watch_applied_job(sel, &runtime, client, script));
    }

    let mut options = options(sel, &mut script);
    let train = match sel.framework {
        Framework::TorchTune => llm_train_call(sel, &runtime, &mut script),
        // A plain-MPI workload is a program in the image, not a Python function.
        Framework::Mpi => {
            script.import(TRAINER, "CustomTrainerContainer");
            script.import(OPTIONS, "TrainerCommand");
            // Pushed, not collected (see `workload::function_body`).
            let mut command = Vec::new();
            for word in workload::v2_command(sel) {
                command.push(s(&word));
            }
            if let Py::List(opts) = &mut options {
                opts.push(Call::new("TrainerCommand").kw("command", Py::List(command)).into_py());
            }
            let trainer = Call::new("CustomTrainerContainer")
                .kw("image", s(&super::runtimes::custom_mpi_image(sel)))
                .kw("num_nodes", Py::Int(i64::from(sel.nodes())))
                .kw_opt("resources_per_node", resources(sel));
            Call::new("client.train").kw("runtime", s(&runtime)).kw("trainer", trainer.into_py())
        }
        _ => {
            script.import(TRAINER, "CustomTrainer");
            workload::write_train_function(&mut script, sel, Api::V2);
            let trainer = Call::new("CustomTrainer")
                .kw("func", raw("train"))
                .kw_opt("image", sel.params.image.as_deref().map(s))
                .kw("num_nodes", Py::Int(i64::from(sel.nodes())))
                .kw_opt("resources_per_node", resources(sel));
            Call::new("client.train").kw("runtime", s(&runtime)).kw("trainer", trainer.into_py())
        }
    };
    let train = train.kw("options", options);

    for note in notes(sel) {
        script.line(format!("# {note}"));
    }
    script.line(format!("client = {}", client.into_py().render(0)));
    script.line(format!("job_name = {}", train.into_py().render(0)));
    Some(wait_and_print_logs(sel, script))
}

/// An SDK without `Runtime.kind` (see [`SdkNamespacedRuntimes`]) cannot start a TrainJob on a namespaced TrainingRuntime: its
/// TrainJob would name a ClusterTrainingRuntime (the CRD's default kind). The reader applies the
/// YAML pane, as the V1 panes do for kinds kubeflow-training cannot build, and the client watches.
fn watch_applied_job(sel: &Selection, runtime: &str, client: Call, mut script: Script) -> String {
    let sdk = sel.release.sdk;
    script.line(format!("# SDK {sdk} writes spec.runtimeRef without a kind, so the TrainJob its train()"));
    script.line(format!("# creates would run the ClusterTrainingRuntime {runtime},"));
    script.line("# not this namespace's TrainingRuntime. Apply the TrainJob YAML with kubectl;");
    script.line("# the client watches it.");
    if sel.release.sdk_namespaced_runtimes == SdkNamespacedRuntimes::Unread {
        script.line(format!("# SDK {sdk} reads only ClusterTrainingRuntimes: watching needs that one too."));
    }
    script.line(format!("client = {}", client.into_py().render(0)));
    script.line(format!("job_name = {}", s(&sel.name()).render(0)));
    wait_and_print_logs(sel, script)
}

fn wait_and_print_logs(sel: &Selection, mut script: Script) -> String {
    script.blank();
    if sel.framework == Framework::TorchTune {
        // wait_for_job_status gives up after 600 s by default (TimeoutError).
        script.line("# Downloading the model and fine-tuning take hours: wait longer than the 600 s default.");
        script.line(format!("client.wait_for_job_status(job_name, timeout={LLM_WAIT})"));
    } else {
        script.line("# Blocks until the TrainJob is Complete (V1 waited for Succeeded).");
        script.line("client.wait_for_job_status(job_name)");
    }
    script.line("for line in client.get_job_logs(job_name):");
    script.line("    print(line)");
    script.finish()
}

fn llm_train_call(sel: &Selection, runtime: &str, script: &mut Script) -> Call {
    for name in [
        "BuiltinTrainer",
        "DataFormat",
        "HuggingFaceDatasetInitializer",
        "HuggingFaceModelInitializer",
        "Initializer",
        "TorchTuneConfig",
        "TorchTuneInstructDataset",
    ] {
        script.import(TRAINER, name);
    }
    let model = sel.model();
    let mut model_init = Call::new("HuggingFaceModelInitializer").kw("storage_uri", s(model.hf_uri()));
    if model.gated() {
        script.import_module("os");
        model_init = model_init.kw("access_token", raw("os.environ[\"HF_TOKEN\"]"));
    }
    let initializer = Call::new("Initializer")
        .kw("dataset", Call::new("HuggingFaceDatasetInitializer").kw("storage_uri", s(&sel.dataset())).into_py())
        .kw("model", model_init.into_py());
    let config = Call::new("TorchTuneConfig")
        .kw(
            "dataset_preprocess_config",
            Call::new("TorchTuneInstructDataset").kw("source", raw("DataFormat.PARQUET")).into_py(),
        )
        .kw_opt("resources_per_node", resources(sel));
    Call::new("client.train")
        .kw("runtime", s(runtime))
        .kw("initializer", initializer.into_py())
        .kw("trainer", Call::new("BuiltinTrainer").kw("config", config.into_py()).into_py())
}

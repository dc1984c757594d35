//! kubeflow-training 1.9.4 (`from kubeflow.training import TrainingClient`) code, wherever that
//! SDK can express the job. It builds PyTorchJob and TFJob from a function; every other kind had
//! to be applied as YAML, after which the SDK could only watch it.

use super::python::{raw, s, Call, Py, Script};
use super::sdk_v2::LLM_WAIT;
use super::v1_jobs::v1_image;
use super::workload;
use super::Api;
use crate::selection::Selection;
use explorer_data::catalog::Framework;

const TRAINING: &str = "kubeflow.training";

fn resources(sel: &Selection) -> Option<Py> {
    (sel.gpus() > 0).then(|| Py::Dict(vec![("gpu".into(), Py::Int(i64::from(sel.gpus())))]))
}

pub(crate) fn sdk_v1(sel: &Selection) -> String {
    let mut script = Script::new();
    script.import(TRAINING, "TrainingClient");
    let name = sel.name();
    let kind = sel.framework.v1_kind().kind();
    let mut client = Call::new("TrainingClient");
    if let Some(ns) = sel.namespace() {
        client = client.kw("namespace", s(ns));
    }

    match sel.framework {
        Framework::PyTorch | Framework::TensorFlow => {
            workload::write_train_function(&mut script, sel, Api::V1);
            if sel.framework == Framework::TensorFlow {
                // The client's kind is what wait_for_job_conditions and get_job_logs look up:
                // with the PyTorchJob default they would look for a PyTorchJob of that name.
                client = client.kw("job_kind", s(kind));
            }
            let create = Call::new("client.create_job").kw("name", s(&name));
            // Without base_image the SDK falls back to its own default (pytorch 2.1.2, tensorflow
            // 2.9.1), not the image the YAML pane names.
            // num_procs_per_worker sets a PyTorchJob's nprocPerNode; for a TFJob the SDK raises
            // ValueError, and a TFJob has no such field.
            let procs = sel.procs().filter(|_| sel.framework == Framework::PyTorch);
            // The argument is train_func, not func (FACTS §i.6).
            let create = create
                .kw("train_func", raw("train"))
                .kw("base_image", s(&v1_image(sel)))
                .kw("num_workers", Py::Int(i64::from(sel.nodes())))
                .kw_opt("num_procs_per_worker", procs.map(|p| Py::Int(i64::from(p))))
                .kw_opt("resources_per_worker", resources(sel))
                .kw_opt("queue_name", sel.queue().map(s));
            if sel.framework == Framework::TensorFlow && sel.procs().is_some() {
                script.line("# A TFJob has no per-worker process count (nprocPerNode is PyTorchJob's): each");
                script.line("# Worker runs one process.");
            }
            script.line(format!("client = {}", client.into_py().render(0)));
            script.line(create.into_py().render(0));
        }
        Framework::TorchTune => return llm_train(sel, client),
        _ => {
            script.line(format!(
                "# {} can build only PyTorchJob and TFJob from a function or an image.",
                explorer_data::catalog::V1_SDK
            ));
            script
                .line(format!("# A {kind} was applied as YAML (kubectl apply -f job.yaml); the SDK then watched it."));
            let client = client.kw("job_kind", s(kind));
            script.line(format!("client = {}", client.into_py().render(0)));
        }
    }
    script.blank();
    script.line(format!("client.wait_for_job_conditions({})", s(&name).render(0)));
    script.line(format!("logs, _ = client.get_job_logs({})", s(&name).render(0)));
    script.line("print(logs)");
    script.finish()
}

/// LLM fine-tuning through `train()` with the Hugging Face providers
/// (`pip install -U "kubeflow-training[huggingface]"`).
fn llm_train(sel: &Selection, client: Call) -> String {
    let mut script = Script::new();
    script.import_module("transformers");
    script.import("peft", "LoraConfig");
    for name in ["HuggingFaceDatasetParams", "HuggingFaceModelParams", "HuggingFaceTrainerParams"] {
        script.import("kubeflow.storage_initializer.hugging_face", name);
    }
    script.import(TRAINING, "TrainingClient");
    let model = sel.model();
    let mut model_params = Call::new("HuggingFaceModelParams")
        .kw("model_uri", s(model.hf_uri()))
        .kw("transformer_type", raw("transformers.AutoModelForCausalLM"));
    if model.gated() {
        script.import_module("os");
        model_params = model_params.kw("access_token", raw("os.environ[\"HF_TOKEN\"]"));
    }
    let dataset = sel.dataset();
    let trainer_params = Call::new("HuggingFaceTrainerParams")
        .kw(
            "training_parameters",
            Call::new("transformers.TrainingArguments")
                .kw("output_dir", s("results"))
                .kw("num_train_epochs", Py::Int(1))
                .into_py(),
        )
        .kw("lora_config", Call::new("LoraConfig").kw("r", Py::Int(8)).kw("lora_alpha", Py::Int(16)).into_py());
    let train = Call::new("client.train")
        .kw("name", s(&sel.name()))
        .kw("model_provider_parameters", model_params.into_py())
        .kw(
            "dataset_provider_parameters",
            Call::new("HuggingFaceDatasetParams").kw("repo_id", s(super::hf_repo_id(&dataset))).into_py(),
        )
        .kw("trainer_parameters", trainer_params.into_py())
        .kw("num_workers", Py::Int(1))
        .kw("num_procs_per_worker", Py::Int(1))
        .kw_opt("resources_per_worker", resources(sel))
        .kw_opt("queue_name", sel.queue().map(s));
    script.line(format!("client = {}", client.into_py().render(0)));
    script.line("# Creates a PVC, then a PyTorchJob whose init container downloads model and dataset.");
    script.line(train.into_py().render(0));
    script.blank();
    // wait_timeout is the wait; `timeout` is each API request's (120 s).
    script.line("# Downloading the model and fine-tuning take hours: wait longer than the 600 s default.");
    let wait = Call::new("client.wait_for_job_conditions").arg(s(&sel.name())).kw("wait_timeout", raw(LLM_WAIT));
    script.line(wait.into_py().render(0));
    script.finish()
}

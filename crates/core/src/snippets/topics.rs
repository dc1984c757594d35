//! Short snippets the post uses for each "under the hood" topic. They come from the same models
//! and generators as the widget, and the same tests validate them against the CRDs.

use super::python::{raw, s, Call, Py, Script};
use super::runtimes::{runtime_for, FRAMEWORK_LABEL};
use super::trainjob::trainjob_for;
use super::{Api, Snippet};
use crate::model::ToTree;
use crate::model::Value;
use crate::selection::{ParamKey, Selection};
use crate::tree;
use crate::yaml;
use explorer_data::catalog::{Framework, Persona};
use explorer_data::releases::NEWEST;

/// Topic ids, in the order the post uses them.
pub const TOPICS: [&str; 7] =
    ["first-job", "jobset", "kueue", "gang-scheduling", "failure-handling", "mpi", "local-execution"];

/// Who writes a topic's snippet, and for which framework.
pub fn owner(topic: &str) -> (Persona, Framework) {
    match topic {
        "first-job" | "kueue" | "local-execution" => (Persona::DataScientist, Framework::PyTorch),
        "mpi" => (Persona::PlatformEngineer, Framework::DeepSpeed),
        _ => (Persona::PlatformEngineer, Framework::PyTorch),
    }
}

fn yaml_snippet(title: &str, comments: &[String], docs: Vec<Value>) -> Snippet {
    // The comments head the first document only.
    let lines =
        yaml::emit_documents(docs.iter().enumerate().map(|(i, d)| (if i == 0 { comments } else { &[][..] }, d)));
    Snippet::yaml(Api::V2, title.into(), lines, |_| false)
}

/// The name of a framework's built-in runtime in the newest release.
fn runtime_name(framework: Framework) -> &'static str {
    NEWEST.builtin_for(framework).map_or("", |rt| rt.name)
}

/// A built-in runtime as the newest release ships it, with one comment above it.
fn builtin_runtime(framework: Framework, title: &str, comment: &str) -> Option<Snippet> {
    let rt = runtime_for(&Selection::new(Persona::PlatformEngineer, framework))?;
    Some(yaml_snippet(title, &[comment.into()], vec![rt.to_tree()]))
}

fn selection(persona: Persona, framework: Framework, params: &[(ParamKey, &str)]) -> Selection {
    let mut sel = Selection::new(persona, framework);
    for (k, v) in params {
        // The values are constants of this module; a refusal would show up in the tests.
        let _ = sel.params.set(*k, v);
    }
    sel
}

/// The snippet of one of the post's "under the hood" topics; `None` for a topic it has not.
pub fn topic(topic: &str) -> Option<Snippet> {
    let (persona, framework) = owner(topic);
    Some(match topic {
        "first-job" => first_job(),
        "local-execution" => local_execution(),
        "jobset" => builtin_runtime(
            framework,
            &format!("ClusterTrainingRuntime {}: a JobSet template", runtime_name(framework)),
            "Everything under template.spec is a JobSet spec; each replicatedJob becomes a Job.",
        )?,
        "kueue" => {
            let sel =
                selection(persona, framework, &[(ParamKey::Queue, "team-a-queue"), (ParamKey::Namespace, "team-a")]);
            yaml_snippet(
                "TrainJob admitted by Kueue",
                &["Kueue admits the job by setting suspend to false when the ClusterQueue behind team-a-queue has quota."
                    .into()],
                vec![trainjob_for(&sel)?.to_tree()],
            )
        }
        "gang-scheduling" => gang_scheduling()?,
        "failure-handling" => failure_handling()?,
        "mpi" => builtin_runtime(
            framework,
            &format!("ClusterTrainingRuntime {} ({})", runtime_name(framework), NEWEST.tag),
            "The controller adds the SSH keys Secret and the hostfile ConfigMap per TrainJob.",
        )?,
        _ => return None,
    })
}

/// A runtime derived from the PyTorch built-in, renamed `<built-in>-<suffix>` so it does not
/// shadow the built-in.
fn derived_torch_runtime(suffix: &str) -> Option<Value> {
    let mut rt = runtime_for(&Selection::new(Persona::PlatformEngineer, Framework::PyTorch))?;
    rt.metadata.name = Some(format!("{}-{suffix}", runtime_name(Framework::PyTorch)));
    rt.metadata.labels.retain(|k, _| k == FRAMEWORK_LABEL);
    Some(rt.to_tree())
}

fn gang_scheduling() -> Option<Snippet> {
    let mut rt = derived_torch_runtime("gang")?;
    *rt.at(&["spec", "mlPolicy", "numNodes"])? = tree!(3);
    // All pods of a TrainJob are scheduled together or not at all (scheduler-plugins).
    let spec = rt.at(&["spec"])?.as_object_mut()?;
    let template = spec.remove("template")?;
    spec.insert("podGroupPolicy".into(), tree!({"coscheduling": {"scheduleTimeoutSeconds": 120}}));
    spec.insert("template".into(), template);
    Some(yaml_snippet(
        "ClusterTrainingRuntime with gang scheduling",
        &[
            "Per-node processes come from the TrainJob (numProcPerNode) or the GPU count (the CPU count without GPUs),"
                .into(),
            "not from mlPolicy.torch.".into(),
        ],
        vec![rt],
    ))
}

fn failure_handling() -> Option<Snippet> {
    let mut rt = derived_torch_runtime("resilient")?;
    let jobset = rt.at(&["spec", "template", "spec"])?;
    *jobset.entry("failurePolicy")? = tree!({
        "maxRestarts": 3,
        "rules": [{"name": "stop-on-code-errors", "action": "FailJobSet", "onJobFailureReasons": ["PodFailurePolicy"]}]
    });
    let job = jobset.entry("replicatedJobs")?.item(0)?.at(&["template", "spec"])?.as_object_mut()?;
    // Failure settings first, then the pod template, as one would write them.
    let mut pod_template = job.remove("template")?;
    job.insert("backoffLimit".into(), tree!(0));
    job.insert(
        "podFailurePolicy".into(),
        tree!({"rules": [
            {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]},
            {"action": "FailJob", "onExitCodes": {"containerName": "node", "operator": "In", "values": [1]}}
        ]}),
    );
    // podFailurePolicy needs pods that are not restarted in place.
    *pod_template.at(&["spec", "restartPolicy"])? = tree!("Never");
    job.insert("template".into(), pod_template);

    let sel = selection(Persona::DataScientist, Framework::PyTorch, &[(ParamKey::Name, "pytorch-resilient")]);
    let mut trainjob = trainjob_for(&sel)?.to_tree();
    *trainjob.at(&["spec", "runtimeRef", "name"])? = tree!(format!("{}-resilient", runtime_name(Framework::PyTorch)));
    *trainjob.at(&["spec", "activeDeadlineSeconds"])? = tree!(86400);
    Some(yaml_snippet(
        "Failure handling in a runtime, and a deadline on the TrainJob",
        &[
            "Evicted or preempted pods (DisruptionTarget) do not count as failures; exit code 1 fails the job at once,"
                .into(),
            "and the JobSet does not restart for it. Other failures restart the whole JobSet up to 3 times.".into(),
        ],
        vec![rt, trainjob],
    ))
}

/// A job on this machine with SDK 0.5.0's local-process backend, the call that works: the backend
/// knows one runtime, the torch one (localprocess/constants.py:28-40, named after the SDK's
/// DEFAULT_TRAINING_RUNTIME, the built-in's name), and needs it named (backend.py:81-82); it runs
/// a `CustomTrainer` only (:103-104), as one `torchrun` process (constants.py:63) in a new venv
/// per job (:107), which gets the runtime's `torch` only when `packages_to_install` is set
/// (utils.py:271-280). Its wait does not stop on failure (backend.py:215-255), so the timeout
/// covers the install. tests/python/run_local.py runs this snippet with that SDK.
fn local_execution() -> Snippet {
    let mut script = Script::new();
    script.import("kubeflow.trainer", "CustomTrainer");
    script.import("kubeflow.trainer", "LocalProcessBackendConfig");
    script.import("kubeflow.trainer", "TrainerClient");
    script.blank();
    script.line("def train():");
    script.line("    import torch");
    script.line("    import torch.distributed as dist");
    script.blank();
    script.line("    # torchrun started this one process; it is rank 0 of 1.");
    script.line("    dist.init_process_group(backend=\"gloo\")");
    script.line("    print(f\"rank {dist.get_rank()} of {dist.get_world_size()}, torch {torch.__version__}\")");
    script.line("    dist.destroy_process_group()");
    script.blank();
    script.blank();
    script.line("client = TrainerClient(backend_config=LocalProcessBackendConfig())");
    script.line("# runtime= is required, and only torch's exists here. The job's new venv gets torch");
    script.line("# (and your packages) from PyPI only when packages_to_install is set.");
    let trainer =
        Call::new("CustomTrainer").kw("func", raw("train")).kw("packages_to_install", Py::List(vec![s("torch")]));
    let train =
        Call::new("client.train").kw("runtime", s(runtime_name(Framework::PyTorch))).kw("trainer", trainer.into_py());
    script.line(format!("job_name = {}", train.into_py().render(0)));
    script.line("# Installing torch takes minutes: wait longer than the 600-second default.");
    let wait = Call::new("client.wait_for_job_status").arg(raw("job_name")).kw("timeout", Py::Int(1800));
    script.line(wait.into_py().render(0));
    script.line("for line in client.get_job_logs(job_name):");
    script.line("    print(line)");
    Snippet::python(Api::V2, "A TrainJob on your machine, no cluster".into(), script.finish())
}

fn first_job() -> Snippet {
    let mut script = Script::new();
    script.import("kubeflow.trainer", "CustomTrainer");
    script.import("kubeflow.trainer", "TrainerClient");
    script.blank();
    script.line("def hello():");
    script.line("    import os");
    script.blank();
    script.line("    # The torch plugin sets PET_* for torchrun on every node.");
    script.line("    print(\"node\", os.environ[\"PET_NODE_RANK\"], \"of\", os.environ[\"PET_NNODES\"])");
    script.blank();
    script.blank();
    script.line("client = TrainerClient()");
    script.line("for runtime in client.list_runtimes():");
    script.line("    print(runtime.name)");
    script.blank();
    let train = Call::new("client.train")
        .kw("runtime", s(runtime_name(Framework::PyTorch)))
        .kw("trainer", Call::new("CustomTrainer").kw("func", raw("hello")).kw("num_nodes", Py::Int(2)).into_py());
    script.line(format!("job_name = {}", train.into_py().render(0)));
    script.line("# The first run pulls the PyTorch image: wait longer than the 600-second default.");
    let wait = Call::new("client.wait_for_job_status").arg(raw("job_name")).kw("timeout", Py::Int(1800));
    script.line(wait.into_py().render(0));
    script.line("for line in client.get_job_logs(job_name):");
    script.line("    print(line)");
    Snippet::python(Api::V2, "Your first TrainJob from Python".into(), script.finish())
}

//! The torch plugin (pkg/runtime/framework/plugins/torch/torch.go): torchrun's `PET_*`
//! environment, `numProcPerNode` as each release resolves it, and `envInjection`.

use super::{gpus, resources_per_node, set_trainer_count, trainer_container, trainer_set};
use crate::explain::build::{field_ref_env, upsert_env, upsert_port, PodSet, COMPLETION_INDEX, TRAINER_PORT};
use crate::explain::quantity::ceil_value;
use crate::explain::Input;
use crate::model::pod::{EnvVar, Resources};
use crate::model::Value;
use crate::release_changes::Subject;
use explorer_data::releases::{Release, TorchProcs};

/// `numProcPerNode` as torch resolves it: `auto`, a number, or (v2.0-v2.1) `cpu` or `gpu`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::explain) enum Procs {
    Auto,
    Cpu,
    Gpu,
    Count(u32),
}

impl Procs {
    pub(in crate::explain) fn text(self) -> String {
        match self {
            Procs::Auto => "auto".into(),
            Procs::Cpu => "cpu".into(),
            Procs::Gpu => "gpu".into(),
            Procs::Count(n) => n.to_string(),
        }
    }

    /// The strings v2.0-v2.1's torch webhook admits (torch.go:66-73 @v2.1.0).
    pub(in crate::explain) fn parse(text: &str) -> Option<Procs> {
        match text {
            "auto" => Some(Procs::Auto),
            "cpu" => Some(Procs::Cpu),
            "gpu" => Some(Procs::Gpu),
            _ => None,
        }
    }
}

/// The `numProcPerNode` a torch TrainJob asks for: its own (a number, or a v2.0-v2.1 string),
/// else the runtime's `mlPolicy.torch.numProcPerNode` while that field exists (v2.0-v2.1,
/// torch.go:108-111 @v2.1.0), else `auto` (torch.go:121-124).
fn requested_procs(input: Input, release: Release) -> Procs {
    if let Some(n) = input.job.spec.trainer.as_ref().and_then(|t| t.num_proc_per_node) {
        return Procs::Count(n);
    }
    if let Some(p) = input.legacy.num_proc_per_node.as_deref().and_then(Procs::parse) {
        return p;
    }
    if !release.declares(Subject::Runtime, "spec.mlPolicy.torch.numProcPerNode") {
        return Procs::Auto;
    }
    let torch = input.runtime.spec.ml_policy.as_ref().and_then(|m| m.torch.as_ref());
    match torch.and_then(|t| t.get("numProcPerNode")) {
        Some(Value::String(s)) => Procs::parse(s).unwrap_or(Procs::Auto),
        Some(Value::Number(_)) => {
            let n = torch.and_then(|t| t.get("numProcPerNode")).and_then(ceil_value);
            n.and_then(|n| u32::try_from(n).ok()).map_or(Procs::Auto, Procs::Count)
        }
        Some(_) => Procs::Auto,
        None => Procs::Auto,
    }
}

/// `getNumCPUPerNode` (torch.go:228-240 @v2.3.0, :191-204 @v2.1.0): requested CPUs, else the
/// limit, else 0.
fn cpus(res: Option<&Resources>) -> u64 {
    let Some(res) = res else { return 0 };
    let q = |list: &crate::model::Map| list.get("cpu").and_then(ceil_value).unwrap_or(0);
    match q(&res.requests) {
        0 => q(&res.limits),
        n => n,
    }
}

fn cpu_count(n: u64) -> Procs {
    Procs::Count(u32::try_from(n).unwrap_or(u32::MAX).max(1))
}

/// `PET_NPROC_PER_NODE` as the release's torch plugin resolves it.
pub(in crate::explain) fn torch_procs(input: Input, release: Release) -> Procs {
    let requested = requested_procs(input, release);
    match release.controller.torch_procs {
        // torch.go:121-135 @v2.3.0 (:108-122 @v2.1.0): `auto` (or `cpu`) without GPUs is the
        // node's CPU count, at least 1.
        TorchProcs::NodeResources => {
            let res = resources_per_node(input);
            let no_gpu = gpus(res.as_ref()) == 0;
            if requested == Procs::Cpu || (requested == Procs::Auto && no_gpu) {
                return cpu_count(cpus(res.as_ref()));
            }
            requested
        }
        TorchProcs::TrainJobResources => v2_0_procs(input, requested),
    }
}

/// v2.0.1 torch.go:126-157 with `calculateNumProcPerNode` (:231-245): only the TrainJob's own
/// `resourcesPerNode` counts; `limits` first, then `requests`. An empty list (Go: nil) gives 1,
/// so `auto` with only a GPU limit and no requests becomes 1.
fn v2_0_procs(input: Input, requested: Procs) -> Procs {
    let Some(res) = input.job.spec.trainer.as_ref().and_then(|t| t.resources_per_node.as_ref()) else {
        return requested;
    };
    let has_gpu = |list: &crate::model::Map| list.keys().any(|k| k.to_ascii_lowercase().contains("gpu"));
    let (use_cpu, fallback): (&dyn Fn(&crate::model::Map) -> bool, Procs) = match requested {
        Procs::Auto => (&|list| !has_gpu(list), Procs::Auto),
        Procs::Cpu => (&|list| list.contains_key("cpu"), Procs::Count(1)),
        other => (&|_| false, other),
    };
    let calc = |list: &crate::model::Map| -> (Procs, bool) {
        if list.is_empty() {
            (Procs::Count(1), false)
        } else if use_cpu(list) {
            (cpu_count(list.get("cpu").and_then(ceil_value).unwrap_or(0)), true)
        } else {
            (fallback, false)
        }
    };
    match calc(&res.limits) {
        (procs, true) => procs,
        _ => calc(&res.requests).0,
    }
}

/// torch.go:110-225 (envInjection from v2.3.0: the CRD field exists only there).
pub(super) fn torch(input: Input, release: Release, sets: &mut [PodSet], coordinator: &str, job_env: &[EnvVar]) {
    set_trainer_count(input, sets);
    let procs = torch_procs(input, release);
    let tune = crate::explain::torchtune::is_torchtune(input);
    // :148 PET_NNODES is the trainer's pod count (1 without a trainer job).
    let count = trainer_set(sets).map_or(1, |ps| ps.count);
    let rank_env = [
        EnvVar::new("PET_NNODES", &count.to_string()),
        EnvVar::new("PET_NPROC_PER_NODE", &procs.text()),
        field_ref_env("PET_NODE_RANK", COMPLETION_INDEX),
    ];
    let master_env =
        [EnvVar::new("PET_MASTER_ADDR", coordinator), EnvVar::new("PET_MASTER_PORT", &TRAINER_PORT.to_string())];
    // :211-222 envInjection targets get every PET_* variable, master address included (also
    // for torchtune); a missing target is refused by the webhook first (validate.rs). Copied
    // for them only where there are any: the trainer's container takes the variables themselves.
    let targets = env_injection_targets(input);
    let pet: Vec<EnvVar> =
        if targets.is_empty() { Vec::new() } else { rank_env.iter().chain(&master_env).cloned().collect() };
    if let Some((_, c)) = trainer_container(input, sets) {
        // Room for every variable below at once: the list otherwise grew (and was moved) once
        // for each of the three, in the trainer's container of every TrainJob of a paste.
        c.env.reserve(job_env.len() + rank_env.len() + master_env.len());
        // :141 the TrainJob's env first, then the PET_* variables over it (:173).
        upsert_env(&mut c.env, job_env.iter().cloned());
        upsert_env(&mut c.env, rank_env);
        // :175-176 torchrun gets the master address; torchtune gets `--rdzv_endpoint` instead.
        if !tune {
            upsert_env(&mut c.env, master_env);
        }
        upsert_port(&mut c.ports, TRAINER_PORT); // :203
    }
    for (job, container) in targets {
        if let Some(ps) = sets.iter_mut().find(|s| s.name == job) {
            let found = ps.containers.iter_mut().chain(ps.init_containers.iter_mut()).find(|c| c.name == container);
            if let Some(c) = found {
                upsert_env(&mut c.env, pet.iter().cloned());
            }
        }
    }
}

/// `torch.envInjection.targets[]` as (jobName, containerName) pairs
/// (pkg/apis/trainer/v1alpha1/trainingruntime_types.go:218-250).
pub(in crate::explain) fn env_injection_targets(input: Input) -> Vec<(String, String)> {
    let torch = input.runtime.spec.ml_policy.as_ref().and_then(|m| m.torch.as_ref());
    let Some(Value::Object(injection)) = torch.and_then(|t| t.get("envInjection")) else { return vec![] };
    let Some(Value::Array(targets)) = injection.get("targets") else { return vec![] };
    let mut out = Vec::new();
    for t in targets {
        let Value::Object(t) = t else { continue };
        let Some(Value::String(job)) = t.get("jobName") else { continue };
        let Some(Value::Array(names)) = t.get("containerNames") else { continue };
        for n in names {
            if let Value::String(n) = n {
                out.push((job.clone(), n.clone()));
            }
        }
    }
    out
}

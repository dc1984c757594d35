//! The ML-policy plugins' `EnforceMLPolicy`: node counts and the environment each framework's
//! launcher reads. Paths under pkg/runtime/framework/plugins/, lines at v2.3.0 unless a tag is
//! named; where releases differ the rule reads the release's [`Controller`] facts.
//!
//! Upstream runs these plugins in Go map order (pkg/runtime/framework/core/framework.go:59), so
//! where two plugins touch one env list (plainml and xgboost) the order between them is not fixed;
//! the names never collide (xgboost's webhook refuses its reserved names), so the values are.

use super::build::{
    field_ref_env, upsert_env, upsert_mount, upsert_port, upsert_volume, PodSet, ANCESTOR_TRAINER, COMPLETION_INDEX,
    LAUNCHER, NODE, TRAINER_PORT,
};
use super::quantity::ceil_value;
use super::{ErrorType, FieldPath, Input, Rejection};
use crate::model::pod::{EnvVar, Resources};
use crate::model::v2::MpiPolicy;
use crate::model::Value;
use crate::release_changes::Subject;
use explorer_data::releases::{Controller, Release, TorchProcs};

/// Which ML policy the runtime sets.
pub(super) struct Policy {
    pub torch: bool,
    pub mpi: Option<MpiPolicy>,
    pub jax: bool,
    pub xgboost: bool,
}

impl Policy {
    pub(super) fn of(input: Input) -> Policy {
        let ml = input.runtime.spec.ml_policy.as_ref();
        Policy {
            torch: ml.is_some_and(|m| m.torch.is_some()),
            mpi: ml.and_then(|m| m.mpi.clone()),
            jax: ml.is_some_and(|m| m.jax.is_some()),
            xgboost: ml.is_some_and(|m| m.xgboost.is_some()),
        }
    }
}

/// What the MPI plugin decided, for the hostfile and the Secret.
pub(super) struct MpiOutcome {
    pub launcher_as_node: bool,
    pub slots: u32,
}

/// `numProcPerNode` as torch resolves it: `auto`, a number, or (v2.0-v2.1) `cpu` or `gpu`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Procs {
    Auto,
    Cpu,
    Gpu,
    Count(u32),
}

impl Procs {
    pub(super) fn text(self) -> String {
        match self {
            Procs::Auto => "auto".into(),
            Procs::Cpu => "cpu".into(),
            Procs::Gpu => "gpu".into(),
            Procs::Count(n) => n.to_string(),
        }
    }

    /// The strings v2.0-v2.1's torch webhook admits (torch.go:66-73 @v2.1.0).
    pub(super) fn parse(text: &str) -> Option<Procs> {
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

/// The resources one node gets: the TrainJob's `resourcesPerNode` if set, else the runtime's
/// trainer container's (torch.go:127-130, mpi.go:132-135, xgboost.go:104-108), found the way
/// `ExtractResourcePerNodeFromRuntime` does (pkg/runtime/runtime.go:254-277): the first
/// replicatedJob named `node` or with the trainer ancestor, its `node` container.
pub(super) fn resources_per_node(input: Input) -> Option<Resources> {
    if let Some(r) = input.job.spec.trainer.as_ref().and_then(|t| t.resources_per_node.clone()) {
        return Some(r);
    }
    input
        .runtime
        .spec
        .template
        .spec
        .replicated_jobs
        .iter()
        .filter(|rj| {
            rj.name == NODE
                || rj.template.metadata.as_ref().and_then(|m| m.labels.get(super::build::ANCESTOR_LABEL))
                    == Some(&ANCESTOR_TRAINER.to_string())
        })
        .find_map(|rj| rj.template.spec.template.spec.containers.iter().find(|c| c.name == NODE)?.resources.clone())
}

/// `GetNumGPUPerNode` (runtime.go:280-298): the first resource whose name contains "gpu", from
/// requests, else from limits.
pub(super) fn gpus(res: Option<&Resources>) -> u64 {
    let Some(res) = res else { return 0 };
    let first_gpu = |list: &crate::model::Map| {
        list.iter().find(|(k, _)| k.to_lowercase().contains("gpu")).and_then(|(_, v)| ceil_value(v)).unwrap_or(0)
    };
    let requested = first_gpu(&res.requests);
    if requested == 0 {
        first_gpu(&res.limits)
    } else {
        requested
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
pub(super) fn torch_procs(input: Input, release: Release) -> Procs {
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
    let has_gpu = |list: &crate::model::Map| list.keys().any(|k| k.to_lowercase().contains("gpu"));
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

fn trainer_set(sets: &mut [PodSet]) -> Option<&mut PodSet> {
    sets.iter_mut().find(|s| s.ancestor.as_deref() == Some(ANCESTOR_TRAINER))
}

/// The TrainJob's `numNodes` on the trainer's pod set (torch.go:116-119, jax.go:63-67,
/// xgboost.go:87-90, plainml.go:56-60).
fn set_trainer_count(input: Input, sets: &mut [PodSet]) {
    if let (Some(ps), Some(n)) = (trainer_set(sets), input.job.spec.trainer.as_ref().and_then(|t| t.num_nodes)) {
        ps.count = n;
    }
}

/// The trainer's `node` container, only when the TrainJob has a `trainer` block: without one no
/// plugin injects anything (torch.go:139-143, jax.go:70-71, xgboost.go:94-97).
fn trainer_container<'s>(input: Input, sets: &'s mut [PodSet]) -> Option<(u32, &'s mut crate::model::pod::Container)> {
    input.job.spec.trainer.as_ref()?;
    let ps = trainer_set(sets)?;
    let count = ps.count;
    Some((count, ps.containers.iter_mut().find(|c| c.name == NODE)?))
}

pub(super) fn enforce(
    input: Input,
    release: Release,
    policy: &Policy,
    sets: &mut [PodSet],
) -> Result<Option<MpiOutcome>, Rejection> {
    let name = super::build::job_name(input);
    let coordinator = format!("{name}-{NODE}-0-0.{name}");
    let job_env: Vec<EnvVar> = input.job.spec.trainer.as_ref().map(|t| t.env.clone()).unwrap_or_default();
    if policy.torch {
        torch(input, release, sets, &coordinator, &job_env);
    }
    if policy.jax {
        set_trainer_count(input, sets);
        if let Some((count, c)) = trainer_container(input, sets) {
            // jax.go:76-97.
            upsert_env(
                &mut c.env,
                [
                    EnvVar::new("JAX_NUM_PROCESSES", &count.to_string()),
                    field_ref_env("JAX_PROCESS_ID", COMPLETION_INDEX),
                    EnvVar::new("JAX_COORDINATOR_ADDRESS", &format!("{coordinator}:{TRAINER_PORT}")),
                ],
            );
            upsert_port(&mut c.ports, TRAINER_PORT); // jax.go:100
        }
    }
    // plainml.go:47-68: any runtime without torch, mpi or jax (so xgboost too) gets the
    // TrainJob's numNodes and env on the trainer.
    if !(policy.torch || policy.mpi.is_some() || policy.jax) {
        set_trainer_count(input, sets);
        if let Some((_, c)) = trainer_container(input, sets) {
            upsert_env(&mut c.env, job_env.iter().cloned());
        }
    }
    if policy.xgboost {
        xgboost(input, sets, &coordinator);
    }
    match &policy.mpi {
        Some(mpi) => mpi_plugin(input, &release.controller, mpi, sets).map(Some),
        None => Ok(None),
    }
}

/// torch.go:110-225 (envInjection from v2.3.0: the CRD field exists only there).
fn torch(input: Input, release: Release, sets: &mut [PodSet], coordinator: &str, job_env: &[EnvVar]) {
    set_trainer_count(input, sets);
    let procs = torch_procs(input, release);
    let tune = super::torchtune::is_torchtune(input);
    // :148 PET_NNODES is the trainer's pod count (1 without a trainer job).
    let count = trainer_set(sets).map_or(1, |ps| ps.count);
    let rank_env = [
        EnvVar::new("PET_NNODES", &count.to_string()),
        EnvVar::new("PET_NPROC_PER_NODE", &procs.text()),
        field_ref_env("PET_NODE_RANK", COMPLETION_INDEX),
    ];
    let master_env =
        [EnvVar::new("PET_MASTER_ADDR", coordinator), EnvVar::new("PET_MASTER_PORT", &TRAINER_PORT.to_string())];
    if let Some((_, c)) = trainer_container(input, sets) {
        // :141 the TrainJob's env first, then the PET_* variables over it (:173).
        upsert_env(&mut c.env, job_env.iter().cloned());
        upsert_env(&mut c.env, rank_env.iter().cloned());
        // :175-176 torchrun gets the master address; torchtune gets `--rdzv_endpoint` instead.
        if !tune {
            upsert_env(&mut c.env, master_env.iter().cloned());
        }
        upsert_port(&mut c.ports, TRAINER_PORT); // :203
    }
    let pet: Vec<EnvVar> = rank_env.into_iter().chain(master_env).collect();
    // :211-222 envInjection targets get every PET_* variable, master address included (also
    // for torchtune); a missing target is refused by the webhook first (validate.rs).
    for (job, container) in env_injection_targets(input) {
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
pub(super) fn env_injection_targets(input: Input) -> Vec<(String, String)> {
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

/// xgboost.go:73-149.
fn xgboost(input: Input, sets: &mut [PodSet], coordinator: &str) {
    if trainer_set(sets).is_none() {
        return;
    }
    set_trainer_count(input, sets);
    let gpus = gpus(resources_per_node(input).as_ref());
    let Some((count, c)) = trainer_container(input, sets) else { return };
    // :102-113 one worker per GPU, else one per node.
    let per_node = if gpus > 0 { gpus } else { 1 };
    let workers = u64::from(count) * per_node;
    upsert_env(
        &mut c.env,
        [
            EnvVar::new("DMLC_TRACKER_URI", coordinator),
            EnvVar::new("DMLC_TRACKER_PORT", &TRAINER_PORT.to_string()),
            field_ref_env("DMLC_TASK_ID", COMPLETION_INDEX),
            EnvVar::new("DMLC_NUM_WORKER", &workers.to_string()),
        ],
    );
    upsert_port(&mut c.ports, TRAINER_PORT); // :142-144
}

/// mpi.go:111-233 (v2.0.1 :107-213).
fn mpi_plugin(
    input: Input,
    controller: &Controller,
    mpi: &MpiPolicy,
    sets: &mut [PodSet],
) -> Result<MpiOutcome, Rejection> {
    let launcher_as_node = mpi.run_launcher_as_node.unwrap_or(false);
    let trainer = input.job.spec.trainer.as_ref();
    // :117-126 with the launcher running as a node, it is one of numNodes.
    if let Some(n) = trainer.and_then(|t| t.num_nodes) {
        if let Some(node) = sets.iter_mut().find(|s| s.name == NODE) {
            node.count = if launcher_as_node { n.saturating_sub(1).max(1) } else { n };
        }
    }
    // :128-139 slots: the TrainJob's numProcPerNode; else the runtime's, and a runtime 1 becomes
    // one per GPU when a node has more than one (from v2.1.0, mpi.go:127-135; v2.0.1 :126-128
    // keeps the runtime's). CRD default 1 (trainingruntime_types.go:275-278).
    let runtime_procs = mpi.num_proc_per_node.unwrap_or(1);
    let slots = match trainer.and_then(|t| t.num_proc_per_node) {
        Some(n) => n,
        None if runtime_procs == 1 && controller.mpi_slots_follow_gpus => {
            match gpus(resources_per_node(input).as_ref()) {
                g if g > 1 => u32::try_from(g).unwrap_or(u32::MAX),
                _ => 1,
            }
        }
        None => runtime_procs,
    };
    // CRD defaults (trainingruntime_types.go:281-292): OpenMPI, /root/.ssh.
    let implementation = mpi.mpi_implementation.as_deref().unwrap_or("OpenMPI");
    let ssh_path = mpi.ssh_auth_mount_path.as_deref().unwrap_or("/root/.ssh");
    for ps in sets.iter_mut().filter(|s| s.name == NODE || s.name == LAUNCHER) {
        // :141-188 the SSH keys on both, the hostfile on the launcher.
        let job = super::build::job_name(input);
        upsert_volume(&mut ps.volumes, ssh_auth_volume(&job, controller));
        if ps.name == LAUNCHER {
            upsert_volume(&mut ps.volumes, hostfile_volume(&job));
        }
        let is_launcher = ps.name == LAUNCHER;
        for c in ps.containers.iter_mut().filter(|c| c.name == NODE) {
            upsert_mount(c, "mpi-ssh-auth", ssh_path, false); // :193-200
            if !is_launcher {
                continue;
            }
            upsert_mount(c, "mpi-hostfile", "/etc/mpi", false); // :202-207
            if implementation != "OpenMPI" {
                // :225-226: the reconcile fails; the CRD enum only admits OpenMPI anyway.
                return Err(Rejection::new(
                    ErrorType::Message,
                    FieldPath::parse("spec.mlPolicy.mpi.mpiImplementation").in_runtime(),
                    format!("MPI implementation for {implementation} doesn't supported (controller error)"),
                ));
            }
            // :210-224 only the launcher's `node` container gets the OpenMPI variables.
            upsert_env(
                &mut c.env,
                [
                    EnvVar::new("OMPI_MCA_orte_default_hostfile", "/etc/mpi/hostfile"),
                    EnvVar::new("OMPI_MCA_orte_keep_fqdn_hostnames", "true"),
                    EnvVar::new("OMPI_MCA_orte_set_default_slots", &slots.to_string()),
                    EnvVar::new("OMPI_MCA_plm_rsh_args", "-o ConnectionAttempts=10"),
                ],
            );
        }
    }
    Ok(MpiOutcome { launcher_as_node, slots })
}

/// The SSH Secret volume MPI adds to the launcher and the nodes: the private key as `id_rsa`,
/// the public key as `id_rsa.pub` and `authorized_keys` (mpi.go:146-170 @v2.3.0, :135-155
/// @v2.0.1; file names constants/constants.go:139-148 @v2.3.0). From v2.3.0 with modes.
fn ssh_auth_volume(job: &str, controller: &Controller) -> Value {
    let secret_name = format!("{job}-mpi-ssh-auth");
    if controller.mpi_ssh_file_modes {
        // constants.go:151-157 @v2.3.0: MPISSHAuthDefaultMode, ...PrivateKeyFileMode, ...PublicKeyFileMode.
        let (default_mode, private_mode, public_mode) = (0o400, 0o640, 0o644);
        return crate::tree!({"name": "mpi-ssh-auth", "secret": {
            "secretName": secret_name,
            "defaultMode": default_mode,
            "items": [
                {"key": "ssh-privatekey", "path": "id_rsa", "mode": private_mode},
                {"key": "ssh-publickey", "path": "id_rsa.pub", "mode": public_mode},
                {"key": "ssh-publickey", "path": "authorized_keys", "mode": public_mode}
            ]
        }});
    }
    crate::tree!({"name": "mpi-ssh-auth", "secret": {
        "secretName": secret_name,
        "items": [
            {"key": "ssh-privatekey", "path": "id_rsa"},
            {"key": "ssh-publickey", "path": "id_rsa.pub"},
            {"key": "ssh-publickey", "path": "authorized_keys"}
        ]
    }})
}

/// The hostfile ConfigMap volume on the launcher: key `hostfile` as file `hostfile`, mode 0444
/// (mpi.go:171-188 @v2.3.0, :156-172 @v2.0.1).
fn hostfile_volume(job: &str) -> Value {
    let read_only = 0o444;
    crate::tree!({"name": "mpi-hostfile", "configMap": {
        "name": (format!("{job}-mpi-hostfile")),
        "items": [{"key": "hostfile", "path": "hostfile", "mode": read_only}]
    }})
}

/// The quantity a reader wrote, if it is not one Kubernetes would read.
pub(super) fn bad_quantity(res: &Resources) -> Option<(String, Value)> {
    res.limits
        .iter()
        .map(|(k, v)| (format!("limits.{k}"), v))
        .chain(res.requests.iter().map(|(k, v)| (format!("requests.{k}"), v)))
        .find(|(_, v)| ceil_value(v).is_none())
        .map(|(k, v)| (k, v.clone()))
}

//! What the API server (the release's CRDs) and the TrainJob validating webhook refuse
//! (pkg/webhooks/trainjob_webhook.go:110-121 runs each plugin's `Validate` through the runtime's
//! `ValidateObjects`, pkg/runtime/core/clustertrainingruntime.go:99-123). The API server checks
//! first, and the webhook sees only what it admits: every error of the CRDs' constraints and
//! rules (src/explain/crd) is returned, or else the webhook's. Upstream aggregates every
//! plugin's errors in Go map order; of the plugins' this returns the first in a fixed order
//! (jobset, torch, mpi, xgboost), then every runtime-patch manager error.

use super::build::{DATASET_INITIALIZER, MODEL_INITIALIZER, NODE};
use super::plugins::{bad_quantity, Policy, Procs};
use super::{crd, Input, Rejection};
use crate::model::Value;
use crate::releases::{NumProcPerNode, PodSettingsField, Release};

/// constants.go:300,303,306.
const TORCH_RESERVED: [&str; 5] =
    ["PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK", "PET_MASTER_ADDR", "PET_MASTER_PORT"];
const XGBOOST_RESERVED: [&str; 4] = ["DMLC_TRACKER_URI", "DMLC_TRACKER_PORT", "DMLC_TASK_ID", "DMLC_NUM_WORKER"];
const MPI_RESERVED: [&str; 4] = [
    "OMPI_MCA_orte_default_hostfile",
    "OMPI_MCA_plm_rsh_args",
    "OMPI_MCA_orte_keep_fqdn_hostnames",
    "OMPI_MCA_orte_set_default_slots",
];

fn reject(field: &str, reason: String) -> Option<Rejection> {
    Some(Rejection { field: field.into(), reason })
}

pub fn check(input: Input, release: Release) -> Vec<Rejection> {
    if let Some(decoding) = schema(input).or_else(|| unknown_fields(input, release)) {
        return vec![decoding];
    }
    let api_server = crd_rules(input, release);
    if !api_server.is_empty() {
        return api_server;
    }
    let mut webhook = name(input, release);
    webhook.extend(jobset(input).or_else(|| plugins(input, release)));
    webhook.extend(runtime_patch_managers(input));
    webhook
}

/// The TrainJob and its runtime against the release's CRD constraints and rules. The runtime's
/// errors are named `runtime <path>`: the runtime was created before, so a cluster would have
/// refused it then.
fn crd_rules(input: Input, release: Release) -> Vec<Rejection> {
    let (job, runtime) = input.as_json();
    let mut errors = crd::validate(release.tag, &job);
    let runtime_errors = crd::validate(release.tag, &runtime);
    errors.extend(runtime_errors.into_iter().map(|e| Rejection { field: format!("runtime {}", e.field), ..e }));
    errors
}

/// v2.0.1 trainjob_webhook.go:57-60: `validation.IsDNS1035Label` on the name, each error at
/// `metadata.name` (apimachinery util/validation: MaxLenError, RegexError).
fn name(input: Input, release: Release) -> Vec<Rejection> {
    if !release.controller.webhook_checks_name {
        return Vec::new();
    }
    let name = input.job.metadata.name.as_deref().unwrap_or_default();
    let mut reasons = Vec::new();
    if name.len() > 63 {
        reasons.push("must be no more than 63 characters".to_string());
    }
    if !is_dns1035_label(name) {
        reasons.push(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic \
             character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for \
             validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
                .to_string(),
        );
    }
    reasons
        .into_iter()
        .map(|r| Rejection { field: "metadata.name".into(), reason: format!("Invalid value: {name:?}: {r}") })
        .collect()
}

/// `^[a-z]([-a-z0-9]*[a-z0-9])?$`.
fn is_dns1035_label(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !s.ends_with('-')
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`.
fn is_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(|label| {
        label.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
            && label.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !label.ends_with('-')
    })
}

/// jobset.go:129 @v2.2.1 (:176 @v2.3.0): `validation.IsDomainPrefixedPath` on each runtime
/// patch's manager, every error at `spec.runtimePatches.manager` (the path has no index
/// upstream). apimachinery util/validation: the host before the first `/` is a DNS-1123
/// subdomain, the rest a non-empty HTTP path.
fn runtime_patch_managers(input: Input) -> Vec<Rejection> {
    const FIELD: &str = "spec.runtimePatches.manager";
    const HTTP_PATH: &str = r"[A-Za-z0-9/\-._~%!$&'()*+,;=:]+";
    let mut errors = Vec::new();
    let invalid = |value: &str, reason: &str| Rejection {
        field: FIELD.into(),
        reason: format!("Invalid value: {value:?}: {reason}"),
    };
    for patch in &input.job.spec.runtime_patches {
        let manager = str_at(patch, &["manager"]).unwrap_or_default();
        if manager.is_empty() {
            errors.push(Rejection { field: FIELD.into(), reason: "Required value".into() });
            continue;
        }
        let Some((host, path)) = manager.split_once('/').filter(|(h, p)| !h.is_empty() && !p.is_empty()) else {
            errors.push(invalid(&manager, "must be a domain-prefixed path (such as \"acme.io/foo\")"));
            continue;
        };
        if host.len() > 253 {
            errors.push(invalid(host, "must be no more than 253 characters"));
        }
        if !is_dns1123_subdomain(host) {
            errors.push(invalid(
                host,
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and \
                 must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is \
                 '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            ));
        }
        let path_ok = path.chars().all(|c| c.is_ascii_alphanumeric() || "/-._~%!$&'()*+,;=:".contains(c));
        if !path_ok {
            errors.push(invalid(path, &format!("Invalid path (regex used for validation is '{HTTP_PATH}')")));
        }
    }
    errors
}

/// The API server's own schema check: a quantity it cannot read never reaches the webhook.
fn schema(input: Input) -> Option<Rejection> {
    let res = input.job.spec.trainer.as_ref()?.resources_per_node.as_ref()?;
    let (key, value) = bad_quantity(res)?;
    reject(&format!("spec.trainer.resourcesPerNode.{key}"), format!("{value:?} is not a Kubernetes quantity"))
}

/// A field the release's CRD does not declare: `kubectl apply` (strict field validation, the
/// default since Kubernetes 1.27) refuses the object before any webhook sees it.
fn unknown(object: &str, path: &str, release: Release) -> Option<Rejection> {
    reject(
        &format!("{object}{path}"),
        format!("strict decoding error: unknown field \"{path}\" (not in the {} CRD)", release.tag),
    )
}

/// The TrainJob and runtime against the release's CRDs (the release data's field facts).
fn unknown_fields(input: Input, release: Release) -> Option<Rejection> {
    let spec = &input.job.spec;
    // Pod settings moved: podSpecOverrides (v2.0), podTemplateOverrides (v2.1), runtimePatches.
    let used = input.legacy.pod_settings.iter().map(|(name, _)| name.as_str());
    let used = used.chain((!spec.runtime_patches.is_empty()).then_some(PodSettingsField::RuntimePatches.field()));
    for name in used.collect::<Vec<_>>() {
        if name != release.pod_settings.field() {
            return unknown("", &format!("spec.{name}"), release);
        }
    }
    if spec.active_deadline_seconds.is_some() && !release.active_deadline_seconds {
        return unknown("", "spec.activeDeadlineSeconds", release);
    }
    if let Some(text) = &input.legacy.num_proc_per_node {
        if release.num_proc_per_node == NumProcPerNode::Int32 {
            return reject(
                "spec.trainer.numProcPerNode",
                format!(
                    "Invalid value: \"string\": spec.trainer.numProcPerNode in body must be of type integer: {text:?}"
                ),
            );
        }
    }
    let runtime = "runtime ";
    if let Some(ml) = &input.runtime.spec.ml_policy {
        let sources = [
            ("torch", ml.torch.is_some()),
            ("mpi", ml.mpi.is_some()),
            ("jax", ml.jax.is_some()),
            ("xgboost", ml.xgboost.is_some()),
        ];
        for (source, set) in sources {
            if set && !release.policies.contains(&source) {
                return unknown(runtime, &format!("spec.mlPolicy.{source}"), release);
            }
        }
        for field in ml.torch.iter().flat_map(|t| t.keys()) {
            if !release.torch_policy_fields.contains(&field.as_str()) {
                return unknown(runtime, &format!("spec.mlPolicy.torch.{field}"), release);
            }
        }
    }
    if !input.runtime.spec.template.spec.volume_claim_policies.is_empty() && !release.jobset_volume_claims {
        return unknown(runtime, "spec.template.spec.volumeClaimPolicies", release);
    }
    None
}

/// `sets.List` then `%v`: sorted, space-separated, in brackets.
fn reserved_in(input: Input, names: &[&str]) -> Vec<String> {
    let mut found: Vec<String> = input
        .job
        .spec
        .trainer
        .iter()
        .flat_map(|t| &t.env)
        .filter(|e| names.contains(&e.name.as_str()))
        .map(|e| e.name.clone())
        .collect();
    found.sort();
    found.dedup();
    found
}

/// The TrainJob's `numProcPerNode` as written, number or (v2.0-v2.1) string.
fn written_procs(input: Input) -> Option<Result<Procs, String>> {
    let typed = input.job.spec.trainer.as_ref().and_then(|t| t.num_proc_per_node).map(|n| Ok(Procs::Count(n)));
    typed.or_else(|| input.legacy.num_proc_per_node.as_ref().map(|s| Procs::parse(s).ok_or_else(|| s.clone())))
}

fn plugins(input: Input, release: Release) -> Option<Rejection> {
    let policy = Policy::of(input);
    let trainer = input.job.spec.trainer.as_ref();
    let procs = written_procs(input);
    // v2.0.1 torch.go:59, v2.1.0 :57: the torch webhook returns at once unless the TrainJob sets
    // numProcPerNode, so reserved PET_* names pass (and the plugin overwrites them).
    let torch_checks = !(release.controller.torch_webhook_needs_procs && procs.is_none());
    if policy.torch && torch_checks {
        // v2.0.1 torch.go:66-73 (v2.1.0 :64-71): a string must be auto, cpu or gpu.
        if let Some(Err(text)) = &procs {
            return reject(
                "spec.trainer.numProcPerNode",
                format!("Invalid value: {text:?}: must have an int value or [auto cpu gpu]"),
            );
        }
        // torch.go:63,89-107: every envInjection target must name a container of the runtime
        // (regular first, then init containers).
        for (job, container) in super::plugins::env_injection_targets(input) {
            let rjob = input.runtime.spec.template.spec.replicated_jobs.iter().find(|r| r.name == job);
            let pod = rjob.map(|r| &r.template.spec.template.spec);
            if !pod.is_some_and(|p| p.containers.iter().chain(&p.init_containers).any(|c| c.name == container)) {
                return reject(
                    "spec.runtimeRef",
                    format!("envInjection target podSet {job:?} container {container:?} not found in runtime template"),
                );
            }
        }
        // torch.go:65-77.
        let found = reserved_in(input, &TORCH_RESERVED);
        if !found.is_empty() {
            return reject(
                "spec.trainer.env",
                format!("must not have reserved envs, invalid envs configured: [{}]", found.join(" ")),
            );
        }
        // torch.go:81-84 torchtune's own checks when the command is exactly `tune run`.
        if super::torchtune::is_torchtune(input) {
            if let Some(r) = super::torchtune::validate(input, release) {
                return Some(r);
            }
        }
    }
    if let Some(mpi) = &policy.mpi {
        // v2.0.1 and v2.1.0 mpi.go:92-96: a string numProcPerNode is refused for MPI.
        if let Some(Ok(Procs::Auto | Procs::Cpu | Procs::Gpu) | Err(_)) = &procs {
            let text = input.legacy.num_proc_per_node.clone().unwrap_or_default();
            return reject(
                "spec.trainer.numProcPerNode",
                format!("Invalid value: {text:?}: must have an int value for MPI TrainJob"),
            );
        }
        // mpi.go:89-94 (v2.0.1 :97-103).
        let nodes = trainer.and_then(|t| t.num_nodes).unwrap_or(1);
        let rjobs = &input.runtime.spec.template.spec.replicated_jobs;
        let has = |n: &str| rjobs.iter().any(|r| r.name == n);
        if trainer.is_some()
            && nodes >= 2
            && mpi.run_launcher_as_node.unwrap_or(false)
            && !(has("launcher") && has(NODE))
        {
            return reject(
                "spec.trainer.numNodes",
                "must have 1 when MPI trainingRuntime with enabled runLauncherAsNode does not have either launcher and node"
                    .into(),
            );
        }
        // mpi.go:96-107, new in v2.3.0.
        let found = reserved_in(input, &MPI_RESERVED);
        if release.controller.mpi_reserved_env && !found.is_empty() {
            return reject(
                "spec.trainer.env",
                format!("must not have reserved envs, invalid envs configured: [{}]", found.join(" ")),
            );
        }
    }
    if policy.xgboost {
        // xgboost.go:59-68: the first reserved name, by index.
        if let Some((i, e)) = trainer
            .iter()
            .flat_map(|t| t.env.iter().enumerate())
            .find(|(_, e)| XGBOOST_RESERVED.contains(&e.name.as_str()))
        {
            return reject(
                &format!("spec.trainer.env[{i}]"),
                format!("{} is reserved for the XGBoost runtime", e.name),
            );
        }
    }
    None
}

/// jobset.go:91-212: initializers need their job, container and `initializer` volume mount;
/// runtime patches may only name jobs and containers the runtime has, and set no env on
/// the initializer and `node` containers.
fn jobset(input: Input) -> Option<Rejection> {
    let rjobs = &input.runtime.spec.template.spec.replicated_jobs;
    let init = input.job.spec.initializer.as_ref();
    let wanted = [
        (DATASET_INITIALIZER, init.and_then(|i| i.dataset.as_ref()).is_some(), "datasetConfig"),
        (MODEL_INITIALIZER, init.and_then(|i| i.model.as_ref()).is_some(), "modelConfig"),
    ];
    for (step, asked, config) in wanted {
        if !asked {
            continue;
        }
        let Some(rjob) = rjobs.iter().find(|r| r.name == step) else {
            return reject(
                "spec.runtimeRef",
                format!("must have {step} job when trainJob is configured with input {config}"),
            );
        };
        let pod = &rjob.template.spec.template.spec;
        let in_pod = pod.containers.iter().chain(&pod.init_containers).any(|c| c.name == step);
        if !in_pod {
            return reject("spec.runtimeRef", format!("must have container with name - {step} in the {step} job"));
        }
        let mounted = pod
            .containers
            .iter()
            .filter(|c| c.name == step)
            .flat_map(|c| &c.volume_mounts)
            .any(|m| matches!(m, Value::Object(o) if o.get("name") == Some(&Value::from("initializer"))));
        if !mounted {
            return reject(
                "spec.runtimeRef",
                format!("must have volumeMount with name - initializer in container {step} of the {step} job"),
            );
        }
    }
    for patch in &input.job.spec.runtime_patches {
        let Some(Value::Array(patched)) = at(patch, &["trainingRuntimeSpec", "template", "spec", "replicatedJobs"])
        else {
            continue;
        };
        for rjob_patch in patched {
            let name = str_at(rjob_patch, &["name"]).unwrap_or_default();
            let Some(rjob) = rjobs.iter().find(|r| r.name == name) else {
                return reject(
                    "spec.runtimePatches",
                    "must not have replicated job that doesn't exist in the runtime job template".into(),
                );
            };
            let pod = &rjob.template.spec.template.spec;
            let has = |c: &str| pod.containers.iter().chain(&pod.init_containers).any(|x| x.name == c);
            for (list, what) in [("initContainers", "initContainer"), ("containers", "container")] {
                let Some(Value::Array(cs)) = at(rjob_patch, &["template", "spec", "template", "spec", list]) else {
                    continue;
                };
                for c in cs {
                    let cname = str_at(c, &["name"]).unwrap_or_default();
                    if !has(&cname) {
                        return reject(
                            "spec.runtimePatches",
                            format!("must not have {what} that doesn't exist in the runtime job {name}"),
                        );
                    }
                    let has_env = matches!(at(c, &["env"]), Some(Value::Array(e)) if !e.is_empty());
                    if what == "container"
                        && has_env
                        && [DATASET_INITIALIZER, MODEL_INITIALIZER, NODE].contains(&cname.as_str())
                    {
                        return reject(
                            "spec.runtimePatches",
                            format!("must not have envs for the {DATASET_INITIALIZER}, {MODEL_INITIALIZER}, {NODE} containers"),
                        );
                    }
                }
            }
        }
    }
    None
}

fn at<'v>(v: &'v Value, path: &[&str]) -> Option<&'v Value> {
    path.iter().try_fold(v, |v, k| match v {
        Value::Object(m) => m.get(*k),
        _ => None,
    })
}

fn str_at(v: &Value, path: &[&str]) -> Option<String> {
    match at(v, path) {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    }
}

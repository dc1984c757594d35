//! What the API server (the release's CRDs) and the TrainJob validating webhook refuse
//! (pkg/webhooks/trainjob_webhook.go:110-121 runs each plugin's `Validate` through the runtime's
//! `ValidateObjects`, pkg/runtime/core/clustertrainingruntime.go:99-123). Every error is
//! reported, as the API server and the webhook aggregate them (`field.ErrorList`), in the order
//! the request meets them: strict decoding (a quantity it cannot read, fields the release's CRD
//! lacks); then the CRDs' own constraints and rules (explain/crd); then, only when the API
//! server admitted the object, every webhook error, in a fixed order (name, jobset, pod
//! settings, torch, mpi, xgboost, flux, volcano) where upstream runs the plugins in Go map order.

use super::build::{DATASET_INITIALIZER, MODEL_INITIALIZER, NODE};
use super::memo::Memo;
use super::plugins::{bad_quantity, Policy, Procs};
use super::{crd, ErrorType, FieldPath, Input, Rejection};
use crate::model::Value;
use explorer_data::releases::{NumProcPerNode, Release};
use std::rc::Rc;

/// constants.go:300,303,306.
const TORCH_RESERVED: [&str; 5] =
    ["PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK", "PET_MASTER_ADDR", "PET_MASTER_PORT"];
const XGBOOST_RESERVED: [&str; 4] = ["DMLC_TRACKER_URI", "DMLC_TRACKER_PORT", "DMLC_TASK_ID", "DMLC_NUM_WORKER"];
pub(crate) const MPI_RESERVED: [&str; 4] = [
    "OMPI_MCA_orte_default_hostfile",
    "OMPI_MCA_plm_rsh_args",
    "OMPI_MCA_orte_keep_fqdn_hostnames",
    "OMPI_MCA_orte_set_default_slots",
];

/// A webhook error worded as its own sentence (no type word before it).
fn reject(field: &str, reason: String) -> Option<Rejection> {
    Some(Rejection::message(field, reason))
}

/// `path` in the TrainJob, or in the runtime it references.
fn object_path(in_runtime: bool, path: &str) -> FieldPath {
    FieldPath { in_runtime, ..FieldPath::parse(path) }
}

pub(super) fn check(input: Input, release: Release) -> Vec<Rejection> {
    // The REST mapper answers before the API server decodes anything.
    let unserved = served(input, release);
    if !unserved.is_empty() {
        return unserved;
    }
    // Strict decoding refuses the request before any validation runs.
    let decoding: Vec<Rejection> = schema(input).into_iter().chain(crd(input, release)).collect();
    if !decoding.is_empty() {
        return decoding;
    }
    let api_server = crd_rules(input, release);
    if !api_server.is_empty() {
        return api_server;
    }
    // The validator looks the runtime up by the ref's group and kind before anything else, and
    // an unknown one ends the validation with that one error (even v2.0's name errors go).
    if let Some(unsupported) = runtime_ref(input, release) {
        return vec![unsupported];
    }
    let mut out = name(input, release);
    out.extend(jobset(input));
    out.extend(pod_settings(input, release));
    out.extend(plugins(input, release));
    out.extend(super::flux::validate(input, release));
    out.extend(super::podgroup::validate(input));
    out
}

/// The TrainJob and its runtime at a group/version/kind the release's CRDs serve (the release
/// data's `served`, read from the CRDs): any other pair is `kubectl apply`'s REST-mapping error,
/// `no matches for kind ...` (apimachinery pkg/api/meta/errors.go, `NoKindMatchError`). A
/// runtime of another version was never created, so the TrainJob's reference finds nothing.
fn served(input: Input, release: Release) -> Vec<Rejection> {
    let objects = [
        (false, input.job.api_version.as_str(), input.job.kind.as_str()),
        (true, input.runtime.api_version.as_str(), input.runtime.kind.as_str()),
    ];
    objects.into_iter().filter_map(|(in_runtime, api, kind)| unserved(in_runtime, api, kind, release)).collect()
}

fn unserved(in_runtime: bool, api: &str, kind: &str, release: Release) -> Option<Rejection> {
    (!release.serves(api, kind)).then(|| {
        let path = object_path(in_runtime, "apiVersion");
        Rejection::new(ErrorType::NoKindMatch, path, explorer_data::served::no_matches(kind, api))
    })
}

fn served_written(in_runtime: bool, written: &serde_json::Value, release: Release) -> Option<Rejection> {
    let at = |key: &str| written.get(key).and_then(serde_json::Value::as_str).unwrap_or_default();
    unserved(in_runtime, at("apiVersion"), at("kind"), release)
}

/// What the API server of `release` answers when a runtime alone (a TrainingRuntime or a
/// ClusterTrainingRuntime, as written) is created: the served kind, then strict decoding (fields
/// its CRD lacks), then the name and the CRD's constraints and rules. The same checks a
/// TrainJob's runtime meets in [`check`], named from the runtime's own root.
pub fn check_runtime(runtime: &serde_json::Value, release: Release) -> Vec<Rejection> {
    let runtime = &crate::model::without_nulls(runtime);
    if let Some(unserved) = served_written(false, runtime, release) {
        return vec![unserved];
    }
    let unknown = unknown_fields(false, runtime, release);
    if !unknown.is_empty() {
        return unknown;
    }
    object_rules(runtime, release)
}

/// [`check`] for a TrainJob and runtime the typed models cannot read (`decoding`: each value of
/// a type the models, and the API server's schema, refuse): the checks that read the objects as
/// written still run, so every error of the stage the request stops at is reported with them.
/// An error the CRD's checks give at the same field replaces the model's.
pub(super) fn check_unreadable(
    job: &serde_json::Value,
    runtime: &serde_json::Value,
    release: Release,
    decoding: Vec<Rejection>,
) -> Vec<Rejection> {
    let unserved: Vec<Rejection> =
        [(false, job), (true, runtime)].into_iter().filter_map(|(o, w)| served_written(o, w, release)).collect();
    if !unserved.is_empty() {
        return unserved;
    }
    let mut out = unknown_fields(false, job, release);
    out.extend(runtime_unknown_fields(runtime, None, release));
    if !out.is_empty() {
        out.extend(decoding);
        return out;
    }
    let rules = crd_rules_written(job, runtime, None, release);
    out.extend(decoding.into_iter().filter(|d| !rules.iter().any(|r| r.path == d.path)));
    out.extend(rules);
    out
}

/// The runtime kinds the release's runtime registry holds, as `Kind.group` (apimachinery
/// `schema.GroupKind.String()`): TrainingRuntime and ClusterTrainingRuntime in the Trainer group
/// at every release (pkg/runtime/core/registry.go:33-43 @v2.0.1 and @v2.1.0, :34-44 @v2.2.1 and
/// @v2.3.0; the keys are trainingruntime.go:61 and clustertrainingruntime.go:48 @v2.3.0), that
/// is, the runtime kinds the release serves.
pub(crate) fn runtime_registry(release: Release) -> impl Iterator<Item = String> {
    release
        .served
        .iter()
        .filter(|s| s.kind != "TrainJob")
        .map(|s| format!("{}.{}", s.kind, s.api_version.split('/').next().unwrap_or_default()))
}

/// The validating webhook's registry lookup (trainjob_webhook.go:62-66 @v2.0.1, :53-57 @v2.1.0,
/// :114-118 @v2.2.1 and @v2.3.0): `runtime.RuntimeRefToRuntimeRegistryKey` (runtime.go:246-251
/// @v2.3.0) joins the ref's kind and apiGroup, an empty one as empty (the CRD defaults only an
/// absent one: `trainer.kubeflow.org`, `ClusterTrainingRuntime`), and a key the registry lacks
/// is refused with `unsupported runtime: <key>`, the key as `GroupKind.String()` prints it
/// (`Kind.group`, the kind alone when the group is empty).
fn runtime_ref(input: Input, release: Release) -> Option<Rejection> {
    let r = &input.job.spec.runtime_ref;
    let group = r.api_group.as_deref().unwrap_or(crate::model::v2::API_GROUP);
    let kind = r.kind.as_deref().unwrap_or("ClusterTrainingRuntime");
    let key = if group.is_empty() { kind.to_string() } else { format!("{kind}.{group}") };
    if runtime_registry(release).any(|k| k == key) {
        return None;
    }
    reject("spec.runtimeRef", format!("unsupported runtime: {key}"))
}

/// The TrainJob and its runtime against the release's CRD constraints and rules. The runtime's
/// errors are named `runtime <path>`: the runtime was created before, so a cluster would have
/// refused it then.
fn crd_rules(input: Input, release: Release) -> Vec<Rejection> {
    let (job, runtime) = input.as_json();
    crd_rules_written(&job, &runtime, input.written.map(|w| w.runtime), release)
}

/// `held`: the `Rc` `runtime` is behind, when it was read as written, by which the memo finds its
/// errors again.
fn crd_rules_written(
    job: &serde_json::Value,
    runtime: &serde_json::Value,
    held: Option<&Rc<serde_json::Value>>,
    release: Release,
) -> Vec<Rejection> {
    let mut errors = object_rules(job, release);
    // The runtime's errors depend on it and the release alone: worked out once for a paste's
    // jobs on one runtime.
    thread_local! {
        static RUNTIME_ERRORS: Memo<Vec<Rejection>> = const { Memo::new() };
    }
    let work = || {
        let errors = object_rules(runtime, release);
        errors.into_iter().map(|e| Rejection { path: e.path.in_runtime(), ..e }).collect()
    };
    let runtime_errors = RUNTIME_ERRORS.with(|memo| match held {
        Some(held) => memo.get_shared(release.tag, held, work),
        None => memo.get(release.tag, runtime, work),
    });
    errors.extend(runtime_errors.iter().cloned());
    errors
}

/// One object's name, then its CRD's constraints and rules.
fn object_rules(object: &serde_json::Value, release: Release) -> Vec<Rejection> {
    let mut errors = object_meta_name(object);
    errors.extend(crd::validate(release.tag, object));
    errors
}

/// The API server's own check of every custom resource's name, before the CRD's schema and rules
/// and before any webhook: customResourceValidator.Validate
/// (apiextensions-apiserver v0.35.7:pkg/registry/customresource/validator.go:53) calls
/// `ValidateObjectMetaAccessor(.., validation.NameIsDNSSubdomain, ..)`
/// (apimachinery v0.35.7:pkg/api/validation/generic.go:42-43), `IsDNS1123Subdomain` (at most 253
/// characters, then the regex). Upstream's integration tests see it: `Invalid-job-name` and
/// `jobname-` are refused with it next to the CRD's RFC 1035 rule
/// (v2.3.0:test/integration/webhooks/trainjob_test.go:411-431). Every custom resource meets it,
/// a V1 job too (explain::v1::check).
pub(super) fn object_meta_name(object: &serde_json::Value) -> Vec<Rejection> {
    let Some(name) = super::v1::at(object, &["metadata", "name"]).and_then(serde_json::Value::as_str) else {
        return Vec::new();
    };
    refused_name(name)
}

/// [`object_meta_name`] for the name itself.
pub(super) fn refused_name(name: &str) -> Vec<Rejection> {
    crate::k8s::names::is_dns1123_subdomain(name)
        .into_iter()
        .map(|r| Rejection::invalid("metadata.name", format!("{name:?}: {r}")))
        .collect()
}

/// v2.0.1 trainjob_webhook.go:57-60: `validation.IsDNS1035Label` on the name, each error at
/// `metadata.name` (apimachinery util/validation: MaxLenError, RegexError).
fn name(input: Input, release: Release) -> Vec<Rejection> {
    if !release.controller.webhook_checks_name {
        return Vec::new();
    }
    let name = input.job.metadata.name.as_deref().unwrap_or_default();
    let reasons = crate::k8s::names::is_dns1035_label(name);
    reasons.into_iter().map(|r| Rejection::invalid("metadata.name", format!("{name:?}: {r}"))).collect()
}

/// The API server's own schema check: a quantity it cannot read never reaches the webhook.
fn schema(input: Input) -> Option<Rejection> {
    let res = input.job.spec.trainer.as_ref()?.resources_per_node.as_ref()?;
    let (key, value) = bad_quantity(res)?;
    reject(&format!("spec.trainer.resourcesPerNode.{key}"), format!("{value:?} is not a Kubernetes quantity"))
}

/// The TrainJob and runtime against the release's CRDs: every field each CRD's structural schema
/// does not declare (crd::strict, the schemas read from the CRDs), as strict field validation
/// (`kubectl apply`'s default since Kubernetes 1.27) refuses them before any webhook sees the
/// object; then the type v2.2 gave `numProcPerNode`.
fn crd(input: Input, release: Release) -> Vec<Rejection> {
    let (job, runtime) = input.as_json();
    let mut out = unknown_fields(false, &job, release);
    if let Some(text) = &input.legacy.num_proc_per_node {
        if release.num_proc_per_node == NumProcPerNode::Int32 {
            out.push(Rejection::new(
                ErrorType::TypeInvalid,
                FieldPath::parse("spec.trainer.numProcPerNode"),
                format!("\"string\": spec.trainer.numProcPerNode in body must be of type integer: {text:?}"),
            ));
        }
    }
    out.extend(runtime_unknown_fields(&runtime, input.written.map(|w| w.runtime), release));
    out
}

/// Every field of `written` its CRD at `release` does not declare (crd::strict), each named
/// in the TrainJob or (`in_runtime`) in its runtime.
fn unknown_fields(in_runtime: bool, written: &serde_json::Value, release: Release) -> Vec<Rejection> {
    crd::strict::unknown_fields(release.tag, written)
        .into_iter()
        .map(|path| {
            let detail = format!("strict decoding error: unknown field \"{path}\" (not in the {} CRD)", release.tag);
            Rejection::new(ErrorType::UnknownField, object_path(in_runtime, &path), detail)
        })
        .collect()
}

/// [`unknown_fields`] of a TrainJob's runtime, named from `runtime `: as in crd_rules, once per
/// runtime and release (`held` as in crd_rules_written).
fn runtime_unknown_fields(
    runtime: &serde_json::Value,
    held: Option<&Rc<serde_json::Value>>,
    release: Release,
) -> Vec<Rejection> {
    thread_local! {
        static RUNTIME_UNKNOWN: Memo<Vec<Rejection>> = const { Memo::new() };
    }
    let work = || unknown_fields(true, runtime, release);
    let found = RUNTIME_UNKNOWN.with(|memo| match held {
        Some(held) => memo.get_shared(release.tag, held, work),
        None => memo.get(release.tag, runtime, work),
    });
    found.to_vec()
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
    crate::order::sort(&mut found);
    found.dedup();
    found
}

/// The TrainJob's `numProcPerNode` as written, number or (v2.0-v2.1) string: `Err` holds a
/// string that names no count (`auto`, `cpu`, `gpu` or a number).
fn written_procs(input: Input<'_>) -> Option<Result<Procs, &str>> {
    let typed = input.job.spec.trainer.as_ref().and_then(|t| t.num_proc_per_node).map(|n| Ok(Procs::Count(n)));
    typed.or_else(|| input.legacy.num_proc_per_node.as_deref().map(|s| Procs::parse(s).ok_or(s)))
}

fn plugins(input: Input, release: Release) -> Vec<Rejection> {
    let mut out = Vec::new();
    let policy = Policy::of(input);
    let trainer = input.job.spec.trainer.as_ref();
    let procs = written_procs(input);
    // v2.0.1 torch.go:59, v2.1.0 :57: the torch webhook returns at once unless the TrainJob sets
    // numProcPerNode, so reserved PET_* names pass (and the plugin overwrites them).
    let torch_checks = !(release.controller.torch_webhook_needs_procs && procs.is_none());
    if policy.torch && torch_checks {
        // v2.0.1 torch.go:66-73 (v2.1.0 :64-71): a string must be auto, cpu or gpu.
        if let Some(Err(text)) = &procs {
            out.push(Rejection::invalid(
                "spec.trainer.numProcPerNode",
                format!("{text:?}: must have an int value or [auto cpu gpu]"),
            ));
        }
        // torch.go:63,89-107: every envInjection target must name a container of the runtime
        // (regular first, then init containers).
        for (job, container) in super::plugins::env_injection_targets(input) {
            let rjob = input.runtime.spec.template.spec.replicated_jobs.iter().find(|r| r.name == job);
            let pod = rjob.map(|r| &r.template.spec.template.spec);
            if !pod.is_some_and(|p| p.containers.iter().chain(&p.init_containers).any(|c| c.name == container)) {
                out.extend(reject(
                    "spec.runtimeRef",
                    format!("envInjection target podSet {job:?} container {container:?} not found in runtime template"),
                ));
            }
        }
        // torch.go:65-77.
        let found = reserved_in(input, &TORCH_RESERVED);
        if !found.is_empty() {
            out.extend(reject(
                "spec.trainer.env",
                format!("must not have reserved envs, invalid envs configured: [{}]", found.join(" ")),
            ));
        }
        // torch.go:81-84 torchtune's own checks when the command is exactly `tune run`.
        if super::torchtune::is_torchtune(input) {
            if let Some(r) = super::torchtune::validate(input, release) {
                out.push(r);
            }
        }
    }
    if let Some(mpi) = &policy.mpi {
        // v2.0.1 and v2.1.0 mpi.go:92-96: a string numProcPerNode is refused for MPI.
        if let Some(Ok(Procs::Auto | Procs::Cpu | Procs::Gpu) | Err(_)) = &procs {
            let text = input.legacy.num_proc_per_node.clone().unwrap_or_default();
            out.push(Rejection::invalid(
                "spec.trainer.numProcPerNode",
                format!("{text:?}: must have an int value for MPI TrainJob"),
            ));
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
            out.extend(reject(
                "spec.trainer.numNodes",
                "must have 1 when MPI trainingRuntime with enabled runLauncherAsNode does not have either launcher and node"
                    .into(),
            ));
        }
        // mpi.go:96-107, new in v2.3.0.
        let found = reserved_in(input, &MPI_RESERVED);
        if release.controller.mpi_reserved_env && !found.is_empty() {
            out.extend(reject(
                "spec.trainer.env",
                format!("must not have reserved envs, invalid envs configured: [{}]", found.join(" ")),
            ));
        }
    }
    if policy.xgboost {
        // xgboost.go:59-68 @v2.2.1 and @v2.3.0: one error for every reserved name, at its index.
        let reserved = trainer
            .iter()
            .flat_map(|t| t.env.iter().enumerate())
            .filter(|(_, e)| XGBOOST_RESERVED.contains(&e.name.as_str()));
        for (i, e) in reserved {
            out.extend(reject(
                &format!("spec.trainer.env[{i}]"),
                format!("{} is reserved for the XGBoost runtime", e.name),
            ));
        }
    }
    out
}

/// jobset.go:113-171: initializers need their job, container and `initializer` volume mount.
fn jobset(input: Input) -> Vec<Rejection> {
    let mut out = Vec::new();
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
            out.extend(reject(
                "spec.runtimeRef",
                format!("must have {step} job when trainJob is configured with input {config}"),
            ));
            continue;
        };
        let pod = &rjob.template.spec.template.spec;
        let in_pod = pod.containers.iter().chain(&pod.init_containers).any(|c| c.name == step);
        if !in_pod {
            out.extend(reject("spec.runtimeRef", format!("must have container with name - {step} in the {step} job")));
            continue;
        }
        let mounted = pod
            .containers
            .iter()
            .filter(|c| c.name == step)
            .flat_map(|c| &c.volume_mounts)
            .any(|m| matches!(m, Value::Object(o) if o.get("name") == Some(&Value::from("initializer"))));
        if !mounted {
            out.extend(reject(
                "spec.runtimeRef",
                format!("must have volumeMount with name - initializer in container {step} of the {step} job"),
            ));
        }
    }
    out
}

/// One replicatedJob a pod setting names, with the pod-spec part that holds its containers.
struct Target<'v> {
    job: String,
    pod: Option<&'v Value>,
}

/// What the TrainJob's pod settings name: `runtimePatches` (v2.2+, jobset.go:175-210 @v2.3.0),
/// `podTemplateOverrides` (v2.1, jobset.go:124-151 @v2.1.0) or `podSpecOverrides` (v2.0,
/// jobset.go:121-157 @v2.0.1). Each must name a job and containers the runtime has and set no
/// env on the initializer and `node` containers (their env comes from the TrainJob's own
/// fields); v2.0 also refuses a job named twice.
fn pod_settings(input: Input, release: Release) -> Vec<Rejection> {
    // Every rule below is about a setting the TrainJob holds: with none, nothing to look up (the
    // release's field name is most of the work for the jobs of a paste that set none).
    if input.job.spec.runtime_patches.is_empty() && input.legacy.pod_settings.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let rjobs = &input.runtime.spec.template.spec.replicated_jobs;
    let mut targets: Vec<Target> = Vec::new();
    let field = release.pod_settings().field();
    let path = format!("spec.{field}");
    for patch in &input.job.spec.runtime_patches {
        // jobset.go:176 @v2.3.0 (:129 @v2.2.1): `validation.IsDomainPrefixedPath`.
        out.extend(domain_prefixed(&format!("{path}.manager"), &str_at(patch, &["manager"]).unwrap_or_default()));
    }
    for patch in &input.job.spec.runtime_patches {
        let Some(Value::Array(jobs)) = at(patch, &["trainingRuntimeSpec", "template", "spec", "replicatedJobs"]) else {
            continue;
        };
        for rjob in jobs {
            let pod = at(rjob, &["template", "spec", "template", "spec"]);
            targets.push(Target { job: str_at(rjob, &["name"]).unwrap_or_default(), pod });
        }
    }
    let mut named = std::collections::HashSet::new();
    for (name, value) in &input.legacy.pod_settings {
        let Value::Array(items) = value else { continue };
        for item in items {
            let pod = if name == "podTemplateOverrides" { at(item, &["spec"]) } else { Some(item) };
            let Some(Value::Array(jobs)) = at(item, &["targetJobs"]) else { continue };
            for t in jobs {
                let job = str_at(t, &["name"]).unwrap_or_default();
                // jobset.go:127-133 @v2.0.1 (gone in v2.1.0).
                if name == "podSpecOverrides" && !named.insert(job.clone()) {
                    out.push(Rejection::new(ErrorType::Duplicate, FieldPath::parse(&path), format!("{job:?}")));
                }
                targets.push(Target { job, pod });
            }
        }
    }
    let unknown_job = if field == "runtimePatches" {
        "must not have replicated job that doesn't exist in the runtime job template"
    } else {
        "must not have targetJob that doesn't exist in the runtime job template"
    };
    for t in targets {
        let Some(rjob) = rjobs.iter().find(|r| r.name == t.job) else {
            out.extend(reject(&path, unknown_job.into()));
            continue;
        };
        let pod = &rjob.template.spec.template.spec;
        let has = |c: &str| pod.containers.iter().chain(&pod.init_containers).any(|x| x.name == c);
        for (list, what) in [("initContainers", "initContainer"), ("containers", "container")] {
            let Some(Value::Array(cs)) = t.pod.and_then(|p| at(p, &[list])) else {
                continue;
            };
            for c in cs {
                let cname = str_at(c, &["name"]).unwrap_or_default();
                let has_env = matches!(at(c, &["env"]), Some(Value::Array(e)) if !e.is_empty());
                if !has(&cname) {
                    out.extend(reject(
                        &path,
                        format!("must not have {what} that doesn't exist in the runtime job {}", t.job),
                    ));
                } else if what == "container"
                    && has_env
                    && [DATASET_INITIALIZER, MODEL_INITIALIZER, NODE].contains(&cname.as_str())
                {
                    out.extend(reject(
                        &path,
                        format!(
                            "must not have envs for the {DATASET_INITIALIZER}, {MODEL_INITIALIZER}, {NODE} containers"
                        ),
                    ));
                }
            }
        }
    }
    out
}

/// k8s.io/apimachinery validation.IsDomainPrefixedPath: `<RFC 1123 subdomain>/<HTTP path>`, with
/// its messages (util/validation: MaxLenError, RegexError with the example and the regex).
fn domain_prefixed(field: &str, text: &str) -> Vec<Rejection> {
    const HTTP_PATH: &str = r"[A-Za-z0-9/\-._~%!$&'()*+,;=:]+";
    let invalid = |value: &str, reason: String| Rejection::invalid(field, format!("{value:?}: {reason}"));
    if text.is_empty() {
        return vec![Rejection::required(field)];
    }
    let (host, path) = text.split_once('/').unwrap_or((text, ""));
    if host.is_empty() || path.is_empty() {
        return vec![invalid(text, "must be a domain-prefixed path (such as \"acme.io/foo\")".into())];
    }
    let mut out: Vec<Rejection> =
        crate::k8s::names::is_dns1123_subdomain(host).into_iter().map(|r| invalid(host, r)).collect();
    let path_ok = path.chars().all(|c| c.is_ascii_alphanumeric() || "/-._~%!$&'()*+,;=:".contains(c));
    if !path_ok {
        out.push(invalid(path, format!("Invalid path (regex used for validation is '{HTTP_PATH}')")));
    }
    out
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

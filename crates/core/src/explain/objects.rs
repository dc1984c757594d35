//! The objects next to the JobSet, who creates each and when, and the initializers' env.

use super::build::{
    endpoint, endpoints, job_name, subdomain, upsert_env, PodSet, DATASET_INITIALIZER, LAUNCHER, MODEL_INITIALIZER,
    NODE,
};
use super::plugins::MpiOutcome;
use super::{Input, Object, Rejection};
use crate::model::pod::{Container, EnvVar};
use crate::model::vecmap::VecMap;
use crate::model::Value;
use explorer_data::releases::Release;

const CONTROLLER: &str = "Trainer controller";

/// builder.go:42-101: each initializer's container gets `STORAGE_URI` from the TrainJob, then the
/// TrainJob's env for it (pkg/runtime/framework/plugins/jobset/constants/constants.go:25).
pub(super) fn initializer_env(input: Input, ancestor: Option<&str>, containers: &mut [Container]) {
    let Some(init) = &input.job.spec.initializer else { return };
    let (step, source) = match ancestor {
        Some(DATASET_INITIALIZER) => (DATASET_INITIALIZER, init.dataset.as_ref()),
        Some(MODEL_INITIALIZER) => (MODEL_INITIALIZER, init.model.as_ref()),
        _ => return,
    };
    let Some(source) = source else { return };
    for c in containers.iter_mut().filter(|c| c.name == step) {
        if let Some(uri) = &source.storage_uri {
            upsert_env(&mut c.env, [EnvVar::new("STORAGE_URI", uri)]);
        }
        upsert_env(&mut c.env, source.env.iter().cloned());
        // builder.go:65-70,91-96: the secret's keys become env vars through `envFrom`.
        if let Some(Value::Object(secret)) = &source.secret_ref {
            if let Some(Value::String(name)) = secret.get("name") {
                c.extra.insert("envFrom".into(), crate::tree!([{"secretRef": {"name": (name.as_str())}}]));
            }
        }
    }
}

fn object(kind: &str, name: String, created_by: &str, when: &str, data: Option<VecMap<String, String>>) -> Object {
    Object { data, ..Object::new(kind, name, created_by, when) }
}

/// The pod sets the MPI hostfile lists (mpi.go:344-346): the `node` job and, with
/// `runLauncherAsNode`, the launcher, in the runtime's replicatedJob order.
fn hostfile_sets<'s>(sets: &'s [PodSet], mpi: &MpiOutcome) -> impl Iterator<Item = &'s PodSet> {
    let launcher_as_node = mpi.launcher_as_node;
    sets.iter().filter(move |ps| ps.name == NODE || (launcher_as_node && ps.name == LAUNCHER))
}

/// mpi.go:327: the hostfile line of the pod at `host`. Upstream's expected ConfigMaps pin the
/// text and its order: v2.3.0:pkg/runtime/core/trainingruntime_test.go:1993-1994 (two nodes,
/// the TrainJob's 8 slots) and v2.3.0:pkg/runtime/framework/core/framework_test.go:1335-1337
/// (the launcher as a node first, then two nodes); `mpi_hostfile_text_is_upstreams` in
/// crates/core/tests/it/explain.rs holds ours to them at every release that has the case.
fn host_line(host: &str, mpi: &MpiOutcome) -> String {
    format!("{host} slots={}\n", mpi.slots)
}

/// The MPI hostfile (mpi.go:316-342): one `<host> slots=N` line per node pod.
pub(super) fn hostfile(input: Input, sets: &[PodSet], mpi: &MpiOutcome) -> String {
    let mut out = String::new();
    for ps in hostfile_sets(sets, mpi) {
        for host in endpoints(input, &ps.name, ps.runtime_replicas, ps.count) {
            out.push_str(&host_line(&host, mpi));
        }
    }
    out
}

/// The bytes of [`hostfile`], counted without writing it: every line is the line of an address
/// without its two indices, plus the indices' digits.
pub(super) fn hostfile_bytes(input: Input, sets: &[PodSet], mpi: &MpiOutcome) -> u64 {
    let (job, sub) = (job_name(input), subdomain(input));
    let mut bytes = 0;
    for ps in hostfile_sets(sets, mpi) {
        let shared = host_line(&endpoint(&job, &ps.name, "", "", &sub), mpi).len() as u64;
        let (replicas, count) = (u64::from(ps.runtime_replicas), u64::from(ps.count));
        bytes += replicas * count * shared
            + count * super::digits_of_indices(ps.runtime_replicas)
            + replicas * super::digits_of_indices(ps.count);
    }
    bytes
}

/// The controller's error for a hostfile of `bytes`, past what one ConfigMap holds.
pub(super) fn hostfile_too_large(bytes: u64) -> Rejection {
    Rejection::message("spec.trainer.numNodes", format!("{} (controller error)", hostfile_refused(bytes)))
}

/// What the controller does with a hostfile of `bytes`, past what one ConfigMap holds: explain's
/// controller error, and the reason migrate refuses an MPIJob whose TrainJob would get one.
pub(crate) fn hostfile_refused(bytes: u64) -> String {
    format!(
        "the MPI plugin writes the ConfigMap <trainjob>-mpi-hostfile, one line per node pod, here {bytes} bytes, \
         and the API server refuses a ConfigMap holding more than {} bytes (ValidateConfigMap): every reconcile \
         fails applying it and is retried with backoff (pkg/controller/trainjob_controller.go:142-152 @v2.3.0); \
         whether the JobSet is applied before it follows the order of the plugins, which is Go's random map \
         order at each controller start (pkg/runtime/framework/core/framework.go:59-84 @v2.3.0): either no \
         pod is created, or the nodes start and the launcher never does, its hostfile volume missing",
        super::CONFIGMAP_DATA_LIMIT
    )
}

pub(super) fn objects(input: Input, release: Release, sets: &[PodSet], mpi: Option<&MpiOutcome>) -> Vec<Object> {
    let name = job_name(input);
    let mut out = vec![];
    if release.controller.runtime_snapshot {
        // pkg/runtime/core/snapshot.go:33-36,100-126 and trainingruntime.go:88-106 (and
        // clustertrainingruntime.go): the first reconcile copies the runtime; every later one reads
        // the copy, so editing the runtime afterwards does not change this job. New in v2.3.0:
        // before, every reconcile reads the runtime itself.
        out.push(
            object(
                "ConfigMap",
                format!("{name}-runtime-snapshot"),
                CONTROLLER,
                "first reconcile, before anything else; later reconciles read it instead of the runtime",
                None,
            )
            .described(&[(
                "runtime",
                &format!("the {} `{}` as YAML", runtime_kind(input), input.job.spec.runtime_ref.name),
            )]),
        );
    }
    // jobset.go:325-436; :338-342 once it exists, it is re-applied only while the TrainJob or
    // the JobSet is suspended (the same check at v2.0.1, jobset.go:253-264).
    let when = if release.controller.runtime_snapshot {
        "first reconcile, after the snapshot; re-applied only while the TrainJob or the JobSet is suspended"
    } else {
        "first reconcile, from the runtime as it is then; re-applied only while the TrainJob or the JobSet is suspended"
    };
    out.push(object("JobSet", name.clone(), "Trainer controller (JobSet plugin)", when, None));
    if let Some(mpi) = mpi {
        // mpi.go:265-310: created once (immutable), an ECDSA P-521 key pair.
        out.push(
            object(
                "Secret",
                format!("{name}-mpi-ssh-auth"),
                "Trainer controller (MPI plugin)",
                "first reconcile; never updated (immutable)",
                None,
            )
            .described(&[
                ("ssh-privatekey", "an ECDSA P-521 key generated at creation (PEM)"),
                ("ssh-publickey", "its public key (authorized_keys format)"),
            ]),
        );
        // mpi.go:276,316-342, mounted at /etc/mpi/hostfile on the launcher. Applied with the same
        // content on every reconcile: the node pods' names are known before any runs (unlike the
        // V1 MPI operators' discover_hosts.sh), so nothing is rewritten as pods start.
        out.push(object(
            "ConfigMap",
            format!("{name}-mpi-hostfile"),
            "Trainer controller (MPI plugin)",
            "every reconcile, with the JobSet",
            Some([("hostfile".to_string(), hostfile(input, sets, mpi))].into_iter().collect()),
        ));
    }
    out.extend(super::podgroup::objects(input, sets));
    out.extend(super::flux::objects(input, release, sets));
    // JobSet's own controller: the headless Service behind every hostname.
    out.push(object(
        "Service",
        subdomain(input),
        "JobSet controller",
        "when the JobSet is created (headless; gives each pod its hostname)",
        None,
    ));
    // A claim the runtime's pods mount by name (v2.0-v2.1 TorchTune runtimes): nobody in the
    // cluster makes it, the reader creates it before the TrainJob.
    for claim in claimed_volumes(input) {
        out.push(object(
            "PersistentVolumeClaim",
            claim,
            "you, before the TrainJob (the runtime mounts it by name)",
            "must exist before the pods start; shared by every TrainJob on this runtime",
            None,
        ));
    }
    for template in claim_templates(input) {
        out.push(object(
            "PersistentVolumeClaim",
            template,
            "JobSet controller (volumeClaimPolicies)",
            "when the JobSet is created; the initializers download into it and the trainer reads it (the claim is named from this template by JobSet)",
            None,
        ));
    }
    out
}

fn runtime_kind(input: Input) -> &'static str {
    match input.job.spec.runtime_ref.kind.as_deref() {
        Some("TrainingRuntime") => "TrainingRuntime",
        _ => "ClusterTrainingRuntime",
    }
}

/// The `persistentVolumeClaim.claimName`s the runtime's pod templates mount, once each.
fn claimed_volumes(input: Input) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for rjob in &input.runtime.spec.template.spec.replicated_jobs {
        for volume in &rjob.template.spec.template.spec.volumes {
            let Value::Object(v) = volume else { continue };
            let Some(Value::Object(pvc)) = v.get("persistentVolumeClaim") else { continue };
            if let Some(Value::String(claim)) = pvc.get("claimName") {
                if !out.contains(claim) {
                    out.push(claim.clone());
                }
            }
        }
    }
    out
}

/// The names of the runtime's `volumeClaimPolicies` templates.
fn claim_templates(input: Input) -> Vec<String> {
    let mut out = Vec::new();
    for policy in &input.runtime.spec.template.spec.volume_claim_policies {
        let Value::Object(p) = policy else { continue };
        let Some(Value::Array(templates)) = p.get("templates") else { continue };
        for t in templates {
            if let Value::Object(t) = t {
                if let Some(Value::Object(meta)) = t.get("metadata") {
                    if let Some(Value::String(n)) = meta.get("name") {
                        out.push(n.clone());
                    }
                }
            }
        }
    }
    out
}

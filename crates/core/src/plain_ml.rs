//! The plain-ML runtime a TFJob or PaddleJob moves to, as facts both of its writers share: the
//! migrator (`migrate::convert::roles`, which converts a user's job and reports every field) and
//! the panes (`snippets::generated`, which show the same objects for the widget's job). Feature
//! free, so the widget renders the V2 side without the converter.
//!
//! Trainer ships no runtime or mlPolicy for either framework (trainer#2699 deprecated distributed
//! TensorFlow; PaddlePaddle never had one), so the runtime is the release's torch runtime without
//! its framework: Trainer's PlainML plugin (v2.3.0:pkg/runtime/framework/plugins/plainml/plainml.go:46-68)
//! gives the trainer job the TrainJob's count and env and nothing else. The contract the training
//! code reads, `TF_CONFIG` or the `PADDLE_*` variables, is written as Training Operator v1.9 wrote
//! it: each pod's index is `JOB_COMPLETION_INDEX` from the downward API (JobSet makes every Job
//! Indexed) and later variables expand it with `$(JOB_COMPLETION_INDEX)`. Hostnames are JobSet's
//! (`<job>-<replicatedJob>-<jobIndex>-<podIndex>.<subdomain>`), ports V1's.

use crate::model::pod::EnvVar;
use crate::model::v2::{MlPolicy, TrainingRuntime};
use crate::selection::RuntimeScope;
use crate::snippets::runtimes::FRAMEWORK_LABEL;
use explorer_data::catalog::V1Kind;

/// constants.go:297 `JobCompletionIndexFieldPath` (v2.3.0:pkg/constants/constants.go): the
/// downward-API path of a pod's index in its Indexed Job.
pub const COMPLETION_INDEX: &str = "metadata.annotations['batch.kubernetes.io/job-completion-index']";

/// The variable each pod reads its index from (the Job controller's own name for it).
pub const INDEX_VAR: &str = "JOB_COMPLETION_INDEX";

/// The shell script that wraps the command of a PaddleJob's leader (the Master, else the
/// Workers): `paddle.distributed.launch` starts its rendezvous server only where PADDLE_MASTER's
/// host is the pod's own IP (paddle/distributed/launch/controllers/master.py, HTTPMaster), which
/// is why v1.9 gives the leader's first pod `$(POD_IP_DUMMY):port`
/// (training-operator v1.9.0:pkg/controller.v1/paddlepaddle/envvar.go:74-100). One template cannot hold a value for
/// one pod only, so the first pod's shell sets it, then `exec`s the container's own command and
/// arguments unchanged (the same process, so signals reach it).
pub fn paddle_leader_script(port: &str) -> String {
    // format!, not a `{port}` placeholder and str::replace: a `&str` pattern links the standard
    // library's two-way string searcher (about 2 KB) into the widget.
    format!(r#"if [ "$JOB_COMPLETION_INDEX" = 0 ]; then export PADDLE_MASTER="$POD_IP_DUMMY:{port}"; fi; exec "$@""#)
}
/// `$0` of the wrapper's shell.
pub const PADDLE_LEADER_ARG0: &str = "paddle-leader";

/// One role of the job as the generated runtime runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoleJob {
    /// V1's replica type (`Worker`, `PS`, ...).
    pub rtype: String,
    /// How many pods run the role (V1's `replicas`).
    pub count: u32,
    /// The replicated job: `node` for the trainer's role, else the type in lower case.
    pub rjob: String,
    /// The port V1 gave the role, which the training code may read from its environment.
    pub port: i64,
}

/// The scope of every runtime generated for a job (migrate's, and the TensorFlow and PaddlePaddle
/// panes'): a namespaced TrainingRuntime beside the job, which its TrainJob references by that
/// kind. The runtime is the job's own, so no scope is offered for it.
pub const RUNTIME_SCOPE: RuntimeScope = RuntimeScope::Namespaced;

/// Why a generated runtime has no scope to pick, for a reader who looks for the switch.
pub const RUNTIME_SCOPE_REASON: &str = "migrate writes this runtime for one job (it is named after the job, and \
     its pods are told the job's own hosts), so it is a TrainingRuntime in the job's namespace, not a \
     ClusterTrainingRuntime every namespace shares";

/// The name of the runtime generated for job `job`.
pub fn runtime_name(job: &str) -> String {
    format!("{job}-runtime")
}

/// Each pod's `host:port` in role `r` of job `job` (JobSet's hostnames; the subdomain is the
/// JobSet's name, the TrainJob's).
pub fn hosts(job: &str, r: &RoleJob) -> Vec<String> {
    // Pushed, not collected (see `cluster_json`).
    let mut hosts = Vec::new();
    for i in 0..r.count {
        hosts.push(format!("{job}-{}-0-{i}.{job}:{}", r.rjob, r.port));
    }
    hosts
}

/// The role whose first pod leads a PaddleJob: the Master, else the Workers.
pub fn paddle_leader(roles: &[RoleJob]) -> Option<&RoleJob> {
    roles.iter().find(|r| r.rtype == "Master").or_else(|| roles.iter().find(|r| r.rtype == "Worker"))
}

/// The variables every container of role `r` reads, as v1.9 wrote them: for a TFJob `TF_CONFIG`
/// (training-operator v1.9.0:pkg/controller.v1/tensorflow/tensorflow.go:112-188), none when the
/// job has one pod in all (tfjob_controller.go:561-564, util.go:74-95); for a PaddleJob the
/// `PADDLE_*` variables (v1.9.0:pkg/controller.v1/paddlepaddle/envvar.go:40-144).
pub fn contract_env(kind: V1Kind, job: &str, roles: &[RoleJob], r: &RoleJob) -> Vec<EnvVar> {
    let total: u32 = roles.iter().map(|r| r.count).sum();
    if kind == V1Kind::TfJob {
        if total == 1 {
            return vec![];
        }
        let cluster = cluster_json(job, roles);
        let config = format!(
            r#"{{"cluster":{cluster},"task":{{"type":"{}","index":$({INDEX_VAR})}},"environment":"cloud"}}"#,
            r.rtype.to_ascii_lowercase()
        );
        return vec![index_env(), EnvVar::new("TF_CONFIG", &config)];
    }
    let mut vars = vec![
        EnvVar::new("PYTHONUNBUFFERED", "1"),
        EnvVar::new("PADDLE_JOB_ID", job),
        EnvVar::new("PADDLE_NNODES", &crate::text::decimal(total.into())),
    ];
    if let Some(l) = paddle_leader(roles) {
        if l.rtype == r.rtype {
            // For the wrapper: which pod this is, and its IP.
            vars.push(index_env());
            vars.push(EnvVar {
                name: "POD_IP_DUMMY".into(),
                value: None,
                value_from: Some(crate::tree!({"fieldRef": {"fieldPath": "status.podIP"}})),
            });
        }
        vars.push(EnvVar::new("PADDLE_MASTER", &format!("{job}-{}-0-0.{job}:{}", l.rjob, l.port)));
        if l.rtype == "Master" {
            let name = if r.rtype == "Master" { "PADDLE_SERVER_NUM" } else { "PADDLE_TRAINER_NUM" };
            vars.push(EnvVar::new(name, "1"));
        }
    }
    vars
}

/// TF_CONFIG's `cluster`: each task type with its pods' addresses, the types in the order of
/// their names, as serde_json wrote a map's keys (listed, not sorted: a sort links more code).
/// Written by hand for the widget, which renders it too: serde_json's serializer and
/// `str::to_lowercase`'s Unicode tables cost it about 14 KB gzipped together (measured with
/// scripts/wasm-opt.sh). Every part is a lower-case type, an RFC 1035 job name (a TrainJob's
/// name is one; `migrate` renames others), digits and `.-:`, so nothing needs escaping;
/// crates/core/tests/it/migrate_tf_paddle.rs and the pod comparison parse it as JSON.
/// Written into one string as it goes: the lists of entries and of quoted hosts it collected
/// before, to join, were 1.8 KB of the widget's wasm.
fn cluster_json(job: &str, roles: &[RoleJob]) -> String {
    const BY_NAME: [&str; 5] = ["Chief", "Evaluator", "Master", "PS", "Worker"];
    let mut json = String::from("{");
    for rtype in BY_NAME {
        for r in roles.iter().filter(|r| r.rtype == rtype) {
            if json.len() > 1 {
                json.push(',');
            }
            json.push('"');
            json.push_str(&r.rtype.to_ascii_lowercase());
            json.push_str("\":[");
            for (i, host) in hosts(job, r).iter().enumerate() {
                if i > 0 {
                    json.push(',');
                }
                json.push('"');
                json.push_str(host);
                json.push('"');
            }
            json.push(']');
        }
    }
    json.push('}');
    json
}

/// The leader's command wrapped by [`paddle_leader_script`].
pub fn paddle_leader_command(command: &[String], port: i64) -> Vec<String> {
    let script = paddle_leader_script(&crate::text::decimal(port));
    // Extended, not chained and collected: that collecting code was 0.8 KB of the widget's wasm.
    let mut wrapped = vec!["sh".to_string(), "-c".into(), script, PADDLE_LEADER_ARG0.into()];
    wrapped.extend_from_slice(command);
    wrapped
}

/// `JOB_COMPLETION_INDEX` from the pod's completion-index annotation.
pub fn index_env() -> EnvVar {
    EnvVar {
        name: INDEX_VAR.into(),
        value: None,
        value_from: Some(crate::tree!({"fieldRef": {"fieldPath": COMPLETION_INDEX}})),
    }
}

/// A copy of the release's torch runtime made plain: no framework label, an mlPolicy with only
/// `numNodes`, and only its `node` job (which keeps the ancestor label that makes it the
/// trainer's).
pub fn make_plain(rt: &mut TrainingRuntime, nodes: u32) {
    rt.metadata.labels.remove(FRAMEWORK_LABEL);
    rt.spec.ml_policy = Some(MlPolicy { num_nodes: Some(nodes), ..Default::default() });
    rt.spec.template.spec.replicated_jobs.retain(|j| j.name == "node");
}

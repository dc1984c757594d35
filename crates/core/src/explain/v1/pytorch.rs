//! PyTorchJob: `SetClusterSpec` is `setPodEnv` then `setInitContainer`
//! (training-operator v1.9.0:pkg/controller.v1/pytorch/pytorchjob_controller.go:489-497).

use super::{append_env_to_each, env, named_port, Error, Job};
use crate::explain::Object;
use crate::model::pod::{Container, EnvVar, PodTemplateSpec, Resources};
use serde_json::Value as Json;

/// pytorch_types.go:25,27.
const CONTAINER: &str = "pytorch";
const PORT_NAME: &str = "pytorchjob-port";
/// The operator's defaults for the worker's init container (pkg/config/config.go:28,33;
/// cmd/training-operator.v1/main.go:100-105).
pub(super) const INIT_IMAGE: &str = "alpine:3.10";
const INIT_TRIES: u32 = 100;

/// `spec.nprocPerNode` after defaulting: `auto` unless an elastic policy sets `nProcPerNode`
/// (pytorch_defaults.go:22-23,68-74).
fn nproc_per_node(job: &Job) -> Option<String> {
    let elastic_nproc = job.spec.get("elasticPolicy").and_then(|e| e.get("nProcPerNode")).is_some();
    match job.spec.get("nprocPerNode") {
        Some(Json::String(s)) => Some(s.clone()),
        Some(Json::Number(n)) => Some(n.to_string()),
        _ if elastic_nproc => None,
        _ => Some("auto".into()),
    }
}

pub(super) fn set_cluster_spec(job: &Job, rtype: &str, index: u32, pod: &mut PodTemplateSpec) -> Result<(), Error> {
    let vars = pod_env(job, rtype, index)?;
    // envvar.go:49: every container of the pod, not only `pytorch`.
    append_env_to_each(&mut pod.spec.containers, vars);
    // initcontainer.go:116-134: with a Master, each Worker first waits until the master's name
    // resolves.
    if job.replica("Master").is_some() && rtype == "Worker" {
        pod.spec.init_containers.push(init_container(&job.replica_name("Master", 0)));
    }
    Ok(())
}

/// envvar.go:43-127 for one pod.
pub(super) fn pod_env(job: &Job, rtype: &str, index: u32) -> Result<Vec<EnvVar>, Error> {
    // envvar.go:56-60.
    let mut vars = vec![env("PYTHONUNBUFFERED", "1")];
    let nproc = nproc_per_node(job);
    // envvar.go:62-64,129-140: a number, else 1 ("auto" counts as 1).
    let nproc_int = nproc.as_deref().and_then(|n| n.parse::<i64>().ok()).unwrap_or(1);
    let total = i64::from(job.total());
    if job.replica("Master").is_some() {
        // master.go:36-59: the Master's `pytorchjob-port` and its Service's name.
        let port = named_port(job, "Master", CONTAINER, PORT_NAME).ok_or_else(|| Error::NoPort {
            replica: "Master".into(),
            container: CONTAINER,
            port: PORT_NAME,
            upstream: Some("port not found"),
        })?;
        let addr = job.replica_name("Master", 0);
        vars.extend([
            env("MASTER_PORT", port),
            env("PET_MASTER_PORT", port),
            env("MASTER_ADDR", &addr),
            env("PET_MASTER_ADDR", &addr),
        ]);
        // envvar.go:77-96: a Worker's rank follows the one Master.
        let rank = if rtype == "Worker" { index + 1 } else { index };
        vars.extend([env("WORLD_SIZE", total * nproc_int), env("RANK", rank), env("PET_NODE_RANK", rank)]);
    }
    // envvar.go:99-104.
    if let Some(n) = &nproc {
        vars.push(env("PET_NPROC_PER_NODE", n));
    }
    match job.spec.get("elasticPolicy").and_then(Json::as_object) {
        Some(elastic) => vars.extend(elastic_env(job, elastic)?),
        // envvar.go:117-122.
        None => vars.push(env("PET_NNODES", total)),
    }
    Ok(vars)
}

fn int(v: Option<&Json>) -> Option<i64> {
    v.and_then(Json::as_i64)
}

/// elastic.go:68-122, after `setElasticPolicy` (pytorch_defaults.go:38-55) filled min and max.
fn elastic_env(job: &Job, elastic: &serde_json::Map<String, Json>) -> Result<Vec<EnvVar>, Error> {
    let workers = i64::from(job.count("Worker"));
    let (min, max) = match (int(elastic.get("minReplicas")), int(elastic.get("maxReplicas"))) {
        (Some(a), Some(b)) => (a, b),
        (None, Some(b)) => (b, b),
        (Some(a), None) => (a, a),
        (None, None) => (workers, workers),
    };
    // elastic.go:146-169: rdzvHost else `<job>-worker-0`; rdzvPort else the Worker's port.
    let host =
        elastic.get("rdzvHost").and_then(Json::as_str).map_or_else(|| job.replica_name("Worker", 0), String::from);
    let port = match int(elastic.get("rdzvPort")) {
        Some(p) => p,
        None => named_port(job, "Worker", CONTAINER, PORT_NAME).ok_or(Error::NoRendezvousPort)?,
    };
    let mut vars = vec![
        env("PET_RDZV_ENDPOINT", format!("{host}:{port}")),
        // elastic.go:186-197: c10d by default.
        env("PET_RDZV_BACKEND", elastic.get("rdzvBackend").and_then(Json::as_str).unwrap_or("c10d")),
        // elastic.go:124-144.
        env("PET_NNODES", format!("{min}:{max}")),
    ];
    if let Some(n) = int(elastic.get("maxRestarts")) {
        vars.push(env("PET_MAX_RESTARTS", n));
    }
    if let Some(n) = int(elastic.get("nProcPerNode")) {
        vars.push(env("PET_NPROC_PER_NODE", n));
    }
    if let Some(id) = elastic.get("rdzvId").and_then(Json::as_str) {
        vars.push(env("PET_RDZV_ID", id));
    }
    // elastic.go:171-184: `key=value` pairs joined by commas.
    if let Some(Json::Array(conf)) = elastic.get("rdzvConf") {
        let text = |c: &Json, k: &str| c.get(k).map(|v| v.as_str().map_or_else(|| v.to_string(), String::from));
        let pairs: Vec<String> = conf
            .iter()
            .map(|c| format!("{}={}", text(c, "key").unwrap_or_default(), text(c, "value").unwrap_or_default()))
            .collect();
        if !pairs.is_empty() {
            vars.push(env("PET_RDZV_CONF", pairs.join(",")));
        }
    }
    if elastic.get("standalone").and_then(Json::as_bool) == Some(true) {
        vars.push(env("PET_STANDALONE", ""));
    }
    Ok(vars)
}

/// initcontainer.go:35-46: `init-pytorch` waits for the master's DNS name.
fn init_container(master: &str) -> Container {
    let mut c = Container::new("init-pytorch", INIT_IMAGE);
    c.image_pull_policy = Some("IfNotPresent".into());
    c.command = vec![
        "sh".into(),
        "-c".into(),
        format!(
            "err=1;for i in $(seq {INIT_TRIES}); do if nslookup {master}; then err=0 && break; fi;echo waiting for master; sleep 2; done; exit $err"
        ),
    ];
    let mut r = Resources::default();
    r.limits.insert("cpu".into(), "100m".into());
    r.limits.insert("memory".into(), "20Mi".into());
    r.requests.insert("cpu".into(), "50m".into());
    r.requests.insert("memory".into(), "10Mi".into());
    c.resources = Some(r);
    c
}

/// hpa.go:33-102: with `elasticPolicy.metrics` the controller creates a HorizontalPodAutoscaler
/// (autoscaling/v2) of the job's name that scales the PyTorchJob itself between the elastic
/// policy's bounds on those metrics, before the pods (pytorchjob_controller.go:158). Not while
/// the job is suspended (hpa.go:53-56; a suspended job's HPA is deleted, :63-67).
pub(super) fn autoscaler(job: &Job, operator: &str) -> Option<Object> {
    let elastic = job.spec.get("elasticPolicy")?;
    let metrics = elastic.get("metrics").filter(|m| !m.is_null())?;
    let suspended = job.spec.get("runPolicy").and_then(|r| r.get("suspend")) == Some(&Json::Bool(true));
    if suspended {
        return None;
    }
    // pytorch_defaults.go:38-54: a bound alone gives the other; neither gives the Worker count
    // (the webhook requires a Worker with an elastic policy, pytorchjob_webhook.go:96-100).
    let bound = |key: &str| elastic.get(key).and_then(Json::as_i64);
    let workers = job.replica("Worker").and_then(|w| w.replicas).map(i64::from);
    let (min, max) = match (bound("minReplicas"), bound("maxReplicas")) {
        (Some(min), Some(max)) => (Some(min), Some(max)),
        (None, Some(max)) => (Some(max), Some(max)),
        (Some(min), None) => (Some(min), Some(min)),
        (None, None) => (workers, workers),
    };
    let mut spec = serde_json::json!({
        // hpa.go:88-92: the job's own kind and apiVersion, as the controller read it (its
        // cache reader sets them on every object it returns).
        "scaleTargetRef": {"kind": "PyTorchJob", "name": job.name, "apiVersion": "kubeflow.org/v1"},
        "maxReplicas": max,
        "metrics": metrics,
    });
    // `minReplicas` is omitempty in autoscaling/v2.
    if let Some(min) = min {
        spec["minReplicas"] = min.into();
    }
    let mut hpa = Object::new(
        "HorizontalPodAutoscaler",
        job.name.clone(),
        operator,
        "first reconcile, before the pods (elasticPolicy.metrics set); updated when the policy changes, deleted while the job is suspended",
    );
    hpa.spec = Some(spec);
    Some(hpa)
}

//! TFJob: `TF_CONFIG` on the `tensorflow` container only
//! (training-operator v1.9.0:pkg/controller.v1/tensorflow/tfjob_controller.go:555-588).

use super::{env, named_port, Error, Job};
use crate::model::pod::PodTemplateSpec;
use serde_json::{json, Map, Value as Json};

/// tensorflow_types.go:24,26.
const CONTAINER: &str = "tensorflow";
const PORT_NAME: &str = "tfjob-port";

/// tensorflow/util.go:74-95: more than one replica in all (a missing `replicas` counts one).
fn is_distributed(job: &Job) -> bool {
    job.total() != 1
}

pub(super) fn set_cluster_spec(job: &Job, rtype: &str, index: u32, pod: &mut PodTemplateSpec) -> Result<(), Error> {
    if !is_distributed(job) {
        return Ok(());
    }
    let config = tf_config(job, rtype, index)?;
    // tfjob_controller.go:575-585: the first container named `tensorflow`.
    if let Some(c) = pod.spec.containers.iter_mut().find(|c| c.name == CONTAINER) {
        c.env.push(env("TF_CONFIG", config));
    }
    Ok(())
}

/// tensorflow.go:112-188. Each endpoint is `<job>-<type>-<i>.<namespace>.svc:<port>` (the
/// operator adds `.$CUSTOM_CLUSTER_DOMAIN` when its own env sets one; by default it does not).
/// Go marshals the cluster map with its keys sorted, the structs in field order.
pub(super) fn tf_config(job: &Job, rtype: &str, index: u32) -> Result<String, Error> {
    let mut sorted = std::collections::BTreeMap::new();
    for (t, spec) in &job.replicas {
        let port = named_port(job, t, CONTAINER, PORT_NAME).ok_or_else(|| Error::NoPort {
            replica: t.clone(),
            container: CONTAINER,
            port: PORT_NAME,
            upstream: None,
        })?;
        let endpoints: Vec<Json> = (0..spec.replicas.unwrap_or(0))
            .map(|i| json!(format!("{}.{}.svc:{port}", job.replica_name(t, i), job.namespace)))
            .collect();
        sorted.insert(super::defaults::lower(t), Json::Array(endpoints));
    }
    let cluster: Map<String, Json> = sorted.into_iter().collect();
    let rt = super::defaults::lower(rtype);
    let dynamic = job.spec.get("enableDynamicWorker").and_then(Json::as_bool) == Some(true);
    let value = if dynamic {
        // :74-83,125-134 `SparseClusterSpec`: a PS sees itself, a Worker every PS and itself.
        let entry = |t: &str| cluster.get(t).and_then(|v| v.get(index as usize)).cloned();
        let ps = match rt.as_str() {
            "ps" => entry("ps").into_iter().collect(),
            "worker" => cluster.get("ps").and_then(Json::as_array).cloned().unwrap_or_default(),
            _ => vec![],
        };
        let mut worker = Map::new();
        if rt == "worker" {
            if let Some(e) = entry("worker") {
                worker.insert(index.to_string(), e);
            }
        }
        json!({"cluster": {"worker": worker, "ps": ps}, "task": {"type": rt, "index": index}})
    } else {
        json!({"cluster": cluster, "task": {"type": rt, "index": index}, "environment": "cloud"})
    };
    // A JSON tree always prints (its Display is serde_json::to_string's compact form).
    Ok(value.to_string())
}

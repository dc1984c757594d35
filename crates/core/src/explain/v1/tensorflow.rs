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

/// The fewest bytes of the TF_CONFIG each pod of `rtype` gets, counted without building it: the
/// endpoints [`tf_config`] lists for that pod, each quoted, with the commas between them (the
/// rest of the value only adds to it). `None` where the pod gets no TF_CONFIG (a job of one pod, or
/// no container named `tensorflow`) or the operator fails on a missing port first (`tf_config`
/// says so).
pub(super) fn least_tf_config_bytes(job: &Job, rtype: &str) -> Option<u64> {
    let spec = job.replica(rtype)?;
    if !is_distributed(job) || !spec.template.spec.containers.iter().any(|c| c.name == CONTAINER) {
        return None;
    }
    let dynamic = job.spec.get("enableDynamicWorker").and_then(Json::as_bool) == Some(true);
    let own = super::defaults::lower(rtype);
    let mut bytes: u64 = 0;
    for (t, spec) in &job.replicas {
        let port = named_port(job, t, CONTAINER, PORT_NAME)?;
        let count = spec.replicas.unwrap_or(0);
        let listed = if dynamic {
            // `SparseClusterSpec` (tensorflow.go:74-83): a Worker lists every PS and itself, a PS itself.
            match (own.as_str(), super::defaults::lower(t).as_str()) {
                ("worker", "ps") => count,
                ("worker" | "ps", _) if t == rtype => count.min(1),
                _ => 0,
            }
        } else {
            count
        };
        // `"<job>-<type>-<i>.<namespace>.svc:<port>"` and a comma: the index's digits vary.
        let fixed = job.replica_name(t, 0).len() - 1 + 1 + job.namespace.len() + ".svc:".len() + port.to_string().len();
        bytes += u64::from(listed) * (fixed as u64 + 3) + super::digits_of_indices(listed);
    }
    Some(bytes.saturating_sub(1))
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
            .map(|i| {
                #[cfg(test)]
                tests::ENDPOINTS_BUILT.with(|n| n.set(n.get() + 1));
                json!(format!("{}.{}.svc:{port}", job.replica_name(t, i), job.namespace))
            })
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

#[cfg(test)]
mod tests {
    use super::super::{explain, operate, read, Error, PODS_MODELLED};
    use super::*;
    use crate::explain::ETCD_REQUEST_LIMIT;
    use std::cell::Cell;

    thread_local! {
        /// The TF_CONFIG endpoints `tf_config` built on this thread (each test runs on its own).
        pub(super) static ENDPOINTS_BUILT: Cell<u64> = const { Cell::new(0) };
    }

    fn tf_job(specs: &[(&str, u32)], extra: &str) -> Json {
        let mut replicas = Map::new();
        for (rtype, n) in specs {
            let template = json!({"spec": {"containers": [{"name": "tensorflow", "image": "tf:2.16"}]}});
            replicas.insert(rtype.to_string(), json!({"replicas": n, "template": template}));
        }
        let mut spec = json!({"tfReplicaSpecs": replicas});
        if extra == "dynamic" {
            spec["enableDynamicWorker"] = json!(true);
        }
        json!({"apiVersion": "kubeflow.org/v1", "kind": "TFJob", "metadata": {"name": "mnist", "namespace": "ml"}, "spec": spec})
    }

    /// The count is a lower bound of what `tf_config` writes, short only by the text around the
    /// endpoints (the types' keys, the task, the environment).
    #[test]
    fn the_bytes_counted_are_at_most_the_tf_config_built() {
        let jobs = [
            tf_job(&[("PS", 2), ("Worker", 11)], ""),
            tf_job(&[("Worker", 1_001)], ""),
            tf_job(&[("Chief", 1), ("Worker", 105), ("Evaluator", 1)], ""),
            tf_job(&[("PS", 3), ("Worker", 12)], "dynamic"),
        ];
        for doc in &jobs {
            let (_, job) = read(doc).unwrap();
            for (rtype, _) in &job.replicas {
                let least = least_tf_config_bytes(&job, rtype).unwrap();
                for index in [0, 1] {
                    let built = tf_config(&job, rtype, index).unwrap().len() as u64;
                    assert!(least <= built && built - least <= 200, "{rtype} {index}: {least} of {built}\n{doc}");
                }
            }
        }
        assert_eq!(super::super::digits_of_indices(0), 0);
        assert_eq!(super::super::digits_of_indices(10), 10);
        assert_eq!(super::super::digits_of_indices(101), 10 + 180 + 3);
    }

    /// A TFJob of 150,000 pods (the most explain::MAX_PODS allows) built 16 pods of each type
    /// with a TF_CONFIG of 150,000 addresses each, 2.4 million endpoints and more, for pods the
    /// API server cannot store: now it is answered with none built. One under the limit is still
    /// built for the pods modelled.
    #[test]
    fn a_tfjob_past_etcds_limit_is_answered_without_building_its_addresses() {
        let doc = tf_job(&[("PS", 1), ("Worker", 149_999)], "");
        ENDPOINTS_BUILT.with(|n| n.set(0));
        match operate(&doc) {
            Err(e @ Error::PodTooLarge { .. }) => {
                let said = e.to_string();
                assert!(said.starts_with("spec.tfReplicaSpecs.PS: the TFJob controller gives each"), "{said}");
                assert!(said.contains("a TF_CONFIG listing every pod's address, at least 4988"), "{said}");
            }
            Err(other) => panic!("{other}"),
            Ok(op) => panic!("built {} roles", op.roles.len()),
        }
        assert!(explain(&doc).rejected[0].detail.contains("etcd refuses a request over 1572864 bytes"));
        assert_eq!(ENDPOINTS_BUILT.with(Cell::get), 0, "endpoints built");

        // 40,000 Workers: a TF_CONFIG under the limit, built for the pods modelled.
        let doc = tf_job(&[("Worker", 40_000)], "");
        ENDPOINTS_BUILT.with(|n| n.set(0));
        let op = operate(&doc).unwrap();
        assert_eq!(ENDPOINTS_BUILT.with(Cell::get), 40_000 * u64::from(PODS_MODELLED));
        let config = op.roles[0].env(0, 0).find(|e| e.name == "TF_CONFIG").and_then(|e| e.value.clone()).unwrap();
        assert!((config.len() as u64) < ETCD_REQUEST_LIMIT, "{}", config.len());
    }
}

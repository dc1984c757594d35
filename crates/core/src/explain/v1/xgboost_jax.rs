//! JAXJob and XGBoostJob: each sets one list of variables on every container of the pod.

use super::{append_env, env, named_port, Error, Job};
use crate::model::pod::PodTemplateSpec;

/// jax/envvar.go:37-79 (`SetClusterSpec`, jax/jaxjob_controller.go:443-451). The coordinator is
/// Worker 0's Service and the Worker's `jaxjob-port`; the address carries no port.
pub(super) fn jax_env(job: &Job, index: u32, pod: &mut PodTemplateSpec) -> Result<(), Error> {
    let coordinator = job.replica_name("Worker", 0);
    // jax_types.go:23,25; envvar.go:94-107.
    let port = named_port(job, "Worker", "jax", "jaxjob-port")
        .ok_or_else(|| no_port("Worker", "jax", "jaxjob-port", Some("default container port is not exposed")))?;
    let total = job.total();
    for c in pod.spec.containers.iter_mut() {
        append_env(
            c,
            [
                env("PYTHONUNBUFFERED", "1"),
                env("COORDINATOR_PORT", port),
                env("COORDINATOR_ADDRESS", &coordinator),
                env("NUM_PROCESSES", total),
                env("PROCESS_ID", index),
            ],
        );
    }
    Ok(())
}

/// xgboost/xgboost.go:31-111 (`SetClusterSpec`, xgboostjob_controller.go:439-441).
pub(super) fn xgboost_env(job: &Job, rtype: &str, index: u32, pod: &mut PodTemplateSpec) -> Result<(), Error> {
    // :42-47 a Worker's rank follows the Masters.
    let rank = if rtype == "Worker" { index + job.count("Master") } else { index };
    let master_addr = job.replica_name("Master", 0);
    // xgboost_types.go:26,28.
    let master_port = named_port(job, "Master", "xgboost", "xgboostjob-port")
        .ok_or_else(|| no_port("Master", "xgboost", "xgboostjob-port", Some("failed to found the port")))?;
    let total = job.total();
    // :58-71 with more than one replica, the Worker's port and every Worker's name but the last.
    let workers = if total > 1 {
        let port = named_port(job, "Worker", "xgboost", "xgboostjob-port")
            .ok_or_else(|| no_port("Worker", "xgboost", "xgboostjob-port", None))?;
        let addrs: Vec<String> = (0..total - 1).map(|i| job.replica_name("Worker", i)).collect();
        Some((port, addrs.join(",")))
    } else {
        None
    };
    for c in pod.spec.containers.iter_mut() {
        append_env(
            c,
            [
                env("MASTER_PORT", master_port),
                env("MASTER_ADDR", &master_addr),
                env("WORLD_SIZE", total),
                env("RANK", rank),
                env("PYTHONUNBUFFERED", "1"),
            ],
        );
        if let Some((port, addrs)) = &workers {
            append_env(c, [env("WORKER_PORT", *port), env("WORKER_ADDRS", addrs)]);
        }
    }
    Ok(())
}

/// The fewest bytes of the WORKER_ADDRS every pod of `rtype` carries, counted without building
/// it: each container gets its own copy of the names of Workers 0 to total - 2, comma-joined
/// (`xgboost_env`). `None` where no pod gets it (a job of one pod) or the operator fails on a
/// missing port first.
pub(super) fn least_worker_addrs_bytes(job: &Job, rtype: &str) -> Option<u64> {
    let containers = job.replica(rtype)?.template.spec.containers.len() as u64;
    let total = job.total();
    named_port(job, "Master", "xgboost", "xgboostjob-port")?;
    if total <= 1 {
        return None;
    }
    named_port(job, "Worker", "xgboost", "xgboostjob-port")?;
    let names = total - 1;
    // `<job>-worker-<i>` and a comma between two.
    let fixed = (job.replica_name("Worker", 0).len() - 1) as u64;
    let one = u64::from(names) * fixed + super::digits_of_indices(names) + u64::from(names) - 1;
    Some(containers * one)
}

fn no_port(replica: &str, container: &'static str, port: &'static str, upstream: Option<&'static str>) -> Error {
    Error::NoPort { replica: replica.into(), container, port, upstream }
}

#[cfg(test)]
mod tests {
    use super::super::{operate, read};
    use super::*;
    use serde_json::json;

    /// The count is the WORKER_ADDRS built, once per container.
    #[test]
    fn the_bytes_counted_are_the_worker_addrs_built() {
        for (workers, containers) in [(1, 1), (2, 1), (11, 2), (1_001, 1)] {
            let list: Vec<_> =
                (0..containers).map(|i| json!({"name": format!("xgboost{i}"), "image": "x:1"})).collect();
            let mut list = list;
            list[0]["name"] = json!("xgboost");
            let template = json!({"spec": {"containers": list}});
            let doc = json!({"apiVersion": "kubeflow.org/v1", "kind": "XGBoostJob", "metadata": {"name": "boost"},
                "spec": {"xgbReplicaSpecs": {"Master": {"replicas": 1, "template": template},
                                             "Worker": {"replicas": workers, "template": template}}}});
            let (_, job) = read(&doc).unwrap();
            let op = operate(&doc).unwrap();
            for role in &op.roles {
                let pod = role.pod(0).unwrap();
                let built: usize = pod
                    .spec
                    .containers
                    .iter()
                    .flat_map(|c| c.env.iter().filter(|e| e.name == "WORKER_ADDRS"))
                    .map(|e| e.value.as_deref().unwrap_or_default().len())
                    .sum();
                let least = least_worker_addrs_bytes(&job, &role.replica_type).unwrap();
                assert_eq!(least, built as u64, "{workers} Workers, {containers} containers, {}", role.replica_type);
            }
        }
    }
}

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
            append_env(c, [env("WORKER_PORT", port), env("WORKER_ADDRS", addrs)]);
        }
    }
    Ok(())
}

fn no_port(replica: &str, container: &'static str, port: &'static str, upstream: Option<&'static str>) -> Error {
    Error::NoPort { replica: replica.into(), container, port, upstream }
}

//! PaddleJob (training-operator v1.9.0:pkg/controller.v1/paddlepaddle/envvar.go:40-144, called
//! by `SetClusterSpec`, paddlepaddle_controller.go:489-495).

use super::{append_env_to_each, env, field_env, named_port, Job};
use crate::model::pod::{EnvVar, PodTemplateSpec};

/// paddlepaddle_types.go:25,27,29: a missing `master` port is 36543 (envvar.go:159-172).
fn port(job: &Job, rtype: &str) -> i64 {
    named_port(job, rtype, "paddle", "master").unwrap_or(36543)
}

pub(super) fn set_pod_env(job: &Job, rtype: &str, index: u32, pod: &mut PodTemplateSpec) {
    let vars = pod_env(job, rtype, index);
    append_env_to_each(&mut pod.spec.containers, vars);
}

fn pod_env(job: &Job, rtype: &str, index: u32) -> Vec<EnvVar> {
    let mut vars =
        vec![env("PYTHONUNBUFFERED", "1"), env("PADDLE_JOB_ID", &job.name), env("PADDLE_NNODES", job.total())];
    // :74-100 collective mode (no Master): Worker 0 is the rendezvous; :102-139 PS mode: Master 0.
    let leader = if job.replica("Master").is_some() { "Master" } else { "Worker" };
    let port = port(job, leader);
    if index == 0 && rtype == leader {
        vars.push(field_env("POD_IP_DUMMY", "status.podIP"));
        vars.push(env("PADDLE_MASTER", format!("$(POD_IP_DUMMY):{port}")));
    } else {
        vars.push(env("PADDLE_MASTER", format!("{}:{port}", job.replica_name(leader, 0))));
    }
    // :127-138 in PS mode each pod runs one server (Master) or one trainer.
    if leader == "Master" {
        vars.push(if rtype == "Master" { env("PADDLE_SERVER_NUM", "1") } else { env("PADDLE_TRAINER_NUM", "1") });
    }
    vars
}

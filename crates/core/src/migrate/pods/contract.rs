//! The TFJob's and PaddleJob's contract, checked pod by pod: the variables Training Operator
//! v1.9 wrote for each pod (`TF_CONFIG`, `PADDLE_MASTER`, ...) against what the kubelet gives the
//! same pod of the migrated job, where the generated runtime writes one value per replicated job
//! that expands `$(JOB_COMPLETION_INDEX)`. A difference is explained only when, for every pod
//! modelled, the V2 value after expansion is V1's with V1's Service names read as JobSet's
//! hostnames (the same task, cluster and ports); else it stays unexplained.

use super::facts::ContainerFacts;
use crate::explain::v1::{Operated, Role};
use crate::explain::{Explanation, COMPLETION_INDEX};
use crate::plain_ml::{paddle_leader_script, PADDLE_LEADER_ARG0};
use explorer_data::catalog::V1Kind;
use serde_json::Value as Json;
use std::collections::BTreeMap;

/// V1's short host names to V2's, looked up once per endpoint: a TF_CONFIG lists every pod, so a
/// search of the list for each of them grew with the square of the pods (30,000 Workers: 12 s).
type HostIndex<'a> = BTreeMap<&'a str, &'a str>;

/// The variables this check reads; the others are compared as they are.
const CHECKED: [&str; 3] = ["TF_CONFIG", "PADDLE_MASTER", "POD_IP_DUMMY"];

/// V1's short host names (`<job>-<type>-<i>`) to V2's (`<job>-<rjob>-0-<i>.<subdomain>`).
fn host_map(op: &Operated, v2: &Explanation, target_of: &dyn Fn(&str) -> String) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for role in &op.roles {
        let target = target_of(&role.replica_type);
        let Some(group) = v2.pods.iter().find(|p| p.replicated_job == target) else { continue };
        out.extend(role.hostnames.iter().cloned().zip(group.hostnames.iter().cloned()));
    }
    out
}

/// The value the kubelet gives `name` in pod `index`: a completion-index `fieldRef` is the
/// index, and `$(VAR)` expands a variable declared before it (the kubelet's rule; an unknown
/// reference stays as written).
pub(super) fn expanded(env: &[(String, String)], name: &str, index: u32) -> Option<String> {
    let at = env.iter().position(|(n, _)| n == name)?;
    let resolve = |v: &str| if v == format!("fieldRef:{COMPLETION_INDEX}") { index.to_string() } else { v.to_string() };
    let mut value = resolve(&env[at].1);
    for (n, v) in env[..at].iter().rev() {
        value = value.replace(&format!("$({n})"), &resolve(v));
    }
    Some(value)
}

/// One V1 endpoint (`host[.ns.svc]:port`) as V2 names the same pod.
fn endpoint(v1: &str, hosts: &HostIndex) -> Option<String> {
    let (host, port) = v1.rsplit_once(':')?;
    let short = host.split('.').next()?;
    let theirs = hosts.get(short)?;
    Some(format!("{theirs}:{port}"))
}

/// Every endpoint string in a TF_CONFIG rewritten to V2's hosts.
fn rename_endpoints(v: &mut Json, hosts: &HostIndex) -> bool {
    match v {
        Json::String(s) => match endpoint(s, hosts) {
            Some(e) => {
                *s = e;
                true
            }
            None => false,
        },
        Json::Array(a) => a.iter_mut().all(|e| rename_endpoints(e, hosts)),
        Json::Object(m) => m.values_mut().all(|e| rename_endpoints(e, hosts)),
        _ => true,
    }
}

/// Whether V1's value and V2's expanded one say the same for one pod.
/// The wrapper script of a PaddleJob leader's command (`convert::roles`), if the command is one.
pub(super) fn leader_wrapper(command: &[String]) -> Option<&str> {
    match command {
        [sh, c, script, arg0, ..] if sh == "sh" && c == "-c" && arg0 == PADDLE_LEADER_ARG0 => Some(script),
        _ => None,
    }
}

fn same(
    name: &str,
    v1: Option<&str>,
    v2: Option<&str>,
    hosts: &HostIndex,
    leader_self: Option<&str>,
    wrapper: Option<&str>,
) -> bool {
    match name {
        "TF_CONFIG" => {
            let (Some(Ok(mut ours)), Some(Ok(theirs))) =
                (v1.map(serde_json::from_str::<Json>), v2.map(serde_json::from_str::<Json>))
            else {
                return v1 == v2;
            };
            let Some(cluster) = ours.get_mut("cluster") else { return false };
            rename_endpoints(cluster, hosts) && ours == theirs
        }
        // envvar.go:74-100: the leader's pod 0 reaches itself at its own IP; every other pod
        // at the leader's Service.
        "PADDLE_MASTER" => match (v1, v2) {
            (Some(ours), Some(theirs)) if ours.starts_with("$(POD_IP_DUMMY):") => {
                // Its own address: V2's wrapper sets it on this pod (the leader's first) at that
                // port; the value it replaces names the same pod.
                let port = &ours["$(POD_IP_DUMMY):".len()..];
                let script = paddle_leader_script(port);
                wrapper == Some(script.as_str()) && leader_self.is_some_and(|own| theirs == format!("{own}:{port}"))
            }
            (Some(ours), Some(theirs)) => endpoint(ours, hosts).as_deref() == Some(theirs),
            _ => false,
        },
        // Only for the PADDLE_MASTER of the leader's pod 0.
        // V2 sets it on every pod of the leader's job; only the first one's wrapper reads it.
        "POD_IP_DUMMY" => {
            wrapper.is_some()
                && v2 == Some("fieldRef:status.podIP")
                && v1.is_none_or(|v| v.is_empty() || v == "fieldRef:status.podIP")
        }
        _ => false,
    }
}

/// Why `name` differs between a V1 role's pods and the V2 pods it became, when the contract
/// holds for every pod modelled; `None` when it does not (or `name` is not the contract's).
pub(super) fn explain(
    op: &Operated,
    v2: &Explanation,
    target_of: &dyn Fn(&str) -> String,
    role: &Role,
    ours: &ContainerFacts,
    theirs: &ContainerFacts,
    name: &str,
) -> Option<String> {
    if !matches!(op.kind, V1Kind::TfJob | V1Kind::PaddleJob) || !CHECKED.contains(&name) {
        return None;
    }
    let hosts = host_map(op, v2, target_of);
    // The first V1 name of a pair wins, as the search of the list found it.
    let mut index = HostIndex::new();
    for (ours, theirs) in &hosts {
        index.entry(ours.as_str()).or_insert(theirs.as_str());
    }
    let v2_env: Vec<(String, String)> = theirs.env.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    // The leader's pod 0 is the first of the leader role's pods (envvar.go:74-139: the Master,
    // else Worker 0).
    let leader = if op.roles.iter().any(|r| r.replica_type == "Master") { "Master" } else { "Worker" };
    let leader_host = op
        .roles
        .iter()
        .find(|r| r.replica_type == leader)
        .and_then(|r| r.hostnames.first())
        .and_then(|h| index.get(h.as_str()))
        .map(|theirs| theirs.to_string())
        .unwrap_or_default();
    for i in 0..role.modelled() {
        // Each pod has the role's containers, in their order.
        let container = role.containers().iter().position(|c| c.name == ours.name)?;
        let v1 = role.env(i, container).rev().find(|e| e.name == name).map(crate::explain::env_text);
        let v2_value = expanded(&v2_env, name, i as u32);
        let own = (role.replica_type == leader && i == 0).then_some(leader_host.as_str());
        if !same(name, v1.as_deref(), v2_value.as_deref(), &index, own, leader_wrapper(theirs.command)) {
            return None;
        }
    }
    let shown: Vec<String> = hosts.iter().take(2).map(|(a, b)| format!("{a} is {b}")).collect();
    Some(match name {
        "TF_CONFIG" => format!(
            "the same TF_CONFIG in each of the {} pods (cluster, task type and index, environment cloud, V1's ports) \
             once the kubelet expands $(JOB_COMPLETION_INDEX), the pod's completion index; V1's Service names are \
             JobSet's hostnames ({}, ...)",
            role.modelled(),
            shown.join(", ")
        ),
        "PADDLE_MASTER" => format!(
            "the same leader and port in each pod: the leader's first pod its own IP (paddle.distributed.launch \
             starts the rendezvous where the host is its own IP), in V1 as $(POD_IP_DUMMY):port, in V2 set by the \
             wrapper of its command; the others the leader's name, V1's Service, V2's JobSet hostname ({})",
            shown.join(", ")
        ),
        _ => "the pod's IP, which the leader's first pod puts in PADDLE_MASTER: V1 set it on that pod only, V2 on \
              every pod of the leader's job, where the wrapper of the command reads it on the first"
            .into(),
    })
}

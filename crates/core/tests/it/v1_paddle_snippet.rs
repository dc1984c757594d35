//! The V1 PaddlePaddle training function, run as the Training Operator runs a PaddleJob's pods:
//! once per pod of the V1 YAML pane's PaddleJob, with the env `explain::v1` says v1.9 gives that
//! pod (the kubelet's `$(VAR)` expansion done here, each pod given an address of its own). v1.9
//! sets no rank on a PaddleJob's pods, only where they meet (PADDLE_MASTER: the first pod's own
//! address there, the first Worker's Service elsewhere), how many they are (PADDLE_NNODES) and the
//! job (PADDLE_JOB_ID); paddle.distributed.launch gives each process its rank. The function must
//! read that, not a RANK no pod has.
#![cfg(not(target_arch = "wasm32"))]

use explorer_judges as common;

use explorer_core::explain::env_text;
use explorer_core::explain::v1::operate;
use explorer_core::selection::{ParamKey, Selection};
use explorer_core::snippets::workload::function_body;
use explorer_core::snippets::{render, Api, Language};
use explorer_data::catalog::{Framework, Persona};

/// The kubelet's expansion of `$(NAME)` to a variable declared before it.
fn expand(value: &str, earlier: &[(String, String)]) -> String {
    let mut out = value.to_string();
    for (name, v) in earlier {
        out = out.replace(&format!("$({name})"), v);
    }
    out
}

/// What each pod's run of the function prints, in pod order.
fn run_per_pod(nodes: &str) -> Vec<String> {
    let mut sel = Selection::new(Persona::DataScientist, Framework::Paddle);
    sel.params.set(ParamKey::Nodes, nodes).unwrap();
    let view = render(&sel);
    let yaml = view.v1.snippets.iter().find(|s| s.language == Language::Yaml).expect("a V1 YAML pane");
    let job: serde_json::Value = serde_yaml::from_str(&yaml.code).unwrap();
    let body = function_body(&sel, Api::V1).join("\n");
    let op = operate(&job).unwrap();
    let mut out = Vec::new();
    for (pod_number, pod) in op.roles.iter().flat_map(|r| (0..r.modelled()).filter_map(|i| r.pod(i))).enumerate() {
        let c = pod.spec.containers.iter().find(|c| c.name == "paddle").unwrap();
        let mut env: Vec<(String, String)> = Vec::new();
        for e in &c.env {
            let text = match env_text(e).as_str() {
                "fieldRef:status.podIP" => format!("10.1.0.{}", pod_number + 2),
                t => expand(t, &env),
            };
            env.push((e.name.clone(), text));
        }
        let unset = ["RANK", "PADDLE_MASTER", "PADDLE_NNODES", "PADDLE_JOB_ID", "PADDLE_TRAINER_ID"];
        out.push(common::python_stdout(&body, env.iter().map(|(k, v)| (k.as_str(), v.clone())), &unset));
    }
    out
}

#[test]
fn each_paddlejob_pod_finds_where_the_pods_meet_and_how_many_they_are() {
    assert_eq!(
        run_per_pod("2"),
        [
            "job paddle-train nodes 2 master 10.1.0.2:36543",
            "job paddle-train nodes 2 master paddle-train-worker-0:36543"
        ]
    );
}

#[test]
fn a_one_pod_paddlejob_meets_at_its_own_address() {
    assert_eq!(run_per_pod("1"), ["job paddle-train nodes 1 master 10.1.0.2:36543"]);
}

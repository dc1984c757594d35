//! The V1 TensorFlow pane's training function, run as the Training Operator runs it: once per pod
//! of the TFJob in the V1 YAML pane, with the env `explain::v1` says v1.9 gives that pod. Each
//! worker must find its own index (v1.9 sets TF_CONFIG on a TFJob's pods, never RANK).
#![cfg(not(target_arch = "wasm32"))]

use explorer_judges as common;

use explorer_core::explain::env_text;
use explorer_core::explain::v1::operate;
use explorer_core::selection::{ParamKey, Selection};
use explorer_core::snippets::{render, Language};
use explorer_data::catalog::{Framework, Persona};

/// The body of `def train():` in the pane's Python, dedented.
fn train_body(code: &str) -> String {
    let start = code.find("def train():\n").expect("a train function") + "def train():\n".len();
    let body: Vec<&str> = code[start..].lines().take_while(|l| l.is_empty() || l.starts_with("    ")).collect();
    body.iter().map(|l| l.strip_prefix("    ").unwrap_or(l)).collect::<Vec<_>>().join("\n")
}

/// What each pod's run of the function prints, in pod order.
fn run_per_pod(nodes: &str) -> Vec<String> {
    let mut sel = Selection::new(Persona::DataScientist, Framework::TensorFlow);
    sel.params.set(ParamKey::Nodes, nodes).unwrap();
    let view = render(&sel);
    let python = view.v1.snippets.iter().find(|s| s.language == Language::Python).expect("a V1 Python pane");
    let yaml = view.v1.snippets.iter().find(|s| s.language == Language::Yaml).expect("a V1 YAML pane");
    let job: serde_json::Value = serde_yaml::from_str(&yaml.code).unwrap();
    let body = train_body(&python.code);
    let op = operate(&job).unwrap();
    let mut out = Vec::new();
    for role in &op.roles {
        for pod in (0..role.modelled()).filter_map(|i| role.pod(i)) {
            let c = pod.spec.containers.iter().find(|c| c.name == "tensorflow").unwrap();
            let env = c.env.iter().map(|e| (e.name.as_str(), env_text(e)));
            out.push(common::python_stdout(&body, env, &["TF_CONFIG", "RANK"]));
        }
    }
    out
}

#[test]
fn each_tfjob_worker_finds_its_own_index() {
    assert_eq!(run_per_pod("2"), ["task worker 0", "task worker 1"]);
}

#[test]
fn a_one_pod_tfjob_without_tf_config_is_worker_zero() {
    assert_eq!(run_per_pod("1"), ["task worker 0"]);
}

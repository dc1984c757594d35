//! The platform engineer's fields shape the runtime they write (issue 34 item 8): the image they
//! type runs on the runtime's training nodes, the node count becomes its `numNodes` default and
//! the GPUs per node its nodes' `nvidia.com/gpu` limit; a runtime that differs from the shipped
//! one keeps webhook validation, and it still validates against the release's CRDs.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference CRDs from disk.

use explorer_judges as common;

use explorer_core::selection::{ParamKey, RuntimeScope, Selection};
use explorer_core::snippets::{render, v2_pane_takes};
use explorer_data::catalog::{Framework, Persona, V2Support};
use explorer_data::releases::RELEASES;
use serde_json::Value;

const IMAGE: &str = "registry.example.com/team/train:1";

/// The runtime in the platform engineer's V2 pane, as a reader copies it.
fn runtime(sel: &Selection) -> Value {
    let pane = render(sel).v2;
    let snippet = pane.snippets.first().unwrap_or_else(|| panic!("{sel:?}: no runtime"));
    common::yaml_docs(&snippet.code).remove(0)
}

/// Each training container (`node`) of the runtime's training jobs (`node`, and MPI's
/// `launcher`), by replicated job; the initializers are not training nodes.
fn training_containers(rt: &Value) -> Vec<(String, Value)> {
    let jobs = rt.pointer("/spec/template/spec/replicatedJobs").and_then(Value::as_array).unwrap();
    jobs.iter()
        .filter(|j| matches!(j["name"].as_str(), Some("node" | "launcher")))
        .flat_map(|j| {
            let containers = j.pointer("/template/spec/template/spec/containers").and_then(Value::as_array).unwrap();
            let name = j["name"].as_str().unwrap_or_default().to_string();
            containers.iter().filter(|c| c["name"] == "node").map(move |c| (name.clone(), c.clone()))
        })
        .collect()
}

#[test]
fn the_platform_engineers_image_nodes_and_gpus_reach_the_runtime() {
    let mut checked = 0;
    for release in RELEASES {
        for framework in Framework::ALL {
            for scope in [RuntimeScope::Cluster, RuntimeScope::Namespaced] {
                let mut sel = Selection::new(Persona::PlatformEngineer, framework);
                sel.release = *release;
                sel.scope = scope;
                if !matches!(sel.v2_support(), V2Support::BuiltIn | V2Support::CustomRuntime) {
                    continue;
                }
                let shipped = runtime(&sel);
                let what = format!("{} {} {scope:?}", release.tag, framework.id());
                // TorchTune's runtime is its model's (no image field) and runs one node.
                let image = framework != Framework::TorchTune;
                // An MPI runtime's numNodes also counts its launchers (the trainer's job): it stays 1.
                let nodes = framework != Framework::TorchTune && framework.ml_policy() != Some("mpi");
                for (key, value) in [(ParamKey::Image, IMAGE), (ParamKey::Nodes, "4"), (ParamKey::Gpus, "3")] {
                    if key.applies_to(framework) && (key != ParamKey::Nodes || nodes) {
                        sel.params.set(key, value).unwrap();
                        assert!(v2_pane_takes(&sel, key), "{what}: the pane does not take {}", key.id());
                    }
                }
                assert_eq!(ParamKey::Image.applies_to(framework), image);
                let rt = runtime(&sel);
                assert_ne!(rt, shipped, "{what}");
                let containers = training_containers(&rt);
                assert!(!containers.is_empty(), "{what}: no training container");
                for (job, c) in &containers {
                    assert_eq!(c["image"] == IMAGE, image, "{what}: {job}'s image");
                    assert_eq!(c.pointer("/resources/limits/nvidia.com~1gpu"), Some(&Value::from(3)), "{what}: {job}");
                }
                let expected = if nodes { 4 } else { 1 };
                assert_eq!(rt.pointer("/spec/mlPolicy/numNodes"), Some(&Value::from(expected)), "{what}");
                // The initializers keep their own images.
                let jobs = rt.pointer("/spec/template/spec/replicatedJobs").and_then(Value::as_array).unwrap();
                for j in jobs.iter().filter(|j| j["name"].as_str().is_some_and(|n| n.ends_with("-initializer"))) {
                    let c = j.pointer("/template/spec/template/spec/containers/0/image").unwrap();
                    assert_ne!(c, IMAGE, "{what}: {}", j["name"]);
                }
                assert_eq!(
                    rt.pointer("/metadata/labels/trainer.kubeflow.org~1webhook-validation"),
                    None,
                    "{what}: a runtime that is not the shipped one keeps webhook validation"
                );
                common::validate_for(release, &rt).unwrap_or_else(|e| panic!("{what}: {e}\n{rt:#}"));
                checked += 1;
            }
        }
    }
    assert!(checked > 30, "only {checked} runtimes checked");
}

/// What the reader did not type stays as the release ships it: no GPUs the built-in lacks, its
/// own numNodes and image.
#[test]
fn an_untouched_runtime_is_the_shipped_one() {
    let sel = Selection::new(Persona::PlatformEngineer, Framework::PyTorch);
    let rt = runtime(&sel);
    let containers = training_containers(&rt);
    assert_eq!(containers.len(), 1);
    assert_eq!(containers[0].1.get("resources"), None);
    assert_ne!(containers[0].1["image"], IMAGE);
    assert_eq!(rt.pointer("/spec/mlPolicy/numNodes"), Some(&Value::from(1)));
    assert_eq!(rt.pointer("/metadata/labels/trainer.kubeflow.org~1webhook-validation"), Some(&Value::from("disabled")));
}

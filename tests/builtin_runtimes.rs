//! The built-in runtimes match Trainer v2.3.0 field for field: the base manifests with the
//! runtimes overlay applied (image tags and the webhook-validation label), as a cluster gets them.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

mod common;

use serde_json::Value;

use trainer_v2_explorer::snippets::runtimes::builtin_runtimes;

/// Applies manifests/overlays/runtimes (kustomize `images` newTag and `labels` pairs).
fn apply_overlay(mut doc: Value, overlay: &Value) -> Value {
    for pair in overlay["labels"].as_array().unwrap() {
        for (k, v) in pair["pairs"].as_object().unwrap() {
            doc["metadata"]["labels"][k] = v.clone();
        }
    }
    let images = overlay["images"].as_array().unwrap();
    retag(&mut doc, images);
    doc
}

fn retag(v: &mut Value, images: &[Value]) {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(image)) = map.get_mut("image") {
                if let Some(rule) = images.iter().find(|r| r["name"] == Value::String(image.clone())) {
                    *image = format!("{}:{}", image, rule["newTag"].as_str().unwrap());
                }
            }
            map.values_mut().for_each(|x| retag(x, images));
        }
        Value::Array(items) => items.iter_mut().for_each(|x| retag(x, images)),
        _ => {}
    }
}

#[test]
fn builtins_match_the_shipped_manifests_field_for_field() {
    let overlay = common::yaml_docs(&common::read_reference("v2-runtimes/v2.3.0/overlay-kustomization.yaml")).remove(0);
    let files = [
        "torch_distributed.yaml",
        "deepspeed_distributed.yaml",
        "mlx_distributed.yaml",
        "jax_distributed.yaml",
        "xgboost_distributed.yaml",
        "torchtune/llama3_2/llama3_2_1B.yaml",
        "torchtune/llama3_2/llama3_2_3B.yaml",
        "torchtune/qwen2_5/qwen2_5_1.5B.yaml",
    ];
    let ours: Vec<Value> = builtin_runtimes().iter().map(common::emitted_tree).collect();
    assert_eq!(ours.len(), files.len());
    for file in files {
        let shipped = common::yaml_docs(&common::read_reference(&format!("v2-runtimes/v2.3.0/{file}"))).remove(0);
        let shipped = apply_overlay(shipped, &overlay);
        let name = &shipped["metadata"]["name"];
        let mine = ours.iter().find(|r| &r["metadata"]["name"] == name).unwrap_or_else(|| panic!("no {name}"));
        assert_eq!(mine, &shipped, "{file} differs");
    }
}

#[test]
fn the_overlay_test_can_fail() {
    // Guard against a comparison that always passes: a changed image must be noticed.
    let overlay = common::yaml_docs(&common::read_reference("v2-runtimes/v2.3.0/overlay-kustomization.yaml")).remove(0);
    let shipped = common::yaml_docs(&common::read_reference("v2-runtimes/v2.3.0/mlx_distributed.yaml")).remove(0);
    let shipped = apply_overlay(shipped, &overlay);
    let mut mine = common::emitted_tree(&builtin_runtimes()[2]);
    assert_eq!(mine, shipped);
    mine["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["containers"][0]
        ["image"] = "x".into();
    assert_ne!(mine, shipped);
}

//! Resource quantities as the V2 CRDs take them, and templates nobody rendered.
//!
//! A quantity is an int-or-string in every CRD: `cpu: 0.5` reads as a YAML float, which the
//! TrainJob's and runtime's schemas refuse, so such a number is written as its text (`"0.5"`, the
//! same quantity). A count or quantity that reads `$NUM_NODES` or `${GPUS}` is a template
//! variable nobody substituted: no V2 object can hold it, so the document is refused naming each.

use super::Error;
use crate::pipeline::paths::push_index;
use serde_json::Value;

/// The V1 document with every non-integer quantity written as text (`None` when it has none),
/// and the paths of images that hold a `${VARIABLE}` (a registry nobody filled in: no image name
/// holds a `$`, so the pod would fail to pull; the report says so on the image's entry).
/// `Err` names every count or quantity that is an unrendered template variable.
pub(super) fn quantities_as_text(doc: &Value) -> Result<(Option<Value>, Vec<String>), Error> {
    let mut unrendered = Vec::new();
    let mut floats = false;
    let mut images = Vec::new();
    scan(doc, &mut String::new(), &mut unrendered, &mut floats, &mut images);
    if !unrendered.is_empty() {
        return Err(Error::Unrendered(unrendered));
    }
    if !floats {
        return Ok((None, images));
    }
    let mut out = doc.clone();
    rewrite(&mut out, false);
    Ok((Some(out), images))
}

/// The text a quantity written as a YAML float stands for: Rust prints the shortest decimal
/// that reads back as the same number, never in exponent form (`0.5`, `1000000000`).
pub fn quantity_text(n: &serde_json::Number) -> Option<String> {
    if n.is_f64() {
        n.as_f64().filter(|x| x.is_finite()).map(|x| format!("{x}"))
    } else {
        None
    }
}

/// Whether `key` holds a quantity list: `requests` or `limits` under `resources`.
fn is_quantity_list(path: &str) -> bool {
    path.ends_with(".resources.limits") || path.ends_with(".resources.requests")
}

fn template_variable(s: &str) -> bool {
    let name = s.strip_prefix("${").and_then(|r| r.strip_suffix('}')).or_else(|| s.strip_prefix('$'));
    name.is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

fn scan(v: &Value, path: &mut String, unrendered: &mut Vec<String>, floats: &mut bool, images: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            let quantities = is_quantity_list(path);
            for (k, child) in map {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                match child {
                    Value::String(s) if (quantities || k == "replicas") && template_variable(s) => {
                        unrendered.push(format!("{path} ({s})"))
                    }
                    Value::Number(n) if quantities && n.is_f64() => *floats = true,
                    Value::String(s) if k == "image" && s.contains("${") => images.push(path.clone()),
                    _ => scan(child, path, unrendered, floats, images),
                }
                path.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let len = path.len();
                // Written into the path itself: a `format!` made a string per item.
                push_index(path, i);
                scan(child, path, unrendered, floats, images);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// Writes the floats of every quantity list as text; `in_resources` says the parent key was
/// `resources`, `list` that this is its `limits` or `requests`.
fn rewrite(v: &mut Value, in_resources: bool) {
    match v {
        Value::Object(map) => {
            for (k, child) in map.iter_mut() {
                if in_resources && (k == "limits" || k == "requests") {
                    if let Value::Object(list) = child {
                        for q in list.values_mut() {
                            if let Some(text) = q.as_number().and_then(quantity_text) {
                                *q = Value::String(text);
                            }
                        }
                    }
                } else {
                    rewrite(child, k == "resources");
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| rewrite(i, false)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn float_quantities_become_their_text_and_integers_stay() {
        let doc = json!({"spec": {"template": {"containers": [
            {"resources": {"limits": {"cpu": 0.5, "memory": "1Gi", "nvidia.com/gpu": 2}, "requests": {"cpu": 1e9}}}
        ]}}});
        let out = quantities_as_text(&doc).unwrap().0.unwrap();
        let r = &out["spec"]["template"]["containers"][0]["resources"];
        assert_eq!(r["limits"], json!({"cpu": "0.5", "memory": "1Gi", "nvidia.com/gpu": 2}));
        assert_eq!(r["requests"]["cpu"], json!("1000000000"));
        // No float: nothing to copy.
        assert_eq!(quantities_as_text(&json!({"resources": {"limits": {"cpu": 2}}})).ok(), Some((None, vec![])));
        // A float elsewhere is not a quantity.
        assert_eq!(quantities_as_text(&json!({"spec": {"ratio": 0.5}})).ok(), Some((None, vec![])));
        // An image with a `${VARIABLE}` is named, not refused.
        let image = json!({"spec": {"containers": [{"image": "${REGISTRY}/gpu-profile"}]}});
        assert_eq!(quantities_as_text(&image).ok(), Some((None, vec!["spec.containers[0].image".to_string()])));
    }

    #[test]
    fn template_variables_in_counts_and_quantities_are_named() {
        let doc = json!({"spec": {"Worker": {"replicas": "$NUM_NODES", "template": {"containers": [
            {"image": "${IMAGE}", "resources": {"limits": {"nvidia.com/gpu": "${GPUS}", "cpu": "$(CPU)"}}}
        ]}}}});
        let e = quantities_as_text(&doc).unwrap_err().to_string();
        assert!(e.starts_with("spec.Worker.replicas ($NUM_NODES), spec.Worker.template.containers[0].resources.limits.nvidia.com/gpu (${GPUS}) are each an unrendered template variable"), "{e}");
        // `$(VAR)` is Kubernetes' own expansion, and an image is checked by its registry.
        assert!(!e.contains("$(CPU)") && !e.contains("IMAGE"), "{e}");
    }
}

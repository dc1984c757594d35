//! The worst-case shapes (tests/shapes) near the 4 MiB limit: each converts to exactly what it
//! should, or is refused with the message that names its limit. How long they take is measured
//! by `make bench` (examples/migrate_throughput.rs), not here.
//!
//! Twelve 4 MiB inputs took minutes with this crate unoptimized; the dev profile builds it at
//! opt-level 1 (Cargo.toml), which keeps overflow checks on and runs these in seconds.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../../../tests/shapes/mod.rs"]
mod shapes;

use explorer_core::migrate::{migrate, Migration, Outcome};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Converts `text`, checks every document converted, and that the YAML the reader copies reads
/// back as the objects converted (the emitter on long strings, deep trees, huge maps).
fn objects(text: &str) -> Vec<Value> {
    let m = migrate(text).unwrap_or_else(|e| panic!("refused: {e}"));
    let objects = converted_objects(&m);
    let copied: Vec<Value> = yaml_documents(&m.output_yaml());
    assert!(copied == objects, "the output YAML does not read back as the converted objects");
    // The widget's view of the same input: converted, no error.
    let rendered: Value = serde_json::from_str(&trainer_v2_migrate::migrate(text, None)).unwrap();
    assert_eq!(rendered["error"], Value::Null);
    objects
}

fn converted_objects(m: &Migration) -> Vec<Value> {
    let mut out = Vec::new();
    for d in &m.docs {
        match &d.outcome {
            Outcome::Written { objects, .. } => out.extend(objects.iter().cloned()),
            Outcome::PassedThrough { object, .. } => out.push(object.clone()),
            other => panic!("document {} not converted: {other:?}", d.index),
        }
    }
    out
}

fn yaml_documents(text: &str) -> Vec<Value> {
    use serde::Deserialize;
    serde_yaml::Deserializer::from_str(text).map(|d| Value::deserialize(d).unwrap()).filter(|v| !v.is_null()).collect()
}

/// The input as a whole is refused with `message`, by the CLI's path and the widget's.
fn refused(text: &str, message: &str) {
    let error = migrate(text).err().unwrap_or_else(|| panic!("not refused; expected: {message}"));
    assert_eq!(error.to_string(), message);
    let rendered: Value = serde_json::from_str(&trainer_v2_migrate::migrate(text, None)).unwrap();
    assert_eq!(rendered["error"], message);
}

fn trainjob(objects: &[Value]) -> &Value {
    let jobs: Vec<&Value> = objects.iter().filter(|o| o["kind"] == "TrainJob").collect();
    assert_eq!(jobs.len(), 1, "one TrainJob");
    jobs[0]
}

/// `{"{key}0": "{value}0", …}` in order.
fn numbered_map(key: &str, value: &str, n: usize) -> Value {
    Value::Object((0..n).map(|i| (format!("{key}{i}"), json!(format!("{value}{i}")))).collect())
}

fn numbered_list(prefix: &str, n: usize) -> Value {
    (0..n).map(|i| json!(format!("{prefix}{i}"))).collect()
}

/// Every value under a key named `key`, anywhere in `v`.
fn all_under<'a>(v: &'a Value, key: &str, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                if k == key {
                    out.push(child);
                }
                all_under(child, key, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| all_under(i, key, out)),
        _ => {}
    }
}

fn near_the_limit(shape: &shapes::Shape) {
    let limit = explorer_core::pipeline::input::MAX_INPUT_BYTES;
    assert!(
        shape.text.len() <= limit && shape.text.len() > limit * 9 / 10,
        "{}: {} bytes",
        shape.name,
        shape.text.len()
    );
}

#[test]
fn a_quarter_million_labels_all_arrive_in_order() {
    let shape = shapes::many_labels();
    near_the_limit(&shape);
    assert!(shape.count > 200_000);
    let objects = objects(&shape.text);
    assert_eq!(trainjob(&objects)["metadata"]["labels"], numbered_map("l", "v", shape.count));
}

#[test]
fn a_node_selector_of_many_keys_moves_whole_to_the_runtime_patch() {
    let shape = shapes::many_selector_keys();
    near_the_limit(&shape);
    let objects = objects(&shape.text);
    let mut selectors = Vec::new();
    objects.iter().for_each(|o| all_under(o, "nodeSelector", &mut selectors));
    assert_eq!(selectors, [&numbered_map("k", "v", shape.count)]);
}

#[test]
fn ten_thousand_documents_each_convert() {
    let shape = shapes::many_documents();
    near_the_limit(&shape);
    let objects = objects(&shape.text);
    let names: Vec<&str> =
        objects.iter().filter(|o| o["kind"] == "TrainJob").map(|o| o["metadata"]["name"].as_str().unwrap()).collect();
    let expected: Vec<String> = (0..shape.count).map(|i| format!("many-documents-{i:04}")).collect();
    assert_eq!(names, expected);
}

#[test]
fn more_documents_than_allowed_are_refused_at_the_limit() {
    let shape = shapes::too_many_documents();
    assert!(shape.count > 10 * 10_000);
    refused(&shape.text, "more than 10000 documents: split the input");
}

#[test]
fn a_four_megabyte_argument_arrives_whole() {
    let shape = shapes::long_string();
    near_the_limit(&shape);
    let objects = objects(&shape.text);
    assert_eq!(trainjob(&objects)["spec"]["trainer"]["args"], json!([shapes::long_text(shape.count)]));
}

#[test]
fn an_annotation_of_many_lines_arrives_whole() {
    let shape = shapes::long_block();
    near_the_limit(&shape);
    let objects = objects(&shape.text);
    let script: String = (0..shape.count).map(|i| format!("echo step {i}\n")).collect();
    assert_eq!(trainjob(&objects)["metadata"]["annotations"]["script"], json!(script));
}

#[test]
fn the_deepest_nesting_allowed_passes_through_unchanged() {
    let shape = shapes::deep_nesting();
    near_the_limit(&shape);
    let objects = objects(&shape.text);
    assert_eq!(objects, yaml_documents(&shape.text));
    // The deepest leaf of the last branch, and its flow list.
    let last = shape.count - 1;
    let mut node = &objects[0]["spec"][format!("b{last}")];
    for level in 3..=shapes::DEEPEST {
        node = &node[format!("d{level}")];
    }
    assert_eq!(node["leaf"], json!(last));
    let mut flow = &objects[0]["spec"][format!("f{last}")];
    for _ in 1..shapes::DEEPEST {
        flow = &flow[0];
    }
    assert_eq!(*flow, json!([last]));
}

#[test]
fn one_level_deeper_is_refused_at_its_line() {
    let shape = shapes::too_deep();
    let line = shape.text.lines().count();
    refused(&shape.text, &format!("nesting deeper than {} levels at line {line}", shapes::DEEPEST));
}

#[test]
fn a_list_of_many_arguments_arrives_in_order() {
    let shape = shapes::many_items();
    near_the_limit(&shape);
    let objects = objects(&shape.text);
    assert_eq!(trainjob(&objects)["spec"]["trainer"]["args"], numbered_list("a", shape.count));
}

#[test]
fn an_env_list_of_many_variables_arrives_in_order() {
    let shape = shapes::many_env();
    near_the_limit(&shape);
    let objects = objects(&shape.text);
    let env: Value = (0..shape.count).map(|i| json!({"name": format!("E{i}"), "value": format!("v{i}")})).collect();
    assert_eq!(trainjob(&objects)["spec"]["trainer"]["env"], env);
}

/// `explain` lists every variable of the same shape once, in order, with its value, for both
/// Workers (it used to look each name up in every pod's list: 17 s natively for this input).
#[test]
fn an_env_list_of_many_variables_is_explained_in_order() {
    let shape = shapes::many_env();
    let explained = explorer_core::explain::v1::explain_text(&shape.text).expect("a V1 job").expect("explained");
    let [workers] = explained.pods.as_slice() else { panic!("one group of pods: {:?}", explained.rejected) };
    assert_eq!(workers.count, 2);
    let env = serde_json::to_value(&workers.containers[0].env).unwrap();
    let env = env.as_object().unwrap();
    let ours: Vec<(&String, &Value)> = env.iter().take(shape.count).collect();
    let expected: Vec<(String, Value)> = (0..shape.count).map(|i| (format!("E{i}"), json!(format!("v{i}")))).collect();
    assert!(
        ours.iter().map(|(k, v)| (*k, *v)).eq(expected.iter().map(|(k, v)| (k, v))),
        "the job's own variables first, in order"
    );
    // Then what the operator adds (PYTHONUNBUFFERED, PET_*), the same in both pods.
    assert!(env.len() > shape.count && env.contains_key("PET_NNODES"));
}

#[test]
fn a_pod_template_shared_by_alias_converts_like_two_copies() {
    let shape = shapes::shared_by_alias();
    let objects = objects(&shape.text);
    let job = trainjob(&objects);
    assert_eq!(job["spec"]["trainer"]["numNodes"], json!(3));
    assert_eq!(job["spec"]["trainer"]["args"], numbered_list("a", shape.count));
}

/// The refusal of `text`, whose first document reads as more than its size allows.
fn aliases_refused(text: &str) -> String {
    let (values, characters) = explorer_core::pipeline::input::read_budget(text.len());
    format!(
        "document 1 (line 1) reads as more than the input limit holds: aliases (*name) count as what they repeat, \
         and an input of {} bytes may read as at most {values} values and {characters} characters (a value per 10 \
         bytes plus 1024, and its size plus 8192 characters): write the repeated parts out, or split it into smaller \
         documents",
        text.len()
    )
}

#[test]
fn an_alias_bomb_is_refused() {
    let text = shapes::alias_bomb().text;
    refused(&text, &aliases_refused(&text));
}

#[test]
fn one_anchor_named_by_many_aliases_is_refused() {
    let shape = shapes::alias_fan_out();
    near_the_limit(&shape);
    refused(&shape.text, &aliases_refused(&shape.text));
}

/// The most values aliases may stand for: read whole, passed through with every value, and
/// explained (the explanation reads the same trees).
#[test]
fn aliases_within_the_value_limit_are_read_whole() {
    let shape = shapes::aliases_at_the_limit();
    let objects = objects(&shape.text);
    let x = objects[0]["x"].as_array().unwrap();
    assert_eq!(x.len(), shape.count);
    assert!(x.iter().all(|row| row.as_array().map(Vec::len) == Some(shape.count)));
    // Explain reads it through the same door (what it then says of the extra field is its own).
    if let Err(e) = explorer_core::explain::read::explain_text(&shape.text, explorer_data::releases::NEWEST) {
        assert!(!e.to_string().contains("input limit"), "{e}");
    }
    // One more alias and one more item per list pass the budget of a file that size.
    let past = shapes::aliased_square("one-past", "", shape.count + 1);
    refused(&past.text, &aliases_refused(&past.text));
}

/// 2,000 aliases of a list of 2,000: 10 KB that read as 4 million values (a gigabyte in
/// memory) are refused, by migrate, upgrade and explain alike.
#[test]
fn aliases_past_the_value_limit_are_refused_by_every_command() {
    let shape = shapes::aliases_past_the_limit();
    let message = aliases_refused(&shape.text);
    refused(&shape.text, &message);
    let newest = explorer_data::releases::NEWEST;
    assert_eq!(
        explorer_core::upgrade::upgrade(&shape.text, newest, newest).err().map(|e| e.to_string()),
        Some(message.clone())
    );
    assert_eq!(
        explorer_core::explain::read::explain_text(&shape.text, newest).err().map(|e| e.to_string()),
        Some(message)
    );
}

/// Plain YAML as dense in values as YAML gets: accepted up to the value limit of its size,
/// refused one value past it and far past it, with the same message.
#[test]
fn value_dense_input_is_read_up_to_the_value_limit() {
    let shape = shapes::dense_at_the_limit();
    near_the_limit(&shape);
    let objects = objects(&shape.text);
    assert_eq!(objects[0]["x"].as_array().unwrap().len(), shape.count);
    assert_eq!(values_of(&objects[0]), explorer_core::pipeline::input::read_budget(shape.text.len()).0);
    let over = shapes::dense_over_the_limit();
    assert_eq!(over.text.len(), shape.text.len());
    refused(&over.text, &aliases_refused(&over.text));
    for shape in [shapes::dense_list(), shapes::dense_past_the_limit()] {
        refused(&shape.text, &aliases_refused(&shape.text));
    }
}

/// The values a tree reads as, as the input door's budget counts them: every scalar, list and
/// map, keys not counted (they count as characters).
fn values_of(v: &Value) -> usize {
    1 + match v {
        Value::Array(items) => items.iter().map(values_of).sum(),
        Value::Object(map) => map.values().map(values_of).sum(),
        _ => 0,
    }
}

/// Every real input we have (the real V1 corpus, the reference's examples and runtimes, the
/// conformance cases) reads as at most half the values its size allows: the budget refuses what
/// is denser than real YAML, never a real manifest.
#[test]
fn every_real_input_reads_as_at_most_half_its_value_budget() {
    // Paths from the workspace's root, whatever folder the test runs in.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let var = |name: &str, default: &str| std::env::var_os(name).map_or_else(|| root.join(default), PathBuf::from);
    let reference = var("TRAINER_REFERENCE", "../shared/reference");
    let dirs = [
        var("TRAINER_REAL_V1", "../shared/real-v1"),
        reference.join("v1-examples"),
        reference.join("v2-examples"),
        reference.join("v2-runtimes"),
        reference.join("mpi-operator-v2beta1"),
        root.join("crates/core/tests/conformance"),
    ];
    let mut files = Vec::new();
    for dir in &dirs {
        yaml_files(dir, &mut files);
    }
    assert!(files.len() > 300, "only {} real inputs found", files.len());
    let mut densest = (f64::MAX, PathBuf::new());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let values: usize = yaml_documents(&text).iter().map(values_of).sum();
        let (allowed, _) = explorer_core::pipeline::input::read_budget(text.len());
        assert!(values * 2 <= allowed, "{}: {values} values of {allowed} allowed", file.display());
        let bytes_per_value = text.len() as f64 / values as f64;
        if bytes_per_value < densest.0 {
            densest = (bytes_per_value, file);
        }
    }
    // The densest real YAML, as the budget's comment gives it.
    assert!(densest.0 > 20.0, "{}: {:.1} bytes a value", densest.1.display(), densest.0);
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
}

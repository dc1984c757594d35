//! The snippets build their YAML trees by hand (`model::ToTree`), the migrator and the CLI
//! through serde (`model::to_value`). Both must give the same tree for the same model, field
//! for field and in the same order: every runtime of every release, every model the widget
//! builds for every selection, every V1 job of the real corpus and every object the migrator
//! writes from it.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the corpus from disk.

use explorer_judges as common;

use explorer_core::migrate::{migrate_to, Outcome};
use explorer_core::model::v1::V1Job;
use explorer_core::model::v2::{TrainJob, TrainingRuntime};
use explorer_core::model::{to_value, ToTree};
use explorer_core::snippets::runtimes::{builtin_runtimes_of, runtime_for};
use explorer_core::snippets::trainjob::trainjob_for;
use explorer_core::snippets::v1_jobs::v1_job_for;
use explorer_data::releases::RELEASES;
use serde::de::DeserializeOwned;

/// Both trees of `model`, compared as YAML text too, so a difference reads as a diff.
fn same_tree<T: ToTree + serde::Serialize>(model: &T, what: &str) {
    let (by_hand, by_serde) = (model.to_tree(), to_value(model));
    if by_hand != by_serde {
        let text = |v| explorer_core::yaml::join(&explorer_core::yaml::emit(v));
        panic!("{what}: ToTree and serde disagree\n--- ToTree\n{}--- serde\n{}", text(&by_hand), text(&by_serde));
    }
}

#[test]
fn every_model_the_widget_builds_has_the_tree_serde_gives_it() {
    let mut checked = 0;
    for release in RELEASES {
        for rt in builtin_runtimes_of(release) {
            same_tree(&rt, &format!("{} runtime {:?}", release.tag, rt.metadata.name));
            checked += 1;
        }
    }
    let mut selections = common::every_selection(RELEASES);
    selections.extend(common::selection_spread());
    for sel in &selections {
        let what = explorer_core::query::to_query(sel, explorer_core::query::SyncSet::ALL);
        same_tree(&v1_job_for(sel), &format!("V1 job of {what}"));
        if let Some(rt) = runtime_for(sel) {
            same_tree(&rt, &format!("runtime of {what}"));
        }
        if let Some(job) = trainjob_for(sel) {
            same_tree(&job, &format!("TrainJob of {what}"));
        }
        checked += 1;
    }
    assert!(checked > 300, "only {checked} models compared");
}

/// A flattened `extra` map that names a field again replaces that field's value in place (as
/// `Map::insert` and serde's path do), and a field left out is written where `extra` has it.
#[test]
fn an_extra_key_naming_a_field_replaces_its_value_in_place() {
    use explorer_core::model::pod::Container;
    use explorer_core::model::Value;
    let mut c = Container::new("node", "pytorch/pytorch:2");
    c.command = vec!["torchrun".into()];
    for (key, value) in [("stdin", "true"), ("image", "other:1"), ("workingDir", "/w"), ("name", "renamed")] {
        c.extra.insert(key.into(), Value::from(value));
    }
    same_tree(&c, "a container whose extra names its image and name");
    let Value::Object(map) = c.to_tree() else { panic!("a container is a map") };
    let keys: Vec<&str> = map.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["name", "image", "command", "stdin", "workingDir"]);
    assert_eq!(map.get("image"), Some(&Value::from("other:1")));
    assert_eq!(map.get("name"), Some(&Value::from("renamed")));
}

fn model<T: DeserializeOwned>(doc: &serde_json::Value) -> Option<T> {
    serde_json::from_value(doc.clone()).ok()
}

/// Real jobs carry what our own never do: `extra` fields (flattened), keys in their authors'
/// order, resources as strings and numbers, probes, volumes.
#[test]
fn every_real_v1_job_and_everything_migrated_from_it_has_the_tree_serde_gives_it() {
    let mut files: Vec<_> = std::fs::read_dir(common::real_v1_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"));
    files.sort();
    let (mut jobs, mut objects) = (0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy();
        let text = std::fs::read_to_string(path).unwrap();
        for (i, doc) in common::yaml_docs(&text).iter().enumerate() {
            if doc["apiVersion"].as_str() == Some("kubeflow.org/v1")
                && doc["kind"].as_str().is_some_and(|k| k.ends_with("Job"))
            {
                // An unrendered template (`replicas: $NUM_NODES`) is no V1Job: the migrator refuses it.
                if let Some(job) = model::<V1Job>(doc) {
                    same_tree(&job, &format!("{name} #{i}"));
                    jobs += 1;
                }
            }
        }
        for release in RELEASES {
            for d in migrate_to(&text, *release).unwrap().docs {
                let Outcome::Written { objects: out, .. } = d.outcome else { continue };
                for o in &out {
                    let what = format!("{name} #{} for {}: {}", d.index, release.tag, o["kind"]);
                    let read = |o| format!("{what}: does not read as its model: {o}");
                    match o["kind"].as_str() {
                        Some("TrainJob") => {
                            same_tree(&model::<TrainJob>(o).unwrap_or_else(|| panic!("{}", read(o))), &what)
                        }
                        Some("TrainingRuntime" | "ClusterTrainingRuntime") => {
                            same_tree(&model::<TrainingRuntime>(o).unwrap_or_else(|| panic!("{}", read(o))), &what)
                        }
                        _ => continue,
                    }
                    objects += 1;
                }
            }
        }
    }
    assert!(jobs >= 15 && objects >= 100, "only {jobs} V1 jobs and {objects} migrated objects compared");
}

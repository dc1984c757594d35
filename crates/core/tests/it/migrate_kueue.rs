//! A job queued for Kueue (its `kueue.x-k8s.io/queue-name` label) becomes a TrainJob created
//! suspended, as the explorer's own TrainJob panes write one and Trainer's Kueue example creates
//! it (FACTS.md, examples/yaml/03-kueue-integration.yaml @v2.3.0): Kueue admits it by setting
//! `suspend` to false. Every kind of the real V1 corpus alike, Kueue's TFJob (05) and PaddleJob
//! (06) included, and the report says where the suspend comes from.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the corpus from disk.

use explorer_judges as common;

use explorer_core::migrate::{migrate_to, Outcome};
use explorer_data::releases::RELEASES;
use serde_json::Value;

#[test]
fn a_queued_job_becomes_a_suspended_trainjob() {
    let mut files: Vec<_> = std::fs::read_dir(common::real_v1_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"));
    files.sort();
    let mut queued = Vec::new();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        for release in RELEASES {
            let migration = migrate_to(&text, *release).unwrap();
            for doc in &migration.docs {
                let Outcome::Written { objects, report, .. } = &doc.outcome else { continue };
                for object in objects {
                    if object["kind"] != "TrainJob"
                        || object.pointer("/metadata/labels/kueue.x-k8s.io~1queue-name").is_none()
                    {
                        continue;
                    }
                    let at = format!("{file} for {}", release.tag);
                    assert_eq!(object.pointer("/spec/suspend"), Some(&Value::Bool(true)), "{at}: {object:#}");
                    // Said where it comes from: the job's own runPolicy.suspend (28), else the label.
                    let (from, says) = match doc.source.as_ref().and_then(|s| s.pointer("/spec/runPolicy/suspend")) {
                        Some(_) => ("spec.runPolicy.suspend", ""),
                        None => ("metadata.labels.kueue.x-k8s.io/queue-name", "spec.suspend: true"),
                    };
                    let entry = report.iter().find(|e| e.from == from);
                    assert!(entry.is_some_and(|e| e.note.contains(says)), "{at}: {entry:?}");
                    queued.push(file.clone());
                }
            }
        }
    }
    for kueue in ["01-kueue-pytorchjob.yaml", "05-kueue-tfjob.yaml", "06-kueue-paddlejob.yaml"] {
        assert!(queued.iter().any(|f| f == kueue), "{kueue} is not among the queued jobs: {queued:?}");
    }
}

/// `spec.runPolicy.managedBy` of a V1 job (v1.9's webhook admits the two values of
/// util/webhooks.go:11-13). Every release's TrainJob has `spec.managedBy`: MultiKueue's value is
/// carried where the Trainer controller leaves such a TrainJob to Kueue (v2.3.0 on), and said
/// precisely where it does not; the Training Operator's own value is V1's default manager, whose
/// V2 counterpart is the TrainJob's default. No answer says the TrainJob has no such field.
#[test]
fn a_jobs_manager_is_carried_or_said_precisely() {
    let job = |manager: &str| {
        format!(
            "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {{name: managed}}\nspec:\n  runPolicy: {{managedBy: \
             {manager}}}\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n      template: {{spec: {{containers: \
             [{{name: pytorch, image: a:1}}]}}}}\n"
        )
    };
    for release in RELEASES {
        for manager in ["kueue.x-k8s.io/multikueue", "kubeflow.org/training-operator"] {
            let at = format!("{manager} for {}", release.tag);
            let migration = migrate_to(&job(manager), *release).unwrap();
            let Outcome::Written { objects, report, .. } = &migration.docs[0].outcome else {
                panic!("{at}: {:?}", migration.failures())
            };
            let trainjob = objects.iter().find(|o| o["kind"] == "TrainJob").unwrap();
            for o in objects {
                common::validate_for(release, o).unwrap_or_else(|e| panic!("{at}: {e}"));
            }
            let source = migration.docs[0].source.as_ref().unwrap();
            let problems = explorer_judges::claims::migrate::false_claims_for(source, objects, report, release);
            assert!(problems.is_empty(), "{at}: false claims:\n{}", problems.join("\n"));
            let entry = report.iter().find(|e| e.from == "spec.runPolicy.managedBy").expect("an entry");
            assert!(!entry.note.contains("has no TrainJob field"), "{at}: {entry:?}");
            let carried = manager.starts_with("kueue") && release.controller.skips_other_managers;
            let written = trainjob.pointer("/spec/managedBy").and_then(Value::as_str);
            assert_eq!(written, carried.then_some(manager), "{at}: {trainjob:#}");
            match (manager.starts_with("kueue"), carried) {
                (_, true) => assert_eq!(entry.kind.id(), "mapped", "{at}: {entry:?}"),
                (true, false) => {
                    assert_eq!(entry.kind.id(), "dropped", "{at}: {entry:?}");
                    assert!(entry.note.contains("reconciles every TrainJob"), "{at}: {entry:?}");
                }
                (false, _) => {
                    assert_eq!(entry.kind.id(), "renamed", "{at}: {entry:?}");
                    assert!(entry.note.contains("trainer.kubeflow.org/trainjob-controller"), "{at}: {entry:?}");
                }
            }
        }
    }
}

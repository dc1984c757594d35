//! Every JSON answer of every command, over inputs nobody here wrote (the public V1 manifests of
//! `$TRAINER_REAL_V1`, the reference examples) and the upstream conformance cases, validated
//! against the JSON Schemas in `schema/` with a maintained validator (the `jsonschema` crate,
//! draft 2020-12). A script reads these answers by the schema: an output that leaves it fails
//! here.

use crate::run;
use explorer_judges as common;

use common::{real_v1_dir, reference_dir, workspace_root, yaml_files};
use explorer_data::catalog::Framework;
use explorer_data::releases::RELEASES;
use run::{cli, text};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn schema(name: &str) -> Value {
    let path = workspace_root().join("schema").join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn validator(schema: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::new(schema).unwrap_or_else(|e| panic!("the schema does not compile: {e}"))
}

/// The errors of `instance` against `v`, one line each with where they are (the message quotes
/// the instance, cut so that one wrong answer does not fill the screen).
fn errors(v: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance)
        .map(|e| {
            let message = e.to_string();
            let cut: String = message.chars().take(300).collect();
            let more = if cut.len() < message.len() { " …" } else { "" };
            format!("at '{}': {cut}{more}", e.instance_path())
        })
        .collect()
}

fn conformance_dir() -> PathBuf {
    workspace_root().join("crates/core/tests/conformance")
}

/// Each release tag with its conformance cases.
fn conformance_tags() -> Vec<(String, PathBuf)> {
    let mut tags: Vec<(String, PathBuf)> = std::fs::read_dir(conformance_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    tags.sort();
    assert!(tags.len() >= 4, "conformance cases for {} releases", tags.len());
    tags
}

/// The CLI's stdout as JSON, for a run that answered (exit 0, or 1 for a batch command that
/// reports failures per document and still prints every document).
fn json_of(args: &[&str]) -> Option<Value> {
    let out = cli(args);
    let stdout = text(&out.stdout);
    if stdout.trim().is_empty() {
        return None;
    }
    Some(serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}):\n{stdout}")))
}

/// What one command answered over the corpus: every answer, labelled.
struct Answers(Vec<(String, Value)>);

impl Answers {
    fn check(&self, schema_name: &str) {
        let v = validator(&schema(schema_name));
        let wrong: Vec<String> = self
            .0
            .iter()
            .flat_map(|(label, json)| errors(&v, json).into_iter().map(move |e| format!("{label}: {e}")))
            .collect();
        assert!(wrong.is_empty(), "{} of {schema_name}'s outputs leave the schema:\n{}", wrong.len(), wrong.join("\n"));
    }
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `explain -o json` over every real V1 manifest, every V1 and V2 reference example, every
/// conformance case at its release, and the widget's selections at every release.
fn explain_answers() -> Answers {
    let mut out = Vec::new();
    let reference = reference_dir();
    let inputs = yaml_files(&real_v1_dir())
        .into_iter()
        .chain(yaml_files(&reference.join("v1-examples")))
        .chain(yaml_files(&reference.join("mpi-operator-v2beta1")))
        .chain(yaml_files(&reference.join("v2-examples")));
    for file in inputs {
        // A file of several V1 jobs is refused (explain reads one at a time): no JSON.
        if let Some(json) = json_of(&["explain", "-o", "json", path_str(&file)]) {
            out.push((file.display().to_string(), json));
        }
    }
    for (tag, dir) in conformance_tags() {
        for file in yaml_files(&dir) {
            if let Some(json) = json_of(&["explain", "-o", "json", "--release", &tag, path_str(&file)]) {
                out.push((file.display().to_string(), json));
            }
        }
    }
    // Every framework the widget offers, from the catalog, so a framework that becomes
    // explainable (TensorFlow and PaddlePaddle on the plain-ML runtime) is checked too.
    for release in RELEASES {
        for framework in Framework::ALL {
            let query = format!("release={}&framework={}&nodes=3", release.line, framework.id());
            if let Some(json) = json_of(&["explain", "-o", "json", "--query", &query]) {
                out.push((query, json));
            }
        }
    }
    Answers(out)
}

/// Every framework of the catalog is explainable at every release with `--query`, TensorFlow and
/// PaddlePaddle included: the loop above checks each one's JSON.
#[test]
fn every_frameworks_query_is_explained() {
    for release in RELEASES {
        for framework in Framework::ALL {
            let query = format!("release={}&framework={}&nodes=3", release.line, framework.id());
            let json = json_of(&["explain", "-o", "json", "--query", &query]);
            assert!(json.is_some_and(|j| j.get("trainer").is_some()), "{query}: no explanation");
        }
    }
}

#[test]
fn explain_json_follows_its_schema_on_the_real_corpus() {
    let answers = explain_answers();
    let v1 = answers.0.iter().filter(|(_, j)| j.get("operator").is_some()).count();
    let v2 = answers.0.len() - v1;
    // 29 real V1 files (two hold several jobs), the V1 examples; 341 conformance cases, queries.
    assert!(v1 >= 35 && v2 >= 300, "only {v1} V1 and {v2} V2 answers");
    answers.check("explain");

    // The corpus reaches every shape of an env value: with a branch taken out of the schema,
    // some answer fails. A schema nothing exercises would pass anything.
    let full = schema("explain");
    for (branch, what) in [(0, "a plain string"), (1, "{valueFrom}"), (2, "{perPod}")] {
        let mut cut = full.clone();
        let branches = cut["$defs"]["envValue"]["oneOf"].as_array_mut().unwrap();
        branches.remove(branch);
        let v = validator(&cut);
        assert!(
            answers.0.iter().any(|(_, json)| !v.is_valid(json)),
            "no explain answer has an env value that is {what}"
        );
    }
    // A V1 role whose pods lack a variable the others have reads null there, and some V1 role's
    // pods do differ: checked on the answers themselves.
    let per_pod: Vec<&Value> = answers
        .0
        .iter()
        .flat_map(|(_, j)| j["pods"].as_array().into_iter().flatten())
        .flat_map(|p| p["containers"].as_array().into_iter().flatten())
        .flat_map(|c| c["env"].as_object().into_iter().flat_map(|env| env.values()))
        .filter_map(|value| value.get("perPod"))
        .collect();
    assert!(per_pod.len() > 10, "only {} per-pod values", per_pod.len());
}

/// The shape scripts read before issue 31: a per-pod value as a string holding JSON, and `""`
/// for a pod without the variable. The schema refuses it.
#[test]
fn the_old_per_pod_string_leaves_the_schema() {
    let v = validator(&schema("explain"));
    let job = real_v1_dir().join("02-kueue-jaxjob.yaml");
    let mut json = json_of(&["explain", "-o", "json", path_str(&job)]).unwrap();
    assert!(v.is_valid(&json), "{:?}", errors(&v, &json));
    let env = &mut json["pods"][0]["containers"][0]["env"];
    assert_eq!(env["PROCESS_ID"], serde_json::json!({"perPod": ["0", "1"]}), "{env}");
    env["PROCESS_ID"] = r#"per pod: ["0","1"]"#.into();
    assert!(!v.is_valid(&json), "the old string passes");
    json["pods"][0]["containers"][0]["env"]["PROCESS_ID"] = serde_json::json!({"perPod": ["0", ""]});
    assert!(v.is_valid(&json), "an empty value is a value");
    json["pods"][0]["containers"][0]["env"]["PROCESS_ID"] = serde_json::json!({"perPod": "[\"0\",\"1\"]"});
    assert!(!v.is_valid(&json), "a list held in a string passes");
}

#[test]
fn migrate_json_follows_its_schema_on_the_real_corpus() {
    let reference = reference_dir();
    let mut answers = Vec::new();
    for dir in [real_v1_dir(), reference.join("v1-examples"), reference.join("mpi-operator-v2beta1")] {
        let json = json_of(&["migrate", "-o", "json", path_str(&dir)]).unwrap();
        assert!(
            json.as_array().is_some_and(|docs| docs.len() >= 2),
            "{}: {} documents",
            dir.display(),
            json.as_array().map_or(0, Vec::len)
        );
        answers.push((dir.display().to_string(), json));
    }
    let converted = answers.iter().flat_map(|(_, j)| j.as_array().unwrap()).filter(|d| d["outcome"] == "converted");
    assert!(converted.count() >= 40);
    Answers(answers).check("migrate");
}

#[test]
fn upgrade_json_follows_its_schema_on_the_conformance_cases_and_examples() {
    let mut answers = Vec::new();
    for (tag, dir) in conformance_tags() {
        let line = tag.rsplit_once('.').unwrap().0.to_string();
        if let Some(json) = json_of(&["upgrade", "-o", "json", "--from", &line, path_str(&dir)]) {
            answers.push((dir.display().to_string(), json));
        }
    }
    let examples = reference_dir().join("v2-examples");
    for from in ["v2.0", "v2.3"] {
        answers.push((
            format!("{from}: examples"),
            json_of(&["upgrade", "-o", "json", "--from", from, path_str(&examples)]).unwrap(),
        ));
    }
    let rewritten = answers.iter().flat_map(|(_, j)| j.as_array().unwrap()).filter(|d| d["outcome"] == "rewritten");
    assert!(rewritten.count() >= 100);
    Answers(answers).check("upgrade");
}

#[test]
fn validate_json_follows_its_schema_on_the_conformance_cases_and_real_manifests() {
    let mut answers = Vec::new();
    for (tag, dir) in conformance_tags() {
        answers.push((
            dir.display().to_string(),
            json_of(&["validate", "-o", "json", "--release", &tag, path_str(&dir)]).unwrap(),
        ));
    }
    for dir in [reference_dir().join("v2-examples"), real_v1_dir()] {
        answers.push((dir.display().to_string(), json_of(&["validate", "-o", "json", path_str(&dir)]).unwrap()));
    }
    let statuses: std::collections::BTreeSet<&str> = answers
        .iter()
        .flat_map(|(_, j)| j["resources"].as_array().unwrap())
        .filter_map(|r| r["status"].as_str())
        .collect();
    assert!(statuses.contains("valid") && statuses.contains("invalid"), "{statuses:?}");
    Answers(answers).check("validate");
}

#[test]
fn export_json_follows_its_schema() {
    let answers = vec![
        ("export".to_string(), json_of(&["export", "-o", "json"]).unwrap()),
        ("export --topics".to_string(), json_of(&["export", "-o", "json", "--topics"]).unwrap()),
        (
            "export --query".to_string(),
            json_of(&["export", "-o", "json", "--query", "persona=data-scientist&framework=jax&nodes=4"]).unwrap(),
        ),
    ];
    Answers(answers).check("export");
}

/// explain's answers on a stream of several jobs (a list, one answer per job, in order) and on a
/// file of runtimes only (each runtime's verdict) follow the schema; validate's on V1 kinds too.
#[test]
fn explain_lists_runtime_verdicts_and_v1_validate_follow_their_schemas() {
    let explain = validator(&schema("explain"));
    // A stream of a PyTorchJob, an MPIJob and a TrainJob (with the reference's runtime): a list.
    let pytorch_file = real_v1_dir().join("01-kueue-pytorchjob.yaml");
    let v1 = real_v1_dir().join("24-yunikorn-mpijob-pi.yaml");
    let trainjob = reference_dir().join("v2-examples/v2.3.0/05-multi-step.yaml");
    let list =
        json_of(&["explain", "-o", "json", path_str(&pytorch_file), path_str(&v1), path_str(&trainjob)]).unwrap();
    assert!(list.as_array().is_some_and(|a| a.len() >= 3), "{list}");
    assert!(list[2].get("trainer").is_some() && list[1].get("operator").is_some(), "{list}");
    assert!(explain.is_valid(&list), "{:?}", errors(&explain, &list));
    // Runtimes only: a verdict per runtime.
    let runtimes = reference_dir().join("v2-runtimes/v2.3.0");
    let runtime = yaml_files(&runtimes).into_iter().find(|f| !path_str(f).ends_with("kustomization.yaml")).unwrap();
    let verdict = json_of(&["explain", "-o", "json", path_str(&runtime)]).unwrap();
    assert_eq!(verdict["rejected"], serde_json::json!([]), "{verdict}");
    assert!(verdict["kind"].as_str().is_some_and(|k| k.ends_with("TrainingRuntime")), "{verdict}");
    assert!(explain.is_valid(&verdict), "{:?}", errors(&explain, &verdict));

    // validate on V1 kinds: admitted, and refused for a field the V1 CRD lacks.
    let validate = validator(&schema("validate"));
    let dir = tempdir("v1-validate");
    // The typo of spec.pytorchReplicaSpecs.Worker.replica, which the V1 CRD does not declare.
    let pytorch = std::fs::read_to_string(real_v1_dir().join("01-kueue-pytorchjob.yaml")).unwrap();
    let typo = pytorch.replacen("    Worker:\n      replicas:", "    Worker:\n      replica: 2\n      replicas:", 1);
    assert_ne!(typo, pytorch);
    std::fs::write(dir.join("typo.yaml"), &typo).unwrap();
    std::fs::copy(&v1, dir.join("mpijob.yaml")).unwrap();
    std::fs::copy(&pytorch_file, dir.join("pytorch.yaml")).unwrap();
    let answer = json_of(&["validate", "-o", "json", path_str(&dir)]).unwrap();
    let statuses: Vec<&str> =
        answer["resources"].as_array().unwrap().iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert!(statuses.contains(&"valid") && statuses.contains(&"invalid"), "{answer}");
    assert!(validate.is_valid(&answer), "{:?}", errors(&validate, &answer));
    // explain and validate name the same unknown field (one rule, explain::v1::unknown_fields).
    let unknown = "spec.pytorchReplicaSpecs.Worker.replica";
    assert!(answer.to_string().contains(unknown), "{answer}");
    let refused = json_of(&["explain", "-o", "json", path_str(&dir.join("typo.yaml"))]).unwrap();
    assert_eq!(refused["rejected"][0]["field"], unknown, "{refused}");
    // real-v1/24's MPIJob: the pod templates' `labels` (outside `metadata`), the same paths.
    let fields = |rejections: &Value| -> Vec<String> {
        rejections.as_array().unwrap().iter().map(|r| r["field"].as_str().unwrap().to_string()).collect()
    };
    let by_validate = fields(&answer["resources"][0]["errors"]);
    assert_eq!(answer["resources"][0]["kind"], "MPIJob");
    assert_eq!(by_validate.len(), 2, "{by_validate:?}");
    let by_explain = json_of(&["explain", "-o", "json", path_str(&v1)]).unwrap();
    assert_eq!(fields(&by_explain["rejected"]), by_validate);
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("json-schema-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A TrainJob admitted that then fails (a negative numNodes): explain's `failsAfterAdmission`
/// and validate's `fails-after-admission` status follow their schemas.
#[test]
fn an_answer_admitted_then_failing_follows_the_schemas() {
    let dir = tempdir("fails-after-admission");
    let file = dir.join("negative.yaml");
    let job = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: x}\nspec:\n  \
               runtimeRef: {name: torch-distributed}\n  trainer: {numNodes: -1}\n";
    std::fs::write(&file, job).unwrap();
    let explained = admitted_then_failing(&file);
    assert_eq!(explained["failsAfterAdmission"][0]["field"], "spec.trainer.numNodes", "{explained}");
    std::fs::remove_dir_all(dir).ok();
}

/// explain's answer for `file`, checked against its schema, after validate's JSON for it was
/// checked against its own and found `fails-after-admission`.
fn admitted_then_failing(file: &Path) -> Value {
    let explained = json_of(&["explain", "-o", "json", path_str(file)]).unwrap();
    let explain = validator(&schema("explain"));
    assert!(explain.is_valid(&explained), "{:?}", errors(&explain, &explained));
    let validated = json_of(&["validate", "-o", "json", path_str(file)]).unwrap();
    assert_eq!(validated["resources"][0]["status"], "fails-after-admission", "{validated}");
    let validate = validator(&schema("validate"));
    assert!(validate.is_valid(&validated), "{:?}", errors(&validate, &validated));
    explained
}

/// A V1 job admitted whose pod Service name Training Operator v1.9 cannot create (longer than 63
/// characters, training-operator v1.9.0:pkg/controller.v1/common/service.go:243): explain's
/// `failsAfterAdmission` on the V1 answer, beside its pods, and validate's
/// `fails-after-admission` status follow their schemas.
#[test]
fn a_v1_job_admitted_then_failing_follows_the_schemas() {
    let dir = tempdir("v1-fails-after-admission");
    let file = dir.join("long.yaml");
    let job = format!(
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {{name: p{}}}\nspec:\n  pytorchReplicaSpecs:\n    \
         Master:\n      replicas: 1\n      template: {{spec: {{containers: [{{name: pytorch, image: a}}]}}}}\n",
        "a".repeat(54)
    );
    std::fs::write(&file, job).unwrap();
    let explained = admitted_then_failing(&file);
    assert_eq!(explained["failsAfterAdmission"][0]["field"], "spec.pytorchReplicaSpecs.Master", "{explained}");
    assert_eq!(explained["pods"][0]["count"], 1, "{explained}");
    std::fs::remove_dir_all(dir).ok();
}

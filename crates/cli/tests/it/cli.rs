//! The CLI as docs maintainers use it.
#![cfg(not(target_arch = "wasm32"))]

use crate::run;
use explorer_judges as common;
use explorer_judges::v2_head;
use run::cli_with_stdin;

use std::process::Command;

fn cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_trainer-explorer")).args(args).output().unwrap()
}

#[test]
fn export_without_query_covers_every_persona_and_framework() {
    let out = cli(&["export", "--format", "json"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["trainer"], explorer_data::releases::NEWEST.tag);
    let snippets = json["snippets"].as_array().unwrap();
    for persona in ["platform-engineer", "data-scientist"] {
        for framework in ["pytorch", "deepspeed", "mlx", "jax", "xgboost", "torchtune", "mpi", "tensorflow", "paddle"] {
            let n = snippets.iter().filter(|s| s["persona"] == persona && s["framework"] == framework).count();
            assert!(n >= 1, "{persona}/{framework}");
        }
    }
    for s in snippets {
        for key in ["persona", "framework", "api", "language", "title", "code"] {
            assert!(s[key].is_string(), "{key} missing in {s}");
        }
    }
}

#[test]
fn export_with_a_query_prints_that_selection() {
    let out = cli(&["export", "--format", "json", "--query", "persona=data-scientist&framework=jax&nodes=4"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let snippets = json["snippets"].as_array().unwrap();
    assert!(snippets.iter().all(|s| s["framework"] == "jax" && s["persona"] == "data-scientist"));
    assert!(snippets[0]["code"].as_str().unwrap().contains("numNodes: 4"));
}

/// A runtime generated for a TensorFlow or PaddlePaddle job is a TrainingRuntime whatever the
/// query asks (`plain_ml::RUNTIME_SCOPE`): a query that names the cluster scope gets that kind,
/// and a note on stderr saying so and why, as the widget shows in place of its scope switch.
#[test]
fn export_tells_a_cluster_scope_query_that_a_generated_runtime_is_namespaced() {
    let reason = explorer_core::plain_ml::RUNTIME_SCOPE_REASON;
    for persona in ["platform-engineer", "data-scientist"] {
        for framework in ["tensorflow", "paddle"] {
            let q = format!("persona={persona}&framework={framework}&scope=cluster");
            let out = cli(&["export", "--format", "json", "--query", &q]);
            assert!(out.status.success(), "{q}");
            let err = String::from_utf8(out.stderr).unwrap();
            assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
            assert!(err.contains("TrainingRuntime (one namespace)") && err.contains(reason), "{q}: {err}");
            assert!(err.contains("scope=cluster"), "{q}: {err}");
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let code = json["snippets"][0]["code"].as_str().unwrap();
            assert!(code.contains("kind: TrainingRuntime"), "{q}: {code}");
            assert!(!code.contains("ClusterTrainingRuntime"), "{q}: {code}");
        }
    }
    // No note where the scope applies, or where the query does not ask for one.
    for q in ["framework=pytorch&scope=cluster", "framework=tensorflow", "framework=paddle&scope=namespaced"] {
        let out = cli(&["export", "--format", "json", "--query", q]);
        assert!(out.status.success(), "{q}");
        assert!(out.stderr.is_empty(), "{q}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn an_invalid_query_exits_1_with_one_line_on_stderr() {
    for q in ["nodes=-7", "persona=<script>", "colour=blue"] {
        let out = cli(&["export", "--format", "json", "--query", q]);
        assert_eq!(out.status.code(), Some(1), "{q}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(out.stdout.is_empty());
    }
}

fn reference(rel: &str) -> String {
    common::reference_dir().join(rel).display().to_string()
}

#[test]
fn migrate_converts_a_batch_prints_yaml_and_warns_about_losses() {
    let out = cli(&[
        "migrate",
        &reference("v1-examples/pytorch/simple.yaml"),
        &reference("v1-examples/jax/cpu-demo/demo.yaml"),
        &reference("mpi-operator-v2beta1/pi.yaml"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.matches("kind: TrainJob").count(), 3);
    assert!(stdout.contains("kind: TrainingRuntime"), "pi.yaml needs a generated MPI runtime");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(&format!("converted for Trainer {} with losses", explorer_data::releases::NEWEST.tag)));
    assert!(stderr.contains("dropped  spec.runPolicy.cleanPodPolicy"));
}

#[test]
fn migrate_writes_for_the_target_release() {
    let (pytorch, jax) =
        (reference("v1-examples/pytorch/cpu-demo/demo.yaml"), reference("v1-examples/jax/cpu-demo/demo.yaml"));
    let out = cli(&["migrate", "--target", "v2.1", &pytorch]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("converted for Trainer v2.1.0"), "{stderr}");
    // v2.1 takes numProcPerNode as a number or a name; the report says which v2.1 rule applied.
    assert!(stderr.contains("in v2.1.0 numProcPerNode is a number or auto, cpu, gpu"), "{stderr}");
    // No JAX runtime before v2.2: refused, exit 1, the reason names the release to target.
    let out = cli(&["migrate", "--quiet", "--target", "v2.1", &jax]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("Trainer v2.1.0 has no JAX runtime") && stderr.contains("--target v2.2"), "{stderr}");
    assert!(cli(&["migrate", "--quiet", "--target", "v2.2", &jax]).status.success());
}

#[test]
fn migrate_refuses_an_unknown_target_naming_the_known_ones() {
    let out = cli(&["migrate", "--target", "v2.9", &reference("v1-examples/pytorch/simple.yaml")]);
    assert_ne!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(r#"unknown Trainer release "v2.9": one of v2.0, v2.1, v2.2, v2.3"#), "{stderr}");
}

#[test]
fn migrate_reads_stdin() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_trainer-explorer"))
        .args(["migrate", "--quiet", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(std::fs::read(reference("v1-examples/xgboost/xgboostjob.yaml")).unwrap().as_slice())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().contains("name: xgboost-distributed"));
}

#[test]
fn migrate_refuses_tfjob_and_bad_input_with_one_line_each_and_exit_1() {
    let dir = std::env::temp_dir().join(format!("tv2x-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("garbage.bin");
    std::fs::write(&garbage, [0u8, 159, 146, 150, 0, 1]).unwrap();
    // A TFJob whose workers come and go (enableDynamicWorker) has no V2 form.
    let dynamic = dir.join("dynamic.yaml");
    let tf = std::fs::read_to_string(reference("v1-examples/tensorflow/simple.yaml")).unwrap();
    std::fs::write(&dynamic, tf.replacen("spec:\n", "spec:\n  enableDynamicWorker: true\n", 1)).unwrap();
    let out = cli(&["migrate", "--quiet", dynamic.to_str().unwrap(), garbage.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<_> = stderr.lines().filter(|l| l.starts_with("trainer-explorer:")).collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].contains("TFJob tfjob-simple refused"));
    assert!(lines[1].contains("binary data"));
    std::fs::remove_dir_all(dir).ok();
}

/// A v2.1 TrainJob with a pod template override and a runtime whose process count no TrainJob takes over.
const V2_1_TRAINJOB: &str = concat!(
    v2_head!("TrainJob", "mnist"),
    "  runtimeRef:
    name: torch-distributed
  trainer:
    numProcPerNode: auto
  podTemplateOverrides:
    - targetJobs:
        - name: node
      spec:
        nodeSelector:
          gpu: a100
---
",
    v2_head!("ClusterTrainingRuntime", "eight"),
    "  mlPolicy:
    torch:
      numProcPerNode: 8
"
);

#[test]
fn upgrade_reads_stdin_prints_the_yaml_and_the_report_with_release_and_reason() {
    let out = cli_with_stdin(&["upgrade", "--from", "v2.1", "--to", "v2.3", "-"], V2_1_TRAINJOB);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let docs: Vec<serde_json::Value> =
        serde_yaml::Deserializer::from_str(&stdout).map(|d| serde::Deserialize::deserialize(d).unwrap()).collect();
    assert_eq!(docs.len(), 2, "{stdout}");
    let patch = &docs[0]["spec"]["runtimePatches"][0];
    assert_eq!(patch["manager"], "trainer-v2-explorer/upgrade");
    let pod = &patch["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"];
    assert_eq!(pod["spec"]["nodeSelector"]["gpu"], "a100");
    // `auto` is left out, and with it the `trainer` it was alone in.
    assert!(docs[0]["spec"].get("trainer").is_none(), "{stdout}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("-: document 1 (line 1): TrainJob mnist rewritten for v2.1 → v2.3"), "{stderr}");
    assert!(
        stderr.contains("renamed   spec.podTemplateOverrides[0].spec.nodeSelector -> spec.runtimePatches[0]."),
        "{stderr}"
    );
    assert!(stderr.contains("(v2.2 #3309: pod settings became runtime patches"), "{stderr}");
    assert!(stderr.contains("omitted   spec.trainer.numProcPerNode (v2.2 #3239:"), "{stderr}");
    assert!(stderr.contains("ClusterTrainingRuntime eight rewritten for v2.1 → v2.3 with losses"), "{stderr}");
    assert!(stderr.contains("dropped   spec.mlPolicy.torch.numProcPerNode (v2.2 #3239:"), "{stderr}");

    // --quiet: only the lossy document, in one line: the headline the full report gives it.
    let out = cli_with_stdin(&["upgrade", "--quiet", "--from", "v2.1", "-"], V2_1_TRAINJOB);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "-: document 2 (line 17): ClusterTrainingRuntime eight rewritten for v2.1 → v2.3 with losses\n\
         Summary: 2 documents in 1 file: 2 manifests rewritten (1 with losses), 0 refused\n"
    );
}

#[test]
fn upgrade_refuses_what_it_cannot_rewrite_with_one_line_each_and_exit_1() {
    let dir = std::env::temp_dir().join(format!("tv2x-cli-upgrade-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let v2_2 = dir.join("v2.2.yaml");
    std::fs::write(&v2_2, "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j}\nspec:\n  runtimeRef: {name: torch-distributed}\n  activeDeadlineSeconds: 60\n").unwrap();
    let broken = dir.join("broken.yaml");
    std::fs::write(&broken, "kind: [unclosed\n").unwrap();
    let out = cli(&["upgrade", "--from", "v2.1", v2_2.to_str().unwrap(), broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<_> = stderr.lines().filter(|l| l.starts_with("trainer-explorer:")).collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].contains("TrainJob j refused: spec.activeDeadlineSeconds arrived in v2.2"), "{stderr}");
    assert!(lines[1].contains("not valid YAML"), "{stderr}");
    std::fs::remove_dir_all(dir).ok();

    let out = cli_with_stdin(&["upgrade", "--from", "v2.3", "--to", "v2.1", "-"], V2_1_TRAINJOB);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("trainer-explorer: -: v2.3 → v2.1 is a downgrade"), "{stderr}");

    // An unknown release is a usage error, as clap reports them (exit 2).
    let out = cli(&["upgrade", "--from", "v1.9", "-"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = explorer_data::releases::RELEASES.iter().map(|r| r.line).collect();
    let expected = format!("unknown Trainer release \"v1.9\": one of {}", lines.join(", "));
    assert!(stderr.contains(&expected), "{stderr}");
}

/// Runs the CLI with its stdout a pipe whose reading end is already closed, as `| head` leaves it
/// once it has its lines: every write the CLI makes fails with a broken pipe.
fn cli_into_closed_pipe(args: &[&str]) -> std::process::Output {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_trainer-explorer"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

/// `trainer-explorer explain … | head` is how a reader looks at a long answer: the reader closing
/// the pipe is not the tool failing, so no panic message and no error line, for each command that
/// prints on stdout (single answer, batch YAML, batch JSON).
#[test]
fn a_reader_closing_the_pipe_early_gets_no_panic_and_no_error() {
    let example = reference("v1-examples/pytorch/simple.yaml");
    for args in [
        vec!["explain", "--query", "framework=deepspeed&nodes=4"],
        vec!["export", "--format", "json"],
        vec!["migrate", "--quiet", example.as_str()],
        vec!["migrate", "--format", "json", example.as_str()],
    ] {
        let out = cli_into_closed_pipe(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked") && !stderr.contains("Broken pipe"), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    }
}

/// `upgrade --format json`: each document in the shape `migrate --format json` gives one (its
/// position, outcome, objects and report), each report entry with `status` and `note` as a
/// migration's and `from`/`to` where a migration has `v1`/`v2`, `to` naming each place's
/// document; plus the API changes it went through. A migration's entries keep their fields.
#[test]
fn upgrade_json_gives_each_document_in_the_shape_of_migrate_json() {
    use serde_json::{json, Value};
    let keys = |v: &Value| {
        let mut keys: Vec<String> = v.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
        keys.sort();
        keys
    };
    let out = cli_with_stdin(&["upgrade", "--format", "json", "--from", "v2.1", "--to", "v2.3", "-"], V2_1_TRAINJOB);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let docs: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(docs.len(), 2);
    let (mnist, eight) = (&docs[0], &docs[1]);
    assert_eq!(
        [
            &mnist["document"],
            &mnist["line"],
            &mnist["outcome"],
            &mnist["kind"],
            &mnist["name"],
            &mnist["lossy"],
            &mnist["file"]
        ],
        [&json!(1), &json!(1), &json!("rewritten"), &json!("TrainJob"), &json!("mnist"), &json!(false), &json!("-")]
    );
    assert_eq!(mnist["objects"][0]["spec"]["runtimePatches"][0]["manager"], "trainer-v2-explorer/upgrade");
    let selector = "spec.podTemplateOverrides[0].spec.nodeSelector";
    let renamed =
        mnist["report"].as_array().unwrap().iter().find(|e| e["from"] == selector).expect("the override's entry");
    assert_eq!(keys(renamed), ["changes", "from", "note", "status", "to"]);
    assert_eq!(renamed["status"], "renamed");
    assert_eq!(
        renamed["to"],
        json!([{"document": 1, "path": "spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec.nodeSelector"}])
    );
    let releases: Vec<&Value> = renamed["changes"].as_array().unwrap().iter().map(|c| &c["release"]).collect();
    assert_eq!(releases, [&json!("v2.2")]);
    assert_eq!((&eight["outcome"], &eight["lossy"]), (&json!("rewritten"), &json!(true)));
    let dropped = eight["report"].as_array().unwrap().iter().find(|e| e["status"] == "dropped").expect("the drop");
    assert_eq!(dropped["from"], "spec.mlPolicy.torch.numProcPerNode");
    assert!(dropped["note"].as_str().unwrap().contains("numProcPerNode: 8"), "{dropped}");

    // The same document fields as a migration's, which adds its pod comparison.
    let out = cli(&["migrate", "--format", "json", &reference("v1-examples/pytorch/simple.yaml")]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let migrated: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let mut fields = keys(&migrated[0]);
    fields.retain(|k| k != "pods");
    assert_eq!(fields, keys(mnist));
    assert_eq!(keys(&migrated[0]["report"][0]), ["note", "status", "v1", "v2"]);
}

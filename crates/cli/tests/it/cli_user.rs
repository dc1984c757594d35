//! The CLI as a user who installed it with pip meets it: directories, one file per object,
//! a summary per run, one line per refusal, `-o`, help that says what the tool is for, the
//! release that judges, and messages in the API server's words.
#![cfg(not(target_arch = "wasm32"))]

use crate::run;
use explorer_judges as common;
use run::{cli, cli_with_stdin as with_stdin, text};

use std::path::{Path, PathBuf};

fn reference(rel: &str) -> PathBuf {
    common::reference_dir().join(rel)
}

/// A new empty folder under the system's temp dir.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tv2x-cli-user-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap();
}

/// A V1 job the migrator refuses whatever else is added: mpi-operator's v1alpha2 layout.
fn refused_job() -> PathBuf {
    common::real_v1_dir().join("10-awsdoeks-nccl-efa-v1alpha2.yaml")
}

#[test]
fn migrate_reads_directories_recursively_and_ends_with_a_summary() {
    let dir = scratch("dir");
    copy(&reference("v1-examples/pytorch/simple.yaml"), &dir.join("team-a/simple.yaml"));
    copy(&reference("v1-examples/xgboost/xgboostjob.yaml"), &dir.join("team-b/deep/xgb.yml"));
    copy(&refused_job(), &dir.join("old.yaml"));
    std::fs::write(dir.join("README.md"), "not a manifest").unwrap();
    let out = cli(&["migrate", "--quiet", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "one job is refused");
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("kind: TrainJob").count(), 2, "{stdout}");
    let stderr = text(&out.stderr);
    let last = stderr.lines().last().unwrap();
    assert_eq!(last, "Summary: 3 documents in 3 files: 2 jobs converted (2 with losses), 1 refused", "{stderr}");
    // Every file under the folder was read, the Markdown one was not.
    for f in ["team-a/simple.yaml", "team-b/deep/xgb.yml", "old.yaml"] {
        assert!(stderr.contains(&dir.join(f).display().to_string()), "{f} in {stderr}");
    }
    assert!(!stderr.contains("README.md"), "{stderr}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn migrate_over_the_real_v1_folder_counts_its_29_files() {
    let out = cli(&["migrate", "--quiet", common::real_v1_dir().to_str().unwrap()]);
    let stderr = text(&out.stderr);
    let summary = stderr.lines().last().unwrap();
    assert!(summary.starts_with("Summary: ") && summary.contains(" in 29 files: "), "{summary}");
}

#[test]
fn a_refusal_is_printed_once() {
    for quiet in [false, true] {
        let job = refused_job();
        let mut args = vec!["migrate", job.to_str().unwrap()];
        if quiet {
            args.insert(1, "--quiet");
        }
        let out = cli(&args);
        assert_eq!(out.status.code(), Some(1));
        let stderr = text(&out.stderr);
        assert_eq!(stderr.matches("MPIJob nccl-tests-efa refused").count(), 1, "quiet {quiet}: {stderr}");
    }
}

#[test]
fn output_dir_writes_the_files_the_page_names_in_the_order_to_apply_them() {
    let dir = scratch("out");
    let pi = reference("mpi-operator-v2beta1/pi.yaml");
    let out = cli(&["migrate", "--quiet", "--output-dir", dir.to_str().unwrap(), pi.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "the objects go to files, not stdout");
    // The page's names and order: the core's output_objects, as the widget calls it.
    let source = std::fs::read_to_string(&pi).unwrap();
    let m = explorer_core::migrate::migrate_to(&source, explorer_data::releases::NEWEST).unwrap();
    let objects = explorer_core::pipeline::output::output_objects(&m.docs);
    let names: Vec<&str> = objects.iter().map(|o| o.file.as_str()).collect();
    assert_eq!(names.len(), 2, "a runtime and the TrainJob: {names:?}");
    assert!(names[0].starts_with("trainingruntime-") && names[1] == "trainjob-pi.yaml", "{names:?}");
    let mut written: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    written.sort();
    let mut expected: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    expected.sort();
    assert_eq!(written, expected);
    for o in &objects {
        assert_eq!(std::fs::read_to_string(dir.join(&o.file)).unwrap(), o.yaml, "{}", o.file);
    }
    let apply = format!("kubectl apply -f {} -f {}", dir.join(names[0]).display(), dir.join(names[1]).display());
    assert!(text(&out.stderr).lines().any(|l| l == apply), "{}", text(&out.stderr));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn dash_o_is_the_output_flag_of_every_command() {
    let job = reference("v1-examples/pytorch/simple.yaml");
    let job = job.to_str().unwrap();
    for args in [
        vec!["export", "-o", "json", "--query", "framework=jax"],
        vec!["migrate", "-o", "json", job],
        vec!["explain", "-o", "yaml", "--query", "framework=jax"],
    ] {
        let out = cli(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
    let out = cli(&["migrate", "-o", "json", job]);
    assert!(serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap().is_array());
    // The long form and the old spelling still work.
    assert!(cli(&["migrate", "--output", "json", job]).status.success());
    assert!(cli(&["migrate", "--format", "json", job]).status.success());
}

#[test]
fn the_help_says_what_the_tool_is_for() {
    let help = text(&cli(&["--help"]).stdout);
    let first = help.lines().next().unwrap();
    assert!(first.contains("Training Operator V1") && first.contains("Trainer V2"), "{first}");
    assert!(help.contains("Examples:") && help.contains("trainer-explorer migrate"), "{help}");
}

/// `migrate` reads all six Training Operator kinds (TFJob and PaddleJob move to a plain-ML
/// runtime), and its help names every one of them, in the command list and in its own help.
#[test]
fn migrate_help_names_every_v1_kind_it_reads() {
    for args in [&["--help"][..], &["migrate", "--help"][..]] {
        let help = text(&cli(args).stdout);
        let line = help.lines().find(|l| l.contains("Convert V1 jobs")).unwrap_or_else(|| panic!("{help}"));
        for kind in ["PyTorchJob", "MPIJob", "JAXJob", "XGBoostJob", "TFJob", "PaddleJob"] {
            assert!(line.contains(kind), "{args:?}: {kind} missing from {line}");
        }
    }
}

#[test]
fn explain_says_which_release_judges_the_files() {
    let job = reference("v2-examples/v2.3.0/01-multi-node.yaml");
    let help = text(&cli(&["explain", "--help"]).stdout);
    assert!(help.contains(&format!("[default: {}]", explorer_data::releases::NEWEST.line)), "{help}");
    let out = cli(&["explain", job.to_str().unwrap()]);
    assert!(
        text(&out.stderr).contains(&format!("judged by Trainer {}", explorer_data::releases::NEWEST.tag)),
        "{}",
        text(&out.stderr)
    );
    let out = cli(&["explain", "--release", "v2.1", job.to_str().unwrap()]);
    assert!(text(&out.stderr).contains("judged by Trainer v2.1.0"), "{}", text(&out.stderr));
}

#[test]
fn messages_name_the_field_and_what_the_api_accepts_not_rust_types() {
    let negative = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: bad\nspec:\n  runtimeRef:\n    name: torch-distributed\n  trainer:\n    numNodes: -1\n";
    // A negative numNodes is admitted (no minimum in the CRD, none in the webhook): explain says
    // so, and what refuses it later, in its output (exit 1, as validate gives it).
    let out = with_stdin(&["explain", "-o", "text", "-"], negative);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("spec.trainer.numNodes: Invalid value: -1: admitted: the API server takes it"), "{stdout}");
    assert!(stdout.contains("0 admitted, 0 refused, 1 admitted then failing"), "{stdout}");
    let map_name = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: {a: 1}\nspec: {}\n";
    let out = with_stdin(&["migrate", "-"], map_name);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("metadata.name: Invalid value: \"object\": must be of type string"), "{stderr}");
    let replicas = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: x}\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: -1\n      template: {spec: {containers: [{name: pytorch, image: x}]}}\n";
    let out = with_stdin(&["migrate", "-"], replicas);
    let stderr = text(&out.stderr);
    // The CRD has no minimum for replicas; v1.9's webhook refuses a Worker count under 1
    // (v1.9.0:pkg/webhooks/pytorch/pytorchjob_webhook.go), in its own words and path.
    assert!(stderr.contains("spec.pytorchReplicaSpecs[Worker].replicas: Forbidden: must be at least 1"), "{stderr}");
    for s in [&stderr, &text(&with_stdin(&["explain", "-"], negative).stdout)] {
        for serde_word in ["u32", "invalid type", "invalid value", "expected a string"] {
            assert!(!s.contains(serde_word), "{serde_word:?} in {s}");
        }
    }
}

#[test]
fn an_empty_input_is_said_in_the_terminals_words_not_the_pages() {
    for args in [vec!["migrate", "-"], vec!["upgrade", "--from", "v2.1", "-"]] {
        let out = with_stdin(&args, "");
        assert_eq!(out.status.code(), Some(1));
        let stderr = text(&out.stderr);
        assert!(stderr.contains("input is empty") && !stderr.contains("paste"), "{args:?}: {stderr}");
    }
}

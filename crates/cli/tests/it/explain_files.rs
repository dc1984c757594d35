//! `trainer-explorer explain` on a user's files as a pip user meets it: every TrainJob of a
//! stream, a file of runtimes only, every problem of a document, one failure style with
//! validate's exit codes (0 admitted, 1 refused, 2 unreadable or usage), and `-o text`.
#![cfg(not(target_arch = "wasm32"))]

use crate::run;
use explorer_judges as common;

use explorer_data::releases::NEWEST;
use run::{cli, cli_with_stdin, text};
use serde_json::Value;

const GOOD: &str = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: good}\nspec:\n  \
                    runtimeRef: {name: torch-distributed}\n  trainer:\n    numNodes: 2\n    \
                    resourcesPerNode: {limits: {nvidia.com/gpu: 2}}\n";

/// Three problems of three kinds: a type the API refuses, another, and a CEL rule of the CRD.
const BAD: &str = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: bad}\nspec:\n  \
                   runtimeRef: {name: torch-distributed}\n  trainer:\n    numNodes: -1\n    args: 5\n  \
                   managedBy: nope\n";

const RUNTIME_OK: &str = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: {name: my-rt}\n\
                          spec:\n  mlPolicy: {numNodes: 1, torch: {}}\n  template:\n    spec:\n      replicatedJobs:\n      \
                          - name: node\n        template: {spec: {template: {spec: {containers: [{name: node, image: x}]}}}}\n";

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stderr)))
}

#[test]
fn every_trainjob_of_a_stream_is_explained_in_order() {
    let out = cli_with_stdin(&["explain", "-"], &format!("{GOOD}---\n{BAD}"));
    // One of them is refused: the answer says so, and so does the exit code.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v = json(&out);
    let list = v.as_array().expect("several TrainJobs: a list of explanations");
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["jobset"]["name"], "good");
    assert_eq!(list[0]["rejected"], serde_json::json!([]));
    assert!(list[1]["jobset"].is_null() && !list[1]["rejected"].as_array().unwrap().is_empty());
    // One TrainJob keeps the one-object answer.
    let out = cli_with_stdin(&["explain", "-"], GOOD);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["jobset"]["name"], "good");
}

#[test]
fn every_problem_of_a_document_is_reported_not_the_first() {
    let out = cli_with_stdin(&["explain", "-"], BAD);
    assert_eq!(out.status.code(), Some(1));
    let fields: Vec<String> =
        json(&out)["rejected"].as_array().unwrap().iter().map(|r| r["field"].as_str().unwrap().to_string()).collect();
    // numNodes -1 is no error of the API server's (no minimum in the CRD): it would fail only once
    // admitted (explain::after_admission), and this document is refused first.
    assert_eq!(fields, ["spec.trainer.args", "spec.managedBy"]);
    assert!(json(&out).get("failsAfterAdmission").is_none());
    // validate reports the same errors: one rule set.
    let out = cli_with_stdin(&["validate", "-o", "json", "-"], BAD);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    let validated: Vec<&str> =
        v["resources"][0]["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
    assert_eq!(validated, fields);
}

#[test]
fn a_file_of_runtimes_only_is_judged_against_the_release() {
    let out = cli_with_stdin(&["explain", "-"], RUNTIME_OK);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v = json(&out);
    assert_eq!((v["kind"].as_str(), v["name"].as_str()), (Some("ClusterTrainingRuntime"), Some("my-rt")));
    assert_eq!((v["trainer"].as_str(), &v["rejected"]), (Some(NEWEST.tag), &serde_json::json!([])));
    let unknown = RUNTIME_OK.replace("torch: {}", "torch: {}, extra: 1");
    let out = cli_with_stdin(&["explain", "-o", "text", "-"], &unknown);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains(
            "-:1: ClusterTrainingRuntime/my-rt: spec.mlPolicy.extra: strict decoding error: unknown field \"spec.mlPolicy.extra\""
        ),
        "{}",
        text(&out.stdout)
    );
    // validate judges a runtime with the same checks (it let the unknown field through before).
    let out = cli_with_stdin(&["validate", "-"], &unknown);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("spec.mlPolicy.extra: strict decoding error"), "{}", text(&out.stdout));
}

#[test]
fn refusals_come_the_same_way_in_every_format_with_one_exit_code_policy() {
    // A webhook refusal (a reserved env var), a type error, and a runtime that is not there.
    let webhook = GOOD.replace("numNodes: 2", "numNodes: 2\n    env: [{name: PET_NNODES, value: '3'}]");
    let missing = GOOD.replace("torch-distributed", "no-such-runtime");
    for input in [webhook.as_str(), BAD, missing.as_str()] {
        for format in ["json", "yaml", "text"] {
            let out = cli_with_stdin(&["explain", "-o", format, "-"], input);
            assert_eq!(out.status.code(), Some(1), "{format}: {input}");
            assert!(!out.stdout.is_empty(), "{format}: the refusal is the answer, on stdout");
            // stderr says which release judged, nothing else.
            assert!(text(&out.stderr).starts_with("trainer-explorer: judged by Trainer"), "{}", text(&out.stderr));
            assert_eq!(text(&out.stderr).lines().count(), 1, "{}", text(&out.stderr));
        }
    }
    // Unreadable input and wrong usage: 2, one line on stderr.
    for (args, stdin) in [
        (vec!["explain", "-"], "a: [b"),
        (vec!["explain", "-"], "kind: ConfigMap\n"),
        (vec!["explain", "--release", "v9.9", "-"], GOOD),
        (vec!["explain", "-o", "html", "-"], GOOD),
    ] {
        let out = cli_with_stdin(&args, stdin);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let help = text(&cli(&["explain", "--help"]).stdout);
    assert!(help.contains("Exit 0 when everything is admitted, 1 when something is refused"), "{help}");
}

#[test]
fn text_output_summarises_the_pods_as_the_page_does() {
    let out = cli_with_stdin(&["explain", "-o", "text", "-"], GOOD);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        format!("-:1: TrainJob/good: admitted by Trainer {}: the controller creates the JobSet good", NEWEST.tag)
    );
    assert!(
        lines
            .contains(&"  node × 2 pods; 2 GPUs each (nvidia.com/gpu); rank 0, good-node-0-0.good, is the coordinator"),
        "{stdout}"
    );
    assert!(
        lines.contains(
            &"    replicas 1, parallelism and completions 2; hostnames good-node-0-0.good, good-node-0-1.good"
        ),
        "{stdout}"
    );
    assert_eq!(
        lines.last().copied(),
        Some(format!("Summary: 1 explained (Trainer {}): 1 admitted, 0 refused", NEWEST.tag).as_str())
    );
    // A V1 job: what its operator runs, worded the same way.
    let v1 = std::fs::read_to_string(common::reference_dir().join("v1-examples/pytorch/simple.yaml")).unwrap();
    let out = cli_with_stdin(&["explain", "-o", "text", "-"], &v1);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("training-operator v1.9 runs it\n  Master × 1 pod"), "{}", text(&out.stdout));
}

#[test]
fn explain_and_validate_say_which_release_judges() {
    let out = cli_with_stdin(&["explain", "--release", "v2.1", "-o", "text", "-"], GOOD);
    assert!(text(&out.stdout).contains("admitted by Trainer v2.1.0"), "{}", text(&out.stdout));
    assert!(text(&out.stderr).contains("judged by Trainer v2.1.0"));
    let out = cli_with_stdin(&["validate", "--release", "v2.1", "-"], GOOD);
    assert!(text(&out.stdout).contains("(Trainer v2.1.0)"), "{}", text(&out.stdout));
}

/// A file whose only job has its kind spelt in another case holds nothing to explain; the
/// answer says which kind was meant, in the API server's words, not only "no TrainJob".
#[test]
fn a_misspelt_kind_alone_gets_a_did_you_mean() {
    for (input, meant) in [
        ("apiVersion: kubeflow.org/v1\nkind: PytorchJob\nmetadata: {name: x}\n", "PyTorchJob"),
        ("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: Trainjob\nmetadata: {name: x}\n", "TrainJob"),
    ] {
        let out = cli_with_stdin(&["explain", "-"], input);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("no TrainJob, TrainingRuntime, ClusterTrainingRuntime or V1 job in the input"),
            "{stderr}"
        );
        assert!(stderr.contains(&format!("did you mean {meant}? Kubernetes matches a kind exactly")), "{stderr}");
    }
}

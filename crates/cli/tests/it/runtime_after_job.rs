//! A runtime written after the TrainJob that references it is that TrainJob's runtime, as one
//! written before it: explain and validate read each document in turn and drop it once judged
//! (issue 36), yet judge every TrainJob with every runtime of its input (validate: of its file).
#![cfg(not(target_arch = "wasm32"))]

use crate::run::{cli, cli_with_stdin, text};

/// A TrainJob whose runtime only the input holds: a namespaced TrainingRuntime, which no release
/// ships.
const JOB: &str = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: uses-my-rt}\nspec:\n  \
                   runtimeRef: {name: my-rt, kind: TrainingRuntime}\n  trainer: {numNodes: 1}\n";

const RUNTIME: &str = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: my-rt}\n\
                       spec:\n  mlPolicy: {numNodes: 1, torch: {}}\n  template:\n    spec:\n      replicatedJobs:\n      \
                       - name: node\n        template: {spec: {template: {spec: {containers: [{name: node, image: \
                       my-image}]}}}}\n";

/// What validate says of a TrainJob whose runtime it has not read.
const NO_RUNTIME: &str = "give the runtime in the same file or with --runtimes DIR";

#[test]
fn validate_judges_a_trainjob_with_the_runtime_after_it() {
    // Without it, the TrainJob is invalid.
    let out = cli_with_stdin(&["validate", "-"], JOB);
    assert!(text(&out.stdout).contains(NO_RUNTIME), "{}", text(&out.stdout));
    // After a ConfigMap, and before and after another TrainJob of it: all valid.
    let config_map = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n";
    let input = format!("{config_map}---\n{JOB}---\n{JOB}---\n{RUNTIME}---\n{JOB}");
    let out = cli_with_stdin(&["validate", "-"], &input);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("Valid: 4, Invalid: 0, Errors: 0, Skipped: 1"), "{stdout}");
}

#[test]
fn explain_judges_a_trainjob_with_the_runtime_after_it_in_any_file() {
    let out = cli_with_stdin(&["explain", "-"], JOB);
    assert_ne!(out.status.code(), Some(0), "no runtime: {}", text(&out.stdout));
    let out = cli_with_stdin(&["explain", "-"], &format!("{JOB}---\n{RUNTIME}"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("my-image"), "the input's runtime: {}", text(&out.stdout));
    // The runtime in a file after the TrainJob's.
    let dir = std::env::temp_dir().join(format!("tv2x-runtime-after-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a-job.yaml"), format!("{JOB}---\n{JOB}")).unwrap();
    std::fs::write(dir.join("b-runtime.yaml"), RUNTIME).unwrap();
    let out = cli(&["explain", "-o", "text", dir.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stdout).contains("2 explained"), "{}", text(&out.stdout));
}

//! The batch commands' YAML on stdout (`migrate`, `upgrade`): the last part of the input is
//! written as it is made, not held whole (issue 36), and what a reader sees stays as it was: every
//! report and failure line on stderr first, then the YAML of every document written, the documents
//! that failed after them leaving it printed, then the summary, in that order also where stdout
//! and stderr are one stream (a terminal, `2>&1`).

use std::process::{Command, Output};

const CONFIG_MAP: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: \"1\"\n";
const PYTORCH_JOB: &str = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: mine\nspec:\n  \
                           pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n      template:\n        spec:\n          \
                           containers:\n          - name: pytorch\n            image: my/image:1\n";
const REFUSED_JOB: &str = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: bad\nspec: {}\n";
const NOT_YAML: &str = ": : :\n";

/// The CLI run with `args`, its stdout and stderr one pipe (`2>&1`): what a terminal shows.
fn one_stream(args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" 2>&1")
        .arg(env!("CARGO_BIN_EXE_trainer-explorer"))
        .args(args)
        .output()
        .unwrap()
}

/// For each run: run apart, its stdout comes whole after every line of its stderr but the summary
/// (the last), and together, the one stream reads the same: stderr, stdout, the summary.
#[test]
fn the_yaml_follows_every_report_line_and_precedes_the_summary_in_one_stream() {
    let dir = std::env::temp_dir().join(format!("tv2x-yaml-output-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, docs: &[&str]| {
        let path = dir.join(name);
        std::fs::write(&path, docs.join("---\n")).unwrap();
        path.display().to_string()
    };
    // Two files of several documents each, a failed one between written ones and at the end of each.
    let first = write("first.yaml", &[CONFIG_MAP, REFUSED_JOB, PYTORCH_JOB, NOT_YAML]);
    let last = write("last.yaml", &[PYTORCH_JOB, REFUSED_JOB, CONFIG_MAP, NOT_YAML]);
    let runs: [&[&str]; 4] = [
        &["migrate", &first, &last],
        &["migrate", "--quiet", &first, &last],
        &["upgrade", "--from", "v2.0", &first, &last],
        &["upgrade", "--from", "v2.0", "--quiet", &first, &last],
    ];
    for args in runs {
        let apart = Command::new(env!("CARGO_BIN_EXE_trainer-explorer")).args(args).output().unwrap();
        let together = one_stream(args);
        let (stdout, stderr) = (String::from_utf8(apart.stdout).unwrap(), String::from_utf8(apart.stderr).unwrap());
        assert_eq!(apart.status.code(), Some(1), "{args:?}: a document failed\n{stderr}");
        assert_eq!(together.status.code(), Some(1), "{args:?}");
        // Both files' written documents are printed, though documents after them failed.
        assert_eq!(stdout.matches("name: settings").count(), 2, "{args:?}\n{stdout}");
        let (reports, summary) = stderr.trim_end().rsplit_once('\n').unwrap();
        assert!(summary.starts_with("Summary: "), "{args:?}: {summary}");
        assert_eq!(String::from_utf8(together.stdout).unwrap(), format!("{reports}\n{stdout}{summary}\n"), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A value whose text ends with line breaks, last in the output (written as a `|+` block), reads
/// back from stdout as itself: the output's end is not trimmed. Both commands that print YAML, on
/// the last value of a ConfigMap that migrate passes on and of a TrainJob that upgrade rewrites.
#[test]
fn a_value_ending_in_line_breaks_last_in_the_output_reads_back_whole() {
    let dir = std::env::temp_dir().join(format!("tv2x-yaml-keep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config_map = dir.join("config-map.yaml");
    std::fs::write(&config_map, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: \"a\\n\\n\\n\"\n")
        .unwrap();
    let train_job = dir.join("trainjob.yaml");
    std::fs::write(
        &train_job,
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: t\nspec:\n  runtimeRef:\n    \
         name: torch-distributed\n  trainer:\n    command: [\"x\", \"y\\n\\n\"]\n",
    )
    .unwrap();
    let runs: [(&[&str], &std::path::Path, &str, &str); 2] = [
        (&["migrate"], &config_map, "/data/a", "a\n\n\n"),
        (&["upgrade", "--from", "v2.0"], &train_job, "/spec/trainer/command/1", "y\n\n"),
    ];
    for (args, file, pointer, value) in runs {
        let out = Command::new(env!("CARGO_BIN_EXE_trainer-explorer")).args(args).arg(file).output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let read: serde_json::Value =
            serde_yaml::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}\n{stdout}"));
        assert_eq!(read.pointer(pointer).and_then(|v| v.as_str()), Some(value), "{args:?}:\n{stdout}");
        assert!(stdout.ends_with('\n'), "{args:?}: {stdout:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

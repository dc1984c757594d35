//! Text from input reaches the terminal seen, not obeyed: a job named with ESC sequences (a
//! title change, a screen clear, red text), DEL, a C1 control and bidirectional overrides is shown
//! escaped on stderr and stdout by migrate, upgrade and explain, in every output format; JSON
//! escapes every control character and still reads back as the name.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Stdio};

/// The issue's name, as YAML writes it, and what it reads as.
const NAME_YAML: &str = r#""job\e]0;owned\a\e[2J\e[1;31m\x7f\u0085\u202e\u2066x\u2069""#;
const NAME: &str = "job\u{1b}]0;owned\u{7}\u{1b}[2J\u{1b}[1;31m\u{7f}\u{85}\u{202e}\u{2066}x\u{2069}";
/// How a terminal shows it.
const SHOWN: &str = r"job\u{1b}]0;owned\u{7}\u{1b}[2J\u{1b}[1;31m\u{7f}\u{85}\u{202e}\u{2066}x\u{2069}";

fn hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}')
}

fn run(args: &[&str], stdin: &str) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_trainer-explorer"))
        .args(args)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap());
    for (stream, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        let raw: Vec<char> = text.chars().filter(|&c| hidden(c)).collect();
        assert!(raw.is_empty(), "{args:?}: {stream} holds {raw:?} raw:\n{text}");
    }
    (stdout, stderr)
}

fn pytorchjob(kind: &str) -> String {
    format!(
        "apiVersion: kubeflow.org/v1\nkind: {kind}\nmetadata:\n  name: {NAME_YAML}\n  labels: {{team: {NAME_YAML}}}\nspec:\n  \
         pytorchReplicaSpecs:\n    Worker:\n      replicas: 1\n      template: {{spec: {{containers: [{{name: pytorch, image: \
         'a:1', args: [{NAME_YAML}]}}]}}}}\n"
    )
}

fn trainjob(runtime: &str) -> String {
    format!(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: {NAME_YAML}\n  labels: {{team: \
         {NAME_YAML}}}\nspec:\n  runtimeRef:\n    name: {runtime}\n  trainer:\n    args: [{NAME_YAML}]\n"
    )
}

#[test]
fn migrate_shows_the_name_escaped_on_stderr_and_stdout() {
    let (stdout, stderr) = run(&["migrate"], &pytorchjob("PyTorchJob"));
    assert!(stderr.contains(SHOWN), "{stderr}");
    // The YAML on stdout quotes it with YAML's escapes, and reads back as the name.
    let docs: Vec<serde_json::Value> =
        serde_yaml::Deserializer::from_str(&stdout).map(|d| serde::Deserialize::deserialize(d).unwrap()).collect();
    assert!(docs.iter().any(|d| d.to_string().contains(&serde_json::to_string(NAME).unwrap()[1..4])), "{stdout}");
    assert!(stdout.contains(r"\e") || stdout.contains(r"\u001b"), "{stdout}");
    let (json, _) = run(&["migrate", "--format", "json"], &pytorchjob("PyTorchJob"));
    assert!(json.contains(r"job\u001b]0;owned\u0007\u001b[2J\u001b[1;31m\u007f\u0085\u202e\u2066x\u2069"), "{json}");
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(parsed.to_string().contains("owned"));
    // A refused job: the failure line names it, escaped.
    let (_, stderr) = run(&["migrate", "--quiet"], &pytorchjob("TFJob"));
    assert!(stderr.contains(SHOWN), "{stderr}");
}

/// A file named with an ESC sequence: each of `migrate`'s report lines starts with the name,
/// shown escaped (the CLI escapes it once for all of them).
#[test]
fn migrate_shows_a_file_name_escaped_on_every_report_line() {
    let dir = std::env::temp_dir().join(format!("tv2x-cli-control-name-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("job\u{1b}[2J.yaml");
    std::fs::write(&file, pytorchjob("PyTorchJob")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_trainer-explorer")).arg("migrate").arg(&file).output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let label = format!("{}: ", dir.join(r"job\u{1b}[2J.yaml").display());
    let report: Vec<&str> = stderr.lines().filter(|line| !line.starts_with("Summary: ")).collect();
    assert!(report.len() > 1 && report.iter().all(|line| line.starts_with(&label)), "{stderr}");
    assert!(!stderr.chars().any(hidden), "{stderr}");
}

#[test]
fn upgrade_shows_the_name_escaped_on_stderr_and_stdout() {
    let (stdout, stderr) = run(&["upgrade", "--from", "v2.0"], &trainjob("torch-distributed"));
    assert!(stderr.contains(SHOWN), "{stderr}");
    assert!(!stdout.is_empty());
    let (json, _) = run(&["upgrade", "--from", "v2.0", "--format", "json"], &trainjob("torch-distributed"));
    assert!(json.contains(r"job\u001b]0;owned\u0007\u001b[2J\u001b[1;31m\u007f\u0085\u202e\u2066x\u2069"), "{json}");
}

#[test]
fn explain_shows_the_name_escaped_on_stderr_and_stdout() {
    // A runtime the release does not ship, named like the job: the refusal names it.
    let (stdout, _) = run(&["explain", "-o", "text"], &trainjob(NAME_YAML));
    assert!(stdout.contains("ships no ClusterTrainingRuntime"), "{stdout}");
    assert!(stdout.contains(r"\u{1b}]0;owned") && !stdout.contains('\u{1b}'), "{stdout}");
    for format in ["json", "yaml"] {
        let (stdout, _) = run(&["explain", "--format", format], &trainjob("torch-distributed"));
        assert!(stdout.contains("owned"), "{format}: {stdout}");
    }
    let (stdout, _) = run(&["explain", "--format", "yaml"], &pytorchjob("PyTorchJob"));
    assert!(stdout.contains("owned"), "{stdout}");
}

#[test]
fn validate_shows_the_name_escaped_in_every_format_and_its_json_reads_back() {
    // A runtime the release does not ship, named like the job: the error names both.
    let job = trainjob(NAME_YAML);
    let (text, _) = run(&["validate"], &job);
    assert!(text.contains(&format!("TrainJob/{SHOWN}")), "{text}");
    let (junit, _) = run(&["validate", "-o", "junit"], &job);
    assert!(junit.contains(SHOWN), "{junit}");
    let (tap, _) = run(&["validate", "-o", "tap"], &job);
    assert!(tap.contains(SHOWN), "{tap}");
    // JSON \u-escapes every control character, so it is still JSON and reads back as the name.
    let (json, _) = run(&["validate", "-o", "json"], &job);
    let parsed: serde_json::Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}:\n{json}"));
    assert_eq!(parsed["resources"][0]["name"], NAME, "{json}");
}

//! `trainer-explorer validate` on what users feed it: the upstream conformance cases (every
//! upstream rejection is an `invalid` with the same field path), the 29 real V1 jobs, bad input,
//! and a mixed folder in each output format.
#![cfg(not(target_arch = "wasm32"))]

use crate::run;
use explorer_judges as common;
use run::{cli, text};

use serde_json::Value;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tv2x-validate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn json(args: &[&str]) -> (Option<i32>, Value) {
    let out = cli(args);
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", text(&out.stdout)));
    (out.status.code(), v)
}

fn resources<'v>(report: &'v Value, kind: &str) -> Vec<&'v Value> {
    report["resources"].as_array().unwrap().iter().filter(|r| r["kind"] == kind).collect()
}

/// Every case file of crates/core/tests/conformance with its release tag.
fn conformance_cases() -> Vec<(String, PathBuf)> {
    let root = common::workspace_root().join("crates/core/tests/conformance");
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "yaml") {
                let tag = p.strip_prefix(&root).unwrap().components().next().unwrap();
                out.push((tag.as_os_str().to_string_lossy().into_owned(), p));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_upstream_rejection_is_invalid_with_the_same_field_paths() {
    let (mut rejected, mut admitted) = (0, 0);
    for (tag, file) in conformance_cases() {
        let case = &common::yaml_docs(&std::fs::read_to_string(&file).unwrap())[0];
        // A gap is a known difference; `repeat:` cases need the suite's expansion of their text.
        if case.get("gap").is_some() || case.get("repeat").is_some() {
            continue;
        }
        let expect = &case["expect"];
        let Some(admits) = expect["admitted"].as_bool() else { continue };
        let (code, report) = json(&["validate", "--release", &tag, "-o", "json", file.to_str().unwrap()]);
        let jobs = resources(&report, "TrainJob");
        assert_eq!(jobs.len(), 1, "{}", file.display());
        let job = jobs[0];
        if admits {
            admitted += 1;
            assert_eq!(job["status"], "valid", "{}: {job}", file.display());
        } else {
            rejected += 1;
            assert_eq!(job["status"], "invalid", "{}: {job}", file.display());
            assert_eq!(code, Some(1), "{}", file.display());
            let fields: Vec<&str> =
                job["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
            for want in expect["rejected"].as_array().into_iter().flatten() {
                let field = want["field"].as_str().unwrap();
                assert!(fields.contains(&field), "{}: {field} not in {fields:?}", file.display());
            }
        }
    }
    assert!(rejected >= 20 && admitted >= 20, "{rejected} rejected and {admitted} admitted cases checked");
}

#[test]
fn real_v1_jobs_are_validated_against_their_operators_crds_with_a_hint_to_migrate() {
    let dir = common::real_v1_dir();
    let (code, report) = json(&["validate", "-o", "json", dir.to_str().unwrap()]);
    assert_eq!(report["summary"]["files"], 29);
    let mut invalid = Vec::new();
    for r in report["resources"].as_array().unwrap() {
        if ["PyTorchJob", "MPIJob", "TFJob", "JAXJob", "XGBoostJob", "PaddleJob"]
            .contains(&r["kind"].as_str().unwrap_or(""))
        {
            assert_ne!(r["status"], "skipped", "{r}");
            assert!(r["note"].as_str().unwrap().contains("trainer-explorer migrate"), "{r}");
            for e in r["errors"].as_array().unwrap() {
                let file = r["file"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
                invalid.push((
                    file,
                    e["field"].as_str().unwrap().to_string(),
                    e["message"].as_str().unwrap().to_string(),
                ));
            }
        }
    }
    // Five of the 29 files would not be created as written, each for a reason the file shows:
    // a version no operator serves; a PyTorchJob whose containers are not named `pytorch`
    // (Training Operator v1.9's webhook requires one: pytorchjob_webhook.go:138-151);
    // `labels` written under `template` instead of its `metadata` (strict decoding refuses it,
    // a lax client drops the labels); a name no custom resource may have (`PLACEHOLDER`: the
    // API server's DNS-1123 subdomain check); an unrendered template's `replicas: $NUM_NODES`.
    let unknown =
        |at: &str| format!("strict decoding error: unknown field \"{at}\" (not in the mpi-operator v0.6 CRD)");
    let expected = [
        (
            "10-awsdoeks-nccl-efa-v1alpha2.yaml",
            "apiVersion",
            "no matches for kind \"MPIJob\" in version \"kubeflow.org/v1alpha2\"".to_string(),
        ),
        (
            "19-awsome-vjepa2-benchmark.yaml",
            "spec.pytorchReplicaSpecs[Worker].template.spec.containers",
            "Required value: must have at least one container with name pytorch".to_string(),
        ),
        (
            "24-yunikorn-mpijob-pi.yaml",
            "spec.mpiReplicaSpecs.Launcher.template.labels",
            unknown("spec.mpiReplicaSpecs.Launcher.template.labels"),
        ),
        (
            "24-yunikorn-mpijob-pi.yaml",
            "spec.mpiReplicaSpecs.Worker.template.labels",
            unknown("spec.mpiReplicaSpecs.Worker.template.labels"),
        ),
        (
            "28-jaxtoolbox-nccl-mpijob-suspended.yaml",
            "metadata.name",
            "Invalid value: \"PLACEHOLDER\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric \
             characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', \
             regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
                .to_string(),
        ),
        (
            "29-awsome-llama3-fsdp-unrendered.yaml",
            "spec.pytorchReplicaSpecs.Worker.replicas",
            "Invalid value: \"string\": must be of type integer".to_string(),
        ),
    ];
    let expected: Vec<(String, String, String)> =
        expected.into_iter().map(|(f, p, m)| (f.to_string(), p.to_string(), m)).collect();
    assert_eq!(invalid, expected);
    assert_eq!(code, Some(1), "{report}");
}

#[test]
fn v1_jobs_meet_strict_fields_types_and_the_webhook_of_their_operator() {
    let pytorch = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: p}\nspec:\n  runPolicy: {cleanPodPolicy: None, bogus: 1}\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 2\n      template: {spec: {containers: [{name: pytorch, image: x}]}}\n";
    let out = run::cli_with_stdin(&["validate", "-"], pytorch);
    assert_eq!(out.status.code(), Some(1));
    let stdout = run::text(&out.stdout);
    assert!(stdout.contains("-:1: PyTorchJob/p: spec.runPolicy.bogus: strict decoding error: unknown field \"spec.runPolicy.bogus\" (not in the training-operator v1.9 CRD)"), "{stdout}");
    // Fixed field, then the Training Operator's webhook: one Master.
    let out = run::cli_with_stdin(&["validate", "-"], &pytorch.replace(", bogus: 1", ""));
    let stdout = run::text(&out.stdout);
    assert!(
        stdout.contains("-:1: PyTorchJob/p: spec.pytorchReplicaSpecs[Master].replicas: Forbidden: must be 1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 V1 job was judged by the Training Operator v1.9 CRDs and webhooks or the mpi-operator CRD"),
        "{stdout}"
    );
    // Every value of a wrong type, not only the first.
    let types = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: p}\nspec:\n  pytorchReplicaSpecs:\n    Master:\n      replicas: two\n      restartPolicy: 5\n      template: {spec: {containers: [{name: pytorch, image: x}]}}\n    Worker:\n      replicas: -3\n      template: {spec: {containers: [{name: pytorch, image: x}]}}\n";
    let out = run::cli_with_stdin(&["validate", "-o", "json", "-"], types);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let fields: Vec<&str> =
        v["resources"][0]["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
    assert_eq!(
        fields,
        [
            "spec.pytorchReplicaSpecs.Master.replicas",
            "spec.pytorchReplicaSpecs.Master.restartPolicy",
            "spec.pytorchReplicaSpecs.Worker.replicas"
        ]
    );
    // mpi-operator's v2beta1 MPIJob: its CRD's enum.
    let mpi = std::fs::read_to_string(common::reference_dir().join("mpi-operator-v2beta1/pi.yaml")).unwrap();
    let out = run::cli_with_stdin(&["validate", "-"], &mpi);
    assert_eq!(out.status.code(), Some(0), "{}", run::text(&out.stdout));
    let bad = mpi.replacen("spec:\n", "spec:\n  mpiImplementation: OpenMP\n", 1);
    let out = run::cli_with_stdin(&["validate", "-"], &bad);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        run::text(&out.stdout).contains("spec.mpiImplementation: Unsupported value: \"OpenMP\": supported values: \"OpenMPI\", \"Intel\", \"MPICH\""),
        "{}",
        run::text(&out.stdout)
    );
}

fn write(dir: &Path, name: &str, content: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, content).unwrap();
    p
}

const VALID: &str = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: good\nspec:\n  runtimeRef:\n    name: torch-distributed\n  trainer:\n    numNodes: 2\n";
/// The torch plugin's webhook refuses the variables torchrun's launcher sets itself.
const INVALID: &str = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: bad\nspec:\n  runtimeRef:\n    name: torch-distributed\n  trainer:\n    numNodes: 2\n    env:\n    - name: PET_NNODES\n      value: \"4\"\n";
const UNKNOWN_FIELD: &str = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata:\n  name: typo\nspec:\n  runtimeRef:\n    name: torch-distributed\n  trainer:\n    numNode: 2\n";
const CONFIGMAP: &str = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: b\n";

fn mixed_dir() -> PathBuf {
    let dir = scratch("mixed");
    write(&dir, "good.yaml", VALID);
    write(&dir, "jobs/bad.yml", &format!("{CONFIGMAP}---\n{INVALID}"));
    write(&dir, "notes.txt", "not read");
    dir
}

#[test]
fn text_output_names_file_line_kind_name_field_and_ends_with_the_summary() {
    let dir = mixed_dir();
    let out = cli(&["validate", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let bad = dir.join("jobs/bad.yml").display().to_string();
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with(&format!("{bad}:8: TrainJob/bad: spec.trainer.env: must not have reserved envs"))),
        "{stdout}"
    );
    assert_eq!(
        stdout.lines().last().unwrap(),
        "Summary: 3 resources found in 2 files (Trainer v2.3.0) - Valid: 1, Invalid: 1, Errors: 0, Skipped: 1"
    );
    // The same files pass once fixed; --skip and --reject move the ConfigMap.
    write(&dir, "jobs/bad.yml", &format!("{CONFIGMAP}---\n{VALID}"));
    assert_eq!(cli(&["validate", dir.to_str().unwrap()]).status.code(), Some(0));
    let out = cli(&["validate", "--reject", "ConfigMap", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("ConfigMap/settings: kind: ConfigMap is rejected here (--reject)"));
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn an_unknown_field_is_an_error_as_with_kubectl_validate_strict() {
    let dir = scratch("strict");
    let f = write(&dir, "typo.yaml", UNKNOWN_FIELD);
    let (code, report) = json(&["validate", "-o", "json", f.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{report}");
    let job = resources(&report, "TrainJob")[0];
    assert!(job["errors"].to_string().contains("numNode"), "{job}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn json_junit_and_tap_carry_the_same_verdicts() {
    let dir = mixed_dir();
    let d = dir.to_str().unwrap();
    let (code, report) = json(&["validate", "-o", "json", d]);
    assert_eq!(code, Some(1));
    let statuses: Vec<(&str, &str)> = report["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(statuses, [("good", "valid"), ("settings", "skipped"), ("bad", "invalid")]);
    assert_eq!(report["summary"]["invalid"], 1);
    let junit = text(&cli(&["validate", "-o", "junit", d]).stdout);
    assert!(
        junit.starts_with("<?xml") && junit.contains("failures=\"1\"") && junit.contains("<failure message="),
        "{junit}"
    );
    assert_eq!(junit.matches("<testcase ").count(), 3, "{junit}");
    let tap = text(&cli(&["validate", "-o", "tap", d]).stdout);
    let lines: Vec<&str> = tap.lines().collect();
    assert_eq!(&lines[..2], ["TAP version 13", "1..3"]);
    assert!(lines[2].starts_with("ok 1 ") && lines[3].contains("# SKIP") && lines[4].starts_with("not ok 3 "), "{tap}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_input_gets_one_clear_line_each_and_never_a_panic() {
    let dir = scratch("bad");
    let empty_dir = dir.join("no-manifests");
    std::fs::create_dir_all(&empty_dir).unwrap();
    write(&empty_dir, "README.md", "# nothing");
    let out = cli(&["validate", empty_dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).starts_with("Summary: 0 resources found in 0 files"), "{}", text(&out.stdout));
    let empty = write(&dir, "empty.yaml", "");
    let out = cli(&["validate", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "an empty file holds no resources");
    let cases: Vec<(PathBuf, &str)> = vec![
        (write(&dir, "broken.yaml", "kind: [unclosed\n"), "not valid YAML"),
        (write(&dir, "list.yaml", "- a\n- b\n"), "the document is a list"),
        (write(&dir, "scalar.yaml", "just text\n"), "the document is a scalar"),
        (
            {
                let p = dir.join("binary.yaml");
                std::fs::write(&p, [0u8, 159, 146, 150, 0, 1]).unwrap();
                p
            },
            "binary data",
        ),
        (write(&dir, "huge.yaml", &format!("a: \"{}\"\n", "x".repeat(5 << 20))), "the limit is"),
    ];
    for (file, want) in cases {
        let out = cli(&["validate", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{}: {}", file.display(), text(&out.stdout));
        let stdout = text(&out.stdout);
        let lines: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("Summary")).collect();
        assert_eq!(lines.len(), 1, "{stdout}");
        assert!(lines[0].contains(want) && lines[0].starts_with(file.to_str().unwrap()), "{want}: {stdout}");
        assert!(!text(&out.stderr).contains("panicked"));
    }
    #[cfg(unix)]
    {
        let looped = dir.join("loop");
        std::fs::create_dir_all(&looped).unwrap();
        std::os::unix::fs::symlink(&looped, looped.join("again")).unwrap();
        let out = cli(&["validate", looped.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stdout).contains("symlink loop"), "{}", text(&out.stdout));
    }
    // Wrong usage: exit 2, as the input errors.
    assert_eq!(cli(&["validate", "--release", "v9.9", "x.yaml"]).status.code(), Some(2));
    std::fs::remove_dir_all(dir).ok();
}

/// A TrainJob whose runtime is neither in its file nor shipped by the release is told where to
/// give it: validate decides by the error's type (RuntimeNotFound), not by its words.
#[test]
fn a_missing_runtime_is_told_where_to_give_it() {
    let dir = scratch("missing-runtime");
    let job = VALID.replace("torch-distributed", "my-own-runtime");
    let f = write(&dir, "job.yaml", &job);
    let (code, report) = json(&["validate", "-o", "json", f.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{report}");
    let error = &resources(&report, "TrainJob")[0]["errors"][0];
    assert_eq!(error["field"], "spec.runtimeRef", "{report}");
    let message = error["message"].as_str().unwrap();
    assert!(message.ends_with(": give the runtime in the same file or with --runtimes DIR"), "{message}");
    std::fs::remove_dir_all(dir).ok();
}

/// A TrainJob on a runtime whose `node` replicatedJob says `{field}` (and, with `label`, the
/// trainer's ancestor label), with `trainer` under the TrainJob's spec.trainer.
fn runtime_with(field: &str, label: bool, trainer: &str) -> String {
    let labels =
        if label { "metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}, " } else { "" };
    format!(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {{name: x}}\nspec:\n  runtimeRef: {{name: rt, kind: TrainingRuntime}}\n  trainer: {trainer}\n---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {{name: rt}}\nspec:\n  template:\n    spec:\n      replicatedJobs:\n      - name: node\n        {field}\n        template: {{{labels}spec: {{template: {{spec: {{containers: [{{name: node, image: x}}]}}}}}}}}\n"
    )
}

/// A negative count is admitted by the API server (no release's CRD sets a minimum) and by
/// Trainer's webhook, except a count the webhook holds to 1; what refuses it comes later, when
/// JobSet creates the Jobs. validate says which, in its own status, and exits 1.
#[test]
fn a_negative_count_is_admitted_then_fails_when_jobset_creates_the_jobs() {
    let dir = scratch("negative");
    // replicas -2 on a replicatedJob without the ancestor label: JobSet creates none of its Jobs.
    let f = write(&dir, "replicas.yaml", &runtime_with("replicas: -2", false, "{}"));
    let (code, report) = json(&["validate", "-o", "json", f.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{report}");
    let job = &resources(&report, "TrainJob")[0];
    assert_eq!(job["status"], "fails-after-admission", "{report}");
    assert_eq!(job["errors"][0]["field"], "runtime spec.template.spec.replicatedJobs[0].replicas", "{report}");
    let message = job["errors"][0]["message"].as_str().unwrap();
    assert!(message.starts_with("Invalid value: -2: admitted: the API server takes it"), "{message}");
    assert!(message.contains("JobSet v0.12.0 creates this replicatedJob's Jobs for the indexes below"), "{message}");
    assert_eq!(report["summary"]["failsAfterAdmission"], 1, "{report}");
    // The same on the trainer's replicatedJob: Trainer's runtime webhook holds it to 1
    // (trainingruntime_webhook.go:79-80 at v2.3.0), a refusal.
    let f = write(&dir, "ancestor.yaml", &runtime_with("replicas: -2", true, "{}"));
    let (code, report) = json(&["validate", "-o", "json", f.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{report}");
    let job = &resources(&report, "TrainJob")[0];
    assert_eq!(job["status"], "invalid", "{report}");
    assert_eq!(job["errors"][0]["message"], "Invalid value: -2: always must be 1", "{report}");
    // A negative parallelism or backoffLimit: the Job JobSet creates is refused, named by the
    // release's JobSet (v0.8.2 at Trainer v2.0.1).
    for (field, words) in
        [("parallelism", "spec.parallelism: Invalid value: -3"), ("backoffLimit", "spec.backoffLimit")]
    {
        let yaml = runtime_with("replicas: 1", false, "{}")
            .replace("spec: {template: {spec:", &format!("spec: {{{field}: -3, template: {{spec:"));
        let f = write(&dir, &format!("{field}.yaml"), &yaml);
        let (code, report) = json(&["validate", "--release", "v2.0", "-o", "json", f.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{report}");
        let job = &resources(&report, "TrainJob")[0];
        assert_eq!(job["status"], "fails-after-admission", "{report}");
        let message = job["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains("when JobSet v0.8.2 creates it") && message.contains(words), "{message}");
        assert!(message.contains("the v2.0.1 CRD sets no minimum"), "{message}");
    }
    // The trainer's parallelism is replaced by numNodes (the PodSet's count): no failure.
    let yaml = runtime_with("replicas: 1", true, "{numNodes: 2}")
        .replace("spec: {template: {spec:", "spec: {parallelism: -3, template: {spec:");
    let f = write(&dir, "replaced.yaml", &yaml);
    let (code, report) = json(&["validate", "-o", "json", f.to_str().unwrap()]);
    assert_eq!((code, &resources(&report, "TrainJob")[0]["status"]), (Some(0), &"valid".into()), "{report}");
    // numNodes -1 in text, with its own count in the summary line.
    let f = write(&dir, "nodes.yaml", &runtime_with("replicas: 1", true, "{numNodes: -1}"));
    let out = cli(&["validate", f.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("TrainJob/x: spec.trainer.numNodes: Invalid value: -1: admitted"), "{stdout}");
    assert!(stdout.contains("Valid: 1, Invalid: 0, Fails after admission: 1, Errors: 0"), "{stdout}");
    std::fs::remove_dir_all(dir).ok();
}

/// A negative numProcPerNode: no CRD minimum either, and it reaches the pods unchecked, except
/// under a Flux runtime from v2.3.0, whose webhook refuses fewer than one process
/// (flux.go:116-119 at v2.3.0; v2.2.1 reads only the runtime's value).
#[test]
fn a_negative_process_count_is_admitted_unless_flux_refuses_it() {
    let dir = scratch("procs");
    let torch = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: p}\nspec:\n  \
                 runtimeRef: {name: torch-distributed}\n  trainer: {numProcPerNode: -2}\n";
    let f = write(&dir, "torch.yaml", torch);
    let (code, report) = json(&["validate", "-o", "json", f.to_str().unwrap()]);
    let job = &resources(&report, "TrainJob")[0];
    assert_eq!((code, &job["status"]), (Some(1), &"fails-after-admission".into()), "{report}");
    assert!(job["errors"][0]["message"].as_str().unwrap().contains("a negative number of processes"), "{report}");
    let flux = runtime_with("replicas: 1", true, "{numProcPerNode: -2}")
        .replace("spec:\n  template:", "spec:\n  mlPolicy: {flux: {}}\n  template:");
    let f = write(&dir, "flux.yaml", &flux);
    for (release, status) in [("v2.3", "invalid"), ("v2.2", "fails-after-admission")] {
        let (code, report) = json(&["validate", "--release", release, "-o", "json", f.to_str().unwrap()]);
        let job = &resources(&report, "TrainJob")[0];
        assert_eq!((code, &job["status"]), (Some(1), &status.into()), "{release}: {report}");
        assert_eq!(job["errors"][0]["field"], "spec.trainer.numProcPerNode", "{report}");
    }
    std::fs::remove_dir_all(dir).ok();
}

/// Our kinds spelt in another case: the API server's REST mapper matches a kind exactly and
/// answers `no matches for kind`, so a typo must fail CI in every format, not count as skipped.
/// A kind of the group that is not ours (a Notebook) is still skipped.
#[test]
fn a_kind_spelt_in_another_case_is_invalid_with_the_api_servers_words() {
    let dir = scratch("misspelt");
    let typos = [
        ("kubeflow.org/v1", "PytorchJob", "PyTorchJob"),
        ("kubeflow.org/v1", "TfJob", "TFJob"),
        ("kubeflow.org/v2beta1", "mpijob", "MPIJob"),
        ("trainer.kubeflow.org/v1alpha1", "Trainjob", "TrainJob"),
        ("trainer.kubeflow.org/v1alpha1", "clusterTrainingRuntime", "ClusterTrainingRuntime"),
    ];
    let notebook = "apiVersion: kubeflow.org/v1\nkind: Notebook\nmetadata:\n  name: nb\n";
    let docs: Vec<String> = typos
        .iter()
        .map(|(api, kind, _)| format!("apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: typo\n"))
        .collect();
    let f = write(&dir, "typos.yaml", &format!("{}---\n{notebook}", docs.join("---\n")));
    let f = f.to_str().unwrap();
    let said = |api: &str, kind: &str, meant: &str| {
        format!(
            "no matches for kind {kind:?} in version {api:?}: did you mean {meant}? Kubernetes matches a kind exactly"
        )
    };

    let (code, report) = json(&["validate", "-o", "json", f]);
    assert_eq!(code, Some(1), "{report}");
    for (api, kind, meant) in typos {
        let verdict = resources(&report, kind)[0];
        assert_eq!(verdict["status"], "invalid", "{verdict}");
        assert_eq!(verdict["errors"][0]["field"], "kind", "{verdict}");
        assert_eq!(verdict["errors"][0]["message"], said(api, kind, meant), "{verdict}");
    }
    assert_eq!(resources(&report, "Notebook")[0]["status"], "skipped", "{report}");

    let out = cli(&["validate", f]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains(&format!("PytorchJob/typo: kind: {}", said("kubeflow.org/v1", "PytorchJob", "PyTorchJob"))));
    assert!(stdout.trim_end().ends_with("Valid: 0, Invalid: 5, Errors: 0, Skipped: 1"), "{stdout}");
    let junit = text(&cli(&["validate", "-o", "junit", f]).stdout);
    assert!(junit.contains("failures=\"5\"") && junit.contains("did you mean TrainJob?"), "{junit}");
    let tap = text(&cli(&["validate", "-o", "tap", f]).stdout);
    assert_eq!(tap.matches("\nnot ok ").count(), 5, "{tap}");
    assert!(tap.contains("# kind: no matches for kind \"mpijob\""), "{tap}");
    std::fs::remove_dir_all(dir).ok();
}

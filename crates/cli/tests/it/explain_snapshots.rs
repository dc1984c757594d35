//! `trainer-explorer explain`, run as a reader would: the JSON for every framework with a V2
//! runtime (review changes with `cargo insta review`), a user's own files, and the errors.
#![cfg(not(target_arch = "wasm32"))]

use explorer_core::selection::Selection;
use explorer_core::snippets::runtimes::runtime_for;
use explorer_data::catalog::{Framework, Persona};
use explorer_data::releases::{NEWEST, RELEASES};
use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trainer-explorer")).args(args).output().unwrap()
}

/// The answer on stdout: exit 0 when it admits everything, 1 when it holds a refusal (one
/// failure style: the refusal is in the output, and the code says so).
fn stdout(out: &Output) -> String {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    // JSON or YAML (a YAML reader reads both).
    let v: serde_json::Value = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    let answers = if v.is_array() { v.as_array().unwrap().clone() } else { vec![v] };
    // Admitted then failing (explain::after_admission) exits as a refusal: nothing it asks for runs.
    let refused = answers
        .iter()
        .any(|a| a["rejected"].as_array().is_some_and(|r| !r.is_empty()) || a.get("failsAfterAdmission").is_some());
    assert_eq!(out.status.code(), Some(if refused { 1 } else { 0 }), "{}", String::from_utf8_lossy(&out.stderr));
    text
}

#[test]
fn json_for_every_framework_and_release() {
    for release in RELEASES {
        for framework in Framework::ALL {
            let query = format!("release={}&framework={}&nodes=4&gpus=2", release.line, framework.id());
            if runtime_for(&Selection::new(Persona::DataScientist, framework)).is_none() {
                let out = cli(&["explain", "--query", &query]);
                assert_eq!(out.status.code(), Some(2), "a query naming no runtime is a usage error");
                assert!(String::from_utf8_lossy(&out.stderr).contains("has no Trainer V2 runtime"));
                continue;
            }
            let json = stdout(&cli(&["explain", "--query", &query, "--format", "json"]));
            // The shape the issue asks for, before the snapshot pins the values.
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(v["trainer"], release.tag, "{query}");
            match v["rejected"] == serde_json::json!([]) {
                true => {
                    let shaped = v["jobset"]["replicatedJobs"].is_array() && v["objects"].is_array();
                    assert!(shaped && !v["pods"].as_array().unwrap().is_empty(), "{query}");
                }
                // A rejection creates nothing: never a made-up JobSet next to it.
                false => {
                    assert!(v["jobset"].is_null() && v["pods"] == serde_json::json!([]), "{query}");
                    assert!(v["objects"] == serde_json::json!([]), "{query}");
                }
            }
            insta::assert_snapshot!(format!("explain_{}_{}", release.line, framework.id()), json);
        }
    }
}

/// A built-in the release does not install is the webhook's "not found", naming the first
/// release that ships it.
#[test]
fn a_framework_newer_than_the_release_is_the_webhooks_not_found() {
    let json = stdout(&cli(&["explain", "--query", "release=v2.1&framework=jax"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["trainer"], "v2.1.0");
    assert_eq!(v["rejected"][0]["field"], "spec.RuntimeRef");
    let reason = v["rejected"][0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("clustertrainingruntimes.trainer.kubeflow.org \"jax-distributed\" not found"),
        "{reason}"
    );
    assert!(reason.ends_with("(v2.1.0 does not install it; it ships from v2.2.1)"), "{reason}");
}

/// `--release` picks the controller that reads the files; the default is the newest.
#[test]
fn release_flag_for_files() {
    let (job, runtime) = write_files(&gpu_trainjob(2));
    let (job, runtime) = (job.to_str().unwrap(), runtime.to_str().unwrap());
    let run = |args: &[&str]| -> serde_json::Value {
        serde_json::from_str(&stdout(&cli(&[&["explain", job, runtime], args].concat()))).unwrap()
    };
    let newest = run(&[]);
    assert_eq!(newest["trainer"], NEWEST.tag);
    // v2.0's MPI plugin keeps the runtime's 1 slot; from v2.1 one slot per GPU.
    let v2_0 = run(&["--release", "v2.0"]);
    assert_eq!(v2_0["trainer"], "v2.0.1");
    assert_eq!(hostfile(&v2_0), "pi-node-0-0.mpi-net slots=1\npi-node-0-1.mpi-net slots=1\n");
    assert_eq!(hostfile(&run(&["--release", "v2.1.0"])), "pi-node-0-0.mpi-net slots=4\npi-node-0-1.mpi-net slots=4\n");
    let out = cli(&["explain", job, runtime, "--release", "v1.9"]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        format!(
            "trainer-explorer: unknown release \"v1.9\": one of {}",
            RELEASES.iter().map(|r| r.line).collect::<Vec<_>>().join(", ")
        )
    );
}

#[test]
fn yaml_reads_back_as_the_json() {
    let query = "framework=jax&nodes=3";
    let json: serde_json::Value = serde_json::from_str(&stdout(&cli(&["explain", "--query", query]))).unwrap();
    let yaml: serde_json::Value =
        serde_yaml::from_str(&stdout(&cli(&["explain", "--query", query, "--format", "yaml"]))).unwrap();
    assert_eq!(yaml, json);
}

const OWN_RUNTIME: &str = r#"apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainingRuntime
metadata: {name: my-mpi, namespace: team-a}
spec:
  mlPolicy:
    numNodes: 1
    mpi: {numProcPerNode: 1, mpiImplementation: OpenMPI, runLauncherAsNode: false}
  template:
    spec:
      network: {subdomain: mpi-net}
      replicatedJobs:
      - name: launcher
        template:
          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: trainer}}
          spec: {template: {spec: {containers: [{name: node, image: 'mpioperator/mpi-pi:openmpi'}]}}}
      - name: node
        replicas: 1
        template:
          spec: {parallelism: 1, template: {spec: {containers: [{name: node, image: 'mpioperator/mpi-pi:openmpi', command: [/usr/sbin/sshd, -De]}]}}}
"#;

fn write_files(job: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    // One folder per call: the tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("explain-cli-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (j, r) = (dir.join("job.yaml"), dir.join("runtime.yaml"));
    std::fs::write(&j, job).unwrap();
    std::fs::write(&r, OWN_RUNTIME).unwrap();
    (j, r)
}

/// A TrainJob `pi` on the `my-mpi` TrainingRuntime with 4 GPUs per node.
fn gpu_trainjob(nodes: u32) -> String {
    format!(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {{name: pi}}\nspec:\n  \
         runtimeRef: {{name: my-mpi, kind: TrainingRuntime}}\n  trainer:\n    numNodes: {nodes}\n    \
         resourcesPerNode: {{limits: {{nvidia.com/gpu: 4}}}}\n"
    )
}

fn hostfile(v: &serde_json::Value) -> String {
    let cm = v["objects"].as_array().unwrap().iter().find(|o| o["name"] == "pi-mpi-hostfile").unwrap();
    cm["data"]["hostfile"].as_str().unwrap().to_string()
}

#[test]
fn a_users_own_trainjob_and_runtime() {
    let (job, runtime) = write_files(&gpu_trainjob(3));
    let json = stdout(&cli(&["explain", job.to_str().unwrap(), runtime.to_str().unwrap()]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    // Not launcher-as-node: all three nodes are `node` pods; the runtime's 1 slot becomes 4 GPUs.
    assert_eq!(hostfile(&v), "pi-node-0-0.mpi-net slots=4\npi-node-0-1.mpi-net slots=4\npi-node-0-2.mpi-net slots=4\n");
    insta::assert_snapshot!("explain_own_files_mpi", json);
}

#[test]
fn a_rejected_trainjob_prints_the_webhooks_reason() {
    let (job, runtime) = write_files(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: pi}\nspec:\n  \
         runtimeRef: {name: my-mpi, kind: TrainingRuntime}\n  trainer:\n    \
         env: [{name: OMPI_MCA_orte_set_default_slots, value: '8'}]\n",
    );
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&cli(&["explain", job.to_str().unwrap(), runtime.to_str().unwrap()]))).unwrap();
    assert!(v["jobset"].is_null() && v["pods"].as_array().unwrap().is_empty());
    assert_eq!(v["rejected"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["rejected"][0]["field"], "spec.trainer.env");
    assert_eq!(
        v["rejected"][0]["reason"],
        "must not have reserved envs, invalid envs configured: [OMPI_MCA_orte_set_default_slots]"
    );
}

#[test]
fn input_without_a_runtime_is_a_clear_error() {
    let (job, _) = write_files("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: x}\nspec: {runtimeRef: {name: y}}\n");
    let v: serde_json::Value = serde_json::from_str(&stdout(&cli(&["explain", job.to_str().unwrap()]))).unwrap();
    assert_eq!(
        v["rejected"][0]["reason"],
        format!(
            "no TrainingRuntime or ClusterTrainingRuntime in the input, and Trainer {} ships no ClusterTrainingRuntime \"y\"",
            NEWEST.tag
        )
    );
}

/// A TrainJob alone that names a built-in runtime runs with the one the release ships, and the
/// answer says so; a built-in of another release is named with the releases that ship it.
#[test]
fn a_trainjob_alone_uses_the_releases_shipped_runtime() {
    let (job, _) = write_files(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: x}\nspec: {runtimeRef: {name: torch-distributed}, trainer: {numNodes: 2}}\n",
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&cli(&["explain", job.to_str().unwrap()]))).unwrap();
    assert_eq!(
        v["shippedRuntime"],
        format!(
            "the ClusterTrainingRuntime \"torch-distributed\" as Trainer {} installs it (the input holds no runtime)",
            NEWEST.tag
        )
    );
    assert_eq!(v["jobset"]["replicatedJobs"][0]["parallelism"], 2, "{v}");
    let image = v["pods"][0]["containers"][0]["image"].as_str().unwrap();
    assert!(image.starts_with("pytorch/pytorch:2.13.0"), "{image}");
    let out = cli(&["explain", "--release", "v2.1", job.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let (jax, _) = write_files(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: x}\nspec: {runtimeRef: {name: jax-distributed}}\n",
    );
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&cli(&["explain", "--release", "v2.1", jax.to_str().unwrap()]))).unwrap();
    assert_eq!(v["rejected"][0]["field"], "spec.runtimeRef");
    let reason = v["rejected"][0]["reason"].as_str().unwrap();
    assert!(reason.ends_with("ships no ClusterTrainingRuntime \"jax-distributed\" (it ships from v2.2.1)"), "{reason}");
}

#[test]
fn a_runtime_the_trainjob_does_not_reference_is_a_clear_error() {
    // No `kind` in the ref means ClusterTrainingRuntime; the file holds a TrainingRuntime.
    let (job, runtime) = write_files(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: pi}\nspec: {runtimeRef: {name: my-mpi}}\n",
    );
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&cli(&["explain", job.to_str().unwrap(), runtime.to_str().unwrap()]))).unwrap();
    assert_eq!(
        v["rejected"],
        serde_json::json!([{"field": "spec.runtimeRef", "reason": "the TrainJob references the ClusterTrainingRuntime \"my-mpi\", but the input has TrainingRuntime my-mpi"}])
    );
}

/// The PodGroup a gang scheduler reads holds its counts in its `spec`, as both schedulers' types
/// do (scheduler-plugins apis/scheduling/v1alpha1/types.go:145-159, volcano.sh/apis
/// pkg/apis/scheduling/v1beta1/types.go:173-202), for a TrainJob under each plugin and for a V1
/// job; a PodGroup has no `data`.
#[test]
fn a_podgroup_holds_min_member_in_its_spec() {
    let dir = std::env::temp_dir().join(format!("explain-podgroup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let runtime = |policy: &str| {
        format!(
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {{name: gang}}\nspec:\n  \
             mlPolicy: {{numNodes: 2}}\n  podGroupPolicy: {policy}\n  template:\n    spec:\n      replicatedJobs:\n      \
             - name: node\n        template:\n          metadata: {{labels: {{trainer.kubeflow.org/trainjob-ancestor-step: trainer}}}}\n          \
             spec: {{template: {{spec: {{containers: [{{name: node, image: x, resources: {{requests: {{cpu: 2}}}}}}]}}}}}}\n"
        )
    };
    let job = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: pi}\nspec:\n  \
               runtimeRef: {name: gang, kind: TrainingRuntime}\n";
    let mut podgroups = Vec::new();
    for (name, policy) in
        [("coscheduling", "{coscheduling: {scheduleTimeoutSeconds: 60}}"), ("volcano", "{volcano: {}}")]
    {
        let file = dir.join(format!("{name}.yaml"));
        std::fs::write(&file, format!("{job}---\n{}", runtime(policy))).unwrap();
        let v: serde_json::Value = serde_json::from_str(&stdout(&cli(&["explain", file.to_str().unwrap()]))).unwrap();
        let pg = v["objects"].as_array().unwrap().iter().find(|o| o["kind"] == "PodGroup").unwrap().clone();
        assert_eq!(pg["spec"]["minMember"], 2, "{name}: {pg}");
        assert!(pg.get("data").is_none(), "{name}: {pg}");
        podgroups.push(pg);
    }
    let pytorch = dir.join("pytorch.yaml");
    std::fs::write(
        &pytorch,
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: v1}\nspec:\n  pytorchReplicaSpecs:\n    \
         Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: x}]}}}\n    \
         Worker: {replicas: 3, template: {spec: {containers: [{name: pytorch, image: x}]}}}\n",
    )
    .unwrap();
    let v: serde_json::Value = serde_json::from_str(&stdout(&cli(&["explain", pytorch.to_str().unwrap()]))).unwrap();
    let pg = v["objects"].as_array().unwrap().iter().find(|o| o["kind"] == "PodGroup").unwrap().clone();
    assert_eq!(pg["spec"]["minMember"], 4, "{pg}");
    podgroups.push(pg);
    std::fs::remove_dir_all(dir).ok();
    insta::assert_snapshot!("explain_podgroups", serde_json::to_string_pretty(&podgroups).unwrap());
}

/// A negative count is admitted by the API server and refused later: the answer says by what
/// and when, per field, under `failsAfterAdmission`, with `rejected` empty and nothing created.
#[test]
fn a_negative_count_is_admitted_then_fails() {
    let dir = std::env::temp_dir().join(format!("explain-negative-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("negative.yaml");
    std::fs::write(
        &file,
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: pi}\nspec:\n  \
         runtimeRef: {name: torch-distributed}\n  trainer: {numNodes: -1, numProcPerNode: -2}\n",
    )
    .unwrap();
    let json = stdout(&cli(&["explain", "--release", "v2.2", file.to_str().unwrap()]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!((&v["rejected"], &v["jobset"]), (&serde_json::json!([]), &serde_json::Value::Null));
    std::fs::remove_dir_all(dir).ok();
    insta::assert_snapshot!("explain_fails_after_admission", json);
}

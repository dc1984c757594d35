//! `migrate --target`: for every release line, the reference V1 examples convert to objects that
//! validate strictly against that release's CRDs (`v2-crds/<tag>`), with a report whose every
//! claim holds for that output; pod settings go where that release keeps them.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

use explorer_judges as common;

use explorer_core::migrate::{migrate_to, Entry, Kind, Migration, Outcome};
use explorer_data::api_changes::Subject;
use explorer_data::catalog::Framework;
use explorer_data::releases::{PodSettingsField, Release, RELEASES, V2_2};
use explorer_judges::claims::migrate::false_claims_for;
use serde_json::Value;

/// Every V1 example of the reference data, and the MPI Operator's v2beta1 one.
fn reference_examples() -> Vec<String> {
    fn walk(dir: &std::path::Path, base: &std::path::Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, base, out);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                out.push(path.strip_prefix(base).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let base = common::reference_dir();
    let mut out = Vec::new();
    walk(&base.join("v1-examples"), &base, &mut out);
    out.push("mpi-operator-v2beta1/pi.yaml".into());
    out
}

/// Every V1 kind the reference examples hold converts (TFJob and PaddleJob to a generated
/// plain-ML runtime), or is refused where no V2 form exists in the target release: JAXJob and
/// XGBoostJob before their runtimes arrived.
#[test]
fn every_reference_example_validates_against_every_release() {
    let examples = reference_examples();
    assert!(examples.len() >= 15, "{examples:?}");
    let mut problems = Vec::new();
    let mut tally = Vec::new();
    for release in RELEASES {
        let (mut converted, mut refused) = (0, 0);
        for rel in &examples {
            let m = migrate_to(&common::read_reference(rel), *release).unwrap();
            for d in &m.docs {
                let at = format!("{} {rel} document {}", release.tag, d.index);
                match &d.outcome {
                    Outcome::Written { objects, report, .. } => {
                        converted += 1;
                        for o in objects {
                            if let Err(e) = common::validate_for(release, o) {
                                problems.push(format!("{at}: {} does not validate: {e}", o["kind"]));
                            }
                        }
                        let source = d.source.as_ref().unwrap();
                        for p in false_claims_for(source, objects, report, release) {
                            problems.push(format!("{at}: {p}"));
                        }
                    }
                    Outcome::Refused { kind, reason, .. } => {
                        let reason = reason.to_string();
                        refused += 1;
                        let expected = match kind.as_str() {
                            "JAXJob" => release.builtin_for(Framework::Jax).is_none(),
                            "XGBoostJob" => release.builtin_for(Framework::XgBoost).is_none(),
                            _ => false,
                        };
                        if !expected || !reason.contains(release.tag) || !reason.contains("Training Operator v1.9") {
                            problems.push(format!("{at}: {kind} refused: {reason}"));
                        }
                    }
                    other => problems.push(format!("{at}: {other:?}")),
                }
            }
        }
        tally.push(format!("{}: {converted} converted, {refused} refused", release.tag));
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    eprintln!("{}", tally.join("\n"));
}

/// A Master + Worker PyTorchJob with pod settings every release's TrainJob can hold, a deadline,
/// a TTL (whose note names the release) and processes per node by name.
fn master_worker() -> String {
    // Master and Workers share one template, as V2's single template for every node needs.
    let template = r#"      template:
        spec:
          serviceAccountName: trainer
          nodeSelector: {pool: a100}
          tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
          volumes: [{name: data, persistentVolumeClaim: {claimName: imagenet}}]
          containers:
            - name: pytorch
              image: registry.example.com/resnet:1
              command: [torchrun, train.py]
              resources: {limits: {nvidia.com/gpu: 8}}
              volumeMounts: [{name: data, mountPath: /data}]
"#;
    format!(
        r#"
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {{name: resnet, namespace: vision}}
spec:
  nprocPerNode: gpu
  runPolicy: {{activeDeadlineSeconds: 7200, ttlSecondsAfterFinished: 600}}
  pytorchReplicaSpecs:
    Master:
      replicas: 1
{template}    Worker:
      replicas: 3
{template}"#
    )
}

/// Converts one document for `release`; checks the output against that release's CRDs and
/// the report's claims against the output.
fn converted(text: &str, release: &Release) -> (Vec<Value>, Vec<Entry>, Migration) {
    let m = migrate_to(text, *release).unwrap();
    let (objects, report) = match &m.docs[0].outcome {
        Outcome::Written { objects, report, .. } => (objects.clone(), report.clone()),
        other => panic!("{}: not converted: {other:?}", release.tag),
    };
    for o in &objects {
        common::validate_for(release, o).unwrap_or_else(|e| panic!("{}: {e}\n{o:#}", release.tag));
    }
    let problems = false_claims_for(m.docs[0].source.as_ref().unwrap(), &objects, &report, release);
    assert!(problems.is_empty(), "{}: false claims:\n{}", release.tag, problems.join("\n"));
    (objects, report, m)
}

fn trainjob(objects: &[Value]) -> &Value {
    objects.iter().find(|o| o["kind"] == "TrainJob").expect("a TrainJob")
}

fn entry<'a>(report: &'a [Entry], v1: &str) -> &'a Entry {
    report.iter().find(|e| e.from == v1).unwrap_or_else(|| panic!("no report entry for {v1}"))
}

const MASTER_POD: &str = "spec.pytorchReplicaSpecs.Master.template.spec";

#[test]
fn pod_settings_go_where_each_release_keeps_them() {
    for release in RELEASES {
        let (objects, report, m) = converted(&master_worker(), release);
        assert_eq!(objects.len(), 1, "{}: every setting fits the TrainJob, no generated runtime", release.tag);
        let spec = &trainjob(&objects)["spec"];
        let field = release.pod_settings().field();
        for other in ["podSpecOverrides", "podTemplateOverrides", "runtimePatches"] {
            assert_eq!(spec.get(other).is_some(), other == field, "{} spec.{other}", release.tag);
        }
        let (pod, volume_mounts) = match release.pod_settings() {
            PodSettingsField::PodSpecOverrides => {
                let o = &spec[field][0];
                assert_eq!(o["targetJobs"], serde_json::json!([{"name": "node"}]));
                (o.clone(), "spec.podSpecOverrides[0].containers[node].volumeMounts")
            }
            PodSettingsField::PodTemplateOverrides => {
                let o = &spec[field][0];
                assert_eq!(o["targetJobs"], serde_json::json!([{"name": "node"}]));
                (o["spec"].clone(), "spec.podTemplateOverrides[0].spec.containers[node].volumeMounts")
            }
            PodSettingsField::RuntimePatches => {
                let jobs = &spec[field][0]["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"];
                assert_eq!(jobs[0]["name"], "node");
                (
                    jobs[0]["template"]["spec"]["template"]["spec"].clone(),
                    "spec.runtimePatches[trainer-v2-explorer/migrate].trainingRuntimeSpec.template.spec.replicatedJobs[node].template.spec.template.spec.containers[node].volumeMounts",
                )
            }
        };
        assert_eq!(pod["nodeSelector"]["pool"], "a100", "{}", release.tag);
        assert_eq!(pod["serviceAccountName"], "trainer");
        assert_eq!(pod["containers"][0]["name"], "node");
        assert_eq!(pod["containers"][0]["volumeMounts"][0]["mountPath"], "/data");
        let mounts = entry(&report, &format!("{MASTER_POD}.containers[0].volumeMounts"));
        assert_eq!((mounts.kind, mounts.place()), (Kind::Moved, Some(volume_mounts)), "{}", release.tag);
        assert!(m.report_text().contains(&format!("converted for Trainer {}", release.tag)));
        let name = format!("master_worker_pod_settings__{}", release.line);
        insta::assert_snapshot!(name, format!("{}\n##### report\n{}", m.output_yaml(), m.report_text()));
    }
}

/// Settings a release's TrainJob cannot hold send them all to a generated runtime there, and
/// only there: pod labels before v2.1, affinity before v2.1, a pod securityContext before v2.2,
/// terminationGracePeriodSeconds before v2.3.
#[test]
fn settings_a_release_cannot_hold_go_to_a_generated_runtime_in_that_release_only() {
    let cases: [(&str, &str, &str); 4] = [
        ("metadata: {labels: {team: vision}}\n        spec:", "metadata.labels", "v2.1"),
        ("spec:\n          affinity: {nodeAffinity: {}}", "spec.affinity", "v2.1"),
        ("spec:\n          securityContext: {fsGroup: 1000}", "spec.securityContext", "v2.2"),
        ("spec:\n          terminationGracePeriodSeconds: 30", "spec.terminationGracePeriodSeconds", "v2.3"),
    ];
    for (setting, path, since) in cases {
        let job = master_worker().replacen(
            "spec:\n          serviceAccountName",
            &format!("{setting}\n          serviceAccountName"),
            1,
        );
        assert_ne!(job, master_worker());
        for release in RELEASES {
            let (objects, report, _) = converted(&job, release);
            let generated = objects.iter().any(|o| o["kind"] == "TrainingRuntime");
            let fits = release.line >= since;
            assert_eq!(generated, !fits, "{} {path}", release.tag);
            let e = entry(&report, &format!("spec.pytorchReplicaSpecs.Master.template.{path}"));
            let target = e.place().unwrap_or_default();
            assert_eq!(e.kind, Kind::Moved, "{} {path}", release.tag);
            let expected = if fits {
                format!("spec.{}[", release.pod_settings().field())
            } else {
                "TrainingRuntime resnet-runtime ".into()
            };
            assert!(target.starts_with(&expected), "{} {path}: {target}", release.tag);
            if !fits {
                assert!(e.note.contains(release.tag), "{}: {}", release.tag, e.note);
                assert_eq!(trainjob(&objects)["spec"]["runtimeRef"]["kind"], "TrainingRuntime");
                // The TrainJob's command runs: no built-in placeholder script is copied along.
                let rt = objects.iter().find(|o| o["kind"] == "TrainingRuntime").unwrap();
                let node = &rt["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"];
                assert!(node["containers"][0].get("command").is_none(), "{}: {node}", release.tag);
            }
        }
    }
}

#[test]
fn deadline_and_processes_per_node_follow_each_release() {
    for release in RELEASES {
        let (objects, report, _) = converted(&master_worker(), release);
        let trainer = &trainjob(&objects)["spec"]["trainer"];
        let spec = &trainjob(&objects)["spec"];
        let deadline = entry(&report, "spec.runPolicy.activeDeadlineSeconds");
        let procs = entry(&report, "spec.nprocPerNode");
        if release.declares(Subject::TrainJob, "spec.activeDeadlineSeconds") {
            assert_eq!(spec["activeDeadlineSeconds"], 7200);
            assert_eq!(deadline.kind, Kind::Mapped);
        } else {
            assert!(spec.get("activeDeadlineSeconds").is_none());
            assert_eq!(deadline.kind, Kind::Dropped);
            assert!(
                deadline.note.contains(release.tag) && deadline.note.contains("arrived in v2.2"),
                "{}",
                deadline.note
            );
        }
        if release.is_before(&V2_2) {
            assert_eq!(trainer["numProcPerNode"], "gpu", "{}: v2.0 and v2.1 take the name", release.tag);
            assert_eq!(procs.kind, Kind::Mapped);
        } else {
            assert!(trainer.get("numProcPerNode").is_none(), "{}: int32 only", release.tag);
            assert_eq!(procs.kind, Kind::Dropped);
            assert!(procs.note.contains(release.tag), "{}", procs.note);
        }
        // A number given as a string is a number in every release.
        let (objects, _, _) = converted(&master_worker().replace("nprocPerNode: gpu", "nprocPerNode: \"4\""), release);
        assert_eq!(trainjob(&objects)["spec"]["trainer"]["numProcPerNode"], 4, "{}", release.tag);
    }
}

#[test]
fn jax_and_xgboost_are_refused_before_their_runtimes_with_the_release_that_has_them() {
    let jax = common::read_reference("v1-examples/jax/cpu-demo/demo.yaml");
    for release in RELEASES {
        let m = migrate_to(&jax, *release).unwrap();
        match (&m.docs[0].outcome, release.builtin_for(Framework::Jax)) {
            (Outcome::Written { objects, .. }, Some(rt)) => {
                assert_eq!(trainjob(objects)["spec"]["runtimeRef"]["name"], rt.name)
            }
            (Outcome::Refused { reason, .. }, None) => {
                let reason = reason.to_string();
                assert!(reason.contains(&format!("Trainer {} has no JAX runtime", release.tag)), "{reason}");
                assert!(reason.contains("--target v2.2 or newer"), "{reason}");
            }
            (other, rt) => panic!("{}: {other:?} with runtime {rt:?}", release.tag),
        }
        // A TFJob runs on the runtime written with it, in every release: no release ships one.
        let tf = migrate_to(&common::read_reference("v1-examples/tensorflow/simple.yaml"), *release).unwrap();
        let Outcome::Written { objects, .. } = &tf.docs[0].outcome else { panic!("TFJob refused") };
        assert_eq!(trainjob(objects)["spec"]["runtimeRef"]["kind"], "TrainingRuntime");
    }
}

/// The per-release checks can fail: the newest release's output (runtimePatches, an int32
/// numProcPerNode, activeDeadlineSeconds) is rejected by the v2.1 CRDs and its report is false
/// for a v2.1 target, and the v2.1 output is rejected by the v2.3 CRDs.
#[test]
fn output_for_one_release_fails_the_checks_of_another() {
    let (v2_1, v2_3) = (Release::from_line("v2.1").unwrap(), Release::from_line("v2.3").unwrap());
    let (newest, newest_report, m) = converted(&master_worker(), &v2_3);
    let error = common::validate_for(&v2_1, trainjob(&newest)).unwrap_err().to_string();
    assert!(error.contains("runtimePatches") && error.contains("activeDeadlineSeconds"), "{error}");
    let source = m.docs[0].source.as_ref().unwrap();
    let problems = false_claims_for(source, &newest, &newest_report, &v2_1);
    assert!(problems.iter().any(|p| p.contains("moved, but not to spec.podTemplateOverrides")), "{problems:?}");
    let (older, _, _) = converted(&master_worker(), &v2_1);
    let error = common::validate_for(&v2_3, trainjob(&older)).unwrap_err().to_string();
    assert!(error.contains("podTemplateOverrides"), "{error}");
}

/// v2.0's built-ins run placeholder scripts: a V1 container without a command (the image's own
/// entrypoint) gets a generated runtime that runs that entrypoint, in v2.0 only.
#[test]
fn a_job_without_a_command_runs_its_image_entrypoint_in_every_release() {
    let gloo = common::read_reference("v1-examples/pytorch/mnist/v1/pytorch_job_mnist_gloo.yaml");
    for release in RELEASES {
        let (objects, report, _) = converted(&gloo, release);
        let job = trainjob(&objects);
        assert!(job["spec"]["trainer"].get("command").is_none(), "{}", release.tag);
        let builtin = release.builtin_for(Framework::PyTorch).unwrap();
        let image = entry(&report, "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].image");
        if builtin.command.is_empty() {
            assert_eq!(job["spec"]["runtimeRef"]["name"], builtin.name, "{}", release.tag);
            assert_eq!(objects.len(), 1);
        } else {
            assert_eq!(job["spec"]["runtimeRef"]["kind"], "TrainingRuntime", "{}", release.tag);
            let rt = objects.iter().find(|o| o["kind"] == "TrainingRuntime").unwrap();
            let node = &rt["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"];
            assert!(node["containers"][0].get("command").is_none(), "{}: {node}", release.tag);
            assert!(image.note.contains("placeholder script") && image.note.contains(release.tag), "{}", image.note);
        }
    }
}

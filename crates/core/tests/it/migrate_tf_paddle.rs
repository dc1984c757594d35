//! TFJob and PaddleJob to a TrainJob on a generated plain-ML runtime: for every role mix
//! Training Operator v1.9 accepts (the upstream unit tests' jobs in crates/core/tests/it/v1_operator/cases.yaml
//! and the fixtures here), at every release, the objects validate against the release's CRDs,
//! every claim of the report holds, and the pods have no unexplained difference from V1's. The
//! check on the contract (TF_CONFIG, PADDLE_*) is shown to fail on a wrong value.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the CRDs from disk.

use explorer_judges as common;

use explorer_core::migrate::pods::compare_explained;
use explorer_core::migrate::{migrate_to, Outcome};
use explorer_data::releases::{NEWEST, RELEASES};
use explorer_judges::claims::migrate::false_claims_for;
use serde_json::Value;

/// Jobs v1.9 accepts that the corpus and the upstream tests lack.
const FIXTURES: &str = r#"
apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: tf-all-roles, namespace: research}
spec:
  successPolicy: AllWorkers
  runPolicy: {backoffLimit: 2}
  tfReplicaSpecs:
    Chief:
      template:
        spec:
          containers: [{name: tensorflow, image: "tf:2.16", command: [python, /train.py], args: [--role=chief]}]
    PS:
      replicas: 2
      template:
        metadata: {labels: {tier: ps}}
        spec:
          nodeSelector: {pool: cpu}
          containers:
            - name: tensorflow
              image: "tf:2.16"
              command: [python, /train.py]
              ports: [{name: tfjob-port, containerPort: 2223}]
              resources: {requests: {cpu: 2}}
    Worker:
      replicas: 3
      template:
        spec:
          containers:
            - name: tensorflow
              image: "tf:2.16"
              command: [python, /train.py]
              env: [{name: EPOCHS, value: "3"}]
              resources: {limits: {nvidia.com/gpu: 1}}
            - {name: logger, image: "busybox:1.36", command: [sleep, infinity]}
    Evaluator:
      template:
        spec:
          containers: [{name: tensorflow, image: "tf:2.16", command: [python, /eval.py]}]
---
apiVersion: kubeflow.org/v1
kind: TFJob
metadata: {name: tf-master}
spec:
  tfReplicaSpecs:
    Master:
      template:
        spec:
          containers: [{name: tensorflow, image: "tf:2.16"}]
    Worker:
      replicas: 2
      template:
        spec:
          containers: [{name: tensorflow, image: "tf:2.16"}]
---
apiVersion: kubeflow.org/v1
kind: PaddleJob
metadata: {name: paddle-ps, namespace: research}
spec:
  paddleReplicaSpecs:
    Master:
      replicas: 2
      template:
        spec:
          containers:
            - name: paddle
              image: "paddle:2.6"
              command: [python, -m, paddle.distributed.launch, --server_num=2, train.py]
    Worker:
      replicas: 2
      template:
        spec:
          containers:
            - name: paddle
              image: "paddle:2.6"
              command: [python, -m, paddle.distributed.launch, --trainer_num=2, train.py]
            - {name: sidecar, image: "busybox:1.36"}
"#;

fn documents(text: &str) -> Vec<Value> {
    common::yaml_docs(text)
}

/// Every TFJob and PaddleJob of the upstream cases and the fixtures, as YAML text.
fn jobs() -> Vec<(String, String)> {
    let cases: Vec<Value> = serde_yaml::from_str(include_str!("v1_operator/cases.yaml")).unwrap();
    let mut out: Vec<(String, String)> = cases
        .iter()
        .filter(|c| matches!(c["job"]["kind"].as_str(), Some("TFJob" | "PaddleJob")))
        .map(|c| (c["case"].as_str().unwrap().to_string(), serde_yaml::to_string(&c["job"]).unwrap()))
        .collect();
    for d in documents(FIXTURES) {
        out.push((d["metadata"]["name"].as_str().unwrap().to_string(), serde_yaml::to_string(&d).unwrap()));
    }
    // The jobs tests/python/run_training.py trains on both sides (MultiWorkerMirroredStrategy,
    // parameter servers, Paddle collective and PS mode).
    let harness = common::workspace_root().join("tests/python/jobs");
    let mut files: Vec<_> = std::fs::read_dir(&harness).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        out.push((name, std::fs::read_to_string(&path).unwrap()));
    }
    assert!(out.len() >= 10, "{} jobs", out.len());
    out
}

#[test]
fn every_role_mix_converts_validates_and_runs_the_same_pods_at_every_release() {
    let mut problems = Vec::new();
    for release in RELEASES {
        for (name, text) in jobs() {
            let at = format!("{} {name}", release.tag);
            let m = migrate_to(&text, *release).unwrap();
            let d = &m.docs[0];
            let Outcome::Written { objects, report, .. } = &d.outcome else {
                // A PaddleJob whose leader sets no command (upstream's controller test): its first
                // pod's own IP can only come from a wrapper around the command, so it is refused.
                let no_command = text.contains("kind: PaddleJob") && !text.contains("command");
                let said = m.failures().iter().any(|f| f.contains("wrapping the container's command"));
                if !(no_command && said) {
                    problems.push(format!("{at}: not converted: {:?}", m.failures()));
                }
                continue;
            };
            for o in objects {
                if let Err(e) = common::validate_for(release, o) {
                    problems.push(format!("{at}: {} does not validate: {e}", o["kind"]));
                }
            }
            for p in false_claims_for(d.source.as_ref().unwrap(), objects, report, release) {
                problems.push(format!("{at}: {p}"));
            }
            match compare_explained(d.source.as_ref().unwrap(), objects, *release).comparison {
                Ok(c) => problems.extend(c.unexplained().map(|u| format!("{at}: unexplained {} {}", u.role, u.field))),
                Err(e) => problems.push(format!("{at}: not compared: {e}")),
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// The roles that are not the trainer keep their own template and count in the runtime.
#[test]
fn the_other_roles_are_replicated_jobs_of_the_generated_runtime() {
    let m = migrate_to(FIXTURES, NEWEST).unwrap();
    let Outcome::Written { objects, .. } = &m.docs[0].outcome else { panic!("{:?}", m.failures()) };
    let rt = &objects[0];
    assert_eq!(rt["kind"], "TrainingRuntime");
    assert_eq!(rt["spec"]["mlPolicy"], serde_json::json!({"numNodes": 3}), "plain ML: no framework policy");
    let jobs = rt["spec"]["template"]["spec"]["replicatedJobs"].as_array().unwrap();
    let names: Vec<&str> = jobs.iter().map(|j| j["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["node", "chief", "ps", "evaluator"]);
    let ps = &jobs[2]["template"];
    assert_eq!(ps["spec"]["parallelism"], 2);
    assert_eq!(ps["spec"]["template"]["spec"]["nodeSelector"]["pool"], "cpu");
    assert_eq!(ps["spec"]["template"]["spec"]["containers"][0]["ports"][0]["containerPort"], 2223);
    assert_eq!(rt["spec"]["template"]["spec"]["successPolicy"]["targetReplicatedJobs"][0], "node", "AllWorkers");
    let job = &objects[1];
    assert_eq!(job["spec"]["trainer"]["numNodes"], 3);
    assert_eq!(job["spec"]["trainer"]["env"][0]["name"], "EPOCHS");
}

/// The contract check is not a catch-all: a TF_CONFIG that gives every worker index 0, or a
/// PADDLE_MASTER on another port, is an unexplained difference.
#[test]
fn a_wrong_contract_value_is_unexplained() {
    let cases = [
        ("tf-master", "TF_CONFIG", ":$(JOB_COMPLETION_INDEX)}", ":0}"),
        ("paddle-ps", "PADDLE_MASTER", ":36543", ":36544"),
    ];
    for (name, var, from, to) in cases {
        let (_, text) = jobs().into_iter().find(|(n, _)| n == name).unwrap();
        let m = migrate_to(&text, NEWEST).unwrap();
        let d = &m.docs[0];
        let Outcome::Written { objects, .. } = &d.outcome else { panic!() };
        let source = d.source.as_ref().unwrap();
        let good = compare_explained(source, objects, NEWEST).comparison.unwrap();
        assert_eq!(good.unexplained().count(), 0, "{name}");
        let broken: Vec<Value> = objects
            .iter()
            .map(|o| serde_json::from_str(&serde_json::to_string(o).unwrap().replace(from, to)).unwrap())
            .collect();
        assert_ne!(&broken, objects, "{name}: nothing to break");
        let bad = compare_explained(source, &broken, NEWEST).comparison.unwrap();
        assert!(
            bad.unexplained().any(|u| u.field.ends_with(var)),
            "{name}: a wrong {var} passed: {:?}",
            bad.differences
        );
    }
}

#[test]
fn what_v2_cannot_express_is_refused_with_the_reason() {
    let refused = [
        ("apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: dyn}\nspec:\n  enableDynamicWorker: true\n  tfReplicaSpecs:\n    Worker:\n      template: {spec: {containers: [{name: tensorflow, image: tf}]}}\n", "enableDynamicWorker"),
        ("apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: odd}\nspec:\n  tfReplicaSpecs:\n    Trainer:\n      template: {spec: {containers: [{name: tensorflow, image: tf}]}}\n", "Trainer"),
    ];
    for (text, says) in refused {
        let m = migrate_to(text, NEWEST).unwrap();
        match &m.docs[0].outcome {
            Outcome::Refused { reason, .. } => assert!(reason.to_string().contains(says), "{reason}"),
            _ => panic!("not refused: {text}"),
        }
    }
}

/// What Training Operator v1.9 refuses by a replica type, migrate refuses with v1.9's reason
/// instead of converting it: the webhooks of PyTorchJob, XGBoostJob, PaddleJob and JAXJob take
/// only their own types, exactly spelled (e.g. pkg/webhooks/pytorch/pytorchjob_webhook.go:126-132),
/// and a TFJob's type that makes no valid pod name runs no pod (crates/core/tests/it/v1_webhook.rs).
#[test]
fn a_replica_type_v1_9_refuses_is_refused_with_its_reason() {
    let job = |kind: &str, field: &str, container: &str, rtypes: &[&str]| {
        let mut text = format!("apiVersion: kubeflow.org/v1\nkind: {kind}\nmetadata: {{name: t}}\nspec:\n  {field}:\n");
        for r in rtypes {
            text += &format!("    {r}:\n      replicas: 1\n      template: {{spec: {{containers: [{{name: {container}, image: 'a:1', command: [run]}}]}}}}\n");
        }
        text
    };
    let cases = [
        (
            job("PyTorchJob", "pytorchReplicaSpecs", "pytorch", &["Master", "WÖRKER"]),
            "spec.pytorchReplicaSpecs[WÖRKER]: Unsupported value: \"WÖRKER\": supported values: \"Master\", \"Worker\"",
        ),
        (
            job("PyTorchJob", "pytorchReplicaSpecs", "pytorch", &["worker"]),
            "spec.pytorchReplicaSpecs[worker]: Unsupported value: \"worker\"",
        ),
        (
            job("XGBoostJob", "xgbReplicaSpecs", "xgboost", &["Master", "Wörker"]),
            "spec.xgbReplicaSpecs[Wörker]: Unsupported value",
        ),
        (
            job("JAXJob", "jaxReplicaSpecs", "jax", &["WÖRKER"]),
            "spec.jaxReplicaSpecs[WÖRKER]: Unsupported value: \"WÖRKER\": supported values: \"Worker\"",
        ),
        (
            job("PaddleJob", "paddleReplicaSpecs", "paddle", &["Master", "WÖRKER"]),
            "spec.paddleReplicaSpecs[WÖRKER]: Unsupported value",
        ),
        (job("TFJob", "tfReplicaSpecs", "tensorflow", &["WÖRKER"]), "a lowercase RFC 1123 subdomain"),
    ];
    for (text, says) in cases {
        let m = migrate_to(&text, NEWEST).unwrap();
        match &m.docs[0].outcome {
            Outcome::Invalid { error } => assert!(error.to_string().contains(says), "{error}\nwanted: {says}"),
            other => panic!("not refused as v1.9 refuses it: {other:?}\n{text}"),
        }
    }
}

/// A TFJob replica spec, as text, of `rtype` with `replicas` pods of `image`.
fn tf_job(name: &str, specs: &[(&str, u32, &str)]) -> String {
    let mut text =
        format!("apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {{name: {name}}}\nspec:\n  tfReplicaSpecs:\n");
    for (rtype, replicas, image) in specs {
        text += &format!(
            "    {rtype}:\n      replicas: {replicas}\n      template: {{spec: {{containers: [{{name: tensorflow, image: '{image}', command: [python, /train.py]}}]}}}}\n"
        );
    }
    text
}

/// A TFJob replica type written in another case runs as v1.9's defaulting renames it: `WORKER`
/// and `worker` are `Worker` (training-operator v1.9.0:pkg/apis/kubeflow.org/v1/defaulting_utils.go:50-59,
/// tensorflow_defaults.go:36-47,62; upstream's case: tensorflow_defaults_test.go:TestSetTypeNames,
/// `WORKER` renamed `Worker`). The TFJob's webhook checks no type (tfjob_webhook.go:90-127), so
/// the job is admitted and runs. migrate converts it as it converts `Worker`, with the same pods.
#[test]
fn a_tfjob_replica_type_in_another_case_converts_as_v1_9_renames_it() {
    let written = |spelling: &str, rtype: &str| {
        let text = tf_job("mnist", &[(rtype, 2, "tf:2.16"), ("PS", 1, "tf:2.16")]).replace(rtype, spelling);
        let m = migrate_to(&text, NEWEST).unwrap();
        let d = &m.docs[0];
        let Outcome::Written { objects, .. } = &d.outcome else { panic!("{spelling}: {:?}", m.failures()) };
        let compared = compare_explained(d.source.as_ref().unwrap(), objects, NEWEST).comparison.unwrap();
        assert_eq!(compared.unexplained().count(), 0, "{spelling}");
        objects.clone()
    };
    let worker = written("Worker", "Worker");
    // TestSetTypeNames: `WORKER` is renamed `Worker`.
    assert_eq!(written("WORKER", "Worker"), worker);
    assert_eq!(written("worker", "Worker"), worker);
    // The other TF types are renamed alike (tensorflow_defaults.go:37-43).
    let ps = |spelling: &str| {
        let text = tf_job("mnist", &[("Worker", 2, "tf:2.16"), (spelling, 1, "tf:2.16")]);
        let m = migrate_to(&text, NEWEST).unwrap();
        let Outcome::Written { objects, .. } = &m.docs[0].outcome else { panic!("{spelling}: {:?}", m.failures()) };
        objects.clone()
    };
    assert_eq!(ps("ps"), worker);
    assert_eq!(ps("Ps"), worker);
}

/// Where a type's own spelling and one other are both written, v1.9's defaulting moves the other
/// over the type's own spec (defaulting_utils.go:51-55): `{Worker, worker}` runs `worker`'s, and
/// the report says `Worker`'s never ran. Two other spellings (`worker`, `WORKER`) leave which
/// runs to Go's map order: migrate refuses to guess, and explain says so.
#[test]
fn a_tfjob_type_written_twice_converts_as_v1_9_runs_it_or_is_refused() {
    let text = tf_job("mnist", &[("Worker", 3, "tf:old"), ("worker", 2, "tf:new")]);
    let m = migrate_to(&text, NEWEST).unwrap();
    let d = &m.docs[0];
    let Outcome::Written { objects, report, .. } = &d.outcome else { panic!("{:?}", m.failures()) };
    let job = objects.iter().find(|o| o["kind"] == "TrainJob").unwrap();
    assert_eq!(job["spec"]["trainer"]["image"], "tf:new");
    assert_eq!(job["spec"]["trainer"]["numNodes"], 2);
    let dropped = report.iter().find(|e| e.from == "spec.tfReplicaSpecs.Worker").expect("Worker's spec reported");
    assert!(dropped.note.contains("replaces this spec with spec.tfReplicaSpecs.worker's"), "{}", dropped.note);
    let compared = compare_explained(d.source.as_ref().unwrap(), objects, NEWEST).comparison.unwrap();
    assert_eq!(compared.unexplained().count(), 0);

    let text = tf_job("mnist", &[("worker", 3, "tf:a"), ("WORKER", 2, "tf:b")]);
    let m = migrate_to(&text, NEWEST).unwrap();
    match &m.docs[0].outcome {
        Outcome::Invalid { error } => {
            let said = error.to_string();
            assert!(
                said.contains("spec.tfReplicaSpecs: \"worker\" and \"WORKER\" are each the replica type Worker"),
                "{said}"
            );
            assert!(said.contains("random"), "{said}");
        }
        other => panic!("converted a job whose Worker v1.9 picks at random: {other:?}"),
    }
}

/// A TFJob or PaddleJob asking for more pods than any cluster runs gets a message, not an abort:
/// every pod's TF_CONFIG lists every pod's address, so an int32 count of Workers asked for 51 GB
/// and killed the CLI and the converter's worker ("memory allocation of 51539607528 bytes
/// failed"). Three roles near the int32 limit also overflowed the u32 sum of pods.
#[test]
fn a_job_of_more_pods_than_any_cluster_runs_is_refused_not_aborted() {
    let max = i32::MAX as u32;
    let cases = [
        tf_job("huge", &[("Worker", max, "tf:2.16")]),
        tf_job("huge", &[("Chief", 1, "tf:2.16"), ("PS", max, "tf:2.16"), ("Worker", max, "tf:2.16")]),
        tf_job("edge", &[("Worker", 150_000, "tf:2.16"), ("PS", 1, "tf:2.16")]),
    ];
    let pods = [u64::from(max), 1 + 2 * u64::from(max), 150_001];
    for (text, pods) in cases.iter().zip(pods) {
        let m = migrate_to(text, NEWEST).unwrap();
        match &m.docs[0].outcome {
            Outcome::Invalid { error } => assert!(
                error.to_string().ends_with(&format!(
                    "{pods} pods: no Kubernetes cluster runs that many (the supported limit is 150000 pods per \
                     cluster), so migrate does not convert them"
                )),
                "{error}"
            ),
            other => panic!("not refused: {other:?}"),
        }
    }
}

//! V1 → V2 migration: the reference examples, pod-level settings, lossy fields, bad input.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

use explorer_judges as common;

use explorer_core::migrate::{migrate, Kind, Outcome, Sources};
use explorer_data::releases::Release;
use serde_json::Value;

const EXAMPLES: [&str; 15] = [
    "v1-examples/pytorch/simple.yaml",
    "v1-examples/pytorch/cpu-demo/demo.yaml",
    "v1-examples/pytorch/elastic/echo/echo.yaml",
    "v1-examples/pytorch/mnist/v1/pytorch_job_mnist_gloo.yaml",
    "v1-examples/pytorch/deepspeed-demo/pytorch_deepspeed_demo.yaml",
    "v1-examples/mpi/tensorflow-mnist.yaml",
    "v1-examples/xgboost/xgboostjob.yaml",
    "v1-examples/xgboost/smoke-dist/xgboostjob_v1_rabit_test.yaml",
    "v1-examples/jax/cpu-demo/demo.yaml",
    "v1-examples/jax/jax-dist-spmd-mnist/jaxjob_dist_spmd_mnist_gloo.yaml",
    "mpi-operator-v2beta1/pi.yaml",
    "v1-examples/tensorflow/simple.yaml",
    "v1-examples/tensorflow/dist-mnist/tf_job_mnist.yaml",
    "v1-examples/paddlepaddle/simple-cpu.yaml",
    "v1-examples/paddlepaddle/simple-gpu.yaml",
];

fn validate_all(objects: &[Value]) {
    for o in objects {
        common::validate(o).unwrap_or_else(|e| panic!("{e}\n{}", serde_json::to_string_pretty(o).unwrap()));
    }
}

fn converted(text: &str) -> (Vec<Value>, Vec<explorer_core::migrate::Entry>) {
    let m = migrate(text).unwrap();
    match &m.docs[0].outcome {
        Outcome::Written { objects, report, .. } => {
            validate_all(objects);
            let source = m.docs[0].source.as_ref().unwrap();
            let problems = explorer_judges::claims::migrate::false_claims(source, objects, report);
            assert!(problems.is_empty(), "false claims:\n{}", problems.join("\n"));
            (objects.clone(), report.clone())
        }
        other => panic!("not converted: {other:?}"),
    }
}

fn trainjob(objects: &[Value]) -> &Value {
    objects.iter().find(|o| o["kind"] == "TrainJob").expect("a TrainJob")
}

/// The pod comparison's differences in `field` between the one V1 job of `text` and its
/// conversion for the newest release.
fn pod_differences(text: &str, field: &str) -> Vec<explorer_core::migrate::pods::Difference> {
    let m = migrate(text).unwrap();
    let d = &m.docs[0];
    let Outcome::Written { objects, .. } = &d.outcome else { panic!("{:?}", m.failures()) };
    let source = d.source.as_ref().unwrap();
    let compared = explorer_core::migrate::pods::compare_explained(source, objects, explorer_data::releases::NEWEST);
    compared.comparison.unwrap().differences.into_iter().filter(|d| d.field == field).collect()
}

fn entry<'a>(report: &'a [explorer_core::migrate::Entry], v1: &str) -> &'a explorer_core::migrate::Entry {
    report.iter().find(|e| e.from == v1).unwrap_or_else(|| panic!("no report entry for {v1}: {report:#?}"))
}

#[test]
fn every_reference_example_converts_to_valid_v2_or_is_refused_with_a_reason() {
    for rel in EXAMPLES {
        let m = migrate(&common::read_reference(rel)).unwrap();
        let mut snapshot = String::new();
        for d in &m.docs {
            match &d.outcome {
                Outcome::Written { objects, .. } => {
                    validate_all(objects);
                    assert!(objects.iter().any(|o| o["kind"] == "TrainJob"), "{rel}");
                }
                // TFJob and PaddleJob too: a generated plain-ML runtime.
                Outcome::Refused { reason, .. } => panic!("{rel} refused: {reason}"),
                other => panic!("{rel}: {other:?}"),
            }
        }
        snapshot.push_str(&m.output_yaml());
        snapshot.push_str("\n##### report\n");
        snapshot.push_str(&m.report_text());
        let name = rel.trim_end_matches(".yaml").replace('/', "__");
        insta::assert_snapshot!(format!("migrate__{name}"), snapshot);
    }
}

#[test]
fn topology_procs_resources_and_queue_carry_over() {
    let (objects, report) = converted(
        r#"
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: big
  namespace: ml
  labels: {kueue.x-k8s.io/queue-name: team-q}
spec:
  nprocPerNode: "4"
  runPolicy: {activeDeadlineSeconds: 3600, cleanPodPolicy: All, suspend: true}
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers:
            - name: pytorch
              image: my/train:1
              command: [torchrun, train.py]
              env: [{name: EPOCHS, value: "3"}]
              resources: {limits: {nvidia.com/gpu: 4}}
    Worker:
      replicas: 3
      template:
        spec:
          containers:
            - name: pytorch
              image: my/train:1
              command: [torchrun, train.py]
              env: [{name: EPOCHS, value: "3"}]
              resources: {limits: {nvidia.com/gpu: 4}}
"#,
    );
    let job = trainjob(&objects);
    assert_eq!(job["spec"]["runtimeRef"]["name"], "torch-distributed");
    assert_eq!(job["spec"]["trainer"]["numNodes"], 4);
    assert_eq!(job["spec"]["trainer"]["numProcPerNode"], 4);
    assert_eq!(job["spec"]["trainer"]["env"][0]["name"], "EPOCHS");
    assert_eq!(job["spec"]["trainer"]["resourcesPerNode"]["limits"]["nvidia.com/gpu"], 4);
    assert_eq!(job["metadata"]["labels"]["kueue.x-k8s.io/queue-name"], "team-q");
    assert_eq!(job["spec"]["activeDeadlineSeconds"], 3600);
    assert_eq!(job["spec"]["suspend"], true);
    assert_eq!(entry(&report, "spec.runPolicy.cleanPodPolicy").kind, Kind::Dropped);
    assert!(entry(&report, "spec.runPolicy.cleanPodPolicy").note.contains("no V2 field"));
}

#[test]
fn patchable_pod_settings_become_a_runtime_patch() {
    let (objects, report) = converted(
        r#"
apiVersion: kubeflow.org/v1
kind: JAXJob
metadata: {name: jax-data}
spec:
  jaxReplicaSpecs:
    Worker:
      replicas: 2
      template:
        metadata: {labels: {team: vision}}
        spec:
          serviceAccountName: trainer
          nodeSelector: {pool: gpu}
          tolerations: [{key: gpu, operator: Exists, effect: NoSchedule}]
          volumes: [{name: data, persistentVolumeClaim: {claimName: imagenet}}]
          imagePullSecrets: [{name: registry}]
          containers:
            - name: jax
              image: my/jax:1
              volumeMounts: [{name: data, mountPath: /data}]
"#,
    );
    assert_eq!(objects.len(), 1, "no generated runtime");
    let job = trainjob(&objects);
    assert_eq!(job["spec"]["runtimeRef"]["name"], "jax-distributed");
    let patch = &job["spec"]["runtimePatches"][0];
    let pod = &patch["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"];
    assert_eq!(pod["spec"]["serviceAccountName"], "trainer");
    assert_eq!(pod["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"], "imagenet");
    assert_eq!(pod["spec"]["containers"][0]["name"], "node");
    assert_eq!(pod["spec"]["containers"][0]["volumeMounts"][0]["mountPath"], "/data");
    assert_eq!(pod["metadata"]["labels"]["team"], "vision");
    assert_eq!(entry(&report, "spec.jaxReplicaSpecs.Worker.template.spec.tolerations").kind, Kind::Moved);
}

#[test]
fn sidecars_and_init_containers_need_a_generated_runtime() {
    let (objects, report) = converted(
        r#"
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: with-sidecar, namespace: ml}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          initContainers: [{name: fetch, image: busybox, command: [sh, -c, "echo hi"]}]
          containers:
            - name: pytorch
              image: my/train:1
            - name: log-shipper
              image: fluent/fluent-bit:3
"#,
    );
    assert_eq!(objects.len(), 2);
    let rt = &objects[0];
    assert_eq!(rt["kind"], "TrainingRuntime");
    assert_eq!(rt["metadata"]["namespace"], "ml");
    let pod = &rt["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"];
    assert_eq!(pod["initContainers"][0]["name"], "fetch");
    assert_eq!(pod["containers"][1]["name"], "log-shipper");
    let job = trainjob(&objects);
    assert_eq!(job["spec"]["runtimeRef"]["kind"], "TrainingRuntime");
    assert_eq!(job["spec"]["runtimeRef"]["name"], rt["metadata"]["name"]);
    assert_eq!(entry(&report, "spec.pytorchReplicaSpecs.Master.template.spec.containers[1]").kind, Kind::Moved);
}

#[test]
fn lossy_fields_are_reported_with_reasons() {
    let (_, report) = converted(
        r#"
apiVersion: kubeflow.org/v1
kind: XGBoostJob
metadata: {name: xgb}
spec:
  runPolicy: {ttlSecondsAfterFinished: 60}
  xgbReplicaSpecs:
    Master:
      replicas: 1
      restartPolicy: ExitCode
      template: {spec: {containers: [{name: xgboost, image: a:1, args: [--master]}]}}
    Worker:
      replicas: 2
      restartPolicy: ExitCode
      template: {spec: {containers: [{name: xgboost, image: a:1, args: [--worker]}]}}
"#,
    );
    assert!(entry(&report, "spec.xgbReplicaSpecs.Master.restartPolicy").note.contains("podFailurePolicy"));
    let asym = entry(&report, "spec.xgbReplicaSpecs.Worker.template.spec.containers[0].args[0]");
    assert_eq!(asym.kind, Kind::Dropped);
    assert!(asym.note.contains(r#"the Master's args[0] is "--master""#), "{}", asym.note);
    let same = entry(&report, "spec.xgbReplicaSpecs.Worker.template.spec.containers[0].image");
    assert_eq!((same.kind, same.place()), (Kind::Mapped, Some("spec.trainer.image")));
    assert!(entry(&report, "spec.runPolicy.ttlSecondsAfterFinished").note.contains("TTL"));
}

/// A Worker's pod label or annotation the Master lacks is lost, and said as what it is whatever
/// its key holds: the sentence was chosen by looking for `.labels.` in the field's path, so an
/// annotation whose key held `.labels.` was called a label.
#[test]
fn a_lost_worker_label_or_annotation_is_said_as_what_it_is_whatever_its_key() {
    let (_, report) = converted(
        r#"
apiVersion: kubeflow.org/v1
kind: XGBoostJob
metadata: {name: xgb}
spec:
  xgbReplicaSpecs:
    Master:
      replicas: 1
      template: {spec: {containers: [{name: xgboost, image: a:1}]}}
    Worker:
      replicas: 2
      template:
        metadata:
          labels: {example.com/x.annotations.y: a}
          annotations: {team.labels.io/owner: b}
        spec: {containers: [{name: xgboost, image: a:1}]}
"#,
    );
    let note = |key: &str| {
        let e =
            report.iter().find(|e| e.from.ends_with(key)).unwrap_or_else(|| panic!("no entry for {key}: {report:#?}"));
        assert_eq!(e.kind, Kind::Dropped, "{key}");
        e.note.clone()
    };
    assert!(note("team.labels.io/owner").starts_with("the Master's pods have no annotation team.labels.io/owner"));
    assert!(
        note("example.com/x.annotations.y").starts_with("the Master's pods have no label example.com/x.annotations.y")
    );
}

#[test]
fn elastic_policy_and_auto_procs_are_reported() {
    let (objects, report) = converted(&common::read_reference("v1-examples/pytorch/elastic/echo/echo.yaml"));
    assert!(entry(&report, "spec.elasticPolicy").note.contains("not supported"));
    assert!(trainjob(&objects)["spec"]["trainer"].get("numProcPerNode").is_none());
}

/// The elastic policy's deprecated `nProcPerNode` (v1.9's webhook refuses it beside
/// spec.nprocPerNode: pytorchjob_webhook.go:103-108) set each pod's PET_NPROC_PER_NODE
/// (elastic.go:99-103 @v1.9.0) as spec.nprocPerNode does: carried to numProcPerNode, not left to
/// V2's count of the node's CPUs (8 here) with the rest of the elastic policy.
#[test]
fn the_elastic_policys_process_count_is_carried() {
    let text = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: elastic}\nspec:\n  elasticPolicy: \
                {minReplicas: 1, maxReplicas: 2, nProcPerNode: 4}\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n      \
                template: {spec: {containers: [{name: pytorch, image: a:1, command: [torchrun, train.py], resources: \
                {limits: {cpu: 8}}}]}}\n";
    let (objects, report) = converted(text);
    assert_eq!(trainjob(&objects)["spec"]["trainer"]["numProcPerNode"], 4);
    let e = entry(&report, "spec.elasticPolicy.nProcPerNode");
    assert_eq!((e.kind, e.place()), (Kind::Mapped, Some("spec.trainer.numProcPerNode")), "{e:?}");
    assert!(entry(&report, "spec.elasticPolicy").note.contains("not supported"));
    let procs = pod_differences(text, "env.PET_NPROC_PER_NODE");
    assert!(procs.is_empty(), "{procs:#?}");
}

/// A DeepSpeed MPIJob whose workers run `image`.
fn deepspeed_mpijob(image: &str) -> String {
    format!(
        r#"
apiVersion: kubeflow.org/v1
kind: MPIJob
metadata: {{name: ds}}
spec:
  slotsPerWorker: 2
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template: {{spec: {{containers: [{{name: mpi, image: my/deepspeed:1, command: [mpirun, python, train.py, --deepspeed]}}]}}}}
    Worker:
      replicas: 3
      template: {{spec: {{containers: [{{name: mpi, image: "{image}", resources: {{limits: {{nvidia.com/gpu: 2}}}}}}]}}}}
"#
    )
}

#[test]
fn deepspeed_over_mpi_uses_the_builtin_runtime_when_the_workers_run_its_image() {
    let (objects, _) = converted(&deepspeed_mpijob("ghcr.io/kubeflow/trainer/deepspeed-runtime:v2.3.0"));
    assert_eq!(objects.len(), 1);
    let job = trainjob(&objects);
    assert_eq!(job["spec"]["runtimeRef"]["name"], "deepspeed-distributed");
    assert_eq!(job["spec"]["trainer"]["numNodes"], 3);
    assert_eq!(job["spec"]["trainer"]["numProcPerNode"], 2);
}

/// The built-in DeepSpeed runtime's node pods run its own image whatever the TrainJob says (a
/// TrainJob sets the launcher's image only), so workers that ran the job's own image, where its
/// code lives, keep it only in a generated runtime.
#[test]
fn deepspeed_over_mpi_keeps_the_workers_own_image_on_every_node() {
    let m = migrate(&deepspeed_mpijob("my/deepspeed:1")).unwrap();
    let c = explorer_core::migrate::pods::for_document(&m.docs[0], m.target).unwrap().unwrap();
    let images: Vec<_> = c.differences.iter().filter(|d| d.field == "image").collect();
    assert!(images.is_empty(), "the V2 pods run another image: {images:?}");
    let unexplained: Vec<_> = c.unexplained().collect();
    assert!(unexplained.is_empty(), "{unexplained:?}");
}

#[test]
fn plain_mpi_gets_a_generated_runtime_with_the_mpi_policy() {
    let (objects, _) = converted(&common::read_reference("v1-examples/mpi/tensorflow-mnist.yaml"));
    let rt = objects.iter().find(|o| o["kind"] == "TrainingRuntime").expect("a generated runtime");
    assert_eq!(rt["spec"]["mlPolicy"]["mpi"]["mpiImplementation"], "OpenMPI");
    assert_eq!(rt["spec"]["mlPolicy"]["mpi"]["numProcPerNode"], 1);
    assert_eq!(trainjob(&objects)["spec"]["trainer"]["numNodes"], 2);
}

#[test]
fn a_v1_name_that_is_not_an_rfc1035_label_is_renamed_and_reported() {
    let (objects, report) = converted(
        "apiVersion: kubeflow.org/v1\nkind: JAXJob\nmetadata: {name: 2nd.run}\nspec:\n  jaxReplicaSpecs:\n    Worker:\n      template: {spec: {containers: [{name: jax, image: a:1}]}}\n",
    );
    assert_eq!(trainjob(&objects)["metadata"]["name"], "job-2nd-run");
    assert!(entry(&report, "metadata.name").note.contains("renamed"));
}

/// A job Training Operator v1.9's webhook refuses for what is not about its pods (no container
/// named for the framework, a manager it does not know: pytorchjob_webhook.go:138-151,
/// util/webhooks.go:15-25) still converts, as a job whose name the cluster refused does, and the
/// report says, as explain and validate do, that V1 ran no pod for it.
#[test]
fn a_job_v1_9s_webhook_refuses_converts_and_says_v1_ran_no_pod() {
    let job =
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: refused}\nspec:\n  pytorchReplicaSpecs:\n    \
               Worker:\n      replicas: 2\n      template: {spec: {containers: [{name: trainer, image: a:1}]}}\n";
    let (_, report) = converted(job);
    let note = &entry(&report, "metadata.name").note;
    assert!(note.contains("the V1 cluster refused this PyTorchJob as written, so V1 ran no pod"), "{note}");
    assert!(
        note.contains(
            "spec.pytorchReplicaSpecs[Worker].template.spec.containers: Required value: must have at least one \
             container with name pytorch"
        ),
        "{note}"
    );
    let managed =
        job.replace("spec:\n", "spec:\n  runPolicy: {managedBy: example.com/mine}\n").replace("trainer", "pytorch");
    let (_, report) = converted(&managed);
    let note = &entry(&report, "metadata.name").note;
    assert!(note.contains("spec.runPolicy.managedBy: Unsupported value: \"example.com/mine\""), "{note}");
    // A job the webhook admits: no such note.
    let (_, report) = converted(&job.replace("trainer", "pytorch"));
    assert_eq!(entry(&report, "metadata.name").note, "");
}

#[test]
fn streams_keep_other_kinds_and_report_each_document() {
    let m = migrate(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\ndata: {a: b}\n---\n\
         apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {name: tf}\nspec: {enableDynamicWorker: true, tfReplicaSpecs: {Worker: {template: {spec: {containers: [{name: tensorflow, image: tf}]}}}}}\n---\n\
         apiVersion: kubeflow.org/v1\nkind: JAXJob\nmetadata: {name: j}\nspec:\n  jaxReplicaSpecs:\n    Worker:\n      template: {spec: {containers: [{name: jax, image: a:1}]}}\n",
    )
    .unwrap();
    assert_eq!(m.docs.len(), 3);
    assert!(matches!(m.docs[0].outcome, Outcome::PassedThrough { .. }));
    assert!(matches!(m.docs[1].outcome, Outcome::Refused { .. }));
    assert!(matches!(m.docs[2].outcome, Outcome::Written { .. }));
    assert_eq!(m.docs[2].line, 11);
    let out = common::yaml_docs(&m.output_yaml());
    assert_eq!(out[0]["kind"], "ConfigMap", "passed through, not dropped");
    assert_eq!(out[0]["data"]["a"], "b");
    assert!(!m.all_converted());
    assert_eq!(m.failures().len(), 1);
    assert!(m.failures()[0].starts_with("document 2 (line 6): TFJob tf refused"));
}

#[test]
fn bad_input_gets_a_precise_message() {
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "input is empty"),
        ("   \n\n".into(), "input is empty"),
        ("a: [1, 2\nb: 3".into(), "line 2 column 2"),
        ("\u{0}\u{1}ELF\u{2}".into(), "binary data at line 1 column 1"),
        ("[".repeat(20_000), "nesting deeper than 64 levels"),
        // 20,000 nested block sequences on one line.
        ("- ".repeat(20_000) + "x", "nesting deeper than 64 levels"),
        ((0..100).map(|i| format!("{}k:\n", "  ".repeat(i))).collect::<String>(), "nesting deeper than 64 levels"),
        ("x".repeat(5 * 1024 * 1024), "the limit is"),
    ];
    for (input, expected) in cases {
        let message = match migrate(&input) {
            Err(e) => e.to_string(),
            Ok(m) => m.failures().join("\n"),
        };
        assert!(message.contains(expected), "{expected:?} not in {message:?}");
    }
}

#[test]
fn bad_documents_get_a_precise_message() {
    let bomb = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n\
                d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n\
                g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n";
    // Aliases that expand past the input limit refuse the whole input, naming the document.
    let refusal = migrate(bomb).err().expect("an alias bomb is refused").to_string();
    assert!(refusal.contains("document 1 (line 1) reads as more than the input limit holds"), "{refusal}");
    let cases = [
        ("just text", "not a Kubernetes object"),
        // v1.9's webhook refuses it first (pytorchjob_webhook.go:118-120), in its words.
        (
            "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: x}\nspec: {}\n",
            "spec.pytorchReplicaSpecs: Required value: must be required: the Training Operator's webhook refuses",
        ),
        // No name to print: the kind alone, with no gap where the name would be.
        ("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec: {}\n", "PyTorchJob: metadata is missing"),
        // generateName: the TrainJob, its runtime and MASTER_ADDR are written from the name.
        (
            "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {generateName: ddp-}\nspec: {}\n",
            "PyTorchJob: metadata.name is missing: the job is written with metadata.generateName (\"ddp-\"), and \
             the TrainJob",
        ),
        (
            "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: x}\nspec:\n  pytorchReplicaSpecs:\n    Master:\n      replicas: two\n      template: {spec: {containers: [{name: p, image: a}]}}\n",
            "spec.pytorchReplicaSpecs.Master.replicas: Invalid value: \"string\": must be of type integer",
        ),
        (
            "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: x}\nspec:\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n      template: {spec: {containers: []}}\n",
            "containers is empty",
        ),
        (
            "apiVersion: kubeflow.org/v1\nkind: MPIJob\nmetadata: {name: x}\nspec:\n  mpiReplicaSpecs:\n    Worker:\n      template: {spec: {containers: [{name: m, image: a}]}}\n",
            "needs a Launcher replica",
        ),
        (
            "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: x}\nspec:\n  mpiImplementation: Intel\n  mpiReplicaSpecs: {}\n",
            "only OpenMPI",
        ),
    ];
    let misspelt = [
        // Kinds are case-sensitive: the API server finds no such kind, and the job never ran.
        (
            "apiVersion: kubeflow.org/v1\nkind: PytorchJob\nmetadata: {name: x}\nspec: {}\n",
            "PytorchJob x: no matches for kind \"PytorchJob\" in version \"kubeflow.org/v1\": did you mean PyTorchJob?",
        ),
        (
            "apiVersion: kubeflow.org/v2beta1\nkind: mpijob\nmetadata: {name: x}\nspec: {}\n",
            "mpijob x: no matches for kind \"mpijob\" in version \"kubeflow.org/v2beta1\": did you mean MPIJob?",
        ),
    ];
    for (input, expected) in cases.into_iter().chain(misspelt) {
        let m = migrate(input).unwrap();
        let message = m.failures().join("\n");
        assert!(message.contains(expected), "{expected:?} not in {message:?}");
    }
}

#[test]
fn a_one_megabyte_manifest_converts() {
    // Timing is measured in `make bench`; here: it converts, completely.
    let job = common::read_reference("v1-examples/pytorch/simple.yaml");
    let mut big = String::new();
    let mut n = 0;
    while big.len() < 1024 * 1024 {
        big.push_str(&job.replace("name: pytorch-simple", &format!("name: pytorch-simple-{n}")));
        big.push_str("\n---\n");
        n += 1;
    }
    let m = migrate(&big).unwrap();
    assert_eq!(m.docs.len(), n);
    assert!(m.all_converted());
}

/// Every entry of every report is checked against the output: "mapped → path" only where the
/// output holds that value at that path, "moved" only into a runtime patch or a generated
/// runtime, "dropped" only with a specific reason and only where no node gets the value.
#[test]
fn every_claim_of_every_report_is_true() {
    let mut problems = Vec::new();
    for rel in EXAMPLES {
        let text = common::read_reference(rel);
        let m = migrate(&text).unwrap();
        for d in &m.docs {
            if let (Outcome::Written { objects, report, .. }, Some(source)) = (&d.outcome, &d.source) {
                for p in explorer_judges::claims::migrate::false_claims(source, objects, report) {
                    problems.push(format!("{rel} document {}: {p}", d.index));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} false claims:\n{}", problems.len(), problems.join("\n"));
}

fn refusal(text: &str) -> String {
    let m = migrate(text).unwrap();
    match &m.docs[0].outcome {
        Outcome::Invalid { error } => error.to_string(),
        other => panic!("not refused: {other:?}"),
    }
}

const MASTER_WORKER_GPUS: &str = r#"
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: gpus}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template: {spec: {containers: [{name: pytorch, image: a:1, resources: {limits: {nvidia.com/gpu: 1, memory: 8Gi}}}]}}
    Worker:
      replicas: 3
      template: {spec: {containers: [{name: pytorch, image: a:1, resources: {limits: {nvidia.com/gpu: GPU, memory: 8Gi}}}]}}
"#;

/// The defect of issue 10: resourcesPerNode comes from the Worker, and the Master's equal value
/// was reported as dropped. Equal: carried by resourcesPerNode; different: which one won, precisely.
#[test]
fn the_masters_resources_are_carried_by_resources_per_node_when_equal_and_reported_precisely_when_not() {
    let (objects, report) = converted(&MASTER_WORKER_GPUS.replace("GPU", "1"));
    let master = "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources";
    let e = entry(&report, master);
    assert_eq!((e.kind, e.place()), (Kind::Mapped, Some("spec.trainer.resourcesPerNode")), "{e:?}");
    assert_eq!(trainjob(&objects)["spec"]["trainer"]["resourcesPerNode"]["limits"]["nvidia.com/gpu"], 1);

    let (_, report) = converted(&MASTER_WORKER_GPUS.replace("GPU", "2"));
    let gpu = entry(&report, &format!("{master}.limits.nvidia.com/gpu"));
    assert_eq!(gpu.kind, Kind::Dropped);
    assert!(gpu.note.contains("the Worker's nvidia.com/gpu is 2"), "{}", gpu.note);
    let memory = entry(&report, &format!("{master}.limits.memory"));
    assert_eq!((memory.kind, memory.place()), (Kind::Mapped, Some("spec.trainer.resourcesPerNode.limits.memory")));
}

/// A Master that writes its requests beside limits equal to the Worker's limits-only resources
/// runs with the same resources: the API server defaults each request a container leaves out to
/// its limit. Reported as carried by resourcesPerNode, not as dropped requests, and no pod
/// difference (with a loss) is said for it.
#[test]
fn a_masters_requests_equal_to_the_workers_defaulted_ones_are_no_loss() {
    let master = "{limits: {cpu: 4, memory: 16Gi}, requests: {cpu: 4, memory: 16Gi}}";
    let text = MASTER_WORKER_GPUS
        .replace("{limits: {nvidia.com/gpu: 1, memory: 8Gi}}", master)
        .replace("{limits: {nvidia.com/gpu: GPU, memory: 8Gi}}", "{limits: {cpu: 4, memory: 16Gi}}");
    let (_, report) = converted(&text);
    let path = "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources";
    let dropped: Vec<_> = report.iter().filter(|e| e.from.starts_with(path) && e.kind == Kind::Dropped).collect();
    assert!(dropped.is_empty(), "{dropped:#?}");
    let e = entry(&report, path);
    assert_eq!((e.kind, e.place()), (Kind::Mapped, Some("spec.trainer.resourcesPerNode")), "{e:?}");
    assert!(e.note.contains("defaults each request"), "{}", e.note);
    let resources = pod_differences(&text, "resources");
    assert!(resources.is_empty(), "{resources:#?}");
    // Different once defaulted (the Master asks for less than it may use): still said.
    let (_, report) = converted(&text.replace("requests: {cpu: 4,", "requests: {cpu: 2,"));
    assert_eq!(entry(&report, &format!("{path}.requests.cpu")).kind, Kind::Dropped);
}

#[test]
fn replica_counts_beyond_int32_are_refused_with_the_field_and_the_limit() {
    // 4294967295 + 1 overflowed a u32 add: a panic in debug, a wrong numNodes in release.
    let message = refusal(&MASTER_WORKER_GPUS.replace("replicas: 1", "replicas: 4294967295").replace("GPU", "1"));
    // Past int32 it is no count the CRD takes: the field error explain and validate give too.
    assert!(
        message.ends_with("spec.pytorchReplicaSpecs.Master.replicas: Invalid value: 4294967295: must fit in an int32"),
        "{message}"
    );
    // Each within int32, the sum beyond it (the Master stays 1, as v1.9's webhook wants it):
    // more pods than any cluster runs, as explain says it.
    let message = refusal(&MASTER_WORKER_GPUS.replace("replicas: 3", "replicas: 2147483647").replace("GPU", "1"));
    assert!(message.contains("2147483648 pods: no Kubernetes cluster runs that many"), "{message}");
    // No nodes at all: v1.9's webhook refuses a PyTorchJob's Master of 0 and Worker of 0
    // (pytorchjob_webhook.go:152-158) before any sum; a JAXJob's checks no count, and a TrainJob runs
    // at least one node.
    let message = refusal(
        &MASTER_WORKER_GPUS
            .replace("replicas: 1", "replicas: 0")
            .replace("replicas: 3", "replicas: 0")
            .replace("GPU", "1"),
    );
    assert!(message.contains("spec.pytorchReplicaSpecs[Master].replicas: Forbidden: must be 1"), "{message}");
    let jax = "apiVersion: kubeflow.org/v1\nkind: JAXJob\nmetadata: {name: j}\nspec:\n  jaxReplicaSpecs:\n    Worker:\n      \
               replicas: 0\n      template: {spec: {containers: [{name: jax, image: a:1}]}}\n";
    let message = refusal(jax);
    assert!(message.contains("spec.jaxReplicaSpecs.Worker.replicas is 0, out of range"), "{message}");
}

const MPI: &str = r#"
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: pi}
spec:
  slotsPerWorker: SLOTS
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template: {spec: {containers: [{name: mpi, image: a:1, command: [mpirun]}]}}
    Worker:
      replicas: WORKERS
      template: {spec: {containers: [{name: mpi, image: a:1}]}}
"#;

#[test]
fn mpi_slots_and_workers_are_checked_against_int32_and_never_truncated() {
    let mpi = |slots: &str, workers: &str| MPI.replace("SLOTS", slots).replace("WORKERS", workers);
    // `as u32` made 4294967297 slots into 1.
    let message = refusal(&mpi("4294967297", "2"));
    assert!(message.contains("spec.slotsPerWorker is 4294967297, out of range"), "{message}");
    assert!(refusal(&mpi("0", "2")).contains("spec.slotsPerWorker is 0"));
    assert!(refusal(&mpi("-1", "2")).contains("spec.slotsPerWorker is -1"));
    assert!(refusal(&mpi("\"four\"", "2")).contains("must be an integer"));
    assert!(refusal(&mpi("1", "0")).contains("spec.mpiReplicaSpecs.Worker.replicas is 0"));
    assert!(refusal(&mpi("1", "2147483648")).contains("spec.mpiReplicaSpecs.Worker.replicas"));
    // Workers within int32 but more pods than any cluster runs (the launcher is one of them).
    assert!(refusal(&mpi("2147483647", "2147483647")).contains("2147483648 pods: no Kubernetes cluster runs that many"));
    // As many workers as a hostfile of `slots=2147483647` lines holds (more: its ConfigMap is refused).
    let (objects, _) = converted(&mpi("2147483647", "20000"));
    assert_eq!(trainjob(&objects)["spec"]["trainer"]["numNodes"], 20000);
}

#[test]
fn processes_per_node_beyond_int32_are_refused() {
    let job = MASTER_WORKER_GPUS
        .replace("GPU", "1")
        .replace("spec:\n  pytorch", "spec:\n  nprocPerNode: \"4294967296\"\n  pytorch");
    let message = refusal(&job);
    assert!(message.contains("spec.nprocPerNode is 4294967296, out of range"), "{message}");
}

/// A malformed pod setting refuses its document with the field path; the other documents of the
/// stream still convert. (Settings that parse always fit the runtime, as they come from the same
/// typed models; should one not, `embed` now refuses the document instead of dropping it.)
#[test]
fn malformed_pod_settings_refuse_their_document_and_the_others_convert() {
    let bad = r#"
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: bad}
spec:
  pytorchReplicaSpecs:
    Worker:
      template:
        metadata: {labels: [not, a, map]}
        spec:
          initContainers: [{name: init, image: busybox}]
          containers: [{name: pytorch, image: a:1}]
"#;
    let text = format!("{bad}---{}", MPI.replace("SLOTS", "1").replace("WORKERS", "2"));
    let m = migrate(&text).unwrap();
    match &m.docs[0].outcome {
        Outcome::Invalid { error } => assert!(error.to_string().contains("metadata"), "{error}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(m.docs[1].outcome, Outcome::Written { .. }));
}

#[test]
fn the_trainer_containers_name_is_renamed_not_lost() {
    // V2 names the trainer container `node`; a job whose only difference is that name loses nothing.
    let job = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: plain}\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n      template: {spec: {containers: [{name: pytorch, image: a}]}}\n";
    let m = migrate(job).unwrap();
    let Outcome::Written { lossy, report, .. } = &m.docs[0].outcome else { panic!("not converted") };
    assert!(!lossy, "{report:?}");
    let name = entry(report, "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].name");
    assert_eq!(name.kind, Kind::NameFixed);
    assert!(name.note.contains("node"), "{}", name.note);
}

/// Both MPI operators default an absent Worker count to 0: the V1 launcher ran alone, which a
/// TrainJob cannot say, so the migrator asks for the count rather than guessing 1.
#[test]
fn an_mpijob_without_a_worker_count_is_refused_naming_the_default() {
    let m = migrate(
        "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: m}\nspec:\n  mpiReplicaSpecs:\n    \
         Launcher: {replicas: 1, template: {spec: {containers: [{name: mpi, image: x:1}]}}}\n    \
         Worker: {template: {spec: {containers: [{name: mpi, image: x:1}]}}}\n",
    )
    .unwrap();
    let failure = m.failures().join("\n");
    assert!(
        failure.contains("spec.mpiReplicaSpecs.Worker.replicas is absent") && failure.contains("default it to 0"),
        "{failure}"
    );
}

/// The claims check is the judge every conversion test above relies on: each kind of false
/// migration report it must catch, on the simplest reference example.
#[test]
fn the_claims_check_catches_each_kind_of_false_migration_report() {
    use explorer_core::migrate::Entry;
    use explorer_judges::claims::migrate::false_claims;
    let text = common::read_reference("v1-examples/pytorch/simple.yaml");
    let (objects, report) = converted(&text);
    let m = migrate(&text).unwrap();
    let source = m.docs[0].source.as_ref().unwrap();
    // The true report passes: each problem below comes from the one defect put in.
    let none = false_claims(source, &objects, &report);
    assert!(none.is_empty(), "the true report is refused: {none:#?}");
    let expect = |objects: &[Value], report: &[Entry], problem: &str| {
        let problems = false_claims(source, objects, report);
        assert!(problems.iter().any(|p| p.contains(problem)), "{problem:?} not in {problems:#?}");
    };
    let master = "spec.pytorchReplicaSpecs.Master.template.spec.containers[0]";
    let tj = objects.iter().position(|o| o["kind"] == "TrainJob").expect("a TrainJob");
    // A mapped value that is not where the report says, and a place the output does not have.
    let mut changed = objects.clone();
    changed[tj]["spec"]["trainer"]["image"] = serde_json::json!("other");
    expect(&changed, &report, &format!("{master}.image: mapped to spec.trainer.image, which holds \"other\""));
    changed[tj]["spec"]["trainer"].as_object_mut().unwrap().remove("command");
    expect(
        &changed,
        &report,
        &format!("{master}.command[0]: mapped to spec.trainer.command[0], which the output does not have"),
    );
    // A field no entry accounts for.
    let fewer: Vec<Entry> = report.iter().filter(|e| e.from != "metadata.namespace").cloned().collect();
    expect(&objects, &fewer, "metadata.namespace: no entry accounts for it");
    // Two entries for one field, a field the V1 document does not have, a drop without a reason.
    let mut more = report.clone();
    more.push(entry(&report, "metadata.name").clone());
    more.push(Entry { from: "spec.nothing".into(), ..entry(&report, "metadata.name").clone() });
    let dropped = more.iter().position(|e| e.kind == Kind::Dropped).expect("a dropped field");
    more[dropped].note.clear();
    expect(&objects, &more, "metadata.name: more than one entry");
    expect(&objects, &more, "spec.nothing: the report mentions a field the V1 document does not have");
    expect(&objects, &more, "dropped without a specific reason");
}

/// A job's labels are one report entry for them all, written out per key from the TrainJob they
/// went to (`Entry::each_field`): read without it, that entry stood for no field, silently.
#[cfg(debug_assertions)]
#[test]
#[should_panic(expected = "the run of keys of metadata.labels was read without the object it went to")]
fn a_run_of_labels_read_without_its_trainjob_is_a_defect_a_debug_build_names() {
    let text =
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: j\n  labels:\n    team: ml\nspec:\n  \
                pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n      template:\n        spec:\n          containers:\n          \
                - name: pytorch\n            image: x\n";
    let doc = explorer_core::migrate::migrate_each(text, explorer_data::releases::NEWEST, Sources::Kept)
        .unwrap()
        .next()
        .unwrap();
    let Outcome::Written { report, objects, .. } = &doc.outcome else { panic!("not converted: {:?}", doc.outcome) };
    let run = report.iter().find(|e| e.to.keys().is_some()).expect("the labels' run");
    assert_eq!(run.each_field(objects).count(), 1);
    let _ = run.each_field(&[]).count();
}

/// A stream whose job holds more values than the pod comparison reads, migrated for output
/// (`Sources::ForOutput`, the CLI): its labels and annotations move into its TrainJob and no
/// source is kept, yet every document reads as it does with its source kept (the page's
/// migration): the same objects, report and JSON, and a ConfigMap of as many labels passed
/// through whole. The job's metadata has members after its labels, whose order its report keeps.
#[test]
fn a_job_migrated_for_output_reads_as_the_job_with_its_source_kept() {
    let labels: String =
        (0..25_000)
            .map(|i| {
                if i == 12_000 {
                    "    kueue.x-k8s.io/queue-name: q\n".to_string()
                } else {
                    format!("    l{i}: v{i}\n")
                }
            })
            .collect();
    let job = format!(
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: big\n  labels:\n{labels}  annotations:\n    \
         a: b\n  generation: 3\n  uid: u\n  resourceVersion: '1'\nspec:\n  pytorchReplicaSpecs:\n    Master:\n      \
         replicas: 1\n      template:\n        spec:\n          containers:\n          - name: pytorch\n            \
         image: x\n"
    );
    let config_map =
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n{labels}data:\n  a: b\n");
    let text = format!("{job}---\n{config_map}");
    let release = explorer_data::releases::NEWEST;
    let kept: Vec<_> = explorer_core::migrate::migrate_each(&text, release, Sources::Kept).unwrap().collect();
    let for_output: Vec<_> =
        explorer_core::migrate::migrate_each(&text, release, Sources::ForOutput).unwrap().collect();
    assert!(kept[0].source.is_some() && for_output[0].source.is_none(), "the job's source is kept only for the page");
    let json = |docs: &[explorer_core::migrate::DocResult]| -> Vec<Value> {
        docs.iter().map(|d| explorer_core::migrate::pods::document_json(d, release)).collect()
    };
    assert_eq!(json(&for_output), json(&kept));
    let report = |docs: Vec<explorer_core::migrate::DocResult>| {
        explorer_core::migrate::Migration { docs, target: release }.report_text()
    };
    let (kept, for_output) = (report(kept), report(for_output));
    assert!(kept.contains("metadata.generation") && kept.contains("metadata.labels.l24999"), "{kept:.300}");
    assert_eq!(for_output, kept);
}

/// What the CLI prints of the migration of `text` for `release`, keeping `sources`: the output
/// YAML, each document's JSON, the report, and the failures.
fn printed(text: &str, release: Release, sources: Sources) -> (String, Vec<String>, String, Vec<String>) {
    let docs: Vec<_> = explorer_core::migrate::migrate_each(text, release, sources).unwrap().collect();
    let json: Vec<String> = docs
        .iter()
        .map(|d| serde_json::to_string(&explorer_core::migrate::pods::document_json(d, release)).unwrap())
        .collect();
    let migration = explorer_core::migrate::Migration { docs, target: release };
    (migration.output_yaml(), json, migration.report_text(), migration.failures())
}

/// A job whose Master holds more variables than the pod comparison reads, migrated for output
/// (`Sources::ForOutput`, the CLI): the variables the TrainJob carries as they were written move
/// from the parsed tree into it (convert/moved_env.rs), yet the printed YAML, JSON and report are
/// those of the page's migration (`Sources::Kept`), byte for byte: a variable written `value`
/// first, one with `valueFrom`, one with no value, an empty one, one whose `$(MASTER_ADDR)` the
/// conversion rewrites, the variables it adds after them, and a Worker whose env differs.
#[test]
fn a_jobs_trainer_env_migrated_for_output_prints_as_with_its_source_kept() {
    let env: String = (0..12_000)
        .map(|i| match i {
            100 => "            - value: first\n              name: VALUE_FIRST\n".to_string(),
            200 => "            - name: FROM\n              valueFrom:\n                fieldRef:\n                  \
                    fieldPath: metadata.name\n"
                .to_string(),
            300 => "            - name: NO_VALUE\n".to_string(),
            400 => "            - name: EMPTY\n              value: ''\n".to_string(),
            500 => "            - name: ADDR\n              value: $(MASTER_ADDR):29500\n".to_string(),
            _ => format!("            - name: E{i}\n              value: v{i}\n"),
        })
        .collect();
    let container = |env: &str| {
        format!("        spec:\n          containers:\n          - name: pytorch\n            image: x\n            env:\n{env}")
    };
    let text = format!(
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: big\nspec:\n  pytorchReplicaSpecs:\n    \
         Master:\n      replicas: 1\n      template:\n{}    Worker:\n      replicas: 2\n      template:\n{}",
        container(&env),
        container("            - name: W\n              value: w\n"),
    );
    let release = explorer_data::releases::NEWEST;
    let (kept, for_output) = (printed(&text, release, Sources::Kept), printed(&text, release, Sources::ForOutput));
    assert!(kept.3.is_empty() && for_output.3.is_empty(), "{:?}", for_output.3);
    let seen = ["value: first", "fieldPath: metadata.name", "name: NO_VALUE", "value: \"\"", "$(PET_MASTER_ADDR)"];
    for seen in seen.into_iter().chain(["name: MASTER_ADDR\n        value: big-node-0-0.big"]) {
        assert!(kept.0.contains(seen), "{seen} not in {:.2000}", kept.0);
    }
    assert!(kept.0 == for_output.0, "the YAML differs");
    assert!(kept.1 == for_output.1, "the JSON differs");
    assert!(kept.2 == for_output.2, "the report differs");
}

/// Jobs whose main containers hold more args than the pod comparison reads, migrated for output
/// (`Sources::ForOutput`, the CLI): the model is read without those args and the TrainJob's are
/// the trainer's list moved from the parsed tree (convert/tree_args.rs), yet the printed YAML,
/// JSON and report are those of the page's migration (`Sources::Kept`), byte for byte: a Master
/// whose `$(MASTER_ADDR)` and `$(RANK)` the conversion rewrites and whose args outlast a Worker's
/// different ones (the Master-only ones are said), a template the Worker names by an alias, a
/// Worker alone, a JAXJob, a main container after a sidecar, an XGBoost Worker that runs no pod, and a job
/// whose float quantity is written as text (read from that copy, args in the model).
#[test]
fn a_jobs_trainer_args_migrated_for_output_print_as_with_their_source_kept() {
    let args = |n: usize, rewritten: bool| -> String {
        (0..n)
            .map(|i| match i {
                300 if rewritten => "            - --addr=$(MASTER_ADDR):$(MASTER_PORT)\n".to_string(),
                400 if rewritten => "            - --rank=$(RANK)\n".to_string(),
                500 => "            - ''\n".to_string(),
                _ => format!("            - a{i}\n"),
            })
            .collect()
    };
    let (master_args, worker_args) = (args(21_000, true), args(200, false).replace("a150\n", "w150\n"));
    let job = |kind: &str, field: &str, replicas: &str| {
        format!("apiVersion: kubeflow.org/v1\nkind: {kind}\nmetadata:\n  name: big\nspec:\n  {field}:\n{replicas}")
    };
    let template = |name: &str, sidecar: bool, resources: &str, args: &str| {
        let sidecar =
            if sidecar { "          - name: side\n            image: s\n            args: [x]\n" } else { "" };
        format!(
            "      template:\n        spec:\n          containers:\n{sidecar}          - name: {name}\n            \
             image: x\n{resources}            args:\n{args}"
        )
    };
    let replica =
        |rtype: &str, count: u32, template: &str| format!("    {rtype}:\n      replicas: {count}\n{template}");
    let pytorch = |master: &str, worker: &str| {
        job(
            "PyTorchJob",
            "pytorchReplicaSpecs",
            &format!("{}{}", replica("Master", 1, master), replica("Worker", 2, worker)),
        )
    };
    let cpu = |cpu: &str| format!("            resources:\n              limits:\n                cpu: {cpu}\n");
    let jobs = [
        pytorch(&template("pytorch", false, "", &master_args), &template("pytorch", false, "", &worker_args)),
        job(
            "PyTorchJob",
            "pytorchReplicaSpecs",
            &format!(
                "    Master:\n      replicas: 1\n      template: &pod\n        spec:\n          containers:\n          - \
                 name: pytorch\n            image: x\n            args:\n{master_args}    Worker:\n      replicas: 2\n      \
                 template: *pod\n"
            ),
        ),
        job("PyTorchJob", "pytorchReplicaSpecs", &replica("Worker", 3, &template("pytorch", false, "", &master_args))),
        job("XGBoostJob", "xgbReplicaSpecs", &replica("Master", 1, &template("xgboost", true, "", &master_args))),
        job("JAXJob", "jaxReplicaSpecs", &replica("Worker", 2, &template("jax", false, "", &master_args))),
        job(
            "XGBoostJob",
            "xgbReplicaSpecs",
            &format!(
                "{}{}",
                replica("Master", 1, &template("xgboost", true, "", &master_args)),
                replica("Worker", 0, &template("xgboost", false, "", &worker_args))
            ),
        ),
        pytorch(&template("pytorch", false, &cpu("0.5"), &master_args), &template("pytorch", false, &cpu("1"), &worker_args)),
    ];
    let release = explorer_data::releases::NEWEST;
    for (i, text) in jobs.iter().enumerate() {
        let (kept, for_output) = (printed(text, release, Sources::Kept), printed(text, release, Sources::ForOutput));
        assert!(kept.3.is_empty() && for_output.3.is_empty(), "job {i}: {:?}", for_output.3);
        assert!(kept.0.contains("- \"a20999\"\n"), "job {i}: {:.2000}", kept.0);
        assert!(kept.0 == for_output.0, "job {i}: the YAML differs");
        assert!(kept.1 == for_output.1, "job {i}: the JSON differs");
        assert!(kept.2 == for_output.2, "job {i}: the report differs");
    }
    // Read from the page's migration: 12,000 args are more than the CRD lets a TrainJob hold.
    let migration = migrate(&jobs[0]).unwrap();
    let Outcome::Written { report, .. } = &migration.docs[0].outcome else { panic!("not converted") };
    let args = entry(report, "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].args");
    assert!(args.note.contains("V1 gave args[200] (a200)"), "{}", args.note);
    assert!(report.iter().any(|e| e.from.ends_with("args[300]")), "the rewritten arg has its own entry");
}

/// Jobs of one replica type whose pod spec holds a `nodeSelector` of more keys than the pod
/// comparison reads, migrated for output (`Sources::ForOutput`, the CLI): the fields the model
/// does not name move from the parsed tree into the pod settings, unread by the model
/// (convert/moved_settings.rs), yet the printed YAML, JSON and report are those of the page's
/// migration (`Sources::Kept`), byte for byte, for every release (each writes its own kind of
/// pod settings): fields a TrainJob holds, fields only a generated runtime holds, a field with no
/// place, a Master alone, an XGBoost and a JAX job, and jobs where nothing moves (Master and
/// Worker, whose templates are compared; a pod-level float quantity, converted from a copy).
#[test]
fn a_jobs_pod_settings_migrated_for_output_print_as_with_their_source_kept() {
    let selector: String = (0..21_000).map(|i| format!("            k{i}: v{i}\n")).collect();
    let pod = |name: &str, more: &str| {
        format!(
            "      template:\n        spec:\n          priorityClassName: high\n          nodeSelector:\n{selector}{more}\
             \n          containers:\n          - name: {name}\n            image: x\n          tolerations:\n          - \
             key: gpu\n            operator: Exists\n          schedulerName: volcano\n"
        )
    };
    let job = |kind: &str, field: &str, replicas: &str| {
        format!("apiVersion: kubeflow.org/v1\nkind: {kind}\nmetadata:\n  name: big\nspec:\n  {field}:\n{replicas}")
    };
    // One Master (V1's webhook refuses more), two of any other type.
    let replica = |rtype: &str, template: &str| {
        format!("    {rtype}:\n      replicas: {}\n{template}", if rtype == "Master" { 1 } else { 2 })
    };
    let pytorch = |replicas: &str| job("PyTorchJob", "pytorchReplicaSpecs", replicas);
    let jobs = [
        pytorch(&replica("Worker", &pod("pytorch", ""))),
        pytorch(&replica("Master", &pod("pytorch", "          hostNetwork: true"))),
        pytorch(&replica("Worker", &pod("pytorch", "          unknownField: {a: 1}"))),
        job("XGBoostJob", "xgbReplicaSpecs", &replica("Master", &pod("xgboost", "          dnsPolicy: None"))),
        job("JAXJob", "jaxReplicaSpecs", &replica("Worker", &pod("jax", ""))),
        pytorch(&format!("{}{}", replica("Master", &pod("pytorch", "")), replica("Worker", &pod("pytorch", "")))),
        pytorch(&replica(
            "Worker",
            &pod("pytorch", "          overhead:\n            cpu: 0.5\n          resources:\n            limits:\n              cpu: 0.5"),
        )),
    ];
    for &release in explorer_data::releases::RELEASES {
        for (i, text) in jobs.iter().enumerate() {
            let (kept, for_output) =
                (printed(text, release, Sources::Kept), printed(text, release, Sources::ForOutput));
            let tag = release.tag;
            // Converted where the release has the kind's runtime (XGBoost and JAX came later).
            let converted = kept.3.is_empty() && kept.0.contains("k20999: v20999");
            assert!(converted || tag.starts_with("v2.0") || tag.starts_with("v2.1"), "{tag} job {i}: {:?}", kept.3);
            assert!(kept.3 == for_output.3, "{tag} job {i}: the failures differ");
            assert!(kept.0 == for_output.0, "{tag} job {i}: the YAML differs");
            assert!(kept.1 == for_output.1, "{tag} job {i}: the JSON differs");
            assert!(kept.2 == for_output.2, "{tag} job {i}: the report differs");
        }
    }
}

/// Jobs whose main containers hold more variables than the pod comparison reads, each written
/// as the model writes it (`name`, then `value`), migrated for output (`Sources::ForOutput`, the
/// CLI): the model is read without them and the TrainJob's are the trainer's list moved from the
/// parsed tree (convert/moved_env.rs, `EnvInTree`), yet the printed YAML, JSON, report and
/// failures are those of the page's migration (`Sources::Kept`), byte for byte, for every
/// release: a Master whose `$(MASTER_ADDR)` the conversion rewrites, that sets `RANK` itself and
/// whose args are read in the tree too, beside a Worker of other variables; a Worker alone; an
/// XGBoost main container after a sidecar of its own variables; a JAXJob; a template the Worker
/// names by an alias; and jobs where the model reads them (a variable with `valueFrom`, one
/// whose name is a number, a float quantity written as text).
#[test]
fn a_jobs_trainer_env_read_in_the_tree_prints_as_with_its_source_kept() {
    let env = |n: usize, odd: Option<&str>| -> String {
        (0..n)
            .map(|i| match i {
                200 if odd.is_some() => odd.unwrap_or_default().to_string(),
                300 => "            - name: ADDR\n              value: $(MASTER_ADDR):$(MASTER_PORT)\n".to_string(),
                400 => "            - name: RANK\n              value: '7'\n".to_string(),
                500 => "            - name: NO_VALUE\n".to_string(),
                600 => "            - name: EMPTY\n              value: ''\n".to_string(),
                _ => format!("            - name: E{i}\n              value: v{i}\n"),
            })
            .collect()
    };
    let plain = env(12_000, None);
    // The input door counts what an alias repeats against the input's size: a comment makes room.
    let room = format!("# {}\n", "x".repeat(1_000)).repeat(1_500);
    let job = |kind: &str, field: &str, replicas: &str| {
        format!("apiVersion: kubeflow.org/v1\nkind: {kind}\nmetadata:\n  name: big\nspec:\n  {field}:\n{replicas}")
    };
    let template = |name: &str, sidecar: bool, more: &str, env: &str| {
        let sidecar = if sidecar {
            "          - name: side\n            image: s\n            env:\n            - name: S\n              value: s\n"
        } else {
            ""
        };
        format!(
            "      template:\n        spec:\n          containers:\n{sidecar}          - name: {name}\n            \
             image: x\n{more}            env:\n{env}"
        )
    };
    let replica =
        |rtype: &str, count: u32, template: &str| format!("    {rtype}:\n      replicas: {count}\n{template}");
    let pytorch = |replicas: String| job("PyTorchJob", "pytorchReplicaSpecs", &replicas);
    let args = "            args: [--rank=$(RANK), a]\n";
    let worker_env = "            - name: W\n              value: w\n";
    let value_from =
        "            - name: FROM\n              valueFrom:\n                fieldRef:\n                  \
                      fieldPath: metadata.name\n";
    let cpu = "            resources:\n              limits:\n                cpu: 0.5\n";
    let jobs = [
        pytorch(format!(
            "{}{}",
            replica("Master", 1, &template("pytorch", false, args, &plain)),
            replica("Worker", 2, &template("pytorch", false, "", worker_env))
        )),
        pytorch(replica("Worker", 3, &template("pytorch", false, "", &plain))),
        job("XGBoostJob", "xgbReplicaSpecs", &replica("Master", 1, &template("xgboost", true, "", &plain))),
        job("JAXJob", "jaxReplicaSpecs", &replica("Worker", 2, &template("jax", false, "", &plain))),
        room + &pytorch(format!(
            "    Master:\n      replicas: 1\n      template: &pod\n        spec:\n          containers:\n          - \
             name: pytorch\n            image: x\n            env:\n{plain}    Worker:\n      replicas: 2\n      \
             template: *pod\n"
        )),
        pytorch(replica("Worker", 2, &template("pytorch", false, "", &env(12_000, Some(value_from))))),
        pytorch(replica("Worker", 2, &template("pytorch", false, "", &env(12_000, Some("            - name: 5\n"))))),
        pytorch(replica("Worker", 2, &template("pytorch", false, cpu, &plain))),
    ];
    for &release in explorer_data::releases::RELEASES {
        let tag = release.tag;
        for (i, text) in jobs.iter().enumerate() {
            let (kept, for_output) =
                (printed(text, release, Sources::Kept), printed(text, release, Sources::ForOutput));
            // Converted where the release has the kind's runtime (XGBoost and JAX came later);
            // the job whose variable is named by a number is refused by every release.
            let converted = kept.3.is_empty() && kept.0.contains("v11999\n");
            assert!(converted != (i == 6) || i == 2 || i == 3, "{tag} job {i}: {:?}", kept.3);
            assert!(kept.3 == for_output.3, "{tag} job {i}: the failures differ");
            assert!(kept.0 == for_output.0, "{tag} job {i}: the YAML differs");
            assert!(kept.1 == for_output.1, "{tag} job {i}: the JSON differs");
            assert!(kept.2 == for_output.2, "{tag} job {i}: the report differs");
        }
        // The Master's `$(MASTER_ADDR)` rewritten in its variable, the `RANK` it sets kept (not
        // added again), and the variables V1 gave added after its own.
        let (yaml, ..) = printed(&jobs[0], release, Sources::ForOutput);
        assert!(yaml.contains("value: $(PET_MASTER_ADDR):$(PET_MASTER_PORT)"), "{tag}");
        assert_eq!(yaml.matches("name: RANK\n").count(), 1, "{tag}");
        let last = yaml.find("value: v11999\n").unwrap_or_default();
        assert!(
            yaml[last..].lines().nth(1).is_some_and(|l| l.ends_with("- name: MASTER_ADDR")),
            "{tag}: {}",
            &yaml[last..]
        );
    }
}

/// A key or value of the input can hold a line break (a quoted YAML string here); quoted in a
/// report line as it is, it started a line of its own, which read as one of the report's (the
/// CLI prefixes each with the file's name). Every line of the report is the headline or an entry
/// (two spaces, then the entry's kind), and the break is written `\u{a}`.
#[test]
fn no_input_starts_a_line_of_the_report() {
    let text = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: t\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n      template:\n        spec:\n          containers:\n          - name: pytorch\n            image: x\n            env:\n            - name: PYTHONUNBUFFERED\n              value: \"1\\nforged: a line of its own\"\n";
    let m = migrate(text).unwrap();
    let report = m.report_text();
    let (headline, entries) = report.split_once('\n').unwrap();
    assert!(headline.starts_with("document 1 (line 1): PyTorchJob t converted"), "{headline}");
    for line in entries.lines() {
        assert!(line.starts_with("  ") && !line.starts_with("   "), "a line that is no entry: {line:?}\n{report}");
    }
    assert!(report.contains(r"1\u{a}forged: a line of its own"), "{report}");
}

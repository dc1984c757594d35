//! `upgrade`: V2 manifests written for an older Trainer release, rewritten for a newer one.
//! Every case checks the input against the older release's CRDs (the fixtures are real
//! manifests of that release), the output against the newer release's CRDs, the exact output,
//! the exact report, and every claim of the report against the output.
#![cfg(not(target_arch = "wasm32"))]

use explorer_judges as common;
use explorer_judges::v2_head;

use explorer_core::upgrade::{self, notes, Kind, Outcome, Upgrade};
use explorer_data::releases::{Release, V2_0, V2_1, V2_2, V2_3};
use explorer_judges::claims::upgrade as claims;
use serde_json::{json, Value};

/// A v2.0 stream: a runtime with `torch.numProcPerNode: 4`, one with an elastic policy, a
/// TrainJob with its own labels, annotations and two pod spec overrides, a TrainJob that takes
/// the runtime's process count, and one on the `mpi-distributed` built-in.
/// A runtime's `template` with one `node` job running `$image`: the part every runtime
/// fixture shares.
macro_rules! node_template {
    ($image:literal) => {
        concat!(
            "  template:\n    spec:\n      replicatedJobs:\n        - name: node\n          template:\n",
            "            metadata:\n              labels:\n",
            "                trainer.kubeflow.org/trainjob-ancestor-step: trainer\n",
            "            spec:\n              template:\n                spec:\n                  containers:\n",
            "                    - name: node\n                      image: ",
            $image,
            "\n"
        )
    };
}

const V2_0_STREAM: &str = concat!(
    "\n",
    v2_head!("ClusterTrainingRuntime", "team-torch"),
    r#"  mlPolicy:
    numNodes: 2
    torch:
      numProcPerNode: 4
"#,
    node_template!("pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime"),
    "---\n",
    v2_head!("TrainingRuntime", "elastic-torch", "team-a"),
    r#"  mlPolicy:
    torch:
      numProcPerNode: auto
      elasticPolicy:
        minNodes: 1
        maxNodes: 4
"#,
    node_template!("pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime"),
    r#"---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: mnist
spec:
  runtimeRef:
    name: team-torch
  trainer:
    numProcPerNode: gpu
    resourcesPerNode:
      limits:
        nvidia.com/gpu: 2
  labels:
    team: a
  annotations:
    owner: ml-platform
  podSpecOverrides:
    - targetJobs:
        - name: node
      serviceAccountName: trainer
      nodeSelector:
        gpu: a100
      containers:
        - name: node
          volumeMounts:
            - name: data
              mountPath: /data
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: data
    - targetJobs:
        - name: node
        - name: dataset-initializer
      tolerations:
        - key: gpu
          operator: Exists
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: fashion
spec:
  runtimeRef:
    name: team-torch
---
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: pi
spec:
  runtimeRef:
    name: mpi-distributed
"#
);

/// A v2.1 stream: pod template overrides, the TrainJob's own labels, `numProcPerNode: cpu`
/// with a CPU request, and a runtime whose process count no TrainJob of the input takes over.
const V2_1_STREAM: &str = concat!(
    r#"
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: mnist
  namespace: team-a
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    numProcPerNode: cpu
    resourcesPerNode:
      requests:
        cpu: 3500m
  labels:
    kueue.x-k8s.io/queue-name: team-a-queue
  podTemplateOverrides:
    - targetJobs:
        - name: node
      metadata:
        annotations:
          sidecar.istio.io/inject: "false"
      spec:
        affinity:
          nodeAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              nodeSelectorTerms:
                - matchExpressions:
                    - key: zone
                      operator: In
                      values: [a]
        imagePullSecrets:
          - name: registry
---
"#,
    v2_head!("TrainingRuntime", "eight-procs", "team-b"),
    r#"  mlPolicy:
    numNodes: 1
    torch:
      numProcPerNode: 8
"#,
    node_template!("pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime"),
);

/// A v2.2 stream: runtime patches, a deadline and a JAX runtime; nothing changes in v2.3.
const V2_2_STREAM: &str = concat!(
    r#"
apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: llm
spec:
  runtimeRef:
    name: torchtune-llama3.2-1b
  activeDeadlineSeconds: 3600
  initializer:
    dataset:
      storageUri: hf://tatsu-lab/alpaca
  trainer:
    numProcPerNode: 2
  runtimePatches:
    - manager: example.com/team-a
      trainingRuntimeSpec:
        template:
          spec:
            replicatedJobs:
              - name: node
                template:
                  spec:
                    template:
                      spec:
                        nodeSelector:
                          gpu: a100
---
"#,
    v2_head!("ClusterTrainingRuntime", "my-jax"),
    r#"  mlPolicy:
    numNodes: 2
    jax: {}
"#,
    node_template!("nvcr.io/nvidia/jax:25.10-py3"),
);

fn docs(text: &str) -> Vec<Value> {
    common::yaml_docs(text)
}

/// Runs an upgrade and checks what every case must hold: the input is a manifest of `from`,
/// every document was rewritten, the output validates against `to`, and the report's claims hold.
fn checked(text: &str, from: Release, to: Release) -> Upgrade {
    for d in docs(text) {
        common::validate_for(&from, &d)
            .unwrap_or_else(|e| panic!("fixture is not a {} manifest: {e}\n{d:#}", from.line));
    }
    let u = upgrade::upgrade(text, from, to).unwrap_or_else(|e| panic!("{e}"));
    assert!(u.failures().is_empty(), "{:?}", u.failures());
    let out = u.output_yaml();
    let outputs = docs(&out);
    for d in &outputs {
        common::validate_for(&to, d).unwrap_or_else(|e| panic!("not valid for {}: {e}\n{out}", to.line));
    }
    let sources: Vec<(usize, &Value)> = u.docs.iter().filter_map(|d| Some((d.index, d.source.as_ref()?))).collect();
    let rewritten: Vec<(usize, &Value)> = u
        .docs
        .iter()
        .filter_map(|d| match &d.outcome {
            Outcome::Written { objects, .. } => Some((d.index, &objects[0])),
            _ => None,
        })
        .collect();
    let problems = claims::false_claims(&sources, &rewritten, &u.entries());
    assert!(problems.is_empty(), "false claims:\n{}\n{}", problems.join("\n"), u.report_text());
    u
}

/// The entry for `field` of document `doc`.
fn entry(u: &Upgrade, doc: usize, field: &str) -> upgrade::Entry {
    u.entries().into_iter().find(|e| e.doc == doc && e.from == field).unwrap_or_else(|| panic!("no entry for {field}"))
}

/// The report as (document, field, action, releases of its changes), in report order.
fn report(u: &Upgrade) -> Vec<(usize, String, &'static str, Vec<&'static str>)> {
    u.entries()
        .iter()
        .map(|e| (e.doc, e.from.clone(), e.kind.id(), e.changes.iter().map(|c| c.release.line).collect()))
        .collect()
}

fn row(
    doc: usize,
    from: &str,
    action: Kind,
    releases: &[&'static str],
) -> (usize, String, &'static str, Vec<&'static str>) {
    (doc, from.to_string(), action.id(), releases.to_vec())
}

fn output(u: &Upgrade, index: usize) -> Value {
    u.docs
        .iter()
        .find(|d| d.index == index)
        .and_then(|d| match &d.outcome {
            Outcome::Written { objects, .. } => Some(objects[0].clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("document {index} was not rewritten"))
}

fn patch_pod(spec: Value) -> Value {
    json!({"spec": {"template": {"spec": spec}}})
}

#[test]
fn v2_0_to_v2_1_moves_the_pod_fields_of_each_override_under_spec() {
    let u = checked(V2_0_STREAM, V2_0, V2_1);
    let mnist = output(&u, 3);
    assert_eq!(
        mnist["spec"]["podTemplateOverrides"],
        json!([
            {
                "targetJobs": [{"name": "node"}],
                "spec": {
                    "serviceAccountName": "trainer",
                    "nodeSelector": {"gpu": "a100"},
                    "containers": [{"name": "node", "volumeMounts": [{"name": "data", "mountPath": "/data"}]}],
                    "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}]
                }
            },
            {"targetJobs": [{"name": "node"}, {"name": "dataset-initializer"}], "spec": {"tolerations": [{"key": "gpu", "operator": "Exists"}]}}
        ])
    );
    // v2.1 still has the TrainJob's labels and the IntOrString process count.
    assert_eq!(mnist["spec"]["labels"], json!({"team": "a"}));
    assert_eq!(mnist["spec"]["trainer"]["numProcPerNode"], "gpu");
    let o = "spec.podSpecOverrides";
    assert_eq!(
        report(&u),
        [
            row(3, &format!("{o}[0].targetJobs[0].name"), Kind::Renamed, &["v2.1"]),
            row(3, &format!("{o}[0].serviceAccountName"), Kind::Renamed, &["v2.1"]),
            row(3, &format!("{o}[0].nodeSelector"), Kind::Renamed, &["v2.1"]),
            row(3, &format!("{o}[0].containers"), Kind::Renamed, &["v2.1"]),
            row(3, &format!("{o}[0].volumes"), Kind::Renamed, &["v2.1"]),
            row(3, &format!("{o}[1].targetJobs[0].name"), Kind::Renamed, &["v2.1"]),
            row(3, &format!("{o}[1].targetJobs[1].name"), Kind::Renamed, &["v2.1"]),
            row(3, &format!("{o}[1].tolerations"), Kind::Renamed, &["v2.1"]),
            row(5, "spec.runtimeRef.name", Kind::Attention, &[]),
        ]
    );
    // Nothing else changed: the runtimes and the other TrainJobs are as they were.
    for i in [1, 2, 4, 5] {
        assert_eq!(Some(output(&u, i)), u.docs[i - 1].source, "document {i}");
    }
    assert_removed_runtime_warning(&u, "v2.1");
}

fn assert_removed_runtime_warning(u: &Upgrade, line: &str) {
    let Outcome::Written { report, .. } = &u.docs[4].outcome else { panic!("pi was not rewritten") };
    let warnings: Vec<_> = report.iter().filter(|e| e.kind == Kind::Attention).collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].from, "spec.runtimeRef.name");
    assert_eq!(warnings[0].since.map(|r| r.line), Some(line));
    assert!(warnings[0].note.starts_with("mpi-distributed is a built-in runtime of v2.0 that v2.1 no longer ships"));
    assert!(u.report_text().contains("attention spec.runtimeRef.name (v2.1: mpi-distributed"), "{}", u.report_text());
}

#[test]
fn v2_1_to_v2_2_turns_overrides_and_labels_into_runtime_patches_and_counts_cpus() {
    let u = checked(V2_1_STREAM, V2_1, V2_2);
    let mnist = output(&u, 1);
    assert_eq!(
        mnist["spec"],
        json!({
            "runtimeRef": {"name": "torch-distributed"},
            "trainer": {"numProcPerNode": 4, "resourcesPerNode": {"requests": {"cpu": "3500m"}}},
            "runtimePatches": [{
                "manager": "trainer-v2-explorer/upgrade",
                "trainingRuntimeSpec": {"template": {
                    "metadata": {"labels": {"kueue.x-k8s.io/queue-name": "team-a-queue"}},
                    "spec": {"replicatedJobs": [{
                        "name": "node",
                        "template": {"spec": {"template": {
                            "metadata": {"annotations": {"sidecar.istio.io/inject": "false"}},
                            "spec": {
                                "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                                    "nodeSelectorTerms": [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]
                                }}},
                                "imagePullSecrets": [{"name": "registry"}]
                            }
                        }}}
                    }]}
                }}
            }]
        })
    );
    let runtime = output(&u, 2);
    assert_eq!(runtime["spec"]["mlPolicy"], json!({"numNodes": 1, "torch": {}}));
    let o = "spec.podTemplateOverrides[0]";
    assert_eq!(
        report(&u),
        [
            row(1, &format!("{o}.targetJobs[0].name"), Kind::Renamed, &["v2.2"]),
            row(1, &format!("{o}.metadata.annotations"), Kind::Renamed, &["v2.2"]),
            row(1, &format!("{o}.spec.affinity"), Kind::Renamed, &["v2.2"]),
            row(1, &format!("{o}.spec.imagePullSecrets"), Kind::Renamed, &["v2.2"]),
            row(1, "spec.runtimePatches[0].manager", Kind::Added, &["v2.2"]),
            row(1, "spec.labels", Kind::Moved, &["v2.2"]),
            row(1, "spec.trainer.numProcPerNode", Kind::Converted, &["v2.2"]),
            row(2, "spec.mlPolicy.torch.numProcPerNode", Kind::Dropped, &["v2.2"]),
        ]
    );
    // The runtime's 8 is lost (no TrainJob of the input uses it): said so, with what to do.
    assert!(u.is_lossy());
    let dropped = entry(&u, 2, "spec.mlPolicy.torch.numProcPerNode");
    assert!(dropped.note.contains("set `spec.trainer.numProcPerNode: 8` on every TrainJob"), "{}", dropped.note);
    let converted = entry(&u, 1, "spec.trainer.numProcPerNode");
    assert!(converted.note.contains("`cpu` stood for the CPUs per node: 4"), "{}", converted.note);
}

#[test]
fn v2_2_to_v2_3_changes_nothing_in_a_valid_manifest() {
    let u = checked(V2_2_STREAM, V2_2, V2_3);
    assert!(u.entries().is_empty(), "{}", u.report_text());
    for d in &u.docs {
        assert_eq!(Some(output(&u, d.index)), d.source);
    }
    assert!(u.report_text().contains("unchanged: no API change between them concerns it"));
}

#[test]
fn v2_0_to_v2_3_chains_every_change_into_one_entry_per_field() {
    let u = checked(V2_0_STREAM, V2_0, V2_3);
    let mnist = output(&u, 3);
    let patches = &mnist["spec"]["runtimePatches"];
    assert_eq!(patches[0]["manager"], "trainer-v2-explorer/upgrade-1");
    assert_eq!(patches[1]["manager"], "trainer-v2-explorer/upgrade-2");
    assert_eq!(
        patches[0]["trainingRuntimeSpec"]["template"],
        json!({
            "metadata": {"labels": {"team": "a"}, "annotations": {"owner": "ml-platform"}},
            "spec": {"replicatedJobs": [{"name": "node", "template": patch_pod(json!({
                "serviceAccountName": "trainer",
                "nodeSelector": {"gpu": "a100"},
                "containers": [{"name": "node", "volumeMounts": [{"name": "data", "mountPath": "/data"}]}],
                "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}]
            }))}]}
        })
    );
    let tolerations = json!({"tolerations": [{"key": "gpu", "operator": "Exists"}]});
    assert_eq!(
        patches[1]["trainingRuntimeSpec"]["template"]["spec"]["replicatedJobs"],
        json!([
            {"name": "node", "template": patch_pod(tolerations.clone())},
            {"name": "dataset-initializer", "template": patch_pod(tolerations)}
        ])
    );
    // `gpu` is left out: the default `auto` does the same on GPU nodes.
    assert_eq!(mnist["spec"]["trainer"], json!({"resourcesPerNode": {"limits": {"nvidia.com/gpu": 2}}}));
    // The runtime's 4 goes to the TrainJob that set none; `mnist` keeps its own.
    assert_eq!(output(&u, 4)["spec"], json!({"runtimeRef": {"name": "team-torch"}, "trainer": {"numProcPerNode": 4}}));
    assert_eq!(output(&u, 1)["spec"]["mlPolicy"], json!({"numNodes": 2, "torch": {}}));
    assert_eq!(output(&u, 2)["spec"]["mlPolicy"], json!({"torch": {}}));
    let o = "spec.podSpecOverrides";
    let both = &["v2.1", "v2.2"];
    assert_eq!(
        report(&u),
        [
            row(1, "spec.mlPolicy.torch.numProcPerNode", Kind::Moved, &["v2.2"]),
            row(2, "spec.mlPolicy.torch.numProcPerNode", Kind::Omitted, &["v2.2"]),
            row(2, "spec.mlPolicy.torch.elasticPolicy", Kind::Omitted, &["v2.2"]),
            row(3, &format!("{o}[0].targetJobs[0].name"), Kind::Renamed, both),
            row(3, &format!("{o}[0].serviceAccountName"), Kind::Renamed, both),
            row(3, &format!("{o}[0].nodeSelector"), Kind::Renamed, both),
            row(3, &format!("{o}[0].containers"), Kind::Renamed, both),
            row(3, &format!("{o}[0].volumes"), Kind::Renamed, both),
            row(3, &format!("{o}[1].targetJobs[0].name"), Kind::Renamed, both),
            row(3, &format!("{o}[1].targetJobs[1].name"), Kind::Renamed, both),
            row(3, &format!("{o}[1].tolerations"), Kind::Renamed, both),
            row(3, "spec.runtimePatches[0].manager", Kind::Added, &["v2.2"]),
            row(3, "spec.runtimePatches[1].manager", Kind::Added, &["v2.2"]),
            row(3, "spec.labels", Kind::Moved, &["v2.2"]),
            row(3, "spec.annotations", Kind::Moved, &["v2.2"]),
            row(3, "spec.trainer.numProcPerNode", Kind::Omitted, &["v2.2"]),
            row(5, "spec.runtimeRef.name", Kind::Attention, &[]),
        ]
    );
    // The runtime's value landed in the other document, and the report names it.
    let moved = entry(&u, 1, "spec.mlPolicy.torch.numProcPerNode");
    assert_eq!(
        moved.to.iter().map(|t| (t.doc, t.path.as_str())).collect::<Vec<_>>(),
        [(4, "spec.trainer.numProcPerNode")]
    );
    assert!(!u.is_lossy(), "{}", u.report_text());
    assert_removed_runtime_warning(&u, "v2.1");
}

#[test]
fn the_brief_example_v2_1_to_v2_3_goes_through_v2_2() {
    let u = checked(V2_1_STREAM, V2_1, V2_3);
    let first = checked(V2_1_STREAM, V2_1, V2_2);
    assert_eq!(u.output_yaml(), first.output_yaml(), "v2.3 changes nothing in these objects");
    assert_eq!(report(&u), report(&first));
}

#[test]
fn a_downgrade_is_refused_with_what_to_do_instead() {
    let e = upgrade::upgrade(V2_2_STREAM, V2_3, V2_1).err().expect("refused");
    assert!(matches!(e, upgrade::Error::Downgrade { .. }), "{e:?}");
    let e = e.to_string();
    assert!(e.starts_with("v2.3 → v2.1 is a downgrade"), "{e}");
    assert!(e.contains("release=v2.1"), "{e}");
}

#[test]
fn the_same_release_is_no_change() {
    let u = upgrade::upgrade(V2_1_STREAM, V2_1, V2_1).unwrap();
    assert!(u.entries().is_empty());
    assert_eq!(docs(&u.output_yaml()), docs(V2_1_STREAM));
}

/// The one refusal of a one-document stream.
fn refusal(text: &str, from: Release, to: Release) -> String {
    let u = upgrade::upgrade(text, from, to).unwrap_or_else(|e| panic!("{e}"));
    let failures = u.failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(u.output_yaml().trim().is_empty(), "a refused document has no output");
    failures[0].clone()
}

fn trainjob(spec: &str) -> String {
    format!("{}{spec}", v2_head!("TrainJob", "j"))
}

#[test]
fn a_manifest_of_another_release_than_from_is_refused() {
    let patches = trainjob("  runtimeRef: {name: torch-distributed}\n  runtimePatches: [{manager: a}]\n");
    let e = refusal(&patches, V2_1, V2_3);
    assert!(e.contains("spec.runtimePatches arrived in v2.2 (v2.2 #3309), so this is not a v2.1 manifest"), "{e}");
    let overrides = trainjob("  runtimeRef: {name: torch-distributed}\n  podSpecOverrides: []\n");
    let e = refusal(&overrides, V2_1, V2_3);
    assert!(e.contains("spec.podSpecOverrides was removed in v2.1 (v2.1 #2785)"), "{e}");
}

#[test]
fn fields_that_cannot_be_rewritten_are_refused_with_a_reason() {
    let cpu = trainjob("  runtimeRef: {name: torch-distributed}\n  trainer: {numProcPerNode: cpu}\n");
    let e = refusal(&cpu, V2_1, V2_2);
    assert!(
        e.contains("`cpu` stood for the CPUs of each node, which spec.trainer.resourcesPerNode does not state"),
        "{e}"
    );
    let uri = trainjob(
        "  runtimeRef: {name: torch-distributed}\n  initializer: {model: {storageUri: meta-llama/Llama-3.2-1B}}\n",
    );
    let e = refusal(&uri, V2_2, V2_3);
    assert!(e.contains("\"meta-llama/Llama-3.2-1B\" has no scheme"), "{e}");
    assert!(e.contains("v2.3 #3510"), "{e}");
    let args: Vec<String> = (0..129).map(|i| format!("a{i}")).collect();
    let long =
        trainjob(&format!("  runtimeRef: {{name: torch-distributed}}\n  trainer: {{args: [{}]}}\n", args.join(", ")));
    let e = refusal(&long, V2_1, V2_2);
    assert!(e.contains("spec.trainer.args has 129 items, more than the 128"), "{e}");
    let overrides: Vec<String> =
        (0..17).map(|i| format!("{{targetJobs: [{{name: node}}], metadata: {{labels: {{i: \"{i}\"}}}}}}")).collect();
    let many = trainjob(&format!(
        "  runtimeRef: {{name: torch-distributed}}\n  podTemplateOverrides: [{}]\n",
        overrides.join(", ")
    ));
    let e = refusal(&many, V2_1, V2_2);
    assert!(e.contains("has 17 overrides"), "{e}");
    let odd = trainjob("  runtimeRef: {name: torch-distributed}\n  trainer: {numProcPerNode: many}\n");
    let e = refusal(&odd, V2_1, V2_2);
    assert!(e.contains("\"many\" is not a positive integer, `auto`, `cpu` or `gpu`"), "{e}");
}

/// A v2.1-shaped override (`spec` around the pod fields) given as v2.0, or a field v2.0's
/// PodSpecOverride lacks: both were moved under `spec` as pod fields, and the upgrade wrote
/// `spec.spec.nodeSelector` and `spec.bogus` into a runtime patch without a word.
#[test]
fn a_podspecoverrides_item_with_a_field_v2_0_lacks_is_refused() {
    let v2_1_shape = trainjob(
        "  runtimeRef: {name: torch-distributed}\n  podSpecOverrides:\n    - targetJobs: [{name: node}]\n      spec: {nodeSelector: {a: b}}\n",
    );
    let e = refusal(&v2_1_shape, V2_0, V2_3);
    assert!(e.contains("spec.podSpecOverrides[0].spec is not a field of a v2.0 podSpecOverrides item"), "{e}");
    assert!(e.contains("upgrade it with --from v2.1"), "{e}");
    let bogus = trainjob(
        "  runtimeRef: {name: torch-distributed}\n  podSpecOverrides:\n    - targetJobs: [{name: node}]\n      bogus: 1\n",
    );
    let e = refusal(&bogus, V2_0, V2_1);
    assert!(e.contains("spec.podSpecOverrides[0].bogus is not a field of a v2.0 podSpecOverrides item"), "{e}");
    // Every field v2.0 declares is still carried over.
    let all = trainjob(
        "  runtimeRef: {name: torch-distributed}\n  podSpecOverrides:\n    - targetJobs: [{name: node}]\n      \
         serviceAccountName: sa\n      nodeSelector: {a: b}\n      tolerations: []\n      volumes: []\n      \
         schedulingGates: []\n      containers: []\n      initContainers: []\n",
    );
    let u = upgrade::upgrade(&all, V2_0, V2_1).unwrap_or_else(|e| panic!("{e}"));
    assert!(u.failures().is_empty(), "{:?}", u.failures());
}

#[test]
fn other_input_gets_a_clear_message() {
    let v1 = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: old}\nspec: {}\n";
    assert!(refusal(v1, V2_1, V2_3)
        .contains("a Training Operator (V1) object, not a Trainer V2 one: convert it with `trainer-explorer migrate`"));
    let e =
        upgrade::upgrade("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", V2_1, V2_3).err().expect("refused");
    assert!(matches!(e, upgrade::Error::NoTrainerObject), "{e:?}");
    let e = e.to_string();
    assert!(e.starts_with("no Trainer V2 object"), "{e}");
    let bad = format!("{}\n---\nkind: [unclosed\n", trainjob("  runtimeRef: {name: torch-distributed}\n"));
    let u = upgrade::upgrade(&bad, V2_1, V2_3).unwrap();
    assert!(u.failures().iter().any(|f| f.starts_with("document 2 (line 9): not valid YAML")), "{:?}", u.failures());
    assert!(upgrade::upgrade("", V2_1, V2_3).is_err());
    assert_eq!(
        upgrade::parse_release("v2.9").err().map(|e| e.to_string()),
        Some(format!("unknown Trainer release \"v2.9\": one of {}", release_lines()))
    );
    assert_eq!(upgrade::parse_release("v2.1.0").ok(), Some(&V2_1));
    // A PVC beside a TrainJob passes through untouched.
    let pvc =
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce]}\n";
    let u =
        upgrade::upgrade(&format!("{pvc}---\n{}", trainjob("  runtimeRef: {name: torch-distributed}\n")), V2_1, V2_3)
            .unwrap();
    assert!(u.failures().is_empty());
    assert!(u.report_text().contains("PersistentVolumeClaim data passed through unchanged"));
}

/// The notes of a stream with a document that cannot be upgraded hold that document, typed (its
/// position and outcome), and print the CLI's failure line for it, word for word.
#[test]
fn notes_of_a_failed_document_hold_it_typed() {
    let bad = format!("{}\n---\nkind: [unclosed\n", trainjob("  runtimeRef: {name: torch-distributed}\n"));
    let failures = upgrade::upgrade(&bad, V2_1, V2_3).unwrap().failures();
    let error = notes::notes_for_yaml(&bad, V2_1, V2_3).expect_err("refused");
    let upgrade::Error::Document(doc) = &error else { panic!("{error:?}") };
    assert_eq!((doc.index, doc.line), (2, 9));
    assert!(matches!(doc.outcome, Outcome::Invalid { .. }), "{:?}", doc.outcome);
    assert_eq!(failures.len(), 1);
    assert_eq!(error.to_string(), failures[0]);
}

#[test]
fn notes_come_from_the_same_rewrite_with_release_and_reason() {
    let notes = notes::notes_for_yaml(V2_0_STREAM, V2_0, V2_3).unwrap();
    let overrides = notes.iter().find(|n| n.field == "spec.podSpecOverrides[0].nodeSelector").expect("a note");
    assert_eq!(overrides.object, "TrainJob mnist");
    assert_eq!(overrides.action, "renamed");
    assert_eq!(overrides.release, V2_2);
    assert_eq!(
        overrides.to,
        ["spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.spec.template.spec.nodeSelector"]
    );
    assert!(overrides.reason.starts_with("v2.1 #2785: per-job pod settings were renamed"), "{}", overrides.reason);
    assert!(overrides.reason.contains("; v2.2 #3309: pod settings became runtime patches"), "{}", overrides.reason);
    let pi = notes.iter().find(|n| n.object == "TrainJob pi").expect("the removed runtime");
    assert_eq!((pi.action, pi.release), ("attention", V2_1));
    // Every field of the stream that changes has its note, and nothing else has one: read off the
    // stream above (TrainJob fashion names a runtime that stays and sets nothing that changed).
    let expected = [
        ("ClusterTrainingRuntime team-torch", "spec.mlPolicy.torch.numProcPerNode", "moved"),
        ("TrainingRuntime elastic-torch", "spec.mlPolicy.torch.numProcPerNode", "omitted"),
        ("TrainingRuntime elastic-torch", "spec.mlPolicy.torch.elasticPolicy", "omitted"),
        ("TrainJob mnist", "spec.podSpecOverrides[0].targetJobs[0].name", "renamed"),
        ("TrainJob mnist", "spec.podSpecOverrides[0].serviceAccountName", "renamed"),
        ("TrainJob mnist", "spec.podSpecOverrides[0].nodeSelector", "renamed"),
        ("TrainJob mnist", "spec.podSpecOverrides[0].containers", "renamed"),
        ("TrainJob mnist", "spec.podSpecOverrides[0].volumes", "renamed"),
        ("TrainJob mnist", "spec.podSpecOverrides[1].targetJobs[0].name", "renamed"),
        ("TrainJob mnist", "spec.podSpecOverrides[1].targetJobs[1].name", "renamed"),
        ("TrainJob mnist", "spec.podSpecOverrides[1].tolerations", "renamed"),
        ("TrainJob mnist", "spec.runtimePatches[0].manager", "added"),
        ("TrainJob mnist", "spec.runtimePatches[1].manager", "added"),
        ("TrainJob mnist", "spec.labels", "moved"),
        ("TrainJob mnist", "spec.annotations", "moved"),
        ("TrainJob mnist", "spec.trainer.numProcPerNode", "omitted"),
        ("TrainJob pi", "spec.runtimeRef.name", "attention"),
    ];
    let got: Vec<_> = notes.iter().map(|n| (n.object.as_str(), n.field.as_str(), n.action)).collect();
    assert_eq!(got, expected);
    // Each note's release is one the upgrade crossed.
    for n in &notes {
        assert!([V2_1, V2_2, V2_3].contains(&n.release), "{n:?}");
    }
}

#[test]
fn notes_for_a_selection_cover_every_older_release_without_failing() {
    use explorer_data::releases::RELEASES;
    for sel in common::selection_spread() {
        for (i, from) in RELEASES.iter().enumerate() {
            for to in &RELEASES[i..] {
                let notes = upgrade::upgrade_notes(&sel, *from, *to)
                    .unwrap_or_else(|e| panic!("{} → {} for {sel:?}: {e}", from.line, to.line));
                if from == to {
                    assert!(notes.is_empty());
                }
            }
        }
        assert!(upgrade::upgrade_notes(&sel, V2_3, V2_1).is_err(), "a downgrade");
    }
}

#[test]
fn the_claims_check_catches_each_kind_of_false_report() {
    let u = upgrade::upgrade(V2_1_STREAM, V2_1, V2_2).unwrap();
    let sources: Vec<(usize, Value)> = u.docs.iter().map(|d| (d.index, d.source.clone().unwrap())).collect();
    let outputs: Vec<(usize, Value)> = (1..=2).map(|i| (i, output(&u, i))).collect();
    let judge = |outputs: &[(usize, Value)], entries: &[upgrade::Entry]| {
        let s: Vec<(usize, &Value)> = sources.iter().map(|(i, v)| (*i, v)).collect();
        let o: Vec<(usize, &Value)> = outputs.iter().map(|(i, v)| (*i, v)).collect();
        claims::false_claims(&s, &o, entries)
    };
    assert!(judge(&outputs, &u.entries()).is_empty());
    let expect = |outputs: &[(usize, Value)], entries: &[upgrade::Entry], problem: &str| {
        let problems = judge(outputs, entries);
        assert!(problems.iter().any(|p| p.contains(problem)), "{problem:?} not in {problems:#?}");
    };
    // A field the report does not mention changed.
    let mut changed = outputs.clone();
    changed[0].1["spec"]["runtimeRef"]["name"] = json!("other");
    expect(&changed, &u.entries(), "document 1: spec.runtimeRef.name: no entry, yet the output holds");
    // The output has a field nobody accounts for.
    let mut extra = outputs.clone();
    extra[1].1["spec"]["mlPolicy"]["numNodes"] = json!(3);
    expect(&extra, &u.entries(), "document 2: spec.mlPolicy.numNodes: no entry, yet the output holds 3 and not 1");
    extra[1].1["spec"]["suspend"] = json!(true);
    expect(&extra, &u.entries(), "document 2: the output has spec.suspend = true, which no entry accounts for");
    // A renamed field whose value is not where the report says.
    let mut moved = outputs.clone();
    moved[0].1["spec"]["runtimePatches"][0]["trainingRuntimeSpec"]["template"]["metadata"]["labels"] = json!({});
    expect(&moved, &u.entries(), "spec.labels.kueue.x-k8s.io/queue-name: moved to document 1: spec.runtimePatches[0]");
    // A field said to be left out that is still there.
    let mut kept = outputs.clone();
    kept[1].1["spec"]["mlPolicy"]["torch"]["numProcPerNode"] = json!(8);
    expect(&kept, &u.entries(), "document 2: spec.mlPolicy.torch.numProcPerNode: dropped, yet the output still has it");
    // Two entries for one field, an entry without its change, a drop without advice.
    let mut entries = u.entries();
    entries.push(entries[1].clone());
    entries[0].changes.clear();
    let dropped = entries.iter().position(|e| e.kind == Kind::Dropped).expect("a dropped entry");
    entries[dropped].note.clear();
    expect(&outputs, &entries, "spec.podTemplateOverrides[0].metadata.annotations: more than one entry");
    expect(
        &outputs,
        &entries,
        "spec.podTemplateOverrides[0].targetJobs[0].name: renamed without naming the API change",
    );
    expect(&outputs, &entries, "spec.mlPolicy.torch.numProcPerNode: dropped without saying what to do instead");
}

#[test]
fn every_fixture_upgrades_to_every_newer_release() {
    use explorer_data::releases::RELEASES;
    for (text, from) in [(V2_0_STREAM, V2_0), (V2_1_STREAM, V2_1), (V2_2_STREAM, V2_2)] {
        let i = RELEASES.iter().position(|r| *r == from).unwrap();
        for to in &RELEASES[i..] {
            checked(text, from, *to);
        }
    }
}

#[test]
fn overrides_that_changed_nothing_are_left_out_and_said_so() {
    let text = trainjob(
        "  runtimeRef: {name: torch-distributed}
  podTemplateOverrides:
    - targetJobs: []
      spec: {nodeSelector: {a: b}}
    - targetJobs: [{name: node}]
      metadata: {labels: {x: y}, name: ignored}
      spec: {}
",
    );
    let u = checked(&text, V2_1, V2_2);
    assert_eq!(
        output(&u, 1)["spec"]["runtimePatches"],
        json!([{
            "manager": "trainer-v2-explorer/upgrade",
            "trainingRuntimeSpec": {"template": {"spec": {"replicatedJobs": [
                {"name": "node", "template": {"spec": {"template": {"metadata": {"labels": {"x": "y"}}, "spec": {}}}}}
            ]}}}
        }])
    );
    let o = "spec.podTemplateOverrides";
    assert_eq!(
        report(&u),
        [
            row(1, &format!("{o}[0]"), Kind::Omitted, &["v2.2"]),
            row(1, &format!("{o}[1].targetJobs[0].name"), Kind::Renamed, &["v2.2"]),
            row(1, &format!("{o}[1].metadata.labels"), Kind::Renamed, &["v2.2"]),
            row(1, &format!("{o}[1].metadata.name"), Kind::Omitted, &["v2.2"]),
            row(1, &format!("{o}[1].spec"), Kind::Renamed, &["v2.2"]),
            row(1, "spec.runtimePatches[0].manager", Kind::Added, &["v2.2"]),
        ]
    );
    assert!(!u.is_lossy());
}

#[test]
fn a_platform_engineers_v2_0_torch_runtime_gets_the_note_its_yaml_needs() {
    use explorer_core::selection::Selection;
    use explorer_data::catalog::{Framework, Persona};
    let sel = Selection::new(Persona::PlatformEngineer, Framework::PyTorch);
    let notes = upgrade::upgrade_notes(&sel, V2_0, V2_3).unwrap();
    // The v2.0 built-in sets `torch.numProcPerNode: auto` (the release data says so); v2.2
    // removed the field and its default is the same.
    const { assert!(V2_0.builtin_torch_procs_auto) };
    let fields: Vec<(&str, &str, &str)> =
        notes.iter().map(|n| (n.object.as_str(), n.field.as_str(), n.action)).collect();
    assert_eq!(fields, [("ClusterTrainingRuntime torch-distributed", "spec.mlPolicy.torch.numProcPerNode", "omitted")]);
    assert_eq!(notes[0].release, V2_2);
    assert!(notes[0].reason.starts_with("v2.2 #3239: the torch policy lost numProcPerNode"), "{}", notes[0].reason);
    // From v2.2 on there is nothing to say.
    assert!(upgrade::upgrade_notes(&sel, V2_2, V2_3).unwrap().is_empty());
}

/// `v2.0, v2.1, ...`: every line the release data holds, as error messages list them.
fn release_lines() -> String {
    explorer_data::releases::RELEASES.iter().map(|r| r.line).collect::<Vec<_>>().join(", ")
}

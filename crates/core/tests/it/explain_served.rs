//! Only the group/version/kind pairs a release's CRDs serve reach its API server: any other pair
//! is answered by the REST mapper, `no matches for kind "K" in version "G/V"`, before a schema,
//! a webhook or a controller sees it. The pairs are the release data's (`explorer_data::served`,
//! checked against the CRDs in crates/data/tests/it/release_data.rs).
#![cfg(not(target_arch = "wasm32"))]

use explorer_judges::torch_runtime;

use explorer_core::explain::read::explain_text;
use explorer_data::releases::RELEASES;

const RUNTIME: &str = torch_runtime!("ClusterTrainingRuntime", "mine", "pytorch/pytorch:2.7.1");

fn job(api_version: &str) -> String {
    format!("apiVersion: {api_version}\nkind: TrainJob\nmetadata: {{name: job}}\nspec:\n  runtimeRef: {{name: mine}}\n")
}

fn reasons(e: &explorer_core::explain::Explanation) -> Vec<String> {
    e.rejected.iter().map(|r| format!("{}: {}", r.field(), r.reason())).collect()
}

#[test]
fn a_trainjob_of_a_version_no_release_serves_is_refused_with_the_rest_mapper_s_words() {
    for release in RELEASES {
        for api in ["kubeflow.org/v1", "trainer.kubeflow.org/v2alpha1", "trainer.kubeflow.org/v1"] {
            let e = explain_text(&format!("{}---\n{RUNTIME}", job(api)), *release).unwrap();
            assert_eq!(
                reasons(&e),
                [format!("apiVersion: no matches for kind \"TrainJob\" in version \"{api}\"")],
                "{} {api}",
                release.tag
            );
            assert!(e.jobset.is_none() && e.pods.is_empty());
        }
        let ok = explain_text(&format!("{}---\n{RUNTIME}", job("trainer.kubeflow.org/v1alpha1")), *release).unwrap();
        assert!(ok.admitted(), "{}: {:?}", release.tag, ok.rejected);
    }
}

#[test]
fn a_runtime_of_a_version_no_release_serves_is_not_used() {
    let runtime = RUNTIME.replace("trainer.kubeflow.org/v1alpha1", "trainer.kubeflow.org/v1beta1");
    for release in RELEASES {
        let e = explain_text(&format!("{}---\n{runtime}", job("trainer.kubeflow.org/v1alpha1")), *release).unwrap();
        assert_eq!(
            reasons(&e),
            ["runtime apiVersion: no matches for kind \"ClusterTrainingRuntime\" in version \"trainer.kubeflow.org/v1beta1\""],
            "{}",
            release.tag
        );
    }
}

const PYTORCHJOB: &str = "kind: PyTorchJob
metadata: {name: job}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template: {spec: {containers: [{name: pytorch, image: pytorch/pytorch:2.7.1}]}}
";

#[test]
fn a_v1_job_of_a_version_its_operator_does_not_serve_is_refused_with_the_rest_mapper_s_words() {
    for api in ["kubeflow.org/v1beta1", "kubeflow.org/v2beta1", "kubeflow.org/v1alpha2"] {
        let text = format!("apiVersion: {api}\n{PYTORCHJOB}");
        let e = explorer_core::explain::v1::explain_text(&text).expect("a V1 kind").unwrap();
        let got: Vec<String> = e.rejected.iter().map(|r| format!("{}: {}", r.field(), r.reason())).collect();
        assert_eq!(got, [format!("apiVersion: no matches for kind \"PyTorchJob\" in version \"{api}\"")], "{api}");
        assert_eq!(e.operator, "training-operator v1.9");
    }
    let served = explorer_core::explain::v1::explain_text(&format!("apiVersion: kubeflow.org/v1\n{PYTORCHJOB}"));
    assert!(served.unwrap().unwrap().rejected.is_empty());
}

#[test]
fn each_mpijob_version_is_its_own_operator_s_even_when_refused() {
    // A v2beta1 MPIJob without a launcher: refused, by the MPI Operator.
    let v2beta1 =
        "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: pi}\nspec:\n  mpiReplicaSpecs: {}\n";
    let e = explorer_core::explain::v1::explain_text(v2beta1).unwrap().unwrap();
    assert!(!e.rejected.is_empty());
    assert_eq!(e.operator, "mpi-operator v0.6");
    let v1 = v2beta1.replace("v2beta1", "v1");
    let e = explorer_core::explain::v1::explain_text(&v1).unwrap().unwrap();
    assert!(!e.rejected.is_empty());
    assert_eq!(e.operator, "training-operator v1.9");
    // v1alpha2 MPIJob: neither operator serves it.
    let old = v2beta1.replace("v2beta1", "v1alpha2");
    let e = explorer_core::explain::v1::explain_text(&old).unwrap().unwrap();
    assert_eq!(e.rejected[0].reason(), "no matches for kind \"MPIJob\" in version \"kubeflow.org/v1alpha2\"");
}

#[test]
fn upgrade_refuses_a_trainer_kind_its_release_does_not_serve() {
    let text = job("trainer.kubeflow.org/v2alpha1");
    let from = explorer_data::releases::V2_1;
    let up = explorer_core::upgrade::upgrade(&text, from, explorer_data::releases::NEWEST).unwrap();
    let explorer_core::pipeline::Outcome::Refused { reason, .. } = &up.docs[0].outcome else {
        panic!("not refused: {:?}", up.docs[0].outcome)
    };
    let reason = reason.to_string();
    assert!(
        reason.contains("no matches for kind \"TrainJob\" in version \"trainer.kubeflow.org/v2alpha1\""),
        "{reason}"
    );
}

#[test]
fn migrate_refuses_a_v1_kind_at_a_version_no_operator_serves() {
    let text = format!("apiVersion: kubeflow.org/v1beta1\n{PYTORCHJOB}");
    let m = explorer_core::migrate::migrate_to(&text, explorer_data::releases::NEWEST).unwrap();
    let explorer_core::pipeline::Outcome::Refused { reason, .. } = &m.docs[0].outcome else {
        panic!("not refused: {:?}", m.docs[0].outcome)
    };
    let reason = reason.to_string();
    assert!(reason.contains("no matches for kind \"PyTorchJob\" in version \"kubeflow.org/v1beta1\""), "{reason}");
}

/// Trainer's validating webhook looks `runtimeRef`'s `Kind.apiGroup` up in its runtime registry
/// (trainjob_webhook.go:114-118 @v2.3.0, :62-66 @v2.0.1) at every release.
#[test]
fn the_webhook_refuses_a_runtime_ref_its_registry_lacks() {
    let cases = [
        ("apiGroup: kubeflow.org", "unsupported runtime: ClusterTrainingRuntime.kubeflow.org"),
        ("apiGroup: example.com", "unsupported runtime: ClusterTrainingRuntime.example.com"),
        ("apiGroup: \"\"", "unsupported runtime: ClusterTrainingRuntime"),
        ("kind: Runtime", "unsupported runtime: Runtime.trainer.kubeflow.org"),
        ("{apiGroup: \"\", kind: \"\"}", "unsupported runtime: "),
    ];
    for release in RELEASES {
        for (set, want) in cases {
            let extra = set.trim_start_matches('{').trim_end_matches('}').replace(", ", "\n    ");
            let text = format!(
                "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {{name: job}}\nspec:\n  \
                 runtimeRef:\n    name: mine\n    {extra}\n---\n{RUNTIME}"
            );
            let e = explain_text(&text, *release).unwrap_or_else(|err| panic!("{} {set}: {err}", release.tag));
            assert_eq!(reasons(&e), [format!("spec.runtimeRef: {want}")], "{} {set}", release.tag);
        }
        // Without a runtime in the input, the same answer (the release's shipped one is looked up by name).
        let text = "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: job}\nspec:\n  \
                    runtimeRef: {name: torch-distributed, apiGroup: kubeflow.org}\n";
        let e = explain_text(text, *release).unwrap();
        assert_eq!(reasons(&e), ["spec.runtimeRef: unsupported runtime: ClusterTrainingRuntime.kubeflow.org"]);
    }
}

/// Strict field validation: a field the release's CRD does not declare is refused with its path,
/// wherever it is (the issue's `numNode` typo for `numNodes`, one deep in a pod template).
#[test]
fn every_unknown_field_is_reported_with_its_path() {
    let job =
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: job, labelz: {a: b}}\nspec:\n  \
               runtimeRef: {name: mine}\n  trainer: {numNode: 4, image: x:1}\n";
    let runtime =
        RUNTIME.replace("image: pytorch/pytorch:2.7.1}", "image: pytorch/pytorch:2.7.1, imagePullPolicyy: Always}");
    for release in RELEASES {
        let e = explain_text(&format!("{job}---\n{runtime}"), *release).unwrap();
        let tag = release.tag;
        assert_eq!(
            reasons(&e),
            [
                format!("metadata.labelz: strict decoding error: unknown field \"metadata.labelz\" (not in the {tag} CRD)"),
                format!("spec.trainer.numNode: strict decoding error: unknown field \"spec.trainer.numNode\" (not in the {tag} CRD)"),
                format!(
                    "runtime spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].imagePullPolicyy: \
                     strict decoding error: unknown field \
                     \"spec.template.spec.replicatedJobs[0].template.spec.template.spec.containers[0].imagePullPolicyy\" \
                     (not in the {tag} CRD)"
                ),
            ],
            "{tag}"
        );
    }
}

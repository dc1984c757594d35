//! Every YAML snippet, for every release × persona × framework × scope and a spread of
//! parameters, validates strictly against the real CRDs: V2 against the selected release's own
//! (`v2-crds/<tag>`), V1 against Training Operator v1.9.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

use explorer_judges as common;

use explorer_core::snippets::{all_snippets, Language};
use explorer_data::api_changes::Subject;
use explorer_data::releases::{NumProcPerNode, NEWEST, RELEASES, V2_1};

#[test]
fn every_yaml_snippet_validates_strictly_against_its_release_s_crds() {
    for release in RELEASES {
        let mut validated = 0;
        let mut failures = Vec::new();
        for mut sel in common::selection_spread() {
            sel.release = *release;
            for snippet in all_snippets(&sel).iter().filter(|s| s.language == Language::Yaml) {
                for doc in common::yaml_docs(&snippet.code) {
                    match common::validate_for(release, &doc) {
                        Ok(()) => validated += 1,
                        Err(e) => failures.push(format!("{sel:?}\n{}: {e}\n{}", snippet.title, snippet.code)),
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{}: {} invalid documents; first:\n{}", release.tag, failures.len(), failures[0]);
        // The spread covers 2 personas × 9 frameworks × 2 scopes × 5 parameter sets; a release
        // without JAX or XGBoost shows a notice for them instead.
        assert!(validated > 250, "{}: only {validated} documents validated", release.tag);
        println!("{}: validated {validated} YAML documents against its CRDs", release.tag);
    }
}

/// The per-release validation bites: what is right for one release is refused by another's CRDs.
#[test]
fn each_release_s_crds_refuse_another_release_s_fields() {
    let v2_3_job = common::yaml_docs(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: x}\n\
         spec:\n  runtimeRef: {name: torch-distributed}\n  runtimePatches:\n    - manager: example.com/team\n      \
         trainingRuntimeSpec:\n        template:\n          spec:\n            replicatedJobs:\n              \
         - name: node\n                template:\n                  spec:\n                    template:\n                      \
         spec:\n                        nodeSelector: {pool: gpu}\n",
    );
    common::validate_for(&NEWEST, &v2_3_job[0]).expect("v2.3 has runtimePatches");
    let err = common::validate_for(&V2_1, &v2_3_job[0]).expect_err("v2.1 has no runtimePatches").to_string();
    assert!(err.contains("runtimePatches"), "{err}");
    // And the other way: v2.1's torch.numProcPerNode on a runtime is gone from v2.2.
    let v2_1_runtime = common::yaml_docs(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: {name: x}\n\
         spec:\n  mlPolicy:\n    numNodes: 1\n    torch:\n      numProcPerNode: auto\n  template:\n    spec:\n      replicatedJobs: []\n",
    );
    common::validate_for(&V2_1, &v2_1_runtime[0]).expect("v2.1 has torch.numProcPerNode");
    assert!(common::validate_for(&NEWEST, &v2_1_runtime[0]).is_err(), "torch.numProcPerNode is gone since v2.2");
    let mut bad_procs = v2_1_runtime[0].clone();
    bad_procs["spec"]["mlPolicy"]["torch"]["numProcPerNode"] = "many".into();
    assert!(common::validate_for(&V2_1, &bad_procs).is_err(), "the CEL rule: auto, cpu, gpu or > 0");
}

/// The fields that come and go by release pass exactly where the release data says they exist.
#[test]
fn release_bound_fields_validate_only_in_their_releases() {
    let job = |extra: &str| {
        common::yaml_docs(&format!(
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {{name: x}}\n\
             spec:\n  runtimeRef: {{name: torch-distributed}}\n{extra}"
        ))
        .remove(0)
    };
    let deadline = job("  activeDeadlineSeconds: 3600\n");
    let labels = job("  labels: {team: a}\n");
    let procs_auto = job("  trainer: {numProcPerNode: auto}\n");
    let env_injection = common::yaml_docs(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ClusterTrainingRuntime\nmetadata: {name: x}\n\
         spec:\n  mlPolicy:\n    torch:\n      envInjection:\n        targets: [{jobName: node, containerNames: [sidecar]}]\n  \
         template:\n    spec:\n      replicatedJobs: []\n",
    )
    .remove(0);
    for release in RELEASES {
        let ok = |doc| common::validate_for(release, doc).is_ok();
        assert_eq!(
            ok(&deadline),
            release.declares(Subject::TrainJob, "spec.activeDeadlineSeconds"),
            "{} activeDeadlineSeconds",
            release.tag
        );
        assert_eq!(ok(&labels), release.declares(Subject::TrainJob, "spec.labels"), "{} spec.labels", release.tag);
        let int_or_string = release.num_proc_per_node == NumProcPerNode::IntOrString;
        assert_eq!(ok(&procs_auto), int_or_string, "{} trainer.numProcPerNode: auto", release.tag);
        let injects = release.declares(Subject::Runtime, "spec.mlPolicy.torch.envInjection");
        assert_eq!(ok(&env_injection), injects, "{} torch.envInjection", release.tag);
    }
}

#[test]
fn strict_validation_rejects_what_the_crd_does_not_declare() {
    let typo = common::yaml_docs(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: x}\n\
         spec:\n  runtimeRef: {name: torch-distributed}\n  trainer: {numNode: 2}\n",
    );
    for release in RELEASES {
        assert!(common::validate_for(release, &typo[0]).is_err(), "{}", release.tag);
    }
    let bad_name = common::yaml_docs(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: 9lives}\nspec:\n  runtimeRef: {name: t}\n",
    );
    assert!(common::validate(&bad_name[0]).is_err());
}

#[test]
fn shipped_examples_validate_so_the_validator_is_not_too_strict() {
    for rel in [
        "v2-examples/v2.3.0/01-multi-node.yaml",
        "v2-examples/v2.3.0/02-runtime-patches.yaml",
        "v2-examples/v2.3.0/03-kueue-integration.yaml",
        "v1-examples/pytorch/simple.yaml",
        "v1-examples/mpi/tensorflow-mnist.yaml",
        "v1-examples/xgboost/xgboostjob.yaml",
        "v1-examples/jax/cpu-demo/demo.yaml",
        "mpi-operator-v2beta1/pi.yaml",
    ] {
        for doc in common::yaml_docs(&common::read_reference(rel)) {
            common::validate(&doc).unwrap_or_else(|e| panic!("{rel}: {e}"));
        }
    }
}

#[test]
fn the_posts_topic_snippets_validate_too() {
    use explorer_core::snippets::topics::{topic, TOPICS};
    let mut docs = 0;
    for id in TOPICS {
        let s = topic(id).unwrap_or_else(|| panic!("no topic {id}"));
        if s.language != Language::Yaml {
            continue;
        }
        for doc in common::yaml_docs(&s.code) {
            common::validate(&doc).unwrap_or_else(|e| panic!("topic {id}: {e}\n{}", s.code));
            docs += 1;
        }
    }
    assert!(docs >= 6, "{docs}");
}

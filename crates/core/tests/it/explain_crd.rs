//! What the API server refuses before any webhook sees a TrainJob: the constraints and
//! `x-kubernetes-validations` rules of the release's CRDs (crates/core/src/explain/crd, read from the CRDs),
//! and the webhook checks that stand in for them in some releases. Every error is listed, in the
//! API server's words (Kubernetes 1.35's field error format).
#![cfg(not(target_arch = "wasm32"))]

use explorer_judges::torch_runtime;

use explorer_core::explain::read::explain_text;
use explorer_core::explain::Rejection;
use explorer_data::releases::{Release, RELEASES, V2_0, V2_1, V2_2, V2_3};

const RUNTIME: &str = torch_runtime!("TrainingRuntime", "torch", "pytorch/pytorch");

fn job(name: &str, spec: &str) -> String {
    format!(
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {{name: {name}}}\nspec:\n  \
         runtimeRef: {{name: torch, kind: TrainingRuntime}}\n{spec}"
    )
}

/// Every error, as `<field>: <reason>`.
fn errors(job: &str, runtime: &str, release: Release) -> Vec<String> {
    let e = explain_text(&format!("{job}---\n{runtime}"), release).unwrap();
    if !e.rejected.is_empty() {
        assert!(e.jobset.is_none() && e.pods.is_empty(), "a refused TrainJob creates nothing: {e:#?}");
    }
    e.rejected.iter().map(Rejection::to_string).collect()
}

const NAME_RULE: &str = "<nil>: Invalid value: metadata.name must match RFC 1035 DNS label format";

/// The issue's example: a name starting with a digit. v2.0.1's webhook refuses it
/// (trainjob_webhook.go:57-60 @v2.0.1), from v2.1 the CRD rule on the TrainJob's root
/// (trainjob_types.go:37 @v2.1.0) does, before the webhook is asked.
#[test]
fn a_name_starting_with_a_digit_is_refused_by_the_webhook_then_by_the_crd_rule() {
    let j = job("1st-run", "");
    assert_eq!(
        errors(&j, RUNTIME, V2_0),
        [
            r#"metadata.name: Invalid value: "1st-run": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"#
        ]
    );
    for release in [V2_1, V2_2, V2_3] {
        assert_eq!(errors(&j, RUNTIME, release), [NAME_RULE], "{}", release.tag);
    }
    // Both of the CRD's name rules, and both errors of the webhook's check: a 64-character name
    // starting with a digit, which is still an RFC 1123 subdomain (the API server's own check).
    let long = format!("1{}", "a".repeat(63));
    assert_eq!(
        errors(&job(&long, ""), RUNTIME, V2_3),
        [NAME_RULE, "<nil>: Invalid value: metadata.name must be no more than 63 characters"]
    );
    assert_eq!(errors(&job(&long, ""), RUNTIME, V2_0).len(), 2);
    for release in RELEASES {
        assert_eq!(errors(&job("run-1", ""), RUNTIME, *release), Vec::<String>::new(), "{}", release.tag);
    }
}

/// Every custom resource's name must be an RFC 1123 subdomain: the API server checks it
/// (apiextensions-apiserver customresource/validator.go, `NameIsDNSSubdomain`) before the CRD's
/// rules and before any webhook, so at v2.0.1 the webhook's DNS-1035 check never sees `Run-1`.
#[test]
fn a_name_with_capitals_is_refused_by_the_api_server_in_every_release() {
    let subdomain = r#"metadata.name: Invalid value: "Run-1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#;
    assert_eq!(errors(&job("Run-1", ""), RUNTIME, V2_0), [subdomain]);
    for release in [V2_1, V2_2, V2_3] {
        assert_eq!(errors(&job("Run-1", ""), RUNTIME, release), [subdomain, NAME_RULE], "{}", release.tag);
    }
}

/// The issue's example: a storageUri without `scheme://`. The CEL rule is new in v2.3.0
/// (trainjob_types.go @v2.3.0, on DatasetInitializer and ModelInitializer); before, the API
/// server takes it.
#[test]
fn a_storage_uri_without_a_scheme_is_refused_from_v2_3() {
    let spec = "  initializer:\n    model: {storageUri: hf/Qwen/Qwen2.5-1.5B}\n    dataset: {storageUri: 'hf://tatsu-lab/alpaca'}\n";
    assert_eq!(
        errors(&job("tune", spec), RUNTIME, V2_3),
        [
            r#"spec.initializer.model.storageUri: Invalid value: "hf/Qwen/Qwen2.5-1.5B": storageUri may be empty, or it must be a valid URI (scheme://...)"#
        ]
    );
    let empty = "  initializer:\n    model: {storageUri: ''}\n";
    assert!(!errors(&job("tune", empty), RUNTIME, V2_3).iter().any(|e| e.contains("storageUri")));
    for release in [V2_0, V2_1, V2_2] {
        assert!(
            !errors(&job("tune", spec), RUNTIME, release).iter().any(|e| e.contains("storageUri")),
            "{}",
            release.tag
        );
    }
}

/// The issue's example: a runtime patch's manager must be a domain-prefixed path. The jobset
/// plugin's webhook checks it (jobset.go:129 @v2.2.1, :176 @v2.3.0), each error at
/// `spec.runtimePatches.manager` as upstream names it.
#[test]
fn a_runtime_patch_manager_that_is_not_domain_prefixed_is_refused() {
    let patch = |manager: &str| format!("  runtimePatches:\n  - manager: '{manager}'\n");
    for release in [V2_2, V2_3] {
        assert_eq!(
            errors(&job("run", &patch("my-team")), RUNTIME, release),
            [
                r#"spec.runtimePatches.manager: Invalid value: "my-team": must be a domain-prefixed path (such as "acme.io/foo")"#
            ],
            "{}",
            release.tag
        );
        assert_eq!(errors(&job("run", &patch("example.com/team")), RUNTIME, release), Vec::<String>::new());
        assert_eq!(
            errors(&job("run", &patch("Example.com/a b")), RUNTIME, release),
            [
                r#"spec.runtimePatches.manager: Invalid value: "Example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#,
                r#"spec.runtimePatches.manager: Invalid value: "a b": Invalid path (regex used for validation is '[A-Za-z0-9/\-._~%!$&'()*+,;=:]+')"#,
            ]
        );
    }
}

/// The API server lists every error of the CRD at once; the webhook is not asked then.
#[test]
fn every_crd_error_is_listed_and_the_webhook_waits_for_them() {
    let spec = "  managedBy: example.com/mine\n  initializer:\n    dataset: {storageUri: s3-bucket}\n  \
                trainer: {env: [{name: PET_NNODES, value: '2'}], numProcPerNode: 2}\n";
    assert_eq!(
        errors(&job("9lives", spec), RUNTIME, V2_3),
        [
            NAME_RULE,
            r#"spec.initializer.dataset.storageUri: Invalid value: "s3-bucket": storageUri may be empty, or it must be a valid URI (scheme://...)"#,
            r#"spec.managedBy: Invalid value: "example.com/mine": ManagedBy must be trainer.kubeflow.org/trainjob-controller or kueue.x-k8s.io/multikueue if set"#,
        ]
    );
    // Once the CRD's errors are mended, the webhook's (reserved PET_* env) shows.
    let mended = "  trainer: {env: [{name: PET_NNODES, value: '2'}], numProcPerNode: 2}\n";
    assert_eq!(
        errors(&job("lives", mended), RUNTIME, V2_3),
        ["spec.trainer.env: must not have reserved envs, invalid envs configured: [PET_NNODES]"]
    );
}

/// The runtime's own CRD rules: a cluster would have refused the runtime when it was created.
#[test]
fn the_runtime_s_crd_rules_apply_too() {
    let two_policies = RUNTIME.replace("torch: {}", "torch: {}, mpi: {}");
    for release in RELEASES {
        assert_eq!(
            errors(&job("run", ""), &two_policies, *release),
            ["runtime spec.mlPolicy: Invalid value: Only one of the policy can be configured"],
            "{}",
            release.tag
        );
    }
    // v2.0-v2.1: torch.numProcPerNode is an int or auto, cpu, gpu; a string is typed `dyn` in
    // the API server's CEL, so `self > 0` has no overload for it.
    let procs = |p: &str| RUNTIME.replace("torch: {}", &format!("torch: {{numProcPerNode: {p}}}"));
    for release in [V2_0, V2_1] {
        assert_eq!(errors(&job("run", ""), &procs("auto"), release), Vec::<String>::new());
        assert_eq!(
            errors(&job("run", ""), &procs("0"), release),
            ["runtime spec.mlPolicy.torch.numProcPerNode: Invalid value: 0: NumProcPerNode must be equal to auto, cpu, gpu, or int value"]
        );
        assert_eq!(
            errors(&job("run", ""), &procs("many"), release),
            [
                r#"runtime spec.mlPolicy.torch.numProcPerNode: Invalid value: "": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: NumProcPerNode must be equal to auto, cpu, gpu, or int value"#
            ]
        );
    }
    // v2.2+: the JobSet's startupPolicy and dependsOn exclude each other.
    let in_order = RUNTIME
        .replace("      replicatedJobs:", "      startupPolicy: {startupPolicyOrder: InOrder}\n      replicatedJobs:")
        .replace("      - name: node\n", "      - name: node\n        dependsOn: [{name: node, status: Ready}]\n");
    assert_eq!(
        errors(&job("run", ""), &in_order, V2_3),
        ["runtime spec.template.spec: Invalid value: StartupPolicy and DependsOn APIs are mutually exclusive"]
    );
}

/// Transition rules (`self == oldSelf`) compare with the stored object: on create there is none
/// and the API server skips them.
#[test]
fn transition_rules_are_skipped_on_create() {
    let spec = "  managedBy: kueue.x-k8s.io/multikueue\n  trainer: {numNodes: 2}\n  activeDeadlineSeconds: 60\n";
    let e = errors(&job("run", spec), RUNTIME, V2_3);
    assert!(!e.iter().any(|e| e.contains("immutable")), "{e:?}");
}

/// The OpenAPI constraints next to the rules: an `Unsupported value`, `Too long` or `Too many`
/// leaves the rules unchecked, and the API server says so.
#[test]
fn schema_constraints_are_checked_and_block_the_rules() {
    let patches: String = (0..17).map(|i| format!("  - manager: example.com/m{i}\n")).collect();
    assert_eq!(
        errors(&job("1st", &format!("  runtimePatches:\n{patches}")), RUNTIME, V2_3),
        [
            "spec.runtimePatches: Too many: 17: must have at most 16 items",
            "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ]
    );
    let order = RUNTIME.replace(
        "      replicatedJobs:",
        "      startupPolicy: {startupPolicyOrder: Sometimes}\n      replicatedJobs:",
    );
    let e = errors(&job("run", ""), &order, V2_3);
    assert_eq!(
        e[0],
        r#"runtime spec.template.spec.startupPolicy.startupPolicyOrder: Unsupported value: "Sometimes": supported values: "AnyOrder", "InOrder""#
    );
    let long_manager = format!("  runtimePatches:\n  - manager: example.com/{}\n", "m".repeat(250));
    assert_eq!(
        errors(&job("run", &long_manager), RUNTIME, V2_3)[0],
        "spec.runtimePatches[0].manager: Too long: may not be more than 253 bytes"
    );
}

//! The V1 operators' admission rules, checked against their own tests: each case of
//! crates/core/tests/it/v1_operator/webhook_cases.yaml (training-operator v1.9.0's webhook tests, cited
//! `tag:path:line`) is judged as `validate` judges a V1 job (`explain::v1::check`) and as
//! `explain` does (`explain::v1::explain`), and must get upstream's verdict and refused fields.
#![cfg(not(target_arch = "wasm32"))]

use explorer_core::explain::v1::{check, explain, NotRun};
use explorer_core::migrate::convert::{Error, Invalid as Why};
use explorer_core::pipeline::Invalid;
use serde_json::Value;
use std::collections::BTreeSet;

fn cases() -> Vec<Value> {
    let file: Value = serde_yaml::from_str(include_str!("v1_operator/webhook_cases.yaml")).expect("parses");
    file["cases"].as_array().expect("a list of cases").clone()
}

/// A field path with a map key written as the webhook's field.Path writes it (`[Worker]`) and as
/// the API server's schema errors write it (`.Worker`) compared alike: as `.Worker`.
fn normalized(path: &str) -> String {
    let mut out = String::new();
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        let close = open + rest[open..].find(']').unwrap_or(rest.len() - open);
        let key = &rest[open + 1..close];
        out.push_str(&rest[..open]);
        if key.parse::<usize>().is_ok() {
            out.push_str(&rest[open..=close]);
        } else {
            out.push('.');
            out.push_str(key);
        }
        rest = &rest[(close + 1).min(rest.len())..];
    }
    out + rest
}

fn fields(list: &[explorer_core::explain::Rejection]) -> BTreeSet<String> {
    list.iter().map(|r| normalized(&r.field())).collect()
}

#[test]
fn every_upstream_webhook_case_gets_upstreams_verdict_and_fields() {
    let (mut judged, mut left_out, mut wrong) = (0, Vec::new(), Vec::new());
    for case in cases() {
        let name = case["case"].as_str().unwrap();
        let source = case["source"].as_str().unwrap();
        assert!(source.starts_with("training-operator v1.9.0:pkg/webhooks/"), "{source}");
        if let Some(reason) = case["applies"].as_str() {
            left_out.push(format!("{name}: {reason}"));
            continue;
        }
        judged += 1;
        let job = &case["job"];
        let want: BTreeSet<String> = case["fields"]
            .as_array()
            .map(|f| f.iter().map(|p| normalized(p.as_str().unwrap())).collect())
            .unwrap_or_default();
        let refused = case["verdict"] == "refused";
        assert_eq!(refused, !want.is_empty(), "{name}: a refusal names its fields");
        let by_validate = fields(&check(job));
        let by_explain = fields(&explain(job).rejected);
        for (how, got) in [("validate", &by_validate), ("explain", &by_explain)] {
            if *got != want {
                wrong.push(format!("{source}: {how} refuses {got:?}, upstream {want:?}"));
            }
        }
    }
    eprintln!("{judged} cases judged, {} agree; left out {}: {left_out:#?}", judged - wrong.len() / 2, left_out.len());
    assert!(wrong.is_empty(), "{} disagreements:\n{}", wrong.len(), wrong.join("\n"));
    assert_eq!(judged + left_out.len(), 40, "training-operator v1.9.0's five webhook tests hold 40 cases");
}

#[test]
fn paths_are_compared_with_map_keys_alike() {
    assert_eq!(
        normalized("spec.tfReplicaSpecs[Worker].template.spec.containers[0].image"),
        "spec.tfReplicaSpecs.Worker.template.spec.containers[0].image"
    );
    assert_eq!(normalized("spec.x"), "spec.x");
}

/// Training Operator v1.9 installs no mutating webhook (manifests/base/webhook/manifests.yaml
/// holds validating ones only) and its CRD no default for `replicas`, so the PyTorchJob
/// webhook sees a Master written without `replicas` as nil and refuses it
/// (pytorchjob_webhook.go:152-155: `rSpec.Replicas == nil || *rSpec.Replicas != 1`).
#[test]
fn a_pytorch_master_without_replicas_is_refused_as_written() {
    let job: Value = serde_yaml::from_str(
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: mnist}\nspec:\n  pytorchReplicaSpecs:\n    \
         Master: {template: {spec: {containers: [{name: pytorch, image: img}]}}}\n",
    )
    .unwrap();
    let refused = check(&job);
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!(refused[0].field(), "spec.pytorchReplicaSpecs[Master].replicas");
    assert_eq!(refused[0].reason(), "Forbidden: must be 1");
    assert_eq!(explain(&job).rejected, refused);
}

/// A TFJob is the one kind whose webhook lets any replica type through
/// (training-operator v1.9.0:pkg/webhooks/tensorflow/tfjob_webhook.go:90-127). Its controller
/// names the pods `<job>-<type in lower case>-<index>` with Go's `strings.ToLower`
/// (pkg/controller.v1/common/pod.go:277,414, pkg/core/utils.go:30-33): `WÖRKER` gives
/// `t-wörker-0`, which the API server refuses as a pod name, so the job is admitted and never
/// runs. Go's simple case mapping lowers only two characters outside ASCII into it (`İ` to `i`,
/// the Kelvin sign to `k`), and its `EqualFold` makes the Kelvin sign's `WORKER` the Worker.
#[test]
fn a_replica_type_whose_pod_name_the_api_server_refuses_runs_no_pod() {
    let tf = |rtype: &str| -> Value {
        serde_json::json!({"apiVersion": "kubeflow.org/v1", "kind": "TFJob", "metadata": {"name": "t"},
            "spec": {"tfReplicaSpecs": {rtype: {"replicas": 2,
                "template": {"spec": {"containers": [{"name": "tensorflow", "image": "tf:1"}]}}}}}})
    };
    for rtype in ["WÖRKER", "Wörker", "my_worker", "Ωmega"] {
        let job = tf(rtype);
        let explained = explain(&job);
        assert!(explained.pods.is_empty(), "{rtype}: {:?}", explained.pods);
        let field = normalized(&explained.rejected[0].field());
        assert_eq!(field, format!("spec.tfReplicaSpecs.{rtype}"), "{rtype}");
        let reason = explained.rejected[0].reason();
        assert!(reason.contains("a lowercase RFC 1123 subdomain") && reason.contains("no pod"), "{rtype}: {reason}");
        assert_eq!(fields(&check(&job)), BTreeSet::from([format!("spec.tfReplicaSpecs.{rtype}")]), "{rtype}");
    }
    // Lowered as Go lowers them: ASCII, `İ` as `i`; the Kelvin sign's WORKER is the Worker.
    for (rtype, host) in [("Trainer", "t-trainer-0"), ("TRAİNER", "t-trainer-0"), ("WOR\u{212a}ER", "t-worker-0")] {
        let explained = explain(&tf(rtype));
        assert!(explained.rejected.is_empty(), "{rtype}: {:?}", explained.rejected);
        assert_eq!(explained.pods[0].hostnames[0], host, "{rtype}");
    }
    assert_eq!(explain(&tf("WOR\u{212a}ER")).pods[0].replica_type, "Worker");
}

/// Scope of a webhook case's refused fields: about the pods the job asks for (its replica specs,
/// their counts, the elastic policy), not its name, manager, containers or images.
fn about_the_pods(field: &str) -> bool {
    field != "metadata.name" && !field.starts_with("spec.runPolicy") && !field.contains(".template.spec")
}

/// What v1.9's webhook refuses about the pods a job asks for, `migrate` refuses with the
/// webhook's own reason instead of converting it: v1.9 ran no pod of such a job, so there is no
/// V1 run to carry over. Each upstream case (webhook_cases.yaml, cited by its test's name) whose
/// refused fields are all about the pods: "the number of replicas in masterReplica is other than
/// 1" (pytorchjob_webhook_test.go:203, xgboostjob_webhook_test.go:188), "attempt to configure
/// worker with 0 replicas" (:395), "attempt to configure elasticPolicy when no worker is
/// configured" (:367), "Spec.NprocPerNode and Spec.ElasticPolicy.NProcPerNode are set" (:274),
/// "there are more than 2 masterReplica's or ChiefReplica's" (tfjob_webhook_test.go:153),
/// "masterReplica does not exist" (xgboostjob_webhook_test.go:213), "replicaSpec is nil"
/// (jaxjob_webhook_test.go:176, paddlepaddle_webhook_test.go:163). The others (a name, an image, a container's name, managedBy)
/// are converted as before: the 29 public jobs hold one such (19, no container named pytorch).
#[test]
fn migrate_refuses_what_the_webhook_refuses_about_the_pods_with_its_reason() {
    let (mut refused_cases, mut wrong) = (Vec::new(), Vec::new());
    for case in cases() {
        if case.get("applies").is_some() || case["verdict"] != "refused" {
            continue;
        }
        let fields: Vec<&str> = case["fields"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
        if !fields.iter().all(|f| about_the_pods(f)) {
            continue;
        }
        let name = case["case"].as_str().unwrap();
        refused_cases.push(name.to_string());
        let text = serde_yaml::to_string(&case["job"]).unwrap();
        let m = explorer_core::migrate::migrate_to(&text, explorer_data::releases::NEWEST).unwrap();
        match &m.docs[0].outcome {
            explorer_core::migrate::Outcome::Invalid { error } => {
                let said = error.to_string();
                let kind = case["job"]["kind"].as_str().unwrap();
                let names_all = fields.iter().all(|f| said.contains(&format!("{f}:")));
                if !names_all || !said.ends_with(&format!("the Training Operator's webhook refuses the {kind}")) {
                    wrong.push(format!("{name}: {said}"));
                }
                // The reason is typed: the webhook's errors themselves, each naming its field.
                match error {
                    Invalid::Migrate(Why::Job {
                        error: Error::V1Refused(NotRun::Webhook { refusals, .. }), ..
                    }) => {
                        let named: Vec<String> = refusals.iter().map(|r| r.field()).collect();
                        if !fields.iter().all(|f| named.iter().any(|n| n == f)) {
                            wrong.push(format!("{name}: the webhook's errors name {named:?}"));
                        }
                    }
                    other => wrong.push(format!("{name}: not the webhook's typed errors: {other:?}")),
                }
            }
            other => wrong.push(format!("{name}: not refused: {other:?}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(refused_cases.len(), 9, "{refused_cases:?}");
}

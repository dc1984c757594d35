//! Each release entry's TrainJob and mlPolicy fields are the ones that release's CRDs declare
//! (`v2-crds/<tag>`), so snippets built from the data cannot name a field the API server lacks.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

use explorer_judges as common;

use explorer_data::api_changes::Subject;
use serde_json::Value;

use explorer_data::releases::{NumProcPerNode, PodSettingsField, Release, RELEASES};

fn spec_schema(release: &Release, crd: &str) -> Value {
    let text = common::read_reference(&format!("v2-crds/{}/trainer.kubeflow.org_{crd}.yaml", release.tag));
    let doc = common::yaml_docs(&text).remove(0);
    doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"].clone()
}

fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    k.sort();
    k
}

fn sorted(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn trainjob_fields_follow_each_release_s_crd() {
    let all =
        [PodSettingsField::PodSpecOverrides, PodSettingsField::PodTemplateOverrides, PodSettingsField::RuntimePatches];
    for release in RELEASES {
        let spec = spec_schema(release, "trainjobs");
        for field in all {
            let declared = spec.get(field.field()).is_some();
            assert_eq!(declared, field == release.pod_settings(), "{} {}", release.tag, field.field());
        }
        for field in ["labels", "annotations"] {
            assert_eq!(
                spec.get(field).is_some(),
                release.declares(Subject::TrainJob, &format!("spec.{field}")),
                "{} spec.{field}",
                release.tag
            );
        }
        let deadline = spec.get("activeDeadlineSeconds").is_some();
        assert_eq!(
            deadline,
            release.declares(Subject::TrainJob, "spec.activeDeadlineSeconds"),
            "{} activeDeadlineSeconds",
            release.tag
        );
        let procs = &spec["trainer"]["properties"]["numProcPerNode"];
        let int_or_string = procs["x-kubernetes-int-or-string"] == Value::Bool(true);
        assert_eq!(int_or_string, release.num_proc_per_node == NumProcPerNode::IntOrString, "{}", release.tag);
    }
}

#[test]
fn policy_fields_follow_each_release_s_crd() {
    for release in RELEASES {
        let ml = &spec_schema(release, "clustertrainingruntimes")["mlPolicy"]["properties"];
        let mut policies = keys(ml);
        policies.retain(|k| k != "numNodes");
        assert_eq!(policies, sorted(release.policies), "{} mlPolicy sources", release.tag);
        assert_eq!(keys(&ml["torch"]["properties"]), sorted(&release.torch_policy_fields()), "{} torch", release.tag);
        let gang = &spec_schema(release, "clustertrainingruntimes")["podGroupPolicy"]["properties"];
        assert_eq!(keys(gang), sorted(release.gang_schedulers), "{} podGroupPolicy sources", release.tag);
    }
}

#[test]
fn the_trainjob_status_follows_each_release_s_crd() {
    for release in RELEASES {
        let text = common::read_reference(&format!("v2-crds/{}/trainer.kubeflow.org_trainjobs.yaml", release.tag));
        let doc = common::yaml_docs(&text).remove(0);
        let status = &doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["status"]["properties"];
        assert!(status.get("conditions").is_some(), "{}: the status schema was found", release.tag);
        assert_eq!(
            status.get("trainerStatus").is_some(),
            release.trainer_status.is_some(),
            "{} trainerStatus",
            release.tag
        );
    }
}

/// The fields each release's TrainJob can set on pods and containers (where `migrate --target`
/// puts pod settings) are the ones its CRD declares: PodSpecOverride (v2.0),
/// PodTemplateSpecOverride (v2.1), PodSpecPatch (v2.2+).
#[test]
fn pod_settings_fields_follow_each_release_s_crd() {
    for release in RELEASES {
        let entry = &spec_schema(release, "trainjobs")[release.pod_settings().field()]["items"]["properties"];
        // Where the pod template sits in one entry, and its spec within it (v2.0's is flat).
        let template = match release.pod_settings() {
            PodSettingsField::RuntimePatches => {
                let job = &entry["trainingRuntimeSpec"]["properties"]["template"]["properties"]["spec"]["properties"]
                    ["replicatedJobs"]["items"]["properties"];
                job["template"]["properties"]["spec"]["properties"]["template"]["properties"].clone()
            }
            _ => entry.clone(),
        };
        let pod = match release.pod_settings() {
            PodSettingsField::PodSpecOverrides => template.clone(),
            _ => template["spec"]["properties"].clone(),
        };
        let mut pod_fields = keys(&pod);
        // Containers and init containers are lists of container overrides, checked below.
        pod_fields.retain(|k| !["targetJobs", "containers", "initContainers"].contains(&k.as_str()));
        assert_eq!(pod_fields, sorted(release.pod_settings_pod_fields), "{}", release.tag);
        let mut container_fields = keys(&pod["containers"]["items"]["properties"]);
        container_fields.retain(|k| k != "name" && k != "env");
        assert_eq!(container_fields, sorted(release.pod_settings_container_fields), "{}", release.tag);
        let metadata = template.get("metadata").is_some();
        assert_eq!(metadata, release.pod_settings().holds_pod_metadata(), "{} pod metadata", release.tag);
    }
}

/// The `(apiVersion, kind)` pairs the CRD files at `dir` serve: `spec.group`, `spec.names.kind`
/// and every version with `served: true`.
fn served_by_crds(dir: &str) -> Vec<(String, String)> {
    let root = common::reference_dir().join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "yaml") && p.file_name().unwrap().to_string_lossy().contains('_')
        })
        .collect();
    files.sort();
    let mut out = Vec::new();
    for file in files {
        for crd in common::read_docs(&file).into_iter().filter(|d| d["kind"] == "CustomResourceDefinition") {
            let group = crd["spec"]["group"].as_str().unwrap();
            let kind = crd["spec"]["names"]["kind"].as_str().unwrap();
            for v in crd["spec"]["versions"].as_array().unwrap() {
                if v["served"] == Value::Bool(true) {
                    out.push((format!("{group}/{}", v["name"].as_str().unwrap()), kind.to_string()));
                }
            }
        }
    }
    out.sort();
    out
}

fn pairs(kinds: &[explorer_data::served::ServedKind]) -> Vec<(String, String)> {
    let mut out: Vec<_> = kinds.iter().map(|s| (s.api_version.to_string(), s.kind.to_string())).collect();
    out.sort();
    out
}

#[test]
fn each_release_serves_the_kinds_and_versions_of_its_crds() {
    for release in RELEASES {
        assert_eq!(pairs(release.served), served_by_crds(&format!("v2-crds/{}", release.tag)), "{}", release.tag);
    }
    use explorer_data::served::{MPI_OPERATOR, TRAINING_OPERATOR};
    assert_eq!(pairs(TRAINING_OPERATOR.served), served_by_crds("v1-crds"), "training-operator v1.9");
    assert_eq!(pairs(MPI_OPERATOR.served), served_by_crds("mpi-operator-v2beta1"), "mpi-operator");
}

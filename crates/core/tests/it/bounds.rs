//! Huge counts in the input: every command answers every kind alike, at once, without building
//! what the count asks for.

use explorer_core::explain::v1::{check, explain, Error as V1Error, NotRun};
use explorer_core::migrate::convert::{Error, Invalid as Why};
use explorer_core::migrate::{migrate, migrate_to, Outcome};
use explorer_core::pipeline::Invalid;
use explorer_data::releases::RELEASES;
use serde_json::Value;

/// A `kind` job of `api` with one replica spec per `(type, replicas)`, each with the kind's
/// default container and a command.
fn job(api: &str, kind: &str, specs: &[(&str, u64)]) -> String {
    let (field, container) = match kind {
        "PyTorchJob" => ("pytorchReplicaSpecs", "pytorch"),
        "JAXJob" => ("jaxReplicaSpecs", "jax"),
        "XGBoostJob" => ("xgbReplicaSpecs", "xgboost"),
        "MPIJob" => ("mpiReplicaSpecs", "mpi"),
        "TFJob" => ("tfReplicaSpecs", "tensorflow"),
        "PaddleJob" => ("paddleReplicaSpecs", "paddle"),
        other => panic!("{other}"),
    };
    let mut text = format!("apiVersion: {api}\nkind: {kind}\nmetadata: {{name: big}}\nspec:\n  {field}:\n");
    for (rtype, replicas) in specs {
        text += &format!(
            "    {rtype}:\n      replicas: {replicas}\n      template: {{spec: {{containers: [{{name: {container}, \
             image: 'img:1', command: [python, /train.py]}}]}}}}\n"
        );
    }
    text
}

const INT32: u64 = i32::MAX as u64;

/// Jobs of more pods than `explain::MAX_PODS` (150,000, the most a Kubernetes cluster supports),
/// one of every kind, with the pods each asks for as its operator counts them (an MPIJob's
/// launcher is one of them).
fn too_many() -> Vec<(String, u64)> {
    let v1 = "kubeflow.org/v1";
    vec![
        (job(v1, "PyTorchJob", &[("Worker", INT32)]), INT32),
        (job(v1, "PyTorchJob", &[("Master", 1), ("Worker", INT32)]), INT32 + 1),
        (job(v1, "JAXJob", &[("Worker", INT32)]), INT32),
        (job(v1, "JAXJob", &[("Worker", 150_001)]), 150_001),
        (job(v1, "XGBoostJob", &[("Master", 1), ("Worker", INT32)]), INT32 + 1),
        (job(v1, "MPIJob", &[("Launcher", 1), ("Worker", INT32)]), INT32 + 1),
        (job(v1, "MPIJob", &[("Launcher", 1), ("Worker", 150_000)]), 150_001),
        (job("kubeflow.org/v2beta1", "MPIJob", &[("Launcher", 1), ("Worker", INT32)]), INT32 + 1),
        (job(v1, "TFJob", &[("PS", 1), ("Worker", INT32)]), INT32 + 1),
        (job(v1, "PaddleJob", &[("Worker", INT32)]), INT32),
    ]
}

fn parsed(text: &str) -> Value {
    serde_yaml::from_str(text).unwrap()
}

/// One bound for every kind (issue 36's spirit): a PyTorchJob, JAXJob or MPIJob at int32 used
/// to convert with exit 0 while explain and validate refused it as more pods than any cluster
/// runs, and a PyTorchJob or XGBoostJob whose Master and Workers added up past int32 was
/// called out of range. migrate, explain and validate (`check`) now say the same count with
/// the same sentence.
#[test]
fn every_kind_of_more_pods_than_any_cluster_runs_is_refused_alike() {
    let sentence = |pods: u64| {
        format!(
            "{pods} pods: no Kubernetes cluster runs that many (the supported limit is 150000 pods per cluster), so"
        )
    };
    let mut wrong = Vec::new();
    for (text, pods) in too_many() {
        let kind = format!("{} of {pods} pods", text.lines().nth(1).unwrap());
        let said = sentence(pods);
        let m = migrate(&text).unwrap();
        match &m.docs[0].outcome {
            Outcome::Invalid { error }
                if error.to_string().ends_with(&format!("{said} migrate does not convert them")) => {}
            Outcome::Invalid { error } => wrong.push(format!("{kind}: migrate said {error}")),
            Outcome::Written { .. } => wrong.push(format!("{kind}: migrate converted it")),
            other => wrong.push(format!("{kind}: migrate: {other:?}")),
        }
        let doc = parsed(&text);
        let explained: Vec<String> = explain(&doc).rejected.iter().map(|r| r.reason()).collect();
        if explained != [format!("{said} explain does not model them")] {
            wrong.push(format!("{kind}: explain said {explained:?}"));
        }
        let validated: Vec<String> = check(&doc).iter().map(|r| r.reason()).collect();
        if validated != [format!("{said} explain does not model them")] {
            wrong.push(format!("{kind}: validate said {validated:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A replica count past int32 that a u32 still holds (2147483648 to 4294967295): the CRDs'
/// `replicas` is an int32, and the API server refuses such a count as it refuses one past u32.
/// explain and validate said "3000000000 pods: no Kubernetes cluster runs that many", migrate
/// "is 3000000000, out of range"; now all three give the field error of reading the job
/// (model::int32), for every kind.
#[test]
fn a_replica_count_past_int32_is_the_same_field_error_in_every_command() {
    let v1 = "kubeflow.org/v1";
    let kinds = [
        (v1, "PyTorchJob", "pytorchReplicaSpecs", None),
        (v1, "JAXJob", "jaxReplicaSpecs", None),
        (v1, "XGBoostJob", "xgbReplicaSpecs", Some("Master")),
        (v1, "MPIJob", "mpiReplicaSpecs", Some("Launcher")),
        ("kubeflow.org/v2beta1", "MPIJob", "mpiReplicaSpecs", Some("Launcher")),
        (v1, "TFJob", "tfReplicaSpecs", None),
        (v1, "PaddleJob", "paddleReplicaSpecs", None),
    ];
    let mut wrong = Vec::new();
    for (api, kind, field, first) in kinds {
        for n in [2_147_483_648, 3_000_000_000, 4_294_967_295, 4_294_967_296] {
            let specs: Vec<(&str, u64)> = first.map(|t| (t, 1)).into_iter().chain([("Worker", n)]).collect();
            let text = job(api, kind, &specs);
            let said = format!("spec.{field}.Worker.replicas: Invalid value: {n}: must fit in an int32");
            let doc = parsed(&text);
            let explained: Vec<String> = explain(&doc).rejected.iter().map(|r| r.to_string()).collect();
            let validated: Vec<String> = check(&doc).iter().map(|r| r.to_string()).collect();
            if explained != [said.clone()] {
                wrong.push(format!("{api} {kind} {n}: explain said {explained:?}"));
            }
            if validated != [said.clone()] {
                wrong.push(format!("{api} {kind} {n}: validate said {validated:?}"));
            }
            match &migrate(&text).unwrap().docs[0].outcome {
                Outcome::Invalid { error } if error.to_string().ends_with(&said) => {}
                other => wrong.push(format!("{api} {kind} {n}: migrate: {other:?}")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The bound counts the pods as the operators do: 150,000 in all converts.
#[test]
fn a_job_of_as_many_pods_as_a_cluster_runs_converts() {
    let v1 = "kubeflow.org/v1";
    for text in
        [job(v1, "JAXJob", &[("Worker", 150_000)]), job(v1, "PyTorchJob", &[("Master", 1), ("Worker", 149_999)])]
    {
        let m = migrate(&text).unwrap();
        assert!(matches!(m.docs[0].outcome, Outcome::Written { .. }), "{text}: {:?}", m.failures());
        assert!(explain(&parsed(&text)).rejected.is_empty(), "{text}");
    }
    // An MPIJob of as many pods passes the bound too: what refuses it is its hostfile's size.
    let text = job(v1, "MPIJob", &[("Launcher", 1), ("Worker", 149_999)]);
    let explained = explain(&parsed(&text)).rejected;
    assert_eq!(explained.len(), 1, "{explained:?}");
    assert!(explained[0].reason().contains("creates the ConfigMap <job>-config"), "{explained:?}");
}

/// An MPIJob's operator writes a hostfile ConfigMap listing every worker before it creates any
/// pod, and the API server refuses a ConfigMap of more than 1 MiB of data: past about 42,000
/// workers here (Training Operator v1.9's `<pod> slots=1` lines), 25,000 for mpi-operator's
/// (full DNS names), no pod runs. 149,999 workers converted and explain listed a 3.8 MB and a
/// 6.2 MB hostfile; now migrate refuses the job, explain and validate say why, alike, without
/// writing the hostfile.
#[test]
fn an_mpijob_whose_hostfile_configmap_the_api_server_refuses_runs_no_pod_and_is_said_alike() {
    // (apiVersion, operator's words, the most workers whose ConfigMap is created, its bytes then,
    // and one more worker's bytes), the bytes counted by hand: the lines, kubexec.sh (v1 only) and
    // discover_hosts.sh at creation.
    let cases = [
        ("kubeflow.org/v1", "training-operator v1.9 creates", 42_383, 1_048_562, 1_048_587),
        ("kubeflow.org/v2beta1", "mpi-operator v0.6 creates", 25_845, 1_048_545, 1_048_586),
    ];
    for (api, operator, most, bytes, past) in cases {
        for workers in [most + 1, 149_999] {
            let text = job(api, "MPIJob", &[("Launcher", 1), ("Worker", workers)]);
            let doc = parsed(&text);
            let explained: Vec<String> = explain(&doc).rejected.iter().map(|r| r.to_string()).collect();
            let validated: Vec<String> = check(&doc).iter().map(|r| r.to_string()).collect();
            assert_eq!(explained, validated, "{api} {workers}");
            assert_eq!(explained.len(), 1, "{api} {workers}: {explained:?}");
            let said = &explained[0];
            assert!(said.starts_with(&format!("spec.mpiReplicaSpecs.Worker: {operator} the ConfigMap")), "{said}");
            assert!(said.contains("refuses a ConfigMap holding more than 1048576 bytes"), "{said}");
            assert!(said.contains("no pod of it runs"), "{said}");
            // One sentence as a reader reads it: no run of spaces left by a line break in the source.
            assert!(!said.contains("  "), "{said}");
            if workers == most + 1 {
                assert!(said.contains(&format!("its data is {past} bytes")), "{said}");
            }
            match &migrate(&text).unwrap().docs[0].outcome {
                Outcome::Invalid { error } => {
                    assert!(error.to_string().ends_with(said.as_str()), "{error}");
                    // Typed, as explain has it: the operator's error and the ConfigMap's bytes.
                    let Invalid::Migrate(Why::Job {
                        error: Error::V1Refused(NotRun::Operator(V1Error::HostfileTooLarge { bytes, .. })),
                        ..
                    }) = error
                    else {
                        panic!("{api} {workers}: {error:?}")
                    };
                    assert!(*bytes > 1_048_576 && (workers != most + 1 || *bytes == past), "{api} {workers}: {bytes}");
                }
                other => panic!("{api} {workers}: migrate: {other:?}"),
            }
        }
        // One worker fewer: the ConfigMap is created, holding exactly the bytes counted.
        let text = job(api, "MPIJob", &[("Launcher", 1), ("Worker", most)]);
        let e = explain(&parsed(&text));
        assert!(e.rejected.is_empty(), "{api}: {:?}", e.rejected);
        let config = e.objects.iter().find(|o| o.kind == "ConfigMap").expect("the hostfile ConfigMap");
        let data: usize = config.data.as_ref().unwrap().iter().map(|(_, v)| v.len()).sum();
        assert_eq!(data as u64, bytes, "{api}");
        // Converted, but for Trainer's hostfile (an_mpijob_whose_trainjob_hostfile_the_api_server_refuses_is_refused_by_migrate):
        // its lines are longer than v1.9's, shorter than mpi-operator's.
        match (api, &migrate(&text).unwrap().docs[0].outcome) {
            ("kubeflow.org/v1", Outcome::Refused { reason, .. }) => {
                assert!(reason.to_string().contains("the MPI plugin writes the ConfigMap"), "{reason}")
            }
            ("kubeflow.org/v2beta1", Outcome::Written { .. }) => {}
            (_, other) => panic!("{api}: {other:?}"),
        }
    }
}

/// A V1 MPIJob whose own hostfile ConfigMap Training Operator v1.9 creates, but whose TrainJob's
/// the API server refuses: the MPI plugin's lines (`big-node-0-<i>.big slots=1`) are longer than
/// v1.9's (`big-worker-<i> slots=1`), so 36,541 to 42,383 workers ran in V1 and converted, with
/// no word, into a TrainJob that trains nothing. migrate now refuses it, with the sentence explain
/// gives that TrainJob.
///
/// Counted by hand: N lines of 24 bytes (`big-node-0-`, `.big slots=1` and the newline) plus the
/// digits of 0 to N - 1 (10 + 180 + 2,700 + 36,000 + 5 (N - 10,000)), 29 N - 11,110 bytes: 36,540
/// nodes write 1,048,550, 36,541 write 1,048,579, past 1,048,576. The same at every release line:
/// the MPI plugin writes `%s slots=%d\n` per endpoint `<job>-<replicatedJob>-<replica>-<pod>.<subdomain>`
/// (v2.0.1:pkg/runtime/framework/plugins/mpi/mpi.go:310 and plugins/jobset/jobset.go:232; v2.1.0
/// mpi.go:317; v2.2.1 mpi.go:308; v2.3.0 mpi.go:327).
#[test]
fn an_mpijob_whose_trainjob_hostfile_the_api_server_refuses_is_refused_by_migrate() {
    let text = |workers| job("kubeflow.org/v1", "MPIJob", &[("Launcher", 1), ("Worker", workers)]);
    for &release in RELEASES {
        let tag = release.tag;
        let Outcome::Written { objects, .. } = migrate_to(&text(36_540), release).unwrap().docs.remove(0).outcome
        else {
            panic!("{tag}: 36,540 workers not written")
        };
        let e = explorer_core::explain::read::explain_trees(objects.clone(), release).unwrap();
        assert_eq!(e.rejected, vec![], "{tag}");
        let config = e.objects.iter().find(|o| o.name == "big-mpi-hostfile").expect("the hostfile ConfigMap");
        let hostfile = config.data.as_ref().unwrap().get("hostfile").unwrap();
        assert_eq!(hostfile.len(), 1_048_550, "{tag}");
        assert!(hostfile.starts_with("big-node-0-0.big slots=1\n"), "{tag}: {}", &hostfile[..40]);

        // The same TrainJob with one node more, as explain says it: the sentence migrate ends with.
        let mut one_more = objects;
        let job = one_more.iter_mut().find(|o| o["kind"] == "TrainJob").unwrap();
        job["spec"]["trainer"]["numNodes"] = 36_541.into();
        let e = explorer_core::explain::read::explain_trees(one_more, release).unwrap();
        let [rejected] = &e.rejected[..] else { panic!("{tag}: {:?}", e.rejected) };
        let explained = rejected.reason().strip_suffix(" (controller error)").unwrap().to_string();
        assert!(explained.contains("here 1048579 bytes"), "{tag}: {explained}");

        match &migrate_to(&text(36_541), release).unwrap().docs[0].outcome {
            Outcome::Refused { reason, .. } => assert_eq!(
                reason.to_string(),
                format!(
                    "spec.mpiReplicaSpecs.Worker: 36541 workers are spec.trainer.numNodes 36541 for Trainer {tag}: \
                     {explained}; keep this MPIJob on training-operator v1.9, whose own hostfile ConfigMap takes \
                     them, or give it fewer workers"
                ),
            ),
            other => panic!("{tag}: 36,541 workers: {other:?}"),
        }
    }
}

/// A TFJob whose TF_CONFIG outgrows etcd's request limit (1.5 MiB: about 45,000 addresses here)
/// runs no pod that carries it: migrate refuses it as v1.9 never ran it, explain and validate
/// say why, with the same sentence. (150,000 Workers took more than 120 s and 590 MB in a debug
/// `migrate`: each pod's TF_CONFIG listed every address.) 40,000 Workers still convert.
#[test]
fn a_tfjob_whose_tf_config_etcd_cannot_store_runs_no_pod_and_is_said_alike() {
    let v1 = "kubeflow.org/v1";
    for workers in [50_000, 149_999] {
        let text = job(v1, "TFJob", &[("PS", 1), ("Worker", workers)]);
        let doc = parsed(&text);
        let explained: Vec<String> = explain(&doc).rejected.iter().map(|r| r.to_string()).collect();
        let validated: Vec<String> = check(&doc).iter().map(|r| r.to_string()).collect();
        assert_eq!(explained, validated, "{workers}");
        // Both types' pods carry it: explain and validate name each, migrate the first.
        let types: Vec<&str> = explained.iter().filter_map(|e| e.split(':').next()).collect();
        assert_eq!(types, ["spec.tfReplicaSpecs.PS", "spec.tfReplicaSpecs.Worker"], "{workers}");
        for said in &explained {
            let (_, said) = said.split_once(": ").unwrap();
            assert!(
                said.starts_with("the TFJob controller gives each of this replica type's pods a TF_CONFIG"),
                "{said}"
            );
            assert!(said.contains("etcd refuses a request over 1572864 bytes by default"), "{said}");
        }
        let said = &explained[0];
        let m = migrate(&text).unwrap();
        match &m.docs[0].outcome {
            Outcome::Invalid { error } => assert!(error.to_string().ends_with(said.as_str()), "{error}"),
            other => panic!("{workers} Workers: migrate: {other:?}"),
        }
    }
    let text = job(v1, "TFJob", &[("PS", 1), ("Worker", 40_000)]);
    assert!(explain(&parsed(&text)).rejected.is_empty());
    let m = migrate(&text).unwrap();
    assert!(matches!(m.docs[0].outcome, Outcome::Written { .. }), "{:?}", m.failures());
}

/// The same for an XGBoostJob: every container of every pod gets WORKER_ADDRS, the names of all
/// Workers but the last, and past about 95,000 of them (here) etcd cannot store the pod. It
/// converted, and explain listed its pods as running.
#[test]
fn an_xgboostjob_whose_worker_addrs_etcd_cannot_store_runs_no_pod_and_is_said_alike() {
    let v1 = "kubeflow.org/v1";
    let text = job(v1, "XGBoostJob", &[("Master", 1), ("Worker", 120_000)]);
    let doc = parsed(&text);
    let explained: Vec<String> = explain(&doc).rejected.iter().map(|r| r.to_string()).collect();
    let validated: Vec<String> = check(&doc).iter().map(|r| r.to_string()).collect();
    assert_eq!(explained, validated);
    // The Master first (taken out, the job would lack the Master v1.9's webhook requires).
    assert!(explained[0].starts_with("spec.xgbReplicaSpecs.Master: the XGBoostJob controller gives"), "{explained:?}");
    assert!(explained[0].contains("a WORKER_ADDRS in each container, listing the Workers' names, at least "));
    assert!(explained[0].contains("etcd refuses a request over 1572864 bytes by default"));
    let m = migrate(&text).unwrap();
    match &m.docs[0].outcome {
        Outcome::Invalid { error } => assert!(error.to_string().ends_with(explained[0].as_str()), "{error}"),
        other => panic!("migrate: {other:?}"),
    }
    let text = job(v1, "XGBoostJob", &[("Master", 1), ("Worker", 50_000)]);
    assert!(explain(&parsed(&text)).rejected.is_empty());
    assert!(matches!(migrate(&text).unwrap().docs[0].outcome, Outcome::Written { .. }));
}

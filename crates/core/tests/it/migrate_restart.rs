//! A V1 replica's `restartPolicy` against what V2's pods get. No runtime the migrator references
//! or writes sets one, and JobSet's defaulting webhook gives each replicated Job's pod template
//! without one `OnFailure` (the line cited per release, `Release::jobset_restart_policy_default`):
//! V1's `OnFailure` is kept (its report entry is not a loss), the other policies are dropped with
//! a note that says V2's pods get `OnFailure`. For every release and for each converter that
//! reports the policy: a single-template kind (PyTorchJob), an MPIJob and a TFJob (a generated
//! runtime). The claims judge accepts every note.
#![cfg(not(target_arch = "wasm32"))]

use explorer_core::migrate::report::{Entry, Kind};
use explorer_core::migrate::{migrate_to, Outcome};
use explorer_data::releases::RELEASES;

const CONTAINER: &str = "template: {spec: {containers: [{name: NAME, image: a:1}]}}";

/// Each job as written with `policy` on each replica: its kind's replica types and container name.
fn jobs(policy: &str) -> Vec<String> {
    let replica = |rtype: &str, replicas: u32, container: &str| {
        format!(
            "    {rtype}:\n      replicas: {replicas}\n      restartPolicy: {policy}\n      {}\n",
            CONTAINER.replace("NAME", container)
        )
    };
    vec![
        format!(
            "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {{name: r}}\nspec:\n  pytorchReplicaSpecs:\n{}{}",
            replica("Master", 1, "pytorch"),
            replica("Worker", 2, "pytorch")
        ),
        format!(
            "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {{name: r}}\nspec:\n  mpiReplicaSpecs:\n{}{}",
            replica("Launcher", 1, "launcher"),
            replica("Worker", 2, "worker")
        ),
        format!(
            "apiVersion: kubeflow.org/v1\nkind: TFJob\nmetadata: {{name: r}}\nspec:\n  tfReplicaSpecs:\n{}{}",
            replica("PS", 1, "tensorflow"),
            replica("Worker", 2, "tensorflow")
        ),
    ]
}

/// Every restartPolicy entry of each job converted for each release (`release kind` first),
/// every claim of its report judged true.
fn restart_entries(policy: &str) -> Vec<(String, Entry)> {
    let mut out = Vec::new();
    for release in RELEASES {
        for job in jobs(policy) {
            let migration = migrate_to(&job, *release).unwrap();
            let d = &migration.docs[0];
            let Outcome::Written { objects, report, kind, .. } = &d.outcome else {
                panic!("{policy} {}: {:?}", release.tag, migration.failures())
            };
            let at = format!("{} {kind}", release.tag);
            let source = d.source.as_ref().unwrap();
            let problems = explorer_judges::claims::migrate::false_claims_for(source, objects, report, release);
            assert!(problems.is_empty(), "{policy} {at}: false claims:\n{}", problems.join("\n"));
            let entries: Vec<&Entry> = report
                .iter()
                .filter(|e| e.from.ends_with(".restartPolicy") && !e.from.contains(".template."))
                .collect();
            assert_eq!(entries.len(), 2, "{policy} {at}: {report:#?}");
            let jobset = format!(
                "JobSet {}'s webhook gives it OnFailure (jobset {}:{})",
                release.jobset,
                release.jobset,
                release.jobset_restart_policy_default().unwrap()
            );
            for e in entries {
                assert!(e.note.contains(&jobset), "{policy} {at}: {e:?}");
                out.push((at.clone(), e.clone()));
            }
        }
    }
    out
}

#[test]
fn on_failure_is_kept_as_v2s_pods_get_it_and_is_no_loss() {
    for (at, e) in restart_entries("OnFailure") {
        assert_eq!(e.kind, Kind::Mapped, "{at}: {e:?}");
        assert!(e.note.starts_with("kept: ") && e.note.contains("restarts in place as in V1"), "{at}: {e:?}");
        assert!(e.note.contains("Job backoffLimit, JobSet failurePolicy"), "{at}: {e:?}");
    }
    // Nothing else of the PyTorchJob is lost, so it converts without losses.
    let migration = migrate_to(&jobs("OnFailure")[0], RELEASES[RELEASES.len() - 1]).unwrap();
    let Outcome::Written { lossy, report, .. } = &migration.docs[0].outcome else { panic!() };
    assert!(!lossy, "{report:#?}");
}

/// A policy V2's pods do not follow: dropped, the note saying they get OnFailure.
fn dropped_for(policy: &str) {
    for (at, e) in restart_entries(policy) {
        assert_eq!(e.kind, Kind::Dropped, "{at}: {e:?}");
        assert!(e.note.contains("V2's pods get OnFailure"), "{at}: {e:?}");
    }
}

#[test]
fn never_is_dropped_and_says_v2s_pods_get_on_failure() {
    dropped_for("Never");
}

#[test]
fn always_is_dropped_and_says_v2s_pods_get_on_failure() {
    dropped_for("Always");
}

#[test]
fn exit_code_is_dropped_and_says_v2s_pods_get_on_failure() {
    dropped_for("ExitCode");
}

/// A pod template's own restartPolicy never ran in V1: its operator put the replica's in its
/// place. The note says so, and what V2's pods get, for every release and both operators.
#[test]
fn a_pod_templates_own_restart_policy_says_v1_ran_the_replicas() {
    for release in RELEASES {
        for job in jobs("OnFailure") {
            let job = job.replace("{spec: {containers:", "{spec: {restartPolicy: Never, containers:");
            let migration = migrate_to(&job, *release).unwrap();
            let Outcome::Written { objects, report, kind, .. } = &migration.docs[0].outcome else {
                panic!("{}: {:?}", release.tag, migration.failures())
            };
            let at = format!("{} {kind}", release.tag);
            let source = migration.docs[0].source.as_ref().unwrap();
            let problems = explorer_judges::claims::migrate::false_claims_for(source, objects, report, release);
            assert!(problems.is_empty(), "{at}: false claims:\n{}", problems.join("\n"));
            let entries: Vec<&Entry> =
                report.iter().filter(|e| e.from.ends_with(".template.spec.restartPolicy")).collect();
            assert_eq!(entries.len(), 2, "{at}: {report:#?}");
            let jobset = format!("JobSet {}'s webhook gives it OnFailure", release.jobset);
            for e in entries {
                assert!(e.note.contains("V1 ran its replica's restartPolicy in its place"), "{at}: {e:?}");
                assert!(e.note.contains(&jobset), "{at}: {e:?}");
            }
        }
    }
}

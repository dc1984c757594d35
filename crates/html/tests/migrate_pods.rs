//! The migration proven pod by pod: for every V1 job we can find (the reference examples and
//! the public manifests in $TRAINER_REAL_V1), what the V1 operator ran against what Trainer
//! runs for the conversion, at every target release. Every difference must be explained.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data and real jobs from disk.

use explorer_judges as common;

use explorer_core::migrate::pods::{for_document, Difference};
use explorer_core::migrate::{migrate_to, Outcome};
use explorer_data::releases::{Release, NEWEST, RELEASES};
use std::path::PathBuf;

/// `$TRAINER_REAL_V1`, else `../shared/real-v1` beside the workspace's root.
fn real_v1_dir() -> PathBuf {
    common::real_v1_dir()
}

fn yaml_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(yaml_files(&p));
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Every unexplained difference of every converted document in `files`, at `release`, as lines.
fn unexplained(files: &[PathBuf], release: Release) -> (usize, Vec<String>) {
    let mut compared = 0;
    let mut lines = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let Ok(m) = migrate_to(&text, release) else { continue };
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        for d in &m.docs {
            match for_document(d, release) {
                None => {}
                Some(Err(e)) => lines.push(format!("{name} doc {}: no comparison: {e}", d.index)),
                Some(Ok(c)) => {
                    compared += 1;
                    for diff in c.unexplained() {
                        lines.push(format!("{name} doc {} @{}: {}", d.index, release.line, line(diff)));
                    }
                }
            }
        }
    }
    (compared, lines)
}

fn line(d: &Difference) -> String {
    format!("{} {}: V1 {} / V2 {}", d.role, d.field, d.v1.as_deref().unwrap_or("-"), d.v2.as_deref().unwrap_or("-"))
}

fn reference_examples() -> Vec<PathBuf> {
    yaml_files(&common::reference_dir().join("v1-examples"))
}

#[test]
fn reference_examples_run_the_same_pods_at_every_release() {
    let files = reference_examples();
    assert!(!files.is_empty(), "no reference examples under {}", common::reference_dir().display());
    let mut all = Vec::new();
    for release in RELEASES.iter().copied() {
        let (compared, lines) = unexplained(&files, release);
        assert!(compared > 0, "nothing converted at {}", release.line);
        all.extend(lines);
    }
    assert!(all.is_empty(), "{} unexplained pod differences:\n{}", all.len(), all.join("\n"));
}

#[test]
fn real_v1_jobs_run_the_same_pods_at_every_release() {
    let files = yaml_files(&real_v1_dir());
    assert!(files.len() >= 29, "the 29 public V1 manifests are in {}", real_v1_dir().display());
    let mut all = Vec::new();
    for release in RELEASES.iter().copied() {
        all.extend(unexplained(&files, release).1);
    }
    assert!(all.is_empty(), "{} unexplained pod differences:\n{}", all.len(), all.join("\n"));
}

/// CoreWeave's MPIJob asks for 8 GPUs, 90 CPUs and 700G on each worker. Read independently from
/// `explain`'s own view of the conversion: wherever Trainer puts those requests, a pod whose
/// resources differ from its V1 role's has an unexplained `resources` difference saying so.
#[test]
fn the_comparison_flags_resources_that_land_on_another_pod() {
    use explorer_core::explain::read::explain_text;
    let path = real_v1_dir().join("13-coreweave-imagenet-mpijob.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let m = migrate_to(&text, NEWEST).unwrap();
    let d = m.docs.iter().find(|d| matches!(d.outcome, Outcome::Written { .. })).expect("converted");
    let c = for_document(d, NEWEST).unwrap().unwrap();
    assert!(c.differences.iter().filter(|d| d.field == "resources").all(|d| !d.explained()), "{c:#?}");
    // explain's own answer for the V2 objects: the GPUs each replicatedJob asks for.
    let yaml = m.output_yaml();
    let e = explain_text(&yaml, NEWEST).unwrap();
    let gpus = |rjob: &str| {
        e.pods.iter().find(|p| p.replicated_job == rjob).and_then(|p| {
            let node = p.containers.iter().find(|c| c.name == "node")?;
            node.resources.as_ref()?.limits.get("nvidia.com/gpu").map(|v| format!("{v:?}"))
        })
    };
    let flagged = |role: &str| c.differences.iter().any(|d| d.role == role && d.field == "resources" && !d.explained());
    // V1: the launcher asks for no GPU, each worker for 8.
    assert_eq!(gpus("launcher").is_some(), flagged("Launcher → launcher"), "launcher: {:?}", gpus("launcher"));
    assert_eq!(gpus("node").is_none(), flagged("Worker → node"), "node: {:?}", gpus("node"));
}

/// The report says what changes for the pods from the comparison itself: every difference the
/// comparison finds, for the real jobs and the reference examples, is a report line naming its
/// role, field and reason; and an env entry names the V1 variable, what V2 sets instead, and
/// how the values relate.
#[test]
fn the_report_states_every_pod_difference_with_its_reason() {
    let mut files = yaml_files(&real_v1_dir());
    files.extend(reference_examples());
    let (mut said, mut missing, mut renames) = (0, Vec::new(), 0);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let Ok(m) = migrate_to(&text, NEWEST) else { continue };
        let report = m.report_text();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        for d in &m.docs {
            let Some(Ok(c)) = for_document(d, NEWEST) else { continue };
            for diff in &c.differences {
                let reason = diff.reason.as_deref().unwrap_or_default();
                let head = format!("  pod      {} {}: ", diff.role, diff.field);
                match report.lines().find(|l| l.starts_with(&head) && l.ends_with(&format!("({reason})"))) {
                    Some(_) => said += 1,
                    None => missing.push(format!("{name}: {}", line(diff))),
                }
                if let Some(r) = &diff.rename {
                    renames += 1;
                    let named = diff.field.ends_with(&format!("env.{}", r.v1))
                        && r.v2.iter().all(|(v2, value)| reason.contains(&format!("{v2}={value}")))
                        && reason.contains(&r.relation);
                    assert!(
                        named,
                        "{name}: {} does not name V1's variable, V2's and their relation: {reason}",
                        diff.field
                    );
                }
            }
        }
    }
    assert!(missing.is_empty(), "{} differences the report does not state:\n{}", missing.len(), missing.join("\n"));
    assert!(said > 100 && renames > 20, "only {said} differences, {renames} renames compared");
}

/// The widget's "What changes for your pods" (the converter module's HTML): each V1 role has its
/// heading, every difference its reason, and the variables V2 replaces (which its pods lack) sit
/// in a table with the V1 value, what V2 sets instead and how they relate.
#[test]
fn the_pods_view_shows_each_role_every_reason_and_the_env_renames_as_a_table() {
    let text = std::fs::read_to_string(real_v1_dir().join("14-coreweave-imagenet-pytorchjob.yaml")).unwrap();
    let m = migrate_to(&text, NEWEST).unwrap();
    let html = explorer_html::migrate_view::pods_html(&m, &explorer_core::migrate::pods::explained_documents(&m));
    let escaped = |s: &str| {
        let mut out = String::new();
        explorer_html::highlight::push_escaped_html(&mut out, s);
        out
    };
    let c = for_document(&m.docs[0], NEWEST).unwrap().unwrap();
    for role in &c.roles {
        assert!(
            html.contains(&format!("<p class=\"pods-h5\" role=\"heading\" aria-level=\"5\">{}</p>", escaped(role))),
            "no heading for {role}"
        );
    }
    for d in c.differences.iter().filter(|d| d.rename.is_none()) {
        assert!(html.contains(&escaped(d.reason.as_deref().unwrap())), "{} {} has no reason shown", d.role, d.field);
    }
    assert!(!html.contains("unexplained"));
    // AWS's elastic PyTorchJob: its etcd rendezvous has no V2 counterpart, a row of the table.
    let (_, html, _) = compared("07-awsdoeks-imagenet-elastic-etcd.yaml");
    let backend =
        "<tr><th scope=\"row\"><code>PET_RDZV_BACKEND</code></th><td data-label=\"V1 value\"><code>etcd</code></td>\
                   <td data-label=\"V2 sets instead\"><span class=\"none\">nothing</span></td>";
    assert!(html.contains(backend), "no PET_RDZV_BACKEND row for the Worker: {html}");
}

/// The differences of a real job, grouped as the views show them.
fn compared(file: &str) -> (explorer_core::migrate::pods::PodComparison, String, String) {
    let text = std::fs::read_to_string(real_v1_dir().join(file)).unwrap();
    let m = migrate_to(&text, NEWEST).unwrap();
    let html = explorer_html::migrate_view::pods_html(&m, &explorer_core::migrate::pods::explained_documents(&m));
    (for_document(&m.docs[0], NEWEST).unwrap().unwrap(), html, m.report_text())
}

/// AWS's MNIST PyTorchJob (aws-samples/aws-do-eks): the Worker's required podAffinity is lost,
/// because V2 runs the Master's template on every node. The comparison says it as a scheduling
/// change, in words, first and marked; the field report says it once, in the same words, not
/// leaf by leaf ("the Master's key is none").
#[test]
fn a_dropped_pod_affinity_is_a_scheduling_change_said_in_words() {
    use explorer_core::migrate::pods::Concern;
    let (c, html, report) = compared("08-awsdoeks-mnist-master-worker.yaml");
    let rule =
        "must run in the same zone (topology.kubernetes.io/zone) as pods with app in (mnist) (required pod affinity)";
    let affinity = c.differences.iter().find(|d| d.role == "Worker → node" && d.field == "affinity").unwrap();
    assert_eq!(affinity.concern, Concern::Scheduling);
    assert_eq!(affinity.terms, [format!("dropped: {rule}")]);
    // The Master now gets the Worker's CPUs: a resources change, in words.
    let cpus = c.differences.iter().find(|d| d.role == "Master → node" && d.field == "resources").unwrap();
    assert_eq!(
        (cpus.concern, cpus.terms.as_slice()),
        (Concern::Resources, &["added: cpu request 4".to_string(), "added: cpu limit 4".into()][..])
    );
    // In the view: the behaviour group comes before the bookkeeping, and holds the rule in words.
    let (behaviour, bookkeeping) = (html.find("pods-behaviour").unwrap(), html.find("pods-bookkeeping").unwrap());
    let said = html.find(&format!("<li>dropped: {}</li>", rule)).unwrap();
    assert!(behaviour < said && said < bookkeeping, "the dropped affinity is not in the first group");
    assert!(html.contains("<span class=\"pods-tag pods-tag-scheduling\">scheduling</span>"));
    // The field report: one line for the affinity, no leaf is "none".
    assert!(!report.contains(" is none"), "{report}");
    let line = report.lines().find(|l| l.contains("Worker.template.spec.affinity (")).unwrap();
    assert!(line.contains(rule) && line.contains("the Master's, which has no affinity"), "{line}");
    assert!(report.contains(&format!("  rule     Worker → node affinity: dropped: {rule}")), "{report}");
}

/// CoreWeave's ImageNet PyTorchJob: its 9 differences in training.kubeflow.org/* labels are the
/// operators' bookkeeping, folded under one count with their reason said once; what changes how
/// the pods run (the command, the variables the code reads) comes first.
#[test]
fn the_operators_labels_fold_under_one_count_and_behaviour_comes_first() {
    use explorer_core::migrate::pods::Concern;
    let (c, html, _) = compared("14-coreweave-imagenet-pytorchjob.yaml");
    let bookkeeping: Vec<&str> =
        c.differences.iter().filter(|d| d.concern == Concern::Bookkeeping).map(|d| d.field.as_str()).collect();
    assert_eq!(bookkeeping.len(), 9, "{bookkeeping:?}");
    assert!(bookkeeping.iter().all(|f| f.starts_with("labels.training.kubeflow.org/")), "{bookkeeping:?}");
    let concerns = |k: Concern| c.differences.iter().filter(|d| d.concern == k).count();
    assert_eq!((concerns(Concern::Command), concerns(Concern::Environment)), (2, 12));
    assert_eq!(concerns(Concern::Plumbing), 1, "init-pytorch");
    assert!(
        html.contains("<strong>what changes how the pods run, 14</strong>; plumbing V2 does its own way, 1;"),
        "{html}"
    );
    assert!(html.contains("The operators' bookkeeping <span class=\"pods-count\">(9)</span>"));
    // The label reason once, where it was nine times. Each label may break after its dots and
    // slashes on a phone (highlight::push_breakable), never inside a word.
    assert_eq!(html.matches("set by the V1 operator to find its pods").count(), 1);
    assert!(html.contains(
        "<li><code>labels.<wbr>training.<wbr>kubeflow.<wbr>org/<wbr>job-name</code> <span class=\"pods-roles\">Master, Worker</span></li>"
    ));
    let (behaviour, command) = (html.find("pods-behaviour").unwrap(), html.find("pods-tag-command").unwrap());
    assert!(behaviour < command && command < html.find("pods-bookkeeping").unwrap());
}

/// CoreWeave's ImageNet MPIJob: V1 hid the node's GPUs from the launcher (NVIDIA_VISIBLE_DEVICES
/// empty), V2 does not. That is a resources change, not bookkeeping; and over every real job,
/// only an explained operator label or annotation is bookkeeping, and nothing unexplained is
/// folded away.
#[test]
fn the_launcher_seeing_the_gpus_is_a_resources_change_and_only_operators_labels_fold() {
    use explorer_core::migrate::pods::Concern;
    let (c, _, _) = compared("13-coreweave-imagenet-mpijob.yaml");
    let gpus = c.differences.iter().find(|d| d.field == "env.NVIDIA_VISIBLE_DEVICES").unwrap();
    assert_eq!((gpus.role.as_str(), gpus.concern), ("Launcher → launcher", Concern::Resources));
    let mut folded = 0;
    for f in yaml_files(&real_v1_dir()) {
        let Ok(m) = migrate_to(&std::fs::read_to_string(&f).unwrap(), NEWEST) else { continue };
        for d in &m.docs {
            let Some(Ok(c)) = for_document(d, NEWEST) else { continue };
            for diff in &c.differences {
                if !diff.concern.changes_behaviour() {
                    folded += 1;
                    assert!(diff.explained(), "{f:?}: {} folded without a reason", line(diff));
                }
                if diff.concern == Concern::Bookkeeping {
                    assert!(
                        diff.field.starts_with("labels.") || diff.field.starts_with("annotations."),
                        "{}",
                        line(diff)
                    );
                }
            }
        }
    }
    assert!(folded > 100, "only {folded} differences folded over the real jobs");
}

/// A label or annotation only V2's pods carry gets the reason Trainer's code gives it, cited at
/// the target release: here a runtime (the release's own torch-distributed, renamed) whose pod
/// template adds a label and whose podGroupPolicy is coscheduling, so the plugin labels every pod
/// with its PodGroup (coscheduling.go:101 @v2.0.1, :89 after).
#[test]
fn a_label_only_v2_pods_carry_gets_trainers_reason() {
    use explorer_core::migrate::pods::compare_explained;
    let v1 = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: gang}\nspec:\n  pytorchReplicaSpecs:\n    \
              Master:\n      replicas: 1\n      template:\n        spec:\n          containers:\n            - name: pytorch\n              \
              image: docker.io/example/train:1\n";
    for &release in RELEASES {
        let m = migrate_to(v1, release).unwrap();
        let d = &m.docs[0];
        let Outcome::Written { objects, .. } = &d.outcome else { panic!("{}: not written", release.tag) };
        let mut job = objects.iter().find(|o| o["kind"] == "TrainJob").expect("a TrainJob").clone();
        job["spec"]["runtimeRef"]["name"] = "torch-gang".into();
        job["spec"]["runtimeRef"]["kind"] = "ClusterTrainingRuntime".into();
        let text = common::read_reference(&format!("v2-runtimes/{}/torch_distributed.yaml", release.tag));
        let mut runtime = common::yaml_docs(&text).remove(0);
        runtime["metadata"]["name"] = "torch-gang".into();
        runtime["spec"]["podGroupPolicy"] = serde_json::json!({"coscheduling": {"scheduleTimeoutSeconds": 60}});
        let rjobs = runtime["spec"]["template"]["spec"]["replicatedJobs"].as_array_mut().unwrap();
        let node = rjobs.iter_mut().find(|r| r["name"] == "node").unwrap();
        node["template"]["spec"]["template"]["metadata"] = serde_json::json!({"labels": {"example.com/team": "ml"}});
        let compared = compare_explained(d.source.as_ref().unwrap(), &[runtime, job], release);
        let c = compared.comparison.unwrap();
        let reason = |field: &str| {
            let d = c.differences.iter().find(|d| d.field == field).unwrap_or_else(|| panic!("{field}: {c:#?}"));
            assert_eq!(d.v1, None, "{d:?}");
            d.reason.clone().unwrap_or_else(|| panic!("{} {field}: unexplained", release.tag))
        };
        let group = reason("labels.scheduling.x-k8s.io/pod-group");
        let line = if release.tag == "v2.0.1" { "coscheduling.go:101" } else { "coscheduling.go:89" };
        assert!(group.contains(line) && group.contains(&format!("@{}", release.tag)), "{group}");
        let team = reason("labels.example.com/team");
        assert!(team.contains("pod template of the runtime \"torch-gang\""), "{team}");
    }
}

/// A variable V1's operator set that the V2 pods still have (the migrated TrainJob's
/// `spec.trainer.env` sets MASTER_ADDR, MASTER_PORT and RANK for code that reads the V1 names;
/// Trainer's torch plugin sets PET_MASTER_PORT) is the same variable with a new value, among the
/// changes to how the pods run; the table of variables V2 replaces holds only those the V2 pods
/// lack. Checked on CoreWeave's ImageNet PyTorchJob, then over every real job and example.
#[test]
fn a_variable_the_v2_pods_still_have_is_a_new_value_not_a_replacement() {
    use explorer_core::migrate::pods::Concern;
    let (c, html, report) = compared("14-coreweave-imagenet-pytorchjob.yaml");
    let port = c.differences.iter().find(|d| d.role == "Worker → node" && d.field == "env.MASTER_PORT").unwrap();
    assert_eq!(
        (port.v1.as_deref(), port.v2.as_deref(), port.concern, port.rename.is_none()),
        (Some("23456"), Some("29500"), Concern::Environment, true),
        "{port:?}"
    );
    let reason = port.reason.as_deref().unwrap();
    assert!(reason.starts_with("same variable, new value: "), "{reason}");
    assert!(reason.contains("spec.trainer.env sets it for code that reads the V1 name"), "{reason}");
    let plugin = c.differences.iter().find(|d| d.role == "Worker → node" && d.field == "env.PET_MASTER_PORT").unwrap();
    assert!(plugin.rename.is_none(), "{plugin:?}");
    assert!(plugin.reason.as_deref().unwrap().contains("set by Trainer's torch plugin"), "{plugin:?}");
    for name in ["MASTER_ADDR", "MASTER_PORT", "RANK", "PET_MASTER_PORT"] {
        assert!(!html.contains(&format!("<tr><th scope=\"row\"><code>{name}</code>")), "{name} is in the table");
    }
    assert!(!html.contains("Variables V1 set that V2 replaces"), "{html}");
    assert!(
        report.contains(&format!("  pod      Worker → node env.MASTER_PORT: 23456 -> 29500 ({reason})")),
        "{report}"
    );
    // Every job: a variable in the table is one the V2 pod does not have.
    let mut files = yaml_files(&real_v1_dir());
    files.extend(reference_examples());
    let mut replaced = 0;
    for f in &files {
        let Ok(m) = migrate_to(&std::fs::read_to_string(f).unwrap(), NEWEST) else { continue };
        for d in &m.docs {
            let Some(Ok(c)) = for_document(d, NEWEST) else { continue };
            for diff in c.differences.iter().filter(|d| d.rename.is_some()) {
                replaced += 1;
                assert_eq!(diff.v2, None, "{f:?}: {} is in the table, yet the V2 pod has it", line(diff));
            }
        }
    }
    assert!(replaced > 5, "only {replaced} replaced variables over the real jobs");
}

//! The real V1 corpus: public Training Operator and MPI Operator manifests nobody on this project
//! wrote (`$TRAINER_REAL_V1`, default `../shared/real-v1`; line 1 of each names its source).
//! For every `--target` release, each document converts to objects that validate strictly
//! against that release's CRDs with a report whose every claim holds, or is refused with a
//! reason that names what V2 lacks; nothing from `kubeflow.org` passes through unchanged. The
//! resources of each V1 pod land on the V2 pods that take its place, as `explain` (the Trainer
//! controller's rules) builds them.
//!
//! Each file is its own test, named `real_v1/<file>` (libtest-mimic, `harness = false`), whose
//! failure starts with the file's source: `cargo test -p explorer-core --test real_v1 -- 07-` runs one. A whole run
//! also checks that enough pods and variables were compared across the corpus (`Totals`).
// The browser tests build every test target for wasm32, where this one is empty.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))] // Native: reads the corpus from disk.

use explorer_judges as common;

use explorer_core::explain::read::explain_text;
use explorer_core::migrate::{migrate_to, Outcome};
use explorer_core::model::Value as Tree;
use explorer_core::snippets::runtimes::builtin_runtimes_of;
use explorer_core::yaml;
use explorer_data::releases::{Release, RELEASES};
use explorer_judges::claims::migrate::false_claims_for;
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// What the per-file tests compared, summed over the corpus: a whole run that compared too few
/// has passed vacuously.
#[derive(Default)]
struct Totals {
    pods: AtomicUsize,
    explained: AtomicUsize,
    variables: AtomicUsize,
}

fn main() {
    let args = Arguments::from_args();
    let totals = Arc::new(Totals::default());
    let mut trials = vec![
        Trial::test("corpus_is_the_table", corpus_is_the_table),
        Trial::test("references_are_what_kubernetes_expands", references_are_what_kubernetes_expands),
    ];
    for ((file, text), (_, expected)) in corpus().into_iter().zip(EXPECTED) {
        let totals = Arc::clone(&totals);
        trials.push(Trial::test(format!("real_v1/{file}"), move || {
            let problems = file_problems(&file, &text, expected, &totals);
            if problems.is_empty() {
                return Ok(());
            }
            let source = text.lines().next().unwrap_or_default();
            Err(format!("{source}\n{} problems:\n{}", problems.len(), problems.join("\n")).into())
        }));
    }
    // Only a whole run counts: a filtered run or `--list` (which runs nothing) has no totals.
    let whole = !args.list && args.filter.is_none() && args.skip.is_empty();
    let conclusion = libtest_mimic::run(&args, trials);
    if whole && !conclusion.has_failed() {
        let (pods, explained, variables) = (
            totals.pods.load(Ordering::Relaxed),
            totals.explained.load(Ordering::Relaxed),
            totals.variables.load(Ordering::Relaxed),
        );
        assert!(pods > 50, "only {pods} pods compared");
        assert!(explained > 50, "only {explained} documents explained");
        assert!(variables >= 20, "only {variables} variables compared");
    }
    conclusion.exit();
}

/// Every check of one corpus file, for every release.
fn file_problems(file: &str, text: &str, expected: &[&str], totals: &Totals) -> Vec<String> {
    let mut problems = converts_or_is_refused_clearly(file, text, expected);
    problems.extend(generated_runtimes_hold_only_the_security_settings_the_job_had(file, text));
    let (pods, more) = every_v1_pods_resources_land_on_the_v2_pods_that_replace_it(file, text);
    totals.pods.fetch_add(pods, Ordering::Relaxed);
    problems.extend(more);
    let (explained, more) = every_variable_a_v2_container_expands_is_set_in_that_container(file, text);
    totals.explained.fetch_add(explained, Ordering::Relaxed);
    problems.extend(more);
    let (variables, more) = the_v1_operators_variables_hold_the_values_v2_gives_their_counterparts(file, text);
    totals.variables.fetch_add(variables, Ordering::Relaxed);
    problems.extend(more);
    problems
}

/// Every manifest of the corpus, by file name, with its text.
fn corpus() -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(common::real_v1_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    files.sort();
    assert!(files.len() >= 29, "the corpus holds {} manifests, expected 29", files.len());
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect()
}

/// What each document of a file becomes, in order, whatever the release: `converted`,
/// `refused` or `invalid` (each Training Operator or MPI Operator job), `kept` (any other
/// object, passed through). A JAXJob or XGBoostJob before its runtime arrived reads `refused`
/// in those releases; `expected_outcomes` allows that.
const EXPECTED: &[(&str, &[&str])] = &[
    ("01-kueue-pytorchjob.yaml", &["converted"]),
    ("02-kueue-jaxjob.yaml", &["converted"]),
    ("03-kueue-xgboostjob.yaml", &["converted"]),
    ("04-kueue-mpijob-v2beta1.yaml", &["converted"]),
    ("05-kueue-tfjob.yaml", &["converted"]),
    ("06-kueue-paddlejob.yaml", &["converted"]),
    ("07-awsdoeks-imagenet-elastic-etcd.yaml", &["converted"]),
    ("08-awsdoeks-mnist-master-worker.yaml", &["converted"]),
    ("09-awsdoeks-gpu-profile-mpijob.yaml", &["converted"]),
    ("10-awsdoeks-nccl-efa-v1alpha2.yaml", &["refused"]),
    ("11-mpioperator-pi-intel.yaml", &["refused"]),
    ("12-mpioperator-tf-benchmarks.yaml", &["converted"]),
    ("13-coreweave-imagenet-mpijob.yaml", &["converted"]),
    ("14-coreweave-imagenet-pytorchjob.yaml", &["converted"]),
    ("15-deepops-roce-mpijob-v1.yaml", &["converted"]),
    ("16-kfexamples-tfjob-gpu.yaml", &["converted"]),
    ("17-kfmanifests-training-operator-job.yaml", &["converted"]),
    ("18-awsome-imagenet-team-a-multidoc.yaml", &["kept", "kept", "converted"]),
    ("19-awsome-vjepa2-benchmark.yaml", &["converted"]),
    ("20-awsome-qwen3-qlora-rendered.yaml", &["converted"]),
    ("21-awsome-nccl-tests-mpijob.yaml", &["converted"]),
    ("22-kai-pytorch-job.yaml", &["converted"]),
    ("23-kai-pytorch-elastic.yaml", &["converted"]),
    ("24-yunikorn-mpijob-pi.yaml", &["converted"]),
    ("25-yunikorn-tfjob-ps.yaml", &["converted"]),
    ("26-oci-rccl-mi300x-multidoc.yaml", &["kept", "kept", "kept", "converted"]),
    ("27-voyager-gaudi-resnet-mpijob.yaml", &["converted"]),
    ("28-jaxtoolbox-nccl-mpijob-suspended.yaml", &["converted"]),
    ("29-awsome-llama3-fsdp-unrendered.yaml", &["invalid"]),
];

fn outcome_name(o: &Outcome) -> &'static str {
    match o {
        Outcome::Written { .. } => "converted",
        Outcome::Refused { .. } => "refused",
        Outcome::Invalid { .. } => "invalid",
        Outcome::PassedThrough { .. } => "kept",
    }
}

/// What a refusal or an invalid document must say for this corpus: the thing V2 lacks, named.
fn clear_reason(source: Option<&Value>, message: &str, release: &Release) -> Result<(), String> {
    let api = source.and_then(|s| s["apiVersion"].as_str()).unwrap_or_default();
    let kind = source.and_then(|s| s["kind"].as_str()).unwrap_or_default();
    let imp = source.and_then(|s| s.pointer("/spec/mpiImplementation")).and_then(Value::as_str);
    let must_say: Vec<String> = match (api, kind, imp) {
        (_, "TFJob" | "PaddleJob", _) => vec![release.tag.into(), "Training Operator v1.9".into()],
        ("kubeflow.org/v1alpha2" | "kubeflow.org/v1alpha1" | "kubeflow.org/v1beta1", _, _) => {
            vec![api.into(), "Rewrite".into()]
        }
        (_, "MPIJob", Some(imp)) if imp != "OpenMPI" => vec![imp.into(), "OpenMPI".into()],
        (_, "JAXJob" | "XGBoostJob", _) => vec![release.tag.into(), "--target".into()],
        _ if message.contains('$') => vec!["template".into(), "render".into()],
        _ => vec!["<no refusal expected>".into()],
    };
    match must_say.iter().find(|s| !message.contains(s.as_str())) {
        Some(missing) => Err(format!("the message does not say {missing:?}: {message}")),
        None => Ok(()),
    }
}

/// Every value under a `securityContext` key in `v`.
fn security_contexts<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                if k == "securityContext" {
                    out.push(child);
                }
                security_contexts(child, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|i| security_contexts(i, out)),
        _ => {}
    }
}

fn generated_runtimes_hold_only_the_security_settings_the_job_had(file: &str, text: &str) -> Vec<String> {
    // The runtime template's uid and fsGroup 1000 are a demo image's; these jobs run mpirun as
    // root with their keys in /root/.ssh.
    let mut problems = Vec::new();
    for release in RELEASES {
        let Ok(m) = migrate_to(text, *release) else { continue };
        for d in m.docs {
            let Outcome::Written { objects, .. } = &d.outcome else { continue };
            let mut had = Vec::new();
            security_contexts(d.source.as_ref().unwrap(), &mut had);
            for o in objects.iter().filter(|o| o["kind"] != "TrainJob") {
                let mut written = Vec::new();
                security_contexts(o, &mut written);
                for sc in written.into_iter().filter(|sc| !had.contains(sc)) {
                    problems.push(format!(
                        "{} {file} document {}: {} {} sets securityContext {sc}, which the job does not have",
                        release.tag, d.index, o["kind"], o["metadata"]["name"]
                    ));
                }
            }
        }
    }
    problems
}

fn corpus_is_the_table() -> Result<(), Failed> {
    let corpus = corpus();
    let names: Vec<&str> = corpus.iter().map(|(n, _)| n.as_str()).collect();
    let listed: Vec<&str> = EXPECTED.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, listed, "the corpus and this test's table list different files");
    Ok(())
}

fn converts_or_is_refused_clearly(file: &str, text: &str, expected: &[&str]) -> Vec<String> {
    let mut problems = Vec::new();
    for release in RELEASES {
        let m = match migrate_to(text, *release) {
            Ok(m) => m,
            Err(e) => {
                problems.push(format!("{} {file}: the input is refused as a whole: {e}", release.tag));
                continue;
            }
        };
        let got: Vec<&str> = m.docs.iter().map(|d| outcome_name(&d.outcome)).collect();
        let expected_here: Vec<&str> = m
            .docs
            .iter()
            .zip(expected.iter())
            .map(|(d, e)| match d.source.as_ref().and_then(|s| s["kind"].as_str()) {
                Some("JAXJob" | "XGBoostJob") if got_refused_before_runtime(d, release) => "refused",
                _ => e,
            })
            .collect();
        if got != expected_here || got.len() != expected.len() {
            problems.push(format!("{} {file}: outcomes {got:?}, expected {expected_here:?}", release.tag));
        }
        for d in &m.docs {
            let at = format!("{} {file} document {}", release.tag, d.index);
            match &d.outcome {
                Outcome::Written { objects, report, .. } => {
                    for o in objects {
                        if let Err(e) = common::validate_for(release, o) {
                            problems.push(format!("{at}: {} does not validate: {e}", o["kind"]));
                        }
                        // What the reader applies is the YAML text: it must read back the same.
                        let text = yaml::documents_text(&[Tree::from(o)]);
                        let back = common::yaml_docs(&text);
                        if let Err(e) = common::validate_for(release, &back[0]) {
                            problems.push(format!("{at}: {} as YAML does not validate: {e}", o["kind"]));
                        }
                    }
                    for p in false_claims_for(d.source.as_ref().unwrap(), objects, report, release) {
                        problems.push(format!("{at}: {p}"));
                    }
                    // An image with a `${VARIABLE}` (09's `${REGISTRY}/gpu-profile`) is pointed out.
                    for e in report.iter().filter(|e| e.from.ends_with(".image")) {
                        let image = image_at(d.source.as_ref().unwrap(), &e.from);
                        if image.is_some_and(|i| i.contains("${")) && !e.note.contains("unrendered template") {
                            problems.push(format!("{at}: {} holds {image:?} and the report does not say so", e.from));
                        }
                    }
                }
                Outcome::Refused { reason, .. } => {
                    if let Err(e) = clear_reason(d.source.as_ref(), &reason.to_string(), release) {
                        problems.push(format!("{at}: {e}"));
                    }
                }
                Outcome::Invalid { error } => {
                    if let Err(e) = clear_reason(d.source.as_ref(), &error.to_string(), release) {
                        problems.push(format!("{at}: {e}"));
                    }
                }
                Outcome::PassedThrough { object, .. } => {
                    let api = object["apiVersion"].as_str().unwrap_or_default();
                    if api.starts_with("kubeflow.org/") {
                        problems.push(format!("{at}: a {api} object passed through unchanged"));
                    }
                }
            }
        }
    }
    problems
}

/// The image at a report path (`spec.….containers[0].image`) of the V1 document.
fn image_at<'a>(source: &'a Value, path: &str) -> Option<&'a str> {
    let pointer: String = path
        .split('.')
        .map(|seg| match seg.split_once('[') {
            Some((name, index)) => format!("/{name}/{}", index.trim_end_matches(']')),
            None => format!("/{seg}"),
        })
        .collect();
    source.pointer(&pointer)?.as_str()
}

/// A JAXJob or XGBoostJob refused because the release predates its runtime.
fn got_refused_before_runtime(d: &explorer_core::migrate::DocResult, release: &Release) -> bool {
    use explorer_data::catalog::Framework;
    let framework = match d.source.as_ref().and_then(|s| s["kind"].as_str()) {
        Some("JAXJob") => Framework::Jax,
        _ => Framework::XgBoost,
    };
    release.builtin_for(framework).is_none()
}

/// Quantities compared by what they say: `2` and `"2"` are the same request.
fn quantities(v: Option<&Value>) -> Value {
    fn norm(v: &Value) -> Value {
        match v {
            Value::Number(n) => Value::String(n.to_string()),
            Value::Object(m) => Value::Object(
                m.iter()
                    .filter(|(_, v)| !matches!(v, Value::Object(o) if o.is_empty()))
                    .map(|(k, v)| (k.clone(), norm(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
    match v {
        None | Some(Value::Null) => Value::Object(Default::default()),
        Some(v) => norm(v),
    }
}

/// The V1 replica's main container's resources: the container the operator's kind names
/// (`pytorch`, `mpi`…), else the first.
fn v1_resources(replica: &Value, preferred: &[&str]) -> Value {
    let containers = replica.pointer("/template/spec/containers").and_then(Value::as_array);
    let main = containers.and_then(|cs| {
        cs.iter().find(|c| c["name"].as_str().is_some_and(|n| preferred.contains(&n))).or_else(|| cs.first())
    });
    quantities(main.and_then(|c| c.get("resources")))
}

/// The resources of the `node` container of one V2 pod group, as the controller builds it.
fn v2_resources(explained: &Value, group: &str) -> Option<Value> {
    let pods = explained["pods"].as_array()?;
    let pod = pods.iter().find(|p| p["replicatedJob"] == group)?;
    let node = pod["containers"].as_array()?.iter().find(|c| c["name"] == "node")?;
    Some(quantities(node.get("resources")))
}

/// Where V1 ran each replica, where V2 runs it: MPI's Worker on `node` and Launcher on
/// `launcher`; the other kinds' Worker (or Master when alone) on `node`.
fn role_pairs(kind: &str) -> &'static [(&'static str, &'static str)] {
    match kind {
        "MPIJob" => &[("Worker", "node"), ("Launcher", "launcher")],
        _ => &[("Worker", "node")],
    }
}

/// One converted document with what the Trainer controller of its release makes of it.
struct Explained<'a> {
    at: String,
    kind: &'a str,
    source: &'a Value,
    /// `explain`'s JSON: `pods[].containers[]` with command, args, env, resources.
    pods: Value,
}

/// Calls `check` with every converted document of the corpus, for every release, explained by
/// that release's controller rules (the output plus the release's built-in runtimes). A
/// document Trainer would reject is a problem in itself.
fn for_each_explained(
    file: &str,
    text: &str,
    mut check: impl FnMut(&Explained, &mut Vec<String>),
) -> (usize, Vec<String>) {
    let mut problems = Vec::new();
    let mut seen = 0;
    for release in RELEASES {
        let builtins: Vec<Tree> =
            builtin_runtimes_of(release).iter().map(|rt| Tree::from(&serde_json::to_value(rt).unwrap())).collect();
        let builtins_text = yaml::documents_text(&builtins);
        let m = migrate_to(text, *release).unwrap();
        for d in &m.docs {
            let Outcome::Written { objects, kind, .. } = &d.outcome else { continue };
            let at = format!("{} {file} document {}", release.tag, d.index);
            let trees: Vec<Tree> = objects.iter().map(Tree::from).collect();
            let input = format!("{}---\n{builtins_text}", yaml::documents_text(&trees));
            let pods = match explain_text(&input, *release) {
                Ok(e) => serde_json::to_value(e).unwrap(),
                Err(e) => {
                    problems.push(format!("{at}: explain fails: {e}"));
                    continue;
                }
            };
            // `rejected` lists every error the API server and webhook give; empty when admitted.
            if pods["rejected"].as_array().is_some_and(|errors| !errors.is_empty()) {
                problems.push(format!("{at}: Trainer rejects it: {}", pods["rejected"]));
                continue;
            }
            seen += 1;
            check(&Explained { at, kind, source: d.source.as_ref().unwrap(), pods }, &mut problems);
        }
    }
    (seen, problems)
}

fn every_v1_pods_resources_land_on_the_v2_pods_that_replace_it(file: &str, text: &str) -> (usize, Vec<String>) {
    let mut checked = 0;
    let (_, problems) = for_each_explained(file, text, |e, problems| {
        let specs = e
            .source
            .get("spec")
            .and_then(Value::as_object)
            .and_then(|s| s.iter().find(|(k, _)| k.ends_with("ReplicaSpecs")).map(|(_, v)| v.clone()))
            .unwrap_or_default();
        for (v1_role, v2_group) in role_pairs(e.kind) {
            let replica = match specs.get(*v1_role) {
                Some(r) => r,
                // A PyTorchJob with a Master only: the Master is the one node.
                None if *v1_role == "Worker" => match specs.get("Master") {
                    Some(r) => r,
                    None => continue,
                },
                None => continue,
            };
            let want = v1_resources(replica, &["pytorch", "mpi", "jax", "xgboost"]);
            checked += 1;
            match v2_resources(&e.pods, v2_group) {
                Some(got) if got == want => {}
                got => problems.push(format!(
                    "{}: the V1 {v1_role} asked for {want}, the V2 {v2_group} pods get {}",
                    e.at,
                    got.map_or("no pod".into(), |g| g.to_string())
                )),
            }
        }
    });
    (checked, problems)
}

/// The `$(NAME)` references Kubernetes expands in a command, arg or env value: a variable name
/// in `$(` `)`, not escaped as `$$(`.
fn references(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find("$(").map(|a| a + i) {
        let escaped = at > 0 && bytes[at - 1] == b'$';
        let rest = &text[at + 2..];
        let end = rest.find(')').unwrap_or(0);
        let name = &rest[..end];
        let valid = !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-');
        if valid && !escaped {
            out.push(name);
        }
        i = at + 2;
    }
    out
}

fn every_variable_a_v2_container_expands_is_set_in_that_container(file: &str, text: &str) -> (usize, Vec<String>) {
    // Kubernetes leaves `$(NAME)` as it is when the container has no NAME: torchrun would get
    // the text "$(WORLD_SIZE)" as its node count. V1's operator set MASTER_ADDR, WORLD_SIZE, RANK...
    for_each_explained(file, text, |e, problems| {
        for pod in e.pods["pods"].as_array().into_iter().flatten() {
            for c in pod["containers"].as_array().into_iter().flatten() {
                if c.get("envFrom").is_some() {
                    continue; // a Secret's or ConfigMap's keys are not known here
                }
                let env = c["env"].as_object().cloned().unwrap_or_default();
                let texts = c["command"].as_array().into_iter().chain(c["args"].as_array()).flatten();
                for text in texts.filter_map(Value::as_str) {
                    for name in references(text).into_iter().filter(|n| !env.contains_key(*n)) {
                        problems.push(format!(
                            "{}: {} {} expands $({name}), which it does not set",
                            e.at, pod["replicatedJob"], c["name"]
                        ));
                    }
                }
            }
        }
    })
}

/// V1 variables and the V2 ones Trainer sets with the same value, per kind: what Training
/// Operator v1.9 gave every pod (pytorch/envvar.go:43-127 only with a Master, xgboost.go:42-110,
/// jax/envvar.go:37-77) against the plugins' variables as `explain` builds them.
fn same_values(kind: &str, source: &Value) -> &'static [(&'static str, &'static str)] {
    let master = source.pointer("/spec/pytorchReplicaSpecs/Master").is_some();
    match kind {
        "PyTorchJob" if master => {
            &[("MASTER_ADDR", "PET_MASTER_ADDR"), ("MASTER_PORT", "PET_MASTER_PORT"), ("RANK", "PET_NODE_RANK")]
        }
        "XGBoostJob" => {
            &[("MASTER_ADDR", "DMLC_TRACKER_URI"), ("MASTER_PORT", "DMLC_TRACKER_PORT"), ("RANK", "DMLC_TASK_ID")]
        }
        "JAXJob" => &[("NUM_PROCESSES", "JAX_NUM_PROCESSES"), ("PROCESS_ID", "JAX_PROCESS_ID")],
        _ => &[],
    }
}

fn the_v1_operators_variables_hold_the_values_v2_gives_their_counterparts(
    file: &str,
    text: &str,
) -> (usize, Vec<String>) {
    // Code written for V1 reads RANK, WORLD_SIZE, PROCESS_ID...: the Kueue JAX sample's image
    // reads PROCESS_ID. Each must be there, with the value of the V2 variable of the same meaning.
    let mut checked = 0;
    let (_, problems) = for_each_explained(file, text, |e, problems| {
        let pairs = same_values(e.kind, e.source);
        for pod in e.pods["pods"].as_array().into_iter().flatten().filter(|p| p["replicatedJob"] == "node") {
            let Some(node) = pod["containers"].as_array().and_then(|cs| cs.iter().find(|c| c["name"] == "node")) else {
                continue;
            };
            let env = &node["env"];
            for (v1, v2) in pairs {
                checked += 1;
                if env[v1].is_null() || env[v1] != env[v2] {
                    problems.push(format!("{}: {v1} is {}, {v2} is {}", e.at, env[v1], env[v2]));
                }
            }
            if e.kind == "JAXJob" {
                let joined = format!(
                    "{}:{}",
                    env["COORDINATOR_ADDRESS"].as_str().unwrap_or("?"),
                    env["COORDINATOR_PORT"].as_str().unwrap_or("?")
                );
                if env["JAX_COORDINATOR_ADDRESS"] != Value::String(joined.clone()) {
                    problems.push(format!(
                        "{}: COORDINATOR_ADDRESS:PORT is {joined}, JAX_COORDINATOR_ADDRESS {}",
                        e.at, env["JAX_COORDINATOR_ADDRESS"]
                    ));
                }
            }
            let nodes = pod["count"].as_u64().unwrap_or(0);
            let world = match e.kind {
                // envvar.go:62-64: nodes times an integer nprocPerNode, else one per node.
                "PyTorchJob" if !pairs.is_empty() => {
                    let nproc = e
                        .source
                        .pointer("/spec/nprocPerNode")
                        .and_then(Value::as_str)
                        .and_then(|n| n.parse::<u64>().ok());
                    Some(("WORLD_SIZE", nodes * nproc.unwrap_or(1)))
                }
                "XGBoostJob" => Some(("WORLD_SIZE", nodes)),
                _ => None,
            };
            if let Some((name, want)) = world {
                if env[name] != Value::String(want.to_string()) {
                    problems.push(format!("{}: {name} is {}, V1 counted {want} pods", e.at, env[name]));
                }
            }
        }
    });
    (checked, problems)
}

fn references_are_what_kubernetes_expands() -> Result<(), Failed> {
    assert_eq!(references("--nnodes=$(WORLD_SIZE) $(RANK)"), ["WORLD_SIZE", "RANK"]);
    assert!(references("NP=$(($N*$G)) $(sed -n '$=' f) $$(ESCAPED)").is_empty());
    Ok(())
}

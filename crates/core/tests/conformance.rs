//! The conformance suite: `explain` against the cases of kubeflow/trainer's own tests, for every
//! release tag. Each file under `crates/core/tests/conformance/<tag>/<suite>/` is one upstream case: a first
//! YAML document `kind: UpstreamCase` that cites it (`tag:path:test name`) and gives the facts the
//! upstream test expects, then the TrainJob and the runtime it runs with (our own YAML; the
//! reader ignores the `UpstreamCase` document). `explain` runs on the whole file at the cited
//! release and its JSON, keyed by name (see `facts`), must hold every expected fact.
//!
//! A case whose facts `explain` cannot hold yet carries `gap: <reason>`: it is reported and must
//! still fail (a gap that starts holding is stale and fails the suite, so it is removed). The
//! cases left out because `explain` cannot express them are in `crates/core/tests/conformance/LEFT_OUT.md`.
//!
//! Each case is its own test, named `<tag>/<suite>/<file>` (libtest-mimic, `harness = false`):
//! `cargo test -p explorer-core --test conformance -- v2.3.0/plugin-torch/` runs one suite, and a failure names its
//! case and the upstream test it cites. After the run, the table of cases and facts held is printed.
// The browser tests build every test target for wasm32, where this one is empty.
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

use explorer_core::explain::read::explain_text;
use explorer_data::releases::{Release, RELEASES};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use explorer_judges as common;

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// Every case file, sorted, with its tag and suite (the two folders above it).
fn case_files() -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    for tag in sorted_entries(&cases_dir()).into_iter().filter(|p| p.is_dir()) {
        for suite in sorted_entries(&tag).into_iter().filter(|p| p.is_dir()) {
            for file in sorted_entries(&suite).into_iter().filter(|p| p.extension().is_some_and(|e| e == "yaml")) {
                out.push((file_name(&tag), file_name(&suite), file));
            }
        }
    }
    out
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

fn file_name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

fn release_of(tag: &str) -> Release {
    RELEASES.iter().copied().find(|r| r.tag == tag).unwrap_or_else(|| panic!("no release {tag}"))
}

/// The explanation's JSON with its lists keyed by name, the way the expectations are written:
/// `jobset.replicatedJobs.<name>`, `pods.<replicatedJob>.containers.<name>` (mounts as
/// `volumeMounts.<volume>: [paths]`), `pods.<replicatedJob>.spec.volumes.<name>`,
/// `objects.<Kind>/<name>` (with `dataKeys`, its data's and described keys sorted), and `admitted`.
fn facts(explanation: &Value) -> Value {
    let mut out = explanation.as_object().unwrap().clone();
    out.insert("admitted".into(), Value::Bool(explanation["rejected"] == Value::Array(vec![])));
    if let Some(Value::Object(jobset)) = out.get_mut("jobset") {
        if let Some(rjobs) = jobset.remove("replicatedJobs") {
            jobset.insert("replicatedJobs".into(), keyed(&rjobs, |rj| rj["name"].as_str().unwrap().to_string()));
        }
    }
    let mut pods = Map::new();
    for group in explanation["pods"].as_array().unwrap() {
        let mut group = group.as_object().unwrap().clone();
        let mut containers = Map::new();
        for c in group.remove("containers").unwrap().as_array().unwrap() {
            let mut c = c.as_object().unwrap().clone();
            let mut mounts: BTreeMap<String, Vec<Value>> = BTreeMap::new();
            if let Some(Value::Array(list)) = c.remove("volumeMounts") {
                for m in list {
                    let name = m["name"].as_str().unwrap().to_string();
                    mounts.entry(name).or_default().push(m["mountPath"].clone());
                }
            }
            c.insert("volumeMounts".into(), mounts.into_iter().map(|(k, v)| (k, Value::Array(v))).collect());
            containers.insert(c["name"].as_str().unwrap().to_string(), Value::Object(c));
        }
        group.insert("containers".into(), Value::Object(containers));
        if let Some(Value::Object(spec)) = group.get_mut("spec") {
            if let Some(volumes) = spec.remove("volumes") {
                spec.insert("volumes".into(), keyed(&volumes, |v| v["name"].as_str().unwrap().to_string()));
            }
        }
        pods.insert(group["replicatedJob"].as_str().unwrap().to_string(), Value::Object(group));
    }
    out.insert("pods".into(), Value::Object(pods));
    let mut objects =
        keyed(&explanation["objects"], |o| format!("{}/{}", o["kind"].as_str().unwrap(), o["name"].as_str().unwrap()));
    // `dataKeys`: the keys an object's data holds, sorted (upstream tests check some by key only).
    for object in objects.as_object_mut().unwrap().values_mut() {
        // The real object's keys: those whose content is written out and those only described.
        let mut keys: Vec<String> = ["data", "described"]
            .iter()
            .filter_map(|field| object[*field].as_object())
            .flat_map(|d| d.keys().cloned())
            .collect();
        keys.sort();
        object.as_object_mut().unwrap().insert("dataKeys".into(), keys.into());
    }
    out.insert("objects".into(), objects);
    Value::Object(out)
}

fn keyed(list: &Value, key: impl Fn(&Value) -> String) -> Value {
    Value::Object(list.as_array().unwrap().iter().map(|v| (key(v), v.clone())).collect())
}

/// Maps that must be equal as a whole (an extra key is a wrong fact): upstream's expected objects
/// list every env var, mount, volume, label and annotation, and a PodGroup's every resource.
const WHOLE: [&str; 6] = ["env", "volumeMounts", "volumes", "labels", "annotations", "minResources"];

/// Compares `expected` with `actual` at `path`; each leaf (and each key of a whole map) is one
/// fact. Returns (facts, the wrong ones).
fn compare(path: &str, expected: &Value, actual: &Value, wrong: &mut Vec<String>) -> usize {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            let mut n = 0;
            for (k, ev) in e {
                let at = format!("{path}.{k}");
                match a.get(k) {
                    Some(av) => n += compare(&at, ev, av, wrong),
                    None if ev.is_null() => n += 1,
                    None => {
                        n += 1;
                        wrong.push(format!("{at}: expected {ev}, missing"));
                    }
                }
            }
            let whole = WHOLE.iter().any(|w| path.ends_with(&format!(".{w}")));
            if whole {
                for (k, av) in a.iter().filter(|(k, _)| !e.contains_key(*k)) {
                    n += 1;
                    wrong.push(format!("{path}.{k}: not expected, got {av}"));
                }
            }
            n
        }
        // `{includes: [..]}`: the list holds these items in this order, next to each other, where
        // upstream tests the function that makes part of a list (torchtune's recipe and config in
        // the trainer's command); each item is one fact.
        (Value::Object(e), Value::Array(a)) if e.len() == 1 && e.contains_key("includes") => {
            let run = e["includes"].as_array().expect("includes: a list");
            if run.is_empty() || !a.windows(run.len()).any(|w| w == run.as_slice()) {
                wrong.push(format!("{path}: expected to include {}, got {actual}", e["includes"]));
            }
            run.len()
        }
        // `rejected`: as many errors, each holding the expected keys.
        (Value::Array(e), Value::Array(a)) if path.ends_with(".rejected") => {
            let mut n = 1;
            if e.len() != a.len() {
                wrong.push(format!("{path}: expected {} errors, got {}: {actual}", e.len(), a.len()));
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                n += compare(&format!("{path}[{i}]"), ev, av, wrong);
            }
            n
        }
        (Value::Number(e), Value::Number(a)) if e.as_f64() == a.as_f64() => 1,
        _ => {
            if expected != actual {
                wrong.push(format!("{path}: expected {expected}, got {actual}"));
            }
            1
        }
    }
}

struct Outcome {
    tag: String,
    suite: String,
    cite: String,
    gap: Option<String>,
    facts: usize,
    wrong: Vec<String>,
}

fn run_case(tag: &str, suite: &str, file: &Path) -> Outcome {
    let text = std::fs::read_to_string(file).unwrap();
    let docs = common::yaml_docs(&text);
    let case = &docs[0];
    let at = file.strip_prefix(cases_dir()).unwrap().display().to_string();
    assert_eq!(case["kind"], "UpstreamCase", "{at}: the first document must be the UpstreamCase");
    let cite = case["cite"].as_str().unwrap_or_else(|| panic!("{at}: no cite")).to_string();
    assert!(cite.starts_with(&format!("{tag}:")), "{at}: cites {cite}, not a case of {tag}");
    let expect = case.get("expect").unwrap_or_else(|| panic!("{at}: no expect"));
    let text = repeated(case, &text);
    let actual = match explain_text(&text, release_of(tag)) {
        Ok(e) => facts(&serde_json::to_value(&e).unwrap()),
        Err(message) => serde_json::json!({ "error": message.to_string() }),
    };
    let mut wrong = Vec::new();
    let facts = compare("", expect, &actual, &mut wrong);
    let gap = case.get("gap").and_then(Value::as_str).map(String::from);
    Outcome { tag: tag.into(), suite: suite.into(), cite, gap, facts, wrong }
}

/// The inputs with each `repeat:` placeholder of the case document replaced by its text repeated:
/// `repeat: {A_MIB: {text: a, times: 1048576}}` stands for upstream's `strings.Repeat("a", 1048576)`,
/// so a megabyte-long input is not stored in the repository.
fn repeated(case: &Value, text: &str) -> String {
    let Some(Value::Object(placeholders)) = case.get("repeat") else { return text.to_string() };
    // Only the inputs: the case document itself names the placeholders.
    let (head, inputs) = text.split_once("\n---\n").expect("a case file has inputs after its first document");
    let mut inputs = inputs.to_string();
    for (placeholder, spec) in placeholders {
        let piece = spec["text"].as_str().expect("repeat: text");
        let times = spec["times"].as_u64().expect("repeat: times") as usize;
        assert!(inputs.contains(placeholder.as_str()), "placeholder {placeholder} is not in the inputs");
        inputs = inputs.replace(placeholder.as_str(), &piece.repeat(times));
    }
    format!("{head}\n---\n{inputs}")
}

fn main() {
    let args = Arguments::from_args();
    let files = case_files();
    assert!(!files.is_empty(), "no cases under {}", cases_dir().display());
    // Each case runs once: its trial judges it and keeps its outcome for the table printed after.
    let outcomes: Arc<Mutex<Vec<Outcome>>> = Arc::default();
    let mut trials: Vec<Trial> = files
        .into_iter()
        .map(|(tag, suite, file)| {
            let name = format!("{tag}/{suite}/{}", file.file_stem().unwrap().to_string_lossy());
            let outcomes = Arc::clone(&outcomes);
            Trial::test(name, move || {
                let outcome = run_case(&tag, &suite, &file);
                let result = verdict(&outcome);
                outcomes.lock().unwrap().push(outcome);
                result
            })
        })
        .collect();
    trials.push(Trial::test("every_cite_names_an_upstream_test_case", every_cite_names_an_upstream_test_case));
    let conclusion = libtest_mimic::run(&args, trials);
    summary(&outcomes.lock().unwrap());
    conclusion.exit();
}

/// One case's verdict, naming the upstream test it cites: its facts hold, or it is a gap whose
/// facts still fail.
fn verdict(o: &Outcome) -> Result<(), Failed> {
    match (&o.gap, o.wrong.is_empty()) {
        (None, false) => Err(format!("{}\n    {}", o.cite, o.wrong.join("\n    ")).into()),
        (Some(gap), true) => Err(format!("{}: holds, but is marked as a gap ({gap}): remove the mark", o.cite).into()),
        _ => Ok(()),
    }
}

/// The table of the cases run (every one, unless filtered), by tag and suite: cases and facts
/// held, and the gaps.
fn summary(outcomes: &[Outcome]) {
    if outcomes.is_empty() {
        return;
    }
    let mut table: BTreeMap<(String, String), (usize, usize, usize, usize)> = BTreeMap::new();
    for o in outcomes {
        let row = table.entry((o.tag.clone(), o.suite.clone())).or_default();
        row.0 += 1;
        row.1 += usize::from(o.wrong.is_empty());
        row.2 += o.facts;
        row.3 += o.facts - o.wrong.len().min(o.facts);
    }
    println!("{:<8} {:<24} {:>5} {:>5} {:>7}", "tag", "suite", "cases", "hold", "facts");
    for ((tag, suite), (cases, hold, facts, held)) in &table {
        println!("{tag:<8} {suite:<24} {cases:>5} {hold:>5} {held:>3}/{facts:<3}");
    }
    for o in outcomes.iter().filter(|o| o.gap.is_some()) {
        println!("gap: {} ({}): {} wrong", o.cite, o.gap.as_deref().unwrap(), o.wrong.len());
    }
}

/// Every cite names a test case that exists in the upstream file at that tag, when the upstream
/// mirror is on this machine (`$TRAINER_MIRROR`, default /work/.mirror/kubeflow+trainer/repo).
fn every_cite_names_an_upstream_test_case() -> Result<(), Failed> {
    let mirror = std::env::var_os("TRAINER_MIRROR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/work/.mirror/kubeflow+trainer/repo"));
    if !mirror.is_dir() {
        println!("no upstream mirror at {}: cites not checked", mirror.display());
        return Ok(());
    }
    let left_out = std::fs::read_to_string(cases_dir().join("LEFT_OUT.md")).unwrap();
    let from_left_out = left_out.lines().filter_map(|l| l.strip_prefix("| `")?.split('`').next().map(String::from));
    let from_cases = case_files().into_iter().map(|(_, _, file)| {
        let docs = common::yaml_docs(&std::fs::read_to_string(file).unwrap());
        docs[0]["cite"].as_str().unwrap().to_string()
    });
    let mut missing = Vec::new();
    for cite in from_cases.chain(from_left_out) {
        let mut parts = cite.splitn(3, ':');
        let (tag, path, name) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap_or_default());
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(&mirror)
            .args(["show", &format!("{tag}:{path}")])
            .output()
            .unwrap();
        let source = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || !source.contains(&format!("\"{name}\"")) {
            missing.push(cite);
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("cites naming no upstream test case:\n{}", missing.join("\n")).into())
    }
}

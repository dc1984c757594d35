//! `trainer-explorer explain`: what the Trainer controller creates for a widget selection
//! (`--query`) or for the reader's own manifests (files), as JSON, YAML or text.
//!
//! Files: every TrainJob of the input is explained with the runtime it references (from the
//! input, else the release's built-in), every V1 job with what its operator runs; an input
//! holding runtimes only has each runtime judged as its creation would be. A refusal is an
//! answer like any other, in the output format asked for, and the exit code says it: 0 when
//! everything is admitted, 1 when something is refused, 2 when the input cannot be read or the
//! usage is wrong (validate's codes).
//!
//! The release: a query names it as the widget does (`release=v2.1`, the newest when absent);
//! for files, `--release vX.Y` (the newest by default). The manifests do not say which release
//! they are for (every release serves `trainer.kubeflow.org/v1alpha1`), and guessing from the
//! fields they use would explain a v2.3 TrainJob on v2.0 without a word; an explicit release
//! instead answers with the rejection that release's API server or webhook gives.

use super::inputs;
use clap::ValueEnum;
use explorer_core::explain::summary::{self, plain};
use explorer_core::explain::v1::V1Explanation;
use explorer_core::explain::{Explanation, Rejection};
use explorer_data::releases::{Release, NEWEST, RELEASES};
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
pub(super) enum ExplainFormat {
    Json,
    Yaml,
    /// A summary for people: the pods of each replicatedJob, as the explorer's page words them.
    Text,
}

/// The exit codes, as validate's.
const REFUSED: u8 = 1;
const UNREADABLE: u8 = 2;

/// A runtime alone, judged by the release.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuntimeVerdict {
    trainer: String,
    kind: String,
    name: String,
    /// Every error the API server gives on its creation; `[]` when it is valid.
    rejected: Vec<Rejection>,
}

/// What one document of the input is explained as.
#[derive(Serialize)]
#[serde(untagged)]
enum Answer {
    TrainJob(Box<Explanation>),
    V1(V1Explanation),
    Runtime(RuntimeVerdict),
}

impl Answer {
    fn rejected(&self) -> &[Rejection] {
        match self {
            Answer::TrainJob(e) => &e.rejected,
            Answer::V1(e) => &e.rejected,
            Answer::Runtime(r) => &r.rejected,
        }
    }

    /// The errors that come after admission (explain::after_admission): admitted, then failing.
    fn failing(&self) -> &[Rejection] {
        match self {
            Answer::TrainJob(e) => &e.fails_after_admission,
            Answer::V1(e) => &e.fails_after_admission,
            Answer::Runtime(_) => &[],
        }
    }
}

/// One explained document, with where it was.
struct Item {
    /// `file:line`, or nothing for a query.
    at: String,
    /// `Kind/name`.
    label: String,
    answer: Answer,
}

/// The explanation for the selection a widget URL query names, at the query's release.
pub(super) fn for_query(query: &str) -> Result<Explanation, String> {
    explorer_core::explain::selection::for_query(query).map_err(|e| e.to_string())
}

/// `--release v2.1` (or the full tag) as a release line.
pub(super) fn release_named(name: &str) -> Result<Release, String> {
    RELEASES.iter().copied().find(|r| r.line == name || r.tag == name).ok_or_else(|| {
        let lines: Vec<&str> = RELEASES.iter().map(|r| r.line).collect();
        format!("unknown release {name:?}: one of {}", lines.join(", "))
    })
}

/// How to pick another release, or that this one was picked.
pub(super) fn judged_note(release: Release) -> String {
    let lines: Vec<&str> = RELEASES.iter().map(|r| r.line).collect();
    if release.line == NEWEST.line {
        format!(" (the newest; --release {} for another)", lines.join(", "))
    } else {
        String::new()
    }
}

pub(super) fn render<T: serde::Serialize>(e: &T, format: ExplainFormat) -> Result<String, String> {
    match format {
        ExplainFormat::Json | ExplainFormat::Text => explorer_core::terminal::json_pretty(e).map_err(|e| e.to_string()),
        ExplainFormat::Yaml => {
            Ok(explorer_core::yaml::join(&explorer_core::yaml::emit(&explorer_core::model::to_value(e)))
                .trim_end()
                .to_string())
        }
    }
}

fn str_at<'v>(v: &'v Value, pointer: &str) -> &'v str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or_default()
}

/// Every document of the files (directories expanded), with `file:line`; `Err` is the line for
/// an input that cannot be read.
fn documents(files: &[PathBuf]) -> Result<Vec<(String, Value)>, String> {
    let (files, walk_errors) = inputs::expand(files);
    if let Some(e) = walk_errors.into_iter().next() {
        return Err(e);
    }
    let mut out = Vec::new();
    for path in &files {
        let file = path.display().to_string();
        let text = super::read_input(path).map_err(|e| format!("{file}: {e}"))?;
        let docs = explorer_core::pipeline::input::documents(&text).map_err(|e| format!("{file}: {e}"))?;
        for d in docs {
            let at = format!("{file}:{}", d.line);
            match d.value {
                Ok(v) if v.is_object() => out.push((at, v)),
                Ok(v) => {
                    let what = if v.is_array() { "a list" } else { "a scalar" };
                    return Err(format!("{at}: the document is {what}: a Kubernetes object is a mapping"));
                }
                Err(e) => return Err(format!("{at}: not valid YAML: {e}")),
            }
        }
    }
    Ok(out)
}

/// Each TrainJob and V1 job of the input explained, in order; or, when it holds neither, each
/// runtime judged.
fn explain_files(files: &[PathBuf], release: Release) -> Result<Vec<Item>, String> {
    use explorer_core::explain::{check_runtime, read, v1};
    let docs = documents(files)?;
    let is_runtime = |v: &Value| matches!(str_at(v, "/kind"), "TrainingRuntime" | "ClusterTrainingRuntime");
    let runtimes: Vec<&Value> = docs.iter().map(|(_, v)| v).filter(|v| is_runtime(v)).collect();
    let item = |at: &String, v: &Value, answer: Answer| Item {
        at: at.clone(),
        label: format!("{}/{}", str_at(v, "/kind"), str_at(v, "/metadata/name")),
        answer,
    };
    let mut items: Vec<Item> = docs
        .iter()
        .filter_map(|(at, v)| {
            if str_at(v, "/kind") == "TrainJob" {
                Some(item(at, v, Answer::TrainJob(Box::new(read::judge(v, &runtimes, release)))))
            } else if v1::is_v1_job(v) {
                Some(item(at, v, Answer::V1(v1::explain(v))))
            } else {
                None
            }
        })
        .collect();
    if items.is_empty() {
        items = docs
            .iter()
            .filter(|(_, v)| is_runtime(v))
            .map(|(at, v)| {
                let verdict = RuntimeVerdict {
                    trainer: release.tag.into(),
                    kind: str_at(v, "/kind").into(),
                    name: str_at(v, "/metadata/name").into(),
                    rejected: check_runtime(v, release),
                };
                item(at, v, Answer::Runtime(verdict))
            })
            .collect();
    }
    if items.is_empty() {
        return Err("no TrainJob, TrainingRuntime, ClusterTrainingRuntime or V1 job in the input".into());
    }
    Ok(items)
}

/// `-o text`: per document, its verdict and what runs; a refusal one line per error, as
/// `validate` prints them (`file:line: Kind/name: field: message`); the summary last.
fn text(items: &[Item], release: Option<Release>) -> String {
    let mut out = String::new();
    for item in items {
        let head = if item.at.is_empty() { item.label.clone() } else { format!("{}: {}", item.at, item.label) };
        if !item.answer.rejected().is_empty() {
            for r in item.answer.rejected() {
                let _ = writeln!(out, "{head}: {r}");
            }
            continue;
        }
        if !item.answer.failing().is_empty() {
            for r in item.answer.failing() {
                let _ = writeln!(out, "{head}: {}: {}", r.field(), r.reason());
            }
            continue;
        }
        match &item.answer {
            Answer::TrainJob(e) => {
                if let Some(manager) = &e.managed_by {
                    let _ = writeln!(
                        out,
                        "{head}: admitted by Trainer {}; spec.managedBy is {manager}: the Trainer controller leaves \
                         it to that controller and creates nothing",
                        e.trainer
                    );
                    continue;
                }
                let jobset = e.jobset.as_ref().map_or("", |j| j.name.as_str());
                let _ = writeln!(
                    out,
                    "{head}: admitted by Trainer {}: the controller creates the JobSet {jobset}",
                    e.trainer
                );
                if let Some(note) = &e.shipped_runtime {
                    let _ = writeln!(out, "  the runtime: {note}");
                }
                for group in &e.pods {
                    let _ = writeln!(out, "  {}", plain(&summary::pod_group(e, group)));
                    if let Some(job) = summary::replicated_job(e, group) {
                        let _ = writeln!(out, "    {}", plain(&summary::pod_group_details(job, group)));
                    }
                }
                for o in &e.objects {
                    let _ = writeln!(out, "  {} {}: by {}, {}", o.kind, o.name, o.created_by, o.when);
                }
            }
            Answer::V1(e) => {
                let _ = writeln!(out, "{head}: {} runs it", e.operator);
                for group in &e.pods {
                    let _ = writeln!(out, "  {}", plain(&summary::v1_pod_group(group)));
                    let _ = writeln!(out, "    hostnames {}", group.hostnames.join(", "));
                }
                for o in &e.objects {
                    let _ = writeln!(out, "  {} {}: by {}, {}", o.kind, o.name, o.created_by, o.when);
                }
            }
            Answer::Runtime(r) => {
                let _ = writeln!(out, "{head}: valid for Trainer {}", r.trainer);
            }
        }
    }
    let refused = items.iter().filter(|i| !i.answer.rejected().is_empty()).count();
    let failing = items.iter().filter(|i| !i.answer.failing().is_empty()).count();
    let judged = release.map_or(String::new(), |r| format!(" (Trainer {})", r.tag));
    let _ = write!(
        out,
        "Summary: {} explained{judged}: {} admitted, {refused} refused",
        items.len(),
        items.len() - refused - failing
    );
    if failing > 0 {
        let _ = write!(out, ", {failing} admitted then failing");
    }
    out
}

fn output(items: &[Item], format: ExplainFormat, release: Option<Release>) -> Result<String, String> {
    match (format, items) {
        (ExplainFormat::Text, _) => Ok(text(items, release)),
        (_, [one]) => render(&one.answer, format),
        _ => render(&items.iter().map(|i| &i.answer).collect::<Vec<_>>(), format),
    }
}

pub(super) fn run(query: Option<&str>, release: &str, files: &[PathBuf], format: ExplainFormat) -> ExitCode {
    let fail = |code: u8, e: String| {
        eprintln!("{}", super::shown(&format!("trainer-explorer: {}", e.replace('\n', " "))));
        ExitCode::from(code)
    };
    let (items, judged_by) = match query {
        Some(q) => match for_query(q) {
            Ok(e) => (
                vec![Item { at: String::new(), label: "TrainJob".into(), answer: Answer::TrainJob(Box::new(e)) }],
                None,
            ),
            Err(e) => return fail(UNREADABLE, e),
        },
        None => {
            let release = match release_named(release) {
                Ok(r) => r,
                Err(e) => return fail(UNREADABLE, e),
            };
            match explain_files(files, release) {
                Ok(items) => (items, Some(release)),
                Err(e) => return fail(UNREADABLE, e),
            }
        }
    };
    // Which release judged the files, since the files cannot say (see above); a V1 job alone
    // is its operator's.
    let v2 = items.iter().any(|i| !matches!(i.answer, Answer::V1(_)));
    if let Some(release) = judged_by.filter(|_| v2) {
        eprintln!("trainer-explorer: judged by Trainer {}{}", release.tag, judged_note(release));
    }
    match output(&items, format, judged_by.filter(|_| v2)).and_then(|out| super::print_output(&out)) {
        // A TrainJob admitted that then fails exits as a refused one: what it asks for never runs.
        Ok(()) if items.iter().any(|i| !i.answer.rejected().is_empty() || !i.answer.failing().is_empty()) => {
            ExitCode::from(REFUSED)
        }
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(UNREADABLE, e),
    }
}

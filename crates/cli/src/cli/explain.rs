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
use explorer_core::explain::read::is_train_job;
use explorer_core::explain::summary::{self, plain};
use explorer_core::explain::v1::V1Explanation;
use explorer_core::explain::{Explanation, Rejection};
use explorer_core::pipeline::input::{Accepted, RawDoc};
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

/// What the input holds to explain: each file as the input door accepted it, and what its
/// documents are (TrainJobs and V1 jobs, and runtimes), counted from their outlines; the other
/// documents are left out. The documents are read again, one at a time, when they are explained
/// (issue 36: 10,000 jobs are never held as 10,000 trees).
struct Found {
    /// Each file's name, its text when the door reads it again, and its documents.
    files: Vec<(String, Option<String>, Accepted)>,
    jobs: usize,
    runtimes: usize,
    /// Whether a job is a TrainJob.
    train_job: bool,
    /// Whether a runtime comes after a TrainJob: every TrainJob is judged with every runtime of
    /// the input, so the runtimes are then read before the first job is explained.
    runtime_after_train_job: bool,
    /// The first document whose kind is one of ours in another case (`PytorchJob`), where it
    /// is (`file:line`) and what the API server says of it: the did-you-mean of an input that
    /// holds nothing else to explain.
    misspelt: Option<String>,
}

fn is_runtime(v: &Value) -> bool {
    explorer_core::explain::read::is_runtime_kind(str_at(v, "/kind"))
}

fn is_job(v: &Value) -> bool {
    is_train_job(v) || explorer_core::explain::v1::is_v1_job(v)
}

/// `Kind: <the API server's error and the kind meant>` for a kind of ours in another case (the
/// outline holds no name).
fn misspelt_kind(v: &Value) -> Option<String> {
    let (kind, api_version) = (str_at(v, "/kind"), str_at(v, "/apiVersion"));
    let meant = explorer_data::served::misspelt_kind(api_version, kind)?;
    Some(format!("{kind}: {}", explorer_data::served::misspelt_kind_error(kind, api_version, meant)))
}

/// The files (directories expanded) read through the input door, and what they hold; `Err` is
/// the line for an input that cannot be read (`file:line` for a document) or holds nothing to
/// explain.
fn found_in(files: &[PathBuf]) -> Result<Found, String> {
    let (files, walk_errors) = inputs::expand(files);
    if let Some(e) = walk_errors.into_iter().next() {
        return Err(e);
    }
    let mut found = Found {
        files: Vec::new(),
        jobs: 0,
        runtimes: 0,
        train_job: false,
        runtime_after_train_job: false,
        misspelt: None,
    };
    for path in &files {
        let file = path.display().to_string();
        // The first document that is not a mapping, once the door accepts the file.
        let mut unreadable = None;
        let mut outline = |d: &RawDoc| {
            let at = || format!("{file}:{}", d.line);
            match &d.value {
                _ if unreadable.is_some() => {}
                Ok(v) if v.is_object() => {
                    if found.misspelt.is_none() {
                        found.misspelt = misspelt_kind(v).map(|error| format!("{}: {error}", at()));
                    }
                    found.count(v)
                }
                Ok(v) => {
                    let what = if v.is_array() { "a list" } else { "a scalar" };
                    unreadable = Some(format!("{}: the document is {what}: a Kubernetes object is a mapping", at()));
                }
                Err(e) => unreadable = Some(format!("{}: not valid YAML: {e}", at())),
            }
        };
        let read = super::accept_file(path, Some(&mut outline)).map_err(|e| format!("{file}: {e}"))?;
        if let Some(e) = unreadable {
            return Err(e);
        }
        found.files.push((file, read.text, read.accepted));
    }
    if found.jobs == 0 && found.runtimes == 0 {
        let nothing = "no TrainJob, TrainingRuntime, ClusterTrainingRuntime or V1 job in the input";
        return Err(match found.misspelt {
            Some(misspelt) => format!("{nothing}: {misspelt}"),
            None => nothing.into(),
        });
    }
    Ok(found)
}

impl Found {
    /// Counts a document (its outline: `kind` and `apiVersion` are its root's own).
    fn count(&mut self, v: &Value) {
        if is_job(v) {
            self.jobs += 1;
            self.train_job |= is_train_job(v);
        } else if is_runtime(v) {
            self.runtimes += 1;
            self.runtime_after_train_job |= self.train_job;
        }
    }

    /// How many answers it gives: one per job, or when it holds none, one per runtime.
    fn answers(&self) -> usize {
        if self.jobs == 0 {
            self.runtimes
        } else {
            self.jobs
        }
    }

    /// Whether a release judges any of it: a TrainJob or a runtime does, a V1 job is its
    /// operator's.
    fn judged_by_release(&self) -> bool {
        self.jobs == 0 || self.train_job
    }

    /// Each TrainJob and V1 job explained, in order (a TrainJob with the input's runtimes); or,
    /// when it holds neither, each runtime judged. Each answer is handed to `each` as it is made,
    /// and each document is read when its turn comes and dropped once answered: an input of
    /// 10,000 jobs is never held as 10,000 trees nor 10,000 explanations (issue 36). When a
    /// runtime comes after a TrainJob, the jobs are held until every runtime is read.
    fn explain_each(self, release: Release, mut each: impl FnMut(Item)) {
        let hold = self.runtime_after_train_job;
        let no_jobs = self.jobs == 0;
        let mut runtimes: Vec<Value> = Vec::new();
        let mut held = Vec::new();
        for (file, text, accepted) in self.files {
            // `found_in` found every document to be a mapping.
            for d in accepted.documents(text.as_deref().unwrap_or_default()) {
                let Ok(v) = d.value else { continue };
                let at = format!("{file}:{}", d.line);
                if is_job(&v) && hold {
                    held.push((at, v));
                } else if is_job(&v) {
                    each(explained(at, v, &runtimes, release));
                } else if is_runtime(&v) && no_jobs {
                    each(runtime_judged(at, &v, release));
                } else if is_runtime(&v) {
                    runtimes.push(v);
                }
            }
        }
        for (at, v) in held {
            each(explained(at, v, &runtimes, release));
        }
    }
}

/// A job explained: a TrainJob with `runtimes`, a V1 job as its operator runs it.
fn explained(at: String, v: Value, runtimes: &[Value], release: Release) -> Item {
    use explorer_core::explain::{read, v1};
    if is_train_job(&v) {
        let runtimes: Vec<&Value> = runtimes.iter().collect();
        let answer = Answer::TrainJob(Box::new(read::judge(&v, &runtimes, release)));
        return item(at, &v, answer);
    }
    // The job's tree goes to the explainer, which drops it before it makes the view.
    let label = label(&v);
    Item { at, label, answer: Answer::V1(v1::explain_owned(v)) }
}

/// A runtime judged as its creation would be.
fn runtime_judged(at: String, v: &Value, release: Release) -> Item {
    let verdict = RuntimeVerdict {
        trainer: release.tag.into(),
        kind: str_at(v, "/kind").into(),
        name: str_at(v, "/metadata/name").into(),
        rejected: explorer_core::explain::check_runtime(v, release),
    };
    item(at, v, Answer::Runtime(verdict))
}

fn item(at: String, v: &Value, answer: Answer) -> Item {
    Item { at, label: label(v), answer }
}

fn label(v: &Value) -> String {
    format!("{}/{}", str_at(v, "/kind"), str_at(v, "/metadata/name"))
}

/// `-o text` of one document: its verdict and what runs; a refusal one line per error, as
/// `validate` prints them (`file:line: Kind/name: field: message`).
fn item_text(item: &Item) -> String {
    let mut out = String::new();
    let head = if item.at.is_empty() { item.label.clone() } else { format!("{}: {}", item.at, item.label) };
    if !item.answer.rejected().is_empty() {
        for r in item.answer.rejected() {
            let _ = writeln!(out, "{head}: {r}");
        }
        return out;
    }
    if !item.answer.failing().is_empty() {
        for r in item.answer.failing() {
            let _ = writeln!(out, "{head}: {}: {}", r.field(), r.reason());
        }
        return out;
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
                return out;
            }
            let jobset = e.jobset.as_ref().map_or("", |j| j.name.as_str());
            let _ =
                writeln!(out, "{head}: admitted by Trainer {}: the controller creates the JobSet {jobset}", e.trainer);
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
    out
}

/// How many answers were admitted, refused, and admitted then failing.
#[derive(Default)]
struct Tally {
    answers: usize,
    /// Neither refused nor failing: counted as such, never as what the other counts leave (an
    /// answer both refused and failing would make that a wrapped number).
    admitted: usize,
    refused: usize,
    failing: usize,
}

impl Tally {
    fn add(&mut self, answer: &Answer) {
        let (refused, failing) = (!answer.rejected().is_empty(), !answer.failing().is_empty());
        self.answers += 1;
        self.admitted += usize::from(!refused && !failing);
        self.refused += usize::from(refused);
        self.failing += usize::from(failing);
    }

    /// `-o text`'s last line.
    fn summary(&self, release: Option<Release>) -> String {
        let judged = release.map_or(String::new(), |r| format!(" (Trainer {})", r.tag));
        let admitted = self.admitted;
        let mut out =
            format!("Summary: {} explained{judged}: {admitted} admitted, {} refused", self.answers, self.refused);
        if self.failing > 0 {
            let _ = write!(out, ", {} admitted then failing", self.failing);
        }
        out
    }
}

/// Standard output for an answer written as it is made. A reader that closed the pipe early has
/// all it wanted: the rest is not written, quietly, as `print_output` does; another write error
/// is the tool's failure, said at the end.
struct Stdout {
    out: std::io::BufWriter<std::io::StdoutLock<'static>>,
    failed: Option<std::io::Error>,
}

impl Stdout {
    fn new() -> Stdout {
        Stdout { out: std::io::BufWriter::new(std::io::stdout().lock()), failed: None }
    }

    /// `text` with every hidden character shown (`shown`), as `print_output` prints it.
    fn text(&mut self, text: &str) {
        use std::io::Write;
        if self.failed.is_none() {
            if let Err(e) = self.out.write_all(super::shown(text).as_bytes()) {
                self.failed = Some(e);
            }
        }
    }

    /// `value` as `render` writes it in JSON, and a line break.
    fn json(&mut self, value: &impl Serialize) -> Result<(), String> {
        if self.failed.is_some() {
            return Ok(());
        }
        match explorer_core::terminal::write_json_pretty(&mut self.out, value) {
            Ok(()) => self.text("\n"),
            Err(e) if e.is_io() => self.failed = Some(std::io::Error::from(e)),
            // A JSON value of ours always serializes.
            Err(e) => return Err(e.to_string()),
        }
        Ok(())
    }

    fn finish(mut self) -> Result<(), String> {
        use std::io::Write;
        super::stdout_ended(self.failed.take(), || self.out.flush())
    }
}

/// Writes the answers of `found` in `format` as each is made (`-o yaml` holds them all: the
/// emitter writes one tree), and tallies them.
fn write_answers(
    found: Found,
    release: Release,
    format: ExplainFormat,
    judged: Option<Release>,
) -> (Tally, Result<(), String>) {
    let mut tally = Tally::default();
    let mut result = Ok(());
    match format {
        ExplainFormat::Text => {
            let mut out = Stdout::new();
            found.explain_each(release, |item| {
                tally.add(&item.answer);
                out.text(&item_text(&item));
            });
            out.text(&tally.summary(judged));
            out.text("\n");
            result = out.finish();
        }
        ExplainFormat::Json if found.answers() == 1 => {
            let mut out = Stdout::new();
            found.explain_each(release, |item| {
                tally.add(&item.answer);
                result = out.json(&item.answer);
            });
            result = result.and(out.finish());
        }
        ExplainFormat::Json => {
            let mut out = super::JsonArray::new();
            found.explain_each(release, |item| {
                tally.add(&item.answer);
                if result.is_ok() {
                    result = out.push(&item.answer);
                }
            });
            result = result.and(out.finish());
        }
        ExplainFormat::Yaml => {
            let mut answers = Vec::new();
            found.explain_each(release, |item| {
                tally.add(&item.answer);
                answers.push(item.answer);
            });
            let text = match &answers[..] {
                [one] => render(one, format),
                _ => render(&answers, format),
            };
            result = text.and_then(|text| super::print_output(&text));
        }
    }
    (tally, result)
}

pub(super) fn run(query: Option<&str>, release: &str, files: &[PathBuf], format: ExplainFormat) -> ExitCode {
    let fail = |code: u8, e: String| {
        eprintln!("{}", super::shown(&format!("trainer-explorer: {}", e.replace('\n', " "))));
        ExitCode::from(code)
    };
    let (tally, written) = match query {
        Some(q) => match for_query(q) {
            Ok(e) => {
                let item = Item { at: String::new(), label: "TrainJob".into(), answer: Answer::TrainJob(Box::new(e)) };
                let mut tally = Tally::default();
                tally.add(&item.answer);
                let text = match format {
                    ExplainFormat::Text => Ok(format!("{}{}", item_text(&item), tally.summary(None))),
                    _ => render(&item.answer, format),
                };
                (tally, text.and_then(|text| super::print_output(&text)))
            }
            Err(e) => return fail(UNREADABLE, e),
        },
        None => {
            let release = match release_named(release) {
                Ok(r) => r,
                Err(e) => return fail(UNREADABLE, e),
            };
            let found = match found_in(files) {
                Ok(found) => found,
                Err(e) => return fail(UNREADABLE, e),
            };
            // Which release judged the files, since the files cannot say (see above); a V1 job
            // alone is its operator's.
            let judged = found.judged_by_release().then_some(release);
            if let Some(release) = judged {
                eprintln!("trainer-explorer: judged by Trainer {}{}", release.tag, judged_note(release));
            }
            write_answers(found, release, format, judged)
        }
    };
    match written {
        // A TrainJob admitted that then fails exits as a refused one: what it asks for never runs.
        Ok(()) if tally.refused > 0 || tally.failing > 0 => ExitCode::from(REFUSED),
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(UNREADABLE, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer refused and failing both is counted once among those not admitted: the admitted
    /// are counted, not taken as what the other counts leave, which wrapped below zero.
    #[test]
    fn an_answer_refused_and_failing_leaves_the_admitted_count_alone() {
        let refusal = Rejection::message("spec", "refused");
        let both = V1Explanation {
            operator: "training-operator".into(),
            pods: vec![],
            objects: vec![],
            rejected: vec![refusal.clone()],
            fails_after_admission: vec![refusal],
        };
        let mut tally = Tally::default();
        tally.add(&Answer::V1(both));
        assert_eq!(tally.summary(None), "Summary: 1 explained: 0 admitted, 1 refused, 1 admitted then failing");
    }
}

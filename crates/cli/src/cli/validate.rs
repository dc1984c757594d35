//! `trainer-explorer validate`: Trainer V2 manifests checked as a cluster of one release would
//! check them on create, with kubeconform's habits (files, directories, `-`; multi-document
//! streams; other kinds skipped and counted; text, JSON, JUnit or TAP; exit 0, 1 or 2).
//!
//! Every rule is explain's (explorer_core::explain): a TrainJob is read and judged with the
//! runtime it references exactly as `explain` judges it (strict decoding, the CRD's schema and
//! create-time CEL rules, the webhook's checks), and a runtime by its CRD's checks
//! (explain::check_runtime), and a V1 job by its operator's CRD (explain::v1::judge). Nothing
//! here decides what is valid; this file only finds the documents,
//! resolves each TrainJob's runtime and prints the verdicts.

use super::{inputs, Unaccepted};
use clap::ValueEnum;
use explorer_core::explain::{self, Rejection};
use explorer_core::pipeline::input::{Accepted, InputError, RawDoc};
use explorer_core::text::counted;
use explorer_data::releases::Release;
use explorer_data::served::{self, V1Operator};
use serde::Serialize;
use serde_json::Value;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

const API_VERSION: &str = "trainer.kubeflow.org/v1alpha1";
const TRAINER_KINDS: [&str; 3] = ["TrainJob", "TrainingRuntime", "ClusterTrainingRuntime"];
/// What a V1 job's verdict adds: it is not Trainer's.
const V1_NOTE: &str = "a V1 job: Trainer V2 serves no such kind; `trainer-explorer migrate` converts it";

#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub(super) enum ValidateFormat {
    Text,
    Json,
    Junit,
    Tap,
}

pub(super) struct Options {
    pub release: Release,
    pub runtimes: Vec<PathBuf>,
    pub skip: Vec<String>,
    pub reject: Vec<String>,
    pub format: ValidateFormat,
}

#[derive(Clone, Copy, PartialEq)]
enum Status {
    Valid,
    Invalid,
    /// Admitted by the API server and the webhook, then refused when an object built from it is
    /// created (explain::after_admission): a failure for CI, since what it asks for never runs,
    /// apart from `Invalid` because `kubectl apply` takes it.
    FailsAfterAdmission,
    Error,
    Skipped,
}

impl Status {
    fn id(self) -> &'static str {
        match self {
            Status::Valid => "valid",
            Status::Invalid => "invalid",
            Status::FailsAfterAdmission => "fails-after-admission",
            Status::Error => "error",
            Status::Skipped => "skipped",
        }
    }
}

/// One field error: the field path as the API server names it, and its message (`-o json`'s
/// members, in this order).
#[derive(Serialize)]
struct FieldError {
    field: String,
    message: String,
}

impl FieldError {
    /// `field: message`, or the message alone for an input error (no field).
    fn line(&self) -> String {
        if self.field.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.field, self.message)
        }
    }
}

/// The verdict on one resource (or on a file that could not be read).
struct Verdict {
    file: String,
    document: usize,
    line: usize,
    kind: String,
    name: String,
    version: String,
    status: Status,
    errors: Vec<FieldError>,
    /// Why it was skipped, or what was not checked (transition rules).
    note: Note,
}

/// What a verdict says beside its status. Counted by its kind for the summary's lines, printed
/// (`Display`) in every format.
#[derive(Clone, Copy, PartialEq)]
enum Note {
    None,
    /// Skipped by `--skip`.
    SkippedByFlag,
    /// Skipped: not a Trainer kind.
    NotTrainer,
    /// A V1 job, judged by its operator's CRD (and, for Training Operator's kinds, its webhook).
    V1(V1Operator),
    /// This many transition rules (oldSelf) not checked.
    Transitions(usize),
}

impl Note {
    fn is_empty(self) -> bool {
        self == Note::None
    }
}

impl std::fmt::Display for Note {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Note::None => Ok(()),
            Note::SkippedByFlag => f.write_str("skipped (--skip)"),
            Note::NotTrainer => f.write_str("not a Trainer kind"),
            Note::V1(operator) => {
                // Training Operator's kinds are judged by its validating webhook too
                // (explain::v1::check); mpi-operator has none.
                let by = if *operator == served::TRAINING_OPERATOR { "CRD and webhook" } else { "CRD" };
                write!(f, "{V1_NOTE} (judged by the {} {by})", operator.name)
            }
            Note::Transitions(n) => {
                write!(f, "{n} transition rules (oldSelf) not checked: the API server runs them on update only")
            }
        }
    }
}

impl Verdict {
    fn label(&self) -> String {
        if self.kind.is_empty() {
            format!("document {}", self.document)
        } else {
            format!("{}/{}", self.kind, self.name)
        }
    }
}

/// A document of a file, parsed.
struct Doc {
    index: usize,
    line: usize,
    value: Result<Value, explorer_core::pipeline::input::YamlError>,
}

fn is_runtime(kind: &str) -> bool {
    explain::read::is_runtime_kind(kind)
}

fn str_at<'v>(v: &'v Value, pointer: &str) -> &'v str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or_default()
}

fn rejections(list: Vec<Rejection>) -> Vec<FieldError> {
    list.into_iter().map(|r| FieldError { field: r.field(), message: r.reason() }).collect()
}

/// How many of the CRD's transition rules (`oldSelf`) apply to this kind: run on update only.
fn transition_rules(release: Release, kind: &str) -> usize {
    explain::crd::checks(release.tag, kind).map_or(0, |crd| {
        crd.nodes
            .iter()
            .flat_map(|n| n.checks.iter())
            .filter(|c| matches!(c, explain::crd::Check::Rule { transition: true, .. }))
            .count()
    })
}

/// A TrainJob judged as `explain` judges it (explain::read::judge), with the runtimes of its own
/// file first, then those of `--runtimes`, then the release's built-ins.
fn judge_trainjob(
    job: &Value,
    file_runtimes: &[Value],
    extra: &[Value],
    release: Release,
) -> (Status, Vec<FieldError>) {
    let runtimes: Vec<&Value> = file_runtimes.iter().chain(extra).collect();
    let explanation = explain::read::judge(job, &runtimes, release);
    if !explanation.fails_after_admission.is_empty() {
        return (Status::FailsAfterAdmission, rejections(explanation.fails_after_admission));
    }
    let rejected = explanation.rejected;
    let missing: Vec<bool> = rejected.iter().map(|r| r.ty == explain::ErrorType::RuntimeNotFound).collect();
    let mut errors = rejections(rejected);
    for (e, missing) in errors.iter_mut().zip(missing) {
        if missing {
            e.message.push_str(": give the runtime in the same file or with --runtimes DIR");
        }
    }
    (if errors.is_empty() { Status::Valid } else { Status::Invalid }, errors)
}

fn judge(doc: &Value, file_runtimes: &[Value], extra: &[Value], options: &Options) -> (Status, Vec<FieldError>, Note) {
    let kind = str_at(doc, "/kind");
    let api_version = str_at(doc, "/apiVersion");
    if options.reject.iter().any(|k| k.eq_ignore_ascii_case(kind)) {
        let e = FieldError { field: "kind".into(), message: format!("{kind} is rejected here (--reject)") };
        return (Status::Invalid, vec![e], Note::None);
    }
    if options.skip.iter().any(|k| k.eq_ignore_ascii_case(kind)) {
        return (Status::Skipped, Vec::new(), Note::SkippedByFlag);
    }
    // A kind of ours in another case (`PytorchJob`, `Trainjob`): refused by the REST mapper
    // before any schema sees it, so a typo is a failure, not a skip.
    if let Some(meant) = served::misspelt_kind(api_version, kind) {
        let e = FieldError { field: "kind".into(), message: served::misspelt_kind_error(kind, api_version, meant) };
        return (Status::Invalid, vec![e], Note::None);
    }
    if explain::v1::is_v1_job(doc) {
        // Judged by its own operator's CRD (Training Operator v1.9, or mpi-operator's v2beta1).
        let operator = served::v1_operator(api_version, kind).unwrap_or(served::TRAINING_OPERATOR);
        // Refused on creation (its CRD, its webhook), else admitted and then an object the
        // operator creates refused (a Service name too long).
        let judged = explain::v1::judge(doc);
        let (status, errors) = match (judged.refused.is_empty(), judged.fails_after_admission.is_empty()) {
            (false, _) => (Status::Invalid, rejections(judged.refused)),
            (true, false) => (Status::FailsAfterAdmission, rejections(judged.fails_after_admission)),
            (true, true) => (Status::Valid, Vec::new()),
        };
        return (status, errors, Note::V1(operator));
    }
    if !TRAINER_KINDS.contains(&kind) {
        return (Status::Skipped, Vec::new(), Note::NotTrainer);
    }
    if api_version != API_VERSION {
        let e = FieldError {
            field: "apiVersion".into(),
            message: format!(
                "Unsupported value: {api_version:?}: Trainer {} serves {kind} as {API_VERSION} only",
                options.release.tag
            ),
        };
        return (Status::Invalid, vec![e], Note::None);
    }
    let (status, errors) = if kind == "TrainJob" {
        judge_trainjob(doc, file_runtimes, extra, options.release)
    } else {
        let errors = rejections(explain::check_runtime(doc, options.release));
        (if errors.is_empty() { Status::Valid } else { Status::Invalid }, errors)
    };
    let transitions = transition_rules(options.release, kind);
    let note = if transitions > 0 { Note::Transitions(transitions) } else { Note::None };
    (status, errors, note)
}

/// Reads a file's documents; `Err` when the file as a whole cannot be read or parsed.
fn read_docs(path: &std::path::Path) -> Result<Vec<Doc>, Unaccepted> {
    let text = super::read_input(path).map_err(Unaccepted::File)?;
    let docs = each_doc(&text)?.collect();
    Ok(docs)
}

/// A text's documents, each read when the iterator reaches it; `Err` when the input door refuses
/// the text as a whole.
fn each_doc(text: &str) -> Result<impl Iterator<Item = Doc> + '_, Unaccepted> {
    Ok(accepted(text)?.into_iter().flat_map(|a| a.documents(text)).map(Doc::from))
}

/// `text` as the input door accepts it, its documents not yet handed on; `None` for an empty file,
/// which holds no document (the door refuses it: no documents).
fn accepted(text: &str) -> Result<Option<Accepted>, Unaccepted> {
    match text.trim().is_empty() {
        true => Ok(None),
        false => explorer_core::pipeline::input::accept_documents(text).map(Some).map_err(Unaccepted::Door),
    }
}

impl From<RawDoc> for Doc {
    fn from(d: RawDoc) -> Doc {
        Doc { index: d.index, line: d.line, value: d.value }
    }
}

/// The runtimes of `--runtimes DIR`s (and files), for TrainJobs whose file holds none.
fn extra_runtimes(paths: &[PathBuf]) -> Result<Vec<Value>, String> {
    let (files, errors) = inputs::expand(paths);
    if let Some(e) = errors.into_iter().next() {
        return Err(e);
    }
    let mut out = Vec::new();
    for f in files {
        let docs = read_docs(&f).map_err(|e| match e {
            Unaccepted::File(e) => e,
            Unaccepted::Door(e) => format!("{}: {e}", f.display()),
        })?;
        for d in docs {
            let v = d.value.map_err(|e| format!("{}: document {}: {e}", f.display(), d.index))?;
            if matches!(str_at(&v, "/kind"), "TrainingRuntime" | "ClusterTrainingRuntime") {
                out.push(v);
            }
        }
    }
    Ok(out)
}

fn verdicts(args: &[PathBuf], options: &Options, extra: &[Value]) -> (Vec<Verdict>, usize) {
    let (files, walk_errors) = inputs::expand(args);
    let mut out: Vec<Verdict> = walk_errors
        .into_iter()
        .map(|e| Verdict {
            file: String::new(),
            document: 0,
            line: 0,
            kind: String::new(),
            name: String::new(),
            version: String::new(),
            status: Status::Error,
            errors: vec![FieldError { field: String::new(), message: e }],
            note: Note::None,
        })
        .collect();
    for path in &files {
        let file = path.display().to_string();
        let error = |document: usize, line: usize, message: String| Verdict {
            file: file.clone(),
            document,
            line,
            kind: String::new(),
            name: String::new(),
            version: String::new(),
            status: Status::Error,
            errors: vec![FieldError { field: String::new(), message }],
            note: Note::None,
        };

        // One document's verdict, with the file's runtimes; the document when it is a mapping.
        let judged = |d: Doc, runtimes: &[Value], out: &mut Vec<Verdict>| {
            let value = match d.value {
                Ok(v) if v.is_object() => v,
                Ok(v) => {
                    let what = if v.is_array() { "a list" } else { "a scalar" };
                    out.push(error(
                        d.index,
                        d.line,
                        format!("the document is {what}: a Kubernetes object is a mapping"),
                    ));
                    return None;
                }
                Err(e) => {
                    out.push(error(d.index, d.line, format!("not valid YAML: {e}")));
                    return None;
                }
            };
            let (status, errors, note) = judge(&value, runtimes, extra, options);
            out.push(Verdict {
                file: file.clone(),
                document: d.index,
                line: d.line,
                kind: str_at(&value, "/kind").into(),
                name: str_at(&value, "/metadata/name").into(),
                version: str_at(&value, "/apiVersion").into(),
                status,
                errors,
                note,
            });
            Some(value)
        };
        // A file's runtimes judge each of its TrainJobs. Each document is read and judged in
        // turn, with the runtimes before it, and dropped (issue 36: a file of 10,000 jobs is
        // never held as 10,000 trees); should a runtime come after a TrainJob, the file is
        // judged again, every runtime read first.
        let first = out.len();
        let (mut runtimes, mut train_job, mut late_runtime) = (Vec::new(), false, false);
        // The door holds the text no longer than it reads it again: a text written as one
        // document is freed as it is read, not held beside its tree (4 MiB of a 4 MiB job; issue
        // 36). One document has no runtime after a TrainJob, so such a text is not read again
        // below. An empty file holds no document (the door refuses it: no documents).
        let (text, accepted) = match super::accept_file(path, None) {
            Ok(read) => (read.text.unwrap_or_default(), Ok(Some(read.accepted))),
            Err(Unaccepted::Door(InputError::Empty)) => (String::new(), Ok(None)),
            Err(e) => (String::new(), Err(e)),
        };
        match accepted {
            Ok(accepted) => {
                for d in accepted.into_iter().flat_map(|a| a.documents(&text)) {
                    let Some(value) = judged(Doc::from(d), &runtimes, &mut out) else { continue };
                    let kind = str_at(&value, "/kind");
                    train_job |= kind == "TrainJob";
                    if is_runtime(kind) {
                        late_runtime |= train_job;
                        runtimes.push(value);
                    }
                }
            }
            Err(e) => out.push(error(0, 0, e.to_string())),
        }
        if late_runtime {
            out.truncate(first);
            // Every runtime first, then each document read again, judged and dropped in turn: a
            // file of 9,000 TrainJobs before its runtime was held as 9,000 trees (43 MiB for
            // 2 MiB of text; issue 36).
            let runtimes: Vec<Value> = each_doc(&text)
                .into_iter()
                .flatten()
                .filter_map(|d| d.value.ok())
                .filter(|v| is_runtime(str_at(v, "/kind")))
                .collect();
            for d in each_doc(&text).into_iter().flatten() {
                judged(d, &runtimes, &mut out);
            }
        }
    }
    (out, files.len())
}

struct Counts {
    valid: usize,
    invalid: usize,
    fails_after_admission: usize,
    errors: usize,
    skipped: usize,
}

fn counts(verdicts: &[Verdict]) -> Counts {
    let n = |s: Status| verdicts.iter().filter(|v| v.status == s).count();
    Counts {
        valid: n(Status::Valid),
        invalid: n(Status::Invalid),
        fails_after_admission: n(Status::FailsAfterAdmission),
        errors: n(Status::Error),
        skipped: n(Status::Skipped),
    }
}

fn summary_line(c: &Counts, files: usize, release: Release) -> String {
    let resources = c.valid + c.invalid + c.fails_after_admission + c.skipped;
    // kubeconform's line; the count of the admitted that then fail is added when there are some.
    let failing = match c.fails_after_admission {
        0 => String::new(),
        n => format!(", Fails after admission: {n}"),
    };
    format!(
        "Summary: {} found in {} (Trainer {}) - Valid: {}, Invalid: {}{failing}, Errors: {}, Skipped: {}",
        counted(resources as u64, "resource", "resources"),
        counted(files as u64, "file", "files"),
        release.tag,
        c.valid,
        c.invalid,
        c.errors,
        c.skipped
    )
}

fn at(v: &Verdict) -> String {
    match (v.file.is_empty(), v.line) {
        (true, _) => "trainer-explorer".into(),
        (false, 0) => v.file.clone(),
        (false, line) => format!("{}:{line}", v.file),
    }
}

fn text(verdicts: &[Verdict], files: usize, release: Release) -> String {
    let mut out = String::new();
    for v in verdicts {
        match v.status {
            Status::Invalid | Status::FailsAfterAdmission => {
                for e in &v.errors {
                    let _ = writeln!(out, "{}: {}: {}", at(v), v.label(), e.line());
                }
            }
            Status::Error => {
                for e in &v.errors {
                    let _ = writeln!(out, "{}: {}", at(v), e.message);
                }
            }
            Status::Valid | Status::Skipped => {}
        }
    }
    let v1 = verdicts.iter().filter(|v| matches!(v.note, Note::V1(_))).count();
    if v1 > 0 {
        let _ = writeln!(
            out,
            "{} judged by the Training Operator v1.9 CRDs and webhooks or the mpi-operator CRD: Trainer V2 serves no such \
             kind; `trainer-explorer migrate` converts them",
            counted(v1 as u64, "V1 job was", "V1 jobs were")
        );
    }
    let notes: usize = verdicts.iter().filter(|v| matches!(v.note, Note::Transitions(_))).count();
    if notes > 0 {
        let _ = writeln!(
            out,
            "{} transition rules (oldSelf), which run on update only: not checked",
            counted(notes as u64, "resource has", "resources have")
        );
    }
    out.push_str(&summary_line(&counts(verdicts), files, release));
    out
}

/// One verdict as `-o json` gives it: its members in this order, `note` only when there is one.
#[derive(Serialize)]
struct JsonVerdict<'a> {
    file: &'a str,
    document: usize,
    line: usize,
    kind: &'a str,
    name: &'a str,
    version: &'a str,
    status: &'static str,
    errors: &'a [FieldError],
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

impl<'a> JsonVerdict<'a> {
    fn of(v: &'a Verdict) -> Self {
        JsonVerdict {
            file: &v.file,
            document: v.document,
            line: v.line,
            kind: &v.kind,
            name: &v.name,
            version: &v.version,
            status: v.status.id(),
            errors: &v.errors,
            note: (!v.note.is_empty()).then(|| v.note.to_string()),
        }
    }
}

/// Every verdict, serialized one after another as the array is written: never a JSON tree of
/// them all beside the verdicts (issue 36).
struct JsonVerdicts<'a>(&'a [Verdict]);

impl Serialize for JsonVerdicts<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(JsonVerdict::of))
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonSummary {
    files: usize,
    valid: usize,
    invalid: usize,
    fails_after_admission: usize,
    errors: usize,
    skipped: usize,
}

#[derive(Serialize)]
struct JsonAnswer<'a> {
    release: &'static str,
    resources: JsonVerdicts<'a>,
    summary: JsonSummary,
}

fn json_output(verdicts: &[Verdict], files: usize, release: Release) -> String {
    let c = counts(verdicts);
    let answer = JsonAnswer {
        release: release.tag,
        resources: JsonVerdicts(verdicts),
        summary: JsonSummary {
            files,
            valid: c.valid,
            invalid: c.invalid,
            fails_after_admission: c.fails_after_admission,
            errors: c.errors,
            skipped: c.skipped,
        },
    };
    // Every control character \u-escaped (serde_json leaves DEL, C1 and the bidirectional ones
    // raw, which print_output would then show as `\u{202e}`, not JSON).
    explorer_core::terminal::json_pretty(&answer).unwrap_or_default()
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn junit(verdicts: &[Verdict], release: Release) -> String {
    let c = counts(verdicts);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"trainer-explorer validate\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">",
        verdicts.len(),
        c.invalid + c.fails_after_admission,
        c.errors,
        c.skipped
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"Trainer {}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\">",
        release.tag,
        verdicts.len(),
        c.invalid + c.fails_after_admission,
        c.errors,
        c.skipped
    );
    for v in verdicts {
        let _ = write!(out, "    <testcase classname=\"{}\" name=\"{}\"", xml(&at(v)), xml(&v.label()));
        let lines: Vec<String> = v.errors.iter().map(FieldError::line).collect();
        match v.status {
            Status::Valid => out.push_str("/>\n"),
            Status::Skipped => {
                let _ = writeln!(out, ">\n      <skipped message=\"{}\"/>\n    </testcase>", xml(&v.note.to_string()));
            }
            Status::Invalid | Status::FailsAfterAdmission | Status::Error => {
                let tag = if v.status == Status::Error { "error" } else { "failure" };
                let first = v.errors.first().map_or(String::new(), |e| e.message.clone());
                let _ = writeln!(
                    out,
                    ">\n      <{tag} message=\"{}\">{}</{tag}>\n    </testcase>",
                    xml(&first),
                    xml(&lines.join("\n"))
                );
            }
        }
    }
    out.push_str("  </testsuite>\n</testsuites>");
    out
}

fn tap(verdicts: &[Verdict], files: usize, release: Release) -> String {
    let mut out = format!("TAP version 13\n1..{}\n", verdicts.len());
    for (i, v) in verdicts.iter().enumerate() {
        let n = i + 1;
        let what = format!("{} - {}", at(v), v.label());
        match v.status {
            Status::Valid => {
                let _ = writeln!(out, "ok {n} - {what}");
            }
            Status::Skipped => {
                let _ = writeln!(out, "ok {n} - {what} # SKIP {}", v.note);
            }
            Status::Invalid | Status::FailsAfterAdmission | Status::Error => {
                let _ = writeln!(out, "not ok {n} - {what}");
                for e in &v.errors {
                    let _ = writeln!(out, "  # {}", e.line());
                }
            }
        }
    }
    out.push_str("# ");
    out.push_str(&summary_line(&counts(verdicts), files, release));
    out
}

pub(super) fn run(args: &[PathBuf], options: &Options) -> ExitCode {
    let extra = match extra_runtimes(&options.runtimes) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("trainer-explorer: --runtimes: {e}");
            return ExitCode::from(2);
        }
    };
    let (verdicts, files) = verdicts(args, options, &extra);
    let release = options.release;
    let out = match options.format {
        ValidateFormat::Text => text(&verdicts, files, release),
        ValidateFormat::Json => json_output(&verdicts, files, release),
        ValidateFormat::Junit => junit(&verdicts, release),
        ValidateFormat::Tap => tap(&verdicts, files, release),
    };
    if let Err(e) = super::print_output(&out) {
        eprintln!("trainer-explorer: {e}");
        return ExitCode::from(2);
    }
    let c = counts(&verdicts);
    ExitCode::from(if c.errors > 0 {
        2
    } else if c.invalid + c.fails_after_admission > 0 {
        1
    } else {
        0
    })
}

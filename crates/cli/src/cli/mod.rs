//! Command-line interface (native only). Every output comes from the core: `snippets::render`.

mod explain;
mod export;
mod inputs;
#[cfg(feature = "site")]
mod site;
mod upgrade;
mod validate;
mod yaml_out;

use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

/// What the tool is for, first in `--help`.
const ABOUT: &str =
    "Move Kubeflow training jobs from Training Operator V1 to Trainer V2, and check TrainJobs before you submit them";

const AFTER_HELP: &str = "\
Examples:
  trainer-explorer migrate jobs/                       convert every V1 job under jobs/ (YAML on stdout)
  trainer-explorer migrate --output-dir v2/ jobs/      one file per object, in the order to apply them
  trainer-explorer validate manifests/                 check TrainJobs and runtimes as the cluster would, for CI
  trainer-explorer explain trainjob.yaml               what Trainer creates for it, or why it is refused
  trainer-explorer upgrade --from v2.1 manifests/      rewrite V2 manifests for the newest release
  trainer-explorer export -o json                      every snippet of the explorer, as JSON";

const EXPLAIN_EXAMPLES: &str = "\
Examples:
  trainer-explorer explain trainjob.yaml runtime.yaml    JSON: the JobSet, the pods, the objects, or `rejected`
  trainer-explorer explain -o text jobs.yaml             node × 2 pods; 2 GPUs each (nvidia.com/gpu); ...
  trainer-explorer explain --release v2.1 -o yaml jobs/  every TrainJob under jobs/, as Trainer v2.1.0 takes it
  trainer-explorer explain runtimes.yaml                 runtimes only: each one valid or not for the release
  trainer-explorer explain --query 'framework=deepspeed&nodes=4'";

const VALIDATE_EXAMPLES: &str = "\
Examples:
  trainer-explorer validate manifests/                  file:line: Kind/name: field: message, then the summary
  trainer-explorer validate --release v2.1 trainjob.yaml
  trainer-explorer validate -o json manifests/          per resource: file, document, kind, name, version, status, errors
  trainer-explorer validate -o junit manifests/ > validate.xml
  trainer-explorer validate -o tap --runtimes runtimes/ jobs/
  kustomize build overlays/prod | trainer-explorer validate -";

#[derive(Parser)]
#[command(name = "trainer-explorer", version, about = ABOUT, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the snippets for every persona × framework, or for one selection.
    Export {
        #[arg(short = 'o', long = "output", alias = "format", value_enum, default_value_t = Format::Json)]
        format: Format,
        /// A selection in the widget's URL syntax, e.g. 'persona=data-scientist&framework=jax&nodes=4'.
        #[arg(long, conflicts_with = "topics")]
        query: Option<String>,
        /// Print the post's topic snippets (Kueue, gang scheduling, ...) instead.
        #[arg(long)]
        topics: bool,
    },
    /// What the Trainer controller creates for each TrainJob of the input: the JobSet, each
    /// replicatedJob's pods with their environment, the MPI hostfile and the other objects, or
    /// every error the API server and the webhook refuse it with. A V1 job: what its operator
    /// runs. An input of runtimes only: each runtime judged as its creation would be.
    /// Exit 0 when everything is admitted, 1 when something is refused (the refusal is in the
    /// output, in its format), 2 when an input cannot be read or parsed or the usage is wrong.
    #[command(after_help = EXPLAIN_EXAMPLES)]
    Explain {
        /// A selection in the widget's URL syntax, e.g. 'framework=deepspeed&nodes=4'.
        #[arg(long, conflicts_with = "files")]
        query: Option<String>,
        /// YAML files or directories holding TrainJobs and the runtimes they reference (a
        /// TrainJob without one gets the release's built-in of its name), or - for standard input.
        #[arg(required_unless_present = "query")]
        files: Vec<std::path::PathBuf>,
        /// The Trainer release whose API server, webhook and controller judge the files (v2.0 ...
        /// v2.3). A query names its own: 'release=v2.1&...'.
        #[arg(long, conflicts_with = "query", default_value = explorer_data::releases::NEWEST.line)]
        release: String,
        /// `json` or `yaml`: the explanation (a list of them when the input holds several, in its
        /// order); `text`: what runs, in words, and each error as `file:line: Kind/name: field: message`.
        #[arg(short = 'o', long = "output", alias = "format", value_enum, default_value_t = explain::ExplainFormat::Json)]
        format: explain::ExplainFormat,
    },
    /// Convert V1 jobs to TrainJobs (the kinds come from the core's list, in `migrate_about`).
    #[command(about = migrate_about(), long_about = None)]
    Migrate {
        /// Files to convert, directories (their .yaml, .yml and .json files, recursively), or -
        /// for standard input.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Only the one-line outcome per document on stderr, not the field-by-field report.
        #[arg(long)]
        quiet: bool,
        /// The Trainer release line to write for (default: the newest).
        #[arg(long, value_parser = explorer_core::upgrade::parse_release, default_value = explorer_data::releases::NEWEST.line)]
        target: &'static explorer_data::releases::Release,
        /// `yaml`: the V2 objects. `json`: per document its outcome, V2 objects, report and the pod
        /// by pod comparison of what V1 ran with what Trainer runs.
        #[arg(short = 'o', long = "output", alias = "format", value_enum, default_value_t = BatchFormat::Yaml)]
        format: BatchFormat,
        /// Write each object to its own file in this directory instead of one stream on stdout:
        /// `trainingruntime-<name>.yaml`, `trainjob-<name>.yaml`, as the explorer's page names
        /// them; the `kubectl apply` line on stderr lists them in the order to apply them.
        #[arg(long, conflicts_with = "format")]
        output_dir: Option<std::path::PathBuf>,
    },
    /// Rewrite Trainer V2 manifests (TrainJob, TrainingRuntime, ClusterTrainingRuntime) written for
    /// one release so that a newer release accepts them. Prints the YAML on stdout and what
    /// happened to each changed field, with the release and the reason, on stderr. Exit 0 when
    /// everything was rewritten (with warnings on stderr when lossy), 1 with one line per
    /// refused document; a downgrade or an unknown release is refused.
    Upgrade {
        /// The release the manifests are written for: v2.0, v2.1, v2.2 or v2.3 (or its tag, v2.1.0).
        #[arg(long, value_parser = explorer_core::upgrade::parse_release)]
        from: &'static explorer_data::releases::Release,
        /// The release to write for (default: the newest).
        #[arg(long, value_parser = explorer_core::upgrade::parse_release)]
        to: Option<&'static explorer_data::releases::Release>,
        /// Files to rewrite, directories (their .yaml, .yml and .json files, recursively), or -
        /// for standard input.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Only the one-line outcome per lossy document on stderr, not the field-by-field report.
        #[arg(long)]
        quiet: bool,
        /// `yaml`: the rewritten objects. `json`: per document its outcome, objects and report
        /// (each field with its API changes), in the shape of `migrate --output json`.
        #[arg(short = 'o', long = "output", alias = "format", value_enum, default_value_t = BatchFormat::Yaml)]
        format: BatchFormat,
    },
    /// Check Trainer V2 manifests as a cluster of one release checks them on create: the served
    /// version, the CRD schema, every create-time CEL rule, and the validating webhook with the
    /// runtime each TrainJob references (explain's checks). V1 jobs (Training Operator v1.9's
    /// kinds, mpi-operator's v2beta1 MPIJob) against their own operator's CRD (strict, with its
    /// webhook), with the hint to `migrate` them. Other kinds are skipped and counted.
    /// Exit 0 when every resource is valid, 1 when one is invalid, 2 when an input cannot be read
    /// or parsed or the usage is wrong.
    #[command(after_help = VALIDATE_EXAMPLES)]
    Validate {
        /// Files, directories (their .yaml, .yml and .json files, recursively), or - for standard input.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// The Trainer release whose API server and webhook judge the files (v2.0 ... v2.3).
        #[arg(long, value_parser = explorer_core::upgrade::parse_release, default_value = explorer_data::releases::NEWEST.line)]
        release: &'static explorer_data::releases::Release,
        /// Files or directories holding the TrainingRuntimes and ClusterTrainingRuntimes that
        /// TrainJobs reference, when their own file holds none (the release's built-ins are known).
        #[arg(long)]
        runtimes: Vec<std::path::PathBuf>,
        /// Skip this kind (repeat or comma-separate).
        #[arg(long, value_delimiter = ',')]
        skip: Vec<String>,
        /// Report this kind as invalid wherever it appears (repeat or comma-separate).
        #[arg(long, value_delimiter = ',')]
        reject: Vec<String>,
        #[arg(short = 'o', long = "output", value_enum, default_value_t = validate::ValidateFormat::Text)]
        format: validate::ValidateFormat,
    },
    /// The commands that build this site (`post`, `fallback`, `fallback-files`): in the
    /// repository's own builds, not in the wheel (the `site` feature).
    #[cfg(feature = "site")]
    #[command(flatten)]
    Site(site::SiteCommand),
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Json,
}

/// Reads a file (or stdin for `-`) through the core's input door (`pipeline::input::text_of`): the
/// size limit on the real size, UTF-8 on the whole input. Every command that reads files calls this;
/// the caller names the file in front of the error.
pub(crate) fn read_input(path: &std::path::Path) -> Result<String, String> {
    use explorer_core::pipeline::input;
    use std::io::Read;
    let limit = input::MAX_INPUT_BYTES as u64;
    let mut bytes = Vec::new();
    let mut source: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| e.to_string())?)
    };
    (&mut source).take(limit + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(oversize(path, bytes.len() as u64, source));
    }
    input::text_of(&bytes).map_err(|e| e.to_string())?;
    // Just found to be UTF-8: the bytes become the text, not copied into it.
    String::from_utf8(bytes).map_err(|e| e.to_string())
}

/// A file read through the input door and accepted: its text while the door's answer reads it
/// again (`None` once freed), and the answer.
pub(crate) struct AcceptedFile {
    pub(crate) text: Option<String>,
    pub(crate) accepted: explorer_core::pipeline::input::Accepted,
}

/// Why a file was not accepted: the file could not be read (`read_input`'s words), or the door
/// refused it.
pub(crate) enum Unaccepted {
    File(String),
    Door(explorer_core::pipeline::input::InputError),
}

impl std::fmt::Display for Unaccepted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unaccepted::File(e) => f.write_str(e),
            Unaccepted::Door(e) => write!(f, "{e}"),
        }
    }
}

/// Reads a file (or stdin for `-`) with [`read_input`] and hands it to the input door: with an
/// `outline`, `input::accept`, which hands it each document's outline; without, as
/// `input::accept_documents`. A file's text is handed over (`input::accept_given`): written as one
/// document, it is freed as the parser passes it, not held beside its tree (issue 36: 4 MiB of a
/// 4 MiB job's peak), and read again in the rare case that its document needs the whole text.
/// Standard input and any other path that is no regular file (a pipe, `<(…)`), which cannot be
/// read again, are held while they are read.
pub(crate) fn accept_file(
    path: &std::path::Path,
    outline: Option<&mut dyn FnMut(&explorer_core::pipeline::input::RawDoc)>,
) -> Result<AcceptedFile, Unaccepted> {
    accept_read(path, read_input(path).map_err(Unaccepted::File)?, outline)
}

/// [`accept_file`] of `text`, what [`read_input`] read from `path`: for a command that checks
/// its own arguments between the read and the door, as it did before the door had the text
/// (`upgrade`'s downgrade).
pub(crate) fn accept_read(
    path: &std::path::Path,
    text: String,
    mut outline: Option<&mut dyn FnMut(&explorer_core::pipeline::input::RawDoc)>,
) -> Result<AcceptedFile, Unaccepted> {
    use explorer_core::pipeline::input::{self, Given};
    // Only a regular file can be read again when the door hands the text back unread
    // (`Given::Again`): standard input, a pipe (`<(…)`) or a device is held while it is read.
    let read_again = path.as_os_str() != "-" && std::fs::metadata(path).is_ok_and(|m| m.is_file());
    let text = match read_again {
        false => text,
        true => {
            let given = match outline {
                Some(ref mut outline) => input::accept_given(text, outline),
                None => input::accept_given_documents(text),
            };
            match given.map_err(Unaccepted::Door)? {
                Given::Accepted { text, accepted } => return Ok(AcceptedFile { text, accepted }),
                Given::Again => read_input(path).map_err(Unaccepted::File)?,
            }
        }
    };
    let accepted = match outline {
        Some(outline) => input::accept(&text, outline),
        None => input::accept_documents(&text),
    }
    .map_err(Unaccepted::Door)?;
    Ok(AcceptedFile { text: accepted.reads_the_text_again().then_some(text), accepted })
}

/// `migrate`'s line in `--help`: the kinds it reads, from the core's list of V1 kinds.
fn migrate_about() -> String {
    format!(
        "Convert V1 jobs ({}; v2beta1 MPIJob) to TrainJobs. Prints the V2 YAML on stdout and the per-field report \
         on stderr. Exit 0 when everything converted (with warnings on stderr when lossy), 1 with one line per \
         refused document",
        explorer_data::catalog::V1Kind::all_in_words()
    )
}

/// Why an input over the limit, `read` bytes of which were read, is refused, with its real size:
/// a file's length, or what standard input held in all, counted up to 1 GiB more (a stream
/// without end is not waited for).
fn oversize(path: &std::path::Path, read: u64, rest: Box<dyn std::io::Read + '_>) -> String {
    use explorer_core::pipeline::input::{too_large, InputError};
    use std::io::Read;
    let file = (path.as_os_str() != "-").then(|| std::fs::metadata(path).ok()).flatten().filter(|m| m.is_file());
    if let Some(meta) = file {
        return too_large(meta.len()).to_string();
    }
    const MORE: u64 = 1 << 30;
    match std::io::copy(&mut rest.take(MORE), &mut std::io::sink()) {
        Ok(more) if more < MORE => too_large(read + more).to_string(),
        _ => InputError::TooLarge { size: read + MORE, more: true }.to_string(),
    }
}

/// Text for the terminal: what came from input (a name, a value, a file name) may hold control
/// characters a terminal would obey, shown escaped instead (`explorer_core::terminal`). Every line
/// the CLI prints goes through this.
fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    explorer_core::terminal::escape(text)
}

/// Writes a report's line after its file's label, both already [`shown`], as `label: line`: in
/// pieces, with no `format!` of the joined line (one for each of a report's hundred thousand
/// lines) and no formatting machinery between them and the buffer.
fn write_labelled(out: &mut impl std::io::Write, label_shown: &str, line_shown: &str) -> std::io::Result<()> {
    out.write_all(label_shown.as_bytes())?;
    out.write_all(b": ")?;
    out.write_all(line_shown.as_bytes())?;
    out.write_all(b"\n")
}

/// Prints a command's answer on stdout. A reader that closed the pipe early (`… | head`) has all it
/// wanted, so a broken pipe ends the output quietly; `println!` would panic on it. Any other write
/// error is the tool's failure, with a message.
fn print_output(text: &str) -> Result<(), String> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{}", shown(text)).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
        _ => Ok(()),
    }
}

/// How an answer written to stdout a piece at a time ended: `failed`, the first write error if one
/// came (nothing was written after it), else `rest`, what ends the answer (its last bytes, the
/// flush). A reader that closed the pipe early (`… | head`) has all it wanted: quietly `Ok`, as in
/// `print_output`; any other write error is the tool's failure, with a message.
fn stdout_ended(failed: Option<std::io::Error>, rest: impl FnOnce() -> std::io::Result<()>) -> Result<(), String> {
    match failed.map_or_else(rest, Err) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
        _ => Ok(()),
    }
}

/// What a batch command (`migrate`, `upgrade`) made of one file.
pub(super) trait FileOutcome {
    /// One line per refused or invalid document. The full report holds each in its place too:
    /// there it is printed once, in its place, as the failure line.
    fn failures(&self) -> Vec<String>;
    /// The report's lines for stderr (with `quiet`, the headline of each document written with
    /// losses), handed to `sink` a run of whole lines at a time as they are written: a report of a
    /// quarter million labels is 20 MB of text, never held whole.
    fn write_report(&self, quiet: bool, sink: &mut dyn FnMut(&str));
    /// Every document of the file and what became of it.
    fn into_docs(self) -> Vec<explorer_core::pipeline::Document>;
}

/// The core's outcomes of a file, `Migration` and `Upgrade`, answer these with methods of the
/// same names and a `docs` field: one impl written once for both.
macro_rules! file_outcome {
    ($($outcome:ty),*) => {$(
        impl FileOutcome for $outcome {
            fn failures(&self) -> Vec<String> {
                self.failures()
            }

            fn write_report(&self, quiet: bool, sink: &mut dyn FnMut(&str)) {
                if quiet {
                    sink(&self.lossy_headlines().join("\n"));
                } else {
                    self.write_report(sink);
                }
            }

            fn into_docs(self) -> Vec<explorer_core::pipeline::Document> {
                self.docs
            }
        }
    )*};
}

file_outcome!(explorer_core::migrate::Migration, explorer_core::upgrade::Upgrade);

/// How one run's documents ended, for the summary line.
#[derive(Default)]
struct Tally {
    files: usize,
    unreadable: usize,
    written: usize,
    lossy: usize,
    refused: usize,
    invalid: usize,
    passed: usize,
}

impl Tally {
    fn documents(&self) -> usize {
        self.written + self.refused + self.invalid + self.passed
    }

    fn add(&mut self, docs: &[explorer_core::pipeline::Document]) {
        use explorer_core::pipeline::Outcome;
        for d in docs {
            match &d.outcome {
                Outcome::Written { lossy, .. } => {
                    self.written += 1;
                    self.lossy += usize::from(*lossy);
                }
                Outcome::Refused { .. } => self.refused += 1,
                Outcome::Invalid { .. } => self.invalid += 1,
                Outcome::PassedThrough { .. } => self.passed += 1,
            }
        }
    }

    /// `Summary: 30 documents in 29 files: 22 jobs converted (20 with losses), 7 refused, 1 passed
    /// through unchanged`; `written` is what a written document is: `("job", "jobs", "converted")`.
    fn line(&self, written: (&str, &str, &str)) -> String {
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let documents = self.documents();
        let (one, many, done) = written;
        let mut parts = vec![format!("{} {done}", plural(self.written, one, many))];
        if self.written > 0 {
            parts[0].push_str(&format!(" ({} with losses)", self.lossy));
        }
        parts.push(format!("{} refused", self.refused));
        if self.invalid > 0 {
            parts.push(format!("{} invalid", self.invalid));
        }
        if self.passed > 0 {
            parts.push(format!("{} passed through unchanged", self.passed));
        }
        if self.unreadable > 0 {
            parts.push(plural(self.unreadable, "file could not be read", "files could not be read"));
        }
        format!(
            "Summary: {} in {}: {}",
            plural(documents, "document", "documents"),
            plural(self.files, "file", "files"),
            parts.join(", ")
        )
    }
}

/// Where a batch command's objects go.
enum Sink<'a> {
    /// One YAML stream on stdout.
    Stdout,
    /// One file per object in this directory (`--output-dir`).
    Directory(&'a std::path::Path),
}

/// What [`run_batch`] makes of a file's text, part by part.
type Parts<'text, R> = Box<dyn Iterator<Item = R> + 'text>;

/// How a file's parts are made from its text.
type MakeParts<R> = Box<dyn for<'text> FnOnce(&'text str) -> Parts<'text, R>>;

/// A file as [`run_batch`]'s `process` read it: its parts, to be made from its text, and the text
/// when they are read from it (else it is dropped before they are made: a big one-document file's
/// text is not kept beside its objects).
struct Batch<R> {
    text: Option<String>,
    parts: MakeParts<R>,
}

/// Runs `process` on every file (directories expanded, or stdin for `-`): the objects of all
/// files on stdout (or one file each in `--output-dir`), the reports on stderr, then the summary
/// line. Exit 1 when a file cannot be read or processed, or a document failed. `process` gives a
/// file's outcome in parts (the migration, one per document as it is converted): each part is
/// reported and its objects taken before the next is made.
fn run_batch<R: FileOutcome>(
    args: &[std::path::PathBuf],
    written: (&str, &str, &str),
    sink: Sink,
    quiet: bool,
    mut process: impl FnMut(&std::path::Path) -> Result<Batch<R>, String>,
) -> ExitCode {
    use explorer_core::pipeline::Outcome;
    use std::io::Write;
    // A report can run to a hundred thousand lines, and stderr is unbuffered: `eprintln!` would
    // make a write for each piece of each line. Buffered, and flushed after each file.
    let mut stderr = std::io::BufWriter::new(std::io::stderr().lock());
    let (files, walk_errors) = inputs::expand(args);
    let mut failed = !walk_errors.is_empty();
    for e in walk_errors {
        let _ = writeln!(stderr, "{}", shown(&format!("trainer-explorer: {e}")));
    }
    // What goes to stdout, gathered part by part as text (the YAML of a big job is a sixth of
    // its tree), or for `--output-dir` the documents' objects.
    let mut yaml = String::new();
    let mut docs = Vec::new();
    // Of the last file, the part with objects made last, kept as its objects rather than as text:
    // when no other follows it, its YAML is written to stdout as it is made, after `yaml` (see
    // `print_yaml`), never held whole beside them. Another part's objects held while the next part
    // is made are of the same file, so no more than that file's own size takes.
    let mut last = Vec::new();
    let mut tally = Tally { files: files.len(), ..Tally::default() };
    for (n, path) in files.iter().enumerate() {
        let label = path.display().to_string();
        let (text, parts) = match process(path) {
            Ok(Batch { text, parts }) => (text, Ok(parts)),
            Err(e) => (None, Err(e)),
        };
        // The text, when kept, outlives its parts: they are read from it one at a time.
        match parts.map(|parts| parts(text.as_deref().unwrap_or_default())) {
            Err(e) => {
                let _ = writeln!(stderr, "{}", shown(&format!("trainer-explorer: {label}: {e}")));
                tally.unreadable += 1;
                failed = true;
            }
            Ok(parts) => {
                // Escaping goes character by character, so `label: line` escaped whole is the
                // label escaped, `: ` and the line escaped: the label is escaped once, not again
                // with each of the report's lines.
                let label_shown = shown(&label);
                // The failures no line of the report printed (with `quiet`, every one): after
                // the file's report, in their order.
                let mut unreported = Vec::new();
                for done in parts {
                    let failures = done.failures();
                    let mut pending: Vec<&String> = failures.iter().collect();
                    done.write_report(quiet, &mut |lines| {
                        // Each line split off and judged for what it would hide in one pass.
                        for line in explorer_core::terminal::lines(lines) {
                            // The report's line for a failed document is the failure line (an
                            // invalid one with `invalid: ` after its place): printed once, as the
                            // failure. Read so only while a failure is pending: nearly every
                            // document has none, and its report can have thousands of lines.
                            let failure_at = if pending.is_empty() {
                                None
                            } else {
                                let as_failure = line.text().replacen("): invalid: ", "): ", 1);
                                pending.iter().position(|f| **f == as_failure)
                            };
                            match failure_at {
                                Some(i) => {
                                    let _ = writeln!(
                                        stderr,
                                        "{}",
                                        shown(&format!("trainer-explorer: {label}: {}", pending.remove(i)))
                                    );
                                }
                                None => {
                                    let _ = write_labelled(&mut stderr, &label_shown, &line.shown());
                                }
                            }
                        }
                    });
                    unreported.extend(pending.into_iter().cloned());
                    failed |= !failures.is_empty();
                    let mut part_docs = done.into_docs();
                    tally.add(&part_docs);
                    // Only the objects are written from here: the source and the report go now.
                    for d in &mut part_docs {
                        d.source = None;
                        if let Outcome::Written { report, .. } = &mut d.outcome {
                            *report = Vec::new();
                        }
                    }
                    match sink {
                        Sink::Stdout if has_output(&part_docs) => {
                            // The part kept before this one is not the last.
                            push_yaml(&mut yaml, &std::mem::take(&mut last));
                            if n + 1 == files.len() {
                                last = part_docs;
                            } else {
                                push_yaml(&mut yaml, &part_docs);
                            }
                        }
                        Sink::Stdout => {}
                        Sink::Directory(_) => docs.extend(part_docs),
                    }
                }
                for f in unreported {
                    let _ = writeln!(stderr, "{}", shown(&format!("trainer-explorer: {label}: {f}")));
                }
            }
        }
        let _ = stderr.flush();
    }
    let written_out = match sink {
        Sink::Stdout => print_yaml(&yaml, &last),
        Sink::Directory(dir) => write_objects(dir, &docs).map(|apply| {
            let _ = writeln!(stderr, "{}", shown(&apply));
        }),
    };
    if let Err(e) = written_out {
        let _ = writeln!(stderr, "{}", shown(&format!("trainer-explorer: {e}")));
        failed = true;
    }
    // A run that read nothing because every file failed has said why; a summary of zeros adds nothing.
    if tally.documents() > 0 || tally.unreadable == 0 {
        let _ = writeln!(stderr, "{}", tally.line(written));
    }
    let _ = stderr.flush();
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Whether any document of `docs` has objects to print.
fn has_output(docs: &[explorer_core::pipeline::Document]) -> bool {
    docs.iter().any(|d| !d.outcome.output().is_empty())
}

/// Adds the YAML of `docs` (`pipeline::output_yaml`) to `yaml`, the text of the parts before
/// them, `---` between.
fn push_yaml(yaml: &mut String, docs: &[explorer_core::pipeline::Document]) {
    let text = explorer_core::pipeline::output_yaml(docs);
    if yaml.is_empty() {
        // The first part's text is taken, not copied: a big job's YAML is megabytes, and both were
        // held beside its objects.
        *yaml = text;
    } else if !text.is_empty() {
        yaml.push_str("---\n");
        yaml.push_str(&text);
    }
}

/// Prints a batch command's YAML on stdout, once every report line is on stderr: `yaml`, then
/// the objects of `last` (the last part), `---` between, written as they are made. The bytes
/// `print_output` wrote for the whole text made first, its trailing whitespace trimmed, and
/// nothing for an empty one: stdout still comes after every report line (where both go to one
/// terminal or file, in the same order), and a document that fails after others leaves theirs
/// printed, as before.
fn print_yaml(yaml: &str, last: &[explorer_core::pipeline::Document]) -> Result<(), String> {
    let mut out = yaml_out::YamlOut::new(std::io::BufWriter::new(std::io::stdout().lock()));
    out.write(yaml);
    if !yaml.is_empty() && has_output(last) {
        out.write("---\n");
    }
    explorer_core::yaml::write_json_documents(last.iter().flat_map(|d| d.outcome.output()), &mut |run| out.write(run));
    out.finish()
}

/// `--output-dir`: each object in its own file, named and ordered as the explorer's page does
/// (pipeline::output); returns the `kubectl apply` line for them.
fn write_objects(dir: &std::path::Path, docs: &[explorer_core::pipeline::Document]) -> Result<String, String> {
    use explorer_core::pipeline::output::{apply_command, output_objects};
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut objects = output_objects(docs);
    for o in &mut objects {
        let path = dir.join(&o.file);
        std::fs::write(&path, &o.yaml).map_err(|e| format!("{}: {e}", path.display()))?;
        o.file = path.display().to_string();
    }
    Ok(if objects.is_empty() { format!("nothing written to {}", dir.display()) } else { apply_command(&objects) })
}

/// What `migrate` keeps of each job: what it prints (the objects and the report), not the
/// source of a job too large for the pod comparison.
const FOR_OUTPUT: explorer_core::migrate::Sources = explorer_core::migrate::Sources::ForOutput;

fn migrate(
    files: &[std::path::PathBuf],
    quiet: bool,
    target: explorer_data::releases::Release,
    output_dir: Option<&std::path::Path>,
) -> ExitCode {
    let sink = output_dir.map_or(Sink::Stdout, Sink::Directory);
    // Each document a migration of its own, reported and written before the next is converted.
    run_batch(files, ("job", "jobs", "converted"), sink, quiet, |path| {
        let AcceptedFile { text, accepted } = accept_file(path, None).map_err(|e| e.to_string())?;
        Ok(Batch {
            text,
            parts: Box::new(move |text| {
                let docs = explorer_core::migrate::migrate_documents(accepted.documents(text), target, FOR_OUTPUT);
                Box::new(docs.map(move |d| explorer_core::migrate::Migration { docs: vec![d], target }))
            }),
        })
    })
}

#[derive(Clone, Copy, ValueEnum)]
enum BatchFormat {
    Yaml,
    Json,
}

/// `migrate --output json`: one JSON array of every document of every file on stdout, each with
/// its file; failures on stderr as in YAML mode. Each document is converted, compared and written
/// before the next is read.
fn migrate_json(files: &[std::path::PathBuf], target: explorer_data::releases::Release) -> ExitCode {
    batch_json(files, |path, file, out| {
        let mut failures = Vec::new();
        let AcceptedFile { text, accepted } = accept_file(path, None).map_err(|e| e.to_string())?;
        let docs = accepted.documents(text.as_deref().unwrap_or_default());
        for d in explorer_core::migrate::migrate_documents(docs, target, FOR_OUTPUT) {
            out.push(&explorer_core::migrate::pods::document_json_with(&d, target, file_member(file)))?;
            failures.extend(explorer_core::pipeline::failures(std::slice::from_ref(&d)));
        }
        Ok(failures)
    })
}

/// The `file` member every document of a batch command's JSON ends with.
fn file_member(file: &str) -> Vec<(&'static str, serde_json::Value)> {
    vec![("file", file.into())]
}

/// Runs `process` on every file (or stdin for `-`) for a batch command's `--format json`: the
/// documents of every file (directories expanded) as one JSON array on stdout, each with its
/// file; the failures on stderr, one line each, as in YAML mode (exit 1). `process` gets the
/// file (to read with `read_input` or `accept_file`), its label and the array, writes each
/// document to it as it is made (not held as text or as a tree of JSON values: a job of a quarter
/// million labels took 400 MB as a tree), and gives the file's failures.
fn batch_json(
    files: &[std::path::PathBuf],
    mut process: impl FnMut(&std::path::Path, &str, &mut JsonArray) -> Result<Vec<String>, String>,
) -> ExitCode {
    let mut out = JsonArray::new();
    let (files, walk_errors) = inputs::expand(files);
    let mut failed = !walk_errors.is_empty();
    for e in walk_errors {
        eprintln!("{}", shown(&format!("trainer-explorer: {e}")));
    }
    for path in &files {
        let label = path.display().to_string();
        match process(path, &label, &mut out) {
            Err(e) => {
                eprintln!("{}", shown(&format!("trainer-explorer: {label}: {e}")));
                failed = true;
            }
            Ok(failures) => {
                for f in failures {
                    eprintln!("{}", shown(&format!("trainer-explorer: {label}: {f}")));
                    failed = true;
                }
            }
        }
    }
    if let Err(e) = out.finish() {
        eprintln!("{}", shown(&format!("trainer-explorer: {e}")));
        failed = true;
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A batch command's JSON answer on stdout, written a document at a time: what `json_pretty`
/// writes for the array of them. The text
/// needs no `shown`: `json_pretty` escapes every hidden character. A reader that closed the pipe
/// early has all it wanted: the rest is not written, quietly, as `print_output` does.
struct JsonArray {
    stdout: std::io::BufWriter<std::io::StdoutLock<'static>>,
    documents: usize,
    /// Why stdout took no more: the first write error (a broken pipe, or one to report).
    failed: Option<std::io::Error>,
}

impl JsonArray {
    fn new() -> Self {
        JsonArray { stdout: std::io::BufWriter::new(std::io::stdout().lock()), documents: 0, failed: None }
    }

    /// Writes one document after those before it. `Err` when it could not be serialized (its
    /// text is then cut short; a JSON value of ours always serializes).
    fn push(&mut self, doc: &impl serde::Serialize) -> Result<(), String> {
        use std::io::Write;
        if self.failed.is_some() {
            return Ok(());
        }
        let opening: &[u8] = if self.documents == 0 { b"[\n  " } else { b",\n  " };
        self.documents += 1;
        let written = self
            .stdout
            .write_all(opening)
            .map_err(serde_json::Error::io)
            .and_then(|()| explorer_core::terminal::write_json_pretty_member(&mut self.stdout, doc));
        match written {
            Ok(()) => Ok(()),
            Err(e) if e.is_io() => {
                self.failed = Some(std::io::Error::from(e));
                Ok(())
            }
            Err(e) => Err(e.to_string()),
        }
    }

    /// Closes the array (`[]` when it holds nothing) and flushes it.
    fn finish(mut self) -> Result<(), String> {
        use std::io::Write;
        let closing: &[u8] = if self.documents == 0 { b"[]\n" } else { b"\n]\n" };
        stdout_ended(self.failed.take(), || self.stdout.write_all(closing).and_then(|()| self.stdout.flush()))
    }
}

/// The `trainer-explorer` binary: parses the arguments, runs the command and says how it went in
/// the exit code (main.rs only calls this, so the tests can run the same code).
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Export { format: Format::Json, topics: true, .. } => export::export_topics_json(),
        Command::Export { format: Format::Json, query, .. } => export::export_json(query.as_deref()),
        Command::Explain { query, files, release, format } => {
            return explain::run(query.as_deref(), &release, &files, format)
        }
        #[cfg(feature = "site")]
        Command::Site(command) => site::run(command),
        Command::Migrate { files, quiet, target, format: BatchFormat::Yaml, output_dir } => {
            return migrate(&files, quiet, *target, output_dir.as_deref())
        }
        Command::Migrate { files, target, format: BatchFormat::Json, .. } => return migrate_json(&files, *target),
        Command::Validate { files, release, runtimes, skip, reject, format } => {
            return validate::run(&files, &validate::Options { release: *release, runtimes, skip, reject, format })
        }
        Command::Upgrade { from, to, files, quiet, format: BatchFormat::Yaml } => {
            return upgrade::run(&files, *from, to.copied().unwrap_or(explorer_data::releases::NEWEST), quiet)
        }
        Command::Upgrade { from, to, files, format: BatchFormat::Json, .. } => {
            let to = to.copied().unwrap_or(explorer_data::releases::NEWEST);
            return batch_json(&files, |path, file, out| {
                let u = upgrade::upgrade_file(path, *from, to)?;
                for i in 0..u.docs.len() {
                    out.push(&u.document_json_with(i, file_member(file)))?;
                }
                Ok(u.failures())
            });
        }
    };
    match result.and_then(|out| print_output(&out)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(reason) => {
            // One line, so scripts can show it as is.
            eprintln!("{}", shown(&format!("trainer-explorer: {}", reason.replace('\n', " "))));
            ExitCode::FAILURE
        }
    }
}

//! Command-line interface (native only). Every output comes from the core: `snippets::render`.

mod explain;
mod export;
#[cfg(feature = "site")]
mod site;
mod upgrade;

use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "trainer-explorer", version, about = "Kubeflow Trainer V2 snippets, V2 next to V1")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the snippets for every persona × framework, or for one selection.
    Export {
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
        /// A selection in the widget's URL syntax, e.g. 'persona=data-scientist&framework=jax&nodes=4'.
        #[arg(long, conflicts_with = "topics")]
        query: Option<String>,
        /// Print the post's topic snippets (Kueue, gang scheduling, ...) instead.
        #[arg(long)]
        topics: bool,
    },
    /// What the Trainer controller creates for a TrainJob: the JobSet, each replicatedJob's pods with
    /// their environment, the MPI hostfile and the other objects, or the webhook's rejection.
    Explain {
        /// A selection in the widget's URL syntax, e.g. 'framework=deepspeed&nodes=4'.
        #[arg(long, conflicts_with = "files")]
        query: Option<String>,
        /// YAML files holding a TrainJob and the runtime it references, or - for standard input.
        #[arg(required_unless_present = "query")]
        files: Vec<std::path::PathBuf>,
        /// The Trainer release whose controller reads the files (v2.0 ... v2.3; default the
        /// newest). A query names its own: 'release=v2.1&...'.
        #[arg(long, conflicts_with = "query")]
        release: Option<String>,
        #[arg(long, value_enum, default_value_t = explain::ExplainFormat::Json)]
        format: explain::ExplainFormat,
    },
    /// Convert V1 jobs (PyTorchJob, MPIJob, JAXJob, XGBoostJob; v2beta1 MPIJob) to TrainJobs.
    /// Prints the V2 YAML on stdout and the per-field report on stderr. Exit 0 when everything
    /// converted (with warnings on stderr when lossy), 1 with one line per refused document.
    Migrate {
        /// Files to convert, or - for standard input.
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
        #[arg(long, value_enum, default_value_t = BatchFormat::Yaml)]
        format: BatchFormat,
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
        /// Files to rewrite, or - for standard input.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Only the one-line outcome per lossy document on stderr, not the field-by-field report.
        #[arg(long)]
        quiet: bool,
        /// `yaml`: the rewritten objects. `json`: per document its outcome, objects and report
        /// (each field with its API changes), in the shape of `migrate --format json`.
        #[arg(long, value_enum, default_value_t = BatchFormat::Yaml)]
        format: BatchFormat,
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

/// Reads a file (or stdin for `-`), as UTF-8 text with a clear message for binary input.
fn read_input(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    let limit = explorer_core::pipeline::input::MAX_INPUT_BYTES as u64 + 1;
    let read = if path.as_os_str() == "-" {
        std::io::stdin().take(limit).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(limit).read_to_end(&mut bytes))
    };
    read.map_err(|e| format!("{}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        format!("{}: binary data at byte {}: expected YAML text", path.display(), e.utf8_error().valid_up_to())
    })
}

/// Prints a command's answer on stdout. A reader that closed the pipe early (`… | head`) has all it
/// wanted, so a broken pipe ends the output quietly; `println!` would panic on it. Any other write
/// error is the tool's failure, with a message.
fn print_output(text: &str) -> Result<(), String> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
        _ => Ok(()),
    }
}

/// What a batch command (`migrate`, `upgrade`) made of one file.
struct FileOutcome {
    /// Lines for stderr, each printed after the file's name.
    report: Vec<String>,
    /// One line per refused or invalid document.
    failures: Vec<String>,
    yaml: String,
}

/// Runs `process` on every file (or stdin for `-`): the YAML of all files on stdout, the reports
/// on stderr. Exit 1 when a file cannot be read or processed, or a document failed.
fn run_batch(files: &[std::path::PathBuf], mut process: impl FnMut(&str) -> Result<FileOutcome, String>) -> ExitCode {
    use std::io::Write;
    // A report can run to a hundred thousand lines, and stderr is unbuffered: `eprintln!` would
    // make a write for each piece of each line. Buffered, and flushed after each file.
    let mut stderr = std::io::BufWriter::new(std::io::stderr().lock());
    let mut outputs = Vec::new();
    let mut failed = false;
    for path in files {
        let label = path.display().to_string();
        let text = match read_input(path) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(stderr, "trainer-explorer: {e}");
                let _ = stderr.flush();
                failed = true;
                continue;
            }
        };
        match process(&text) {
            Err(e) => {
                let _ = writeln!(stderr, "trainer-explorer: {label}: {e}");
                failed = true;
            }
            Ok(done) => {
                for line in &done.report {
                    let _ = writeln!(stderr, "{label}: {line}");
                }
                for f in &done.failures {
                    let _ = writeln!(stderr, "trainer-explorer: {label}: {f}");
                }
                failed |= !done.failures.is_empty();
                outputs.push(done.yaml);
            }
        }
        let _ = stderr.flush();
    }
    let stdout: Vec<&str> = outputs.iter().map(|s| s.trim_end()).filter(|s| !s.is_empty()).collect();
    if !stdout.is_empty() {
        if let Err(e) = print_output(&stdout.join("\n---\n")) {
            let _ = writeln!(stderr, "trainer-explorer: {e}");
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn migrate(files: &[std::path::PathBuf], quiet: bool, target: explorer_data::releases::Release) -> ExitCode {
    run_batch(files, |text| {
        let m = explorer_core::migrate::migrate_to(text, target)?;
        let report = if quiet { m.lossy_headlines() } else { m.report_text().lines().map(String::from).collect() };
        Ok(FileOutcome { report, failures: m.failures(), yaml: m.output_yaml() })
    })
}

#[derive(Clone, Copy, ValueEnum)]
enum BatchFormat {
    Yaml,
    Json,
}

/// `migrate --format json`: one JSON array of every document of every file on stdout, each with
/// its file; failures on stderr as in YAML mode.
fn migrate_json(files: &[std::path::PathBuf], target: explorer_data::releases::Release) -> ExitCode {
    batch_json(files, |text| {
        let m = explorer_core::migrate::migrate_to(text, target)?;
        Ok((m.failures(), m.docs.iter().map(|d| explorer_core::migrate::pods::document_json(d, target)).collect()))
    })
}

/// Runs `process` on every file (or stdin for `-`) for a batch command's `--format json`: the
/// documents of every file as one JSON array on stdout, each with its file; the failures on
/// stderr, one line each, as in YAML mode (exit 1).
fn batch_json(
    files: &[std::path::PathBuf],
    mut process: impl FnMut(&str) -> Result<(Vec<String>, Vec<serde_json::Value>), String>,
) -> ExitCode {
    let mut docs = Vec::new();
    let mut failed = false;
    for path in files {
        let label = path.display().to_string();
        match read_input(path).and_then(|text| process(&text)) {
            Err(e) => {
                eprintln!("trainer-explorer: {label}: {e}");
                failed = true;
            }
            Ok((failures, documents)) => {
                for f in failures {
                    eprintln!("trainer-explorer: {label}: {f}");
                    failed = true;
                }
                for mut doc in documents {
                    doc["file"] = label.clone().into();
                    docs.push(doc);
                }
            }
        }
    }
    match serde_json::to_string_pretty(&docs).map_err(|e| e.to_string()).and_then(|text| print_output(&text)) {
        Ok(()) => {}
        Err(e) => {
            eprintln!("trainer-explorer: {e}");
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Export { format: Format::Json, topics: true, .. } => export::export_topics_json(),
        Command::Export { format: Format::Json, query, .. } => export::export_json(query.as_deref()),
        Command::Explain { query, files, release, format } => {
            explain::run(query.as_deref(), release.as_deref(), &files, format)
        }
        #[cfg(feature = "site")]
        Command::Site(command) => site::run(command),
        Command::Migrate { files, quiet, target, format: BatchFormat::Yaml } => return migrate(&files, quiet, *target),
        Command::Migrate { files, target, format: BatchFormat::Json, .. } => return migrate_json(&files, *target),
        Command::Upgrade { from, to, files, quiet, format: BatchFormat::Yaml } => {
            return upgrade::run(&files, *from, to.copied().unwrap_or(explorer_data::releases::NEWEST), quiet)
        }
        Command::Upgrade { from, to, files, format: BatchFormat::Json, .. } => {
            let to = to.copied().unwrap_or(explorer_data::releases::NEWEST);
            return batch_json(&files, |text| {
                let u = explorer_core::upgrade::upgrade(text, *from, to)?;
                Ok((u.failures(), u.documents_json()))
            });
        }
    };
    match result.and_then(|out| print_output(&out)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(reason) => {
            // One line, so scripts can show it as is.
            eprintln!("trainer-explorer: {}", reason.replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

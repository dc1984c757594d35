//! Command-line interface (native only). Every output comes from the core: `snippets::render`.

mod explain;
mod export;
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
    /// Build the post from post/trainer-v2.md: index.html, and the blog's Markdown export.
    Post {
        /// Exit 1 when the committed index.html differs from what the source renders to.
        #[arg(long)]
        check: bool,
        /// Where to write the page (default: index.html).
        #[arg(long, default_value = "index.html")]
        out: std::path::PathBuf,
        /// Also write the Kubeflow blog Markdown export into this folder (as _posts/<date>-<slug>.md),
        /// with its social card as images/<date>-<slug>/social-card.svg.
        #[arg(long)]
        export: Option<std::path::PathBuf>,
    },
    /// Write the static fallback of every persona × framework as <persona>__<framework>.html, for
    /// the embed kits (`make kits`) to include.
    FallbackFiles {
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Regenerate the static (no-JavaScript) fallback inside each mount point of an HTML page.
    Fallback {
        /// The page to read.
        page: std::path::PathBuf,
        /// Write the result here (may be the page itself).
        #[arg(long, conflicts_with = "check")]
        out: Option<std::path::PathBuf>,
        /// Exit 1 when the page's fallback differs from what the core generates.
        #[arg(long)]
        check: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Json,
}

fn fallback(page: &std::path::Path, out: Option<&std::path::Path>, check: bool) -> Result<String, String> {
    let html = std::fs::read_to_string(page).map_err(|e| format!("{}: {e}", page.display()))?;
    let filled = crate::post::fallback::fill_page(&html)?;
    if check {
        return if filled == html {
            Ok(format!("{}: fallback is up to date", page.display()))
        } else {
            Err(format!("{}: fallback differs from the core's output; run `make fallback`", page.display()))
        };
    }
    match out {
        Some(path) => {
            std::fs::write(path, filled).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(format!("wrote {}", path.display()))
        }
        None => Ok(filled),
    }
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
    input::text_of(&bytes).map(str::to_string)
}

/// Why an input over the limit, `read` bytes of which were read, is refused, with its real size:
/// a file's length, or what standard input held in all, counted up to 1 GiB more (a stream
/// without end is not waited for).
fn oversize(path: &std::path::Path, read: u64, rest: Box<dyn std::io::Read + '_>) -> String {
    use explorer_core::pipeline::input::too_large;
    use std::io::Read;
    let file = (path.as_os_str() != "-").then(|| std::fs::metadata(path).ok()).flatten().filter(|m| m.is_file());
    if let Some(meta) = file {
        return too_large(meta.len());
    }
    const MORE: u64 = 1 << 30;
    match std::io::copy(&mut rest.take(MORE), &mut std::io::sink()) {
        Ok(more) if more < MORE => too_large(read + more),
        _ => too_large(read + MORE).replacen("input is", "input is more than", 1),
    }
}

/// Text for the terminal: what came from input (a name, a value, a file name) may hold control
/// characters a terminal would obey, shown escaped instead (`explorer_core::terminal`). Every line
/// the CLI prints goes through this.
fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    explorer_core::terminal::escape(text)
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
                let _ = writeln!(stderr, "{}", shown(&format!("trainer-explorer: {label}: {e}")));
                let _ = stderr.flush();
                failed = true;
                continue;
            }
        };
        match process(&text) {
            Err(e) => {
                let _ = writeln!(stderr, "{}", shown(&format!("trainer-explorer: {label}: {e}")));
                failed = true;
            }
            Ok(done) => {
                for line in &done.report {
                    let _ = writeln!(stderr, "{}", shown(&format!("{label}: {line}")));
                }
                for f in &done.failures {
                    let _ = writeln!(stderr, "{}", shown(&format!("trainer-explorer: {label}: {f}")));
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
            let _ = writeln!(stderr, "{}", shown(&format!("trainer-explorer: {e}")));
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
                eprintln!("{}", shown(&format!("trainer-explorer: {label}: {e}")));
                failed = true;
            }
            Ok((failures, documents)) => {
                for f in failures {
                    eprintln!("{}", shown(&format!("trainer-explorer: {label}: {f}")));
                    failed = true;
                }
                for mut doc in documents {
                    doc["file"] = label.clone().into();
                    docs.push(doc);
                }
            }
        }
    }
    match explorer_core::terminal::json_pretty(&docs).and_then(|text| print_output(&text)) {
        Ok(()) => {}
        Err(e) => {
            eprintln!("{}", shown(&format!("trainer-explorer: {e}")));
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn fallback_files(dir: &std::path::Path) -> Result<String, String> {
    use explorer_data::catalog::{Framework, Persona};
    let mut n = 0;
    for persona in Persona::ALL {
        for framework in Framework::ALL {
            let sel = explorer_core::selection::Selection::new(persona, framework);
            let path = dir.join(format!("{}__{}.html", persona.id(), framework.id()));
            write(&path, &crate::post::fallback::fallback_html(&sel))?;
            n += 1;
        }
    }
    Ok(format!("wrote {n} fallbacks into {}", dir.display()))
}

fn read(path: &std::path::Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &std::path::Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn post(check: bool, out: &std::path::Path, export: Option<&std::path::Path>) -> Result<String, String> {
    let source = read(std::path::Path::new(crate::post::SOURCE_PATH))?;
    let template = read(std::path::Path::new(crate::post::TEMPLATE_PATH))?;
    let page = crate::post::render_page(&source, &template)?;
    if check {
        let committed = read(out)?;
        return if committed == page {
            Ok(format!("{}: up to date with {}", out.display(), crate::post::SOURCE_PATH))
        } else {
            Err(format!("{} differs from what {} renders to; run `make post`", out.display(), crate::post::SOURCE_PATH))
        };
    }
    write(out, &page)?;
    let mut msg = format!("wrote {}", out.display());
    if let Some(dir) = export {
        let (name, markdown) = crate::post::markdown_export(&source)?;
        let path = dir.join("_posts").join(name);
        write(&path, &markdown)?;
        // The social card, as SVG next to where the front matter's PNG goes (`make kits` draws it).
        let (meta, _) = crate::post::split(&source)?;
        let card = dir.join(crate::post::social_card_path(&meta)).with_extension("svg");
        write(&card, &crate::post::social_card_svg(&source)?)?;
        msg.push_str(&format!(", {} and {}", path.display(), card.display()));
    }
    Ok(msg)
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Export { format: Format::Json, topics: true, .. } => export::export_topics_json(),
        Command::Export { format: Format::Json, query, .. } => export::export_json(query.as_deref()),
        Command::Explain { query, files, release, format } => {
            explain::run(query.as_deref(), release.as_deref(), &files, format)
        }
        Command::Fallback { page, out, check } => fallback(&page, out.as_deref(), check),
        Command::Post { check, out, export } => post(check, &out, export.as_deref()),
        Command::FallbackFiles { out } => fallback_files(&out),
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
            eprintln!("{}", shown(&format!("trainer-explorer: {}", reason.replace('\n', " "))));
            ExitCode::FAILURE
        }
    }
}

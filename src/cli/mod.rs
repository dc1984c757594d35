//! Command-line interface (native only). Every output comes from the core: `snippets::render`.

mod export;

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
        #[arg(long)]
        query: Option<String>,
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
    let filled = crate::fallback::fill_page(&html)?;
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

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Export { format: Format::Json, query } => export::export_json(query.as_deref()),
        Command::Fallback { page, out, check } => fallback(&page, out.as_deref(), check),
    };
    match result {
        Ok(out) => {
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err(reason) => {
            // One line, so scripts can show it as is.
            eprintln!("trainer-explorer: {}", reason.replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

//! Command-line interface (native only). Every output comes from the core: `snippets::render`.

mod export;

use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "trainer-explorer",
    version,
    about = "Kubeflow Trainer V2 snippets, V2 next to V1"
)]
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
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Json,
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Export {
            format: Format::Json,
            query,
        } => export::export_json(query.as_deref()),
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

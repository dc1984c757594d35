//! `trainer-explorer explain`: what the Trainer controller creates for a widget selection
//! (`--query`) or for the reader's own TrainJob plus runtime (files), as JSON or YAML.
//! A webhook rejection is a normal answer (`rejected` set, exit 0): the input was read.

use crate::explain::read::explain_text;
use crate::explain::{explain, Explanation, Input, Release};
use crate::snippets::runtimes::runtime_for;
use crate::snippets::trainjob::trainjob_for;
use clap::ValueEnum;

#[derive(Clone, Copy, ValueEnum)]
pub enum ExplainFormat {
    Json,
    Yaml,
}

/// The explanation for the selection a widget URL query names.
pub fn for_query(query: &str) -> Result<Explanation, String> {
    let sel = crate::query::parse_strict(query).map_err(|e| e.to_string())?;
    let (Some(job), Some(runtime)) = (trainjob_for(&sel), runtime_for(&sel)) else {
        return Err(format!("{} has no Trainer V2 runtime, so there is nothing to explain", sel.framework.id()));
    };
    Ok(explain(Input { job: &job, runtime: &runtime, counts: &[] }, Release::default()))
}

/// The explanation for the TrainJob and runtime found across `files` (YAML, `-` for stdin).
pub fn for_files(files: &[std::path::PathBuf]) -> Result<Explanation, String> {
    let texts = files.iter().map(|f| super::read_input(f)).collect::<Result<Vec<_>, _>>()?;
    explain_text(&texts.join("\n---\n"), Release::default())
}

pub fn render(e: &Explanation, format: ExplainFormat) -> Result<String, String> {
    match format {
        ExplainFormat::Json => serde_json::to_string_pretty(e).map_err(|err| err.to_string()),
        ExplainFormat::Yaml => {
            Ok(crate::yaml::join(&crate::yaml::emit(&crate::model::to_value(e))).trim_end().to_string())
        }
    }
}

pub fn run(query: Option<&str>, files: &[std::path::PathBuf], format: ExplainFormat) -> Result<String, String> {
    let e = match query {
        Some(q) => for_query(q)?,
        None => for_files(files)?,
    };
    render(&e, format)
}

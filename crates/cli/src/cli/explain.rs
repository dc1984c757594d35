//! `trainer-explorer explain`: what the Trainer controller creates for a widget selection
//! (`--query`) or for the reader's own TrainJob plus runtime (files), as JSON or YAML.
//! A webhook rejection is a normal answer (`rejected` set, exit 0): the input was read.
//!
//! The release: a query names it as the widget does (`release=v2.1`, the newest when absent);
//! for files, `--release vX.Y` (the newest by default). The manifests do not say which release
//! they are for (every release serves `trainer.kubeflow.org/v1alpha1`), and guessing from the
//! fields they use would explain a v2.3 TrainJob on v2.0 without a word; an explicit release
//! instead answers with the rejection that release's API server or webhook gives.

use clap::ValueEnum;
use explorer_core::explain::read::explain_trees;
use explorer_core::explain::Explanation;
use explorer_data::releases::{Release, NEWEST, RELEASES};

#[derive(Clone, Copy, ValueEnum)]
pub(super) enum ExplainFormat {
    Json,
    Yaml,
}

/// The explanation for the selection a widget URL query names, at the query's release.
pub(super) fn for_query(query: &str) -> Result<Explanation, String> {
    explorer_core::explain::selection::for_query(query)
}

/// `--release v2.1` (or the full tag) as a release line.
pub(super) fn release_named(name: &str) -> Result<Release, String> {
    RELEASES.iter().copied().find(|r| r.line == name || r.tag == name).ok_or_else(|| {
        let lines: Vec<&str> = RELEASES.iter().map(|r| r.line).collect();
        format!("unknown release {name:?}: one of {}", lines.join(", "))
    })
}

/// How to pick another release, or that this one was picked.
fn judged_note(release: Release) -> String {
    let lines: Vec<&str> = RELEASES.iter().map(|r| r.line).collect();
    if release.line == NEWEST.line {
        format!(" (the newest; --release {} for another)", lines.join(", "))
    } else {
        String::new()
    }
}

pub(super) fn render<T: serde::Serialize>(e: &T, format: ExplainFormat) -> Result<String, String> {
    match format {
        ExplainFormat::Json => explorer_core::terminal::json_pretty(e),
        ExplainFormat::Yaml => {
            Ok(explorer_core::yaml::join(&explorer_core::yaml::emit(&explorer_core::model::to_value(e)))
                .trim_end()
                .to_string())
        }
    }
}

pub(super) fn run(
    query: Option<&str>,
    release: &str,
    files: &[std::path::PathBuf],
    format: ExplainFormat,
) -> Result<String, String> {
    let e = match query {
        Some(q) => for_query(q)?,
        None => {
            let release = release_named(release)?;
            let texts = files
                .iter()
                .map(|f| super::read_input(f).map_err(|e| format!("{}: {e}", f.display())))
                .collect::<Result<Vec<_>, _>>()?;
            let text = texts.join("\n---\n");
            // Read once, through the input door migrate and upgrade use.
            let docs = explorer_core::explain::read::trees(&text).map_err(|e| match files {
                // Named as migrate and upgrade name a file whose input the door refuses.
                [one] => format!("{}: {e}", one.display()),
                _ => e,
            })?;
            // A V1 job: what its operator creates (no Trainer release applies).
            if let Some(v1) = explorer_core::explain::v1::explain_trees(&docs) {
                return render(&v1?, format);
            }
            let e = explain_trees(docs, release)?;
            // Which release judged the files, since the files cannot say (see above). An error
            // names its release itself.
            eprintln!("trainer-explorer: judged by Trainer {}{}", release.tag, judged_note(release));
            e
        }
    };
    render(&e, format)
}

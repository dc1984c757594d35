//! `trainer-explorer upgrade`: rewrite Trainer V2 manifests for a newer release. Same streams
//! and exit codes as `migrate`: YAML on stdout, the report on stderr, exit 1 when a document
//! was refused or invalid.

use super::{run_batch, Batch, Sink};
use explorer_data::releases::Release;
use std::process::ExitCode;

pub(super) fn run(files: &[std::path::PathBuf], from: Release, to: Release, quiet: bool) -> ExitCode {
    run_batch(files, ("manifest", "manifests", "rewritten"), Sink::Stdout, quiet, |path| {
        let text = super::read_input(path)?;
        let u = explorer_core::upgrade::upgrade_without_sources(&text, from, to).map_err(|e| e.to_string())?;
        Ok(Batch { text: None, parts: Box::new(move |_| Box::new(std::iter::once(u))) })
    })
}

//! `trainer-explorer upgrade`: rewrite Trainer V2 manifests for a newer release. Same streams
//! and exit codes as `migrate`: YAML on stdout, the report on stderr, exit 1 when a document
//! was refused or invalid.

use super::{run_batch, Batch, Sink};
use explorer_core::upgrade::{self, Upgrade};
use explorer_data::releases::Release;
use std::process::ExitCode;

pub(super) fn run(files: &[std::path::PathBuf], from: Release, to: Release, quiet: bool) -> ExitCode {
    run_batch(files, ("manifest", "manifests", "rewritten"), Sink::Stdout, quiet, |path| {
        let u = upgrade_file(path, from, to)?;
        Ok(Batch { text: None, parts: Box::new(move |_| Box::new(std::iter::once(u))) })
    })
}

/// The upgrade of the file at `path` (or stdin for `-`), for both output formats: read, the
/// releases checked, then handed to the input door (`super::accept_read`), which frees a
/// one-document file's text as it parses it rather than holding it beside the tree (issue 36:
/// 4 MiB of a 4 MiB manifest's peak). The same order, and so the same first error, as when the
/// core read the text itself.
pub(super) fn upgrade_file(path: &std::path::Path, from: Release, to: Release) -> Result<Upgrade, String> {
    let text = super::read_input(path)?;
    upgrade::refuse_downgrade(from, to).map_err(|e| e.to_string())?;
    let super::AcceptedFile { text, accepted } = super::accept_read(path, text, None).map_err(|e| e.to_string())?;
    let docs = accepted.documents(text.as_deref().unwrap_or_default());
    upgrade::upgrade_documents_without_sources(docs, from, to).map_err(|e| e.to_string())
}

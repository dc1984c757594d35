//! Upgrade notes for a selection: what changes in the reader's V2 YAML from one release to a
//! newer one, field by field, each with its release and reason. Not written per selection: the
//! selection's YAML for `from` goes through the same rewrite as the CLI's, so the notes are the
//! change table (`crate::release_changes`) applied to what the reader copies.

use super::{upgrade, Kind, Outcome};
use crate::release_changes::ApiChange;
use crate::selection::Selection;
use crate::snippets;
use explorer_data::catalog::V2Support;
use explorer_data::releases::{Release, RELEASES};

/// One field of a selection's YAML that changed between an older release and the target: what
/// the widget's upgrade notes show.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// `TrainJob pytorch-mnist`.
    pub object: String,
    /// The field in the `from` YAML.
    pub field: String,
    /// `renamed`, `moved`, `converted`, `omitted`, `dropped`, `added`, or `attention` for a
    /// field that stays but needs the reader (a built-in runtime no longer shipped).
    pub action: &'static str,
    /// Where it is in the `to` YAML, when somewhere.
    pub to: Vec<String>,
    /// The release of the newest change it went through.
    pub release: Release,
    /// The changes it went through, oldest first (empty for `attention`).
    pub changes: Vec<&'static ApiChange>,
    /// One line: the reasons, and what the rewrite did.
    pub reason: String,
    /// What the rewrite did beyond the changes' reasons (the tail of `reason`), for a view that
    /// shows each change on its own.
    pub detail: String,
}

/// What upgrading a selection's YAML from one older release line says.
#[derive(Clone, Debug)]
pub enum FromOlder {
    /// That release has no runtime for the selection: there is nothing to upgrade.
    NoRuntime,
    /// The notes (empty: no changes), or why the YAML cannot be upgraded.
    Notes(Result<Vec<Note>, super::Error>),
}

/// For the selection at its release, each older release line, newest first (the reader one
/// release behind reads the first), with what upgrading the selection's YAML from it says.
pub fn notes_from_older_releases(sel: &Selection) -> Vec<(Release, FromOlder)> {
    let to = sel.release;
    let older = RELEASES.iter().copied().filter(|r| r.is_before(&to)).rev();
    older
        .map(|from| {
            let at_from = Selection { release: from, ..sel.clone() };
            let notes = match at_from.v2_support() {
                V2Support::Unsupported => FromOlder::NoRuntime,
                _ => FromOlder::Notes(upgrade_notes(sel, from, to)),
            };
            (from, notes)
        })
        .collect()
}

/// The notes for the selection's V2 YAML written for `from`, upgraded to `to`. Empty when
/// `from` is `to`; `Err` when the YAML cannot be upgraded (a downgrade, or a snippet that is not
/// a `from` manifest).
pub fn upgrade_notes(sel: &Selection, from: Release, to: Release) -> Result<Vec<Note>, super::Error> {
    super::refuse_downgrade(from, to)?;
    let mut at_from = sel.clone();
    at_from.release = from;
    let yaml = snippets::v2_yaml(&at_from);
    if yaml.is_empty() {
        return Ok(Vec::new());
    }
    notes_for_yaml(&yaml.join("\n---\n"), from, to)
}

/// The notes for a V2 YAML stream written for `from`.
pub fn notes_for_yaml(text: &str, from: Release, to: Release) -> Result<Vec<Note>, super::Error> {
    if from == to {
        return Ok(Vec::new());
    }
    let u = upgrade(text, from, to)?;
    if let Some(failed) = u.docs.iter().find(|d| d.outcome.failure().is_some()) {
        return Err(super::Error::Document(Box::new(failed.clone())));
    }
    let mut notes = Vec::new();
    for d in &u.docs {
        let Outcome::Written { kind, name, report, .. } = &d.outcome else { continue };
        let object = format!("{kind} {name}");
        for e in report {
            let release = e.since.copied().or(e.changes.last().map(|c| c.release)).unwrap_or(to);
            let mut reason: Vec<String> = e.changes.iter().map(|c| format!("{}: {}", c.source(), c.reason)).collect();
            if !e.note.is_empty() {
                reason.push(e.note.clone());
            }
            notes.push(Note {
                object: object.clone(),
                field: e.from.clone(),
                action: e.kind.id(),
                to: if e.kind == Kind::Added { Vec::new() } else { e.to.iter().map(|t| t.path.clone()).collect() },
                release,
                changes: e.changes.clone(),
                reason: reason.join("; "),
                detail: e.note.clone(),
            });
        }
    }
    Ok(notes)
}

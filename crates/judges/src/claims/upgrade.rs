//! Checks an upgrade report against the documents it describes: the shared rules
//! (`crate::claims`, where a field no entry mentions must be in the output unchanged)
//! and an upgrade's own: what an entry must say (its API change, what to do after a drop), the
//! output side (every output leaf comes from the input or from an entry), and places in other
//! documents. The tests run it on every upgrade case.

use crate::claims::{self, Judge, Written};
use explorer_core::pipeline::paths::{covers, leaf_paths};
use explorer_core::upgrade::report::{entry_for, Entry, Kind};
use serde_json::Value;

/// The documents of a stream by their 1-based position.
pub type Docs<'a> = [(usize, &'a Value)];

/// An upgrade judges a whole stream: a value can move to another document.
struct Upgrade;

impl Judge for Upgrade {
    fn at(&self, doc: usize, path: &str) -> String {
        format!("document {doc}: {path}")
    }

    fn input(&self) -> &'static str {
        "input"
    }

    fn writes(&self, kind: Kind) -> bool {
        !matches!(kind, Kind::Mapped | Kind::NameFixed)
    }

    fn unmentioned_stays(&self) -> bool {
        true
    }
}

/// The false claims of `entries` about `sources` (the input documents) given `outputs` (the
/// rewritten ones); empty when every claim holds.
pub fn false_claims(sources: &Docs, outputs: &Docs, entries: &[Entry]) -> Vec<String> {
    let written: Vec<Written> =
        outputs.iter().map(|(doc, v)| Written { doc: *doc, prefix: String::new(), object: v }).collect();
    let c = claims::check(&Upgrade, sources, &written, entries);
    let mut problems = c.problems;

    for e in entries {
        let at = Upgrade.at(e.doc, &e.from);
        match e.kind {
            Kind::Attention if e.since.is_none() || e.note.is_empty() || !e.to.is_empty() => {
                problems.push(format!("{at}: attention without a release, a message, or with a place"))
            }
            Kind::Attention => {}
            _ if e.changes.is_empty() => problems.push(format!("{at}: {} without naming the API change", e.kind.id())),
            _ => {}
        }
        match e.kind {
            Kind::Added if !c.outputs.contains_key(&(e.doc, e.from.clone())) => {
                problems.push(format!("{at}: added, but the output does not have it"))
            }
            Kind::Dropped if e.note.is_empty() => {
                problems.push(format!("{at}: dropped without saying what to do instead"))
            }
            Kind::Omitted | Kind::Dropped if !e.to.is_empty() => {
                problems.push(format!("{at}: {}, yet it names where it went", e.kind.id()))
            }
            _ => {}
        }
    }

    // The input side beyond the shared rules: what is left out is gone, what needs the reader stays.
    for (doc, leaf, value) in &c.leaves {
        let Some(e) = entry_for(entries, *doc, leaf) else { continue };
        let at = Upgrade.at(*doc, leaf);
        let held = c.outputs.get(&(*doc, leaf.clone()));
        match e.kind {
            Kind::Omitted | Kind::Dropped if held.is_some() => {
                problems.push(format!("{at}: {}, yet the output still has it", e.kind.id()))
            }
            Kind::Attention if held != Some(value) => {
                problems.push(format!("{at}: attention, yet the output does not keep {value} there"))
            }
            _ => {}
        }
    }

    // The output side: every output leaf comes from the input unchanged or from an entry.
    for (doc, v) in outputs {
        let mut leaves = Vec::new();
        leaf_paths(v, String::new(), &mut leaves);
        for (leaf, value) in leaves {
            let unchanged = entry_for(entries, *doc, &leaf).is_none_or(|e| e.kind == Kind::Attention)
                && c.sources.get(&(*doc, leaf.clone())).is_some_and(|held| *held == value);
            let placed = entries.iter().any(|e| match e.kind {
                Kind::Added => e.doc == *doc && e.from == leaf,
                _ => e.to.iter().any(|t| t.doc == *doc && covers(&t.path, &leaf)),
            });
            // A map or list emptied by taking out its last field.
            let emptied = is_empty_container(value)
                && entries
                    .iter()
                    .any(|e| e.doc == *doc && e.kind != Kind::Added && e.from != leaf && covers(&leaf, &e.from));
            if !(unchanged || placed || emptied) {
                problems.push(format!("document {doc}: the output has {leaf} = {value}, which no entry accounts for"));
            }
        }
    }
    problems
}

fn is_empty_container(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.is_empty()) || matches!(v, Value::Array(a) if a.is_empty())
}

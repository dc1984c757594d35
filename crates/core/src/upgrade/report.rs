//! The upgrade's per-field report, built release step by release step. Its entries are the
//! pipeline's (`crate::pipeline::report`), as a migration's are: each accounts for a field and
//! everything beneath it (the longest matching path wins). An upgrade entry can land in several
//! places (an override that targeted two jobs becomes two patches), in another document (a
//! runtime's value moving to its TrainJobs), and carries the chain of API changes it went
//! through (v2.0 → v2.3 renames a pod setting twice).

use crate::pipeline::paths::{ancestors, covers};
pub(crate) use crate::pipeline::report::Place;
pub use crate::pipeline::report::{Entry, Kind};
use std::collections::BTreeMap;

/// How much an entry changes, to pick one kind for a field that went through several changes:
/// a drop outweighs a conversion, which outweighs a move. A migration's kinds (`Mapped`,
/// `NameFixed`) do not occur in an upgrade.
fn weight(kind: Kind) -> u8 {
    match kind {
        Kind::Renamed | Kind::Mapped | Kind::NameFixed | Kind::Attention => 0,
        Kind::Moved => 1,
        Kind::Added => 2,
        Kind::Converted => 3,
        Kind::Omitted => 4,
        Kind::Dropped => 5,
    }
}

/// One line for people: `renamed  spec.x -> spec.y (v2.2 #3309: reason; note)`, or for a field that
/// needs the reader `attention spec.runtimeRef.name (v2.3: what to do)`.
pub fn line(e: &Entry) -> String {
    let to = match e.kind {
        Kind::Added | Kind::Omitted | Kind::Dropped | Kind::Attention => String::new(),
        _ => {
            let places: Vec<String> =
                e.to.iter()
                    .map(|t| if t.doc == e.doc { t.path.clone() } else { format!("document {}: {}", t.doc, t.path) })
                    .collect();
            format!(" -> {}", places.join(", "))
        }
    };
    let mut why: Vec<String> = e.changes.iter().map(|c| format!("{}: {}", c.source(), c.reason)).collect();
    if !e.note.is_empty() {
        why.push(match e.since {
            Some(release) => format!("{}: {}", release.line, e.note),
            None => e.note.clone(),
        });
    }
    format!("{:<9} {}{to} ({})", e.kind.id(), e.from, why.join("; "))
}

/// The entries of a whole stream, built step by step: each release's rewrite reports in terms
/// of the manifest as the previous step left it, and `record` carries that back to the input's
/// paths, so that every input field ends up with one entry that names every change it went through.
#[derive(Default)]
pub(crate) struct Report {
    pub(crate) entries: Vec<Entry>,
    /// The entries by the places they put something, so that a step finds the entries it
    /// changes by looking up its own path, its ancestors and its descendants, not by scanning
    /// every entry (10,000 TrainJobs in one input have tens of thousands).
    placed: BTreeMap<(usize, String), Vec<usize>>,
}

impl Report {
    fn push(&mut self, entry: Entry) {
        if entry.kind != Kind::Added {
            for t in &entry.to {
                self.placed.entry((t.doc, t.path.clone())).or_default().push(self.entries.len());
            }
        }
        self.entries.push(entry);
    }

    /// Records what one step did to `step.from` (a path of the manifest as the previous steps
    /// left it, in document `step.doc`).
    pub(crate) fn record(&mut self, step: Entry) {
        if step.kind == Kind::Added {
            // Runtime patches, where the rewrite adds fields, are the newest shape: no later
            // step moves them.
            self.entries.push(step);
            return;
        }
        let start = (step.doc, step.from.clone());
        let beneath: Vec<(usize, String)> = self
            .placed
            .range(start..)
            .take_while(|((doc, path), _)| *doc == step.doc && path.starts_with(&step.from))
            .filter(|((_, path), _)| covers(&step.from, path))
            .map(|(key, _)| key.clone())
            .collect();
        let above: Vec<(usize, String)> = ancestors(&step.from)
            .map(|a| (step.doc, a.to_string()))
            .filter(|key| self.placed.contains_key(key))
            .collect();
        if beneath.is_empty() && above.is_empty() {
            self.push(step);
            return;
        }
        // What an earlier entry placed at or beneath the step's path goes where the step sends it.
        for key in beneath {
            let suffix = &key.1[step.from.len()..];
            let moved: Vec<Place> =
                step.to.iter().map(|t| Place { doc: t.doc, path: format!("{}{suffix}", t.path) }).collect();
            for i in self.placed.remove(&key).unwrap_or_default() {
                let e = &mut self.entries[i];
                e.to =
                    e.to.iter()
                        .flat_map(|t| if (t.doc, &t.path) == (key.0, &key.1) { moved.clone() } else { vec![t.clone()] })
                        .collect();
                e.kind = heavier(e.kind, step.kind);
                e.derived = e.kind == Kind::Converted;
                for c in &step.changes {
                    if !e.changes.iter().any(|x| std::ptr::eq(*x, *c)) {
                        e.changes.push(c);
                    }
                }
                if !e.note.contains(&step.note) {
                    e.note = join_details(&e.note, &step.note);
                }
                for t in &moved {
                    self.placed.entry((t.doc, t.path.clone())).or_default().push(i);
                }
            }
        }
        // The step changes a part of what an earlier entry placed: that part gets its own entry.
        for key in above {
            for i in self.placed.get(&key).cloned().unwrap_or_default() {
                let e = &self.entries[i];
                let kind = heavier(e.kind, step.kind);
                let split = Entry {
                    doc: e.doc,
                    from: format!("{}{}", e.from, &step.from[key.1.len()..]),
                    kind,
                    to: step.to.clone(),
                    note: join_details(&e.note, &step.note),
                    changes: [e.changes.clone(), step.changes.clone()].concat(),
                    since: None,
                    exact: false,
                    derived: kind == Kind::Converted,
                };
                self.push(split);
            }
        }
    }
}

fn heavier(a: Kind, b: Kind) -> Kind {
    if weight(b) > weight(a) {
        b
    } else {
        a
    }
}

fn join_details(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a}; {b}"),
    }
}

/// The entry accounting for `path` of document `doc`: the one with the longest matching `from`.
pub fn entry_for<'a>(entries: &'a [Entry], doc: usize, path: &str) -> Option<&'a Entry> {
    crate::pipeline::report::entry_for(entries.iter().filter(|e| e.doc == doc), path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::release_changes::API_CHANGES;

    fn step(from: &str, kind: Kind, to: &[&str], change: usize) -> Entry {
        Entry {
            doc: 1,
            from: from.into(),
            kind,
            to: to.iter().map(|p| Place { doc: 1, path: p.to_string() }).collect(),
            note: String::new(),
            changes: vec![&API_CHANGES[change]],
            since: None,
            exact: false,
            derived: kind == Kind::Converted,
        }
    }

    #[test]
    fn a_field_renamed_twice_has_one_entry_naming_both_changes() {
        let mut r = Report::default();
        r.record(step("spec.a[0].x", Kind::Renamed, &["spec.b[0].spec.x"], 0));
        r.record(step("spec.b[0].spec", Kind::Renamed, &["spec.c[0].j[0].spec", "spec.c[0].j[1].spec"], 1));
        assert_eq!(r.entries.len(), 1);
        let e = &r.entries[0];
        assert_eq!(e.from, "spec.a[0].x");
        let to: Vec<&str> = e.to.iter().map(|t| t.path.as_str()).collect();
        assert_eq!(to, ["spec.c[0].j[0].spec.x", "spec.c[0].j[1].spec.x"]);
        assert_eq!(e.changes.len(), 2);
    }

    #[test]
    fn a_later_change_to_part_of_a_moved_field_splits_it() {
        let mut r = Report::default();
        r.record(step("spec.a", Kind::Renamed, &["spec.b"], 0));
        r.record(step("spec.b.n", Kind::Omitted, &[], 1));
        assert_eq!(r.entries.len(), 2);
        assert_eq!(entry_for(&r.entries, 1, "spec.a.n").map(|e| e.kind), Some(Kind::Omitted));
        assert_eq!(entry_for(&r.entries, 1, "spec.a.m").map(|e| e.kind), Some(Kind::Renamed));
    }
}

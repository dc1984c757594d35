//! The upgrade's per-field report. Like the migration's (`crate::migrate::report`), each entry
//! accounts for a field and everything beneath it (the longest matching path wins), but an
//! upgrade entry can land in several places (an override that targeted two jobs becomes two
//! patches), in another document (a runtime's value moving to its TrainJobs), and carries the
//! chain of API changes it went through (v2.0 → v2.3 renames a pod setting twice).

use crate::pipeline::paths::{ancestors, covers};
use crate::release_changes::ApiChange;
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The same value, at a new path of the same object.
    Renamed,
    /// The same value, in another structure or another document.
    Moved,
    /// A value of a new form (the note says how it was computed).
    Converted,
    /// Left out, and nothing that runs changes: the new release's default does the same.
    Omitted,
    /// Left out, and behaviour changes: the note says what to do instead.
    Dropped,
    /// Written by the rewrite, from no field of the input (a runtime patch's `manager`).
    Added,
}

impl Action {
    pub fn id(self) -> &'static str {
        match self {
            Action::Renamed => "renamed",
            Action::Moved => "moved",
            Action::Converted => "converted",
            Action::Omitted => "omitted",
            Action::Dropped => "dropped",
            Action::Added => "added",
        }
    }

    /// How much an entry changes, to pick one action for a field that went through several
    /// changes: a drop outweighs a conversion, which outweighs a move.
    fn weight(self) -> u8 {
        match self {
            Action::Renamed => 0,
            Action::Moved => 1,
            Action::Added => 2,
            Action::Converted => 3,
            Action::Omitted => 4,
            Action::Dropped => 5,
        }
    }
}

/// A place in the output: a document of the stream (1-based, as the report numbers them) and a path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    pub doc: usize,
    pub path: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The document the field is in (1-based position in the stream).
    pub doc: usize,
    /// The field in the input (for `Added`, the path written).
    pub from: String,
    pub action: Action,
    /// Where it is in the output; empty when left out. For `Added`, the field itself.
    pub to: Vec<Target>,
    /// The API changes it went through, oldest first.
    pub changes: Vec<&'static ApiChange>,
    /// What this rewrite did beyond the reason of the change (the value computed, the TrainJobs
    /// that took a value over, what to do by hand).
    pub detail: String,
}

impl Entry {
    /// The output holds a value computed from the input's, so only the place is claimed.
    pub fn derived(&self) -> bool {
        self.action == Action::Converted
    }

    /// `v2.1 #2785, v2.2 #3309`.
    pub fn sources(&self) -> String {
        self.changes.iter().map(|c| c.source()).collect::<Vec<_>>().join(", ")
    }

    /// One line for people: `renamed  spec.x -> spec.y (v2.2 #3309: reason; detail)`.
    pub fn line(&self) -> String {
        let to = match self.action {
            Action::Added | Action::Omitted | Action::Dropped => String::new(),
            _ => {
                let places: Vec<String> = self
                    .to
                    .iter()
                    .map(|t| if t.doc == self.doc { t.path.clone() } else { format!("document {}: {}", t.doc, t.path) })
                    .collect();
                format!(" -> {}", places.join(", "))
            }
        };
        let reasons: Vec<String> = self.changes.iter().map(|c| format!("{}: {}", c.source(), c.reason)).collect();
        let detail = if self.detail.is_empty() { String::new() } else { format!("; {}", self.detail) };
        format!("{:<9} {}{to} ({}{detail})", self.action.id(), self.from, reasons.join("; "))
    }
}

/// The entries of a whole stream, built step by step: each release's rewrite reports in terms
/// of the manifest as the previous step left it, and `record` carries that back to the input's
/// paths, so that every input field ends up with one entry that names every change it went through.
#[derive(Default)]
pub struct Report {
    pub entries: Vec<Entry>,
    /// The entries by the places they put something, so that a step finds the entries it
    /// changes by looking up its own path, its ancestors and its descendants, not by scanning
    /// every entry (10,000 TrainJobs in one input have tens of thousands).
    placed: BTreeMap<(usize, String), Vec<usize>>,
}

impl Report {
    fn push(&mut self, entry: Entry) {
        if entry.action != Action::Added {
            for t in &entry.to {
                self.placed.entry((t.doc, t.path.clone())).or_default().push(self.entries.len());
            }
        }
        self.entries.push(entry);
    }

    /// Records what one step did to `step.from` (a path of the manifest as the previous steps
    /// left it, in document `step.doc`).
    pub fn record(&mut self, step: Entry) {
        if step.action == Action::Added {
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
            let moved: Vec<Target> =
                step.to.iter().map(|t| Target { doc: t.doc, path: format!("{}{suffix}", t.path) }).collect();
            for i in self.placed.remove(&key).unwrap_or_default() {
                let e = &mut self.entries[i];
                e.to =
                    e.to.iter()
                        .flat_map(|t| if (t.doc, &t.path) == (key.0, &key.1) { moved.clone() } else { vec![t.clone()] })
                        .collect();
                e.action = heavier(e.action, step.action);
                for c in &step.changes {
                    if !e.changes.iter().any(|x| std::ptr::eq(*x, *c)) {
                        e.changes.push(c);
                    }
                }
                if !e.detail.contains(&step.detail) {
                    e.detail = join_details(&e.detail, &step.detail);
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
                let split = Entry {
                    doc: e.doc,
                    from: format!("{}{}", e.from, &step.from[key.1.len()..]),
                    action: heavier(e.action, step.action),
                    to: step.to.clone(),
                    changes: [e.changes.clone(), step.changes.clone()].concat(),
                    detail: join_details(&e.detail, &step.detail),
                };
                self.push(split);
            }
        }
    }
}

fn heavier(a: Action, b: Action) -> Action {
    if b.weight() > a.weight() {
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
    entries
        .iter()
        .filter(|e| e.doc == doc && e.action != Action::Added && covers(&e.from, path))
        .max_by_key(|e| e.from.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::release_changes::API_CHANGES;

    fn step(from: &str, action: Action, to: &[&str], change: usize) -> Entry {
        Entry {
            doc: 1,
            from: from.into(),
            action,
            to: to.iter().map(|p| Target { doc: 1, path: p.to_string() }).collect(),
            changes: vec![&API_CHANGES[change]],
            detail: String::new(),
        }
    }

    #[test]
    fn a_field_renamed_twice_has_one_entry_naming_both_changes() {
        let mut r = Report::default();
        r.record(step("spec.a[0].x", Action::Renamed, &["spec.b[0].spec.x"], 0));
        r.record(step("spec.b[0].spec", Action::Renamed, &["spec.c[0].j[0].spec", "spec.c[0].j[1].spec"], 1));
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
        r.record(step("spec.a", Action::Renamed, &["spec.b"], 0));
        r.record(step("spec.b.n", Action::Omitted, &[], 1));
        assert_eq!(r.entries.len(), 2);
        assert_eq!(entry_for(&r.entries, 1, "spec.a.n").map(|e| e.action), Some(Action::Omitted));
        assert_eq!(entry_for(&r.entries, 1, "spec.a.m").map(|e| e.action), Some(Action::Renamed));
    }
}

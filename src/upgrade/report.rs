//! The upgrade's per-field report. Like the migration's (`crate::migrate::report`), each entry
//! accounts for a field and everything beneath it (the longest matching path wins), but an
//! upgrade entry can land in several places (an override that targeted two jobs becomes two
//! patches), in another document (a runtime's value moving to its TrainJobs), and carries the
//! chain of API changes it went through (v2.0 → v2.3 renames a pod setting twice).

use crate::migrate::report::covers;
use crate::release_changes::ApiChange;

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
}

impl Report {
    /// Records what one step did to `step.from` (a path of the manifest as the previous steps
    /// left it, in document `step.doc`).
    pub fn record(&mut self, step: Entry) {
        if step.action == Action::Added {
            self.entries.push(step);
            return;
        }
        let mut reached = false;
        let mut splits = Vec::new();
        for e in &mut self.entries {
            if e.action == Action::Added {
                // Runtime patches, where the rewrite adds fields, are the newest shape: no
                // later step moves them.
                continue;
            }
            let mut new_to = Vec::new();
            let mut touched = false;
            for t in &e.to {
                if t.doc == step.doc && covers(&step.from, &t.path) {
                    // The whole of what this entry placed there goes where the step sends it.
                    let suffix = &t.path[step.from.len()..];
                    new_to.extend(step.to.iter().map(|s| Target { doc: s.doc, path: format!("{}{suffix}", s.path) }));
                    touched = true;
                } else if t.doc == step.doc && covers(&t.path, &step.from) {
                    // The step changes a part of what this entry placed: that part gets its own entry.
                    splits.push(Entry {
                        doc: e.doc,
                        from: format!("{}{}", e.from, &step.from[t.path.len()..]),
                        action: heavier(e.action, step.action),
                        to: step.to.clone(),
                        changes: [e.changes.clone(), step.changes.clone()].concat(),
                        detail: join_details(&e.detail, &step.detail),
                    });
                    new_to.push(t.clone());
                } else {
                    new_to.push(t.clone());
                }
            }
            if touched {
                e.to = new_to;
                e.action = heavier(e.action, step.action);
                e.changes.extend(step.changes.iter().copied());
                e.detail = join_details(&e.detail, &step.detail);
                reached = true;
            } else {
                e.to = new_to;
            }
        }
        reached |= !splits.is_empty();
        self.entries.extend(splits);
        if !reached {
            self.entries.push(step);
        }
    }

    /// Entries of one document, in the order the steps reported them.
    pub fn of_doc(&self, doc: usize) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(move |e| e.doc == doc)
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

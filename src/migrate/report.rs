//! The per-field report: where each V1 field went, and what was dropped and why.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Carried over to the V2 field of the same meaning.
    Mapped,
    /// Kept, but elsewhere: a runtime patch, a generated runtime, the TrainJob's metadata.
    Moved,
    /// Not carried over, with the reason. The conversion is lossy.
    Dropped,
}

impl Status {
    pub fn id(self) -> &'static str {
        match self {
            Status::Mapped => "mapped",
            Status::Moved => "moved",
            Status::Dropped => "dropped",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The V1 field, as `spec.pytorchReplicaSpecs.Worker.replicas`.
    pub v1: String,
    pub status: Status,
    /// Where it went, when it went somewhere.
    pub v2: Option<String>,
    pub note: String,
    /// Accounts for this exact path only (a structural line such as `Master:`), not its children.
    pub exact: bool,
    /// The output holds a value computed from this one (a sum, a new name), so only the place
    /// is claimed, not the value; otherwise each leaf beneath `v1` is at the same place beneath `v2`.
    pub derived: bool,
}

#[derive(Default)]
pub struct Report {
    pub entries: Vec<Entry>,
}

impl Report {
    fn push(&mut self, v1: String, status: Status, v2: Option<String>, note: String, exact: bool, derived: bool) {
        self.entries.push(Entry { v1, status, v2, note, exact, derived });
    }

    /// Adds an entry as it is (used to carry one replica's accounting over to another).
    pub fn add(&mut self, entry: Entry) {
        self.entries.push(entry);
    }

    pub fn mapped(&mut self, v1: impl Into<String>, v2: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Status::Mapped, Some(v2.into()), note.into(), false, false);
    }

    /// The V2 field holds a value computed from the V1 one (a sum, a new name, a number parsed
    /// from a string); the note says how.
    pub fn mapped_derived(&mut self, v1: impl Into<String>, v2: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Status::Mapped, Some(v2.into()), note.into(), false, true);
    }

    pub fn moved(&mut self, v1: impl Into<String>, v2: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Status::Moved, Some(v2.into()), note.into(), false, false);
    }

    pub fn dropped(&mut self, v1: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Status::Dropped, None, note.into(), false, false);
    }

    /// A mapping for one structural field (e.g. a replica type becoming `numNodes`) that says
    /// nothing about the fields beneath it.
    pub fn mapped_node(&mut self, v1: impl Into<String>, v2: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Status::Mapped, Some(v2.into()), note.into(), true, true);
    }

    /// The entry that accounts for a V1 path: the one with the longest matching prefix.
    pub fn status_of(&self, path: &str) -> Option<&Entry> {
        entry_for(&self.entries, path)
    }

    pub fn is_lossy(&self) -> bool {
        self.entries.iter().any(|e| e.status == Status::Dropped)
    }
}

/// The entry that accounts for `path` among `entries`: an exact entry for it, else the one with
/// the longest prefix.
pub fn entry_for<'a>(entries: &'a [Entry], path: &str) -> Option<&'a Entry> {
    entries.iter().filter(|e| if e.exact { e.v1 == path } else { covers(&e.v1, path) }).max_by_key(|e| e.v1.len())
}

/// Whether `prefix` is `path` or one of its ancestors (`a.b` covers `a.b.c` and `a.b[0]`).
pub fn covers(prefix: &str, path: &str) -> bool {
    path.starts_with(prefix) && matches!(path.as_bytes().get(prefix.len()), None | Some(b'.') | Some(b'['))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_respect_segment_boundaries() {
        assert!(covers("spec.runPolicy", "spec.runPolicy.backoffLimit"));
        assert!(covers("a.b", "a.b[0].c"));
        assert!(!covers("spec.run", "spec.runPolicy"));
    }
}

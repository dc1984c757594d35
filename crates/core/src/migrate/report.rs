//! The per-field report: where each V1 field went, and what was dropped and why.

use crate::pipeline::paths::covers;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Carried over to the V2 field of the same meaning.
    Mapped,
    /// Kept, but elsewhere: a runtime patch, a generated runtime, the TrainJob's metadata.
    Moved,
    /// Not carried over, with the reason. The conversion is lossy.
    Dropped,
    /// Replaced by a name V2 fixes (the trainer container is always `node`): nothing that runs
    /// depends on the old name, so the conversion is not lossy; the note gives the new name.
    Renamed,
}

impl Status {
    pub fn id(self) -> &'static str {
        match self {
            Status::Mapped => "mapped",
            Status::Moved => "moved",
            Status::Dropped => "dropped",
            Status::Renamed => "renamed",
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
    /// The entries by path, so that looking up a path is not a scan of every entry (a job with
    /// 150,000 labels has as many entries), and how many entries it holds. Built on the first
    /// lookup and brought up to date on each: most conversions never look a path up.
    index: RefCell<(EntryIndex<'static>, usize)>,
}

impl Report {
    fn push(&mut self, v1: String, status: Status, v2: Option<String>, note: String, exact: bool, derived: bool) {
        self.add(Entry { v1, status, v2, note, exact, derived });
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

    pub fn renamed(&mut self, v1: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Status::Renamed, None, note.into(), false, false);
    }

    /// A mapping for one structural field (e.g. a replica type becoming `numNodes`) that says
    /// nothing about the fields beneath it.
    pub fn mapped_node(&mut self, v1: impl Into<String>, v2: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Status::Mapped, Some(v2.into()), note.into(), true, true);
    }

    /// The entry that accounts for a V1 path: the one with the longest matching prefix.
    pub fn status_of(&self, path: &str) -> Option<&Entry> {
        let mut index = self.index.borrow_mut();
        let (index, indexed) = &mut *index;
        for (i, e) in self.entries.iter().enumerate().skip(*indexed) {
            index.add(i, Cow::Owned(e.v1.clone()), e.exact);
        }
        *indexed = self.entries.len();
        index.find(path).map(|i| &self.entries[i])
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

/// A report's entries by V1 path: finds what `entry_for` finds by looking up the path and its
/// ancestors rather than comparing the path with every entry, which is quadratic for a job
/// with 150,000 labels (as many entries, and as many leaves to account for).
#[derive(Default)]
pub struct EntryIndex<'a> {
    /// Borrowed from the entries when they outlive the index (the widget's view), else copied.
    by_path: HashMap<Cow<'a, str>, Latest, BuildHasherDefault<PathHasher>>,
    /// Per length: whether a covering (not `exact`) entry's path is that long. Only ancestors of
    /// those lengths can match.
    covering_lengths: Vec<bool>,
}

/// Positions of the latest entries for one path: any entry, and one that covers descendants.
struct Latest {
    any: usize,
    covering: Option<usize>,
}

impl<'a> EntryIndex<'a> {
    pub fn new(entries: &'a [Entry]) -> Self {
        let mut index = EntryIndex {
            by_path: HashMap::with_capacity_and_hasher(entries.len(), Default::default()),
            covering_lengths: Vec::new(),
        };
        entries.iter().enumerate().for_each(|(i, e)| index.add(i, Cow::Borrowed(&e.v1), e.exact));
        index
    }

    /// Adds the entry at position `i` of the entries, for the V1 path `v1`.
    fn add(&mut self, i: usize, v1: Cow<'a, str>, exact: bool) {
        let len = v1.len();
        let latest = self.by_path.entry(v1).or_insert(Latest { any: i, covering: None });
        latest.any = i;
        if !exact {
            latest.covering = Some(i);
            if self.covering_lengths.len() <= len {
                self.covering_lengths.resize(len + 1, false);
            }
            self.covering_lengths[len] = true;
        }
    }

    /// The position of the entry accounting for `path`: the latest at `path` itself, else the
    /// latest covering entry at its longest ancestor (`a.b[0]`, `a.b`, `a` for `a.b[0].c`).
    pub fn find(&self, path: &str) -> Option<usize> {
        if let Some(latest) = self.by_path.get(path) {
            return Some(latest.any);
        }
        let bytes = path.as_bytes();
        (0..bytes.len())
            .rev()
            .filter(|&i| matches!(bytes[i], b'.' | b'[') && self.covering_lengths.get(i) == Some(&true))
            .find_map(|i| self.by_path.get(&path[..i])?.covering)
    }
}

/// The index's hasher: FxHash's multiply-rotate over 8 bytes at a time. The keys are the
/// input's own field paths, looked up once or twice per V1 line, and SipHash's resistance to
/// chosen collisions buys nothing there (a paste only slows its own conversion) while costing
/// several times as much per byte.
#[derive(Default)]
pub struct PathHasher(u64);

impl PathHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for PathHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().unwrap_or_default()));
        }
        let mut tail = [0u8; 8];
        tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.add(u64::from_le_bytes(tail));
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn finish(&self) -> u64 {
        // The product's high bits depend on every input bit; the table picks buckets by the low ones.
        self.0.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_finds_what_a_scan_of_every_entry_finds() {
        let mut r = Report::default();
        r.mapped("spec.a", "x", "");
        r.mapped_node("spec.a.b", "y", "");
        r.dropped("spec.a.b", "z");
        r.moved("spec.a.b[0]", "w", "");
        r.mapped("spec.a.b[0]", "v", "");
        r.dropped("spec.c.d", "u");
        let index = EntryIndex::new(&r.entries);
        for path in
            ["spec", "spec.a", "spec.a.b", "spec.a.b.c", "spec.a.b[0]", "spec.a.b[0].e", "spec.a.bc", "spec.c.d.e"]
        {
            let scanned = entry_for(&r.entries, path).map(|e| e as *const Entry);
            assert_eq!(index.find(path).map(|i| &r.entries[i] as *const Entry), scanned, "{path}");
        }
    }
}

//! The migration's per-field report, built as the converter goes: where each V1 field went, and
//! what was dropped and why. The entries are the pipeline's (`crate::pipeline::report`).

use crate::pipeline::report::entry_for;
pub use crate::pipeline::report::{Entry, EntryIndex, Kind};
pub(crate) use crate::pipeline::report::{Place, Places};
use std::borrow::Cow;
use std::cell::RefCell;

/// The most entries [`Report::status_of`] reads through rather than indexes.
const SCANNED_ENTRIES: usize = 32;

/// The report of one conversion as it is written: its entries, and an index to find a path's.
#[derive(Default)]
pub(crate) struct Report {
    pub(crate) entries: Vec<Entry>,
    /// The entries by path, so that looking up a path is not a scan of every entry (a job with
    /// 150,000 labels has as many entries), and how many entries it holds. Built on the first
    /// lookup and brought up to date on each: most conversions never look a path up.
    index: RefCell<(EntryIndex<'static>, usize)>,
}

impl Report {
    fn push(&mut self, v1: String, kind: Kind, v2: Option<String>, note: String) -> &mut Entry {
        self.entries.push(Entry::new(v1, kind, v2, note));
        let last = self.entries.len() - 1;
        &mut self.entries[last]
    }

    /// Adds an entry as it is (used to carry one replica's accounting over to another).
    pub(crate) fn add(&mut self, entry: Entry) {
        self.entries.push(entry);
    }

    /// The V1 field's value went to the V2 field as it is.
    pub(crate) fn mapped(&mut self, v1: impl Into<String>, v2: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Kind::Mapped, Some(v2.into()), note.into());
    }

    /// The V2 field holds a value computed from the V1 one (a sum, a new name, a number parsed
    /// from a string); the note says how.
    pub(crate) fn mapped_derived(&mut self, v1: impl Into<String>, v2: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Kind::Mapped, Some(v2.into()), note.into()).derived = true;
    }

    /// Each key at positions `keys` of the V1 map at `path` went to the same key of the V2 map
    /// at the same path, as it is: one entry for them all, read one per key (`Entry::each_field`).
    pub(crate) fn mapped_each_key(&mut self, path: &str, keys: std::ops::Range<usize>) {
        if !keys.is_empty() {
            let to = Places::each_key(path.into(), keys);
            self.entries.push(Entry { to, ..Entry::new(path.into(), Kind::Mapped, None, String::new()) });
        }
    }

    /// The value moved to another place in V2 (a runtime, a patch); the note says where.
    pub(crate) fn moved(&mut self, v1: impl Into<String>, v2: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Kind::Moved, Some(v2.into()), note.into());
    }

    /// No V2 field holds the value; the note says why.
    pub(crate) fn dropped(&mut self, v1: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Kind::Dropped, None, note.into());
    }

    /// Replaced by a name V2 fixes ([`Kind::NameFixed`]); the note gives the new name.
    pub(crate) fn renamed(&mut self, v1: impl Into<String>, note: impl Into<String>) {
        self.push(v1.into(), Kind::NameFixed, None, note.into());
    }

    /// A mapping for one structural field (e.g. a replica type becoming `numNodes`) that says
    /// nothing about the fields beneath it.
    pub(crate) fn mapped_node(&mut self, v1: impl Into<String>, v2: impl Into<String>, note: impl Into<String>) {
        let e = self.push(v1.into(), Kind::Mapped, Some(v2.into()), note.into());
        e.exact = true;
        e.derived = true;
    }

    /// The entry that accounts for a V1 path: the one with the longest matching prefix.
    pub(crate) fn status_of(&self, path: &str) -> Option<&Entry> {
        // A report of a few entries is read through: indexing it copies each entry's path, more
        // work than the look-ups an ordinary job makes (the index is for a job of many labels).
        // The converter writes no `Added` entry, which the scan would pass over.
        if self.entries.len() <= SCANNED_ENTRIES {
            return entry_for(&self.entries, path);
        }
        let mut index = self.index.borrow_mut();
        let (index, indexed) = &mut *index;
        for (i, e) in self.entries.iter().enumerate().skip(*indexed) {
            index.add(i, Cow::Owned(e.from.clone()), e.exact);
        }
        *indexed = self.entries.len();
        index.find(path).map(|i| &self.entries[i])
    }

    /// Whether anything was dropped.
    pub(crate) fn is_lossy(&self) -> bool {
        self.entries.iter().any(|e| e.kind == Kind::Dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As a report grows from a few entries to more than are read through, each path's entry is
    /// the one a scan of every entry finds, whether it was read through or looked up in the
    /// index (which then takes in every entry written before it was built).
    #[test]
    fn a_growing_report_finds_what_a_scan_finds() {
        let mut report = Report::default();
        let probes = ["spec", "spec.a", "spec.a.b", "spec.a.b[0].c", "spec.a.bc", "spec.k3", "spec.k3.x", "spec.z"];
        for i in 0..3 * SCANNED_ENTRIES {
            match i % 4 {
                0 => report.mapped(format!("spec.k{i}"), "x", ""),
                1 => report.mapped_node("spec.a", "x", ""),
                2 => report.dropped(format!("spec.a.b[{}]", i % 3), ""),
                _ => report.moved("spec.a.b", "y", ""),
            }
            for path in probes {
                let scanned = entry_for(&report.entries, path).map(|e| e as *const Entry);
                assert_eq!(
                    report.status_of(path).map(|e| e as *const Entry),
                    scanned,
                    "{path} after {} entries",
                    i + 1
                );
            }
        }
    }
}

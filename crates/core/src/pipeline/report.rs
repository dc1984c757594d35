//! The per-field report both front ends write: one [`Entry`] per input field that says where it
//! went (or why it did not), each accounting for the field and everything beneath it unless it
//! says otherwise. `migrate` and `upgrade` build their entries their own way (the migration
//! field by field as it converts, the upgrade release step by release step), then report,
//! index and judge them with the same type.

use crate::pipeline::paths::covers;
use crate::release_changes::ApiChange;
use explorer_data::releases::Release;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// What happened to a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Carried over to the field of the same meaning (a migration: the V2 field for the V1 one).
    Mapped,
    /// The same value at a new path of the same object: the release renamed the field (upgrade).
    Renamed,
    /// The same value elsewhere: a runtime patch, a generated runtime, the TrainJob's metadata,
    /// another structure or another document.
    Moved,
    /// A value of a new form, computed from the input's (the note says how).
    Converted,
    /// The value gave way to a name the new API fixes (the trainer container is always `node`):
    /// nowhere to point, and nothing that runs depends on the old name, so nothing is lost; the
    /// note gives the new name. Not [`Kind::Renamed`], which keeps the value and moves the field.
    NameFixed,
    /// Left out, and nothing that runs changes: the new release's default does the same.
    Omitted,
    /// Left out, and behaviour changes: the note says why, or what to do instead.
    Dropped,
    /// Written from no field of the input (a runtime patch's `manager`): `from` is the path written.
    Added,
    /// Kept as it is, but it needs the reader: the built-in runtime it names is no longer
    /// shipped (an upgrade's; `since` says from which release).
    Attention,
}

impl Kind {
    /// The word the report and the JSON use. `NameFixed` reads `renamed`, as the migration's
    /// report has always said (its JSON is read by others): the note says what the name is now.
    pub fn id(self) -> &'static str {
        match self {
            Kind::Mapped => "mapped",
            Kind::Renamed | Kind::NameFixed => "renamed",
            Kind::Moved => "moved",
            Kind::Converted => "converted",
            Kind::Omitted => "omitted",
            Kind::Dropped => "dropped",
            Kind::Added => "added",
            Kind::Attention => "attention",
        }
    }

    /// Whether the entry says where the field went (and a place must hold it).
    pub fn places(self) -> bool {
        matches!(self, Kind::Mapped | Kind::Renamed | Kind::Moved | Kind::Converted)
    }
}

/// A place in the output: the document of the stream that holds it (1-based; 0 while a
/// migration's document is being converted and not yet numbered) and a path in what that
/// document was written as. A migration writes a document as several objects: a path in one
/// other than the TrainJob starts with the object, `TrainingRuntime mine spec.template`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    /// The document (1-based; 0 while not yet numbered).
    pub doc: usize,
    /// The path in what the document was written as.
    pub path: String,
}

/// The places an entry names. Almost every entry names one or none (a migration's, one per label
/// of a job of a quarter million labels), held in the entry itself rather than in a list of its
/// own: that list was a fifth of such a report. Read as a slice of places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Places(PlacesHeld);

#[derive(Clone, Debug, PartialEq, Eq)]
enum PlacesHeld {
    One(Place),
    List(Vec<Place>),
    /// A run of the keys of the map at the entry's `from` in the source document (their
    /// positions there), each gone to the same key of the map at the place: one entry for what
    /// would be one per key (a job of 200,000 labels), written out per key where the report is
    /// read ([`Entry::each_field`]). Only a migration writes these.
    #[cfg(feature = "migrate")]
    EachKey(Place, std::ops::Range<usize>),
}

impl Places {
    /// No place.
    pub const fn none() -> Places {
        Places(PlacesHeld::List(Vec::new()))
    }

    /// The keys at positions `keys` of the entry's map, each to the same key of the map at `path`.
    #[cfg(feature = "migrate")]
    pub(crate) fn each_key(path: String, keys: std::ops::Range<usize>) -> Places {
        Places(PlacesHeld::EachKey(Place { doc: 0, path }, keys))
    }

    /// For an entry that stands for a run of a map's keys, their positions in the map.
    pub fn keys(&self) -> Option<std::ops::Range<usize>> {
        match &self.0 {
            #[cfg(feature = "migrate")]
            PlacesHeld::EachKey(_, keys) => Some(keys.clone()),
            PlacesHeld::One(_) | PlacesHeld::List(_) => None,
        }
    }
}

impl Default for Places {
    fn default() -> Self {
        Places::none()
    }
}

impl std::ops::Deref for Places {
    type Target = [Place];

    fn deref(&self) -> &[Place] {
        match &self.0 {
            PlacesHeld::One(place) => std::slice::from_ref(place),
            #[cfg(feature = "migrate")]
            PlacesHeld::EachKey(place, _) => std::slice::from_ref(place),
            PlacesHeld::List(places) => places,
        }
    }
}

impl std::ops::DerefMut for Places {
    fn deref_mut(&mut self) -> &mut [Place] {
        match &mut self.0 {
            PlacesHeld::One(place) => std::slice::from_mut(place),
            #[cfg(feature = "migrate")]
            PlacesHeld::EachKey(place, _) => std::slice::from_mut(place),
            PlacesHeld::List(places) => places,
        }
    }
}

impl From<Vec<Place>> for Places {
    fn from(mut places: Vec<Place>) -> Self {
        match places.len() {
            1 => Places(PlacesHeld::One(places.remove(0))),
            _ => Places(PlacesHeld::List(places)),
        }
    }
}

impl FromIterator<Place> for Places {
    fn from_iter<I: IntoIterator<Item = Place>>(places: I) -> Self {
        let mut places = places.into_iter();
        match (places.next(), places.next()) {
            (None, _) => Places::none(),
            (Some(one), None) => Places(PlacesHeld::One(one)),
            (Some(first), Some(second)) => {
                Places(PlacesHeld::List([first, second].into_iter().chain(places).collect()))
            }
        }
    }
}

impl<'a> IntoIterator for &'a Places {
    type Item = &'a Place;
    type IntoIter = std::slice::Iter<'a, Place>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Places {
    type Item = &'a mut Place;
    type IntoIter = std::slice::IterMut<'a, Place>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// What became of one input field: its kind, where it went, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The document the field is in (1-based position in the stream; 0 until numbered, as for
    /// [`Place`]).
    pub doc: usize,
    /// The field in the input, as `spec.pytorchReplicaSpecs.Worker.replicas` (for `Added`, the
    /// path written).
    pub from: String,
    /// What became of it.
    pub kind: Kind,
    /// Where it is in the output; empty when it is nowhere (left out, or a name the API fixes).
    /// For `Added`, the field itself.
    pub to: Places,
    /// What the front end did beyond the kind: the reason for a drop, the value computed, what
    /// to do by hand.
    pub note: String,
    /// The API changes it went through between releases, oldest first (an upgrade's; a
    /// migration names none).
    pub changes: Vec<&'static ApiChange>,
    /// For `Attention`, which no API change explains: the release from which the field needs
    /// the reader.
    pub since: Option<&'static Release>,
    /// Accounts for this exact path only (a structural line such as `Master:`), not its children.
    pub exact: bool,
    /// The output holds a value computed from this one (a sum, a new name), so only the place is
    /// claimed, not the value; otherwise each leaf beneath `from` is at the same place beneath
    /// each of `to`.
    pub derived: bool,
}

impl Entry {
    /// An entry of the document being written (numbered later), to `to` in the same document.
    pub fn new(from: String, kind: Kind, to: Option<String>, note: String) -> Entry {
        Entry {
            doc: 0,
            from,
            kind,
            to: to.into_iter().map(|path| Place { doc: 0, path }).collect(),
            note,
            changes: Vec::new(),
            since: None,
            exact: false,
            derived: false,
        }
    }

    /// The first place it went, for a report that names one (a migration's).
    pub fn place(&self) -> Option<&str> {
        self.to.first().map(|p| p.path.as_str())
    }

    /// Numbers the entry and its places with the document's position, once the stream has one.
    pub fn number(&mut self, doc: usize) {
        self.doc = doc;
        for p in &mut self.to {
            p.doc = doc;
        }
    }

    /// The entries this one stands for, one per field, as the report is read: itself, or for a
    /// run of a map's keys ([`Places::keys`]) one entry per key of the run, the keys read from the
    /// map at the run's place in `objects`, what the document was written as (a place's path with
    /// no object before it is in the TrainJob, [`Place`]): the run's keys went there, in their
    /// order. A run read without that object (a caller that dropped the objects first) would
    /// stand for no field at all: a debug build says so.
    pub fn each_field<'a>(&'a self, objects: &'a [Value]) -> impl Iterator<Item = Cow<'a, Entry>> + 'a {
        let run = self.to.keys();
        let trainjob = || objects.iter().find(|o| o.get("kind").and_then(Value::as_str) == Some("TrainJob"));
        let map = run
            .as_ref()
            .and_then(|_| self.to.first()?.path.split('.').try_fold(trainjob()?, |v, key| v.get(key))?.as_object());
        debug_assert!(
            run.is_none() || map.is_some(),
            "the run of keys of {} was read without the object it went to",
            self.from
        );
        let keys = run.zip(map).map(|(run, map)| map.keys().skip(run.start).take(run.len()));
        let whole = self.to.keys().is_none().then_some(Cow::Borrowed(self));
        whole.into_iter().chain(keys.into_iter().flatten().map(|key| Cow::Owned(self.for_key(key))))
    }

    /// The entry for one key of the map this entry's run of keys is in.
    fn for_key(&self, key: &str) -> Entry {
        Entry {
            doc: self.doc,
            from: format!("{}.{key}", self.from),
            kind: self.kind,
            to: self.to.iter().map(|p| Place { doc: p.doc, path: format!("{}.{key}", p.path) }).collect(),
            note: self.note.clone(),
            changes: self.changes.clone(),
            since: self.since,
            exact: self.exact,
            derived: self.derived,
        }
    }
}

/// The entry that accounts for `path` among `entries`: an exact entry for it, else the one with
/// the longest prefix. `Added` entries account for no input field.
pub fn entry_for<'a>(entries: impl IntoIterator<Item = &'a Entry>, path: &str) -> Option<&'a Entry> {
    entries
        .into_iter()
        .filter(|e| e.kind != Kind::Added && if e.exact { e.from == path } else { covers(&e.from, path) })
        .max_by_key(|e| e.from.len())
}

/// Entries by input path: finds what `entry_for` finds by looking up the path and its
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
    /// The index of `entries`.
    pub fn new(entries: &'a [Entry]) -> Self {
        let mut index = EntryIndex {
            by_path: HashMap::with_capacity_and_hasher(entries.len(), Default::default()),
            covering_lengths: Vec::new(),
        };
        for (i, e) in entries.iter().enumerate().filter(|(_, e)| e.kind != Kind::Added) {
            index.add(i, Cow::Borrowed(&e.from), e.exact);
        }
        index
    }

    /// Adds the entry at position `i` of the entries, for the input path `from`.
    pub fn add(&mut self, i: usize, from: Cow<'a, str>, exact: bool) {
        let len = from.len();
        let latest = self.by_path.entry(from).or_insert(Latest { any: i, covering: None });
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
/// input's own field paths, looked up once or twice per input line, and SipHash's resistance to
/// chosen collisions buys nothing there (a paste only slows its own conversion) while costing
/// several times as much per byte.
#[derive(Default)]
pub(crate) struct PathHasher(u64);

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

    fn entry(from: &str, kind: Kind, exact: bool) -> Entry {
        Entry { exact, ..Entry::new(from.into(), kind, Some("x".into()), String::new()) }
    }

    #[test]
    fn the_index_finds_what_a_scan_of_every_entry_finds() {
        let entries = [
            entry("spec.a", Kind::Mapped, false),
            entry("spec.a.b", Kind::Mapped, true),
            entry("spec.a.b", Kind::Dropped, false),
            entry("spec.a.b[0]", Kind::Moved, false),
            entry("spec.a.b[0]", Kind::Mapped, false),
            entry("spec.c.d", Kind::Dropped, false),
            entry("spec.e", Kind::Added, false),
        ];
        let index = EntryIndex::new(&entries);
        for path in [
            "spec",
            "spec.a",
            "spec.a.b",
            "spec.a.b.c",
            "spec.a.b[0]",
            "spec.a.b[0].e",
            "spec.a.bc",
            "spec.c.d.e",
            "spec.e",
            "spec.e.f",
        ] {
            let scanned = entry_for(&entries, path).map(|e| e as *const Entry);
            assert_eq!(index.find(path).map(|i| &entries[i] as *const Entry), scanned, "{path}");
        }
    }
}

//! A small insertion-ordered map. Kubernetes maps in our objects hold a handful of entries
//! (labels, resource limits, replica types); a `BTreeMap` per key/value type cost tens of KB of
//! wasm for that. Serialized as a map, in insertion order.
//!
//! A pasted manifest can hold far more (150,000 labels fit in the migrator's 4 MiB), so maps are
//! never built by inserting one key at a time, which scans the list each time: building from
//! many entries (`FromIterator`, `Deserialize`, the tree serializer) collects them and removes
//! repeated keys once, in O(n log n); entries whose keys are known distinct (serde_json's maps)
//! are taken as they are.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use std::marker::PhantomData;

/// A small map that keeps its keys in insertion order (the order a manifest wrote them), with
/// linear lookups: cheaper in wasm than a `BTreeMap` per key and value type (see above).
#[derive(Clone, Debug, PartialEq)]
pub struct VecMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for VecMap<K, V> {
    fn default() -> Self {
        VecMap(Vec::new())
    }
}

impl<K: PartialEq, V> VecMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        VecMap(Vec::new())
    }

    /// Replaces the value of an existing key in place, else appends.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => Some(std::mem::replace(v, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }

    /// The value of `key`, if any.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: std::borrow::Borrow<Q>,
        Q: PartialEq + ?Sized,
    {
        self.0.iter().find(|(k, _)| k.borrow() == key).map(|(_, v)| v)
    }

    /// The value of `key` to change in place, if any.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: std::borrow::Borrow<Q>,
        Q: PartialEq + ?Sized,
    {
        self.0.iter_mut().find(|(k, _)| k.borrow() == key).map(|(_, v)| v)
    }

    /// Whether `key` has a value.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
        Q: PartialEq + ?Sized,
    {
        self.get(key).is_some()
    }

    /// Takes `key` out, keeping the others' order.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: PartialEq + ?Sized,
    {
        let i = self.0.iter().position(|(k, _)| k.borrow() == key)?;
        Some(self.0.remove(i).1)
    }

    /// Keeps the entries `f` approves, in order.
    pub fn retain(&mut self, mut f: impl FnMut(&K, &mut V) -> bool) {
        self.0.retain_mut(|(k, v)| f(k, v));
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Whether the map has no entry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The entries, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.0.iter().map(|(k, _)| k)
    }
}

impl<K: Ord, V> VecMap<K, V> {
    /// The map `insert` would build from `entries` one by one (a repeated key keeps its first
    /// position and takes its last value), without comparing each key with all before it.
    pub(crate) fn from_entries(mut entries: Vec<(K, V)>) -> Self {
        if entries.len() > 1 && !short_and_distinct(&entries) {
            let by_key = |a: usize, b: usize| entries[a].0.cmp(&entries[b].0);
            if let Some(repeats) = repeated_keys(entries.len(), &by_key) {
                for &(first, last) in &repeats.moves {
                    let (head, tail) = entries.split_at_mut(last);
                    std::mem::swap(&mut head[first].1, &mut tail[0].1);
                }
                let mut keep = repeats.keep.into_iter();
                entries.retain(|_| keep.next().unwrap_or(true));
            }
        }
        VecMap(entries)
    }
}

impl<K, V> VecMap<K, V> {
    /// The entries it has room for, for the tests of how a map is read.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.0.capacity()
    }

    /// A map of entries whose keys are known to be distinct (a serde_json map's, say): nothing
    /// to look for, so nothing is compared.
    pub(crate) fn from_distinct(entries: Vec<(K, V)>) -> Self {
        VecMap(entries)
    }
}

/// Lists up to this long are checked for a repeated key pair by pair, which allocates nothing:
/// most maps (a pod's labels, a container's resources, its variables) hold a few keys, and
/// sorting their positions took 44M of the converter module's 2,359M instructions on make
/// bench's 1 MB manifest (callgrind, 5 Dec).
const COMPARED_PAIR_BY_PAIR: usize = 16;

/// Whether `entries` is short enough to compare pair by pair, and its keys are distinct.
fn short_and_distinct<K: Ord, V>(entries: &[(K, V)]) -> bool {
    entries.len() <= COMPARED_PAIR_BY_PAIR
        && (1..entries.len()).all(|i| entries[..i].iter().all(|(k, _)| k.cmp(&entries[i].0).is_ne()))
}

/// Which entries a map built from a list keeps, and the values it moves.
struct Repeats {
    /// Per position: false for a repeated key's later positions.
    keep: Vec<bool>,
    /// (first position, position of the last value) of each repeated key.
    moves: Vec<(usize, usize)>,
}

/// Finds the repeated keys among `len` entries, given their order by key. Not generic: the
/// sort is compiled once, not once per key and value type (each copy cost wasm bytes in the
/// widget). `None` when every key is distinct.
fn repeated_keys(len: usize, by_key: &dyn Fn(usize, usize) -> std::cmp::Ordering) -> Option<Repeats> {
    // A stable sort, so a key's positions stay in input order.
    let positions = crate::order::positions(len, by_key);
    let mut keep = Vec::new();
    let mut moves = Vec::new();
    for same_key in positions.chunk_by(|&a, &b| by_key(a, b).is_eq()) {
        if let [first, .., last] = *same_key {
            if keep.is_empty() {
                keep = vec![true; len];
            }
            moves.push((first, last));
            same_key[1..].iter().for_each(|&i| keep[i] = false);
        }
    }
    (!moves.is_empty()).then_some(Repeats { keep, moves })
}

impl<K, V> IntoIterator for VecMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<K, V> VecMap<K, V> {
    /// The entries in order, each moved out, the room of those taken given back as they go: a
    /// job's quarter million labels (12 MB of entries) moved into another map are not held
    /// twice, whole, until the last is moved.
    pub fn into_iter_freeing(self) -> IntoIterFreeing<K, V> {
        let mut rest = self.0;
        // Taken from the end, where a list can give room back.
        rest.reverse();
        IntoIterFreeing { rest }
    }
}

/// [`VecMap::into_iter_freeing`]: the entries not yet taken, last first.
pub struct IntoIterFreeing<K, V> {
    rest: Vec<(K, V)>,
}

impl<K, V> Iterator for IntoIterFreeing<K, V> {
    type Item = (K, V);

    fn next(&mut self) -> Option<(K, V)> {
        let entry = self.rest.pop()?;
        // Half the room unused: given back (a shrink in place), so the list is never more than
        // twice what it still holds, for a cost linear in the whole.
        if self.rest.len() <= self.rest.capacity() / 2 && self.rest.capacity() > 1024 {
            self.rest.shrink_to_fit();
        }
        Some(entry)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.rest.len(), Some(self.rest.len()))
    }
}

impl<K, V> ExactSizeIterator for IntoIterFreeing<K, V> {}

impl<K: Ord, V> FromIterator<(K, V)> for VecMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        VecMap::from_entries(iter.into_iter().collect())
    }
}

impl<K: Serialize, V: Serialize> Serialize for VecMap<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for VecMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct MapVisitor<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for MapVisitor<K, V> {
            type Value = VecMap<K, V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                // Room for exactly the members hinted (`value::held`).
                let mut entries = Vec::with_capacity(super::value::held(access.size_hint()));
                while let Some(entry) = access.next_entry()? {
                    entries.push(entry);
                }
                Ok(VecMap::from_entries(entries))
            }
        }
        d.deserialize_map(MapVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_the_entries_out_keeps_their_order_and_gives_back_the_room_of_those_taken() {
        let entries: Vec<(String, String)> = (0..10_000).map(|i| (format!("k{i}"), format!("v{i}"))).collect();
        let mut taken = VecMap::from_distinct(entries.clone()).into_iter_freeing();
        let first: Vec<_> = taken.by_ref().take(9_000).collect();
        assert_eq!(first, entries[..9_000]);
        // A thousand left: the list's room for ten thousand is not held until the last goes.
        assert!(taken.rest.capacity() <= 2_000, "room for {} entries kept", taken.rest.capacity());
        assert_eq!(taken.len(), 1_000);
        assert_eq!(taken.collect::<Vec<_>>(), entries[9_000..]);
    }

    #[test]
    fn building_from_entries_keeps_what_inserting_one_by_one_keeps() {
        let entries = [("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5), ("b", 6)];
        let mut inserted = VecMap::new();
        for (k, v) in entries {
            inserted.insert(k, v);
        }
        let built: VecMap<_, _> = entries.into_iter().collect();
        assert_eq!(built, inserted);
        assert_eq!(built.into_iter().collect::<Vec<_>>(), [("b", 6), ("a", 5), ("c", 4)]);
    }

    #[test]
    fn every_short_list_of_keys_builds_what_inserting_builds() {
        // Every list of up to 6 keys drawn from 3: each pattern of repeats, in every order.
        for len in 0..=6u32 {
            for code in 0..3usize.pow(len) {
                let entries: Vec<(usize, usize)> =
                    (0..len as usize).map(|i| (code / 3usize.pow(i as u32) % 3, i)).collect();
                let mut inserted = VecMap::new();
                for &(k, v) in &entries {
                    inserted.insert(k, v);
                }
                assert_eq!(VecMap::from_entries(entries.clone()), inserted, "{entries:?}");
            }
        }
    }
}

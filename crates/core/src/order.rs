//! Stable sorting and sorted maps, compiled once. The standard library's stable sort is about
//! 4 KB of wasm for each element type and comparison it is instantiated with, and
//! `collect::<BTreeMap<_, _>>()` sorts its pairs with it before it builds the tree: the
//! converter module carried 13 copies (about 50 KB of its code). Here one small sort runs on
//! positions, through a `dyn` comparison; what stays generic per type is a loop of swaps.

use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The positions `0..len` in the order `by` gives them, equal ones in input order (stable).
/// A bottom-up merge sort: O(n log n) like the standard library's, in a tenth of its code
/// (its stable sort, even on positions, is about 4 KB of wasm).
pub(crate) fn positions(len: usize, by: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut merged = vec![0; len];
    let mut width = 1;
    while width < len {
        for start in (0..len).step_by(2 * width) {
            let mid = (start + width).min(len);
            let end = (start + 2 * width).min(len);
            let (mut left, mut right) = (start, mid);
            for slot in &mut merged[start..end] {
                // The right run's item first only when it is less: equal ones keep input order.
                if right < end && (left == mid || by(order[right], order[left]) == Ordering::Less) {
                    *slot = order[right];
                    right += 1;
                } else {
                    *slot = order[left];
                    left += 1;
                }
            }
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// `items` sorted by `by`, stably: `slice::sort_by` without a copy of the sort per type.
pub fn sort_by<T>(items: &mut [T], by: impl Fn(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let mut order = positions(items.len(), &|a, b| by(&items[a], &items[b]));
    // Position i takes the item at order[i]: each cycle of the permutation is walked once with
    // swaps, and a placed position is marked by pointing at itself.
    for start in 0..items.len() {
        let mut i = start;
        while order[i] != start {
            let from = order[i];
            items.swap(i, from);
            order[i] = i;
            i = from;
        }
        order[i] = i;
    }
}

/// `items` sorted by `key`, stably: `slice::sort_by_key` without a copy of the sort per type.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// `items` in ascending order, stably: `slice::sort` without a copy of the sort per type.
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The map of `pairs`, inserted one by one: what `collect()` gives (a repeated key keeps its
/// last value) without the sort `collect()` runs first.
pub fn map_of<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    for (k, v) in pairs {
        map.insert(k, v);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_stable_sort_does() {
        // Every permutation of a list with repeated keys, so that stability shows.
        let base = [(2, 'a'), (1, 'b'), (2, 'c'), (0, 'd'), (1, 'e'), (3, 'f')];
        let mut seen = 0;
        for seed in 0..720usize {
            let mut items = base.to_vec();
            let mut rest = seed;
            for i in (1..items.len()).rev() {
                items.swap(i, rest % (i + 1));
                rest /= i + 1;
            }
            let mut expected = items.clone();
            expected.sort_by_key(|&(k, _)| k);
            sort_by_key(&mut items, |&(k, _)| k);
            assert_eq!(items, expected);
            seen += 1;
        }
        assert_eq!(seen, 720);
        let mut words = vec!["pear", "apple", "fig", "apple"];
        sort(&mut words);
        assert_eq!(words, ["apple", "apple", "fig", "pear"]);
    }

    #[test]
    fn sorts_long_lists_as_the_standard_stable_sort_does() {
        // Lengths around powers of two, keys with many repeats, in a scrambled order.
        for len in [0, 1, 2, 3, 7, 8, 9, 31, 32, 33, 100, 1000] {
            let mut items: Vec<(u64, usize)> = (0..len).map(|i| ((i as u64 * 2_654_435_761) % 17, i)).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|&(k, _)| k);
            sort_by_key(&mut items, |&(k, _)| k);
            assert_eq!(items, expected, "length {len}");
        }
    }

    #[test]
    fn maps_keep_what_collect_keeps() {
        let pairs = [("b", 1), ("a", 2), ("b", 3)];
        assert_eq!(map_of(pairs), pairs.into_iter().collect::<BTreeMap<_, _>>());
    }
}

//! A short memory of what was computed for the last few inputs. A reader comparing two
//! frameworks or personas goes back and forth, so going back finds its result here instead of
//! computing it again (yew's `use_memo` keeps only the latest).

/// The value for `key`: the kept one if any, else `make(&key)`. Keeps it as the newest and
/// forgets all but the newest `limit`.
pub fn kept_or_made<K: PartialEq, V: Clone>(
    kept: &mut Vec<(K, V)>,
    key: K,
    limit: usize,
    make: impl FnOnce(&K) -> V,
) -> V {
    let value = match kept.iter().position(|(k, _)| *k == key) {
        Some(i) => kept.remove(i).1,
        None => make(&key),
    };
    kept.insert(0, (key, value.clone()));
    kept.truncate(limit);
    value
}

//! The notation both reports name fields in, and both claims checks walk documents by:
//! `spec.a.b[0].c`, keys joined by dots and list items by their position. One definition, so
//! that a migration's and an upgrade's entries cover the same fields the same way.

use serde_json::Value;

/// `parent.key`: the path of a member of the map at `parent`. Joined in one allocation of the
/// exact length; the converter names a few dozen fields a job this way, where `format!` took
/// about 900 instructions each (measuring its capacity, then growing past it).
pub fn member(parent: &str, key: &str) -> String {
    [parent, ".", key].concat()
}

/// `list[i]`: the path of the item at `i` of the list at `list` (see [`member`]).
pub fn item(list: &str, i: usize) -> String {
    // Room for the brackets and an index of up to 6 digits.
    let mut path = String::with_capacity(list.len() + 8);
    path.push_str(list);
    push_index(&mut path, i);
    path
}

/// Appends `[i]` to `path`: the part [`item`] adds. Its digits are written by hand: through
/// `write!` each index cost about 300 instructions of the formatting machinery, and the
/// converter writes about ten item paths a job (`every_leaf`, `quantities`, the reports' paths).
pub fn push_index(path: &mut String, i: usize) {
    // usize::MAX has 20 digits.
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = i;
    loop {
        start -= 1;
        // `rest % 10` is a digit: the cast cannot truncate.
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    path.push('[');
    path.extend(digits[start..].iter().map(|&d| char::from(d)));
    path.push(']');
}

/// Whether `prefix` is `path` or one of its ancestors (`a.b` covers `a.b.c` and `a.b[0]`).
pub fn covers(prefix: &str, path: &str) -> bool {
    path.starts_with(prefix) && matches!(path.as_bytes().get(prefix.len()), None | Some(b'.') | Some(b'['))
}

/// The strict ancestors of a path, longest first: `a.b[0]`, `a.b`, `a` for `a.b[0].c`.
pub fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    path.char_indices().rev().filter(|(_, c)| matches!(c, '.' | '[')).map(move |(i, _)| &path[..i])
}

/// The leaves of `v` below `path` (empty maps and lists count as leaves), in this notation.
pub fn leaf_paths<'a>(v: &'a Value, mut path: String, out: &mut Vec<(String, &'a Value)>) {
    every_leaf(v, &mut path, &mut |leaf, value| {
        out.push((leaf.to_string(), value));
        true
    });
}

/// Whether `each` holds for every leaf of `v` below `path`, as [`leaf_paths`] names them and in
/// its order, stopping at the first that fails. One path is built at a time in `path` (left as it
/// was given): a template of 84,000 leaves took 15 MB as a list of their paths.
pub fn every_leaf<'a>(v: &'a Value, path: &mut String, each: &mut impl FnMut(&str, &'a Value) -> bool) -> bool {
    let len = path.len();
    match v {
        Value::Object(map) if !map.is_empty() => map.iter().all(|(k, child)| {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(k);
            let all = every_leaf(child, path, each);
            path.truncate(len);
            all
        }),
        Value::Array(items) if !items.is_empty() => items.iter().enumerate().all(|(i, child)| {
            push_index(path, i);
            let all = every_leaf(child, path, each);
            path.truncate(len);
            all
        }),
        _ => each(path, v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_and_items_are_written_in_the_notation() {
        assert_eq!(member("spec.template", "spec"), "spec.template.spec");
        assert_eq!(item("spec.containers", 0), "spec.containers[0]");
        assert_eq!(item(&member("a", "b"), 1_234_567), "a.b[1234567]");
    }

    #[test]
    fn an_index_is_written_as_display_writes_it() {
        let mut indices = vec![usize::MAX, usize::MAX / 10];
        // Every number of up to four digits, and each power of ten with its neighbours.
        indices.extend(0..10_000);
        indices.extend((1..20).flat_map(|p| [10usize.pow(p) - 1, 10usize.pow(p), 10usize.pow(p) + 1]));
        for i in indices {
            let mut path = "a".to_string();
            push_index(&mut path, i);
            assert_eq!(path, format!("a[{i}]"));
        }
    }

    #[test]
    fn prefixes_respect_segment_boundaries() {
        assert!(covers("spec.runPolicy", "spec.runPolicy.backoffLimit"));
        assert!(covers("a.b", "a.b[0].c"));
        assert!(!covers("spec.run", "spec.runPolicy"));
    }

    #[test]
    fn ancestors_are_every_shorter_path_longest_first() {
        assert_eq!(ancestors("a.b[0].c").collect::<Vec<_>>(), ["a.b[0]", "a.b", "a"]);
        assert_eq!(ancestors("a").count(), 0);
    }

    #[test]
    fn leaves_include_empty_maps_and_lists() {
        let v = serde_json::json!({"a": {"b": [1, {}]}, "c": []});
        let mut out = Vec::new();
        leaf_paths(&v, String::new(), &mut out);
        let paths: Vec<&str> = out.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, ["a.b[0]", "a.b[1]", "c"]);
    }

    #[test]
    fn every_leaf_stops_at_the_first_that_fails_and_leaves_the_path_as_given() {
        let v = serde_json::json!({"a": {"b": [1, {}]}, "c": []});
        let mut seen = Vec::new();
        let mut path = "x".to_string();
        let all = every_leaf(&v, &mut path, &mut |leaf, _| {
            seen.push(leaf.to_string());
            leaf != "x.a.b[1]"
        });
        assert!(!all);
        assert_eq!(seen, ["x.a.b[0]", "x.a.b[1]"]);
        assert_eq!(path, "x");
    }
}

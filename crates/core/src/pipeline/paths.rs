//! The notation both reports name fields in, and both claims checks walk documents by:
//! `spec.a.b[0].c`, keys joined by dots and list items by their position. One definition, so
//! that a migration's and an upgrade's entries cover the same fields the same way.

use serde_json::Value;

/// Whether `prefix` is `path` or one of its ancestors (`a.b` covers `a.b.c` and `a.b[0]`).
pub fn covers(prefix: &str, path: &str) -> bool {
    path.starts_with(prefix) && matches!(path.as_bytes().get(prefix.len()), None | Some(b'.') | Some(b'['))
}

/// The strict ancestors of a path, longest first: `a.b[0]`, `a.b`, `a` for `a.b[0].c`.
pub fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    path.char_indices().rev().filter(|(_, c)| matches!(c, '.' | '[')).map(move |(i, _)| &path[..i])
}

/// The leaves of `v` below `path` (empty maps and lists count as leaves), in this notation.
pub fn leaf_paths<'a>(v: &'a Value, path: String, out: &mut Vec<(String, &'a Value)>) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            for (k, child) in map {
                leaf_paths(child, if path.is_empty() { k.clone() } else { format!("{path}.{k}") }, out);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for (i, child) in items.iter().enumerate() {
                leaf_paths(child, format!("{path}[{i}]"), out);
            }
        }
        _ => out.push((path, v)),
    }
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
}

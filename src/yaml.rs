//! A small block-style YAML emitter over `model::Value`.
//!
//! Why not serde_yaml's emitter: it costs about 35 KB gzipped in the widget (UX.md §4.1) and
//! cannot tell which line came from which field. Every line here carries its field path, which
//! is what lets the widget mark the V1 lines a runtime now owns, and the migrator mark each V1
//! line as mapped, moved or dropped. Native tests parse every emitted document back with
//! serde_yaml and compare values, and a property test does the same for random values.

use crate::model::{Map, Value};

/// One step of a field path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathSeg {
    Key(String),
    Index(usize),
}

pub type Path = Vec<PathSeg>;

/// One emitted line and the path of the field it shows (empty for comments and separators).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    pub path: Path,
}

/// Renders a path as `spec.trainer.command[0]`, for reports and tests.
pub fn path_to_string(path: &[PathSeg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            PathSeg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            PathSeg::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
    out
}

/// Emits one document. Top-level scalars and sequences are allowed, though Kubernetes objects
/// are always maps.
pub fn emit(value: &Value) -> Vec<Line> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    match value {
        Value::Object(map) if !map.is_empty() => emit_map(map, 0, &mut path, &mut out),
        Value::Array(items) if !items.is_empty() => emit_seq(items, 0, &mut path, &mut out),
        other => out.push(Line { text: inline(other), path: Vec::new() }),
    }
    out
}

/// Emits several documents separated by `---`, with optional leading comments per document.
pub fn emit_documents<'a>(docs: impl IntoIterator<Item = (&'a [String], &'a Value)>) -> Vec<Line> {
    let mut out = Vec::new();
    for (i, (comments, value)) in docs.into_iter().enumerate() {
        if i > 0 {
            out.push(Line { text: "---".into(), path: Vec::new() });
        }
        for c in comments {
            out.push(Line { text: format!("# {c}"), path: Vec::new() });
        }
        out.extend(emit(value));
    }
    out
}

pub fn join(lines: &[Line]) -> String {
    let mut s = String::new();
    for l in lines {
        s.push_str(&l.text);
        s.push('\n');
    }
    s
}

fn emit_map(map: &Map, indent: usize, path: &mut Path, out: &mut Vec<Line>) {
    let pad = " ".repeat(indent);
    for (key, value) in map.iter() {
        path.push(PathSeg::Key(key.clone()));
        let key_text = scalar_string(key);
        match value {
            Value::Object(m) if !m.is_empty() => {
                out.push(Line { text: format!("{pad}{key_text}:"), path: path.clone() });
                emit_map(m, indent + 2, path, out);
            }
            Value::Array(items) if !items.is_empty() => {
                out.push(Line { text: format!("{pad}{key_text}:"), path: path.clone() });
                emit_seq(items, indent + 2, path, out);
            }
            Value::String(s) if block_literal_fits(s) => {
                out.push(Line { text: format!("{pad}{key_text}: {}", block_header(s)), path: path.clone() });
                push_block_body(s, indent + 2, path, out);
            }
            other => out.push(Line { text: format!("{pad}{key_text}: {}", inline(other)), path: path.clone() }),
        }
        path.pop();
    }
}

fn emit_seq(items: &[Value], indent: usize, path: &mut Path, out: &mut Vec<Line>) {
    let pad = " ".repeat(indent);
    for (i, item) in items.iter().enumerate() {
        path.push(PathSeg::Index(i));
        match item {
            Value::Object(m) if !m.is_empty() => {
                // The first entry sits on the dash line: "- name: node".
                let start = out.len();
                emit_map(m, indent + 2, path, out);
                let first = &mut out[start].text;
                first.replace_range(..indent + 2, &format!("{pad}- "));
            }
            Value::Array(inner) if !inner.is_empty() => {
                out.push(Line { text: format!("{pad}-"), path: path.clone() });
                emit_seq(inner, indent + 2, path, out);
            }
            Value::String(s) if block_literal_fits(s) => {
                out.push(Line { text: format!("{pad}- {}", block_header(s)), path: path.clone() });
                push_block_body(s, indent + 2, path, out);
            }
            other => out.push(Line { text: format!("{pad}- {}", inline(other)), path: path.clone() }),
        }
        path.pop();
    }
}

/// Multi-line scripts (`python -c`) read best as `|` blocks. Only used where the literal
/// round-trips exactly: no tabs or carriage returns, no leading space on the first line, and no
/// trailing spaces that a block would keep but a reader could not see.
fn block_literal_fits(s: &str) -> bool {
    s.contains('\n')
        && !s.starts_with([' ', '\n'])
        && !s.contains(['\t', '\r'])
        && s.chars().all(|c| !c.is_control() || c == '\n')
        && s.lines().all(|l| !l.ends_with(' '))
}

fn block_header(s: &str) -> &'static str {
    let trailing = s.len() - s.trim_end_matches('\n').len();
    match trailing {
        0 => "|-",
        1 => "|",
        _ => "|+",
    }
}

fn push_block_body(s: &str, indent: usize, path: &Path, out: &mut Vec<Line>) {
    let pad = " ".repeat(indent);
    let body = s.strip_suffix('\n').unwrap_or(s);
    for line in body.split('\n') {
        let text = if line.is_empty() { String::new() } else { format!("{pad}{line}") };
        out.push(Line { text, path: path.clone() });
    }
}

fn inline(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => scalar_string(s),
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
    }
}

/// A string as a plain scalar when YAML would read it back as the same string, else
/// double-quoted (JSON escapes are valid YAML double-quoted escapes).
pub fn scalar_string(s: &str) -> String {
    if plain_is_safe(s) {
        s.to_string()
    } else {
        double_quoted(s)
    }
}

/// Control characters (C0, DEL, C1 such as NEL) and the Unicode line separators, which would
/// otherwise break or fold a line when read back.
fn must_escape(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}')
}

/// A double-quoted string with the escapes YAML, JSON and Python share (`\"`, `\\`, `\n`, `\t`,
/// `\r`, `\uXXXX`): the YAML emitter and the Python snippet writer both use it. (Not
/// `serde_json::to_string`: it writes through `std::io`, whose error strings cost KBs of wasm.)
pub fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if must_escape(c) => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let n = c as u32;
                out.push_str("\\u");
                for shift in [12, 8, 4, 0] {
                    out.push(HEX[((n >> shift) & 0xf) as usize] as char);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn plain_is_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    if s.trim() != s || s.chars().any(must_escape) {
        return false;
    }
    // Indicators that start another construct. A '-' is fine when a non-space follows ("-De").
    if "?:,[]{}#&*!|>'\"%@`".contains(first) || s.starts_with("- ") || s == "-" {
        return false;
    }
    if s.starts_with("---") || s.starts_with("...") || s.contains(": ") || s.contains(" #") || s.ends_with(':') {
        return false;
    }
    !resolves_to_non_string(s)
}

/// Whether YAML 1.1 or 1.2 would read `s` as a bool, null, number or timestamp.
fn resolves_to_non_string(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    const WORDS: [&str; 14] =
        ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ".inf", "-.inf", "+.inf", ".nan"];
    if WORDS.contains(&lower.as_str()) || s == "<<" {
        return true;
    }
    // Anything made only of digits and number punctuation (hex, octal, floats, sexagesimal,
    // dates) is quoted; this over-quotes a little and never under-quotes.
    s.chars().any(|c| c.is_ascii_digit()) && s.chars().all(|c| c.is_ascii_hexdigit() || "xXoO_.+-:eE".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree;

    fn round_trip(v: &Value) -> Value {
        let text = join(&emit(v));
        serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn kubernetes_shape_matches_upstream_style() {
        let v = tree!({"spec": {"containers": [{"name": "node", "args": ["-De", "-f"]}], "torch": {}}});
        assert_eq!(
            join(&emit(&v)),
            "spec:\n  containers:\n    - name: node\n      args:\n        - -De\n        - -f\n  torch: {}\n"
        );
    }

    #[test]
    fn ambiguous_strings_are_quoted() {
        for s in [
            "true",
            "No",
            "1.0",
            "0x1F",
            "2026-11-29",
            "",
            " x",
            "a: b",
            "#c",
            "- x",
            "12:30",
            "~",
            "1e3",
            "a\u{85}b",
            "x\u{2028}y",
            "\u{7f}",
        ] {
            assert!(scalar_string(s).starts_with('"'), "{s:?} must be quoted");
            assert_eq!(round_trip(&tree!({ "k": s })), tree!({ "k": s }));
        }
        assert_eq!(scalar_string("nvidia.com/gpu"), "nvidia.com/gpu");
        assert_eq!(scalar_string("20Gi"), "20Gi");
    }

    #[test]
    fn scripts_become_literal_blocks() {
        let v = tree!({"command": ["python3", "-c", "import jax\n\nprint(1)\n"]});
        let text = join(&emit(&v));
        assert!(text.contains("- |\n    import jax\n\n    print(1)\n"), "{text}");
        assert_eq!(round_trip(&v), v);
    }

    #[test]
    fn lines_carry_their_paths() {
        let v = tree!({"spec": {"replicas": 3, "list": [{"a": 1}]}});
        let lines = emit(&v);
        let paths: Vec<_> = lines.iter().map(|l| path_to_string(&l.path)).collect();
        assert_eq!(paths, ["spec", "spec.replicas", "spec.list", "spec.list[0].a"]);
    }
}

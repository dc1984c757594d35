//! Reading untrusted YAML: limits first, then parsing, one document at a time.

use serde_json::Value;

/// Larger input is refused before parsing. A 1 MB manifest must convert; 4 MiB leaves room.
pub const MAX_INPUT_BYTES: usize = 4 * 1024 * 1024;
/// Deeper nesting is refused before parsing. Kubernetes objects nest about 20 levels deep.
pub const MAX_DEPTH: usize = 64;
/// More documents than this in one stream are refused.
pub const MAX_DOCUMENTS: usize = 10_000;

/// One document of the stream: where it starts, and its value or why it could not be read.
pub struct RawDoc {
    pub index: usize,
    pub line: usize,
    pub value: Result<Value, String>,
}

/// Checks that apply to the whole input, before any parsing.
pub fn precheck(text: &str) -> Result<(), String> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(format!("input is {} bytes; the limit is {} bytes (split the file)", text.len(), MAX_INPUT_BYTES));
    }
    if text.trim().is_empty() {
        return Err("input is empty: paste one or more V1 job manifests".into());
    }
    if let Some((line, col)) = position_of(text, |c| c == '\0' || (c.is_control() && !matches!(c, '\n' | '\r' | '\t')))
    {
        return Err(format!("binary data at line {line} column {col}: expected YAML text"));
    }
    depth_check(text)
}

fn position_of(text: &str, pred: impl Fn(char) -> bool) -> Option<(usize, usize)> {
    for (n, line) in text.lines().enumerate() {
        if let Some(col) = line.chars().position(&pred) {
            return Some((n + 1, col + 1));
        }
    }
    None
}

/// Bounds nesting without parsing: block indentation (in steps of the smallest indent seen)
/// and flow brackets outside quotes.
fn depth_check(text: &str) -> Result<(), String> {
    let mut flow = 0usize;
    for (n, line) in text.lines().enumerate() {
        let indent = line.len() - line.trim_start_matches([' ', '-']).len();
        // Two columns per level is the tightest YAML nesting a person writes ("- - - x" counts too).
        if indent / 2 > MAX_DEPTH {
            return Err(format!("nesting deeper than {MAX_DEPTH} levels at line {}", n + 1));
        }
        let mut quote: Option<char> = None;
        for (col, c) in line.chars().enumerate() {
            match (quote, c) {
                (None, '#') => break,
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '[' | '{') => {
                    flow += 1;
                    if flow > MAX_DEPTH {
                        return Err(format!(
                            "nesting deeper than {MAX_DEPTH} levels at line {} column {}",
                            n + 1,
                            col + 1
                        ));
                    }
                }
                (None, ']' | '}') => flow = flow.saturating_sub(1),
                _ => {}
            }
        }
    }
    Ok(())
}

/// The line each document starts on (1-based), from the `---` separators.
fn start_lines(text: &str) -> Vec<usize> {
    let mut starts = vec![1];
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("---") && (line.len() == 3 || line[3..].starts_with([' ', '\t'])) {
            starts.push(n + 2);
        }
    }
    starts
}

/// Parses every document. A document that fails to parse is reported and, where the parser can
/// resynchronise, the following ones are still read.
pub fn documents(text: &str) -> Result<Vec<RawDoc>, String> {
    use serde::Deserialize;
    precheck(text)?;
    let starts = start_lines(text);
    let mut out = Vec::new();
    let mut skipped_leading_empty = 0;
    for (i, doc) in serde_yaml::Deserializer::from_str(text).enumerate() {
        if out.len() >= MAX_DOCUMENTS {
            return Err(format!("more than {MAX_DOCUMENTS} documents: split the input"));
        }
        let value = Value::deserialize(doc).map_err(|e| e.to_string());
        // A leading `---` yields an empty first document; it is not the reader's.
        if i == 0 && matches!(value, Ok(Value::Null)) && text.trim_start().starts_with("---") {
            skipped_leading_empty = 1;
            continue;
        }
        if matches!(value, Ok(Value::Null)) {
            continue;
        }
        let failed = value.is_err();
        let line = starts.get(i).copied().unwrap_or(1);
        out.push(RawDoc { index: i + 1 - skipped_leading_empty, line, value });
        if failed {
            // serde_yaml stops at the first syntax error in a stream.
            break;
        }
    }
    if out.is_empty() {
        return Err("no YAML documents found".into());
    }
    Ok(out)
}

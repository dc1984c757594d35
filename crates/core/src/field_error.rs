//! serde's complaints about a user's object, in the words the API server uses for the same
//! mistake (apimachinery's `field.Error`: `<path>: Invalid value: …`, `Required value`, and
//! kubectl's strict decoding `unknown field "<path>"`), so a reader sees the field and what the
//! API accepts there, never a Rust type (`expected u32`). serde gives its complaint only as text,
//! so this is the one place that reads an error's words: it turns them into a typed
//! `k8s::field::Rejection`, and every caller decides by that.

use crate::k8s::field::{ErrorType, Path, Rejection};

/// The OpenAPI type serde's `expected …` stands for, when it names one.
fn api_type(expected: &str) -> Option<&'static str> {
    let e = expected.trim();
    Some(match e {
        "a string" | "a borrowed string" | "a character" | "a quantity" => "string",
        "a boolean" => "boolean",
        "a sequence" | "a list" => "array",
        "a map" => "object",
        "f32" | "f64" => "number",
        _ if e.starts_with("struct ") || e.starts_with("a map") => "object",
        _ if e.starts_with("enum ") || e.starts_with("a string ") => "string",
        _ if matches!(e.trim_start_matches(['u', 'i']), "8" | "16" | "32" | "64" | "128" | "size") => "integer",
        _ => return None,
    })
}

/// The JSON type of what serde found (`map`, `string "x"`, ``integer `5` ``…), as the API server
/// names it in `Invalid value: "object"`.
fn found_type(unexpected: &str) -> &str {
    let u = unexpected.trim();
    match u.split([' ', '`']).next().unwrap_or(u) {
        "map" => "object",
        "sequence" => "array",
        "string" | "char" => "string",
        "integer" => "integer",
        "floating" => "number",
        "boolean" => "boolean",
        "unit" | "null" => "null",
        _ => u,
    }
}

/// The value inside serde's backquotes (``integer `-1` `` → `-1`), when it gives one.
fn quoted(text: &str) -> Option<&str> {
    let start = text.find('`')? + 1;
    let end = start + text[start..].find('`')?;
    Some(&text[start..end])
}

/// One field error: `path` as serde_path_to_error prints it (`spec.trainer.numNodes`, `.` for
/// the object itself) and serde's message, as the typed error it is. Messages this does not know
/// are kept as they are (`ErrorType::Message`).
pub fn kubernetes(path: &str, message: &str) -> Rejection {
    let path = path.trim_end_matches('.');
    let at = |suffix: &str| match (path, suffix) {
        ("", s) => s.to_string(),
        (p, "") => p.to_string(),
        (p, s) => format!("{p}.{s}"),
    };
    let here = || Path::parse(path);
    // serde_json adds where in the text it was, which says nothing for a YAML file.
    let message = message.split(" at line ").next().unwrap_or(message);
    if let Some(rest) = message.strip_prefix("missing field ") {
        return Rejection::required(&at(rest.trim_matches('`')));
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let field = quoted(rest).unwrap_or(rest);
        return Rejection::new(ErrorType::UnknownField, Path::root(), format!("unknown field \"{}\"", at(field)));
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            let found = found_type(found);
            let detail = match api_type(expected) {
                Some(want) => format!("\"{found}\": must be of type {want}"),
                None => format!("\"{found}\": expected {expected}"),
            };
            return Rejection::new(ErrorType::TypeInvalid, here(), detail);
        }
    }
    if let Some(rest) = message.strip_prefix("invalid value: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            let value = quoted(found).unwrap_or(found);
            let expected = expected.trim();
            let unsigned = expected.starts_with('u') && api_type(expected) == Some("integer");
            let detail = if unsigned && value.starts_with('-') {
                format!("{value}: must be greater than or equal to 0")
            } else if api_type(expected) == Some("integer") {
                let bits = expected.trim_start_matches(['u', 'i']);
                format!("{value}: must fit in an int{bits}")
            } else {
                format!("{value}: expected {expected}")
            };
            return Rejection::new(ErrorType::Invalid, here(), detail);
        }
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let value = quoted(rest).unwrap_or(rest);
        let allowed = rest.split_once("expected ").map_or(String::new(), |(_, e)| {
            format!(": supported values: {}", e.replace("one of ", "").replace('`', "\""))
        });
        return Rejection::new(ErrorType::NotSupported, here(), format!("\"{value}\"{allowed}"));
    }
    Rejection::new(ErrorType::Message, here(), message)
}

/// A field error as a reader's error line says it: `<path>: <reason>`; on the object itself,
/// `the object: <reason>` for a typed error and the sentence alone for the others.
pub fn said(error: &Rejection) -> String {
    match (error.path.steps.is_empty(), error.ty.word()) {
        (true, Some(_)) => format!("the object: {}", error.reason()),
        (true, None) => error.reason(),
        (false, _) => error.to_string(),
    }
}

/// [`kubernetes`], said as a reader's error line.
pub fn kubernetes_text(path: &str, message: &str) -> String {
    said(&kubernetes(path, message))
}

#[cfg(test)]
mod tests {
    use super::kubernetes_text as kubernetes;

    #[test]
    fn serde_words_become_the_api_servers() {
        let cases = [
            (
                "spec.trainer.numNodes",
                "invalid value: integer `-1`, expected u32",
                "spec.trainer.numNodes: Invalid value: -1: must be greater than or equal to 0",
            ),
            (
                "metadata.name",
                "invalid type: map, expected a string",
                "metadata.name: Invalid value: \"object\": must be of type string",
            ),
            (
                ".",
                "invalid type: map, expected a string at line 1 column 2",
                "the object: Invalid value: \"object\": must be of type string",
            ),
            (
                "spec.replicas",
                "invalid type: string \"two\", expected u32",
                "spec.replicas: Invalid value: \"string\": must be of type integer",
            ),
            ("spec.trainer", "missing field `image`", "spec.trainer.image: Required value"),
            ("spec", "unknown field `trainr`, expected one of `trainer`", "unknown field \"spec.trainr\""),
            (
                "spec.x",
                "unknown variant `Sometimes`, expected one of `Always`, `Never`",
                "spec.x: Unsupported value: \"Sometimes\": supported values: \"Always\", \"Never\"",
            ),
        ];
        for (path, serde, want) in cases {
            let got = kubernetes(path, serde);
            assert_eq!(got, want);
            assert!(!got.contains("u32") && !got.contains("line 1"), "{got}");
        }
    }

    /// The type is set where serde's words are read, so no caller reads them again: a type
    /// mismatch blocks the CRD rules as the API server's `TypeInvalid` does.
    #[test]
    fn each_complaint_has_its_type() {
        use crate::k8s::field::ErrorType;
        let ty = |path: &str, message: &str| super::kubernetes(path, message).ty;
        assert_eq!(ty("spec.x", "invalid type: string \"two\", expected u32"), ErrorType::TypeInvalid);
        assert_eq!(ty("spec.x", "invalid value: integer `-1`, expected u32"), ErrorType::Invalid);
        assert_eq!(ty("spec", "missing field `image`"), ErrorType::Required);
        assert_eq!(ty("spec", "unknown field `trainr`"), ErrorType::UnknownField);
        assert_eq!(ty("spec.x", "unknown variant `A`, expected `B`"), ErrorType::NotSupported);
        assert_eq!(ty("spec.x", "Invalid value: 3: reads like a type word"), ErrorType::Message);
    }
}

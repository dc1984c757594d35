//! serde's complaints about a user's object, in the words the API server uses for the same
//! mistake (apimachinery's `field.Error`: `<path>: Invalid value: …`, `Required value`, and
//! kubectl's strict decoding `unknown field "<path>"`), so a reader sees the field and what the
//! API accepts there, never a Rust type (`expected u32`).

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
/// the object itself) and serde's message. Messages this does not know are kept as they are.
pub fn kubernetes(path: &str, message: &str) -> String {
    let path = path.trim_end_matches('.');
    let at = |suffix: &str| match (path, suffix) {
        ("", s) => s.to_string(),
        (p, "") => p.to_string(),
        (p, s) => format!("{p}.{s}"),
    };
    // serde_json adds where in the text it was, which says nothing for a YAML file.
    let message = message.split(" at line ").next().unwrap_or(message);
    if let Some(rest) = message.strip_prefix("missing field ") {
        return format!("{}: Required value", at(rest.trim_matches('`')));
    }
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let field = quoted(rest).unwrap_or(rest);
        return format!("unknown field \"{}\"", at(field));
    }
    let here = if path.is_empty() { "the object".to_string() } else { path.to_string() };
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            let found = found_type(found);
            return match api_type(expected) {
                Some(want) => format!("{here}: Invalid value: \"{found}\": must be of type {want}"),
                None => format!("{here}: Invalid value: \"{found}\": expected {expected}"),
            };
        }
    }
    if let Some(rest) = message.strip_prefix("invalid value: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            let value = quoted(found).unwrap_or(found);
            let expected = expected.trim();
            let unsigned = expected.starts_with('u') && api_type(expected) == Some("integer");
            return if unsigned && value.starts_with('-') {
                format!("{here}: Invalid value: {value}: must be greater than or equal to 0")
            } else if api_type(expected) == Some("integer") {
                let bits = expected.trim_start_matches(['u', 'i']);
                format!("{here}: Invalid value: {value}: must fit in an int{bits}")
            } else {
                format!("{here}: Invalid value: {value}: expected {expected}")
            };
        }
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let value = quoted(rest).unwrap_or(rest);
        let allowed = rest.split_once("expected ").map_or(String::new(), |(_, e)| {
            format!(": supported values: {}", e.replace("one of ", "").replace('`', "\""))
        });
        return format!("{here}: Unsupported value: \"{value}\"{allowed}");
    }
    if path.is_empty() {
        message.to_string()
    } else {
        format!("{path}: {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::kubernetes;

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
}

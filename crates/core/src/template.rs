//! Fills the snippets' templates (explorer_data::templates): the text as written, each line kept
//! only where its flags say (`{{?flag}}` before a line keeps it when `flag` is set, `{{!flag}}`
//! when it is not). By hand, byte by byte: a `&str` pattern would bring the standard library's
//! two-way string searcher into the widget's wasm.

/// `template` filled: the lines its `flags` keep, with their flag tags taken off.
pub(crate) fn fill(template: &str, flags: &[&str]) -> String {
    let mut out = String::with_capacity(template.len());
    for line in template.split_inclusive('\n') {
        let mut rest = line;
        let mut keep = true;
        while let Some((tag, after)) = rest.strip_prefix("{{").and_then(split_tag) {
            let (wanted, flag) = match tag.as_bytes().first() {
                Some(b'?') => (true, &tag[1..]),
                Some(b'!') => (false, &tag[1..]),
                _ => break,
            };
            keep &= flags.contains(&flag) == wanted;
            rest = after;
        }
        if keep {
            out.push_str(rest);
        }
    }
    out
}

/// `tag}}rest` as `(tag, rest)`.
fn split_tag(s: &str) -> Option<(&str, &str)> {
    let end = s.as_bytes().windows(2).position(|w| w == b"}}")?;
    Some((&s[..end], &s[end + 2..]))
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn flags_keep_lines() {
        let t = "a b\n{{?on}}kept\n{{!on}}dropped\n{{?off}}gone\n{{!off}}{{?on}}both\n{ }} {{z}}\n";
        assert_eq!(fill(t, &["on"]), "a b\nkept\nboth\n{ }} {{z}}\n");
        assert_eq!(fill(t, &[]), "a b\ndropped\n{ }} {{z}}\n");
    }

    /// Every tag in the training-function templates is a flag `function_body` sets or not: a
    /// misspelt flag would silently drop or keep a line.
    #[test]
    fn the_train_templates_use_only_known_flags() {
        use explorer_data::templates::train;
        for t in [
            train::PYTORCH,
            train::DEEPSPEED,
            train::MLX,
            train::JAX,
            train::XGBOOST,
            train::TENSORFLOW,
            train::PADDLE,
            train::RANK,
        ] {
            let mut rest = t;
            while let Some(at) = rest.find("{{") {
                let tag = &rest[at + 2..rest[at..].find("}}").map_or(rest.len(), |end| at + end)];
                assert!(["?gpu", "!gpu", "?v1", "?v2"].contains(&tag), "unknown tag {tag:?} in\n{t}");
                rest = &rest[at + 2..];
            }
        }
    }

    #[test]
    fn a_last_line_without_newline_is_kept() {
        assert_eq!(fill("a\n{{?f}}b", &["f"]), "a\nb");
        assert_eq!(fill("", &[]), "");
    }
}

//! Small string helpers the widget's code shares, each compiled once or twice rather than taking
//! the standard library's generic version into the widget's wasm once per element type.

/// `items` joined with `sep` between them, as `[S]::join` writes them. A plain loop: the
/// standard library's `join` (a specialised copy loop, about 1.1 KB of wasm per element type)
/// was in the widget twice, for `&str` and `String` items.
pub fn join<S: AsRef<str>>(items: &[S], sep: &str) -> String {
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(item.as_ref());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::join;

    #[test]
    fn joins_as_the_standard_library_does() {
        let words = ["a", "", "bc", "d"];
        for n in 0..=words.len() {
            let strs = &words[..n];
            let owned: Vec<String> = strs.iter().map(|s| s.to_string()).collect();
            for sep in ["", ", ", "/"] {
                assert_eq!(join(strs, sep), strs.join(sep), "{strs:?} with {sep:?}");
                assert_eq!(join(&owned, sep), owned.join(sep), "{owned:?} with {sep:?}");
            }
        }
    }
}

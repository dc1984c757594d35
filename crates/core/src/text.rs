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

/// `n` in decimal, as `n.to_string()` writes it, through the integer `Display` that the
/// widget's wasm carries anyway (the YAML emitter writes its numbers with it): each integer
/// type's own `to_string` is a digit printer of its own there (`u32`'s and `i64`'s were 0.5 KB
/// of code together). Every count the panes and fields write goes through here.
pub fn decimal(n: i64) -> String {
    use std::fmt::Write;
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = write!(text, "{n}");
    text
}

/// `n` and its noun, singular for one: a report reads "1 node", never "1 nodes". The noun may
/// carry its verb ("job was" / "jobs were"). One integer type, so one copy in any wasm that
/// uses it; every count fits in `u64` losslessly.
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A table of the 256 byte values, true for those in `members`: a scan that looks for a few
/// ASCII characters skips every other byte with one look-up (`pipeline::input`'s nesting check,
/// crates/html's HTML escaping).
pub const fn byte_set(members: &[u8]) -> [bool; 256] {
    let mut set = [false; 256];
    let mut i = 0;
    while i < members.len() {
        set[members[i] as usize] = true;
        i += 1;
    }
    set
}

#[cfg(test)]
mod tests {
    use super::{byte_set, decimal, join};

    #[test]
    fn byte_set_holds_its_members_only() {
        let set = byte_set(b"#[\xe2");
        let members: Vec<u8> = (0..=255u8).filter(|&b| set[usize::from(b)]).collect();
        assert_eq!(members, vec![b'#', b'[', 0xe2]);
    }

    #[test]
    fn decimal_is_to_string() {
        for n in [0, 1, -1, 9, 10, 99, 100, 4_294_967_295, i64::MAX, i64::MIN] {
            assert_eq!(decimal(n), n.to_string());
        }
    }

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

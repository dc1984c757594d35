//! How many aliases of each name can still come, counted from the text, so that the tree
//! (`tree.rs`) keeps an anchor's node only while an alias of it may follow, and hands the last
//! one the node itself rather than a copy (issue 36: a pod template shared by alias was held
//! three times while its document was read: the Master's, the anchor's and the Worker's).
//!
//! An alias is written `*name`, its name the letters, digits, `_` and `-` after the `*` (libyaml
//! reads no other: `scanner.rs` `yaml_parser_scan_anchor`), and nothing else the parser reads as
//! an alias looks otherwise. So every `*name` of the text, in a comment or a string too, counted
//! less the aliases the reader has met, bounds from above the aliases still to come: once none
//! can, the anchor's node is not kept. An upper bound is all the tree needs; it never counts on
//! an alias that could not come, and an alias it did not count on is left to yaml_serde.

use std::collections::HashMap;

/// The most names counted (every one past them is not counted, its nodes kept as before): more
/// than a manifest writes, few enough that a text of `*name` in comments holds little.
const MOST_NAMES: usize = 4096;

/// The `*name`s of a text not yet met as aliases, per name: each name its own (not the text's), so
/// the count outlives a text the parser frees as it passes it (`events::Events::given`).
pub(super) struct AliasesWritten {
    left: HashMap<Box<[u8]>, u32>,
    /// Whether every name of the text is counted (else a name not counted may be written).
    every_name: bool,
}

impl AliasesWritten {
    /// The `*name`s of `text`.
    pub(super) fn of(text: &str) -> AliasesWritten {
        let bytes = text.as_bytes();
        let is_name = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-');
        let mut left: HashMap<Box<[u8]>, u32> = HashMap::new();
        let mut every_name = true;
        // `match_indices` finds each `*` a word at a time rather than byte by byte.
        for (at, _) in text.match_indices('*') {
            let rest = &bytes[at + 1..];
            let name = &rest[..rest.iter().position(|b| !is_name(b)).unwrap_or(rest.len())];
            if name.is_empty() {
                continue;
            }
            let room = left.len() < MOST_NAMES;
            match left.get_mut(name) {
                Some(count) => *count = count.saturating_add(1),
                None if room => {
                    left.insert(name.into(), 1);
                }
                None => every_name = false,
            }
        }
        AliasesWritten { left, every_name }
    }

    /// At most how many aliases named `name` are still to come (`None`: not counted).
    pub(super) fn left(&self, name: &[u8]) -> Option<u32> {
        match self.left.get(name) {
            Some(&count) => Some(count),
            None if self.every_name => Some(0),
            None => None,
        }
    }

    /// An alias named `name` was met.
    pub(super) fn met(&mut self, name: &[u8]) {
        if let Some(count) = self.left.get_mut(name) {
            *count = count.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_star_and_name_counts_wherever_it_is_written() {
        let mut written = AliasesWritten::of("a: &x-1 1\nb: *x-1\nc: '*x-1' # *x-1,*y\nd: [*y]\ne: * z*\n");
        assert_eq!(
            (written.left(b"x-1"), written.left(b"y"), written.left(b"x"), written.left(b"z")),
            (Some(3), Some(2), Some(0), Some(0))
        );
        written.met(b"x-1");
        written.met(b"q");
        assert_eq!((written.left(b"x-1"), written.left(b"q")), (Some(2), Some(0)));
    }

    #[test]
    fn names_past_the_most_counted_are_not_counted() {
        let text: String = (0..=MOST_NAMES).map(|i| format!("# *n{i}\n")).collect();
        let written = AliasesWritten::of(&text);
        assert_eq!(written.left(b"n0"), Some(1));
        assert_eq!(written.left(b"other"), None);
    }
}

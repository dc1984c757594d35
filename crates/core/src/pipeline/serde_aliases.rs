//! Which aliases yaml_serde reads as another node than the YAML spec names, for the documents
//! the door still leaves to it (`tree.rs`'s `Fallback`).
//!
//! The spec, and go-yaml with it (kubectl, the API server), read an alias `*x` as the latest node
//! before it anchored `&x`. yaml_serde 0.10.7 (`loader.rs` `next_document`) numbers each anchor
//! by how many names it has seen (`anchors.len()`), so an anchor that reuses a name takes a
//! number that the next new name takes again, and an alias of the first then reads as the
//! second: in `a: &x "1"`, `b: &x "2"`, `c: *x`, `d: &y "3"`, `c` reads as "3", not "2". This
//! module follows a document's events as that loader numbers them and finds such an alias, so
//! the door refuses the document rather than hand on a wrong tree.

use super::events::{Event, Events};
use std::collections::{HashMap, HashSet};

/// What one document's events showed.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Aliases {
    /// Every alias reads as the spec names it, or yaml_serde meets an error before reading any
    /// (the parser's, an alias of no anchor).
    AsTheSpecReads,
    /// An alias yaml_serde reads as another node: its name.
    Misread(Vec<u8>),
    /// The stream has ended (no document).
    End,
}

/// Follows the next document of `events` to its end (or the parser's error).
pub(super) fn next_document(events: &mut Events<'_>) -> Aliases {
    match events.next() {
        Ok(Event::DocumentStart) => {}
        Ok(_) | Err(_) => return Aliases::End,
    }
    // Per name: yaml_serde's number for it and the spec's node (anchors counted from 0).
    let mut names: HashMap<Vec<u8>, (usize, usize)> = HashMap::new();
    // Per number, the node yaml_serde's alias of it reads: the last anchor given the number.
    let mut node_of_number: Vec<usize> = Vec::new();
    // Each alias's number and the node the spec names, once per pair, in the document's order,
    // with its name.
    let mut aliases: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    // Anchors so far; whether a name was given twice (only then is a number given twice), and
    // whether an alias names no anchor (yaml_serde's error, before it reads any alias).
    let (mut anchored, mut reused, mut unknown) = (0usize, false, false);
    loop {
        let anchor = match events.next() {
            Err(_) => return Aliases::AsTheSpecReads,
            Ok(Event::DocumentEnd) => break,
            Ok(Event::Alias(name)) => {
                match names.get(&name) {
                    Some(&(number, node)) if seen.insert((number, node)) => aliases.push((number, node, name)),
                    Some(_) => {}
                    None => unknown = true,
                }
                continue;
            }
            Ok(
                Event::Scalar { anchor, .. } | Event::SequenceStart { anchor, .. } | Event::MappingStart { anchor, .. },
            ) => anchor,
            Ok(_) => continue,
        };
        let Some(name) = anchor else { continue };
        let number = names.len();
        reused |= names.insert(name, (number, anchored)).is_some();
        match node_of_number.get_mut(number) {
            Some(node) => *node = anchored,
            None => node_of_number.push(anchored),
        }
        anchored += 1;
    }
    if unknown || !reused {
        return Aliases::AsTheSpecReads;
    }
    match aliases.into_iter().find(|&(number, node, _)| node_of_number[number] != node) {
        Some((_, _, name)) => Aliases::Misread(name),
        None => Aliases::AsTheSpecReads,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Aliases> {
        let mut events = Events::new(text);
        let mut out = Vec::new();
        loop {
            match next_document(&mut events) {
                Aliases::End => return out,
                aliases => out.push(aliases),
            }
        }
    }

    fn misread(name: &str) -> Aliases {
        Aliases::Misread(name.as_bytes().to_vec())
    }

    #[test]
    fn an_alias_after_a_reused_name_and_a_new_one_is_found() {
        use Aliases::AsTheSpecReads as Spec;
        // The case, and with the new name before the alias (yaml_serde numbers the
        // anchors as the document is loaded and reads the aliases after).
        assert_eq!(read("a: &x '1'\nb: &x '2'\nc: *x\nd: &y '3'\n"), [misread("x")]);
        assert_eq!(read("a: &x '1'\nb: &x '2'\nd: &y '3'\nc: *x\n"), [misread("x")]);
        // A reused name alone, a new name before the reuse, an alias of the new name only: read
        // as the spec reads them.
        assert_eq!(read("a: &x 1\nb: *x\na: &x 2\nc: *x\n"), [Spec]);
        assert_eq!(read("a: &y 0\nb: &x 1\nc: &x 2\nd: *x\ne: *y\n"), [Spec]);
        assert_eq!(read("a: &x 1\nb: &x 2\nd: &y 3\ne: *y\n"), [Spec]);
        // An alias of the first anchor of a reused name, before the reuse: its number is 0, which
        // no later anchor takes.
        assert_eq!(read("a: &x 1\nb: *x\nc: &x 2\nd: &y 3\n"), [Spec]);
        // On lists and maps too; in the second document of a stream, each document counted afresh.
        assert_eq!(read("a: 1\n---\na: &x [1]\nb: &x {k: 2}\nc: *x\nd: &z [3]\n"), [Spec, misread("x")]);
        // The parser's error, an alias of no anchor: yaml_serde reads no alias.
        assert_eq!(read("a: &x 1\nb: &x 2\nc: *x\nd: &y 3\ne: [\n"), [Spec]);
        assert_eq!(read("a: &x 1\nb: &x 2\nc: *x\nd: &y 3\ne: *q\n"), [Spec]);
        assert_eq!(read(""), []);
    }
}

//! Checks an upgrade report against the documents it describes, like `crate::migrate::claims`
//! does for a migration: every claim an entry makes must hold in the output, every input leaf
//! without an entry must be in the output unchanged, and every output leaf must come from the
//! input or from an entry. The tests run it on every upgrade case.

use super::report::{entry_for, Entry, Kind};
use crate::pipeline::paths::{covers, leaf_paths};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// The documents of a stream by their 1-based position.
pub type Docs<'a> = [(usize, &'a Value)];

/// The false claims of `entries` about `sources` (the input documents) given `outputs` (the
/// rewritten ones); empty when every claim holds.
pub fn false_claims(sources: &Docs, outputs: &Docs, entries: &[Entry]) -> Vec<String> {
    let mut problems = Vec::new();
    let (source_nodes, output_nodes) = (nodes(sources), nodes(outputs));

    let mut seen = HashSet::new();
    for e in entries {
        let at = format!("document {}: {}", e.doc, e.from);
        if !seen.insert((e.doc, e.from.as_str())) {
            problems.push(format!("{at}: more than one entry"));
        }
        if e.kind == Kind::Attention {
            if e.since.is_none() || e.note.is_empty() || !e.to.is_empty() {
                problems.push(format!("{at}: attention without a release, a message, or with a place"));
            }
        } else if e.changes.is_empty() {
            problems.push(format!("{at}: {} without naming the API change", e.kind.id()));
        }
        match e.kind {
            Kind::Added if !output_nodes.contains_key(&(e.doc, e.from.clone())) => {
                problems.push(format!("{at}: added, but the output does not have it"))
            }
            Kind::Added => {}
            _ if !source_nodes.contains_key(&(e.doc, e.from.clone())) => {
                problems.push(format!("{at}: the report mentions a field the input does not have"))
            }
            Kind::Dropped if e.note.is_empty() => {
                problems.push(format!("{at}: dropped without saying what to do instead"))
            }
            Kind::Renamed | Kind::Moved | Kind::Converted if e.to.is_empty() => {
                problems.push(format!("{at}: {} to nowhere", e.kind.id()))
            }
            Kind::Omitted | Kind::Dropped if !e.to.is_empty() => {
                problems.push(format!("{at}: {}, yet it names where it went", e.kind.id()))
            }
            _ => {}
        }
        for t in e.to.iter().filter(|t| !output_nodes.contains_key(&(t.doc, t.path.clone()))) {
            problems.push(format!("{at}: names document {}: {}, which the output does not have", t.doc, t.path));
        }
    }

    for (doc, leaf, value) in leaves(sources) {
        let at = format!("document {doc}: {leaf}");
        let Some(e) = entry_for(entries, doc, &leaf) else {
            match output_nodes.get(&(doc, leaf.clone())) {
                Some(held) if *held == value => {}
                Some(held) => problems.push(format!("{at}: no entry, yet the output holds {held} and not {value}")),
                None => problems.push(format!("{at}: no entry, yet the output does not have it")),
            }
            continue;
        };
        match e.kind {
            Kind::Renamed | Kind::Moved | Kind::Converted => {
                for t in &e.to {
                    let place = if e.derived { t.path.clone() } else { format!("{}{}", t.path, &leaf[e.from.len()..]) };
                    match output_nodes.get(&(t.doc, place.clone())) {
                        None => problems.push(format!(
                            "{at}: {} to document {}: {place}, which the output does not have",
                            e.kind.id(),
                            t.doc
                        )),
                        Some(held) if !e.derived && *held != value => problems.push(format!(
                            "{at}: {} to document {}: {place}, which holds {held} and not {value}",
                            e.kind.id(),
                            t.doc
                        )),
                        _ => {}
                    }
                }
            }
            Kind::Omitted | Kind::Dropped => {
                if output_nodes.contains_key(&(doc, leaf.clone())) {
                    problems.push(format!("{at}: {}, yet the output still has it", e.kind.id()));
                }
            }
            Kind::Added => {}
            Kind::Attention => match output_nodes.get(&(doc, leaf.clone())) {
                Some(held) if *held == value => {}
                _ => problems.push(format!("{at}: attention, yet the output does not keep {value} there")),
            },
            Kind::Mapped | Kind::NameFixed => {
                problems.push(format!("{at}: {} (a migration's kind), which an upgrade does not write", e.kind.id()))
            }
        }
    }

    for (doc, leaf, value) in leaves(outputs) {
        let unchanged = entry_for(entries, doc, &leaf).is_none_or(|e| e.kind == Kind::Attention)
            && source_nodes.get(&(doc, leaf.clone())).is_some_and(|held| *held == value);
        let placed = entries.iter().any(|e| match e.kind {
            Kind::Added => e.doc == doc && e.from == leaf,
            _ => e.to.iter().any(|t| t.doc == doc && covers(&t.path, &leaf)),
        });
        // A map or list emptied by taking out its last field.
        let emptied = is_empty_container(value)
            && entries
                .iter()
                .any(|e| e.doc == doc && e.kind != Kind::Added && e.from != leaf && covers(&leaf, &e.from));
        if !(unchanged || placed || emptied) {
            problems.push(format!("document {doc}: the output has {leaf} = {value}, which no entry accounts for"));
        }
    }
    problems
}

fn nodes<'a>(docs: &Docs<'a>) -> BTreeMap<(usize, String), &'a Value> {
    let mut out = BTreeMap::new();
    for (doc, v) in docs {
        flatten(v, String::new(), *doc, &mut out);
    }
    out
}

fn leaves<'a>(docs: &Docs<'a>) -> Vec<(usize, String, &'a Value)> {
    let mut out = Vec::new();
    for (doc, v) in docs {
        let mut l = Vec::new();
        leaf_paths(v, String::new(), &mut l);
        out.extend(l.into_iter().map(|(p, v)| (*doc, p, v)));
    }
    out
}

fn is_empty_container(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.is_empty()) || matches!(v, Value::Array(a) if a.is_empty())
}

/// Every node of `v` by (document, path), in the report's notation (`a.b[0].c`).
fn flatten<'a>(v: &'a Value, path: String, doc: usize, out: &mut BTreeMap<(usize, String), &'a Value>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                flatten(child, if path.is_empty() { k.clone() } else { format!("{path}.{k}") }, doc, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                flatten(child, format!("{path}[{i}]"), doc, out);
            }
        }
        _ => {}
    }
    out.insert((doc, path), v);
}

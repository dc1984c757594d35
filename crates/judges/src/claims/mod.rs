//! The claims check both front ends share: a report's entries judged against the documents
//! they describe. Every claim an entry makes must hold in the output. The rules here are the
//! ones a migration and an upgrade have in common; each front end adds its own (`claims::
//! migrate`: the release it writes for; `claims::upgrade`: the output side and what an API change
//! must say). The tests run them on every example, snapshot case, generated job and upgrade case:
//! this is not a catch-all that gives every field an answer, it is the judge of the answers.
//!
//! Rules: one entry per field; the field exists in the input; a kind the front end writes; an
//! entry that says where the field went names places the output has; every input leaf is
//! accounted for (by an entry, or, for a front end that leaves unmentioned fields alone, by the
//! same value at the same place); a place holds the input's value beneath it, unless the entry
//! says the value was computed (`derived`), when only the place is claimed.

use explorer_core::pipeline::paths::leaf_paths;
use explorer_core::pipeline::report::{entry_for, Entry, Kind};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

pub mod migrate;
pub mod upgrade;

/// Every node of a stream's documents by (document, path), in the report's notation.
pub type Nodes<'a> = BTreeMap<(usize, String), &'a Value>;

/// One object of the output: the document it was written from, and the prefix its paths take
/// in a report (`TrainingRuntime mine ` for a runtime a migration generated; none for the
/// object the document became).
pub struct Written<'a> {
    /// The input document it was written from (by position).
    pub doc: usize,
    /// What its paths start with in a report.
    pub prefix: String,
    /// The object itself.
    pub object: &'a Value,
}

/// What differs between the front ends in the shared rules.
pub trait Judge {
    /// A place in a message: `spec.x` (a migration judges one document) or `document 2: spec.x`.
    fn at(&self, doc: usize, path: &str) -> String;
    /// The input as a message names it: `V1 document`, `input`.
    fn input(&self) -> &'static str;
    /// Whether the front end writes entries of this kind.
    fn writes(&self, kind: Kind) -> bool;
    /// Whether a field no entry mentions stays as it is (an upgrade rewrites only what an API
    /// change concerns); otherwise every input field must have an entry (a migration).
    fn unmentioned_stays(&self) -> bool;
    /// Whether the output's `held` is the input's `value`.
    fn same_value(&self, held: &Value, value: &Value) -> bool {
        held == value
    }
}

/// The shared rules' verdict, and what the front end's own rules need to add theirs.
pub struct Claims<'a> {
    /// Every node of the input documents.
    pub sources: Nodes<'a>,
    /// Every node of the output objects.
    pub outputs: Nodes<'a>,
    /// Every input leaf (document, path, value), in document order.
    pub leaves: Vec<(usize, String, &'a Value)>,
    /// The false claims found so far, one message each.
    pub problems: Vec<String>,
}

/// Judges `entries` about `sources` (the input documents by position) given `outputs`.
pub fn check<'a>(
    judge: &impl Judge,
    sources: &[(usize, &'a Value)],
    outputs: &[Written<'a>],
    entries: &[Entry],
) -> Claims<'a> {
    let mut c = Claims { sources: Nodes::new(), outputs: Nodes::new(), leaves: Vec::new(), problems: Vec::new() };
    for (doc, v) in sources {
        flatten(v, String::new(), *doc, &mut c.sources);
        let mut leaves = Vec::new();
        leaf_paths(v, String::new(), &mut leaves);
        c.leaves.extend(leaves.into_iter().map(|(path, value)| (*doc, path, value)));
    }
    for o in outputs {
        flatten(o.object, o.prefix.clone(), o.doc, &mut c.outputs);
    }

    let mut seen = HashSet::new();
    for e in entries {
        let at = judge.at(e.doc, &e.from);
        if !seen.insert((e.doc, e.from.as_str(), e.exact)) {
            c.problems.push(format!("{at}: more than one entry"));
        }
        if !judge.writes(e.kind) {
            c.problems.push(format!("{at}: {} ({:?}), which this report does not write", e.kind.id(), e.kind));
        }
        if e.kind != Kind::Added && !c.sources.contains_key(&(e.doc, e.from.clone())) {
            c.problems.push(format!("{at}: the report mentions a field the {} does not have", judge.input()));
        }
        if e.kind.places() && e.to.is_empty() {
            c.problems.push(format!("{at}: {} to nowhere", e.kind.id()));
        }
        for t in e.to.iter().filter(|t| !c.outputs.contains_key(&(t.doc, t.path.clone()))) {
            c.problems.push(format!("{at}: names {}, which the output does not have", judge.at(t.doc, &t.path)));
        }
    }

    for (doc, leaf, value) in &c.leaves {
        let at = judge.at(*doc, leaf);
        let Some(e) = entry_for(entries.iter().filter(|e| e.doc == *doc), leaf) else {
            if !judge.unmentioned_stays() {
                c.problems.push(format!("{at}: no entry accounts for it"));
                continue;
            }
            match c.outputs.get(&(*doc, leaf.clone())) {
                Some(held) if judge.same_value(held, value) => {}
                Some(held) => c.problems.push(format!("{at}: no entry, yet the output holds {held} and not {value}")),
                None => c.problems.push(format!("{at}: no entry, yet the output does not have it")),
            }
            continue;
        };
        if !e.kind.places() {
            continue;
        }
        for t in &e.to {
            let place = if e.derived { t.path.clone() } else { format!("{}{}", t.path, &leaf[e.from.len()..]) };
            let (kind, place_at) = (e.kind.id(), judge.at(t.doc, &place));
            match c.outputs.get(&(t.doc, place)) {
                None => c.problems.push(format!("{at}: {kind} to {place_at}, which the output does not have")),
                Some(held) if !e.derived && !judge.same_value(held, value) => {
                    c.problems.push(format!("{at}: {kind} to {place_at}, which holds {held} and not {value}"))
                }
                Some(_) => {}
            }
        }
    }
    c
}

/// Every node of `v` by (document, path), in the report's notation (`a.b[0].c`); list items
/// also by their name (or manager) when they have one (`replicatedJobs[node]`), as a
/// migration's places name them. A path goes after `prefix` (`TrainingRuntime mine `).
fn flatten<'a>(v: &'a Value, path: String, doc: usize, out: &mut Nodes<'a>) {
    let sep =
        |k: &str| if path.is_empty() || path.ends_with(' ') { format!("{path}{k}") } else { format!("{path}.{k}") };
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                flatten(child, sep(k), doc, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                flatten(child, format!("{path}[{i}]"), doc, out);
                for key in ["name", "manager"] {
                    if let Some(name) = child.get(key).and_then(Value::as_str) {
                        flatten(child, format!("{path}[{name}]"), doc, out);
                    }
                }
            }
        }
        _ => {}
    }
    out.insert((doc, path.trim_end().to_string()), v);
}

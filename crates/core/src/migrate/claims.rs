//! Checks a migration report against the objects it describes: every claim the report makes
//! about a V1 field must be true of the output. The tests run it on every example, every
//! snapshot case and every generated job; it is not a catch-all that gives every field an
//! answer, it is the judge of the answers the converter gave.

use super::report::{entry_for, Entry, Kind};
use crate::pipeline::paths::{covers, leaf_paths};
use crate::releases::{Release, NEWEST, RELEASES};
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// Reasons too vague to count as "a specific reason" for dropping a field.
const VAGUE_REASONS: [&str; 3] = ["", "not carried over: no V2 field holds it", "no V2 field"];

/// The false claims of a report written for the newest release: see [`false_claims_for`].
pub fn false_claims(source: &Value, objects: &[Value], report: &[Entry]) -> Vec<String> {
    false_claims_for(source, objects, report, &NEWEST)
}

/// The false claims of `report` about `source` (the V1 document) given the `objects` produced
/// from it for `target`; empty when every claim holds.
pub fn false_claims_for(source: &Value, objects: &[Value], report: &[Entry], target: &Release) -> Vec<String> {
    let mut problems = Vec::new();
    let mut source_nodes = BTreeMap::new();
    flatten(source, String::new(), &mut source_nodes);
    let mut output = BTreeMap::new();
    for o in objects {
        let prefix = match o["kind"].as_str() {
            Some("TrainJob") => String::new(),
            Some(kind) => format!("{kind} {} ", o["metadata"]["name"].as_str().unwrap_or_default()),
            None => continue,
        };
        flatten(o, prefix, &mut output);
    }

    let mut seen = HashSet::new();
    for e in report {
        if !seen.insert((e.from.as_str(), e.exact)) {
            problems.push(format!("{}: more than one entry", e.from));
        }
        if !source_nodes.contains_key(&e.from) {
            problems.push(format!("{}: the report mentions a field the V1 document does not have", e.from));
        }
        let pod_settings = format!("spec.{}[", target.pod_settings().field());
        if e.kind == Kind::Moved
            && !e.place().is_some_and(|t| t.starts_with("TrainingRuntime ") || t.starts_with(&pod_settings))
        {
            problems.push(format!(
                "{}: moved, but not to {pod_settings}...] ({}) or a generated runtime: {:?}",
                e.from,
                target.tag,
                e.place()
            ));
        }
        // A note speaks of the release written for, never of another one.
        if let Some(other) = RELEASES.iter().find(|r| r.tag != target.tag && e.note.contains(r.tag)) {
            problems
                .push(format!("{}: the note names {} in output for {}: {:?}", e.from, other.tag, target.tag, e.note));
        }
        if e.exact {
            if let Some(target) = e.place() {
                if !output.contains_key(target) {
                    problems.push(format!("{}: mapped to {target}, which the output does not have", e.from));
                }
            }
        }
    }

    let mut leaves = Vec::new();
    leaf_paths(source, String::new(), &mut leaves);
    let single_template = matches!(source["kind"].as_str(), Some("PyTorchJob" | "XGBoostJob" | "JAXJob"));
    for (leaf, value) in &leaves {
        let Some(e) = entry_for(report, leaf) else {
            problems.push(format!("{leaf}: no entry accounts for it"));
            continue;
        };
        match (e.kind, e.place()) {
            (Kind::Mapped | Kind::Moved, Some(target)) => {
                let at = if e.derived { target.to_string() } else { format!("{target}{}", &leaf[e.from.len()..]) };
                match output.get(at.as_str()) {
                    None => problems.push(format!("{leaf}: {} to {at}, which the output does not have", e.kind.id())),
                    Some(held) if !e.derived && !same_value(held, value) => {
                        problems.push(format!("{leaf}: {} to {at}, which holds {held} and not {value}", e.kind.id()))
                    }
                    _ => {}
                }
            }
            (Kind::Mapped | Kind::Moved, None) => problems.push(format!("{leaf}: {} to nowhere", e.kind.id())),
            (Kind::Renamed | Kind::Converted | Kind::Omitted | Kind::Added | Kind::Attention, _) => {
                problems.push(format!("{leaf}: {} (an upgrade's kind), which a migration does not write", e.kind.id()))
            }
            (Kind::NameFixed, _) => {
                if VAGUE_REASONS.contains(&e.note.as_str()) {
                    problems.push(format!("{leaf}: renamed without saying to what ({:?})", e.note));
                }
            }
            (Kind::Dropped, _) => {
                if VAGUE_REASONS.contains(&e.note.as_str()) {
                    problems.push(format!("{leaf}: dropped without a specific reason ({:?})", e.note));
                }
                if single_template {
                    if let Some(at) = held_for_every_node(leaf, value, report, &output) {
                        problems.push(format!(
                            "{leaf}: dropped ({}), yet every node gets this value: the output holds it at {at}",
                            e.note
                        ));
                    }
                }
            }
        }
    }
    problems
}

/// In a job with one template for every node, a replica's field is carried when another
/// replica's same field was mapped and the output holds this replica's value there.
fn held_for_every_node(
    leaf: &str,
    value: &Value,
    report: &[Entry],
    output: &BTreeMap<String, &Value>,
) -> Option<String> {
    let (replica, suffix) = replica_suffix(leaf)?;
    report.iter().filter(|e| e.kind != Kind::Dropped && !e.derived && !e.exact).find_map(|e| {
        let (other, other_suffix) = replica_suffix(&e.from)?;
        if other == replica || !covers(&other_suffix, &suffix) {
            return None;
        }
        let at = format!("{}{}", e.place()?, &suffix[other_suffix.len()..]);
        (output.get(at.as_str()) == Some(&value)).then_some(at)
    })
}

/// `spec.pytorchReplicaSpecs.Master.template.spec.containers[0].image` →
/// (`spec.pytorchReplicaSpecs.Master`, `template.spec.containers[*].image`).
fn replica_suffix(path: &str) -> Option<(String, String)> {
    let rest = path.strip_prefix("spec.")?;
    let (field, rest) = rest.split_once('.')?;
    if !field.ends_with("ReplicaSpecs") {
        return None;
    }
    let (rtype, suffix) = rest.split_once('.')?;
    let suffix = suffix.strip_prefix("template.spec.containers[")?;
    let (_, after) = suffix.split_once(']')?;
    Some((format!("spec.{field}.{rtype}"), format!("template.spec.containers[*]{after}")))
}

/// Every node of `v` by path; list items by index and, when they have one, by name (or manager).
fn flatten<'a>(v: &'a Value, path: String, out: &mut BTreeMap<String, &'a Value>) {
    let sep =
        |k: &str| if path.is_empty() || path.ends_with(' ') { format!("{path}{k}") } else { format!("{path}.{k}") };
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                flatten(child, sep(k), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                flatten(child, format!("{path}[{i}]"), out);
                for key in ["name", "manager"] {
                    if let Some(name) = child.get(key).and_then(Value::as_str) {
                        flatten(child, format!("{path}[{name}]"), out);
                    }
                }
            }
        }
        _ => {}
    }
    out.insert(path.trim_end().to_string(), v);
}

/// Whether the output holds the V1 value: the same, or a quantity written as a YAML float
/// (`cpu: 0.5`) that the output writes as its text, which the CRDs take.
fn same_value(held: &Value, v1: &Value) -> bool {
    held == v1
        || v1.as_number().and_then(crate::migrate::convert::quantity_text).is_some_and(|t| held == &Value::String(t))
}

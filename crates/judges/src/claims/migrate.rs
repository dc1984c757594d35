//! Checks a migration report against the objects it describes: the shared rules
//! (`crate::claims`) and a migration's own, about the release it writes for.

use crate::claims::{self, Judge, Nodes, Written};
use explorer_core::migrate::convert;
use explorer_core::migrate::report::{Entry, Kind};
use explorer_core::pipeline::paths::covers;
use explorer_data::catalog::V1Kind;
use explorer_data::releases::{Release, NEWEST, RELEASES};
use serde_json::Value;

/// Reasons too vague to count as "a specific reason" for dropping a field.
const VAGUE_REASONS: [&str; 3] = ["", "not carried over: no V2 field holds it", "no V2 field"];

/// The false claims of a report written for the newest release: see [`false_claims_for`].
pub fn false_claims(source: &Value, objects: &[Value], report: &[Entry]) -> Vec<String> {
    false_claims_for(source, objects, report, &NEWEST)
}

/// A migration judges one V1 document and what it became.
struct Migration;

impl Judge for Migration {
    fn at(&self, _: usize, path: &str) -> String {
        path.to_string()
    }

    fn input(&self) -> &'static str {
        "V1 document"
    }

    fn writes(&self, kind: Kind) -> bool {
        matches!(kind, Kind::Mapped | Kind::Moved | Kind::Dropped | Kind::NameFixed)
    }

    fn unmentioned_stays(&self) -> bool {
        false
    }

    fn same_value(&self, held: &Value, v1: &Value) -> bool {
        same_value(held, v1)
    }
}

/// The false claims of `report` about `source` (the V1 document) given the `objects` produced
/// from it for `target`; empty when every claim holds.
pub fn false_claims_for(source: &Value, objects: &[Value], report: &[Entry], target: &Release) -> Vec<String> {
    // The document's number, as its entries carry it (0 when converted on its own).
    let doc = report.first().map_or(0, |e| e.doc);
    let outputs: Vec<Written> = objects
        .iter()
        .filter_map(|o| {
            let prefix = match o["kind"].as_str()? {
                "TrainJob" => String::new(),
                kind => format!("{kind} {} ", o["metadata"]["name"].as_str().unwrap_or_default()),
            };
            Some(Written { doc, prefix, object: o })
        })
        .collect();
    let c = claims::check(&Migration, &[(doc, source)], &outputs, report);
    let mut problems = c.problems;

    let pod_settings = format!("spec.{}[", target.pod_settings().field());
    for e in report {
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
        match e.kind {
            Kind::NameFixed if VAGUE_REASONS.contains(&e.note.as_str()) => {
                problems.push(format!("{}: renamed without saying to what ({:?})", e.from, e.note))
            }
            Kind::Dropped if VAGUE_REASONS.contains(&e.note.as_str()) => {
                problems.push(format!("{}: dropped without a specific reason ({:?})", e.from, e.note))
            }
            _ => {}
        }
    }

    problems.extend(node_count_claims(source, objects, report));

    // A single-template job's drop is false when every node gets the value anyway.
    if matches!(source["kind"].as_str(), Some("PyTorchJob" | "XGBoostJob" | "JAXJob")) {
        for (_, leaf, value) in &c.leaves {
            let Some(e) = explorer_core::pipeline::report::entry_for(report, leaf) else { continue };
            if e.kind != Kind::Dropped {
                continue;
            }
            if let Some(at) = held_for_every_node(doc, leaf, value, report, &c.outputs) {
                problems.push(format!(
                    "{leaf}: dropped ({}), yet every node gets this value: the output holds it at {at}",
                    e.note
                ));
            }
        }
    }
    problems
}

/// In a job with one template for every node, a replica's field is carried when another
/// replica's same field was mapped and the output holds this replica's value there.
fn held_for_every_node(doc: usize, leaf: &str, value: &Value, report: &[Entry], output: &Nodes) -> Option<String> {
    let (replica, suffix) = replica_suffix(leaf)?;
    report.iter().filter(|e| e.kind != Kind::Dropped && !e.derived && !e.exact).find_map(|e| {
        let (other, other_suffix) = replica_suffix(&e.from)?;
        if other == replica || !covers(&other_suffix, &suffix) {
            return None;
        }
        let at = format!("{}{}", e.place()?, &suffix[other_suffix.len()..]);
        (output.get(&(doc, at.clone())) == Some(&value)).then_some(at)
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

/// Whether the output holds the V1 value: the same, or a quantity written as a YAML float
/// (`cpu: 0.5`) that the output writes as its text, which the CRDs take.
fn same_value(held: &Value, v1: &Value) -> bool {
    held == v1 || v1.as_number().and_then(convert::quantity_text).is_some_and(|t| held == &Value::String(t))
}

/// What an entry about `spec.trainer.numNodes` says of the nodes must hold: every count it names
/// before "node", "nodes", "host" or "hosts" is the TrainJob's `numNodes`, written singular for one
/// and plural otherwise ("the only node" counts as one), and every replica type it names (Master,
/// Worker, ...) is one the V1 job runs, with at least one replica.
fn node_count_claims(source: &Value, objects: &[Value], report: &[Entry]) -> Vec<String> {
    let num_nodes =
        objects.iter().find(|o| o["kind"] == "TrainJob").and_then(|t| t["spec"]["trainer"]["numNodes"].as_u64());
    let kind_types = source["kind"].as_str().and_then(V1Kind::from_kind).map_or(&[][..], V1Kind::replica_types);
    let running: Vec<&str> = source["spec"]
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(field, _)| field.ends_with("ReplicaSpecs"))
        .flat_map(|(_, specs)| specs.as_object().into_iter().flatten())
        .filter(|(_, spec)| spec["replicas"].as_u64().unwrap_or(1) > 0)
        .map(|(rtype, _)| rtype.as_str())
        .collect();
    let mut problems = Vec::new();
    for e in report.iter().filter(|e| e.place() == Some("spec.trainer.numNodes")) {
        // A parenthesis names a runtime, whose name may hold numbers of its own.
        let said = e.note.split('(').next().unwrap_or_default();
        let words: Vec<&str> = said.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
        for (i, word) in words.iter().enumerate() {
            let noun = match words.get(i + 1..) {
                Some([n, ..]) if is_node_noun(n) => Some(*n),
                Some(["identical" | "worker", n, ..]) if is_node_noun(n) => Some(*n),
                _ => None,
            };
            if let (Ok(count), Some(noun)) = (word.parse::<u64>(), noun) {
                if Some(count) != num_nodes {
                    problems.push(format!("{}: says {count} {noun}, the TrainJob has numNodes {num_nodes:?}", e.from));
                }
                let plural = noun.ends_with('s');
                if (count == 1) == plural {
                    problems.push(format!("{}: says \"{count} {noun}\": {:?}", e.from, e.note));
                }
            }
            if word.starts_with(char::is_uppercase) {
                let rtype = word.strip_suffix('s').filter(|one| kind_types.contains(one)).unwrap_or(word);
                if kind_types.contains(&rtype) && !running.contains(&rtype) {
                    problems
                        .push(format!("{}: names the {rtype}, which the V1 job does not run: {:?}", e.from, e.note));
                }
            }
        }
        if e.note.contains("only node") && num_nodes != Some(1) {
            problems.push(format!("{}: says the only node, the TrainJob has numNodes {num_nodes:?}", e.from));
        }
    }
    problems
}

fn is_node_noun(word: &str) -> bool {
    matches!(word, "node" | "nodes" | "host" | "hosts")
}

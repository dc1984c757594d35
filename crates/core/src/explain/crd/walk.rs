//! Every value at every node of a CRD, in one walk of the object.
//!
//! `values_at` finds the values of one node by walking from the root; validating an object that
//! way walks the same prefixes once per node (`spec.template.spec.replicatedJobs[]…` for each
//! of a runtime's many nodes). Here the nodes' paths form a tree of steps, built once per CRD,
//! and the object is walked once: a missing field skips every node below it with one lookup.
//! The values come out as `values_at` gives them, node by node (crates/core/tests/it/crd_rules.rs compares the
//! two on every case).

use super::{runs_on_create, CrdChecks, Node};
use serde_json::Value as Json;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// One step of a node's path: a field, every item of a list (`[]`), every value of a map (`{}`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Field(&'static str),
    Items,
    Values,
}

/// The nodes reached by the same steps, and the steps that go on from there.
#[derive(Default)]
struct Tree {
    /// Indexes into the `nodes` the tree was built from: the nodes whose path ends here.
    ends: Vec<usize>,
    next: Vec<(Step, Tree)>,
}

impl Tree {
    fn build(nodes: &[&'static Node]) -> Tree {
        let mut root = Tree::default();
        for (index, node) in nodes.iter().enumerate() {
            let mut at = &mut root;
            for step in steps(node.path) {
                let position = match at.next.iter().position(|(s, _)| *s == step) {
                    Some(i) => i,
                    None => {
                        at.next.push((step, Tree::default()));
                        at.next.len() - 1
                    }
                };
                at = &mut at.next[position].1;
            }
            at.ends.push(index);
        }
        root
    }

    fn walk<'v>(&self, value: &'v Json, path: &mut String, found: &mut Vec<(usize, String, &'v Json)>) {
        if !value.is_null() {
            found.extend(self.ends.iter().map(|&node| (node, path.clone(), value)));
        }
        for (step, tree) in &self.next {
            let start = path.len();
            match (step, value) {
                (Step::Field(name), Json::Object(map)) => {
                    if let Some(child) = field(map, name) {
                        if !path.is_empty() {
                            path.push('.');
                        }
                        path.push_str(name);
                        tree.walk(child, path, found);
                    }
                }
                (Step::Items, Json::Array(items)) => {
                    for (i, item) in items.iter().enumerate() {
                        path.push('[');
                        path.push_str(&i.to_string());
                        path.push(']');
                        tree.walk(item, path, found);
                        path.truncate(start);
                    }
                }
                (Step::Values, Json::Object(map)) => {
                    for (key, item) in map {
                        path.push('.');
                        path.push_str(key);
                        tree.walk(item, path, found);
                        path.truncate(start);
                    }
                }
                _ => {}
            }
            path.truncate(start);
        }
    }
}

/// `map`'s value of `name`. A TrainJob's objects hold a few fields each, and the walk asks each
/// for every field of the CRD's tree at its level: compared in turn, short keys are found (or
/// found absent) with fewer instructions than hashing the name for the map's index.
fn field<'v>(map: &'v serde_json::Map<String, Json>, name: &str) -> Option<&'v Json> {
    const FEW: usize = 8;
    if map.len() <= FEW {
        map.iter().find_map(|(key, value)| (key == name).then_some(value))
    } else {
        map.get(name)
    }
}

/// The nodes of one CRD that a create checks, and their tree.
struct CrdTree {
    nodes: Vec<&'static Node>,
    tree: Tree,
}

/// `spec.runtimePatches[].manager` as steps; the root (`""`) has none.
fn steps(path: &'static str) -> impl Iterator<Item = Step> {
    path.split('.').filter(|s| !s.is_empty()).flat_map(|segment| {
        let (name, expansions) = match segment.find(['[', '{']) {
            Some(i) => segment.split_at(i),
            None => (segment, ""),
        };
        let expansions =
            expansions.as_bytes().chunks(2).map(|pair| if pair[0] == b'[' { Step::Items } else { Step::Values });
        std::iter::once(Step::Field(name)).chain(expansions)
    })
}

/// Every non-null value, in `object`, at each node of `crd` that a create checks
/// (`runs_on_create`): `(node, path, value)`, ordered by node as the CRD lists them and, within
/// a node, as `values_at` orders them.
pub(super) fn values_on_create<'v>(
    crd: &'static CrdChecks,
    object: &'v Json,
) -> Vec<(&'static Node, String, &'v Json)> {
    // One tree per CRD, kept for the thread: a paste of ten thousand jobs validates each against
    // the same few CRDs.
    thread_local! {
        static TREES: RefCell<HashMap<usize, Rc<CrdTree>>> = RefCell::new(HashMap::new());
    }
    let built = TREES.with(|trees| {
        let mut trees = trees.borrow_mut();
        let entry = trees.entry(std::ptr::from_ref(crd) as usize).or_insert_with(|| {
            let nodes: Vec<&'static Node> = crd.nodes.iter().filter(|n| runs_on_create(n)).collect();
            let tree = Tree::build(&nodes);
            Rc::new(CrdTree { nodes, tree })
        });
        Rc::clone(entry)
    });
    let CrdTree { nodes, tree } = &*built;
    let mut found = Vec::new();
    tree.walk(object, &mut String::new(), &mut found);
    // Stable: within a node, the walk's order is values_at's (lists and maps in order).
    crate::order::sort_by_key(&mut found, |(node, _, _)| *node);
    found.into_iter().map(|(node, path, value)| (nodes[node], path, value)).collect()
}

#[cfg(test)]
mod tests {
    use super::super::{all, runs_on_create, values_at};
    use super::*;
    use serde_json::json;

    /// Puts `leaf` at `path` in `object`, making two items of each list and two values of each
    /// map on the way, so the walk's order within a node is tested too.
    fn plant(object: &mut Json, steps: &[Step], leaf: &Json) {
        let Some((first, rest)) = steps.split_first() else {
            if object.is_null() {
                *object = leaf.clone();
            }
            return;
        };
        match first {
            Step::Field(name) => {
                if !object.is_object() {
                    *object = json!({});
                }
                let child = object.as_object_mut().unwrap().entry(*name).or_insert(Json::Null);
                plant(child, rest, leaf);
            }
            Step::Items => {
                if !object.is_array() {
                    *object = json!([null, null]);
                }
                for item in object.as_array_mut().unwrap() {
                    plant(item, rest, leaf);
                }
            }
            Step::Values => {
                if !object.is_object() {
                    *object = json!({"b": null, "a": null});
                }
                for item in object.as_object_mut().unwrap().values_mut() {
                    plant(item, rest, leaf);
                }
            }
        }
    }

    #[test]
    fn one_walk_finds_what_values_at_finds_node_by_node() {
        for crd in all() {
            // Every other node present, the rest absent; leaves alternately a string and null.
            let mut object = json!({});
            for (i, node) in crd.nodes.iter().enumerate().filter(|(i, _)| i % 2 == 0) {
                let steps: Vec<Step> = steps(node.path).collect();
                plant(&mut object, &steps, &if i % 4 == 0 { json!("x") } else { Json::Null });
            }
            let expected: Vec<(&str, String, &Json)> = crd
                .nodes
                .iter()
                .filter(|n| runs_on_create(n))
                .flat_map(|n| values_at(&object, n.path).into_iter().map(move |(p, v)| (n.path, p, v)))
                .collect();
            let walked: Vec<(&str, String, &Json)> =
                values_on_create(crd, &object).into_iter().map(|(n, p, v)| (n.path, p, v)).collect();
            assert!(expected.len() > 10, "{} {}: only {} values planted", crd.tag, crd.kind, expected.len());
            assert_eq!(walked, expected, "{} {}", crd.tag, crd.kind);
        }
    }
}

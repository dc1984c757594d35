//! The Master/Worker comparison: V2 runs one template on every node, so a field of the replica
//! that is not carried (the Worker's template, the Master's resources) is carried only when it
//! equals the carried replica's; a different value is lost, and the report says which one won.

use super::report::{Entry, Place};
use super::*;
use crate::pipeline::paths::{covers, every_leaf, item, member};

impl<'a> Conversion<'a> {
    /// Whether any Worker pod ran: a Worker with `replicas: 0` (the XGBoost webhook allows it)
    /// ran none, so its resources are not what the nodes had.
    pub(super) fn workers_run(&self) -> bool {
        self.replica("Worker").is_some_and(|w| w.spec.replicas != Some(0))
    }

    /// Accounts for the Worker's template against the Master's, whose fields are already
    /// accounted for (the Master's template is the one every node runs). The Worker's resources
    /// are skipped: they are `resourcesPerNode` themselves.
    pub(super) fn compare_worker_with_master(&mut self, container_name: &str) {
        let (Some(worker), Some(master)) = (self.replica("Worker"), self.replica("Master")) else { return };
        let (worker_path, master_path) = (member(&worker.path, "template"), member(&master.path, "template"));
        // Read in place in the job (no copy of either template): only the Worker's template without
        // its containers, and a main container without its resources, are built anew.
        let (worker_raw, master_raw): (&'a Value, &'a Value) = (worker.raw, master.raw);
        let master_template = master_raw.get("template").unwrap_or(&Value::Null);
        let worker_main_index = main_container(&worker.spec.template.spec, container_name);
        let master_main_index = main_container(&master.spec.template.spec, container_name);
        let worker_template = worker_raw.get("template").and_then(Value::as_object);
        let worker_containers = worker_template
            .and_then(|t| t.get("spec"))
            .and_then(Value::as_object)
            .and_then(|spec| spec.get("containers"))
            .and_then(Value::as_array);
        // The rest of the template, without the containers compared one by one below.
        if let Some(template) = worker_template.map(without_containers) {
            if !template.is_empty() {
                self.mirror(&worker_path, &Value::Object(template), &master_path, master_template, "Master");
            }
        }
        // `Value::pointer`'s reading of `/spec/containers/<index>`: an index into a list, a key
        // into a map.
        let master_containers = master_template.get("spec").and_then(|s| s.get("containers"));
        for (i, container) in worker_containers.into_iter().flatten().enumerate() {
            let master_index = if i == worker_main_index { master_main_index } else { i };
            let at_index = match master_containers {
                Some(Value::Object(map)) => map.get(&master_index.to_string()),
                Some(list) => list.get(master_index),
                None => None,
            };
            let counterpart = match at_index {
                Some(c) if (master_index == master_main_index) == (i == worker_main_index) => c,
                _ => &Value::Null,
            };
            let (follower_path, leader_path) = (
                item(&member(&worker_path, "spec.containers"), i),
                item(&member(&master_path, "spec.containers"), master_index),
            );
            match container.as_object() {
                Some(c) if i == worker_main_index && self.workers_run() => {
                    self.mirror_without_resources(&follower_path, c, &leader_path, counterpart);
                }
                _ => self.mirror(&follower_path, container, &leader_path, counterpart, "Master"),
            }
        }
    }

    /// [`mirror`](Self::mirror) of the Worker's main container without its `resources` (they are
    /// `resourcesPerNode` themselves), read in place: a copy would copy its args and env too,
    /// 200,000 of them.
    fn mirror_without_resources(
        &mut self,
        follower_path: &str,
        container: &Map<String, Value>,
        leader_path: &str,
        leader: &Value,
    ) {
        let members = members_without(container, "resources");
        if members.is_empty() {
            // An empty container is a leaf to `mirror_field`; no copy of anything to make.
            self.mirror(follower_path, &Value::Object(Map::new()), leader_path, leader, "Master");
            return;
        }
        // `follower == leader` as `mirror_field` asks it (maps are equal whatever their order).
        let same = leader.as_object().is_some_and(|leader| {
            leader.len() == members.len() && members.iter().all(|(k, v)| leader.get(k.as_str()) == Some(*v))
        });
        if same && self.carry_as_leader(follower_path, leader_path, leader, "Master") {
            return;
        }
        let field = follower_path.rsplit('.').next().unwrap_or_default();
        self.mirror_members(follower_path, members, leader_path, leader, "Master", field, Within::Elsewhere);
    }

    /// The Master's main-container args the Worker's lack: V2 gives them to every node, so a
    /// Master-only argument (an output path, a role) now reaches the Workers too. Said on the
    /// Master's args entry, which accounts for them.
    pub(super) fn report_master_only_args(&mut self, container_name: &str) {
        let (Some(worker), Some(master)) = (self.replica("Worker"), self.replica("Master")) else { return };
        let worker_args = self.main_args(worker, main_container(&worker.spec.template.spec, container_name));
        let master_index = main_container(&master.spec.template.spec, container_name);
        let master_args = self.main_args(master, master_index);
        let only: Vec<String> = master_args
            .iter()
            .enumerate()
            // Past the Worker's own args: a different value at the same place is the Worker's entry.
            .filter(|&(i, a)| i >= worker_args.len() && !worker_args.iter().any(|w| w == a))
            .map(|(i, a)| format!("args[{i}] ({a})"))
            .collect();
        if only.is_empty() {
            return;
        }
        let path = format!("{}.template.spec.containers[{master_index}].args", master.path);
        let note = format!("every node runs these, the Workers too: V1 gave {} to the Master only", only.join(", "));
        if let Some(e) = self.report.entries.iter_mut().find(|e| e.from == path) {
            e.note = if e.note.is_empty() { note } else { format!("{}; {note}", e.note) };
        }
    }

    /// The Master's main-container resources against the Worker's, which `resourcesPerNode` holds.
    pub(super) fn compare_master_resources_with_worker(&mut self, container_name: &str) {
        if !self.workers_run() {
            return;
        }
        let (Some(worker), Some(master)) = (self.replica("Worker"), self.replica("Master")) else { return };
        let worker_index = main_container(&worker.spec.template.spec, container_name);
        let master_index = main_container(&master.spec.template.spec, container_name);
        // Walked key by key (`Value::pointer` copies every key of its path), reading
        // `containers/<i>` as `pointer` does: an index into a list, a key into a map.
        let resources_of = |raw: &'a Value, i: usize| {
            let container = match crate::explain::v1::at(raw, &["template", "spec", "containers"])? {
                Value::Object(map) => map.get(&i.to_string()),
                list => list.get(i),
            };
            container?.get("resources")
        };
        let Some(master_resources) = resources_of(master.raw, master_index).cloned() else { return };
        let worker_resources = resources_of(worker.raw, worker_index).cloned().unwrap_or_default();
        let resources = |path: &str, i: usize| format!("{path}.template.spec.containers[{i}].resources");
        let (master_path, worker_path) = (resources(&master.path, master_index), resources(&worker.path, worker_index));
        // Written apart but the same in the pods: the API server gives a limit the container asks
        // no request for as its request too.
        let in_pod = crate::migrate::pods::resources_in_pod;
        if master_resources != worker_resources
            && in_pod(&master_resources) == in_pod(&worker_resources)
            && self.carry_as_leader(&master_path, &worker_path, &worker_resources, "Worker")
        {
            if let Some(e) = self.report.entries.iter_mut().rev().find(|e| e.from == master_path) {
                // Its requests are not written in resourcesPerNode: the pods' are derived from it.
                e.derived = true;
                e.note.push_str(
                    " once the API server defaults each request a container leaves out to its limit, as it does in \
                     every pod",
                );
            }
            return;
        }
        self.mirror(&master_path, &master_resources, &worker_path, &worker_resources, "Worker");
    }

    /// Accounts for `follower` (at `follower_path`, a replica's field V2 does not carry by itself)
    /// by the accounting of `leader`, the carried replica's same field: where the values are
    /// equal the follower's is carried wherever the leader's went; where they differ it is lost.
    fn mirror(&mut self, follower_path: &str, follower: &Value, leader_path: &str, leader: &Value, leader_name: &str) {
        let field = follower_path.rsplit('.').next().unwrap_or_default().to_string();
        self.mirror_field(follower_path, follower, leader_path, leader, leader_name, &field, Within::Elsewhere);
    }

    /// [`mirror`](Self::mirror) for `field`, the key of `follower` in its object, `within` one of
    /// the pod template's metadata maps or not.
    #[allow(clippy::too_many_arguments)]
    fn mirror_field(
        &mut self,
        follower_path: &str,
        follower: &Value,
        leader_path: &str,
        leader: &Value,
        leader_name: &str,
        field: &str,
        within: Within,
    ) {
        if follower == leader && self.carry_as_leader(follower_path, leader_path, leader, leader_name) {
            return;
        }
        // An affinity is one scheduling rule set: said once, term by term in words, rather than
        // leaf by leaf ("the Master's topologyKey is none").
        if field == "affinity" && !follower.is_null() {
            let leader_terms = crate::migrate::pods::words::affinity_terms(Some(leader).filter(|l| !l.is_null()));
            let lost: Vec<String> = crate::migrate::pods::words::affinity_terms(Some(follower))
                .into_iter()
                .filter(|t| !leader_terms.contains(t))
                .collect();
            let now = if leader_terms.is_empty() {
                format!("the {leader_name}'s, which has no affinity")
            } else {
                format!("the {leader_name}'s, whose affinity is: {}", leader_terms.join("; "))
            };
            self.report.dropped(
                follower_path,
                format!(
                    "V2 runs one pod template on every node, {now}; these pods lose {}",
                    if lost.is_empty() {
                        "their own rules".to_string()
                    } else {
                        format!("the rule: {}", lost.join("; "))
                    }
                ),
            );
            return;
        }
        match follower {
            Value::Object(fields) if !fields.is_empty() => {
                self.mirror_members(follower_path, fields, leader_path, leader, leader_name, field, within);
            }
            Value::Array(items) if !items.is_empty() => {
                for (i, v) in items.iter().enumerate() {
                    let counterpart = leader.get(i).unwrap_or(&Value::Null);
                    let (follower_path, leader_path) = (item(follower_path, i), item(leader_path, i));
                    self.mirror_field(
                        &follower_path,
                        v,
                        &leader_path,
                        counterpart,
                        leader_name,
                        &item(field, i),
                        within,
                    );
                }
            }
            _ => {
                let differs = match within {
                    _ if !leader.is_null() => format!("the {leader_name}'s {field} is {leader}"),
                    Within::Labels => format!("the {leader_name}'s pods have no label {field}"),
                    Within::Annotations => format!("the {leader_name}'s pods have no annotation {field}"),
                    Within::Elsewhere => format!("the {leader_name} has no {field}"),
                };
                self.report.dropped(
                    follower_path,
                    format!("{differs}: V2 runs one template on every node, and it carries the {leader_name}'s"),
                );
            }
        }
    }

    /// Accounts for `follower`, equal to `leader`, by the one entry that carries all of the
    /// leader's value, when there is one: the follower then goes wherever the leader went.
    fn carry_as_leader(&mut self, follower_path: &str, leader_path: &str, leader: &Value, leader_name: &str) -> bool {
        let Some(entry) = self.single_entry_for(leader_path, leader) else { return false };
        let to = entry
            .to
            .iter()
            .map(|t| Place {
                doc: t.doc,
                path: if entry.derived {
                    t.path.clone()
                } else {
                    [t.path.as_str(), &leader_path[entry.from.len()..]].concat()
                },
            })
            .collect();
        let note = match entry.note.as_str() {
            "" => ["same as the ", leader_name, "'s"].concat(),
            note => ["same as the ", leader_name, "'s; ", note].concat(),
        };
        self.report.add(Entry { from: follower_path.into(), to, note, exact: false, ..entry });
        true
    }

    /// [`mirror_field`](Self::mirror_field) of each member of a map `follower` (`field`), against
    /// the same key of `leader`.
    #[allow(clippy::too_many_arguments)]
    fn mirror_members<'v>(
        &mut self,
        follower_path: &str,
        members: impl IntoIterator<Item = (&'v String, &'v Value)>,
        leader_path: &str,
        leader: &Value,
        leader_name: &str,
        field: &str,
        within: Within,
    ) {
        for (k, v) in members {
            let counterpart = leader.get(k).unwrap_or(&Value::Null);
            let (follower_path, leader_path) = (member(follower_path, k), member(leader_path, k));
            // The template's metadata.labels and .annotations; what is below them stays there.
            let within = match (field, k.as_str()) {
                ("metadata", "labels") => Within::Labels,
                ("metadata", "annotations") => Within::Annotations,
                _ => within,
            };
            self.mirror_field(&follower_path, v, &leader_path, counterpart, leader_name, k, within);
        }
    }

    /// The one entry that accounts for every leaf of `value` at `path`, when there is one.
    fn single_entry_for(&self, path: &str, value: &Value) -> Option<Entry> {
        let entry = self.report.status_of(path)?;
        if entry.exact || !covers(&entry.from, path) {
            return None;
        }
        // Leaf by leaf, not as a list of every leaf's path first (84,000 of them, 15 MB).
        let same = every_leaf(value, &mut path.to_string(), &mut |leaf, _| {
            self.report.status_of(leaf).is_some_and(|e| std::ptr::eq(e, entry))
        });
        same.then(|| entry.clone())
    }
}

/// A pod template without `spec.containers`, and without `spec` when nothing else is in it: the
/// template's other fields copied, in the order (and with the key moved into the containers'
/// place) that `Map::remove` leaves.
fn without_containers(template: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for (key, value) in template {
        let value = match value.as_object() {
            Some(spec) if key == "spec" => {
                let mut rest: Map<String, Value> = spec
                    .iter()
                    .map(|(k, v)| (k.clone(), if k == "containers" { Value::Null } else { v.clone() }))
                    .collect();
                rest.remove("containers");
                Value::Object(rest)
            }
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    if out.get("spec").and_then(Value::as_object).is_some_and(Map::is_empty) {
        out.remove("spec");
    }
    out
}

/// A map's members but `key`, in the order `Map::remove` would leave them: serde_json's
/// `preserve_order` moves the last member into the removed one's place, as `Vec::swap_remove` does.
fn members_without<'m>(map: &'m Map<String, Value>, key: &str) -> Vec<(&'m String, &'m Value)> {
    let mut members: Vec<_> = map.iter().collect();
    if let Some(i) = members.iter().position(|(k, _)| k.as_str() == key) {
        members.swap_remove(i);
    }
    members
}

/// Where a field `Conversion::mirror_field` accounts for sits: in the pod template's
/// `metadata.labels`, its `metadata.annotations`, or elsewhere, read from the keys walked (a
/// key may hold `.labels.` itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Within {
    Labels,
    Annotations,
    Elsewhere,
}

//! "What Kubernetes runs" links each item to the line of the TrainJob or runtime it comes from.
//! For every framework × release × persona × scope and a spread of parameters: every item has a
//! source, each source resolves to a line of the YAML text the view shows, that line holds the
//! field the source names, and where the item shows the field's value as written, the line holds
//! that value. Then, for a few items, exactly which line it is.
#![cfg(not(target_arch = "wasm32"))]

use explorer_judges as common;

use explorer_core::explain::selection::{linked, Linked};
use explorer_core::explain::sources::{Doc, Source};
use explorer_core::model::Value;
use explorer_core::selection::Selection;
use explorer_core::yaml::PathSeg;
use explorer_data::releases::RELEASES;

/// One item of the view: what it is, its sources, and the values it shows.
struct Item {
    what: String,
    sources: Vec<Source>,
    values: Vec<String>,
}

fn quantities(list: &explorer_core::model::Map) -> impl Iterator<Item = String> + '_ {
    list.iter().filter(|(k, _)| k.to_lowercase().contains("gpu")).map(|(_, v)| match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    })
}

fn items(l: &Linked) -> Vec<Item> {
    let o = l.origins();
    let e = &l.explanation;
    let mut out = Vec::new();
    let jobset = e.jobset.as_ref().expect("not rejected");
    out.push(Item { what: "the JobSet".into(), sources: o.jobset(), values: vec![jobset.name.clone()] });
    for g in &e.pods {
        let mut values = vec![g.count.to_string()];
        for c in &g.containers {
            if let Some(r) = &c.resources {
                values.extend(quantities(&r.limits).chain(quantities(&r.requests)));
            }
        }
        out.push(Item { what: format!("the {} pods", g.replicated_job), sources: o.pod_group(g, true), values });
        for c in &g.containers {
            for (name, value) in c.env.iter() {
                let value = &value.text();
                out.push(Item {
                    what: format!("{} {} env {name}={value}", g.replicated_job, c.name),
                    sources: o.env(g, &c.name, c.init, name, value),
                    values: vec![value.clone()],
                });
            }
            for from in &c.env_from {
                out.push(Item {
                    what: format!("{} {} envFrom {from}", g.replicated_job, c.name),
                    sources: o.env_from(g, from),
                    values: vec![],
                });
            }
        }
    }
    if let Some(hostfile) = e.objects.iter().find_map(|x| x.data.as_ref()?.get("hostfile")) {
        let slots = hostfile.lines().next().and_then(|l| l.rsplit_once("slots=")).map_or("1", |(_, n)| n);
        out.push(Item { what: "the hostfile".into(), sources: o.hostfile(slots), values: vec![] });
    }
    for x in &e.objects {
        out.push(Item { what: format!("{} {}", x.kind, x.name), sources: o.object(x), values: vec![x.name.clone()] });
    }
    out
}

/// The key and scalar value a YAML line writes (`  - name: X` gives `name`, `X`); `None` for a
/// line that writes no field (a comment, a list item, `---`).
fn key_value(text: &str) -> Option<(String, Option<String>)> {
    let body = text.trim_start().trim_start_matches("- ");
    let Ok(serde_yaml::Value::Mapping(map)) = serde_yaml::from_str::<serde_yaml::Value>(body) else { return None };
    let (k, v) = map.into_iter().next()?;
    let scalar = match v {
        serde_yaml::Value::String(s) => Some(s),
        serde_yaml::Value::Number(n) => Some(n.to_string()),
        serde_yaml::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    Some((k.as_str()?.to_string(), scalar))
}

fn last_key(source: &Source) -> &str {
    match source.path.last() {
        Some(PathSeg::Key(k)) => k,
        other => panic!("a source ends in a key, not {other:?}"),
    }
}

/// Every problem with the sources of one selection's items.
fn problems(l: &Linked) -> Vec<String> {
    let mut out = Vec::new();
    for item in items(l) {
        if item.sources.is_empty() {
            out.push(format!("{}: no source", item.what));
        }
        for s in &item.sources {
            let doc = l.shown.lines(s.doc);
            let Some(n) = l.shown.line(s) else {
                out.push(format!("{}: {:?} {:?} is not in the text", item.what, s.doc, s.path));
                continue;
            };
            let Some(text) = n.checked_sub(1).and_then(|i| doc.get(i)).map(|l| &l.text) else {
                out.push(format!("{}: line {n} is past the end of the text", item.what));
                continue;
            };
            let Some((key, value)) = key_value(text) else {
                out.push(format!("{}: line {n} {text:?} writes no field", item.what));
                continue;
            };
            if key != last_key(s) {
                out.push(format!("{}: line {n} {text:?} is not the field {}", item.what, last_key(s)));
            }
            if s.copies && !value.as_ref().is_some_and(|v| item.values.contains(v)) {
                out.push(format!("{}: line {n} {text:?} does not hold its value {:?}", item.what, item.values));
            }
        }
    }
    out
}

fn every_linked() -> Vec<(String, Linked)> {
    let mut out = Vec::new();
    for release in RELEASES {
        for sel in common::selection_spread() {
            let sel = Selection { release: *release, ..sel };
            let label = explorer_core::query::to_query(&sel, explorer_core::query::SyncSet::ALL);
            if let Ok(Ok(l)) = linked(&sel) {
                out.push((label, l));
            }
        }
    }
    out
}

#[test]
fn every_item_points_at_the_line_of_the_field_it_comes_from() {
    let all = every_linked();
    // Every framework with a runtime, at every release that ships it.
    assert!(all.len() > 400, "only {} linked selections", all.len());
    let mut bad = Vec::new();
    for (label, l) in &all {
        bad.extend(problems(l).into_iter().map(|p| format!("{label}: {p}")));
    }
    assert!(bad.is_empty(), "{} problems, first ones:\n{}", bad.len(), bad[..bad.len().min(15)].join("\n"));
}

/// The text of each line an item of `query` names, found by `pick`.
fn lines_of(query: &str, pick: impl Fn(&Linked) -> Vec<Source>) -> Vec<String> {
    let sel = explorer_core::query::parse_strict(query).unwrap();
    let Ok(Ok(l)) = linked(&sel) else { panic!("{query}: nothing to link") };
    pick(&l)
        .iter()
        .map(|s| {
            let n = l.shown.line(s).expect("resolves");
            let doc = if s.doc == Doc::TrainJob { "TrainJob" } else { "runtime" };
            format!("{doc}: {}", l.shown.lines(s.doc)[n - 1].text.trim())
        })
        .collect()
}

fn env_of(l: &Linked, rjob: &str, name: &str) -> Vec<Source> {
    let g = l.explanation.pods.iter().find(|g| g.replicated_job == rjob).unwrap();
    let c = g.containers.iter().find(|c| c.env.get(name).is_some()).unwrap();
    l.origins().env(g, &c.name, c.init, name, &c.env.get(name).unwrap().text())
}

#[test]
fn torch_variables_come_from_num_nodes_the_gpus_and_the_torch_policy() {
    let q = "framework=pytorch&nodes=4&gpus=2";
    assert_eq!(lines_of(q, |l| env_of(l, "node", "PET_NNODES")), ["TrainJob: numNodes: 4"]);
    // `auto`: one process per GPU, from the GPUs each node asks for.
    assert_eq!(lines_of(q, |l| env_of(l, "node", "PET_NPROC_PER_NODE")), ["TrainJob: nvidia.com/gpu: 2"]);
    assert_eq!(lines_of(q, |l| env_of(l, "node", "PET_MASTER_ADDR")), ["runtime: torch: {}"]);
    // Without numNodes in the TrainJob (TorchTune's leaves it out), the runtime's own.
    assert_eq!(lines_of("framework=torchtune", |l| env_of(l, "node", "PET_NNODES")), ["runtime: numNodes: 1"]);
    // Without GPUs, the CPU count: v2.1's runtime states numProcPerNode itself.
    assert_eq!(
        lines_of("release=v2.1&framework=pytorch&nodes=2&gpus=0", |l| env_of(l, "node", "PET_NPROC_PER_NODE")),
        ["runtime: numProcPerNode: auto"]
    );
}

#[test]
fn mpi_items_come_from_the_mpi_policy_num_nodes_and_the_gpus() {
    let q = "framework=deepspeed&nodes=4&gpus=2";
    // One slot per GPU (the runtime's numProcPerNode is 1).
    assert_eq!(
        lines_of(q, |l| env_of(l, "launcher", "OMPI_MCA_orte_set_default_slots")),
        ["TrainJob: nvidia.com/gpu: 2"]
    );
    assert_eq!(
        lines_of(q, |l| {
            let hostfile = l.explanation.objects.iter().find_map(|o| o.data.as_ref()?.get("hostfile")).unwrap();
            assert!(hostfile.contains("slots=2"));
            l.origins().hostfile("2")
        }),
        ["runtime: mpi:", "TrainJob: numNodes: 4", "TrainJob: nvidia.com/gpu: 2"]
    );
    // runLauncherAsNode: 3 node pods for numNodes 4, from numNodes and the `node` job.
    assert_eq!(
        lines_of(q, |l| {
            let g = l.explanation.pods.iter().find(|g| g.replicated_job == "node").unwrap();
            assert_eq!(g.count, 3);
            l.origins().pod_group(g, false)
        }),
        ["TrainJob: numNodes: 4", "runtime: - name: node"]
    );
    let secret = |l: &Linked| l.origins().object(l.explanation.objects.iter().find(|o| o.kind == "Secret").unwrap());
    assert_eq!(lines_of(q, secret), ["runtime: mpi:"]);
}

#[test]
fn initializer_items_come_from_the_trainjob_and_the_claim_template() {
    let q = "framework=torchtune&dataset=hf://org/ds";
    assert_eq!(lines_of(q, |l| env_of(l, "dataset-initializer", "STORAGE_URI")), ["TrainJob: storageUri: hf://org/ds"]);
    let claim = |l: &Linked| {
        l.origins().object(l.explanation.objects.iter().find(|o| o.kind == "PersistentVolumeClaim").unwrap())
    };
    assert_eq!(lines_of(q, claim), ["runtime: name: initializer"]);
    // v2.1: the runtime mounts a claim by name, which the reader creates.
    let v21 = lines_of("release=v2.1&framework=torchtune", claim);
    assert_eq!(v21.len(), 1);
    assert!(v21[0].starts_with("runtime: claimName: "), "{v21:?}");
}

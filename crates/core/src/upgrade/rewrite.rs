//! The rewrite of one API change (a row of `crate::release_changes::API_CHANGES`) over the
//! documents of a stream. Each function reports what it did in terms of the manifest as the
//! previous changes left it; `Report::record` carries that back to the input's paths.

use super::report::{Entry, Kind, Place, Report};
use crate::release_changes::{ApiChange, Rewrite, Subject};
use explorer_data::releases::V2_0;
use serde_json::{json, Map, Value};

/// The `manager` of the runtime patches the upgrade writes (one per former override).
pub(crate) const PATCH_MANAGER: &str = "trainer-v2-explorer/upgrade";
/// `spec.runtimePatches` holds at most 16 entries (trainjob_types.go @v2.2.1).
const MAX_RUNTIME_PATCHES: usize = 16;
/// `command`, `args` and `env` hold at most 128 items from v2.2.
const MAX_LIST_ITEMS: usize = 128;

/// Why a change cannot rewrite a document: the manifest is not of the release it is said to be
/// written for, or holds what the newer release refuses. Printed before the change's source and
/// reason in the document's refusal.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// A field that must be a list (`spec.podSpecOverrides: expected a list`).
    ExpectedList(String),
    /// A field that must be a map.
    ExpectedMap(String),
    /// A field no v2.0 `podSpecOverrides` item has (`spec` there is v2.1's shape).
    NotAV2_0Override {
        /// The override item.
        item: String,
        /// The field it has.
        field: String,
    },
    /// More overrides than v2.2's runtime patches hold.
    TooManyOverrides {
        /// The list of overrides.
        list: String,
        /// How many it holds.
        count: usize,
    },
    /// A `targetJobs` entry without a job name.
    ExpectedJobName(String),
    /// A field no v2.1 pod template override has.
    NotAV2_1OverrideField(String),
    /// The runtime patch the metadata goes to is not a `trainingRuntimeSpec.template` map.
    ExpectedPatchTemplate(String),
    /// A `numProcPerNode` that is no positive integer, `auto`, `cpu` or `gpu`.
    NotProcs {
        /// The field.
        field: String,
        /// Its value as written.
        value: Value,
    },
    /// `numProcPerNode: cpu` with no CPU count in `spec.trainer.resourcesPerNode`.
    CpusUnstated(String),
    /// A list longer than the new release accepts.
    TooManyItems {
        /// The list.
        list: &'static str,
        /// How many items it holds.
        count: usize,
    },
    /// An initializer's `storageUri` with no scheme.
    NoScheme {
        /// The field.
        field: String,
        /// The URI as written.
        uri: String,
    },
    /// A field the release the manifest is said to be for (`from`, its line) no longer has: it
    /// was removed in `release` by the change `source` (`#3309`).
    RemovedBefore {
        /// The field.
        field: &'static str,
        /// The release that removed it.
        release: &'static str,
        /// The change that did (`#3309`).
        source: String,
        /// The release the manifest is said to be for.
        from: &'static str,
    },
    /// A field that release does not have yet: it arrived in `release` by the change `source`.
    ArrivedAfter {
        /// The field.
        field: &'static str,
        /// The release it arrived in.
        release: &'static str,
        /// The change that brought it.
        source: String,
        /// The release the manifest is said to be for.
        from: &'static str,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::ExpectedList(path) => write!(f, "{path}: expected a list"),
            Refusal::ExpectedMap(path) => write!(f, "{path}: expected a map"),
            Refusal::NotAV2_0Override { item, field } => write!(
                f,
                "{item}.{field} is not a field of a v2.0 podSpecOverrides item (it has targetJobs, containers, \
                 initContainers and {}), so this is not a v2.0 manifest{}",
                V2_0.pod_settings_pod_fields.join(", "),
                if field == "spec" { ": a `spec` there is v2.1's shape, so upgrade it with --from v2.1" } else { "" }
            ),
            Refusal::TooManyOverrides { list, count } => write!(
                f,
                "{list} has {count} overrides, and each becomes a runtime patch of which v2.2 takes at most \
                 {MAX_RUNTIME_PATCHES}: merge the overrides that target the same jobs, then upgrade again"
            ),
            Refusal::ExpectedJobName(path) => write!(f, "{path}: expected a job name"),
            Refusal::NotAV2_1OverrideField(path) => write!(f, "{path}: not a field of a v2.1 pod template override"),
            Refusal::ExpectedPatchTemplate(path) => write!(f, "{path}: expected a trainingRuntimeSpec.template map"),
            Refusal::NotProcs { field, value } => write!(f, "{field}: {value} is not {PROCS_ACCEPTED}"),
            Refusal::CpusUnstated(field) => write!(
                f,
                "{field}: `cpu` stood for the CPUs of each node, which spec.trainer.resourcesPerNode does not \
                 state: set numProcPerNode to that number"
            ),
            Refusal::TooManyItems { list, count } => write!(
                f,
                "{list} has {count} items, more than the {MAX_LIST_ITEMS} the new release accepts: \
                 move some into a script or a ConfigMap"
            ),
            Refusal::RemovedBefore { field, release, source, from } => {
                write!(f, "{field} was removed in {release} ({source}), so this is not a {from} manifest: check --from")
            }
            Refusal::ArrivedAfter { field, release, source, from } => {
                write!(f, "{field} arrived in {release} ({source}), so this is not a {from} manifest: check --from")
            }
            Refusal::NoScheme { field, uri } => {
                write!(f, "{field}: {uri:?} has no scheme: write it as `hf://...`, `s3://...` or the like")
            }
        }
    }
}

impl std::error::Error for Refusal {}

/// One Trainer object of the stream, as the changes so far left it.
pub(crate) struct Doc {
    /// 1-based position in the stream.
    pub(crate) index: usize,
    /// Which Trainer kind it is.
    pub(crate) subject: Subject,
    /// The object, as the changes so far left it.
    pub(crate) value: Value,
    /// Why the document cannot be rewritten, once a change found out.
    pub(crate) refused: Option<super::Refusal>,
}

/// Applies `change` to every document it concerns.
pub(crate) fn apply(change: &'static ApiChange, docs: &mut [Doc], report: &mut Report) {
    for i in 0..docs.len() {
        if docs[i].refused.is_some() || docs[i].subject != change.subject {
            continue;
        }
        let result = match change.rewrite {
            Rewrite::PodSpecOverridesToTemplateOverrides => pod_spec_overrides(change, &mut docs[i], report),
            Rewrite::TemplateOverridesToRuntimePatches => template_overrides(change, &mut docs[i], report),
            Rewrite::MetadataToRuntimePatch => metadata_to_patch(change, &mut docs[i], report),
            Rewrite::TorchProcsToTrainJobs => torch_procs(change, docs, i, report),
            Rewrite::ElasticPolicyRemoved => elastic_policy(change, &mut docs[i], report),
            Rewrite::ProcsToInt32 => procs_to_int32(change, &mut docs[i], report),
            Rewrite::ListsAtMost128 => lists_at_most_128(&docs[i]),
            Rewrite::StorageUriWithScheme => storage_uris(&docs[i]),
            Rewrite::Arrived => Ok(()),
        };
        if let Err(reason) = result {
            docs[i].refused = Some(super::Refusal::Change { refusal: reason, change });
        }
    }
}

fn entry(doc: &Doc, from: String, kind: Kind, to: Vec<String>, change: &'static ApiChange) -> Entry {
    Entry {
        doc: doc.index,
        from,
        kind,
        to: to.into_iter().map(|path| Place { doc: doc.index, path }).collect(),
        note: String::new(),
        changes: vec![change],
        since: None,
        exact: false,
        derived: kind == Kind::Converted,
    }
}

fn with_detail(mut e: Entry, detail: impl Into<String>) -> Entry {
    e.note = detail.into();
    e
}

/// The last segment of a change's `spec.x` path.
fn key(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

fn spec_mut(doc: &mut Doc) -> Option<&mut Map<String, Value>> {
    doc.value.get_mut("spec").and_then(Value::as_object_mut)
}

/// Replaces `old` by `new` where `old` was (keeping the fields' order), or removes it.
fn replace_key(map: &mut Map<String, Value>, old: &str, new: Option<(&str, Value)>) {
    let mut new = new;
    let fields = std::mem::take(map);
    for (k, v) in fields {
        if k == old {
            if let Some((name, value)) = new.take() {
                map.insert(name.to_string(), value);
            }
        } else {
            map.insert(k, v);
        }
    }
}

/// v2.0 → v2.1: `podSpecOverrides[i]` keeps `targetJobs`; the pod fields go under `spec`.
fn pod_spec_overrides(change: &'static ApiChange, doc: &mut Doc, report: &mut Report) -> Result<(), Refusal> {
    let (old_key, new_key) = (key(change.field), key(change.becomes.unwrap_or(change.field)));
    let Some(items) = spec_mut(doc).and_then(|s| s.get(old_key)).cloned() else { return Ok(()) };
    let items = items.as_array().ok_or_else(|| Refusal::ExpectedList(change.field.into()))?;
    let mut entries = Vec::new();
    let (from_list, to_list) = (format!("spec.{old_key}"), format!("spec.{new_key}"));
    if items.is_empty() {
        entries.push(entry(doc, from_list.clone(), Kind::Renamed, vec![to_list.clone()], change));
    }
    let mut rewritten = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let (from, to) = (format!("{from_list}[{i}]"), format!("{to_list}[{i}]"));
        let fields = item.as_object().ok_or_else(|| Refusal::ExpectedMap(from.clone()))?;
        if fields.is_empty() {
            entries.push(entry(doc, from, Kind::Renamed, vec![to], change));
            rewritten.push(json!({}));
            continue;
        }
        if let Some(unknown) = fields.keys().find(|k| !declared_in_v2_0_override(k)) {
            return Err(Refusal::NotAV2_0Override { item: from, field: unknown.clone() });
        }
        let mut out = Map::new();
        let mut pod = Map::new();
        for (k, v) in fields {
            if k == "targetJobs" {
                // Named job by job, as v2.2 spreads them over runtime patches: then a v2.0 → v2.2
                // report has one entry per name that names both changes.
                match v.as_array().filter(|jobs| !jobs.is_empty()) {
                    Some(jobs) => entries.extend((0..jobs.len()).map(|j| {
                        let at = format!("{k}[{j}].name");
                        entry(doc, format!("{from}.{at}"), Kind::Renamed, vec![format!("{to}.{at}")], change)
                    })),
                    None => entries.push(entry(
                        doc,
                        format!("{from}.{k}"),
                        Kind::Renamed,
                        vec![format!("{to}.{k}")],
                        change,
                    )),
                }
                out.insert(k.clone(), v.clone());
            } else {
                pod.insert(k.clone(), v.clone());
                entries.push(entry(doc, format!("{from}.{k}"), Kind::Renamed, vec![format!("{to}.spec.{k}")], change));
            }
        }
        if !pod.is_empty() {
            out.insert("spec".into(), Value::Object(pod));
        }
        rewritten.push(Value::Object(out));
    }
    if let Some(spec) = spec_mut(doc) {
        replace_key(spec, old_key, Some((new_key, Value::Array(rewritten))));
    }
    entries.into_iter().for_each(|e| report.record(e));
    Ok(())
}

/// The fields of v2.0's `PodSpecOverride` (v2.0.1:pkg/apis/trainer/v1alpha1/trainjob_types.go:234-268):
/// `targetJobs`, the container lists, and the pod fields the release data names. Anything else
/// would be moved under `spec` as if it were a pod field; the API server of v2.0 refuses it.
fn declared_in_v2_0_override(key: &str) -> bool {
    matches!(key, "targetJobs" | "containers" | "initContainers") || V2_0.pod_settings_pod_fields.contains(&key)
}

fn added_manager(doc: &Doc, at: String, change: &'static ApiChange) -> Entry {
    let e = entry(doc, at.clone(), Kind::Added, vec![at], change);
    with_detail(e, "a runtime patch names who wrote it; any name of yours will do")
}

fn manager(i: usize, n: usize) -> String {
    if n == 1 {
        PATCH_MANAGER.to_string()
    } else {
        format!("{PATCH_MANAGER}-{}", i + 1)
    }
}

/// v2.1 → v2.2: each override becomes a runtime patch (applied in the same order), holding one
/// `replicatedJobs` entry per target job with the override's pod template.
fn template_overrides(change: &'static ApiChange, doc: &mut Doc, report: &mut Report) -> Result<(), Refusal> {
    let old_key = key(change.field);
    let new_key = key(change.becomes.unwrap_or(change.field));
    let Some(items) = spec_mut(doc).and_then(|s| s.get(old_key)).cloned() else { return Ok(()) };
    let from_list = format!("spec.{old_key}");
    let items = items.as_array().ok_or_else(|| Refusal::ExpectedList(from_list.clone()))?;
    if items.len() > MAX_RUNTIME_PATCHES {
        return Err(Refusal::TooManyOverrides { list: from_list, count: items.len() });
    }
    let mut entries = Vec::new();
    if items.is_empty() {
        entries.push(entry(doc, from_list.clone(), Kind::Renamed, vec![format!("spec.{new_key}")], change));
    }
    let effective: Vec<usize> =
        (0..items.len()).filter(|&i| targets(&items[i]).is_some_and(|t| !t.is_empty())).collect();
    let mut patches = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let from = format!("{from_list}[{i}]");
        let fields = item.as_object().ok_or_else(|| Refusal::ExpectedMap(from.clone()))?;
        let Some(p) = effective.iter().position(|&e| e == i) else {
            let e = entry(doc, from, Kind::Omitted, vec![], change);
            entries.push(with_detail(e, "it targets no replicated job, so it changed nothing"));
            continue;
        };
        let patch = format!("spec.{new_key}[{p}]");
        let jobs_at = format!("{patch}.trainingRuntimeSpec.template.spec.replicatedJobs");
        let names = targets(item).unwrap_or_default();
        let pod_at = |j: usize| format!("{jobs_at}[{j}].template.spec.template");
        let mut pod_template = Map::new();
        for (k, v) in fields {
            match (k.as_str(), v) {
                ("targetJobs", _) => {
                    for (j, t) in v.as_array().into_iter().flatten().enumerate() {
                        let name_at = format!("{jobs_at}[{j}].name");
                        let from = format!("{from}.targetJobs[{j}].name");
                        if t.get("name").and_then(Value::as_str).is_none() {
                            return Err(Refusal::ExpectedJobName(from));
                        }
                        entries.push(entry(doc, from, Kind::Renamed, vec![name_at], change));
                    }
                }
                ("metadata", Value::Object(meta)) => {
                    let mut kept = Map::new();
                    for (mk, mv) in meta {
                        let from = format!("{from}.metadata.{mk}");
                        if mk == "labels" || mk == "annotations" {
                            kept.insert(mk.clone(), mv.clone());
                            let to = (0..names.len()).map(|j| format!("{}.metadata.{mk}", pod_at(j))).collect();
                            entries.push(entry(doc, from, Kind::Renamed, to, change));
                        } else {
                            let e = entry(doc, from, Kind::Omitted, vec![], change);
                            entries.push(with_detail(e, "v2.1 applied only labels and annotations of an override"));
                        }
                    }
                    if meta.is_empty() {
                        let e = entry(doc, format!("{from}.metadata"), Kind::Omitted, vec![], change);
                        entries.push(with_detail(e, "empty: it set nothing"));
                    }
                    if !kept.is_empty() {
                        pod_template.insert("metadata".into(), Value::Object(kept));
                    }
                }
                ("spec", Value::Object(spec)) => {
                    let each = |suffix: &str| (0..names.len()).map(|j| format!("{}.spec{suffix}", pod_at(j))).collect();
                    if spec.is_empty() {
                        entries.push(entry(doc, format!("{from}.spec"), Kind::Renamed, each(""), change));
                    }
                    for sk in spec.keys() {
                        entries.push(entry(
                            doc,
                            format!("{from}.spec.{sk}"),
                            Kind::Renamed,
                            each(&format!(".{sk}")),
                            change,
                        ));
                    }
                    pod_template.insert("spec".into(), v.clone());
                }
                _ => return Err(Refusal::NotAV2_1OverrideField(format!("{from}.{k}"))),
            }
        }
        let jobs: Vec<Value> = names
            .iter()
            .map(|name| {
                let mut job = Map::new();
                job.insert("name".into(), Value::String(name.clone()));
                if !pod_template.is_empty() {
                    job.insert("template".into(), json!({"spec": {"template": Value::Object(pod_template.clone())}}));
                }
                Value::Object(job)
            })
            .collect();
        let m = manager(p, effective.len());
        entries.push(added_manager(doc, format!("{patch}.manager"), change));
        patches.push(json!({"manager": m, "trainingRuntimeSpec": {"template": {"spec": {"replicatedJobs": jobs}}}}));
    }
    if let Some(spec) = spec_mut(doc) {
        let keep = !patches.is_empty() || items.is_empty();
        replace_key(spec, old_key, keep.then_some((new_key, Value::Array(patches))));
    }
    entries.into_iter().for_each(|e| report.record(e));
    Ok(())
}

/// An override's target job names; `None` when `targetJobs` is missing.
fn targets(item: &Value) -> Option<Vec<String>> {
    let list = item.get("targetJobs")?.as_array()?;
    Some(list.iter().filter_map(|t| t.get("name")?.as_str().map(String::from)).collect())
}

/// v2.1 → v2.2: `spec.labels` / `spec.annotations` become the JobSet template metadata of the
/// first runtime patch. Both fed the JobSet's labels and annotations (pkg/runtime/core/
/// trainingruntime.go newRuntimeInfo @v2.1.0 and @v2.2.1), so nothing that runs changes.
fn metadata_to_patch(change: &'static ApiChange, doc: &mut Doc, report: &mut Report) -> Result<(), Refusal> {
    let field = key(change.field);
    let patches_key = key(change.becomes.unwrap_or(change.field));
    let Some(spec) = spec_mut(doc) else { return Ok(()) };
    let Some(value) = spec.get(field).cloned() else { return Ok(()) };
    if !value.is_object() {
        return Err(Refusal::ExpectedMap(format!("spec.{field}")));
    }
    let mut added = None;
    let has_patch = spec.get(patches_key).and_then(Value::as_array).is_some_and(|p| !p.is_empty());
    if has_patch {
        replace_key(spec, field, None);
    } else {
        let patch = json!([{"manager": PATCH_MANAGER, "trainingRuntimeSpec": {"template": {}}}]);
        replace_key(spec, field, Some((patches_key, patch)));
        added = Some(format!("spec.{patches_key}[0].manager"));
    }
    let template = spec
        .get_mut(patches_key)
        .and_then(|p| p.get_mut(0))
        .and_then(|p| p.get_mut("trainingRuntimeSpec"))
        .and_then(|t| t.get_mut("template"))
        .and_then(Value::as_object_mut)
        .ok_or_else(|| Refusal::ExpectedPatchTemplate(format!("spec.{patches_key}[0]")))?;
    // metadata before spec, as the types declare them.
    let mut metadata = template.remove("metadata").unwrap_or_else(|| json!({}));
    metadata[field] = value;
    let rest = std::mem::take(template);
    template.insert("metadata".into(), metadata);
    template.extend(rest);
    let to = format!("spec.{patches_key}[0].trainingRuntimeSpec.template.metadata.{field}");
    if let Some(manager) = added {
        report.record(added_manager(doc, manager, change));
    }
    report.record(entry(doc, format!("spec.{field}"), Kind::Moved, vec![to], change));
    Ok(())
}

/// A `numProcPerNode` value of v2.0–v2.1 (an IntOrString).
enum Procs {
    Count(i64),
    /// `auto` or `gpu`: without the field v2.2 passes `auto`, which starts one process per GPU
    /// where the node has GPUs and one per CPU where it has none; `gpu` did the former.
    DefaultDoesTheSame(&'static str),
    /// `cpu`: one process per CPU, even with GPUs.
    Cpu,
}

fn procs(v: &Value) -> Option<Procs> {
    match v {
        Value::Number(n) => n.as_i64().filter(|n| (1..=i64::from(i32::MAX)).contains(n)).map(Procs::Count),
        Value::String(s) => match s.as_str() {
            "auto" => Some(Procs::DefaultDoesTheSame("the default is `auto` itself")),
            "gpu" => Some(Procs::DefaultDoesTheSame(
                "the default `auto` starts one process per GPU where the nodes have GPUs, as `gpu` did",
            )),
            "cpu" => Some(Procs::Cpu),
            _ => s.parse::<i64>().ok().filter(|n| (1..=i64::from(i32::MAX)).contains(n)).map(Procs::Count),
        },
        _ => None,
    }
}

const PROCS_ACCEPTED: &str = "a positive integer, `auto`, `cpu` or `gpu`";

/// v2.1 → v2.2: the runtime's `torch.numProcPerNode` goes to the TrainJobs of the input that use
/// the runtime and set none of their own (a TrainJob's own value won over the runtime's).
fn torch_procs(change: &'static ApiChange, docs: &mut [Doc], i: usize, report: &mut Report) -> Result<(), Refusal> {
    let from = change.field.to_string();
    let Some(torch) = docs[i].value.pointer_mut("/spec/mlPolicy/torch").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    let Some(value) = torch.get("numProcPerNode").cloned() else { return Ok(()) };
    let kind = procs(&value).ok_or_else(|| Refusal::NotProcs { field: from.clone(), value: value.clone() })?;
    replace_key(torch, "numProcPerNode", None);
    let runtime = &docs[i].value;
    let (name, kind_name, namespace) = (
        runtime["metadata"]["name"].as_str().unwrap_or_default().to_string(),
        runtime["kind"].as_str().unwrap_or_default().to_string(),
        runtime["metadata"]["namespace"].clone(),
    );
    let e = match kind {
        Procs::DefaultDoesTheSame(why) => {
            with_detail(entry(&docs[i], from, Kind::Omitted, vec![], change), format!("left out: {why}"))
        }
        Procs::Cpu => with_detail(
            entry(&docs[i], from, Kind::Dropped, vec![], change),
            format!(
                "`cpu` started one process per CPU: set `spec.trainer.numProcPerNode` to the CPU count on every \
                 TrainJob that uses {kind_name} {name}, else torch starts one per GPU where there are GPUs"
            ),
        ),
        Procs::Count(n) => {
            let mut targets = Vec::new();
            for tj in docs.iter_mut().filter(|d| d.subject == Subject::TrainJob && d.refused.is_none()) {
                let r = &tj.value["spec"]["runtimeRef"];
                let uses = r["name"].as_str() == Some(name.as_str())
                    && r["kind"].as_str().unwrap_or("ClusterTrainingRuntime") == kind_name
                    && (kind_name == "ClusterTrainingRuntime" || tj.value["metadata"]["namespace"] == namespace);
                if !uses || tj.value.pointer("/spec/trainer/numProcPerNode").is_some() {
                    continue;
                }
                let Some(spec) = tj.value.get_mut("spec").and_then(Value::as_object_mut) else { continue };
                let trainer = spec.entry("trainer").or_insert_with(|| json!({}));
                let Some(trainer) = trainer.as_object_mut() else { continue };
                trainer.insert("numProcPerNode".into(), json!(n));
                targets.push(Place { doc: tj.index, path: "spec.trainer.numProcPerNode".into() });
            }
            let kind = if targets.is_empty() {
                Kind::Dropped
            } else if value.is_string() {
                Kind::Converted
            } else {
                Kind::Moved
            };
            let detail = if targets.is_empty() {
                format!(
                    "no TrainJob of this input takes it over: set `spec.trainer.numProcPerNode: {n}` on every \
                     TrainJob that uses {kind_name} {name}, else torch starts `auto` processes"
                )
            } else {
                format!(
                    "taken over by the TrainJobs of this input that use it and set none; any other TrainJob \
                     using {kind_name} {name} needs `spec.trainer.numProcPerNode: {n}` too"
                )
            };
            let mut e = with_detail(entry(&docs[i], from, kind, vec![], change), detail);
            e.to = targets.into();
            e
        }
    };
    report.record(e);
    Ok(())
}

/// v2.1 → v2.2: `torch.elasticPolicy` is left out; the torch plugin never read it.
fn elastic_policy(change: &'static ApiChange, doc: &mut Doc, report: &mut Report) -> Result<(), Refusal> {
    let Some(torch) = doc.value.pointer_mut("/spec/mlPolicy/torch").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    if torch.get("elasticPolicy").is_none() {
        return Ok(());
    }
    replace_key(torch, "elasticPolicy", None);
    let e = entry(doc, change.field.to_string(), Kind::Omitted, vec![], change);
    report.record(with_detail(e, "nothing ran differently: torch.go of v2.0–v2.1 has elastic training as a TODO"));
    Ok(())
}

/// v2.1 → v2.2: the TrainJob's `trainer.numProcPerNode` becomes an int32.
fn procs_to_int32(change: &'static ApiChange, doc: &mut Doc, report: &mut Report) -> Result<(), Refusal> {
    let from = change.field.to_string();
    let Some(value) = doc.value.pointer(&pointer(&from)).cloned() else { return Ok(()) };
    let kind = procs(&value).ok_or_else(|| Refusal::NotProcs { field: from.clone(), value: value.clone() })?;
    let trainer = doc
        .value
        .pointer_mut("/spec/trainer")
        .and_then(Value::as_object_mut)
        .ok_or_else(|| Refusal::ExpectedMap("spec.trainer".into()))?;
    let e = match kind {
        Procs::Count(_) if value.is_number() => return Ok(()),
        Procs::Count(n) => {
            trainer.insert("numProcPerNode".into(), json!(n));
            let e = entry(doc, from.clone(), Kind::Converted, vec![from], change);
            with_detail(e, format!("the string {value} became the number {n}"))
        }
        Procs::DefaultDoesTheSame(why) => {
            replace_key(trainer, "numProcPerNode", None);
            // No `trainer: {}` left behind: it would say nothing.
            if trainer.is_empty() {
                if let Some(spec) = spec_mut(doc) {
                    replace_key(spec, "trainer", None);
                }
            }
            with_detail(entry(doc, from, Kind::Omitted, vec![], change), format!("left out: {why}"))
        }
        Procs::Cpu => {
            let n =
                cpus_per_node(trainer.get("resourcesPerNode")).ok_or_else(|| Refusal::CpusUnstated(from.clone()))?;
            trainer.insert("numProcPerNode".into(), json!(n));
            let e = entry(doc, from.clone(), Kind::Converted, vec![from], change);
            with_detail(e, format!("`cpu` stood for the CPUs per node: {n}, from spec.trainer.resourcesPerNode"))
        }
    };
    report.record(e);
    Ok(())
}

/// The torch plugin's CPU count of v2.1 (getNumCPUPerNode, torch.go @v2.1.0): the CPU request,
/// else the limit, rounded up, at least 1. `None` when neither is given in a form read here.
fn cpus_per_node(resources: Option<&Value>) -> Option<i64> {
    let r = resources?;
    let request = r["requests"]["cpu"]
        .as_str()
        .map(String::from)
        .or_else(|| r["requests"]["cpu"].as_f64().map(|f| f.to_string()));
    let limit =
        r["limits"]["cpu"].as_str().map(String::from).or_else(|| r["limits"]["cpu"].as_f64().map(|f| f.to_string()));
    let millis =
        |q: &str| -> Option<u64> { u64::try_from(crate::k8s::quantity::Quantity::parse(q).ok()?.milli_value()).ok() };
    let request = request.as_deref().and_then(millis).filter(|m| *m > 0);
    let m = match request {
        Some(m) => m,
        None => limit.as_deref().and_then(millis)?,
    };
    i64::try_from(m.div_ceil(1000).max(1)).ok()
}

fn pointer(path: &str) -> String {
    format!("/{}", path.replace('.', "/"))
}

/// v2.2: lists of the trainer and the initializers hold at most 128 items.
fn lists_at_most_128(doc: &Doc) -> Result<(), Refusal> {
    for path in [
        "spec.trainer.command",
        "spec.trainer.args",
        "spec.trainer.env",
        "spec.initializer.dataset.env",
        "spec.initializer.model.env",
    ] {
        if let Some(n) = doc.value.pointer(&pointer(path)).and_then(Value::as_array).map(Vec::len) {
            if n > MAX_LIST_ITEMS {
                return Err(Refusal::TooManyItems { list: path, count: n });
            }
        }
    }
    Ok(())
}

/// v2.3: an initializer's `storageUri` is empty or `scheme://...` (CEL
/// `^[A-Za-z][A-Za-z0-9+.-]*://.+$`).
fn storage_uris(doc: &Doc) -> Result<(), Refusal> {
    for which in ["dataset", "model"] {
        let path = format!("spec.initializer.{which}.storageUri");
        let Some(uri) = doc.value.pointer(&pointer(&path)).and_then(Value::as_str) else { continue };
        if !uri.is_empty() && !has_scheme(uri) {
            return Err(Refusal::NoScheme { field: path, uri: uri.into() });
        }
    }
    Ok(())
}

fn has_scheme(uri: &str) -> bool {
    let Some((scheme, rest)) = uri.split_once("://") else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
        && !rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_counts_round_up_like_the_torch_plugin() {
        let r = |v: Value| cpus_per_node(Some(&v));
        assert_eq!(r(json!({"requests": {"cpu": "4"}})), Some(4));
        assert_eq!(r(json!({"requests": {"cpu": "1500m"}, "limits": {"cpu": "8"}})), Some(2));
        assert_eq!(r(json!({"limits": {"cpu": 2.5}})), Some(3));
        assert_eq!(r(json!({"requests": {"cpu": "0"}, "limits": {"cpu": "6"}})), Some(6));
        assert_eq!(r(json!({"requests": {"cpu": "100m"}})), Some(1));
        // Every quantity form counts, as explain counts it (k8s::quantity): `2k` is 2000 CPUs.
        assert_eq!(r(json!({"requests": {"cpu": "2k"}})), Some(2000));
        assert_eq!(r(json!({"requests": {"cpu": "1e1"}})), Some(10));
        assert_eq!(r(json!({"requests": {"cpu": "-1"}})), None);
        assert_eq!(r(json!({"requests": {"memory": "1Gi"}})), None);
    }

    #[test]
    fn storage_uris_need_a_scheme() {
        assert!(has_scheme("hf://org/model"));
        assert!(has_scheme("s3+x.y-z://b"));
        assert!(!has_scheme("org/model"));
        assert!(!has_scheme("1s3://b"));
        assert!(!has_scheme("hf://"));
    }
}

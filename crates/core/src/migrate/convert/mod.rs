//! One V1 job to its V2 objects and report: this file decides what to do with a document and
//! holds the state of one conversion; each concern has its own file beside it.

use super::report::{self, Report};
use super::Outcome;
use crate::model::pod::{Container, EnvVar, PodSpec, Resources};
use crate::model::v1::ReplicaSpec;
use crate::model::v2::{ReplicatedJob, RuntimeRef, TrainJob, TrainJobSpec, Trainer, TrainingRuntime, API_VERSION};
use crate::model::ObjectMeta;
use crate::selection::Selection;
use crate::snippets::runtimes::{self, WEBHOOK_LABEL};
use explorer_data::catalog::{Framework, V1Kind};
use explorer_data::releases::{PodSettingsField, Release, RELEASES};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

mod env;
mod error;
mod master_worker;
mod metadata;
mod moved_env;
mod moved_settings;
mod mpi;
mod numbers;
mod patch;
mod pod_settings;
mod policies;
mod quantities;
mod refusal;
pub(crate) mod roles;
mod runtime;
mod topology;
mod trainer;
mod tree_args;

use crate::text::counted;
pub use error::Error;
use numbers::count_in_range;
use patch::pod_settings_entry;
use pod_settings::PodSettings;
use quantities::quantities_as_text;
pub use quantities::quantity_text;
pub use refusal::{Invalid, Refusal};
use runtime::{reference_to, MainContainer};

/// What the job is read as: a Training Operator kind, or the MPI Operator's MPIJob.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// A Training Operator v1.9 kind (its `kubeflow.org/v1` MPIJob included).
    V1(V1Kind),
    /// The standalone MPI Operator's `kubeflow.org/v2beta1` MPIJob.
    MpiV2beta1,
}

impl Source {
    fn kind(self) -> V1Kind {
        match self {
            Source::V1(k) => k,
            Source::MpiV2beta1 => V1Kind::MpiJob,
        }
    }
}

impl Replica<'_> {
    /// Whether the V1 document sets `replicas` (the report accounts only for what is there).
    fn raw_has_replicas(&self) -> bool {
        self.raw.get("replicas").is_some()
    }
}

fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// Decides what to do with one parsed document, writing for the `release` asked for. A document
/// passed through comes back with `object: null`: the caller moves the document there
/// (`migrate_to`), so that a large one is not held twice.
pub fn convert(doc: &Value, release: Release) -> Outcome {
    match read_as_job(doc, release) {
        Ok(job) => job.convert(doc, release, metadata::Carried::default(), quantities_as_text(doc), None).0,
        Err(outcome) => *outcome,
    }
}

/// [`convert`] of a document the caller gives up: a job's labels and annotations (a quarter
/// million fit in the input) and its trainer's variables are moved into its TrainJob, not
/// copied, and the rest of it is dropped once converted; a document passed through is the
/// `object` it comes back with.
pub fn convert_owned(mut doc: Value, release: Release) -> Outcome {
    match read_as_job(&doc, release) {
        Ok(job) => {
            let taken = metadata::take_carried(&mut doc);
            // Scanned before anything else leaves the tree; a job whose quantities are written
            // as text is converted from that copy, which gives nothing up.
            let scanned = quantities_as_text(&doc);
            let mut given_up = GivenUp::default();
            if matches!(scanned, Ok((None, _))) {
                given_up.settings = moved_settings::take(&mut doc, job.source);
                given_up.models = tree_args::read_without_lists(&mut doc, job.source);
            }
            let (mut outcome, left) = job.convert(&doc, release, taken, scanned, Some(given_up));
            if let Outcome::Written { kind, name, objects, .. } = &mut outcome {
                let moved = left.env.map_or(Ok(()), |env| moved_env::move_into(objects, env, &mut doc));
                let moved =
                    moved.and_then(|()| left.args.map_or(Ok(()), |args| tree_args::move_into(objects, args, &mut doc)));
                if let Err(error) = moved {
                    let (kind, name) = (std::mem::take(kind), std::mem::take(name));
                    return invalid(Invalid::Job { kind, name, error });
                }
            }
            outcome
        }
        Err(outcome) => match *outcome {
            Outcome::PassedThrough { kind, name, .. } => Outcome::PassedThrough { kind, name, object: doc },
            outcome => outcome,
        },
    }
}

/// What a caller that gives the job's tree up took out of it before the conversion reads it.
#[derive(Default)]
struct GivenUp {
    /// The replicas' models, read without their main containers' args and env (`tree_args`).
    models: Option<tree_args::ReadWithoutLists>,
    /// The only replica's pod spec fields the model does not name (`moved_settings`).
    settings: Vec<(String, Value)>,
}

/// A document read as a V1 job to convert: what it is read as, its kind and its name.
struct Job {
    source: Source,
    kind: String,
    name: String,
    /// What Training Operator v1.9's webhook refuses in the job that is not about its pods.
    webhook_refusals: Vec<crate::k8s::field::Rejection>,
}

/// The document as a job to convert, or what becomes of it instead (refused, invalid, passed
/// through with `object: null`), boxed: an outcome is large beside a job.
fn read_as_job(doc: &Value, release: Release) -> Result<Job, Box<Outcome>> {
    if doc.as_object().is_none() {
        return Err(invalid(Invalid::NotAMapping).into());
    }
    let (Some(api), Some(kind)) = (str_at(doc, "apiVersion"), str_at(doc, "kind")) else {
        return Err(invalid(Invalid::NoKind).into());
    };
    let name = crate::explain::v1::at(doc, &["metadata", "name"]).and_then(Value::as_str).unwrap_or("").to_string();
    // The pairs the V1 operators' CRDs serve (explorer_data::served): v1 is Training Operator's,
    // a v2beta1 MPIJob is the MPI Operator's.
    let operator = explorer_data::served::v1_operator(api, kind);
    // A replica type v1.9's webhook refuses, or whose pods the API server refuses by their name:
    // v1.9 runs no such job, and its reason is the answer.
    // Else what it refuses in the job that is not about its pods: the job converts, and says so.
    let webhook_refusals = match operator.map(|_| crate::explain::v1::refused_replica_type(doc)) {
        Some(Err(reason)) => {
            return Err(invalid(Invalid::Job { kind: kind.to_string(), name, error: Error::V1Refused(reason) }).into())
        }
        Some(Ok(refusals)) => refusals,
        None => Vec::new(),
    };
    let source = match (operator, api, kind) {
        (Some(op), ..) if op == explorer_data::served::MPI_OPERATOR => Source::MpiV2beta1,
        (Some(_), ..) => match V1Kind::from_kind(kind) {
            Some(k @ (V1Kind::TfJob | V1Kind::PaddleJob)) => match roles::refusal(k, doc) {
                Some(reason) => return Err(refused(name, kind, reason).into()),
                None => Source::V1(k),
            },
            Some(k) if release.builtin_for(framework_of(k)).is_none() => {
                return Err(refused(name, kind, Refusal::NoRuntimeYet { kind: k, release: release.tag }).into());
            }
            Some(k) => Source::V1(k),
            None => return Err(Outcome::PassedThrough { name, kind: kind.into(), object: Value::Null }.into()),
        },
        (None, api, kind) if api.starts_with("kubeflow.org/") && V1Kind::from_kind(kind).is_some() => {
            let reason = Refusal::UnservedVersion { api_version: api.into(), kind: kind.into() };
            return Err(refused(name, kind, reason).into());
        }
        // A V1 kind in another case: Kubernetes matches kinds exactly, so no operator ran it
        // (the group's other kinds, a Notebook or a Profile, pass through).
        (None, api, kind)
            if api.starts_with("kubeflow.org/") && explorer_data::served::misspelt_kind(api, kind).is_some() =>
        {
            let meant = explorer_data::served::misspelt_kind(api, kind).unwrap_or_default();
            let error = Invalid::MisspeltKind { api_version: api.into(), kind: kind.into(), name, meant };
            return Err(invalid(error).into());
        }
        _ => return Err(Outcome::PassedThrough { name, kind: kind.into(), object: Value::Null }.into()),
    };
    if source.kind() == V1Kind::MpiJob {
        let imp =
            crate::explain::v1::at(doc, &["spec", "mpiImplementation"]).and_then(Value::as_str).unwrap_or("OpenMPI");
        if imp != "OpenMPI" {
            let reason = Refusal::MpiImplementation { implementation: imp.into(), release: release.tag };
            return Err(refused(name, kind, reason).into());
        }
    }
    Ok(Job { source, kind: kind.to_string(), name, webhook_refusals })
}

impl Job {
    /// The job's objects and report; `taken` holds its labels and annotations where the caller
    /// took them out of `doc` (`convert_owned`); `scanned` is what `quantities_as_text` found in
    /// it. Where the caller gives `doc` up (`given_up`: what it took out of it already), the
    /// TrainJob's trainer env and args come back apart, for the caller to move from the tree into
    /// their places (`moved_env`, `tree_args`).
    fn convert(
        self,
        doc: &Value,
        release: Release,
        taken: metadata::Carried<'static>,
        scanned: Result<(Option<Value>, Vec<String>), Error>,
        given_up: Option<GivenUp>,
    ) -> (Outcome, LeftInTree) {
        let Job { source, kind, name, webhook_refusals } = self;
        let (written, template_images) = match scanned {
            Ok(found) => found,
            Err(error) => return (invalid(Invalid::Job { kind, name, error }), LeftInTree::default()),
        };
        let Some(obj) = written.as_ref().unwrap_or(doc).as_object() else {
            return (invalid(Invalid::NotAMapping), LeftInTree::default());
        };
        let tree_given_up = given_up.is_some();
        let GivenUp { models, settings } = given_up.unwrap_or_default();
        let conversion = Conversion::new(obj, source, &kind, release, taken, models).map(|mut c| {
            c.template_images = template_images;
            c.tree_given_up = tree_given_up;
            c.taken_settings = settings;
            c.webhook_refusals = webhook_refusals;
            c
        });
        match conversion.and_then(Conversion::run) {
            Ok(converted) => converted,
            Err(error) => (invalid(Invalid::Job { kind, name, error }), LeftInTree::default()),
        }
    }
}

fn refused(name: String, kind: &str, reason: Refusal) -> Outcome {
    Outcome::Refused { name, kind: kind.into(), reason: crate::pipeline::Refusal::Migrate(reason) }
}

fn invalid(error: Invalid) -> Outcome {
    Outcome::Invalid { error: crate::pipeline::Invalid::Migrate(error) }
}

/// The name of a framework's built-in runtime in the release the migrator targets ("" where
/// it has none: `convert` refuses those jobs before they get here).
fn runtime_name(release: &Release, framework: Framework) -> &'static str {
    release.builtin_for(framework).map_or("", |rt| rt.name)
}

struct Replica<'a> {
    spec: ReplicaSpec,
    /// The replica's original value, for reporting every field it had.
    raw: &'a Value,
    /// Its key in the job's replica specs, as written.
    key: &'a str,
    path: String,
}

struct Conversion<'a> {
    doc: &'a Map<String, Value>,
    source: Source,
    kind_name: &'a str,
    name: String,
    /// The V1 metadata but its labels and annotations, which are `carried`.
    meta: ObjectMeta,
    /// The V1 labels and annotations, which the TrainJob carries.
    carried: metadata::Carried<'a>,
    replicas: BTreeMap<String, Replica<'a>>,
    report: Report,
    /// The release written for: where pod settings go, which fields and runtimes exist.
    release: Release,
    /// The TrainJob's pod-settings entries, under `release.pod_settings()`'s field.
    pod_overrides: Vec<Value>,
    /// `numProcPerNode` as a name (`auto`, `cpu`, `gpu`), where the release takes one.
    num_proc_name: Option<String>,
    /// Said on the report's `kind` line: what changes for every pod (the V1 operator's env).
    kind_note: String,
    /// Paths of images holding a `${VARIABLE}`: their report entries say so.
    template_images: Vec<String>,
    /// Where the trainer's env is in the job's tree, where it is one container's list as written
    /// (the main container of a single template).
    trainer_env_at: Option<Vec<moved_env::TreeStep>>,
    /// Whether the caller gives the job's tree up (`convert_owned`): the trainer's env is then
    /// left out of the TrainJob, in `left_in_tree`, for the caller to move from the tree.
    tree_given_up: bool,
    /// Whether the replicas' models were read without their main containers' args and env,
    /// which the conversion reads in the tree (`tree_args`).
    lists_in_tree: bool,
    /// The trainer's args, where they are read in the tree (`lists_in_tree`).
    trainer_args_in_tree: Option<tree_args::TrainerArgsInTree<'a>>,
    /// The trainer's env, where it is read in the tree (`lists_in_tree`).
    trainer_env_in_tree: Option<moved_env::EnvInTree<'a>>,
    /// What the TrainJob leaves for the caller to move from the tree (`tree_given_up`).
    left_in_tree: LeftInTree,
    /// The only replica's pod spec fields the model does not name, taken out of the tree by the
    /// caller (`moved_settings`): the pod settings hold them where the model's `extra` would.
    taken_settings: Vec<(String, Value)>,
    /// Why Training Operator v1.9's webhook refuses the job as written, where it refuses it for
    /// what the conversion still carries (its containers' names and images, its manager): the
    /// report says V1 ran no pod for it (`metadata`'s `note_refused_name`).
    webhook_refusals: Vec<crate::k8s::field::Rejection>,
}

/// The trainer's env and args `trainjob_value` left out of the TrainJob, their places empty, for
/// the caller who gives the job's tree up to move from it (`moved_env`, `tree_args`).
#[derive(Default)]
struct LeftInTree {
    env: Option<moved_env::TrainerEnv>,
    args: Option<tree_args::TrainerArgs>,
}

impl<'a> Conversion<'a> {
    fn new(
        doc: &'a Map<String, Value>,
        source: Source,
        kind_name: &'a str,
        release: Release,
        taken: metadata::Carried<'static>,
        models: Option<tree_args::ReadWithoutLists>,
    ) -> Result<Self, Error> {
        let (meta, carried) = match doc.get("metadata") {
            Some(m) => metadata::read_metadata(m, taken).map_err(|e| {
                Error::Field(crate::field_error::kubernetes(&format!("metadata.{}", e.path()), e.inner()))
            })?,
            None => return Err(Error::Missing { path: "metadata".into(), needed_by: None }),
        };
        let name = meta.name.clone().filter(|n| !n.is_empty()).ok_or_else(|| Error::Missing {
            path: "metadata.name".into(),
            // The API server names such a job when it creates it; the conversion needs the name first.
            needed_by: doc.get("metadata").and_then(|m| m.get("generateName")).and_then(Value::as_str).map(|prefix| {
                format!(
                    "the job is written with metadata.generateName ({prefix:?}), and the TrainJob, its runtime and \
                     the host names its pods reach each other by (MASTER_ADDR, TF_CONFIG) are written from the job's \
                     name: give it the metadata.name the TrainJob should have"
                )
            }),
        })?;
        let spec = doc.get("spec").and_then(Value::as_object).ok_or(Error::NoSpec)?;
        let field = source.kind().replica_specs_field();
        let specs = spec.get(field).and_then(Value::as_object).ok_or_else(|| Error::Missing {
            path: format!("spec.{field}"),
            needed_by: Some(format!("a {kind_name} needs its replica specs")),
        })?;
        // Keyed by the type the operator runs (v1.9's defaulting renames `worker` to `Worker`),
        // each with its path as written; `convert` refused the spellings that make it chance.
        let renamed = crate::explain::v1::renamed_replica_types(source.kind(), specs.keys().map(String::as_str))
            .unwrap_or_else(|_| specs.keys().map(|k| (k.clone(), k.as_str())).collect());
        let mut replicas = BTreeMap::new();
        let mut replaced = Vec::new();
        // Read by the caller already, one for each spec in order, or here.
        let lists_in_tree = models.is_some();
        let mut models = models.map(Vec::into_iter);
        for (written, raw) in specs {
            let path = ["spec.", field, ".", written].concat();
            let spec = match models.as_mut().and_then(Iterator::next) {
                Some(read) => read?,
                None => read_replica(raw, &path)?,
            };
            if spec.template.spec.containers.is_empty() {
                return Err(Error::NoContainers(format!("{path}.template.spec.containers")));
            }
            match renamed.iter().find(|(_, w)| *w == written) {
                Some((rtype, _)) => {
                    replicas.insert(rtype.clone(), Replica { spec, raw, key: written, path });
                }
                // The type's own spec, replaced by another spelling's: kept under its key.
                None => replaced.push((written.as_str(), path)),
            }
        }
        let mut report = Report::default();
        for (rtype, path) in replaced {
            let by = replicas.get(rtype).map_or("", |r| r.path.as_str());
            report.dropped(
                path,
                format!(
                    "Training Operator v1.9's defaulting replaces this spec with {by}'s, which it renames to this \
                     type (training-operator v1.9.0:pkg/apis/kubeflow.org/v1/defaulting_utils.go:50-59): it never ran"
                ),
            );
        }
        Ok(Conversion {
            doc,
            source,
            kind_name,
            name,
            meta,
            carried,
            replicas,
            report,
            release,
            pod_overrides: Vec::new(),
            num_proc_name: None,
            kind_note: String::new(),
            template_images: Vec::new(),
            trainer_env_at: None,
            tree_given_up: false,
            lists_in_tree,
            trainer_args_in_tree: None,
            trainer_env_in_tree: None,
            left_in_tree: LeftInTree::default(),
            taken_settings: Vec::new(),
            webhook_refusals: Vec::new(),
        })
    }

    fn spec(&self) -> &Map<String, Value> {
        self.doc.get("spec").and_then(Value::as_object).expect("checked in new")
    }

    fn replica(&self, rtype: &str) -> Option<&Replica<'a>> {
        self.replicas.get(rtype)
    }

    fn require(&self, rtype: &str) -> Result<&Replica<'a>, Error> {
        self.replica(rtype).ok_or_else(|| Error::Missing {
            path: format!("spec.{}.{rtype}", self.source.kind().replica_specs_field()),
            needed_by: Some(format!("a {} needs a {rtype} replica", self.kind_name)),
        })
    }

    /// The outcome, and what it left out of the TrainJob for the caller to move (`LeftInTree`).
    fn run(mut self) -> Result<(Outcome, LeftInTree), Error> {
        let kind = self.source.kind();
        let keys: Vec<String> = self.spec().keys().cloned().collect();
        for key in keys {
            if key != kind.replica_specs_field() && !known_spec_field(self.source, &key) {
                self.report.dropped(format!("spec.{key}"), format!("not a {} field", self.kind_name));
            }
        }
        self.report_pruned_replica_fields();
        self.bound_pods()?;
        let mut objects = match kind {
            V1Kind::MpiJob => match self.convert_mpi()? {
                Ok(objects) => objects,
                Err(reason) => return Ok((refused(self.name, self.kind_name, reason), LeftInTree::default())),
            },
            V1Kind::TfJob | V1Kind::PaddleJob => self.convert_roles()?,
            _ => self.convert_single_template()?,
        };
        self.report.mapped_derived("apiVersion", "apiVersion", ["now ", API_VERSION].concat());
        let kind_note = ["now TrainJob", &self.kind_note].concat();
        self.report.mapped_derived("kind", "kind", kind_note);
        for key in self.doc.keys() {
            match key.as_str() {
                "apiVersion" | "kind" | "metadata" | "spec" => {}
                "status" => {
                    self.report.dropped("status", "written by the controller; a new TrainJob starts without one")
                }
                _ => self.report.dropped(key.clone(), "not a field of a Kubernetes object"),
            }
        }
        for path in std::mem::take(&mut self.template_images) {
            let note = "the image holds an unrendered template variable (${...}): no image name has a $, so the \
                        pod cannot pull it; render the template (envsubst) first";
            if let Some(e) = self.report.entries.iter_mut().find(|e| e.from == path) {
                e.note = if e.note.is_empty() { note.into() } else { format!("{}; {note}", e.note) };
            }
        }
        let lossy = self.report.is_lossy();
        // Kept until the report is written (by the widget, with every other document's): without
        // the room its growth left.
        self.report.entries.shrink_to_fit();
        // The generated runtime, when there is one, comes first: the TrainJob references it.
        crate::order::sort_by_key(&mut objects, |o| o["kind"] == "TrainJob");
        let written = Outcome::Written {
            name: self.name.clone(),
            kind: self.kind_name.into(),
            objects,
            report: self.report.entries,
            lossy,
        };
        Ok((written, self.left_in_tree))
    }
}

impl Conversion<'_> {
    /// The one bound on the pods, for every kind, before anything is built from a count: each
    /// replica type's count as the operator runs it (an absent one defaulted as v1.9 and
    /// mpi-operator default it) within int32, and all of them within what any cluster runs
    /// (explain's `MAX_PODS`, with explain's words). A TF_CONFIG lists every pod's address and a
    /// TrainJob's `numNodes` would ask for that many, so an int32 count is refused here, as
    /// explain and validate refuse it, not converted.
    fn bound_pods(&self) -> Result<(), Error> {
        let kind = self.source.kind();
        let mut pods: u64 = 0;
        for (rtype, replica) in &self.replicas {
            let count = replica.spec.replicas.unwrap_or_else(|| crate::explain::v1::default_replicas(kind, rtype));
            pods += u64::from(count_in_range(format_args!("{}.replicas", replica.path), u64::from(count), 0)?);
        }
        if pods > crate::explain::MAX_PODS {
            return Err(Error::TooManyPods(pods));
        }
        Ok(())
    }

    /// Fields of a replica spec or its pod template that the V1 CRD does not declare. `kubectl
    /// apply` (strict field validation, its default) is refused for them, in explain's words
    /// (explain::v1::unknown_fields, which cites the facts); only with `--validate=warn` or
    /// `ignore` does the API server prune them and create the job (the CRDs are structural,
    /// nothing there preserves unknown fields). Either way the V1 pods never had them. `labels`
    /// written directly under `template` is the common case (a scheduler's queue label meant
    /// for `template.metadata.labels`).
    fn report_pruned_replica_fields(&mut self) {
        let mut pruned = Vec::new();
        for replica in self.replicas.values() {
            let Some(fields) = replica.raw.as_object() else { continue };
            for key in fields.keys().filter(|k| !matches!(k.as_str(), "replicas" | "template" | "restartPolicy")) {
                pruned.push((format!("{}.{key}", replica.path), "not a field of a replica spec".to_string()));
            }
            let Some(template) = fields.get("template").and_then(Value::as_object) else { continue };
            for key in template.keys().filter(|k| !matches!(k.as_str(), "metadata" | "spec")) {
                let why = match key.as_str() {
                    "labels" | "annotations" => format!(
                        "{key} directly under template are not pod {key}: they belong under template.metadata.{key}"
                    ),
                    _ => "not a field of a pod template".to_string(),
                };
                pruned.push((format!("{}.template.{key}", replica.path), why));
            }
        }
        let operator = match self.source {
            Source::V1(_) => crate::explain::v1::TRAINING_OPERATOR,
            Source::MpiV2beta1 => crate::explain::v1::MPI_OPERATOR,
        };
        for (path, why) in pruned {
            let refused = crate::explain::v1::unknown_field(operator, &path);
            self.report.dropped(
                path,
                format!(
                    "{why}; kubectl apply of the {} is refused (strict field validation, its default): {refused}; \
                     only --validate=warn or ignore prunes it and creates the job, so the V1 pods never had it either",
                    self.kind_name
                ),
            );
        }
    }

    /// The TrainJob, with the fields whose shape depends on the release (the pod settings'
    /// field, a named `numProcPerNode`) added to the model's output.
    fn trainjob_value(&mut self, metadata: ObjectMeta, mut spec: TrainJobSpec) -> Result<Value, Error> {
        // The labels and annotations (a quarter million fit in the input) are the V1 job's maps
        // (`Carried`), put into the tree after the model's members of metadata (a name and a
        // namespace: `trainjob_meta` sets no other), where the model would write them.
        let carried = std::mem::take(&mut self.carried);
        let maps = [("labels", carried.labels), ("annotations", carried.annotations)];
        // The trainer's args and env (a container can hold 200,000 of them) are written item by
        // item, each dropped from the model once written, not serialized as a copy beside it.
        // One empty item each holds their place, where the model writes them, until then.
        let lists = spec.trainer.as_mut().map(|t| {
            let args = std::mem::replace(&mut t.args, vec![String::new()]);
            let env = std::mem::replace(&mut t.env, vec![EnvVar::default()]);
            (args, env)
        });
        let mut job = to_value(&TrainJob { api_version: API_VERSION.into(), kind: "TrainJob".into(), metadata, spec })?;
        if let Some((args, env)) = lists {
            let Some(trainer) = job.get_mut("spec").and_then(|s| s.get_mut("trainer")).and_then(Value::as_object_mut)
            else {
                return Err(Error::Internal("the TrainJob's trainer was not written as a map".into()));
            };
            if let (true, Some(tree)) = (args.is_empty(), self.trainer_args_in_tree.take()) {
                // Its place kept, empty, for the caller to move the tree's list into.
                trainer.insert("args".into(), Value::Array(Vec::new()));
                self.left_in_tree.args = Some(tree_args::TrainerArgs { at: tree.at, rewritten: tree.rewritten });
            } else if args.is_empty() {
                trainer.shift_remove("args");
            } else {
                trainer.insert("args".into(), Value::Array(args.into_iter().map(Value::String).collect()));
            }
            // Read in the tree, the variables are there (its list is never empty), with the added
            // ones in the model.
            let in_tree = self.trainer_env_in_tree.take().map(|tree| tree.rewritten);
            match self.trainer_env_at.take() {
                _ if env.is_empty() && in_tree.is_none() => {
                    trainer.shift_remove("env");
                }
                // Its place kept, empty, for the caller to move the variables into from the tree.
                Some(at) if self.tree_given_up => {
                    trainer.insert("env".into(), Value::Array(Vec::new()));
                    self.left_in_tree.env = Some(moved_env::TrainerEnv { vars: env, at, in_tree });
                }
                _ => {
                    let env = env.into_iter().map(|v| to_value(&v)).collect::<Result<_, _>>()?;
                    trainer.insert("env".into(), Value::Array(env));
                }
            }
        }
        for (key, map) in maps.into_iter().filter(|(_, map)| !map.is_empty()) {
            let Some(meta) = job.get_mut("metadata").and_then(Value::as_object_mut) else {
                return Err(Error::Internal("the TrainJob's metadata was not written as a map".into()));
            };
            meta.insert(key.into(), Value::Object(map.into_owned()));
        }
        if let Some(name) = self.num_proc_name.take() {
            job["spec"]["trainer"]["numProcPerNode"] = Value::String(name);
        }
        if !self.pod_overrides.is_empty() {
            let entries = std::mem::take(&mut self.pod_overrides);
            job["spec"][self.release.pod_settings().field()] = Value::Array(entries);
        }
        Ok(job)
    }
}

/// The model of the replica spec `raw` at `path`, or the error it gives, at its path in the job.
fn read_replica(raw: &Value, path: &str) -> Result<ReplicaSpec, Error> {
    crate::model::tracked::deserialize(raw)
        .map_err(|e| Error::Field(crate::field_error::kubernetes(&format!("{path}.{}", e.path()), e.inner())))
}

fn framework_of(kind: V1Kind) -> explorer_data::catalog::Framework {
    use explorer_data::catalog::Framework;
    match kind {
        V1Kind::XgBoostJob => Framework::XgBoost,
        V1Kind::JaxJob => Framework::Jax,
        _ => Framework::PyTorch,
    }
}

fn known_spec_field(source: Source, key: &str) -> bool {
    match source.kind() {
        V1Kind::PyTorchJob => matches!(key, "runPolicy" | "nprocPerNode" | "elasticPolicy"),
        V1Kind::MpiJob => matches!(
            key,
            "runPolicy"
                | "slotsPerWorker"
                | "cleanPodPolicy"
                | "mainContainer"
                | "sshAuthMountPath"
                | "mpiImplementation"
                | "runLauncherAsWorker"
                | "launcherCreationPolicy"
        ),
        V1Kind::TfJob => matches!(key, "runPolicy" | "successPolicy" | "enableDynamicWorker"),
        V1Kind::PaddleJob => matches!(key, "runPolicy" | "elasticPolicy"),
        _ => key == "runPolicy",
    }
}

/// The container V1 trained in: the one with the kind's default name, else the first.
fn main_container(pod: &PodSpec, preferred: &str) -> usize {
    main_of(pod.containers.iter().map(|c| c.name.as_str()), preferred)
}

/// [`main_container`]'s rule over the containers' names in order, for the model and the job's
/// tree alike (`tree_args`).
fn main_of<'n>(names: impl IntoIterator<Item = &'n str>, preferred: &str) -> usize {
    names.into_iter().position(|name| name == preferred).unwrap_or(0)
}

fn mentions_deepspeed(c: &Container) -> bool {
    let hay =
        [c.image.clone().unwrap_or_default(), c.command.join(" "), c.args.join(" ")].join(" ").to_ascii_lowercase();
    hay.contains("deepspeed")
}

/// The migrator works on serde_json's tree (it is already in this module for parsing); the
/// models' own `model::Value` is what the widget's snippets use.
/// A serialization error refuses the document: it never becomes `null` or `{}` in the output.
fn to_value<T: serde::Serialize>(model: &T) -> Result<Value, Error> {
    serde_json::to_value(model).map_err(|e| Error::Internal(format!("an output object could not be serialized: {e}")))
}

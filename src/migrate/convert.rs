//! One V1 job to its V2 objects and report.

use super::report::Report;
use crate::catalog::V1Kind;
use crate::model::pod::{Container, PodSpec, Resources};
use crate::model::v1::ReplicaSpec;
use crate::model::v2::{RuntimeRef, TrainJob, TrainJobSpec, Trainer, TrainingRuntime, API_VERSION};
use crate::model::ObjectMeta;
use crate::selection::{RuntimeScope, Selection};
use crate::snippets::runtimes::{self, WEBHOOK_LABEL};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// Why pod settings went to a runtime patch, or to a generated runtime: the report says so.
const PATCH_WHY: &str = "kept on the TrainJob as a runtime patch: the built-in runtime stays shared";
const RUNTIME_WHY: &str = "a runtime patch cannot add containers or set this kind of field, so a TrainingRuntime \
     carrying the job's pod settings was generated";
const MPI_RUNTIME_WHY: &str =
    "no built-in plain-MPI runtime exists after v2.1, so the generated TrainingRuntime holds it";

/// The `manager` of the runtime patch the migrator writes.
pub const PATCH_MANAGER: &str = "trainer-v2-explorer/migrate";

/// Pod fields a TrainJob's runtime patch can set (PodSpecPatch, v2.3.0).
const PATCHABLE_POD: [&str; 9] = [
    "serviceAccountName",
    "volumes",
    "nodeSelector",
    "affinity",
    "tolerations",
    "imagePullSecrets",
    "securityContext",
    "schedulingGates",
    "terminationGracePeriodSeconds",
];
/// Container fields a patch can set (ContainerPatch; `env` on `node` goes through `trainer.env`).
const PATCHABLE_CONTAINER: [&str; 2] = ["volumeMounts", "securityContext"];
/// Container fields the TrainJob's `trainer` holds, or that V2 makes unnecessary.
const TRAINER_CONTAINER: [&str; 7] = ["name", "image", "command", "args", "env", "resources", "ports"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
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

/// What became of one input document.
#[derive(Clone, Debug)]
pub enum Outcome {
    Converted {
        name: String,
        kind: String,
        objects: Vec<Value>,
        report: Vec<super::report::Entry>,
        lossy: bool,
    },
    /// A Training Operator kind V2 cannot express (TFJob, PaddleJob; MPICH/Intel MPI).
    Refused {
        name: String,
        kind: String,
        reason: String,
    },
    /// Not a Training Operator job: kept as it was.
    PassedThrough {
        name: String,
        kind: String,
        object: Value,
    },
    Invalid {
        message: String,
    },
}

fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// Decides what to do with one parsed document.
pub fn convert(doc: &Value) -> Outcome {
    let Some(obj) = doc.as_object() else {
        return Outcome::Invalid {
            message: "not a Kubernetes object: expected a mapping with apiVersion and kind".into(),
        };
    };
    let (Some(api), Some(kind)) = (str_at(doc, "apiVersion"), str_at(doc, "kind")) else {
        return Outcome::Invalid { message: "not a Kubernetes object: apiVersion and kind must be strings".into() };
    };
    let name = doc.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("").to_string();
    let source = match (api, kind) {
        ("kubeflow.org/v1", _) => match V1Kind::from_kind(kind) {
            Some(k @ (V1Kind::TfJob | V1Kind::PaddleJob)) => {
                return Outcome::Refused { name, kind: kind.into(), reason: unsupported_reason(k) };
            }
            Some(k) => Source::V1(k),
            None => return Outcome::PassedThrough { name, kind: kind.into(), object: doc.clone() },
        },
        ("kubeflow.org/v2beta1", "MPIJob") => {
            let imp = doc.pointer("/spec/mpiImplementation").and_then(Value::as_str).unwrap_or("OpenMPI");
            if imp != "OpenMPI" {
                return Outcome::Refused {
                    name,
                    kind: kind.into(),
                    reason: format!(
                        "mpiImplementation {imp}: Trainer v2.3.0 runs only OpenMPI (IntelMPI is on the roadmap, trainer#1807). \
                         Keep this MPIJob on the MPI Operator, or rebuild the image with OpenMPI."
                    ),
                };
            }
            Source::MpiV2beta1
        }
        _ => return Outcome::PassedThrough { name, kind: kind.into(), object: doc.clone() },
    };
    match Conversion::new(obj, source, kind).and_then(Conversion::run) {
        Ok(outcome) => outcome,
        Err(message) => Outcome::Invalid { message: format!("{kind} {name}: {message}") },
    }
}

fn unsupported_reason(kind: V1Kind) -> String {
    let (what, why) = match kind {
        V1Kind::TfJob => ("TensorFlow", "Parameter-server topologies (Chief, PS, Evaluator) have no V2 form either. "),
        _ => ("PaddlePaddle", ""),
    };
    format!(
        "Trainer v2.3.0 has no {what} runtime or mlPolicy. {why}Keep this {} on Training Operator v1.9, \
         or port the training code to PyTorch or JAX and use torch-distributed or jax-distributed.",
        kind.kind()
    )
}

struct Replica {
    spec: ReplicaSpec,
    /// The replica's original value, for reporting every field it had.
    raw: Value,
    path: String,
}

struct Conversion<'a> {
    doc: &'a Map<String, Value>,
    source: Source,
    kind_name: &'a str,
    name: String,
    meta: ObjectMeta,
    replicas: BTreeMap<String, Replica>,
    report: Report,
}

impl<'a> Conversion<'a> {
    fn new(doc: &'a Map<String, Value>, source: Source, kind_name: &'a str) -> Result<Self, String> {
        let meta: ObjectMeta = match doc.get("metadata") {
            Some(m) => serde_path_to_error::deserialize(m).map_err(|e| format!("metadata.{e}"))?,
            None => return Err("metadata is missing".into()),
        };
        let name = meta.name.clone().filter(|n| !n.is_empty()).ok_or("metadata.name is missing")?;
        let spec = doc.get("spec").and_then(Value::as_object).ok_or("spec is missing or not a mapping")?;
        let field = source.kind().replica_specs_field();
        let specs = spec
            .get(field)
            .and_then(Value::as_object)
            .ok_or(format!("spec.{field} is missing: a {kind_name} needs its replica specs"))?;
        let mut replicas = BTreeMap::new();
        for (rtype, raw) in specs {
            let path = format!("spec.{field}.{rtype}");
            let spec: ReplicaSpec = serde_path_to_error::deserialize(raw).map_err(|e| format!("{path}.{e}"))?;
            if spec.template.spec.containers.is_empty() {
                return Err(format!("{path}.template.spec.containers is empty"));
            }
            replicas.insert(rtype.clone(), Replica { spec, raw: raw.clone(), path });
        }
        Ok(Conversion { doc, source, kind_name, name, meta, replicas, report: Report::default() })
    }

    fn spec(&self) -> &Map<String, Value> {
        self.doc.get("spec").and_then(Value::as_object).expect("checked in new")
    }

    fn replica(&self, rtype: &str) -> Option<&Replica> {
        self.replicas.get(rtype)
    }

    fn require(&self, rtype: &str) -> Result<&Replica, String> {
        self.replica(rtype).ok_or(format!(
            "spec.{}.{rtype} is missing: a {} needs a {rtype} replica",
            self.source.kind().replica_specs_field(),
            self.kind_name
        ))
    }

    fn run(mut self) -> Result<Outcome, String> {
        let kind = self.source.kind();
        let keys: Vec<String> = self.spec().keys().cloned().collect();
        for key in keys {
            if key != kind.replica_specs_field() && !known_spec_field(self.source, &key) {
                self.report.dropped(format!("spec.{key}"), format!("not a {} field", self.kind_name));
            }
        }
        let mut objects = match kind {
            V1Kind::MpiJob => self.convert_mpi()?,
            _ => self.convert_single_template()?,
        };
        self.report.mapped("apiVersion", "apiVersion", format!("now {API_VERSION}"));
        self.report.mapped("kind", "kind", "now TrainJob");
        let mut source = Value::Object(self.doc.clone());
        if let Some(obj) = source.as_object_mut() {
            obj.remove("status");
        }
        self.report.account_for(&source);
        let lossy = self.report.is_lossy();
        // The generated runtime, when there is one, comes first: the TrainJob references it.
        objects.sort_by_key(|o| o["kind"] == "TrainJob");
        Ok(Outcome::Converted {
            name: self.name.clone(),
            kind: self.kind_name.into(),
            objects,
            report: self.report.entries,
            lossy,
        })
    }

    /// The TrainJob's metadata: name (made a valid RFC 1035 label if needed), namespace,
    /// labels (the Kueue queue label stays a label) and annotations.
    fn trainjob_meta(&mut self) -> ObjectMeta {
        let mut meta = ObjectMeta::named(&rfc1035(&self.name));
        if meta.name.as_deref() != Some(self.name.as_str()) {
            self.report.mapped(
                "metadata.name",
                "metadata.name",
                format!("renamed to {}: TrainJob names must be RFC 1035 labels", meta.name.clone().unwrap_or_default()),
            );
        } else {
            self.report.mapped("metadata.name", "metadata.name", "");
        }
        if let Some(ns) = &self.meta.namespace {
            meta.namespace = Some(ns.clone());
            self.report.mapped("metadata.namespace", "metadata.namespace", "");
        }
        meta.labels = self.meta.labels.clone();
        for key in self.meta.labels.keys() {
            let note = if key == "kueue.x-k8s.io/queue-name" { "Kueue reads the same label on a TrainJob" } else { "" };
            self.report.mapped(format!("metadata.labels.{key}"), format!("metadata.labels.{key}"), note);
        }
        meta.annotations = self.meta.annotations.clone();
        if !self.meta.annotations.is_empty() {
            self.report.mapped("metadata.annotations", "metadata.annotations", "");
        }
        for key in self.meta.extra.keys() {
            self.report.dropped(format!("metadata.{key}"), "set by the API server; not carried over");
        }
        meta
    }

    /// runPolicy fields that have a V2 home go to the TrainJob; the rest are reported.
    fn run_policy(&mut self, spec: &mut TrainJobSpec) {
        let base = "spec.runPolicy";
        let Some(policy) = self.spec().get("runPolicy").and_then(Value::as_object).cloned() else { return };
        for (key, value) in policy {
            let path = format!("{base}.{key}");
            match key.as_str() {
                "activeDeadlineSeconds" => match value.as_i64().filter(|n| *n >= 1) {
                    Some(n) => {
                        spec.active_deadline_seconds = Some(n);
                        self.report.mapped(path, "spec.activeDeadlineSeconds", "");
                    }
                    None => self.report.dropped(path, "not a positive integer"),
                },
                "suspend" => match value.as_bool() {
                    Some(b) => {
                        spec.suspend = Some(b);
                        self.report.mapped(path, "spec.suspend", "");
                    }
                    None => self.report.dropped(path, "not a boolean"),
                },
                "cleanPodPolicy" => self.report.dropped(path, "runPolicy.cleanPodPolicy has no V2 field"),
                "ttlSecondsAfterFinished" => {
                    self.report.dropped(path, "TrainJob has no TTL in v2.3.0 (proposed in KEP-2899)")
                }
                "backoffLimit" => self.report.dropped(
                    path,
                    "retries belong to the runtime: its Job backoffLimit and JobSet failurePolicy.maxRestarts",
                ),
                "schedulingPolicy" => self
                    .report
                    .dropped(path, "gang scheduling belongs to the runtime's podGroupPolicy (coscheduling or volcano)"),
                "managedBy" if value == "kueue.x-k8s.io/multikueue" => self.report.dropped(
                    path,
                    "set spec.managedBy: kueue.x-k8s.io/multikueue on the TrainJob if you use MultiKueue",
                ),
                _ => self.report.dropped(path, "no V2 field"),
            }
        }
    }

    /// PyTorchJob, XGBoostJob, JAXJob: one pod template for every node.
    fn convert_single_template(&mut self) -> Result<Vec<Value>, String> {
        let kind = self.source.kind();
        let (trainer_type, nodes) = match kind {
            V1Kind::JaxJob => {
                let w = self.require("Worker")?;
                ("Worker", w.spec.replicas.unwrap_or(1))
            }
            _ => {
                let master = self.replica("Master").map(|m| m.spec.replicas.unwrap_or(1));
                let workers = self.replica("Worker").map(|w| w.spec.replicas.unwrap_or(1));
                if master.is_none() && workers.is_none() {
                    return Err(format!("spec.{} has neither Master nor Worker", kind.replica_specs_field()));
                }
                (if master.is_some() { "Master" } else { "Worker" }, master.unwrap_or(0) + workers.unwrap_or(0))
            }
        };
        let allowed: &[&str] = if kind == V1Kind::JaxJob { &["Worker"] } else { &["Master", "Worker"] };
        let others: Vec<String> = self.replicas.keys().filter(|k| !allowed.contains(&k.as_str())).cloned().collect();
        for other in others {
            let path = self.replicas[&other].path.clone();
            self.report.dropped(path, format!("{other} is not a {} replica type", self.kind_name));
        }

        let runtime_name = match kind {
            V1Kind::PyTorchJob => "torch-distributed",
            V1Kind::XgBoostJob => "xgboost-distributed",
            _ => "jax-distributed",
        };
        let meta = self.trainjob_meta();
        let mut spec = TrainJobSpec {
            runtime_ref: RuntimeRef { name: runtime_name.into(), api_group: None, kind: None },
            ..Default::default()
        };
        self.run_policy(&mut spec);

        let trainer_rep = &self.replicas[trainer_type];
        let (trainer_path, main_idx) =
            (trainer_rep.path.clone(), main_container(&trainer_rep.spec.template.spec, kind.container_name()));
        let main = trainer_rep.spec.template.spec.containers[main_idx].clone();
        let main_path = format!("{trainer_path}.template.spec.containers[{main_idx}]");
        let mut trainer = self.trainer_from(&main, &main_path);
        trainer.num_nodes = Some(nodes);
        self.report_topology(kind, nodes);

        // Resources: the Worker's when there are Workers (most nodes are Workers), else the Master's.
        let res_type = if self.replica("Worker").is_some() { "Worker" } else { trainer_type };
        let res_rep = &self.replicas[res_type];
        let res_idx = main_container(&res_rep.spec.template.spec, kind.container_name());
        let res_path = format!("{}.template.spec.containers[{res_idx}].resources", res_rep.path);
        if let Some(r) = res_rep.spec.template.spec.containers[res_idx].resources.clone() {
            self.map_resources(r, &res_path, &mut trainer);
        }

        self.procs_per_node(&mut trainer);
        self.elastic_policy();

        // The restart policy of each replica.
        for rtype in allowed {
            let Some(rep) = self.replica(rtype) else { continue };
            let (base, policy, has_replicas) =
                (rep.path.clone(), rep.spec.restart_policy.clone(), rep.raw.get("replicas").is_some());
            if let Some(p) = policy {
                self.report_restart_policy(format!("{base}.restartPolicy"), &p);
            }
            if has_replicas {
                self.report.mapped(
                    format!("{base}.replicas"),
                    "spec.trainer.numNodes",
                    format!("{nodes} nodes in total"),
                );
            }
        }

        // The non-trainer replica: fields equal to the trainer's are covered; differences are lost.
        if trainer_type == "Master" {
            if let Some(worker) = self.replica("Worker") {
                let (wpath, wspec, mspec) =
                    (worker.path.clone(), worker.spec.template.clone(), self.replicas["Master"].spec.template.clone());
                self.report_asymmetry(&wpath, &wspec, &mspec, kind.container_name());
            }
        }

        let pod = self.replicas[trainer_type].spec.template.clone();
        let settings = PodSettings::collect(&pod, main_idx, &format!("{trainer_path}.template"));
        let base =
            runtimes::runtime_for(&Selection::new(crate::catalog::Persona::PlatformEngineer, framework_of(kind)))
                .ok_or("no runtime")?;
        let mut objects = Vec::new();
        self.place_pod_settings(&[("node", &settings)], &base, &mut spec, &mut objects, &meta);
        trainer.command = main.command.clone();
        spec.trainer = Some(trainer);
        objects.push(trainjob_value(meta, spec));
        Ok(objects)
    }

    /// image, command, args and env of the main container go to `spec.trainer`.
    fn trainer_from(&mut self, main: &Container, path: &str) -> Trainer {
        let mut t =
            Trainer { image: main.image.clone(), args: main.args.clone(), env: main.env.clone(), ..Default::default() };
        if main.image.is_some() {
            self.report.mapped(format!("{path}.image"), "spec.trainer.image", "");
        }
        if !main.command.is_empty() {
            t.command = main.command.clone();
            self.report.mapped(format!("{path}.command"), "spec.trainer.command", "");
        }
        if !main.args.is_empty() {
            self.report.mapped(format!("{path}.args"), "spec.trainer.args", "");
        }
        if !main.env.is_empty() {
            self.report.mapped(format!("{path}.env"), "spec.trainer.env", "");
        }
        self.report.mapped(
            format!("{path}.name"),
            "replicatedJobs[node] container node",
            "V2 runtimes name the trainer container node",
        );
        if main.image_pull_policy.is_some() {
            self.report.dropped(
                format!("{path}.imagePullPolicy"),
                "no TrainJob field or runtime patch holds it: the runtime's pull policy applies",
            );
        }
        if !main.ports.is_empty() {
            self.report.dropped(format!("{path}.ports"), "the runtime's plugin sets up the rendezvous port (29500)");
        }
        t
    }

    /// Requests and limits become `resourcesPerNode`; anything else under `resources` is reported.
    fn map_resources(&mut self, mut r: Resources, path: &str, trainer: &mut Trainer) {
        for key in std::mem::take(&mut r.extra).keys() {
            if key == "claims" {
                self.report
                    .dropped(format!("{path}.claims"), "dynamic resource claims belong to the runtime's pod template");
            } else {
                self.report.dropped(format!("{path}.{key}"), "not a ResourceRequirements field");
            }
        }
        if !r.is_empty() {
            trainer.resources_per_node = Some(r);
            self.report.mapped(path, "spec.trainer.resourcesPerNode", "");
        }
    }

    fn report_topology(&mut self, kind: V1Kind, nodes: u32) {
        if kind != V1Kind::JaxJob {
            let field = kind.replica_specs_field();
            for rtype in ["Master", "Worker"] {
                if self.replica(rtype).is_some() {
                    self.report.mapped_node(
                        format!("spec.{field}.{rtype}"),
                        "spec.trainer.numNodes",
                        format!("Master and Workers become {nodes} identical nodes; node 0 coordinates"),
                    );
                }
            }
        }
    }

    fn report_restart_policy(&mut self, path: String, policy: &str) {
        if policy == "ExitCode" {
            self.report.dropped(
                path,
                "ExitCode restarted pods on retryable exit codes (128 and above) and failed on others. In V2 this is \
                 a Job podFailurePolicy in the runtime (FailJob onExitCodes for the permanent codes), with JobSet \
                 failurePolicy.maxRestarts for the retries",
            );
        } else {
            self.report.dropped(
                path,
                format!(
                    "restartPolicy {policy}: retries belong to the runtime (Job backoffLimit, JobSet failurePolicy)"
                ),
            );
        }
    }

    fn procs_per_node(&mut self, trainer: &mut Trainer) {
        let Some(v) = self.spec().get("nprocPerNode").cloned() else { return };
        let path = "spec.nprocPerNode";
        let text = match &v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => String::new(),
        };
        match text.parse::<u32>() {
            Ok(n) if n >= 1 => {
                trainer.num_proc_per_node = Some(n);
                self.report.mapped(path, "spec.trainer.numProcPerNode", "");
            }
            _ if text == "auto" => self.report.dropped(path, "auto is the default: one process per GPU, or per CPU"),
            _ => self.report.dropped(
                path,
                format!("{text:?}: since v2.2 numProcPerNode is a number; the runtime uses the GPU count, or the CPU count without GPUs"),
            ),
        }
    }

    fn elastic_policy(&mut self) {
        if self.spec().contains_key("elasticPolicy") {
            self.report.dropped(
                "spec.elasticPolicy",
                "elastic PyTorch is not supported in V2 (a redesign is tracked in trainer#2903); the job runs on a fixed numNodes",
            );
        }
    }

    fn report_asymmetry(
        &mut self,
        wpath: &str,
        worker: &crate::model::pod::PodTemplateSpec,
        master: &crate::model::pod::PodTemplateSpec,
        cname: &str,
    ) {
        let wv = to_value(worker);
        let mv = to_value(master);
        let wi = main_container(&worker.spec, cname);
        let mi = main_container(&master.spec, cname);
        let (wc, mc) = (&wv["spec"]["containers"][wi], &mv["spec"]["containers"][mi]);
        if let Some(fields) = wc.as_object() {
            for (k, v) in fields {
                if k == "resources" {
                    continue; // taken from the Worker above
                }
                let path = format!("{wpath}.template.spec.containers[{wi}].{k}");
                if mc.get(k) == Some(v) {
                    self.report.mapped(path, "one template for every node", "same as the Master's");
                } else {
                    self.report
                        .dropped(path, format!("Master/Worker asymmetry is lost: every V2 node uses the Master's {k}"));
                }
            }
        }
        let others = [("spec", &wv["spec"], &mv["spec"]), ("metadata", &wv["metadata"], &mv["metadata"])];
        for (part, w, m) in others {
            if let Some(fields) = w.as_object() {
                for (k, v) in fields {
                    if part == "spec" && k == "containers" {
                        continue;
                    }
                    let path = format!("{wpath}.template.{part}.{k}");
                    if m.get(k) == Some(v) {
                        self.report.mapped(path, "one template for every node", "same as the Master's");
                    } else {
                        self.report.dropped(
                            path,
                            format!("Master/Worker asymmetry is lost: every V2 node uses the Master's {k}"),
                        );
                    }
                }
            }
        }
    }

    /// MPIJob (v1 or v2beta1): launcher + workers.
    fn convert_mpi(&mut self) -> Result<Vec<Value>, String> {
        let launcher = self.require("Launcher")?;
        let worker = self.require("Worker")?;
        let preferred = "mpi";
        let li = main_container(&launcher.spec.template.spec, preferred);
        let wi = main_container(&worker.spec.template.spec, preferred);
        let (lpath, wpath) = (launcher.path.clone(), worker.path.clone());
        let lmain = launcher.spec.template.spec.containers[li].clone();
        let wmain = worker.spec.template.spec.containers[wi].clone();
        let workers = worker.spec.replicas.unwrap_or(1);

        if self.spec().contains_key("mpiImplementation") {
            // Anything but OpenMPI was refused in `convert`.
            self.report.mapped("spec.mpiImplementation", "mlPolicy.mpi.mpiImplementation", "");
        }
        let deepspeed = [&lmain, &wmain].iter().any(|c| mentions_deepspeed(c));
        let meta = self.trainjob_meta();
        let mut spec = TrainJobSpec::default();
        self.run_policy(&mut spec);
        for (rtype, path) in [("Launcher", &lpath), ("Worker", &wpath)] {
            if let Some(p) = self.replicas[rtype].spec.restart_policy.clone() {
                self.report_restart_policy(format!("{path}.restartPolicy"), &p);
            }
        }
        let lmain_path = format!("{lpath}.template.spec.containers[{li}]");
        let wmain_path = format!("{wpath}.template.spec.containers[{wi}]");
        let mut trainer = self.trainer_from(&lmain, &lmain_path);
        trainer.command = lmain.command.clone();
        if let Some(r) = wmain.resources.clone() {
            self.map_resources(r, &format!("{wmain_path}.resources"), &mut trainer);
        }
        let slots = self.spec().get("slotsPerWorker").and_then(Value::as_u64).map(|n| n as u32);
        let mut objects = Vec::new();

        if deepspeed {
            // DeepSpeed over MPI: the built-in runtime. Its launcher is also a rank
            // (runLauncherAsNode), so numNodes = workers keeps the number of hosts.
            spec.runtime_ref = RuntimeRef { name: "deepspeed-distributed".into(), api_group: None, kind: None };
            trainer.num_nodes = Some(workers);
            self.report.mapped(
                format!("{wpath}.replicas"),
                "spec.trainer.numNodes",
                format!("{workers} hosts: deepspeed-distributed runs the launcher as one of them"),
            );
            self.report.mapped_node(lpath.clone(), "replicatedJobs[launcher]", "");
            self.report.mapped_node(wpath.clone(), "replicatedJobs[node]", "");
            if let Some(n) = slots {
                trainer.num_proc_per_node = Some(n);
                self.report.mapped("spec.slotsPerWorker", "spec.trainer.numProcPerNode", "");
            }
            // The runtime's node pods keep their own image and sshd; the Worker's are reported.
            if wmain.image != lmain.image {
                self.report.dropped(
                    format!("{wmain_path}.image"),
                    "the runtime's node pods run its own image with sshd; trainer.image sets the trainer step's",
                );
            }
            if !wmain.command.is_empty() {
                self.report.dropped(format!("{wmain_path}.command"), "the runtime's node pods run sshd");
            }
            if !wmain.args.is_empty() {
                self.report.dropped(format!("{wmain_path}.args"), "the runtime's node pods run sshd");
            }
            self.report.mapped(format!("{wmain_path}.name"), "replicatedJobs[node] container node", "");
            if lmain.resources.as_ref().is_some_and(|r| !r.is_empty()) {
                self.report.dropped(
                    format!("{lmain_path}.resources"),
                    "the launcher is a training node in deepspeed-distributed and gets resourcesPerNode",
                );
            }
            let base = runtimes::runtime_for(&Selection::new(
                crate::catalog::Persona::PlatformEngineer,
                crate::catalog::Framework::DeepSpeed,
            ))
            .ok_or("no runtime")?;
            let lpod = self.replicas["Launcher"].spec.template.clone();
            let wpod = self.replicas["Worker"].spec.template.clone();
            let lset = PodSettings::collect(&lpod, li, &format!("{lpath}.template"));
            let wset = PodSettings::collect(&wpod, wi, &format!("{wpath}.template"));
            self.place_pod_settings(&[("launcher", &lset), ("node", &wset)], &base, &mut spec, &mut objects, &meta);
        } else {
            // Plain MPI: no built-in runtime after v2.1, so generate one with mlPolicy.mpi.
            let rt = self.generated_mpi_runtime(&meta, &lmain, &wmain, &lmain_path, &wmain_path, workers, slots)?;
            spec.runtime_ref = reference_to(&rt);
            trainer.num_nodes = Some(workers);
            let mut rt = rt;
            let lpod = self.replicas["Launcher"].spec.template.clone();
            let wpod = self.replicas["Worker"].spec.template.clone();
            let lset = PodSettings::collect(&lpod, li, &format!("{lpath}.template"));
            let wset = PodSettings::collect(&wpod, wi, &format!("{wpath}.template"));
            self.embed(&lset, "launcher", &mut rt, MPI_RUNTIME_WHY);
            self.embed(&wset, "node", &mut rt, MPI_RUNTIME_WHY);
            objects.push(to_value(&rt));
        }
        for key in ["cleanPodPolicy"] {
            if self.spec().contains_key(key) {
                self.report.dropped(format!("spec.{key}"), "no V2 field");
            }
        }
        if self.spec().contains_key("mainContainer") {
            self.report.mapped("spec.mainContainer", "container node", "used to find the MPI container");
        }
        spec.trainer = Some(trainer);
        objects.push(trainjob_value(meta, spec));
        Ok(objects)
    }

    #[allow(clippy::too_many_arguments)]
    fn generated_mpi_runtime(
        &mut self,
        meta: &ObjectMeta,
        lmain: &Container,
        wmain: &Container,
        lpath: &str,
        wpath: &str,
        workers: u32,
        slots: Option<u32>,
    ) -> Result<TrainingRuntime, String> {
        let v2beta1 = self.source == Source::MpiV2beta1;
        let mut rt = runtimes::runtime_for(&Selection::new(
            crate::catalog::Persona::PlatformEngineer,
            crate::catalog::Framework::Mpi,
        ))
        .ok_or("no runtime")?;
        rt.kind = RuntimeScope::Namespaced.kind().into();
        rt.metadata.name = Some(format!("{}-mpi", meta.name.clone().unwrap_or_default()));
        rt.metadata.namespace = meta.namespace.clone();
        rt.metadata.labels.remove(WEBHOOK_LABEL);
        let policy = rt.spec.ml_policy.as_mut().and_then(|p| p.mpi.as_mut()).ok_or("no mpi policy")?;
        policy.num_proc_per_node = Some(slots.unwrap_or(1));
        if slots.is_some() {
            self.report.moved("spec.slotsPerWorker", "TrainingRuntime mlPolicy.mpi.numProcPerNode", "");
        }
        let ssh = self.spec().get("sshAuthMountPath").and_then(Value::as_str).map(String::from);
        // v1 MPIJob images ran as root; the MPI Operator's default mount is /root/.ssh too.
        policy.ssh_auth_mount_path = Some(ssh.clone().unwrap_or_else(|| "/root/.ssh".into()));
        if ssh.is_some() {
            self.report.moved("spec.sshAuthMountPath", "TrainingRuntime mlPolicy.mpi.sshAuthMountPath", "");
        }
        let as_worker = self.spec().get("runLauncherAsWorker").and_then(Value::as_bool).unwrap_or(false);
        policy.run_launcher_as_node = Some(as_worker);
        if self.spec().contains_key("runLauncherAsWorker") {
            self.report.moved("spec.runLauncherAsWorker", "TrainingRuntime mlPolicy.mpi.runLauncherAsNode", "");
        }
        if self.spec().contains_key("launcherCreationPolicy") {
            self.report.dropped("spec.launcherCreationPolicy", "V2 launchers always wait for the nodes to be ready");
        }
        let (node, launcher) = {
            let jobs = &mut rt.spec.template.spec.replicated_jobs;
            let node = jobs.iter().position(|j| j.name == "node").ok_or("no node job")?;
            let launcher = jobs.iter().position(|j| j.name == "launcher").ok_or("no launcher job")?;
            (node, launcher)
        };
        let jobs = &mut rt.spec.template.spec.replicated_jobs;
        // The node pods: the Worker's image; with v2beta1 also its sshd command and user.
        let nc = &mut jobs[node].template.spec.template.spec.containers[0];
        nc.image = wmain.image.clone();
        self.report.moved(
            format!("{wpath}.image"),
            format!("TrainingRuntime {} node image", rt.metadata.name.clone().unwrap_or_default()),
            "",
        );
        self.report.mapped(format!("{wpath}.name"), "replicatedJobs[node] container node", "");
        let wrep = self.replicas["Worker"].path.clone();
        self.report.mapped_node(wrep, "replicatedJobs[node]", format!("{workers} workers"));
        if v2beta1 && !wmain.command.is_empty() {
            nc.command = wmain.command.clone();
            nc.args = wmain.args.clone();
            nc.readiness_probe = None;
            self.report.moved(format!("{wpath}.command"), "TrainingRuntime node command", "");
            if !wmain.args.is_empty() {
                self.report.moved(format!("{wpath}.args"), "TrainingRuntime node args", "");
            }
        } else {
            // Training Operator V1 reached workers through kubectl exec; V2 uses SSH.
            nc.command = vec!["/usr/sbin/sshd".into()];
            nc.args = vec!["-De".into()];
            nc.readiness_probe = None;
            nc.security_context = None;
            self.report.dropped(
                format!("{wpath}.image"),
                "check this image runs an SSH server: Training Operator V1 reached workers with kubectl exec, V2 over SSH (the generated runtime starts /usr/sbin/sshd -De)",
            );
        }
        if wmain.security_context.is_some() {
            nc.security_context = wmain.security_context.clone();
        }
        let lc = &mut jobs[launcher].template.spec.template.spec.containers[0];
        lc.image = lmain.image.clone();
        lc.resources = lmain.resources.clone();
        if lmain.security_context.is_some() {
            lc.security_context = lmain.security_context.clone();
        } else if !v2beta1 {
            lc.security_context = None;
        }
        if lmain.resources.as_ref().is_some_and(|r| !r.is_empty()) {
            self.report.moved(format!("{lpath}.resources"), "TrainingRuntime launcher resources", "");
        }
        let lrep = self.replicas["Launcher"].path.clone();
        self.report.mapped_node(lrep, "replicatedJobs[launcher]", "");
        if !v2beta1 {
            // Root images: drop the uid 1000 pod settings the template carries.
            for j in jobs.iter_mut() {
                j.template.spec.template.spec.security_context = None;
                j.template.spec.template.spec.containers[0].security_context = None;
            }
            if let Some(sc) = &wmain.security_context {
                jobs[node].template.spec.template.spec.containers[0].security_context = Some(sc.clone());
            }
            if let Some(sc) = &lmain.security_context {
                jobs[launcher].template.spec.template.spec.containers[0].security_context = Some(sc.clone());
            }
        }
        let wrep = self.replicas["Worker"].path.clone();
        self.report.mapped(
            format!("{wrep}.replicas"),
            "spec.trainer.numNodes",
            format!("{workers} worker nodes; the launcher runs separately"),
        );
        let lrep = self.replicas["Launcher"].path.clone();
        self.report.mapped(format!("{lrep}.replicas"), "replicatedJobs[launcher]", "one launcher");
        Ok(rt)
    }

    /// Puts pod-level settings where V2 keeps them: a runtime patch on the TrainJob when every
    /// setting fits one, else a generated TrainingRuntime that carries them.
    /// Puts the pod-level settings of each replicated job where V2 keeps them: one runtime patch
    /// on the TrainJob when every setting fits one, else a generated TrainingRuntime that carries
    /// them all (the TrainJob then references it).
    fn place_pod_settings(
        &mut self,
        jobs: &[(&str, &PodSettings)],
        base: &TrainingRuntime,
        spec: &mut TrainJobSpec,
        objects: &mut Vec<Value>,
        meta: &ObjectMeta,
    ) {
        if jobs.iter().all(|(_, s)| s.is_empty()) {
            return;
        }
        if jobs.iter().all(|(_, s)| s.fits_patch()) {
            let patch = self.patch_for(jobs);
            spec.runtime_patches.push((&patch).into());
            return;
        }
        let mut rt = self.copy_runtime(base, meta);
        for (job, settings) in jobs {
            self.embed(settings, job, &mut rt, RUNTIME_WHY);
        }
        spec.runtime_ref = reference_to(&rt);
        objects.push(to_value(&rt));
    }

    fn copy_runtime(&mut self, base: &TrainingRuntime, meta: &ObjectMeta) -> TrainingRuntime {
        let mut rt = base.clone();
        rt.kind = RuntimeScope::Namespaced.kind().into();
        rt.metadata.name = Some(format!("{}-runtime", meta.name.clone().unwrap_or_default()));
        rt.metadata.namespace = meta.namespace.clone();
        rt.metadata.labels.remove(WEBHOOK_LABEL);
        rt
    }

    /// A RuntimePatch entry setting the pod settings of the named replicated jobs.
    fn patch_for(&mut self, jobs: &[(&str, &PodSettings)]) -> Value {
        let mut replicated = Vec::new();
        for (job, s) in jobs {
            if s.is_empty() {
                continue;
            }
            let mut pod = Map::new();
            for (k, (v, path)) in &s.pod_patchable {
                pod.insert(k.clone(), v.clone());
                self.report.moved(path.clone(), format!("runtimePatches[{PATCH_MANAGER}] {job} pod {k}"), PATCH_WHY);
            }
            let mut container = Map::new();
            for (k, (v, path)) in &s.container_patchable {
                container.insert(k.clone(), v.clone());
                self.report.moved(
                    path.clone(),
                    format!("runtimePatches[{PATCH_MANAGER}] {job} container node {k}"),
                    PATCH_WHY,
                );
            }
            if !container.is_empty() {
                container.insert("name".into(), json!("node"));
                pod.insert("containers".into(), json!([Value::Object(reorder_name_first(container))]));
            }
            let mut template = Map::new();
            if let Some((m, path)) = &s.metadata {
                template.insert("metadata".into(), m.clone());
                self.report.moved(
                    path.clone(),
                    format!("runtimePatches[{PATCH_MANAGER}] {job} pod metadata"),
                    PATCH_WHY,
                );
            }
            template.insert("spec".into(), Value::Object(pod));
            replicated.push(json!({"name": job, "template": {"spec": {"template": Value::Object(template)}}}));
        }
        json!({
            "manager": PATCH_MANAGER,
            "trainingRuntimeSpec": {"template": {"spec": {"replicatedJobs": replicated}}}
        })
    }

    /// Writes every setting into the named replicated job of a generated runtime.
    fn embed(&mut self, s: &PodSettings, job: &str, rt: &mut TrainingRuntime, why: &str) {
        let rt_name = rt.metadata.name.clone().unwrap_or_default();
        let Some(j) = rt.spec.template.spec.replicated_jobs.iter_mut().find(|j| j.name == job) else { return };
        let pod = &mut j.template.spec.template;
        let mut pod_value = to_value(&pod.spec);
        let target = format!("TrainingRuntime {rt_name} {job}");
        for (k, (v, path)) in s.pod_patchable.iter().chain(&s.pod_other) {
            pod_value[k] = v.clone();
            self.report.moved(path.clone(), format!("{target} pod {k}"), why);
        }
        for (k, (v, path)) in s.container_patchable.iter().chain(&s.container_other) {
            pod_value["containers"][0][k] = v.clone();
            self.report.moved(path.clone(), format!("{target} container node {k}"), why);
        }
        if !s.init_containers.is_empty() {
            let (v, path) = &s.init_containers[0];
            pod_value["initContainers"] = v.clone();
            self.report.moved(path.clone(), format!("{target} initContainers"), why);
        }
        if let Some(arr) = pod_value["containers"].as_array_mut() {
            for (v, path) in &s.sidecars {
                arr.push(v.clone());
                self.report.moved(
                    path.clone(),
                    format!("{target} containers"),
                    format!("sidecar kept beside node; {why}"),
                );
            }
        }
        if let Ok(spec) = serde_json::from_value::<PodSpec>(pod_value) {
            pod.spec = spec;
        }
        if let Some((m, path)) = &s.metadata {
            if let Ok(meta) = serde_json::from_value::<ObjectMeta>(m.clone()) {
                pod.metadata = Some(meta);
                self.report.moved(path.clone(), format!("{target} pod metadata"), why);
            }
        }
    }
}

/// The pod-level settings of one replica, sorted by where V2 can keep them.
#[derive(Default)]
struct PodSettings {
    pod_patchable: BTreeMap<String, (Value, String)>,
    pod_other: BTreeMap<String, (Value, String)>,
    container_patchable: BTreeMap<String, (Value, String)>,
    container_other: BTreeMap<String, (Value, String)>,
    init_containers: Vec<(Value, String)>,
    sidecars: Vec<(Value, String)>,
    metadata: Option<(Value, String)>,
}

impl PodSettings {
    fn collect(template: &crate::model::pod::PodTemplateSpec, main: usize, path: &str) -> PodSettings {
        let mut s = PodSettings::default();
        let v = to_value(template);
        if let Some(meta) = v.get("metadata").and_then(Value::as_object) {
            let kept: Map<String, Value> = meta
                .iter()
                .filter(|(k, _)| matches!(k.as_str(), "labels" | "annotations"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            if !kept.is_empty() {
                s.metadata = Some((Value::Object(kept), format!("{path}.metadata")));
            }
        }
        let Some(spec) = v.get("spec").and_then(Value::as_object) else { return s };
        for (k, val) in spec {
            let p = format!("{path}.spec.{k}");
            match k.as_str() {
                "containers" => {
                    for (i, c) in val.as_array().into_iter().flatten().enumerate() {
                        let cp = format!("{path}.spec.containers[{i}]");
                        if i != main {
                            s.sidecars.push((c.clone(), cp));
                            continue;
                        }
                        for (ck, cv) in c.as_object().into_iter().flatten() {
                            if TRAINER_CONTAINER.contains(&ck.as_str()) || ck == "imagePullPolicy" {
                                continue;
                            }
                            let target = if PATCHABLE_CONTAINER.contains(&ck.as_str()) {
                                &mut s.container_patchable
                            } else {
                                &mut s.container_other
                            };
                            target.insert(ck.clone(), (cv.clone(), format!("{cp}.{ck}")));
                        }
                    }
                }
                "initContainers" => s.init_containers.push((val.clone(), p)),
                "restartPolicy" => {}
                _ if PATCHABLE_POD.contains(&k.as_str()) => {
                    s.pod_patchable.insert(k.clone(), (val.clone(), p));
                }
                _ => {
                    s.pod_other.insert(k.clone(), (val.clone(), p));
                }
            }
        }
        s
    }

    fn is_empty(&self) -> bool {
        self.pod_patchable.is_empty()
            && self.pod_other.is_empty()
            && self.container_patchable.is_empty()
            && self.container_other.is_empty()
            && self.init_containers.is_empty()
            && self.sidecars.is_empty()
            && self.metadata.is_none()
    }

    /// Whether a TrainJob runtime patch can hold all of it (no sidecars, init containers or
    /// fields outside PodSpecPatch / ContainerPatch).
    fn fits_patch(&self) -> bool {
        self.pod_other.is_empty()
            && self.container_other.is_empty()
            && self.init_containers.is_empty()
            && self.sidecars.is_empty()
    }
}

fn trainjob_value(metadata: ObjectMeta, spec: TrainJobSpec) -> Value {
    to_value(&TrainJob { api_version: API_VERSION.into(), kind: "TrainJob".into(), metadata, spec })
}

/// A TrainJob's reference to a generated (namespaced) runtime.
fn reference_to(rt: &TrainingRuntime) -> RuntimeRef {
    RuntimeRef {
        name: rt.metadata.name.clone().unwrap_or_default(),
        api_group: None,
        kind: Some(RuntimeScope::Namespaced.kind().into()),
    }
}

fn reorder_name_first(mut m: Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(n) = m.remove("name") {
        out.insert("name".into(), n);
    }
    out.extend(m);
    out
}

fn framework_of(kind: V1Kind) -> crate::catalog::Framework {
    use crate::catalog::Framework;
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
        _ => key == "runPolicy",
    }
}

/// The container V1 trained in: the one with the kind's default name, else the first.
fn main_container(pod: &PodSpec, preferred: &str) -> usize {
    pod.containers.iter().position(|c| c.name == preferred).unwrap_or(0)
}

fn mentions_deepspeed(c: &Container) -> bool {
    let hay = [c.image.clone().unwrap_or_default(), c.command.join(" "), c.args.join(" ")].join(" ").to_lowercase();
    hay.contains("deepspeed")
}

/// A valid TrainJob name: RFC 1035 label, at most 63 characters.
fn rfc1035(name: &str) -> String {
    let mut s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    if !s.starts_with(|c: char| c.is_ascii_lowercase()) {
        s.insert_str(0, "job-");
    }
    s.truncate(63);
    while s.ends_with('-') {
        s.pop();
    }
    s
}

/// The migrator works on serde_json's tree (it is already in this module for parsing); the
/// models' own `model::Value` is what the widget's snippets use.
fn to_value<T: serde::Serialize>(model: &T) -> Value {
    serde_json::to_value(model).unwrap_or_default()
}

//! Where each item of "What Kubernetes runs" comes from: the field of the TrainJob or of the
//! runtime that produces it, as a YAML path, resolved to a line of the exact text the view shows
//! beside the items. The rules follow the pipeline (build.rs, plugins/, objects.rs): a value the
//! TrainJob sets points at the TrainJob, else at the runtime field it falls back to, else at the
//! runtime policy whose plugin injects it.

use super::build::{ANCESTOR_LABEL, ANCESTOR_TRAINER, DATASET_INITIALIZER, MODEL_INITIALIZER, NODE};
use super::plugins::Policy;
use super::{env_text, Input, Object, PodGroup};
use crate::model::pod::{Container, EnvVar, Resources};
use crate::model::v2::ReplicatedJob;
use crate::model::Value;
use crate::release_changes::Subject;
use crate::yaml::{Line, Path, PathSeg};
use explorer_data::releases::{Release, ResourcesPerNodeRule, TorchProcs};

/// Which document a source is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doc {
    TrainJob,
    Runtime,
}

impl Doc {
    /// The short name the view's markup uses (`data-src="t:12"`).
    pub fn id(self) -> &'static str {
        match self {
            Doc::TrainJob => "t",
            Doc::Runtime => "r",
        }
    }
}

/// A field of the TrainJob or runtime an item comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub doc: Doc,
    pub path: Path,
    /// The item shows this field's value as it is written (so a check can compare them).
    pub copies: bool,
}

fn keys(base: &[&str]) -> Path {
    base.iter().map(|k| PathSeg::Key((*k).to_string())).collect()
}

fn job(path: Path, copies: bool) -> Source {
    Source { doc: Doc::TrainJob, path, copies }
}

fn runtime(path: Path, copies: bool) -> Source {
    Source { doc: Doc::Runtime, path, copies }
}

/// `path` then more keys.
fn then(mut path: Path, more: &[&str]) -> Path {
    path.extend(keys(more));
    path
}

fn indexed(mut path: Path, i: usize) -> Path {
    path.push(PathSeg::Index(i));
    path
}

/// The YAML the view shows, one line list per document.
pub struct Shown {
    pub trainjob: Vec<Line>,
    pub runtime: Vec<Line>,
}

impl Shown {
    pub fn lines(&self, doc: Doc) -> &[Line] {
        match doc {
            Doc::TrainJob => &self.trainjob,
            Doc::Runtime => &self.runtime,
        }
    }

    /// The 1-based line of `source` in its document's text, if the text shows that field.
    pub fn line(&self, source: &Source) -> Option<usize> {
        self.lines(source.doc).iter().position(|l| l.path == source.path).map(|i| i + 1)
    }
}

/// The sources of the items of one explanation.
pub struct Origins<'a> {
    input: Input<'a>,
    release: Release,
    policy: Policy,
}

impl<'a> Origins<'a> {
    pub fn new(input: Input<'a>, release: Release) -> Origins<'a> {
        Origins { input, release, policy: Policy::of(input) }
    }

    fn rjobs(&self) -> &'a [ReplicatedJob] {
        &self.input.runtime.spec.template.spec.replicated_jobs
    }

    fn rjob_index(&self, name: &str) -> Option<usize> {
        self.rjobs().iter().position(|r| r.name == name)
    }

    fn ancestor(&self, rjob: &str) -> Option<&'a str> {
        let r = self.rjobs().iter().find(|r| r.name == rjob)?;
        r.template.metadata.as_ref()?.labels.get(ANCESTOR_LABEL).map(String::as_str)
    }

    /// `spec.template.spec.replicatedJobs[i]`.
    fn rjob_path(i: usize) -> Path {
        indexed(keys(&["spec", "template", "spec", "replicatedJobs"]), i)
    }

    /// The replicatedJob's `- name:` line.
    fn rjob_name(&self, rjob: &str) -> Option<Source> {
        Some(runtime(then(Self::rjob_path(self.rjob_index(rjob)?), &["name"]), true))
    }

    /// A container of the runtime's replicatedJob `rjob`: its path and the container.
    fn container(&self, rjob: &str, name: &str, init: bool) -> Option<(Path, &'a Container)> {
        let i = self.rjob_index(rjob)?;
        let spec = &self.rjobs()[i].template.spec.template.spec;
        let (key, list) =
            if init { ("initContainers", &spec.init_containers) } else { ("containers", &spec.containers) };
        let j = list.iter().position(|c| c.name == name)?;
        Some((indexed(then(Self::rjob_path(i), &["template", "spec", "template", "spec", key]), j), &list[j]))
    }

    /// The runtime's `spec.mlPolicy.<policy>` line: the plugin that injects the value.
    fn policy_line(&self, policy: &str) -> Source {
        runtime(keys(&["spec", "mlPolicy", policy]), false)
    }

    fn trainer(&self) -> Option<&'a crate::model::v2::Trainer> {
        self.input.job.spec.trainer.as_ref()
    }

    /// `numNodes`: the TrainJob's, else the runtime's `mlPolicy.numNodes`.
    fn num_nodes(&self, copies: bool) -> Option<Source> {
        if self.trainer().and_then(|t| t.num_nodes).is_some() {
            return Some(job(keys(&["spec", "trainer", "numNodes"]), copies));
        }
        let ml = self.input.runtime.spec.ml_policy.as_ref()?;
        ml.num_nodes.map(|_| runtime(keys(&["spec", "mlPolicy", "numNodes"]), copies))
    }

    /// The first resource named like `wanted` (a GPU, or `cpu`) in `first`, else `second`.
    fn resource(base: Path, res: &Resources, wanted: fn(&str) -> bool, first: &str) -> Option<Path> {
        let second = if first == "requests" { "limits" } else { "requests" };
        [first, second].into_iter().find_map(|list| {
            let map = if list == "requests" { &res.requests } else { &res.limits };
            let key = map.keys().find(|k| wanted(k))?;
            Some(then(base.clone(), &[list, key]))
        })
    }

    /// The resource a node's GPUs (or CPUs) come from, the way `resources_per_node` finds them:
    /// the TrainJob's `resourcesPerNode`, else the runtime's trainer `node` container; requests
    /// before limits, as `GetNumGPUPerNode` reads them.
    fn node_resource(&self, wanted: fn(&str) -> bool) -> Option<Source> {
        if let Some(res) = self.trainer().and_then(|t| t.resources_per_node.as_ref()) {
            let base = keys(&["spec", "trainer", "resourcesPerNode"]);
            return Self::resource(base, res, wanted, "requests").map(|p| job(p, true));
        }
        let rjob = self.rjobs().iter().find(|rj| {
            rj.name == NODE
                || rj.template.metadata.as_ref().and_then(|m| m.labels.get(ANCESTOR_LABEL)).map(String::as_str)
                    == Some(ANCESTOR_TRAINER)
        })?;
        let (path, c) = self.container(&rjob.name, NODE, false)?;
        let res = c.resources.as_ref()?;
        Self::resource(then(path, &["resources"]), res, wanted, "requests").map(|p| runtime(p, true))
    }

    fn gpu(&self) -> Option<Source> {
        self.node_resource(|k| k.to_ascii_lowercase().contains("gpu"))
    }

    fn cpu(&self) -> Option<Source> {
        self.node_resource(|k| k == "cpu")
    }

    /// `PET_NPROC_PER_NODE` (plugins/torch.rs `torch_procs`): the TrainJob's `numProcPerNode`; else
    /// `auto` from the GPUs; else the runtime's own `numProcPerNode` (v2.0-v2.1); else the CPUs.
    fn torch_procs(&self, value: &str) -> Vec<Source> {
        let requested = self.trainer().and_then(|t| t.num_proc_per_node);
        if requested.is_some_and(|n| n.to_string() == value) {
            return vec![job(keys(&["spec", "trainer", "numProcPerNode"]), true)];
        }
        // v2.0.1 (plugins/torch.rs `v2_0_procs`): the TrainJob's `resourcesPerNode` can overrule
        // its own `numProcPerNode` (an empty `requests` list gives 1).
        if self.release.controller.torch_procs == TorchProcs::TrainJobResources {
            if let Some(t) = self.trainer().filter(|t| t.resources_per_node.is_some()) {
                let mut out = vec![job(keys(&["spec", "trainer", "resourcesPerNode"]), false)];
                if t.num_proc_per_node.is_some() {
                    out.push(job(keys(&["spec", "trainer", "numProcPerNode"]), false));
                }
                return out;
            }
        }
        let runtime_field = self.release.declares(Subject::Runtime, "spec.mlPolicy.torch.numProcPerNode")
            && self
                .input
                .runtime
                .spec
                .ml_policy
                .as_ref()
                .and_then(|m| m.torch.as_ref())
                .is_some_and(|t| t.contains_key("numProcPerNode"));
        let runtime_procs = || runtime(keys(&["spec", "mlPolicy", "torch", "numProcPerNode"]), false);
        let from_resources = if value == "auto" { self.gpu() } else { self.cpu().or_else(|| self.gpu()) };
        match (from_resources, runtime_field) {
            (Some(res), true) => vec![Source { copies: false, ..res }, runtime_procs()],
            (Some(res), false) => vec![Source { copies: false, ..res }],
            (None, true) => vec![runtime_procs()],
            (None, false) => vec![self.policy_line("torch")],
        }
    }

    /// MPI slots (plugins/mpi.rs `mpi_plugin`): the TrainJob's `numProcPerNode`, else the GPUs
    /// when the runtime's is 1 and a node has several, else the runtime's `numProcPerNode`.
    fn mpi_slots(&self, slots: &str) -> Vec<Source> {
        if self.trainer().and_then(|t| t.num_proc_per_node).is_some() {
            return vec![job(keys(&["spec", "trainer", "numProcPerNode"]), true)];
        }
        let mpi = self.policy.mpi.as_ref();
        let runtime_procs = mpi.and_then(|m| m.num_proc_per_node);
        if runtime_procs.unwrap_or(1) == 1 && self.release.controller.mpi_slots_follow_gpus && slots != "1" {
            if let Some(gpu) = self.gpu() {
                return vec![gpu];
            }
        }
        match runtime_procs {
            Some(_) => vec![runtime(keys(&["spec", "mlPolicy", "mpi", "numProcPerNode"]), true)],
            None => vec![self.policy_line("mpi")],
        }
    }

    /// The line of an env entry in `list` at `base`: its `value` (which the view copies), else
    /// its name (a `valueFrom` the view words differently).
    fn env_entry(doc: Doc, base: Path, list: &[EnvVar], name: &str, value: Option<&str>) -> Option<Source> {
        let i = list.iter().position(|e| e.name == name && value.is_none_or(|v| env_text(e) == v))?;
        let literal = list[i].value.is_some();
        let path = then(indexed(base, i), &[if literal { "value" } else { "name" }]);
        Some(Source { doc, path, copies: literal && value.is_some() })
    }

    /// The TrainJob's `trainer.env` entry for `name` (holding `value`, when given).
    fn job_env(&self, name: &str, value: Option<&str>) -> Option<Source> {
        Self::env_entry(Doc::TrainJob, keys(&["spec", "trainer", "env"]), &self.trainer()?.env, name, value)
    }

    /// The runtime container's own env entry for `name`.
    fn runtime_env(&self, rjob: &str, container: &str, init: bool, name: &str, value: Option<&str>) -> Option<Source> {
        let (path, c) = self.container(rjob, container, init)?;
        Self::env_entry(Doc::Runtime, then(path, &["env"]), &c.env, name, value)
    }

    /// The initializer step of `rjob` and its TrainJob settings' path.
    fn initializer(&self, rjob: &str) -> Option<(&'static str, Path)> {
        let step = match self.ancestor(rjob)? {
            DATASET_INITIALIZER => "dataset",
            MODEL_INITIALIZER => "model",
            _ => return None,
        };
        Some((step, keys(&["spec", "initializer", step])))
    }

    /// A variable a plugin injects (plugins/), by name.
    fn plugin_env(&self, name: &str, value: &str) -> Option<Vec<Source>> {
        let p = &self.policy;
        let found = match name {
            "PET_NNODES" if p.torch => vec![self.num_nodes(true)?],
            "PET_NPROC_PER_NODE" if p.torch => self.torch_procs(value),
            "PET_NODE_RANK" | "PET_MASTER_ADDR" | "PET_MASTER_PORT" if p.torch => vec![self.policy_line("torch")],
            "OMPI_MCA_orte_set_default_slots" if p.mpi.is_some() => self.mpi_slots(value),
            n if n.starts_with("OMPI_MCA_") && p.mpi.is_some() => vec![self.policy_line("mpi")],
            "JAX_NUM_PROCESSES" if p.jax => vec![self.num_nodes(true)?],
            n if n.starts_with("JAX_") && p.jax => vec![self.policy_line("jax")],
            // xgboost.go:102-113: nodes × GPUs per node (or 1).
            "DMLC_NUM_WORKER" if p.xgboost => {
                let nodes = self.num_nodes(false).unwrap_or_else(|| self.policy_line("xgboost"));
                let gpu = self.gpu().map(|g| Source { copies: false, ..g });
                std::iter::once(nodes).chain(gpu).collect()
            }
            n if n.starts_with("DMLC_") && p.xgboost => vec![self.policy_line("xgboost")],
            _ => return None,
        };
        Some(found)
    }

    /// One row of a container's environment: `name` shown as `value`.
    pub fn env(&self, group: &PodGroup, container: &str, init: bool, name: &str, value: &str) -> Vec<Source> {
        let rjob = group.replicated_job.as_str();
        if let Some((step, base)) = self.initializer(rjob) {
            let init = self.input.job.spec.initializer.as_ref();
            let step = init.and_then(|i| if step == "dataset" { i.dataset.as_ref() } else { i.model.as_ref() });
            if name == "STORAGE_URI" && step.and_then(|s| s.storage_uri.as_deref()) == Some(value) {
                return vec![job(then(base, &["storageUri"]), true)];
            }
            let env =
                step.and_then(|s| Self::env_entry(Doc::TrainJob, then(base, &["env"]), &s.env, name, Some(value)));
            if let Some(source) = env {
                return vec![source];
            }
        }
        // The TrainJob's env is applied after the plugins (builder.go:142-155): its value wins.
        let sources = self
            .job_env(name, Some(value))
            .map(|s| vec![s])
            .or_else(|| self.plugin_env(name, value))
            .or_else(|| self.runtime_env(rjob, container, init, name, Some(value)).map(|s| vec![s]))
            .or_else(|| self.job_env(name, None).map(|s| vec![s]))
            .or_else(|| self.runtime_env(rjob, container, init, name, None).map(|s| vec![s]));
        sources.unwrap_or_default()
    }

    /// A whole Secret read as env (`secretRef:NAME`): the initializer's `secretRef`.
    pub fn env_from(&self, group: &PodGroup, from: &str) -> Vec<Source> {
        let Some((_, base)) = self.initializer(&group.replicated_job) else { return vec![] };
        match from.strip_prefix("secretRef:") {
            Some(_) => vec![job(then(base, &["secretRef", "name"]), false)],
            None => vec![],
        }
    }

    /// A replicatedJob's pods: where their count comes from, then their GPUs.
    pub fn pod_group(&self, group: &PodGroup, shows_gpus: bool) -> Vec<Source> {
        let name = group.replicated_job.as_str();
        let trainer = self.ancestor(name) == Some(ANCESTOR_TRAINER);
        let launcher_as_node = self.policy.mpi.as_ref().and_then(|m| m.run_launcher_as_node).unwrap_or(false);
        let count = match (&self.policy.mpi, name) {
            // mpi.go:117-126: numNodes, one of them the launcher when it runs as a node.
            (Some(_), NODE) => self.num_nodes(!launcher_as_node),
            (Some(_), _) => None,
            (None, _) if trainer => self.num_nodes(true),
            _ => None,
        };
        let mut out: Vec<Source> = count.into_iter().collect();
        out.extend(self.rjob_name(name).map(|s| Source { copies: false, ..s }));
        if shows_gpus {
            // build.rs `pod_sets`: MPI's `node` job gets `resourcesPerNode` from v2.1.0.
            let node_job = launcher_as_node
                && name == NODE
                && self.release.controller.resources_per_node != ResourcesPerNodeRule::ReplaceTrainer;
            let receives = trainer || node_job;
            let gpu = match self.trainer().and_then(|t| t.resources_per_node.as_ref()) {
                Some(res) if receives => {
                    Self::resource(keys(&["spec", "trainer", "resourcesPerNode"]), res, is_gpu, "limits")
                        .map(|p| job(p, true))
                }
                _ => None,
            };
            let gpu = gpu.or_else(|| {
                let (path, c) = self.container(name, NODE, false)?;
                let res = c.resources.as_ref()?;
                Self::resource(then(path, &["resources"]), res, is_gpu, "limits").map(|p| runtime(p, true))
            });
            out.extend(gpu);
        }
        out
    }

    /// The MPI hostfile: the policy that writes it, the node count and the slots.
    pub fn hostfile(&self, slots: &str) -> Vec<Source> {
        let mut out = vec![self.policy_line("mpi")];
        out.extend(self.num_nodes(false));
        out.extend(self.mpi_slots(slots).into_iter().map(|s| Source { copies: false, ..s }));
        out
    }

    /// The JobSet: named after the TrainJob.
    pub fn jobset(&self) -> Vec<Source> {
        let mut out = vec![job(keys(&["metadata", "name"]), true)];
        if self.input.job.spec.suspend.is_some() {
            out.push(job(keys(&["spec", "suspend"]), false));
        }
        out
    }

    /// An object next to the JobSet.
    pub fn object(&self, o: &Object) -> Vec<Source> {
        let name = o.name.as_str();
        let found = match o.kind.as_str() {
            "ConfigMap" if name.ends_with("-runtime-snapshot") => job(keys(&["spec", "runtimeRef", "name"]), false),
            "JobSet" => job(keys(&["metadata", "name"]), true),
            "Secret" | "ConfigMap" => self.policy_line("mpi"),
            "PodGroup" => runtime(keys(&["spec", "podGroupPolicy", "coscheduling"]), false),
            "Service" => match self.input.runtime.spec.template.spec.network.as_ref() {
                Some(Value::Object(n)) if n.contains_key("subdomain") => {
                    runtime(keys(&["spec", "template", "spec", "network", "subdomain"]), true)
                }
                _ => job(keys(&["metadata", "name"]), true),
            },
            "PersistentVolumeClaim" => match self.claim(name) {
                Some(source) => source,
                None => return vec![],
            },
            _ => return vec![],
        };
        vec![found]
    }

    /// The runtime field that names a claim: a volume's `claimName`, or a claim template's name.
    fn claim(&self, name: &str) -> Option<Source> {
        let is = |v: Option<&Value>| matches!(v, Some(Value::String(s)) if s == name);
        for (i, rjob) in self.rjobs().iter().enumerate() {
            for (k, volume) in rjob.template.spec.template.spec.volumes.iter().enumerate() {
                let Value::Object(v) = volume else { continue };
                if let Some(Value::Object(pvc)) = v.get("persistentVolumeClaim") {
                    if is(pvc.get("claimName")) {
                        let base = then(Self::rjob_path(i), &["template", "spec", "template", "spec", "volumes"]);
                        return Some(runtime(then(indexed(base, k), &["persistentVolumeClaim", "claimName"]), true));
                    }
                }
            }
        }
        for (p, policy) in self.input.runtime.spec.template.spec.volume_claim_policies.iter().enumerate() {
            let Value::Object(policy) = policy else { continue };
            let Some(Value::Array(templates)) = policy.get("templates") else { continue };
            for (t, template) in templates.iter().enumerate() {
                let Value::Object(template) = template else { continue };
                if let Some(Value::Object(meta)) = template.get("metadata") {
                    if is(meta.get("name")) {
                        let base = indexed(keys(&["spec", "template", "spec", "volumeClaimPolicies"]), p);
                        return Some(runtime(
                            then(indexed(then(base, &["templates"]), t), &["metadata", "name"]),
                            true,
                        ));
                    }
                }
            }
        }
        None
    }
}

fn is_gpu(k: &str) -> bool {
    k.to_ascii_lowercase().contains("gpu")
}

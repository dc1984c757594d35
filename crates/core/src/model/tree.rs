//! The models as YAML trees, written out by hand: the tree serde's `Serialize` derive and
//! `to_value` build for the same model (the test below compares them on every runtime of every
//! release and on the real V1 corpus), without serde's `Serializer` machinery.
//!
//! Why: the widget only turns its own models into trees, and the serde path (a serialize
//! function per field type, through the generic `TreeSerializer`) was about 16 KB of its wasm.
//! The migrator and the CLI still use `to_value` for the manifests they read.

use super::pod::{Container, ContainerPort, EnvVar, PodSpec, PodTemplateSpec, Resources};
use super::v1::{ReplicaSpec, V1Job, V1JobSpec};
use super::v2::{
    DependsOn, Initializer, JobSetSpec, JobSetTemplate, JobSpec, JobTemplate, MlPolicy, MpiPolicy, ReplicatedJob,
    RuntimeRef, StorageInitializer, TrainJob, TrainJobSpec, Trainer, TrainingRuntime, TrainingRuntimeSpec,
};
use super::vecmap::VecMap;
use super::{Map, ObjectMeta, Value};

/// A model's YAML tree: its fields under their camelCase names, in declaration order, skipping
/// the empty optional ones, as the model's `#[serde]` attributes say.
pub trait ToTree {
    /// The model as the YAML emitter writes it.
    fn to_tree(&self) -> Value;
}

/// An object's entries, in order. Not generic, so it is compiled once for every model.
struct Fields(Vec<(String, Value)>);

impl Fields {
    fn new() -> Self {
        Fields(Vec::new())
    }

    /// A field that is always written (serde: no `skip_serializing_if`).
    #[inline(never)]
    fn put(&mut self, key: &'static str, value: Value) -> &mut Self {
        self.0.push((key.to_string(), value));
        self
    }

    /// An `Option` field (`skip_serializing_if = "Option::is_none"`).
    fn some(&mut self, key: &'static str, value: Option<Value>) -> &mut Self {
        match value {
            Some(value) => self.put(key, value),
            None => self,
        }
    }

    /// A list or map field written only when it holds something (`Vec::is_empty`, `VecMap::is_empty`).
    #[inline(never)]
    fn nonempty(&mut self, key: &'static str, value: Value) -> &mut Self {
        let empty = match &value {
            Value::Array(items) => items.is_empty(),
            Value::Object(map) => map.is_empty(),
            _ => false,
        };
        if !empty {
            self.put(key, value);
        }
        self
    }

    /// A `#[serde(flatten)]` map: its entries after the named fields; a key naming a field again
    /// replaces that field's value in place, as `Map::insert` (and `to_value`) does. Looked up
    /// one by one among the few fields of one model (`extra` is a map: its own keys are
    /// distinct), so `done` has no repeated key to resolve, and the widget carries no
    /// `Map::from_entries` (its sort and repeated-key search).
    #[inline(never)]
    fn flatten(&mut self, extra: &Map) -> &mut Self {
        for (key, value) in extra.iter() {
            match self.0.iter_mut().find(|(named, _)| named == key) {
                Some((_, named_value)) => *named_value = value.clone(),
                None => self.0.push((key.clone(), value.clone())),
            }
        }
        self
    }

    /// The object: its keys are distinct (the named fields are, and `flatten` replaced in place).
    #[inline(never)]
    fn done(&mut self) -> Value {
        Value::Object(Map::from_distinct(std::mem::take(&mut self.0)))
    }
}

fn some<T: ToTree>(v: &Option<T>) -> Option<Value> {
    v.as_ref().map(ToTree::to_tree)
}

fn list<T: ToTree>(items: &[T]) -> Value {
    Value::Array(items.iter().map(ToTree::to_tree).collect())
}

fn text(s: &Option<String>) -> Option<Value> {
    s.as_ref().map(Value::from)
}

fn texts(items: &[String]) -> Value {
    Value::Array(items.iter().map(Value::from).collect())
}

fn number(n: Option<u32>) -> Option<Value> {
    n.map(Value::from)
}

/// A Kubernetes object: the four fields every model of one has.
fn object(api_version: &str, kind: &str, metadata: &ObjectMeta, spec: Value) -> Value {
    Fields::new()
        .put("apiVersion", Value::from(api_version))
        .put("kind", Value::from(kind))
        .put("metadata", metadata.to_tree())
        .put("spec", spec)
        .done()
}

impl ToTree for Value {
    fn to_tree(&self) -> Value {
        self.clone()
    }
}

impl ToTree for Map {
    fn to_tree(&self) -> Value {
        Value::Object(self.clone())
    }
}

// A map's keys are distinct already: `from_distinct`, not `collect` (whose `from_entries` looks
// for repeated keys, with a sort the widget then carries for nothing).
impl ToTree for VecMap<String, String> {
    fn to_tree(&self) -> Value {
        Value::Object(Map::from_distinct(self.iter().map(|(k, v)| (k.clone(), Value::from(v))).collect()))
    }
}

impl ToTree for VecMap<String, ReplicaSpec> {
    fn to_tree(&self) -> Value {
        Value::Object(Map::from_distinct(self.iter().map(|(k, v)| (k.clone(), v.to_tree())).collect()))
    }
}

impl ToTree for ObjectMeta {
    fn to_tree(&self) -> Value {
        Fields::new()
            .some("name", text(&self.name))
            .some("namespace", text(&self.namespace))
            .nonempty("labels", self.labels.to_tree())
            .nonempty("annotations", self.annotations.to_tree())
            .flatten(&self.extra)
            .done()
    }
}

impl ToTree for EnvVar {
    fn to_tree(&self) -> Value {
        Fields::new()
            .put("name", Value::from(&self.name))
            .some("value", text(&self.value))
            .some("valueFrom", self.value_from.clone())
            .done()
    }
}

impl ToTree for ContainerPort {
    fn to_tree(&self) -> Value {
        Fields::new()
            .put("containerPort", Value::from(self.container_port))
            .some("name", text(&self.name))
            .some("protocol", text(&self.protocol))
            .done()
    }
}

impl ToTree for Resources {
    fn to_tree(&self) -> Value {
        Fields::new()
            .nonempty("limits", self.limits.to_tree())
            .nonempty("requests", self.requests.to_tree())
            .flatten(&self.extra)
            .done()
    }
}

impl ToTree for Container {
    fn to_tree(&self) -> Value {
        Fields::new()
            .put("name", Value::from(&self.name))
            .some("image", text(&self.image))
            .some("imagePullPolicy", text(&self.image_pull_policy))
            .some("securityContext", self.security_context.clone())
            .nonempty("command", texts(&self.command))
            .nonempty("args", texts(&self.args))
            .nonempty("env", list(&self.env))
            .nonempty("ports", list(&self.ports))
            .some("resources", some(&self.resources))
            .some("readinessProbe", self.readiness_probe.clone())
            .nonempty("volumeMounts", list(&self.volume_mounts))
            .flatten(&self.extra)
            .done()
    }
}

impl ToTree for PodSpec {
    fn to_tree(&self) -> Value {
        Fields::new()
            .some("serviceAccountName", text(&self.service_account_name))
            .some("securityContext", self.security_context.clone())
            .nonempty("initContainers", list(&self.init_containers))
            .put("containers", list(&self.containers))
            .some("restartPolicy", text(&self.restart_policy))
            .nonempty("volumes", list(&self.volumes))
            .flatten(&self.extra)
            .done()
    }
}

impl ToTree for PodTemplateSpec {
    fn to_tree(&self) -> Value {
        Fields::new().some("metadata", some(&self.metadata)).put("spec", self.spec.to_tree()).done()
    }
}

impl ToTree for TrainJob {
    fn to_tree(&self) -> Value {
        object(&self.api_version, &self.kind, &self.metadata, self.spec.to_tree())
    }
}

impl ToTree for TrainJobSpec {
    fn to_tree(&self) -> Value {
        Fields::new()
            .put("runtimeRef", self.runtime_ref.to_tree())
            .some("suspend", self.suspend.map(Value::from))
            .some("initializer", some(&self.initializer))
            .some("trainer", some(&self.trainer))
            .some("activeDeadlineSeconds", self.active_deadline_seconds.map(Value::from))
            .nonempty("runtimePatches", list(&self.runtime_patches))
            .some("managedBy", text(&self.managed_by))
            .done()
    }
}

impl ToTree for RuntimeRef {
    fn to_tree(&self) -> Value {
        Fields::new()
            .put("name", Value::from(&self.name))
            .some("apiGroup", text(&self.api_group))
            .some("kind", text(&self.kind))
            .done()
    }
}

impl ToTree for Initializer {
    fn to_tree(&self) -> Value {
        Fields::new().some("dataset", some(&self.dataset)).some("model", some(&self.model)).done()
    }
}

impl ToTree for StorageInitializer {
    fn to_tree(&self) -> Value {
        Fields::new()
            .some("storageUri", text(&self.storage_uri))
            .nonempty("env", list(&self.env))
            .some("secretRef", self.secret_ref.clone())
            .done()
    }
}

impl ToTree for Trainer {
    fn to_tree(&self) -> Value {
        Fields::new()
            .some("image", text(&self.image))
            .nonempty("command", texts(&self.command))
            .nonempty("args", texts(&self.args))
            .nonempty("env", list(&self.env))
            .some("numNodes", number(self.num_nodes))
            .some("numProcPerNode", number(self.num_proc_per_node))
            .some("resourcesPerNode", some(&self.resources_per_node))
            .done()
    }
}

impl ToTree for TrainingRuntime {
    fn to_tree(&self) -> Value {
        object(&self.api_version, &self.kind, &self.metadata, self.spec.to_tree())
    }
}

impl ToTree for TrainingRuntimeSpec {
    fn to_tree(&self) -> Value {
        Fields::new()
            .some("mlPolicy", some(&self.ml_policy))
            .some("podGroupPolicy", self.pod_group_policy.clone())
            .put("template", self.template.to_tree())
            .done()
    }
}

impl ToTree for MlPolicy {
    fn to_tree(&self) -> Value {
        Fields::new()
            .some("numNodes", number(self.num_nodes))
            .some("torch", some(&self.torch))
            .some("mpi", some(&self.mpi))
            .some("jax", some(&self.jax))
            .some("xgboost", some(&self.xgboost))
            .some("flux", some(&self.flux))
            .done()
    }
}

impl ToTree for MpiPolicy {
    fn to_tree(&self) -> Value {
        Fields::new()
            .some("numProcPerNode", number(self.num_proc_per_node))
            .some("mpiImplementation", text(&self.mpi_implementation))
            .some("sshAuthMountPath", text(&self.ssh_auth_mount_path))
            .some("runLauncherAsNode", self.run_launcher_as_node.map(Value::from))
            .done()
    }
}

impl ToTree for JobSetTemplate {
    fn to_tree(&self) -> Value {
        Fields::new().some("metadata", some(&self.metadata)).put("spec", self.spec.to_tree()).done()
    }
}

impl ToTree for JobSetSpec {
    fn to_tree(&self) -> Value {
        Fields::new()
            .some("network", self.network.clone())
            .some("successPolicy", self.success_policy.clone())
            .some("failurePolicy", self.failure_policy.clone())
            .nonempty("volumeClaimPolicies", list(&self.volume_claim_policies))
            .put("replicatedJobs", list(&self.replicated_jobs))
            .done()
    }
}

impl ToTree for ReplicatedJob {
    fn to_tree(&self) -> Value {
        Fields::new()
            .put("name", Value::from(&self.name))
            .nonempty("dependsOn", list(&self.depends_on))
            .put("template", self.template.to_tree())
            .done()
    }
}

impl ToTree for DependsOn {
    fn to_tree(&self) -> Value {
        Fields::new().put("name", Value::from(&self.name)).put("status", Value::from(&self.status)).done()
    }
}

impl ToTree for JobTemplate {
    fn to_tree(&self) -> Value {
        Fields::new().some("metadata", some(&self.metadata)).put("spec", self.spec.to_tree()).done()
    }
}

impl ToTree for JobSpec {
    fn to_tree(&self) -> Value {
        Fields::new()
            .some("backoffLimit", number(self.backoff_limit))
            .some("podFailurePolicy", self.pod_failure_policy.clone())
            .put("template", self.template.to_tree())
            .done()
    }
}

impl ToTree for V1Job {
    fn to_tree(&self) -> Value {
        object(&self.api_version, &self.kind, &self.metadata, self.spec.to_tree())
    }
}

impl ToTree for ReplicaSpec {
    fn to_tree(&self) -> Value {
        Fields::new()
            .some("replicas", number(self.replicas))
            .some("restartPolicy", text(&self.restart_policy))
            .put("template", self.template.to_tree())
            .done()
    }
}

impl ToTree for V1JobSpec {
    fn to_tree(&self) -> Value {
        Fields::new()
            .some("slotsPerWorker", number(self.slots_per_worker))
            .some("nprocPerNode", text(&self.nproc_per_node))
            .some("runPolicy", self.run_policy.clone())
            .some("pytorchReplicaSpecs", some(&self.pytorch_replica_specs))
            .some("mpiReplicaSpecs", some(&self.mpi_replica_specs))
            .some("jaxReplicaSpecs", some(&self.jax_replica_specs))
            .some("xgbReplicaSpecs", some(&self.xgb_replica_specs))
            .some("tfReplicaSpecs", some(&self.tf_replica_specs))
            .some("paddleReplicaSpecs", some(&self.paddle_replica_specs))
            .flatten(&self.extra)
            .done()
    }
}

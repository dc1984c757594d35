//! "What Kubernetes ran" for a V1 job: the pods, Services and other objects the Training Operator
//! v1.9 (PyTorchJob, MPIJob `kubeflow.org/v1`, JAXJob, XGBoostJob, TFJob, PaddleJob) or the
//! standalone MPI Operator (`kubeflow.org/v2beta1` MPIJob) creates for it. The V1 half of the pod
//! by pod comparison of a migration (`crate::migrate::pods`).
//!
//! Pure. Every rule names its upstream file and line: `training-operator v1.9.0:PATH:LINE`
//! (github.com/kubeflow/training-operator; the release-1.9 branch changes nothing under
//! pkg/controller.v1 or pkg/apis after the tag) or `mpi-operator v0.6.0:PATH:LINE`
//! (github.com/kubeflow/mpi-operator). v0.6.0 is the MPI Operator release current when
//! training-operator v1.9.0 came out (tagged 2024-10-17; v1.9.0 2025-01-21; v0.7.0 2025-10-31).

mod defaults;
mod error;
mod mpi_v1;
mod mpi_v2beta1;
mod paddle;
mod pytorch;
mod tensorflow;
mod webhook;
mod xgboost_jax;

use super::{digits_of_indices, ContainerView, EnvValue, ErrorType, FieldPath, Object, Rejection};
use crate::model::pod::{Container, EnvVar, PodSpec, PodTemplateSpec};
use crate::model::v1::ReplicaSpec;
use crate::model::vecmap::VecMap;
use explorer_data::catalog::V1Kind;
use explorer_data::served;
use serde::Serialize;
use serde_json::Value as Json;

// Migrate's converter reads V1 jobs with these; explain itself calls them by their modules.
#[cfg(feature = "migrate")]
pub(crate) use defaults::default_replicas;
pub use defaults::Ambiguous;
#[cfg(feature = "migrate")]
pub(crate) use error::service_refused;
pub use error::{Error, NotRun};
#[cfg(feature = "migrate")]
pub(crate) use webhook::{JOBS_CONTROLLER, MULTIKUEUE};

/// Training Operator's name, as the JSON gives it.
pub const TRAINING_OPERATOR: &str = served::TRAINING_OPERATOR.name;
/// mpi-operator's name, as the JSON gives it.
pub const MPI_OPERATOR: &str = served::MPI_OPERATOR.name;

/// What the operator creates for one V1 job, as `explain` prints it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Explanation {
    /// The operator that runs the job (`training-operator`, `mpi-operator`).
    pub operator: String,
    /// The pods, by replica type, of the types with pods.
    pub pods: Vec<V1PodGroup>,
    /// The objects the operator creates beside the pods (Services, ConfigMaps, ...).
    pub objects: Vec<Object>,
    /// Every error, as V2's `Explanation` gives them: the same JSON shape, `[]` when admitted.
    pub rejected: Vec<Rejection>,
    /// What the API server refuses after it admitted the job, while the operator creates the
    /// objects shown (a Service whose name is too long), each saying what fails and when.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fails_after_admission: Vec<Rejection>,
}

/// The pods of one replica type.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V1PodGroup {
    /// The replica type (`Master`, `Worker`, ...).
    pub replica_type: String,
    /// How many pods the operator creates for it.
    pub count: u32,
    /// The DNS names the operator's Services (or, for the v1 MPIJob, the pod names) give, in
    /// index order.
    pub hostnames: Vec<String>,
    /// An env value that differs between the pods is an [`EnvValue::PerPod`].
    pub containers: Vec<ContainerView>,
}

/// Every pod the operator creates for one replica type, as created (index order).
#[derive(Clone, Debug)]
pub struct Role {
    /// `Master`, `Worker`, `Launcher`, `Chief`, `PS`, `Evaluator`.
    pub replica_type: String,
    /// How many pods the operator creates.
    pub count: u32,
    /// Each pod's DNS name (its Service's, or for the v1 MPIJob the pod's), in index order.
    pub hostnames: Vec<String>,
    /// The first [`PODS_MODELLED`] of them (read with [`Role::pod`] and [`Role::env`]): the rest
    /// differ from these only in their index.
    pods: Modelled,
    /// The job's own template for this replica type, after defaulting (before the operator).
    pub template: PodTemplateSpec,
}

/// How a role holds the pods it models.
#[derive(Clone, Debug)]
enum Modelled {
    /// Each pod in full: the MPI operators' pods, which they build apart from the template.
    Built(Vec<PodTemplateSpec>),
    /// Each pod as what the common controller adds to the role's template (`per_replica`): its
    /// labels, each container's variables (the template's containers, in their order), its init
    /// containers and its restart policy. A pod is the template with these added
    /// ([`Role::pod`]): a copy of the template in each pod (a container of 66,000 variables, a
    /// nodeSelector of 150,000 keys) was most of what `explain` held of a V1 job (issue 36).
    Decorated(Vec<PodTemplateSpec>),
}

impl Role {
    pub(crate) fn of(replica_type: &str, template: PodTemplateSpec) -> Role {
        Role { replica_type: replica_type.into(), count: 0, hostnames: vec![], pods: Modelled::Built(vec![]), template }
    }

    /// An MPIJob's `Worker` role, whose pods both MPI operators build one by one from the Worker
    /// template: each worker's DNS name (`hostname(index)`), and the first [`PODS_MODELLED`]
    /// pods, each a copy of the template that `build(index, replica, pod)` completes. No pods
    /// without a Worker replica.
    fn mpi_workers(
        job: &Job,
        hostname: impl Fn(u32) -> String,
        mut build: impl FnMut(u32, &ReplicaSpec, &mut PodTemplateSpec),
    ) -> Role {
        let Some(replica) = job.replica("Worker") else { return Role::of("Worker", PodTemplateSpec::default()) };
        let mut role = Role::of("Worker", replica.template.clone());
        role.count = job.count("Worker");
        let mut pods = Vec::new();
        for index in 0..role.count {
            role.hostnames.push(hostname(index));
            if index < PODS_MODELLED {
                let mut pod = replica.template.clone();
                build(index, replica, &mut pod);
                pods.push(pod);
            }
        }
        role.pods = Modelled::Built(pods);
        role
    }

    /// How many of its pods the role models: the first [`PODS_MODELLED`] of `count`.
    pub fn modelled(&self) -> usize {
        match &self.pods {
            Modelled::Built(pods) | Modelled::Decorated(pods) => pods.len(),
        }
    }

    /// Pod `index` (one of the [`modelled`](Role::modelled)) as the operator creates it; `None`
    /// past them.
    pub fn pod(&self, index: usize) -> Option<std::borrow::Cow<'_, PodTemplateSpec>> {
        use std::borrow::Cow;
        match &self.pods {
            Modelled::Built(pods) => pods.get(index).map(Cow::Borrowed),
            Modelled::Decorated(decorations) => {
                let added = decorations.get(index)?;
                let mut pod = self.template.clone();
                // pod.go:402-422: the operator's labels over the template's.
                let meta = pod.metadata.get_or_insert_with(Default::default);
                for (k, v) in added.metadata.iter().flat_map(|m| m.labels.iter()) {
                    meta.labels.insert(k.clone(), v.clone());
                }
                for (c, added) in pod.spec.containers.iter_mut().zip(&added.spec.containers) {
                    append_env(c, added.env.iter().cloned());
                }
                pod.spec.init_containers.extend(added.spec.init_containers.iter().cloned());
                pod.spec.restart_policy.clone_from(&added.spec.restart_policy);
                Some(Cow::Owned(pod))
            }
        }
    }

    /// Pod `index` ([`Role::pod`]) without building it, for what it holds besides its containers'
    /// variables and its init containers ([`Role::env`], [`Role::init_containers`]): the pod its
    /// metadata, pod settings, volumes and containers are read from, and the labels the operator
    /// sets over that pod's own. Where the operator only decorates the role's template, that
    /// template (the same object, so a caller may reuse what it read of it); else the pod itself,
    /// with no labels to add. `None` past the modelled pods. Read by the migration's pod
    /// comparison only, so an explain-only build has none.
    #[cfg(feature = "migrate")]
    pub(crate) fn pod_base(&self, index: usize) -> Option<(&PodTemplateSpec, Option<&VecMap<String, String>>)> {
        match &self.pods {
            Modelled::Built(pods) => pods.get(index).map(|pod| (pod, None)),
            Modelled::Decorated(decorations) => {
                let added = decorations.get(index)?;
                Some((&self.template, added.metadata.as_ref().map(|m| &m.labels)))
            }
        }
    }

    /// The variables of container `container` (its place among the pod's containers) in pod
    /// `index`, in order, as [`Role::pod`] has them, without building the pod: none past the
    /// pods or the containers.
    pub fn env(&self, index: usize, container: usize) -> impl DoubleEndedIterator<Item = &EnvVar> + Clone {
        fn env(pod: Option<&PodTemplateSpec>, container: usize) -> &[EnvVar] {
            pod.and_then(|p| p.spec.containers.get(container)).map_or(&[], |c| &c.env)
        }
        let (own, added) = match &self.pods {
            Modelled::Built(pods) => (env(pods.get(index), container), &[][..]),
            Modelled::Decorated(decorations) => match decorations.get(index) {
                Some(added) => (env(Some(&self.template), container), env(Some(added), container)),
                None => (&[][..], &[][..]),
            },
        };
        own.iter().chain(added)
    }

    /// The containers of the role's pods, the same in each (a pod's variables are
    /// [`Role::env`]'s, not these containers').
    pub(crate) fn containers(&self) -> &[Container] {
        match &self.pods {
            Modelled::Built(pods) => pods.first().map_or(&[], |p| &p.spec.containers),
            Modelled::Decorated(_) => &self.template.spec.containers,
        }
    }

    /// [`Role::containers`], to take from.
    fn containers_mut(&mut self) -> &mut [Container] {
        match &mut self.pods {
            Modelled::Built(pods) => pods.first_mut().map_or(&mut [], |p| &mut p.spec.containers),
            Modelled::Decorated(_) => &mut self.template.spec.containers,
        }
    }

    /// Pod `index`'s init containers, in order, as [`Role::pod`] has them.
    pub(crate) fn init_containers(&self, index: usize) -> impl Iterator<Item = &Container> {
        let (own, added) = match &self.pods {
            Modelled::Built(pods) => (pods.get(index).map_or(&[][..], |p| &p.spec.init_containers), &[][..]),
            Modelled::Decorated(decorations) => match decorations.get(index) {
                Some(added) => (&self.template.spec.init_containers[..], &added.spec.init_containers[..]),
                None => (&[][..], &[][..]),
            },
        };
        own.iter().chain(added)
    }
}

/// How many pods of one replica type are built in full. Each pod past the first few differs
/// only by its index, while a TF_CONFIG or WORKER_ADDRS lists every pod: building all of them
/// would take time and memory growing with the square of the count.
pub(crate) const PODS_MODELLED: u32 = 16;

/// Both MPI operators mount their ConfigMap `<job>-config` as `mpi-job-config` at /etc/mpi
/// (training-operator v1.9.0:pkg/controller.v1/mpi/mpijob.go:28-30; mpi-operator
/// v0.6.0:pkg/controller/mpi_job_controller.go:72-74).
pub(crate) const MPI_CONFIG_VOLUME: &str = "mpi-job-config";
pub(crate) const MPI_CONFIG_MOUNT: &str = "/etc/mpi";

pub(crate) fn mpi_config_volume(job: &str) -> crate::model::Value {
    crate::tree!({"name": MPI_CONFIG_VOLUME, "configMap": {"name": (format!("{job}-config"))}})
}

/// What one V1 job makes: its pods by replica type and the objects around them.
#[derive(Clone, Debug)]
pub struct Operated {
    /// The operator's name.
    pub operator: &'static str,
    /// The job's kind.
    pub kind: V1Kind,
    /// Every replica type's pods.
    pub roles: Vec<Role>,
    /// The objects around the pods.
    pub objects: Vec<Object>,
}

/// The replica specs after the operator's defaulting, in a fixed role order.
pub(crate) struct Job<'a> {
    pub name: String,
    pub namespace: String,
    pub spec: &'a serde_json::Map<String, Json>,
    pub replicas: Vec<(String, ReplicaSpec)>,
    /// Each of `replicas`' types as the manifest writes it (its spec's key), in the same order.
    pub written: Vec<String>,
}

impl Job<'_> {
    pub(crate) fn replica(&self, rtype: &str) -> Option<&ReplicaSpec> {
        self.replicas.iter().find(|(t, _)| t == rtype).map(|(_, s)| s)
    }

    pub(crate) fn count(&self, rtype: &str) -> u32 {
        self.replica(rtype).map_or(0, |s| s.replicas.unwrap_or(0))
    }

    /// Every replica type's `replicas`, summed (`getTotalReplicas` in each framework's file).
    pub(crate) fn total(&self) -> u32 {
        self.replicas.iter().map(|(_, s)| s.replicas.unwrap_or(0)).sum()
    }

    pub(crate) fn spec_str(&self, key: &str) -> Option<&str> {
        self.spec.get(key).and_then(Json::as_str)
    }

    /// `<job>-<rtype>-<index>`, the pod's and its Service's name
    /// (training-operator v1.9.0:pkg/core/utils.go:30-33, pytorch/envvar.go:150-153).
    pub(crate) fn replica_name(&self, rtype: &str, index: u32) -> String {
        defaults::replica_name(&self.name, rtype, index)
    }
}

fn json_err<T>(r: Result<T, crate::model::tracked::PathError>, at: &FieldPath) -> Result<T, Error> {
    r.map_err(|e| Error::Field(crate::field_error::kubernetes(&format!("{at}.{}", e.path()), e.inner())))
}

/// Reads a V1 job's kind and replica specs, each pod template's spec whole. `Err` for what no
/// operator would accept.
fn read(doc: &Json) -> Result<(Source, Job<'_>), Error> {
    read_keeping(doc, PodSpecs::Whole)
}

/// What a reading of a job keeps of each pod template's spec.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PodSpecs {
    /// Every field: the pods the operator builds are compared field by field with Trainer's
    /// (`migrate::pods`, through [`operate`]).
    Whole,
    /// The fields the pod model names (containers, init containers, volumes, ...): `explain`'s
    /// view of the pods and `validate`'s verdict read nothing else of a pod spec, and each other
    /// field (a nodeSelector, affinity, tolerations) would be copied out of the tree into the
    /// model's `extra`, beside the tree (a nodeSelector of 150,000 keys took 18 MB; issue 36).
    /// A value read into `extra` is never refused, so no error changes.
    Named,
    /// [`PodSpecs::Named`], each container's `args`, `command` and `env` (and each init
    /// container's) judged item by item where the model reads them, and left in the tree: read
    /// empty. `validate`'s verdict reads none of them; `explain` of a job it owns moves them
    /// into the model once the job is admitted ([`lists_moved_in`]), rather than copying a
    /// container of 66,000 variables (or a template named twice by an alias, with 84,000
    /// arguments) out of the tree beside it (issue 36). The same errors, at the same paths, in
    /// the same order.
    Judged,
}

/// Where [`PodSpecs::Judged`] leaves a list, from a replica spec: its containers' and init
/// containers' `args`, `command` and `env`, and how each item is judged (as the model reads it).
const LISTS_LEFT: &[crate::model::tracked::LeftList] = {
    use crate::model::tracked::LeftList;
    &[
        LeftList::of::<String>(&["template", "spec", "containers", "*", "command"]),
        LeftList::of::<String>(&["template", "spec", "containers", "*", "args"]),
        LeftList::of::<EnvVar>(&["template", "spec", "containers", "*", "env"]),
        LeftList::of::<String>(&["template", "spec", "initContainers", "*", "command"]),
        LeftList::of::<String>(&["template", "spec", "initContainers", "*", "args"]),
        LeftList::of::<EnvVar>(&["template", "spec", "initContainers", "*", "env"]),
    ]
};

/// [`read`], keeping `pod_specs` of each pod template's spec.
fn read_keeping(doc: &Json, pod_specs: PodSpecs) -> Result<(Source, Job<'_>), Error> {
    let api = doc.get("apiVersion").and_then(Json::as_str).unwrap_or_default();
    let kind_name = doc.get("kind").and_then(Json::as_str).unwrap_or_default();
    let source = match served::v1_operator(api, kind_name) {
        Some(op) if op == served::MPI_OPERATOR => Source::MpiOperator,
        Some(_) => match V1Kind::from_kind(kind_name) {
            Some(kind) => Source::TrainingOperator(kind),
            None => return Err(Error::NotOperatorJob { api: api.into(), kind: kind_name.into() }),
        },
        None if is_v1_job(doc) => return Err(Error::NoKindMatch { api: api.into(), kind: kind_name.into() }),
        None => return Err(Error::NotAV1Job { api: api.into(), kind: kind_name.into() }),
    };
    let kind = source.kind();
    let name = at(doc, &["metadata", "name"]).and_then(Json::as_str).filter(|n| !n.is_empty());
    let missing = |path: FieldPath| Error::Missing { path, or_not_a_mapping: false };
    let name = name.ok_or_else(|| missing(FieldPath::new("metadata").child("name")))?.to_string();
    // A namespaced object without one lands in the namespace it is applied to: `default` here.
    let namespace = at(doc, &["metadata", "namespace"]).and_then(Json::as_str).unwrap_or("default").to_string();
    let spec = doc
        .get("spec")
        .and_then(Json::as_object)
        .ok_or_else(|| Error::Missing { path: FieldPath::new("spec"), or_not_a_mapping: true })?;
    let field = kind.replica_specs_field();
    let specs =
        spec.get(field).and_then(Json::as_object).ok_or_else(|| missing(FieldPath::new("spec").child(field)))?;
    let mut replicas = Vec::new();
    for (rtype, raw) in specs {
        let at = FieldPath::new("spec").child(field).child(rtype);
        let spec: ReplicaSpec = json_err(
            match pod_specs {
                PodSpecs::Whole => crate::model::tracked::deserialize(raw),
                PodSpecs::Named => {
                    crate::model::tracked::deserialize_leaving(raw, &["template", "spec"], PodSpec::NAMED)
                }
                PodSpecs::Judged => crate::model::tracked::deserialize_leaving_lists(
                    raw,
                    &["template", "spec"],
                    PodSpec::NAMED,
                    LISTS_LEFT,
                ),
            },
            &at,
        )?;
        if spec.template.spec.containers.is_empty() {
            return Err(Error::NoContainers(at.child("template").child("spec").child("containers")));
        }
        replicas.push((rtype.clone(), spec));
    }
    // The controller's defaulting renames a type written in another case (`worker`), over the
    // type's own spec where both are written.
    let renamed = defaults::renamed_types(kind, specs.keys().map(String::as_str)).map_err(|ambiguous| {
        Error::AmbiguousReplicaType { path: FieldPath::new("spec").child(field), kind, ambiguous }
    })?;
    let (replicas, written): (Vec<(String, ReplicaSpec)>, Vec<String>) = replicas
        .into_iter()
        .filter_map(|(written, spec)| {
            renamed.iter().find(|(_, w)| *w == written).map(|(rtype, _)| ((rtype.clone(), spec), written))
        })
        .unzip();
    let mut job = Job { name, namespace, spec, replicas, written };
    defaults::apply(source, &mut job);
    // Bounded before anything is built (see MAX_PODS); the launcher of an MPIJob is one more.
    let pods: u64 = job.replicas.iter().map(|(_, s)| u64::from(s.replicas.unwrap_or(0))).sum();
    if pods > super::MAX_PODS {
        return Err(Error::TooManyPods(pods));
    }
    webhook(source, &job)?;
    // The five kinds the common controller runs name their pods after the replica type (the
    // MPI operators after their own constants, `launcher` and `worker`); the webhooks of four
    // take only their own ASCII types (a type they refuse is theirs to name), a TFJob's takes
    // any (tfjob_webhook.go:90-127).
    if kind != V1Kind::MpiJob {
        for (rtype, spec) in &job.replicas {
            let errors = defaults::pod_name_errors(&job.name, rtype);
            let admitted = webhook::unsupported_replica_type(kind, rtype).is_none();
            let path = || FieldPath::new("spec").child(kind.replica_specs_field()).child(rtype);
            if admitted && spec.replicas.unwrap_or(0) > 0 && !errors.is_empty() {
                return Err(Error::PodName { path: path(), kind, errors });
            }
            let errors = defaults::replica_type_label_errors(rtype);
            if admitted && spec.replicas.unwrap_or(0) > 0 && !errors.is_empty() {
                return Err(Error::PodLabel { path: path(), kind, value: defaults::lower(rtype), errors });
            }
        }
    }
    pod_size(kind, &job)?;
    hostfile_size(source, &job)?;
    Ok((source, job))
}

/// The pods the API server cannot store, judged before any is built: a TFJob's TF_CONFIG lists
/// every pod's address, an XGBoostJob's WORKER_ADDRS every Worker's name, and past etcd's
/// request limit (`explain::ETCD_REQUEST_LIMIT`: about 45,000 TF addresses, 95,000 XGBoost
/// names) no pod carrying it is created; building 150,000 TF pods' configs took minutes.
/// Checked after the pods' names and labels, which the API server validates before it stores
/// anything.
fn pod_size(kind: V1Kind, job: &Job) -> Result<(), Error> {
    for (rtype, spec) in &job.replicas {
        let (variable, least) = match kind {
            V1Kind::TfJob => ("TF_CONFIG listing every pod's address", tensorflow::least_tf_config_bytes(job, rtype)),
            V1Kind::XgBoostJob => (
                "WORKER_ADDRS in each container, listing the Workers' names",
                xgboost_jax::least_worker_addrs_bytes(job, rtype),
            ),
            _ => return Ok(()),
        };
        let Some(bytes) = least else { continue };
        if spec.replicas.unwrap_or(0) > 0 && bytes > super::ETCD_REQUEST_LIMIT {
            let path = FieldPath::new("spec").child(kind.replica_specs_field()).child(rtype);
            return Err(Error::PodTooLarge { path, kind, variable, bytes });
        }
    }
    Ok(())
}

/// The MPIJob whose hostfile ConfigMap the API server refuses, judged before it is built: both
/// MPI operators create `<job>-config`, one hostfile line per worker, before any pod, and a
/// ConfigMap past `explain::CONFIGMAP_DATA_LIMIT` (about 42,000 workers of Training Operator
/// v1.9, 25,000 of mpi-operator, whose lines name the pods' full DNS names) is never created.
fn hostfile_size(source: Source, job: &Job) -> Result<(), Error> {
    let (operator, bytes) = match source {
        Source::MpiOperator => (served::MPI_OPERATOR, mpi_v2beta1::config_data_bytes(job)),
        Source::TrainingOperator(V1Kind::MpiJob) => (served::TRAINING_OPERATOR, mpi_v1::config_data_bytes(job)),
        Source::TrainingOperator(_) => return Ok(()),
    };
    if bytes > super::CONFIGMAP_DATA_LIMIT {
        return Err(Error::HostfileTooLarge { operator, bytes });
    }
    Ok(())
}

/// Why Training Operator v1.9 runs no pods of a `kubeflow.org/v1` job as written: a replica type the kind's webhook does not take (PyTorchJob, XGBoostJob,
/// PaddleJob, JAXJob); else the webhook's other rules on the pods asked for (replica counts,
/// XGBoost's Master, the elastic policy); else two spellings of one type whose renaming is
/// chance; else a type whose pods the API server refuses by their name (a TFJob's webhook takes
/// any type) or cannot store (a TF_CONFIG or WORKER_ADDRS past etcd's request limit). For an
/// MPIJob of either operator, only a hostfile ConfigMap the API server refuses
/// (`hostfile_size`): its operators read only `Launcher` and `Worker` and name their pods after
/// constants (training-operator
/// v1.9.0:pkg/controller.v1/mpi/mpijob_controller.go:925,1015; mpi-operator
/// v0.6.0:pkg/apis/kubeflow/validation/validation.go:112-121). `migrate` refuses such a job
/// with it, as its operator does not run it. Else (`Ok`) what the webhook refuses in the job
/// that is not about its pods (its containers' names and images, its manager, its name), which
/// `migrate` converts and reports: the webhook is judged once per job.
#[cfg(feature = "migrate")]
pub(crate) fn refused_replica_type(doc: &Json) -> Result<Vec<Rejection>, NotRun> {
    let Some(kind) = doc.get("kind").and_then(Json::as_str).and_then(V1Kind::from_kind) else { return Ok(vec![]) };
    if kind == V1Kind::MpiJob {
        return match read(doc) {
            Err(e @ Error::HostfileTooLarge { .. }) => Err(NotRun::Operator(e)),
            _ => Ok(vec![]),
        };
    }
    if doc.get("apiVersion").and_then(Json::as_str) != Some("kubeflow.org/v1") {
        return Ok(vec![]);
    }
    let field = kind.replica_specs_field();
    let specs = at(doc, &["spec", field]).and_then(Json::as_object);
    let role = |rtype: &str| FieldPath::parse(&format!("spec.{field}[{rtype}]"));
    if let Some((rtype, detail)) = specs
        .into_iter()
        .flat_map(|s| s.keys())
        .find_map(|rtype| webhook::unsupported_replica_type(kind, rtype).map(|d| (rtype, d)))
    {
        let refusals = vec![Rejection::new(ErrorType::NotSupported, role(rtype), detail)];
        return Err(NotRun::Webhook { kind, refusals });
    }
    // The webhook's other rules on the pods asked for: the replica specs themselves, their
    // counts, XGBoost's Master, the elastic policy's Worker and process count. It judges a job
    // the schema admitted: a count that is no int32 is the schema's to refuse (the converter's
    // own check says it so).
    let int32 = |spec: &Json| {
        spec.get("replicas")
            .filter(|n| !n.is_null())
            .is_none_or(|n| n.as_i64().is_some_and(|n| i32::try_from(n).is_ok()))
    };
    let named = at(doc, &["metadata", "name"]).and_then(Json::as_str).is_some_and(|n| !n.is_empty());
    // The API server refuses a job without a name before any webhook sees it; the converter says so.
    let admitted = named && specs.is_none_or(|s| s.values().all(int32));
    // Refused so, the job is said with every error the webhook gives, as v1.9 answers it.
    let judged = if admitted { webhook::judged(doc) } else { Vec::new() };
    let pods_refused = judged.iter().any(|(_, scope)| *scope == webhook::Scope::Pods);
    let webhook_refusals: Vec<Rejection> = judged.into_iter().map(|(rejection, _)| rejection).collect();
    if pods_refused {
        return Err(NotRun::Webhook { kind, refusals: webhook_refusals });
    }
    let Some(specs) = specs else { return Ok(webhook_refusals) };
    if let Err(ambiguous) = defaults::renamed_types(kind, specs.keys().map(String::as_str)) {
        let path = FieldPath::new("spec").child(field);
        return Err(NotRun::Operator(Error::AmbiguousReplicaType { path, kind, ambiguous }));
    }
    let name = at(doc, &["metadata", "name"]).and_then(Json::as_str).unwrap_or_default();
    for (rtype, spec) in specs {
        let errors = defaults::pod_name_errors(name, &defaults::camel_case(kind, rtype));
        let runs = spec.get("replicas").and_then(Json::as_i64).unwrap_or(1) > 0;
        if runs && !errors.is_empty() {
            return Err(NotRun::Operator(Error::PodName { path: role(rtype), kind, errors }));
        }
        let value = defaults::lower(&defaults::camel_case(kind, rtype));
        let errors = crate::k8s::names::is_valid_label_value(&value);
        if runs && !errors.is_empty() {
            return Err(NotRun::Operator(Error::PodLabel { path: role(rtype), kind, value, errors }));
        }
    }
    // Pods too large for the API server to store (`pod_size`), as explain reads the job.
    match kind {
        V1Kind::TfJob | V1Kind::XgBoostJob => match read(doc) {
            Err(e @ Error::PodTooLarge { .. }) => Err(NotRun::Operator(e)),
            _ => Ok(webhook_refusals),
        },
        _ => Ok(webhook_refusals),
    }
}

/// The value at `keys` (object keys only) beneath `v`: `Value::pointer` without the copies its
/// `~1` unescaping makes of every key (a few thousand instructions a lookup), for the lookups
/// made on every converted job.
pub(crate) fn at<'v>(v: &'v Json, keys: &[&str]) -> Option<&'v Json> {
    keys.iter().try_fold(v, |v, k| v.get(*k))
}

/// Each replica type of a `kind` job as the operator runs it, with its key as written: a type
/// written in another case (`worker`) renamed as v1.9's defaulting renames it (`Worker`), a
/// type's own spec replaced by such a spelling left out (`{Worker, worker}` runs `worker`'s).
/// `Err` where two spellings make the renaming chance ([`Ambiguous`]).
#[cfg(feature = "migrate")]
pub(crate) fn renamed_replica_types<'a>(
    kind: V1Kind,
    keys: impl Iterator<Item = &'a str> + Clone,
) -> Result<Vec<(String, &'a str)>, Ambiguous> {
    defaults::renamed_types(kind, keys)
}

/// The Training Operator's validating webhook on replica counts: such a job is refused when it is
/// applied, so no pod ever ran (training-operator v1.9.0:pkg/webhooks/pytorch/pytorchjob_webhook.go:152-158,
/// pkg/webhooks/xgboost/xgboostjob_webhook.go:129-138).
fn webhook(source: Source, job: &Job) -> Result<(), Error> {
    let kind = source.kind();
    if !matches!(source, Source::TrainingOperator(V1Kind::PyTorchJob | V1Kind::XgBoostJob)) {
        return Ok(());
    }
    let field = kind.replica_specs_field();
    let replica = |rtype: &str| FieldPath::new("spec").child(field).child(rtype);
    let refused = |rtype: &str, rule| Err(Error::Webhook { path: replica(rtype).child("replicas"), rule, kind });
    match job.replica("Master").map(|s| s.replicas) {
        Some(n) if n != Some(1) => return refused("Master", "must be 1"),
        None if kind == V1Kind::XgBoostJob => {
            return Err(Error::Webhook { path: replica("Master"), rule: "must be present", kind })
        }
        _ => {}
    }
    if kind == V1Kind::PyTorchJob && job.replica("Worker").is_some_and(|s| s.replicas.unwrap_or(1) < 1) {
        return refused("Worker", "must be at least 1");
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    TrainingOperator(V1Kind),
    MpiOperator,
}

impl Source {
    pub(crate) fn kind(self) -> V1Kind {
        match self {
            Source::TrainingOperator(k) => k,
            Source::MpiOperator => V1Kind::MpiJob,
        }
    }
}

/// The pods and objects the operator creates for `doc`.
pub fn operate(doc: &Json) -> Result<Operated, Error> {
    operate_keeping(doc, Pods::Kept)
}

/// Whether [`operate`] keeps the pods it builds (`Role::pods`), or builds each only for the
/// operator's errors and drops it: what a caller that reads the Services alone needs
/// (`fails_after_admission`), without a copy of each pod's template (issue 36).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pods {
    Kept,
    Dropped,
}

fn operate_keeping(doc: &Json, pods: Pods) -> Result<Operated, Error> {
    let (source, job) = read(doc)?;
    operate_read(source, job, pods)
}

/// [`operate_keeping`] of a job already read (`read`).
fn operate_read(source: Source, mut job: Job, pods: Pods) -> Result<Operated, Error> {
    let (roles, objects) = match source {
        Source::MpiOperator => mpi_v2beta1::operate(&job)?,
        Source::TrainingOperator(V1Kind::MpiJob) => mpi_v1::operate(&job)?,
        Source::TrainingOperator(kind) => per_replica(kind, &mut job, pods)?,
    };
    let operator = if source == Source::MpiOperator { MPI_OPERATOR } else { TRAINING_OPERATOR };
    Ok(Operated { operator, kind: source.kind(), roles, objects })
}

/// The five kinds the common job controller runs: one pod and one headless Service per replica
/// index, each pod's template decorated by the kind's `SetClusterSpec`
/// (training-operator v1.9.0:pkg/controller.v1/common/pod.go:383-435, service.go:211-244).
fn per_replica(kind: V1Kind, job: &mut Job, pods: Pods) -> Result<(Vec<Role>, Vec<Object>), Error> {
    let operator = format!("Training Operator ({} controller)", kind.kind());
    let mut roles = Vec::new();
    let mut objects = Vec::new();
    for (rtype, spec) in &job.replicas {
        // Its template moves in once every pod is built (below), not copied.
        let mut role = Role::of(rtype, PodTemplateSpec::default());
        role.count = spec.replicas.unwrap_or(0);
        let mut decorations = Vec::new();
        for index in 0..role.count {
            let host = job.replica_name(rtype, index);
            objects.push(object(
                "Service",
                &host,
                &operator,
                "with the pod; headless, selects the pod by its replica-type and replica-index labels",
                None,
            ));
            role.hostnames.push(host);
            if index >= PODS_MODELLED {
                continue;
            }
            // What the operator adds to the template for this pod, written on a pod of the
            // template's containers' names alone: the cluster specs read nothing else of it.
            let mut pod = PodTemplateSpec::default();
            pod.spec.containers = spec
                .template
                .spec
                .containers
                .iter()
                .map(|c| Container { name: c.name.clone(), ..Default::default() })
                .collect();
            // pod.go:402-422: the operator's labels over the template's (`Role::pod`).
            let meta = pod.metadata.get_or_insert_with(Default::default);
            for (k, v) in defaults::labels(kind, job, rtype, index) {
                meta.labels.insert(k, v);
            }
            set_cluster_spec(kind, job, rtype, index, &mut pod)?;
            // pod.go:435 with pkg/core/pod.go:81-88: the replica's restartPolicy, ExitCode as Never.
            pod.spec.restart_policy = Some(defaults::pod_restart_policy(spec));
            if pods == Pods::Kept {
                decorations.push(pod);
            }
        }
        role.pods = Modelled::Decorated(decorations);
        roles.push(role);
    }
    if kind == V1Kind::PyTorchJob {
        objects.extend(pytorch::autoscaler(job, &operator));
    }
    objects.push(pod_group_object(&job.name, &operator, job.total()));
    // A role's pods read the other roles' templates (a Worker's env names the Master's port), so
    // the templates move into their roles only now; one role per replica type, in their order.
    for (role, (_, spec)) in roles.iter_mut().zip(job.replicas.iter_mut()) {
        role.template = std::mem::take(&mut spec.template);
    }
    Ok((roles, objects))
}

fn set_cluster_spec(kind: V1Kind, job: &Job, rtype: &str, index: u32, pod: &mut PodTemplateSpec) -> Result<(), Error> {
    match kind {
        V1Kind::PyTorchJob => pytorch::set_cluster_spec(job, rtype, index, pod),
        V1Kind::JaxJob => xgboost_jax::jax_env(job, index, pod),
        V1Kind::XgBoostJob => xgboost_jax::xgboost_env(job, rtype, index, pod),
        V1Kind::TfJob => tensorflow::set_cluster_spec(job, rtype, index, pod),
        V1Kind::PaddleJob => {
            paddle::set_pod_env(job, rtype, index, pod);
            Ok(())
        }
        V1Kind::MpiJob => Ok(()),
    }
}

/// A PodGroup exists only when the operator runs with `--gang-scheduler-name`
/// (training-operator v1.9.0:cmd/training-operator.v1/main.go:93); `minMember` is every replica
/// unless `runPolicy.schedulingPolicy.minAvailable` says otherwise (common/job.go:250-260).
/// pkg/controller.v1/common/scheduling.go:36,52-53: the PodGroup takes the job's name.
/// Volcano's and scheduler-plugins' PodGroups both hold it as `spec.minMember`
/// ([`pod_group_spec`]).
pub(crate) fn pod_group_object(job: &str, operator: &str, members: u32) -> Object {
    Object {
        spec: Some(pod_group_spec(members)),
        ..object(
            "PodGroup",
            job,
            operator,
            "only when the operator runs with --gang-scheduler-name (volcano or scheduler-plugins)",
            None,
        )
    }
}

/// A PodGroup's `spec` with its `minMember`, the field both gang schedulers name so
/// (volcano.sh/apis v1.13.3 pkg/apis/scheduling/v1beta1/types.go:177, scheduler-plugins
/// v0.35.4-devel apis/scheduling/v1alpha1/types.go:151).
pub(crate) fn pod_group_spec(members: u32) -> serde_json::Value {
    serde_json::json!({ "minMember": members })
}

pub(crate) fn object(kind: &str, name: &str, by: &str, when: &str, data: Option<VecMap<String, String>>) -> Object {
    Object { data, ..Object::new(kind, name.into(), by, when) }
}

/// Appends to every container's env, as the operators' `append` does (a name set twice keeps
/// both entries; the kubelet uses the last).
pub(crate) fn append_env(c: &mut Container, vars: impl IntoIterator<Item = EnvVar>) {
    // Room for exactly these: a list grown by doubling holds up to twice its variables as long
    // as the pod lives (a container of 100,000 variables held 10 MB more in each pod).
    let vars = vars.into_iter();
    c.env.reserve_exact(vars.size_hint().0);
    c.env.extend(vars);
}

/// Appends `vars` to every container of a pod, as [`append_env`] each: a copy for each container
/// but the last, which takes them (a pod has one container in most jobs; copying its variables
/// and dropping the originals cost more than building them, on every pod of every job).
pub(crate) fn append_env_to_each(containers: &mut [Container], vars: Vec<EnvVar>) {
    let Some((last, others)) = containers.split_last_mut() else { return };
    for c in others {
        append_env(c, vars.iter().cloned());
    }
    append_env(last, vars);
}

pub(crate) fn env(name: &str, value: impl VarValue) -> EnvVar {
    EnvVar { name: name.into(), value: Some(value.into_text()), value_from: None }
}

/// A value an operator writes into a variable, as its text: a text as it is (a `String` moved,
/// not copied again), a number written out. Not `ToString`, which copies a `String` it is given
/// and writes a `&String` through the formatter, for every variable of every pod of a paste.
pub(crate) trait VarValue {
    fn into_text(self) -> String;
}

impl VarValue for &str {
    fn into_text(self) -> String {
        self.into()
    }
}

impl VarValue for &String {
    fn into_text(self) -> String {
        self.clone()
    }
}

impl VarValue for String {
    fn into_text(self) -> String {
        self
    }
}

/// The numbers operators write (counts, ranks, ports) as Go's `strconv.Itoa` does.
macro_rules! number_var_value {
    ($($t:ty),*) => {$(
        impl VarValue for $t {
            fn into_text(self) -> String {
                self.to_string()
            }
        }
    )*};
}

number_var_value!(i32, i64, u32);

pub(crate) fn field_env(name: &str, path: &str) -> EnvVar {
    super::build::field_ref_env(name, path)
}

/// The port named `port_name` on the container named `container` of a replica type, as each
/// framework's `getPortFrom*Job` finds it.
pub(crate) fn named_port(job: &Job, rtype: &str, container: &str, port_name: &str) -> Option<i64> {
    let spec = job.replica(rtype)?;
    spec.template
        .spec
        .containers
        .iter()
        .filter(|c| c.name == container)
        .flat_map(|c| c.ports.iter())
        .find(|p| p.name.as_deref() == Some(port_name))
        .map(|p| p.container_port)
}

/// What `explain` prints for a V1 job.
pub fn explain(doc: &Json) -> V1Explanation {
    // A `null` member is absent, as the API server stores the object.
    match operated(&crate::model::without_nulls(doc)) {
        Ok(op) => view(&op),
        Err(refused) => *refused,
    }
}

/// [`explain`] of a job the caller hands over: its containers' lists (`args`, `command`, `env`)
/// move from its tree into the pods' model rather than being copied ([`PodSpecs::Judged`]), and
/// its tree is dropped once the pods are built, before their view is made, which takes those
/// lists from the model in turn ([`view_owned`]): a list is held once at every step (a job of
/// 4 MiB is a tree of about 30 MB; issue 36).
pub fn explain_owned(doc: Json) -> V1Explanation {
    let mut doc = crate::model::into_without_nulls(doc);
    let (source, job) = match checked(&doc, PodSpecs::Judged) {
        Checked { admitted: Some(admitted), .. } => admitted,
        Checked { refusals, .. } => return *refused(&doc, refusals),
    };
    // The job's lists, judged and left in its tree, move into its model; the job then reads
    // the rest of its spec from the tree again.
    let Job { name, namespace, mut replicas, written, spec: _ } = job;
    lists_moved_in(&mut doc, source.kind(), &mut replicas, &written);
    let Some(spec) = doc.get("spec").and_then(Json::as_object) else {
        // The reading found it a mapping, and moving the lists out leaves it one.
        return *refused(&doc, vec![Rejection::message("spec", "not a mapping".to_string())]);
    };
    let job = Job { name, namespace, spec, replicas, written };
    match operate_read(source, job, Pods::Kept) {
        Ok(op) => {
            drop(doc);
            view_owned(op)
        }
        Err(error) => *refused(&doc, vec![Rejection::message("spec", error.to_string())]),
    }
}

/// Moves each list a [`PodSpecs::Judged`] reading of `doc` left in its tree (each container's
/// `args`, `command` and `env`, read empty) into `replicas`, the job that reading admitted:
/// `written` names each replica's spec in the tree. Every item was judged as the model reads it,
/// so each becomes what the model would have read: the strings themselves, not copies.
fn lists_moved_in(doc: &mut Json, kind: V1Kind, replicas: &mut [(String, ReplicaSpec)], written: &[String]) {
    let Some(specs) = doc.get_mut("spec").and_then(|s| s.get_mut(kind.replica_specs_field())) else { return };
    for ((_, replica), written) in replicas.iter_mut().zip(written) {
        let Some(pod) = specs.get_mut(written).and_then(|r| r.get_mut("template")).and_then(|t| t.get_mut("spec"))
        else {
            continue;
        };
        let spec = &mut replica.template.spec;
        for (containers, key) in [(&mut spec.containers, "containers"), (&mut spec.init_containers, "initContainers")] {
            let Some(Json::Array(written)) = pod.get_mut(key) else { continue };
            for (container, written) in containers.iter_mut().zip(written) {
                container.command = texts(written.get_mut("command"));
                container.args = texts(written.get_mut("args"));
                container.env = variables(written.get_mut("env"));
            }
        }
    }
}

/// The strings of a list a judged reading left, taken out of the tree (`String`'s reading
/// admitted each item: every one is a string).
fn texts(list: Option<&mut Json>) -> Vec<String> {
    let Some(Json::Array(items)) = list else { return vec![] };
    // In place: the tree's list becomes the model's, with room for exactly its strings.
    std::mem::take(items)
        .into_iter()
        .map(|item| if let Json::String(text) = item { text } else { String::new() })
        .collect()
}

/// The variables of an `env` a judged reading left, taken out of the tree: each as `EnvVar`'s
/// reading makes it (its `name` and `value` moved, its `valueFrom` read as the model reads it).
fn variables(list: Option<&mut Json>) -> Vec<EnvVar> {
    let Some(Json::Array(items)) = list else { return vec![] };
    let text = |item: &mut Json, key: &str| match item.get_mut(key) {
        Some(Json::String(text)) => Some(std::mem::take(text)),
        _ => None,
    };
    std::mem::take(items)
        .into_iter()
        .map(|mut item| EnvVar {
            name: text(&mut item, "name").unwrap_or_default(),
            value: text(&mut item, "value"),
            value_from: item.get("valueFrom").filter(|v| !v.is_null()).and_then(|v| crate::model::from_json(v).ok()),
        })
        .collect()
}

/// The answer for a V1 job `doc` the cluster refuses (or whose operator fails on it) with
/// `rejected`, named after its operator.
fn refused(doc: &Json, rejected: Vec<Rejection>) -> Box<V1Explanation> {
    let api = doc.get("apiVersion").and_then(Json::as_str).unwrap_or_default();
    let kind = doc.get("kind").and_then(Json::as_str).unwrap_or_default();
    // The operator whose CRD serves the pair names even a refusal; a pair neither serves is the
    // REST mapper's answer, named after the operator of the kind's v1 (Training Operator).
    let operator = served::v1_operator(api, kind).map_or(TRAINING_OPERATOR, |op| op.name);
    Box::new(V1Explanation {
        operator: operator.into(),
        pods: vec![],
        objects: vec![],
        rejected,
        fails_after_admission: vec![],
    })
}

/// What the operator makes of `doc` (its `null` members removed), or the explanation of why it
/// runs nothing.
fn operated(doc: &Json) -> Result<Operated, Box<V1Explanation>> {
    // The REST mapper, strict field validation (no pod runs for a field the CRD does not
    // declare), the API server's schema and the webhook (`check`): a refusal names its fields.
    let Checked { refusals, admitted } = checked(doc, PodSpecs::Named);
    let Some((source, job)) = admitted else { return Err(refused(doc, refusals)) };
    operate_read(source, job, Pods::Kept)
        .map_err(|error| refused(doc, vec![Rejection::message("spec", error.to_string())]))
}

/// Every field of a V1 job that its operator's CRD does not declare, as the API server's strict
/// field validation refuses them, each with its path. `kubectl apply` asks for it unless told
/// otherwise: its `--validate` defaults to `strict` (kubectl v0.35.7:pkg/cmd/util/helpers.go:468-475,
/// sent as `fieldValidation=Strict`, :671-673; since Kubernetes 1.27), and under it the API server
/// returns each field the structural schema would prune as a strict decoding error instead of
/// pruning it (apiextensions-apiserver v0.35.7:pkg/apiserver/customresource_handler.go:1338-1342;
/// no V1 CRD sets `x-kubernetes-preserve-unknown-fields`). Only `--validate=warn` or `ignore`
/// has the object stored with the field pruned. Upstream's tests pin both halves: kubectl's
/// `TestGetValidationDirective` gets `Strict` with no `--validate` given
/// (kubectl v0.35.7:pkg/cmd/util/helpers_test.go:551-553), and the decoder's "strict-decoding"
/// case refuses a field outside the schema as `unknown field "unknown"`
/// (apiextensions-apiserver v0.35.7:pkg/apiserver/customresource_handler_test.go:718-722). The
/// path: the schemas are the V1 CRDs' (training-operator v1.9's `kubeflow.org/v1` kinds,
/// mpi-operator's `kubeflow.org/v2beta1` MPIJob) in the generated crd/fields.rs, walked by the
/// same walker as V2's (crd::strict). The caller passes the object with its `null` members
/// removed (`model::without_nulls`), as explain's V2 reader does (explain::read), so a `null` is
/// absent here too. Empty for a kind or version no V1 operator serves (that is the REST
/// mapper's refusal, not this one). `validate` calls it for V1 kinds.
pub fn unknown_fields(doc: &Json) -> Vec<Rejection> {
    let api = doc.get("apiVersion").and_then(Json::as_str).unwrap_or_default();
    let kind = doc.get("kind").and_then(Json::as_str).unwrap_or_default();
    let Some(operator) = served::v1_operator(api, kind) else { return vec![] };
    super::crd::strict::unknown_fields(operator.name, doc)
        .into_iter()
        .map(|path| {
            Rejection::new(ErrorType::UnknownField, FieldPath::parse(&path), unknown_field(operator.name, &path))
        })
        .collect()
}

/// The API server's strict decoding error for a field `path` of a job whose operator's
/// ([`TRAINING_OPERATOR`], [`MPI_OPERATOR`]) CRD does not declare it: [`unknown_fields`]' words,
/// which migrate's report repeats for a field it drops.
pub(crate) fn unknown_field(operator: &str, path: &str) -> String {
    format!("strict decoding error: unknown field \"{path}\" (not in the {operator} CRD)")
}

/// What the API server refuses after it admitted `doc` (a V1 job), as `explain` gives it under
/// `failsAfterAdmission`: `[]` for a job refused (`check`), one the operator fails on, or one
/// whose objects are all created. `validate` calls it for a job `check` admits.
pub fn fails_after_admission(doc: &Json) -> Vec<Rejection> {
    judge(doc).fails_after_admission
}

/// A V1 job as `validate` judges it: what the cluster refuses when it is created ([`check`]),
/// and for a job it admits, what it refuses after ([`fails_after_admission`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Judged {
    /// [`check`]'s errors: `[]` when the job is admitted.
    pub refused: Vec<Rejection>,
    /// [`fails_after_admission`]'s: `[]` for a refused job.
    pub fails_after_admission: Vec<Rejection>,
}

/// [`check`] and [`fails_after_admission`] of `doc`, with the job checked once: a caller that
/// wants both and called each checked it twice, since the second checks first too (the CPU
/// and whatever the check holds, again).
pub fn judge(doc: &Json) -> Judged {
    let doc = &crate::model::without_nulls(doc);
    let Checked { refusals, admitted } = checked(doc, PodSpecs::Judged);
    let Some((source, job)) = admitted else { return Judged { refused: refusals, fails_after_admission: vec![] } };
    let fails_after_admission =
        operate_read(source, job, Pods::Dropped).map(|op| service_failures(&op)).unwrap_or_default();
    Judged { refused: refusals, fails_after_admission }
}

/// What `op` makes, as `explain` prints it.
pub fn view(op: &Operated) -> V1Explanation {
    V1Explanation {
        operator: op.operator.into(),
        pods: op.roles.iter().filter(|r| r.count > 0).map(group_view).collect(),
        objects: op.objects.clone(),
        rejected: vec![],
        fails_after_admission: service_failures(op),
    }
}

/// [`view`] of pods the caller hands over: each container's `command` and `args` move into the
/// view rather than being copied (84,000 arguments of a template were held twice, in the pods and
/// in their view; issue 36), and so do its template's variables where [`moved_env`] can take them.
fn view_owned(mut op: Operated) -> V1Explanation {
    let fails_after_admission = service_failures(&op);
    let pods = op
        .roles
        .iter_mut()
        .filter(|r| r.count > 0)
        .map(|role| {
            let envs = (0..role.containers().len()).map(|i| moved_env(role, i)).collect();
            let lists: Vec<(Vec<String>, Vec<String>)> = role
                .containers_mut()
                .iter_mut()
                .map(|c| (std::mem::take(&mut c.command), std::mem::take(&mut c.args)))
                .collect();
            let mut group = group_view_with(role, envs);
            // The view lists the init containers first, then the containers, in their order.
            for (view, (command, args)) in group.containers.iter_mut().filter(|c| !c.init).zip(lists) {
                view.command = command;
                view.args = args;
            }
            group
        })
        .collect();
    V1Explanation { operator: op.operator.into(), pods, objects: op.objects, rejected: vec![], fails_after_admission }
}

/// Container `i`'s env across a role of the common controller's pods, its template's variables
/// taken from the role ([`template_env_moved`]); `None`, the role as it was, where they cannot be.
fn moved_env(role: &mut Role, i: usize) -> Option<VecMap<String, EnvValue>> {
    // A role that models no pod gives none of its variables to the view (`per_pod_env`).
    let Modelled::Decorated(decorations) = &role.pods else { return None };
    if decorations.is_empty() {
        return None;
    }
    let template = std::mem::take(&mut role.template.spec.containers.get_mut(i)?.env);
    let added: Vec<&[EnvVar]> =
        decorations.iter().map(|pod| pod.spec.containers.get(i).map_or(&[][..], |c| &c.env[..])).collect();
    match template_env_moved(template, &added, role.count) {
        Ok(env) => Some(env),
        Err(template) => {
            if let Some(c) = role.template.spec.containers.get_mut(i) {
                c.env = template;
            }
            None
        }
    }
}

/// [`per_pod_env`] of a container of a role of the common controller, from its template's
/// variables (`template`, which every pod has) and what the operator adds to each pod (`added`):
/// where the template names each variable once and the operator adds none of its names, each of
/// them gives every pod its one value, in the template's order, and the template's list becomes
/// the answer's in place (66,000 variables were copied, with a list of every pod's variables and
/// its sorted copy beside them; issue 36); the operator's follow, merged as `per_pod_env` merges
/// them. `Err(template)` otherwise.
fn template_env_moved(
    template: Vec<EnvVar>,
    added: &[&[EnvVar]],
    count: u32,
) -> Result<VecMap<String, EnvValue>, Vec<EnvVar>> {
    let mut names: Vec<&str> = template.iter().map(|var| var.name.as_str()).collect();
    names.sort_unstable();
    let once = names.windows(2).all(|pair| pair[0] != pair[1]);
    let apart = added.iter().flat_map(|vars| vars.iter()).all(|var| names.binary_search(&var.name.as_str()).is_err());
    drop(names);
    if !(once && apart) {
        return Err(template);
    }
    let added = merged_env(added.len(), |pod| added[pod].iter(), count);
    let mut env: Vec<(String, EnvValue)> = template.into_iter().map(EnvValue::of_owned).collect();
    env.reserve_exact(added.len());
    env.extend(added);
    Ok(VecMap::from_distinct(env))
}

/// The first Service of `count` pods of `rtype` in a `kind` job named `job` that the API server
/// refuses by its name, with apimachinery's reasons (see [`service_failures`]); none for an MPIJob,
/// whose operators create no Service per pod. Names grow only with the index's digits, so one
/// name per digit count is judged.
#[cfg(feature = "migrate")]
pub(crate) fn refused_service(kind: V1Kind, job: &str, rtype: &str, count: u32) -> Option<(String, Vec<String>)> {
    if kind == V1Kind::MpiJob {
        return None;
    }
    let mut index: u32 = 0;
    while index < count {
        let name = defaults::replica_name(job, rtype, index);
        let errors = crate::k8s::names::is_dns1035_label(&name);
        if !errors.is_empty() {
            return Some((name, errors));
        }
        index = if index == 0 { 10 } else { index.saturating_mul(10) };
        if index == u32::MAX {
            break;
        }
    }
    None
}

/// The first Service of each replica type the API server refuses by its name, which must be a
/// DNS-1035 label (apimachinery's `ValidateServiceName`): the five kinds the common controller
/// runs name each pod's headless Service `<job>-<type in lower case>-<index>`
/// (training-operator v1.9.0:pkg/controller.v1/common/service.go:243, pkg/core/utils.go:30-33),
/// which a long job name or a type holding a `.` makes no label. The pods are created first
/// (common/job.go:339-345); `ReconcileServices` then stops at the refused Service
/// (service.go:180-188) and the sync returns there (job.go:345-349) before it updates the job's
/// status (job.go:354): every sync fails alike, so the status never reaches Running or Succeeded, and no
/// pod reaches that replica by its name.
fn service_failures(op: &Operated) -> Vec<Rejection> {
    if op.kind == V1Kind::MpiJob {
        return vec![];
    }
    let field = op.kind.replica_specs_field();
    op.roles
        .iter()
        .filter_map(|role| {
            role.hostnames.iter().find_map(|name| {
                let errors = crate::k8s::names::is_dns1035_label(name);
                (!errors.is_empty()).then(|| {
                    let path = FieldPath::new("spec").child(field).child(&role.replica_type);
                    Rejection::new(ErrorType::Message, path, error::service_refused(op.kind, name, &errors))
                })
            })
        })
        .collect()
}

fn group_view(role: &Role) -> V1PodGroup {
    group_view_with(role, Vec::new())
}

/// [`group_view`], where the caller made container `i`'s env already if `envs[i]` holds it.
fn group_view_with(role: &Role, envs: Vec<Option<VecMap<String, EnvValue>>>) -> V1PodGroup {
    let mut envs = envs.into_iter();
    // The first pod's containers, read from the role without building the pod.
    let containers = role
        .init_containers(0)
        .map(|c| ContainerView { init: true, ..super::build::container_view(c) })
        // Each container's env as the pods differ in it, built once: the first pod's own copy,
        // which `container_view` makes, would be dropped for it.
        .chain(role.containers().iter().enumerate().map(|(i, c)| {
            let env = envs.next().flatten().unwrap_or_else(|| per_pod_env(role, i));
            super::build::container_view_with_env(c, env)
        }))
        .collect();
    V1PodGroup {
        replica_type: role.replica_type.clone(),
        count: role.count,
        hostnames: role.hostnames.clone(),
        containers,
    }
}

/// Container `i`'s env across the role's pods: one value where every pod has the same, else one
/// entry per pod (`null` where a pod lacks the variable). Names in the order the pods first give
/// them, so a variable only later pods have is listed too; a name a pod sets twice takes its last
/// value there, as the kubelet reads it (and as `VecMap::from_entries` keeps it).
pub(crate) fn per_pod_env(role: &Role, i: usize) -> VecMap<String, EnvValue> {
    merged_env(role.modelled(), |pod| role.env(pod, i), role.count)
}

/// [`per_pod_env`] of the variables `env_of` gives each of `pods` pods, of a role of `count`.
fn merged_env<'a, E: Iterator<Item = &'a EnvVar>>(
    pods: usize,
    env_of: impl Fn(usize) -> E,
    count: u32,
) -> VecMap<String, EnvValue> {
    // A role of one pod (every Master and Launcher): its variables as they are, which the merge
    // below would give back after sorting them.
    if pods == 1 {
        return env_of(0).map(|var| (var.name.clone(), EnvValue::of(var))).collect();
    }
    // Every pod's variables, borrowed, pod after pod (each with its place in that order and its
    // pod), then sorted by name (a stable sort, so a name's first entry is where it first appears,
    // and its entries stay in that order): each name is looked at once. Looking each name up in
    // every pod's list was quadratic: a container of 83,000 variables took 17 s to explain; and
    // copying every pod's variables into a map first took 24 MB of many-env's 89 (issue 36).
    let mut entries: Vec<(usize, usize, &EnvVar)> = (0..pods)
        .flat_map(|pod| env_of(pod).map(move |var| (pod, var)))
        .enumerate()
        .map(|(place, (pod, var))| (place, pod, var))
        .collect();
    entries.sort_by(|a, b| a.2.name.cmp(&b.2.name));
    let mut named: Vec<(usize, &str, EnvValue)> = entries
        .chunk_by(|a, b| a.2.name == b.2.name)
        .map(|same_name| {
            // Each pod's last variable of the name: its value in that pod.
            let mut values: Vec<Option<&EnvVar>> = vec![None; pods];
            for &(_, pod, var) in same_name {
                values[pod] = Some(var);
            }
            let value = match values.as_slice() {
                [Some(first), rest @ ..] if rest.iter().all(|v| v.is_some_and(|v| EnvValue::same(v, first))) => {
                    EnvValue::of(first)
                }
                _ => EnvValue::PerPod { per_pod: values.iter().map(|v| v.map(EnvValue::of)).collect(), pods: count },
            };
            let (place, _, var) = same_name[0];
            (place, var.name.as_str(), value)
        })
        .collect();
    // The list of every pod's variables goes before the names are copied into the answer.
    drop(entries);
    named.sort_unstable_by_key(|&(place, ..)| place);
    VecMap::from_distinct(named.into_iter().map(|(_, name, value)| (name.to_owned(), value)).collect())
}

/// Whether a parsed document is a V1 job kind in the `kubeflow.org` group, at any version: one
/// a V1 operator runs, or one whose version neither serves (refused as the cluster would).
pub fn is_v1_job(doc: &Json) -> bool {
    let api = doc.get("apiVersion").and_then(Json::as_str).unwrap_or_default();
    let kind = doc.get("kind").and_then(Json::as_str).unwrap_or_default();
    api.starts_with("kubeflow.org/") && V1Kind::from_kind(kind).is_some()
}

/// The V1 job in YAML `text`, explained; `None` when the text holds none (it may hold a
/// TrainJob instead). Other documents are ignored, as the V2 reader ignores them. The text is read
/// through the input door every command shares (`explain::read::trees`).
#[cfg(feature = "yaml-input")]
pub fn explain_text(text: &str) -> Option<Result<V1Explanation, Error>> {
    match super::read::trees(text) {
        Ok(docs) => explain_trees(&docs),
        Err(e) => Some(Err(Error::Input(e))),
    }
}

/// `explain_text` for documents already read.
pub fn explain_trees(docs: &[Json]) -> Option<Result<V1Explanation, Error>> {
    let jobs: Vec<&Json> = docs.iter().filter(|doc| is_v1_job(doc)).collect();
    match jobs.as_slice() {
        [] => None,
        [job] => Some(Ok(explain(job))),
        more => Some(Err(Error::SeveralJobs(more.len()))),
    }
}

/// The `spec.mpiImplementation` values mpi-operator v0.6's CRD allows
/// ($TRAINER_REFERENCE/mpi-operator-v2beta1/kubeflow.org_mpijobs.yaml:46-55, `enum`).
const MPI_IMPLEMENTATIONS: [&str; 3] = ["OpenMPI", "Intel", "MPICH"];

/// Every error the V1 operator's cluster gives when `doc` (a V1 job, as written) is created, in
/// the order it meets them: the REST mapper (a kind and version neither operator serves); strict
/// decoding (each field the operator's CRD does not declare, crd::strict with the V1 CRDs'
/// schemas); then the API server's check of every custom resource's name
/// (`validate::object_meta_name`) and the schema's types and values, and only for a job whose
/// name it takes, the operator's webhook, as `explain` reads the job (a refusal names its field
/// path). `[]` when the job is admitted. The V1 CRDs' one CEL
/// rule (`spec.runPolicy.schedulingPolicy.queue` is immutable) is a transition rule: it runs on
/// update only.
pub fn check(doc: &Json) -> Vec<Rejection> {
    checked(&crate::model::without_nulls(doc), PodSpecs::Judged).refusals
}

/// [`check`] of a job without `null` members, with the job as read when it is admitted.
struct Checked<'a> {
    /// [`check`]'s errors: `[]` when the job is admitted.
    refusals: Vec<Rejection>,
    /// The job's kind and replica specs (`read`, each pod spec's named fields:
    /// [`PodSpecs::Named`] or [`PodSpecs::Judged`]) when it is admitted: what the operator makes of
    /// it is built from this reading, not from another (each reads the job's templates into
    /// the pod model beside its tree, the CPU and the memory of a copy; issue 36).
    admitted: Option<(Source, Job<'a>)>,
}

fn checked(doc: &Json, pod_specs: PodSpecs) -> Checked<'_> {
    let refused = |refusals| Checked { refusals, admitted: None };
    let api = doc.get("apiVersion").and_then(Json::as_str).unwrap_or_default();
    let kind = doc.get("kind").and_then(Json::as_str).unwrap_or_default();
    let Some(operator) = served::v1_operator(api, kind) else {
        return refused(vec![no_kind_match(kind, api)]);
    };
    let unknown = unknown_fields(doc);
    if !unknown.is_empty() {
        return refused(unknown);
    }
    // The API server checks the name of every custom resource before the schema's values, and
    // a webhook never sees a job it refused (mpi-operator has none to catch it).
    let mut out = super::validate::object_meta_name(doc);
    let name_refused = !out.is_empty();
    if let Some(value) = at(doc, &["spec", "mpiImplementation"]).filter(|_| operator.name == MPI_OPERATOR) {
        if !value.as_str().is_some_and(|v| MPI_IMPLEMENTATIONS.contains(&v)) {
            let allowed: Vec<String> = MPI_IMPLEMENTATIONS.iter().map(|a| format!("{a:?}")).collect();
            out.push(Rejection::new(
                ErrorType::NotSupported,
                FieldPath::parse("spec.mpiImplementation"),
                format!("{value}: supported values: {}", allowed.join(", ")),
            ));
        }
    }
    // Every value the reading refuses, not only the first: each is taken out and the job read
    // again (as explain::read does for a TrainJob), until it reads or a refusal names nothing
    // to take out, or names a field already refused (the webhook's check of a count).
    let mut read_errors: Vec<Rejection> = Vec::new();
    // Most jobs read at once, and the tree is copied only once a value is to be taken out (a
    // job of 4 MiB held its whole tree twice).
    let read_once = match read_keeping(doc, pod_specs) {
        Ok(job) => Some(job),
        Err(first) => {
            let mut job = doc.clone();
            let mut error = Some(first);
            while let Some(e) = error.take() {
                let error_at = e.rejection();
                if read_errors.iter().any(|r: &Rejection| r.path == error_at.path) || read_errors.len() >= MAX_ERRORS {
                    break;
                }
                let removed = super::read::remove_at(&mut job, &error_at.path);
                read_errors.push(error_at);
                if removed {
                    error = read_keeping(&job, pod_specs).err();
                }
            }
            None
        }
    };
    // The webhook runs once the schema admits the job: its errors, unless the reading found one
    // the webhook does not name (a value of the wrong type, which the API server refuses first).
    let webhook = if name_refused { vec![] } else { webhook::refusals(doc) };
    let named = |r: &Rejection| webhook.iter().any(|w| dotted(&w.field()) == dotted(&r.field()));
    if webhook.is_empty() || read_errors.iter().any(|r| !named(r)) {
        out.extend(read_errors);
    } else {
        out.extend(webhook);
    }
    // No error: the name was taken, and the job read at once (a reading error, or the
    // webhook's, is in `out`).
    let admitted = if out.is_empty() { read_once } else { None };
    Checked { refusals: out, admitted }
}

/// Why the cluster refuses a V1 job's own name, as [`check`] words it: the API server's check of
/// every custom resource's name, else the webhook's of a Training Operator kind
/// (`training_operator_kind`; mpi-operator has no webhook). Empty when the name is taken.
#[cfg(feature = "migrate")]
pub(crate) fn name_refusals(training_operator_kind: Option<V1Kind>, name: &str) -> Vec<Rejection> {
    let api_server = super::validate::refused_name(name);
    match training_operator_kind {
        Some(kind) if api_server.is_empty() && webhook::has_webhook(kind) => {
            webhook::name_refusal(name).into_iter().collect()
        }
        _ => api_server,
    }
}

/// A field path with its map keys written as the schema's errors write them (`x[Worker].y` as
/// `x.Worker.y`), to compare the webhook's paths with the reader's.
fn dotted(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut key = String::new();
    let mut in_key = false;
    for ch in path.chars() {
        match (ch, in_key) {
            ('[', false) => in_key = true,
            (']', true) => {
                in_key = false;
                if key.parse::<usize>().is_ok() {
                    out.push_str(&format!("[{key}]"));
                } else {
                    out.push('.');
                    out.push_str(&key);
                }
                key.clear();
            }
            (c, true) => key.push(c),
            (c, false) => out.push(c),
        }
    }
    out
}

/// The REST mapper's answer for a kind and version no V1 operator serves.
fn no_kind_match(kind: &str, api: &str) -> Rejection {
    Rejection::new(ErrorType::NoKindMatch, FieldPath::parse("apiVersion"), served::no_matches(kind, api))
}

/// The most errors reported for one V1 job.
const MAX_ERRORS: usize = 100;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::pod::EnvVar;

    fn pod(env: &[(&str, &str)]) -> PodTemplateSpec {
        let mut c = Container::new("main", "img");
        c.env = env.iter().map(|(n, v)| EnvVar::new(n, v)).collect();
        let mut pod = PodTemplateSpec::default();
        pod.spec.containers.push(c);
        pod
    }

    /// A variable only some pods have is `null` on the others, never `""` (which is a value):
    /// issue 31 item 5. The one only the second pod has is listed too.
    #[test]
    fn a_variable_some_pods_lack_is_null_on_them() {
        let mut role = Role::of("Worker", PodTemplateSpec::default());
        role.count = 3;
        role.pods = Modelled::Built(vec![
            pod(&[("RANK", "0"), ("EMPTY", "")]),
            pod(&[("RANK", "1"), ("EMPTY", ""), ("LATE", "x")]),
        ]);
        let env = serde_json::to_value(per_pod_env(&role, 0)).unwrap();
        assert_eq!(
            env,
            serde_json::json!({"RANK": {"perPod": ["0", "1"]}, "EMPTY": "", "LATE": {"perPod": [null, "x"]}})
        );
        // The text form names how many pods the list leaves out.
        assert_eq!(per_pod_env(&role, 0).get("LATE").unwrap().text(), r#"per pod: [null,"x"] (the first 2 of 3 pods)"#);
    }

    /// Names keep the order the pods first give them, whatever their alphabetical order, and a
    /// name a pod sets twice counts once (its last value, as the kubelet reads it).
    #[test]
    fn names_are_listed_where_the_pods_first_give_them() {
        let mut role = Role::of("Worker", PodTemplateSpec::default());
        role.count = 2;
        role.pods = Modelled::Built(vec![
            pod(&[("Z", "1"), ("B", "0"), ("Z", "2")]),
            pod(&[("A", "x"), ("B", "1"), ("Z", "2"), ("C", "y")]),
        ]);
        let env = per_pod_env(&role, 0);
        let names: Vec<&str> = env.keys().map(String::as_str).collect();
        assert_eq!(names, ["Z", "B", "A", "C"]);
        assert_eq!(env.get("Z"), Some(&EnvValue::Text("2".into())));
        assert_eq!(env.get("B").unwrap().text(), r#"per pod: ["0","1"]"#);
        assert_eq!(env.get("C").unwrap().text(), r#"per pod: [null,"y"]"#);
    }
    /// A role of the common controller keeps its template once and what the operator adds to
    /// each pod: a pod read whole ([`Role::pod`]) has the template's variables, then the
    /// operator's, and [`Role::env`] and [`Role::init_containers`] read the same without building
    /// it.
    #[test]
    fn a_pod_read_whole_and_its_variables_read_alone_agree() {
        let doc = serde_json::json!({"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "p"},
            "spec": {"pytorchReplicaSpecs": {
                "Master": {"replicas": 1, "template": {"spec": {"containers": [{"name": "pytorch", "image": "a",
                    "ports": [{"name": "pytorchjob-port", "containerPort": 23456}],
                    "env": [{"name": "OWN", "value": "1"}]}]}}},
                "Worker": {"replicas": 3, "template": {"spec": {"containers": [
                    {"name": "pytorch", "image": "a", "env": [{"name": "OWN", "value": "2"}]},
                    {"name": "side", "image": "b"}]}}}}}});
        let op = operate(&doc).unwrap();
        let worker = op.roles.iter().find(|r| r.replica_type == "Worker").unwrap();
        assert_eq!(worker.modelled(), 3);
        for index in 0..worker.modelled() {
            let pod = worker.pod(index).unwrap();
            let rank = pod.spec.containers[0].env.iter().find(|e| e.name == "RANK").unwrap();
            assert_eq!(rank.value.as_deref(), Some((index + 1).to_string().as_str()), "Worker {index}");
            assert_eq!(pod.spec.containers[0].env[0], EnvVar::new("OWN", "2"), "the template's variable first");
            for (c, container) in pod.spec.containers.iter().enumerate() {
                let alone: Vec<&EnvVar> = worker.env(index, c).collect();
                assert_eq!(alone, container.env.iter().collect::<Vec<_>>(), "Worker {index}, container {c}");
            }
            let init: Vec<&Container> = worker.init_containers(index).collect();
            assert_eq!(init, pod.spec.init_containers.iter().collect::<Vec<_>>(), "Worker {index}");
            assert_eq!(init.len(), 1, "each Worker waits for the Master");
            let labels = &pod.metadata.as_ref().unwrap().labels;
            assert_eq!(labels.get("training.kubeflow.org/replica-index"), Some(&index.to_string()));
        }
        assert!(worker.pod(3).is_none() && worker.env(3, 0).next().is_none());
    }

    /// The pod comparison reads a pod's metadata, pod settings and containers from
    /// [`Role::pod_base`] without building it: the template with the operator's labels over its
    /// own is the pod [`Role::pod`] builds, but for its containers' variables, init containers and
    /// restart policy (read by [`Role::env`] and [`Role::init_containers`]).
    #[test]
    fn a_pods_base_with_the_operators_labels_is_the_pod_built() {
        let doc = serde_json::json!({"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "p"},
            "spec": {"pytorchReplicaSpecs": {
                "Master": {"replicas": 1, "template": {"spec": {"containers": [{"name": "pytorch", "image": "a",
                    "ports": [{"name": "pytorchjob-port", "containerPort": 23456}]}]}}},
                "Worker": {"replicas": 2, "template": {
                    "metadata": {"labels": {"team": "a", "training.kubeflow.org/replica-index": "mine"},
                        "annotations": {"note": "n"}},
                    "spec": {"nodeSelector": {"disk": "ssd"}, "volumes": [{"name": "data", "emptyDir": {}}],
                        "containers": [{"name": "pytorch", "image": "a"}, {"name": "side", "image": "b"}]}}}}}});
        let op = operate(&doc).unwrap();
        for role in &op.roles {
            for index in 0..role.modelled() {
                let pod = role.pod(index).unwrap();
                let (base, operator_labels) = role.pod_base(index).unwrap();
                let mut read = base.clone();
                let meta = read.metadata.get_or_insert_with(Default::default);
                for (k, v) in operator_labels.into_iter().flat_map(|l| l.iter()) {
                    meta.labels.insert(k.clone(), v.clone());
                }
                let at = format!("{} {index}", role.replica_type);
                assert_eq!(read.metadata, pod.metadata, "{at}: the operator's labels over the template's");
                assert_eq!((&read.spec.volumes, &read.spec.extra), (&pod.spec.volumes, &pod.spec.extra), "{at}");
                let names = |p: &PodTemplateSpec| p.spec.containers.iter().map(|c| c.name.clone()).collect::<Vec<_>>();
                assert_eq!(names(&read), names(&pod), "{at}");
            }
        }
    }

    /// explain and validate judge a job from a reading that leaves each pod spec's other fields
    /// (a nodeSelector, tolerations) in the tree: the model does not copy them (issue 36: a
    /// nodeSelector of 150,000 keys took 18 MB). The pod comparison's reading ([`operate`])
    /// keeps them, and both readings refuse a named field's value at the same path.
    #[test]
    fn the_judged_reading_leaves_a_pod_specs_other_fields_in_the_tree() {
        let job = |restart_policy: serde_json::Value| {
            serde_json::json!({"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "p"},
                "spec": {"pytorchReplicaSpecs": {"Master": {"replicas": 1, "template": {"spec": {
                    "nodeSelector": {"disk": "ssd"}, "restartPolicy": restart_policy, "tolerations": [{"key": "k"}],
                    "containers": [{"name": "pytorch", "image": "a", "envFrom": [{"configMapRef": {"name": "c"}}]}]}}}}}})
        };
        let doc = job("Never".into());
        let other_fields = |job: &Job| -> Vec<String> {
            job.replicas.iter().flat_map(|(_, spec)| spec.template.spec.extra.keys().cloned()).collect()
        };
        let Some((_, judged)) = checked(&doc, PodSpecs::Named).admitted else { panic!("admitted") };
        assert_eq!(other_fields(&judged), Vec::<String>::new());
        assert_eq!(
            judged.replicas[0].1.template.spec.restart_policy.as_deref(),
            Some("Never"),
            "a named field is read"
        );
        let container = &judged.replicas[0].1.template.spec.containers[0];
        assert!(container.extra.contains_key("envFrom"), "a container's other fields are kept (explain shows envFrom)");
        let (_, whole) = read(&doc).unwrap();
        assert_eq!(other_fields(&whole), ["nodeSelector", "tolerations"]);
        let bad = job(3.into());
        let refused = |e: Error| e.rejection().field();
        assert_eq!(read_keeping(&bad, PodSpecs::Named).err().map(refused), read(&bad).err().map(refused));
        assert_eq!(
            check(&bad).iter().map(Rejection::field).collect::<Vec<_>>(),
            ["spec.pytorchReplicaSpecs.Master.template.spec.restartPolicy"]
        );
    }

    /// The reading `validate` judges a job by, and `explain` of a job it owns reads first
    /// ([`PodSpecs::Judged`]), refuses each value of a job replaced by a value of each JSON type as
    /// the named reading does (the same errors, at the same paths), and otherwise reads the same
    /// job less its containers' `args`, `command` and `env`, which it leaves in the tree (issue
    /// 36); `explain_owned`, which moves them into the pods' model, answers as `explain`, which
    /// copies them, on every such job.
    #[test]
    fn the_judged_reading_refuses_as_the_named_one_and_explain_owned_answers_as_explain() {
        let job = serde_json::json!({"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "p"},
            "spec": {"pytorchReplicaSpecs": {
                "Master": {"replicas": 1, "template": {"spec": {
                    "initContainers": [{"name": "init", "image": "b", "command": ["sh"], "args": ["-c", "true"],
                        "env": [{"name": "I", "value": "1"}]}],
                    "containers": [{"name": "pytorch", "image": "a", "command": ["torchrun"], "args": ["t.py", "--x"],
                        "env": [{"name": "A", "value": "1"}, {"name": "B", "valueFrom": {"fieldRef": {"fieldPath": "x"}}}],
                        "ports": [{"name": "pytorchjob-port", "containerPort": 23456}]}]}}},
                "Worker": {"replicas": 2, "template": {"spec": {"containers": [
                    {"name": "pytorch", "image": "a", "args": ["w.py"], "env": [{"name": "A", "value": "2"}, {"name": "A"}]},
                    {"name": "side", "image": "c", "command": ["sleep", "1"]}]}}}}}});
        let replacements = [
            Json::Null,
            serde_json::json!(true),
            serde_json::json!(-1),
            serde_json::json!(1.5),
            serde_json::json!("text"),
            serde_json::json!([]),
            serde_json::json!(["a", 1]),
            serde_json::json!([{"name": "n"}]),
            serde_json::json!({}),
            serde_json::json!({"name": 2}),
        ];
        let without_lists = |mut replicas: Vec<(String, ReplicaSpec)>| {
            for (_, spec) in &mut replicas {
                let spec = &mut spec.template.spec;
                for c in spec.containers.iter_mut().chain(spec.init_containers.iter_mut()) {
                    (c.command, c.args, c.env) = (vec![], vec![], vec![]);
                }
            }
            replicas
        };
        let read = |doc: &Json, pod_specs: PodSpecs| match read_keeping(doc, pod_specs) {
            Ok((_, job)) => Ok(without_lists(job.replicas)),
            Err(e) => Err((e.rejection().field(), e.rejection().reason())),
        };
        let (mut refused, mut admitted) = (0, 0);
        for doc in std::iter::once(job.clone()).chain(crate::model::tracked::tests::mutants(&job, &replacements)) {
            let doc = crate::model::into_without_nulls(doc);
            let judged = read(&doc, PodSpecs::Judged);
            assert_eq!(judged, read(&doc, PodSpecs::Named), "{doc}");
            refused += usize::from(judged.is_err());
            if let Ok(replicas) = &judged {
                let read_empty =
                    replicas.iter().all(|(_, s)| s.template.spec.containers.iter().all(|c| c.env.is_empty()));
                assert!(read_empty, "{doc}");
            }
            let explained = explain(&doc);
            admitted += usize::from(explained.rejected.is_empty());
            assert_eq!(explain_owned(doc.clone()), explained, "{doc}");
        }
        assert!(refused > 50 && admitted > 50, "{refused} refused, {admitted} admitted");
    }

    /// The view of pods `explain_owned` hands over takes a role's template variables into each
    /// container's env, in place, where the template names each once and the operator adds none
    /// of its names ([`template_env_moved`]); else it merges every pod's variables as `explain`
    /// does. Both answer alike, for roles of one pod and of several, of each kind the common
    /// controller runs, with a variable the operator sets too (`RANK`, `TF_CONFIG`) and with a
    /// name written twice.
    #[test]
    fn a_roles_template_variables_taken_into_the_view_read_as_every_pods_merged() {
        let env = |names: &[&str]| -> Json {
            names
                .iter()
                .enumerate()
                .map(|(i, n)| match i % 3 {
                    0 => serde_json::json!({"name": n, "value": format!("v{i}")}),
                    1 => serde_json::json!({"name": n, "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}),
                    _ => serde_json::json!({"name": n}),
                })
                .collect()
        };
        let job = |kind: &str, field: &str, container: &str, roles: &[(&str, u32)], names: &[&str]| {
            let specs: serde_json::Map<String, Json> = roles
                .iter()
                .map(|(rtype, replicas)| {
                    let spec = serde_json::json!({"replicas": replicas, "template": {"spec": {"containers": [
                        {"name": container, "image": "a", "env": env(names)},
                        {"name": "side", "image": "b", "env": env(&names[..names.len().min(2)])}]}}});
                    (rtype.to_string(), spec)
                })
                .collect();
            serde_json::json!({"apiVersion": "kubeflow.org/v1", "kind": kind, "metadata": {"name": "j"},
                "spec": {field: specs}})
        };
        let mut jobs = Vec::new();
        for names in [&["A", "B", "C", "D"][..], &["A", "RANK", "B"], &["A", "B", "A"], &["TF_CONFIG", "X"], &[]] {
            jobs.push(job("PyTorchJob", "pytorchReplicaSpecs", "pytorch", &[("Master", 1), ("Worker", 3)], names));
            jobs.push(job("TFJob", "tfReplicaSpecs", "tensorflow", &[("Chief", 1), ("Worker", 2), ("PS", 2)], names));
            jobs.push(job("XGBoostJob", "xgbReplicaSpecs", "xgboost", &[("Master", 1), ("Worker", 2)], names));
            jobs.push(job("JAXJob", "jaxReplicaSpecs", "jax", &[("Worker", 2)], names));
            jobs.push(job("PaddleJob", "paddleReplicaSpecs", "paddle", &[("Master", 1), ("Worker", 2)], names));
        }
        for doc in jobs {
            let explained = explain(&doc);
            assert!(explained.rejected.is_empty(), "{doc}: {:?}", explained.rejected);
            assert_eq!(explain_owned(doc.clone()), explained, "{doc}");
        }
    }
}

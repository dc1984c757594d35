//! The migration proven pod by pod: what the V1 operator ran for a job (`explain::v1`) next to
//! what Trainer runs for the converted objects at the target release (`explain`), role by role
//! (Master and Worker against `node`; MPI's Launcher against `launcher`, its Worker against
//! `node`). Every difference is either explained, with the reason it is expected, or left
//! unexplained: a defect of the conversion.

mod contract;
mod env;
mod facts;
mod v2;
pub mod words;

use crate::explain::v1::{self as v1, Operated};
use crate::explain::Explanation;
use explorer_data::catalog::V1Kind;
use explorer_data::releases::Release;
pub(crate) use facts::resources_in_pod;
use facts::{ContainerFacts, PodFacts};
use serde::Serialize;
use serde_json::Value as Json;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
/// The pods a V1 job ran set against those its conversion runs, and every difference.
pub struct PodComparison {
    /// The V1 operator and its release (`training-operator v1.9`).
    pub operator: String,
    /// The Trainer release (`v2.3.0`).
    pub trainer: String,
    /// `Master → node`, one per V1 role.
    pub roles: Vec<String>,
    /// Each difference, with its reason.
    pub differences: Vec<Difference>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
/// One field that differs between a V1 pod and its V2 pod.
pub struct Difference {
    /// `Worker → node`.
    pub role: String,
    /// `count`, `image`, `env.MASTER_ADDR`, `nodeSelector`, `volumes.data`, ...
    pub field: String,
    /// The V1 pod's value (`None`: absent).
    pub v1: Option<String>,
    /// The V2 pod's value (`None`: absent).
    pub v2: Option<String>,
    /// Why the difference is expected; `None` when nothing explains it (a conversion defect).
    pub reason: Option<String>,
    /// For a variable V1's operator set and V2 replaces: what V2 sets instead and how the values
    /// relate (the same facts as `reason`, apart, for a table).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rename: Option<EnvRename>,
    /// What the difference is about, and so whether it changes how the pods run.
    pub concern: Concern,
    /// The scheduling and resource rules one side has and the other lacks, in words
    /// (`dropped: must run in the same zone … (required pod affinity)`); empty for other fields.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub terms: Vec<String>,
}

/// What a difference is about. Every concern but the last two changes how the pods run (where
/// they are scheduled, what they get, what the code reads or runs); `Plumbing` is the operators'
/// machinery V2 does its own way, `Bookkeeping` the labels and annotations operators set to find
/// their pods. Views show the first kind first and fold the bookkeeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Concern {
    /// Where the pods may run: affinity, node selector, tolerations, spread, scheduler, priority.
    Scheduling,
    /// CPU, memory and accelerators, and the GPUs a container sees.
    Resources,
    /// Variables the training code reads.
    Environment,
    /// What the container runs: image, command, args.
    Command,
    /// How many pods, and which containers they hold.
    Pods,
    /// Volumes and where they are mounted.
    Storage,
    /// Security contexts and service accounts.
    Security,
    /// Host networking, pod names and DNS.
    Networking,
    /// Labels and annotations of the job's own (selectors, queues and monitoring read them).
    Labels,
    /// The V1 operator's machinery V2 does its own way: SSH keys, hostfile, init containers,
    /// the pods' names in the job's Service.
    Plumbing,
    /// Labels and annotations an operator sets to find its own pods.
    Bookkeeping,
}

impl Concern {
    /// Whether a difference of this concern changes how the pods run.
    pub fn changes_behaviour(self) -> bool {
        !matches!(self, Concern::Plumbing | Concern::Bookkeeping)
    }

    /// The word a view tags a difference with.
    pub fn id(self) -> &'static str {
        match self {
            Concern::Scheduling => "scheduling",
            Concern::Resources => "resources",
            Concern::Environment => "environment",
            Concern::Command => "command",
            Concern::Pods => "pods",
            Concern::Storage => "storage",
            Concern::Security => "security",
            Concern::Networking => "networking",
            Concern::Labels => "labels",
            Concern::Plumbing => "plumbing",
            Concern::Bookkeeping => "bookkeeping",
        }
    }

    /// The concern of a difference at `field` (`affinity`, `env.RANK`, `containers[x].image`),
    /// before any operator fact explains it as plumbing or bookkeeping.
    fn of(field: &str) -> Concern {
        // A sidecar's or init container's field is about what that container does: the field
        // after the last `].`, found byte by byte (a `str` pattern builds a substring searcher,
        // for every difference of every job of a paste).
        let bytes = field.as_bytes();
        let leaf = (1..bytes.len())
            .rev()
            .find(|&i| bytes[i - 1] == b']' && bytes[i] == b'.')
            .map_or(field, |i| &field[i + 1..]);
        let head = leaf.split(['.', '[']).next().unwrap_or(leaf);
        match head {
            "nodeSelector"
            | "tolerations"
            | "affinity"
            | "priorityClassName"
            | "schedulerName"
            | "runtimeClassName"
            | "topologySpreadConstraints"
            | "schedulingGates" => Concern::Scheduling,
            "resources" => Concern::Resources,
            // The variables that hide or show the node's GPUs to a container.
            "env" if leaf.starts_with("env.NVIDIA_") => Concern::Resources,
            "env" => Concern::Environment,
            "image" | "imagePullSecrets" | "command" | "args" => Concern::Command,
            "volumes" | "volumeMounts" => Concern::Storage,
            "securityContext"
            | "pod"
            | "serviceAccountName"
            | "serviceAccount"
            | "hostIPC"
            | "hostPID"
            | "shareProcessNamespace" => Concern::Security,
            "hostNetwork" | "hostname" | "subdomain" | "dnsPolicy" | "dnsConfig" => Concern::Networking,
            "labels" | "annotations" => Concern::Labels,
            _ => Concern::Pods,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
/// A variable V1's operator set that V2 replaces.
pub struct EnvRename {
    /// The V1 variable.
    pub v1: String,
    /// What V2 sets in its place, name and value (empty: nothing).
    pub v2: Vec<(String, String)>,
    /// How the two values relate, in words.
    pub relation: String,
}

impl Difference {
    /// Whether a rule explains the difference.
    pub fn explained(&self) -> bool {
        self.reason.is_some()
    }
}

impl PodComparison {
    /// The differences no rule explains (conversion defects).
    pub fn unexplained(&self) -> impl Iterator<Item = &Difference> {
        self.differences.iter().filter(|d| !d.explained())
    }
}

/// The most values (keys, list items, scalars) a V1 job may hold for the comparison to run: it
/// matches env and metadata by name in lists, which grows with the square of their length, and
/// the converter's worst-case inputs (200,000 variables in one container) would take minutes.
/// Real jobs hold a few hundred.
pub(crate) const MAX_COMPARED_VALUES: usize = 20_000;

/// Whether the comparison reads the V1 job `doc`: it holds at most [`MAX_COMPARED_VALUES`].
pub(crate) fn compares(doc: &Json) -> bool {
    values_within(doc, &mut MAX_COMPARED_VALUES.clone())
}

fn values_within(v: &Json, budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    match v {
        Json::Array(a) => a.iter().all(|c| values_within(c, budget)),
        Json::Object(m) => m.values().all(|c| values_within(c, budget)),
        _ => true,
    }
}

/// The comparison, and what it read of the converted objects: the explanation of their TrainJob
/// on its runtime, which migrate mode also shows as "What Kubernetes runs".
pub struct Compared {
    /// The V1 pods set against the V2 pods, or why they were not compared.
    pub comparison: Result<PodComparison, NotCompared>,
    /// What Trainer runs for the converted TrainJob (`explain`), or why it was not worked out.
    pub runs: Result<Explanation, NotCompared>,
}

/// Why the pods of a converted job were not compared (or what Trainer runs not worked out). The
/// conversion itself stands; its text (`Display`) is what the report and the views print.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum NotCompared {
    /// The V1 job holds more values than the comparison reads ([`MAX_COMPARED_VALUES`]).
    TooManyValues,
    /// What the V1 operator runs for the job could not be worked out.
    V1(v1::Error),
    /// The converted objects hold no TrainJob.
    NoTrainJob,
    /// The converted TrainJob references a runtime the target release (its tag) does not ship.
    UnshippedRuntime {
        /// The runtime's name.
        name: String,
        /// The release's tag.
        release: &'static str,
    },
    /// The converted TrainJob and its runtime could not be read as explain reads them.
    Read(crate::explain::read::ReadError),
    /// A pod template of the runtime could not be written as JSON.
    Template(std::sync::Arc<serde_json::Error>),
}

impl std::fmt::Display for NotCompared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotCompared::TooManyValues => write!(
                f,
                "the job holds more than {MAX_COMPARED_VALUES} values (labels, variables, arguments), more than the pod \
                 comparison reads; the conversion itself is complete"
            ),
            NotCompared::V1(e) => write!(f, "{e}"),
            NotCompared::NoTrainJob => f.write_str("no TrainJob in the output"),
            NotCompared::UnshippedRuntime { name, release } => {
                write!(f, "the TrainJob references {name:?}, which Trainer {release} does not ship")
            }
            NotCompared::Read(e) => write!(f, "{e}"),
            NotCompared::Template(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for NotCompared {}

/// Compares the pods of the V1 job `doc` with those of its conversion `objects` at `release`,
/// keeping the explanation of the converted TrainJob it computes on the way.
pub fn compare_explained(doc: &Json, objects: &[Json], release: Release) -> Compared {
    if !compares(doc) {
        return too_many_values();
    }
    let v2 = v2::run(objects, release);
    // V1's error first, as before the explanation was kept: it is the reader's job that did not read.
    let comparison = v1::operate(doc).map_err(NotCompared::V1).and_then(|op| match &v2 {
        Ok(v2) => Ok(compare_runs(&op, v2, release)),
        Err(e) => Err(e.clone()),
    });
    Compared { comparison, runs: v2.map(|v2| v2.explanation) }
}

/// The answer for a V1 job of more values than the comparison reads.
fn too_many_values() -> Compared {
    Compared { comparison: Err(NotCompared::TooManyValues), runs: Err(NotCompared::TooManyValues) }
}

/// The replicatedJob a V1 role's pods became: the one named after the role (MPI's `launcher`;
/// a TFJob's `ps`, `chief`, `evaluator`; a PaddleJob's `master` in PS mode), else the trainer's
/// `node` (Master and Worker of the single-template kinds, a TFJob's or PaddleJob's Workers).
fn target_of(v2: &v2::V2Pods, rtype: &str) -> String {
    // The operators' replica types (Operated::roles), ASCII: the roles a conversion compares.
    let own = rtype.to_ascii_lowercase();
    if own != "node" && v2.explanation.pods.iter().any(|p| p.replicated_job == own) {
        own
    } else {
        "node".into()
    }
}

fn compare_runs(op: &Operated, v2: &v2::V2Pods, release: Release) -> PodComparison {
    let mut out = PodComparison {
        operator: op.operator.to_string(),
        trainer: release.tag.to_string(),
        roles: vec![],
        differences: vec![],
    };
    if !v2.explanation.rejected.is_empty() {
        for rejected in &v2.explanation.rejected {
            out.differences.push(Difference {
                role: "job".into(),
                field: rejected.field(),
                v1: None,
                v2: Some(format!("rejected: {}", rejected.reason())),
                reason: None,
                rename: None,
                concern: Concern::Pods,
                terms: vec![],
            });
        }
        return out;
    }
    let all: Vec<(String, String, PodFacts)> = op
        .roles
        .iter()
        .filter(|r| r.count > 0)
        .map(|r| (r.replica_type.clone(), target_of(v2, &r.replica_type), facts::v1_pod(op.kind, r)))
        .collect();
    // Each replicatedJob's pods once, though several V1 roles land on it (Master and Worker on
    // `node`).
    let mut v2_pods: Vec<(&str, Option<PodFacts>)> = Vec::new();
    for (_, target, _) in &all {
        if !v2_pods.iter().any(|(t, _)| t == target) {
            v2_pods.push((target, facts::v2_pod(v2, target)));
        }
    }
    let mut ctx = Context { op, out: &mut out, v2, siblings: vec![], roles: vec![] };
    for (rtype, target, ours) in &all {
        let role = Role { from: rtype, to: target };
        ctx.out.roles.push(role.name());
        ctx.roles.push(role);
        let Some(theirs) = v2_pods.iter().find(|(t, _)| t == target).and_then(|(_, pods)| pods.as_ref()) else {
            ctx.diff(role, "pods", Some(rtype.clone()), None, None);
            continue;
        };
        ctx.siblings =
            all.iter().filter(|(r, t, _)| r != rtype && t == target).map(|(r, _, f)| (r.as_str(), f)).collect();
        ctx.pod(role, ours, theirs);
    }
    ctx.counts(v2);
    out
}

struct Context<'a> {
    op: &'a Operated,
    out: &'a mut PodComparison,
    v2: &'a v2::V2Pods,
    /// The other V1 roles that land on the same replicatedJob (Master beside Worker on `node`).
    siblings: Vec<(&'a str, &'a PodFacts<'a>)>,
    /// Each V1 role compared and its replicatedJob, as `out.roles` says them.
    roles: Vec<Role<'a>>,
}

/// What a difference is about: the V1 role (its replica type; `Master+Worker` for a count they
/// share, `(none)` for V2 pods no V1 role accounts for) and the replicatedJob its pods land on.
/// Said `Worker → node`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Role<'a> {
    pub from: &'a str,
    pub to: &'a str,
}

impl Role<'_> {
    /// `Worker → node`: put together rather than formatted (`format!`), as it is said for every
    /// difference of every job of a paste.
    fn name(&self) -> String {
        [self.from, " → ", self.to].concat()
    }
}

fn text(v: &Json) -> String {
    match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Context<'_> {
    /// Records a difference at `field`, a text the caller made for it and hands over: the
    /// difference keeps it rather than a copy (every difference of every job of a paste).
    fn diff(
        &mut self,
        role: Role<'_>,
        field: impl Into<String>,
        v1: Option<String>,
        v2: Option<String>,
        reason: Option<String>,
    ) {
        let field: String = field.into();
        // V2 runs every node from one template: where V1's roles differed, the node can be only
        // one of them.
        let reason = reason.or_else(|| {
            let from = role.from;
            let (other, _) = self.siblings.iter().find(|(_, f)| f.value(&field) == v2)?;
            Some(format!(
                "V2 runs every node from one pod template: V1's {from} and {other} differed here, and the node has the {other}'s"
            ))
        });
        let terms = words::changed_terms(&field, v1.as_deref(), v2.as_deref());
        let concern = Concern::of(&field);
        self.out.differences.push(Difference {
            role: role.name(),
            field,
            v1,
            v2,
            reason,
            rename: None,
            concern,
            terms,
        });
    }

    /// The last difference, explained by an operator's own machinery (`facts::operator_*`,
    /// `trainer_*`): bookkeeping for a label or annotation, plumbing for the rest. A difference
    /// nothing explains keeps its concern: it may change how the pods run.
    fn operators_own(&mut self) {
        let Some(last) = self.out.differences.last_mut().filter(|d| d.explained()) else { return };
        last.concern = match last.concern {
            Concern::Labels => Concern::Bookkeeping,
            _ => Concern::Plumbing,
        };
    }

    /// A setting V1 did not have, which the release's own runtime sets: a TrainJob cannot unset
    /// it (a patch merges into the runtime's), so it holds for any job on that runtime.
    fn builtin_sets(
        &self,
        role: Role<'_>,
        key: &str,
        container: bool,
        v1_unset: bool,
        v2: Option<&Json>,
    ) -> Option<String> {
        let set = self.v2.builtin_sets(role.to, key, container)?;
        if !(v1_unset && v2 == Some(set)) {
            return None;
        }
        let builtin = self.v2.builtin.as_ref().map_or("", |(n, _)| n.as_str());
        let mut reason = if *builtin == self.v2.runtime {
            format!("set by the built-in runtime {builtin}'s pod template; a TrainJob can add to it but not unset it")
        } else {
            format!("set by the built-in runtime {builtin}'s pod template, which the generated runtime copies")
        };
        if key == "securityContext" {
            // cmd/runtimes/deepspeed/Dockerfile:25 and mlx/Dockerfile:25 @v2.3.0: `useradd -m mpiuser`,
            // the image's first user (uid 1000), whose home holds the SSH setup the runtime mounts.
            reason.push_str(
                ": the runtime's image runs as its mpiuser (uid 1000, group 1000), so your image runs as that user \
                 in V2, where V1 ran it as the image's own user",
            );
        }
        Some(reason)
    }

    /// The launcher's resources where the V2 runtime runs the launcher as a training node: it
    /// gets the nodes' `resourcesPerNode`, which V1's separate launcher did not have.
    fn launcher_is_a_node(&self, role: Role<'_>, v2: Option<&str>) -> Option<String> {
        let node = facts::v2_pod(self.v2, "node")?;
        (self.v2.launcher_as_node && role.to == "launcher" && node.main.resources.as_deref() == v2).then(|| {
            format!(
                "{} runs the launcher as one of the numNodes training nodes (runLauncherAsNode), so it gets the \
                 nodes' resourcesPerNode; V1's launcher ran beside the workers",
                self.v2.runtime
            )
        })
    }

    /// V1's pods against V2's: every V1 role that lands on one replicatedJob together.
    fn counts(&mut self, v2: &v2::V2Pods) {
        let mut by_target: Vec<(String, Vec<String>, u32)> = Vec::new();
        for &Role { from, to: target } in &self.roles {
            let n = self.op.roles.iter().find(|r| r.replica_type == from).map_or(0, |r| r.count);
            match by_target.iter_mut().find(|(t, _, _)| t == target) {
                Some((_, names, total)) => {
                    names.push(from.to_string());
                    *total += n;
                }
                None => by_target.push((target.to_string(), vec![from.to_string()], n)),
            }
        }
        // V2 pods no V1 role accounts for (V1 ran none of them).
        for group in v2.explanation.pods.iter().filter(|p| p.count > 0) {
            if !by_target.iter().any(|(t, _, _)| *t == group.replicated_job) {
                let role = Role { from: "(none)", to: &group.replicated_job };
                self.diff(role, "count", Some("0".into()), Some(group.count.to_string()), None);
            }
        }
        for (target, names, total) in by_target {
            let theirs = v2.explanation.pods.iter().find(|p| p.replicated_job == target).map_or(0, |p| p.count);
            if theirs != total {
                let from = names.join("+");
                let role = Role { from: &from, to: &target };
                // The launcher of such a runtime is node 0: the hosts are as many as V1's workers.
                let reason = (v2.launcher_as_node && target == "node" && theirs + 1 == total).then(|| {
                    format!(
                        "{} runs the launcher as one of the numNodes training nodes (runLauncherAsNode): V1's {total} \
                         workers are the launcher and {theirs} node pods, the same number of hosts",
                        v2.runtime
                    )
                });
                self.diff(role, "count", Some(total.to_string()), Some(theirs.to_string()), reason);
            }
        }
    }

    fn pod(&mut self, role: Role<'_>, ours: &PodFacts, theirs: &PodFacts) {
        self.settings(role, ours, theirs);
        self.metadata(role, "labels", &ours.labels, &theirs.labels, &ours.user_labels);
        self.metadata(role, "annotations", &ours.annotations, &theirs.annotations, &ours.user_annotations);
        self.volumes(role, ours, theirs);
        self.container(role, "", &ours.main, &theirs.main);
        for c in &ours.sidecars {
            match theirs.sidecars.iter().find(|t| t.name == c.name) {
                Some(t) => self.container(role, &format!("containers[{}].", c.name), c, t),
                None => self.diff(role, format!("containers[{}]", c.name), Some(c.summary()), None, None),
            }
        }
        for t in theirs.sidecars.iter().filter(|t| !ours.sidecars.iter().any(|c| c.name == t.name)) {
            self.diff(role, format!("containers[{}]", t.name), None, Some(t.summary()), None);
        }
        for c in &ours.init {
            match theirs.init.iter().find(|t| t.name == c.name) {
                Some(t) => self.container(role, &format!("initContainers[{}].", c.name), c, t),
                None => {
                    let reason = facts::operator_init(self.op, c.name);
                    self.diff(role, format!("initContainers[{}]", c.name), Some(c.summary()), None, reason);
                    self.operators_own();
                }
            }
        }
        for t in theirs.init.iter().filter(|t| !ours.init.iter().any(|c| c.name == t.name)) {
            self.diff(role, format!("initContainers[{}]", t.name), None, Some(t.summary()), None);
        }
    }

    fn settings(&mut self, role: Role<'_>, ours: &PodFacts, theirs: &PodFacts) {
        let mut keys: Vec<&String> = ours.settings.keys().chain(theirs.settings.keys()).collect();
        crate::order::sort(&mut keys);
        keys.dedup();
        for key in keys {
            let (a, b) = (ours.settings.get(key), theirs.settings.get(key));
            if a == b {
                continue;
            }
            let user = ours.user_settings.get(key);
            let operators = facts::settings_reason(self.op, key, user, a, b);
            let own = operators.is_some();
            let reason = operators.or_else(|| self.builtin_sets(role, key, false, user.is_none() && a.is_none(), b));
            // The pod's securityContext, told apart from the main container's.
            let field = if key == "securityContext" { "pod.securityContext" } else { key.as_str() };
            self.diff(role, field, a.map(text), b.map(text), reason);
            if own {
                self.operators_own();
            }
        }
    }

    fn metadata(
        &mut self,
        role: Role<'_>,
        what: &str,
        ours: &std::collections::BTreeMap<String, String>,
        theirs: &std::collections::BTreeMap<String, String>,
        user: &std::collections::BTreeMap<String, String>,
    ) {
        for (k, v) in ours {
            if theirs.get(k) == Some(v) {
                continue;
            }
            // The operator's own labels; a user label the operator did not overwrite must stay.
            let reason = (user.get(k) != Some(v)).then(|| facts::operator_metadata(self.op, k));
            self.diff(role, [what, ".", k].concat(), Some(v.clone()), theirs.get(k).cloned(), reason);
            if user.get(k) != Some(v) {
                self.operators_own();
            }
        }
        for (k, v) in theirs.iter().filter(|(k, _)| !ours.contains_key(*k)) {
            let reason = facts::trainer_metadata(self.v2, role.to, what, k);
            self.diff(role, [what, ".", k].concat(), None, Some(v.clone()), reason);
            self.operators_own();
        }
    }

    fn volumes(&mut self, role: Role<'_>, ours: &PodFacts, theirs: &PodFacts) {
        for (name, v) in &ours.volumes {
            if theirs.volumes.get(name) == Some(v) {
                continue;
            }
            let reason = facts::operator_volume(self.op, name);
            self.diff(role, format!("volumes.{name}"), Some(text(v)), theirs.volumes.get(name).map(text), reason);
            self.operators_own();
        }
        for (name, v) in theirs.volumes.iter().filter(|(n, _)| !ours.volumes.contains_key(*n)) {
            let reason = facts::trainer_volume(name);
            self.diff(role, format!("volumes.{name}"), None, Some(text(v)), reason);
            self.operators_own();
        }
    }

    fn container(&mut self, role: Role<'_>, at: &str, ours: &ContainerFacts, theirs: &ContainerFacts) {
        let kind = self.op.kind;
        // Each field's text made only where the two differ (as a list of words, `command` and
        // `args` are equal exactly where their texts are).
        let differing = [
            ("image", ours.image != theirs.image),
            ("command", ours.command != theirs.command),
            ("args", ours.args != theirs.args),
            // Compared as the pods hold them: a request left out is its limit.
            ("resources", !facts::same_resources_in_pod(ours.resources.as_deref(), theirs.resources.as_deref())),
            ("securityContext", ours.security_context != theirs.security_context),
        ];
        for (field, differs) in differing {
            if !differs {
                continue;
            }
            let (a, b) = (ours.scalar(field), theirs.scalar(field));
            let mut reason = facts::container_reason(self.op, role, ours, theirs, field, a.as_deref());
            if at.is_empty() && field == "securityContext" {
                let value = b.as_deref().and_then(|t| serde_json::from_str::<Json>(t).ok());
                reason = reason.or_else(|| self.builtin_sets(role, field, true, a.is_none(), value.as_ref()));
            }
            if at.is_empty() && field == "resources" {
                reason = reason.or_else(|| self.launcher_is_a_node(role, b.as_deref()));
            }
            self.diff(role, [at, field].concat(), a, b, reason);
        }
        // `$(VAR)` in the command: Kubernetes expands it from the container's env, and leaves
        // the text as it is where the variable is unset.
        for var in facts::expanded_vars(theirs.command, theirs.args) {
            if ours.env.contains_key(&var) && !theirs.env.contains_key(&var) {
                let v1 = ours.env.get(&var).cloned();
                self.diff(role, format!("{at}command.$({var})"), v1, Some(format!("$({var}) (not set)")), None);
            }
        }
        for (path, volume) in &ours.mounts {
            if theirs.mounts.get(path) == Some(volume) {
                continue;
            }
            let reason = facts::operator_volume(self.op, volume);
            self.diff(
                role,
                format!("{at}volumeMounts.{path}"),
                Some(volume.clone()),
                theirs.mounts.get(path).cloned(),
                reason,
            );
            self.operators_own();
        }
        for (path, volume) in theirs.mounts.iter().filter(|(p, _)| !ours.mounts.contains_key(*p)) {
            let reason = facts::trainer_volume(volume);
            self.diff(role, format!("{at}volumeMounts.{path}"), None, Some(volume.clone()), reason);
            self.operators_own();
        }
        self.env(role, at, kind, ours, theirs);
    }

    /// A TFJob's or PaddleJob's variable that holds the same for every pod (`contract`).
    fn contract(&self, role: Role<'_>, ours: &ContainerFacts, theirs: &ContainerFacts, name: &str) -> Option<String> {
        let role = self.op.roles.iter().find(|r| r.replica_type == role.from)?;
        let target_of = |rtype: &str| target_of(self.v2, rtype);
        contract::explain(self.op, &self.v2.explanation, &target_of, role, ours, theirs, name)
    }

    /// Why a variable V1's operator set has another value in the V2 pod, which still has it: the
    /// TrainJob's `spec.trainer.env` sets it (migrate carries the V1 names, `convert::env`), else
    /// a Trainer plugin or the runtime's template does; then how the values relate.
    fn same_variable(&self, at: &str, name: &str, now: &str, r: &env::Rename, theirs: &ContainerFacts) -> String {
        let by = if at.is_empty() && self.v2.trainer_env.iter().any(|n| n == name) {
            // The V2 variable of the same value, where one has it.
            let same = r.v2.iter().find(|n| **n != name && theirs.env.get(**n).map(String::as_str) == Some(now));
            let same = same.map_or(String::new(), |n| format!(", to the value of {n}"));
            format!("the TrainJob's spec.trainer.env sets it for code that reads the V1 name{same}")
        } else if theirs.runtime_env.iter().any(|n| n == name) {
            format!("set by the runtime {}'s pod template", self.v2.runtime)
        } else if let Some(p) = env::v2_plugin(name) {
            ["set by Trainer's ", p, " plugin"].concat()
        } else {
            "V2 sets it too".to_string()
        };
        ["same variable, new value: ", &by, ". ", r.relation].concat()
    }

    fn env(&mut self, role: Role<'_>, at: &str, kind: V1Kind, ours: &ContainerFacts, theirs: &ContainerFacts) {
        for (name, value) in ours.env.iter() {
            let other = theirs.env.get(name);
            if other == Some(value) {
                continue;
            }
            // Joined, not formatted: a paste of many jobs has hundreds of thousands of these.
            let field = [at, "env.", name].concat();
            // A variable the user wrote (and the operator left alone) must reach V2 as it was.
            let user_set = ours.user_env.get(name) == Some(value);
            let known = if user_set { None } else { env::rename(kind, name) };
            // The V2 pod still has the variable: the same variable with a new value, not one V2
            // replaces.
            if let (Some(r), Some(now)) = (known, other) {
                let reason = self.same_variable(at, name, now, r, theirs);
                self.diff(role, field, Some(value.clone()), Some(now.clone()), Some(reason));
                continue;
            }
            let rename = known;
            let rename = rename.map(|r| EnvRename {
                v1: name.clone(),
                v2: r
                    .v2
                    .iter()
                    .map(|n| (n.to_string(), theirs.env.get(*n).map_or("(unset)", String::as_str).to_string()))
                    .collect(),
                relation: r.relation.to_string(),
            });
            let reason = match &rename {
                None if user_set => facts::worker_env_over_ssh(self.op, role, theirs, other.is_none()),
                None => self.contract(role, ours, theirs, name),
                Some(r) => Some(renamed_reason(r)),
            };
            self.diff(role, field, Some(value.clone()), other.cloned(), reason);
            if let Some(last) = self.out.differences.last_mut() {
                last.rename = rename;
            }
        }
        for (name, value) in theirs.env.iter().filter(|(n, _)| !ours.env.contains_key(*n)) {
            let reason = if theirs.runtime_env.contains(name) {
                Some(format!("set by the runtime {}'s pod template", self.v2.runtime))
            } else {
                env::v2_plugin(name).map(|p| {
                    let replaces: Vec<&str> =
                        env::table(kind).iter().filter(|r| r.v2.contains(&name.as_str())).map(|r| r.v1).collect();
                    match replaces.as_slice() {
                        [] => ["set by Trainer's ", p, " plugin"].concat(),
                        v1 => ["set by Trainer's ", p, " plugin in place of V1's ", &v1.join(", ")].concat(),
                    }
                })
            };
            self.diff(role, [at, "env.", name].concat(), None, Some(value.clone()), reason);
        }
    }
}

/// Why a variable V1's operator set is missing from the V2 pod: what V2 sets in its place
/// (`V2 sets PET_NODE_RANK=…, …`, or nothing) and how the values relate. Written into one string
/// rather than formatted piece by piece: several variables of every job of a paste.
fn renamed_reason(r: &EnvRename) -> String {
    let mut reason = String::from(if r.v2.is_empty() { "V2 sets nothing in its place" } else { "V2 sets " });
    for (i, (name, value)) in r.v2.iter().enumerate() {
        if i > 0 {
            reason.push_str(", ");
        }
        for part in [name.as_str(), "=", value.as_str()] {
            reason.push_str(part);
        }
    }
    reason.push_str(". ");
    reason.push_str(&r.relation);
    reason
}

/// The comparison as report lines (`  pod      ...`), under the converter's field entries: every
/// difference with its reason, so what changes for the pods is said from what runs, not from
/// what the converter meant to do.
pub(crate) fn report_lines(c: &Result<PodComparison, NotCompared>) -> Vec<String> {
    let c = match c {
        Ok(c) => c,
        Err(e) => return vec![format!("  {:<8} not compared: {e}", "pods")],
    };
    let mut out = vec![format!("  {:<8} {} → Trainer {}: {}", "pods", c.operator, c.trainer, c.roles.join(", "))];
    // Each line joined from its parts (`{:<8}` padding written out): a report of ten thousand
    // jobs has hundreds of thousands of these lines.
    let line = |head: &str, d: &Difference, parts: &[&str]| {
        let mut text =
            String::with_capacity(16 + d.role.len() + d.field.len() + parts.iter().map(|p| p.len()).sum::<usize>());
        for part in [head, d.role.as_str(), " ", d.field.as_str(), ": "].into_iter().chain(parts.iter().copied()) {
            text.push_str(part);
        }
        text
    };
    for d in &c.differences {
        let (v1, v2) = (d.v1.as_deref().unwrap_or("(none)"), d.v2.as_deref().unwrap_or("(none)"));
        let why = d.reason.as_deref().unwrap_or("unexplained: the migrator cannot say why; please report it");
        out.push(line("  pod      ", d, &[v1, " -> ", v2, " (", why, ")"]));
        // A scheduling or resource rule that one side lacks, said in words under its difference.
        for term in &d.terms {
            out.push(line("  rule     ", d, &[term]));
        }
    }
    out
}

/// The comparison for one converted document (`None` for the others).
pub fn for_document(d: &super::DocResult, target: Release) -> Option<Result<PodComparison, NotCompared>> {
    explained_for_document(d, target).map(|c| c.comparison)
}

/// The comparison and the explanation of the converted TrainJob for one converted document
/// (`None` for the others).
pub(crate) fn explained_for_document(d: &super::DocResult, target: Release) -> Option<Compared> {
    match (&d.outcome, &d.source) {
        (super::Outcome::Written { objects, .. }, Some(source)) => Some(compare_explained(source, objects, target)),
        // Not kept: a job of more values than the comparison reads (`Sources::ForOutput`).
        (super::Outcome::Written { .. }, None) => Some(too_many_values()),
        _ => None,
    }
}

/// `explained_for_document` for every document of a migration, in its order: what the views of
/// the pods and of what Kubernetes runs show.
pub fn explained_documents(m: &super::Migration) -> Vec<Option<Compared>> {
    m.docs.iter().map(|d| explained_for_document(d, m.target)).collect()
}

/// One document of `migrate --format json`: the pipeline's (outcome, V2 objects, report) and the
/// pod comparison.
pub fn document_json(d: &super::DocResult, target: Release) -> Json {
    serde_json::to_value(document_json_with(d, target, Vec::new())).unwrap_or(Json::Null)
}

/// [`document_json`] and then the `extra` members, written straight from the document
/// (`pipeline::json::DocumentJson`): the CLI's answer for a job of a quarter million labels.
pub fn document_json_with<'a>(
    d: &'a super::DocResult,
    target: Release,
    mut extra: Vec<(&'static str, Json)>,
) -> impl serde::Serialize + 'a {
    let pods = match for_document(d, target) {
        Some(Ok(c)) => serde_json::to_value(c).unwrap_or(Json::Null),
        Some(Err(e)) => serde_json::json!({"error": e.to_string()}),
        None => Json::Null,
    };
    extra.insert(0, ("pods", pods));
    crate::pipeline::json::DocumentJson { doc: d, wording: super::MigrationWording { target }, extra }
}

#[cfg(test)]
mod tests {
    use super::Concern;

    /// A sidecar's or init container's field is about what that container does: its concern is
    /// read after the last `].`, and a container itself is about the pods.
    #[test]
    fn a_containers_field_has_the_concern_of_the_field_after_its_name() {
        assert_eq!(Concern::of("containers[side].image"), Concern::Command);
        assert_eq!(Concern::of("initContainers[init].env.NVIDIA_VISIBLE_DEVICES"), Concern::Resources);
        assert_eq!(Concern::of("containers[a].b].volumeMounts./data"), Concern::Storage);
        assert_eq!(Concern::of("containers[side]"), Concern::Pods);
        assert_eq!(Concern::of("env.RANK"), Concern::Environment);
        assert_eq!(Concern::of("labels.team"), Concern::Labels);
    }
}

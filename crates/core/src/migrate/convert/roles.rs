//! TFJob and PaddleJob: Trainer ships no runtime or mlPolicy for either framework, so the
//! converter writes a plain-ML TrainingRuntime (an mlPolicy with `numNodes` and no framework:
//! Trainer's PlainML plugin, v2.3.0:pkg/runtime/framework/plugins/plainml/plainml.go:46-68,
//! gives the trainer job the TrainJob's count and env and nothing else). The scaled role (the
//! Worker) is the trainer's `node` job; every other role (Chief, Master, PS, Evaluator) is a
//! replicated job of its own with its own template and count.
//!
//! The contract the training code reads (`TF_CONFIG`, `PADDLE_*`), the hostnames, the Paddle
//! leader's wrapper and the plain runtime itself are `crate::plain_ml`'s, which the widget's panes
//! share; this file converts a user's job with them and reports where every field went.

use super::Error;
use super::*;
use crate::model::pod::{ContainerPort, EnvVar};
use crate::plain_ml::{self, contract_env, paddle_leader, paddle_leader_command, RoleJob};

/// Why a TFJob or PaddleJob cannot become a TrainJob, checked before it is converted.
pub(super) fn refusal(kind: V1Kind, doc: &Value) -> Option<Refusal> {
    let field = kind.replica_specs_field();
    let written = doc.pointer(&format!("/spec/{field}")).and_then(Value::as_object)?;
    // Each type as the operator runs it: v1.9's defaulting renames `worker` to `Worker`
    // (`convert` refused the spellings that make the renaming chance).
    let renamed =
        crate::explain::v1::renamed_replica_types(kind, written.keys().map(String::as_str)).unwrap_or_default();
    let specs: BTreeMap<String, &Value> =
        renamed.into_iter().filter_map(|(rtype, key)| Some((rtype, written.get(key)?))).collect();
    let known = kind.replica_types();
    if let Some(other) = specs.keys().find(|k| !known.contains(&k.as_str())) {
        return Some(Refusal::UnknownReplicaType { kind, replica_type: other.clone() });
    }
    if kind == V1Kind::TfJob && doc.pointer("/spec/enableDynamicWorker").and_then(Value::as_bool) == Some(true) {
        return Some(Refusal::DynamicWorker);
    }
    if kind == V1Kind::PaddleJob {
        let leader = if specs.contains_key("Master") { "Master" } else { "Worker" };
        let containers =
            specs.get(leader).and_then(|r| r.pointer("/template/spec/containers")).and_then(Value::as_array);
        let main = containers.and_then(|cs| cs.iter().find(|c| c["name"] == "paddle").or(cs.first()));
        let has_command = main.and_then(|c| c.get("command")).and_then(Value::as_array).is_some_and(|c| !c.is_empty());
        if main.is_some() && !has_command {
            return Some(Refusal::PaddleLeaderWithoutCommand { leader });
        }
    }
    if kind == V1Kind::TfJob && specs.contains_key("Chief") && specs.contains_key("Master") {
        return Some(Refusal::ChiefAndMaster);
    }
    None
}

impl Conversion<'_> {
    /// TFJob and PaddleJob: a TrainJob on a generated plain-ML runtime, one replicated job per role.
    pub(super) fn convert_roles(&mut self) -> Result<Vec<Value>, Error> {
        let kind = self.source.kind();
        let tf = kind == V1Kind::TfJob;
        let field = kind.replica_specs_field();
        let (port_v1, port_name) = kind.default_port();
        let container_name = kind.container_name();
        let mut roles = Vec::new();
        for rtype in kind.replica_types() {
            let Some(rep) = self.replica(rtype) else { continue };
            // SetDefaults_*Job: an absent count is 1 (v1.9.0:pkg/apis/kubeflow.org/v1/tensorflow_defaults.go:66,
            // paddlepaddle_defautls.go:75, the file's own spelling).
            let count = rep.spec.replicas.unwrap_or(1);
            count_in_range(format_args!("spec.{field}.{rtype}.replicas"), u64::from(count), 0)?;
            let pod = &rep.spec.template.spec;
            let main = main_container(pod, container_name);
            // The defaulting webhook adds the port to the default container where none has its name.
            let port = pod.containers[main]
                .ports
                .iter()
                .find(|p| p.name.as_deref() == Some(port_name))
                .map_or(i64::from(port_v1), |p| p.container_port);
            roles.push(RoleJob { rtype: (*rtype).into(), count, rjob: rtype.to_ascii_lowercase(), port });
        }
        // The scaled role is the trainer: the Worker, else the first role that runs pods.
        let trainer_at = roles
            .iter()
            .position(|r| r.rtype == "Worker" && r.count > 0)
            .or_else(|| roles.iter().position(|r| r.count > 0))
            .ok_or_else(|| Error::NoPods(format!("spec.{field}")))?;
        roles[trainer_at].rjob = "node".into();
        let nodes = roles[trainer_at].count;

        let meta = self.trainjob_meta();
        let job = meta.name.clone().unwrap_or_default();
        let mut spec = TrainJobSpec::default();
        self.run_policy(&mut spec);
        let mut rt = self.plain_runtime(&meta, nodes)?;
        let rt_name = rt.metadata.name.clone().unwrap_or_default();
        let jobs_at = format!("TrainingRuntime {rt_name} spec.template.spec.replicatedJobs");
        // What every role's pods read, before the roles are placed (each needs every address).
        let leader = paddle_leader(&roles);
        let contracts: Vec<Vec<EnvVar>> = roles.iter().map(|r| contract_env(kind, &job, &roles, r)).collect();

        // The node job the plain runtime starts from: each role's job is a copy of it.
        let base_job = rt
            .spec
            .template
            .spec
            .replicated_jobs
            .pop()
            .ok_or_else(|| Error::Internal("the plain runtime has no node job".into()))?;
        let leader_type = leader.map(|l| (l.rtype.clone(), l.port));
        let mut trainer = Trainer::default();
        for (r, vars) in roles.iter().zip(&contracts) {
            let rep = &self.replicas[&r.rtype];
            let (path, mut template) = (rep.path.clone(), rep.spec.template.clone());
            let (has_replicas, restart) = (rep.raw_has_replicas(), rep.spec.restart_policy.clone());
            let main = main_container(&template.spec, container_name);
            let main_path = format!("{path}.template.spec.containers[{main}]");
            // The node job's main container gives its args and env to the trainer (moved out of
            // this copy, which reads them no further).
            let node_trainer =
                (r.rjob == "node").then(|| self.trainer_from(&mut template.spec.containers[main], &main_path));
            let c = &template.spec.containers[main];
            let at = format!("{jobs_at}[{}]", r.rjob);
            let container_at = format!("{at}.template.spec.template.spec.containers[0]");
            let mut node = Container::new("node", c.image.as_deref().unwrap_or_default());
            node.image = c.image.clone();
            if let Some(node_trainer) = node_trainer {
                trainer = node_trainer;
                // The generated runtime holds what a TrainJob cannot: the pull policy.
                if let Some(policy) = &c.image_pull_policy {
                    let at = format!("{main_path}.imagePullPolicy");
                    self.report.entries.retain(|e| e.from != at);
                    self.report.moved(at, format!("{container_at}.imagePullPolicy"), "");
                    node.image_pull_policy = Some(policy.clone());
                }
                trainer.num_nodes = Some(nodes);
                if let Some(res) = c.resources.clone() {
                    self.map_resources(res, &format!("{main_path}.resources"), &mut trainer);
                }
                if has_replicas {
                    self.report.mapped_derived(format!("{path}.replicas"), "spec.trainer.numNodes", "");
                }
                self.report.mapped_node(
                    path.clone(),
                    "spec.trainer.numNodes",
                    if nodes == 1 {
                        format!("the {} is the TrainJob's only node (the {rt_name}'s node job)", r.rtype)
                    } else {
                        format!("the {}s are the TrainJob's {nodes} nodes (the {rt_name}'s node job)", r.rtype)
                    },
                );
            } else {
                let why = format!(
                    "the {} runs as the replicated job {} of the generated TrainingRuntime {rt_name}: changing its \
                     template or count now means editing the runtime",
                    r.rtype, r.rjob
                );
                self.report.mapped_node(path.clone(), at.clone(), why.clone());
                if has_replicas {
                    self.report.moved(format!("{path}.replicas"), format!("{at}.template.spec.parallelism"), "");
                }
                node.command = c.command.clone();
                node.args = c.args.clone();
                node.env = c.env.clone();
                node.image_pull_policy = c.image_pull_policy.clone();
                for (key, set) in [
                    ("image", c.image.is_some()),
                    ("command", !c.command.is_empty()),
                    ("args", !c.args.is_empty()),
                    ("env", !c.env.is_empty()),
                    ("imagePullPolicy", c.image_pull_policy.is_some()),
                ] {
                    if set {
                        self.report.moved(format!("{main_path}.{key}"), format!("{container_at}.{key}"), "");
                    }
                }
                self.report
                    .renamed(format!("{main_path}.name"), "the generated runtime names every main container node");
                if let Some(res) = c.resources.clone() {
                    let res_path = format!("{main_path}.resources");
                    if let Some(res) = self.requests_and_limits(res, &res_path) {
                        node.resources = Some(res);
                        self.report.moved(res_path, format!("{container_at}.resources"), "");
                    }
                }
            }
            // Ports: V1's, with the one its defaulting webhook adds.
            node.ports = c.ports.clone();
            if !node.ports.iter().any(|p| p.name.as_deref() == Some(port_name)) {
                node.ports.push(ContainerPort { container_port: r.port, name: Some(port_name.into()), protocol: None });
            }
            if !c.ports.is_empty() {
                self.report.moved(format!("{main_path}.ports"), format!("{container_at}.ports"), "");
            }
            node.env.extend(vars.iter().cloned());
            if let Some((_, port)) = leader_type.as_ref().filter(|(t, _)| !tf && *t == r.rtype) {
                let wrapped = paddle_leader_command(&c.command, *port);
                let note = "wrapped: the leader's first pod sets PADDLE_MASTER to its own IP, as v1.9 did, then \
                            execs this command with its arguments unchanged";
                let at = format!("{main_path}.command");
                self.report.entries.retain(|e| e.from != at);
                if r.rjob == "node" {
                    trainer.command = wrapped;
                    self.report.mapped_derived(at, "spec.trainer.command", note);
                } else {
                    node.command = wrapped;
                    self.report.mapped_derived(at, format!("{container_at}.command"), note);
                }
            }
            if let Some(p) = restart {
                self.report_restart_policy(format!("{path}.restartPolicy"), &p);
            }
            let mut rjob = base_job.clone();
            rjob.name = r.rjob.clone();
            if r.rjob != "node" {
                // Only the trainer's job carries the ancestor label the plugins look for.
                if let Some(m) = rjob.template.metadata.as_mut() {
                    m.labels.remove(runtimes::ANCESTOR_LABEL);
                }
                if rjob.template.metadata.as_ref().is_some_and(|m| m == &ObjectMeta::default()) {
                    rjob.template.metadata = None;
                }
            }
            rjob.template.spec.template.spec.containers = vec![node];
            rt.spec.template.spec.replicated_jobs.push(rjob);
            let mut settings =
                PodSettings::collect(&mut template, main, &format!("{path}.template"), &self.release, Vec::new())?;
            self.report_unplaceable(&settings);
            let why = format!("the {} pods' template is the generated runtime's {} job", r.rtype, r.rjob);
            self.embed(&mut settings, &r.rjob.clone(), &mut rt, &why)?;
            if !tf {
                // v1.9.0:pkg/controller.v1/paddlepaddle/envvar.go:40-144 gives every container the variables, not only the main one.
                let j = rt.spec.template.spec.replicated_jobs.iter_mut().find(|j| j.name == r.rjob);
                for side in j.into_iter().flat_map(|j| j.template.spec.template.spec.containers.iter_mut().skip(1)) {
                    side.env.extend(vars.iter().cloned());
                }
            }
        }
        // The trainer's job first, then the other roles in V1's order.
        crate::order::sort_by_key(&mut rt.spec.template.spec.replicated_jobs, |j| j.name != "node");
        let success = self.success_policy(&roles, &rt_name);
        spec.runtime_ref = reference_to(&rt);
        spec.trainer = Some(trainer);
        let mut rt_value = to_value(&rt)?;
        if let Some(policy) = success {
            rt_value["spec"]["template"]["spec"]["successPolicy"] = policy;
        }
        // The other roles' pod counts (the trainer's is numNodes): parallelism and completions.
        if let Some(jobs) = rt_value.pointer_mut("/spec/template/spec/replicatedJobs").and_then(Value::as_array_mut) {
            for j in jobs.iter_mut() {
                let Some(r) = roles.iter().find(|r| j["name"] == r.rjob.as_str()) else { continue };
                if r.rjob != "node" {
                    j["template"]["spec"]["parallelism"] = json!(r.count);
                    j["template"]["spec"]["completions"] = json!(r.count);
                }
            }
        }
        let framework = if tf { "TensorFlow" } else { "PaddlePaddle" };
        let contract = if tf { "TF_CONFIG" } else { "the PADDLE_* variables" };
        self.kind_note = format!(
            "; Trainer {} has no {framework} runtime, so the generated plain-ML TrainingRuntime {rt_name} runs every \
             role and gives each pod {contract} as Training Operator v1.9 did, with JobSet's hostnames",
            self.release.tag
        );
        Ok(vec![rt_value, self.trainjob_value(meta, spec)?])
    }

    /// A namespaced runtime with the plain-ML policy (`plain_ml::make_plain`).
    fn plain_runtime(&mut self, meta: &ObjectMeta, nodes: u32) -> Result<TrainingRuntime, Error> {
        let base = self.base_runtime(Framework::PyTorch)?;
        let mut rt = self.copy_runtime(&base, meta);
        plain_ml::make_plain(&mut rt, nodes);
        Ok(rt)
    }

    /// JobSet succeeds when every one of its Jobs does, and a PS never exits: the job ends with
    /// the Chief (Master) where there is one, else with the Workers, as in V1
    /// (v1.9.0:pkg/controller.v1/tensorflow/tfjob_controller.go:373-519 `UpdateJobStatus`;
    /// paddlepaddle/paddlepaddle_controller.go:344-447 the same).
    fn success_policy(&mut self, roles: &[RoleJob], rt_name: &str) -> Option<Value> {
        if roles.len() < 2 {
            return None;
        }
        let target = roles
            .iter()
            .find(|r| matches!(r.rtype.as_str(), "Chief" | "Master") && self.source.kind() == V1Kind::TfJob)
            .map_or("node", |r| r.rjob.as_str());
        let all_workers = self.spec().get("successPolicy").and_then(Value::as_str) == Some("AllWorkers");
        let at = format!("TrainingRuntime {rt_name} spec.template.spec.successPolicy");
        if self.spec().contains_key("successPolicy") {
            let note = if all_workers {
                "AllWorkers: the JobSet succeeds when every node pod has"
            } else {
                "the default: the JobSet succeeds with the Chief's job, else when every Worker has (V1: Worker 0)"
            };
            self.report.mapped_derived("spec.successPolicy", at, note);
        }
        let target = if all_workers { "node" } else { target };
        Some(json!({"operator": "All", "targetReplicatedJobs": [target]}))
    }
}

//! PyTorchJob, XGBoostJob and JAXJob: Master and Workers become one template for every node.

use super::Error;
use super::*;
use crate::pipeline::paths::{item, member};

impl Conversion<'_> {
    /// PyTorchJob, XGBoostJob, JAXJob: one pod template for every node.
    pub(super) fn convert_single_template(&mut self) -> Result<Vec<Value>, Error> {
        let kind = self.source.kind();
        let field = kind.replica_specs_field();
        let replicas = |rtype: &str| self.replica(rtype).map(|r| r.spec.replicas.unwrap_or(1));
        let (trainer_type, nodes) = match kind {
            V1Kind::JaxJob => {
                self.require("Worker")?;
                ("Worker", replicas("Worker").unwrap_or(1))
            }
            _ => {
                let (master, workers) = (replicas("Master"), replicas("Worker"));
                if master.is_none() && workers.is_none() {
                    return Err(Error::NeitherMasterNorWorker(format!("spec.{field}")));
                }
                // u64: two u32 counts cannot overflow it; the limit is checked below.
                let total = u64::from(master.unwrap_or(0)) + u64::from(workers.unwrap_or(0));
                (if master.is_some() { "Master" } else { "Worker" }, u32::try_from(total).unwrap_or(u32::MAX))
            }
        };
        for rtype in ["Master", "Worker"] {
            if let Some(n) = replicas(rtype) {
                count_in_range(format_args!("spec.{field}.{rtype}.replicas"), u64::from(n), 0)?;
            }
        }
        let nodes = if kind == V1Kind::JaxJob {
            count_in_range(format_args!("spec.{field}.Worker.replicas"), u64::from(nodes), 1)?
        } else {
            count_in_range(
                format_args!("the replicas of spec.{field}.Master and Worker, added up"),
                u64::from(nodes),
                1,
            )?
        };
        let allowed: &[&str] = if kind == V1Kind::JaxJob { &["Worker"] } else { &["Master", "Worker"] };
        let others: Vec<String> = self.replicas.keys().filter(|k| !allowed.contains(&k.as_str())).cloned().collect();
        for other in others {
            let path = self.replicas[&other].path.clone();
            self.report.dropped(path, format!("{other} is not a {} replica type", self.kind_name));
        }

        let runtime_name = runtime_name(&self.release, framework_of(kind));
        let meta = self.trainjob_meta();
        let mut spec = TrainJobSpec {
            runtime_ref: RuntimeRef { name: runtime_name.into(), api_group: None, kind: None },
            ..Default::default()
        };
        self.run_policy(&mut spec);

        let Some(trainer_rep) = self.replicas.get_mut(trainer_type) else {
            return Err(Error::Internal(format!("the {trainer_type} replica went missing")));
        };
        let (trainer_path, trainer_raw, main_idx) = (
            trainer_rep.path.clone(),
            trainer_rep.raw,
            main_container(&trainer_rep.spec.template.spec, kind.container_name()),
        );
        // The variables, and the args but the Master's (`report_master_only_args` reads those in
        // the model), move from the model into the trainer rather than being copied: a container
        // can hold 200,000 of them, and nothing else reads them there (`PodSettings::collect`
        // skips the trainer's fields). A model read without its args and env (`tree_args`) has
        // none of them.
        let model_main = &mut trainer_rep.spec.template.spec.containers[main_idx];
        let env = std::mem::take(&mut model_main.env);
        let args = if trainer_type == "Master" { None } else { Some(std::mem::take(&mut model_main.args)) };
        let mut main = model_main.clone();
        main.env = env;
        if let Some(args) = args {
            main.args = args;
        }
        let main_path = item(&member(&trainer_path, "template.spec.containers"), main_idx);
        let steps = ["spec", kind.replica_specs_field(), trainer_rep.key, "template", "spec", "containers"];
        let main_at = |field: &str| -> Vec<_> {
            let mut at: Vec<_> = steps.into_iter().map(|key| moved_env::TreeStep::Key(key.into())).collect();
            at.extend([moved_env::TreeStep::Index(main_idx), moved_env::TreeStep::Key(field.into())]);
            at
        };
        self.trainer_env_at = Some(main_at("env"));
        // Where the model was read without them, the args and env are the tree's, moved into the
        // TrainJob by the caller (`tree_args`, `moved_env`).
        if let (true, true, Some(list)) =
            (self.lists_in_tree, main.env.is_empty(), moved_env::plain_list(trainer_raw, main_idx))
        {
            self.trainer_env_in_tree = (!list.is_empty()).then(|| moved_env::EnvInTree { list, rewritten: Vec::new() });
        }
        if let (true, true, Some(list)) =
            (self.lists_in_tree, main.args.is_empty(), tree_args::tree_list(trainer_raw, main_idx))
        {
            let at = main_at("args");
            self.trainer_args_in_tree =
                (!list.is_empty()).then(|| tree_args::TrainerArgsInTree { list, at, rewritten: Vec::new() });
        }
        let mut trainer = self.trainer_from(&mut main, &main_path);
        trainer.num_nodes = Some(nodes);
        self.report_topology(kind, nodes);

        // Resources: the Worker's when Workers run (most nodes are Workers), else the Master's.
        let res_type = if self.workers_run() { "Worker" } else { trainer_type };
        let res_rep = &self.replicas[res_type];
        let res_idx = main_container(&res_rep.spec.template.spec, kind.container_name());
        let res_path = format!("{}.template.spec.containers[{res_idx}].resources", res_rep.path);
        if let Some(r) = res_rep.spec.template.spec.containers[res_idx].resources.clone() {
            self.map_resources(r, &res_path, &mut trainer);
        }

        self.procs_per_node(&mut trainer)?;
        self.elastic_policy();

        // The restart policy of each replica.
        let in_total = format!("{} in total", counted(nodes.into(), "node", "nodes"));
        for rtype in allowed {
            let Some(rep) = self.replica(rtype) else { continue };
            let (base, policy, has_replicas) =
                (rep.path.clone(), rep.spec.restart_policy.clone(), rep.raw.get("replicas").is_some());
            if let Some(p) = policy {
                self.report_restart_policy(member(&base, "restartPolicy"), &p);
            }
            if has_replicas {
                self.report.mapped_derived(member(&base, "replicas"), "spec.trainer.numNodes", in_total.clone());
            }
        }

        let taken = std::mem::take(&mut self.taken_settings);
        let Some(trainer_rep) = self.replicas.get_mut(trainer_type) else {
            return Err(Error::Internal(format!("the {trainer_type} replica went missing")));
        };
        let pod = &mut trainer_rep.spec.template;
        let mut settings =
            PodSettings::collect(pod, main_idx, &member(&trainer_path, "template"), &self.release, taken)?;
        let base = self.base_runtime(framework_of(kind))?;
        let mut objects = Vec::new();
        let main_container = MainContainer { path: &main_path, job: "node", has_command: !main.command.is_empty() };
        self.place_pod_settings(&mut [("node", &mut settings)], &base, main_container, &mut spec, &mut objects, &meta)?;
        trainer.command = main.command.clone();
        // Before the Worker is compared with the Master: a rewritten argument has its own entry.
        self.carry_v1_env(&mut trainer, nodes, &main_path);
        // The replica not carried by itself: its fields are carried where they equal the carried one's.
        if trainer_type == "Master" {
            self.compare_worker_with_master(kind.container_name());
            self.compare_master_resources_with_worker(kind.container_name());
            self.report_master_only_args(kind.container_name());
        }
        spec.trainer = Some(trainer);
        objects.push(self.trainjob_value(meta, spec)?);
        Ok(objects)
    }

    pub(super) fn report_topology(&mut self, kind: V1Kind, nodes: u32) {
        if kind != V1Kind::JaxJob {
            let field = kind.replica_specs_field();
            let runs = |rtype: &str| self.replica(rtype).is_some_and(|r| r.spec.replicas.unwrap_or(1) > 0);
            let note = topology_note(runs("Master"), runs("Worker"), nodes);
            for rtype in ["Master", "Worker"] {
                if self.replica(rtype).is_some() {
                    self.report.mapped_node(
                        ["spec.", field, ".", rtype].concat(),
                        "spec.trainer.numNodes",
                        note.clone(),
                    );
                }
            }
        }
    }
}

/// What the report says of the V1 replicas that become the TrainJob's nodes, in the words that fit
/// the job: a Master-only job has no Workers, and one node is not "identical nodes".
fn topology_note(master_runs: bool, workers_run: bool, nodes: u32) -> String {
    match (master_runs, workers_run) {
        _ if nodes == 1 => {
            let only = if master_runs || !workers_run { "Master" } else { "Worker" };
            format!("the {only} becomes the only node")
        }
        (true, true) => format!("Master and Workers become {nodes} identical nodes; node 0 coordinates"),
        (false, _) => format!("the Workers become {nodes} identical nodes; node 0 coordinates"),
        (true, false) => format!("the Master's replicas become {nodes} identical nodes; node 0 coordinates"),
    }
}

#[cfg(test)]
mod tests {
    use super::topology_note;

    #[test]
    fn the_note_names_only_the_replicas_the_job_has() {
        assert_eq!(topology_note(true, false, 1), "the Master becomes the only node");
        assert_eq!(topology_note(false, true, 1), "the Worker becomes the only node");
        assert_eq!(topology_note(false, true, 3), "the Workers become 3 identical nodes; node 0 coordinates");
        assert_eq!(topology_note(true, true, 3), "Master and Workers become 3 identical nodes; node 0 coordinates");
    }
}

//! MPIJob (v1 and v2beta1): DeepSpeed over MPI uses the built-in runtime; plain MPI gets a
//! generated TrainingRuntime with mlPolicy.mpi.

use super::*;

pub(super) const MPI_RUNTIME_WHY: &str =
    "no built-in plain-MPI runtime exists after v2.1, so the generated TrainingRuntime holds it";

impl Conversion<'_> {
    /// MPIJob (v1 or v2beta1): launcher + workers.
    pub(super) fn convert_mpi(&mut self) -> Result<Vec<Value>, String> {
        let launcher = self.require("Launcher")?;
        let worker = self.require("Worker")?;
        let preferred = "mpi";
        let launcher_main_index = main_container(&launcher.spec.template.spec, preferred);
        let worker_main_index = main_container(&worker.spec.template.spec, preferred);
        let (launcher_path, worker_path) = (launcher.path.clone(), worker.path.clone());
        let launcher_main = launcher.spec.template.spec.containers[launcher_main_index].clone();
        let worker_main = worker.spec.template.spec.containers[worker_main_index].clone();
        let workers = worker.spec.replicas.unwrap_or(1);

        if self.spec().contains_key("mpiImplementation") {
            // Anything but OpenMPI was refused in `convert`.
            self.report.mapped("spec.mpiImplementation", "mlPolicy.mpi.mpiImplementation", "");
        }
        let deepspeed = [&launcher_main, &worker_main].iter().any(|c| mentions_deepspeed(c));
        let meta = self.trainjob_meta();
        let mut spec = TrainJobSpec::default();
        self.run_policy(&mut spec);
        for (rtype, path) in [("Launcher", &launcher_path), ("Worker", &worker_path)] {
            if let Some(p) = self.replicas[rtype].spec.restart_policy.clone() {
                self.report_restart_policy(format!("{path}.restartPolicy"), &p);
            }
        }
        let launcher_main_path = format!("{launcher_path}.template.spec.containers[{launcher_main_index}]");
        let worker_main_path = format!("{worker_path}.template.spec.containers[{worker_main_index}]");
        let mut trainer = self.trainer_from(&launcher_main, &launcher_main_path);
        trainer.command = launcher_main.command.clone();
        if let Some(r) = worker_main.resources.clone() {
            self.map_resources(r, &format!("{worker_main_path}.resources"), &mut trainer);
        }
        let slots = self.spec().get("slotsPerWorker").and_then(Value::as_u64).map(|n| n as u32);
        let mut objects = Vec::new();

        if deepspeed {
            // DeepSpeed over MPI: the built-in runtime. Its launcher is also a rank
            // (runLauncherAsNode), so numNodes = workers keeps the number of hosts.
            spec.runtime_ref = RuntimeRef { name: "deepspeed-distributed".into(), api_group: None, kind: None };
            trainer.num_nodes = Some(workers);
            self.report.mapped(
                format!("{worker_path}.replicas"),
                "spec.trainer.numNodes",
                format!("{workers} hosts: deepspeed-distributed runs the launcher as one of them"),
            );
            self.report.mapped_node(launcher_path.clone(), "replicatedJobs[launcher]", "");
            self.report.mapped_node(worker_path.clone(), "replicatedJobs[node]", "");
            if let Some(n) = slots {
                trainer.num_proc_per_node = Some(n);
                self.report.mapped("spec.slotsPerWorker", "spec.trainer.numProcPerNode", "");
            }
            // The runtime's node pods keep their own image and sshd; the Worker's are reported.
            if worker_main.image != launcher_main.image {
                self.report.dropped(
                    format!("{worker_main_path}.image"),
                    "the runtime's node pods run its own image with sshd; trainer.image sets the trainer step's",
                );
            }
            if !worker_main.command.is_empty() {
                self.report.dropped(format!("{worker_main_path}.command"), "the runtime's node pods run sshd");
            }
            if !worker_main.args.is_empty() {
                self.report.dropped(format!("{worker_main_path}.args"), "the runtime's node pods run sshd");
            }
            self.report.mapped(format!("{worker_main_path}.name"), "replicatedJobs[node] container node", "");
            if launcher_main.resources.as_ref().is_some_and(|r| !r.is_empty()) {
                self.report.dropped(
                    format!("{launcher_main_path}.resources"),
                    "the launcher is a training node in deepspeed-distributed and gets resourcesPerNode",
                );
            }
            let base = runtimes::runtime_for(&Selection::new(
                crate::catalog::Persona::PlatformEngineer,
                crate::catalog::Framework::DeepSpeed,
            ))
            .ok_or("no runtime")?;
            let launcher_pod = self.replicas["Launcher"].spec.template.clone();
            let worker_pod = self.replicas["Worker"].spec.template.clone();
            let launcher_settings =
                PodSettings::collect(&launcher_pod, launcher_main_index, &format!("{launcher_path}.template"));
            let worker_settings =
                PodSettings::collect(&worker_pod, worker_main_index, &format!("{worker_path}.template"));
            self.place_pod_settings(
                &[("launcher", &launcher_settings), ("node", &worker_settings)],
                &base,
                &mut spec,
                &mut objects,
                &meta,
            );
        } else {
            // Plain MPI: no built-in runtime after v2.1, so generate one with mlPolicy.mpi.
            let rt = self.generated_mpi_runtime(
                &meta,
                &launcher_main,
                &worker_main,
                &launcher_main_path,
                &worker_main_path,
                workers,
                slots,
            )?;
            spec.runtime_ref = reference_to(&rt);
            trainer.num_nodes = Some(workers);
            let mut rt = rt;
            let launcher_pod = self.replicas["Launcher"].spec.template.clone();
            let worker_pod = self.replicas["Worker"].spec.template.clone();
            let launcher_settings =
                PodSettings::collect(&launcher_pod, launcher_main_index, &format!("{launcher_path}.template"));
            let worker_settings =
                PodSettings::collect(&worker_pod, worker_main_index, &format!("{worker_path}.template"));
            self.embed(&launcher_settings, "launcher", &mut rt, MPI_RUNTIME_WHY);
            self.embed(&worker_settings, "node", &mut rt, MPI_RUNTIME_WHY);
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
    pub(super) fn generated_mpi_runtime(
        &mut self,
        meta: &ObjectMeta,
        launcher_main: &Container,
        worker_main: &Container,
        launcher_path: &str,
        worker_path: &str,
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
        let node_container = &mut jobs[node].template.spec.template.spec.containers[0];
        node_container.image = worker_main.image.clone();
        self.report.moved(
            format!("{worker_path}.image"),
            format!("TrainingRuntime {} node image", rt.metadata.name.clone().unwrap_or_default()),
            "",
        );
        self.report.mapped(format!("{worker_path}.name"), "replicatedJobs[node] container node", "");
        let worker_replica_path = self.replicas["Worker"].path.clone();
        self.report.mapped_node(worker_replica_path, "replicatedJobs[node]", format!("{workers} workers"));
        if v2beta1 && !worker_main.command.is_empty() {
            node_container.command = worker_main.command.clone();
            node_container.args = worker_main.args.clone();
            node_container.readiness_probe = None;
            self.report.moved(format!("{worker_path}.command"), "TrainingRuntime node command", "");
            if !worker_main.args.is_empty() {
                self.report.moved(format!("{worker_path}.args"), "TrainingRuntime node args", "");
            }
        } else {
            // Training Operator V1 reached workers through kubectl exec; V2 uses SSH.
            node_container.command = vec!["/usr/sbin/sshd".into()];
            node_container.args = vec!["-De".into()];
            node_container.readiness_probe = None;
            node_container.security_context = None;
            self.report.dropped(
                format!("{worker_path}.image"),
                "check this image runs an SSH server: Training Operator V1 reached workers with kubectl exec, V2 over SSH (the generated runtime starts /usr/sbin/sshd -De)",
            );
        }
        if worker_main.security_context.is_some() {
            node_container.security_context = worker_main.security_context.clone();
        }
        let launcher_container = &mut jobs[launcher].template.spec.template.spec.containers[0];
        launcher_container.image = launcher_main.image.clone();
        launcher_container.resources = launcher_main.resources.clone();
        if launcher_main.security_context.is_some() {
            launcher_container.security_context = launcher_main.security_context.clone();
        } else if !v2beta1 {
            launcher_container.security_context = None;
        }
        if launcher_main.resources.as_ref().is_some_and(|r| !r.is_empty()) {
            self.report.moved(format!("{launcher_path}.resources"), "TrainingRuntime launcher resources", "");
        }
        let launcher_replica_path = self.replicas["Launcher"].path.clone();
        self.report.mapped_node(launcher_replica_path, "replicatedJobs[launcher]", "");
        if !v2beta1 {
            // Root images: drop the uid 1000 pod settings the template carries.
            for j in jobs.iter_mut() {
                j.template.spec.template.spec.security_context = None;
                j.template.spec.template.spec.containers[0].security_context = None;
            }
            if let Some(sc) = &worker_main.security_context {
                jobs[node].template.spec.template.spec.containers[0].security_context = Some(sc.clone());
            }
            if let Some(sc) = &launcher_main.security_context {
                jobs[launcher].template.spec.template.spec.containers[0].security_context = Some(sc.clone());
            }
        }
        let worker_replica_path = self.replicas["Worker"].path.clone();
        self.report.mapped(
            format!("{worker_replica_path}.replicas"),
            "spec.trainer.numNodes",
            format!("{workers} worker nodes; the launcher runs separately"),
        );
        let launcher_replica_path = self.replicas["Launcher"].path.clone();
        self.report.mapped(format!("{launcher_replica_path}.replicas"), "replicatedJobs[launcher]", "one launcher");
        Ok(rt)
    }
}

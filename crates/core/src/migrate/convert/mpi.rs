//! MPIJob (v1 and v2beta1): DeepSpeed over MPI uses the built-in runtime; plain MPI gets a
//! generated TrainingRuntime with mlPolicy.mpi.

use super::Error;
use super::*;
use numbers::count_value;

/// A release's plain-MPI built-in: the MPI policy without a framework (v2.0's pi demo).
fn plain_mpi(release: &Release) -> Option<&'static explorer_data::releases::BuiltinRuntime> {
    release.runtimes.iter().find(|r| r.policy == "mpi" && r.framework.is_empty())
}

impl Conversion<'_> {
    /// Why a plain MPIJob gets a generated runtime in the target release.
    fn mpi_runtime_why(&self) -> String {
        let tag = self.release.tag;
        if let Some(rt) = plain_mpi(&self.release) {
            return format!(
                "{tag}'s plain-MPI runtime, {}, runs {} on its node pods and a TrainJob sets only the launcher's \
                 image, so the generated TrainingRuntime holds it",
                rt.name, rt.image
            );
        }
        let removed = RELEASES.iter().find_map(plain_mpi).and_then(|rt| {
            let (_, removed) = Release::life_span(rt.name);
            Some(format!(" ({} was removed in {})", rt.name, removed?.line))
        });
        format!(
            "{tag} ships no plain-MPI runtime{}, so the generated TrainingRuntime holds it",
            removed.unwrap_or_default()
        )
    }

    /// MPIJob (v1 or v2beta1): launcher + workers; or why the target release cannot run it.
    pub(super) fn convert_mpi(&mut self) -> Result<Result<Vec<Value>, Refusal>, Error> {
        let launcher = self.require("Launcher")?;
        let worker = self.require("Worker")?;
        let preferred = "mpi";
        let launcher_main_index = main_container(&launcher.spec.template.spec, preferred);
        let worker_main_index = main_container(&worker.spec.template.spec, preferred);
        let (launcher_path, worker_path) = (launcher.path.clone(), worker.path.clone());
        let mut launcher_main = launcher.spec.template.spec.containers[launcher_main_index].clone();
        let worker_main = worker.spec.template.spec.containers[worker_main_index].clone();
        // Both MPI operators default an absent Worker count to 0 (training-operator
        // v1.9.0:pkg/apis/kubeflow.org/v1/mpi_defaults.go:34; mpi-operator
        // v0.6.0:pkg/apis/kubeflow/v2beta1/default.go:47-49): the launcher ran with no workers,
        // which a TrainJob (numNodes at least 1) cannot say.
        let Some(worker_replicas) = worker.spec.replicas else {
            return Err(Error::NoWorkerCount(worker_path));
        };
        let workers = count_in_range(format_args!("{worker_path}.replicas"), u64::from(worker_replicas), 1)?;
        let launchers = launcher.spec.replicas.unwrap_or(1);
        let launcher_has_replicas = launcher.raw_has_replicas();
        let worker_has_replicas = worker.raw_has_replicas();
        if launchers != 1 {
            return Err(Error::Launchers { path: launcher_path, count: launchers });
        }
        let slots = match self.spec().get("slotsPerWorker") {
            Some(v) => Some(count_value("spec.slotsPerWorker", v, 1)?),
            None => None,
        };

        // DeepSpeed over MPI fits the built-in runtime only where the workers run its image: its
        // node pods keep that image whatever the TrainJob says (a TrainJob sets the launcher's
        // image only, and no pod-settings field can set an image), while the job's own image is
        // where its code lives.
        let ds_image = self.release.builtin_for(Framework::DeepSpeed).map(|rt| self.release.image(rt.image));
        let deepspeed_job = [&launcher_main, &worker_main].iter().any(|c| mentions_deepspeed(c));
        let deepspeed = deepspeed_job && ds_image.is_some() && worker_main.image == ds_image;
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
        let mut trainer = self.trainer_from(&mut launcher_main, &launcher_main_path);
        trainer.command = launcher_main.command.clone();
        self.leave_reserved_env_to_trainer(&mut trainer, &launcher_main_path);
        if let (true, Some(r)) = (deepspeed, worker_main.resources.clone()) {
            // The built-in runs the launcher as a node: resourcesPerNode reaches both jobs.
            self.map_resources(r, &format!("{worker_main_path}.resources"), &mut trainer);
        }
        self.report_worker_container(&worker_main, &worker_main_path, deepspeed);
        trainer.num_nodes = Some(workers);
        let mut objects = Vec::new();
        let mut launcher_pod = self.replicas["Launcher"].spec.template.clone();
        let mut worker_pod = self.replicas["Worker"].spec.template.clone();
        let mut launcher_settings = PodSettings::collect(
            &mut launcher_pod,
            launcher_main_index,
            &format!("{launcher_path}.template"),
            &self.release,
            Vec::new(),
        )?;
        let mut worker_settings = PodSettings::collect(
            &mut worker_pod,
            worker_main_index,
            &format!("{worker_path}.template"),
            &self.release,
            Vec::new(),
        )?;

        let ds_runtime = runtime_name(&self.release, Framework::DeepSpeed);
        if worker_has_replicas {
            let note = if deepspeed {
                format!("{}: {ds_runtime} runs the launcher as one of them", counted(workers.into(), "host", "hosts"))
            } else {
                format!("{}; the launcher runs separately", counted(workers.into(), "worker node", "worker nodes"))
            };
            self.report.mapped_derived(format!("{worker_path}.replicas"), "spec.trainer.numNodes", note);
        }
        let runtime = if deepspeed {
            // DeepSpeed over MPI: the built-in runtime. Its launcher is also a rank
            // (runLauncherAsNode), so numNodes = workers keeps the number of hosts.
            spec.runtime_ref = RuntimeRef { name: ds_runtime.into(), api_group: None, kind: None };
            if launcher_has_replicas {
                self.report.dropped(format!("{launcher_path}.replicas"), format!("{ds_runtime} runs one launcher"));
            }
            if let Some(n) = slots {
                trainer.num_proc_per_node = Some(n);
                self.report.mapped("spec.slotsPerWorker", "spec.trainer.numProcPerNode", "");
            }
            // The runtime's node pods keep their own image and sshd.
            let sshd = format!("the node pods of {ds_runtime} run the runtime's own image with sshd");
            self.report.dropped(format!("{worker_main_path}.image"), &sshd);
            if !worker_main.command.is_empty() {
                self.report.dropped(format!("{worker_main_path}.command"), &sshd);
            }
            if !worker_main.args.is_empty() {
                self.report.dropped(format!("{worker_main_path}.args"), sshd);
            }
            let ports = format!(
                "{ds_runtime}'s pods declare no ports and a TrainJob holds none; mpirun reaches the nodes over SSH"
            );
            if !launcher_main.ports.is_empty() {
                self.report.dropped(format!("{launcher_main_path}.ports"), &ports);
            }
            if !worker_main.ports.is_empty() {
                self.report.dropped(format!("{worker_main_path}.ports"), ports);
            }
            if launcher_main.resources.is_some() {
                self.report.dropped(
                    format!("{launcher_main_path}.resources"),
                    format!("the launcher is a training node in {ds_runtime} and gets resourcesPerNode"),
                );
            }
            for key in ["mpiImplementation", "sshAuthMountPath", "runLauncherAsWorker"] {
                if self.spec().contains_key(key) {
                    self.report.dropped(
                        format!("spec.{key}"),
                        format!(
                            "{ds_runtime} sets its own MPI policy (OpenMPI, its SSH mount, the launcher as a node)"
                        ),
                    );
                }
            }
            let base = self.base_runtime(Framework::DeepSpeed)?;
            let main = MainContainer {
                path: &launcher_main_path,
                job: "launcher",
                has_command: !launcher_main.command.is_empty(),
            };
            self.place_pod_settings(
                &mut [("launcher", &mut launcher_settings), ("node", &mut worker_settings)],
                &base,
                main,
                &mut spec,
                &mut objects,
                &meta,
            )?;
            base
        } else {
            // Plain MPI: no built-in runtime fits (see `mpi_runtime_why`), so generate one with mlPolicy.mpi.
            let why = match (&ds_image, &worker_main.image) {
                (Some(builtin), Some(own)) if deepspeed_job => format!(
                    "{}'s node pods run its own image, {builtin}, and a TrainJob sets only the launcher's; this \
                     job's workers run {own}, so the generated TrainingRuntime holds it",
                    runtime_name(&self.release, Framework::DeepSpeed)
                ),
                _ => self.mpi_runtime_why(),
            };
            let mut rt = self.generated_mpi_runtime(
                &meta,
                (&launcher_main, &launcher_main_path),
                (&worker_main, &worker_main_path),
                slots,
            )?;
            let rt_name = rt.metadata.name.clone().unwrap_or_default();
            self.keep_v1_slots(&rt, slots, &worker_main_path, &mut trainer);
            let jobs = format!("TrainingRuntime {rt_name} spec.template.spec.replicatedJobs");
            spec.runtime_ref = reference_to(&rt);
            let note = if deepspeed_job { format!("{workers} workers; {why}") } else { format!("{workers} workers") };
            self.report.mapped_node(worker_path.clone(), format!("{jobs}[node]"), note);
            self.report.mapped_node(launcher_path.clone(), format!("{jobs}[launcher]"), "");
            if launcher_has_replicas {
                self.report.moved(format!("{launcher_path}.replicas"), format!("{jobs}[launcher]"), "one launcher");
                if let Some(e) = self.report.entries.last_mut() {
                    e.derived = true;
                }
            }
            if launcher_main.resources.is_some() {
                self.report.moved(
                    format!("{launcher_main_path}.resources"),
                    format!("{jobs}[launcher].template.spec.template.spec.containers[0].resources"),
                    why.clone(),
                );
            }
            self.report_unplaceable(&launcher_settings);
            self.report_unplaceable(&worker_settings);
            self.embed(&mut launcher_settings, "launcher", &mut rt, &why)?;
            self.embed(&mut worker_settings, "node", &mut rt, &why)?;
            objects.push(to_value(&rt)?);
            rt
        };
        if self.spec().contains_key("cleanPodPolicy") {
            self.report.dropped(
                "spec.cleanPodPolicy",
                format!("a TrainJob has no pod clean-up policy in {}", self.release.tag),
            );
        }
        if self.spec().contains_key("mainContainer") {
            self.report.dropped("spec.mainContainer", "used to find the MPI container; V2 runtimes name it node");
        }
        spec.trainer = Some(trainer);
        let spec = match self.hostfile_refusal(&meta, spec, &runtime, (&worker_path, workers)) {
            Ok(spec) => spec,
            Err(refusal) => return Ok(Err(refusal)),
        };
        objects.push(self.trainjob_value(meta, spec)?);
        Ok(Ok(objects))
    }

    /// The TrainJob's `spec` back, unless the target release's controller would fail on its
    /// hostfile, counted by explain's own function: the MPI plugin's lines
    /// (`<trainjob>-node-0-<i>.<trainjob> slots=N`) are longer than Training Operator v1.9's
    /// (`<job>-worker-<i> slots=N`), so a job that ran in V1 may start no training in V2: a job
    /// named `big` from 36,541 workers, where v1.9 refuses 42,384 (see `explain::hostfile_refused`).
    fn hostfile_refusal(
        &self,
        meta: &ObjectMeta,
        spec: TrainJobSpec,
        runtime: &TrainingRuntime,
        (worker_path, workers): (&str, u32),
    ) -> Result<TrainJobSpec, Refusal> {
        // The hostfile reads the TrainJob's name and spec.trainer only: the spec is moved in and
        // back, not copied, and the metadata's labels are left out.
        let job = TrainJob {
            api_version: API_VERSION.into(),
            kind: "TrainJob".into(),
            metadata: ObjectMeta { name: meta.name.clone(), ..ObjectMeta::default() },
            spec,
        };
        match crate::explain::mpi_hostfile_past_limit(crate::explain::Input::new(&job, runtime), self.release) {
            None => Ok(job.spec),
            Some(bytes) => Err(Refusal::HostfileTooLarge {
                path: worker_path.into(),
                workers,
                operator: match self.source {
                    Source::MpiV2beta1 => explorer_data::served::MPI_OPERATOR,
                    Source::V1(_) => explorer_data::served::TRAINING_OPERATOR,
                },
                release: self.release.tag,
                bytes,
            }),
        }
    }

    /// The OpenMPI variables Trainer's MPI plugin sets on the launcher itself (the hostfile, the
    /// slots, ssh's arguments): from the release whose webhook refuses them in `trainer.env`
    /// (v2.3.0:pkg/runtime/framework/plugins/mpi/mpi.go:95-107, names at
    /// pkg/constants/constants.go:305-306), they leave the TrainJob, and the report says so.
    fn leave_reserved_env_to_trainer(&mut self, trainer: &mut Trainer, launcher_main_path: &str) {
        if !self.release.controller.mpi_reserved_env
            || !trainer.env.iter().any(|e| crate::explain::MPI_RESERVED.contains(&e.name.as_str()))
        {
            return;
        }
        // One entry per variable: the whole list no longer lands at the same indexes.
        let env_path = format!("{launcher_main_path}.env");
        self.report.entries.retain(|e| e.from != env_path);
        let mut kept = Vec::new();
        for (i, var) in std::mem::take(&mut trainer.env).into_iter().enumerate() {
            let at = format!("{env_path}[{i}]");
            if crate::explain::MPI_RESERVED.contains(&var.name.as_str()) {
                self.report.dropped(
                    at,
                    format!(
                        "Trainer {}'s MPI plugin sets {} on the launcher itself, and its webhook refuses it in \
                         spec.trainer.env",
                        self.release.tag, var.name
                    ),
                );
            } else {
                self.report.mapped(at, format!("spec.trainer.env[{}]", kept.len()), "");
                kept.push(var);
            }
        }
        trainer.env = kept;
    }

    /// Keeps V1's slots per worker (`slotsPerWorker`, default 1) where the target release would
    /// change them: from v2.1, a runtime `numProcPerNode` of 1 with no TrainJob value becomes
    /// the GPU count of the first node or trainer job that sets resources
    /// (v2.3.0:pkg/runtime/framework/plugins/mpi/mpi.go:129-138, pkg/runtime/runtime.go:254-298),
    /// so the TrainJob states 1.
    fn keep_v1_slots(
        &mut self,
        rt: &TrainingRuntime,
        slots: Option<u32>,
        worker_main_path: &str,
        trainer: &mut Trainer,
    ) {
        let v1_slots = slots.unwrap_or(1);
        if v1_slots != 1 || !self.release.controller.mpi_slots_follow_gpus {
            return;
        }
        let gpus = crate::explain::runtime_gpus_per_node(rt);
        if gpus <= 1 {
            return;
        }
        trainer.num_proc_per_node = Some(1);
        // Said on the Worker's resources, whose GPUs would change the slots.
        let note = format!(
            "; spec.trainer.numProcPerNode: 1 keeps V1's one slot per worker, where {} would give each node \
             {gpus}, one per GPU",
            self.release.tag
        );
        let resources = format!("{worker_main_path}.resources");
        if let Some(e) = self.report.entries.iter_mut().find(|e| e.from == resources) {
            e.note.push_str(&note);
        }
    }

    /// The Worker's main-container fields the node pods of either MPI runtime do not take from it.
    fn report_worker_container(&mut self, worker_main: &Container, path: &str, builtin: bool) {
        self.report.dropped(format!("{path}.name"), "V2 runtimes name the container node");
        // A generated runtime keeps the Worker's env on its node pods (generated_mpi_runtime).
        if builtin && !worker_main.env.is_empty() {
            self.report
                .dropped(format!("{path}.env"), "the node pods run sshd; spec.trainer.env holds the launcher's env");
        }
        if worker_main.image_pull_policy.is_some() {
            self.report.dropped(format!("{path}.imagePullPolicy"), "the runtime's pull policy applies");
        }
    }

    pub(super) fn generated_mpi_runtime(
        &mut self,
        meta: &ObjectMeta,
        (launcher_main, launcher_path): (&Container, &str),
        (worker_main, worker_path): (&Container, &str),
        slots: Option<u32>,
    ) -> Result<TrainingRuntime, Error> {
        let v2beta1 = self.source == Source::MpiV2beta1;
        let mut rt = self.base_runtime(Framework::Mpi)?;
        rt.kind = crate::plain_ml::RUNTIME_SCOPE.kind().into();
        let rt_name = format!("{}-mpi", meta.name.clone().unwrap_or_default());
        rt.metadata.name = Some(rt_name.clone());
        rt.metadata.namespace = meta.namespace.clone();
        rt.metadata.labels.remove(WEBHOOK_LABEL);
        let at = |path: &str| format!("TrainingRuntime {rt_name} {path}");
        let policy = rt
            .spec
            .ml_policy
            .as_mut()
            .and_then(|p| p.mpi.as_mut())
            .ok_or_else(|| Error::Internal("no mpi policy".into()))?;
        policy.num_proc_per_node = Some(slots.unwrap_or(1));
        if slots.is_some() {
            self.report.moved("spec.slotsPerWorker", at("spec.mlPolicy.mpi.numProcPerNode"), "");
        }
        if self.spec().contains_key("mpiImplementation") {
            // Anything but OpenMPI was refused in `convert`.
            self.report.moved("spec.mpiImplementation", at("spec.mlPolicy.mpi.mpiImplementation"), "");
        }
        let ssh = self.spec().get("sshAuthMountPath").and_then(Value::as_str).map(String::from);
        // v1 MPIJob images ran as root; the MPI Operator's default mount is /root/.ssh too.
        policy.ssh_auth_mount_path = Some(ssh.clone().unwrap_or_else(|| "/root/.ssh".into()));
        if ssh.is_some() {
            self.report.moved("spec.sshAuthMountPath", at("spec.mlPolicy.mpi.sshAuthMountPath"), "");
        } else if self.spec().contains_key("sshAuthMountPath") {
            self.report.dropped("spec.sshAuthMountPath", "not a string; the runtime mounts the SSH keys at /root/.ssh");
        }
        let as_worker = self.spec().get("runLauncherAsWorker").and_then(Value::as_bool);
        policy.run_launcher_as_node = Some(as_worker.unwrap_or(false));
        if as_worker.is_some() {
            self.report.moved("spec.runLauncherAsWorker", at("spec.mlPolicy.mpi.runLauncherAsNode"), "");
        } else if self.spec().contains_key("runLauncherAsWorker") {
            self.report.dropped("spec.runLauncherAsWorker", "not a boolean; the launcher does not run as a node");
        }
        if self.spec().contains_key("launcherCreationPolicy") {
            self.report.dropped("spec.launcherCreationPolicy", "V2 launchers always wait for the nodes to be ready");
        }
        let (node, launcher) = {
            let jobs = &mut rt.spec.template.spec.replicated_jobs;
            let node =
                jobs.iter().position(|j| j.name == "node").ok_or_else(|| Error::Internal("no node job".into()))?;
            let launcher = jobs
                .iter()
                .position(|j| j.name == "launcher")
                .ok_or_else(|| Error::Internal("no launcher job".into()))?;
            (node, launcher)
        };
        let jobs = &mut rt.spec.template.spec.replicated_jobs;
        let node_container_path =
            at("spec.template.spec.replicatedJobs[node].template.spec.template.spec.containers[0]");
        // The node pods: the Worker's image; with v2beta1 also its sshd command and user.
        let node_container = &mut jobs[node].template.spec.template.spec.containers[0];
        node_container.image = worker_main.image.clone();
        // The Worker's env stays on its pods: sshd or the Worker's own command runs with it. The
        // ranks mpirun starts over SSH get the launcher's forwarded env, not this one.
        if !worker_main.env.is_empty() {
            node_container.env = worker_main.env.clone();
            let note = if v2beta1 {
                ""
            } else {
                "V1 started the ranks with kubectl exec, which gave them this env; V2 starts them over SSH, where \
                 they get what mpirun forwards from the launcher (spec.trainer.env, mpirun -x NAME)"
            };
            self.report.moved(format!("{worker_path}.env"), format!("{node_container_path}.env"), note);
        }
        let mut image_note = "";
        if v2beta1 && !worker_main.command.is_empty() {
            node_container.command = worker_main.command.clone();
            node_container.args = worker_main.args.clone();
            node_container.readiness_probe = None;
            self.report.moved(format!("{worker_path}.command"), format!("{node_container_path}.command"), "");
            if !worker_main.args.is_empty() {
                self.report.moved(format!("{worker_path}.args"), format!("{node_container_path}.args"), "");
            }
        } else {
            // Training Operator V1 reached workers through kubectl exec; V2 uses SSH.
            node_container.command = vec!["/usr/sbin/sshd".into()];
            node_container.args = vec!["-De".into()];
            node_container.readiness_probe = None;
            node_container.security_context = None;
            image_note = "check this image runs an SSH server: Training Operator V1 reached workers with kubectl exec, V2 over SSH (the generated runtime starts /usr/sbin/sshd -De)";
            let why = "the generated runtime's node pods run /usr/sbin/sshd -De: V2 reaches workers over SSH";
            if !worker_main.command.is_empty() {
                self.report.dropped(format!("{worker_path}.command"), why);
            }
            if !worker_main.args.is_empty() {
                self.report.dropped(format!("{worker_path}.args"), why);
            }
        }
        if worker_main.image.is_some() {
            self.report.moved(format!("{worker_path}.image"), format!("{node_container_path}.image"), image_note);
        }
        // The Worker's resources on the node pods' own template: with runLauncherAsNode false,
        // Trainer gives spec.trainer.resourcesPerNode to the launcher alone, the job labelled
        // trainjob-ancestor-step: trainer (v2.3.0:pkg/runtime/core/trainingruntime.go:199-203;
        // v2.2.1 and v2.1.0:pkg/runtime/framework/plugins/jobset/builder.go:142-159;
        // v2.0.1:pkg/runtime/framework/plugins/jobset/builder.go:111-144, the trainer job only).
        if let Some(r) = worker_main.resources.clone() {
            let path = format!("{worker_path}.resources");
            if let Some(r) = self.requests_and_limits(r, &path) {
                node_container.resources = Some(r);
                self.report.moved(
                    path,
                    format!("{node_container_path}.resources"),
                    "spec.trainer.resourcesPerNode would reach the launcher only (runLauncherAsNode: false), \
                     so the node pods' template holds the Worker's",
                );
            }
        }
        // Declared ports (an sshd on 2222, say) stay on the pods that declared them: with
        // hostNetwork a declared port is also a host port the scheduler keeps free.
        if !worker_main.ports.is_empty() {
            node_container.ports = worker_main.ports.clone();
            self.report.moved(format!("{worker_path}.ports"), format!("{node_container_path}.ports"), "");
        }
        let launcher_container = &mut jobs[launcher].template.spec.template.spec.containers[0];
        launcher_container.image = launcher_main.image.clone();
        launcher_container.resources = launcher_main.resources.clone();
        if !launcher_main.ports.is_empty() {
            launcher_container.ports = launcher_main.ports.clone();
            self.report.moved(
                format!("{launcher_path}.ports"),
                at("spec.template.spec.replicatedJobs[launcher].template.spec.template.spec.containers[0].ports"),
                "",
            );
        }
        // Only the security settings the job had: the template's uid 1000 and fsGroup 1000 are the
        // pi demo's (its mpiuser); real V1 images run mpirun as root with keys in /root/.ssh.
        // The pods' own securityContext is a pod setting and comes back through `embed`.
        for j in jobs.iter_mut() {
            j.template.spec.template.spec.security_context = None;
            j.template.spec.template.spec.containers[0].security_context = None;
        }
        jobs[node].template.spec.template.spec.containers[0].security_context = worker_main.security_context.clone();
        jobs[launcher].template.spec.template.spec.containers[0].security_context =
            launcher_main.security_context.clone();
        Ok(rt)
    }
}

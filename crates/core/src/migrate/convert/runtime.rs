//! Where pod settings go: the TrainJob's own field for them when they all fit it (a runtime
//! patch, or an override before v2.2), else a generated TrainingRuntime.

use super::Error;
use super::*;

impl Conversion<'_> {
    /// The runtime a generated one starts from: the target release's runtime for `framework`.
    pub(super) fn base_runtime(&self, framework: Framework) -> Result<TrainingRuntime, Error> {
        let mut sel = Selection::new(explorer_data::catalog::Persona::PlatformEngineer, framework);
        sel.release = self.release;
        runtimes::runtime_for(&sel)
            .ok_or_else(|| Error::Internal(format!("no {} runtime in {}", framework.label(), self.release.tag)))
    }

    /// Why the pod settings went to a generated runtime rather than the TrainJob.
    fn runtime_why(&self) -> String {
        format!(
            "{} cannot add containers or set this kind of field in {}, so a TrainingRuntime \
             carrying the job's pod settings was generated",
            pod_settings_entry(self.release.pod_settings()),
            self.release.tag
        )
    }

    /// Puts the pod-level settings of each replicated job where the target release keeps them:
    /// the TrainJob's pod-settings field when every setting fits it, else a generated
    /// TrainingRuntime that carries them all (the TrainJob then references it).
    ///
    /// Where the target's built-in runs a placeholder command (v2.0's scripts) and the V1 main
    /// container sets none, a TrainJob cannot give the image its own entrypoint back, so a
    /// runtime without that command is generated; a generated runtime never keeps it.
    pub(super) fn place_pod_settings(
        &mut self,
        jobs: &mut [(&str, &mut PodSettings)],
        base: &TrainingRuntime,
        main: MainContainer,
        spec: &mut TrainJobSpec,
        objects: &mut Vec<Value>,
        meta: &ObjectMeta,
    ) -> Result<(), Error> {
        for (_, settings) in jobs.iter() {
            self.report_unplaceable(settings);
        }
        let placeholder = self.release.runtime(&spec.runtime_ref.name).filter(|rt| !rt.command.is_empty());
        if placeholder.is_none() || main.has_command {
            if jobs.iter().all(|(_, s)| s.is_empty()) {
                return Ok(());
            }
            if jobs.iter().all(|(_, s)| s.fits_trainjob(&self.release)) {
                self.pod_overrides = self.pod_overrides_for(jobs);
                return Ok(());
            }
        }
        let mut rt = self.copy_runtime(base, meta);
        let why = self.runtime_why();
        for (job, settings) in jobs.iter_mut().filter(|(_, s)| !s.is_empty()) {
            self.embed(settings, job, &mut rt, &why)?;
        }
        if let Some(builtin) = placeholder {
            self.drop_placeholder(&mut rt, &main, builtin.name)?;
        }
        spec.runtime_ref = reference_to(&rt);
        objects.push(to_value(&rt)?);
        Ok(())
    }

    /// Clears the built-in's placeholder command and args from the trainer container of a
    /// generated runtime: the TrainJob's command replaces them, or, where V1 set none, the image
    /// runs its own entrypoint as it did in V1 (the report says so on the image's entry).
    fn drop_placeholder(&mut self, rt: &mut TrainingRuntime, main: &MainContainer, builtin: &str) -> Result<(), Error> {
        let rt_name = rt.metadata.name.clone().unwrap_or_default();
        let j = replicated_job(rt, main.job)?;
        let container = j
            .template
            .spec
            .template
            .spec
            .containers
            .first_mut()
            .ok_or_else(|| Error::Internal("no trainer container".into()))?;
        container.command.clear();
        container.args.clear();
        if main.has_command {
            return Ok(());
        }
        let note = format!(
            "{}'s {builtin} runs a placeholder script, and the V1 container sets no command: the generated \
             TrainingRuntime {rt_name} runs the image's own entrypoint",
            self.release.tag
        );
        // On the image's entry; a container without an image has its name's entry (renamed).
        let (image, name) = (format!("{}.image", main.path), format!("{}.name", main.path));
        let entries = &mut self.report.entries;
        let at = entries.iter().position(|e| e.from == image).or_else(|| entries.iter().position(|e| e.from == name));
        match at {
            Some(i) => entries[i].note = note,
            None => return Err(Error::Internal(format!("{name} has no report entry"))),
        }
        Ok(())
    }

    /// The pod settings no V2 object can hold, with the reason.
    pub(super) fn report_unplaceable(&mut self, settings: &PodSettings) {
        for (path, why) in &settings.dropped {
            self.report.dropped(path.clone(), why.clone());
        }
    }

    pub(super) fn copy_runtime(&mut self, base: &TrainingRuntime, meta: &ObjectMeta) -> TrainingRuntime {
        let mut rt = base.clone();
        rt.kind = crate::plain_ml::RUNTIME_SCOPE.kind().into();
        rt.metadata.name = Some(crate::plain_ml::runtime_name(meta.name.as_deref().unwrap_or_default()));
        rt.metadata.namespace = meta.namespace.clone();
        rt.metadata.labels.remove(WEBHOOK_LABEL);
        rt
    }

    /// Writes every setting into the named replicated job of a generated runtime, each value moved
    /// there rather than copied. A setting that does not fit the pod spec refuses the document:
    /// the report has not claimed it yet.
    pub(super) fn embed(
        &mut self,
        s: &mut PodSettings,
        job: &str,
        rt: &mut TrainingRuntime,
        why: &str,
    ) -> Result<(), Error> {
        let rt_name = rt.metadata.name.clone().unwrap_or_default();
        let j = replicated_job(rt, job)?;
        let pod = &mut j.template.spec.template;
        let mut pod_value = to_value(&pod.spec)?;
        let target =
            format!("TrainingRuntime {rt_name} spec.template.spec.replicatedJobs[{job}].template.spec.template");
        let mut claims = Vec::new();
        for (k, (v, path)) in s.pod_patchable.iter_mut().chain(&mut s.pod_other) {
            pod_value[k.as_str()] = v.take();
            claims.push((path.clone(), format!("{target}.spec.{k}"), why.to_string()));
        }
        for (k, (v, path)) in s.container_patchable.iter_mut().chain(&mut s.container_other) {
            pod_value["containers"][0][k.as_str()] = v.take();
            claims.push((path.clone(), format!("{target}.spec.containers[0].{k}"), why.to_string()));
        }
        if let Some((v, path)) = s.init_containers.first_mut() {
            pod_value["initContainers"] = v.take();
            claims.push((path.clone(), format!("{target}.spec.initContainers"), why.to_string()));
        }
        if let Some(arr) = pod_value["containers"].as_array_mut() {
            for (v, path) in &mut s.sidecars {
                claims.push((
                    path.clone(),
                    format!("{target}.spec.containers[{}]", arr.len()),
                    format!("sidecar kept beside node; {why}"),
                ));
                arr.push(v.take());
            }
        }
        pod.spec = crate::model::from_json::<PodSpec>(&pod_value)
            .map_err(|e| Error::PodSpec { job: job.to_string(), error: e.to_string() })?;
        if let Some((m, path)) = &s.metadata {
            let meta = crate::model::from_json::<ObjectMeta>(m)
                .map_err(|e| Error::PodMetadata { path: path.clone(), error: e.to_string() })?;
            pod.metadata = Some(meta);
            for key in m.as_object().into_iter().flat_map(|m| m.keys()) {
                claims.push((format!("{path}.{key}"), format!("{target}.metadata.{key}"), why.to_string()));
            }
        }
        // Only now that the runtime holds every setting does the report say so.
        for (v1, v2, note) in claims {
            self.report.moved(v1, v2, note);
        }
        Ok(())
    }
}

/// The V1 main container, as placing the pod settings needs it.
pub(super) struct MainContainer<'p> {
    /// Its path in the V1 document.
    pub(super) path: &'p str,
    /// The replicated job that runs it in V2 (`node`, or the MPI `launcher`).
    pub(super) job: &'p str,
    pub(super) has_command: bool,
}

/// The named replicated job of a generated runtime.
fn replicated_job<'r>(rt: &'r mut TrainingRuntime, job: &str) -> Result<&'r mut ReplicatedJob, Error> {
    let rt_name = rt.metadata.name.clone().unwrap_or_default();
    rt.spec
        .template
        .spec
        .replicated_jobs
        .iter_mut()
        .find(|j| j.name == job)
        .ok_or_else(|| Error::Internal(format!("runtime {rt_name} has no replicated job {job}")))
}

/// A TrainJob's reference to a generated runtime, by its kind (`plain_ml::RUNTIME_SCOPE`).
pub(super) fn reference_to(rt: &TrainingRuntime) -> RuntimeRef {
    RuntimeRef { name: rt.metadata.name.clone().unwrap_or_default(), api_group: None, kind: Some(rt.kind.clone()) }
}

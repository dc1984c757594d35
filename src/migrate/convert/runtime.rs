//! Where pod settings go: a runtime patch when they all fit one, else a generated TrainingRuntime.

use super::*;

pub(super) const RUNTIME_WHY: &str =
    "a runtime patch cannot add containers or set this kind of field, so a TrainingRuntime \
     carrying the job's pod settings was generated";

impl Conversion<'_> {
    /// Puts the pod-level settings of each replicated job where V2 keeps them: one runtime patch
    /// on the TrainJob when every setting fits one, else a generated TrainingRuntime that carries
    /// them all (the TrainJob then references it).
    pub(super) fn place_pod_settings(
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

    pub(super) fn copy_runtime(&mut self, base: &TrainingRuntime, meta: &ObjectMeta) -> TrainingRuntime {
        let mut rt = base.clone();
        rt.kind = RuntimeScope::Namespaced.kind().into();
        rt.metadata.name = Some(format!("{}-runtime", meta.name.clone().unwrap_or_default()));
        rt.metadata.namespace = meta.namespace.clone();
        rt.metadata.labels.remove(WEBHOOK_LABEL);
        rt
    }

    /// Writes every setting into the named replicated job of a generated runtime.
    pub(super) fn embed(&mut self, s: &PodSettings, job: &str, rt: &mut TrainingRuntime, why: &str) {
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

/// A TrainJob's reference to a generated (namespaced) runtime.
pub(super) fn reference_to(rt: &TrainingRuntime) -> RuntimeRef {
    RuntimeRef {
        name: rt.metadata.name.clone().unwrap_or_default(),
        api_group: None,
        kind: Some(RuntimeScope::Namespaced.kind().into()),
    }
}

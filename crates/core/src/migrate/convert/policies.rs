//! runPolicy, restart policies, processes per node and elastic policy: where V2 keeps each, or why not.

use super::Error;
use super::*;
use crate::release_changes::Subject;
use crate::snippets::trainjob::{suspended_when_queued, QUEUE_LABEL};
use explorer_data::releases::NumProcPerNode;

/// What every V2 pod runs with, in a report's words: no runtime the migrator references or
/// writes sets a restartPolicy, so the JobSet the release installs gives each one OnFailure.
pub(super) fn v2_pods_restart_policy(release: &Release) -> String {
    let jobset = release.jobset;
    let rule = release.jobset_restart_policy_default().unwrap_or("pkg/webhooks/jobset_webhook.go");
    format!(
        "V2's pods get OnFailure: the runtime's pod template sets no restartPolicy, and JobSet {jobset}'s \
         webhook gives it OnFailure (jobset {jobset}:{rule})"
    )
}

impl Conversion<'_> {
    /// runPolicy fields that have a V2 home go to the TrainJob; the rest are reported. A job
    /// queued for Kueue (the V1 labels, which the TrainJob carries) is written suspended unless
    /// runPolicy says otherwise, as the panes write a queued TrainJob.
    pub(super) fn run_policy(&mut self, spec: &mut TrainJobSpec) {
        self.run_policy_fields(spec);
        let queue = self.carried.labels.get(QUEUE_LABEL).and_then(Value::as_str);
        if spec.suspend.is_none() {
            spec.suspend = suspended_when_queued(queue);
            let label = format!("metadata.labels.{QUEUE_LABEL}");
            if let (Some(true), Some(e)) = (spec.suspend, self.report.entries.iter_mut().find(|e| e.from == label)) {
                e.note.push_str(
                    "; the TrainJob is written with spec.suspend: true, as Kueue suspended the queued V1 job when \
                     it was created, and Kueue sets it to false when it admits the job",
                );
            }
        }
    }

    fn run_policy_fields(&mut self, spec: &mut TrainJobSpec) {
        let base = "spec.runPolicy";
        let Some(policy) = self.spec().get("runPolicy").and_then(Value::as_object).cloned() else { return };
        for (key, value) in policy {
            let path = format!("{base}.{key}");
            match key.as_str() {
                "activeDeadlineSeconds" if !self.release.declares(Subject::TrainJob, "spec.activeDeadlineSeconds") => {
                    let since = Release::first_where(|r| r.declares(Subject::TrainJob, "spec.activeDeadlineSeconds"))
                        .map(|r| r.line)
                        .unwrap_or("later");
                    self.report.dropped(
                        path,
                        format!(
                            "a TrainJob has no activeDeadlineSeconds in {} (it arrived in {since})",
                            self.release.tag
                        ),
                    )
                }
                "activeDeadlineSeconds" => match value.as_i64().filter(|n| *n >= 1) {
                    Some(n) => {
                        spec.active_deadline_seconds = Some(n);
                        self.report.mapped(path, "spec.activeDeadlineSeconds", "");
                    }
                    None => self.report.dropped(path, "not a positive integer"),
                },
                "suspend" => match value.as_bool() {
                    Some(b) => {
                        spec.suspend = Some(b);
                        self.report.mapped(path, "spec.suspend", "");
                    }
                    None => self.report.dropped(path, "not a boolean"),
                },
                "cleanPodPolicy" => self.report.dropped(path, "runPolicy.cleanPodPolicy has no V2 field"),
                "ttlSecondsAfterFinished" => self
                    .report
                    .dropped(path, format!("TrainJob has no TTL in {} (proposed in KEP-2899)", self.release.tag)),
                "backoffLimit" => self.report.dropped(
                    path,
                    "retries belong to the runtime: its Job backoffLimit and JobSet failurePolicy.maxRestarts",
                ),
                "schedulingPolicy" => self
                    .report
                    .dropped(path, "gang scheduling belongs to the runtime's podGroupPolicy (coscheduling or volcano)"),
                "managedBy" => self.manager(spec, path, &value),
                _ => self.report.dropped(path, format!("{key} has no TrainJob field in {}", self.release.tag)),
            }
        }
    }

    /// `spec.runPolicy.managedBy` (v1.9's webhook admits the Training Operator and MultiKueue:
    /// explain::v1's `MANAGERS`) against the TrainJob's `spec.managedBy`, which every release
    /// has and whose CRD takes Trainer's own controller or MultiKueue (trainjob_types.go:147-148
    /// @v2.3.0, :129-130 @v2.0.0).
    fn manager(&mut self, spec: &mut TrainJobSpec, path: String, value: &Value) {
        use crate::explain::v1::{JOBS_CONTROLLER, MULTIKUEUE};
        use crate::explain::TRAINJOB_CONTROLLER;
        let tag = self.release.tag;
        match value.as_str() {
            // MultiKueue dispatches the job to a worker cluster: from v2.3.0 the controller
            // leaves a TrainJob another manager names alone (trainjob_controller.go:89-92 @v2.3.0).
            Some(MULTIKUEUE) if self.release.controller.skips_other_managers => {
                spec.managed_by = Some(MULTIKUEUE.into());
                self.report.mapped(path, "spec.managedBy", "MultiKueue dispatches the TrainJob as it did the V1 job");
            }
            Some(MULTIKUEUE) => {
                let since = Release::first_where(|r| r.controller.skips_other_managers).map_or("later", |r| r.line);
                self.report.dropped(
                    path,
                    format!(
                        "Trainer {tag}'s controller reconciles every TrainJob whatever its spec.managedBy (it leaves \
                         MultiKueue's alone from {since}), so spec.managedBy: {MULTIKUEUE} would run the job on the \
                         manager cluster too: set it only where that cluster runs no Trainer controller"
                    ),
                )
            }
            Some(JOBS_CONTROLLER) => self.report.renamed(
                path,
                format!(
                    "{JOBS_CONTROLLER} is V1's own controller; a TrainJob's is Trainer's, {TRAINJOB_CONTROLLER}, \
                     the default spec.managedBy"
                ),
            ),
            _ => self.report.dropped(
                path,
                format!(
                    "{value}: no manager a TrainJob takes (spec.managedBy is {TRAINJOB_CONTROLLER} or {MULTIKUEUE}), \
                     nor one the Training Operator's webhook admits"
                ),
            ),
        }
    }

    /// A replica's restartPolicy. No runtime the migrator references or writes sets one, so
    /// JobSet's defaulting webhook gives every replicated Job's pod template `OnFailure`
    /// (`Release::jobset_restart_policy_default` cites the line for each release's JobSet): V1's
    /// `OnFailure` is kept as it ran, the others give way to it.
    pub(super) fn report_restart_policy(&mut self, path: String, policy: &str) {
        let v2_gets = v2_pods_restart_policy(&self.release);
        match policy {
            "OnFailure" => self.report.mapped_derived(
                path,
                "spec.runtimeRef",
                format!(
                    "kept: {v2_gets}, so a failed container restarts in place as in V1; how many times is the \
                     runtime's (Job backoffLimit, JobSet failurePolicy)"
                ),
            ),
            "ExitCode" => self.report.dropped(
                path,
                format!(
                    "ExitCode restarted pods on retryable exit codes (128 and above) and failed on others; {v2_gets}. \
                     In V2 this is a Job podFailurePolicy in the runtime (FailJob onExitCodes for the permanent \
                     codes), with JobSet failurePolicy.maxRestarts for the retries"
                ),
            ),
            _ => self.report.dropped(
                path,
                format!(
                    "restartPolicy {policy}: {v2_gets}; retries belong to the runtime (Job backoffLimit, JobSet \
                     failurePolicy)"
                ),
            ),
        }
    }

    pub(super) fn procs_per_node(&mut self, trainer: &mut Trainer) -> Result<(), Error> {
        let elastic = self.spec().get("elasticPolicy").and_then(|e| e.get("nProcPerNode")).filter(|n| !n.is_null());
        let (path, v) = match (self.spec().get("nprocPerNode"), elastic) {
            (Some(v), _) => ("spec.nprocPerNode", v.clone()),
            // The elastic policy's deprecated count, which v1.9's webhook refuses beside
            // spec.nprocPerNode (pytorchjob_webhook.go:102-109 @v1.9.0), set each pod's
            // PET_NPROC_PER_NODE as that does (elastic.go:99-104 @v1.9.0).
            (None, Some(v)) => ("spec.elasticPolicy.nProcPerNode", v.clone()),
            (None, None) => return Ok(()),
        };
        let text = match &v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => String::new(),
        };
        let names = self.release.num_proc_per_node == NumProcPerNode::IntOrString;
        let tag = self.release.tag;
        match text.parse::<u64>() {
            Ok(n) => {
                let n = count_in_range(format_args!("{path}"), n, 1)?;
                trainer.num_proc_per_node = Some(n);
                let note = match (v.is_string(), names) {
                    (false, _) => String::new(),
                    (true, false) => format!("the number {n}: numProcPerNode is a number in {tag}"),
                    (true, true) => format!("the number {n}: in {tag} numProcPerNode is a number or auto, cpu, gpu"),
                };
                self.report.mapped_derived(path, "spec.trainer.numProcPerNode", note);
            }
            // The torch plugin of v2.0 and v2.1 takes these names (validated in its webhook).
            _ if names && matches!(text.as_str(), "auto" | "cpu" | "gpu") => {
                self.num_proc_name = Some(text);
                self.report.mapped(path, "spec.trainer.numProcPerNode", "");
            }
            _ if text == "auto" => self.report.dropped(path, "auto is the default: one process per GPU, or per CPU"),
            _ if names => self.report.dropped(
                path,
                format!("{text:?}: in {tag} numProcPerNode is a number or auto, cpu, gpu; the runtime's auto applies"),
            ),
            _ => self.report.dropped(
                path,
                format!("{text:?}: numProcPerNode is a number in {tag}; the runtime uses the GPU count, or the CPU count without GPUs"),
            ),
        }
        Ok(())
    }

    pub(super) fn elastic_policy(&mut self) {
        if self.spec().contains_key("elasticPolicy") {
            // v2.0 and v2.1 have mlPolicy.torch.elasticPolicy, but the torch plugin never read it.
            let field = if self.release.declares(Subject::Runtime, "spec.mlPolicy.torch.elasticPolicy") {
                format!(" ({}'s mlPolicy.torch.elasticPolicy was never implemented)", self.release.tag)
            } else {
                String::new()
            };
            self.report.dropped(
                "spec.elasticPolicy",
                format!("elastic PyTorch is not supported in V2{field} (a redesign is tracked in trainer#2903); the job runs on a fixed numNodes"),
            );
        }
    }
}

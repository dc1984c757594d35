//! What each Trainer release changed in the API a manifest is written against: the one table
//! that the upgrade rewrite (`explorer_core::upgrade`), its report, the upgrade notes of a
//! selection and the CLI all read, and the one place a field's life span is kept: whether a
//! release has a field is [`Release::declares`], read from these rows. A change names the release it happened in (a [`Release`] from
//! `crate::releases`, never a literal), the field, the pull request and a one-line reason.
//!
//! Sources: `pkg/apis/trainer/v1alpha1/{trainjob,trainingruntime}_types.go` at v2.0.1, v2.1.0,
//! v2.2.1 and v2.3.0, the CRDs under `v2-crds/<tag>`, the controller code that reads each field
//! (`pkg/runtime/core/trainingruntime.go`, `pkg/runtime/framework/plugins/torch/torch.go`), and
//! FACTS.md §a.2 and §a.4. Built-in runtimes that a release stops shipping are not listed here:
//! they follow from `Release::runtimes` (see `explorer_core::upgrade`).

use crate::releases::{Release, V2_1, V2_2, V2_3};

/// Which objects a change applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Subject {
    /// `TrainJob`.
    TrainJob,
    /// `TrainingRuntime` and `ClusterTrainingRuntime` (they share `TrainingRuntimeSpec`).
    Runtime,
}

impl Subject {
    /// The subject of an object's `kind`; `None` for a kind no change applies to.
    pub fn of_kind(kind: &str) -> Option<Subject> {
        match kind {
            "TrainJob" => Some(Subject::TrainJob),
            "TrainingRuntime" | "ClusterTrainingRuntime" => Some(Subject::Runtime),
            _ => None,
        }
    }
}

/// How the upgrade carries a manifest across a change. The rewrite dispatches on it; the
/// table decides when (release), where (field) and why (reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rewrite {
    /// `podSpecOverrides[i].<pod field>` → `podTemplateOverrides[i].spec.<pod field>`.
    PodSpecOverridesToTemplateOverrides,
    /// One runtime patch per override, one `replicatedJobs` entry per target job.
    TemplateOverridesToRuntimePatches,
    /// `spec.labels` / `spec.annotations` → the JobSet template metadata of a runtime patch.
    MetadataToRuntimePatch,
    /// The runtime's value moves to the TrainJobs of the same input that use the runtime.
    TorchProcsToTrainJobs,
    /// Left out: it never had an effect.
    ElasticPolicyRemoved,
    /// `auto`/`gpu` are left out (the default does the same), `cpu` becomes the CPU count.
    ProcsToInt32,
    /// Nothing to rewrite: a list longer than the new limit is refused.
    ListsAtMost128,
    /// Nothing to rewrite: a storage URI without a scheme is refused.
    StorageUriWithScheme,
    /// A field that arrived: nothing to rewrite, but an input for an older release cannot have it.
    Arrived,
}

impl Rewrite {
    /// Whether the change takes the field out of the API (renamed, moved or removed), so the
    /// release it names is the first without it. The others keep the field: a new type, a limit.
    pub fn removes_field(self) -> bool {
        match self {
            Rewrite::PodSpecOverridesToTemplateOverrides
            | Rewrite::TemplateOverridesToRuntimePatches
            | Rewrite::MetadataToRuntimePatch
            | Rewrite::TorchProcsToTrainJobs
            | Rewrite::ElasticPolicyRemoved => true,
            Rewrite::ProcsToInt32 | Rewrite::ListsAtMost128 | Rewrite::StorageUriWithScheme | Rewrite::Arrived => false,
        }
    }
}

/// A field a newer release renamed, moved or dropped: what `upgrade` rewrites and explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ApiChange {
    /// The release that made the change (the field is gone from it on).
    pub release: Release,
    /// The objects that carry the field.
    pub subject: Subject,
    /// The field in the older release, as a path from the object's root.
    pub field: &'static str,
    /// The field that holds the same in the newer release, when one does in the same object.
    pub becomes: Option<&'static str>,
    /// The kubeflow/trainer pull request.
    pub pr: u32,
    /// Why upstream changed it, in one line for the upgrade notes.
    pub reason: &'static str,
    /// How `upgrade` rewrites the field.
    pub rewrite: Rewrite,
}

impl ApiChange {
    /// `v2.2 #3309`.
    pub fn source(&self) -> String {
        format!("{} #{}", self.release.line, self.pr)
    }
}

/// Every API change from v2.0 on, oldest release first. Within a release the rewrite applies
/// them in this order; where the order matters, the entry says why.
pub const API_CHANGES: &[ApiChange] = &[
    ApiChange {
        release: V2_1,
        subject: Subject::TrainJob,
        field: "spec.podSpecOverrides",
        becomes: Some("spec.podTemplateOverrides"),
        pr: 2785,
        reason: "per-job pod settings were renamed, and the pod fields moved under `spec` next to a new `metadata`",
        rewrite: Rewrite::PodSpecOverridesToTemplateOverrides,
    },
    ApiChange {
        release: V2_2,
        subject: Subject::TrainJob,
        field: "spec.podTemplateOverrides",
        becomes: Some("spec.runtimePatches"),
        pr: 3309,
        reason: "pod settings became runtime patches: a list keyed by `manager` that patches named replicated jobs",
        rewrite: Rewrite::TemplateOverridesToRuntimePatches,
    },
    ApiChange {
        release: V2_2,
        subject: Subject::TrainJob,
        field: "spec.labels",
        becomes: Some("spec.runtimePatches"),
        pr: 3309,
        reason: "the TrainJob's own JobSet labels moved into a runtime patch of the JobSet template's metadata",
        rewrite: Rewrite::MetadataToRuntimePatch,
    },
    ApiChange {
        release: V2_2,
        subject: Subject::TrainJob,
        field: "spec.annotations",
        becomes: Some("spec.runtimePatches"),
        pr: 3309,
        reason: "the TrainJob's own JobSet annotations moved into a runtime patch of the JobSet template's metadata",
        rewrite: Rewrite::MetadataToRuntimePatch,
    },
    // Before the TrainJob's own numProcPerNode is rewritten: a TrainJob that set one (even
    // `auto`) overrode the runtime's, so only TrainJobs that set none take the runtime's value.
    ApiChange {
        release: V2_2,
        subject: Subject::Runtime,
        field: "spec.mlPolicy.torch.numProcPerNode",
        becomes: None,
        pr: 3239,
        reason: "the torch policy lost numProcPerNode: each TrainJob states it in `spec.trainer.numProcPerNode`",
        rewrite: Rewrite::TorchProcsToTrainJobs,
    },
    ApiChange {
        release: V2_2,
        subject: Subject::Runtime,
        field: "spec.mlPolicy.torch.elasticPolicy",
        becomes: None,
        pr: 3235,
        reason: "elastic training was removed from the API; the torch plugin had never implemented it",
        rewrite: Rewrite::ElasticPolicyRemoved,
    },
    ApiChange {
        release: V2_2,
        subject: Subject::TrainJob,
        field: "spec.trainer.numProcPerNode",
        becomes: None,
        pr: 3239,
        reason: "numProcPerNode takes an int32 only; `auto`, `cpu` and `gpu` are no longer accepted",
        rewrite: Rewrite::ProcsToInt32,
    },
    ApiChange {
        release: V2_2,
        subject: Subject::TrainJob,
        field: "spec.trainer",
        becomes: None,
        pr: 3309,
        reason: "`command`, `args` and `env` of the trainer and the initializers hold at most 128 items",
        rewrite: Rewrite::ListsAtMost128,
    },
    ApiChange {
        release: V2_2,
        subject: Subject::TrainJob,
        field: "spec.activeDeadlineSeconds",
        becomes: None,
        pr: 3258,
        reason: "a deadline for the whole TrainJob arrived",
        rewrite: Rewrite::Arrived,
    },
    ApiChange {
        release: V2_3,
        subject: Subject::TrainJob,
        field: "spec.initializer",
        becomes: None,
        pr: 3510,
        reason: "an initializer's `storageUri` must be empty or `scheme://...`",
        rewrite: Rewrite::StorageUriWithScheme,
    },
    ApiChange {
        release: V2_3,
        subject: Subject::Runtime,
        field: "spec.mlPolicy.torch.envInjection",
        becomes: None,
        pr: 3516,
        reason: "the torch policy can inject the PET_* variables into more containers",
        rewrite: Rewrite::Arrived,
    },
];

/// Whether `release` has `field` (a path from the object's root) on `subject`: from the release
/// where a row says it arrived (or a rename made it) to the one before a row that takes it out.
/// A field no row names was there from v2.0 on and still is.
pub(crate) fn declares(release: &Release, subject: Subject, field: &str) -> bool {
    API_CHANGES.iter().filter(|c| c.subject == subject).all(|c| {
        let arrives = (c.field == field && c.rewrite == Rewrite::Arrived)
            || (c.becomes == Some(field) && c.rewrite.removes_field());
        let leaves = c.field == field && c.rewrite.removes_field();
        let before = release.is_before(&c.release);
        if before {
            !arrives
        } else {
            !leaves
        }
    })
}

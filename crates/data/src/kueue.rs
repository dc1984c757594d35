//! Which Kueue releases queue the TrainJobs of which Trainer release.
//!
//! Kueue's TrainJob integration is compiled against one Trainer API (the
//! `github.com/kubeflow/trainer/v2` module in its go.mod) and, when it admits a job, writes the
//! node selectors and tolerations of the chosen flavor into that API's pod-settings field
//! (pkg/controller/jobs/trainjob/trainjob_controller.go at each Kueue tag). A Trainer release
//! whose TrainJob has another field does not get them, and admitted jobs stay suspended
//! (kubernetes-sigs/kueue#11931: Trainer v2.1.0 with Kueue v0.17.3). So a Trainer release pairs
//! with the Kueue releases that write its pod-settings field: one fact per Kueue range, matched
//! against [`Release::pod_settings`], which comes from each release's CRD.

use crate::releases::{PodSettingsField, Release};

/// A run of Kueue releases built against the same Trainer pod-settings field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KueueRange {
    /// The first and the last Kueue tag of the run (the last is the newest one checked).
    pub first: &'static str,
    /// The newest Kueue tag of the run.
    pub last: &'static str,
    /// The Trainer module version in Kueue's go.mod.
    pub trainer_module: &'static str,
    /// The field the integration writes the admitted flavor's pod settings into.
    pub writes: PodSettingsField,
}

/// Kueue releases with a TrainJob integration, oldest first. go.mod and
/// pkg/controller/jobs/trainjob/trainjob_controller.go at each tag of kubernetes-sigs/kueue:
/// v0.14.0-v0.14.4 require trainer v2.0.1 and write `PodSpecOverrides` (:251 @v0.14.0);
/// v0.14.5-v0.16.9 require v2.1.0 and write `PodTemplateOverrides` (:270 @v0.14.5, :255 @v0.15.0);
/// v0.17.0-v0.19.2 require v2.2.0 (v0.17) or v2.2.1 (v0.18.2 on) and write `RuntimePatches`
/// (:342 @v0.17.0, :325 @v0.19.2). Kueue's main branch requires v2.3.0, in no release yet.
pub const KUEUE_RANGES: [KueueRange; 3] = [
    KueueRange {
        first: "v0.14.0",
        last: "v0.14.4",
        trainer_module: "v2.0.1",
        writes: PodSettingsField::PodSpecOverrides,
    },
    KueueRange {
        first: "v0.14.5",
        last: "v0.16.9",
        trainer_module: "v2.1.0",
        writes: PodSettingsField::PodTemplateOverrides,
    },
    KueueRange {
        first: "v0.17.0",
        last: "v0.19.2",
        trainer_module: "v2.2.1",
        writes: PodSettingsField::RuntimePatches,
    },
];

/// The Kueue releases that queue this Trainer release's TrainJobs.
pub fn kueue_for(release: &Release) -> Option<KueueRange> {
    KUEUE_RANGES.into_iter().find(|k| k.writes == release.pod_settings())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::releases::RELEASES;

    #[test]
    fn every_release_pairs_with_one_kueue_range() {
        let pairs: Vec<(&str, &str)> =
            RELEASES.iter().map(|r| (r.line, kueue_for(r).expect("a Kueue range").first)).collect();
        assert_eq!(pairs, [("v2.0", "v0.14.0"), ("v2.1", "v0.14.5"), ("v2.2", "v0.17.0"), ("v2.3", "v0.17.0")]);
    }
}

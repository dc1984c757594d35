//! The reader's two-way choices besides persona and framework: where the runtime lives, and what
//! the widget shows.

/// Where the platform engineer's runtime lives, and what the TrainJob's `runtimeRef.kind` says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuntimeScope {
    /// `ClusterTrainingRuntime`: any namespace can use it (the built-ins).
    #[default]
    Cluster,
    /// `TrainingRuntime`: only TrainJobs in the same namespace can use it.
    Namespaced,
}

impl RuntimeScope {
    /// The id used in URLs and `data-scope`.
    pub fn id(self) -> &'static str {
        match self {
            RuntimeScope::Cluster => "cluster",
            RuntimeScope::Namespaced => "namespaced",
        }
    }

    /// The scope of an [`RuntimeScope::id`]; `None` for anything else.
    pub fn from_id(id: &str) -> Option<RuntimeScope> {
        match id {
            "cluster" => Some(RuntimeScope::Cluster),
            "namespaced" => Some(RuntimeScope::Namespaced),
            _ => None,
        }
    }

    /// The runtime's `kind`, which a TrainJob's `runtimeRef.kind` names too.
    pub fn kind(self) -> &'static str {
        match self {
            RuntimeScope::Cluster => "ClusterTrainingRuntime",
            RuntimeScope::Namespaced => "TrainingRuntime",
        }
    }
}

/// What the widget shows: the side-by-side comparison, or the V1 → V2 converter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// V1 and V2 side by side.
    #[default]
    Compare,
    /// Paste a V1 job, get its V2 TrainJob.
    Migrate,
}

impl Mode {
    /// The id used in URLs and `data-mode`.
    pub fn id(self) -> &'static str {
        match self {
            Mode::Compare => "compare",
            Mode::Migrate => "migrate",
        }
    }

    /// The mode of a [`Mode::id`]; `None` for anything else.
    pub fn from_id(id: &str) -> Option<Mode> {
        match id {
            "compare" => Some(Mode::Compare),
            "migrate" => Some(Mode::Migrate),
            _ => None,
        }
    }
}

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
    pub fn id(self) -> &'static str {
        match self {
            RuntimeScope::Cluster => "cluster",
            RuntimeScope::Namespaced => "namespaced",
        }
    }

    pub fn from_id(id: &str) -> Option<RuntimeScope> {
        match id {
            "cluster" => Some(RuntimeScope::Cluster),
            "namespaced" => Some(RuntimeScope::Namespaced),
            _ => None,
        }
    }

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
    #[default]
    Compare,
    Migrate,
}

impl Mode {
    pub fn id(self) -> &'static str {
        match self {
            Mode::Compare => "compare",
            Mode::Migrate => "migrate",
        }
    }

    pub fn from_id(id: &str) -> Option<Mode> {
        match id {
            "compare" => Some(Mode::Compare),
            "migrate" => Some(Mode::Migrate),
            _ => None,
        }
    }
}

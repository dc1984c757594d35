//! What the reader picked: a persona, a framework, the runtime scope, and a few parameters.
//!
//! Parameters are stored as `Option`s: `None` means "the framework's default", so switching
//! framework keeps what the reader typed and re-derives the rest.
//!
//! The choices (`choices`: runtime scope, mode), the parameters and how a reader's text becomes
//! one (`params`), and the selections one click away (`nearby`) each have their file; this one
//! holds the selection and what it derives.

mod choices;
mod nearby;
mod params;

pub use choices::{Mode, RuntimeScope};
pub use params::{ParamError, ParamKey, Params, MAX_GPUS, MAX_NODES, MAX_PROCS};

use explorer_data::catalog::{Framework, LlmModel, Persona, V2Support};
use explorer_data::releases::{BuiltinRuntime, Release, NEWEST};

/// The whole state that decides every snippet.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Selection {
    /// Who is reading: which V2 object the pane shows.
    pub persona: Persona,
    /// What they train with.
    pub framework: Framework,
    /// Where the platform engineer's runtime lives.
    pub scope: RuntimeScope,
    /// What the reader typed; `None` fields take the framework's defaults.
    pub params: Params,
    /// The Trainer release line the reader's cluster runs (`release=v2.1`); the newest unless
    /// asked otherwise. Every V2 snippet is written for it.
    pub release: Release,
    /// UI only: snippets do not depend on it.
    pub mode: Mode,
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            persona: Persona::DataScientist,
            framework: Framework::PyTorch,
            scope: RuntimeScope::Cluster,
            params: Params::default(),
            release: NEWEST,
            mode: Mode::Compare,
        }
    }
}

/// A parameter value that is valid on its own but not for this framework.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamWarning {
    /// The field the warning is shown next to.
    pub key: ParamKey,
    /// What the reader reads there.
    pub message: String,
}

impl Selection {
    /// A persona and framework with every other choice at its default (newest release).
    pub fn new(persona: Persona, framework: Framework) -> Self {
        Selection { persona, framework, ..Selection::default() }
    }

    /// The job's name: the reader's, else one named after the framework.
    pub fn name(&self) -> String {
        self.params.name.clone().unwrap_or_else(|| default_name(self.framework).to_string())
    }

    /// The namespace the reader typed; `None` leaves it out of the YAML.
    pub fn namespace(&self) -> Option<&str> {
        self.params.namespace.as_deref()
    }

    /// Nodes in total. TorchTune runtimes are single-node, whatever was asked for.
    pub fn nodes(&self) -> u32 {
        if self.framework == Framework::TorchTune {
            return 1;
        }
        self.params.nodes.unwrap_or(2)
    }

    /// GPUs per node: the reader's, else 1 for PyTorch, DeepSpeed and TorchTune, else 0.
    pub fn gpus(&self) -> u32 {
        self.params.gpus.unwrap_or(match self.framework {
            Framework::PyTorch | Framework::DeepSpeed | Framework::TorchTune => 1,
            _ => 0,
        })
    }

    /// Processes per node, only when the reader set them (the runtime decides otherwise).
    pub fn procs(&self) -> Option<u32> {
        self.params.procs
    }

    /// The Kueue LocalQueue the job is submitted to, if the reader named one.
    pub fn queue(&self) -> Option<&str> {
        self.params.queue.as_deref()
    }

    /// The TorchTune model: the reader's, else the smallest Llama.
    pub fn model(&self) -> LlmModel {
        self.params.model.unwrap_or(LlmModel::Llama32_1b)
    }

    /// The fine-tuning dataset's URI: the reader's, else Alpaca.
    pub fn dataset(&self) -> String {
        self.params.dataset.clone().unwrap_or_else(|| "hf://tatsu-lab/alpaca/data".to_string())
    }

    /// The selected release's built-in runtime for the framework (for TorchTune, the model's).
    /// `None` for plain MPI, which always gets a runtime of its own (see
    /// [`Framework::v2_support_in`]).
    pub fn builtin(&self) -> Option<&'static BuiltinRuntime> {
        match self.framework {
            Framework::TorchTune => self.model().runtime(&self.release),
            Framework::Mpi => None,
            f => self.release.builtin_for(f),
        }
    }

    /// How the selected release serves the selection. A TorchTune model the release lacks
    /// (Qwen before v2.1) counts as unsupported: there is no runtime to reference.
    pub fn v2_support(&self) -> V2Support {
        match self.framework.v2_support_in(&self.release) {
            V2Support::BuiltIn if self.builtin().is_none() => V2Support::Unsupported,
            support => support,
        }
    }

    /// The V2 runtime a TrainJob references, or `None` when the release has no equivalent.
    pub fn runtime_name(&self) -> Option<String> {
        match self.v2_support() {
            V2Support::BuiltIn => self.builtin().map(|rt| rt.name.to_string()),
            V2Support::CustomRuntime => Some(CUSTOM_MPI_RUNTIME.into()),
            V2Support::GeneratedRuntime => Some(crate::plain_ml::runtime_name(&self.name())),
            V2Support::Unsupported => None,
        }
    }

    /// Values that parse but do not fit the framework or the release, shown next to their controls.
    pub fn warnings(&self) -> Vec<ParamWarning> {
        let mut out = Vec::new();
        let tag = self.release.tag;
        if self.framework == Framework::TorchTune && self.params.nodes.is_some_and(|n| n > 1) {
            out.push(ParamWarning {
                key: ParamKey::Nodes,
                message: format!("TorchTune runtimes run on one node in {tag}; using 1"),
            });
        }
        if self.framework == Framework::TorchTune && self.builtin().is_none() {
            let model = self.model();
            let first = Release::first_where(|r| model.runtime(r).is_some());
            out.push(ParamWarning {
                key: ParamKey::Model,
                message: match first {
                    Some(first) => format!("{} has no runtime in {tag}; it ships from {}", model.label(), first.line),
                    None => format!("{} has no runtime in {tag}", model.label()),
                },
            });
        }
        out
    }
}

/// The name of the custom MPI runtime the widget generates where the release ships no plain-MPI
/// built-in (v2.1 removed `mpi-distributed`).
pub const CUSTOM_MPI_RUNTIME: &str = "openmpi-distributed";

fn default_name(framework: Framework) -> &'static str {
    match framework {
        Framework::PyTorch => "pytorch-ddp",
        Framework::DeepSpeed => "deepspeed-train",
        Framework::Mlx => "mlx-train",
        Framework::Jax => "jax-train",
        Framework::XgBoost => "xgboost-train",
        Framework::TorchTune => "llm-finetune",
        Framework::Mpi => "mpi-pi",
        Framework::TensorFlow => "tf-train",
        Framework::Paddle => "paddle-train",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_resets_to_default() {
        let mut s = Selection::default();
        s.params.set(ParamKey::Nodes, "4").unwrap();
        assert_eq!(s.nodes(), 4);
        s.params.set(ParamKey::Nodes, "  ").unwrap();
        assert_eq!(s.nodes(), 2);
    }

    #[test]
    fn torchtune_is_single_node_and_says_so() {
        let mut s = Selection::new(Persona::DataScientist, Framework::TorchTune);
        s.params.set(ParamKey::Nodes, "3").unwrap();
        assert_eq!(s.nodes(), 1);
        assert_eq!(s.warnings().len(), 1);
        assert_eq!(s.runtime_name().as_deref(), Some("torchtune-llama3.2-1b"));
    }

    #[test]
    fn the_runtime_follows_the_release() {
        use explorer_data::releases::{V2_0, V2_1};
        let mut s = Selection::new(Persona::DataScientist, Framework::Mpi);
        assert_eq!(s.runtime_name().as_deref(), Some(CUSTOM_MPI_RUNTIME));
        s.release = V2_0;
        // v2.0's mpi-distributed lacks the framework label the SDK needs: a runtime of its own.
        assert_eq!(s.runtime_name().as_deref(), Some(CUSTOM_MPI_RUNTIME));
        s.framework = Framework::Jax;
        assert_eq!((s.v2_support(), s.runtime_name()), (V2Support::Unsupported, None));
        s.release = V2_1;
        s.framework = Framework::TorchTune;
        s.params.set(ParamKey::Model, "qwen2.5-1.5b").unwrap();
        assert_eq!(s.runtime_name().as_deref(), Some("torchtune-qwen2.5-1.5b"));
        assert!(s.warnings().is_empty());
        s.release = V2_0;
        assert_eq!(s.runtime_name(), None);
        let warnings = s.warnings();
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].message, "Qwen 2.5 1.5B has no runtime in v2.0.1; it ships from v2.1");
    }
}

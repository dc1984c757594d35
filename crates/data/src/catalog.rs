//! The catalog: personas and frameworks as data, and how each framework maps from V1 to V2.
//!
//! Everything the widget, the CLI and the static fallback know about a framework lives here, so
//! adding one is a matter of adding a row. What a Trainer release ships is release data
//! (crate::releases), not catalog.

use crate::releases::{BuiltinRuntime, Release, NEWEST};

/// Who is reading: the persona decides what the V2 pane shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Persona {
    /// Owns `ClusterTrainingRuntime` / `TrainingRuntime`.
    PlatformEngineer,
    /// Owns `TrainJob`, usually through the Python SDK.
    DataScientist,
}

impl Persona {
    /// Both personas, in the order of the persona switch.
    pub const ALL: [Persona; 2] = [Persona::PlatformEngineer, Persona::DataScientist];

    /// The id used in URLs, `data-persona` and the CLI's JSON.
    pub fn id(self) -> &'static str {
        match self {
            Persona::PlatformEngineer => "platform-engineer",
            Persona::DataScientist => "data-scientist",
        }
    }

    /// The accessible name of the persona's radio button.
    pub fn label(self) -> &'static str {
        match self {
            Persona::PlatformEngineer => "Platform engineer",
            Persona::DataScientist => "Data scientist",
        }
    }

    /// What the persona owns, as the post's persona split says it.
    pub fn owns(self) -> &'static str {
        match self {
            Persona::PlatformEngineer => "owns ClusterTrainingRuntime and TrainingRuntime",
            Persona::DataScientist => "owns TrainJob, from YAML or the Python SDK",
        }
    }

    /// The persona of an [`Persona::id`]; `None` for anything else (a URL is untrusted).
    pub fn from_id(id: &str) -> Option<Persona> {
        Persona::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// The V1 Training Operator kind a framework used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum V1Kind {
    /// `kubeflow.org/v1` PyTorchJob.
    PyTorchJob,
    /// mpi-operator's `kubeflow.org/v2beta1` MPIJob.
    MpiJob,
    /// `kubeflow.org/v1` JAXJob.
    JaxJob,
    /// `kubeflow.org/v1` XGBoostJob.
    XgBoostJob,
    /// `kubeflow.org/v1` TFJob (Trainer V2 has no TensorFlow runtime).
    TfJob,
    /// `kubeflow.org/v1` PaddleJob (Trainer V2 has no Paddle runtime).
    PaddleJob,
}

impl V1Kind {
    /// Every V1 kind the tools read, in the order they are named to readers.
    pub const ALL: [V1Kind; 6] =
        [V1Kind::PyTorchJob, V1Kind::MpiJob, V1Kind::JaxJob, V1Kind::XgBoostJob, V1Kind::TfJob, V1Kind::PaddleJob];

    /// Every kind in prose, for labels and help ("PyTorchJob, MPIJob, ... or PaddleJob"): written
    /// from [`V1Kind::ALL`], so a kind the tools learn to read is named wherever they say what they accept.
    pub fn all_in_words() -> String {
        // Pushed in one loop, not collected and joined: a collected `Vec` and the standard
        // library's join were 0.8 KB of the widget's wasm (its migrate mode names the kinds).
        let mut words = String::new();
        for (i, kind) in V1Kind::ALL.iter().enumerate() {
            if i > 0 {
                words.push_str(if i + 1 == V1Kind::ALL.len() { " or " } else { ", " });
            }
            words.push_str(kind.kind());
        }
        words
    }

    /// The `kind` a V1 manifest writes (`MPIJob`, not `MpiJob`).
    pub fn kind(self) -> &'static str {
        match self {
            V1Kind::PyTorchJob => "PyTorchJob",
            V1Kind::MpiJob => "MPIJob",
            V1Kind::JaxJob => "JAXJob",
            V1Kind::XgBoostJob => "XGBoostJob",
            V1Kind::TfJob => "TFJob",
            V1Kind::PaddleJob => "PaddleJob",
        }
    }

    /// The V1 kind a manifest's `kind` names; `None` for any other kind.
    pub fn from_kind(kind: &str) -> Option<V1Kind> {
        V1Kind::ALL.into_iter().find(|k| k.kind() == kind)
    }

    /// The replica types the kind knows, in the order we list them (the operators iterate a Go
    /// map, so theirs is not fixed): a generated runtime lists its jobs in this order too. TFJob's
    /// and PaddleJob's as Training Operator v1.9 runs them
    /// (training-operator v1.9.0:pkg/apis/kubeflow.org/v1/tensorflow_types.go:101-122,
    /// paddlepaddle_types.go:40-43).
    pub fn replica_types(self) -> &'static [&'static str] {
        match self {
            V1Kind::PyTorchJob | V1Kind::XgBoostJob | V1Kind::PaddleJob => &["Master", "Worker"],
            V1Kind::JaxJob => &["Worker"],
            V1Kind::MpiJob => &["Launcher", "Worker"],
            V1Kind::TfJob => &["Chief", "Master", "PS", "Worker", "Evaluator"],
        }
    }

    /// The spec field that holds the replica specs (`pytorchReplicaSpecs`, ...).
    pub fn replica_specs_field(self) -> &'static str {
        match self {
            V1Kind::PyTorchJob => "pytorchReplicaSpecs",
            V1Kind::MpiJob => "mpiReplicaSpecs",
            V1Kind::JaxJob => "jaxReplicaSpecs",
            V1Kind::XgBoostJob => "xgbReplicaSpecs",
            V1Kind::TfJob => "tfReplicaSpecs",
            V1Kind::PaddleJob => "paddleReplicaSpecs",
        }
    }

    /// The container name the V1 operator looks for (`pytorch`, `mpi`, ...).
    pub fn container_name(self) -> &'static str {
        match self {
            V1Kind::PyTorchJob => "pytorch",
            V1Kind::MpiJob => "mpi",
            V1Kind::JaxJob => "jax",
            V1Kind::XgBoostJob => "xgboost",
            V1Kind::TfJob => "tensorflow",
            V1Kind::PaddleJob => "paddle",
        }
    }

    /// The default port and its name, which V1 jobs used to declare on every replica.
    pub fn default_port(self) -> (u16, &'static str) {
        match self {
            V1Kind::PyTorchJob => (23456, "pytorchjob-port"),
            V1Kind::MpiJob => (9999, "mpi-port"),
            V1Kind::JaxJob => (6666, "jaxjob-port"),
            V1Kind::XgBoostJob => (9999, "xgboostjob-port"),
            V1Kind::TfJob => (2222, "tfjob-port"),
            V1Kind::PaddleJob => (36543, "master"),
        }
    }

    /// The CRD file under `v1-crds/` that validates this kind.
    pub fn crd_file(self) -> &'static str {
        match self {
            V1Kind::PyTorchJob => "kubeflow.org_pytorchjobs.yaml",
            V1Kind::MpiJob => "kubeflow.org_mpijobs.yaml",
            V1Kind::JaxJob => "kubeflow.org_jaxjobs.yaml",
            V1Kind::XgBoostJob => "kubeflow.org_xgboostjobs.yaml",
            V1Kind::TfJob => "kubeflow.org_tfjobs.yaml",
            V1Kind::PaddleJob => "kubeflow.org_paddlejobs.yaml",
        }
    }
}

/// How a framework is served by a Trainer release.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum V2Support {
    /// A built-in `ClusterTrainingRuntime` ships with the release.
    BuiltIn,
    /// No built-in runtime: the platform engineer writes one (plain MPI since v2.1).
    CustomRuntime,
    /// No runtime or mlPolicy upstream in any release (TensorFlow, PaddlePaddle): the migrator
    /// writes a plain-ML TrainingRuntime per job that keeps the V1 operator's env contract
    /// (`TF_CONFIG`, `PADDLE_*`), and the panes show that runtime and the TrainJob on it.
    GeneratedRuntime,
    /// Nothing in this release (JAX and XGBoost before v2.2). The widget says so and never
    /// invents YAML.
    Unsupported,
}

/// A framework the reader can pick: each maps to a V1 kind and, per release, to a V2 runtime or
/// none ([`Framework::v2_support_in`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Framework {
    /// PyTorch with torchrun (`mlPolicy.torch`).
    PyTorch,
    /// DeepSpeed, launched over MPI (`mlPolicy.mpi`).
    DeepSpeed,
    /// Apple's MLX, launched over MPI (`mlPolicy.mpi`).
    Mlx,
    /// JAX (`mlPolicy.jax`; a built-in runtime only in newer releases).
    Jax,
    /// XGBoost (`mlPolicy.xgboost`; a built-in runtime only in newer releases).
    XgBoost,
    /// LLM fine-tuning with the TorchTune runtimes, one per model ([`LlmModel`]).
    TorchTune,
    /// Plain MPI (`mpirun`), on a runtime of the reader's own ([`V2Support::CustomRuntime`]).
    Mpi,
    /// TensorFlow: only a V1 TFJob; V2 gets the runtime `migrate` writes.
    TensorFlow,
    /// PaddlePaddle: only a V1 PaddleJob; V2 gets the runtime `migrate` writes.
    Paddle,
}

impl Framework {
    /// Display order of the framework radio group.
    pub const ALL: [Framework; 9] = [
        Framework::PyTorch,
        Framework::DeepSpeed,
        Framework::Mlx,
        Framework::Jax,
        Framework::XgBoost,
        Framework::TorchTune,
        Framework::Mpi,
        Framework::TensorFlow,
        Framework::Paddle,
    ];

    /// The id used in URLs, `data-framework` and the CLI's queries.
    pub fn id(self) -> &'static str {
        match self {
            Framework::PyTorch => "pytorch",
            Framework::DeepSpeed => "deepspeed",
            Framework::Mlx => "mlx",
            Framework::Jax => "jax",
            Framework::XgBoost => "xgboost",
            Framework::TorchTune => "torchtune",
            Framework::Mpi => "mpi",
            Framework::TensorFlow => "tensorflow",
            Framework::Paddle => "paddle",
        }
    }

    /// The accessible name of the framework's radio button.
    pub fn label(self) -> &'static str {
        match self {
            Framework::PyTorch => "PyTorch",
            Framework::DeepSpeed => "DeepSpeed",
            Framework::Mlx => "MLX",
            Framework::Jax => "JAX",
            Framework::XgBoost => "XGBoost",
            Framework::TorchTune => "LLM fine-tuning (TorchTune)",
            Framework::Mpi => "MPI",
            Framework::TensorFlow => "TensorFlow",
            Framework::Paddle => "PaddlePaddle",
        }
    }

    /// The framework of a [`Framework::id`]; `None` for anything else.
    pub fn from_id(id: &str) -> Option<Framework> {
        Framework::ALL.into_iter().find(|f| f.id() == id)
    }

    /// What the same work took in Training Operator V1. TorchTune maps to `TrainingClient.train()`,
    /// which created a PyTorchJob.
    pub fn v1_kind(self) -> V1Kind {
        match self {
            Framework::PyTorch | Framework::TorchTune => V1Kind::PyTorchJob,
            Framework::DeepSpeed | Framework::Mlx | Framework::Mpi => V1Kind::MpiJob,
            Framework::Jax => V1Kind::JaxJob,
            Framework::XgBoost => V1Kind::XgBoostJob,
            Framework::TensorFlow => V1Kind::TfJob,
            Framework::Paddle => V1Kind::PaddleJob,
        }
    }

    /// How the newest release serves the framework.
    pub fn v2_support(self) -> V2Support {
        self.v2_support_in(&NEWEST)
    }

    /// How a release serves the framework, from its data: a built-in runtime, else nothing.
    /// Plain MPI is always a runtime the platform engineer writes (every release's `mpi` policy
    /// runs it): v2.0's only plain-MPI built-in, `mpi-distributed`, is the pi demo without the
    /// `trainer.kubeflow.org/framework` label the SDK requires (SDK 0.3.1 refuses it), its
    /// `trainer.image` override reaches only the launcher, not the nodes, and v2.1 removed it.
    pub fn v2_support_in(self, release: &Release) -> V2Support {
        match (self, release.builtin_for(self)) {
            (Framework::Mpi, _) => V2Support::CustomRuntime,
            (Framework::TensorFlow | Framework::Paddle, _) => V2Support::GeneratedRuntime,
            (_, Some(_)) => V2Support::BuiltIn,
            (_, None) => V2Support::Unsupported,
        }
    }

    /// The `mlPolicy` source the framework's runtime uses.
    pub fn ml_policy(self) -> Option<&'static str> {
        match self {
            Framework::PyTorch | Framework::TorchTune => Some("torch"),
            Framework::DeepSpeed | Framework::Mlx | Framework::Mpi => Some("mpi"),
            Framework::Jax => Some("jax"),
            Framework::XgBoost => Some("xgboost"),
            Framework::TensorFlow | Framework::Paddle => None,
        }
    }

    /// The `trainer.kubeflow.org/framework` label of the framework's built-in runtimes, the key
    /// under which release data lists them (crate::releases).
    pub fn runtime_label(self) -> Option<&'static str> {
        match self {
            Framework::PyTorch => Some("torch"),
            Framework::DeepSpeed => Some("deepspeed"),
            Framework::Mlx => Some("mlx"),
            Framework::Jax => Some("jax"),
            Framework::XgBoost => Some("xgboost"),
            Framework::TorchTune => Some("torchtune"),
            Framework::Mpi | Framework::TensorFlow | Framework::Paddle => None,
        }
    }

    /// Whether the runtime is MPI-based (launcher + node, SSH keys, hostfile).
    pub fn is_mpi(self) -> bool {
        self.ml_policy() == Some("mpi")
    }
}

/// The TorchTune models that have a built-in runtime in some release (Qwen from v2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LlmModel {
    /// Llama 3.2 1B Instruct.
    Llama32_1b,
    /// Llama 3.2 3B Instruct.
    Llama32_3b,
    /// Qwen 2.5 1.5B Instruct.
    Qwen25_1_5b,
}

impl LlmModel {
    /// Every model, in the order of the model field's list.
    pub const ALL: [LlmModel; 3] = [LlmModel::Llama32_1b, LlmModel::Llama32_3b, LlmModel::Qwen25_1_5b];

    /// The `model` query value: the runtime name without its `torchtune-` prefix.
    pub fn id(self) -> &'static str {
        match self {
            LlmModel::Llama32_1b => "llama3.2-1b",
            LlmModel::Llama32_3b => "llama3.2-3b",
            LlmModel::Qwen25_1_5b => "qwen2.5-1.5b",
        }
    }

    /// The model's name as the panes and warnings write it.
    pub fn label(self) -> &'static str {
        match self {
            LlmModel::Llama32_1b => "Llama 3.2 1B",
            LlmModel::Llama32_3b => "Llama 3.2 3B",
            LlmModel::Qwen25_1_5b => "Qwen 2.5 1.5B",
        }
    }

    /// The model of a [`LlmModel::id`]; `None` for anything else.
    pub fn from_id(id: &str) -> Option<LlmModel> {
        LlmModel::ALL.into_iter().find(|m| m.id() == id)
    }

    /// The model's built-in runtime in a release (release data names it), `None` where the
    /// release has none.
    pub fn runtime(self, release: &Release) -> Option<&'static BuiltinRuntime> {
        release.torchtune_runtime(self.id())
    }

    /// The Hugging Face model the runtime's model-initializer downloads by default.
    pub fn hf_uri(self) -> &'static str {
        match self {
            LlmModel::Llama32_1b => "hf://meta-llama/Llama-3.2-1B-Instruct",
            LlmModel::Llama32_3b => "hf://meta-llama/Llama-3.2-3B-Instruct",
            LlmModel::Qwen25_1_5b => "hf://Qwen/Qwen2.5-1.5B-Instruct",
        }
    }

    /// The torchtune config the runtime's command selects.
    pub fn torchtune_config(self) -> &'static str {
        match self {
            LlmModel::Llama32_1b => "llama3_2/1B_full",
            LlmModel::Llama32_3b => "llama3_2/3B_full",
            LlmModel::Qwen25_1_5b => "qwen2_5/1.5B_full",
        }
    }

    /// Whether the model is gated on Hugging Face (an access token is needed).
    pub fn gated(self) -> bool {
        matches!(self, LlmModel::Llama32_1b | LlmModel::Llama32_3b)
    }
}

/// The Trainer tag the snippets target; release data (crate::releases) names it.
pub const TRAINER_VERSION: &str = NEWEST.tag;
/// The V1 side of every comparison: the last Training Operator release line, named once.
pub const V1_OPERATOR: &str = "Training Operator v1.9";
/// The V1 Python SDK the V1 snippets are written for (its PyPI name and version).
pub const V1_SDK: &str = "kubeflow-training 1.9.4";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::releases::RELEASES;

    #[test]
    fn all_in_words_names_every_kind_once() {
        assert_eq!(V1Kind::all_in_words(), "PyTorchJob, MPIJob, JAXJob, XGBoostJob, TFJob or PaddleJob");
    }

    #[test]
    fn ids_round_trip_and_are_unique() {
        for f in Framework::ALL {
            assert_eq!(Framework::from_id(f.id()), Some(f));
        }
        for p in Persona::ALL {
            assert_eq!(Persona::from_id(p.id()), Some(p));
        }
        for m in LlmModel::ALL {
            assert_eq!(LlmModel::from_id(m.id()), Some(m));
        }
        assert_eq!(Framework::from_id("PyTorch"), None, "ids are case-sensitive");
        for m in LlmModel::ALL {
            assert!(m.runtime(&NEWEST).is_some(), "{m:?} has a runtime in {}", NEWEST.tag);
        }
        assert!(RELEASES.iter().all(|r| LlmModel::Llama32_1b.runtime(r).is_some()));
    }

    #[test]
    fn generated_runtimes_are_the_frameworks_with_no_policy() {
        for f in Framework::ALL {
            assert_eq!(f.v2_support() == V2Support::GeneratedRuntime, f.ml_policy().is_none(), "{f:?}");
        }
        // A release without the framework's policy has no runtime for it either.
        for r in RELEASES {
            for f in Framework::ALL {
                if f.ml_policy().is_some_and(|p| !r.policies.contains(&p)) {
                    assert_eq!(f.v2_support_in(r), V2Support::Unsupported, "{} {f:?}", r.tag);
                }
            }
        }
    }
}

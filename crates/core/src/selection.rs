//! What the reader picked: a persona, a framework, the runtime scope, and a few parameters.
//!
//! Parameters are stored as `Option`s: `None` means "the framework's default", so switching
//! framework keeps what the reader typed and re-derives the rest.

use explorer_data::catalog::{Framework, LlmModel, Persona, V2Support};
use explorer_data::releases::{BuiltinRuntime, Release, NEWEST};

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

/// One reader-settable parameter. The ids are the URL query keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ParamKey {
    Name,
    Namespace,
    Nodes,
    Gpus,
    Procs,
    Image,
    Queue,
    Model,
    Dataset,
}

impl ParamKey {
    pub const ALL: [ParamKey; 9] = [
        ParamKey::Name,
        ParamKey::Namespace,
        ParamKey::Nodes,
        ParamKey::Gpus,
        ParamKey::Procs,
        ParamKey::Image,
        ParamKey::Queue,
        ParamKey::Model,
        ParamKey::Dataset,
    ];

    pub fn id(self) -> &'static str {
        match self {
            ParamKey::Name => "name",
            ParamKey::Namespace => "namespace",
            ParamKey::Nodes => "nodes",
            ParamKey::Gpus => "gpus",
            ParamKey::Procs => "procs",
            ParamKey::Image => "image",
            ParamKey::Queue => "queue",
            ParamKey::Model => "model",
            ParamKey::Dataset => "dataset",
        }
    }

    pub fn from_id(id: &str) -> Option<ParamKey> {
        ParamKey::ALL.into_iter().find(|k| k.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            ParamKey::Name => "Job name",
            ParamKey::Namespace => "Namespace",
            ParamKey::Nodes => "Nodes",
            ParamKey::Gpus => "GPUs per node",
            ParamKey::Procs => "Processes per node",
            ParamKey::Image => "Image",
            ParamKey::Queue => "Kueue LocalQueue",
            ParamKey::Model => "Model",
            ParamKey::Dataset => "Dataset",
        }
    }

    /// Whether the control applies to a framework (model and dataset only make sense for LLMs).
    pub fn applies_to(self, framework: Framework) -> bool {
        match self {
            ParamKey::Model | ParamKey::Dataset => framework == Framework::TorchTune,
            ParamKey::Procs | ParamKey::Image => framework != Framework::TorchTune,
            _ => true,
        }
    }
}

pub const MAX_NODES: u32 = 1024;
pub const MAX_GPUS: u32 = 16;
pub const MAX_PROCS: u32 = 128;

/// The parameters, each `None` until the reader sets it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Params {
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub nodes: Option<u32>,
    pub gpus: Option<u32>,
    pub procs: Option<u32>,
    pub image: Option<String>,
    pub queue: Option<String>,
    pub model: Option<LlmModel>,
    pub dataset: Option<String>,
}

impl Params {
    /// Validates `raw` for `key` and stores it. An empty value resets the parameter to its default.
    /// On error nothing changes, so a bad keystroke never reaches the snippets.
    pub fn set(&mut self, key: ParamKey, raw: &str) -> Result<(), String> {
        let raw = raw.trim();
        if raw.is_empty() {
            self.clear(key);
            return Ok(());
        }
        match key {
            ParamKey::Name => self.name = Some(check_rfc1035(raw)?),
            ParamKey::Namespace => self.namespace = Some(check_rfc1123_label(raw)?),
            ParamKey::Nodes => self.nodes = Some(parse_count(raw, 1, MAX_NODES)?),
            ParamKey::Gpus => self.gpus = Some(parse_count(raw, 0, MAX_GPUS)?),
            ParamKey::Procs => self.procs = Some(parse_count(raw, 1, MAX_PROCS)?),
            ParamKey::Image => self.image = Some(check_image(raw)?),
            ParamKey::Queue => self.queue = Some(check_rfc1123_label(raw)?),
            ParamKey::Model => {
                self.model = Some(LlmModel::from_id(raw).ok_or_else(|| {
                    let known: Vec<_> = LlmModel::ALL.iter().map(|m| m.id()).collect();
                    format!("unknown model; choose one of {}", known.join(", "))
                })?)
            }
            ParamKey::Dataset => self.dataset = Some(check_dataset(raw)?),
        }
        Ok(())
    }

    pub fn clear(&mut self, key: ParamKey) {
        match key {
            ParamKey::Name => self.name = None,
            ParamKey::Namespace => self.namespace = None,
            ParamKey::Nodes => self.nodes = None,
            ParamKey::Gpus => self.gpus = None,
            ParamKey::Procs => self.procs = None,
            ParamKey::Image => self.image = None,
            ParamKey::Queue => self.queue = None,
            ParamKey::Model => self.model = None,
            ParamKey::Dataset => self.dataset = None,
        }
    }

    /// The value as the reader would type it, or `None` when it is at its default.
    pub fn get(&self, key: ParamKey) -> Option<String> {
        match key {
            ParamKey::Name => self.name.clone(),
            ParamKey::Namespace => self.namespace.clone(),
            ParamKey::Nodes => self.nodes.map(|n| n.to_string()),
            ParamKey::Gpus => self.gpus.map(|n| n.to_string()),
            ParamKey::Procs => self.procs.map(|n| n.to_string()),
            ParamKey::Image => self.image.clone(),
            ParamKey::Queue => self.queue.clone(),
            ParamKey::Model => self.model.map(|m| m.id().to_string()),
            ParamKey::Dataset => self.dataset.clone(),
        }
    }
}

/// The whole state that decides every snippet.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Selection {
    pub persona: Persona,
    pub framework: Framework,
    pub scope: RuntimeScope,
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
    pub key: ParamKey,
    pub message: String,
}

impl Selection {
    pub fn new(persona: Persona, framework: Framework) -> Self {
        Selection { persona, framework, ..Selection::default() }
    }

    pub fn name(&self) -> String {
        self.params.name.clone().unwrap_or_else(|| default_name(self.framework).to_string())
    }

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

    pub fn gpus(&self) -> u32 {
        self.params.gpus.unwrap_or(match self.framework {
            Framework::PyTorch | Framework::DeepSpeed | Framework::TorchTune => 1,
            _ => 0,
        })
    }

    pub fn procs(&self) -> Option<u32> {
        self.params.procs
    }

    pub fn queue(&self) -> Option<&str> {
        self.params.queue.as_deref()
    }

    pub fn model(&self) -> LlmModel {
        self.params.model.unwrap_or(LlmModel::Llama32_1b)
    }

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

impl Selection {
    /// The selections one click on a control away, the ones a reader is likely to ask for next:
    /// every other framework, the other persona, and where the widget shows those controls
    /// (`all_controls`: not in the post's compact presets) every other release and, where there
    /// is a runtime to scope, the other runtime scope. The widget prepares their views while the
    /// reader reads (ui::prepare). Frameworks come first: they are the control readers use most.
    pub fn one_click_away(&self, all_controls: bool) -> Vec<Selection> {
        // Loops rather than iterator chains: this runs in the widget, where each byte downloads.
        let mut out = Vec::new();
        let mut add = |change: &dyn Fn(&mut Selection)| {
            let mut next = self.clone();
            change(&mut next);
            if next != *self {
                out.push(next);
            }
        };
        for f in Framework::ALL {
            add(&|s| s.framework = f);
        }
        for p in Persona::ALL {
            add(&|s| s.persona = p);
        }
        if all_controls {
            for r in explorer_data::releases::RELEASES {
                add(&|s| s.release = *r);
            }
            // A generated runtime is always the job's own TrainingRuntime: no scope to pick.
            if !matches!(self.v2_support(), V2Support::Unsupported | V2Support::GeneratedRuntime) {
                add(&|s| {
                    s.scope = match s.scope {
                        RuntimeScope::Cluster => RuntimeScope::Namespaced,
                        RuntimeScope::Namespaced => RuntimeScope::Cluster,
                    }
                });
            }
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

/// A count from `min` to `max`. Anything `i64` reads (a sign, then digits) is a whole number, and
/// one out of range says so; anything else, or a number beyond `i64`, is not one. Read by hand:
/// `str::parse::<i64>` brings 0.7 KB of general integer parsing into the widget's wasm.
fn parse_count(raw: &str, min: u32, max: u32) -> Result<u32, String> {
    let (negative, digits) = match raw.as_bytes().first() {
        Some(b'-') => (true, &raw[1..]),
        Some(b'+') => (false, &raw[1..]),
        _ => (false, raw),
    };
    let significant = digits.trim_start_matches('0');
    // i64's limits have 19 digits: -9223372036854775808 to 9223372036854775807.
    let limit = if negative { "9223372036854775808" } else { "9223372036854775807" };
    let fits = significant.len() < 19 || significant.len() == 19 && significant <= limit;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || !fits {
        return Err(format!("enter a whole number from {min} to {max}"));
    }
    let magnitude = significant.bytes().fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
    // Below zero is below every `min`.
    if negative && magnitude != 0 || magnitude < u64::from(min) || magnitude > u64::from(max) {
        return Err(format!("must be from {min} to {max}"));
    }
    Ok(magnitude as u32)
}

/// RFC 1035 label: the TrainJob CRD's CEL rule for `metadata.name`; the API server's words.
fn check_rfc1035(raw: &str) -> Result<String, String> {
    refused(raw, crate::k8s::names::is_dns1035_label(raw))
}

/// RFC 1123 label: namespaces, and the Kueue queue name (a label value); the API server's words.
fn check_rfc1123_label(raw: &str) -> Result<String, String> {
    refused(raw, crate::k8s::names::is_dns1123_label(raw))
}

fn refused(raw: &str, reasons: Vec<String>) -> Result<String, String> {
    if reasons.is_empty() {
        Ok(raw.to_string())
    } else {
        Err(reasons.join("; "))
    }
}

fn check_image(raw: &str) -> Result<String, String> {
    let ok_chars =
        raw.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'/' | b':' | b'@' | b'-' | b'_'));
    if raw.len() > 255 {
        return Err("at most 255 characters".into());
    }
    // By hand, not `contains("//")`: see yaml::plain_is_safe.
    let empty_path_segment = raw.as_bytes().windows(2).any(|pair| pair == b"//");
    if !ok_chars || !raw.as_bytes()[0].is_ascii_alphanumeric() || empty_path_segment {
        return Err("an image reference such as registry.example.com/team/train:1.0".into());
    }
    Ok(raw.to_string())
}

fn check_dataset(raw: &str) -> Result<String, String> {
    let Some(path) = raw.strip_prefix("hf://") else {
        return Err("a Hugging Face dataset URI, such as hf://tatsu-lab/alpaca/data".into());
    };
    let ok_chars = path.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'/' | b'-' | b'_'));
    let parts: Vec<&str> = path.split('/').collect();
    if raw.len() > 2048 || !ok_chars || parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
        return Err("a Hugging Face dataset URI, such as hf://tatsu-lab/alpaca/data".into());
    }
    Ok(raw.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `parse_count` answers as reading the text as an `i64` did: signs, zeros, spaces, the edges
    /// of `i64` and of the range, non-ASCII digits.
    #[test]
    fn counts_read_as_an_i64_reads_them() {
        let by_i64 = |raw: &str, min: u32, max: u32| -> Result<u32, String> {
            let n: i64 = raw.parse().map_err(|_| format!("enter a whole number from {min} to {max}"))?;
            if n < i64::from(min) || n > i64::from(max) {
                return Err(format!("must be from {min} to {max}"));
            }
            Ok(n as u32)
        };
        let inputs = [
            "",
            "+",
            "-",
            "0",
            "-0",
            "+0",
            "00",
            "-00",
            "1",
            "+1",
            "-1",
            "01",
            "007",
            "16",
            "17",
            "128",
            "129",
            "1024",
            "1025",
            " 4",
            "4 ",
            "4.0",
            "1e3",
            "0x10",
            "٣",
            "４",
            "--1",
            "+-1",
            "4294967295",
            "4294967296",
            "4294967297",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "09223372036854775807",
            "-0009223372036854775808",
            "99999999999999999999",
            "-99999999999999999999",
        ];
        for raw in inputs {
            for (min, max) in [(0, MAX_GPUS), (1, MAX_NODES), (1, MAX_PROCS)] {
                assert_eq!(parse_count(raw, min, max), by_i64(raw, min, max), "{raw:?} in {min}..={max}");
            }
        }
    }

    #[test]
    fn bad_values_are_refused_with_a_reason_and_change_nothing() {
        let mut p = Params::default();
        for (key, raw) in [
            (ParamKey::Nodes, "-7"),
            (ParamKey::Nodes, "0"),
            (ParamKey::Nodes, "1e3"),
            (ParamKey::Nodes, "99999999999999999999"),
            (ParamKey::Gpus, "17"),
            (ParamKey::Procs, "0"),
            (ParamKey::Name, "Bad_Name"),
            (ParamKey::Name, "9lives"),
            (ParamKey::Namespace, "-ns"),
            (ParamKey::Image, "img with space"),
            (ParamKey::Image, "<script>"),
            (ParamKey::Queue, "a".repeat(64).as_str()),
            (ParamKey::Model, "gpt-5"),
            (ParamKey::Dataset, "s3://bucket"),
            (ParamKey::Dataset, "hf://only"),
        ] {
            let err = p.set(key, raw).expect_err(&format!("{key:?}={raw} must be refused"));
            assert!(!err.is_empty());
            assert_eq!(p, Params::default(), "{key:?}={raw} changed the params");
        }
    }

    #[test]
    fn one_click_away_is_each_other_choice_of_one_shown_control() {
        let mut sel = Selection::new(Persona::DataScientist, Framework::Jax);
        sel.params.set(ParamKey::Nodes, "3").unwrap();
        let differs = |a: &Selection, b: &Selection| {
            [a.framework != b.framework, a.persona != b.persona, a.release != b.release, a.scope != b.scope]
                .into_iter()
                .filter(|d| *d)
                .count()
        };
        let compact = sel.one_click_away(false);
        assert_eq!(compact.len(), Framework::ALL.len() - 1 + 1, "other frameworks and the other persona");
        let full = sel.one_click_away(true);
        let releases = explorer_data::releases::RELEASES.len();
        assert_eq!(full.len(), compact.len() + (releases - 1) + 1, "and other releases and the other scope");
        for next in &full {
            assert_eq!(differs(&sel, next), 1, "{next:?} is not one click away");
            assert_eq!((next.params.clone(), next.mode), (sel.params.clone(), sel.mode), "parameters stay");
        }
        assert!(!full.contains(&sel));
        assert_eq!(full.iter().collect::<std::collections::HashSet<_>>().len(), full.len(), "no repeats");
        // No runtime to scope: the scope control is not shown.
        let tensorflow = Selection::new(Persona::DataScientist, Framework::TensorFlow);
        assert!(tensorflow.one_click_away(true).iter().all(|s| s.scope == tensorflow.scope));
    }

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

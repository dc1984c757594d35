//! The data scientist's side: the TrainJob for a selection.

use super::workload;
use crate::model::pod::{EnvVar, Resources};
use crate::model::v2::{Initializer, RuntimeRef, StorageInitializer, TrainJob, TrainJobSpec, Trainer, API_VERSION};
use crate::model::ObjectMeta;
use crate::selection::{RuntimeScope, Selection};
use crate::tree;
use explorer_data::catalog::Framework;

pub(crate) const QUEUE_LABEL: &str = "kueue.x-k8s.io/queue-name";

/// `spec.suspend` of a TrainJob whose queue label is `queue`: a queued TrainJob is created
/// suspended, and Kueue admits it by setting `suspend` to false (Trainer's Kueue example creates
/// it so: v2.3.0:examples/yaml/03-kueue-integration.yaml, FACTS.md). The panes and `migrate`
/// (every V1 kind, TFJob and PaddleJob included) both write it from here.
pub(crate) fn suspended_when_queued(queue: Option<&str>) -> Option<bool> {
    queue.map(|_| true)
}
/// The Secret the snippets read the Hugging Face token from. Tokens never go into YAML.
pub(crate) const HF_SECRET: &str = "hf-token";

pub(crate) fn job_meta(sel: &Selection) -> ObjectMeta {
    let mut meta = ObjectMeta::named(&sel.name());
    meta.namespace = sel.namespace().map(String::from);
    if let Some(q) = sel.queue() {
        meta.labels.insert(QUEUE_LABEL.into(), q.into());
    }
    meta
}

/// Whether a TrainJob sets processes per node for this framework: only the torch and MPI
/// policies have a `numProcPerNode` to set.
pub(crate) fn takes_procs(framework: Framework) -> bool {
    matches!(framework.ml_policy(), Some("torch" | "mpi"))
}

/// `None` for frameworks V2 has no runtime for: the widget never invents one.
pub fn trainjob_for(sel: &Selection) -> Option<TrainJob> {
    if sel.v2_support() == explorer_data::catalog::V2Support::GeneratedRuntime {
        return super::generated::objects_for(sel).map(|(_, job)| job);
    }
    let runtime = sel.runtime_name()?;
    let runtime_ref = RuntimeRef {
        name: runtime,
        api_group: None,
        // ClusterTrainingRuntime is the default kind; only the namespaced variant needs saying.
        kind: (sel.scope == RuntimeScope::Namespaced).then(|| RuntimeScope::Namespaced.kind().into()),
    };
    let mut spec = TrainJobSpec { runtime_ref, suspend: suspended_when_queued(sel.queue()), ..Default::default() };
    if sel.framework == Framework::TorchTune {
        spec.initializer = Some(llm_initializer(sel));
        spec.trainer = Some(Trainer {
            command: vec!["tune".into(), "run".into()],
            args: torchtune_args(sel),
            resources_per_node: Resources::gpus(sel.gpus()),
            ..Default::default()
        });
    } else {
        let takes_procs = takes_procs(sel.framework);
        // A plain-MPI TrainJob names its image, as the SDK's CustomTrainerContainer must.
        let image = match sel.framework {
            Framework::Mpi => Some(super::runtimes::custom_mpi_image(sel)),
            _ => sel.params.image.clone(),
        };
        spec.trainer = Some(Trainer {
            image,
            command: workload::v2_command(sel),
            num_nodes: Some(sel.nodes()),
            num_proc_per_node: if takes_procs { sel.procs() } else { None },
            resources_per_node: Resources::gpus(sel.gpus()),
            ..Default::default()
        });
    }
    Some(TrainJob { api_version: API_VERSION.into(), kind: "TrainJob".into(), metadata: job_meta(sel), spec })
}

fn llm_initializer(sel: &Selection) -> Initializer {
    let model = sel.model();
    let token = model.gated().then(|| EnvVar {
        name: "ACCESS_TOKEN".into(),
        value: None,
        value_from: Some(tree!({"secretKeyRef": {"name": HF_SECRET, "key": "token"}})),
    });
    // The release's SDK writes its HuggingFaceModelInitializer's default ignore_patterns (which
    // changed in 0.4); the YAML says the same, so both panes download the same model. Pushed,
    // not chained and collected: that collecting code was 0.7 KB of the widget's wasm.
    let mut env = vec![EnvVar::new("IGNORE_PATTERNS", sel.release.model_ignore_patterns)];
    if let Some(token) = token {
        env.push(token);
    }
    Initializer {
        dataset: Some(StorageInitializer { storage_uri: Some(sel.dataset()), ..Default::default() }),
        model: Some(StorageInitializer { storage_uri: Some(model.hf_uri().into()), env, secret_ref: None }),
    }
}

/// The torchtune override that points the recipe at the downloaded dataset, as SDK 0.5.0's
/// BuiltinTrainer computes it: `hf://org/name/sub` lands in `/workspace/dataset/sub`, and a path
/// with a dot names files (`dataset.data_files`) rather than a folder (`dataset.data_dir`).
pub(crate) fn dataset_override(dataset_uri: &str) -> String {
    let path = super::without_hf_scheme(dataset_uri).trim_matches('/');
    // hf://<org>/<repo>/<sub>: the SDK keeps what follows the repository, and joins "." when
    // the URI names only the repository. (The third piece of at most three, not the pieces
    // after two collected and joined again: a `Vec` collected from a `Skip` was 0.9 KB of the
    // widget's wasm.)
    let relative = path.splitn(3, '/').nth(2).unwrap_or(".");
    let key = if relative != "." && relative.as_bytes().contains(&b'.') { "data_files" } else { "data_dir" };
    format!("dataset.{key}=/workspace/dataset/{relative}")
}

/// The overrides the SDK's BuiltinTrainer writes, in its order; the torch plugin appends the
/// recipe and config.
fn torchtune_args(sel: &Selection) -> Vec<String> {
    vec![
        dataset_override(&sel.dataset()),
        "dataset=torchtune.datasets.instruct_dataset".into(),
        "dataset.source=parquet".into(),
    ]
}

#[cfg(test)]
mod tests {
    use super::dataset_override;

    #[test]
    fn dataset_override_follows_the_sdk() {
        // SDK 0.5.0 get_args_using_torchtune_config: what follows org/repo, "." for none, and
        // data_files when that path has a dot.
        assert_eq!(dataset_override("hf://tatsu-lab/alpaca/data"), "dataset.data_dir=/workspace/dataset/data");
        assert_eq!(dataset_override("hf://org/ds"), "dataset.data_dir=/workspace/dataset/.");
        assert_eq!(
            dataset_override("hf://org/ds/train.parquet"),
            "dataset.data_files=/workspace/dataset/train.parquet"
        );
        // Everything after the repository, slashes kept.
        assert_eq!(dataset_override("hf://org/ds/a//b.json/"), "dataset.data_files=/workspace/dataset/a//b.json");
    }
}

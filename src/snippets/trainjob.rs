//! The data scientist's side: the TrainJob for a selection.

use super::workload;
use crate::catalog::Framework;
use crate::model::pod::{EnvVar, Resources};
use crate::model::v2::{Initializer, RuntimeRef, StorageInitializer, TrainJob, TrainJobSpec, Trainer, API_VERSION};
use crate::model::ObjectMeta;
use crate::selection::{RuntimeScope, Selection};
use crate::tree;

pub const QUEUE_LABEL: &str = "kueue.x-k8s.io/queue-name";
/// The Secret the snippets read the Hugging Face token from. Tokens never go into YAML.
pub const HF_SECRET: &str = "hf-token";

pub fn job_meta(sel: &Selection) -> ObjectMeta {
    let mut meta = ObjectMeta::named(&sel.name());
    meta.namespace = sel.namespace().map(String::from);
    if let Some(q) = sel.queue() {
        meta.labels.insert(QUEUE_LABEL.into(), q.into());
    }
    meta
}

/// `None` for frameworks V2 has no runtime for: the widget never invents one.
pub fn trainjob_for(sel: &Selection) -> Option<TrainJob> {
    let runtime = sel.runtime_name()?;
    let runtime_ref = RuntimeRef {
        name: runtime,
        api_group: None,
        // ClusterTrainingRuntime is the default kind; only the namespaced variant needs saying.
        kind: (sel.scope == RuntimeScope::Namespaced).then(|| RuntimeScope::Namespaced.kind().into()),
    };
    let mut spec = TrainJobSpec {
        runtime_ref,
        // Kueue admits a queued TrainJob by flipping `suspend` to false.
        suspend: sel.queue().map(|_| true),
        ..Default::default()
    };
    if sel.framework == Framework::TorchTune {
        spec.initializer = Some(llm_initializer(sel));
        spec.trainer = Some(Trainer {
            command: vec!["tune".into(), "run".into()],
            args: torchtune_args(sel),
            resources_per_node: Resources::gpus(sel.gpus()),
            ..Default::default()
        });
    } else {
        let takes_procs = matches!(sel.framework.ml_policy(), Some("torch" | "mpi"));
        spec.trainer = Some(Trainer {
            image: sel.params.image.clone(),
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
    Initializer {
        dataset: Some(StorageInitializer { storage_uri: Some(sel.dataset()), ..Default::default() }),
        model: Some(StorageInitializer {
            storage_uri: Some(model.hf_uri().into()),
            env: token.into_iter().collect(),
            secret_ref: None,
        }),
    }
}

/// Where the dataset lands: the dataset initializer downloads `hf://org/name/sub` into
/// `/workspace/dataset/sub`, as the SDK computes it.
pub fn dataset_dir(dataset_uri: &str) -> String {
    let path = dataset_uri.trim_start_matches("hf://");
    let sub: Vec<&str> = path.split('/').skip(2).collect();
    if sub.is_empty() {
        "/workspace/dataset".into()
    } else {
        format!("/workspace/dataset/{}", sub.join("/"))
    }
}

/// The overrides the SDK's BuiltinTrainer writes; the torch plugin appends the recipe and config.
fn torchtune_args(sel: &Selection) -> Vec<String> {
    vec![
        "dataset=torchtune.datasets.instruct_dataset".into(),
        "dataset.source=parquet".into(),
        format!("dataset.data_dir={}", dataset_dir(&sel.dataset())),
    ]
}

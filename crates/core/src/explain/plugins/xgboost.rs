//! The XGBoost plugin (pkg/runtime/framework/plugins/xgboost/xgboost.go): the `DMLC_*` tracker
//! environment, one worker per GPU.

use super::{gpus, resources_per_node, set_trainer_count, trainer_container, trainer_set};
use crate::explain::build::{field_ref_env, upsert_env, upsert_port, PodSet, COMPLETION_INDEX, TRAINER_PORT};
use crate::explain::Input;
use crate::model::pod::EnvVar;

/// xgboost.go:73-149.
pub(super) fn xgboost(input: Input, sets: &mut [PodSet], coordinator: &str) {
    if trainer_set(sets).is_none() {
        return;
    }
    set_trainer_count(input, sets);
    let gpus = gpus(resources_per_node(input).as_ref());
    let Some((count, c)) = trainer_container(input, sets) else { return };
    // :102-113 one worker per GPU, else one per node.
    let per_node = if gpus > 0 { gpus } else { 1 };
    let workers = u64::from(count) * per_node;
    upsert_env(
        &mut c.env,
        [
            EnvVar::new("DMLC_TRACKER_URI", coordinator),
            EnvVar::new("DMLC_TRACKER_PORT", &TRAINER_PORT.to_string()),
            field_ref_env("DMLC_TASK_ID", COMPLETION_INDEX),
            EnvVar::new("DMLC_NUM_WORKER", &workers.to_string()),
        ],
    );
    upsert_port(&mut c.ports, TRAINER_PORT); // :142-144
}

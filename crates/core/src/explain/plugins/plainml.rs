//! The plain-ML plugin (pkg/runtime/framework/plugins/plainml/plainml.go): a runtime without
//! torch, MPI or JAX policy gets the TrainJob's `numNodes` and env on its trainer.

use super::{set_trainer_count, trainer_container};
use crate::explain::build::{upsert_env, PodSet};
use crate::explain::Input;
use crate::model::pod::EnvVar;

/// plainml.go:47-68.
pub(super) fn plainml(input: Input, sets: &mut [PodSet], job_env: &[EnvVar]) {
    set_trainer_count(input, sets);
    if let Some((_, c)) = trainer_container(input, sets) {
        upsert_env(&mut c.env, job_env.iter().cloned());
    }
}

//! The JAX plugin (pkg/runtime/framework/plugins/jax/jax.go): the process count, id and
//! coordinator address `jax.distributed.initialize` reads.

use super::{set_trainer_count, trainer_container};
use crate::explain::build::{field_ref_env, upsert_env, upsert_port, PodSet, COMPLETION_INDEX, TRAINER_PORT};
use crate::explain::Input;
use crate::model::pod::EnvVar;

/// jax.go:63-100.
pub(super) fn jax(input: Input, sets: &mut [PodSet], coordinator: &str) {
    set_trainer_count(input, sets);
    if let Some((count, c)) = trainer_container(input, sets) {
        // jax.go:76-97.
        upsert_env(
            &mut c.env,
            [
                EnvVar::new("JAX_NUM_PROCESSES", &count.to_string()),
                field_ref_env("JAX_PROCESS_ID", COMPLETION_INDEX),
                EnvVar::new("JAX_COORDINATOR_ADDRESS", &format!("{coordinator}:{TRAINER_PORT}")),
            ],
        );
        upsert_port(&mut c.ports, TRAINER_PORT); // jax.go:100
    }
}

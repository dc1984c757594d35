//! The CLI's integration tests, one test binary: each file is a module (`cargo test -p explorer-cli -- validate::`
//! runs one); `run` starts the built binary for all of them.

mod cli;
mod cli_user;
mod control_characters;
mod explain_files;
mod explain_snapshots;
mod input_door;
mod json_schema;
mod peak_memory;
mod post;
mod run;
mod runtime_after_job;
mod validate;
mod yaml_output;

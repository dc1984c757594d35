//! The core's integration tests, one test binary: each file is a module (`cargo test -p explorer-core -- migrate::` runs one).
//! Every test file linked on its own cost a link of the whole core each; the two libtest-mimic
//! harnesses (conformance.rs, real_v1.rs) stay binaries of their own.

mod bounds;
mod builtin_runtimes;
mod crd_fields;
mod crd_rules;
mod crd_validation;
mod explain;
mod explain_crd;
mod explain_properties;
mod explain_served;
mod explain_sources;
mod generated_panes;
mod input_door_properties;
mod input_door_streams;
mod migrate;
mod migrate_kueue;
mod migrate_restart;
mod migrate_targets;
mod migrate_tf_paddle;
mod model_trees;
mod null_is_absent;
mod parameters;
mod platform_fields;
mod properties;
mod release_snippets;
mod snapshots;
mod upgrade;
mod v1_explain;
mod v1_paddle_snippet;
mod v1_tf_snippet;
mod v1_webhook;

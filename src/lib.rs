//! Kubeflow Trainer V2 Explorer: the widget.
//!
//! This package is the Yew widget compiled to WebAssembly (`ui`, wasm32 only). What it shows
//! comes from the workspace's crates: `explorer-data` (releases, catalog), `explorer-core`
//! (models, snippets, explain, migrate, upgrade) and `explorer-html` (highlighting, views); the
//! command line is `explorer-cli`. The converter module the widget loads on demand is
//! `crates/migrate-wasm`.

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub mod ui;

//! Kubeflow Trainer V2 Explorer.
//!
//! The core (everything but `ui`) is pure Rust with no web-sys: the catalog, typed models of the
//! V1 and V2 objects, the snippet generators, URL query handling, syntax highlighting and the
//! V1→V2 migration. It is tested natively. `ui` is the thin Yew layer compiled to WebAssembly.

pub mod catalog;
pub mod explain;
pub mod fallback;
pub mod highlight;
pub mod migrate;
pub mod model;
pub mod query;
pub mod release_changes;
pub mod releases;
pub mod selection;
pub mod snippets;
pub mod upgrade;
pub mod yaml;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(not(target_arch = "wasm32"))]
pub mod post;

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub mod ui;

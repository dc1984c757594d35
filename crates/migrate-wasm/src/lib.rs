//! The converter behind the widget's migrate mode. A separate module because YAML parsing is
//! the heaviest code we ship; the widget loads this only when a reader opens migrate mode or the
//! upgrade notes. "What Kubernetes runs" for a selection has a smaller module of its own
//! (crates/explain-wasm); for a converted TrainJob this module renders it, from the explanation
//! the pod comparison computes anyway (explorer_html::migrate_runs).

use wasm_bindgen::prelude::*;

/// Talc, as in the widget, instead of Rust's default dlmalloc: this module is single-threaded
/// wasm too, and talc's code is about 2 KB smaller gzipped.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Converts a V1 YAML stream into objects for the Trainer release line `release` (`v2.1`, the
/// widget's `Selection.release`; left out, the newest); returns `{"error", "yaml", "html"}` as
/// JSON.
#[wasm_bindgen]
pub fn migrate(text: &str, release: Option<String>) -> String {
    use explorer_html::migrate_view as view;
    match release {
        Some(line) => view::rendered_json_for(text, &line),
        None => view::rendered_json(text),
    }
}

/// "Upgrading from an older release" for a widget selection (its URL query): `{"html"}` or
/// `{"error"}` as JSON, like `explain`.
#[wasm_bindgen]
pub fn upgrade_notes(query: &str) -> String {
    explorer_html::upgrade_view::pane_json(query)
}

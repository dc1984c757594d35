//! The converter behind the widget's migrate mode. A separate module because YAML parsing is
//! the heaviest code we ship; the widget loads this only when a reader opens migrate mode.

use wasm_bindgen::prelude::*;

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

/// "What Kubernetes runs" for a widget selection (its URL query): `{"html"}` or `{"error"}` as
/// JSON. Here rather than in the widget's module, which stays within its size budget.
#[wasm_bindgen]
pub fn explain(query: &str) -> String {
    explorer_html::explain_view::pane_json(query)
}

/// "Upgrading from an older release" for a widget selection (its URL query): `{"html"}` or
/// `{"error"}` as JSON, like `explain`.
#[wasm_bindgen]
pub fn upgrade_notes(query: &str) -> String {
    explorer_html::upgrade_view::pane_json(query)
}

//! "What Kubernetes runs" behind the widget's disclosure of that name. Its own module, not the
//! converter's: it builds the selection's TrainJob and runtime from the typed models and explains
//! them, so it needs no YAML parser, migration or upgrade code, and a reader who opens it
//! downloads a fraction of what migrate mode does (scripts/bench.mjs reports both sizes).

use wasm_bindgen::prelude::*;

/// "What Kubernetes runs" for a widget selection (its URL query): `{"html"}` or `{"error"}` as
/// JSON.
#[wasm_bindgen]
pub fn explain(query: &str) -> String {
    explorer_html::explain_view::pane_json(query)
}

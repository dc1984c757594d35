//! "What Kubernetes runs" behind the widget's disclosure of that name. Its own module, not the
//! converter's: it builds the selection's TrainJob and runtime from the typed models and explains
//! them, so it needs no YAML parser, migration or upgrade code, and a reader who opens it
//! downloads a fraction of what migrate mode does (scripts/bench.mjs reports both sizes).

use wasm_bindgen::prelude::*;

/// Talc, as in the widget and the converter, instead of Rust's default dlmalloc: smaller code.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// "What Kubernetes runs" for a widget selection (its URL query): `{"html"}`, or `{"error"}` when
/// the query does not read or the selection has nothing to explain, as JSON.
#[wasm_bindgen]
pub fn explain(query: &str) -> String {
    let explained = explorer_core::query::parse_strict(query)
        .map_err(explorer_core::explain::selection::Error::Query)
        .and_then(|sel| explorer_core::explain::selection::linked(&sel));
    let answer = match explained {
        Ok(explained) => serde_json::json!({ "html": explorer_html::explain_view::selection_html(&explained) }),
        Err(error) => serde_json::json!({ "error": error.to_string() }),
    };
    answer.to_string()
}

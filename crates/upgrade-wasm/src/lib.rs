//! "Upgrading from an older release" for the widget's selection: what changes in its V2 YAML
//! from each older Trainer release line to the selected one. A module of its own, loaded when a
//! reader opens those notes: they read the selection's YAML with the YAML parser, but need no
//! migration, pod comparison or CEL, so the converter (crates/migrate-wasm) no longer carries
//! them for every reader of migrate mode, and a reader of the notes downloads no converter.

use wasm_bindgen::prelude::*;

/// Talc, as in the widget and the other modules: single-threaded wasm, smaller code than
/// Rust's default dlmalloc.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The notes for a widget selection (its URL query): `{"html"}` or `{"error"}` as JSON, like
/// the explain module's `explain`.
#[wasm_bindgen]
pub fn upgrade_notes(query: &str) -> String {
    let answer = match explorer_core::query::parse_strict(query) {
        Ok(sel) => {
            let older = explorer_core::upgrade::notes::notes_from_older_releases(&sel);
            serde_json::json!({ "html": explorer_html::upgrade_view::html(sel.release, &older) })
        }
        Err(error) => serde_json::json!({ "error": error.to_string() }),
    };
    answer.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(json: &str) -> serde_json::Value {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn an_unknown_query_is_the_answers_error_and_a_selection_gets_its_notes() {
        assert!(answer(&upgrade_notes("release=v9"))["error"].as_str().is_some());
        let notes = answer(&upgrade_notes("framework=pytorch"));
        assert!(notes["html"].as_str().unwrap().contains("data-from="), "{notes}");
    }
}

//! The converter behind the widget's migrate mode. A separate module because YAML parsing is
//! the heaviest code we ship; the widget loads this only when a reader opens migrate mode.

use wasm_bindgen::prelude::*;

/// Converts a V1 YAML stream; returns `{"error", "yaml", "html"}` as JSON.
#[wasm_bindgen]
pub fn migrate(text: &str) -> String {
    trainer_v2_explorer::migrate::view::rendered_json(text)
}

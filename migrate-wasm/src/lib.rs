//! The converter behind the widget's migrate mode. A separate module because YAML parsing is
//! the heaviest code we ship; the widget loads this only when a reader opens migrate mode.

use wasm_bindgen::prelude::*;

/// Converts a V1 YAML stream into objects for the Trainer release line `release` (`v2.1`, the
/// widget's `Selection.release`); returns `{"error", "yaml", "html"}` as JSON.
#[wasm_bindgen]
pub fn migrate(text: &str, release: &str) -> String {
    trainer_v2_explorer::migrate::view::rendered_json_for(text, release)
}

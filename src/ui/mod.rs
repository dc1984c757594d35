//! The Yew layer (wasm32 only): maps state to `html!` and performs the side effects.
//! Modelled on yew's `function_todomvc`: a pure `state.rs` reducer and small components.

pub mod app;
pub mod browser;
/// The explorer's parts: code boxes, switches, fields, panes and migrate mode.
pub mod components;
pub mod hooks;
pub mod inbox;
pub mod mount;
pub mod prepare;
pub mod recent;
pub mod state;
pub mod unpersisted;

use wasm_bindgen::prelude::*;

/// Talc instead of Rust's default dlmalloc: the widget is single-threaded wasm (no atomics), and
/// talc's code is a few KB smaller.
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Mounts the explorer into one element (www/element.js calls it as a host nears the viewport).
#[wasm_bindgen(js_name = mount)]
pub fn mount_one(element: web_sys::Element) -> Result<(), JsValue> {
    mount::mount(element)
}

/// Stops the explorer in one element and shows its fallback again (it left the page, or an
/// option that shapes the instance changed: `compact`, `sync`, `theme`).
#[wasm_bindgen(js_name = unmount)]
pub fn unmount_one(element: web_sys::Element) {
    mount::unmount(&element)
}

/// Hands the widget its converter: a function from V1 YAML text and a release line (`v2.1`) to
/// (a promise of) the JSON that the converter module's `migrate` (crates/migrate-wasm) returns. The
/// page's loader passes one that imports the converter module on first use.
#[wasm_bindgen(js_name = setMigrator)]
pub fn set_migrator(migrator: js_sys::Function) {
    browser::set_migrator(migrator);
}

/// Hands the widget a function that fills in an opened lazily filled disclosure from its
/// `data-pane` and `data-query` (pkg-migrate/converter.js `showPane`, with
/// the explain module's `explain` and the converter module's `upgrade_notes`).
#[wasm_bindgen(js_name = setExplainer)]
pub fn set_explainer(explainer: js_sys::Function) {
    browser::set_explainer(explainer);
}

/// For the end-to-end tests only: makes the widget fail as a bug would, so they can check that
/// every instance shows its static fallback again. The failure happens on the next timer tick,
/// inside a callback the browser invokes, like a failure in an event handler. `"panic"` panics
/// (the panic hook runs, then the module traps); anything else traps at once without the hook,
/// as an out-of-memory abort does.
///
/// Safe to ship: nothing a reader does reaches it (no URL parameter, attribute or control calls
/// it); only script that imports the module can, and such script already controls the page.
#[wasm_bindgen(js_name = __failForTests)]
pub fn fail_for_tests(kind: String) {
    browser::after(0, move || {
        if kind == "panic" {
            panic!("forced by a test (__failForTests)");
        }
        std::process::abort();
    })
    .forget();
}

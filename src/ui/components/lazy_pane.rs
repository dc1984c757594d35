//! A disclosure under the panes that the converter module fills in: "What Kubernetes runs" and
//! "Upgrading from an older release". Opening one hands it to the page loader's explainer, which
//! loads the converter module (as migrate mode does), asks the export that `data-pane` names for
//! the HTML explorer-html renders for `data-query` (explain_view, upgrade_view) and places it; it
//! follows `data-query` while open. The widget's wasm only draws the disclosure: everything
//! else ships in the lazily loaded module, outside the size budget.

use super::class_list;
use crate::ui::browser;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The disclosure `pane` (the converter's name for it, see pkg-migrate/converter.js) for a
/// selection's URL query (persona, framework, parameters, release).
pub fn lazy_pane(pane: &'static str, class: &'static str, title: &'static str, query: String, toggle: Html) -> Html {
    let ontoggle = Callback::from(|e: Event| {
        if let Some(details) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
            if details.has_attribute("open") {
                browser::show_pane(&details);
            }
        }
    });
    html! {
        <details ~className={class_list(&[Some("report"), Some(class)])} data-pane={pane} data-query={query} {ontoggle}>
            <summary>{ title }</summary>
            { toggle }
            <div class="pane-body"></div>
        </details>
    }
}

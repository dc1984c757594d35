//! "What Kubernetes runs": a disclosure under the panes. Opening it hands it to the page
//! loader's explainer, which loads the converter module (as migrate mode does), asks it what the
//! Trainer controller makes of the selection's TrainJob and places the HTML the core rendered
//! (explain::view); it follows `data-query` while open. The widget's wasm only draws the
//! disclosure: everything else ships in the lazily loaded module, outside the size budget.

use crate::ui::browser;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The disclosure for a selection's URL query (persona, framework, parameters, release).
pub fn kubernetes(query: String) -> Html {
    let ontoggle = Callback::from(|e: Event| {
        if let Some(details) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
            if details.has_attribute("open") {
                browser::show_kubernetes(&details);
            }
        }
    });
    html! {
        <details class="report k8s-pane" data-query={query} {ontoggle}>
            <summary>{ "What Kubernetes runs" }</summary>
            <div class="k8s-body"></div>
        </details>
    }
}

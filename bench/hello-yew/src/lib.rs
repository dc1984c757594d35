//! A bare Yew component with state and a button: what any Yew widget costs.
use wasm_bindgen::prelude::*;
use yew::prelude::*;

#[component]
fn Hello() -> Html {
    let count = use_state(|| 0u32);
    let onclick = {
        let count = count.clone();
        Callback::from(move |_| count.set(*count + 1))
    };
    html! { <div><button {onclick}>{ "Clicked " }{ *count }</button><pre>{ "hello" }</pre></div> }
}

/// Mounts the component in `el`: the one export the size benchmark loads.
#[wasm_bindgen(js_name = mount)]
pub fn mount(el: web_sys::Element) {
    yew::Renderer::<Hello>::with_root(el).render();
}

//! One snippet: title, copy button and highlighted code. The highlighted HTML comes from the core
//! (`highlight::code_html`), the same markup as the page's static fallback; setting it as one
//! string keeps a toggle cheap.
//!
//! The `<code>` element is part of that string on purpose. Yew replaces raw HTML node by node
//! (one removeChild and one insertBefore per top-level node), so with a span per line as the
//! top level, a toggle made hundreds of DOM calls. One wrapping node makes it one of each.

use crate::highlight;
use crate::snippets::Snippet;
use crate::ui::browser;
use gloo::timers::callback::Timeout;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CodeBlockProps {
    pub snippet: Snippet,
    /// Where the copy fallback may put its scratch textarea (our shadow root).
    pub scratch: web_sys::Node,
    /// Announces the copy outcome in the widget's live region.
    pub on_announce: Callback<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum CopyState {
    Idle,
    Copied,
    Failed,
}

#[component]
pub fn CodeBlock(props: &CodeBlockProps) -> Html {
    let snippet = &props.snippet;
    let copy_state = use_state(|| CopyState::Idle);
    // The pending reset of the button's label. Held by the component, so it is cancelled when
    // the component goes (an unmounted widget) rather than firing into it.
    let reset_timer = use_mut_ref(|| None::<Timeout>);
    let html =
        use_memo((snippet.code.clone(), snippet.language, snippet.owned_by_runtime.clone()), |(code, lang, owned)| {
            Html::from_html_unchecked(AttrValue::from(highlight::code_html(*lang, code, owned)))
        });
    let onclick = {
        let code = snippet.code.clone();
        let title = snippet.title.clone();
        let copy_state = copy_state.clone();
        let scratch = props.scratch.clone();
        let announce = props.on_announce.clone();
        let reset_timer = reset_timer.clone();
        Callback::from(move |_: MouseEvent| {
            let (code, title, copy_state, scratch, announce) =
                (code.clone(), title.clone(), copy_state.clone(), scratch.clone(), announce.clone());
            let reset_timer = std::rc::Rc::downgrade(&reset_timer);
            wasm_bindgen_futures::spawn_local(async move {
                let ok = browser::copy_text(code, scratch).await;
                copy_state.set(if ok { CopyState::Copied } else { CopyState::Failed });
                announce.emit(if ok {
                    format!("Copied {title}")
                } else {
                    "Copy failed: select the code and press Ctrl+C".to_string()
                });
                let reset = copy_state.clone();
                if let Some(timer) = reset_timer.upgrade() {
                    *timer.borrow_mut() = Some(Timeout::new(2000, move || reset.set(CopyState::Idle)));
                }
            });
        })
    };
    let label = match *copy_state {
        CopyState::Idle => "Copy",
        CopyState::Copied => "Copied",
        CopyState::Failed => "Select and copy",
    };
    html! {
        <figure class={classes!("snippet", snippet.language.id())}>
            <figcaption>
                <span class="title">{ &snippet.title }</span>
                <button type="button" class="copy" aria-label={format!("Copy {}", snippet.title)} {onclick}>{ label }</button>
            </figcaption>
            <pre tabindex="0" aria-label={snippet.title.clone()}>{ (*html).clone() }</pre>
        </figure>
    }
}

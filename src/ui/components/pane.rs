use super::code_block::CodeBlock;
use crate::ui::prepare::PreparedStore;
use explorer_core::snippets::{Api, Pane as PaneModel};
use explorer_html::highlight::LongLines;
use yew::prelude::*;

/// A plain function of these, not a component (as `radio_group`): no state of its own; each
/// code block is a component and renders again only when its own props change.
pub struct PaneProps<'a> {
    /// The pane's heading, notes and snippets.
    pub pane: &'a PaneModel,
    /// Whether the code boxes wrap long lines.
    pub long_lines: LongLines,
    /// The `<code>` elements prepared at idle time for the selections one click away.
    pub prepared: PreparedStore,
    /// Scratch space for the copy fallback (the explorer's shadow root).
    pub scratch: web_sys::Node,
    /// Tells screen readers what happened (`Copied`).
    pub on_announce: Callback<String>,
    /// A field is invalid: the code is the last valid selection's, and Copy must not take it.
    pub stale: bool,
}

/// The pane, as HTML.
pub fn pane(props: PaneProps) -> Html {
    let pane = props.pane;
    let (tag, class) = match pane.api {
        Api::V2 => ("V2", "pane v2"),
        Api::V1 => ("V1", "pane v1"),
    };
    // Lists are pushed into a `Vec<Html>`, not collected from a `map` in `html!`'s `for`: every
    // list then goes through the one instance of the collecting code, not one per iterator type.
    let mut paragraphs = Vec::new();
    if let Some(notice) = &pane.notice {
        for p in &notice.paragraphs {
            paragraphs.push(html! { <p>{ p }</p> });
        }
    }
    let mut blocks = Vec::new();
    for s in &pane.snippets {
        blocks.push(html! {
            <CodeBlock snippet={s.clone()} long_lines={props.long_lines} prepared={Some(props.prepared.clone())} scratch={props.scratch.clone()} on_announce={props.on_announce.clone()} stale={props.stale} />
        });
    }
    html! {
        <div ~className={class} role="group" aria-label={format!("{tag}: {}", pane.heading)}>
            <h3><span class="tag">{ tag }</span>{ &pane.heading }</h3>
            if let Some(notice) = &pane.notice {
                <div class="notice" role="note">
                    <p class="notice-title">{ &notice.title }</p>
                    { for paragraphs }
                </div>
            }
            { for blocks }
        </div>
    }
}

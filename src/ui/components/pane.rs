use super::code_block::{code_block, Blocks, CodeBlockProps};
use crate::ui::prepare::PreparedStore;
use explorer_core::snippets::{Api, Pane as PaneModel};
use explorer_html::highlight::LongLines;
use yew::prelude::*;

/// A plain function of these, not a component (as `radio_group`): its blocks' state is the
/// explorer's (`blocks`).
pub struct PaneProps<'a> {
    /// The pane's heading, notes and snippets.
    pub pane: &'a PaneModel,
    /// What its code blocks keep between renders, by their place in the pane.
    pub blocks: &'a Blocks,
    /// Renders the explorer again (a block's Copy label changed).
    pub redraw: &'a UseForceUpdateHandle,
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
    let count = pane.snippets.len();
    let cells = props.blocks.last_first(count);
    for (i, snippet) in pane.snippets.iter().enumerate() {
        blocks.push(code_block(CodeBlockProps {
            snippet,
            kept: cells[count - 1 - i].clone(),
            redraw: props.redraw,
            long_lines: props.long_lines,
            prepared: &props.prepared,
            scratch: &props.scratch,
            on_announce: &props.on_announce,
            stale: props.stale,
        }));
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

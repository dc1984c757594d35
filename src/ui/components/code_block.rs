//! One snippet: title, copy button and highlighted code. The highlighted HTML comes from the core
//! (`highlight::code_html`), the same markup as the page's static fallback; setting it as one
//! string keeps a toggle cheap.
//!
//! The `<code>` element is part of that string on purpose: the block shows one node, so a toggle
//! replaces it with one removeChild and one insertBefore (a span per line as the top level made
//! hundreds of DOM calls).
//!
//! Each block keeps the `<code>` elements of the last few snippets it showed. A reader comparing
//! two frameworks or personas goes back and forth: going back puts the kept element in again
//! instead of highlighting the same code and having the browser parse the same HTML once more.
//! The cache is per block because a DOM node can be in one place only. A block showing code it
//! has not shown before takes the `<code>` element prepared for it at idle time when there is
//! one (ui::prepare), so a toggle to a new selection one click away skips the parsing too.

use super::class_list;
use crate::ui::browser;
use crate::ui::prepare::{code_element, code_key, CodeKey, PreparedStore};
use crate::ui::recent::kept_or_made;
use explorer_core::snippets::Snippet;
use explorer_html::highlight::{self, LongLines};
use gloo::timers::callback::Timeout;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What a code block shows, and how: the pane's settings for its blocks, and the one block's own.
pub struct CodeBlockProps<'a> {
    /// The snippet: its code, language and the lines a runtime now owns.
    pub snippet: &'a Snippet,
    /// What this block keeps between renders (its place in `Blocks`).
    pub kept: Rc<RefCell<Kept>>,
    /// Renders the explorer again: the Copy label changed.
    pub redraw: &'a UseForceUpdateHandle,
    /// Whether the box wraps long lines ("Wrap long lines"): only then do the lines that may
    /// wrap get the elements that hang them under their indent.
    pub long_lines: LongLines,
    /// Where a `<code>` element prepared at idle time may wait for this block (ui::prepare).
    pub prepared: &'a PreparedStore,
    /// Where the copy fallback may put its scratch textarea (our shadow root).
    pub scratch: &'a web_sys::Node,
    /// Announces the copy outcome in the widget's live region.
    pub on_announce: &'a Callback<String>,
    /// The code no longer matches the fields (one is invalid): Copy is off and says why.
    pub stale: bool,
}

/// The Copy button's label: what the last copy did, until it resets after two seconds.
const IDLE: &str = "Copy";
const COPIED: &str = "Copied";
const FAILED: &str = "Select and copy";

/// How many `<code>` elements a block keeps: enough for a few selections back and forth.
const KEPT: usize = 4;

/// The `<code>` element for `key`: the one prepared at idle time (ui::prepare) if there is one,
/// else parsed now. Yew then moves that very node in and out of the `<pre>` (`Html::VRef`).
fn code_node(key: &CodeKey, prepared: &PreparedStore) -> Html {
    let ready = prepared.0.borrow_mut().take_code(key);
    match ready.or_else(|| code_element(key)) {
        Some(node) => Html::VRef(node),
        None => Html::from_html_unchecked(AttrValue::from(highlight::code_html(key.1, &key.0, &key.2, key.3))),
    }
}

/// What a block keeps between renders, in one cell. The Copy button's label is here, with the
/// explorer rendered again when it changes (`use_force_update`), not in a state hook.
pub struct Kept {
    /// The `<code>` elements of the last few snippets shown (`KEPT`), by what they show: the
    /// code, its language, the lines marked as owned and whether long lines wrap.
    codes: Vec<(CodeKey, Html)>,
    /// The Copy button's label.
    label: &'static str,
    /// The label's pending reset. Held, never read: dropping it (a newer copy, the block's going:
    /// a shorter pane, migrate mode, an unmounted widget) cancels it rather than letting it fire
    /// into the block.
    _reset: Option<Timeout>,
}

impl Default for Kept {
    fn default() -> Self {
        Kept { codes: Vec::new(), label: IDLE, _reset: None }
    }
}

/// What the blocks of one pane keep, by their place in it: the explorer holds these, and a block
/// is a function, not a component. As a component (`#[component]`) it kept this in hooks, and its
/// lifecycle, props comparison and scheduler code was in the wasm for this one type (widgetsize5
/// in BENCHMARKS.md has the bytes).
#[derive(Default)]
pub struct Blocks(RefCell<Vec<Rc<RefCell<Kept>>>>);

impl Blocks {
    /// The cells of a pane of `count` blocks, the last block's first: matched to the last
    /// render's as yew matched the components of an unkeyed list (`BList::apply_unkeyed`), from
    /// the end. A pane with fewer blocks drops its first cells, with their kept elements and their
    /// labels' pending resets (as yew unmounted the first components); a pane with more starts its
    /// first ones empty.
    pub fn last_first(&self, count: usize) -> Vec<Rc<RefCell<Kept>>> {
        let mut cells = self.0.borrow_mut();
        cells.truncate(count);
        cells.resize_with(count, Rc::default);
        cells.clone()
    }
}

/// One snippet as a highlighted code box with its Copy button.
pub fn code_block(props: CodeBlockProps) -> Html {
    let snippet = props.snippet;
    let kept = props.kept;
    let redraw = props.redraw.clone();
    let key = code_key(snippet, props.long_lines);
    let code = kept_or_made(&mut kept.borrow_mut().codes, key, KEPT, |key| code_node(key, props.prepared));
    let onclick = {
        let code = snippet.code.clone();
        let title = snippet.title.clone();
        let scratch = props.scratch.clone();
        let announce = props.on_announce.clone();
        let kept = Rc::downgrade(&kept);
        Callback::from(move |_: MouseEvent| {
            let (code, title, scratch, announce, redraw, kept) =
                (code.clone(), title.clone(), scratch.clone(), announce.clone(), redraw.clone(), kept.clone());
            browser::copy_text(code, scratch, move |ok| {
                // Unless the block is gone (a shorter pane, migrate mode, an unmounted widget):
                // then there is no label.
                if let Some(cell) = kept.upgrade() {
                    let reset = {
                        let (kept, redraw) = (kept.clone(), redraw.clone());
                        move || {
                            if let Some(cell) = kept.upgrade() {
                                cell.borrow_mut().label = IDLE;
                                redraw.force_update();
                            }
                        }
                    };
                    {
                        let mut block = cell.borrow_mut();
                        block.label = if ok { COPIED } else { FAILED };
                        block._reset = Some(browser::after(2000, reset));
                    }
                    redraw.force_update();
                }
                announce.emit(if ok {
                    format!("Copied {title}")
                } else {
                    "Copy failed: select the code and press Ctrl+C".to_string()
                });
            });
        })
    };
    // The code is the last valid selection's: nothing to copy until the field is fixed.
    let label = if props.stale { "Fix the field first" } else { kept.borrow().label };
    html! {
        <figure ~className={class_list(&[Some("snippet"), Some(snippet.language.id())])}>
            <figcaption>
                <span class="title">{ &snippet.title }</span>
                <button type="button" class="copy" aria-label={format!("Copy {}", snippet.title)} disabled={props.stale} {onclick}>{ label }</button>
            </figcaption>
            <pre tabindex="0" aria-label={snippet.title.clone()}>{ code }</pre>
        </figure>
    }
}

//! A segmented control with radio semantics: `role=radiogroup`, `role=radio` + `aria-checked`,
//! and a roving tabindex. Tab enters and leaves the group; arrows move and select; Home/End jump.

use super::class_list;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A plain function of these, not a component: it has no state of its own, and a component's
/// lifecycle code in the wasm (its props builder, comparison, mounting and scheduling) cost more
/// than building these few buttons again when the explorer renders.
#[derive(Default)]
pub struct RadioGroupProps {
    /// The group's accessible name.
    pub label: &'static str,
    /// (value, visible and accessible name) per option.
    pub options: Vec<(&'static str, &'static str)>,
    /// The option selected (its index).
    pub selected: usize,
    /// An option was chosen: its index.
    pub on_select: Callback<usize>,
    /// The group's own class, after `radios`.
    pub class: &'static str,
    /// The id of an element that says more about the choice (read after the group's name).
    pub described_by: Option<&'static str>,
    /// Per option: what the reader's other choices leave it without (a framework the selected
    /// release ships no runtime for), shown on the radio and read as part of its name, so
    /// keyboard and screen-reader users meet it before they pick. The option stays selectable
    /// (not `aria-disabled`): picking it shows what to do instead.
    pub marks: Vec<Option<AttrValue>>,
}

fn next_index(key: &str, current: usize, len: usize) -> Option<usize> {
    match key {
        "ArrowRight" | "ArrowDown" => Some((current + 1) % len),
        "ArrowLeft" | "ArrowUp" => Some((current + len - 1) % len),
        "Home" => Some(0),
        "End" => Some(len - 1),
        _ => None,
    }
}

/// The group, as HTML: one radio button per option.
pub fn radio_group(props: RadioGroupProps) -> Html {
    let len = props.options.len();
    let onkeydown = {
        let on_select = props.on_select.clone();
        let selected = props.selected;
        Callback::from(move |e: KeyboardEvent| {
            let target = e.target_dyn_into::<web_sys::Element>();
            let group = target.as_ref().and_then(|t| t.parent_element());
            // Step from the radio that has focus, as native radios do, not from `selected`: a
            // second key pressed before this render lands (a fast typist, a busy phone) would
            // step from the stale selection and undo the first.
            let focused = |(group, target): (&web_sys::Element, &web_sys::Element)| {
                let radios = group.children();
                (0..radios.length()).find(|&i| radios.item(i).as_ref() == Some(target))
            };
            let current = group.as_ref().zip(target.as_ref()).and_then(focused).map_or(selected, |i| i as usize);
            let Some(next) = next_index(&e.key(), current, len) else { return };
            e.prevent_default();
            on_select.emit(next);
            // Move focus with the selection, as native radio buttons do.
            let button = group
                .and_then(|group| group.children().item(next as u32))
                // A radio of this group, so no `instanceof` check (browser::detail_text says why).
                .map(|el| el.unchecked_into::<web_sys::HtmlElement>());
            if let Some(button) = button {
                let _ = button.focus();
            }
        })
    };
    // Pushed into a `Vec<Html>`, as the panes' lists are (`pane`).
    let mut buttons = Vec::new();
    for (i, (value, label)) in props.options.iter().enumerate() {
        let checked = i == props.selected;
        let onclick = props.on_select.reform(move |_: MouseEvent| i);
        let mark = props.marks.get(i).cloned().flatten();
        buttons.push(html! {
            <button type="button" role="radio" aria-checked={if checked { "true" } else { "false" }}
                tabindex={if checked { "0" } else { "-1" }} data-value={*value} {onclick}
                ~className={if mark.is_some() { "lacks" } else { "" }}>
                // Only the name is struck: a strike drawn across the whole button ran
                // through the space before the mark too.
                if let Some(mark) = mark {
                    <span class="name">{ *label }</span>{ " " }<small class="mark">{ mark }</small>
                } else {
                    { *label }
                }
            </button>
        });
    }
    html! {
        <div role="radiogroup" aria-label={props.label} aria-describedby={props.described_by} ~className={class_list(&[Some("radios"), Some(props.class)])} {onkeydown}>
            { for buttons }
        </div>
    }
}

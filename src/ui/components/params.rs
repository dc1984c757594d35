//! The parameter fields. Each shows its own inline message; a refused value never reaches the
//! snippets, which keep the last valid one. What the fields the V2 pane does not take shape
//! instead is one note above them.

use super::class_list;
use explorer_core::model::vecmap::VecMap;
use explorer_core::selection::{ParamKey, MAX_GPUS, MAX_NODES, MAX_PROCS};
use explorer_data::catalog::{Framework, LlmModel};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A plain function of these, not a component (as `radio_group`): no state of its own.
pub struct ParamsProps {
    /// The framework chosen: which fields apply.
    pub framework: Framework,
    /// What the reader typed, per field.
    pub inputs: VecMap<ParamKey, String>,
    /// Why a field's value was refused, per field.
    pub errors: VecMap<ParamKey, String>,
    /// What a field's accepted value may not do, per field (a warning under it).
    pub warnings: Vec<(ParamKey, String)>,
    /// The fields the V2 pane does not take for this persona (`snippets::v2_pane_takes`): each is
    /// described by `note`, which says once, above the fields, what they shape instead.
    pub not_in_v2: Vec<ParamKey>,
    /// What the fields in `not_in_v2` shape instead, said once above the fields.
    pub note: Option<String>,
    /// A field was edited: its key and text.
    pub on_edit: Callback<(ParamKey, String)>,
}

fn placeholder(key: ParamKey) -> String {
    match key {
        ParamKey::Name => "per framework".into(),
        ParamKey::Namespace => "current context".into(),
        ParamKey::Nodes => format!("2 (1–{MAX_NODES})"),
        ParamKey::Gpus => format!("0–{MAX_GPUS}, 0 = CPU"),
        ParamKey::Procs => format!("auto (1–{MAX_PROCS})"),
        ParamKey::Image => "the runtime's image".into(),
        ParamKey::Queue => "none".into(),
        ParamKey::Model => String::new(),
        ParamKey::Dataset => "hf://tatsu-lab/alpaca/data".into(),
    }
}

fn is_numeric(key: ParamKey) -> bool {
    matches!(key, ParamKey::Nodes | ParamKey::Gpus | ParamKey::Procs)
}

/// The parameter fields, as HTML.
pub fn params(props: ParamsProps) -> Html {
    // Pushed into a `Vec<Html>`, as the panes' lists are (`pane`).
    let mut fields = Vec::new();
    for key in ParamKey::ALL.into_iter().filter(|k| k.applies_to(props.framework)) {
        let id = format!("p-{}", key.id());
        let msg_id = format!("{id}-msg");
        let message = props
            .errors
            .get(&key)
            .cloned()
            .or_else(|| props.warnings.iter().find(|(k, _)| *k == key).map(|(_, m)| m.clone()));
        // A field's own message first; else the note above the fields, if it is about this one.
        let described_by = if message.is_some() {
            Some(AttrValue::from(msg_id.clone()))
        } else {
            (props.note.is_some() && props.not_in_v2.contains(&key)).then_some(AttrValue::Static("p-note"))
        };
        let invalid = props.errors.contains_key(&key);
        let value = props.inputs.get(&key).cloned().unwrap_or_default();
        let on_edit = props.on_edit.clone();
        let control = if key == ParamKey::Model {
            let onchange = Callback::from(move |e: Event| {
                // The target is this select, so no `instanceof` check (browser::detail_text says why).
                if let Some(sel) = e.target().map(|t| t.unchecked_into::<web_sys::HtmlSelectElement>()) {
                    on_edit.emit((key, sel.value()));
                }
            });
            let current = if value.is_empty() { LlmModel::Llama32_1b.id().to_string() } else { value };
            let mut models = Vec::new();
            for m in &LlmModel::ALL {
                models.push(html! { <option value={m.id()} selected={m.id() == current}>{ m.label() }</option> });
            }
            html! {
                <select id={id.clone()} {onchange} aria-describedby={described_by}>
                    { for models }
                </select>
            }
        } else {
            let oninput = Callback::from(move |e: InputEvent| {
                // The target is this input, as above.
                if let Some(input) = e.target().map(|t| t.unchecked_into::<web_sys::HtmlInputElement>()) {
                    on_edit.emit((key, input.value()));
                }
            });
            html! {
                <input id={id.clone()} type="text" {value} {oninput}
                    inputmode={if is_numeric(key) { "numeric" } else { "text" }}
                    spellcheck="false" autocomplete="off"
                    placeholder={placeholder(key)}
                    aria-invalid={if invalid { "true" } else { "false" }}
                    aria-describedby={described_by} />
            }
        };
        fields.push(html! {
            <div ~className={class_list(&[Some("field"), invalid.then_some("invalid")])}>
                <label for={id}>{ key.label() }</label>
                { control }
                if let Some(m) = message {
                    <span id={msg_id} ~className={if invalid { "msg error" } else { "msg warn" }}>{ m }</span>
                }
            </div>
        });
    }
    html! {
        <div class="params">
            if let Some(note) = &props.note {
                <p id="p-note" class="msg note params-note">{ note }</p>
            }
            { for fields }
        </div>
    }
}

//! The explorer's switches, as markup: the view and the Trainer release above both views, the
//! persona and framework, and the runtime scope. Plain functions, as `lazy_pane` is: each draws
//! what the explorer hands it and owns no state.

use super::radio_group::{radio_group, RadioGroupProps};
use crate::ui::hooks::Handlers;
use explorer_core::plain_ml;
use explorer_core::selection::{Mode, RuntimeScope, Selection};
use explorer_data::catalog::{Framework, Persona, V2Support};
use explorer_data::releases::RELEASES;
use yew::prelude::*;

/// The view (compare or migrate) and the reader's cluster's release: they apply to both views,
/// so they sit above them. `release_note` says whether the last release switch changed the code.
pub(crate) fn view_and_release(sel: &Selection, release_note: Option<String>, handlers: &Handlers) -> Html {
    let release_idx = RELEASES.iter().position(|r| r.line == sel.release.line).unwrap_or(RELEASES.len() - 1);
    // The lists here are pushed in loops, not collected from iterators: each `map(..).collect()`
    // compiled the standard library's collecting code once more for its own iterator type.
    let mut releases = Vec::new();
    for r in RELEASES {
        releases.push((r.line, r.line));
    }
    html! {
        <>
            { control("View", radio_group(RadioGroupProps { label: "View", options: vec![("compare", "Compare V1 and V2"), ("migrate", "Migrate a V1 job")],
                selected: usize::from(sel.mode == Mode::Migrate), on_select: handlers.mode.clone(), class: "mode", ..Default::default() })) }
            // The reader's cluster: it applies to both views, so it sits above them.
            { control("Trainer", html! {
                <>
                    { radio_group(RadioGroupProps { label: "Trainer release", options: releases, selected: release_idx,
                        on_select: handlers.release.clone(), class: "release", described_by: Some("release-pairs"), ..Default::default() }) }
                    <span id="release-pairs" class="pairs">
                        { format!("{}, SDK {}", sel.release.tag, sel.release.sdk_label()) }
                    </span>
                    // Where the reader just clicked. Always in the page, so the change is read out
                    // (a live region, not a second role=status: the copy announcements own that).
                    <span class="pairs release-note" aria-live="polite">{ release_note }</span>
                </>
            }) }
        </>
    }
}

/// Who the reader is and what they train with.
pub(crate) fn persona_and_framework(sel: &Selection, handlers: &Handlers) -> Html {
    let persona_idx = Persona::ALL.iter().position(|p| *p == sel.persona).unwrap_or(0);
    let framework_idx = Framework::ALL.iter().position(|f| *f == sel.framework).unwrap_or(0);
    // Pushed in loops, not collected (see `view_and_release`).
    let mut personas = Vec::new();
    for p in &Persona::ALL {
        personas.push((p.id(), p.label()));
    }
    let mut frameworks = Vec::new();
    // Marked before the pick: the frameworks the selected release ships no runtime for (the
    // release's own list of built-ins says which).
    let lacking = AttrValue::from(format!("not in {}", sel.release.line));
    let mut framework_marks = Vec::new();
    for f in &Framework::ALL {
        frameworks.push((f.id(), f.label()));
        framework_marks.push((f.v2_support_in(&sel.release) == V2Support::Unsupported).then(|| lacking.clone()));
    }
    html! {
        <>
            { control("I am a", radio_group(RadioGroupProps { label: "Persona", options: personas, selected: persona_idx, on_select: handlers.persona.clone(), class: "persona", ..Default::default() })) }
            { control("Framework", radio_group(RadioGroupProps { label: "Framework", options: frameworks, selected: framework_idx, on_select: handlers.framework.clone(), class: "framework",
                marks: framework_marks, ..Default::default() })) }
        </>
    }
}

/// Where the platform engineer's runtime lives: a switch, or the one kind a runtime generated for
/// the job can have.
pub(crate) fn runtime_scope(sel: &Selection, handlers: &Handlers) -> Html {
    let mut scopes = Vec::new();
    for s in &SCOPES {
        scopes.push((s.id(), scope_label(*s)));
    }
    // A runtime generated for the job has one kind: the switch would change nothing, so the kind
    // shows with the reason instead.
    let switch = if sel.v2_support() == V2Support::GeneratedRuntime {
        html! {
            <>
                <span class="scope-fixed">
                    <span class="sr-only">{ "Runtime scope: " }</span>
                    <strong>{ scope_label(plain_ml::RUNTIME_SCOPE) }</strong>
                </span>
                <span class="pairs scope-reason">{ format!("The only kind here: {}.", plain_ml::RUNTIME_SCOPE_REASON) }</span>
            </>
        }
    } else {
        radio_group(RadioGroupProps {
            label: "Runtime scope",
            options: scopes,
            selected: usize::from(sel.scope == RuntimeScope::Namespaced),
            on_select: handlers.scope.clone(),
            class: "scope",
            ..Default::default()
        })
    };
    control("Runtime", switch)
}

/// One labelled control: its visible label (hidden from screen readers, which read the switch's
/// own name) and the switch. One function for the five, so the wasm holds this markup's code once.
fn control(label: &'static str, switch: Html) -> Html {
    html! {
        <div class="control">
            <span class="control-label" aria-hidden="true">{ label }</span>
            { switch }
        </div>
    }
}

/// The runtime scopes in the switch's order (its index is the `Action::Scope` handler's).
pub(crate) const SCOPES: [RuntimeScope; 2] = [RuntimeScope::Cluster, RuntimeScope::Namespaced];

/// A scope as the switch names it.
fn scope_label(scope: RuntimeScope) -> &'static str {
    match scope {
        RuntimeScope::Cluster => "ClusterTrainingRuntime",
        RuntimeScope::Namespaced => "TrainingRuntime (one namespace)",
    }
}

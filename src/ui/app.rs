//! The explorer: one instance per mount point.

use super::browser;
use super::components::class_list;
use super::components::lazy_pane::lazy_pane;
use super::components::migrate::{migrate_view, use_migrate};
use super::components::pane::{pane, PaneProps};
use super::components::params::{params, ParamsProps};
use super::components::radio_group::{radio_group, RadioGroupProps};
use super::state::{Action, State};
use crate::ui::prepare::{IdleChain, PreparedStore};
use crate::ui::recent::kept_or_made;
use explorer_core::plain_ml;
use explorer_core::query::SyncSet;
use explorer_core::selection::{Mode, ParamKey, RuntimeScope, Selection};
use explorer_core::snippets::{fields_elsewhere_note, render, v2_pane_takes, View};
use explorer_data::catalog::{Framework, Persona, V2Support};
use explorer_data::releases::RELEASES;
use explorer_html::highlight::LongLines;
use gloo::events::EventListener;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ExplorerProps {
    pub initial: Selection,
    pub sync: SyncSet,
    pub instance: u32,
    /// Presets in the post hide the parameter fields.
    pub compact: bool,
    /// `light` or `dark` when the mount point pins the theme (`data-theme`); `None` follows the page.
    pub pinned_theme: Option<&'static str>,
    /// The element the explorer lives in: its options arrive there, its selection leaves there.
    pub host: web_sys::Element,
    /// Our shadow root: scratch space for the copy fallback.
    pub scratch: web_sys::Node,
}

/// The pinned theme when there is one; else follows the host page's theme switch (`data-theme`,
/// `dark-theme`) and, where the page sets none, the reader's `prefers-color-scheme`, as either
/// changes.
#[hook]
fn use_theme(pinned: Option<&'static str>) -> &'static str {
    let theme = use_state(browser::theme);
    {
        let theme = theme.clone();
        use_effect_with((), move |_| {
            let update = Closure::<dyn Fn()>::new(move || theme.set(browser::theme()));
            let window = web_sys::window();
            let observer = web_sys::MutationObserver::new(update.as_ref().unchecked_ref()).ok();
            if let (Some(observer), Some(doc)) = (&observer, window.as_ref().and_then(|w| w.document())) {
                let init = web_sys::MutationObserverInit::new();
                init.set_attributes(true);
                let filter = js_sys::Array::of2(&"data-theme".into(), &"class".into());
                init.set_attribute_filter(&filter);
                if let Some(root) = doc.document_element() {
                    let _ = observer.observe_with_options(&root, &init);
                }
                if let Some(body) = doc.body() {
                    let _ = observer.observe_with_options(&body, &init);
                }
            }
            let media = window.and_then(|w| w.match_media(browser::DARK_QUERY).ok().flatten());
            if let Some(m) = &media {
                let _ = m.add_event_listener_with_callback("change", update.as_ref().unchecked_ref());
            }
            move || {
                if let Some(o) = observer {
                    o.disconnect();
                }
                if let Some(m) = media {
                    let _ = m.remove_event_listener_with_callback("change", update.as_ref().unchecked_ref());
                }
                drop(update);
            }
        });
    }
    pinned.unwrap_or(*theme)
}

/// What the controls call. Made once per explorer (the dispatcher and the setter never change),
/// so they are the same on every render and a control or pane whose props did not change is not
/// rendered again on a toggle.
struct Handlers {
    persona: Callback<usize>,
    framework: Callback<usize>,
    scope: Callback<usize>,
    mode: Callback<usize>,
    release: Callback<usize>,
    edit: Callback<(ParamKey, String)>,
    announce: Callback<String>,
    /// Keeps what the reader typed or pasted into migrate mode while the view is Compare.
    keep_pasted: Callback<String>,
    /// "Wrap long lines" checked or unchecked.
    flip_long_lines: Callback<Event>,
}

#[hook]
fn use_handlers(
    d: UseReducerDispatcher<State>,
    status: UseStateSetter<String>,
    pasted: Rc<RefCell<Option<String>>>,
) -> Rc<Handlers> {
    use_memo((), move |_| {
        let on = |d: &UseReducerDispatcher<State>, action: fn(usize) -> Action| {
            let d = d.clone();
            Callback::from(move |i: usize| d.dispatch(action(i)))
        };
        Handlers {
            persona: on(&d, |i| Action::Persona(Persona::ALL[i])),
            framework: on(&d, |i| Action::Framework(Framework::ALL[i])),
            scope: on(&d, |i| Action::Scope(SCOPES[i])),
            mode: on(&d, |i| Action::Mode(if i == 0 { Mode::Compare } else { Mode::Migrate })),
            release: on(&d, |i| Action::Release(RELEASES[i])),
            flip_long_lines: {
                let d = d.clone();
                Callback::from(move |_: Event| d.dispatch(Action::FlipLongLines))
            },
            edit: Callback::from(move |(key, raw)| d.dispatch(Action::Param(key, raw))),
            announce: Callback::from(move |msg| status.set(msg)),
            keep_pasted: Callback::from(move |text| *pasted.borrow_mut() = Some(text)),
        }
    })
}

/// How many selections' views an explorer keeps (`recent`).
const KEPT_VIEWS: usize = 4;

/// The snippets for `sel`, kept for the last few selections: a reader going back to one does not
/// wait for its snippets to be built again. A selection one click from the last one was usually
/// prepared while the reader read (ui::prepare): going on to it does not wait either.
#[hook]
fn use_view(sel: &Selection, prepared: &PreparedStore) -> (Rc<View>, Rc<RefCell<KeptViews>>) {
    let kept = use_mut_ref(Vec::new);
    let view = kept_or_made(&mut kept.borrow_mut(), sel.clone(), KEPT_VIEWS, |sel| {
        let ready = prepared.0.borrow_mut().take_view(sel);
        ready.unwrap_or_else(|| Rc::new(render(sel)))
    });
    (view, kept)
}

type KeptViews = Vec<(Selection, Rc<View>)>;

/// After the reader switched the Trainer release and nothing else: whether the V2 pane's code
/// stayed the same, said in words (a pane that looks the same could be a render that never
/// came). From the kept views: the newest is on screen, the one before it was shown last, so the
/// note stays until the reader changes something else.
fn release_note(kept: &KeptViews) -> Option<String> {
    let [(now, view), (before, earlier), ..] = kept.as_slice() else { return None };
    let only_the_release = Selection { release: before.release, ..now.clone() } == *before;
    (only_the_release && now.mode == Mode::Compare && view.v2.same_code(&earlier.v2))
        .then(|| format!("No change for this job from {} to {}.", before.release.line, now.release.line))
}

#[component]
pub fn Explorer(props: &ExplorerProps) -> Html {
    let state = use_reducer(|| {
        let mut state = State::new(props.initial.clone());
        // A phone's box shows about 40 characters: a line cut there hides a call's arguments
        // (`trainer=CustomTrainer(func=train, n…`), so phones start with long lines wrapped.
        if browser::narrow() {
            state.long_lines = LongLines::Wrap;
        }
        state
    });
    let sel = state.selection.clone();
    let prepared = PreparedStore(use_mut_ref(Default::default));
    let (view, kept_views) = use_view(&sel, &prepared);
    let release_note = release_note(&kept_views.borrow());
    let status = use_state(String::new);
    let theme_class = use_theme(props.pinned_theme);
    // "Wrap long lines" is state (State::long_lines), not a checkbox the stylesheet reads: only a
    // wrapping box needs the elements that hang a wrapped line under its indent, and every
    // element costs a toggle.
    let long_lines = state.long_lines;

    // Publish the reader's own changes (and the host page's options): the host, URL, storage, and
    // the other instances. Then prepare what
    // is one click away (ui::prepare), for code boxes as they show long lines now: only once the
    // reader has changed something here, so instances nobody touches do no work. (A flip of "Wrap
    // long lines" alone prepares nothing: the next selection prepares for it.)
    {
        let (sel, sync, instance, all_controls) = (sel.clone(), props.sync, props.instance, !props.compact);
        let prepared = prepared.clone();
        use_effect_with(state.local_revision, move |rev| {
            // After the frame: the DOM update a reader waits for does not wait on history,
            // storage or the other instances. Dropping the timer (a newer change) cancels it.
            let changed = *rev > 0;
            let mut wanted =
                if changed && sel.mode == Mode::Compare { sel.one_click_away(all_controls) } else { Vec::new() };
            // A kept view is ready already.
            wanted.retain(|s| !kept_views.borrow().iter().any(|(k, _)| k == s));
            let preparing = IdleChain::start(prepared, wanted, long_lines);
            let pending = changed.then(|| {
                browser::after(0, move || {
                    browser::persist(&sel, sync);
                    browser::broadcast(instance, &sel, sync);
                })
            });
            move || drop((pending, preparing))
        });
    }
    // The host page hears of every selection its element shows, at once: the reader's change,
    // an option it set, and a choice another instance shared, which shows here too. The loader
    // turns each new one into the element's `change` event (www/element.js `announced`: the first
    // selection, which mount announces, fires none). Announcing publishes nothing, so a host that
    // answers a `change` by setting the same option again starts no loop.
    {
        let (host, sel) = (props.host.clone(), sel.clone());
        use_effect_with(state.shown_revision, move |rev| {
            // Mount announced the first selection before the first render.
            if *rev > 0 {
                browser::announce_selection(&host, &sel);
            }
        });
    }
    // Receive the other instances' changes, and the host page's: an option it changed after
    // mount (www/element.js sends the changed attributes).
    {
        let dispatcher = state.dispatcher();
        let (sync, me, host) = (props.sync, props.instance, props.host.clone());
        use_effect_with((), move |_| {
            let from_host = {
                let dispatcher = dispatcher.clone();
                EventListener::new(&host, browser::OPTIONS_EVENT, move |event| {
                    if let Some(query) = browser::options_detail(event) {
                        dispatcher.dispatch(Action::Host(query));
                    }
                })
            };
            let listener = web_sys::window().map(|w| {
                EventListener::new(&w, browser::SYNC_EVENT, move |event| {
                    if let Some((sender, query)) = browser::parse_sync_detail(event) {
                        if sender != me {
                            dispatcher.dispatch(Action::External(query, sync));
                        }
                    }
                })
            });
            move || drop((listener, from_host))
        });
    }

    let pasted = use_mut_ref(|| None::<String>);
    let handlers = use_handlers(state.dispatcher(), status.setter(), pasted.clone());
    // Migrate mode's text: what the reader typed or pasted there, else the selection's V1 job.
    let migrating = sel.mode == Mode::Migrate && !props.compact;
    let migrate_text = if migrating {
        pasted.borrow().clone().unwrap_or_else(|| view.v1.snippets.first().map(|s| s.code.clone()).unwrap_or_default())
    } else {
        String::new()
    };
    let migrate_stage = use_migrate(migrating, migrate_text.clone(), sel.release);
    let wrap = long_lines == LongLines::Wrap;
    // One switch for every box of long lines: the panes, migrate mode's and "What Kubernetes runs".
    let wrap_toggle = html! {
        <label class="wrap-toggle"><input type="checkbox" checked={wrap} onchange={handlers.flip_long_lines.clone()} />{ "Wrap long lines" }</label>
    };
    let persona_idx = Persona::ALL.iter().position(|p| *p == sel.persona).unwrap_or(0);
    let framework_idx = Framework::ALL.iter().position(|f| *f == sel.framework).unwrap_or(0);
    // The lists below are pushed in loops, not collected from iterators: each `map(..).collect()`
    // compiled the standard library's collecting code once more for its own iterator type.
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
    let release_idx = RELEASES.iter().position(|r| r.line == sel.release.line).unwrap_or(RELEASES.len() - 1);
    let mut releases = Vec::new();
    for r in RELEASES {
        releases.push((r.line, r.line));
    }
    let mut scopes = Vec::new();
    for s in &SCOPES {
        scopes.push((s.id(), scope_label(*s)));
    }
    let has_runtime = sel.v2_support() != V2Support::Unsupported;
    // "What Kubernetes runs" also answers for a framework that only a newer release ships: the
    // reader sees this release's webhook refuse the TrainJob they would copy from that release.
    let explainable = sel.framework.v2_support() != V2Support::Unsupported;
    // The upgrade notes need YAML at the selected release and a release older than it.
    let upgradable = has_runtime && sel.release != RELEASES[0];
    let pane_query = explorer_core::query::to_query(&sel, SyncSet::ALL);
    let mut warnings = Vec::new();
    for w in sel.warnings() {
        warnings.push((w.key, w.message));
    }
    // A field the reader is fixing: the panes still show its last valid value.
    let stale = state.errors.keys().any(|k| k.applies_to(sel.framework));
    // The fields this persona's V2 pane does not take, and what they shape instead.
    let fields_note = fields_elsewhere_note(&sel);
    let mut not_in_v2 = Vec::new();
    for key in ParamKey::ALL {
        if !v2_pane_takes(&sel, key) {
            not_in_v2.push(key);
        }
    }

    html! {
        <div ~className={class_list(&[Some("tv2x"), Some(theme_class), props.compact.then_some("compact"), wrap.then_some("wrap")])}>
            if !props.compact {
                <div class="control">
                    <span class="control-label" aria-hidden="true">{ "View" }</span>
                    { radio_group(RadioGroupProps { label: "View", options: vec![("compare", "Compare V1 and V2"), ("migrate", "Migrate a V1 job")],
                        selected: usize::from(sel.mode == Mode::Migrate), on_select: handlers.mode.clone(), class: "mode", ..Default::default() }) }
                </div>
                // The reader's cluster: it applies to both views, so it sits above them.
                <div class="control">
                    <span class="control-label" aria-hidden="true">{ "Trainer" }</span>
                    { radio_group(RadioGroupProps { label: "Trainer release", options: releases, selected: release_idx,
                        on_select: handlers.release.clone(), class: "release", described_by: Some("release-pairs"), ..Default::default() }) }
                    <span id="release-pairs" class="pairs">
                        { format!("{}, SDK {}", sel.release.tag, sel.release.sdk_label()) }
                    </span>
                    // Where the reader just clicked. Always in the page, so the change is read out
                    // (a live region, not a second role=status: the copy announcements own that).
                    <span class="pairs release-note" aria-live="polite">{ release_note }</span>
                </div>
            }
            if migrating {
                { wrap_toggle.clone() }
                { migrate_view(&migrate_stage, migrate_text, handlers.keep_pasted.clone()) }
            } else {
            <div class="controls">
                <div class="control">
                    <span class="control-label" aria-hidden="true">{ "I am a" }</span>
                    { radio_group(RadioGroupProps { label: "Persona", options: personas, selected: persona_idx, on_select: handlers.persona.clone(), class: "persona", ..Default::default() }) }
                </div>
                <div class="control">
                    <span class="control-label" aria-hidden="true">{ "Framework" }</span>
                    { radio_group(RadioGroupProps { label: "Framework", options: frameworks, selected: framework_idx, on_select: handlers.framework.clone(), class: "framework",
                        marks: framework_marks, ..Default::default() }) }
                </div>
                if !props.compact {
                    if has_runtime {
                        <div class="control">
                            <span class="control-label" aria-hidden="true">{ "Runtime" }</span>
                            // A runtime generated for the job has one kind: the switch would change
                            // nothing, so the kind shows with the reason instead.
                            if sel.v2_support() == V2Support::GeneratedRuntime {
                                <span class="scope-fixed">
                                    <span class="sr-only">{ "Runtime scope: " }</span>
                                    <strong>{ scope_label(plain_ml::RUNTIME_SCOPE) }</strong>
                                </span>
                                <span class="pairs scope-reason">{ format!("The only kind here: {}.", plain_ml::RUNTIME_SCOPE_REASON) }</span>
                            } else {
                                { radio_group(RadioGroupProps { label: "Runtime scope",
                                    options: scopes,
                                    selected: usize::from(sel.scope == RuntimeScope::Namespaced), on_select: handlers.scope.clone(), class: "scope", ..Default::default() }) }
                            }
                        </div>
                    }
                    { params(ParamsProps { framework: sel.framework, inputs: state.inputs.clone(), errors: state.errors.clone(),
                        warnings, not_in_v2, note: fields_note, on_edit: handlers.edit.clone() }) }
                }
            </div>
            <p class="summary">{ &view.summary }</p>
            // Above the panes, where the reader meets the first highlighted line.
            <div class="legend">
                <span class="swatch" aria-hidden="true"></span>
                <span class="legend-text">{ "Highlighted V1 lines: infrastructure that a V2 runtime now owns." }</span>
                { wrap_toggle.clone() }
            </div>
            if stale {
                <p class="panes-stale" role="status">
                    { "Not updated: fix the field marked in red. Until then the panes show its last valid value, and Copy is off." }
                </p>
            }
            <div ~className={class_list(&[Some("panes"), stale.then_some("stale")])}>
                { pane(PaneProps { pane: &view.v2, long_lines, prepared: prepared.clone(), scratch: props.scratch.clone(), on_announce: handlers.announce.clone(), stale }) }
                { pane(PaneProps { pane: &view.v1, long_lines, prepared, scratch: props.scratch.clone(), on_announce: handlers.announce.clone(), stale }) }
            </div>
            // Not in the post's compact presets: their sections embed their own (post/, later).
            if explainable && !props.compact {
                { lazy_pane("explain", "k8s-pane", "What Kubernetes runs", pane_query.clone(), wrap_toggle) }
            }
            if upgradable && !props.compact {
                { lazy_pane("upgrade", "upgrade-pane", "Upgrading from an older release", pane_query, html! {}) }
            }
            }
            <div class="sr-only" aria-live="polite" role="status">{ (*status).clone() }</div>
        </div>
    }
}

/// The runtime scopes in the switch's order (its index is the `Action::Scope` handler's).
const SCOPES: [RuntimeScope; 2] = [RuntimeScope::Cluster, RuntimeScope::Namespaced];

/// A scope as the switch names it.
fn scope_label(scope: RuntimeScope) -> &'static str {
    match scope {
        RuntimeScope::Cluster => "ClusterTrainingRuntime",
        RuntimeScope::Namespaced => "TrainingRuntime (one namespace)",
    }
}

//! The explorer: one instance per mount point. Its hooks are in `hooks`, its switches' markup
//! in `components::controls`; this is its state, its effects and how the pieces are laid out.

use super::browser;
use super::components::class_list;
use super::components::controls;
use super::components::lazy_pane::lazy_pane;
use super::components::migrate::{migrate_view, use_migrate};
use super::components::pane::{pane, PaneProps};
use super::components::params::{params, ParamsProps};
use super::hooks::{release_note, use_handlers, use_keyed_effect, use_theme, view_for, MOUNTED};
use super::inbox::Inbox;
use super::state::State;
use super::unpersisted;
use crate::ui::prepare::IdleChain;
use explorer_core::query::{self, SyncSet};
use explorer_core::selection::{Mode, ParamKey, Selection};
use explorer_core::snippets::{fields_elsewhere_note, v2_pane_takes};
use explorer_data::catalog::V2Support;
use explorer_data::releases::RELEASES;
use explorer_html::highlight::LongLines;
use yew::prelude::*;

/// What a mount point gives the explorer: its starting selection, what it shares, and its page.
#[derive(Properties, PartialEq)]
pub struct ExplorerProps {
    /// The selection it starts with (the mount's `data-*` attributes, the URL, the stored one).
    pub initial: Selection,
    /// What this instance shares with the others on the page and the URL.
    pub sync: SyncSet,
    /// Its number on the page: its sync events carry it, so it ignores its own.
    pub instance: u32,
    /// Presets in the post hide the parameter fields.
    pub compact: bool,
    /// `light` or `dark` when the mount point pins the theme (`data-theme`); `None` follows the page.
    pub pinned_theme: Option<&'static str>,
    /// The host page's option changes and the other instances' choices, heard since mount.
    pub(crate) inbox: Inbox,
    /// The element the explorer lives in: its options arrive there, its selection leaves there.
    pub host: web_sys::Element,
    /// Our shadow root: scratch space for the copy fallback.
    pub scratch: web_sys::Node,
}

/// The explorer: the switches, the parameter fields and the V1/V2 panes, or migrate mode.
#[component]
pub fn Explorer(props: &ExplorerProps) -> Html {
    let handlers = use_handlers(|| {
        let mut state = State::new(props.initial.clone());
        // A phone's box shows about 40 characters: a line cut there hides a call's arguments
        // (`trainer=CustomTrainer(func=train, n…`), so phones start with long lines wrapped.
        if browser::narrow() {
            state.long_lines = LongLines::Wrap;
        }
        state
    });
    let state = handlers.store.current();
    let sel = state.selection.clone();
    let prepared = handlers.prepared.clone();
    let kept_views = handlers.kept_views.clone();
    let view = view_for(&sel, &kept_views, &prepared);
    let release_note = release_note(&kept_views.borrow());
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
        use_keyed_effect(state.local_revision, move |rev| {
            // After the frame: the DOM update a reader waits for does not wait on history,
            // storage or the other instances; history and storage wait longer still
            // (browser::PERSIST_MS). Dropping the timers (a newer change) cancels them.
            let changed = rev > 0;
            let mut wanted =
                if changed && sel.mode == Mode::Compare { sel.one_click_away(all_controls) } else { Vec::new() };
            // A kept view is ready already.
            wanted.retain(|s| !kept_views.borrow().iter().any(|(k, _)| k == s));
            let preparing = IdleChain::start(prepared, wanted, long_lines);
            let pending = changed.then(|| {
                let shared = query::sync_query(&sel, sync);
                // Until the page holds it, an instance mounted now starts with it.
                unpersisted::keep(instance, shared.clone());
                (
                    browser::after(0, move || browser::broadcast(instance, &shared)),
                    browser::after(browser::PERSIST_MS, move || {
                        if browser::persist(&sel, sync) {
                            unpersisted::forget(instance);
                        }
                    }),
                )
            });
            Box::new(move || drop((pending, preparing)))
        });
    }
    // The host page hears of every selection its element shows, at once: the reader's change,
    // an option it set, and a choice another instance shared, which shows here too. The loader
    // turns each new one into the element's `change` event (www/element.js `announced`: the first
    // selection, which mount announces, fires none). Announcing publishes nothing, so a host that
    // answers a `change` by setting the same option again starts no loop.
    {
        let (host, sel) = (props.host.clone(), sel.clone());
        use_keyed_effect(state.shown_revision, move |rev| {
            // Mount announced the first selection before the first render.
            if rev > 0 {
                browser::announce_selection(&host, &sel);
            }
            Box::new(|| ())
        });
    }
    // Receive the other instances' changes, and the host page's: an option it changed after
    // mount (www/element.js sends the changed attributes). The inbox has listened since mount and
    // held what came before this first effect (ui::inbox).
    {
        let (store, inbox) = (handlers.store.clone(), props.inbox.clone());
        use_keyed_effect(MOUNTED, move |_| {
            inbox.deliver_to(store);
            Box::new(move || inbox.hold())
        });
    }

    // Migrate mode's text: what the reader typed or pasted there, else the selection's V1 job.
    let migrating = sel.mode == Mode::Migrate && !props.compact;
    let migrate_text = if migrating {
        handlers
            .pasted
            .borrow()
            .clone()
            .unwrap_or_else(|| view.v1.snippets.first().map(|s| s.code.clone()).unwrap_or_default())
    } else {
        String::new()
    };
    let conversion = use_migrate(&handlers.conversion, migrating, migrate_text.clone(), sel.release);
    // Migrate mode shows no code blocks: what they kept goes, as it did when each was a component
    // and migrate mode unmounted it (a block shown again starts with its label at "Copy").
    if migrating {
        handlers.v2_blocks.last_first(0);
        handlers.v1_blocks.last_first(0);
    }
    let wrap = long_lines == LongLines::Wrap;
    // One switch for every box of long lines: the panes, migrate mode's and "What Kubernetes runs".
    let wrap_toggle = html! {
        <label class="wrap-toggle"><input type="checkbox" checked={wrap} onchange={handlers.flip_long_lines.clone()} />{ "Wrap long lines" }</label>
    };
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
                { controls::view_and_release(&sel, release_note, &handlers) }
            }
            if migrating {
                { wrap_toggle.clone() }
                { migrate_view(&conversion, migrate_text, handlers.keep_pasted.clone()) }
            } else {
            <div class="controls">
                { controls::persona_and_framework(&sel, &handlers) }
                if !props.compact {
                    if has_runtime {
                        { controls::runtime_scope(&sel, &handlers) }
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
                { pane(PaneProps { pane: &view.v2, blocks: &handlers.v2_blocks, redraw: &handlers.redraw, long_lines, prepared: prepared.clone(),
                    scratch: props.scratch.clone(), on_announce: handlers.announce.clone(), stale }) }
                { pane(PaneProps { pane: &view.v1, blocks: &handlers.v1_blocks, redraw: &handlers.redraw, long_lines, prepared,
                    scratch: props.scratch.clone(), on_announce: handlers.announce.clone(), stale }) }
            </div>
            // Not in the post's compact presets: their sections embed their own (post/, later).
            if explainable && !props.compact {
                { lazy_pane("explain", "k8s-pane", "What Kubernetes runs", pane_query.clone(), wrap_toggle) }
            }
            if upgradable && !props.compact {
                { lazy_pane("upgrade", "upgrade-pane", "Upgrading from an older release", pane_query, html! {}) }
            }
            }
            <div class="sr-only" aria-live="polite" role="status">{ state.status.clone() }</div>
        </div>
    }
}

//! The explorer's hooks (after yew's hooks.rs): its theme, the handlers its controls call, and
//! the views it keeps.

use super::browser;
use super::components::code_block::Blocks;
use super::components::controls::SCOPES;
use super::components::migrate::Conversion;
use super::state::{Action, State};
use crate::ui::prepare::PreparedStore;
use crate::ui::recent::kept_or_made;
use explorer_core::selection::{Mode, ParamKey, Selection};
use explorer_core::snippets::{render, View};
use explorer_data::catalog::{Framework, Persona};
use explorer_data::releases::RELEASES;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The pinned theme when there is one; else follows the host page's theme switch (`data-theme`,
/// `dark-theme`) and, where the page sets none, the reader's `prefers-color-scheme`, as either
/// changes.
///
/// The theme is read from the page at each render, and a change of either renders again: no
/// state hook holds it, since each state type brought its own copy of yew's state hook code into
/// the wasm (`use_force_update` has no state, so it has no such copy).
#[hook]
pub(crate) fn use_theme(pinned: Option<&'static str>) -> &'static str {
    let shown = pinned.unwrap_or_else(browser::theme);
    let redraw = use_force_update();
    use_keyed_effect(MOUNTED, move |_| {
        // The page is watched from the first effect on, which on a loaded machine runs well after
        // the first render (Yew renders every pending first render before any effect): a theme
        // switched in between would be missed until the next switch.
        if pinned.is_none() && browser::theme() != shown {
            redraw.force_update();
        }
        let update = Closure::<dyn Fn()>::new(move || redraw.force_update());
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
        Box::new(move || {
            if let Some(o) = observer {
                o.disconnect();
            }
            if let Some(m) = media {
                let _ = m.remove_event_listener_with_callback("change", update.as_ref().unchecked_ref());
            }
            drop(update);
        })
    });
    shown
}

/// The explorer's state and its reducer (`State::reduce`), as yew's `use_reducer` holds them: a
/// dispatch reduces the state and renders the explorer again when the reducer returned a new
/// state (not the same `Rc`). Not `use_reducer` itself: yew's reducer hook (its handle's
/// snapshots, dispatcher and hook state) was in the wasm for this one state type, and a cell
/// (kept in `Handlers`) with `use_force_update` (which keeps no state) does the same.
#[derive(Clone)]
pub(crate) struct Store {
    state: Rc<RefCell<Rc<State>>>,
    redraw: UseForceUpdateHandle,
}

impl Store {
    /// The state now.
    pub(crate) fn current(&self) -> Rc<State> {
        self.state.borrow().clone()
    }

    /// Applies `action`; renders the explorer again if the state changed.
    pub(crate) fn dispatch(&self, action: Action) {
        let current = self.current();
        let next = current.clone().reduce(action);
        if !Rc::ptr_eq(&next, &current) {
            *self.state.borrow_mut() = next;
            self.redraw.force_update();
        }
    }
}

/// What an effect leaves behind to undo when its key changes or the explorer goes.
pub(crate) type Cleanup = Box<dyn FnOnce()>;

/// The key of an effect that runs once, when the explorer mounts (it never changes).
pub(crate) const MOUNTED: u64 = 0;

/// `use_effect_with` for the explorer's effects, each keyed by a number, through one boxed
/// closure type: yew's effect hook is compiled once per key and closure type, so each effect of
/// a type of its own brought its own copy of that code into the wasm.
/// Not a `#[hook]` itself (that would make a hook type per closure): it hands over yew's hook for
/// the one boxed type, which the calling component runs.
pub(crate) fn use_keyed_effect<F>(key: u64, effect: F) -> impl Hook<Output = ()>
where
    F: FnOnce(u64) -> Cleanup + 'static,
{
    let effect: Box<dyn FnOnce(&u64) -> Cleanup> = Box::new(move |key| effect(*key));
    use_effect_with(key, effect)
}

/// What the controls call, and what the explorer keeps between renders beside its state. Made
/// once per explorer (the dispatcher never changes), so the callbacks are the same on every
/// render. The kept cells are made here too (the code blocks', migrate mode's), not each by a
/// `use_mut_ref` of its own: each hook state type brings its own copy of yew's hook code into the
/// wasm.
pub(crate) struct Handlers {
    pub(crate) persona: Callback<usize>,
    pub(crate) framework: Callback<usize>,
    pub(crate) scope: Callback<usize>,
    pub(crate) mode: Callback<usize>,
    pub(crate) release: Callback<usize>,
    pub(crate) edit: Callback<(ParamKey, String)>,
    pub(crate) announce: Callback<String>,
    /// Keeps what the reader typed or pasted into migrate mode while the view is Compare.
    pub(crate) keep_pasted: Callback<String>,
    /// "Wrap long lines" checked or unchecked.
    pub(crate) flip_long_lines: Callback<Event>,
    /// What the reader typed or pasted into migrate mode (`keep_pasted`).
    pub(crate) pasted: Rc<RefCell<Option<String>>>,
    /// The views and code elements prepared at idle time (ui::prepare).
    pub(crate) prepared: PreparedStore,
    /// The views of the last few selections (`view_for`).
    pub(crate) kept_views: Rc<RefCell<KeptViews>>,
    /// What the V2 pane's code blocks keep between renders (their elements, their Copy labels).
    pub(crate) v2_blocks: Blocks,
    /// What the V1 pane's code blocks keep.
    pub(crate) v1_blocks: Blocks,
    /// Migrate mode's conversion (`use_migrate`).
    pub(crate) conversion: Conversion,
    /// Renders the explorer again when nothing in its state changed (a Copy label did).
    pub(crate) redraw: UseForceUpdateHandle,
    /// The explorer's state, which the callbacks above dispatch to.
    pub(crate) store: Store,
}

/// The explorer's handlers, its state starting from `initial()` on its first render.
#[hook]
pub(crate) fn use_handlers<F: FnOnce() -> State>(initial: F) -> Rc<Handlers> {
    let redraw = use_force_update();
    use_memo((), move |_| {
        let d = Store { state: Rc::new(RefCell::new(Rc::new(initial()))), redraw: redraw.clone() };
        let pasted = Rc::new(RefCell::new(None::<String>));
        let on = |d: &Store, action: fn(usize) -> Action| {
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
            edit: {
                let d = d.clone();
                Callback::from(move |(key, raw)| d.dispatch(Action::Param(key, raw)))
            },
            announce: {
                let d = d.clone();
                Callback::from(move |msg| d.dispatch(Action::Announce(msg)))
            },
            keep_pasted: {
                let pasted = pasted.clone();
                Callback::from(move |text| *pasted.borrow_mut() = Some(text))
            },
            pasted,
            prepared: PreparedStore::default(),
            kept_views: Rc::default(),
            v2_blocks: Blocks::default(),
            v1_blocks: Blocks::default(),
            conversion: Conversion::new(redraw.clone()),
            redraw,
            store: d,
        }
    })
}

/// How many selections' views an explorer keeps (`recent`).
const KEPT_VIEWS: usize = 4;

/// The snippets for `sel`, kept for the last few selections: a reader going back to one does not
/// wait for its snippets to be built again. A selection one click from the last one was usually
/// prepared while the reader read (ui::prepare): going on to it does not wait either.
pub(crate) fn view_for(sel: &Selection, kept: &RefCell<KeptViews>, prepared: &PreparedStore) -> Rc<View> {
    kept_or_made(&mut kept.borrow_mut(), sel.clone(), KEPT_VIEWS, |sel| {
        let ready = prepared.0.borrow_mut().take_view(sel);
        ready.unwrap_or_else(|| Rc::new(render(sel)))
    })
}

pub(crate) type KeptViews = Vec<(Selection, Rc<View>)>;

/// After the reader switched the Trainer release and nothing else: whether the V2 pane's code
/// stayed the same, said in words (a pane that looks the same could be a render that never
/// came). From the kept views: the newest is on screen, the one before it was shown last, so the
/// note stays until the reader changes something else.
pub(crate) fn release_note(kept: &KeptViews) -> Option<String> {
    let [(now, view), (before, earlier), ..] = kept.as_slice() else { return None };
    let only_the_release = Selection { release: before.release, ..now.clone() } == *before;
    (only_the_release && now.mode == Mode::Compare && view.v2.same_code(&earlier.v2))
        .then(|| format!("No change for this job from {} to {}.", before.release.line, now.release.line))
}

//! The widget's state and its reducer. Pure: no web-sys here, so the rules are easy to follow.
//! Side effects (URL, storage, sync events, clipboard) live in `browser.rs` and run in effects.

use explorer_core::model::vecmap::VecMap;
use explorer_core::query::{self, SyncSet};
use explorer_core::selection::{Mode, ParamKey, RuntimeScope, Selection};
use explorer_data::catalog::{Framework, Persona};
use explorer_data::releases::Release;
use explorer_html::highlight::LongLines;
use std::rc::Rc;
use yew::Reducible;

/// One explorer's state: the selection shown, the fields as typed, and its own settings.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The selection the panes show.
    pub selection: Selection,
    /// What the reader typed, per parameter, including values that did not validate.
    pub inputs: VecMap<ParamKey, String>,
    /// Why a typed value was refused. The snippets keep the last valid value meanwhile.
    pub errors: VecMap<ParamKey, String>,
    /// Bumped on every change the reader made here, so effects publish only those and never
    /// echo back a change another instance sent.
    pub local_revision: u64,
    /// Bumped on every change of the selection shown, wherever it came from (here, the host page
    /// or another instance), so the host hears of each (its element's `change` event).
    pub shown_revision: u64,
    /// "Wrap long lines": this instance's own, not part of the selection (never published).
    pub long_lines: LongLines,
    /// What the widget's live region reads out (a copy's outcome). Here rather than in a state
    /// hook of its own: each state type brings its own copy of yew's hook code into the wasm.
    pub status: String,
}

impl State {
    /// The state that shows `selection`, its fields filled from it.
    pub fn new(selection: Selection) -> Self {
        let inputs = inputs_of(&selection);
        State {
            selection,
            inputs,
            errors: VecMap::new(),
            local_revision: 0,
            shown_revision: 0,
            long_lines: LongLines::default(),
            status: String::new(),
        }
    }
}

impl State {
    /// Applies a query's options (the parts `sync` shares); the fields show the result.
    fn apply(&mut self, query: &str, sync: SyncSet) {
        let (sel, _) = query::apply(query, &self.selection, sync);
        if sel != self.selection {
            self.inputs = inputs_of(&sel);
            self.errors.clear();
            self.selection = sel;
        }
    }
}

fn inputs_of(sel: &Selection) -> VecMap<ParamKey, String> {
    // Inserted one by one, not collected: the keys are distinct, and collecting compiled the
    // map's constructor that removes repeated keys once more, for these types (wasm bytes).
    let mut inputs = VecMap::new();
    for key in ParamKey::ALL {
        if let Some(value) = sel.params.get(key) {
            inputs.insert(key, value);
        }
    }
    inputs
}

/// What changes the state: the reader's choices and another instance's news.
pub enum Action {
    /// The reader chose a persona.
    Persona(Persona),
    /// The reader chose a framework.
    Framework(Framework),
    /// The reader chose a runtime scope.
    Scope(RuntimeScope),
    /// The reader chose compare or migrate mode.
    Mode(Mode),
    /// The reader's Trainer release line.
    Release(Release),
    /// The reader typed into a field: its key and text.
    Param(ParamKey, String),
    /// A query from another instance on the page, applied to the parts this instance shares.
    External(String, SyncSet),
    /// The reader checked or unchecked "Wrap long lines".
    FlipLongLines,
    /// The host page changed an option of its element (an attribute, a property): applied as a
    /// change made here, so it is published like the reader's own.
    Host(String),
    /// Something for the live region to read out (Copy's outcome).
    Announce(String),
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::Persona(p) => next.selection.persona = p,
            Action::Framework(f) => next.selection.framework = f,
            Action::Scope(s) => next.selection.scope = s,
            Action::Mode(m) => next.selection.mode = m,
            Action::Release(r) => next.selection.release = r,
            Action::Param(key, raw) => {
                match next.selection.params.set(key, &raw) {
                    Ok(()) => {
                        next.errors.remove(&key);
                    }
                    Err(reason) => {
                        next.errors.insert(key, reason.to_string());
                    }
                }
                next.inputs.insert(key, raw);
            }
            Action::Announce(status) => {
                // Rendered even when the same words come again, as a state hook would.
                next.status = status;
                return Rc::new(next);
            }
            Action::FlipLongLines => {
                next.long_lines = match self.long_lines {
                    LongLines::Scroll => LongLines::Wrap,
                    LongLines::Wrap => LongLines::Scroll,
                };
                return Rc::new(next);
            }
            // The host's option is published as a change made here; another instance's is not
            // (it published it).
            Action::Host(query) => next.apply(&query, SyncSet::ALL),
            Action::External(query, sync) => {
                next.apply(&query, sync);
                if next.selection == self.selection {
                    return self;
                }
                next.shown_revision += 1;
                return Rc::new(next);
            }
        }
        if next.selection == self.selection && next.inputs == self.inputs && next.errors == self.errors {
            // Same Rc: the explorer does not render again (`hooks::Store`, as yew 0.23's use_reducer).
            return self;
        }
        if next.selection != self.selection {
            next.local_revision += 1;
            next.shown_revision += 1;
        }
        Rc::new(next)
    }
}

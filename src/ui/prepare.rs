//! Idle preparation. While the reader reads, the widget builds the views of the selections one
//! click away (`Selection::one_click_away`) and parses their blocks' `<code>` elements, so the
//! click that asks for one of them finds it ready: that toggle then costs what going back to a
//! kept view costs, with no snippet building, no highlighting and no HTML parsing.
//!
//! The reader must never pay for it:
//! - it starts only once the reader has changed something in this instance, so the post's
//!   presets that nobody touches do no work and the page loads as before;
//! - it runs one selection per slice (a few milliseconds, well under a frame), each in a timer
//!   task of its own, so input and frames wait for one slice at most;
//! - a new selection, an unmounted widget or a hidden page stops it (a new selection starts it
//!   again, for its own neighbours);
//! - it keeps only what is one click from the current selection: at most 13 views and the
//!   `<code>` elements of their blocks.

use explorer_core::selection::Selection;
use explorer_core::snippets::{render, Language, Snippet, View};
use explorer_html::highlight::{self, LongLines};
use gloo::timers::callback::Timeout;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

/// What a code block shows, and so what its `<code>` element is made from: the code, its
/// language, the lines marked as owned by the runtime, and whether long lines wrap.
pub type CodeKey = (String, Language, Vec<bool>, LongLines);

/// The key of what `snippet` shows with `long_lines`.
pub fn code_key(snippet: &Snippet, long_lines: LongLines) -> CodeKey {
    (snippet.code.clone(), snippet.language, snippet.owned_by_runtime.clone(), long_lines)
}

/// The `<code>` element a block shows for `key`, highlighted by the core (the same markup as the
/// page's static fallback) and parsed outside the page: one node, so a toggle swaps it with one
/// removeChild and one insertBefore.
pub fn code_element(key: &CodeKey) -> Option<web_sys::Node> {
    let (code, language, owned, long_lines) = key;
    let holder = gloo::utils::document().create_element("div").ok()?;
    holder.set_inner_html(&highlight::code_html(*language, code, owned, *long_lines));
    holder.first_child()
}

/// The views and `<code>` elements prepared for the selections one click away, for code boxes
/// that show long lines as `long_lines` says. A toggle takes what it needs out (a DOM node can
/// be in one place only).
#[derive(Default)]
pub struct Prepared {
    views: Vec<(Selection, Rc<View>)>,
    code: Vec<(CodeKey, web_sys::Node)>,
    long_lines: LongLines,
}

impl Prepared {
    /// The prepared view of `sel`, taken out of the store.
    pub fn take_view(&mut self, sel: &Selection) -> Option<Rc<View>> {
        let i = self.views.iter().position(|(s, _)| s == sel)?;
        count(|c| &c.views_taken);
        Some(self.views.swap_remove(i).1)
    }

    /// The prepared `<code>` element for `key`, taken out of the store.
    pub fn take_code(&mut self, key: &CodeKey) -> Option<web_sys::Node> {
        let i = self.code.iter().position(|(k, _)| k == key)?;
        count(|c| &c.code_taken);
        Some(self.code.swap_remove(i).1)
    }

    fn is_prepared(&self, sel: &Selection) -> bool {
        self.views.iter().any(|(s, _)| s == sel)
    }

    /// Forgets the views that are not in `wanted`, and the code elements no kept view shows
    /// with long lines as `long_lines` says. The code elements prepared from now on are for that.
    fn keep_only(&mut self, wanted: &[Selection], long_lines: LongLines) {
        self.long_lines = long_lines;
        self.views.retain(|(s, _)| wanted.contains(s));
        let views = &self.views;
        self.code.retain(|(key, _)| views.iter().any(|(_, v)| snippets(v).any(|s| shows(s, long_lines, key))));
    }

    /// Builds `sel`'s view and the code elements of its blocks that are not ready yet.
    fn prepare(&mut self, sel: Selection) {
        let view = Rc::new(render(&sel));
        for snippet in snippets(&view) {
            if !self.code.iter().any(|(key, _)| shows(snippet, self.long_lines, key)) {
                let key = code_key(snippet, self.long_lines);
                if let Some(node) = code_element(&key) {
                    self.code.push((key, node));
                }
            }
        }
        self.views.push((sel, view));
    }
}

/// Whether `snippet`, with long lines as `long_lines` says, is what `key` was made from
/// (without copying its code to find out).
fn shows(snippet: &Snippet, long_lines: LongLines, key: &CodeKey) -> bool {
    let (code, language, owned, key_long_lines) = key;
    long_lines == *key_long_lines
        && snippet.code == *code
        && snippet.language == *language
        && snippet.owned_by_runtime == *owned
}

fn snippets(view: &View) -> impl Iterator<Item = &Snippet> {
    view.v2.snippets.iter().chain(&view.v1.snippets)
}

/// The explorer's prepared views and code elements, handed down to its code blocks as a prop.
#[derive(Clone, Default)]
pub struct PreparedStore(pub Rc<RefCell<Prepared>>);

impl PartialEq for PreparedStore {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Counts for the browser tests, which check that preparation is used and that it stops.
#[derive(Default)]
struct Counts {
    slices: Cell<u32>,
    views_taken: Cell<u32>,
    code_taken: Cell<u32>,
    /// Slices scheduled and not yet run or cancelled.
    scheduled: Cell<u32>,
}

thread_local! {
    static COUNTS: Counts = Counts::default();
}

/// (slices run, prepared views taken by a toggle, prepared `<code>` elements taken), for the
/// whole page since it loaded. Debug builds only: always zeros in a release build.
pub fn counts() -> (u32, u32, u32) {
    COUNTS.with(|c| (c.slices.get(), c.views_taken.get(), c.code_taken.get()))
}

/// How many preparation slices are waiting to run on the page: 0 once every chain has finished
/// or was cancelled. Debug builds only, like [`counts`].
pub fn scheduled() -> u32 {
    COUNTS.with(|c| c.scheduled.get())
}

/// Counts one scheduled slice while it lives: made with the slice, dropped when it has run or
/// when its timer is cancelled (the closure that holds it goes with the timer).
struct Scheduled;

impl Scheduled {
    fn new() -> Scheduled {
        if cfg!(debug_assertions) {
            COUNTS.with(|c| c.scheduled.set(c.scheduled.get() + 1));
        }
        Scheduled
    }
}

impl Drop for Scheduled {
    fn drop(&mut self) {
        if cfg!(debug_assertions) {
            COUNTS.with(|c| c.scheduled.set(c.scheduled.get() - 1));
        }
    }
}

/// Where preparation is, for the browser tests (which run debug builds: the shipped widget
/// counts nothing).
fn count(counter: impl Fn(&Counts) -> &Cell<u32>) {
    if cfg!(debug_assertions) {
        COUNTS.with(|c| counter(c).set(counter(c).get() + 1));
    }
}

/// How long a slice waits after the one before: the frame a toggle asked for is drawn first, and
/// input that comes meanwhile runs before the next slice.
const PAUSE_MS: u32 = 20;

/// Prepares `wanted`, one selection per timer slice. Dropping it (a new selection, an unmounted
/// widget: the effect that started it is cleaned up) cancels the pending slice.
pub struct IdleChain {
    /// The pending slice. Only the chain holds it strongly; each slice holds it weakly.
    _pending: Rc<RefCell<Option<Timeout>>>,
}

impl IdleChain {
    /// Starts preparing `queue`'s views and code at idle time, into `store`.
    pub fn start(store: PreparedStore, mut queue: Vec<Selection>, long_lines: LongLines) -> IdleChain {
        store.0.borrow_mut().keep_only(&queue, long_lines);
        // retain rather than filter and collect: the same code as the explorer's (wasm bytes).
        queue.retain(|s| !store.0.borrow().is_prepared(s));
        queue.reverse();
        let pending = Rc::new(RefCell::new(None));
        next_slice(store, queue, Rc::downgrade(&pending));
        IdleChain { _pending: pending }
    }
}

/// Schedules the slice that prepares the last of `queue`, then the next one. `pending` holds it;
/// gone, the chain stops.
fn next_slice(store: PreparedStore, mut queue: Vec<Selection>, pending: Weak<RefCell<Option<Timeout>>>) {
    let Some(slot) = pending.upgrade() else { return };
    if queue.is_empty() {
        return;
    }
    let scheduled = Scheduled::new();
    *slot.borrow_mut() = Some(crate::ui::browser::after(PAUSE_MS, move || {
        let _scheduled = scheduled;
        // A hidden page's reader is not about to click: stop until the next selection.
        if gloo::utils::document().hidden() {
            return;
        }
        if let Some(sel) = queue.pop() {
            count(|c| &c.slices);
            store.0.borrow_mut().prepare(sel);
        }
        next_slice(store, queue, pending);
    }));
}

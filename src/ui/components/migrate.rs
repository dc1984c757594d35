//! Migrate mode: paste V1 YAML, get the V2 objects, the per-field report and the V1 lines
//! marked as mapped, moved or dropped. The conversion runs in the lazily loaded converter.

use crate::ui::browser;
use crate::ui::hooks::use_keyed_effect;
use explorer_data::catalog::V1Kind;
use explorer_data::releases::Release;
use gloo::timers::callback::Timeout;
use std::cell::{Ref, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Where a conversion is: working, the module downloading, or done.
#[derive(Clone, PartialEq)]
pub enum Stage {
    /// The converter is converting.
    Working,
    /// The converter module is downloading (first use only): bytes received, and the total when
    /// the server says it.
    Loading(u64, Option<u64>),
    /// The answer (the core's HTML names the release it was written for, even in the moment
    /// before a newer choice starts converting).
    Done(Result<browser::Converted, browser::ConvertFailure>),
}

/// `bytes` in MB of 1,000,000 with one decimal (`1.2 MB`), by integer arithmetic: a float's
/// `{:.1}` would link core's float printer (about 20 KB of the widget's wasm, 9 KB gzipped) for
/// this one line. The same text as `{:.1}` of `bytes / 1e6`, except that an exact half
/// (`…50,000` bytes) rounds up here.
pub fn megabytes(bytes: u64) -> String {
    let tenths = bytes / 100_000 + u64::from(bytes % 100_000 >= 50_000);
    format!("{}.{} MB", tenths / 10, tenths % 10)
}

/// The converter's first download, which takes a while on a slow connection: how far it is, with
/// a progress bar when the size is known. The status line names the stage once; the bar is what
/// changes as bytes arrive.
fn loading_view(received: u64, total: Option<u64>) -> Html {
    let mb = megabytes;
    // Written with `format!`, through the `u64` `Display` that `megabytes` uses too: `u64`'s own
    // `to_string` is a digit printer of its own in the wasm (0.3 KB).
    let (bar, words) = match total {
        Some(total) if total > 0 => (
            html! { <progress max={format!("{total}")} value={format!("{}", received.min(total))} aria-label="Converter download"></progress> },
            format!("{} of {}", mb(received), mb(total)),
        ),
        _ => (html! {}, format!("{} so far", mb(received))),
    };
    html! {
        <div class="msg-working">
            <p role="status">{ "Loading the converter, then converting…" }</p>
            { bar }
            <p class="loading-size">{ words }</p>
        </div>
    }
}

/// Migrate mode's conversion, kept by the explorer whichever view it shows: a hook, not a
/// component of its own (a component's lifecycle code in the wasm cost more than these few
/// hooks), so it runs on every render of the explorer. `active`: migrate mode is on screen;
/// `text`: what its text area shows (empty while it is not). Returns the conversion's stage.
///
/// As the component it replaces did when it mounted, entering migrate mode starts from
/// "Converting…" and converts the text; leaving it cancels a conversion not started yet and
/// drops the answer of one under way. `conversion` is the explorer's (`Handlers`).
#[hook]
pub fn use_migrate(conversion: &Conversion, active: bool, text: String, release: Release) -> Conversion {
    let conversion = conversion.clone();
    let edit = conversion.asked.borrow_mut().edit_for(active, &text, release);
    {
        let conversion = conversion.clone();
        use_keyed_effect(edit, move |edit| {
            if !active {
                // Left (or never shown): nothing pending, and the next entry starts afresh.
                conversion.asked.borrow_mut().debounce = None;
                if *conversion.stage() != Stage::Working {
                    conversion.set(Stage::Working);
                }
                return Box::new(|| ());
            }
            conversion.set(Stage::Working);
            // Typing stays responsive: convert once the reader pauses. The timer is held in
            // `Asked` and holds it only weakly, so the explorer's going drops (cancels) it.
            let (asked, redraw) = (Rc::downgrade(&conversion.asked), conversion.redraw.clone());
            conversion.asked.borrow_mut().debounce = Some(browser::after(200, move || {
                let Some(asked) = asked.upgrade() else { return };
                let pending = Conversion { asked, redraw };
                let loading = {
                    let conversion = pending.clone();
                    move |received, total| {
                        if conversion.asked.borrow().edit == edit {
                            conversion.set(Stage::Loading(received, total));
                        }
                    }
                };
                browser::run_migrator(text, release.line, loading, move |answer| {
                    if pending.asked.borrow().edit == edit {
                        pending.set(Stage::Done(answer));
                    }
                });
            }));
            Box::new(|| ())
        });
    }
    conversion
}

/// Migrate mode's conversion as the explorer holds it: its stage, kept with the edits it was asked
/// for, and how to render the explorer again when the stage changes. A cell and a forced render,
/// not a state hook: each state type brought its own copy of yew's state hook code into the wasm
/// (`use_force_update` has no state, so it has no such copy).
#[derive(Clone)]
pub struct Conversion {
    asked: Rc<RefCell<Asked>>,
    redraw: UseForceUpdateHandle,
}

impl Conversion {
    /// No conversion asked for yet, rendering again through `redraw`. Made once per explorer, in
    /// its `Handlers`, not by a `use_mut_ref` of its own: each `use_mut_ref` type brought its own
    /// copy of yew's hook code into the wasm.
    pub(crate) fn new(redraw: UseForceUpdateHandle) -> Self {
        Conversion { asked: Rc::default(), redraw }
    }

    /// Where the conversion is now.
    fn stage(&self) -> Ref<'_, Stage> {
        Ref::map(self.asked.borrow(), |asked| &asked.stage)
    }

    /// Moves the conversion to `stage`, and renders the explorer again (every time, as a state
    /// hook's `set` did).
    fn set(&self, stage: Stage) {
        self.asked.borrow_mut().stage = stage;
        self.redraw.force_update();
    }
}

/// Which edit (of migrate mode on or off, of the text, or of the release to write for) the latest
/// conversion was asked for, and what it asked. The converter runs in a worker while the reader
/// keeps typing, so an answer can arrive for an edit that is no longer the newest: it is dropped,
/// even when the text happens to be the same again. The converter also answers a superseded
/// request at once (it never runs), and that answer is dropped the same way.
///
/// The conversion's effect is keyed by the edit's number (`use_keyed_effect`, as the explorer's
/// effects are), not by what it asked (`use_effect_with`): an effect keyed by a type of its own
/// brought its own copy of yew's effect code into the wasm.
struct Asked {
    /// The newest edit's number.
    edit: u64,
    /// What it asked for: migrate mode on screen, the text, the release.
    of: Option<(bool, String, Release)>,
    /// Where its conversion is.
    stage: Stage,
    /// The conversion waiting for the reader to pause typing.
    debounce: Option<Timeout>,
}

impl Default for Asked {
    fn default() -> Self {
        Asked { edit: 0, of: None, stage: Stage::Working, debounce: None }
    }
}

impl Asked {
    /// The number of the edit that asks for these: a new one when they differ from the last
    /// edit's, as an effect's dependencies would.
    fn edit_for(&mut self, active: bool, text: &str, release: Release) -> u64 {
        let same = matches!(&self.of, Some((a, t, r)) if *a == active && t == text && *r == release);
        if !same {
            self.edit += 1;
            self.of = Some((active, text.to_string(), release));
        }
        self.edit
    }
}

/// Migrate mode: the text area, told to `on_text` at every edit, and the conversion's stage
/// (`use_migrate`), which an edit sets back to "Converting…".
pub fn migrate_view(conversion: &Conversion, text: String, on_text: Callback<String>) -> Html {
    let oninput = {
        let conversion = conversion.clone();
        Callback::from(move |e: InputEvent| {
            // The target is this textarea, so no `instanceof` check (browser::detail_text says why).
            if let Some(area) = e.target().map(|t| t.unchecked_into::<web_sys::HtmlTextAreaElement>()) {
                on_text.emit(area.value());
                // The explorer renders again with the new text, which converts it.
                conversion.set(Stage::Working);
            }
        })
    };
    let result = match &*conversion.stage() {
        Stage::Working => html! { <p class="msg-working" role="status">{ "Converting…" }</p> },
        Stage::Loading(received, total) => loading_view(*received, *total),
        // The converter's message can quote the input (a name, a kind): shown as text, with a
        // bidirectional control written out (`\u{202e}`) rather than obeyed, as the converter's
        // HTML and the CLI show it, so it cannot reorder what the reader sees.
        Stage::Done(Err(e)) => {
            html! { <p class="migrate-error" role="alert">{ explorer_core::terminal::escape(&e.to_string()).into_owned() }</p> }
        }
        Stage::Done(Ok(result)) => render_view(result),
    };
    html! {
        <div class="migrate">
            <div class="migrate-input">
                <label for="m-input">{ format!("V1 YAML: {} (several documents with ---)", V1Kind::all_in_words()) }</label>
                <textarea id="m-input" spellcheck="false" autocomplete="off" wrap="off" rows="16" value={text} {oninput} />
                <p class="hint">{ "Converted in your browser; nothing is sent anywhere." }</p>
            </div>
            <div class="migrate-result">{ result }</div>
        </div>
    }
}

fn render_view(result: &browser::Converted) -> Html {
    // All three escaped by the core's renderers. The objects' Copy buttons (`button[data-copy]`)
    // are wired by the converter's loader (pkg-migrate/converter.js), which is on the page
    // whenever this view is: the widget's wasm carries none of it.
    let html = |s: &String| Html::from_html_unchecked(AttrValue::from(s.clone()));
    html! {
        <>
            { html(&result.summary) }
            { html(&result.objects) }
            { html(&result.html) }
        </>
    }
}

//! Side effects in the reader's browser. Every call tolerates failure: storage that throws
//! (private mode, sandboxed iframes), a missing clipboard (plain http), a history API that
//! refuses. A failure degrades a feature; it never stops the widget.

use explorer_core::query::{self, SyncSet};
use explorer_core::selection::Selection;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// The `localStorage` key the last selection is kept under.
pub const STORAGE_KEY: &str = "trainer-v2-explorer";
/// The event on `window` that tells the other instances on the page of a change.
pub const SYNC_EVENT: &str = "trainer-v2-explorer:change";
/// Dispatched on `window` by the panic hook; www/explorer.js listens for it (same name there).
pub const FAILED_EVENT: &str = "trainer-v2-explorer:failed";
/// Dispatched by www/element.js on a host whose option attribute changed; the detail is the
/// changed options as a query (`persona=data-scientist`).
pub const OPTIONS_EVENT: &str = "trainer-v2-explorer:options";
/// Dispatched on the host with the selection it shows (the whole query, defaults included), on
/// mount and on every change made there (by the reader or the host's options); www/element.js
/// turns it into the host's `change` event and properties.
pub const SELECTED_EVENT: &str = "trainer-v2-explorer:selected";

/// `f` after `ms` milliseconds, cancelled when the returned timer is dropped. Every timer of the
/// widget goes through here: one boxed closure type means one copy of gloo's and wasm-bindgen's
/// generic timer code in the wasm instead of one per call site (0.24 KB gzipped for the five).
pub fn after(ms: u32, f: impl FnOnce() + 'static) -> gloo::timers::callback::Timeout {
    let f: Box<dyn FnOnce()> = Box::new(f);
    gloo::timers::callback::Timeout::new(ms, f)
}

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The page's query string (`?framework=jax`), or "".
pub fn location_search() -> String {
    window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The selection last kept in `localStorage`, as a query.
pub fn stored_query() -> Option<String> {
    let storage = window()?.local_storage().ok()??;
    storage.get_item(STORAGE_KEY).ok()?
}

/// How long after a change the selection is written to the URL and storage (`persist`), a newer
/// change restarting the wait. `history.replaceState` blocks the page for several milliseconds
/// (3.6 ms median, up to 17 ms, measured in Chromium on the post): written at once, it held up the
/// frame that shows the click. After 200 ms that frame is drawn, and a run of clicks or arrow
/// keys writes its last selection once. Nobody copies the address or reloads within 200 ms.
pub const PERSIST_MS: u32 = 200;

/// Writes the selection into the page URL (replaceState: no history entry per click) and into
/// localStorage, keeping every key this instance does not own. Answers whether the address reads
/// back what was written (a page may refuse it): at mount the address beats storage, so only then
/// does every later mount start with the selection.
pub fn persist(sel: &Selection, sync: SyncSet) -> bool {
    let Some(w) = window() else { return false };
    let merged = query::merge(&location_search(), sel, sync);
    let mut held = false;
    if let Ok(history) = w.history() {
        let hash = w.location().hash().unwrap_or_default();
        let path = w.location().pathname().unwrap_or_default();
        let url = if merged.is_empty() { format!("{path}{hash}") } else { format!("{path}?{merged}{hash}") };
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
        held = location_search().strip_prefix('?').unwrap_or_default() == merged;
    }
    if let Ok(Some(storage)) = w.local_storage() {
        let stored = storage.get_item(STORAGE_KEY).ok().flatten().unwrap_or_default();
        let _ = storage.set_item(STORAGE_KEY, &query::merge(&stored, sel, sync));
    }
    held
}

/// Installs (once) a panic hook that tells the page's loader, with the panic message, before the
/// module dies. The release build aborts on panic: right after the hook the module traps and can
/// run no more code, so the loader (www/explorer.js), not the widget, shows the static fallbacks.
/// Set through yew: a hook set with `std::panic::set_hook` is replaced by yew's own
/// (console_error_panic_hook) when the first instance renders. In debug builds (the browser
/// tests) the hook that was there before, wasm-bindgen-test's, still runs; in the release build
/// it would be std's default hook, which writes to a stderr wasm32-unknown-unknown does not have,
/// and linking it (with yew's unused one) costs the widget bytes.
pub fn report_panics_to_the_page() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        #[cfg(debug_assertions)]
        let previous = std::panic::take_hook();
        yew::set_custom_panic_hook(Box::new(move |info| {
            dispatch(FAILED_EVENT, &JsValue::from_str(&info.to_string()));
            #[cfg(debug_assertions)]
            previous(info);
        }));
    });
}

fn dispatch(name: &str, detail: &JsValue) {
    if let Some(w) = window() {
        dispatch_on(&w, name, detail);
    }
}

/// A CustomEvent that neither bubbles nor leaves a shadow root: for the page's own loader.
pub fn dispatch_on(target: &web_sys::EventTarget, name: &str, detail: &JsValue) {
    let init = web_sys::CustomEventInit::new();
    init.set_detail(detail);
    if let Ok(event) = web_sys::CustomEvent::new_with_event_init_dict(name, &init) {
        let _ = target.dispatch_event(&event);
    }
}

/// Tells the host's loader which selection the host shows (see SELECTED_EVENT).
pub fn announce_selection(host: &web_sys::Element, sel: &Selection) {
    dispatch_on(host, SELECTED_EVENT, &JsValue::from_str(&query::sync_query(sel, SyncSet::ALL)));
}

/// The text in an event's `detail`: `None` where it has none, or none that is text. Read from any
/// event, not only after an `instanceof CustomEvent` check: an event of another type has no
/// `detail` (undefined is no text), so the answer is the same, and each type the widget checks
/// brings an import of its own into its wasm and JS glue.
fn detail_text(event: &web_sys::Event) -> Option<String> {
    event.unchecked_ref::<web_sys::CustomEvent>().detail().as_string()
}

/// The query in an options event's detail.
pub fn options_detail(event: &web_sys::Event) -> Option<String> {
    detail_text(event)
}

/// Tells the other instances on the page. `storage` events only reach other windows, so the
/// page-local channel is a CustomEvent on `window`.
/// `shared` is the query of what it shares (`query::sync_query`).
pub fn broadcast(instance: u32, shared: &str) {
    dispatch(SYNC_EVENT, &JsValue::from_str(&format!("{instance}\n{shared}")));
}

/// Splits a sync event's detail into (sender, query).
pub fn parse_sync_detail(event: &web_sys::Event) -> Option<(u32, String)> {
    let detail = detail_text(event)?;
    let (id, query) = detail.split_once('\n')?;
    Some((id.parse().ok()?, query.to_string()))
}

/// The media query of a page in dark mode.
pub const DARK_QUERY: &str = "(prefers-color-scheme: dark)";

/// A phone-sized window, where code boxes start with long lines wrapped.
pub fn narrow() -> bool {
    window().and_then(|w| w.match_media("(max-width: 600px)").ok().flatten()).is_some_and(|m| m.matches())
}

/// The theme to show: the host page's explicit choice, else the reader's system setting.
pub fn theme() -> &'static str {
    host_theme().unwrap_or_else(|| {
        let dark = window().and_then(|w| w.match_media(DARK_QUERY).ok().flatten()).is_some_and(|m| m.matches());
        if dark {
            "dark"
        } else {
            "light"
        }
    })
}

/// The host page's explicit theme: `data-theme` on <html> (Docsy, Furo) or `dark-theme` on
/// <body> (Kubeflow's toggler). `None` means follow `prefers-color-scheme`.
pub fn host_theme() -> Option<&'static str> {
    let doc = window()?.document()?;
    let root = doc.document_element()?;
    match root.get_attribute("data-theme").as_deref() {
        Some("dark") => return Some("dark"),
        Some("light") => return Some("light"),
        _ => {}
    }
    let body = doc.body()?;
    if body.class_list().contains("dark-theme") {
        return Some("dark");
    }
    match body.get_attribute("data-theme").as_deref() {
        Some("dark") => Some("dark"),
        Some("light") => Some("light"),
        _ => None,
    }
}

/// What a promise settled with: `Ok` with its value, `Err` with its reason.
pub type Settled = Result<JsValue, JsValue>;

/// The callbacks a promise settles through, until one of them runs.
type Waiting = Rc<RefCell<Option<(Box<dyn FnOnce(Settled)>, [Closure<dyn FnMut(JsValue)>; 2])>>>;

/// Calls `done` once `promise` settles. The widget waits on two promises (the clipboard's and
/// the converter's answer); callbacks on them, not `async` code, keep an executor out of its
/// wasm (wasm-bindgen-futures' task queue and `JsFuture`). As `JsFuture` does, both callbacks
/// are dropped once either runs (wasm-bindgen frees the running one when it returns), so a
/// settled promise leaves nothing behind.
pub fn when_settled(promise: &js_sys::Promise, done: impl FnOnce(Settled) + 'static) {
    let waiting: Waiting = Rc::new(RefCell::new(None));
    let on = |settled: fn(JsValue) -> Settled| {
        let waiting = waiting.clone();
        Closure::once(move |value: JsValue| {
            // Out of the cell before `done` runs, which may wait on another promise.
            let taken = waiting.borrow_mut().take();
            if let Some((done, _callbacks)) = taken {
                done(settled(value));
            }
        })
    };
    let callbacks = [on(Ok), on(Err)];
    let _ = promise.then2(&callbacks[0], &callbacks[1]);
    *waiting.borrow_mut() = Some((Box::new(done), callbacks));
}

/// Copies text: the async Clipboard API where the page is a secure context, else a hidden
/// textarea and `execCommand("copy")`. Calls `done` with whether the copy happened.
pub fn copy_text(text: String, scratch_parent: web_sys::Node, done: impl FnOnce(bool) + 'static) {
    if let Some(w) = window() {
        let navigator = w.navigator();
        let has_clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
            .map(|c| !c.is_undefined() && !c.is_null())
            .unwrap_or(false);
        if has_clipboard {
            let promise = navigator.clipboard().write_text(&text);
            return when_settled(&promise, move |settled| {
                done(settled.is_ok() || copy_with_textarea(&text, &scratch_parent));
            });
        }
    }
    done(copy_with_textarea(&text, &scratch_parent))
}

fn copy_with_textarea(text: &str, parent: &web_sys::Node) -> bool {
    let Some(doc) = window().and_then(|w| w.document()) else { return false };
    let Ok(el) = doc.create_element("textarea") else { return false };
    // No `instanceof` checks here (see `detail_text`): the element was made as a textarea, and
    // the widget's document is an HTML one (`execCommand` is the Document's in any case).
    let area = el.unchecked_into::<web_sys::HtmlTextAreaElement>();
    area.set_value(text);
    let _ = area.set_attribute("readonly", "");
    let _ = area.set_attribute("aria-hidden", "true");
    let _ = area.class_list().add_1("offscreen");
    if parent.append_child(&area).is_err() {
        return false;
    }
    area.select();
    let ok = doc.unchecked_ref::<web_sys::HtmlDocument>().exec_command("copy").unwrap_or(false);
    let _ = parent.remove_child(&area);
    ok
}

thread_local! {
    /// The converter, handed over by the page's loader (`setMigrator`). It lives in its own
    /// wasm module so the YAML parser is downloaded only by readers who open migrate mode.
    static MIGRATOR: std::cell::RefCell<Option<js_sys::Function>> = const { std::cell::RefCell::new(None) };
}

/// Sets the function that runs the converter module (www/explorer.js hands it over once loaded).
pub fn set_migrator(f: js_sys::Function) {
    MIGRATOR.with(|m| *m.borrow_mut() = Some(f));
}

fn js_error(e: JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| "unknown error".into())
}

/// A conversion as the converter module renders it.
#[derive(Clone, Debug, PartialEq)]
pub struct Converted {
    /// One block per object in apply order, each with Copy and a download, and the apply line:
    /// escaped HTML from the core (pipeline::output).
    pub objects: String,
    /// The per-document status list and the field reports: escaped HTML from the core.
    pub summary: String,
    /// The field reports and "What changes for your pods": escaped HTML from the core.
    pub html: String,
}

fn field(obj: &JsValue, key: &str) -> Option<String> {
    js_sys::Reflect::get(obj, &JsValue::from_str(key)).ok().and_then(|v| v.as_string())
}

/// Why a conversion gave the reader no objects. Its text (`Display`) is what the widget shows.
#[derive(Clone, Debug, PartialEq)]
pub enum ConvertFailure {
    /// The page handed the widget no converter (`setMigrator`): the CLI, for release line
    /// `release` (`v2.1`), does the same.
    Unavailable {
        /// The release line the reader chose.
        release: String,
    },
    /// The converter threw before it answered: its message.
    Threw(String),
    /// The converter module did not load: the browser's message.
    NotLoaded(String),
    /// The converter answered with something other than text.
    NotText,
    /// The converter's answer was text the browser's JSON parser could not read.
    Unreadable,
    /// The converter refused the input: its own message, which can quote the input.
    Refused(String),
}

impl std::fmt::Display for ConvertFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConvertFailure::Unavailable { release } => write!(
                f,
                "The converter is not available on this page; the CLI does the same: trainer-explorer migrate --target {release} FILE"
            ),
            ConvertFailure::Threw(message) | ConvertFailure::Refused(message) => f.write_str(message),
            ConvertFailure::NotLoaded(message) => write!(f, "The converter did not load: {message}"),
            ConvertFailure::NotText => f.write_str("The converter answered with something other than text"),
            ConvertFailure::Unreadable => f.write_str("The converter's answer could not be read"),
        }
    }
}

/// Runs the converter on `text`, writing for the release line `release` (`v2.1`). Every failure
/// (no converter, a module that did not load, a malformed answer, a refusal) is a
/// [`ConvertFailure`] whose text is the reader's message. The answer is read with the browser's
/// JSON parser, which keeps a JSON decoder out of the widget's wasm. While the converter module
/// downloads, `on_progress` hears the bytes received and the total, when the server says it.
/// `done` gets the answer.
pub fn run_migrator(
    text: String,
    release: &str,
    on_progress: impl Fn(u64, Option<u64>) + 'static,
    done: impl FnOnce(Result<Converted, ConvertFailure>) + 'static,
) {
    let Some(f) = MIGRATOR.with(|m| m.borrow().clone()) else {
        return done(Err(ConvertFailure::Unavailable { release: release.to_string() }));
    };
    // Kept alive until the answer is here: the loader calls it until then.
    let progress = Closure::<dyn Fn(f64, JsValue)>::new(move |received: f64, total: JsValue| {
        on_progress(received as u64, total.as_f64().map(|t| t as u64))
    });
    let answer =
        match f.call3(&JsValue::NULL, &JsValue::from_str(&text), &JsValue::from_str(release), progress.as_ref()) {
            Ok(answer) => answer,
            Err(e) => return done(Err(ConvertFailure::Threw(js_error(e)))),
        };
    // `Promise.resolve` hands a promise back as it is, and wraps any other answer in one: no
    // `instanceof Promise` check first (see `detail_text`).
    let promise = js_sys::Promise::resolve(&answer);
    when_settled(&promise, move |settled| {
        drop(progress);
        done(read_answer(settled));
    });
}

/// The converter's settled answer, read.
fn read_answer(settled: Settled) -> Result<Converted, ConvertFailure> {
    let json =
        settled.map_err(|e| ConvertFailure::NotLoaded(js_error(e)))?.as_string().ok_or(ConvertFailure::NotText)?;
    let obj = js_sys::JSON::parse(&json).map_err(|_| ConvertFailure::Unreadable)?;
    if let Some(error) = field(&obj, "error") {
        return Err(ConvertFailure::Refused(error));
    }
    Ok(Converted {
        objects: field(&obj, "objects").unwrap_or_default(),
        summary: field(&obj, "summary").unwrap_or_default(),
        html: field(&obj, "html").unwrap_or_default(),
    })
}

thread_local! {
    /// The lazily filled disclosures, handed over by the page's loader (`setExplainer`): the
    /// converter module computes, renders and places them, so the widget's own wasm carries none of it.
    static EXPLAINER: std::cell::RefCell<Option<js_sys::Function>> = const { std::cell::RefCell::new(None) };
}

/// Sets the function that runs the explain module ("What Kubernetes runs").
pub fn set_explainer(f: js_sys::Function) {
    EXPLAINER.with(|m| *m.borrow_mut() = Some(f));
}

/// Hands an opened lazily filled disclosure (components::lazy_pane) to the loader's explainer,
/// which fills it in and follows its `data-query` from then on. Without one (a host page that
/// does not load the converter) the disclosure says so.
pub fn show_pane(details: &web_sys::Element) {
    let f = EXPLAINER.with(|m| m.borrow().clone());
    if f.is_none_or(|f| f.call1(&JsValue::NULL, details).is_err()) {
        if let Ok(Some(body)) = details.query_selector(".pane-body") {
            body.set_text_content(Some(
                "Not available on this page; the trainer-explorer CLI has it (explain, upgrade)",
            ));
        }
    }
}

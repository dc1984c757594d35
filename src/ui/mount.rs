//! Starts one explorer in a host element, inside a shadow root so no CSS leaks in or out, and
//! stops it again. The loader (www/element.js) decides when: as a `<trainer-v2-explorer>` element
//! or a `[data-trainer-v2-explorer]` mount point is connected, comes near the viewport, or leaves
//! the page; it is the one place that watches the page.
//!
//! The host's static fallback stays in the page as the host's light-DOM children. The shadow
//! root has no `<slot>` while the widget runs, so the fallback is neither rendered nor in the
//! accessibility tree; showing it again (www/element.js after a panic or trap, `unmount` here)
//! is only a matter of putting a `<slot>` in the shadow root. Nothing has to be copied back,
//! which matters because a trapped module can run no more code.

use super::app::{Explorer, ExplorerProps};
use super::browser;
use super::inbox::{Inbox, Listeners};
use super::unpersisted;
use explorer_core::query::{self, SyncSet};
use explorer_core::selection::Selection;
use gloo::events::EventListener;
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

/// The attribute that marks a mount point on the page.
pub const MOUNT_ATTR: &str = "data-trainer-v2-explorer";
const MOUNTED_ATTR: &str = "data-trainer-v2-explorer-mounted";
/// style.css without comments and layout whitespace (build.rs).
const STYLE: &str = include_str!(concat!(env!("OUT_DIR"), "/style.min.css"));

thread_local! {
    static NEXT_INSTANCE: RefCell<u32> = const { RefCell::new(0) };
    static SHEET: RefCell<Option<web_sys::CssStyleSheet>> = const { RefCell::new(None) };
    static INSTANCES: RefCell<Vec<Instance>> = const { RefCell::new(Vec::new()) };
}

/// A running explorer and the element it lives in.
struct Instance {
    host: web_sys::Element,
    /// Its number on the page (`ExplorerProps::instance`).
    number: u32,
    app: yew::AppHandle<Explorer>,
    /// Dropped with the instance, so an unmounted host lets keys through to the page again.
    _key_guards: [EventListener; 3],
    /// Its inbox's listeners: they hear from the moment it mounts, and stop with it.
    _inbox_listeners: Listeners,
}

/// One of the host's options, by its mount point name (`data-persona`): `data-persona` on a
/// `[data-trainer-v2-explorer]` mount point, `persona` on a `<trainer-v2-explorer>` element (or
/// a host's own name for its class). Same names and values either way.
fn option(host: &web_sys::Element, data_name: &str) -> Option<String> {
    if host.has_attribute(MOUNT_ATTR) {
        host.get_attribute(data_name)
    } else {
        host.get_attribute(&data_name["data-".len()..])
    }
}

/// The host's default selection, as a query in the URL's syntax.
fn defaults_query(host: &web_sys::Element) -> String {
    query::from_data_attributes(|data_name| option(host, data_name))
}

/// Precedence: a choice another instance on the page shared that the page does not hold yet
/// (ui::unpersisted: the URL and storage learn it `browser::PERSIST_MS` after the others), then the
/// URL, then storage, then the element's `data-*` defaults. Invalid values are skipped at each
/// level.
pub fn initial_selection(host: &web_sys::Element, sync: SyncSet) -> Selection {
    let (defaults, _) = query::apply(&defaults_query(host), &Selection::default(), SyncSet::ALL);
    let stored = browser::stored_query().unwrap_or_default();
    let (sel, _) = query::apply(&stored, &defaults, sync);
    let (sel, _) = query::apply(&browser::location_search(), &sel, sync);
    unpersisted::apply_to(sel, sync)
}

/// One stylesheet object shared by every instance's shadow root. Constructable stylesheets work
/// under a strict `style-src 'self'` policy, unlike an injected <style>.
fn stylesheet() -> Option<web_sys::CssStyleSheet> {
    SHEET.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.is_none() {
            let sheet = web_sys::CssStyleSheet::new().ok()?;
            sheet.replace_sync(STYLE).ok()?;
            *cell = Some(sheet);
        }
        cell.clone()
    })
}

/// `theme="light"` or `"dark"` on the host (`data-theme` on a mount point) pins the theme; `"auto"` (or nothing)
/// follows the host page's switch, else the reader's system setting.
fn pinned_theme(host: &web_sys::Element) -> Option<&'static str> {
    match option(host, "data-theme").as_deref() {
        Some("light") => Some("light"),
        Some("dark") => Some("dark"),
        _ => None,
    }
}

/// Key events that start inside the widget end at its host element. Host pages read keys on
/// `document` (Sphinx's `navigation_with_keys` turns pages on arrows, its search shortcuts take
/// `/` and letters) and, seeing the host `div` rather than an input as the target, would act on
/// keys typed into our fields. The widget's own listeners sit inside the shadow root and have
/// run by then; stopping propagation cancels no default action, so typing still types.
fn isolate_keys(host: &web_sys::Element) -> [EventListener; 3] {
    ["keydown", "keypress", "keyup"].map(|kind| EventListener::new(host, kind, |event| event.stop_propagation()))
}

/// Mounts one explorer into `host`. Mounting twice is a no-op.
pub fn mount(host: web_sys::Element) -> Result<(), JsValue> {
    if host.has_attribute(MOUNTED_ATTR) {
        return Ok(());
    }
    browser::report_panics_to_the_page();
    let sync = option(&host, "data-sync").map(|s| SyncSet::parse(&s)).unwrap_or_default();
    let compact = option(&host, "data-compact").is_some();
    let initial = initial_selection(&host, sync);

    let shadow = match host.shadow_root() {
        Some(s) => s,
        None => host.attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))?,
    };
    if let Some(sheet) = stylesheet() {
        shadow.set_adopted_style_sheets(&js_sys::Array::of1(&sheet));
    }
    // The fallback stays as light DOM, unslotted (see the module comment). A shadow root that
    // showed it before (an unmounted instance mounted again) holds only that slot.
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let root = document.create_element("div")?;
    shadow.replace_children_with_node_1(&root);

    let instance = NEXT_INSTANCE.with(|n| {
        let mut n = n.borrow_mut();
        *n += 1;
        *n
    });
    let pinned_theme = pinned_theme(&host);
    // Before the mounted mark: the loader passes option changes on from then.
    let (inbox, inbox_listeners) = Inbox::listen(&host, instance, sync);
    // The host's loader learns the selection shown (its properties read it).
    browser::announce_selection(&host, &initial);
    let props = ExplorerProps {
        initial,
        sync,
        instance,
        compact,
        pinned_theme,
        inbox,
        host: host.clone(),
        scratch: shadow.clone().unchecked_into(),
    };
    let app = yew::Renderer::<Explorer>::with_root_and_props(root, props).render();
    let key_guards = isolate_keys(&host);
    INSTANCES.with(|all| {
        all.borrow_mut().push(Instance {
            host: host.clone(),
            number: instance,
            app,
            _key_guards: key_guards,
            _inbox_listeners: inbox_listeners,
        })
    });
    host.set_attribute(MOUNTED_ATTR, "")?;
    Ok(())
}

/// Stops the instance in `host` (it left the page, or its options changed): destroying the Yew
/// app runs every effect's cleanup, so the instance's window listeners, its MutationObserver and
/// its pending timers go with it, and so does a choice it shared that the page does not hold yet.
/// The host shows its static fallback again and can be mounted again. A host with no instance is
/// left as it is.
pub fn unmount(host: &web_sys::Element) {
    let gone = INSTANCES.with(|all| {
        let mut all = all.borrow_mut();
        let at = all.iter().position(|i| i.host == *host)?;
        Some(all.swap_remove(at))
    });
    if let Some(Instance { host, number, app, .. }) = gone {
        // Now, not with the app's timers (a task later): a mount in this task must not read it.
        unpersisted::forget(number);
        app.destroy();
        show_fallback(&host);
        let _ = host.remove_attribute(MOUNTED_ATTR);
    }
}

/// Shows the host's light-DOM fallback through a bare `<slot>`, without the widget's styles.
/// www/explorer.js does the same from JavaScript when the module itself has died.
fn show_fallback(host: &web_sys::Element) {
    let (Some(shadow), Some(doc)) = (host.shadow_root(), host.owner_document()) else { return };
    if let Ok(slot) = doc.create_element("slot") {
        shadow.set_adopted_style_sheets(&js_sys::Array::new());
        shadow.replace_children_with_node_1(&slot);
    }
}

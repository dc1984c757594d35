//! Finds the mount points on a page it does not own and starts one explorer in each, inside a
//! shadow root so no CSS leaks in or out.

use super::app::{Explorer, ExplorerProps};
use super::browser;
use crate::query::{self, SyncSet};
use crate::selection::Selection;
use gloo::events::EventListener;
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

pub const MOUNT_ATTR: &str = "data-trainer-v2-explorer";
const MOUNTED_ATTR: &str = "data-trainer-v2-explorer-mounted";
const STYLE: &str = include_str!("style.css");

thread_local! {
    static NEXT_INSTANCE: RefCell<u32> = const { RefCell::new(0) };
    static SHEET: RefCell<Option<web_sys::CssStyleSheet>> = const { RefCell::new(None) };
    static APPS: RefCell<Vec<yew::AppHandle<Explorer>>> = const { RefCell::new(Vec::new()) };
}

/// The element's `data-*` defaults, as a query in the URL's syntax.
fn defaults_query(host: &web_sys::Element) -> String {
    query::from_data_attributes(|name| host.get_attribute(name))
}

/// Precedence: URL, then storage, then the element's `data-*` defaults. Invalid values are
/// skipped at each level.
pub fn initial_selection(host: &web_sys::Element, sync: SyncSet) -> Selection {
    let (defaults, _) = query::apply(&defaults_query(host), &Selection::default(), SyncSet::ALL);
    let stored = browser::stored_query().unwrap_or_default();
    let (sel, _) = query::apply(&stored, &defaults, sync);
    let (sel, _) = query::apply(&browser::location_search(), &sel, sync);
    sel
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

/// `data-theme="light"` or `"dark"` on the mount point pins the theme; `"auto"` (or nothing)
/// follows the host page's switch, else the reader's system setting.
fn pinned_theme(host: &web_sys::Element) -> Option<&'static str> {
    match host.get_attribute("data-theme").as_deref() {
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
fn isolate_keys(host: &web_sys::Element) {
    for kind in ["keydown", "keypress", "keyup"] {
        EventListener::new(host, kind, |event| event.stop_propagation()).forget();
    }
}

/// Mounts one explorer into `host`. Mounting twice is a no-op.
pub fn mount(host: web_sys::Element) -> Result<(), JsValue> {
    if host.has_attribute(MOUNTED_ATTR) {
        return Ok(());
    }
    let sync = host.get_attribute("data-sync").map(|s| SyncSet::parse(&s)).unwrap_or_default();
    let compact = host.has_attribute("data-compact");
    let initial = initial_selection(&host, sync);

    let shadow = match host.shadow_root() {
        Some(s) => s,
        None => host.attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))?,
    };
    if let Some(sheet) = stylesheet() {
        shadow.set_adopted_style_sheets(&js_sys::Array::of1(&sheet));
    }
    // The static fallback is replaced: it would otherwise stay in the accessibility tree.
    host.set_inner_html("");
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let root = document.create_element("div")?;
    shadow.append_child(&root)?;

    let instance = NEXT_INSTANCE.with(|n| {
        let mut n = n.borrow_mut();
        *n += 1;
        *n
    });
    let pinned_theme = pinned_theme(&host);
    let props =
        ExplorerProps { initial, sync, instance, compact, pinned_theme, scratch: shadow.clone().unchecked_into() };
    let handle = yew::Renderer::<Explorer>::with_root_and_props(root, props).render();
    APPS.with(|apps| apps.borrow_mut().push(handle));
    isolate_keys(&host);
    host.set_attribute(MOUNTED_ATTR, "")?;
    Ok(())
}

/// Mounts every `[data-trainer-v2-explorer]` element not yet mounted; returns how many there are.
pub fn mount_all() -> u32 {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return 0 };
    let Ok(nodes) = doc.query_selector_all(&format!("[{MOUNT_ATTR}]")) else { return 0 };
    let mut count = 0;
    for i in 0..nodes.length() {
        if let Some(el) = nodes.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
            if mount(el).is_ok() {
                count += 1;
            }
        }
    }
    count
}

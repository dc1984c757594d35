//! The fallback regions of a page: each mount point holds its static snippets between two markers,
//! `<div data-trainer-v2-explorer data-framework="jax"><!-- fallback:start -->…<!-- fallback:end --></div>`.
//! `fill_page` regenerates every such region from the mount's `data-*` defaults, so the committed
//! page can be checked for drift and nobody copies YAML into HTML by hand.

use explorer_core::query::{self, SyncSet};
use explorer_core::selection::Selection;

/// The marker that opens a mount point's fallback region.
pub const START: &str = "<!-- fallback:start -->";
/// The marker that closes it.
pub const END: &str = "<!-- fallback:end -->";
/// The attribute that makes an element a mount point of the widget.
pub const MOUNT_ATTR: &str = "data-trainer-v2-explorer";

/// The fallback of one selection: its panes and what Kubernetes runs for it, as
/// `explorer_html::fallback` lays them out.
pub fn fallback_html(sel: &Selection) -> String {
    let explanation = explorer_core::explain::selection::for_selection(sel).ok();
    explorer_html::fallback::render_fallback(&explorer_core::snippets::render(sel), explanation.as_ref())
}

/// Reads `data-*` attributes from an opening tag: `<div data-persona="x" data-compact>`.
fn attributes(tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = tag.trim_start_matches('<');
    // Skip the element name.
    rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    loop {
        rest = rest.trim_start();
        if rest.is_empty() || rest.starts_with('>') || rest.starts_with("/>") {
            break;
        }
        let name_len = rest.find(|c: char| c.is_whitespace() || c == '=' || c == '>').unwrap_or(rest.len());
        let name = rest[..name_len].to_ascii_lowercase();
        rest = rest[name_len..].trim_start();
        let mut value = String::new();
        if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (v, remaining) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let end = after[1..].find(q).map(|i| i + 1).unwrap_or(after.len());
                    (&after[1..end], after.get(end + 1..).unwrap_or(""))
                }
                _ => {
                    let end = after.find(|c: char| c.is_whitespace() || c == '>').unwrap_or(after.len());
                    (&after[..end], &after[end..])
                }
            };
            value = v.replace("&amp;", "&").replace("&quot;", "\"");
            rest = remaining;
        }
        if name.is_empty() {
            break;
        }
        out.push((name, value));
    }
    out
}

/// The selection a mount point's attributes describe, as the widget would read them.
pub fn selection_from_tag(tag: &str) -> Selection {
    let attrs = attributes(tag);
    let q = query::from_data_attributes(|name| attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()));
    query::apply(&q, &Selection::default(), SyncSet::ALL).0
}

/// Regenerates every fallback region of a page. Errors name the marker that is out of place.
pub(crate) fn fill_page(html: &str) -> Result<String, String> {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find(START) {
        let before = &rest[..start];
        let open = before.rfind('<').ok_or("fallback:start is not inside an element")?;
        let tag_start = before[..open + 1].rfind("<").unwrap_or(open);
        let tag = &before[tag_start..];
        let tag = &tag[..tag.find('>').map(|i| i + 1).unwrap_or(tag.len())];
        if !tag.contains(MOUNT_ATTR) {
            return Err(format!("fallback:start must directly follow the opening tag of a [{MOUNT_ATTR}] element"));
        }
        let end = rest[start..].find(END).ok_or("fallback:start without fallback:end")? + start;
        out.push_str(&rest[..start + START.len()]);
        out.push_str(&fallback_html(&selection_from_tag(tag)));
        out.push_str(END);
        rest = &rest[end + END.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use explorer_data::catalog::{Framework, Persona};

    #[test]
    fn attributes_choose_the_selection() {
        let sel = selection_from_tag("<div class=\"x\" data-trainer-v2-explorer data-persona='platform-engineer' data-framework=jax data-nodes=\"4\">");
        assert_eq!((sel.persona, sel.framework, sel.nodes()), (Persona::PlatformEngineer, Framework::Jax, 4));
    }

    #[test]
    fn regions_are_regenerated_and_everything_else_kept() {
        let page =
            format!("<p>a</p><div data-trainer-v2-explorer data-framework=\"mlx\">{START}stale{END}</div><p>b</p>");
        let filled = fill_page(&page).unwrap();
        assert!(filled.starts_with("<p>a</p><div data-trainer-v2-explorer data-framework=\"mlx\"><!-- fallback:start --><div class=\"tv2x-fallback\">"));
        assert!(filled.contains("mlx-distributed"));
        assert!(filled.ends_with("<!-- fallback:end --></div><p>b</p>"));
        assert_eq!(fill_page(&filled).unwrap(), filled, "filling is idempotent");
    }

    #[test]
    fn misplaced_markers_are_errors() {
        assert!(fill_page(&format!("<div>{START}{END}</div>")).is_err());
        assert!(fill_page(&format!("<div data-trainer-v2-explorer>{START}")).is_err());
    }
}

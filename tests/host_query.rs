//! The host page's own query parameters survive the widget: `merge` writes the page URL through
//! `history.replaceState`, so whatever it drops or re-encodes is gone from the reader's address bar.

use explorer_core::query::{self, SyncSet, MAX_QUERY_LEN};
use explorer_core::selection::Selection;
use explorer_data::catalog::{Framework, Persona};

fn platform_engineer() -> Selection {
    Selection::new(Persona::PlatformEngineer, Framework::Jax)
}

/// A host query longer than the widget reads (a docs search with a long state token, say).
fn long_host_query() -> String {
    format!("q=trainer&state={}&lang=en", "x".repeat(MAX_QUERY_LEN))
}

#[test]
fn an_over_long_host_query_is_left_exactly_as_it_was() {
    let host = long_host_query();
    for existing in [host.clone(), format!("?{host}"), format!("{host}&persona=data-scientist")] {
        let merged = query::merge(&existing, &platform_engineer(), SyncSet::ALL);
        assert_eq!(merged, existing.trim_start_matches('?'), "the widget never rewrites a query it does not read");
    }
}

#[test]
fn host_pairs_keep_their_bytes_and_order() {
    // Encodings a re-serialisation would change: %20 (would become +), a bare flag (would gain
    // '='), an encoded '&' inside a value, a percent-encoded non-ASCII value.
    let existing = "?q=a%20b&flag&next=%2Fdocs%3Fa%3D1%26b%3D2&persona=data-scientist&n=%C3%A9t%C3%A9";
    let merged = query::merge(existing, &platform_engineer(), SyncSet::ALL);
    assert_eq!(
        merged,
        "q=a%20b&flag&next=%2Fdocs%3Fa%3D1%26b%3D2&n=%C3%A9t%C3%A9&persona=platform-engineer&framework=jax"
    );
}

#[test]
fn a_preset_instance_leaves_the_keys_it_does_not_share() {
    let sync = SyncSet::parse("persona,params");
    let merged = query::merge("framework=mlx&persona=data-scientist&utm_source=x", &platform_engineer(), sync);
    assert_eq!(merged, "framework=mlx&utm_source=x&persona=platform-engineer");
}

#[test]
fn an_encoded_own_key_is_still_ours() {
    // `%70ersona` decodes to `persona`: the widget reads it, so it replaces it.
    let merged = query::merge("%70ersona=data-scientist&ref=a", &platform_engineer(), SyncSet::ALL);
    assert_eq!(merged, "ref=a&persona=platform-engineer&framework=jax");
}

/// The keys of www/element.js's `SELECTION_OPTIONS`, its hand copy of the core's keys: the host
/// attributes it watches and sends to the widget, and the URL keys it looks for before it loads.
fn page_selection_keys() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/www/element.js");
    let js = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let list = js
        .lines()
        .find_map(|line| line.strip_prefix("export const SELECTION_OPTIONS = [")?.strip_suffix("];"))
        .unwrap_or_else(|| panic!("{path} no longer declares `export const SELECTION_OPTIONS = [...];` on one line"));
    list.split(',').map(|key| key.trim().trim_matches('\'').to_string()).collect()
}

#[test]
fn the_pages_url_keys_are_the_cores() {
    let core: Vec<&str> = query::own_keys().collect();
    assert_eq!(
        page_selection_keys(),
        core,
        "www/element.js's SELECTION_OPTIONS differ from explorer-core's query::own_keys(): a key one side \
         reads the other ignores (a host's attribute, or the URL check before the widget loads)"
    );
}

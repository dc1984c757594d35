//! URL query parsing and printing.
//!
//! The same keys serve the page URL, localStorage, the mount element's `data-*` attributes, the
//! cross-instance sync events and the CLI's `--query`. Parsing never fails as a whole: each bad
//! pair is reported and skipped, so a hostile URL leaves the defaults in place.

use crate::selection::{Mode, ParamKey, RuntimeScope, Selection};
use crate::urlencoded;
use explorer_data::catalog::{Framework, Persona};
use explorer_data::releases::{Release, NEWEST, RELEASES};

/// Longer query strings are not read at all: nothing legitimate comes near this.
pub const MAX_QUERY_LEN: usize = 4096;

/// Which parts of the selection an instance shares with the URL, storage and other instances.
/// A preset instance (say, the post's LLM section) shares the persona and parameters but keeps
/// its own framework.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SyncSet {
    /// Share the persona.
    pub persona: bool,
    /// Share the framework and the view mode (a preset keeps both its own).
    pub framework: bool,
    /// Share the parameters, the runtime scope and the release.
    pub params: bool,
}

impl Default for SyncSet {
    fn default() -> Self {
        SyncSet::ALL
    }
}

impl SyncSet {
    /// Share everything: the default of an instance that says nothing.
    pub const ALL: SyncSet = SyncSet { persona: true, framework: true, params: true };

    /// Parses `data-sync="persona,params"`. Unknown words are ignored; an empty list shares nothing.
    pub fn parse(list: &str) -> SyncSet {
        let mut set = SyncSet { persona: false, framework: false, params: false };
        for word in list.split([',', ' ']).map(str::trim) {
            match word {
                "persona" => set.persona = true,
                "framework" => set.framework = true,
                "params" => set.params = true,
                "all" => set = SyncSet::ALL,
                _ => {}
            }
        }
        set
    }

    fn covers(&self, key: &str) -> bool {
        match key {
            "persona" => self.persona,
            // The view mode travels with the framework: presets keep both.
            "framework" | "mode" => self.framework,
            // The release is the reader's cluster, like the namespace and the queue: every
            // instance that shares parameters follows it.
            _ => self.params,
        }
    }
}

/// Why one query pair was skipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryIssue {
    /// A key this widget does not own. Normal on a host page; an error for the CLI.
    UnknownKey(String),
    /// A key this widget owns with a value it refuses, and why.
    InvalidValue {
        /// The key as written.
        key: String,
        /// The value as written.
        value: String,
        /// Why it was refused.
        reason: InvalidReason,
    },
    /// The whole query is over [`MAX_QUERY_LEN`]: nothing of it was read.
    TooLong,
}

impl std::fmt::Display for QueryIssue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryIssue::UnknownKey(k) => write!(f, "unknown query key '{k}'"),
            QueryIssue::InvalidValue { key, value, reason } => {
                write!(f, "invalid {key}={value:?}: {reason}")
            }
            QueryIssue::TooLong => write!(f, "query longer than {MAX_QUERY_LEN} characters"),
        }
    }
}

/// Why a value of a key this widget owns was refused: the key's choices, or the parameter's
/// own error. Its text (`Display`) says what the key takes, written only when printed (the
/// widget drops query issues unread).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvalidReason {
    /// `persona`: not one of the two personas.
    Persona,
    /// `framework`: not a framework of the catalog.
    Framework,
    /// `scope`: neither `cluster` nor `namespaced`.
    Scope,
    /// `mode`: neither `compare` nor `migrate`.
    Mode,
    /// `release`: not a Trainer release line.
    Release,
    /// A parameter's value (`nodes`, `name`, ...): its own error.
    Param(crate::selection::ParamError),
}

impl std::fmt::Display for InvalidReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InvalidReason::Persona => f.write_str("expected platform-engineer or data-scientist"),
            InvalidReason::Framework => {
                let ids: Vec<_> = Framework::ALL.iter().map(|f| f.id()).collect();
                write!(f, "expected one of {}", crate::text::join(&ids, ", "))
            }
            InvalidReason::Scope => f.write_str("expected cluster or namespaced"),
            InvalidReason::Mode => f.write_str("expected compare or migrate"),
            InvalidReason::Release => {
                let lines: Vec<_> = RELEASES.iter().map(|r| r.line).collect();
                write!(f, "expected one of {}", crate::text::join(&lines, ", "))
            }
            InvalidReason::Param(error) => std::fmt::Display::fmt(error, f),
        }
    }
}

/// Applies the pairs of `query` (with or without a leading `?`) on top of `base`.
pub fn apply(query: &str, base: &Selection, sync: SyncSet) -> (Selection, Vec<QueryIssue>) {
    let mut sel = base.clone();
    let mut issues = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);
    if query.len() > MAX_QUERY_LEN {
        return (sel, vec![QueryIssue::TooLong]);
    }
    for (key, value) in urlencoded::parse(query) {
        if !is_own_key(&key) {
            issues.push(QueryIssue::UnknownKey(key));
            continue;
        }
        if !sync.covers(&key) {
            continue;
        }
        if let Err(reason) = apply_pair(&mut sel, &key, &value) {
            issues.push(QueryIssue::InvalidValue { key, value, reason });
        }
    }
    (sel, issues)
}

/// Strict parsing for the CLI: any skipped pair is an error.
pub fn parse_strict(query: &str) -> Result<Selection, QueryIssue> {
    let (sel, issues) = apply(query, &Selection::default(), SyncSet::ALL);
    match issues.into_iter().next() {
        Some(issue) => Err(issue),
        None => Ok(sel),
    }
}

/// Every key this widget owns, in the URL and as `data-<key>` on a mount point.
pub fn own_keys() -> impl Iterator<Item = &'static str> {
    ["persona", "framework", "scope", "mode", "release"].into_iter().chain(ParamKey::ALL.iter().map(|k| k.id()))
}

fn is_own_key(key: &str) -> bool {
    own_keys().any(|k| k == key)
}

/// The query a mount point's `data-<key>` attributes spell, given a lookup by attribute name.
/// The widget (reading the DOM) and the static fallback (reading HTML source) share it, so
/// both see the same defaults.
pub fn from_data_attributes(get: impl Fn(&str) -> Option<String>) -> String {
    let mut query = String::new();
    for key in own_keys() {
        if let Some(v) = get(&format!("data-{key}")) {
            urlencoded::append_pair(&mut query, key, &v);
        }
    }
    query
}

fn apply_pair(sel: &mut Selection, key: &str, value: &str) -> Result<(), InvalidReason> {
    match key {
        "persona" => sel.persona = Persona::from_id(value).ok_or(InvalidReason::Persona)?,
        "framework" => sel.framework = Framework::from_id(value).ok_or(InvalidReason::Framework)?,
        "scope" => sel.scope = RuntimeScope::from_id(value).ok_or(InvalidReason::Scope)?,
        "mode" => sel.mode = Mode::from_id(value).ok_or(InvalidReason::Mode)?,
        "release" => sel.release = Release::from_line(value).ok_or(InvalidReason::Release)?,
        // `apply` passes only its own keys: the others are the parameters'.
        _ => {
            if let Some(param) = ParamKey::from_id(key) {
                sel.params.set(param, value).map_err(InvalidReason::Param)?;
            }
        }
    }
    Ok(())
}

/// The pairs for `sel`, covering what `sync` shares. With `defaults: false` (links, storage),
/// values at their default are left out, so links stay short and pick up better defaults later.
/// With `defaults: true` (one instance telling the others) they are all there, so a value set
/// back to its default (the newest release, the compare view, a cleared field) reaches the
/// other instances too: they apply the message on top of their own selection.
fn pairs(sel: &Selection, sync: SyncSet, defaults: bool) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if sync.persona {
        out.push(("persona", sel.persona.id().to_string()));
    }
    if sync.framework {
        out.push(("framework", sel.framework.id().to_string()));
        if defaults || sel.mode != Mode::Compare {
            out.push(("mode", sel.mode.id().to_string()));
        }
    }
    if sync.params {
        if defaults || sel.scope != RuntimeScope::Cluster {
            out.push(("scope", sel.scope.id().to_string()));
        }
        // Left out of links at the newest, so an old link follows new releases unless it chose one.
        if defaults || sel.release != NEWEST {
            out.push(("release", sel.release.line.to_string()));
        }
        for key in ParamKey::ALL {
            match sel.params.get(key) {
                Some(v) => out.push((key.id(), v)),
                // An empty value clears the field.
                None if defaults => out.push((key.id(), String::new())),
                None => {}
            }
        }
    }
    out
}

fn serialize(pairs: Vec<(&'static str, String)>) -> String {
    let mut query = String::new();
    for (k, v) in pairs {
        urlencoded::append_pair(&mut query, k, &v);
    }
    query
}

/// `sel` as a query string without the leading `?`, defaults left out.
pub fn to_query(sel: &Selection, sync: SyncSet) -> String {
    serialize(pairs(sel, sync, false))
}

/// Every pair `sync` shares, defaults included: what one instance tells the others.
pub fn sync_query(sel: &Selection, sync: SyncSet) -> String {
    serialize(pairs(sel, sync, true))
}

/// Rewrites a host page's query string: keeps every pair we do not own exactly as written
/// (bytes and order), and replaces ours with `sel`'s. Used for `history.replaceState`, so the
/// host page's own parameters survive. A query over [`MAX_QUERY_LEN`] comes back unchanged:
/// `apply` does not read it, so the widget does not write into it either.
pub fn merge(existing: &str, sel: &Selection, sync: SyncSet) -> String {
    let existing = existing.strip_prefix('?').unwrap_or(existing);
    if existing.len() > MAX_QUERY_LEN {
        return existing.to_string();
    }
    let ours = to_query(sel, sync);
    // Written as they come, `&` between them: no pair is empty. (Collecting them into a `Vec`
    // to join was 0.9 KB of the widget's wasm.)
    let mut merged = String::new();
    let kept = existing.split('&').filter(|pair| !pair.is_empty() && !replaced_by(pair, sync));
    for pair in kept.chain((!ours.is_empty()).then_some(ours.as_str())) {
        if !merged.is_empty() {
            merged.push('&');
        }
        merged.push_str(pair);
    }
    merged
}

/// Whether `pair` (still encoded) is one of our keys that this instance writes.
fn replaced_by(pair: &str, sync: SyncSet) -> bool {
    urlencoded::parse(pair).next().is_some_and(|(key, _)| is_own_key(&key) && sync.covers(&key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_values_fall_back_to_defaults() {
        let (sel, issues) = apply("?persona=<script>&nodes=-7", &Selection::default(), SyncSet::ALL);
        assert_eq!(sel, Selection::default());
        assert_eq!(issues.len(), 2);
    }

    #[test]
    fn host_page_keys_survive_a_merge() {
        let mut sel = Selection::default();
        sel.params.nodes = Some(4);
        let q = merge("?utm_source=x&persona=platform-engineer&nodes=9&lang=en", &sel, SyncSet::ALL);
        assert_eq!(q, "utm_source=x&lang=en&persona=data-scientist&framework=pytorch&nodes=4");
    }

    #[test]
    fn a_preset_instance_keeps_its_framework() {
        let base = Selection::new(Persona::DataScientist, Framework::TorchTune);
        let sync = SyncSet::parse("persona,params");
        let (sel, _) = apply("persona=platform-engineer&framework=jax&gpus=2", &base, sync);
        assert_eq!(sel.framework, Framework::TorchTune);
        assert_eq!(sel.persona, Persona::PlatformEngineer);
        assert_eq!(sel.gpus(), 2);
    }

    #[test]
    fn a_sync_message_carries_values_set_back_to_their_default() {
        let mut changed = Selection {
            release: RELEASES[0],
            scope: RuntimeScope::Namespaced,
            mode: Mode::Migrate,
            ..Selection::default()
        };
        changed.params.nodes = Some(4);
        let (other, issues) = apply(&sync_query(&changed, SyncSet::ALL), &Selection::default(), SyncSet::ALL);
        assert_eq!((other.clone(), issues), (changed.clone(), vec![]));
        // The sender goes back to every default; the other instance follows.
        let (back, issues) = apply(&sync_query(&Selection::default(), SyncSet::ALL), &other, SyncSet::ALL);
        assert_eq!((back, issues), (Selection::default(), vec![]));
        // A preset that shares only the persona keeps the rest.
        let (preset, _) = apply(&sync_query(&Selection::default(), SyncSet::ALL), &changed, SyncSet::parse("persona"));
        assert_eq!(preset, changed);
    }

    #[test]
    fn the_release_is_a_shared_parameter_left_out_at_the_newest() {
        let (sel, issues) = apply("release=v2.1", &Selection::default(), SyncSet::ALL);
        assert!(issues.is_empty(), "{issues:?}");
        assert_eq!(sel.release.tag, "v2.1.0");
        assert_eq!(to_query(&sel, SyncSet::ALL), "persona=data-scientist&framework=pytorch&release=v2.1");
        assert_eq!(to_query(&Selection::default(), SyncSet::ALL), "persona=data-scientist&framework=pytorch");
        let preset = Selection::new(Persona::DataScientist, Framework::TorchTune);
        let (followed, _) = apply("release=v2.0", &preset, SyncSet::parse("persona,params"));
        assert_eq!(followed.release.line, "v2.0");
        let (kept, _) = apply("release=v2.0", &preset, SyncSet::parse("persona"));
        assert_eq!(kept.release, NEWEST);
        let err = parse_strict("release=v2.9").unwrap_err();
        assert_eq!(err.to_string(), "invalid release=\"v2.9\": expected one of v2.0, v2.1, v2.2, v2.3");
    }

    #[test]
    fn strict_parsing_names_the_bad_pair() {
        let err = parse_strict("framework=pytorch&bogus=1").unwrap_err();
        assert_eq!(err.to_string(), "unknown query key 'bogus'");
        let err = parse_strict("gpus=lots").unwrap_err();
        assert!(err.to_string().starts_with("invalid gpus=\"lots\""), "{err}");
    }

    /// Each refused value says why as a kind a caller can match, not as text.
    #[test]
    fn a_refused_value_has_a_typed_reason() {
        let reason = |query: &str| match parse_strict(query) {
            Err(QueryIssue::InvalidValue { reason, .. }) => reason,
            other => panic!("{query}: {other:?}"),
        };
        assert_eq!(reason("persona=x"), InvalidReason::Persona);
        assert_eq!(reason("framework=x"), InvalidReason::Framework);
        assert_eq!(reason("scope=x"), InvalidReason::Scope);
        assert_eq!(reason("mode=x"), InvalidReason::Mode);
        assert_eq!(reason("release=x"), InvalidReason::Release);
        let nodes = crate::selection::ParamError::OutOfRange { min: 1, max: crate::selection::MAX_NODES };
        assert_eq!(reason("nodes=0"), InvalidReason::Param(nodes));
        assert_eq!(
            reason("framework=x").to_string(),
            format!("expected one of {}", Framework::ALL.map(|f| f.id()).join(", "))
        );
    }
}

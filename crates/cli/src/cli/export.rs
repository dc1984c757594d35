use explorer_core::plain_ml;
use explorer_core::query;
use explorer_core::selection::{RuntimeScope, Selection};
use explorer_core::snippets::{all_snippets, Snippet};
use explorer_data::catalog::{Framework, Persona, V2Support, TRAINER_VERSION};
use explorer_data::releases::{NEWEST, RELEASES};
use serde::Serialize;

#[derive(Serialize)]
struct Export<'a> {
    trainer: &'a str,
    /// Every release line a query can name (`release=`), oldest first: the test harnesses loop
    /// over these rather than keep their own list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    releases: Vec<&'a str>,
    snippets: Vec<ExportedSnippet<'a>>,
}

#[derive(Serialize)]
struct ExportedSnippet<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    topic: Option<&'a str>,
    persona: &'a str,
    framework: &'a str,
    api: &'a str,
    language: &'a str,
    title: String,
    code: String,
}

fn exported(sel: &Selection, s: Snippet) -> ExportedSnippet<'static> {
    ExportedSnippet {
        topic: None,
        persona: sel.persona.id(),
        framework: sel.framework.id(),
        api: s.api.id(),
        language: s.language.id(),
        title: s.title,
        code: s.code,
    }
}

/// The post's topic snippets, in the same shape (with a `topic` field).
pub(super) fn export_topics_json() -> Result<String, String> {
    use explorer_core::snippets::topics::{owner, topic, TOPICS};
    let snippets = TOPICS
        .iter()
        .filter_map(|id| {
            let s = topic(id)?;
            Some(ExportedSnippet {
                topic: Some(id),
                persona: owner(id).0.id(),
                framework: owner(id).1.id(),
                api: s.api.id(),
                language: s.language.id(),
                title: s.title,
                code: s.code,
            })
        })
        .collect();
    serde_json::to_string_pretty(&Export { trainer: TRAINER_VERSION, releases: Vec::new(), snippets })
        .map_err(|e| e.to_string())
}

/// Why the one kind of runtime `sel` can have is not the one `query` asks for: a runtime
/// generated for a TensorFlow or PaddlePaddle job is a TrainingRuntime (`plain_ml::RUNTIME_SCOPE`),
/// so a query's `scope=cluster` gets one; the widget shows the same fact in place of its switch.
fn scope_note(query: &str, sel: &Selection) -> Option<String> {
    let asked = explorer_core::urlencoded::parse(query.strip_prefix('?').unwrap_or(query))
        .filter(|(key, _)| key == "scope")
        .last()
        .and_then(|(_, value)| RuntimeScope::from_id(&value))?;
    let only = plain_ml::RUNTIME_SCOPE;
    (sel.v2_support() == V2Support::GeneratedRuntime && asked != only).then(|| {
        format!(
            "note: scope={} does not apply to {}: its runtime is a {} (one namespace), since {}",
            asked.id(),
            sel.framework.label(),
            only.kind(),
            plain_ml::RUNTIME_SCOPE_REASON
        )
    })
}

/// Every persona × framework at defaults, or the one selection `query` names. A query whose
/// runtime scope cannot apply gets the selection's one kind and a note on stderr.
pub(super) fn export_json(query: Option<&str>) -> Result<String, String> {
    let selections: Vec<Selection> = match query {
        Some(q) => {
            let sel = query::parse_strict(q).map_err(|e| e.to_string())?;
            if let Some(note) = scope_note(q, &sel) {
                eprintln!("trainer-explorer: {note}");
            }
            vec![sel]
        }
        None => Persona::ALL
            .into_iter()
            .flat_map(|p| Framework::ALL.into_iter().map(move |f| Selection::new(p, f)))
            .collect(),
    };
    // The one release every selection shares (a query names at most one).
    let trainer = selections.first().map_or(NEWEST.tag, |sel| sel.release.tag);
    let snippets =
        selections.iter().flat_map(|sel| all_snippets(sel).into_iter().map(move |s| exported(sel, s))).collect();
    let releases = RELEASES.iter().map(|r| r.line).collect();
    serde_json::to_string_pretty(&Export { trainer, releases, snippets }).map_err(|e| e.to_string())
}

use explorer_core::query;
use explorer_core::selection::Selection;
use explorer_core::snippets::{all_snippets, Snippet};
use explorer_data::catalog::{Framework, Persona, TRAINER_VERSION};
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

/// Every persona × framework at defaults, or the one selection `query` names.
pub(super) fn export_json(query: Option<&str>) -> Result<String, String> {
    let selections: Vec<Selection> = match query {
        Some(q) => vec![query::parse_strict(q).map_err(|e| e.to_string())?],
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

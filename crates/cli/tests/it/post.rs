//! The post: one source, two outputs, no drift, no dead internal links, no rotted links.
#![cfg(not(target_arch = "wasm32"))]

use explorer_cli::post::{markdown_export, render_page, split, SOURCE_PATH, TEMPLATE_PATH};
use std::collections::HashSet;

/// A file of the repository. The post's pod-changes directive reads the real V1 corpus from
/// `$TRAINER_REAL_V1`, else from `../shared/real-v1` beside the working directory, as `make post`
/// runs it from the repository's root; a test runs in this crate's folder, so the first read
/// points an unset `$TRAINER_REAL_V1` at the root's default.
fn read(path: &str) -> String {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    static CORPUS: std::sync::Once = std::sync::Once::new();
    CORPUS.call_once(|| {
        if std::env::var_os("TRAINER_REAL_V1").is_none() {
            std::env::set_var("TRAINER_REAL_V1", root.join("../shared/real-v1"));
        }
    });
    std::fs::read_to_string(root.join(path)).unwrap()
}

#[test]
fn index_html_is_what_the_source_renders_to() {
    let page = render_page(&read(SOURCE_PATH), &read(TEMPLATE_PATH)).unwrap();
    assert!(page == read("index.html"), "index.html is stale: run `make post`");
}

#[test]
fn the_committed_fallbacks_are_what_the_core_generates() {
    use explorer_cli::post::fallback::{selection_from_tag, END, START};
    let html = read("index.html");
    // What a reader without JavaScript copies from each fallback is, block for block, the code
    // the core renders for the selection the mount point's attributes choose.
    for (at, _) in html.match_indices(START) {
        let tag_start = html[..at].rfind("<div").unwrap();
        let region = &html[at..at + html[at..].find(END).unwrap()];
        let view = explorer_core::snippets::render(&selection_from_tag(&html[tag_start..at]));
        let expected: Vec<&str> = view.v2.snippets.iter().chain(&view.v1.snippets).map(|s| s.code.as_str()).collect();
        let shown: Vec<String> = region
            .split("<pre tabindex=\"0\">")
            .skip(1)
            .map(|pre| text_of(&pre[..pre.find("</pre>").unwrap()]))
            .collect();
        assert_eq!(shown, expected, "the fallback after {}", &html[tag_start..at]);
    }
    // Every mount point carries a non-empty fallback with both panes.
    let mounts = html.matches("data-trainer-v2-explorer ").count() + html.matches("data-trainer-v2-explorer>").count();
    assert!(mounts >= 4, "{mounts}");
    assert_eq!(html.matches("<div class=\"tv2x-fallback\">").count(), mounts);
}

/// The text an HTML fragment shows: tags dropped, entities decoded.
fn text_of(fragment: &str) -> String {
    let mut text = String::new();
    let mut rest = fragment;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        rest = &rest[open + rest[open..].find('>').unwrap() + 1..];
    }
    text.push_str(rest);
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

fn attr_values(html: &str, attr: &str) -> Vec<String> {
    let needle = format!("{attr}=\"");
    html.match_indices(&needle)
        .map(|(i, _)| {
            let rest = &html[i + needle.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

#[test]
fn every_internal_anchor_resolves_and_ids_are_unique() {
    let html = read("index.html");
    let ids = attr_values(&html, " id");
    let unique: HashSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "duplicate ids");
    for href in attr_values(&html, "href").into_iter().filter(|h| h.starts_with('#')) {
        assert!(unique.contains(&href[1..].to_string()), "#{} has no target", &href[1..]);
    }
}

#[test]
fn links_are_current_and_secure() {
    let html = read("index.html");
    for href in attr_values(&html, "href").into_iter().filter(|h| !h.starts_with('#')) {
        // Same-page links that open the explorer in a given state.
        if href.ends_with(".css") || href.starts_with("data:") || href.starts_with("?") {
            continue;
        }
        assert!(href.starts_with("https://"), "{href}");
        // Locations that moved (FACTS.md §g): the KEP left docs/proposals, the docs left kubeflow.org.
        assert!(!href.contains("/docs/proposals/"), "{href}");
        assert!(!href.contains("kubeflow.org/docs/components/trainer"), "{href}");
    }
}

#[test]
fn the_page_has_no_inline_script_or_style() {
    // The strict CSP (issue 5) forbids them.
    let html = read("index.html");
    assert!(!html.contains(" style=\""));
    assert!(!html.contains("<style"));
    for (i, _) in html.match_indices("<script") {
        let tag = &html[i..i + html[i..].find('>').unwrap()];
        assert!(tag.contains(" src=\""), "inline script: {tag}");
    }
}

#[test]
fn the_blog_export_has_the_kubeflow_blog_front_matter() {
    let source = read(SOURCE_PATH);
    let (meta, _) = split(&source).unwrap();
    let (name, md) = markdown_export(&source).unwrap();
    assert_eq!(name, format!("{}-trainer-v2-explorer.md", meta.date));
    let front = md.strip_prefix("---\n").unwrap();
    let front = &front[..front.find("\n---\n").unwrap()];
    let parsed: serde_json::Value = serde_yaml::from_str(front).unwrap();
    assert_eq!(parsed["layout"], "post");
    assert_eq!(parsed["toc"], true);
    assert_eq!(parsed["categories"], serde_json::json!(["trainer"]));
    for key in ["title", "permalink", "author"] {
        assert!(parsed[key].as_str().is_some_and(|v| !v.is_empty()), "{key}");
    }
    assert!(!md.contains("<!-- snippet"), "directives are expanded");
    assert!(!md.contains("<!-- explorer"));
    assert!(md.contains("{% include trainer-v2-explorer.html persona=\"data-scientist\" framework=\"pytorch\" %}"));
    assert!(md.contains("```yaml\n# Kueue admits"), "topic snippets become fenced code");
    // The same sections as the page.
    for id in ["introduction", "personas", "llm-fine-tuning", "under-the-hood", "getting-started", "horizon"] {
        assert!(md.contains(&format!("{{#{id}}}")), "{id}");
    }
}

#[test]
fn the_blog_export_follows_the_blogs_conventions() {
    let source = read(SOURCE_PATH);
    let (meta, body) = split(&source).unwrap();
    let (_, md) = markdown_export(&source).unwrap();
    let front = md.strip_prefix("---\n").unwrap();
    let parsed: serde_json::Value = serde_yaml::from_str(&front[..front.find("\n---\n").unwrap()]).unwrap();
    assert_eq!(parsed["comments"], true);
    assert_eq!(parsed["hide"], false);
    let image = format!("images/{}-trainer-v2-explorer/social-card.png", meta.date);
    assert_eq!(parsed["image"], image.as_str());
    assert_eq!(explorer_cli::post::social_card_path(&meta), image);
    // The blog has no page.css: every diagram carries its own size.
    let svgs: Vec<&str> = body.match_indices("<svg").map(|(i, _)| &body[i..i + body[i..].find('>').unwrap()]).collect();
    assert!(!svgs.is_empty());
    for tag in svgs {
        assert!(tag.contains(" width=\"") && tag.contains(" height=\""), "diagram without its size: {tag}");
    }
}

#[test]
fn the_social_card_is_the_first_diagram_on_a_card() {
    let source = read(SOURCE_PATH);
    let card = explorer_cli::post::social_card_svg(&source).unwrap();
    assert!(card.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\" height=\"630\""));
    assert!(card.contains("Who owns what in Kubeflow Trainer V2"), "the first diagram");
    assert!(!card.contains("d2-title"), "only the first diagram");
    assert!(card.trim_end().ends_with("</svg></svg>"));
}

/// The rows of the page's "built-in runtime" table, as (runtime, since, removed) text.
fn runtime_table_rows(html: &str) -> Vec<[String; 3]> {
    let start = html.find("<th>Built-in runtime</th>").expect("the runtimes-by-release table is on the page");
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    let cell_text = |cell: &str| cell.replace("<code>", "").replace("</code>", "").trim().to_string();
    table
        .split("<tr>")
        .skip(1) // the rest of the header row
        .map(|row| {
            let cells: Vec<String> = row
                .split("<td")
                .skip(1)
                .map(|c| cell_text(&c[c.find('>').unwrap() + 1..c.find("</td>").unwrap()]))
                .collect();
            cells.try_into().unwrap_or_else(|c| panic!("a row of three cells: {c:?}"))
        })
        .collect()
}

#[test]
fn the_runtimes_by_release_table_is_the_release_data() {
    use explorer_data::releases::RELEASES;
    // Derived here from each release's runtime list, not through the generator's own helpers.
    let mut expected: Vec<[String; 3]> = Vec::new();
    for (i, release) in RELEASES.iter().enumerate() {
        for rt in release.runtimes {
            if expected.iter().any(|row| row[0] == rt.name) {
                continue;
            }
            let removed = RELEASES[i + 1..].iter().find(|later| later.runtimes.iter().all(|r| r.name != rt.name));
            expected.push([
                rt.name.to_string(),
                release.line.to_string(),
                removed.map_or("–".to_string(), |r| r.line.to_string()),
            ]);
        }
    }
    let rows = runtime_table_rows(&read("index.html"));
    assert_eq!(rows, expected, "index.html's table differs from releases.rs: run `make post`");
    assert_eq!(rows, runtime_table_rows(&render_page(&read(SOURCE_PATH), &read(TEMPLATE_PATH)).unwrap()));
    // The blog export carries the same table.
    let (_, md) = markdown_export(&read(SOURCE_PATH)).unwrap();
    assert!(md.contains(&explorer_cli::post::runtimes_table()), "the export has the generated table");
}

#[test]
fn no_release_version_is_left_unexpanded_or_typed_where_the_data_has_it() {
    let html = read("index.html");
    assert!(!html.contains("{{"), "every placeholder is expanded");
    let (_, md) = markdown_export(&read(SOURCE_PATH)).unwrap();
    assert!(!md.contains("{{"), "no placeholder reaches Liquid");
    // The newest tag and its SDK are inserted from the data, never typed in the source.
    let source = read(SOURCE_PATH);
    let newest = explorer_data::releases::NEWEST;
    for typed in [newest.tag, newest.sdk, newest.tag.trim_start_matches('v')] {
        let body = &source[source.find("\n---\n").unwrap()..];
        let prose: String = body.lines().filter(|l| !l.trim_start().starts_with('<')).collect::<Vec<_>>().join("\n");
        assert!(!prose.contains(typed), "{typed} typed into the post: use a {{{{…}}}} placeholder");
    }
}

/// The rows of the rendered table whose header cell is `header`, as cell texts.
fn table_rows(html: &str, header: &str) -> Vec<Vec<String>> {
    let start = html.find(&format!("<th>{header}</th>")).unwrap_or_else(|| panic!("a table headed {header}"));
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    let cell_text = |cell: &str| cell.replace("<code>", "").replace("</code>", "").trim().to_string();
    table
        .split("<tr>")
        .skip(1)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|c| cell_text(&c[c.find('>').unwrap() + 1..c.find("</td>").unwrap()]))
                .collect()
        })
        .collect()
}

#[test]
fn the_v1_to_v2_table_is_the_catalog_and_release_data() {
    use explorer_data::catalog::{Framework, V2Support, V1_OPERATOR};
    use explorer_data::releases::NEWEST;
    let page = read("index.html");
    let rows = table_rows(&page, "V2 runtime");
    assert_eq!(rows.len(), Framework::ALL.len(), "one row per framework: {rows:?}");
    for (framework, row) in Framework::ALL.into_iter().zip(&rows) {
        let [v1, v2] = &row[..] else { panic!("two cells: {row:?}") };
        // V1: the kind the catalog maps the framework to (TorchTune: the SDK call that made one).
        let v1_names =
            if framework == Framework::TorchTune { "TrainingClient.train()" } else { framework.v1_kind().kind() };
        assert!(v1.contains(v1_names), "{framework:?}: {v1}");
        // V2: the newest release's built-in runtime, or that there is none.
        match framework.v2_support() {
            V2Support::BuiltIn if framework == Framework::TorchTune => assert!(v2.contains("BuiltinTrainer"), "{v2}"),
            V2Support::BuiltIn => assert_eq!(v2, NEWEST.builtin_for(framework).unwrap().name, "{framework:?}"),
            V2Support::CustomRuntime => {
                assert!(v2.contains(&format!("mlPolicy.{}", framework.ml_policy().unwrap())), "{v2}")
            }
            V2Support::GeneratedRuntime => assert!(v2.contains("migrate writes a plain-ML runtime"), "{v2}"),
            V2Support::Unsupported => {
                assert!(v2.contains(NEWEST.tag) && v2.contains(V1_OPERATOR), "{framework:?}: {v2}")
            }
        }
    }
    assert_eq!(rows, table_rows(&render_page(&read(SOURCE_PATH), &read(TEMPLATE_PATH)).unwrap(), "V2 runtime"));
    let (_, md) = markdown_export(&read(SOURCE_PATH)).unwrap();
    assert!(md.contains(&explorer_cli::post::v1_to_v2_table()), "the export has the generated table");
}

#[test]
fn the_footer_names_the_releases_from_the_data() {
    use explorer_data::catalog::{V1_OPERATOR, V1_SDK};
    use explorer_data::releases::NEWEST;
    let page = read("index.html");
    let footer = &page[page.find("<footer class=\"site\">").expect("the page footer")..];
    let footer = &footer[..footer.find("</footer>").unwrap()];
    let expected = format!(
        "Snippets target Kubeflow Trainer {} with the Kubeflow SDK {}, and {V1_OPERATOR} with {V1_SDK}.",
        NEWEST.tag, NEWEST.sdk
    );
    assert!(footer.contains(&expected), "{footer}");
    assert!(!footer.contains("{{"), "{footer}");
}

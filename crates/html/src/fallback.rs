//! The page's no-JavaScript fallback: what a mount point shows before (or without) the widget, as
//! HTML. The CLI's post builder places it in each mount point of the page (`post::fallback`).

use crate::highlight::{code_html, escape_html, LongLines};
use explorer_core::explain::Explanation;
use explorer_core::snippets::{Pane, Snippet, View};

/// The static markup for one selection: the summary, both panes of its `view` (`snippets::render`)
/// with the same highlighted code the widget shows, and what Kubernetes runs for it (its
/// `explain::selection::for_selection`, when there is an explanation).
pub fn render_fallback(view: &View, explanation: Option<&Explanation>) -> String {
    let mut out = String::new();
    out.push_str("<div class=\"tv2x-fallback\">");
    out.push_str(&format!("<p class=\"tv2x-summary\">{}</p>", escape_html(&view.summary)));
    out.push_str("<div class=\"tv2x-panes\">");
    for (tag, side, pane) in [("V2", "v2", &view.v2), ("V1", "v1", &view.v1)] {
        out.push_str(&pane_html(tag, side, pane));
    }
    out.push_str("</div>");
    // What the widget's "What Kubernetes runs" disclosure shows for the same selection; <details>
    // opens without JavaScript. Unlinked: the TrainJob and runtime are in the V2 pane above.
    if let Some(explanation) = explanation {
        out.push_str("<details class=\"tv2x-k8s\"><summary>What Kubernetes runs</summary>");
        out.push_str(&crate::explain_view::html(explanation));
        out.push_str("</details>");
    }
    out.push_str(
        "<p class=\"tv2x-note\">This is the default view. With JavaScript, pick a persona and a framework here.</p>",
    );
    out.push_str("</div>");
    out
}

/// One pane; `side` is its class, as in the widget (`v2`, `v1`): a page's stylesheet gives a
/// compact preset's V2 code its whole height there, as the widget's does (src/ui/style.css).
fn pane_html(tag: &str, side: &str, pane: &Pane) -> String {
    let mut out = format!(
        // A labelled paragraph, not a heading: the fallback sits under h2 and h3 sections alike.
        "<section class=\"tv2x-pane {side}\"><p class=\"tv2x-pane-title\"><span class=\"tv2x-tag\">{tag}</span> {}</p>",
        escape_html(&pane.heading)
    );
    if let Some(n) = &pane.notice {
        out.push_str(&format!("<div class=\"tv2x-notice\"><p><strong>{}</strong></p>", escape_html(&n.title)));
        for p in &n.paragraphs {
            out.push_str(&format!("<p>{}</p>", escape_html(p)));
        }
        out.push_str("</div>");
    }
    for s in &pane.snippets {
        out.push_str(&snippet_html(s));
    }
    out.push_str("</section>");
    out
}

/// One snippet as a highlighted figure, for the page's static fallback and the post's code
/// blocks. Its class names the language, as the widget's code blocks do, so a check of what
/// readers copy knows how to parse it.
pub fn snippet_html(s: &Snippet) -> String {
    format!(
        "<figure class=\"tv2x-snippet {}\"><figcaption>{}</figcaption><pre tabindex=\"0\">{}</pre></figure>",
        s.language.id(),
        escape_html(&s.title),
        code_html(s.language, &s.code, &s.owned_by_runtime, LongLines::Scroll)
    )
}

//! "Upgrading from an older release" as HTML: for the selection at its release, what changes in
//! its V2 YAML from each older release line, newest first (the reader one release behind reads
//! the first section), field by field with the release, the pull request and the reason. Rendered
//! by the core with every text escaped, so the widget only places it; the converter module
//! computes and renders it (`explain_view` is its sibling), the widget's own wasm carries none.

use crate::highlight::escape_html as esc;
use explorer_core::upgrade::notes::{FromOlder, Note};
use explorer_data::releases::Release;
use std::fmt::Write;

const PULLS: &str = "https://github.com/kubeflow/trainer/pull/";

/// Text whose `backticked` parts are code, escaped.
fn prose(s: &str) -> String {
    s.split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { format!("<code>{}</code>", esc(part)) } else { esc(part) })
        .collect()
}

/// A field path as code, with a break opportunity after each dot (a phone's column is narrow).
fn path(p: &str) -> String {
    format!("<code>{}</code>", esc(p).replace('.', ".<wbr>"))
}

fn verb(action: &str) -> &str {
    match action {
        "omitted" => "left out",
        "attention" => "needs attention",
        other => other,
    }
}

fn note_html(out: &mut String, n: &Note) {
    let _ = write!(
        out,
        "<li data-field=\"{}\" data-action=\"{}\" data-release=\"{}\">{} <strong>{}</strong>",
        esc(&n.field),
        esc(n.action),
        esc(n.release.line),
        path(&n.field),
        verb(n.action)
    );
    let to: Vec<String> = n.to.iter().map(|t| path(t)).collect();
    if !to.is_empty() {
        let _ = write!(out, " → {}", to.join(", "));
    }
    let _ = write!(out, " <span class=\"up-obj\">({})</span><div class=\"up-why\">", esc(&n.object));
    let mut why: Vec<String> = n
        .changes
        .iter()
        .map(|c| format!("<a href=\"{PULLS}{}\">{} #{}</a>: {}", c.pr, esc(c.release.line), c.pr, prose(c.reason)))
        .collect();
    if n.changes.is_empty() {
        why.push(format!("{}: {}", esc(n.release.line), prose(&n.detail)));
    } else if !n.detail.is_empty() {
        why.push(prose(&n.detail));
    }
    let _ = write!(out, "{}</div></li>", why.join("; "));
}

/// The pane's HTML for a selection at release `to`: one section per older release line, as
/// `upgrade::notes::notes_from_older_releases` gives them (newest first).
pub fn html(to: Release, older: &[(Release, FromOlder)]) -> String {
    // Styled by www/pkg-migrate/upgrade.css, which the loader adopts: a <style> element here
    // would be blocked by a strict style-src 'self'.
    let mut out = format!("<div class=\"up\" data-to=\"{}\">", esc(to.line));
    if older.is_empty() {
        let _ = write!(out, "<p>Trainer {} is the oldest release this page covers.</p>", esc(to.tag));
    }
    for (from, notes) in older {
        let _ = write!(
            out,
            "<section class=\"up-from\" data-from=\"{}\"><h4>From {} to {}</h4>",
            esc(from.line),
            esc(from.tag),
            esc(to.tag)
        );
        match notes {
            FromOlder::NoRuntime => {
                let _ = write!(
                    out,
                    "<p>Trainer {} has no runtime for this selection, so there is nothing to upgrade.</p>",
                    esc(from.tag)
                );
            }
            FromOlder::Notes(Ok(notes)) if notes.is_empty() => {
                out.push_str("<p class=\"up-none\">No changes to this YAML.</p>")
            }
            FromOlder::Notes(Ok(notes)) => {
                out.push_str("<ul class=\"up-notes\">");
                notes.iter().for_each(|n| note_html(&mut out, n));
                out.push_str("</ul>");
            }
            FromOlder::Notes(Err(e)) => {
                let _ = write!(out, "<p class=\"migrate-error\" role=\"alert\">{}</p>", esc(&e.to_string()));
            }
        }
        out.push_str("</section>");
    }
    out + "</div>"
}

#[cfg(test)]
mod tests {
    use super::*;
    use explorer_core::release_changes::API_CHANGES;

    /// The pane for a selection, as the converter module renders it.
    fn pane(query: &str) -> String {
        let sel = explorer_core::query::parse_strict(query).unwrap();
        html(sel.release, &explorer_core::upgrade::notes::notes_from_older_releases(&sel))
    }

    /// The section for one `from` release.
    fn section<'a>(html: &'a str, from: &str) -> &'a str {
        let start = html.find(&format!("data-from=\"{from}\"")).unwrap_or_else(|| panic!("no {from} in {html}"));
        &html[start..start + html[start..].find("</section>").unwrap()]
    }

    #[test]
    fn a_platform_engineers_torch_runtime_at_v2_3_lists_each_older_release() {
        let html = pane("persona=platform-engineer&framework=pytorch");
        let order: Vec<usize> =
            ["v2.2", "v2.1", "v2.0"].iter().map(|l| html.find(&format!("data-from=\"{l}\"")).unwrap()).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "newest first: {html}");
        assert!(section(&html, "v2.2").contains("No changes to this YAML."), "{html}");
        let from_v2_0 = section(&html, "v2.0");
        assert!(
            from_v2_0.contains(
                "<li data-field=\"spec.mlPolicy.torch.numProcPerNode\" data-action=\"omitted\" data-release=\"v2.2\">"
            ),
            "{from_v2_0}"
        );
        assert!(from_v2_0.contains("<a href=\"https://github.com/kubeflow/trainer/pull/3239\">v2.2 #3239</a>: the torch policy lost numProcPerNode: each TrainJob states it in <code>spec.trainer.numProcPerNode</code>"), "{from_v2_0}");
    }

    #[test]
    fn the_oldest_release_and_a_framework_an_older_release_lacks_say_so() {
        assert!(pane("release=v2.0&framework=pytorch").contains("v2.0.1 is the oldest release"));
        let jax = pane("framework=jax");
        assert!(section(&jax, "v2.1").contains("v2.1.0 has no runtime for this selection"), "{jax}");
        assert!(!section(&jax, "v2.1").contains("No changes"), "{jax}");
        assert!(section(&jax, "v2.2").contains("No changes to this YAML."), "{jax}");
    }

    #[test]
    fn text_is_escaped_and_backticks_become_code() {
        let change = &API_CHANGES[0];
        let n = Note {
            object: "TrainJob <x>".into(),
            field: "spec.\"a\"<b>".into(),
            action: "dropped",
            to: vec!["spec.<c>".into()],
            release: change.release,
            changes: vec![change],
            reason: String::new(),
            detail: "set `a<b` & <i>go</i>".into(),
        };
        let mut out = String::new();
        note_html(&mut out, &n);
        assert!(out.contains("data-field=\"spec.&quot;a&quot;&lt;b&gt;\""), "{out}");
        assert!(
            out.contains(
                "<code>spec.<wbr>&quot;a&quot;&lt;b&gt;</code> <strong>dropped</strong> → <code>spec.<wbr>&lt;c&gt;</code>"
            ),
            "{out}"
        );
        assert!(out.contains("(TrainJob &lt;x&gt;)"), "{out}");
        assert!(out.ends_with("; set <code>a&lt;b</code> &amp; &lt;i&gt;go&lt;/i&gt;</div></li>"), "{out}");
        assert!(!out.contains("<i>") && !out.contains("`"), "{out}");
    }
}

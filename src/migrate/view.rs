//! What the widget shows for a migration, as one serialisable value. The converter runs in a
//! separate, lazily loaded wasm module; this is what crosses between the two (as JSON).

use super::report::{EntryIndex, Status};
use super::{migrate_to, Outcome};
use crate::highlight::{escape_html, to_html_with_classes};
use crate::model::Value;
use crate::releases::{Release, NEWEST};
use crate::snippets::Language;
use crate::yaml;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MigrateView {
    /// Set when the input as a whole could not be read (empty, binary, too large, too deep).
    pub error: Option<String>,
    pub output_yaml: String,
    pub documents: Vec<DocView>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocView {
    pub index: usize,
    pub line: usize,
    /// "PyTorchJob pytorch-simple"
    pub title: String,
    /// converted | lossy | refused | passed | invalid
    pub status: String,
    pub message: String,
    /// The V1 document, re-emitted, with each line classed m (mapped), v (moved) or d (dropped).
    pub v1_html: String,
    pub rows: Vec<Row>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub v1: String,
    pub status: String,
    pub v2: String,
    pub note: String,
}

fn class_of(status: Status) -> &'static str {
    match status {
        Status::Mapped => "m",
        Status::Moved => "v",
        Status::Dropped => "d",
        // The field still has its counterpart, under V2's fixed name.
        Status::Renamed => "m",
    }
}

/// Converts `text` for the newest release and lays the result out for display.
pub fn view(text: &str) -> MigrateView {
    view_for(text, NEWEST)
}

/// Converts `text` for `target` and lays the result out for display.
pub fn view_for(text: &str, target: Release) -> MigrateView {
    let m = match migrate_to(text, target) {
        Ok(m) => m,
        Err(e) => return MigrateView { error: Some(e), ..Default::default() },
    };
    let output_yaml = m.output_yaml();
    let documents = m
        .docs
        .iter()
        .map(|d| {
            let source_lines = d.source.as_ref().map(|v| yaml::emit(&Value::from(v))).unwrap_or_default();
            let source_text = yaml::join(&source_lines);
            let (title, status, message, rows, classes) = match &d.outcome {
                Outcome::Converted { name, kind, report, lossy, .. } => {
                    let index = EntryIndex::new(report);
                    let classes: Vec<Option<&str>> = source_lines
                        .iter()
                        .map(|l| index.find(&yaml::path_to_string(&l.path)).map(|i| class_of(report[i].status)))
                        .collect();
                    let rows = report
                        .iter()
                        .map(|e| Row {
                            v1: e.v1.clone(),
                            status: e.status.id().into(),
                            v2: e.v2.clone().unwrap_or_default(),
                            note: e.note.clone(),
                        })
                        .collect();
                    let dropped = report.iter().filter(|e| e.status == Status::Dropped).count();
                    let message = if *lossy {
                        format!("Converted; {dropped} field(s) could not be carried over (see the report).")
                    } else {
                        "Converted without losses.".into()
                    };
                    (format!("{kind} {name}"), if *lossy { "lossy" } else { "converted" }, message, rows, classes)
                }
                Outcome::Refused { name, kind, reason } => {
                    (format!("{kind} {name}"), "refused", reason.clone(), vec![], vec![])
                }
                Outcome::PassedThrough { name, kind, .. } => (
                    format!("{kind} {name}"),
                    "passed",
                    "Not a Training Operator job: passed through unchanged.".into(),
                    vec![],
                    vec![],
                ),
                Outcome::Invalid { message } => ("Invalid document".into(), "invalid", message.clone(), vec![], vec![]),
            };
            DocView {
                index: d.index,
                line: d.line,
                title,
                status: status.into(),
                message,
                v1_html: to_html_with_classes(Language::Yaml, &source_text, &classes),
                rows,
            }
        })
        .collect();
    MigrateView { error: None, output_yaml, documents }
}

/// The documents' status list, as HTML (escaped). The converter module renders it, so the
/// widget needs no JSON decoder.
pub fn summary_html(view: &MigrateView) -> String {
    let mut out = String::from("<ul class=\"doc-status\">");
    for d in &view.documents {
        out.push_str(&format!(
            "<li class=\"doc {}\"><span class=\"badge\">{}</span> <strong>{}</strong> <span class=\"where\">(document {}, line {})</span> <span class=\"doc-msg\">{}</span></li>",
            d.status,
            d.status,
            escape_html(&d.title),
            d.index,
            d.line,
            escape_html(&d.message)
        ));
    }
    out.push_str("</ul>");
    out
}

/// Each converted document's marked V1 lines and field report.
pub fn report_html(view: &MigrateView) -> String {
    let mut out = String::new();
    for d in view.documents.iter().filter(|d| !d.rows.is_empty()) {
        let title = escape_html(&d.title);
        out.push_str(&format!(
            "<details class=\"report\" open><summary>Where each field of {title} went</summary><div class=\"report-grid\">\
             <figure class=\"snippet yaml v1-marked\"><figcaption><span class=\"title\">The V1 job</span>\
             <span class=\"key\"><span class=\"k-m\">mapped</span><span class=\"k-v\">moved</span><span class=\"k-d\">dropped</span></span></figcaption>\
             <pre tabindex=\"0\" aria-label=\"{title} with each line marked\"><code>{}</code></pre></figure>\
             <div class=\"table-wrap\" tabindex=\"0\" role=\"region\" aria-label=\"Field report for {title}\"><table>\
             <thead><tr><th scope=\"col\">V1 field</th><th scope=\"col\">Outcome</th><th scope=\"col\">V2 / reason</th></tr></thead><tbody>",
            d.v1_html
        ));
        for r in &d.rows {
            out.push_str(&format!(
                "<tr class=\"{}\"><td><code>{}</code></td><td>{}</td><td>",
                r.status,
                escape_html(&r.v1),
                r.status
            ));
            if !r.v2.is_empty() {
                out.push_str(&format!("<code>{}</code>", escape_html(&r.v2)));
            }
            if !r.note.is_empty() {
                out.push_str(&format!(" <span class=\"note\">{}</span>", escape_html(&r.note)));
            }
            out.push_str("</td></tr>");
        }
        out.push_str("</tbody></table></div></div></details>");
    }
    out
}

/// What crosses from the converter module to the widget.
#[derive(Serialize)]
struct Rendered<'a> {
    error: Option<&'a str>,
    yaml: &'a str,
    summary: String,
    html: String,
}

/// The conversion of `text` for the newest release, as `{"error", "yaml", "html"}` JSON.
pub fn rendered_json(text: &str) -> String {
    render(view(text))
}

/// The conversion of `text` for the release line `line` (`v2.1`), as JSON for the wasm
/// boundary; an unknown line is the answer's error.
pub fn rendered_json_for(text: &str, line: &str) -> String {
    match Release::from_line(line) {
        Some(target) => render(view_for(text, target)),
        None => render(MigrateView {
            error: Some(format!("unknown Trainer release {line:?}: the converter cannot write for it")),
            ..Default::default()
        }),
    }
}

fn render(v: MigrateView) -> String {
    let (summary, html) = if v.error.is_some() { Default::default() } else { (summary_html(&v), report_html(&v)) };
    serde_json::to_string(&Rendered { error: v.error.as_deref(), yaml: &v.output_yaml, summary, html })
        .unwrap_or_default()
}

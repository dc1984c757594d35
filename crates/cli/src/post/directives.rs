//! The directives of the post source, parsed once and rendered per output.

use super::fallback;
use explorer_core::query;
use explorer_core::selection::Selection;
use explorer_core::snippets::{all_snippets, topics, Api, Language, Snippet};
use explorer_html::highlight::escape_html;

pub(super) enum Directive {
    Toc,
    Snippet(Snippet),
    Explorer {
        attrs: Vec<(String, String)>,
    },
    /// The built-in runtimes of every release line, generated from the release data.
    RuntimesByRelease,
    /// Each framework's V1 kind next to the newest release's runtime for it.
    V1ToV2,
    /// The Kueue releases that queue each release line's TrainJobs (data/src/kueue.rs).
    KueueByRelease,
    /// A preset of "What Kubernetes runs": static HTML from the views (explorer_html::explain_view), the same
    /// with or without JavaScript; the page's script only adds the line highlighting.
    Explain(String),
    /// "What changes for your pods" for one real V1 job of the corpus ($TRAINER_REAL_V1): static
    /// HTML from the migrate view, as the widget's migrate mode shows it.
    PodChanges(String),
}

/// `key=value` words; a bare word is `key=""`. Values cannot contain spaces.
fn words(s: &str) -> Vec<(String, String)> {
    s.split_whitespace()
        .map(|w| match w.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (w.to_string(), String::new()),
        })
        .collect()
}

fn get<'a>(attrs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

/// Parses a directive line, or returns `None` for any other line.
pub(super) fn parse(line: &str) -> Option<Result<Directive, String>> {
    let inner = line.trim().strip_prefix("<!--")?.strip_suffix("-->")?.trim();
    let (name, rest) = inner.split_once(' ').unwrap_or((inner, ""));
    let attrs = words(rest);
    Some(match name {
        "toc" => Ok(Directive::Toc),
        "explorer" => Ok(Directive::Explorer { attrs }),
        "runtimes-by-release" => Ok(Directive::RuntimesByRelease),
        "v1-to-v2" => Ok(Directive::V1ToV2),
        "kueue-by-release" => Ok(Directive::KueueByRelease),
        "snippet" => snippet(&attrs).map(Directive::Snippet),
        "explain" => explain(&attrs).map(Directive::Explain),
        "pod-changes" => pod_changes(&attrs).map(Directive::PodChanges),
        _ => return None,
    })
}

fn snippet(attrs: &[(String, String)]) -> Result<Snippet, String> {
    if let Some(id) = get(attrs, "topic") {
        return topics::topic(id).ok_or(format!("unknown topic {id}"));
    }
    let q = get(attrs, "query").ok_or("a snippet needs topic= or query=")?;
    let sel = query::parse_strict(&q.replace(',', "&")).map_err(|e| e.to_string())?;
    let api = match get(attrs, "api") {
        Some("v1") => Api::V1,
        _ => Api::V2,
    };
    let language = match get(attrs, "language") {
        Some("python") => Language::Python,
        _ => Language::Yaml,
    };
    all_snippets(&sel)
        .into_iter()
        .find(|s| s.api == api && s.language == language)
        .ok_or(format!("no {api:?} {language:?} snippet for {q}"))
}

/// `<!-- explain query=framework=deepspeed,nodes=4,gpus=2 -->`: the linked view for that
/// selection, as a figure.
fn explain(attrs: &[(String, String)]) -> Result<String, String> {
    let q = get(attrs, "query").ok_or("an explain directive needs query=")?.replace(',', "&");
    let sel = query::parse_strict(&q).map_err(|e| format!("explain directive: {e}"))?;
    let explained = explorer_core::explain::selection::linked(&sel).map_err(|e| format!("explain directive: {e}"))?;
    let view = explorer_html::explain_view::selection_html(&explained);
    Ok(format!(
        "<figure class=\"k8s-preset\" data-query=\"{}\"><figcaption>What Kubernetes runs: the {} TrainJob and its runtime, \
         and what the Trainer {} controller makes of them</figcaption>{view}</figure>",
        escape_html(&q),
        escape_html(sel.framework.label()),
        escape_html(sel.release.tag)
    ))
}

/// `<!-- pod-changes file=14-coreweave-imagenet-pytorchjob.yaml -->`: that file of the real V1
/// corpus (`$TRAINER_REAL_V1`, default `../shared/real-v1`), converted for the newest release,
/// and what changes for its pods; the caption names the file's source (its first line).
fn pod_changes(attrs: &[(String, String)]) -> Result<String, String> {
    let file = get(attrs, "file").ok_or("a pod-changes directive needs file=")?;
    let dir = std::env::var_os("TRAINER_REAL_V1").map_or_else(|| "../shared/real-v1".into(), std::path::PathBuf::from);
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("pod-changes directive: {}: {e} (set TRAINER_REAL_V1)", path.display()))?;
    let first = text.lines().next().and_then(|l| l.strip_prefix('#')).map_or("", str::trim);
    let source = first.strip_prefix("source:").map_or(first, str::trim);
    let m = explorer_core::migrate::migrate(&text).map_err(|e| format!("pod-changes directive: {file}: {e}"))?;
    let view = explorer_html::migrate_view::pods_html(&m, &explorer_core::migrate::pods::explained_documents(&m));
    if view.is_empty() || view.contains("class=\"unexplained\"") || view.contains("pods-error") {
        return Err(format!("pod-changes directive: {file} gives no fully explained pod comparison"));
    }
    Ok(format!(
        "<figure class=\"pods-preset\"><figcaption>A real V1 job, <code>{}</code> ({}), converted for Trainer {}: \
         what changes for its pods</figcaption>{view}</figure>",
        escape_html(file),
        escape_html(source),
        escape_html(m.target.tag)
    ))
}

/// The mount point: `data-*` from the directive, and an empty fallback region that
/// `fallback::fill_page` fills.
pub(super) fn explorer_html(attrs: &[(String, String)]) -> String {
    let preset = get(attrs, "preset").is_some();
    let mut html = format!("<div class=\"explorer{}\" {}", if preset { " preset" } else { "" }, fallback::MOUNT_ATTR);
    for (k, v) in attrs {
        match k.as_str() {
            "preset" => html.push_str(" data-compact"),
            _ => html.push_str(&format!(" data-{k}=\"{}\"", escape_html(v))),
        }
    }
    html.push_str(&format!(">{}{}</div>", fallback::START, fallback::END));
    html
}

/// The Jekyll include for the blog export (the blog kit, embed/kubeflow-blog).
pub(super) fn explorer_include(attrs: &[(String, String)]) -> String {
    let mut out = String::from("{% include trainer-v2-explorer.html");
    for (k, v) in attrs {
        match k.as_str() {
            "preset" => out.push_str(" compact=true"),
            _ => out.push_str(&format!(" {k}=\"{v}\"")),
        }
    }
    out.push_str(" %}");
    out
}

/// Checks a mount's attributes describe a valid selection (a typo would show defaults).
pub(super) fn check_explorer(attrs: &[(String, String)]) -> Result<(), String> {
    // `preset` and `sync` shape the mount point, not the selection.
    let q: Vec<String> = attrs
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "preset" | "sync"))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    query::parse_strict(&q.join("&")).map(|_: Selection| ()).map_err(|e| format!("explorer directive: {e}"))
}

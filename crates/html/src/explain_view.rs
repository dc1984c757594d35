//! "What Kubernetes runs" as HTML: the pods as a compact list, each container's environment, the
//! MPI hostfile and the objects next to the JobSet, or the rejection. Rendered by the core (all
//! text escaped) so the widget only places it: the converter module computes and renders it, and
//! the widget's own wasm carries none of this code. The post embeds the same HTML as presets.
//! Its layout is pkg-migrate/explain.css (a stylesheet file: the strict CSP forbids inline styles).
//!
//! Linked (`linked_html`), the view also shows the TrainJob and runtime YAML beside the items, and
//! each item names the lines it comes from (`data-src="t:12 r:30"`, from `sources.rs`; its
//! tooltip says them without JavaScript); pkg-migrate/sources.js highlights them on hover, focus
//! and click, and shows the hint that says so.

use crate::highlight::escape_html as esc;
use explorer_core::explain::sources::{Origins, Shown, Source};
use explorer_core::explain::summary::{self, Part};
use explorer_core::explain::COMPLETION_INDEX;
use explorer_core::explain::{ContainerView, Explanation, PodGroup};
use explorer_core::snippets::Language;
use std::fmt::Write;

/// A heading inside the view that is no `<h4>`: a host's table of contents (the blog's jekyll-toc)
/// lists every `<hN>` of a page, and these belong to a figure or a widget, not to the page's outline.
/// Screen readers still find them by heading.
const SUBHEADING: &str = "<p class=\"k8s-h\" role=\"heading\" aria-level=\"4\">";

/// Where the items' sources are, when the view links them to the YAML it shows.
struct Links<'a> {
    origins: &'a Origins<'a>,
    shown: &'a Shown,
}

impl Links<'_> {
    /// The attributes that make an element an item with sources: its lines (`t:12 r:30`), a
    /// tab stop, and a tooltip naming them (which reads without JavaScript too).
    fn attrs(&self, sources: &[Source]) -> String {
        let found: Vec<(String, String)> = sources
            .iter()
            .filter_map(|s| {
                let line = self.shown.line(s)?;
                let doc = match s.doc {
                    explorer_core::explain::sources::Doc::TrainJob => "TrainJob",
                    explorer_core::explain::sources::Doc::Runtime => "runtime",
                };
                Some((format!("{}:{line}", s.doc.id()), format!("{doc} line {line}")))
            })
            .collect();
        if found.is_empty() {
            return String::new();
        }
        let ids: Vec<&str> = found.iter().map(|(id, _)| id.as_str()).collect();
        let words: Vec<&str> = found.iter().map(|(_, w)| w.as_str()).collect();
        format!(" data-src=\"{}\" tabindex=\"0\" title=\"From {}\"", ids.join(" "), words.join(", "))
    }
}

/// What the view's items link to: `Option<&Links>` where a view may be linked, `()` for the plain
/// view (`html`). A type rather than only an `Option`, so that the plain view compiles without the
/// code that finds the sources: migrate mode's "What Kubernetes runs" (`migrate_runs`) shows only
/// the plain view, and the converter module then carries none of `explain::sources` (about 11 KB
/// of code before wasm-opt).
trait ItemLinks {
    /// The item attributes for `sources`, or nothing when the view is not linked.
    fn src(&self, sources: impl FnOnce(&Links) -> Vec<Source>) -> String;
}

impl ItemLinks for () {
    fn src(&self, _: impl FnOnce(&Links) -> Vec<Source>) -> String {
        String::new()
    }
}

impl ItemLinks for Option<&Links<'_>> {
    // Inlined into each item as the free function before it was (a call per item costs the
    // explain module about 0.4 KB gzipped).
    #[inline]
    fn src(&self, sources: impl FnOnce(&Links) -> Vec<Source>) -> String {
        self.map(|l| l.attrs(&sources(l))).unwrap_or_default()
    }
}

fn code(s: &str) -> String {
    format!("<code>{}</code>", esc(s))
}

/// A value as `code`, breakable after its punctuation (`push_breakable`): the pane's own stylesheet
/// breaks a word only where nothing else fits, so on a phone `metadata.annotations['batch.…']`
/// wraps at its dots and slashes, not as `metadata.annotat|ions`.
fn value_code(s: &str) -> String {
    let mut out = String::from("<code>");
    crate::highlight::push_breakable(&mut out, s);
    out + "</code>"
}

/// What an env value reads as: a per-pod source in words, else the value.
fn env_value(value: &str, count: u32) -> String {
    match value.strip_prefix("fieldRef:") {
        Some(path) if path == COMPLETION_INDEX => {
            let last = count.saturating_sub(1);
            format!("{} … {last}: each pod's completion index ({})", code("0"), value_code(path))
        }
        Some(path) => format!("per pod, from {}", value_code(path)),
        None => value_code(value),
    }
}

/// A summary line of the core's (`explain::summary`), its code spans as `<code>`.
fn parts_html(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| match p {
            Part::Text(s) => esc(s),
            Part::Code(s) => code(s),
        })
        .collect()
}

/// The pods of each replicatedJob, one summary line each and the line under it.
fn pods_html(out: &mut String, e: &Explanation, links: &impl ItemLinks) {
    let _ = write!(out, "{SUBHEADING}Pods</p><ul class=\"k8s-pods\">");
    for group in &e.pods {
        let gpu = group.containers.iter().filter(|c| !c.init).find_map(summary::gpus);
        let _ = write!(
            out,
            "<li data-rjob=\"{}\" data-count=\"{}\"{}>{}",
            esc(&group.replicated_job),
            group.count,
            links.src(|l| l.origins.pod_group(group, gpu.is_some())),
            parts_html(&summary::pod_group(e, group))
        );
        if let Some(job) = summary::replicated_job(e, group) {
            let _ =
                write!(out, "<div class=\"k8s-hosts\">{}</div>", parts_html(&summary::pod_group_details(job, group)));
            pod_settings_html(out, group);
        }
        out.push_str("</li>");
    }
    out.push_str("</ul>");
}

/// A value as YAML flow text, the way a reader would write it inline: `{fsGroup: 1000}`.
fn flow(value: &explorer_core::model::Value) -> String {
    use explorer_core::model::Value;
    match value {
        Value::Object(m) => {
            let items: Vec<String> = m.iter().map(|(k, v)| format!("{k}: {}", flow(v))).collect();
            format!("{{{}}}", items.join(", "))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(flow).collect::<Vec<_>>().join(", ")),
        other => serde_json::to_string(other).unwrap_or_default().trim_matches('"').to_string(),
    }
}

/// A `key: value` pair of a label or annotation map, compactly.
fn pairs(map: &explorer_core::model::vecmap::VecMap<String, String>) -> String {
    map.iter().map(|(k, v)| code(&format!("{k}={v}"))).collect::<Vec<_>>().join(", ")
}

/// The pod-level settings of a replicatedJob's pods (service account, node selector, affinity,
/// tolerations, ...) and its pod labels and annotations, one compact line each, values as YAML
/// flow text.
fn pod_settings_html(out: &mut String, group: &PodGroup) {
    let mut lines: Vec<String> = Vec::new();
    if !group.labels.is_empty() {
        lines.push(format!("labels {}", pairs(&group.labels)));
    }
    if !group.annotations.is_empty() {
        lines.push(format!("annotations {}", pairs(&group.annotations)));
    }
    for (field, value) in group.spec.iter() {
        let text = match (field.as_str(), value) {
            ("volumes", explorer_core::model::Value::Array(volumes)) => volumes
                .iter()
                .filter_map(|v| match v {
                    explorer_core::model::Value::Object(m) => {
                        let name = match m.get("name") {
                            Some(explorer_core::model::Value::String(n)) => n.as_str(),
                            _ => "",
                        };
                        let source = m.iter().find(|(k, _)| *k != "name").map_or("", |(k, _)| k.as_str());
                        Some(format!("{} ({})", code(name), esc(source)))
                    }
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(", "),
            _ => code(&flow(value)),
        };
        lines.push(format!("{} {text}", esc(field)));
    }
    if lines.is_empty() {
        return;
    }
    out.push_str("<ul class=\"k8s-pod-settings\">");
    for line in lines {
        let _ = write!(out, "<li>{line}</li>");
    }
    out.push_str("</ul>");
}

fn env_html(out: &mut String, group: &PodGroup, c: &ContainerView, links: &impl ItemLinks) {
    let init = if c.init { "init container" } else { "container" };
    let _ = write!(
        out,
        "{SUBHEADING}Environment of {} pods, {init} {}</p><div class=\"k8s-env-wrap\"><table class=\"k8s-env\">\
         <thead><tr><th>Variable</th><th>Value</th></tr></thead><tbody>",
        code(&group.replicated_job),
        code(&c.name)
    );
    for (name, value) in c.env.iter() {
        let value = &value.text();
        let _ = write!(
            out,
            "<tr data-env=\"{}\" data-value=\"{}\"{}><td>{}</td><td>{}</td></tr>",
            esc(name),
            esc(value),
            links.src(|l| l.origins.env(group, &c.name, c.init, name, value)),
            code(name),
            env_value(value, group.count)
        );
    }
    for source in &c.env_from {
        let attrs = links.src(|l| l.origins.env_from(group, source));
        let _ = write!(out, "<tr{attrs}><td>every key of</td><td>{}</td></tr>", code(source));
    }
    out.push_str("</tbody></table></div>");
}

/// The pane's HTML for an explanation.
pub fn html(e: &Explanation) -> String {
    unlinked(e, &())
}

/// `html`, from the same code as the linked view (`None::<&Links>`), or without any of it (`()`):
/// where the linked view is shown, an unlinked one (a rejection) adds no second copy of `body`.
fn unlinked(e: &Explanation, links: &impl ItemLinks) -> String {
    let mut out = format!("<div class=\"k8s\" data-trainer=\"{}\">", esc(&e.trainer));
    body(&mut out, e, links);
    out + "</div>"
}

/// The view with its items linked to the lines of `shown` (the TrainJob and runtime YAML) they
/// come from, shown beside them.
pub fn linked_html(e: &Explanation, origins: &Origins, shown: &Shown) -> String {
    if !e.admitted() {
        return unlinked(e, &None::<&Links>);
    }
    let links = Links { origins, shown };
    let mut out = format!(
        "<div class=\"k8s k8s-linked\" data-trainer=\"{}\"><div class=\"k8s-items\">\
         <p class=\"k8s-hint\" hidden>Each item names the lines of the TrainJob or runtime it comes from: hover, focus \
         or click it to highlight them in the YAML.</p>",
        esc(&e.trainer)
    );
    body(&mut out, e, &Some(&links));
    out.push_str("<p class=\"k8s-live\" aria-live=\"polite\"></p></div><div class=\"k8s-yaml\">");
    for (doc, title, lines) in [
        (explorer_core::explain::sources::Doc::TrainJob, "TrainJob", &shown.trainjob),
        (explorer_core::explain::sources::Doc::Runtime, "Runtime", &shown.runtime),
    ] {
        let text = explorer_core::yaml::join(lines);
        let classes = vec![Some("l"); lines.len()];
        let _ = write!(
            out,
            "<figure class=\"yaml\" data-doc=\"{}\"><figcaption>{title}</figcaption><pre tabindex=\"0\" aria-label=\"{title} YAML\"><code>{}</code></pre></figure>",
            doc.id(),
            crate::highlight::to_html_with_classes(Language::Yaml, &text, &classes)
        );
    }
    out.push_str("</div></div>");
    out
}

fn body(out: &mut String, e: &Explanation, links: &impl ItemLinks) {
    if let [only] = e.rejected.as_slice() {
        let _ = write!(
            out,
            "<p class=\"k8s-rejected\" role=\"alert\"><strong>Trainer {} refuses this TrainJob</strong>, so nothing \
             is created. {}: {}</p>",
            esc(&e.trainer),
            code(&only.field()),
            esc(&only.reason())
        );
        return;
    }
    if !e.admitted() {
        let _ = write!(
            out,
            "<div class=\"k8s-rejected\" role=\"alert\"><p><strong>Trainer {} refuses this TrainJob</strong>, so \
             nothing is created. {} errors:</p><ul>",
            esc(&e.trainer),
            e.rejected.len()
        );
        for r in &e.rejected {
            let _ = write!(out, "<li>{}: {}</li>", code(&r.field()), esc(&r.reason()));
        }
        out.push_str("</ul></div>");
        return;
    }
    if !e.fails_after_admission.is_empty() {
        let _ = write!(
            out,
            "<div class=\"k8s-rejected\" role=\"alert\"><p><strong>Trainer {} admits this TrainJob, but what it asks \
             for never runs</strong>: an object built from it is refused when it is created.</p><ul>",
            esc(&e.trainer)
        );
        for r in &e.fails_after_admission {
            let _ = write!(out, "<li>{}: {}</li>", code(&r.field()), esc(&r.reason()));
        }
        out.push_str("</ul></div>");
        return;
    }
    if let Some(manager) = &e.managed_by {
        let _ = write!(
            out,
            "<p class=\"k8s-head\"><code>spec.managedBy</code> is {}: the Trainer {} controller leaves this TrainJob \
             to that controller and creates nothing here (with MultiKueue, the TrainJob runs on a worker cluster).</p>",
            code(manager),
            esc(&e.trainer)
        );
        return;
    }
    let Some(jobset) = &e.jobset else { return };
    if let Some(from) = &e.shipped_runtime {
        let _ = write!(out, "<p class=\"k8s-note\">The runtime: {}.</p>", esc(from));
    }
    let _ = write!(
        out,
        "<p class=\"k8s-head\">The Trainer {} controller creates the JobSet <span{}>{}</span>",
        esc(&e.trainer),
        links.src(|l| l.origins.jobset()),
        code(&jobset.name)
    );
    if jobset.suspend == Some(true) {
        out.push_str(", suspended: no pod starts until Kueue admits the TrainJob");
    }
    out.push_str(".</p>");
    let hostfile = summary::hostfile(e);
    pods_html(out, e, links);
    for group in &e.pods {
        for c in group.containers.iter().filter(|c| !c.env.is_empty() || !c.env_from.is_empty()) {
            env_html(out, group, c, links);
        }
    }
    if let Some(hostfile) = hostfile {
        let slots = hostfile.lines().next().and_then(|l| l.rsplit_once("slots=")).map_or("1", |(_, n)| n);
        let _ = write!(
            out,
            "{SUBHEADING}Hostfile, at {} on the launcher</p><pre class=\"k8s-hostfile\"{}><code class=\"language-text\">{}</code></pre>",
            code("/etc/mpi/hostfile"),
            links.src(|l| l.origins.hostfile(slots)),
            esc(hostfile)
        );
    }
    let _ = write!(out, "{SUBHEADING}Objects</p><ul class=\"k8s-objects\">");
    for o in &e.objects {
        let _ = write!(
            out,
            "<li data-kind=\"{}\"{}><strong>{}</strong> {}: by {}, {}.</li>",
            esc(&o.kind),
            links.src(|l| l.origins.object(o)),
            esc(&o.kind),
            code(&o.name),
            esc(&o.created_by),
            esc(&o.when)
        );
    }
    out.push_str("</ul>");
}

/// The linked view's HTML of a selection's explanation.
pub fn linked_selection_html(linked: &explorer_core::explain::selection::Linked) -> String {
    linked_html(&linked.explanation, &linked.origins(), &linked.shown)
}

/// The view's HTML for a selection's explanation (`explain::selection::linked`): linked to its
/// YAML where there is any (the plain one for a rejection: nothing to link).
pub fn selection_html(explained: &Result<explorer_core::explain::selection::Linked, Explanation>) -> String {
    match explained {
        Ok(linked) => linked_selection_html(linked),
        Err(explanation) => unlinked(explanation, &None::<&Links>),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The view of a selection's explanation (`{"html"}`), or why there is none (`{"error"}`), as
    /// the explain module answers.
    fn answer(query: &str) -> serde_json::Value {
        let sel = explorer_core::query::parse_strict(query).unwrap();
        match explorer_core::explain::selection::linked(&sel) {
            Ok(explained) => serde_json::json!({ "html": selection_html(&explained) }),
            Err(error) => serde_json::json!({ "error": error.to_string() }),
        }
    }

    #[test]
    fn the_pane_shows_pods_env_hostfile_and_objects() {
        let html = answer("framework=deepspeed&nodes=3&gpus=2")["html"].as_str().unwrap().to_string();
        // runLauncherAsNode: 2 `node` pods and the launcher make the 3 nodes.
        assert!(html.contains(r#"<li data-rjob="node" data-count="2" data-src="#), "{html}");
        assert!(html.contains(r#"<li data-rjob="launcher" data-count="1" data-src="#), "{html}");
        assert!(html.contains(r#"data-env="OMPI_MCA_orte_set_default_slots" data-value="2""#), "{html}");
        assert!(
            html.contains("deepspeed-train-node-0-1.deepspeed-train slots=2\ndeepspeed-train-launcher-0-0"),
            "{html}"
        );
        assert!(html.contains(r#"<li data-kind="Secret" data-src="#), "{html}");
        assert!(html.contains("runs <code>mpirun</code> over the hostfile and trains too"), "{html}");
        assert!(html.contains("; 2 GPUs each"), "{html}");
    }

    #[test]
    fn per_pod_values_read_as_the_pods_index_and_a_rejection_creates_nothing() {
        let html = answer("framework=pytorch&nodes=4")["html"].as_str().unwrap().to_string();
        assert!(html.contains("<code>0</code> … 3: each pod's completion index"), "{html}");
        let refused = answer("release=v2.1&framework=jax")["html"].as_str().unwrap().to_string();
        assert!(refused.contains("Trainer v2.1.0 refuses this TrainJob"), "{refused}");
        assert!(!refused.contains("role=\"heading\""), "{refused}");
        // TensorFlow runs on the plain-ML runtime migrate writes: explained, not refused.
        let tf = answer("framework=tensorflow");
        assert!(tf["error"].is_null(), "{tf}");
        assert!(tf["html"].as_str().unwrap().contains("TF_CONFIG"), "{tf}");
    }

    #[test]
    fn pod_settings_labels_and_every_mount_path_are_shown() {
        let e = explorer_core::explain::read::explain_text(
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j}\nspec:\n  runtimeRef: {name: r, kind: TrainingRuntime}\n  \
             runtimePatches: [{manager: example.com/m, trainingRuntimeSpec: {template: {spec: {replicatedJobs: [{name: node, \
             template: {spec: {template: {metadata: {labels: {team: a}}, spec: {serviceAccountName: sa, \
             tolerations: [{key: gpu, operator: Exists}]}}}}}]}}}}]\n---\napiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainingRuntime\nmetadata: {name: r}\n\
             spec:\n  template:\n    spec:\n      replicatedJobs:\n      - name: node\n        template:\n          \
             spec: {template: {spec: {containers: [{name: node, volumeMounts: [{name: init, mountPath: /a}, \
             {name: init, mountPath: /b}]}]}}}\n",
            explorer_data::releases::NEWEST,
        )
        .unwrap();
        let html = html(&e);
        assert!(
            html.contains("mounts <code>init</code> at <code>/a</code>, <code>init</code> at <code>/b</code>"),
            "{html}"
        );
        assert!(html.contains("<li>labels <code>team=a</code></li>"), "{html}");
        assert!(html.contains("<li>serviceAccountName <code>sa</code></li>"), "{html}");
        assert!(html.contains("<li>tolerations <code>[{key: gpu, operator: Exists}]</code></li>"), "{html}");
    }

    #[test]
    fn text_is_escaped() {
        // The widget's parameters never hold markup (the query refuses it); a reason might.
        let r = explorer_core::explain::Rejection::message("spec.<x>", "a <b>bold</b> & claim");
        let html = html(&Explanation::rejected("v2.3.0".into(), vec![r]));
        assert!(html.contains("<code>spec.&lt;x&gt;</code>: a &lt;b&gt;bold&lt;/b&gt; &amp; claim"), "{html}");
    }
}

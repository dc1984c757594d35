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

use super::build::COMPLETION_INDEX;
use super::sources::{Origins, Shown, Source};
use super::{ContainerView, Explanation, PodGroup};
use crate::highlight::escape_html as esc;
use crate::snippets::Language;
use std::fmt::Write;

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
                    super::sources::Doc::TrainJob => "TrainJob",
                    super::sources::Doc::Runtime => "runtime",
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

/// The item attributes for `sources`, or nothing when the view is not linked.
fn src(links: Option<&Links>, sources: impl FnOnce(&Links) -> Vec<Source>) -> String {
    links.map(|l| l.attrs(&sources(l))).unwrap_or_default()
}

fn code(s: &str) -> String {
    format!("<code>{}</code>", esc(s))
}

/// The GPUs a container asks for: its first resource named like a GPU, limits before requests.
fn gpus(c: &ContainerView) -> Option<(String, String)> {
    let res = c.resources.as_ref()?;
    [&res.limits, &res.requests].into_iter().find_map(|list| {
        let (k, v) = list.iter().find(|(k, _)| k.to_lowercase().contains("gpu"))?;
        Some((k.clone(), super::quantity::ceil_value(v)?.to_string()))
    })
}

/// What an env value reads as: a per-pod source in words, else the value.
fn env_value(value: &str, count: u32) -> String {
    match value.strip_prefix("fieldRef:") {
        Some(path) if path == COMPLETION_INDEX => {
            let last = count.saturating_sub(1);
            format!("{} … {last}: each pod's completion index ({})", code("0"), code(path))
        }
        Some(path) => format!("per pod, from {}", code(path)),
        None => code(value),
    }
}

/// `hostfile`: the MPI hostfile, when the runtime is MPI's.
fn pods_html(out: &mut String, e: &Explanation, hostfile: Option<&String>, links: Option<&Links>) {
    out.push_str("<h4>Pods</h4><ul class=\"k8s-pods\">");
    let jobs = e.jobset.as_ref().map(|j| j.replicated_jobs.as_slice()).unwrap_or_default();
    for group in &e.pods {
        let gpu = group.containers.iter().filter(|c| !c.init).find_map(gpus);
        let _ = write!(
            out,
            "<li data-rjob=\"{}\" data-count=\"{}\"{}>{} × {} pod{}",
            esc(&group.replicated_job),
            group.count,
            src(links, |l| l.origins.pod_group(group, gpu.is_some())),
            code(&group.replicated_job),
            group.count,
            if group.count == 1 { "" } else { "s" }
        );
        let job = jobs.iter().find(|j| j.name == group.replicated_job);
        if let Some(job) = job {
            for dep in &job.depends_on {
                let _ = write!(out, ", starts when {} is {}", code(&dep.name), esc(&dep.status));
            }
        }
        if let Some((resource, n)) = gpu {
            let s = if n == "1" { "" } else { "s" };
            let _ = write!(out, "; {} GPU{s} each ({})", esc(&n), code(&resource));
        }
        let first = group.hostnames.first().map(String::as_str).unwrap_or_default();
        match (hostfile, group.replicated_job.as_str()) {
            (Some(hosts), "launcher") => {
                let _ = write!(out, "; {} runs <code>mpirun</code> over the hostfile", code(first));
                // runLauncherAsNode (mpi.go:117-126): the launcher trains too, as one of numNodes.
                if hosts.lines().any(|l| l.split(' ').next() == Some(first)) {
                    out.push_str(" and trains too: it is one of the nodes in it");
                }
            }
            (None, "node") => {
                let _ = write!(out, "; rank 0, {}, is the coordinator", code(first));
            }
            _ => {}
        }
        if let Some(job) = job {
            // jobset.go:316-317 and builder.go: the Job's counts, then each pod's hostname and
            // the volumes its containers mount (the initializers' shared volume, MPI's keys).
            let _ = write!(
                out,
                "<div class=\"k8s-hosts\">replicas {}, parallelism and completions {}; hostnames {}",
                job.replicas,
                job.parallelism,
                group.hostnames.iter().map(|h| code(h)).collect::<Vec<_>>().join(", ")
            );
            let mut mounts: Vec<(&String, &String)> = Vec::new();
            for m in group.containers.iter().filter(|c| !c.init).flat_map(|c| c.volume_mounts.iter()) {
                if !mounts.contains(&m) {
                    mounts.push(m);
                }
            }
            for (i, (volume, path)) in mounts.iter().enumerate() {
                let lead = if i == 0 { "; mounts " } else { ", " };
                let _ = write!(out, "{lead}{} at {}", code(volume), code(path));
            }
            out.push_str("</div>");
        }
        out.push_str("</li>");
    }
    out.push_str("</ul>");
}

fn env_html(out: &mut String, group: &PodGroup, c: &ContainerView, links: Option<&Links>) {
    let init = if c.init { "init container" } else { "container" };
    let _ = write!(
        out,
        "<h4>Environment of {} pods, {init} {}</h4><div class=\"k8s-env-wrap\"><table class=\"k8s-env\">\
         <thead><tr><th>Variable</th><th>Value</th></tr></thead><tbody>",
        code(&group.replicated_job),
        code(&c.name)
    );
    for (name, value) in c.env.iter() {
        let _ = write!(
            out,
            "<tr data-env=\"{}\" data-value=\"{}\"{}><td>{}</td><td>{}</td></tr>",
            esc(name),
            esc(value),
            src(links, |l| l.origins.env(group, &c.name, c.init, name, value)),
            code(name),
            env_value(value, group.count)
        );
    }
    for source in &c.env_from {
        let attrs = src(links, |l| l.origins.env_from(group, source));
        let _ = write!(out, "<tr{attrs}><td>every key of</td><td>{}</td></tr>", code(source));
    }
    out.push_str("</tbody></table></div>");
}

/// The pane's HTML for an explanation.
pub fn html(e: &Explanation) -> String {
    let mut out = format!("<div class=\"k8s\" data-trainer=\"{}\">", esc(&e.trainer));
    body(&mut out, e, None);
    out + "</div>"
}

/// The view with its items linked to the lines of `shown` (the TrainJob and runtime YAML) they
/// come from, shown beside them.
pub fn linked_html(e: &Explanation, origins: &Origins, shown: &Shown) -> String {
    if !e.rejected.is_empty() {
        return html(e);
    }
    let links = Links { origins, shown };
    let mut out = format!(
        "<div class=\"k8s k8s-linked\" data-trainer=\"{}\"><div class=\"k8s-items\">\
         <p class=\"k8s-hint\" hidden>Each item names the lines of the TrainJob or runtime it comes from: hover, focus \
         or click it to highlight them in the YAML.</p>",
        esc(&e.trainer)
    );
    body(&mut out, e, Some(&links));
    out.push_str("<p class=\"k8s-live\" aria-live=\"polite\"></p></div><div class=\"k8s-yaml\">");
    for (doc, title, lines) in [
        (super::sources::Doc::TrainJob, "TrainJob", &shown.trainjob),
        (super::sources::Doc::Runtime, "Runtime", &shown.runtime),
    ] {
        let text = crate::yaml::join(lines);
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

fn body(out: &mut String, e: &Explanation, links: Option<&Links>) {
    if let [first, more @ ..] = e.rejected.as_slice() {
        let _ = write!(
            out,
            "<p class=\"k8s-rejected\" role=\"alert\"><strong>Trainer {} refuses this TrainJob</strong>, so nothing \
             is created. {}: {}",
            esc(&e.trainer),
            code(&first.field),
            esc(&first.reason)
        );
        if !more.is_empty() {
            out.push_str("</p><ul class=\"k8s-rejected-more\">");
            for r in more {
                let _ = write!(out, "<li>{}: {}</li>", code(&r.field), esc(&r.reason));
            }
            out.push_str("</ul>");
            return;
        }
        out.push_str("</p>");
        return;
    }
    let Some(jobset) = &e.jobset else { return };
    let _ = write!(
        out,
        "<p class=\"k8s-head\">The Trainer {} controller creates the JobSet <span{}>{}</span>",
        esc(&e.trainer),
        src(links, |l| l.origins.jobset()),
        code(&jobset.name)
    );
    if jobset.suspend == Some(true) {
        out.push_str(", suspended: no pod starts until Kueue admits the TrainJob");
    }
    out.push_str(".</p>");
    let hostfile = e.objects.iter().find_map(|o| o.data.as_ref()?.get("hostfile"));
    pods_html(out, e, hostfile, links);
    for group in &e.pods {
        for c in group.containers.iter().filter(|c| !c.env.is_empty() || !c.env_from.is_empty()) {
            env_html(out, group, c, links);
        }
    }
    if let Some(hostfile) = hostfile {
        let slots = hostfile.lines().next().and_then(|l| l.rsplit_once("slots=")).map_or("1", |(_, n)| n);
        let _ = write!(
            out,
            "<h4>Hostfile, at {} on the launcher</h4><pre class=\"k8s-hostfile\"{}><code class=\"language-text\">{}</code></pre>",
            code("/etc/mpi/hostfile"),
            src(links, |l| l.origins.hostfile(slots)),
            esc(hostfile)
        );
    }
    out.push_str("<h4>Objects</h4><ul class=\"k8s-objects\">");
    for o in &e.objects {
        let _ = write!(
            out,
            "<li data-kind=\"{}\"{}><strong>{}</strong> {}: by {}, {}.</li>",
            esc(&o.kind),
            src(links, |l| l.origins.object(o)),
            esc(&o.kind),
            code(&o.name),
            esc(&o.created_by),
            esc(&o.when)
        );
    }
    out.push_str("</ul>");
}

/// The converter module's answer for the widget: `{"html"}`, or `{"error"}` when the selection
/// has nothing to explain or the query does not read.
pub fn pane_json(query: &str) -> String {
    let sel = crate::query::parse_strict(query).map_err(|e| e.to_string());
    let answer = match sel.and_then(|sel| super::selection::html(&sel)) {
        Ok(html) => serde_json::json!({ "html": html }),
        Err(error) => serde_json::json!({ "error": error }),
    };
    answer.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(query: &str) -> serde_json::Value {
        serde_json::from_str(&pane_json(query)).unwrap()
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
        assert!(!refused.contains("<h4>"), "{refused}");
        assert_eq!(
            answer("framework=tensorflow")["error"],
            "tensorflow has no Trainer V2 runtime, so there is nothing to explain"
        );
    }

    #[test]
    fn text_is_escaped() {
        // The widget's parameters never hold markup (the query refuses it); a reason might.
        let r = super::super::Rejection { field: "spec.<x>".into(), reason: "a <b>bold</b> & claim".into() };
        let html = html(&Explanation::rejected("v2.3.0".into(), vec![r]));
        assert!(html.contains("<code>spec.&lt;x&gt;</code>: a &lt;b&gt;bold&lt;/b&gt; &amp; claim"), "{html}");
    }
}

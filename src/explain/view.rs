//! "What Kubernetes runs" as HTML: the pods as a compact list, each container's environment, the
//! MPI hostfile and the objects next to the JobSet, or the rejection. Rendered by the core (all
//! text escaped) so the widget only places it: the converter module computes and renders it, and
//! the widget's own wasm carries none of this code.

use super::build::COMPLETION_INDEX;
use super::{ContainerView, Explanation, PodGroup};
use crate::highlight::escape_html as esc;
use std::fmt::Write;

/// The pane's own layout: the shared table styles are sized for the migrate report's three
/// columns; the env table has two.
const STYLE: &str = "<style>.k8s h4{margin:14px 0 6px;font-size:14px}.k8s ul{margin:4px 0;padding-left:20px}\
.k8s li{margin:3px 0}.k8s .table-wrap th:nth-child(n){width:auto}.k8s .table-wrap{max-height:none}\
.k8s pre{overflow-x:auto;padding:8px 10px;border:1px solid var(--border);border-radius:8px;font-size:12.5px}</style>";

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
fn pods_html(out: &mut String, e: &Explanation, hostfile: Option<&String>) {
    out.push_str("<h4>Pods</h4><ul class=\"k8s-pods\">");
    let jobs = e.jobset.as_ref().map(|j| j.replicated_jobs.as_slice()).unwrap_or_default();
    for group in &e.pods {
        let _ = write!(
            out,
            "<li data-rjob=\"{}\" data-count=\"{}\">{} × {} pod{}",
            esc(&group.replicated_job),
            group.count,
            code(&group.replicated_job),
            group.count,
            if group.count == 1 { "" } else { "s" }
        );
        if let Some(job) = jobs.iter().find(|j| j.name == group.replicated_job) {
            for dep in &job.depends_on {
                let _ = write!(out, ", starts when {} is {}", code(&dep.name), esc(&dep.status));
            }
        }
        if let Some((resource, n)) = group.containers.iter().filter(|c| !c.init).find_map(gpus) {
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
        out.push_str("</li>");
    }
    out.push_str("</ul>");
}

fn env_html(out: &mut String, group: &PodGroup, c: &ContainerView) {
    let init = if c.init { "init container" } else { "container" };
    let _ = write!(
        out,
        "<h4>Environment of {} pods, {init} {}</h4><div class=\"table-wrap\"><table class=\"k8s-env\">\
         <thead><tr><th>Variable</th><th>Value</th></tr></thead><tbody>",
        code(&group.replicated_job),
        code(&c.name)
    );
    for (name, value) in c.env.iter() {
        let _ = write!(
            out,
            "<tr data-env=\"{}\" data-value=\"{}\"><td>{}</td><td>{}</td></tr>",
            esc(name),
            esc(value),
            code(name),
            env_value(value, group.count)
        );
    }
    for source in &c.env_from {
        let _ = write!(out, "<tr><td>every key of</td><td>{}</td></tr>", code(source));
    }
    out.push_str("</tbody></table></div>");
}

/// The pane's HTML for an explanation.
pub fn html(e: &Explanation) -> String {
    let mut out = format!("{STYLE}<div class=\"k8s\" data-trainer=\"{}\">", esc(&e.trainer));
    if let Some(r) = &e.rejected {
        let _ = write!(
            out,
            "<p class=\"k8s-rejected\" role=\"alert\"><strong>Trainer {} refuses this TrainJob</strong>, so nothing \
             is created. {}: {}</p></div>",
            esc(&e.trainer),
            code(&r.field),
            esc(&r.reason)
        );
        return out;
    }
    let Some(jobset) = &e.jobset else { return out + "</div>" };
    let _ = write!(
        out,
        "<p class=\"k8s-head\">The Trainer {} controller creates the JobSet {}",
        esc(&e.trainer),
        code(&jobset.name)
    );
    if jobset.suspend == Some(true) {
        out.push_str(", suspended: no pod starts until Kueue admits the TrainJob");
    }
    out.push_str(".</p>");
    let hostfile = e.objects.iter().find_map(|o| o.data.as_ref()?.get("hostfile"));
    pods_html(&mut out, e, hostfile);
    for group in &e.pods {
        for c in group.containers.iter().filter(|c| !c.env.is_empty() || !c.env_from.is_empty()) {
            env_html(&mut out, group, c);
        }
    }
    if let Some(hostfile) = hostfile {
        let _ = write!(
            out,
            "<h4>Hostfile, at {} on the launcher</h4><pre class=\"k8s-hostfile\">{}</pre>",
            code("/etc/mpi/hostfile"),
            esc(hostfile)
        );
    }
    out.push_str("<h4>Objects</h4><ul class=\"k8s-objects\">");
    for o in &e.objects {
        let _ = write!(
            out,
            "<li data-kind=\"{}\"><strong>{}</strong> {}: by {}, {}.</li>",
            esc(&o.kind),
            esc(&o.kind),
            code(&o.name),
            esc(&o.created_by),
            esc(&o.when)
        );
    }
    out.push_str("</ul></div>");
    out
}

/// The converter module's answer for the widget: `{"html"}`, or `{"error"}` when the selection
/// has nothing to explain or the query does not read.
pub fn pane_json(query: &str) -> String {
    let answer = match super::selection::for_query(query) {
        Ok(e) => serde_json::json!({ "html": html(&e) }),
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
        assert!(html.contains(r#"<li data-rjob="node" data-count="2">"#), "{html}");
        assert!(html.contains(r#"<li data-rjob="launcher" data-count="1">"#), "{html}");
        assert!(html.contains(r#"data-env="OMPI_MCA_orte_set_default_slots" data-value="2""#), "{html}");
        assert!(
            html.contains("deepspeed-train-node-0-1.deepspeed-train slots=2\ndeepspeed-train-launcher-0-0"),
            "{html}"
        );
        assert!(html.contains(r#"<li data-kind="Secret">"#), "{html}");
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
        let html = html(&Explanation::rejected("v2.3.0".into(), r));
        assert!(html.contains("<code>spec.&lt;x&gt;</code>: a &lt;b&gt;bold&lt;/b&gt; &amp; claim"), "{html}");
    }
}

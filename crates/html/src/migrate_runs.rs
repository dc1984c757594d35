//! "What Kubernetes runs" in migrate mode: for each converted TrainJob, explain's view of it on
//! the runtime it references (the one written with it in the same answer, or the release's
//! built-in one), as a collapsed disclosure named by the job under the objects to apply. The
//! explanation is the one the pod comparison computes anyway
//! (`migrate::pods::compare_explained`), so the converter module adds only the view's code, and
//! the reader downloads nothing more when opening it. Its layout is pkg-migrate/explain.css,
//! which converter.js links when an answer holds the view.

use crate::explain_view;
use crate::highlight::push_escaped_html;
use explorer_core::explain::Explanation;
use explorer_core::migrate::pods::NotCompared;
use explorer_data::releases::Release;
use serde_json::Value as Json;
use std::fmt::Write;

/// Past this many TrainJobs (a folder of jobs pasted at once) the rest get no section: each one is
/// a page of pods and variables. The same limit as the objects' blocks (`migrate_output`).
pub const MAX_SECTIONS: usize = crate::migrate_output::MAX_BLOCKS;

/// The sections of one answer, written as the documents come, then closed by `finish`.
#[derive(Default)]
pub struct RunsSections {
    html: String,
    shown: usize,
    left_out: usize,
}

impl RunsSections {
    /// The section for the converted `objects` of one document, whose TrainJob Trainer runs as
    /// `runs` says (or not, with the reason). Objects without a TrainJob get none.
    pub fn push(&mut self, objects: &[Json], runs: &Result<Explanation, NotCompared>) {
        let Some(job) = objects.iter().find(|o| o.get("kind").and_then(Json::as_str) == Some("TrainJob")) else {
            return;
        };
        if self.shown == MAX_SECTIONS {
            self.left_out += 1;
            return;
        }
        self.shown += 1;
        let name = job.pointer("/metadata/name").and_then(Json::as_str).unwrap_or_default();
        let out = &mut self.html;
        out.push_str("<details class=\"report k8s-runs\" data-trainjob=\"");
        push_escaped_html(out, name);
        out.push_str("\"><summary>What Kubernetes runs for TrainJob <code>");
        push_escaped_html(out, name);
        out.push_str("</code></summary><div class=\"pane-body\">");
        match runs {
            Ok(explanation) => out.push_str(&explain_view::html(explanation)),
            Err(reason) => {
                out.push_str("<p class=\"migrate-error\">Not worked out: ");
                push_escaped_html(out, &reason.to_string());
                out.push_str("</p>");
            }
        }
        out.push_str("</div></details>");
    }

    /// The sections, with a line naming how many TrainJobs got none and how to explain them.
    pub fn finish(mut self, target: Release) -> String {
        if self.left_out > 0 {
            let _ = write!(
                self.html,
                "<p class=\"k8s-runs-more\">What Kubernetes runs is shown for the first {MAX_SECTIONS} TrainJobs; \
                 {} more have none here. For one of them, save its objects and run \
                 <code>trainer-explorer explain --release {} FILE…</code></p>",
                self.left_out, target.line
            );
        }
        self.html
    }
}

#[cfg(test)]
mod tests {
    use explorer_core::migrate::migrate_to;
    use explorer_data::releases::NEWEST;

    fn job(name: &str, workers: u32) -> String {
        format!(
            "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: {name}\nspec:\n  pytorchReplicaSpecs:\n    \
             Master:\n      replicas: 1\n      template:\n        spec:\n          containers:\n          - name: pytorch\n            \
             image: my/image:1\n    Worker:\n      replicas: {workers}\n      template:\n        spec:\n          containers:\n          \
             - name: pytorch\n            image: my/image:1\n"
        )
    }

    /// The objects' HTML of the converter module's answer for `text` written for `line`.
    fn objects_html_for(text: &str, line: &str) -> String {
        let migration = migrate_to(text, explorer_data::releases::Release::from_line(line).unwrap());
        let compared = migration.as_ref().map(explorer_core::migrate::pods::explained_documents).unwrap_or_default();
        let answer: serde_json::Value =
            serde_json::from_str(&crate::migrate_view::rendered_json(&migration, &compared)).unwrap();
        answer["objects"].as_str().unwrap().to_string()
    }

    fn objects_html(text: &str) -> String {
        objects_html_for(text, NEWEST.line)
    }

    #[test]
    fn each_trainjob_gets_a_collapsed_section_named_by_it() {
        let html = objects_html(&format!("{}---\n{}", job("first", 2), job("second", 5)));
        assert_eq!(html.matches("<details class=\"report k8s-runs\"").count(), 2, "{html}");
        for (name, nodes) in [("first", 3), ("second", 6)] {
            let at = html.find(&format!("data-trainjob=\"{name}\"")).expect(name);
            let section = &html[at..at + html[at..].find("</details>").unwrap()];
            assert!(section.contains(&format!("What Kubernetes runs for TrainJob <code>{name}</code>")), "{section}");
            // Master 1 + Worker N: N + 1 nodes, one replicatedJob.
            assert!(section.contains(&format!("data-rjob=\"node\" data-count=\"{nodes}\"")), "{section}");
            assert!(
                section.contains("the ClusterTrainingRuntime &quot;torch-distributed&quot; as Trainer"),
                "{section}"
            );
        }
        // Collapsed, and no <hN> a host's table of contents would list.
        assert!(!html.contains("<details class=\"report k8s-runs\" open"), "{html}");
        assert!(!(1..=6).any(|n| html.contains(&format!("<h{n}"))), "{html}");
    }

    #[test]
    fn a_generated_runtime_is_the_one_explained() {
        // v2.0's TrainJob cannot hold volumes: the converter writes a runtime with them, and the
        // pods Kubernetes runs mount them from it.
        let text = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: mine\nspec:\n  pytorchReplicaSpecs:\n    \
                    Worker:\n      replicas: 2\n      template:\n        spec:\n          containers:\n          - name: pytorch\n            \
                    image: my/image:1\n            volumeMounts:\n            - {name: data, mountPath: /data}\n          volumes:\n          \
                    - {name: data, emptyDir: {}}\n";
        let html = objects_html_for(text, "v2.0");
        assert!(html.contains("trainingruntime-mine-runtime.yaml"), "{html}");
        assert!(
            html.contains("The runtime: the TrainingRuntime &quot;mine-runtime&quot; written with this TrainJob."),
            "{html}"
        );
        assert!(html.contains("The Trainer v2.0.1 controller creates the JobSet"), "{html}");
        assert!(html.contains("mounts <code>data</code> at <code>/data</code>"), "{html}");
    }

    #[test]
    fn past_the_limit_the_rest_are_named_with_the_cli_line() {
        let many: Vec<String> = (0..super::MAX_SECTIONS + 2).map(|i| job(&format!("j{i}"), 1)).collect();
        let html = objects_html(&many.join("---\n"));
        assert_eq!(html.matches("class=\"report k8s-runs\"").count(), super::MAX_SECTIONS);
        assert!(html.contains("2 more have none here"), "{html}");
        assert!(html.contains(&format!("trainer-explorer explain --release {} FILE…", NEWEST.line)), "{html}");
    }

    #[test]
    fn a_trainjob_not_worked_out_says_why_escaped() {
        let m = migrate_to(&job("mine", 1), NEWEST).unwrap();
        let explorer_core::migrate::Outcome::Written { objects, .. } = &m.docs[0].outcome else {
            panic!("not written")
        };
        let mut sections = super::RunsSections::default();
        let gone = explorer_core::migrate::pods::NotCompared::UnshippedRuntime { name: "<r>".into(), release: "v9" };
        sections.push(objects, &Err(gone));
        let html = sections.finish(NEWEST);
        assert!(html.contains("data-trainjob=\"mine\""), "{html}");
        assert!(
            html.contains(
                "<p class=\"migrate-error\">Not worked out: the TrainJob references &quot;&lt;r&gt;&quot;, which \
                 Trainer v9 does not ship</p>"
            ),
            "{html}"
        );
    }
}

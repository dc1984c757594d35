//! The V1 pane: the Training Operator v1.9 job and its Python SDK call, each line marked where a
//! V2 runtime now owns it.

use super::{sdk_v1, v1_jobs, Api, Pane, Snippet};
use crate::model::ToTree;
use crate::selection::Selection;
use crate::yaml::{self, PathSeg};
use explorer_data::catalog::{Framework, Persona, V1_OPERATOR, V1_SDK};

pub(super) fn v1_pane(sel: &Selection) -> Pane {
    let heading = V1_OPERATOR.to_string();
    let kind = sel.framework.v1_kind();
    let job = v1_jobs::v1_job_for(sel);
    let mut snippets = Vec::new();
    let title = if sel.framework == Framework::TorchTune {
        "PyTorchJob that train() created (arguments abridged)".to_string()
    } else {
        kind.kind().to_string()
    };
    let job_value = job.to_tree();
    let mark = |path: &[PathSeg]| owned_by_runtime(path);
    if sel.framework == Framework::TorchTune {
        let pvc = v1_jobs::train_api_pvc(sel);
        let lines = yaml::emit_documents([(&[][..], &pvc), (&[][..], &job_value)]);
        // The PVC is storage plumbing the V2 runtime's volumeClaimPolicies own from v2.2;
        // before, the reader still creates one for the runtime.
        let mut snippet = Snippet::yaml(Api::V1, title, lines, mark);
        let pvc_lines = if sel.release.jobset_volume_claims { yaml::emit(&pvc).len() } else { 0 };
        for owned in snippet.owned_by_runtime.iter_mut().take(pvc_lines) {
            *owned = true;
        }
        snippets.push(snippet);
    } else {
        snippets.push(Snippet::yaml(Api::V1, title, yaml::emit(&job_value), mark));
    }
    if sel.persona == Persona::DataScientist {
        snippets.push(Snippet::python(Api::V1, format!("Python SDK ({V1_SDK})"), sdk_v1::sdk_v1(sel)));
    }
    Pane { api: Api::V1, heading, snippets, notice: None }
}

/// Whether a V1 job line is infrastructure a V2 runtime now owns: the replica topology, restart
/// and cleanup policies, images, ports, security contexts and probes (the MPI/SSH plumbing), and
/// the storage-initializer wiring of `train()`.
pub fn owned_by_runtime(path: &[PathSeg]) -> bool {
    let keys: Vec<&str> = path
        .iter()
        .filter_map(|seg| match seg {
            PathSeg::Key(k) => Some(k.as_str()),
            PathSeg::Index(_) => None,
        })
        .collect();
    if keys.first() != Some(&"spec") || keys.len() < 2 {
        return false;
    }
    if keys[1] == "runPolicy" {
        return true;
    }
    if !keys[1].ends_with("ReplicaSpecs") {
        return false;
    }
    // spec.<kind>ReplicaSpecs.<Type>[.replicas|.restartPolicy]
    if keys.len() == 3 || matches!(keys.get(3), Some(&"replicas" | &"restartPolicy")) {
        return true;
    }
    const OWNED: [&str; 8] = [
        "image",
        "imagePullPolicy",
        "ports",
        "securityContext",
        "readinessProbe",
        "volumeMounts",
        "volumes",
        "initContainers",
    ];
    if keys.iter().any(|k| OWNED.contains(k)) {
        return true;
    }
    // The container's name is how V1 found it; V2 runtimes name it `node`. The pod template's
    // metadata held train()'s sidecar opt-out.
    let in_container = keys.iter().position(|k| *k == "containers");
    match in_container {
        Some(i) => keys.len() == i + 2 && keys[i + 1] == "name",
        None => keys.get(4) == Some(&"metadata"),
    }
}

#[cfg(test)]
mod field_tests {
    use super::*;
    use crate::snippets::render;
    use explorer_data::releases::RELEASES;

    /// The V1 pane is the Training Operator v1.9 job: the Trainer release a reader picks for the
    /// V2 side must not change a line of it (issue 22 item 10: its image did). Only the marks of
    /// what a V2 runtime owns may follow the release.
    #[test]
    fn the_v1_pane_is_the_same_whatever_trainer_release_is_selected() {
        let code = |pane: &Pane| -> Vec<(String, String)> {
            pane.snippets.iter().map(|s| (s.title.clone(), s.code.clone())).collect()
        };
        let mut wrong = Vec::new();
        for persona in Persona::ALL {
            for framework in Framework::ALL {
                let mut sel = Selection::new(persona, framework);
                let newest = render(&sel).v1;
                for release in RELEASES {
                    sel.release = *release;
                    let v1 = render(&sel).v1;
                    if v1.heading != newest.heading || code(&v1) != code(&newest) {
                        let first = code(&v1).into_iter().zip(code(&newest)).find(|(a, b)| a != b);
                        let line = first.and_then(|(a, b)| {
                            a.1.lines().zip(b.1.lines()).find(|(x, y)| x != y).map(|(x, y)| format!("{x:?} vs {y:?}"))
                        });
                        wrong.push(format!(
                            "{} {} {}: {}",
                            persona.id(),
                            framework.id(),
                            release.line,
                            line.unwrap_or_default()
                        ));
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{} V1 panes follow the Trainer release:\n{}", wrong.len(), wrong.join("\n"));
    }
}

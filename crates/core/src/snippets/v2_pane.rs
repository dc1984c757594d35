//! The V2 pane: the release's runtime for the platform engineer, the TrainJob and the Python SDK
//! for the data scientist, or what `migrate` writes where Trainer ships no runtime.

use super::fields::push_field_labels;
use super::runtimes::FRAMEWORK_LABEL;
use super::unsupported::unsupported_notice;
use super::{generated, runtimes, sdk_v2, trainjob, workload, Api, Language, Notice, Pane, Snippet};
use crate::model::ToTree;
use crate::selection::{RuntimeScope, Selection};
use crate::yaml;
use explorer_data::catalog::{Framework, Persona, V2Support, V1_OPERATOR};
use explorer_data::releases::{Release, RELEASES};

pub(super) fn v2_pane(sel: &Selection) -> Pane {
    v2_pane_with::<true>(sel)
}

/// The code of the V2 pane's YAML snippets, in the pane's order: what `upgrade::notes` upgrades
/// and `explain::selection` links. The pane without its Python SDK snippet, and without the V1
/// pane `render` builds too, so the converter and explain modules, which call only this, compile
/// none of the Python and V1 snippet code.
pub fn v2_yaml(sel: &Selection) -> Vec<String> {
    v2_pane_with::<false>(sel).snippets.into_iter().filter(|s| s.language == Language::Yaml).map(|s| s.code).collect()
}

/// The V2 pane; its Python SDK snippet only `WITH_PYTHON` (a constant, so each caller's copy
/// holds only its own part).
fn v2_pane_with<const WITH_PYTHON: bool>(sel: &Selection) -> Pane {
    let heading = format!("Trainer {}", sel.release.tag);
    if sel.v2_support() == V2Support::Unsupported {
        return Pane { api: Api::V2, heading, snippets: Vec::new(), notice: Some(unsupported_notice(sel)) };
    }
    if sel.v2_support() == V2Support::GeneratedRuntime {
        return generated_pane(sel, heading);
    }
    let mut snippets = Vec::new();
    let runtime = runtimes::runtime_for(sel);
    match sel.persona {
        Persona::PlatformEngineer => {
            if let Some(rt) = runtime {
                let title = format!("{} {}", rt.kind, rt.metadata.name.clone().unwrap_or_default());
                let comments = runtime_comments(sel);
                let lines = yaml::emit_documents([(comments.as_slice(), &rt.to_tree())]);
                snippets.push(Snippet::yaml(Api::V2, title, lines, |_| false));
            }
        }
        Persona::DataScientist => {
            if let Some(job) = trainjob::trainjob_for(sel) {
                let mut comments = Vec::new();
                if sel.v2_support() == V2Support::CustomRuntime {
                    comments.push(format!(
                        "Needs the {} runtime from the platform engineer's view.",
                        crate::selection::CUSTOM_MPI_RUNTIME
                    ));
                }
                comments.extend(precreated_claim_comment(sel));
                // TorchTune runs the runtime's recipe; plain MPI runs the pi program in the image.
                if !matches!(sel.framework, Framework::TorchTune | Framework::Mpi) {
                    comments.push(format!(
                        "{} is a placeholder: bake your script into the image.",
                        workload::script_path(sel.framework)
                    ));
                }
                let lines = yaml::emit_documents([(comments.as_slice(), &job.to_tree())]);
                snippets.push(Snippet::yaml(Api::V2, "TrainJob".into(), lines, |_| false));
            }
            if let Some(code) = sdk_v2::sdk_v2(sel).filter(|_| WITH_PYTHON) {
                snippets.push(Snippet::python(Api::V2, format!("Python SDK ({})", sel.release.sdk_label()), code));
            }
        }
    }
    Pane { api: Api::V2, heading, snippets, notice: None }
}

/// TensorFlow and PaddlePaddle: what `migrate` writes for the V1 pane's job (`generated`), the
/// runtime for the platform engineer, the TrainJob for the data scientist, under a notice that
/// says where they come from. The YAML's own comments say it too, for `export` and a copy.
fn generated_pane(sel: &Selection, heading: String) -> Pane {
    let notice = Some(generated_notice(sel));
    let Some((rt, job)) = generated::objects_for(sel) else {
        return Pane { api: Api::V2, heading, snippets: Vec::new(), notice };
    };
    let (name, kind) = (sel.framework.label(), sel.framework.v1_kind().kind());
    let rt_name = rt.metadata.name.clone().unwrap_or_default();
    let written = format!("Written by `trainer-explorer migrate` for the {kind}: Trainer has no {name} runtime.");
    let snippet = match sel.persona {
        Persona::PlatformEngineer => {
            let comments = vec![
                written,
                format!(
                    "Plain ML (mlPolicy with numNodes only); each pod gets {} as {V1_OPERATOR} wrote it.",
                    contract_of(sel)
                ),
            ];
            let lines = yaml::emit_documents([(comments.as_slice(), &rt.to_tree())]);
            Snippet::yaml(Api::V2, format!("{} {rt_name}", rt.kind), lines, |_| false)
        }
        Persona::DataScientist => {
            let comments = vec![
                written,
                format!("Needs the TrainingRuntime {rt_name} from the platform engineer's view."),
                format!("{} is a placeholder: bake your script into the image.", workload::script_path(sel.framework)),
            ];
            let lines = yaml::emit_documents([(comments.as_slice(), &job.to_tree())]);
            Snippet::yaml(Api::V2, "TrainJob".into(), lines, |_| false)
        }
    };
    Pane { api: Api::V2, heading, snippets: vec![snippet], notice }
}

/// What the training code reads, which the generated runtime keeps.
pub(super) fn contract_of(sel: &Selection) -> &'static str {
    if sel.framework == Framework::TensorFlow {
        "TF_CONFIG"
    } else {
        "the PADDLE_* variables"
    }
}

fn generated_notice(sel: &Selection) -> Notice {
    let (tag, name, kind) = (sel.release.tag, sel.framework.label(), sel.framework.v1_kind().kind());
    let why =
        if sel.framework == Framework::TensorFlow { "; trainer#2699 deprecated distributed TensorFlow" } else { "" };
    let mut paragraphs = vec![
        format!(
            "Trainer {tag} ships no {name} runtime and no mlPolicy for it{why}. The migrator (trainer-explorer \
             migrate, or Migrate mode here) turns the {kind} into a TrainJob plus a TrainingRuntime it writes \
             for that job: plain ML, an mlPolicy with numNodes only."
        ),
        format!(
            "That runtime gives every pod {} as {V1_OPERATOR} did: each pod's index from the downward API, \
             JobSet's hostnames, V1's ports{}",
            contract_of(sel),
            if sel.framework == Framework::Paddle {
                "; the leader's command is wrapped so its first pod names its own IP, then runs your command \
                 unchanged. A Master (the parameter servers) becomes a replicated job of its own."
            } else {
                ". A Chief, PS or Evaluator becomes a replicated job of its own."
            }
        ),
    ];
    if sel.persona == Persona::DataScientist {
        paragraphs.push(format!(
            "No Python SDK path: the SDK ({}) refuses a runtime without the {FRAMEWORK_LABEL} label, and this one \
             has none. Apply the runtime and the TrainJob with kubectl.",
            sel.release.sdk_label()
        ));
    }
    Notice { title: format!("No {name} runtime upstream: the migrator writes one"), paragraphs }
}

/// Before JobSet volume claims (v2.0–v2.1) the TorchTune runtimes mount a PVC named after
/// themselves that nothing creates: the reader must.
fn precreated_claim_comment(sel: &Selection) -> Option<String> {
    let rt = sel.builtin().filter(|rt| rt.framework == "torchtune" && !sel.release.jobset_volume_claims)?;
    Some(format!(
        "In {} every pod mounts the PVC {}: create it in the TrainJob's namespace first.",
        sel.release.tag, rt.name
    ))
}

fn runtime_comments(sel: &Selection) -> Vec<String> {
    let tag = sel.release.tag;
    // The fields the reader typed that the runtime now carries.
    let typed = runtimes::platform_typed(sel);
    let mut comments = match (sel.v2_support(), sel.scope) {
        (V2Support::CustomRuntime, _) => {
            let deepspeed = sel.release.builtin_for(Framework::DeepSpeed).map_or("", |rt| rt.name);
            let mut lines = plain_mpi_own(sel.release);
            lines.push(format!("Same pattern as {tag}'s {deepspeed}: SSH keys and hostfile come from the controller."));
            lines
        }
        // The reader's fields changed the built-in: it is theirs now, under the built-in's name.
        (_, RuntimeScope::Cluster) if !typed.is_empty() => {
            let mut line = format!("Trainer {tag}'s built-in with your ");
            push_field_labels(&mut line, &typed);
            line.push_str(": applied under its name, it replaces the shipped runtime for every namespace.");
            vec![line]
        }
        (_, RuntimeScope::Cluster) => {
            let installer = if sel.release.helm_installs_runtimes {
                "the Helm chart or manifests/overlays/runtimes"
            } else {
                "manifests/overlays/runtimes"
            };
            vec![format!("Shipped with Trainer {tag}: installed by {installer}.")]
        }
        (_, RuntimeScope::Namespaced) => {
            let mut line = format!("A team-scoped copy of the {tag} built-in");
            if !typed.is_empty() {
                line.push_str(" with your ");
                push_field_labels(&mut line, &typed);
            }
            line.push_str(": only TrainJobs in this namespace can use it.");
            vec![line]
        }
    };
    if let Some(rt) = sel.builtin() {
        if let (_, Some(removed)) = Release::life_span(rt.name) {
            comments.push(format!("Trainer {} removed {}.", removed.line, rt.name));
        }
    }
    comments.extend(precreated_claim_comment(sel));
    comments
}

/// Why plain MPI gets a runtime of its own in this release (see `Framework::v2_support_in`).
fn plain_mpi_own(release: Release) -> Vec<String> {
    if let Some(rt) = release.builtin_for(Framework::Mpi) {
        let removed = Release::life_span(rt.name).1.map(|r| format!(", and {} removed it", r.line)).unwrap_or_default();
        return vec![
            format!(
                "{}'s {} is the pi demo without the {FRAMEWORK_LABEL} label the SDK needs{removed}.",
                release.tag, rt.name
            ),
            "This runtime is one you own: it has the label and runs your image on the launcher and every node.".into(),
        ];
    }
    let last = RELEASES.iter().rev().find_map(|r| r.builtin_for(Framework::Mpi));
    vec![match last.map(|rt| (rt.name, Release::life_span(rt.name).1)) {
        Some((name, Some(removed))) => {
            format!("Trainer {} removed the plain-MPI built-in {name}: this runtime is one you own.", removed.line)
        }
        _ => format!("Trainer {} ships no plain-MPI runtime: this one is yours to own.", release.tag),
    }]
}

//! The V2 pane follows the selected release: its prose names that release's tag and no other,
//! the TrainJob references a runtime that release ships (or the custom MPI one it admits), and
//! where the release lacks a framework or a model the pane says so, naming the release and the
//! first one that has it.
#![cfg(not(target_arch = "wasm32"))]

use explorer_judges as common;

use explorer_core::selection::{Selection, CUSTOM_MPI_RUNTIME};
use explorer_core::snippets::{render, Language};
use explorer_data::catalog::{Framework, LlmModel, Persona, V2Support};
use explorer_data::releases::{Release, NEWEST, RELEASES};

/// Every release × persona × framework × scope, and for TorchTune every model.
fn selections() -> Vec<Selection> {
    let mut out = Vec::new();
    for base in common::every_selection(RELEASES) {
        let models: Vec<Option<LlmModel>> =
            if base.framework == Framework::TorchTune { LlmModel::ALL.map(Some).to_vec() } else { vec![None] };
        for model in models {
            let mut sel = base.clone();
            sel.params.model = model;
            out.push(sel);
        }
    }
    out
}

/// What the V2 pane says in YAML and prose (the Python pane names its SDK, not the release).
fn v2_text(sel: &Selection) -> String {
    let view = render(sel);
    let mut text = format!("{}\n{}\n", view.summary, view.v2.heading);
    if let Some(n) = &view.v2.notice {
        text.push_str(&format!("{}\n{}\n", n.title, n.paragraphs.join("\n")));
    }
    for s in view.v2.snippets.iter().filter(|s| s.language == Language::Yaml) {
        text.push_str(&s.code);
    }
    text
}

#[test]
fn the_v2_pane_names_the_selected_release_and_no_other_tag() {
    for sel in selections() {
        let text = v2_text(&sel);
        assert!(render(&sel).v2.heading.ends_with(sel.release.tag), "{sel:?}");
        for other in RELEASES.iter().filter(|r| r.tag != sel.release.tag) {
            assert!(!text.contains(other.tag), "{} pane names {}:\n{text}", sel.release.tag, other.tag);
        }
    }
}

/// The `spec.runtimeRef.name` of the TrainJob the V2 YAML pane shows, if it shows one.
fn referenced_runtime(sel: &Selection) -> Option<String> {
    let view = render(sel);
    let yaml = view.v2.snippets.iter().filter(|s| s.language == Language::Yaml).map(|s| s.code.as_str());
    let docs: Vec<_> = yaml.flat_map(common::yaml_docs).filter(|d| d["kind"] == "TrainJob").collect();
    assert!(docs.len() <= 1, "{sel:?}: {} TrainJobs", docs.len());
    docs.first().map(|job| job["spec"]["runtimeRef"]["name"].as_str().expect("a runtimeRef name").to_string())
}

/// The TrainJob the pane shows names a runtime its release installs (read from the release's
/// shipped manifests, not from our data), or the custom MPI runtime the pane's notes create.
#[test]
fn the_trainjob_references_a_runtime_of_its_release() {
    for sel in selections().into_iter().filter(|s| s.persona == Persona::DataScientist) {
        let name = referenced_runtime(&sel);
        match sel.v2_support() {
            V2Support::BuiltIn => {
                let name = name.unwrap_or_else(|| panic!("{sel:?}: no TrainJob"));
                let shipped = common::shipped_runtime_names(&sel.release);
                assert!(shipped.contains(&name), "{} installs no {name} (it installs {shipped:?})", sel.release.tag);
            }
            V2Support::CustomRuntime => assert_eq!(name.as_deref(), Some(CUSTOM_MPI_RUNTIME), "{sel:?}"),
            // The runtime `migrate` writes for the job, shown in the platform engineer's view.
            V2Support::GeneratedRuntime => assert_eq!(name, Some(format!("{}-runtime", sel.name())), "{sel:?}"),
            V2Support::Unsupported => assert_eq!(name, None, "{sel:?}"),
        }
    }
}

/// The first release that ships what the selection needs, if any.
fn first_shipping(sel: &Selection) -> Option<Release> {
    Release::first_where(|r| Selection { release: *r, ..sel.clone() }.v2_support() != V2Support::Unsupported)
}

#[test]
fn a_release_that_lacks_the_framework_or_model_says_so() {
    let mut lacking = Vec::new();
    for sel in selections() {
        let view = render(&sel);
        let unsupported = sel.v2_support() == V2Support::Unsupported;
        // A generated runtime's notice says where the code comes from; the code is there.
        let generated = sel.v2_support() == V2Support::GeneratedRuntime;
        assert_eq!(view.v2.notice.is_some(), unsupported || generated, "{sel:?}");
        assert_eq!(view.v2.snippets.is_empty(), unsupported, "a notice replaces the code: {sel:?}");
        if generated {
            continue;
        }
        let Some(notice) = view.v2.notice else { continue };
        let text = format!("{} {}", notice.title, notice.paragraphs.join(" "));
        assert!(text.contains(sel.release.tag), "{sel:?}: {text}");
        if let Some(first) = first_shipping(&sel) {
            assert!(sel.release.is_before(&first), "{sel:?}");
            assert!(text.contains(&format!("Trainer {}", first.line)), "{sel:?} names {}: {text}", first.line);
            lacking.push((sel.release.line, sel.framework, sel.params.model));
        }
    }
    // JAX and XGBoost before v2.2, Qwen before v2.1: the cases the data holds today.
    for line in ["v2.0", "v2.1"] {
        for f in [Framework::Jax, Framework::XgBoost] {
            assert!(lacking.iter().any(|(l, fw, _)| *l == line && *fw == f), "{line} {f:?}");
        }
    }
    assert!(lacking.iter().any(|(l, _, m)| *l == "v2.0" && *m == Some(LlmModel::Qwen25_1_5b)));
    assert!(!lacking.iter().any(|(l, _, m)| *l == "v2.1" && *m == Some(LlmModel::Qwen25_1_5b)));
}

/// V1 had no runtime to inherit an image from, so its job names one: where the newest release
/// ships a built-in for the framework, the V1 job runs that image, whichever release the V2 pane
/// shows (the V1 pane is the Training Operator v1.9 job; issue 22 item 10). (V1 fine-tuning ran
/// its own trainer image, not TorchTune's.)
#[test]
fn the_v1_job_runs_the_image_of_the_newest_release_s_runtime() {
    for sel in selections().into_iter().filter(|s| s.framework != Framework::TorchTune) {
        let Some(builtin) = NEWEST.builtin_for(sel.framework) else { continue };
        let image = NEWEST.image(builtin.image);
        let v1: String = render(&sel).v1.snippets.iter().map(|s| s.code.as_str()).collect();
        assert!(v1.contains(&image), "{} {:?}: V1 pane lacks {image}", sel.release.tag, sel.framework);
    }
}

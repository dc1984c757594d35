//! Snapshots of every persona × framework at defaults, for review in diffs (`cargo insta review`).
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

use explorer_core::selection::Selection;
use explorer_core::snippets::render;
use explorer_data::catalog::{Framework, Persona};

fn rendered(sel: &Selection) -> String {
    let view = render(sel);
    let mut out = format!("summary: {}\n", view.summary);
    for pane in [&view.v2, &view.v1] {
        out.push_str(&format!("\n##### {} ({:?})\n", pane.heading, pane.api));
        if let Some(n) = &pane.notice {
            out.push_str(&format!("NOTICE {}\n{}\n", n.title, n.paragraphs.join("\n")));
        }
        for s in &pane.snippets {
            out.push_str(&format!("\n=== {} [{}]\n", s.title, s.language.id()));
            for (line, owned) in s.code.lines().zip(&s.owned_by_runtime) {
                out.push_str(if *owned { "▌" } else { " " });
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

#[test]
fn every_persona_and_framework_at_defaults() {
    for persona in Persona::ALL {
        for framework in Framework::ALL {
            let sel = Selection::new(persona, framework);
            insta::assert_snapshot!(format!("{}__{}", persona.id(), framework.id()), rendered(&sel));
        }
    }
}

/// The V2 pane as each release writes it: YAML and notices only (the Python pane and V1 do not
/// change with the YAML's release), for the selections where releases differ: the torch
/// TrainJob and runtime (v2.0's placeholder command, `numProcPerNode: auto` until v2.1), the MPI
/// built-in's layout (launcher first until v2.2), plain MPI (a v2.0 built-in, then a runtime you
/// own), JAX (from v2.2) and the TorchTune runtime and Qwen model (PVC until v2.1; Qwen from v2.1).
#[test]
fn the_v2_yaml_of_each_release() {
    use explorer_core::snippets::Language;
    use explorer_data::catalog::LlmModel;
    use explorer_data::releases::RELEASES;
    let cases = [
        ("data-scientist__pytorch", Persona::DataScientist, Framework::PyTorch, None),
        ("platform-engineer__pytorch", Persona::PlatformEngineer, Framework::PyTorch, None),
        ("platform-engineer__deepspeed", Persona::PlatformEngineer, Framework::DeepSpeed, None),
        ("platform-engineer__mpi", Persona::PlatformEngineer, Framework::Mpi, None),
        ("data-scientist__mpi", Persona::DataScientist, Framework::Mpi, None),
        ("data-scientist__jax", Persona::DataScientist, Framework::Jax, None),
        ("platform-engineer__torchtune", Persona::PlatformEngineer, Framework::TorchTune, None),
        ("data-scientist__torchtune-qwen", Persona::DataScientist, Framework::TorchTune, Some(LlmModel::Qwen25_1_5b)),
    ];
    for release in RELEASES {
        for (name, persona, framework, model) in cases {
            let mut sel = Selection::new(persona, framework);
            sel.release = *release;
            sel.params.model = model;
            let view = render(&sel);
            let mut out = format!("summary: {}\n\n##### {}\n", view.summary, view.v2.heading);
            if let Some(n) = &view.v2.notice {
                out.push_str(&format!("NOTICE {}\n{}\n", n.title, n.paragraphs.join("\n")));
            }
            for s in view.v2.snippets.iter().filter(|s| s.language == Language::Yaml) {
                out.push_str(&format!("\n=== {}\n{}", s.title, s.code));
            }
            insta::assert_snapshot!(format!("{}__{name}", release.line), out);
        }
    }
}

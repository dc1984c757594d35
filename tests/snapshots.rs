//! Snapshots of every persona × framework at defaults, for review in diffs (`cargo insta review`).
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

use trainer_v2_explorer::catalog::{Framework, Persona};
use trainer_v2_explorer::selection::Selection;
use trainer_v2_explorer::snippets::render;

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

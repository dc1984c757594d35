//! TensorFlow and PaddlePaddle have a V2 path: `migrate` turns their V1 jobs into a TrainJob on a
//! plain-ML runtime it writes. The V2 pane shows that path, and is exactly what `migrate` writes
//! for the V1 pane's own job: the real conversion runs on the V1 YAML the reader sees, for every
//! release and a spread of parameters, and its runtime (platform engineer) or TrainJob (data
//! scientist) must be the pane's, line for line.
#![cfg(not(target_arch = "wasm32"))]

use explorer_judges as common;

use explorer_core::migrate::migrate_to;
use explorer_core::snippets::{render, Language};
use explorer_core::yaml;
use explorer_data::catalog::{Framework, Persona, V2Support};
use explorer_data::releases::RELEASES;

const FRAMEWORKS: [Framework; 2] = [Framework::TensorFlow, Framework::Paddle];

fn spread() -> Vec<explorer_core::selection::Selection> {
    let mut out = Vec::new();
    for release in RELEASES {
        for mut sel in common::selection_spread().into_iter().filter(|s| FRAMEWORKS.contains(&s.framework)) {
            sel.release = *release;
            out.push(sel);
        }
    }
    out
}

/// The pane's text a reader sees: notice, summary and code.
fn pane_text(sel: &explorer_core::selection::Selection) -> String {
    let view = render(sel);
    let mut text = format!("{}\n", view.summary);
    if let Some(n) = &view.v2.notice {
        text.push_str(&format!("{}\n{}\n", n.title, n.paragraphs.join("\n")));
    }
    for s in &view.v2.snippets {
        text.push_str(&s.code);
    }
    text
}

#[test]
fn tensorflow_and_paddle_have_a_v2_path_in_every_release() {
    for sel in spread() {
        let text = pane_text(&sel);
        assert!(!text.contains("No V2 equivalent"), "{sel:?}:\n{text}");
        assert!(!text.contains("Keep running"), "{sel:?}:\n{text}");
        assert_eq!(sel.v2_support(), V2Support::GeneratedRuntime, "{sel:?}");
        let view = render(&sel);
        let yaml: Vec<_> = view.v2.snippets.iter().filter(|s| s.language == Language::Yaml).collect();
        assert_eq!(yaml.len(), 1, "{sel:?}: one YAML block\n{text}");
        // Where it comes from, in the pane and in the YAML a reader copies (export prints only the code).
        let contract = if sel.framework == Framework::TensorFlow { "TF_CONFIG" } else { "PADDLE_" };
        assert!(text.contains("no mlPolicy") && text.contains("plain ML"), "{text}");
        assert!(yaml[0].code.contains("# Written by `trainer-explorer migrate`"), "{}", yaml[0].code);
        match sel.persona {
            Persona::PlatformEngineer => {
                assert!(yaml[0].code.contains(contract), "{}", yaml[0].code);
                assert!(yaml[0].code.contains("kind: TrainingRuntime"), "{}", yaml[0].code);
            }
            Persona::DataScientist => {
                assert!(yaml[0].code.contains("kind: TrainJob"), "{}", yaml[0].code);
                assert!(text.contains("No Python SDK path"), "{text}");
            }
        }
        if sel.framework == Framework::TensorFlow {
            assert!(text.contains("trainer#2699"), "{text}");
        }
    }
}

/// The code of a block without its comment lines.
fn without_comments(code: &str) -> String {
    code.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect()
}

#[test]
fn the_v2_pane_is_what_migrate_writes_for_the_v1_pane() {
    let mut compared = 0;
    for sel in spread() {
        let view = render(&sel);
        let v1 = &view.v1.snippets[0];
        let migration = migrate_to(&v1.code, sel.release).expect("the V1 pane reads");
        assert!(migration.all_converted(), "{sel:?}: {:?}", migration.failures());
        let written: Vec<String> = migration
            .docs
            .iter()
            .flat_map(|d| d.outcome.output())
            .map(|o| yaml::join(&yaml::emit(&explorer_core::model::Value::from(o))))
            .collect();
        let want_kind = match sel.persona {
            Persona::PlatformEngineer => "\nkind: TrainingRuntime\n",
            Persona::DataScientist => "\nkind: TrainJob\n",
        };
        let wanted: Vec<&String> = written.iter().filter(|w| w.contains(want_kind)).collect();
        assert_eq!(wanted.len(), 1, "{sel:?}: {written:?}");
        let pane = view.v2.snippets.iter().find(|s| s.language == Language::Yaml).expect("a YAML block");
        assert_eq!(without_comments(&pane.code), *wanted[0], "{sel:?}\nV1:\n{}", v1.code);
        compared += 1;
    }
    assert!(compared >= 2 * 2 * 5 * RELEASES.len(), "{compared}");
}

/// A queued TensorFlow or PaddlePaddle TrainJob is created suspended, as the PyTorch one is
/// (snippets/trainjob.rs): Kueue admits it by setting `suspend` to false.
#[test]
fn a_queued_trainjob_pane_is_suspended_as_for_every_framework() {
    let mut queued = 0;
    for sel in spread().into_iter().filter(|s| s.queue().is_some() && s.persona == Persona::DataScientist) {
        let view = render(&sel);
        let pane = view.v2.snippets.iter().find(|s| s.language == Language::Yaml).expect("a YAML block");
        assert!(pane.code.contains("kueue.x-k8s.io/queue-name"), "{}", pane.code);
        assert!(pane.code.contains("\n  suspend: true\n"), "{sel:?}\n{}", pane.code);
        let mut torch = sel.clone();
        torch.framework = Framework::PyTorch;
        assert!(render(&torch).v2.snippets.iter().any(|s| s.code.contains("\n  suspend: true\n")), "{torch:?}");
        queued += 1;
    }
    assert!(queued >= 2 * RELEASES.len(), "{queued}");
}

//! Which fields the V2 pane takes, and the note above the fields that says what the others shape.

use super::{runtimes, trainjob};
use crate::selection::{ParamKey, RuntimeScope, Selection};
use explorer_data::catalog::{Framework, Persona, V2Support};

/// Whether the V2 pane takes parameter `key` for this selection. The data scientist's TrainJob and
/// Python take every parameter that applies, except Nodes for TorchTune (its runtimes are
/// single-node) and processes per node where the framework's policy has none to set. The platform
/// engineer's runtime is the release's own and takes only what picks or makes it theirs: the
/// model (each TorchTune runtime is one model's), the namespace of a namespaced copy, and the image
/// of a runtime they write (plain MPI where the release ships none). Every other field shapes only the V1 job and each TrainJob that
/// uses the runtime; the widget says so above the fields (`fields_elsewhere_note`). Checked against the rendered panes for
/// every selection (tests below).
pub fn v2_pane_takes(sel: &Selection, key: ParamKey) -> bool {
    match sel.v2_support() {
        V2Support::Unsupported => return false,
        // The pane shows what `migrate` writes for the V1 job, which has no processes per node;
        // the runtime is that job's own (its name, namespace, count and image).
        V2Support::GeneratedRuntime => {
            return !matches!(
                (sel.persona, key),
                (_, ParamKey::Procs) | (Persona::PlatformEngineer, ParamKey::Gpus | ParamKey::Queue)
            );
        }
        _ => {}
    }
    match sel.persona {
        Persona::DataScientist => match key {
            ParamKey::Nodes => sel.framework != Framework::TorchTune,
            ParamKey::Procs => trainjob::takes_procs(sel.framework),
            _ => true,
        },
        // The model names the TorchTune runtime itself.
        Persona::PlatformEngineer => match key {
            ParamKey::Model => true,
            ParamKey::Namespace => sel.scope == RuntimeScope::Namespaced,
            key => runtimes::platform_takes(sel, key),
        },
    }
}

/// What the fields the V2 pane does not take (`v2_pane_takes`) shape instead, said once, above
/// the fields: under each field it was the same sentence up to seven times over (issue 22). It
/// names the fields it is about, or the few it is not about, so it stays true field by field.
/// `None` when the V2 pane takes every field.
pub fn fields_elsewhere_note(sel: &Selection) -> Option<String> {
    let (mut taken, mut elsewhere) = (Vec::new(), Vec::new());
    for key in ParamKey::ALL.into_iter().filter(|k| k.applies_to(sel.framework)) {
        if v2_pane_takes(sel, key) {
            taken.push(key)
        } else {
            elsewhere.push(key)
        }
    }
    if elsewhere.is_empty() {
        return None;
    }
    let mut note = String::new();
    if taken.len() < elsewhere.len() {
        note.push_str("Every field below");
        if !taken.is_empty() {
            note.push_str(" but ");
            push_field_labels(&mut note, &taken);
        }
        note.push_str(" shapes");
    } else {
        push_field_labels(&mut note, &elsewhere);
        note.push_str(if elsewhere.len() == 1 { " shapes" } else { " shape" });
    }
    note.push_str(if sel.persona == Persona::PlatformEngineer && sel.v2_support() != V2Support::Unsupported {
        " the V1 job and each TrainJob, not the runtime."
    } else {
        " the V1 job only."
    });
    Some(note)
}

/// "A", "A and B", "A, B and C".
pub(super) fn push_field_labels(out: &mut String, keys: &[ParamKey]) {
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == keys.len() { " and " } else { ", " });
        }
        out.push_str(key.label());
    }
}

#[cfg(test)]
mod field_tests {
    use super::*;
    use crate::snippets::render;
    use explorer_data::releases::RELEASES;

    /// A value for each field that differs from its default.
    fn probe(key: ParamKey) -> &'static str {
        match key {
            ParamKey::Name => "probe-job",
            ParamKey::Namespace => "probe-ns",
            ParamKey::Nodes => "7",
            ParamKey::Gpus => "3",
            ParamKey::Procs => "5",
            ParamKey::Image => "probe/image:1",
            ParamKey::Queue => "probe-q",
            ParamKey::Model => "qwen2.5-1.5b",
            ParamKey::Dataset => "hf://probe/ds",
        }
    }

    /// For every persona, framework, scope and release, a field either changes the V2 pane or
    /// `v2_pane_takes` says it does not (and the widget says so to the reader); and every field
    /// changes the V1 pane where there is one to change.
    #[test]
    fn every_field_changes_the_v2_pane_exactly_when_v2_pane_takes_says_so() {
        let mut wrong = Vec::new();
        for persona in Persona::ALL {
            for framework in Framework::ALL {
                for scope in [RuntimeScope::Cluster, RuntimeScope::Namespaced] {
                    for release in RELEASES {
                        let mut sel = Selection::new(persona, framework);
                        sel.scope = scope;
                        sel.release = *release;
                        let before = render(&sel);
                        for key in ParamKey::ALL.into_iter().filter(|k| k.applies_to(framework)) {
                            let mut changed = sel.clone();
                            changed.params.set(key, probe(key)).unwrap();
                            let changes = render(&changed).v2 != before.v2;
                            if changes != v2_pane_takes(&sel, key) {
                                wrong.push(format!(
                                    "{} {} {:?} {}: {} changes V2 {changes}",
                                    persona.id(),
                                    framework.id(),
                                    scope,
                                    release.line,
                                    key.id()
                                ));
                            }
                        }
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong.join("\n"));
    }

    /// The note above the fields names what it is about. The platform engineer's PyTorch runtime
    /// takes the nodes, GPUs and image; a namespaced copy the namespace too; TorchTune's runtime
    /// is its model's, on one node, with its own image. The data scientist's TrainJob takes every field but what the
    /// framework has no place for.
    #[test]
    fn the_note_above_the_fields_names_the_fields_it_is_about() {
        let sel = |persona, framework, scope| {
            let mut sel = Selection::new(persona, framework);
            sel.scope = scope;
            fields_elsewhere_note(&sel)
        };
        use Persona::{DataScientist as Ds, PlatformEngineer as Pe};
        use RuntimeScope::{Cluster, Namespaced};
        let cases = [
            (
                sel(Pe, Framework::PyTorch, Cluster),
                "Every field below but Nodes, GPUs per node and Image shapes the V1 job and each TrainJob, not the \
                 runtime.",
            ),
            (
                sel(Pe, Framework::PyTorch, Namespaced),
                "Job name, Processes per node and Kueue LocalQueue shape the V1 job and each TrainJob, not the runtime.",
            ),
            (
                sel(Pe, Framework::TorchTune, Namespaced),
                "Every field below but Namespace, GPUs per node and Model shapes the V1 job and each TrainJob, not the \
                 runtime.",
            ),
            (sel(Ds, Framework::TorchTune, Cluster), "Nodes shapes the V1 job only."),
            // The TrainJob `migrate` writes for the TFJob takes every field but processes per node.
            (sel(Ds, Framework::TensorFlow, Cluster), "Processes per node shapes the V1 job only."),
        ];
        for (note, expected) in cases {
            assert_eq!(note.as_deref(), Some(expected));
        }
        assert_eq!(sel(Ds, Framework::PyTorch, Cluster), None, "the TrainJob takes every field");
    }
}

//! The "what changed" line under the panes.

use super::unsupported::arrives_later;
use super::v2_pane::contract_of;
use super::{Pane, Snippet};
use crate::selection::Selection;
use explorer_data::catalog::{Framework, Persona, V2Support, V1_OPERATOR};

pub(super) fn summary(sel: &Selection, v1: &Pane, v2: &Pane) -> String {
    let kind = sel.framework.v1_kind().kind();
    // The V1 pane always has its job; `first` keeps the widget's render total regardless.
    let (owned, total) = v1.snippets.first().map(|s| (s.owned_count(), s.line_count())).unwrap_or((0, 0));
    match (sel.v2_support(), sel.persona) {
        (V2Support::GeneratedRuntime, Persona::PlatformEngineer) => format!(
            "Trainer {} has no {} runtime: the migrator writes this plain-ML runtime for the {kind}, keeping {}.",
            sel.release.tag,
            sel.framework.label(),
            contract_of(sel)
        ),
        (V2Support::GeneratedRuntime, Persona::DataScientist) => {
            let v2_lines = v2.snippets.first().map(Snippet::line_count).unwrap_or(0);
            format!(
                "V2: a {v2_lines}-line TrainJob on the runtime the migrator writes for it. V1: {total} lines of {kind}."
            )
        }
        (V2Support::Unsupported, _) => {
            let tag = sel.release.tag;
            match (sel.framework, arrives_later(sel)) {
                (Framework::TorchTune, first) => format!(
                    "Trainer {tag} has no {} runtime{}.",
                    sel.model().label(),
                    first.map(|r| format!(" (first in {})", r.line)).unwrap_or_default()
                ),
                (_, Some(first)) => format!(
                    "{kind} has no Trainer {tag} equivalent (first in {}): keep it on {V1_OPERATOR} until then.",
                    first.line
                ),
                (_, None) => format!("{kind} has no Trainer {tag} equivalent: keep it on {V1_OPERATOR}."),
            }
        }
        (_, Persona::PlatformEngineer) => format!(
            "The runtime now holds what every V1 job repeated: {owned} of the {total} {kind} lines are infrastructure."
        ),
        (_, Persona::DataScientist) => {
            let v2_lines = v2.snippets.first().map(Snippet::line_count).unwrap_or(0);
            format!(
                "V2: a {v2_lines}-line TrainJob. V1: {total} lines of {kind}, {owned} of them infrastructure the {} runtime now owns.",
                sel.runtime_name().unwrap_or_default()
            )
        }
    }
}

//! The V2 pane's notice where the release has nothing to run the selection: when it arrives,
//! and what to run until then.

use super::Notice;
use crate::selection::Selection;
use explorer_data::catalog::{Framework, LlmModel, V2Support, V1_OPERATOR};
use explorer_data::releases::{Release, RELEASES};

/// The first release line that ships what the selection needs, when it comes after the selected
/// release (JAX and XGBoost before v2.2, Qwen before v2.1).
pub(super) fn arrives_later(sel: &Selection) -> Option<Release> {
    let model = sel.model();
    let ships = |r: &Release| match sel.framework {
        Framework::TorchTune => model.runtime(r).is_some(),
        f => f.v2_support_in(r) != V2Support::Unsupported,
    };
    // One walk in RELEASES' order (oldest first): the first release that ships it, if the
    // selected one came before it. `Release::is_before` would say the same by parsing both lines
    // into numbers, 0.8 KB of the widget's wasm for this one comparison.
    let mut passed_selected = false;
    for release in RELEASES {
        if ships(release) {
            return passed_selected.then_some(*release);
        }
        passed_selected |= *release == sel.release;
    }
    None
}

/// The runtimes of `frameworks` that the selected release ships, named for a "move to" hint.
/// Pushed in a loop, as `shipped` below: an `unzip` or `collect` compiled the standard library's
/// collecting code once more for each iterator type.
fn fallback_runtimes(sel: &Selection, frameworks: &[Framework]) -> (Vec<&'static str>, Vec<&'static str>) {
    let (mut labels, mut runtimes) = (Vec::new(), Vec::new());
    for f in frameworks {
        if let Some(rt) = sel.release.builtin_for(*f) {
            labels.push(f.label());
            runtimes.push(rt.name);
        }
    }
    (labels, runtimes)
}

pub(super) fn unsupported_notice(sel: &Selection) -> Notice {
    let tag = sel.release.tag;
    let name = sel.framework.label();
    let kind = sel.framework.v1_kind().kind();
    if sel.framework == Framework::TorchTune {
        let model = sel.model().label();
        let mut shipped = Vec::new();
        for m in &LlmModel::ALL {
            if m.runtime(&sel.release).is_some() {
                shipped.push(m.label());
            }
        }
        let mut paragraphs = vec![format!(
            "Trainer {tag} ships TorchTune runtimes for {} only, so there is no TrainJob to show for {model}.",
            crate::text::join(&shipped, " and ")
        )];
        if let Some(first) = arrives_later(sel) {
            let runtime = sel.model().runtime(&first).map_or("", |rt| rt.name);
            paragraphs.push(format!("Its runtime, {runtime}, first shipped with Trainer {}.", first.line));
        }
        return Notice { title: format!("No {model} runtime in Trainer {tag}"), paragraphs };
    }
    let (labels, runtimes) = fallback_runtimes(sel, &[Framework::PyTorch]);
    let move_to = format!(
        "If the model can move to {}, the {} runtime{} take{} it from there.",
        crate::text::join(&labels, " or "),
        crate::text::join(&runtimes, " and "),
        if runtimes.len() > 1 { "s" } else { "" },
        if runtimes.len() > 1 { "" } else { "s" },
    );
    let policy = sel.framework.ml_policy().unwrap_or_default();
    let Some(first) = arrives_later(sel) else {
        let mut paragraphs = vec![
            format!(
                "Trainer {tag} has no {name} runtime and no mlPolicy for it, so there is no TrainJob to show. \
                 KEP-2170 lists {name} as later work; nothing has shipped."
            ),
            format!("Keep running {kind} on {V1_OPERATOR}.x while you plan the move; its CRD and SDK still work."),
        ];
        paragraphs.push(move_to);
        return Notice { title: format!("No V2 equivalent for {kind}"), paragraphs };
    };
    let runtime = first.builtin_for(sel.framework).map_or("", |rt| rt.name);
    let no_policy = if sel.release.policies.contains(&policy) {
        String::new()
    } else {
        format!(" and its CRDs have no mlPolicy.{policy}")
    };
    Notice {
        title: format!("No {name} runtime in Trainer {tag}"),
        paragraphs: vec![
            format!("Trainer {tag} ships no {name} runtime{no_policy}, so there is no TrainJob to show."),
            format!("{name} arrived in Trainer {} with the {runtime} runtime.", first.line),
            format!("Keep running {kind} on {V1_OPERATOR}.x until the cluster runs Trainer {} or later.", first.line),
            move_to,
        ],
    }
}

//! The selections one click away from the reader's, which the widget prepares while they read.

use super::{RuntimeScope, Selection};
use explorer_data::catalog::{Framework, Persona, V2Support};

impl Selection {
    /// The selections one click on a control away, the ones a reader is likely to ask for next:
    /// every other framework, the other persona, and where the widget shows those controls
    /// (`all_controls`: not in the post's compact presets) every other release and, where there
    /// is a runtime to scope, the other runtime scope. The widget prepares their views while the
    /// reader reads (ui::prepare). Frameworks come first: they are the control readers use most.
    pub fn one_click_away(&self, all_controls: bool) -> Vec<Selection> {
        // Loops rather than iterator chains: this runs in the widget, where each byte downloads.
        let mut out = Vec::new();
        let mut add = |change: &dyn Fn(&mut Selection)| {
            let mut next = self.clone();
            change(&mut next);
            if next != *self {
                out.push(next);
            }
        };
        for f in Framework::ALL {
            add(&|s| s.framework = f);
        }
        for p in Persona::ALL {
            add(&|s| s.persona = p);
        }
        if all_controls {
            for r in explorer_data::releases::RELEASES {
                add(&|s| s.release = *r);
            }
            // A generated runtime is always the job's own TrainingRuntime: no scope to pick.
            if !matches!(self.v2_support(), V2Support::Unsupported | V2Support::GeneratedRuntime) {
                add(&|s| {
                    s.scope = match s.scope {
                        RuntimeScope::Cluster => RuntimeScope::Namespaced,
                        RuntimeScope::Namespaced => RuntimeScope::Cluster,
                    }
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selection::ParamKey;

    #[test]
    fn one_click_away_is_each_other_choice_of_one_shown_control() {
        let mut sel = Selection::new(Persona::DataScientist, Framework::Jax);
        sel.params.set(ParamKey::Nodes, "3").unwrap();
        let differs = |a: &Selection, b: &Selection| {
            [a.framework != b.framework, a.persona != b.persona, a.release != b.release, a.scope != b.scope]
                .into_iter()
                .filter(|d| *d)
                .count()
        };
        let compact = sel.one_click_away(false);
        assert_eq!(compact.len(), Framework::ALL.len() - 1 + 1, "other frameworks and the other persona");
        let full = sel.one_click_away(true);
        let releases = explorer_data::releases::RELEASES.len();
        assert_eq!(full.len(), compact.len() + (releases - 1) + 1, "and other releases and the other scope");
        for next in &full {
            assert_eq!(differs(&sel, next), 1, "{next:?} is not one click away");
            assert_eq!((next.params.clone(), next.mode), (sel.params.clone(), sel.mode), "parameters stay");
        }
        assert!(!full.contains(&sel));
        assert_eq!(full.iter().collect::<std::collections::HashSet<_>>().len(), full.len(), "no repeats");
        // No runtime to scope: the scope control is not shown.
        let tensorflow = Selection::new(Persona::DataScientist, Framework::TensorFlow);
        assert!(tensorflow.one_click_away(true).iter().all(|s| s.scope == tensorflow.scope));
    }
}

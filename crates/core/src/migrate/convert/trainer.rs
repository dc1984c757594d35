//! The main container's image, command, args, env and resources become `spec.trainer`.

use super::*;

impl Conversion<'_> {
    /// image, command, args and env of the main container go to `spec.trainer`.
    pub(super) fn trainer_from(&mut self, main: &Container, path: &str) -> Trainer {
        let mut t =
            Trainer { image: main.image.clone(), args: main.args.clone(), env: main.env.clone(), ..Default::default() };
        if main.image.is_some() {
            self.report.mapped(format!("{path}.image"), "spec.trainer.image", "");
        }
        if !main.command.is_empty() {
            t.command = main.command.clone();
            self.report.mapped(format!("{path}.command"), "spec.trainer.command", "");
        }
        if !main.args.is_empty() {
            self.report.mapped(format!("{path}.args"), "spec.trainer.args", "");
        }
        if !main.env.is_empty() {
            self.report.mapped(format!("{path}.env"), "spec.trainer.env", "");
        }
        self.report
            .renamed(format!("{path}.name"), "V2 runtimes name the trainer container node (kubectl logs -c node)");
        if main.image_pull_policy.is_some() {
            self.report.dropped(
                format!("{path}.imagePullPolicy"),
                "no TrainJob field or runtime patch holds it: the runtime's pull policy applies",
            );
        }
        if !main.ports.is_empty() {
            self.report.dropped(format!("{path}.ports"), "the runtime's plugin sets up the rendezvous port (29500)");
        }
        t
    }

    /// Requests and limits become `resourcesPerNode`; anything else under `resources` is reported.
    pub(super) fn map_resources(&mut self, mut r: Resources, path: &str, trainer: &mut Trainer) {
        for key in std::mem::take(&mut r.extra).keys() {
            if key == "claims" {
                self.report
                    .dropped(format!("{path}.claims"), "dynamic resource claims belong to the runtime's pod template");
            } else {
                self.report.dropped(format!("{path}.{key}"), "not a ResourceRequirements field");
            }
        }
        if !r.is_empty() {
            trainer.resources_per_node = Some(r);
            self.report.mapped(path, "spec.trainer.resourcesPerNode", "");
        }
    }
}

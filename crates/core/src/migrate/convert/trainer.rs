//! The main container's image, command, args, env and resources become `spec.trainer`.

use super::*;
use crate::pipeline::paths::member;

impl Conversion<'_> {
    /// image, command, args and env of the main container go to `spec.trainer`. The args and env
    /// are moved out of `main`, not copied (a container can hold 200,000 of them): the caller's
    /// container, the model's or a copy of it, has none left.
    pub(super) fn trainer_from(&mut self, main: &mut Container, path: &str) -> Trainer {
        let mut t = Trainer { image: main.image.clone(), ..Default::default() };
        if main.image.is_some() {
            self.report.mapped(member(path, "image"), "spec.trainer.image", "");
        }
        if !main.command.is_empty() {
            t.command = main.command.clone();
            self.report.mapped(member(path, "command"), "spec.trainer.command", "");
        }
        if !main.args.is_empty() || self.trainer_args_in_tree.is_some() {
            self.report.mapped(member(path, "args"), "spec.trainer.args", "");
        }
        if !main.env.is_empty() || self.trainer_env_in_tree.is_some() {
            self.report.mapped(member(path, "env"), "spec.trainer.env", "");
        }
        self.report.renamed(member(path, "name"), "V2 runtimes name the trainer container node (kubectl logs -c node)");
        if main.image_pull_policy.is_some() {
            self.report.dropped(
                member(path, "imagePullPolicy"),
                "no TrainJob field or runtime patch holds it: the runtime's pull policy applies",
            );
        }
        // An MPI launcher's ports are placed by `convert_mpi`: no rendezvous port there.
        // Every policy plugin declares port 29500 on the trainer container (constants.go:71-72,
        // torch.go:203, jax.go:100, xgboost.go:142-144 @v2.3.0), under its own name.
        let port = match self.source.kind() {
            // TFJob and PaddleJob: the generated runtime declares the V1 ports (convert_roles).
            V1Kind::MpiJob | V1Kind::TfJob | V1Kind::PaddleJob => None,
            V1Kind::XgBoostJob => Some("the XGBoost tracker port (29500, DMLC_TRACKER_PORT)"),
            V1Kind::JaxJob => Some("the JAX coordinator port (29500)"),
            _ => Some("the torch rendezvous port (29500)"),
        };
        if let (false, Some(port)) = (main.ports.is_empty(), port) {
            self.report.dropped(format!("{path}.ports"), format!("the runtime's plugin declares {port}"));
        }
        t.args = std::mem::take(&mut main.args);
        t.env = std::mem::take(&mut main.env);
        t
    }

    /// Requests and limits become `resourcesPerNode`; anything else under `resources` is reported.
    pub(super) fn map_resources(&mut self, r: Resources, path: &str, trainer: &mut Trainer) {
        if let Some(r) = self.requests_and_limits(r, path) {
            trainer.resources_per_node = Some(r);
            self.report.mapped(path, "spec.trainer.resourcesPerNode", "");
        }
    }

    /// The requests and limits of `r` (none when it has neither); anything else under
    /// `resources` is reported as dropped.
    pub(super) fn requests_and_limits(&mut self, mut r: Resources, path: &str) -> Option<Resources> {
        for key in std::mem::take(&mut r.extra).keys() {
            if key == "claims" {
                self.report
                    .dropped(format!("{path}.claims"), "dynamic resource claims belong to the runtime's pod template");
            } else {
                self.report.dropped(format!("{path}.{key}"), "not a ResourceRequirements field");
            }
        }
        (!r.is_empty()).then_some(r)
    }
}

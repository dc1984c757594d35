//! The Flux framework plugin (v2.2+): an init container copies Flux into the trainer's pods,
//! the trainer's command runs under Flux's entrypoint script, and the controller creates the
//! scripts' ConfigMap and the brokers' CURVE key Secret. Lines of
//! pkg/runtime/framework/plugins/flux/flux.go at v2.3.0; constants from
//! pkg/constants/constants.go:94-130.

use super::build::{job_name, upsert_mount, upsert_volume, PodSet, ANCESTOR_TRAINER, NODE};
use super::{Input, Object, Rejection};
use crate::model::pod::Container;
use crate::model::Value;
use explorer_data::releases::Release;

pub(super) const INSTALLER: &str = "flux-installer";
const INSTALLER_IMAGE: &str = "ghcr.io/converged-computing/flux-view-ubuntu:tag-jammy";
const INSTALL_VOLUME: &str = "flux-install";
const INSTALL_PATH: &str = "/mnt/flux";
const CONFIG_PATH: &str = "/etc/flux-config";
const CURVE_VOLUME: &str = "flux-curve";
const CURVE_PATH: &str = "/curve";
const MEMORY_VOLUME: &str = "shared-memory";
const MEMORY_PATH: &str = "/dev/shm";
const SPACK_VOLUME: &str = "spack-install";
const SPACK_PATH: &str = "/opt/software";

pub(super) fn is_flux(input: Input) -> bool {
    input.runtime.spec.ml_policy.as_ref().is_some_and(|m| m.flux.is_some())
}

fn runtime_procs(input: Input) -> Option<i64> {
    let flux = input.runtime.spec.ml_policy.as_ref()?.flux.as_ref()?;
    match flux.get("numProcPerNode") {
        Some(Value::Number(n)) => n.to_string().parse().ok(),
        _ => None,
    }
}

fn entrypoint_config(job: &str) -> String {
    format!("{job}-flux-entrypoint")
}

/// `Validate` (:95-131; v2.2.1 :104-129 reads the runtime's `numProcPerNode` only).
pub(super) fn validate(input: Input, release: Release) -> Vec<Rejection> {
    if !is_flux(input) {
        return vec![];
    }
    let mut out = vec![];
    let from_job = input.job.spec.trainer.as_ref().and_then(|t| t.num_proc_per_node).map(i64::from);
    let procs = match from_job.filter(|_| release.controller.flux_checks_trainjob_procs) {
        Some(n) => Some(n),
        None => runtime_procs(input),
    };
    if let Some(n) = procs.filter(|n| *n < 1) {
        out.push(Rejection {
            field: "spec.trainer.numProcPerNode".into(),
            reason: format!("Invalid value: {n}: must be greater than or equal to 1 for Flux TrainJob"),
        });
    }
    let node = input.runtime.spec.template.spec.replicated_jobs.iter().find(|r| r.name == NODE);
    for c in node.into_iter().flat_map(|r| &r.template.spec.template.spec.init_containers) {
        if c.name == INSTALLER {
            out.push(Rejection {
                field: "spec.trainer.initContainers".into(),
                reason: format!("Invalid value: {INSTALLER:?}: InitContainer '{INSTALLER}' is reserved"),
            });
        }
    }
    out
}

/// `brokerSettingsFromEnvironment` (:246-270): `FLUX_VIEW_IMAGE` from the trainer container's
/// env, then the TrainJob's.
fn installer_image(input: Input, trainer: Option<&Container>) -> String {
    let mut image = INSTALLER_IMAGE.to_string();
    let job_env = input.job.spec.trainer.iter().flat_map(|t| &t.env);
    for var in trainer.into_iter().flat_map(|c| &c.env).chain(job_env) {
        if var.name == "FLUX_VIEW_IMAGE" {
            if let Some(v) = &var.value {
                image = v.clone();
            }
        }
    }
    image
}

/// `EnforceMLPolicy` (:134-211). The command the TrainJob's trainer runs becomes Flux's entrypoint
/// with the original command line as its argument; `Err` where the controller would fail.
pub(super) fn enforce(input: Input, sets: &mut [PodSet]) -> Result<Option<Vec<String>>, Rejection> {
    if !is_flux(input) {
        return Ok(None);
    }
    // :141-151 dereference `spec.trainer`: without one the reconcile fails.
    let Some(trainer) = input.job.spec.trainer.as_ref() else {
        return Err(Rejection {
            field: "spec.trainer".into(),
            reason: "the Flux plugin rewrites the trainer's command and needs spec.trainer (controller error)".into(),
        });
    };
    let runtime_trainer = sets
        .iter()
        .filter(|s| s.ancestor.as_deref() == Some(ANCESTOR_TRAINER))
        .find_map(|s| s.containers.iter().find(|c| c.name == NODE))
        .cloned();
    // :427-446 `getOriginalCommand`: the TrainJob's command (else the runtime's) and its args.
    let command = if trainer.command.is_empty() {
        runtime_trainer.as_ref().map(|c| c.command.clone()).unwrap_or_default()
    } else {
        trainer.command.clone()
    };
    let original = command.iter().chain(&trainer.args).cloned().collect::<Vec<_>>().join(" ");
    let flux_command = vec!["/bin/bash".into(), format!("{CONFIG_PATH}/entrypoint.sh"), original.trim().to_string()];

    let job = job_name(input);
    let config = entrypoint_config(&job);
    let image = installer_image(input, runtime_trainer.as_ref());
    for ps in sets.iter_mut().filter(|s| s.name == NODE) {
        // :177-186 and `getViewVolumes` (:296-326).
        for volume in [
            crate::tree!({"name": SPACK_VOLUME, "emptyDir": {}}),
            crate::tree!({"name": INSTALL_VOLUME, "emptyDir": {}}),
            crate::tree!({"name": (config.as_str()), "configMap": {"name": (config.as_str()), "defaultMode": 0o755}}),
            crate::tree!({"name": MEMORY_VOLUME, "emptyDir": {"medium": "Memory"}}),
            crate::tree!({"name": CURVE_VOLUME, "secret": {"secretName": (format!("{job}-flux-curve")), "defaultMode": 0o400}}),
        ] {
            upsert_volume(&mut ps.volumes, volume);
        }
        // :155-170,188-191 the installer runs after the runtime's own init containers.
        let mut installer = Container::new(INSTALLER, &image);
        installer.command = vec!["/bin/bash".into(), format!("{CONFIG_PATH}/init.sh")];
        upsert_mount(&mut installer, INSTALL_VOLUME, INSTALL_PATH, false);
        upsert_mount(&mut installer, &config, CONFIG_PATH, true);
        ps.init_containers.push(installer);
        // :193-205.
        for c in ps.containers.iter_mut().filter(|c| c.name == NODE) {
            upsert_mount(c, INSTALL_VOLUME, INSTALL_PATH, false);
            upsert_mount(c, SPACK_VOLUME, SPACK_PATH, false);
            upsert_mount(c, &config, CONFIG_PATH, true);
            upsert_mount(c, CURVE_VOLUME, CURVE_PATH, true);
            upsert_mount(c, MEMORY_VOLUME, MEMORY_PATH, true);
        }
    }
    Ok(Some(flux_command))
}

/// `Build` (:213-233): the scripts' ConfigMap and the CURVE certificate Secret.
pub(super) fn objects(input: Input) -> Vec<Object> {
    if !is_flux(input) {
        return vec![];
    }
    let job = job_name(input);
    vec![
        Object::new("ConfigMap", entrypoint_config(&job), "Trainer controller (Flux plugin)", "every reconcile, with the JobSet")
            .described(&[
                ("init.sh", "copies Flux from the installer image into /mnt/flux (the flux-installer init container runs it)"),
                ("entrypoint.sh", "starts the Flux brokers on every node and submits the trainer's command with flux run -N <numNodes> -n <numNodes × numProcPerNode>"),
            ]),
        Object::new("Secret", format!("{job}-flux-curve"), "Trainer controller (Flux plugin)", "every reconcile, with the JobSet")
            .described(&[("curve.cert", "the brokers' ZeroMQ CURVE key pair, derived from the TrainJob's UID")]),
    ]
}

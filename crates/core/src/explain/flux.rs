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
        out.push(too_few_procs(n));
    }
    let node = input.runtime.spec.template.spec.replicated_jobs.iter().find(|r| r.name == NODE);
    for c in node.into_iter().flat_map(|r| &r.template.spec.template.spec.init_containers) {
        if c.name == INSTALLER {
            out.push(Rejection::invalid(
                "spec.trainer.initContainers",
                format!("{INSTALLER:?}: InitContainer '{INSTALLER}' is reserved"),
            ));
        }
    }
    out
}

/// The refusal of fewer than one process per node (:116-119).
pub(super) fn too_few_procs(n: i64) -> Rejection {
    Rejection::invalid(
        "spec.trainer.numProcPerNode",
        format!("{n}: must be greater than or equal to 1 for Flux TrainJob"),
    )
}

/// `brokerSettingsFromEnvironment` (:262-291): a broker setting (`FLUX_VIEW_IMAGE`,
/// `FLUX_NETWORK_DEVICE`, `FLUX_QUEUE_POLICY`) from the trainer container's env, then the
/// TrainJob's, which wins; `default` (constants.go:96-102) otherwise. The TrainJob's env is a
/// `corev1.EnvVar` list read by `.Value`, so a `valueFrom` entry sets the setting to "".
fn broker_setting(input: Input, trainer: Option<&Container>, name: &str, default: &str) -> String {
    let mut value = default.to_string();
    for var in trainer.into_iter().flat_map(|c| &c.env).filter(|v| v.name == name) {
        if let Some(v) = &var.value {
            value = v.clone();
        }
    }
    for var in input.job.spec.trainer.iter().flat_map(|t| &t.env).filter(|v| v.name == name) {
        value = var.value.clone().unwrap_or_default();
    }
    value
}

fn installer_image(input: Input, trainer: Option<&Container>) -> String {
    broker_setting(input, trainer, "FLUX_VIEW_IMAGE", INSTALLER_IMAGE)
}

/// `EnforceMLPolicy` (:134-211). The command the TrainJob's trainer runs becomes Flux's entrypoint
/// with the original command line as its argument; `Err` where the controller would fail.
pub(super) fn enforce(input: Input, sets: &mut [PodSet]) -> Result<Option<Vec<String>>, Rejection> {
    if !is_flux(input) {
        return Ok(None);
    }
    // :141-151 dereference `spec.trainer`: without one the reconcile fails.
    let Some(trainer) = input.job.spec.trainer.as_ref() else {
        return Err(Rejection::message(
            "spec.trainer",
            "the Flux plugin rewrites the trainer's command and needs spec.trainer (controller error)",
        ));
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

/// The scripts' templates, byte for byte as the controller embeds them (`//go:embed`, flux.go:49-56)
/// from pkg/runtime/framework/plugins/flux/templates/ at each tag. broker.toml is the same at
/// v2.2.1 and v2.3.0; v2.3.0 adds a license header to both scripts, and its entrypoint.sh:86
/// takes the cores and GPUs (`%s`) where v2.2.1's :72 has `--local`.
struct Templates {
    init: &'static str,
    entrypoint: &'static str,
    broker: &'static str,
}

const V2_2_TEMPLATES: Templates = Templates {
    init: include_str!("flux_templates/v2.2.1/init.sh.tmpl"),
    entrypoint: include_str!("flux_templates/v2.2.1/entrypoint.sh.tmpl"),
    broker: include_str!("flux_templates/v2.3.0/broker.toml.tmpl"),
};

const V2_3_TEMPLATES: Templates = Templates {
    init: include_str!("flux_templates/v2.3.0/init.sh.tmpl"),
    entrypoint: include_str!("flux_templates/v2.3.0/entrypoint.sh.tmpl"),
    broker: include_str!("flux_templates/v2.3.0/broker.toml.tmpl"),
};

/// Go's `fmt.Sprintf(template, args...)` for templates whose only verb is `%s` (true of all
/// three): each `%s` in turn takes the next argument; the arguments themselves are not scanned,
/// so the `%p` and `%h` of the broker's addresses stay as they are.
fn sprintf(template: &str, args: &[&str]) -> String {
    let mut parts = template.split("%s");
    let mut out = parts.next().unwrap_or_default().to_string();
    for (part, arg) in parts.zip(args.iter().chain(std::iter::repeat(&""))) {
        out.push_str(arg);
        out.push_str(part);
    }
    out
}

/// `generateRange` (:471-480 @v2.3.0): `0` for one, else `0-<size-1>`.
fn range(size: u64) -> String {
    if size == 1 {
        "0".into()
    } else {
        format!("0-{}", size.saturating_sub(1))
    }
}

/// The ConfigMap's `init.sh` and `entrypoint.sh` as the controller of `release` writes them for
/// a TrainJob of `nodes` nodes (:316-347, :349-375, :403-459 @v2.3.0; :398-467 @v2.2.1).
fn scripts(input: Input, release: Release, sets: &[PodSet], nodes: u64) -> (String, String) {
    let v2_2 = release.tag == "v2.2.1";
    let t = if v2_2 { &V2_2_TEMPLATES } else { &V2_3_TEMPLATES };
    let job = job_name(input);
    // A namespaced object without one lands in the namespace it is applied to: `default` here.
    let namespace = input.job.metadata.namespace.clone().unwrap_or_else(|| "default".into());
    let trainer = sets
        .iter()
        .filter(|s| s.ancestor.as_deref() == Some(ANCESTOR_TRAINER))
        .find_map(|s| s.containers.iter().find(|c| c.name == NODE));
    // `generateBrokerConfig` (:349-375): bind on the network device, connect by FQDN.
    let device = broker_setting(input, trainer, "FLUX_NETWORK_DEVICE", "eth0");
    let queue = broker_setting(input, trainer, "FLUX_QUEUE_POLICY", "fcfs");
    let hosts = format!("{job}-{NODE}-0-[{}]", range(nodes));
    let bind = format!("tcp://{device}:%p");
    let connect = format!("tcp://%h.{job}.{namespace}.svc.cluster.local:%p");
    let broker = sprintf(t.broker, &[&bind, &connect, &hosts, &queue]);
    // `generateInitEntrypoint` (:440-459): the view's root, `<name>-0`, the hostlist, the broker.
    let init = sprintf(t.init, &["/opt/view", &format!("{job}-0"), &hosts, &broker]);
    // `generateFluxEntrypoint` (:403-438): the TrainJob's numProcPerNode, else the Flux policy's
    // (CRD default 1); `-g` and `--gpu` only with GPUs per node.
    let procs = input
        .job
        .spec
        .trainer
        .as_ref()
        .and_then(|t| t.num_proc_per_node)
        .map(u64::from)
        .or_else(|| runtime_procs(input).and_then(|n| u64::try_from(n).ok()))
        .unwrap_or(1);
    let gpus = super::plugins::gpus(super::plugins::resources_per_node(input).as_ref());
    let mut flags = format!("-N {nodes} -n {}", procs.saturating_mul(nodes));
    let mut cores = format!("--cores={}", range(procs));
    if gpus > 0 {
        flags.push_str(&format!(" -g {gpus}"));
        cores.push_str(&format!(" --gpu={}", range(gpus)));
    }
    let main_host = format!("{job}-{NODE}-0-0");
    let entrypoint = if v2_2 {
        sprintf(t.entrypoint, &[&main_host, &flags])
    } else {
        sprintf(t.entrypoint, &[&cores, &main_host, &flags])
    };
    (init, entrypoint)
}

/// `Build` (:213-239): the scripts' ConfigMap and the CURVE certificate Secret, applied the same
/// on every reconcile (nothing in them follows the pods as they run).
pub(super) fn objects(input: Input, release: Release, sets: &[PodSet]) -> Vec<Object> {
    if !is_flux(input) {
        return vec![];
    }
    let job = job_name(input);
    let config = Object::new(
        "ConfigMap",
        entrypoint_config(&job),
        "Trainer controller (Flux plugin)",
        "every reconcile, with the JobSet",
    );
    let nodes = input.job.spec.trainer.as_ref().and_then(|t| t.num_nodes).map(u64::from);
    let config = match nodes {
        Some(nodes) => {
            let (init, entrypoint) = scripts(input, release, sets, nodes);
            let data = [("entrypoint.sh".to_string(), entrypoint), ("init.sh".to_string(), init)];
            Object { data: Some(data.into_iter().collect()), ..config }
        }
        // :413,451 @v2.3.0 (:407,438 @v2.2.1) read `*trainJob.Spec.Trainer.NumNodes` with no
        // default: without it the reconcile fails on a nil pointer and the scripts are not written.
        None => config.described(&[
            ("entrypoint.sh", "not written: the Flux plugin reads the TrainJob's spec.trainer.numNodes, which is unset (the reconcile fails)"),
            ("init.sh", "not written: the Flux plugin reads the TrainJob's spec.trainer.numNodes, which is unset (the reconcile fails)"),
        ]),
    };
    vec![
        config,
        // :501-545 @v2.3.0: X25519 keys from the SHA-256 of the TrainJob's UID, which the API
        // server assigns at creation: unknown here.
        Object::new("Secret", format!("{job}-flux-curve"), "Trainer controller (Flux plugin)", "every reconcile, with the JobSet")
            .described(&[("curve.cert", "the brokers' ZeroMQ CURVE certificate; its key pair is derived from the TrainJob's UID, assigned at creation")]),
    ]
}

//! The MPI plugin (pkg/runtime/framework/plugins/mpi/mpi.go): slots, the SSH keys' Secret, the
//! hostfile and the launcher's OpenMPI environment.

use super::{gpus, resources_per_node};
use crate::explain::build::{upsert_env, upsert_mount, upsert_volume, PodSet, LAUNCHER, NODE};
use crate::explain::{ErrorType, FieldPath, Input, Rejection};
use crate::model::pod::EnvVar;
use crate::model::v2::MpiPolicy;
use crate::model::Value;
use explorer_data::releases::Controller;

/// What the MPI plugin decided, for the hostfile and the Secret.
pub(in crate::explain) struct MpiOutcome {
    pub launcher_as_node: bool,
    pub slots: u32,
}

/// mpi.go:111-233 (v2.0.1 :107-213).
pub(super) fn mpi_plugin(
    input: Input,
    controller: &Controller,
    mpi: &MpiPolicy,
    sets: &mut [PodSet],
) -> Result<MpiOutcome, Rejection> {
    let launcher_as_node = mpi.run_launcher_as_node.unwrap_or(false);
    let trainer = input.job.spec.trainer.as_ref();
    // :117-126 with the launcher running as a node, it is one of numNodes.
    if let Some(n) = trainer.and_then(|t| t.num_nodes) {
        if let Some(node) = sets.iter_mut().find(|s| s.name == NODE) {
            node.count = if launcher_as_node { n.saturating_sub(1).max(1) } else { n };
        }
    }
    // :128-139 slots: the TrainJob's numProcPerNode; else the runtime's, and a runtime 1 becomes
    // one per GPU when a node has more than one (from v2.1.0, mpi.go:127-135; v2.0.1 :126-128
    // keeps the runtime's). CRD default 1 (trainingruntime_types.go:275-278).
    let runtime_procs = mpi.num_proc_per_node.unwrap_or(1);
    let slots = match trainer.and_then(|t| t.num_proc_per_node) {
        Some(n) => n,
        None if runtime_procs == 1 && controller.mpi_slots_follow_gpus => {
            match gpus(resources_per_node(input).as_ref()) {
                g if g > 1 => u32::try_from(g).unwrap_or(u32::MAX),
                _ => 1,
            }
        }
        None => runtime_procs,
    };
    // CRD defaults (trainingruntime_types.go:281-292): OpenMPI, /root/.ssh.
    let implementation = mpi.mpi_implementation.as_deref().unwrap_or("OpenMPI");
    let ssh_path = mpi.ssh_auth_mount_path.as_deref().unwrap_or("/root/.ssh");
    for ps in sets.iter_mut().filter(|s| s.name == NODE || s.name == LAUNCHER) {
        // :141-188 the SSH keys on both, the hostfile on the launcher.
        let job = crate::explain::build::job_name(input);
        upsert_volume(&mut ps.volumes, ssh_auth_volume(&job, controller));
        if ps.name == LAUNCHER {
            upsert_volume(&mut ps.volumes, hostfile_volume(&job));
        }
        let is_launcher = ps.name == LAUNCHER;
        for c in ps.containers.iter_mut().filter(|c| c.name == NODE) {
            upsert_mount(c, "mpi-ssh-auth", ssh_path, false); // :193-200
            if !is_launcher {
                continue;
            }
            upsert_mount(c, "mpi-hostfile", "/etc/mpi", false); // :202-207
            if implementation != "OpenMPI" {
                // :225-226: the reconcile fails; the CRD enum only admits OpenMPI anyway.
                return Err(Rejection::new(
                    ErrorType::Message,
                    FieldPath::parse("spec.mlPolicy.mpi.mpiImplementation").in_runtime(),
                    format!("MPI implementation for {implementation} doesn't supported (controller error)"),
                ));
            }
            // :210-224 only the launcher's `node` container gets the OpenMPI variables.
            upsert_env(
                &mut c.env,
                [
                    EnvVar::new("OMPI_MCA_orte_default_hostfile", "/etc/mpi/hostfile"),
                    EnvVar::new("OMPI_MCA_orte_keep_fqdn_hostnames", "true"),
                    EnvVar::new("OMPI_MCA_orte_set_default_slots", &slots.to_string()),
                    EnvVar::new("OMPI_MCA_plm_rsh_args", "-o ConnectionAttempts=10"),
                ],
            );
        }
    }
    Ok(MpiOutcome { launcher_as_node, slots })
}

/// The SSH Secret volume MPI adds to the launcher and the nodes: the private key as `id_rsa`,
/// the public key as `id_rsa.pub` and `authorized_keys` (mpi.go:146-170 @v2.3.0, :135-155
/// @v2.0.1; file names constants/constants.go:139-148 @v2.3.0). From v2.3.0 with modes.
fn ssh_auth_volume(job: &str, controller: &Controller) -> Value {
    let secret_name = format!("{job}-mpi-ssh-auth");
    if controller.mpi_ssh_file_modes {
        // constants.go:151-157 @v2.3.0: MPISSHAuthDefaultMode, ...PrivateKeyFileMode, ...PublicKeyFileMode.
        let (default_mode, private_mode, public_mode) = (0o400, 0o640, 0o644);
        return crate::tree!({"name": "mpi-ssh-auth", "secret": {
            "secretName": secret_name,
            "defaultMode": default_mode,
            "items": [
                {"key": "ssh-privatekey", "path": "id_rsa", "mode": private_mode},
                {"key": "ssh-publickey", "path": "id_rsa.pub", "mode": public_mode},
                {"key": "ssh-publickey", "path": "authorized_keys", "mode": public_mode}
            ]
        }});
    }
    crate::tree!({"name": "mpi-ssh-auth", "secret": {
        "secretName": secret_name,
        "items": [
            {"key": "ssh-privatekey", "path": "id_rsa"},
            {"key": "ssh-publickey", "path": "id_rsa.pub"},
            {"key": "ssh-publickey", "path": "authorized_keys"}
        ]
    }})
}

/// The hostfile ConfigMap volume on the launcher: key `hostfile` as file `hostfile`, mode 0444
/// (mpi.go:171-188 @v2.3.0, :156-172 @v2.0.1).
fn hostfile_volume(job: &str) -> Value {
    let read_only = 0o444;
    crate::tree!({"name": "mpi-hostfile", "configMap": {
        "name": (format!("{job}-mpi-hostfile")),
        "items": [{"key": "hostfile", "path": "hostfile", "mode": read_only}]
    }})
}

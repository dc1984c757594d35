//! The MPI Operator's `kubeflow.org/v2beta1` MPIJob: SSH between pods behind one headless
//! Service. Paths under mpi-operator v0.6.0:pkg/controller/mpi_job_controller.go unless named.

use super::{
    append_env, env, object, Error, FieldPath, Job, Modelled, Role, MPI_CONFIG_MOUNT as CONFIG_MOUNT,
    MPI_CONFIG_VOLUME as CONFIG_VOLUME,
};
use crate::explain::Object;
use crate::model::pod::{EnvVar, PodTemplateSpec};
use crate::model::Value;
use serde_json::Value as Json;

/// :70-91.
const SSH_VOLUME: &str = "ssh-auth";
const ROOT_SSH: &str = "/root/.ssh";
const BY: &str = "MPI Operator";

/// The defaulted spec fields (pkg/apis/kubeflow/v2beta1/default.go:60-73).
struct Spec {
    slots: i64,
    ssh_path: String,
    implementation: String,
    launcher_as_worker: bool,
}

fn spec(job: &Job) -> Spec {
    let s = |k: &str| job.spec_str(k).filter(|v| !v.is_empty());
    Spec {
        slots: job.spec.get("slotsPerWorker").and_then(Json::as_i64).unwrap_or(1),
        ssh_path: s("sshAuthMountPath").unwrap_or(ROOT_SSH).to_string(),
        implementation: s("mpiImplementation").unwrap_or("OpenMPI").to_string(),
        launcher_as_worker: job.spec.get("runLauncherAsWorker").and_then(Json::as_bool) == Some(true),
    }
}

/// :1661-1667.
fn labels(job: &Job, role: &str) -> [(String, String); 3] {
    [
        ("training.kubeflow.org/operator-name".into(), "mpi-operator".into()),
        ("training.kubeflow.org/job-name".into(), job.name.clone()),
        ("training.kubeflow.org/job-role".into(), role.into()),
    ]
}

/// :1611-1617: `ExitCode` becomes Never.
fn restart_policy(p: Option<&str>) -> String {
    match p {
        Some("ExitCode") | None => "Never".into(),
        Some(p) => p.into(),
    }
}

/// :1682-1705 `setupSSHOnPod`: the Secret on the first container at `sshAuthMountPath`.
fn setup_ssh(pod: &mut PodTemplateSpec, job: &Job, s: &Spec) {
    let mode = if s.ssh_path == ROOT_SSH { Some(0o600) } else { None };
    let mut secret = crate::tree!({"secretName": (format!("{}-ssh", job.name))});
    if let (Some(m), Value::Object(map)) = (mode, &mut secret) {
        map.insert("defaultMode".into(), Value::from(m));
    }
    let mut volume = crate::tree!({"name": SSH_VOLUME});
    if let Value::Object(map) = &mut volume {
        map.insert("secret".into(), secret);
    }
    pod.spec.volumes.push(volume);
    pod.spec.containers[0].volume_mounts.push(crate::tree!({"name": SSH_VOLUME, "mountPath": (s.ssh_path.clone())}));
}

/// The pod's hostname in the job's Service, `<hostname>.<job>.<namespace>.svc`.
fn fqdn(job: &Job, host: &str) -> String {
    format!("{host}.{}.{}.svc", job.name, job.namespace)
}

/// :1412-1465 `newWorker` and :1495-1581 `newLauncherPodTemplate`.
pub(super) fn operate(job: &Job) -> Result<(Vec<Role>, Vec<Object>), Error> {
    let s = spec(job);
    let name = &job.name;
    let launcher_spec = job.replica("Launcher").ok_or_else(|| Error::Missing {
        path: FieldPath::new("spec").child("mpiReplicaSpecs").child("Launcher"),
        or_not_a_mapping: false,
    })?;
    let mut launcher = launcher_spec.template.clone();
    let meta = launcher.metadata.get_or_insert_with(Default::default);
    for (k, v) in labels(job, "launcher") {
        meta.labels.insert(k, v);
    }
    let host = format!("{name}-launcher");
    set_network(&mut launcher, &host, name);
    {
        let c = &mut launcher.spec.containers[0];
        // :1518 then the implementation's (:176-210, :1519-1535).
        append_env(c, [env("K_MPI_JOB_ROLE", "launcher")]);
        append_env(c, implementation_env(&s));
        // :1536-1542 a launcher that is not also a worker must not see the node's GPUs.
        if !s.launcher_as_worker {
            append_env(
                c,
                [
                    EnvVar { name: "NVIDIA_VISIBLE_DEVICES".into(), value: None, value_from: None },
                    EnvVar { name: "NVIDIA_DRIVER_CAPABILITIES".into(), value: None, value_from: None },
                ],
            );
        }
    }
    setup_ssh(&mut launcher, job, &s);
    launcher.spec.restart_policy = Some(restart_policy(launcher_spec.restart_policy.as_deref()));
    // :1554-1569 the hostfile and discover_hosts.sh.
    launcher.spec.volumes.push(super::mpi_config_volume(name));
    launcher.spec.containers[0].volume_mounts.push(crate::tree!({"name": CONFIG_VOLUME, "mountPath": CONFIG_MOUNT}));
    let mut roles = vec![Role {
        replica_type: "Launcher".into(),
        count: 1,
        hostnames: vec![fqdn(job, &host)],
        pods: Modelled::Built(vec![launcher]),
        template: launcher_spec.template.clone(),
    }];

    let workers = job.count("Worker");
    let host = |i: u32| format!("{name}-worker-{i}");
    let worker_role = Role::mpi_workers(
        job,
        |i| fqdn(job, &host(i)),
        |i, spec, pod| {
            let meta = pod.metadata.get_or_insert_with(Default::default);
            for (k, v) in labels(job, "worker") {
                meta.labels.insert(k, v);
            }
            meta.labels.insert("training.kubeflow.org/replica-index".into(), i.to_string());
            set_network(pod, &host(i), name);
            // :1433-1438 Intel MPI and MPICH reach the launcher by its short name.
            let search = format!("{name}.{}.svc.cluster.local", job.namespace);
            if !pod.spec.extra.contains_key("dnsConfig") {
                pod.spec.extra.insert("dnsConfig".into(), crate::tree!({}));
            }
            let searches = pod.spec.extra.get_mut("dnsConfig").and_then(|dns| dns.entry("searches"));
            if let Some(searches) = searches {
                match searches {
                    Value::Array(list) => list.push(Value::from(search)),
                    other => *other = crate::tree!([(search)]),
                }
            }
            pod.spec.restart_policy = Some(restart_policy(spec.restart_policy.as_deref()));
            let c = &mut pod.spec.containers[0];
            // :1442-1444 a worker with neither command nor args runs sshd.
            if c.command.is_empty() && c.args.is_empty() {
                c.command = vec!["/usr/sbin/sshd".into(), "-De".into()];
            }
            append_env(c, [env("K_MPI_JOB_ROLE", "worker")]);
            setup_ssh(pod, job, &s);
        },
    );
    roles.push(worker_role);
    Ok((roles, objects(job, &s, workers)))
}

/// :1425-1431, :1510-1516: hostname and subdomain (the job's Service); with hostNetwork the
/// DNS policy that still resolves cluster names.
fn set_network(pod: &mut PodTemplateSpec, host: &str, service: &str) {
    pod.spec.extra.insert("hostname".into(), Value::from(host));
    pod.spec.extra.insert("subdomain".into(), Value::from(service));
    if pod.spec.extra.get("hostNetwork") == Some(&Value::Bool(true)) {
        pod.spec.extra.insert("dnsPolicy".into(), Value::from("ClusterFirstWithHostNet"));
    }
}

/// :176-210 and :1519-1535: where each implementation finds the hostfile, and its slots.
fn implementation_env(s: &Spec) -> Vec<EnvVar> {
    let hostfile = format!("{CONFIG_MOUNT}/hostfile");
    match s.implementation.as_str() {
        "Intel" => vec![
            env("I_MPI_HYDRA_HOST_FILE", hostfile),
            env("I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", "-o ConnectionAttempts=10"),
            env("I_MPI_PERHOST", s.slots),
        ],
        "MPICH" => vec![env("HYDRA_HOST_FILE", hostfile), env("HYDRA_LAUNCH_EXTRA_ARGS", "-o ConnectionAttempts=10")],
        _ => vec![
            env("OMPI_MCA_orte_keep_fqdn_hostnames", "true"),
            env("OMPI_MCA_orte_default_hostfile", hostfile),
            env("OMPI_MCA_plm_rsh_args", "-o ConnectionAttempts=10"),
            env("OMPI_MCA_orte_set_default_slots", s.slots),
        ],
    }
}

/// :1272-1313 `newConfigMap`: the hostfile line of the pod whose hostname is `host`. Upstream's
/// expected ConfigMaps pin it (v0.6.0:pkg/controller/mpi_job_controller_test.go:1709 OpenMPI with
/// the launcher first, :1758 without it, :1783 Intel's `<host>:<slots>`, :1808 MPICH's), each a
/// case of crates/core/tests/it/v1_operator/cases.yaml.
fn host_line(job: &Job, s: &Spec, host: &str) -> String {
    let slots = s.slots;
    match s.implementation.as_str() {
        "Intel" | "MPICH" => format!("{}:{slots}\n", fqdn(job, host)),
        _ => format!("{} slots={slots}\n", fqdn(job, host)),
    }
}

/// :1272-1313 `newConfigMap`: one line per worker (the launcher first when it also works).
fn hostfile(job: &Job, s: &Spec, workers: u32) -> String {
    let mut out = String::new();
    if s.launcher_as_worker {
        out.push_str(&host_line(job, s, &format!("{}-launcher", job.name)));
    }
    for i in 0..workers {
        out.push_str(&host_line(job, s, &format!("{}-worker-{i}", job.name)));
    }
    out
}

/// :833-840,1315-1336: at creation no worker runs yet (the ConfigMap comes before the
/// workers, :640), so the script holds the shebang, and the launcher when it also works.
fn discover_hosts_at_creation(job: &Job, s: &Spec) -> String {
    let mut discover_hosts = "#!/bin/sh\n".to_string();
    if s.launcher_as_worker {
        discover_hosts.push_str(&format!("echo {}\n", fqdn(job, &format!("{}-launcher", job.name))));
    }
    discover_hosts
}

/// The bytes of data in the ConfigMap `<job>-config` as the operator first creates it (hostfile,
/// discover_hosts.sh), counted without writing the hostfile: each worker's line is the line of
/// the hostname `<job>-worker-` plus its index's digits.
pub(super) fn config_data_bytes(job: &Job) -> u64 {
    let s = spec(job);
    let workers = job.count("Worker");
    let worker_line = host_line(job, &s, &format!("{}-worker-", job.name)).len() as u64;
    let launcher_line =
        if s.launcher_as_worker { host_line(job, &s, &format!("{}-launcher", job.name)).len() as u64 } else { 0 };
    let hostfile = launcher_line + u64::from(workers) * worker_line + super::digits_of_indices(workers);
    hostfile + discover_hosts_at_creation(job, &s).len() as u64
}

fn objects(job: &Job, s: &Spec, workers: u32) -> Vec<Object> {
    let name = &job.name;
    let cm = [
        ("hostfile".to_string(), hostfile(job, s, workers)),
        ("discover_hosts.sh".to_string(), discover_hosts_at_creation(job, s)),
    ];
    let secret = [
        ("ssh-privatekey", "an ECDSA P-521 key generated at creation (PEM)"),
        ("ssh-publickey", "its public key (authorized_keys format)"),
    ];
    let launcher_when = if job.spec_str("launcherCreationPolicy") == Some("WaitForWorkersReady") {
        "once every worker pod is ready (launcherCreationPolicy: WaitForWorkersReady)"
    } else {
        "first reconcile (launcherCreationPolicy: AtStartup)"
    };
    vec![
        // :635, :1338-1364: one headless Service for the launcher and every worker.
        object("Service", name, BY, "first reconcile; headless, gives every pod its hostname", None),
        // :640, :833-869.
        object(
            "ConfigMap",
            &format!("{name}-config"),
            BY,
            "first reconcile, before the pods",
            Some(cm.into_iter().collect()),
        )
        // :798-815,833-866: rebuilt on every reconcile and updated when it differs.
        .changes(
            "every reconcile rewrites discover_hosts.sh from the worker pods then Running, sorted by name as \
                 text (worker-10 before worker-2): one line `echo <pod>.<job>.<namespace>.svc` each; the hostfile \
                 stays as created",
        ),
        // :644, :897-926, :1366-1403.
        object("Secret", &format!("{name}-ssh"), BY, "first reconcile", None).described(&secret),
        // :662-663, :1467-1490: the launcher runs as a batch Job.
        object("Job", &format!("{name}-launcher"), BY, launcher_when, None),
        // :650-655, pkg/controller/podgroup.go:103-113: with gang scheduling on.
        Object {
            spec: Some(super::pod_group_spec(workers + 1)),
            ..object(
                "PodGroup",
                name,
                BY,
                "only when the operator runs with --gang-scheduling (volcano or scheduler-plugins)",
                None,
            )
        },
    ]
}

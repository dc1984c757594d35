//! The Training Operator's `kubeflow.org/v1` MPIJob: the launcher reaches the workers with
//! `kubectl exec` (no SSH, no Services). Paths under
//! training-operator v1.9.0:pkg/controller.v1/mpi/.

use super::{
    append_env, env, object, Error, FieldPath, Job, Modelled, Role, MPI_CONFIG_MOUNT as CONFIG_MOUNT,
    MPI_CONFIG_VOLUME as CONFIG_VOLUME,
};
use crate::explain::Object;
use crate::model::pod::{Container, Resources};
use crate::model::Value;

/// mpijob.go:28-47.
const KUBECTL_VOLUME: &str = "mpi-job-kubectl";
const KUBECTL_MOUNT: &str = "/opt/kube";
/// pkg/config/config.go:35 (`--mpi-kubectl-delivery-image`, cmd/training-operator.v1/main.go:108-109).
pub(super) const KUBECTL_DELIVERY_IMAGE: &str = "kubeflow/kubectl-delivery:latest";
const BY: &str = "Training Operator (MPIJob controller)";

/// mpijob.go:193-205: a launcher container limiting a resource whose name contains "gpu".
fn is_gpu_launcher(job: &Job) -> bool {
    job.replica("Launcher").is_some_and(|l| {
        l.template
            .spec
            .containers
            .iter()
            .any(|c| c.resources.as_ref().is_some_and(|r| r.limits.keys().any(|k| k.contains("gpu"))))
    })
}

fn slots(job: &Job) -> i64 {
    job.spec.get("slotsPerWorker").and_then(serde_json::Value::as_i64).unwrap_or(1)
}

fn mount(name: &str, path: &str) -> Value {
    crate::tree!({"name": name, "mountPath": path})
}

pub(super) fn operate(job: &Job) -> Result<(Vec<Role>, Vec<Object>), Error> {
    let launcher_spec = job.replica("Launcher").ok_or_else(|| Error::Missing {
        path: FieldPath::new("spec").child("mpiReplicaSpecs").child("Launcher"),
        or_not_a_mapping: false,
    })?;
    let name = &job.name;
    let mut roles = Vec::new();
    // mpijob_controller.go:1005-1198 `newLauncher`.
    let mut launcher = launcher_spec.template.clone();
    let meta = launcher.metadata.get_or_insert_with(Default::default);
    for (k, v) in launcher_labels(job) {
        meta.labels.insert(k, v);
    }
    // :1037-1039 the launcher's own ServiceAccount unless the template names one.
    if launcher.spec.service_account_name.as_deref().unwrap_or("").is_empty() {
        launcher.spec.service_account_name = Some(format!("{name}-launcher"));
    }
    launcher.spec.init_containers.push(kubectl_delivery(job));
    let gpu = is_gpu_launcher(job);
    let c = &mut launcher.spec.containers[0];
    // :1085-1094.
    append_env(
        c,
        [
            env("OMPI_MCA_plm_rsh_agent", format!("{CONFIG_MOUNT}/kubexec.sh")),
            env("OMPI_MCA_orte_default_hostfile", format!("{CONFIG_MOUNT}/hostfile")),
        ],
    );
    // :1096-1109 a launcher without GPUs must not see the node's.
    if !gpu {
        append_env(c, [env("NVIDIA_VISIBLE_DEVICES", ""), env("NVIDIA_DRIVER_CAPABILITIES", "")]);
    }
    // :1111-1128 Intel MPI's bootstrap, unless the user set it.
    if !c.env.iter().any(|e| e.name == "I_MPI_HYDRA_BOOTSTRAP") {
        append_env(c, [env("I_MPI_HYDRA_BOOTSTRAP", "rsh")]);
    }
    if !c.env.iter().any(|e| e.name == "I_MPI_HYDRA_BOOTSTRAP_EXEC") {
        append_env(c, [env("I_MPI_HYDRA_BOOTSTRAP_EXEC", format!("{CONFIG_MOUNT}/kubexec.sh"))]);
    }
    c.volume_mounts.push(mount(KUBECTL_VOLUME, KUBECTL_MOUNT));
    c.volume_mounts.push(mount(CONFIG_VOLUME, CONFIG_MOUNT));
    launcher.spec.restart_policy = Some(restart_policy(launcher_spec.restart_policy.as_deref()));
    launcher.spec.volumes.push(crate::tree!({"name": KUBECTL_VOLUME, "emptyDir": {}}));
    launcher.spec.volumes.push(super::mpi_config_volume(name));
    roles.push(Role {
        replica_type: "Launcher".into(),
        count: 1,
        hostnames: vec![format!("{name}-launcher")],
        pods: Modelled::Built(vec![launcher]),
        template: launcher_spec.template.clone(),
    });

    // :828-1000 `getOrCreateWorker` and `newWorker`.
    let workers = job.count("Worker");
    let worker_role = Role::mpi_workers(
        job,
        |i| format!("{name}-worker-{i}"),
        |i, spec, pod| {
            let meta = pod.metadata.get_or_insert_with(Default::default);
            meta.labels.insert("training.kubeflow.org/operator-name".into(), "mpijob-controller".into());
            meta.labels.insert("training.kubeflow.org/job-name".into(), name.replace('/', "-"));
            meta.labels.insert("training.kubeflow.org/replica-type".into(), "worker".into());
            meta.labels.insert("training.kubeflow.org/replica-index".into(), i.to_string());
            pod.spec.restart_policy = Some(restart_policy(spec.restart_policy.as_deref()));
            let c = &mut pod.spec.containers[0];
            // :942-945 a worker with no command sleeps; the launcher execs into it.
            if c.command.is_empty() {
                c.command = vec!["sleep".into()];
                c.args = vec!["365d".into()];
            }
            // :947-953 Open MPI looks for kubexec.sh on every rank.
            c.volume_mounts.push(mount(CONFIG_VOLUME, CONFIG_MOUNT));
            pod.spec.volumes.push(super::mpi_config_volume(name));
        },
    );
    roles.push(worker_role);
    Ok((roles, objects(job, workers, gpu)))
}

/// mpijob.go:227-245 and mpijob_controller.go:1008-1014: the launcher is the master role.
fn launcher_labels(job: &Job) -> Vec<(String, String)> {
    vec![
        ("training.kubeflow.org/operator-name".into(), "mpijob-controller".into()),
        ("training.kubeflow.org/job-name".into(), job.name.replace('/', "-")),
        ("training.kubeflow.org/replica-type".into(), "launcher".into()),
        ("training.kubeflow.org/job-role".into(), "master".into()),
    ]
}

/// mpijob_controller.go:1394-1400.
fn restart_policy(p: Option<&str>) -> String {
    match p {
        Some("ExitCode") | None => "Never".into(),
        Some(p) => p.into(),
    }
}

/// :1041-1077 the init container that copies kubectl into the launcher.
fn kubectl_delivery(job: &Job) -> Container {
    let mut c = Container::new("kubectl-delivery", KUBECTL_DELIVERY_IMAGE);
    c.image_pull_policy = Some("IfNotPresent".into());
    c.env = vec![env("TARGET_DIR", KUBECTL_MOUNT), env("NAMESPACE", &job.namespace)];
    c.volume_mounts = vec![mount(KUBECTL_VOLUME, KUBECTL_MOUNT), mount(CONFIG_VOLUME, CONFIG_MOUNT)];
    let mut r = Resources::default();
    for list in [&mut r.limits, &mut r.requests] {
        list.insert("cpu".into(), "100m".into());
        list.insert("memory".into(), "512Mi".into());
        list.insert("ephemeral-storage".into(), "5Gi".into());
    }
    c.resources = Some(r);
    c
}

/// :1227-1267: the hostfile line of one pod, `<host> slots=<slots>`. No upstream test pins this
/// text: training-operator v1.9.0's MPI tests build their ConfigMap with the controller's own
/// `newConfigMap` (pkg/controller.v1/mpi/mpijob_controller_test.go:651), and so did mpi-operator's
/// v1 controller tests it came from (v0.3.0:pkg/controllers/v1/mpi_job_controller_test.go:629);
/// mpi-operator v2beta1's lines are pinned (mpi_v2beta1.rs).
fn host_line(host: &str, slots: i64) -> String {
    format!("{host} slots={slots}\n")
}

/// :1227-1267: one line per worker pod (and the launcher first when it has GPUs).
fn hostfile(job: &Job, workers: u32, gpu: bool) -> String {
    let (name, slots) = (&job.name, slots(job));
    let mut hostfile = String::new();
    if gpu {
        hostfile.push_str(&host_line(&format!("{name}-launcher"), slots));
    }
    for i in 0..workers {
        hostfile.push_str(&host_line(&format!("{name}-worker-{i}"), slots));
    }
    hostfile
}

/// :1270-1296 `kubexec.sh`: the launcher's `rsh` agent, `kubectl exec` into the named pod.
fn kubexec(job: &Job) -> String {
    let main = job.spec.get("mainContainer").and_then(serde_json::Value::as_str).filter(|m| !m.is_empty());
    let container = main.map_or(String::new(), |m| format!(" --container {m}"));
    format!("#!/bin/sh\nset -x\nPOD_NAME=$1\nshift\n{KUBECTL_MOUNT}/kubectl exec ${{POD_NAME}}{container} -- /bin/sh -c \"$*\"")
}

/// :683-689,1270-1296: at creation no worker runs yet (the ConfigMap comes before the
/// workers, :376 then :390), so the script holds the shebang, and the launcher when it has GPUs. Its
/// launcher line ends in a newline and each worker line starts with one: kept as written.
fn discover_hosts_at_creation(job: &Job, gpu: bool) -> String {
    let mut discover_hosts = "#!/bin/sh".to_string();
    if gpu {
        discover_hosts.push_str(&format!("\necho {}-launcher:{}\n", job.name, slots(job)));
    }
    discover_hosts
}

/// The bytes of data in the ConfigMap `<job>-config` as the controller first creates it
/// (hostfile, kubexec.sh, discover_hosts.sh), counted without writing the hostfile: each worker's
/// line is the line of `<job>-worker-` plus its index's digits.
pub(super) fn config_data_bytes(job: &Job) -> u64 {
    let gpu = is_gpu_launcher(job);
    let workers = job.count("Worker");
    let worker_line = host_line(&format!("{}-worker-", job.name), slots(job)).len() as u64;
    let launcher_line = if gpu { host_line(&format!("{}-launcher", job.name), slots(job)).len() as u64 } else { 0 };
    let hostfile = launcher_line + u64::from(workers) * worker_line + super::digits_of_indices(workers);
    hostfile + kubexec(job).len() as u64 + discover_hosts_at_creation(job, gpu).len() as u64
}

fn objects(job: &Job, workers: u32, gpu: bool) -> Vec<Object> {
    let name = &job.name;
    let data = [
        ("hostfile".to_string(), hostfile(job, workers, gpu)),
        ("kubexec.sh".to_string(), kubexec(job)),
        ("discover_hosts.sh".to_string(), discover_hosts_at_creation(job, gpu)),
    ];
    let sa = job
        .replica("Launcher")
        .and_then(|l| l.template.spec.service_account_name.clone())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("{name}-launcher"));
    vec![
        // :370-373,727-753: reused when it exists.
        object("ServiceAccount", &sa, BY, "first reconcile, unless one of that name exists", None),
        object(
            "ConfigMap",
            &format!("{name}-config"),
            BY,
            "first reconcile, before the pods",
            Some(data.into_iter().collect()),
        )
        // :683-689,714-719,1201-1222,1276-1287: compared with a rebuilt one on every reconcile.
        .changes(
            "every reconcile rewrites discover_hosts.sh from the worker pods then Running, sorted by name as \
                 text (worker-10 before worker-2): one line `echo <pod>:<slots>` each, after a newline; hostfile \
                 and kubexec.sh stay as created",
        ),
        // :1325-1358: get/list/watch pods, create pods/exec on the workers.
        object(
            "Role",
            &format!("{name}-launcher"),
            BY,
            "first reconcile; lets the launcher exec into the workers",
            None,
        ),
        object("RoleBinding", &format!("{name}-launcher"), BY, "first reconcile", None),
        super::pod_group_object(name, BY, workers + 1),
    ]
}

//! The one-line summary of each replicatedJob's pods that the widget's "What Kubernetes runs"
//! pane shows (`node × 2 pods; 2 GPUs each (nvidia.com/gpu); rank 0, …, is the coordinator`),
//! and the line under it (counts, hostnames, mounts). Written once, here, as words and code
//! spans: crates/html renders the spans as `<code>`, `explain -o text` as plain text.

use super::{ContainerView, Explanation, PodGroup, ReplicatedJobView};

/// A piece of a summary line: words, or a name or value shown as code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Words, as they are.
    Text(String),
    /// A name or value, shown as code.
    Code(String),
}

fn text(s: impl Into<String>) -> Part {
    Part::Text(s.into())
}

fn code(s: impl Into<String>) -> Part {
    Part::Code(s.into())
}

/// The parts as plain text, for a terminal.
pub fn plain(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| match p {
            Part::Text(s) | Part::Code(s) => s.as_str(),
        })
        .collect()
}

/// The MPI hostfile the controller writes, when the runtime is MPI's.
pub fn hostfile(e: &Explanation) -> Option<&String> {
    e.objects.iter().find_map(|o| o.data.as_ref()?.get("hostfile"))
}

/// The GPUs a container asks for: its first resource named like a GPU, limits before requests.
pub fn gpus(c: &ContainerView) -> Option<(String, String)> {
    let res = c.resources.as_ref()?;
    [&res.limits, &res.requests].into_iter().find_map(|list| {
        let (k, v) = list.iter().find(|(k, _)| k.to_ascii_lowercase().contains("gpu"))?;
        Some((k.clone(), super::quantity::ceil_value(v)?.to_string()))
    })
}

/// The replicatedJob of the JobSet a pod group belongs to.
pub fn replicated_job<'e>(e: &'e Explanation, group: &PodGroup) -> Option<&'e ReplicatedJobView> {
    e.jobset.as_ref()?.replicated_jobs.iter().find(|j| j.name == group.replicated_job)
}

/// `node × 2 pods, starts when … is Ready; 2 GPUs each (nvidia.com/gpu); rank 0, …, is the
/// coordinator`.
pub fn pod_group(e: &Explanation, group: &PodGroup) -> Vec<Part> {
    let mut out = vec![code(group.replicated_job.clone()), text(pods(group.count))];
    if let Some(job) = replicated_job(e, group) {
        for dep in &job.depends_on {
            out.extend([text(", starts when "), code(dep.name.clone()), text(format!(" is {}", dep.status))]);
        }
    }
    out.extend(gpus_each(&group.containers));
    let first = group.hostnames.first().cloned().unwrap_or_default();
    match (hostfile(e), group.replicated_job.as_str()) {
        (Some(hosts), "launcher") => {
            out.extend([text("; "), code(first.clone()), text(" runs "), code("mpirun"), text(" over the hostfile")]);
            // runLauncherAsNode (mpi.go:117-126): the launcher trains too, as one of numNodes.
            if hosts.lines().any(|l| l.split(' ').next() == Some(first.as_str())) {
                out.push(text(" and trains too: it is one of the nodes in it"));
            }
        }
        (None, "node") => out.extend([text("; rank 0, "), code(first), text(", is the coordinator")]),
        _ => {}
    }
    out
}

/// ` × 2 pods`.
fn pods(count: u32) -> String {
    format!(" × {}", crate::text::counted(count.into(), "pod", "pods"))
}

/// `; 2 GPUs each (nvidia.com/gpu)`, when the pods' containers ask for GPUs.
fn gpus_each(containers: &[ContainerView]) -> Vec<Part> {
    match containers.iter().filter(|c| !c.init).find_map(gpus) {
        Some((resource, n)) => {
            let s = if n == "1" { "" } else { "s" };
            vec![text(format!("; {n} GPU{s} each (")), code(resource), text(")")]
        }
        None => Vec::new(),
    }
}

/// A V1 operator's pods of one replica type: `Worker × 2 pods; 1 GPU each (nvidia.com/gpu)`,
/// worded as a V2 pod group is.
pub fn v1_pod_group(group: &super::v1::V1PodGroup) -> Vec<Part> {
    let mut out = vec![code(group.replica_type.clone()), text(pods(group.count))];
    out.extend(gpus_each(&group.containers));
    out
}

/// `replicas 1, parallelism and completions 2; hostnames …; mounts … at …`: the Job's counts
/// (jobset.go:316-317), each pod's hostname and the volumes its containers mount.
pub fn pod_group_details(job: &ReplicatedJobView, group: &PodGroup) -> Vec<Part> {
    let mut out =
        vec![text(format!("replicas {}, parallelism and completions {}; hostnames ", job.replicas, job.parallelism))];
    for (i, h) in group.hostnames.iter().enumerate() {
        if i > 0 {
            out.push(text(", "));
        }
        out.push(code(h.clone()));
    }
    // One volume may be mounted at several paths (the initializers' shared volume at both
    // /workspace/dataset and /workspace/model): each path is shown.
    let mut mounts: Vec<(&str, &str)> = Vec::new();
    for m in group.containers.iter().filter(|c| !c.init).flat_map(|c| c.volume_mounts.iter()) {
        let mount = (m.name.as_str(), m.mount_path.as_str());
        if !mounts.contains(&mount) {
            mounts.push(mount);
        }
    }
    for (i, (volume, path)) in mounts.iter().enumerate() {
        out.extend([text(if i == 0 { "; mounts " } else { ", " }), code(*volume), text(" at "), code(*path)]);
    }
    out
}

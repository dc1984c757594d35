//! Property: for every selection the widget offers and a spread of its parameters, what the
//! controller would run agrees with the TrainJob's own numbers: pods per node count, the rank
//! variables, the MPI slots and hostfile, each by the rules of the selection's release. And the
//! widget never writes a TrainJob its release would refuse.
#![cfg(not(target_arch = "wasm32"))]

use explorer_judges as common;

use explorer_core::explain::quantity::ceil_value;
use explorer_core::explain::{explain, EnvValue, Explanation, Input, PodGroup};
use explorer_core::model::pod::Resources;
use explorer_core::model::v2::{TrainJob, TrainingRuntime};
use explorer_core::selection::Selection;
use explorer_core::snippets::runtimes::runtime_for;
use explorer_core::snippets::trainjob::trainjob_for;
use explorer_data::catalog::Framework;
use explorer_data::releases::{TorchProcs, RELEASES};

/// Every release × persona × framework × scope, with a spread of nodes, GPUs, processes and
/// queue.
fn selections() -> Vec<Selection> {
    let mut out = Vec::new();
    for base in common::every_selection(RELEASES) {
        for nodes in [None, Some(1), Some(2), Some(5)] {
            for gpus in [None, Some(0), Some(1), Some(2), Some(8)] {
                for (procs, queue) in [None, Some(1), Some(3)].into_iter().zip([None, Some("team-q"), None]) {
                    let mut sel = base.clone();
                    sel.params.queue = queue.map(String::from);
                    sel.params.nodes = nodes;
                    sel.params.gpus = gpus;
                    sel.params.procs = procs;
                    out.push(sel);
                }
            }
        }
    }
    out
}

/// GPUs per node: the TrainJob's `nvidia.com/gpu` limit (as the widget writes it), else the
/// runtime's `node` container's, which is what the controller falls back to (torch.go:127-130).
fn gpus_of(job: &TrainJob, runtime: &TrainingRuntime) -> u64 {
    let from_runtime = || {
        runtime.spec.template.spec.replicated_jobs.iter().find_map(|rj| {
            rj.template.spec.template.spec.containers.iter().find(|c| c.name == "node")?.resources.as_ref()
        })
    };
    let res: Option<&Resources> =
        job.spec.trainer.as_ref().and_then(|t| t.resources_per_node.as_ref()).or_else(from_runtime);
    res.and_then(|r| r.limits.get("nvidia.com/gpu")).map(|v| ceil_value(v).unwrap()).unwrap_or(0)
}

fn group<'e>(e: &'e Explanation, rjob: &str) -> &'e PodGroup {
    e.pods.iter().find(|p| p.replicated_job == rjob).unwrap_or_else(|| panic!("no {rjob} pods"))
}

fn env(e: &Explanation, rjob: &str, name: &str) -> Option<String> {
    group(e, rjob).containers.iter().find(|c| c.name == "node")?.env.get(name).map(EnvValue::text)
}

#[test]
fn env_and_counts_agree_with_the_trainjob_for_every_selection() {
    let mut checked = 0;
    for sel in selections() {
        let (Some(job), Some(runtime)) = (trainjob_for(&sel), runtime_for(&sel)) else { continue };
        let e = explain(Input::new(&job, &runtime), sel.release);
        let at = format!("{sel:?}");
        let release = sel.release;
        assert_eq!(e.rejected, vec![], "the widget wrote a TrainJob the webhook refuses: {at}");
        assert_eq!(e.trainer, release.tag, "{at}");
        let trainer = job.spec.trainer.as_ref().unwrap();
        // The runtime's numNodes (1) when the TrainJob leaves it out, as torchtune does.
        let nodes = trainer.num_nodes.unwrap_or(1);
        let gpus = gpus_of(&job, &runtime);
        let name = job.metadata.name.clone().unwrap();

        // Every pod has one hostname, all distinct, on the TrainJob's subdomain.
        let mut all: Vec<&String> = e.pods.iter().flat_map(|p| &p.hostnames).collect();
        assert_eq!(all.len() as u32, e.pods.iter().map(|p| p.count).sum::<u32>(), "{at}");
        all.sort();
        all.dedup();
        assert_eq!(all.len() as u32, e.pods.iter().map(|p| p.count).sum::<u32>(), "{at}");
        assert!(all.iter().all(|h| h.ends_with(&format!(".{name}"))), "{at}");

        match sel.framework.ml_policy() {
            Some("torch") => {
                assert_eq!(group(&e, "node").count, nodes, "{at}");
                assert_eq!(env(&e, "node", "PET_NNODES").as_deref(), Some(nodes.to_string().as_str()), "{at}");
                let written = trainer.resources_per_node.as_ref().is_some_and(|r| !r.is_empty());
                let procs = match (release.controller.torch_procs, trainer.num_proc_per_node, gpus) {
                    // v2.0 (torch.go:126-157 @v2.0.1) changes numProcPerNode only when the
                    // TrainJob sets resources, and then reads `limits`, else `requests`: the
                    // widget writes a GPU limit and no requests, and an empty list gives 1, even
                    // over an explicit number.
                    (TorchProcs::TrainJobResources, _, _) if written => "1".into(),
                    (_, Some(n), _) => n.to_string(),
                    (TorchProcs::TrainJobResources, None, _) => "auto".into(),
                    (TorchProcs::NodeResources, None, 0) => "1".into(), // no CPU request: max(1, 0)
                    (TorchProcs::NodeResources, None, _) => "auto".into(),
                };
                assert_eq!(env(&e, "node", "PET_NPROC_PER_NODE").as_deref(), Some(procs.as_str()), "{at}");
                if sel.framework == Framework::PyTorch {
                    let rank0 = &group(&e, "node").hostnames[0];
                    assert_eq!(env(&e, "node", "PET_MASTER_ADDR").as_deref(), Some(rank0.as_str()), "{at}");
                }
            }
            Some("jax") => {
                assert_eq!(group(&e, "node").count, nodes, "{at}");
                assert_eq!(env(&e, "node", "JAX_NUM_PROCESSES").as_deref(), Some(nodes.to_string().as_str()), "{at}");
                let rank0 = format!("{}:29500", group(&e, "node").hostnames[0]);
                assert_eq!(env(&e, "node", "JAX_COORDINATOR_ADDRESS").as_deref(), Some(rank0.as_str()), "{at}");
            }
            Some("xgboost") => {
                assert_eq!(group(&e, "node").count, nodes, "{at}");
                let workers = u64::from(nodes) * gpus.max(1);
                assert_eq!(env(&e, "node", "DMLC_NUM_WORKER").as_deref(), Some(workers.to_string().as_str()), "{at}");
            }
            Some("mpi") => {
                // runLauncherAsNode: the launcher is one of numNodes, never fewer than one `node`.
                let node_pods = nodes.saturating_sub(1).max(1);
                assert_eq!(group(&e, "node").count, node_pods, "{at}");
                assert_eq!(group(&e, "launcher").count, 1, "{at}");
                let slots = match (trainer.num_proc_per_node, gpus) {
                    (Some(n), _) => u64::from(n),
                    (None, g) if g > 1 && release.controller.mpi_slots_follow_gpus => g,
                    _ => 1,
                };
                assert_eq!(
                    env(&e, "launcher", "OMPI_MCA_orte_set_default_slots").as_deref(),
                    Some(slots.to_string().as_str()),
                    "{at}"
                );
                let hostfile = e.objects.iter().find(|o| o.name == format!("{name}-mpi-hostfile")).unwrap();
                let text = hostfile.data.as_ref().unwrap().get("hostfile").unwrap();
                let lines: Vec<&str> = text.lines().collect();
                assert_eq!(lines.len() as u32, node_pods + 1, "{at}");
                assert!(lines.iter().all(|l| l.ends_with(&format!(" slots={slots}"))), "{at}");
                // In the runtime's replicatedJob order (mpi.go:320): from v2.3 the `node` pods, then
                // the launcher; before, the launcher first.
                let hosts: Vec<&str> = lines.iter().map(|l| l.split(' ').next().unwrap()).collect();
                let (first, second) =
                    if release.mpi_launcher_waits_for_nodes { ("node", "launcher") } else { ("launcher", "node") };
                let want: Vec<&str> =
                    group(&e, first).hostnames.iter().chain(&group(&e, second).hostnames).map(String::as_str).collect();
                assert_eq!(hosts, want, "{at}");
            }
            // TensorFlow and PaddlePaddle: the plain-ML runtime `migrate` writes; every Worker is a
            // node pod, and each reads its task from the contract (TF_CONFIG, PADDLE_MASTER).
            None => {
                assert_eq!(group(&e, "node").count, nodes, "{at}");
                let contract = if sel.framework == Framework::TensorFlow { "TF_CONFIG" } else { "PADDLE_MASTER" };
                if nodes > 1 || sel.framework == Framework::Paddle {
                    let value = env(&e, "node", contract).unwrap_or_else(|| panic!("no {contract}: {at}"));
                    assert!(value.contains(&format!("{name}-node-0-0.{name}:")), "{value} {at}");
                }
            }
            other => panic!("unexpected policy {other:?}: {at}"),
        }
        // A queued TrainJob is created suspended; the JobSet copies it (jobset.go:425), so no pod
        // starts before Kueue admits the job.
        assert_eq!(e.jobset.as_ref().unwrap().suspend, job.spec.suspend, "{at}");
        // The TrainJob `migrate` writes keeps suspend as the V1 job had it (Kueue's webhook
        // suspends a queued one when it is created).
        if sel.params.queue.is_some() && sel.framework.ml_policy().is_some() {
            assert_eq!(job.spec.suspend, Some(true), "{at}");
        }
        let snapshot = format!("{name}-runtime-snapshot");
        let has_snapshot = e.objects.iter().any(|o| o.kind == "ConfigMap" && o.name == snapshot);
        assert_eq!(has_snapshot, release.controller.runtime_snapshot, "{at}");
        checked += 1;
    }
    assert!(checked > 4000, "only {checked} selections checked");
}

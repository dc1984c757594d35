//! The V2 side of TensorFlow and PaddlePaddle: Trainer has no runtime for either, so the pane
//! shows what `migrate` writes for the V1 pane's own job, a TrainJob on a plain-ML TrainingRuntime
//! generated for it, built from the same facts (`crate::plain_ml`). crates/core/tests/it/generated_panes.rs runs
//! the real conversion on every such V1 pane and requires the same objects, line for line.

use super::runtimes;
use super::trainjob;
use super::v1_jobs::v1_job_for;
use crate::model::pod::{Container, ContainerPort};
use crate::model::v1::V1Job;
use crate::model::v2::{RuntimeRef, TrainJob, TrainJobSpec, Trainer, TrainingRuntime, API_VERSION};
use crate::plain_ml::{self, RoleJob};
use crate::selection::Selection;
use explorer_data::catalog::{Framework, Persona, V1Kind};

/// The generated runtime and the TrainJob that uses it, for a TensorFlow or PaddlePaddle
/// selection; `None` for any other framework.
pub fn objects_for(sel: &Selection) -> Option<(TrainingRuntime, TrainJob)> {
    if !matches!(sel.framework, Framework::TensorFlow | Framework::Paddle) {
        return None;
    }
    let job = v1_job_for(sel);
    let kind = sel.framework.v1_kind();
    let mut base = Selection::new(Persona::PlatformEngineer, Framework::PyTorch);
    base.release = sel.release;
    objects_from(&job, kind, runtimes::runtime_for(&base)?)
}

/// The roles of `job` in V1's order, the trainer's (the Workers, else the first that runs pods)
/// named `node`, and each role's main container.
fn roles_of(job: &V1Job, kind: V1Kind) -> Option<Vec<(RoleJob, Container)>> {
    let specs = job.spec.replica_specs(kind)?;
    let (port_v1, port_name) = kind.default_port();
    let mut roles: Vec<(RoleJob, Container)> = Vec::new();
    for rtype in kind.replica_types() {
        let Some(rep) = specs.get(*rtype) else { continue };
        let containers = &rep.template.spec.containers;
        let main = containers.iter().find(|c| c.name == kind.container_name()).or(containers.first())?;
        let port = main
            .ports
            .iter()
            .find(|p| p.name.as_deref() == Some(port_name))
            .map_or(i64::from(port_v1), |p| p.container_port);
        let role = RoleJob {
            rtype: (*rtype).into(),
            count: rep.replicas.unwrap_or(1),
            rjob: rtype.to_ascii_lowercase(),
            port,
        };
        roles.push((role, main.clone()));
    }
    let trainer = roles
        .iter()
        .position(|(r, _)| r.rtype == "Worker" && r.count > 0)
        .or_else(|| roles.iter().position(|(r, _)| r.count > 0))?;
    roles[trainer].0.rjob = "node".into();
    Some(roles)
}

fn objects_from(job: &V1Job, kind: V1Kind, base: TrainingRuntime) -> Option<(TrainingRuntime, TrainJob)> {
    let roles = roles_of(job, kind)?;
    let only_roles: Vec<RoleJob> = roles.iter().map(|(r, _)| r.clone()).collect();
    let name = job.metadata.name.clone().unwrap_or_default();
    let nodes = roles.iter().find(|(r, _)| r.rjob == "node").map_or(0, |(r, _)| r.count);
    let mut rt = base;
    rt.kind = plain_ml::RUNTIME_SCOPE.kind().into();
    rt.metadata.name = Some(plain_ml::runtime_name(&name));
    rt.metadata.namespace = job.metadata.namespace.clone();
    rt.metadata.labels.remove(runtimes::WEBHOOK_LABEL);
    plain_ml::make_plain(&mut rt, nodes);
    let base_job = rt.spec.template.spec.replicated_jobs.pop()?;
    let leader = (kind == V1Kind::PaddleJob).then(|| plain_ml::paddle_leader(&only_roles)).flatten();
    let (_, port_name) = kind.default_port();
    // The panes' jobs have one role, the Workers; `migrate` handles the others (PS, Chief,
    // Evaluator, Master), which become replicated jobs of their own.
    let [(r, c)] = roles.as_slice() else { return None };
    let command = match leader {
        Some(l) if l.rtype == r.rtype => plain_ml::paddle_leader_command(&c.command, r.port),
        _ => c.command.clone(),
    };
    let trainer = Trainer {
        image: c.image.clone(),
        command,
        args: c.args.clone(),
        env: c.env.clone(),
        num_nodes: Some(nodes),
        resources_per_node: c.resources.clone().filter(|res| !res.is_empty()),
        ..Default::default()
    };
    let mut node = Container::new("node", c.image.as_deref().unwrap_or_default());
    node.ports = c.ports.clone();
    if !node.ports.iter().any(|p| p.name.as_deref() == Some(port_name)) {
        node.ports.push(ContainerPort { container_port: r.port, name: Some(port_name.into()), protocol: None });
    }
    node.env.extend(plain_ml::contract_env(kind, &name, &only_roles, r));
    let mut rjob = base_job;
    rjob.name = r.rjob.clone();
    rjob.template.spec.template.spec.containers = vec![node];
    rt.spec.template.spec.replicated_jobs.push(rjob);
    let runtime_ref =
        RuntimeRef { name: rt.metadata.name.clone().unwrap_or_default(), api_group: None, kind: Some(rt.kind.clone()) };
    let queue = job.metadata.labels.get(trainjob::QUEUE_LABEL).map(String::as_str);
    let spec = TrainJobSpec {
        runtime_ref,
        suspend: trainjob::suspended_when_queued(queue),
        trainer: Some(trainer),
        ..Default::default()
    };
    let trainjob =
        TrainJob { api_version: API_VERSION.into(), kind: "TrainJob".into(), metadata: job.metadata.clone(), spec };
    Some((rt, trainjob))
}

//! The gang-scheduling plugins: the runtime's `podGroupPolicy` gives every pod a label
//! (coscheduling) or an annotation (Volcano) that joins it to a PodGroup named after the
//! TrainJob, and the controller creates that PodGroup with the pods' count and requests.
//! Paths under pkg/runtime/framework/plugins/, lines at v2.3.0.

use super::build::{job_name, PodSet};
use super::quantity::Exact;
use super::{Input, Object, Rejection};
use crate::model::pod::Container;
use crate::model::Value;
use std::collections::BTreeMap;

/// coscheduling.go:89 (scheduler-plugins' `PodGroupLabel`).
const COSCHEDULING_LABEL: &str = "scheduling.x-k8s.io/pod-group";
/// volcano.go:137 (`KubeGroupNameAnnotationKey`).
const VOLCANO_GROUP: &str = "scheduling.k8s.io/group-name";
/// volcano.go:97,182 (`QueueNameAnnotationKey`), read from the JobSet's annotations.
const VOLCANO_QUEUE: &str = "scheduling.volcano.sh/queue-name";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Scheduler {
    Coscheduling,
    Volcano,
}

fn policy(input: Input<'_>) -> Option<(Scheduler, Option<&crate::model::Map>)> {
    let Some(Value::Object(p)) = input.runtime.spec.pod_group_policy.as_ref() else { return None };
    fn source(v: Option<&Value>) -> Option<&crate::model::Map> {
        match v {
            Some(Value::Object(m)) => Some(m),
            _ => None,
        }
    }
    if p.contains_key("coscheduling") {
        return Some((Scheduler::Coscheduling, source(p.get("coscheduling"))));
    }
    p.contains_key("volcano").then(|| (Scheduler::Volcano, source(p.get("volcano"))))
}

/// `EnforcePodGroupPolicy`: coscheduling.go:85-90, volcano.go:132-138.
pub(super) fn enforce(input: Input, sets: &mut [PodSet]) {
    let name = job_name(input);
    for ps in sets.iter_mut() {
        match policy(input) {
            Some((Scheduler::Coscheduling, _)) => {
                ps.pod_labels.insert(COSCHEDULING_LABEL.into(), name.clone());
            }
            Some((Scheduler::Volcano, _)) => {
                ps.pod_annotations.insert(VOLCANO_GROUP.into(), name.clone());
            }
            None => {}
        }
    }
}

/// `resourcehelpers.PodRequests` (runtime.go:149): per resource, the containers' requests summed,
/// or the largest init container's when that is more.
fn pod_requests(containers: &[Container], init: &[Container]) -> BTreeMap<String, Exact> {
    let requests = |c: &Container| -> Vec<(String, Exact)> {
        let Some(r) = &c.resources else { return vec![] };
        r.requests.iter().filter_map(|(k, v)| Some((k.clone(), Exact::parse(v)?))).collect()
    };
    let mut sum: BTreeMap<String, Exact> = BTreeMap::new();
    for (k, q) in containers.iter().flat_map(requests) {
        let total = sum.entry(k).or_default();
        *total = total.plus(q);
    }
    for (k, q) in init.iter().flat_map(requests) {
        let slot = sum.entry(k).or_default();
        if q.nanos > slot.nanos {
            *slot = q;
        }
    }
    sum
}

/// The PodGroup: every pod set's count and requests times its count (coscheduling.go:108-141,
/// volcano.go:153-215), with the queue, priority class and timeout the runtime sets.
pub(super) fn objects(input: Input, sets: &[PodSet]) -> Vec<Object> {
    let Some((scheduler, source)) = policy(input) else { return vec![] };
    let jobset_annotations = super::build::propagated_metadata(input).1;
    let members: u32 = sets.iter().map(|s| s.count).sum();
    let mut total: BTreeMap<String, Exact> = BTreeMap::new();
    for ps in sets {
        for (k, q) in pod_requests(&ps.containers, &ps.init_containers) {
            let slot = total.entry(k).or_default();
            *slot = slot.plus(q.times(ps.count));
        }
    }
    // The PodGroup's spec in both schedulers' shape: scheduler-plugins v0.35.4-devel (the
    // module Trainer v2.3.0 builds with) apis/scheduling/v1alpha1/types.go:145-159 and
    // volcano.sh/apis v1.13.3 pkg/apis/scheduling/v1beta1/types.go:173-202 both name them
    // `spec.minMember` and `spec.minResources`. The plugins apply both always, through apply
    // configurations whose fields are pointers (coscheduling.go:127-130, volcano.go:175-178), so
    // a job that requests nothing gets `minResources: {}`.
    let mut spec = serde_json::Map::new();
    spec.insert("minMember".into(), members.into());
    let resources = total.iter().map(|(k, q)| (k.clone(), q.text().into())).collect();
    spec.insert("minResources".into(), serde_json::Value::Object(resources));
    let name = job_name(input);
    let (created_by, when) = match scheduler {
        Scheduler::Coscheduling => {
            if let Some(t @ Value::Number(_)) = source.and_then(|s| s.get("scheduleTimeoutSeconds")) {
                spec.insert("scheduleTimeoutSeconds".into(), serde_json::to_value(t).unwrap_or_default());
            }
            (
                "Trainer controller (CoScheduling plugin)",
                "with the JobSet; updated only while the TrainJob is suspended",
            )
        }
        Scheduler::Volcano => {
            if let Some(queue) = jobset_annotations.get(VOLCANO_QUEUE) {
                spec.insert("queue".into(), queue.clone().into());
            }
            // volcano.go:185-196: the last replicatedJob's priorityClassName that is set.
            let priority = sets.iter().rev().find_map(|ps| match ps.pod_fields.get("priorityClassName") {
                Some(Value::String(p)) => Some(p.clone()),
                _ => None,
            });
            if let Some(p) = priority {
                spec.insert("priorityClassName".into(), p.into());
            }
            ("Trainer controller (Volcano plugin)", "with the JobSet; updated only while the TrainJob is suspended")
        }
    };
    vec![Object { spec: Some(serde_json::Value::Object(spec)), ..Object::new("PodGroup", name, created_by, when) }]
}

/// The Volcano webhook (volcano.go:96-101): a queue annotation, when set, must name a queue.
pub(super) fn validate(input: Input) -> Vec<Rejection> {
    let jobset_annotations = super::build::propagated_metadata(input).1;
    match (policy(input), jobset_annotations.get(VOLCANO_QUEUE)) {
        (Some((Scheduler::Volcano, _)), Some(queue)) if queue.is_empty() => vec![Rejection::invalid(
            &format!("spec.annotations[{VOLCANO_QUEUE}]"),
            "\"\": Volcano queue name must not be empty",
        )],
        _ => vec![],
    }
}

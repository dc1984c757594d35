//! One reader of a V1 container: `from_container` reads a V1 container's fields straight into
//! the comparison's facts, so as not to build `explain`'s view of it for every container of every
//! job; it must read what `from_view` reads from that view, field by field. A field added to the
//! view (or read differently there) and not to `from_container` fails here, over every container
//! of every V1 job of the real corpus and of the reference's V1 examples.

use super::{from_container, from_view, own_env, role_env, security_of, ContainerFacts};
use crate::explain::v1::{operate, per_pod_env};
use crate::explain::{container_view, container_view_with_env, ContainerView};
use crate::model::pod::Container;
use explorer_judges::{read_docs, real_v1_dir, reference_dir, yaml_files};

/// Each container of each role's first pod read both ways, as `v1_pod` reads them: a container
/// with its variables across the role's pods, an init container with its own. `(container,
/// from_container's facts, the view from_view reads)`.
fn both_readings(role: &crate::explain::v1::Role) -> Vec<(&Container, ContainerFacts<'_>, ContainerView)> {
    let Some((pod, _)) = role.pod_base(0) else { return Vec::new() };
    let containers = pod.spec.containers.iter().enumerate().map(|(i, c)| {
        let direct = from_container(c, role_env(role, i), security_of(c));
        (c, direct, container_view_with_env(c, per_pod_env(role, i)))
    });
    let init = role.init_containers(0).map(|c| (c, from_container(c, own_env(c), security_of(c)), container_view(c)));
    containers.chain(init).collect()
}

#[test]
fn from_container_reads_what_from_view_reads_of_every_v1_container() {
    let reference = reference_dir();
    let mut files = yaml_files(&real_v1_dir());
    files.extend(yaml_files(&reference.join("v1-examples")));
    files.push(reference.join("mpi-operator-v2beta1/pi.yaml"));
    let (mut jobs, mut containers) = (0, 0);
    let mut drifted = Vec::new();
    for file in files {
        for doc in read_docs(&file) {
            // Documents the V1 model does not read (Kueue's objects, ConfigMaps) have no pods.
            let Ok(operated) = operate(&doc) else { continue };
            jobs += 1;
            for role in &operated.roles {
                for (container, direct, view) in both_readings(role) {
                    containers += 1;
                    let (name, viewed) = (&container.name, from_view(&view, security_of(container)));
                    if direct != viewed {
                        let role = &role.replica_type;
                        drifted.push(format!("{}: {role} {name}\n{direct:?}\n{viewed:?}", file.display()));
                    }
                }
            }
        }
    }
    // Too few read would pass without pinning anything: the corpus and examples hold more.
    assert!(jobs >= 40 && containers >= 80, "only {jobs} V1 jobs and {containers} containers read");
    assert!(
        drifted.is_empty(),
        "{} of {containers} containers of {jobs} V1 jobs read otherwise than their view:\n{}",
        drifted.len(),
        drifted.join("\n")
    );
    eprintln!("{containers} containers of {jobs} V1 jobs read as their view reads");
}

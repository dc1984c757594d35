//! The Master/Worker comparison: V2 runs one template on every node, so Worker fields that
//! differ from the Master's are lost.

use super::*;

impl Conversion<'_> {
    pub(super) fn report_asymmetry(
        &mut self,
        worker_path: &str,
        worker: &crate::model::pod::PodTemplateSpec,
        master: &crate::model::pod::PodTemplateSpec,
        container_name: &str,
    ) {
        let worker_value = to_value(worker);
        let master_value = to_value(master);
        let worker_main_index = main_container(&worker.spec, container_name);
        let master_main_index = main_container(&master.spec, container_name);
        let (worker_container, master_container) = (
            &worker_value["spec"]["containers"][worker_main_index],
            &master_value["spec"]["containers"][master_main_index],
        );
        if let Some(fields) = worker_container.as_object() {
            for (k, v) in fields {
                if k == "resources" {
                    continue; // taken from the Worker above
                }
                let path = format!("{worker_path}.template.spec.containers[{worker_main_index}].{k}");
                if master_container.get(k) == Some(v) {
                    self.report.mapped(path, "one template for every node", "same as the Master's");
                } else {
                    self.report
                        .dropped(path, format!("Master/Worker asymmetry is lost: every V2 node uses the Master's {k}"));
                }
            }
        }
        let others = [
            ("spec", &worker_value["spec"], &master_value["spec"]),
            ("metadata", &worker_value["metadata"], &master_value["metadata"]),
        ];
        for (part, w, m) in others {
            if let Some(fields) = w.as_object() {
                for (k, v) in fields {
                    if part == "spec" && k == "containers" {
                        continue;
                    }
                    let path = format!("{worker_path}.template.{part}.{k}");
                    if m.get(k) == Some(v) {
                        self.report.mapped(path, "one template for every node", "same as the Master's");
                    } else {
                        self.report.dropped(
                            path,
                            format!("Master/Worker asymmetry is lost: every V2 node uses the Master's {k}"),
                        );
                    }
                }
            }
        }
    }
}

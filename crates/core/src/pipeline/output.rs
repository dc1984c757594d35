//! The converted objects as a reader takes them away, the way Kubernetes' own docs offer a
//! sample: one object per file, in the order to apply them, each named by the file it is saved
//! as, and the `kubectl apply -f` line for them all. The HTML of the blocks is
//! explorer-html's `migrate_output`.

use super::Document;
use crate::yaml;
use std::fmt::Write;

/// One object to apply, and the file it is saved as.
#[derive(Debug, PartialEq)]
pub struct OutputObject {
    /// The file name (`trainjob-<name>.yaml`).
    pub file: String,
    /// The object's kind.
    pub kind: String,
    /// The object's name.
    pub name: String,
    /// The object as YAML.
    pub yaml: String,
}

/// What must exist before the objects that name it: a runtime (and whatever else passed
/// through) before the TrainJob that references it, which the webhook refuses without it.
fn apply_rank(kind: &str) -> u8 {
    u8::from(kind == "TrainJob")
}

/// The objects of every written (or passed-through) document, in the order to apply them.
/// File names are `<kind>-<name>.yaml`, lower case, made unique with `-2`, `-3`….
pub fn output_objects(docs: &[Document]) -> Vec<OutputObject> {
    objects_and_stream(docs).0
}

/// `output_objects`, and the same objects' YAML as one stream in the documents' order, the text
/// `pipeline::output_yaml` writes: each object is emitted once for both (the converter module
/// shows both, and emitting a large paste is a few percent of its work).
pub fn objects_and_stream(docs: &[Document]) -> (Vec<OutputObject>, String) {
    let mut objects: Vec<OutputObject> = Vec::new();
    // The file names taken so far: looked up, not searched for among the objects (a paste of
    // ten thousand jobs compared each name with every earlier one, 50 million comparisons).
    let mut taken = std::collections::BTreeSet::new();
    for d in docs {
        for v in d.outcome.output() {
            let kind = v["kind"].as_str().unwrap_or("object").to_string();
            let name = v["metadata"]["name"].as_str().unwrap_or("unnamed").to_string();
            let stem = format!("{}-{}", kind.to_ascii_lowercase(), file_safe(&name));
            let mut file = format!("{stem}.yaml");
            let mut n = 1;
            while taken.contains(&file) {
                n += 1;
                file = format!("{stem}-{n}.yaml");
            }
            taken.insert(file.clone());
            let yaml = yaml::json_documents_text([v]);
            objects.push(OutputObject { file, kind, name, yaml });
        }
    }
    // `yaml::documents_text` of them all: each document's text, with `---` between them.
    let stream = objects.iter().map(|o| o.yaml.as_str()).collect::<Vec<_>>().join("---\n");
    crate::order::sort_by_key(&mut objects, |o| apply_rank(&o.kind));
    (objects, stream)
}

/// A name as part of a file name: Kubernetes names are already safe; anything else becomes `_`.
fn file_safe(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '.') { c } else { '_' }).collect()
}

/// `kubectl apply -f a.yaml -f b.yaml`, in apply order.
pub fn apply_command(objects: &[OutputObject]) -> String {
    let mut line = String::from("kubectl apply");
    for o in objects {
        let _ = write!(line, " -f {}", o.file);
    }
    line
}

#[cfg(all(test, feature = "migrate"))]
mod tests {
    use super::*;
    use crate::migrate::migrate_to;
    use explorer_data::releases::Release;

    const JOB: &str = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata:\n  name: mine\nspec:\n  pytorchReplicaSpecs:\n    Worker:\n      replicas: 2\n      template:\n        spec:\n          containers:\n          - name: pytorch\n            image: my/image:1\n            volumeMounts:\n            - name: data\n              mountPath: /data\n          volumes:\n          - name: data\n            emptyDir: {}\n";

    #[test]
    fn one_object_per_block_runtime_before_the_trainjob_with_unique_file_names() {
        let two = format!("{JOB}---\n{JOB}");
        let m = migrate_to(&two, Release::from_line("v2.0").unwrap()).unwrap();
        let objects = output_objects(&m.docs);
        let files: Vec<&str> = objects.iter().map(|o| o.file.as_str()).collect();
        let kinds: Vec<&str> = objects.iter().map(|o| o.kind.as_str()).collect();
        // Every TrainJob comes after every other object.
        let first_job = kinds.iter().position(|k| *k == "TrainJob").unwrap();
        assert!(kinds[first_job..].iter().all(|k| *k == "TrainJob"), "{kinds:?}");
        assert!(files.contains(&"trainjob-mine.yaml") && files.contains(&"trainjob-mine-2.yaml"), "{files:?}");
        // Each block is one document, and together they are the converter's whole output.
        assert!(objects.iter().all(|o| !o.yaml.contains("\n---\n")));
        let all = m.output_yaml();
        let mut whole: Vec<&str> = all.split("---\n").map(str::trim_end).collect();
        let mut parts: Vec<&str> = objects.iter().map(|o| o.yaml.trim_end()).collect();
        whole.sort();
        parts.sort();
        assert_eq!(parts, whole);
        assert_eq!(apply_command(&objects), format!("kubectl apply -f {}", files.join(" -f ")));
    }
}

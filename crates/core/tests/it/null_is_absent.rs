//! `null` is absent: for a structural schema the API server prunes a `null` in a field that is
//! not `nullable` (no Trainer, Training Operator or MPI Operator CRD has one), so a key written
//! without a value is the object without the key. Checked on mpi-operator's own
//! examples/v2beta1/pi/pi-intel.yaml shape (`command:` with no value), and as a property: setting
//! any optional field of any real V1 job (`../shared/real-v1`) or conformance case to `null`
//! gives the same answer as deleting it, for migrate, explain and upgrade.
#![cfg(not(target_arch = "wasm32"))]

use explorer_judges as common;

use explorer_data::releases::{NEWEST, RELEASES, V2_0};
use serde_json::Value;

/// mpi-operator v0.8.0 examples/v2beta1/pi/pi-intel.yaml, abridged: the worker's `command:` is
/// written with no value.
const PI_INTEL: &str = "apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata:
  name: pi
spec:
  slotsPerWorker: 1
  runPolicy:
    cleanPodPolicy: Running
  sshAuthMountPath: /home/mpiuser/.ssh
  mpiImplementation: Intel
  mpiReplicaSpecs:
    Launcher:
      replicas: 1
      template:
        spec:
          containers:
          - image: mpioperator/mpi-pi:intel
            imagePullPolicy: Always
            name: mpi-launcher
            command:
            - mpirun
            args:
            - -n
            - \"2\"
            - /home/mpiuser/pi
    Worker:
      replicas: 2
      template:
        spec:
          containers:
          - image: mpioperator/mpi-pi:intel
            imagePullPolicy: Always
            name: mpi-worker
            command:
            args:
            - /usr/sbin/sshd
            - -De
";

#[test]
fn a_key_with_no_value_is_read_as_absent_and_the_operator_is_the_mpi_operator() {
    let e = explorer_core::explain::v1::explain_text(PI_INTEL).unwrap().unwrap();
    assert!(e.rejected.is_empty(), "{:?}", e.rejected);
    assert_eq!(e.operator, "mpi-operator v0.6");
    let without = PI_INTEL.replace(
        "            command:\n            args:\n            - /usr/sbin/sshd",
        "            args:\n            - /usr/sbin/sshd",
    );
    let e2 = explorer_core::explain::v1::explain_text(&without).unwrap().unwrap();
    assert_eq!(serde_json::to_value(&e).unwrap(), serde_json::to_value(&e2).unwrap());
}

/// Every path to an object member of `v` (not list items' own members' parents: every member at
/// any depth), as JSON pointers.
fn member_pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                member_pointers(child, p, out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                member_pointers(item, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn edited(docs: &[Value], doc: usize, pointer: &str, null: bool) -> String {
    let mut docs = docs.to_vec();
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let key = key.replace("~1", "/").replace("~0", "~");
    let obj = docs[doc].pointer_mut(parent).and_then(Value::as_object_mut).unwrap();
    if null {
        obj.insert(key, Value::Null);
    } else {
        obj.shift_remove(&key);
    }
    docs.iter().map(|d| serde_yaml::to_string(d).unwrap()).collect::<Vec<_>>().join("---\n")
}

/// What each front end answers for `text`, as comparable JSON text.
fn answers(text: &str) -> String {
    let migrate = match explorer_core::migrate::migrate_to(text, NEWEST) {
        Ok(m) => format!("{:?}", m.docs.iter().map(|d| format!("{:?}", d.outcome)).collect::<Vec<_>>()),
        Err(e) => e.to_string(),
    };
    let explain = match explorer_core::explain::v1::explain_text(text) {
        Some(r) => format!("{:?}", r.map(|e| serde_json::to_string(&e).unwrap()).map_err(|e| e.to_string())),
        None => format!(
            "{:?}",
            explorer_core::explain::read::explain_text(text, NEWEST).map(|e| serde_json::to_string(&e).unwrap())
        ),
    };
    let upgrade = match explorer_core::upgrade::upgrade(text, V2_0, NEWEST) {
        Ok(u) => format!("{:?}", u.docs.iter().map(|d| format!("{:?}", d.outcome)).collect::<Vec<_>>()),
        Err(e) => e.to_string(),
    };
    format!("{migrate}\n{explain}\n{upgrade}")
}

/// The inputs: every real V1 job and every conformance case (without its UpstreamCase document).
fn corpus() -> Vec<(String, Vec<Value>)> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(common::real_v1_dir()).unwrap().map(|e| e.unwrap().path()).collect();
    let conformance = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    for tag in RELEASES {
        for suite in std::fs::read_dir(conformance.join(tag.tag)).unwrap() {
            files.extend(std::fs::read_dir(suite.unwrap().path()).unwrap().map(|e| e.unwrap().path()));
        }
    }
    files.retain(|p| p.extension().is_some_and(|e| e == "yaml"));
    files.sort();
    for f in files {
        let docs: Vec<Value> = common::read_docs(&f).into_iter().filter(|d| d["kind"] != "UpstreamCase").collect();
        out.push((f.display().to_string(), docs));
    }
    out
}

/// The fields a document may leave out: every member except the identity (apiVersion, kind,
/// metadata.name) and what a schema requires. Kept cheap: a sample of every document's members
/// (every 7th, plus each top-level one), which covers every real job and case.
#[test]
fn setting_any_optional_field_to_null_is_deleting_it() {
    let mut checked = 0;
    for (name, docs) in corpus() {
        for (i, doc) in docs.iter().enumerate() {
            let mut pointers = Vec::new();
            member_pointers(doc, String::new(), &mut pointers);
            let required = ["/apiVersion", "/kind", "/metadata", "/metadata/name"];
            for (n, p) in pointers.iter().enumerate() {
                if required.contains(&p.as_str()) || (n % 7 != 0 && p.matches('/').count() > 2) {
                    continue;
                }
                let deleted = answers(&edited(&docs, i, p, false));
                let nulled = answers(&edited(&docs, i, p, true));
                assert_eq!(nulled, deleted, "{name} document {} {p}", i + 1);
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

//! The structural schemas strict field validation walks (crates/core/src/explain/crd/fields.rs)
//! are the CRDs' own: this test reads every release's Trainer CRDs (`v2-crds/<tag>`), Training
//! Operator v1.9's (`v1-crds`) and mpi-operator's (`mpi-operator-v2beta1`) from
//! `$TRAINER_REFERENCE`, writes their schema nodes as Rust data (each distinct node once), and
//! fails when that differs from the committed file.
//! `UPDATE_CRD_FIELDS=1 cargo test -p explorer-core --test it -- crd_fields` rewrites it (then review the diff).
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

use explorer_judges as common;

use explorer_data::releases::RELEASES;
use explorer_data::served::{MPI_OPERATOR, TRAINING_OPERATOR};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Write;

const GENERATED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/explain/crd/fields.rs");

/// ObjectMeta's fields (k8s.io/apimachinery pkg/apis/meta/v1 types.go): a CRD's root
/// `metadata` is `type: object` and the API server decodes it as ObjectMeta.
const OBJECT_META: [&str; 15] = [
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
    "managedFields",
];

/// A node as Rust source, by its text: each distinct node gets one index.
#[derive(Default)]
struct Table {
    nodes: Vec<String>,
    index: HashMap<String, u16>,
}

impl Table {
    fn add(&mut self, text: String) -> u16 {
        if let Some(i) = self.index.get(&text) {
            return *i;
        }
        let i = u16::try_from(self.nodes.len()).expect("fewer than 65536 nodes");
        self.nodes.push(text.clone());
        self.index.insert(text, i);
        i
    }

    fn node(&mut self, schema: &Value, path: &str) -> u16 {
        let text = if schema["x-kubernetes-preserve-unknown-fields"] == Value::Bool(true)
            || schema["x-kubernetes-int-or-string"] == Value::Bool(true)
        {
            "Any".to_string()
        } else if let Some(props) = schema["properties"].as_object() {
            let fields: Vec<String> = props
                .iter()
                .map(|(name, child)| {
                    let child = if path.is_empty() && name == "metadata" {
                        self.object_meta()
                    } else {
                        self.node(child, &format!("{path}.{name}"))
                    };
                    format!("({name:?}, {child})")
                })
                .collect();
            format!("Object(&[{}])", fields.join(", "))
        } else if schema["type"] == "array" {
            let child = self.node(&schema["items"], &format!("{path}[]"));
            format!("List({child})")
        } else if schema["type"] == "object" {
            match &schema["additionalProperties"] {
                Value::Object(_) => {
                    let child = self.node(&schema["additionalProperties"], &format!("{path}{{}}"));
                    format!("Map({child})")
                }
                Value::Null => "Closed".to_string(),
                other => panic!("{path}: additionalProperties {other} in a structural schema"),
            }
        } else {
            "Any".to_string()
        };
        self.add(text)
    }

    fn object_meta(&mut self) -> u16 {
        let any = self.add("Any".into());
        let fields: Vec<String> = OBJECT_META.iter().map(|f| format!("({f:?}, {any})")).collect();
        self.add(format!("Object(&[{}])", fields.join(", ")))
    }
}

/// Every (schema name, file) the table holds: each release's three CRDs, then the V1 ones.
fn crd_files() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for r in RELEASES {
        for f in ["trainjobs", "trainingruntimes", "clustertrainingruntimes"] {
            out.push((r.tag.to_string(), format!("v2-crds/{}/trainer.kubeflow.org_{f}.yaml", r.tag)));
        }
    }
    for f in ["jaxjobs", "mpijobs", "paddlejobs", "pytorchjobs", "tfjobs", "xgboostjobs"] {
        out.push((TRAINING_OPERATOR.name.to_string(), format!("v1-crds/kubeflow.org_{f}.yaml")));
    }
    out.push((MPI_OPERATOR.name.to_string(), "mpi-operator-v2beta1/kubeflow.org_mpijobs.yaml".to_string()));
    out
}

fn generate() -> String {
    let mut table = Table::default();
    let mut roots = Vec::new();
    for (schema, file) in crd_files() {
        let crd = common::yaml_docs(&common::read_reference(&file)).remove(0);
        let group = crd["spec"]["group"].as_str().unwrap();
        let kind = crd["spec"]["names"]["kind"].as_str().unwrap();
        for v in crd["spec"]["versions"].as_array().unwrap().iter().filter(|v| v["served"] == Value::Bool(true)) {
            let node = table.node(&v["schema"]["openAPIV3Schema"], "");
            let api = format!("{group}/{}", v["name"].as_str().unwrap());
            roots.push(format!(
                "    Root {{ schema: {schema:?}, api_version: {api:?}, kind: {kind:?}, node: {node} }},"
            ));
        }
    }
    let mut out = String::from(
        "//! GENERATED by crates/core/tests/it/crd_fields.rs from $TRAINER_REFERENCE (v2-crds/<tag>, v1-crds,\n\
         //! mpi-operator-v2beta1): do not edit. `UPDATE_CRD_FIELDS=1 cargo test -p explorer-core --test it -- crd_fields`\n\
         //! rewrites it. Every distinct structural schema node of every served kind, once; a root's\n\
         //! `metadata` is ObjectMeta's fields.\n\n\
         use super::strict::Field::{self, *};\n\
         use super::strict::Root;\n\n\
         #[rustfmt::skip]\n\
         pub(super) static ROOTS: &[Root] = &[\n",
    );
    out.push_str(&roots.join("\n"));
    out.push_str("\n];\n\n#[rustfmt::skip]\npub(super) static SCHEMA: &[Field] = &[\n");
    for n in &table.nodes {
        writeln!(out, "    {n},").unwrap();
    }
    out.push_str("];\n");
    out
}

#[test]
fn the_structural_schemas_are_the_crds() {
    let generated = generate();
    if std::env::var_os("UPDATE_CRD_FIELDS").is_some() {
        std::fs::write(GENERATED, &generated).expect("write fields.rs");
        return;
    }
    let committed = std::fs::read_to_string(GENERATED).unwrap_or_default();
    assert!(
        committed == generated,
        "crates/core/src/explain/crd/fields.rs is not what the CRDs in $TRAINER_REFERENCE say: \
         run `UPDATE_CRD_FIELDS=1 cargo test -p explorer-core --test it -- crd_fields` and review the diff"
    );
}

//! The test judges and the tests' shared helpers, in a crate of their own so no product crate
//! ships them (publish = false; every other crate takes it as a dev-dependency only, which
//! scripts/check-light-core.sh checks):
//! - [`claims`]: the checks that every entry of a migration's or an upgrade's report holds in
//!   the output it describes;
//! - [`cel`]: the reference evaluation of the CRDs' CEL rules the explainer's is held to;
//! - the reference data (CRDs, shipped runtimes, V1 examples, the public V1 corpus) and strict
//!   validation of YAML documents against the real CRD schemas, the selections the tests
//!   spread over, and small fixtures.

pub mod cel;
pub mod claims;

/// The smallest torch runtime the CRDs and the webhook admit: one node, one container. A literal
/// (`concat!`), so a test can keep it in a `const` and edit it with `str::replace`.
#[macro_export]
macro_rules! torch_runtime {
    ($kind:literal, $name:literal, $image:literal) => {
        concat!(
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ",
            $kind,
            "\nmetadata: {name: ",
            $name,
            "}\nspec:\n  mlPolicy: {numNodes: 1, torch: {}}\n  template:\n    spec:\n      replicatedJobs:\n      \
             - name: node\n        template:\n          metadata: {labels: {trainer.kubeflow.org/trainjob-ancestor-step: \
             trainer}}\n          spec: {template: {spec: {containers: [{name: node, image: ",
            $image,
            "}]}}}\n"
        )
    };
}

use explorer_core::selection::{ParamKey, RuntimeScope, Selection};
use explorer_data::catalog::{Framework, Persona};
use explorer_data::releases::{Release, NEWEST, RELEASES};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// `$TRAINER_REFERENCE`, default `../shared/reference`. Missing data is an error, never a skip:
/// `make test` fetches the pinned upstream files when the folder is absent.
pub fn reference_dir() -> PathBuf {
    let dir = std::env::var_os("TRAINER_REFERENCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared/reference"));
    assert!(
        dir.join("v2-crds").join(NEWEST.tag).is_dir(),
        "reference data not found at {}: set TRAINER_REFERENCE or run `make reference`",
        dir.display()
    );
    dir
}

/// The workspace's root (the folder of Cargo.lock above this crate).
pub fn workspace_root() -> &'static Path {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.ancestors().find(|dir| dir.join("Cargo.lock").is_file()).unwrap_or(manifest_dir)
}

/// The text of a file of the reference data (`v2-crds/v2.3.0/...`).
pub fn read_reference(rel: &str) -> String {
    let path = reference_dir().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `$TRAINER_REAL_V1` (the public V1 manifests), default `../shared/real-v1`. Missing data is
/// an error, never a skip.
pub fn real_v1_dir() -> PathBuf {
    let dir = std::env::var_os("TRAINER_REAL_V1")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared/real-v1"));
    assert!(dir.is_dir(), "real V1 corpus not found at {}: set TRAINER_REAL_V1", dir.display());
    dir
}

/// All documents of a YAML stream, as JSON values.
pub fn yaml_docs(text: &str) -> Vec<Value> {
    use serde::Deserialize;
    serde_yaml::Deserializer::from_str(text)
        .map(|doc| Value::deserialize(doc).unwrap_or_else(|e| panic!("YAML does not parse: {e}\n{text}")))
        .filter(|v| !v.is_null())
        .collect()
}

/// YAML files under `dir`, recursively, sorted.
pub fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(yaml_files(&path));
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
    out
}

/// All documents of a YAML file.
pub fn read_docs(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    yaml_docs(&text)
}

/// The base runtimes a kustomization lists: files, and folders with their own kustomization.
pub fn base_runtimes(dir: &Path) -> Vec<Value> {
    let kustomization = read_docs(&dir.join("kustomization.yaml")).remove(0);
    let mut out = Vec::new();
    for resource in kustomization["resources"].as_array().unwrap() {
        let resource = resource.as_str().unwrap();
        if resource.ends_with(".yaml") {
            out.extend(read_docs(&dir.join(resource)));
        } else {
            out.extend(base_runtimes(&dir.join(resource)));
        }
    }
    out
}

/// The names of the runtimes a release installs (`v2-runtimes/<tag>`, as its kustomization lists them).
pub fn shipped_runtime_names(release: &Release) -> Vec<String> {
    base_runtimes(&reference_dir().join("v2-runtimes").join(release.tag))
        .iter()
        .map(|doc| doc["metadata"]["name"].as_str().expect("a runtime has a name").to_string())
        .collect()
}

/// ObjectMeta is `type: object` in CRDs; the API server validates it. We check the fields our
/// snippets use, strictly.
fn metadata_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 253},
            "namespace": {"type": "string", "maxLength": 63, "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"},
            "labels": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 63}},
            "annotations": {"type": "object", "additionalProperties": {"type": "string"}}
        },
        "required": ["name"],
        "additionalProperties": false
    })
}

/// One kind's OpenAPI schema, compiled.
pub struct Schema {
    validator: jsonschema::Validator,
}

impl Schema {
    /// Every schema error of `doc`, with where it is.
    pub fn errors(&self, doc: &Value) -> Vec<String> {
        self.validator.iter_errors(doc).map(|e| format!("{} at {}", e, e.instance_path())).collect()
    }
}

fn load_crd(rel: &str, version: &str) -> Vec<((String, String), Schema)> {
    let crd = yaml_docs(&read_reference(rel)).remove(0);
    let group = crd["spec"]["group"].as_str().unwrap().to_string();
    let kind = crd["spec"]["names"]["kind"].as_str().unwrap().to_string();
    let mut out = Vec::new();
    for v in crd["spec"]["versions"].as_array().unwrap() {
        if v["name"] != version {
            continue;
        }
        // Fields the schema does not declare are the core's strict walker's to find (validate_for).
        let mut schema = v["schema"]["openAPIV3Schema"].clone();
        schema["properties"]["metadata"] = metadata_schema();
        schema["required"] = json!(["apiVersion", "kind", "metadata", "spec"]);
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft4)
            .build(&schema)
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        out.push(((format!("{group}/{version}"), kind.clone()), Schema { validator }));
    }
    out
}

/// Compiled schemas by (apiVersion, kind).
pub type Schemas = HashMap<(String, String), Schema>;

/// Schemas by (apiVersion, kind) for one Trainer release's V2 kinds (`v2-crds/<tag>`), the V1
/// kinds and the MPI Operator's v2beta1. Built once per release.
pub fn schemas_for(release: &Release) -> &'static Schemas {
    static SCHEMAS: OnceLock<Vec<(&'static str, Schemas)>> = OnceLock::new();
    let all = SCHEMAS.get_or_init(|| RELEASES.iter().map(|r| (r.tag, load_schemas(r.tag))).collect());
    &all.iter().find(|(tag, _)| *tag == release.tag).unwrap_or_else(|| panic!("no CRDs for {}", release.tag)).1
}

fn load_schemas(tag: &str) -> Schemas {
    let mut all = HashMap::new();
    for f in [
        "trainer.kubeflow.org_trainjobs.yaml",
        "trainer.kubeflow.org_trainingruntimes.yaml",
        "trainer.kubeflow.org_clustertrainingruntimes.yaml",
    ] {
        all.extend(load_crd(&format!("v2-crds/{tag}/{f}"), "v1alpha1"));
    }
    for f in ["pytorchjobs", "mpijobs", "jaxjobs", "xgboostjobs", "tfjobs", "paddlejobs"] {
        all.extend(load_crd(&format!("v1-crds/kubeflow.org_{f}.yaml"), "v1"));
    }
    all.extend(load_crd("mpi-operator-v2beta1/kubeflow.org_mpijobs.yaml", "v2beta1"));
    all
}

/// The newest release's schemas.
pub fn schemas() -> &'static Schemas {
    schemas_for(&NEWEST)
}

/// Kinds from core Kubernetes that snippets may include beside a job (train()'s PVC).
const CORE_KINDS: [(&str, &str); 1] = [("v1", "PersistentVolumeClaim")];

/// Validates one document strictly against the newest release's CRDs (V2) or V1's.
pub fn validate(doc: &Value) -> Result<(), Invalid> {
    validate_for(&NEWEST, doc)
}

/// Why a document is not valid for a release, as the judges find it. Its text (`Display`) says
/// each error on a line of its own.
#[derive(Debug)]
#[non_exhaustive]
pub enum Invalid {
    /// No `apiVersion`, or no `kind`: the field's name.
    Missing(&'static str),
    /// No CRD of the release serves the group/version and kind.
    NoCrd {
        /// Its apiVersion.
        api: String,
        /// Its kind.
        kind: String,
    },
    /// No V1 operator serves the group/version and kind.
    NoOperator {
        /// Its apiVersion.
        api: String,
        /// Its kind.
        kind: String,
    },
    /// Fields the CRD does not declare (their paths), and the OpenAPI schema's errors.
    Schema {
        /// The paths of the fields the CRD does not declare.
        unknown: Vec<String>,
        /// The schema validator's errors, each with where it is.
        errors: Vec<String>,
    },
    /// The CRD's value constraints and `x-kubernetes-validations` rules that refuse it.
    Rules(Vec<explorer_core::k8s::field::Rejection>),
    /// v2.0's webhook: the TrainJob's name is no RFC 1035 label.
    Name(String),
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Invalid::Missing(field) => write!(f, "no {field}"),
            Invalid::NoCrd { api, kind } => write!(f, "no CRD for {api} {kind}"),
            Invalid::NoOperator { api, kind } => write!(f, "no V1 operator serves {api} {kind}"),
            Invalid::Schema { unknown, errors } => {
                let unknown = unknown.iter().map(|path| format!("unknown field {path:?}"));
                f.write_str(&unknown.chain(errors.iter().cloned()).collect::<Vec<_>>().join("\n"))
            }
            Invalid::Rules(rules) => {
                let lines: Vec<String> = rules.iter().map(|r| format!("{}: {}", r.field(), r.reason())).collect();
                f.write_str(&lines.join("\n"))
            }
            Invalid::Name(name) => write!(f, "TrainJob name {name:?} is not an RFC 1035 label"),
        }
    }
}

impl std::error::Error for Invalid {}

/// Validates one document strictly against its CRD as `release` ships it (every field declared,
/// by the core's strict walker; then the OpenAPI schema), plus the CRD's value
/// constraints and every `x-kubernetes-validations` rule (evaluated by explorer_core::explain::crd, which
/// reads them from the CRDs), plus the name check v2.0's webhook makes in place of a CRD rule.
pub fn validate_for(release: &Release, doc: &Value) -> Result<(), Invalid> {
    let api = doc["apiVersion"].as_str().ok_or(Invalid::Missing("apiVersion"))?;
    let kind = doc["kind"].as_str().ok_or(Invalid::Missing("kind"))?;
    if CORE_KINDS.contains(&(api, kind)) {
        return Ok(());
    }
    let named = || (api.to_string(), kind.to_string());
    let schema = schemas_for(release).get(&named()).ok_or_else(|| {
        let (api, kind) = named();
        Invalid::NoCrd { api, kind }
    })?;
    // Strict field validation by the walker explain refuses with (explorer_core::explain::crd::strict).
    let schema_name = if api.starts_with("trainer.kubeflow.org/") {
        release.tag
    } else {
        let operator = explorer_data::served::v1_operator(api, kind);
        operator
            .ok_or_else(|| {
                let (api, kind) = named();
                Invalid::NoOperator { api, kind }
            })?
            .name
    };
    let unknown = explorer_core::explain::crd::strict::unknown_fields(schema_name, doc);
    let errors = schema.errors(doc);
    if !unknown.is_empty() || !errors.is_empty() {
        return Err(Invalid::Schema { unknown, errors });
    }
    let rules = explorer_core::explain::crd::validate(release.tag, doc);
    if !rules.is_empty() {
        return Err(Invalid::Rules(rules));
    }
    if kind == "TrainJob" && release.controller.webhook_checks_name {
        // v2.0.1's webhook: metadata.name is an RFC 1035 label.
        let name = doc["metadata"]["name"].as_str().unwrap_or_default();
        let ok = name.len() <= 63
            && name.starts_with(|c: char| c.is_ascii_lowercase())
            && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            && !name.ends_with('-');
        if !ok {
            return Err(Invalid::Name(name.to_string()));
        }
    }
    Ok(())
}

/// The lines a Trainer V2 manifest starts with, through `spec:`, for fixtures that write their
/// own spec beneath: `v2_head!("ClusterTrainingRuntime", "name")`, or with a namespace third.
#[macro_export]
macro_rules! v2_head {
    ($kind:literal, $name:literal) => {
        concat!("apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ", $kind, "\nmetadata:\n  name: ", $name, "\nspec:\n")
    };
    ($kind:literal, $name:literal, $namespace:literal) => {
        concat!(
            "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: ",
            $kind,
            "\nmetadata:\n  name: ",
            $name,
            "\n  namespace: ",
            $namespace,
            "\nspec:\n"
        )
    };
}

/// Every release × persona × framework × scope the widget offers, at default parameters, in
/// that order: the selections each test spreads its own parameters over.
pub fn every_selection(releases: &[Release]) -> Vec<Selection> {
    let mut out = Vec::new();
    for release in releases {
        for persona in Persona::ALL {
            for framework in Framework::ALL {
                for scope in [RuntimeScope::Cluster, RuntimeScope::Namespaced] {
                    let mut sel = Selection::new(persona, framework);
                    sel.release = *release;
                    sel.scope = scope;
                    out.push(sel);
                }
            }
        }
    }
    out
}

/// Every persona × framework × scope of the newest release, at defaults and with a spread of
/// parameters.
pub fn selection_spread() -> Vec<Selection> {
    let params: [&[(ParamKey, &str)]; 5] = [
        &[],
        &[(ParamKey::Nodes, "4"), (ParamKey::Gpus, "2"), (ParamKey::Queue, "team-a-queue")],
        &[(ParamKey::Nodes, "1"), (ParamKey::Gpus, "0"), (ParamKey::Procs, "8"), (ParamKey::Namespace, "team-a")],
        &[
            (ParamKey::Name, "a-very-long-job-name-that-is-still-a-valid-label-0123456789ab"),
            (ParamKey::Image, "registry.example.com/ml/train@sha256:0123456789abcdef"),
            (ParamKey::Nodes, "1024"),
            (ParamKey::Gpus, "16"),
            (ParamKey::Procs, "128"),
        ],
        &[(ParamKey::Model, "qwen2.5-1.5b"), (ParamKey::Dataset, "hf://org/ds"), (ParamKey::Nodes, "3")],
    ];
    let mut out = Vec::new();
    for base in every_selection(&[NEWEST]) {
        for set in params {
            let mut sel = base.clone();
            for (k, v) in set {
                sel.params.set(*k, v).unwrap();
            }
            out.push(sel);
        }
    }
    out
}

/// The tree the widget's YAML emitter walks for `model`, as serde_json's value for comparing
/// with parsed manifests.
pub fn emitted_tree<T: explorer_core::model::ToTree>(model: &T) -> serde_json::Value {
    serde_json::to_value(model.to_tree()).expect("a tree serializes to JSON")
}

/// What `python3 -c body` prints, trimmed, with `env` set and the `unset` names taken from the
/// test's own env: one pod's run of a pane's training function (tests/v1_*_snippet.rs).
pub fn python_stdout<'a>(body: &str, env: impl IntoIterator<Item = (&'a str, String)>, unset: &[&str]) -> String {
    let mut cmd = std::process::Command::new("python3");
    cmd.arg("-c").arg(body);
    for name in unset {
        cmd.env_remove(name);
    }
    let run = cmd.envs(env).output().unwrap();
    assert!(run.status.success(), "{body}\n{}", String::from_utf8_lossy(&run.stderr));
    String::from_utf8(run.stdout).unwrap().trim().to_string()
}

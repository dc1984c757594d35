//! The CRD checks the explainer applies (crates/core/src/explain/crd/rules.rs) are the CRDs' own: this test
//! reads every release's CRDs from `$TRAINER_REFERENCE/v2-crds/<tag>`, writes the checks of each
//! schema node as Rust data, and fails when that differs from the committed file.
//! `UPDATE_CRD_RULES=1 cargo test -p explorer-core --test it -- crd_rules` rewrites it (then review the diff).
//! It also parses every rule with both of cel-rust's parsers and every pattern with regex-lite.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

use explorer_judges as common;

use explorer_core::explain::crd::{self, evaluate, Check};
use explorer_data::releases::RELEASES;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The kinds whose CRDs hold rules, with their CRD file.
const KINDS: [(&str, &str); 3] = [
    ("TrainJob", "trainer.kubeflow.org_trainjobs.yaml"),
    ("TrainingRuntime", "trainer.kubeflow.org_trainingruntimes.yaml"),
    ("ClusterTrainingRuntime", "trainer.kubeflow.org_clustertrainingruntimes.yaml"),
];

const GENERATED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/explain/crd/rules.rs");

/// What the walk keeps of one schema node: its path, type and checks written as Rust.
struct NodeOut {
    path: String,
    ty: String,
    checks: Vec<String>,
}

/// Keywords the checker cannot apply; a CRD that uses one fails the test, so nothing is left
/// out silently.
const UNSUPPORTED: [&str; 5] = ["exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "maxProperties"];

fn quoted(s: &str) -> String {
    format!("{s:?}")
}

fn integer(schema: &Map<String, Value>, key: &str, path: &str) -> Option<i64> {
    schema.get(key).map(|v| v.as_i64().unwrap_or_else(|| panic!("{path}: {key} {v} is not an integer")))
}

fn walk(schema: &Map<String, Value>, path: &str, out: &mut Vec<NodeOut>) {
    for key in UNSUPPORTED {
        assert!(!schema.contains_key(key), "{path}: `{key}` is not checked by crates/core/src/explain/crd");
    }
    for combinator in ["anyOf", "allOf", "oneOf", "not"] {
        let inner = schema.get(combinator).map(|v| v.to_string()).unwrap_or_default();
        for key in ["x-kubernetes-validations", "\"enum\"", "\"pattern\"", "\"minimum\""] {
            assert!(
                !inner.contains(key),
                "{path}: {key} under {combinator} is not checked by crates/core/src/explain/crd"
            );
        }
    }
    let mut checks = Vec::new();
    for rule in schema.get("x-kubernetes-validations").and_then(Value::as_array).into_iter().flatten() {
        let rule = rule.as_object().expect("a validation rule is an object");
        for key in rule.keys() {
            assert!(["rule", "message"].contains(&key.as_str()), "{path}: rule field `{key}` is not supported");
        }
        let text = rule["rule"].as_str().expect("rule text");
        let message = rule.get("message").and_then(Value::as_str).unwrap_or_default();
        // A transition rule reads oldSelf (validation.go: compiled.UsesOldSelf).
        let transition = explorer_judges::cel::reads_old_self(text);
        checks.push(format!(
            "Rule {{ rule: {}, message: {}, transition: {transition} }}",
            quoted(text),
            quoted(message)
        ));
    }
    if let Some(values) = schema.get("enum") {
        let values: Vec<String> = values
            .as_array()
            .expect("enum is a list")
            .iter()
            .map(|v| quoted(v.as_str().unwrap_or_else(|| panic!("{path}: enum value {v} is not a string"))))
            .collect();
        checks.push(format!("Enum(&[{}])", values.join(", ")));
    }
    for (key, variant) in [("minimum", "Minimum"), ("maximum", "Maximum")] {
        if let Some(n) = integer(schema, key, path) {
            checks.push(format!("{variant}({n})"));
        }
    }
    for (key, variant) in [("minLength", "MinLength"), ("maxLength", "MaxLength"), ("maxItems", "MaxItems")] {
        if let Some(n) = integer(schema, key, path) {
            checks.push(format!("{variant}({n})"));
        }
    }
    if let Some(p) = schema.get("pattern") {
        checks.push(format!("Pattern({})", quoted(p.as_str().expect("pattern is a string"))));
    }
    if !checks.is_empty() {
        let ty = if schema.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) {
            ""
        } else {
            schema.get("type").and_then(Value::as_str).unwrap_or_default()
        };
        out.push(NodeOut { path: path.to_string(), ty: ty.to_string(), checks });
    }
    for (name, child) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
        assert!(!name.contains(['.', '[', '{']), "{path}: property {name:?} would break the path syntax");
        let child_path = if path.is_empty() { name.clone() } else { format!("{path}.{name}") };
        walk(child.as_object().expect("a property schema"), &child_path, out);
    }
    if let Some(items) = schema.get("items").and_then(Value::as_object) {
        walk(items, &format!("{path}[]"), out);
    }
    if let Some(values) = schema.get("additionalProperties").and_then(Value::as_object) {
        walk(values, &format!("{path}{{}}"), out);
    }
}

fn crd_schema(tag: &str, file: &str) -> Map<String, Value> {
    let doc = common::yaml_docs(&common::read_reference(&format!("v2-crds/{tag}/{file}"))).remove(0);
    let versions = doc["spec"]["versions"].as_array().expect("versions");
    assert_eq!(versions.len(), 1, "{tag} {file}: one served version expected");
    versions[0]["schema"]["openAPIV3Schema"].as_object().expect("openAPIV3Schema").clone()
}

/// The generated file's text.
fn generate() -> String {
    let mut lists: BTreeMap<String, String> = BTreeMap::new(); // body → name
    let mut order: Vec<(String, String)> = Vec::new(); // (name, body), first use first
    let mut entries = String::new();
    for release in RELEASES {
        for (kind, file) in KINDS {
            let mut nodes = Vec::new();
            walk(&crd_schema(release.tag, file), "", &mut nodes);
            let mut body = String::new();
            for n in &nodes {
                writeln!(
                    body,
                    "    Node {{ path: {}, ty: {}, checks: &[{}] }},",
                    quoted(&n.path),
                    quoted(&n.ty),
                    n.checks.join(", ")
                )
                .unwrap();
            }
            let name = lists
                .entry(body.clone())
                .or_insert_with(|| {
                    let name = format!(
                        "{}_{}",
                        kind.to_uppercase(),
                        release.tag.replace(['v', '.'], "_").trim_start_matches('_')
                    );
                    order.push((name.clone(), body.clone()));
                    name
                })
                .clone();
            writeln!(
                entries,
                "    CrdChecks {{ tag: {}, kind: {}, nodes: {name} }},",
                quoted(release.tag),
                quoted(kind)
            )
            .unwrap();
        }
    }
    let mut out = String::from(
        "//! GENERATED by crates/core/tests/it/crd_rules.rs from $TRAINER_REFERENCE/v2-crds/<tag>/*.yaml: do not edit.\n\
         //! `UPDATE_CRD_RULES=1 cargo test -p explorer-core --test it -- crd_rules` rewrites it. Every node of each release's\n\
         //! TrainJob, TrainingRuntime and ClusterTrainingRuntime schema that has an\n\
         //! `x-kubernetes-validations` rule or a value constraint, in schema order; identical lists\n\
         //! are written once.\n\n\
         use super::Check::*;\nuse super::{CrdChecks, Node};\n\n#[rustfmt::skip]\npub(super) const CRDS: &[CrdChecks] = &[\n",
    );
    out.push_str(&entries);
    out.push_str("];\n");
    for (name, body) in order {
        write!(out, "\n#[rustfmt::skip]\nconst {name}: &[Node] = &[\n{body}];\n").unwrap();
    }
    out
}

#[test]
fn the_committed_checks_are_the_crds_own() {
    let generated = generate();
    if std::env::var_os("UPDATE_CRD_RULES").is_some() {
        std::fs::write(GENERATED, &generated).expect("write rules.rs");
        return;
    }
    let committed = std::fs::read_to_string(GENERATED).expect("rules.rs");
    assert!(
        committed == generated,
        "crates/core/src/explain/crd/rules.rs is not what the CRDs in $TRAINER_REFERENCE say: \
         run `UPDATE_CRD_RULES=1 cargo test -p explorer-core --test it -- crd_rules` and review the diff"
    );
}

/// The explainer evaluates the rules with only the functions they call (evaluate.rs, for the
/// converter module's size), not cel-rust's standard library: every rule a create runs calls no
/// other, and the check sees a function it lacks.
#[test]
fn every_rule_calls_only_the_functions_the_evaluator_registers() {
    let mut checked = 0;
    for crd in crd::all() {
        for node in crd.nodes {
            for check in node.checks {
                if let Check::Rule { rule, transition: false, .. } = check {
                    let missing = explorer_judges::cel::unregistered_functions(rule).unwrap();
                    assert!(missing.is_empty(), "{} {} {}: {rule} calls {missing:?}", crd.tag, crd.kind, node.path);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 20, "only {checked} rules checked");
    assert_eq!(
        explorer_judges::cel::unregistered_functions("self.startsWith('a') && size(self) > 1").unwrap(),
        ["startsWith"]
    );
    assert_eq!(
        explorer_judges::cel::unregistered_functions("self.all(x, x.matches('^a'))").unwrap(),
        Vec::<String>::new()
    );
}

/// Every rule and pattern compiles; and the explainer's evaluation (cel-rust's Pratt parser, with
/// only the rules' functions) agrees with cel-rust's default one (its ANTLR parser and whole
/// standard library) on every rule, on every value the
/// reference runtimes and examples hold at the rule's node and on a few made-up ones.
#[test]
fn every_rule_parses_and_both_parsers_agree() {
    let mut samples: Vec<Value> = Vec::new();
    for release in RELEASES {
        let dir = common::reference_dir().join("v2-runtimes").join(release.tag);
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "yaml") && !path.ends_with("kustomization.yaml") {
                samples.extend(common::yaml_docs(&std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut compared = 0;
    for crd in crd::all() {
        for node in crd.nodes {
            for check in node.checks {
                match check {
                    Check::Pattern(p) => {
                        regex_lite::Regex::new(p).unwrap_or_else(|e| panic!("{} {}: {p}: {e}", crd.tag, node.path));
                    }
                    Check::Rule { rule, transition: false, .. } => {
                        let mut values: Vec<Value> = samples
                            .iter()
                            .filter(|d| d["kind"] == crd.kind)
                            .flat_map(|d| crd::values_at(d, node.path).into_iter().map(|(_, v)| v.clone()))
                            .collect();
                        values.extend([serde_json::json!({}), serde_json::json!([]), serde_json::json!(0), "".into()]);
                        for v in values {
                            let pratt = format!("{:?}", evaluate::holds(rule, &v));
                            let antlr = format!("{:?}", explorer_judges::cel::holds_with_default_parser(rule, &v));
                            assert_eq!(pratt, antlr, "{} {} {}: {rule} on {v}", crd.tag, crd.kind, node.path);
                            compared += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(compared > 100, "only {compared} rule evaluations compared");
}

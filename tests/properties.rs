//! Properties that must hold for any input, not just the examples.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

mod common;

use proptest::prelude::*;
use serde_json::{Map, Value};
use trainer_v2_explorer::catalog::{Framework, LlmModel, Persona};
use trainer_v2_explorer::query::{self, SyncSet};
use trainer_v2_explorer::selection::{Mode, Params, RuntimeScope, Selection};
use trainer_v2_explorer::snippets::{all_snippets, Language};
use trainer_v2_explorer::yaml;

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        // Floats as manifests carry them (`cpu: 0.5`); printed the way serde_json prints them.
        (-1e9f64..1e9).prop_map(Value::from),
        // Strings that stress quoting: indicators, numbers, bools, newlines, unicode.
        "[ -~\\n\\t]{0,12}|true|no|~|0x1F|1e3|-1|: |- x|#c|[a-z]{1,6}|é∞".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec(("[a-zA-Z0-9./_-]{1,10}|true|1|a: b", inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn selection() -> impl Strategy<Value = Selection> {
    (
        prop::sample::select(Persona::ALL.to_vec()),
        prop::sample::select(Framework::ALL.to_vec()),
        any::<bool>(),
        prop::option::of("[a-z][a-z0-9-]{0,20}[a-z0-9]"),
        prop::option::of("[a-z0-9][a-z0-9-]{0,10}[a-z0-9]"),
        prop::option::of(1u32..=1024),
        prop::option::of(0u32..=16),
        prop::option::of(1u32..=128),
        prop::option::of("[a-z0-9]{1,8}(\\.[a-z]{2,5})?/[a-z0-9-]{1,10}:[a-z0-9.]{1,6}"),
        prop::option::of("[a-z0-9][a-z0-9-]{0,10}[a-z0-9]"),
        prop::option::of(prop::sample::select(LlmModel::ALL.to_vec())),
        prop::option::of("hf://[a-z0-9-]{1,8}/[a-z0-9_.-]{1,8}(/[a-z]{1,5})?"),
    )
        .prop_map(|(persona, framework, ns, name, namespace, nodes, gpus, procs, image, queue, model, dataset)| {
            Selection {
                persona,
                framework,
                scope: if ns { RuntimeScope::Namespaced } else { RuntimeScope::Cluster },
                params: Params { name, namespace, nodes, gpus, procs, image, queue, model, dataset },
                mode: if ns && framework == Framework::Jax { Mode::Migrate } else { Mode::Compare },
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn emitted_yaml_reads_back_as_the_same_value(v in json_value()) {
        let text = yaml::join(&yaml::emit(&(&v).into()));
        let back: Value = serde_yaml::from_str(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        // A top-level empty string/null document reads back as null.
        if !(v.is_null() || v == Value::String(String::new())) {
            prop_assert_eq!(back, v, "{}", text);
        }
    }

    #[test]
    fn a_selection_survives_the_url(sel in selection()) {
        let q = query::to_query(&sel, SyncSet::ALL);
        let (back, issues) = query::apply(&q, &Selection::default(), SyncSet::ALL);
        prop_assert!(issues.is_empty(), "{:?} from {}", issues, q);
        prop_assert_eq!(back, sel);
    }

    #[test]
    fn any_query_string_is_handled_without_panic(q in "\\PC{0,200}") {
        let (sel, _) = query::apply(&q, &Selection::default(), SyncSet::ALL);
        // Whatever was accepted still renders.
        prop_assert!(!all_snippets(&sel).is_empty());
    }
}

proptest! {
    // Validation against the CRDs is slower; fewer cases still cover every framework often.
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn any_valid_selection_yields_yaml_the_crds_accept(sel in selection()) {
        for s in all_snippets(&sel).iter().filter(|s| s.language == Language::Yaml) {
            for doc in common::yaml_docs(&s.code) {
                common::validate(&doc).map_err(|e| TestCaseError::fail(format!("{e}\n{}", s.code)))?;
            }
        }
    }
}

/// A V1 job with random damage: deleted keys, values swapped for other types.
fn mutated_job() -> impl Strategy<Value = String> {
    let bases = [
        "v1-examples/pytorch/simple.yaml",
        "v1-examples/mpi/tensorflow-mnist.yaml",
        "v1-examples/xgboost/xgboostjob.yaml",
        "v1-examples/jax/cpu-demo/demo.yaml",
        "mpi-operator-v2beta1/pi.yaml",
    ];
    let docs: Vec<Value> = bases.iter().map(|b| common::yaml_docs(&common::read_reference(b)).remove(0)).collect();
    (prop::sample::select(docs), prop::collection::vec((any::<prop::sample::Index>(), 0u8..4, json_value()), 0..6))
        .prop_map(|(mut doc, edits)| {
            for (at, op, replacement) in edits {
                let mut paths = Vec::new();
                all_paths(&doc, String::new(), &mut paths);
                let path = at.get(&paths).clone();
                if let Some(target) = doc.pointer_mut(&path) {
                    match op {
                        0 => *target = Value::Null,
                        1 => *target = replacement,
                        2 => *target = Value::String("two".into()),
                        _ => *target = serde_json::json!([]),
                    }
                }
            }
            yaml::join(&yaml::emit(&(&doc).into()))
        })
}

fn all_paths(v: &Value, path: String, out: &mut Vec<String>) {
    out.push(path.clone());
    match v {
        Value::Object(m) => m.iter().for_each(|(k, c)| all_paths(c, format!("{path}/{k}"), out)),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, c)| all_paths(c, format!("{path}/{i}"), out)),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn migrating_any_text_never_panics(text in "\\PC{0,400}") {
        let _ = trainer_v2_explorer::migrate::migrate(&text);
    }

    /// Valid V1 in, valid V2 out. Input the V1 CRD itself rejects must still never panic and
    /// must be reported, but its pass-through values are only as valid as they came.
    #[test]
    fn damaged_v1_jobs_never_panic_and_valid_ones_convert_to_valid_v2(text in mutated_job()) {
        let input_is_valid_v1 = common::yaml_docs(&text).first().is_some_and(|d| common::validate(d).is_ok());
        if let Ok(m) = trainer_v2_explorer::migrate::migrate(&text) {
            prop_assert!(!m.report_text().is_empty());
            if !input_is_valid_v1 {
                return Ok(());
            }
            for d in &m.docs {
                if let trainer_v2_explorer::migrate::Outcome::Converted { objects, .. } = &d.outcome {
                    for o in objects {
                        common::validate(o).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
                    }
                }
            }
            let _ = m.output_yaml();
            let _ = m.report_text();
        }
    }
}

//! Properties that must hold for any input, not just the examples.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

mod common;

use proptest::prelude::*;
use serde_json::{Map, Value};
use trainer_v2_explorer::catalog::{Framework, LlmModel, Persona};
use trainer_v2_explorer::query::{self, SyncSet};
use trainer_v2_explorer::selection::{Params, RuntimeScope, Selection};
use trainer_v2_explorer::snippets::{all_snippets, Language};
use trainer_v2_explorer::yaml;

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
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
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn emitted_yaml_reads_back_as_the_same_value(v in json_value()) {
        let text = yaml::join(&yaml::emit(&v));
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

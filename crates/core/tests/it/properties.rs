//! Properties that must hold for any input, not just the examples.
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

use explorer_judges as common;

use explorer_core::migrate::Outcome;
use explorer_core::query::{self, SyncSet};
use explorer_core::selection::{Mode, Params, RuntimeScope, Selection};
use explorer_core::snippets::{all_snippets, Language};
use explorer_core::urlencoded;
use explorer_core::yaml;
use explorer_data::catalog::{Framework, LlmModel, Persona};
use explorer_data::releases::RELEASES;
use explorer_judges::claims::migrate as claims;
use proptest::prelude::*;
use serde_json::{Map, Value};

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
    let fields = (
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
    );
    // Proptest's tuples stop at 12 fields: the release rides beside them.
    (fields, prop::sample::select(RELEASES.to_vec())).prop_map(
        |((persona, framework, ns, name, namespace, nodes, gpus, procs, image, queue, model, dataset), release)| {
            Selection {
                persona,
                framework,
                scope: if ns { RuntimeScope::Namespaced } else { RuntimeScope::Cluster },
                params: Params { name, namespace, nodes, gpus, procs, image, queue, model, dataset },
                release,
                mode: if ns && framework == Framework::Jax { Mode::Migrate } else { Mode::Compare },
            }
        },
    )
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

    /// Our `urlencoded` reads and writes a query exactly as the `form_urlencoded` crate (which the
    /// widget no longer links) does: escapes that are whole, cut short or not hex, `+`, bytes that
    /// decode to invalid UTF-8, and any text.
    #[test]
    fn our_query_encoding_is_the_form_urlencoded_crate_s(
        q in "(%[0-9a-fA-F]{2}|%[0-9a-zA-Z]?|[a-z+&= ]|é|∞|\\PC){0,40}",
        name in "\\PC{0,12}",
        value in "\\PC{0,24}",
    ) {
        let ours: Vec<(String, String)> = urlencoded::parse(&q).collect();
        let theirs: Vec<(String, String)> =
            form_urlencoded::parse(q.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned())).collect();
        prop_assert_eq!(ours, theirs, "{:?}", q);
        let mut ours = String::new();
        urlencoded::append_pair(&mut ours, &name, &value);
        urlencoded::append_pair(&mut ours, &value, &name);
        let theirs = form_urlencoded::Serializer::new(String::new()).append_pair(&name, &value).append_pair(&value, &name).finish();
        prop_assert_eq!(ours, theirs);
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
    fn any_valid_selection_yields_yaml_its_release_s_crds_accept(sel in selection()) {
        for s in all_snippets(&sel).iter().filter(|s| s.language == Language::Yaml) {
            for doc in common::yaml_docs(&s.code) {
                common::validate_for(&sel.release, &doc).map_err(|e| TestCaseError::fail(format!("{e}\n{}", s.code)))?;
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
        let _ = explorer_core::migrate::migrate(&text);
    }

    /// Valid V1 in, valid V2 out. Input the V1 CRD itself rejects must still never panic and
    /// must be reported, but its pass-through values are only as valid as they came.
    #[test]
    fn damaged_v1_jobs_never_panic_and_valid_ones_convert_to_valid_v2(text in mutated_job()) {
        let input_is_valid_v1 = common::yaml_docs(&text).first().is_some_and(|d| common::validate(d).is_ok());
        if let Ok(m) = explorer_core::migrate::migrate(&text) {
            prop_assert!(!m.report_text().is_empty());
            if !input_is_valid_v1 {
                return Ok(());
            }
            for d in &m.docs {
                if let explorer_core::migrate::Outcome::Written { objects, .. } = &d.outcome {
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

/// Pod settings a generated V1 job may carry, each as (pod spec fields, main-container fields).
fn pod_settings() -> impl Strategy<Value = (Map<String, Value>, Map<String, Value>, Option<Value>)> {
    use serde_json::json;
    let pod_options = vec![
        ("nodeSelector", json!({"gpu": "a100"})),
        ("tolerations", json!([{"key": "gpu", "operator": "Exists", "effect": "NoSchedule"}])),
        ("serviceAccountName", json!("trainer")),
        ("volumes", json!([{"name": "data", "emptyDir": {}}])),
        ("securityContext", json!({"fsGroup": 1000})),
        ("hostNetwork", json!(true)),
        ("priorityClassName", json!("high")),
        ("initContainers", json!([{"name": "init", "image": "busybox:1"}])),
        ("restartPolicy", json!("OnFailure")),
    ];
    let container_options = vec![
        ("env", json!([{"name": "A", "value": "1"}])),
        ("args", json!(["--epochs", "2"])),
        ("command", json!(["python", "train.py"])),
        ("imagePullPolicy", json!("Always")),
        ("volumeMounts", json!([{"name": "data", "mountPath": "/data"}])),
        ("securityContext", json!({"runAsUser": 1000})),
        ("ports", json!([{"containerPort": 23456, "name": "port"}])),
        ("workingDir", json!("/work")),
        ("resources", json!({"limits": {"nvidia.com/gpu": 1, "memory": "8Gi"}})),
        ("resources", json!({"limits": {"nvidia.com/gpu": 2}, "requests": {"cpu": "4"}})),
    ];
    (
        prop::sample::subsequence(pod_options, 0..=4),
        prop::sample::subsequence(container_options, 0..=4),
        prop::option::of(prop::sample::select(vec![
            json!({"labels": {"team": "ml"}}),
            json!({"annotations": {"sidecar.istio.io/inject": "false"}}),
        ])),
    )
        .prop_map(|(pod, container, metadata)| {
            let pod = pod.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            let container = container.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
            (pod, container, metadata)
        })
}

/// One replica: its count (sometimes absent, sometimes beyond int32), its pod settings and
/// whether it carries a sidecar.
fn replica(container_name: &'static str) -> impl Strategy<Value = Value> {
    (
        prop::option::of(prop_oneof![4 => 0u64..5, 1 => Just(2_147_483_647u64), 1 => Just(4_294_967_295u64)]),
        pod_settings(),
        any::<bool>(),
    )
        .prop_map(move |(replicas, (mut pod, mut container, metadata), sidecar)| {
            container.insert("name".into(), container_name.into());
            container.insert("image".into(), "registry.example/train:1".into());
            let mut containers = vec![Value::Object(container)];
            if sidecar {
                containers.push(serde_json::json!({"name": "logger", "image": "fluent/fluent-bit:3"}));
            }
            pod.insert("containers".into(), Value::Array(containers));
            let mut template = Map::new();
            if let Some(m) = metadata {
                template.insert("metadata".into(), m);
            }
            template.insert("spec".into(), Value::Object(pod));
            let mut r = Map::new();
            if let Some(n) = replicas {
                r.insert("replicas".into(), n.into());
            }
            r.insert("template".into(), Value::Object(template));
            Value::Object(r)
        })
}

/// A V1 job of any kind (both MPIJob versions), with random replica layouts and pod settings.
fn generated_job() -> impl Strategy<Value = Value> {
    use serde_json::json;
    let kinds = [
        ("kubeflow.org/v1", "PyTorchJob", "pytorchReplicaSpecs", "pytorch", ["Master", "Worker"]),
        ("kubeflow.org/v1", "XGBoostJob", "xgbReplicaSpecs", "xgboost", ["Master", "Worker"]),
        ("kubeflow.org/v1", "JAXJob", "jaxReplicaSpecs", "jax", ["Worker", "Worker"]),
        ("kubeflow.org/v1", "MPIJob", "mpiReplicaSpecs", "mpi", ["Launcher", "Worker"]),
        ("kubeflow.org/v2beta1", "MPIJob", "mpiReplicaSpecs", "mpi", ["Launcher", "Worker"]),
    ];
    (0..kinds.len(), any::<bool>(), any::<bool>(), prop::option::of(prop_oneof![Just(json!(2)), Just(json!("4")), Just(json!("auto")), Just(json!(4_294_967_296u64))]), any::<bool>())
        .prop_flat_map(move |(k, first, second, procs, deepspeed)| {
            let (api, kind, field, cname, types) = kinds[k];
            (Just((api, kind, field, types, first, second, procs, deepspeed)), replica(cname), replica(cname))
        })
        .prop_map(|((api, kind, field, types, first, second, procs, deepspeed), a, b)| {
            let mut specs = Map::new();
            let mpi = kind == "MPIJob";
            // MPIJobs need both; the others may lack either (a job with neither is refused).
            if first || mpi {
                specs.insert(types[0].into(), a);
            }
            if second || mpi || types[0] == types[1] {
                specs.insert(types[1].into(), b);
            }
            if mpi {
                if deepspeed {
                    specs["Launcher"]["template"]["spec"]["containers"][0]["command"] = json!(["deepspeed", "train.py"]);
                }
                specs["Launcher"]["replicas"] = json!(1);
            }
            let mut spec = Map::new();
            spec.insert(field.into(), Value::Object(specs));
            spec.insert("runPolicy".into(), json!({"cleanPodPolicy": "None", "backoffLimit": 3}));
            match (kind, procs) {
                ("PyTorchJob", Some(p)) => {
                    spec.insert("nprocPerNode".into(), if p.is_number() && p != 2 { p } else { json!(p.to_string().trim_matches('"')) });
                }
                ("MPIJob", Some(p)) if p.is_number() => {
                    spec.insert("slotsPerWorker".into(), p);
                }
                _ => {}
            }
            json!({"apiVersion": api, "kind": kind, "metadata": {"name": "job-1", "namespace": "ml", "labels": {"kueue.x-k8s.io/queue-name": "q"}}, "spec": spec})
        })
}

proptest! {
    // Each case converts and validates a few objects against the CRDs: a few hundred cases
    // cover every kind and most settings, in seconds in a debug build.
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Valid V1 in: strictly valid V2 out and a report whose every claim holds, or a refusal
    /// that names a field.
    #[test]
    fn generated_v1_jobs_convert_to_valid_v2_with_a_true_report_or_are_refused_naming_a_field(job in generated_job()) {
        let text = yaml::join(&yaml::emit(&(&job).into()));
        let m = explorer_core::migrate::migrate(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let d = &m.docs[0];
        match &d.outcome {
            Outcome::Written { objects, report, .. } => {
                if common::validate(&job).is_ok() {
                    for o in objects {
                        common::validate(o).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
                    }
                }
                let problems = claims::false_claims(d.source.as_ref().unwrap(), objects, report);
                prop_assert!(problems.is_empty(), "false claims:\n{}\n{}", problems.join("\n"), text);
            }
            Outcome::Invalid { .. } | Outcome::Refused { .. } => {
                let message = match &d.outcome {
                    Outcome::Invalid { error } => error.to_string(),
                    Outcome::Refused { reason, .. } => reason.to_string(),
                    _ => String::new(),
                };
                // The bound on the pods is the whole job's (explain::MAX_PODS), not one field's.
                let too_many = message.contains(" pods: no Kubernetes cluster runs that many");
                prop_assert!(message.contains("spec.") || message.contains("metadata") || too_many, "{} for\n{}", message, text);
            }
            Outcome::PassedThrough { .. } => prop_assert!(false, "a V1 job passed through:\n{}", text),
        }
    }
}

proptest! {
    // Each case converts for one release and upgrades to every newer one: a few dozen cases
    // reach every kind and release.
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `migrate --target` and `upgrade` write what their target release's API server admits:
    /// every object passes that release's CRD schema, value constraints and every
    /// `x-kubernetes-validations` rule (common::validate_for evaluates them from the CRDs).
    #[test]
    fn migrate_and_upgrade_outputs_pass_their_target_release_s_crd_rules(job in generated_job(), start in 0..RELEASES.len()) {
        prop_assume!(common::validate(&job).is_ok());
        let text = yaml::join(&yaml::emit(&(&job).into()));
        let from = RELEASES[start];
        let m = explorer_core::migrate::migrate_to(&text, from).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut converted = 0;
        for d in &m.docs {
            if let Outcome::Written { objects, .. } = &d.outcome {
                for o in objects {
                    common::validate_for(&from, o).map_err(|e| TestCaseError::fail(format!("migrate --target {}: {e}\n{text}", from.line)))?;
                    converted += 1;
                }
            }
        }
        if converted == 0 {
            return Ok(());
        }
        let written = m.output_yaml();
        for to in &RELEASES[start..] {
            let u = explorer_core::upgrade::upgrade(&written, from, *to).map_err(|e| TestCaseError::fail(e.to_string()))?;
            for o in common::yaml_docs(&u.output_yaml()) {
                common::validate_for(to, &o)
                    .map_err(|e| TestCaseError::fail(format!("upgrade {} → {}: {e}\n{written}", from.line, to.line)))?;
            }
        }
    }
}

/// The pods a generated job asks for, as the operator counts them (absent `replicas` is 1).
fn generated_pods(job: &Value) -> u64 {
    let field = ["pytorchReplicaSpecs", "xgbReplicaSpecs", "jaxReplicaSpecs", "mpiReplicaSpecs"]
        .into_iter()
        .find_map(|f| job["spec"].get(f).and_then(Value::as_object));
    field.into_iter().flatten().map(|(_, r)| r.get("replicas").and_then(Value::as_u64).unwrap_or(1)).sum()
}

proptest! {
    // Each case runs the V1 operator's model and Trainer's controller model once: 512 cases
    // cover every kind, both MPI versions and the DeepSpeed path in a few seconds (debug).
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// What the V1 operator ran and what Trainer runs for the conversion differ only where a
    /// reason says why (migrate::pods), for any valid generated V1 job the migrator converts. A
    /// job larger than any cluster gets a message, not a hang.
    #[test]
    fn converted_jobs_run_the_same_pods_or_say_why(job in generated_job()) {
        prop_assume!(common::validate(&job).is_ok());
        let text = yaml::join(&yaml::emit(&(&job).into()));
        let m = explorer_core::migrate::migrate(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let d = &m.docs[0];
        let Some(c) = explorer_core::migrate::pods::for_document(d, m.target) else { return Ok(()) };
        // A job the V1 operator never ran (its webhook refuses an XGBoostJob without a Master; no
        // cluster holds more than MAX_PODS pods) has nothing to compare: the comparison says why.
        if let Err(operator_fails) = explorer_core::explain::v1::operate(&job) {
            if generated_pods(&job) > explorer_core::explain::MAX_PODS {
                let too_many = matches!(operator_fails, explorer_core::explain::v1::Error::TooManyPods(_));
                prop_assert!(too_many, "{}", operator_fails);
            }
            prop_assert_eq!(c.err().map(|e| e.to_string()), Some(operator_fails.to_string()));
            return Ok(());
        }
        prop_assert!(generated_pods(&job) <= explorer_core::explain::MAX_PODS, "{} pods compared", generated_pods(&job));
        let c = c.map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        let bad: Vec<String> =
            c.unexplained().map(|d| format!("{} {}: V1 {:?} / V2 {:?}", d.role, d.field, d.v1, d.v2)).collect();
        prop_assert!(bad.is_empty(), "unexplained:\n{}\n{}", bad.join("\n"), text);
    }
}

//! The built-in runtimes match each release's shipped manifests: the release data
//! (crates/data/src/releases.rs) lists exactly the runtimes, labels, policies, steps and images the release's
//! runtimes overlay installs, and the runtimes we build equal the manifests field for field (the
//! base manifests with the overlay applied: image tags and labels, as a cluster gets them).
#![cfg(not(target_arch = "wasm32"))] // Native: reads the reference data from disk.

use explorer_judges as common;

use std::path::{Path, PathBuf};

use serde_json::Value;

use explorer_core::selection::{RuntimeScope, Selection};
use explorer_core::snippets::runtimes::{builtin_runtimes_of, runtime_for};
use explorer_core::snippets::{render, Language};
use explorer_data::catalog::{Framework, LlmModel, Persona, V2Support};
use explorer_data::releases::{Release, NEWEST, RELEASES};

/// Applies manifests/overlays/runtimes (kustomize `images` newTag and `labels` pairs).
fn apply_overlay(mut doc: Value, overlay: &Value) -> Value {
    for pair in overlay["labels"].as_array().into_iter().flatten() {
        for (k, v) in pair["pairs"].as_object().unwrap() {
            doc["metadata"]["labels"][k] = v.clone();
        }
    }
    let images = overlay["images"].as_array().unwrap();
    retag(&mut doc, images);
    doc
}

fn retag(v: &mut Value, images: &[Value]) {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(image)) = map.get_mut("image") {
                if let Some(rule) = images.iter().find(|r| r["name"] == Value::String(image.clone())) {
                    *image = format!("{}:{}", image, rule["newTag"].as_str().unwrap());
                }
            }
            map.values_mut().for_each(|x| retag(x, images));
        }
        Value::Array(items) => items.iter_mut().for_each(|x| retag(x, images)),
        _ => {}
    }
}

/// What a cluster gets from `v2-runtimes/<tag>`: the overlay applied to every base runtime.
fn installed_runtimes(dir: &Path) -> Vec<Value> {
    let overlay = common::read_docs(&dir.join("overlay-kustomization.yaml")).remove(0);
    common::base_runtimes(dir).into_iter().map(|doc| apply_overlay(doc, &overlay)).collect()
}

fn release_dir(release: &Release) -> PathBuf {
    common::reference_dir().join("v2-runtimes").join(release.tag)
}

fn strings_at<'a>(v: &'a Value, key: &str, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(s)) = map.get(key) {
                out.push(s);
            }
            map.values().for_each(|x| strings_at(x, key, out));
        }
        Value::Array(items) => items.iter().for_each(|x| strings_at(x, key, out)),
        _ => {}
    }
}

/// The release entry names the runtimes the manifests install, with their framework label,
/// policy, ancestor steps and the trainer image as the overlay tags it.
fn check_data(release: &Release, shipped: &[Value]) {
    let names = |it: Vec<&str>| {
        let mut v: Vec<String> = it.into_iter().map(String::from).collect();
        v.sort();
        v
    };
    assert_eq!(
        names(release.runtimes.iter().map(|r| r.name).collect()),
        names(shipped.iter().map(|d| d["metadata"]["name"].as_str().unwrap()).collect()),
        "{}: the runtimes the release data lists",
        release.tag
    );
    for data in release.runtimes {
        let doc = shipped.iter().find(|d| d["metadata"]["name"] == data.name).unwrap();
        let label = doc["metadata"]["labels"]["trainer.kubeflow.org/framework"].as_str().unwrap_or("");
        assert_eq!(label, data.framework, "{} {}", release.tag, data.name);
        assert!(doc["spec"]["mlPolicy"].get(data.policy).is_some(), "{} {}: {}", release.tag, data.name, data.policy);
        let mut steps = Vec::new();
        strings_at(&doc["spec"]["template"], "trainer.kubeflow.org/trainjob-ancestor-step", &mut steps);
        assert_eq!(steps, data.steps, "{} {}", release.tag, data.name);
        let mut images = Vec::new();
        strings_at(doc, "image", &mut images);
        assert!(images.contains(&release.image(data.image).as_str()), "{} {}: {images:?}", release.tag, data.name);
        let webhook = &doc["metadata"]["labels"]["trainer.kubeflow.org/webhook-validation"];
        assert_eq!(webhook == "disabled", release.builtins_skip_webhook, "{} {}", release.tag, data.name);
    }
}

/// Every runtime we build for the release equals its installed manifest, field for field.
fn check_built(release: &Release, shipped: &[Value]) {
    let ours: Vec<Value> = builtin_runtimes_of(release).iter().map(common::emitted_tree).collect();
    assert_eq!(ours.len(), shipped.len(), "{}: every shipped runtime is built", release.tag);
    for mine in &ours {
        let name = &mine["metadata"]["name"];
        let theirs = shipped.iter().find(|d| &d["metadata"]["name"] == name).unwrap_or_else(|| panic!("no {name}"));
        assert_eq!(mine, theirs, "{} {name} differs", release.tag);
    }
}

#[test]
fn release_data_matches_every_release_s_manifests() {
    for release in RELEASES {
        check_data(release, &installed_runtimes(&release_dir(release)));
    }
}

#[test]
fn builtins_match_the_shipped_manifests_field_for_field() {
    for release in RELEASES {
        check_built(release, &installed_runtimes(&release_dir(release)));
    }
}

/// Every selection of the platform engineer's view for `release` that shows a built-in: each
/// framework, and for TorchTune each model.
fn builtin_selections(release: &Release, scope: RuntimeScope) -> Vec<Selection> {
    let mut out = Vec::new();
    for framework in Framework::ALL {
        let models: Vec<Option<LlmModel>> =
            if framework == Framework::TorchTune { LlmModel::ALL.map(Some).to_vec() } else { vec![None] };
        for model in models {
            let mut sel = Selection::new(Persona::PlatformEngineer, framework);
            sel.release = *release;
            sel.scope = scope;
            sel.params.model = model;
            if sel.v2_support() == V2Support::BuiltIn {
                out.push(sel);
            }
        }
    }
    out
}

/// The YAML the widget shows for a selection, parsed back: what a reader copies.
fn shown_runtime(sel: &Selection) -> Value {
    let view = render(sel);
    let yaml = view.v2.snippets.iter().find(|s| s.language == Language::Yaml).expect("a runtime snippet");
    let mut docs = common::yaml_docs(&yaml.code);
    assert_eq!(docs.len(), 1, "{sel:?}");
    docs.remove(0)
}

/// What the widget shows as a release's built-in, in the platform engineer's view, is that
/// release's installed manifest, and every installed manifest is shown for some selection.
#[test]
fn the_widget_shows_each_release_s_builtins_as_shipped() {
    for release in RELEASES {
        let shipped = installed_runtimes(&release_dir(release));
        let mut shown = Vec::new();
        for sel in builtin_selections(release, RuntimeScope::Cluster) {
            let mine = shown_runtime(&sel);
            let name = mine["metadata"]["name"].clone();
            let theirs = shipped.iter().find(|d| d["metadata"]["name"] == name);
            let theirs = theirs
                .unwrap_or_else(|| panic!("{} {:?} shows {name}, which it does not ship", release.tag, sel.framework));
            assert_eq!(
                &mine, theirs,
                "{} {:?}: the shown {name} differs from the manifest",
                release.tag, sel.framework
            );
            shown.push(name);
        }
        // All but v2.0's plain-MPI pi demo, which plain MPI deliberately does not use (catalog.rs,
        // Framework::v2_support_in).
        let plain_mpi = release.builtin_for(Framework::Mpi).map(|rt| rt.name);
        for doc in shipped.iter().filter(|d| d["metadata"]["name"].as_str() != plain_mpi) {
            assert!(
                shown.contains(&doc["metadata"]["name"]),
                "{}: {} is never shown",
                release.tag,
                doc["metadata"]["name"]
            );
        }
    }
}

/// The namespaced copy is the installed manifest as a `TrainingRuntime` in the reader's namespace,
/// without the built-ins' webhook opt-out (v2.3+): a runtime the team owns is validated.
#[test]
fn namespaced_copies_are_the_shipped_manifest_in_the_team_s_namespace() {
    for release in RELEASES {
        let shipped = installed_runtimes(&release_dir(release));
        for mut sel in builtin_selections(release, RuntimeScope::Namespaced) {
            sel.params.namespace = Some("team-a".into());
            let mine = shown_runtime(&sel);
            let mut theirs =
                shipped.iter().find(|d| d["metadata"]["name"] == mine["metadata"]["name"]).unwrap().clone();
            theirs["kind"] = "TrainingRuntime".into();
            let meta = theirs["metadata"].as_object_mut().unwrap();
            meta.insert("namespace".into(), "team-a".into());
            if let Some(Value::Object(labels)) = meta.get_mut("labels") {
                labels.remove("trainer.kubeflow.org/webhook-validation");
            }
            assert_eq!(mine, theirs, "{} {:?}", release.tag, sel.framework);
        }
    }
}

/// A custom runtime (plain MPI after v2.1) follows the release's MPI built-ins: the same policy,
/// the same launcher/node order, dependsOn and fsGroup as that release's deepspeed-distributed.
#[test]
fn the_custom_mpi_runtime_follows_the_release_s_mpi_pattern() {
    for release in RELEASES {
        let mut sel = Selection::new(Persona::PlatformEngineer, Framework::Mpi);
        sel.release = *release;
        if sel.v2_support() != V2Support::CustomRuntime {
            continue;
        }
        let mine = common::emitted_tree(&runtime_for(&sel).unwrap());
        let shipped = installed_runtimes(&release_dir(release));
        let deepspeed = shipped.iter().find(|d| d["metadata"]["name"] == "deepspeed-distributed").unwrap();
        assert_eq!(mine["spec"]["mlPolicy"], deepspeed["spec"]["mlPolicy"], "{}", release.tag);
        let shape = |rt: &Value| -> Vec<(Value, Value, Value)> {
            let jobs = rt["spec"]["template"]["spec"]["replicatedJobs"].as_array().unwrap();
            jobs.iter()
                .map(|j| {
                    (
                        j["name"].clone(),
                        j["dependsOn"].clone(),
                        j["template"]["spec"]["template"]["spec"]["securityContext"].clone(),
                    )
                })
                .collect()
        };
        assert_eq!(shape(&mine), shape(deepspeed), "{}", release.tag);
    }
}

/// Adding a release is one data entry plus its reference files: a throwaway v2.4 that copies
/// v2.3's data, with reference files copied from v2.3.0 and retagged as the v2.4 overlay would,
/// passes both runtime checks with no other change, and every V2 pane the widget renders for it
/// names v2.4.0 and no older tag (a tag typed into code rather than read from the entry would).
#[test]
fn a_new_release_is_one_entry_plus_its_reference_files() {
    let v2_4 = Release { line: "v2.4", tag: "v2.4.0", ..NEWEST };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("v2-runtimes").join(v2_4.tag);
    copy_retagged(&release_dir(&NEWEST), &dir, NEWEST.tag, v2_4.tag);
    let shipped = installed_runtimes(&dir);
    check_data(&v2_4, &shipped);
    check_built(&v2_4, &shipped);
    let image = builtin_runtimes_of(&v2_4).iter().map(common::emitted_tree).find_map(|rt| {
        let mut images = Vec::new();
        strings_at(&rt, "image", &mut images);
        images.into_iter().find(|i| i.ends_with(":v2.4.0")).map(String::from)
    });
    assert!(image.is_some(), "the Kubeflow-built images carry the new tag");
    for sel in common::every_selection(&[v2_4]) {
        let view = render(&sel);
        // The V1 pane reads NEWEST, which a real entry at the end of RELEASES becomes; this
        // throwaway one is not in RELEASES, so only the V2 pane can name it.
        let code: String = view.v2.snippets.iter().map(|s| s.code.as_str()).collect();
        let prose = format!("{}\n{}", view.summary, view.v2.heading);
        for older in RELEASES.iter().map(|r| r.tag) {
            assert!(!code.contains(older) && !prose.contains(older), "{sel:?} names {older}:\n{prose}\n{code}");
        }
        assert!(view.v2.heading.ends_with(v2_4.tag), "{}", view.v2.heading);
    }
}

fn copy_retagged(from: &Path, to: &Path, old: &str, new: &str) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_retagged(&entry.path(), &target, old, new);
        } else {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            std::fs::write(target, text.replace(old, new)).unwrap();
        }
    }
}

#[test]
fn the_overlay_test_can_fail() {
    // Guard against a comparison that always passes: a changed image must be noticed.
    let shipped = installed_runtimes(&release_dir(&NEWEST));
    let mlx = shipped.iter().find(|d| d["metadata"]["name"] == "mlx-distributed").unwrap().clone();
    let mut mine = builtin_runtimes_of(&NEWEST)
        .iter()
        .map(common::emitted_tree)
        .find(|rt| rt["metadata"]["name"] == "mlx-distributed")
        .unwrap();
    assert_eq!(mine, mlx);
    mine["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]["containers"][0]
        ["image"] = "x".into();
    assert_ne!(mine, mlx);
}

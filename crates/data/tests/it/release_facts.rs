//! The release facts written outside the post (README.md, the pin lists of scripts/fetch-wheels.sh
//! and scripts/fetch-sdk-venvs.sh) agree with crates/data/src/releases.rs and the catalog's V1 SDK. The
//! scripts run before the CLI is built (scripts/test-all.sh starts them first), so they keep their
//! own list, and this test is what ties it to the data.
#![cfg(not(target_arch = "wasm32"))]

use explorer_data::catalog::{V1_OPERATOR, V1_SDK};
use explorer_data::releases::{NEWEST, RELEASES};
use std::collections::BTreeSet;

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(path)).unwrap()
}

/// `kubeflow-training` and `1.9.4` from "kubeflow-training 1.9.4".
fn v1_sdk() -> (&'static str, &'static str) {
    V1_SDK.split_once(' ').expect("V1_SDK is a package and a version")
}

/// The SDK pins release data asks for: every release's `kubeflow`, and the V1 SDK.
fn expected_pins() -> BTreeSet<String> {
    let (package, version) = v1_sdk();
    RELEASES.iter().map(|r| format!("kubeflow=={}", r.sdk)).chain([format!("{package}=={version}")]).collect()
}

/// The SDK pins in a script's `pins=(...)` list (other packages, such as V1's extras, left out).
fn script_pins(script: &str) -> BTreeSet<String> {
    let text = read(script);
    // The last list: fetch-sdk-venvs.sh first takes its arguments, `pins=("$@")`, then its default.
    let start = text.rfind("pins=(").unwrap_or_else(|| panic!("{script} has a pins=(...) list")) + "pins=(".len();
    let list = &text[start..start + text[start..].find(')').unwrap()];
    list.split_whitespace()
        .filter(|p| p.starts_with("kubeflow==") || p.starts_with("kubeflow-training=="))
        .map(String::from)
        .collect()
}

#[test]
fn the_scripts_pin_the_sdks_the_release_data_pairs() {
    for script in ["scripts/fetch-wheels.sh", "scripts/fetch-sdk-venvs.sh"] {
        assert_eq!(
            script_pins(script),
            expected_pins(),
            "{script}'s pins differ from crates/data/src/releases.rs and V1_SDK"
        );
    }
}

/// Every `v2.N.M` tag a text names, in order.
fn tags(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("v2.") {
        let rest = &text[at..];
        let end = rest[1..].find(|c: char| !(c.is_ascii_digit() || c == '.')).map_or(rest.len(), |e| e + 1);
        let tag = rest[..end].trim_end_matches('.');
        if tag.matches('.').count() == 2 {
            found.push(tag);
        }
    }
    found
}

#[test]
fn the_readme_names_the_releases_from_the_data() {
    let readme = read("README.md");
    let (package, version) = v1_sdk();
    let intro = format!(
        "**Kubeflow Trainer {}** (the runtime, or the TrainJob and Kubeflow SDK {} code) next to\nwhat the same job took with **{V1_OPERATOR}** ({package} {version}).",
        NEWEST.tag, NEWEST.sdk
    );
    assert!(
        readme.contains(&intro),
        "README.md's opening names other releases than crates/data/src/releases.rs:\n{intro}"
    );
    // The CRD validation covers every release: the list names each tag once, oldest first.
    let all: Vec<&str> = RELEASES.iter().map(|r| r.tag).collect();
    let list = format!("({})", all.join(", "));
    assert!(readme.contains(&list), "README.md does not list every release as {list}");
    // Any other tag it names is the newest.
    let elsewhere = readme.replacen(&list, "", 1);
    for tag in tags(&elsewhere) {
        assert_eq!(tag, NEWEST.tag, "README.md names {tag}");
    }
}

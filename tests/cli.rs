//! The CLI as docs maintainers use it.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

fn cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_trainer-explorer")).args(args).output().unwrap()
}

#[test]
fn export_without_query_covers_every_persona_and_framework() {
    let out = cli(&["export", "--format", "json"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["trainer"], "v2.3.0");
    let snippets = json["snippets"].as_array().unwrap();
    for persona in ["platform-engineer", "data-scientist"] {
        for framework in ["pytorch", "deepspeed", "mlx", "jax", "xgboost", "torchtune", "mpi", "tensorflow", "paddle"] {
            let n = snippets.iter().filter(|s| s["persona"] == persona && s["framework"] == framework).count();
            assert!(n >= 1, "{persona}/{framework}");
        }
    }
    for s in snippets {
        for key in ["persona", "framework", "api", "language", "title", "code"] {
            assert!(s[key].is_string(), "{key} missing in {s}");
        }
    }
}

#[test]
fn export_with_a_query_prints_that_selection() {
    let out = cli(&["export", "--format", "json", "--query", "persona=data-scientist&framework=jax&nodes=4"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let snippets = json["snippets"].as_array().unwrap();
    assert!(snippets.iter().all(|s| s["framework"] == "jax" && s["persona"] == "data-scientist"));
    assert!(snippets[0]["code"].as_str().unwrap().contains("numNodes: 4"));
}

#[test]
fn an_invalid_query_exits_1_with_one_line_on_stderr() {
    for q in ["nodes=-7", "persona=<script>", "colour=blue"] {
        let out = cli(&["export", "--format", "json", "--query", q]);
        assert_eq!(out.status.code(), Some(1), "{q}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(out.stdout.is_empty());
    }
}

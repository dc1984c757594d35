//! The converter behind the widget's migrate mode. A separate module because YAML parsing is
//! the heaviest code we ship; the widget loads this only when a reader opens migrate mode.
//! "What Kubernetes runs" for a selection has a smaller module of its own (crates/explain-wasm),
//! and so have the upgrade notes (crates/upgrade-wasm); for a converted TrainJob this module
//! renders "What Kubernetes runs", from the explanation the pod comparison computes anyway
//! (explorer_html::migrate_runs).

use explorer_core::migrate::migrate_to;
use explorer_core::migrate::pods::explained_documents;
use explorer_data::releases::{Release, NEWEST};
use wasm_bindgen::prelude::*;

/// The module's global allocator: linked only if named (crates/migrate-alloc says why it is a
/// crate of its own).
#[cfg(target_arch = "wasm32")]
use trainer_v2_migrate_alloc as _;

/// Converts a V1 YAML stream into objects for the Trainer release line `release` (`v2.1`, the
/// widget's `Selection.release`; left out, the newest); returns `{"error", "yaml", "summary",
/// "html", "objects"}` as JSON. When the input as a whole cannot be read (empty, binary, too
/// large, too deep), or the release is unknown, only `error` is set.
#[wasm_bindgen]
pub fn migrate(text: &str, release: Option<String>) -> String {
    let target = match release {
        Some(line) => Release::from_line(&line)
            .ok_or_else(|| format!("unknown Trainer release {line:?}: the converter cannot write for it")),
        None => Ok(NEWEST),
    };
    let migration = target.and_then(|target| migrate_to(text, target).map_err(|e| e.to_string()));
    let compared = migration.as_ref().map(explained_documents).unwrap_or_default();
    explorer_html::migrate_view::rendered_json(&migration, &compared)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(json: &str) -> serde_json::Value {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn an_unknown_release_is_the_answers_error() {
        let job =
            "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: p}\nspec:\n  pytorchReplicaSpecs:\n    \
                   Worker:\n      template: {spec: {containers: [{name: pytorch, image: a:1}]}}\n";
        assert_eq!(
            answer(&migrate(job, Some("v9".into())))["error"],
            "unknown Trainer release \"v9\": the converter cannot write for it"
        );
        let newest = answer(&migrate(job, None));
        assert_eq!(newest["error"], serde_json::Value::Null);
        let written_for = format!("data-trainer=\"{}\"", NEWEST.tag);
        assert!(newest["objects"].as_str().unwrap().contains(&written_for), "{newest}");
        assert_eq!(answer(&migrate(job, Some(NEWEST.line.into()))), newest);
    }
}

//! The "What Kubernetes runs" module (crates/explain-wasm) and the upgrade notes module (crates/upgrade-wasm) on
//! any query: always one JSON answer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let query = String::from_utf8_lossy(bytes);
    let answer = trainer_v2_explain::explain(&query);
    let _: serde_json::Value = serde_json::from_str(&answer).expect("the explain module answers JSON");
    let notes = trainer_v2_upgrade::upgrade_notes(&query);
    let _: serde_json::Value = serde_json::from_str(&notes).expect("the upgrade notes answer JSON");
});

//! The widget's converter module (crates/migrate-wasm) on any text: always one JSON answer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let text = String::from_utf8_lossy(bytes);
    let answer = trainer_v2_migrate::migrate(&text, None);
    let _: serde_json::Value = serde_json::from_str(&answer).expect("the converter answers JSON");
});

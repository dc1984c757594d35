//! `explain` as the CLI runs it: the door once, then a V1 job's operator or a TrainJob's
//! controller, and the answer as JSON.
#![no_main]

use explorer_core::{explain, pipeline::input, terminal};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = input::text_of(bytes) else { return };
    let Ok(docs) = explain::read::trees(text) else { return };
    if let Some(v1) = explain::v1::explain_trees(&docs) {
        if let Ok(e) = v1 {
            let _ = terminal::json_pretty(&e).expect("JSON");
        }
        return;
    }
    if let Ok(e) = explain::read::explain_trees(docs, explorer_data::releases::NEWEST) {
        let _ = terminal::json_pretty(&e).expect("JSON");
    }
});

//! `upgrade` from the oldest release to the newest, as the CLI runs it.
#![no_main]

use explorer_core::{pipeline::input, terminal, upgrade};
use explorer_data::releases::{NEWEST, RELEASES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = input::text_of(bytes) else { return };
    let Ok(u) = upgrade::upgrade(text, RELEASES[0], NEWEST) else { return };
    assert!(!u.output_yaml().chars().any(terminal::is_hidden), "raw control character in the YAML");
    let _ = u.report_text();
    let _ = terminal::json_pretty(&u.documents_json()).expect("JSON");
});

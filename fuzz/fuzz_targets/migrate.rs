//! `migrate` as the CLI runs it: the door, the conversion, the YAML, the report and the JSON.
//! Nothing it prints for a terminal holds a control character raw.
#![no_main]

use explorer_core::{migrate, pipeline::input, terminal};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = input::text_of(bytes) else { return };
    let target = explorer_data::releases::NEWEST;
    let Ok(m) = migrate::migrate_to(text, target) else { return };
    let yaml = m.output_yaml();
    assert!(!yaml.chars().any(terminal::is_hidden), "raw control character in the YAML");
    let _ = m.report_text();
    let docs: Vec<_> = m.docs.iter().map(|d| migrate::pods::document_json(d, target)).collect();
    let json = terminal::json_pretty(&docs).expect("JSON");
    assert!(!json.chars().any(terminal::is_hidden), "raw control character in the JSON");
});

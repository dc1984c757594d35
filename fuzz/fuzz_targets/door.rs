//! The input door alone: bytes as a file gives them, through `text_of` and `documents`. Never a
//! panic, a hang or a blow-up; an accepted stream keeps within the door's limits; and each
//! document's tree, built from the parser's events as they come, is the one yaml_serde's
//! reading of the whole document builds (`documents_buffered`), as are the errors and refusals;
//! but where yaml_serde would read an alias as another node than the YAML spec names (an anchor's
//! name given twice, `InputError::AnchorReused`), that reading is no reference: there the door
//! reads the spec's node or refuses, and is held to its limits alone.
#![no_main]

use explorer_core::pipeline::input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = input::text_of(bytes) else { return };
    let streamed = input::documents(text);
    if let Ok(docs) = &streamed {
        assert!(!docs.is_empty() && docs.len() <= input::MAX_DOCUMENTS);
    }
    let reference = input::documents_buffered(text);
    if matches!(reference, Err(input::InputError::AnchorReused { .. })) {
        return;
    }
    assert_eq!(answer(streamed), answer(reference), "{text:?}");
});

/// Everything a reader of the door's answer sees: each document's number, line and JSON text (its
/// keys in order), or its error's text and place; or the refusal.
fn answer(read: Result<Vec<input::RawDoc>, input::InputError>) -> Result<Vec<(usize, usize, String)>, String> {
    let docs = read.map_err(|e| e.to_string())?;
    Ok(docs
        .into_iter()
        .map(|doc| {
            let value = match &doc.value {
                Ok(value) => serde_json::to_string(value).unwrap_or_default(),
                Err(e) => format!("error {e} at {:?}", e.location().map(|l| (l.index(), l.line(), l.column()))),
            };
            (doc.index, doc.line, value)
        })
        .collect())
}

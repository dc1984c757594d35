//! The input door alone: bytes as a file gives them, through `text_of` and `documents`. Never a
//! panic, a hang or a blow-up; an accepted stream keeps within the door's limits; and each
//! document's tree, built from the parser's events as they come, is the one yaml_serde's
//! reading of the whole document builds (`documents_buffered`), as are the errors and refusals;
//! but where yaml_serde would read an alias as another node than the YAML spec names (an anchor's
//! name given twice, `InputError::AnchorReused`), that reading is no reference: there the door
//! reads the spec's node or refuses, and is held to its limits alone. A text handed to the door
//! (`accept_given`) reads as the same text borrowed.
#![no_main]

use explorer_core::pipeline::input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = input::text_of(bytes) else { return };
    let streamed = input::documents(text);
    if let Ok(docs) = &streamed {
        assert!(!docs.is_empty() && docs.len() <= input::MAX_DOCUMENTS);
    }
    let streamed = answer(streamed);
    // A text handed to the door (`accept_given`, as the CLI reads a file) reads as the same text
    // borrowed: the fuzz build holds it in blocks of 16 bytes (pipeline/events.rs), so its
    // scalars are read across their blocks' ends. A document only the whole text reads is read
    // again from the file, by `accept`: nothing to compare.
    let given = match input::accept_given_documents(text.to_owned()) {
        Ok(input::Given::Accepted { text: held, accepted }) => {
            Some(Ok(accepted.documents(held.as_deref().unwrap_or_default()).collect()))
        }
        Ok(input::Given::Again) => None,
        Err(e) => Some(Err(e)),
    };
    if let Some(given) = given {
        assert_eq!(answer(given), streamed, "given {text:?}");
    }
    let reference = input::documents_buffered(text);
    if matches!(reference, Err(input::InputError::AnchorReused { .. })) {
        return;
    }
    assert_eq!(streamed, answer(reference), "{text:?}");
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

//! The input door alone: bytes as a file gives them, through `text_of` and `documents`. Never a
//! panic, a hang or a blow-up; an accepted stream keeps within the door's limits.
#![no_main]

use explorer_core::pipeline::input;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = input::text_of(bytes) else { return };
    if let Ok(docs) = input::documents(text) {
        assert!(!docs.is_empty() && docs.len() <= input::MAX_DOCUMENTS);
    }
});

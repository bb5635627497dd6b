//! Strict parsing and JCS on arbitrary bytes: never panics, agrees with serde_json on what it
//! accepts, and canonical output is strict I-JSON and a fixed point.

#![no_main]

use citeproof_model::jcs::{canonicalize, canonicalize_json};
use citeproof_model::json::{MAX_DOCUMENT_BYTES, parse_strict};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let value = match parse_strict(data) {
        Ok(value) => value,
        Err(e) => {
            let offset = e.offset.expect("every error has an offset");
            assert!(offset as usize <= data.len().max(MAX_DOCUMENT_BYTES));
            return;
        }
    };
    // Anything we accept, serde_json accepts with the same value (it has a lower depth limit).
    if let Ok(theirs) = serde_json::from_slice::<serde_json::Value>(data) {
        assert_eq!(value, theirs);
    }
    let canonical = canonicalize(&value);
    let reparsed = parse_strict(&canonical).expect("canonical output must be strict I-JSON");
    assert_eq!(
        canonicalize(&reparsed),
        canonical,
        "canonicalization is not idempotent"
    );
    assert_eq!(
        canonicalize_json(&canonical).as_deref(),
        Ok(canonical.as_slice())
    );
});

//! `json_strict`: the strict I-JSON parser and RFC 8785 JCS.

use citeproof_model::jcs::{canonicalize, canonicalize_json};
use citeproof_model::json::{MAX_DOCUMENT_BYTES, parse_strict, parse_strict_jcs};

/// `parse_strict` and JCS on any bytes. Checks: every parse error has an offset inside the
/// input; whatever is accepted, `serde_json` reads as the same value (a differential against an
/// independent parser, which has a lower depth limit); the canonical form is strict I-JSON and
/// a fixed point of canonicalization, by both entry points; the JCS flag of `parse_strict_jcs`
/// is true exactly when the input is its own canonical form (on the input and on that form).
pub fn json_strict(data: &[u8]) {
    let value = match parse_strict(data) {
        Ok(value) => value,
        Err(e) => {
            let offset = e.offset.expect("every error has an offset");
            assert!(offset as usize <= data.len().max(MAX_DOCUMENT_BYTES));
            return;
        }
    };
    if let Ok(theirs) = serde_json::from_slice::<serde_json::Value>(data) {
        assert_eq!(value, theirs);
    }
    let canonical = canonicalize(&value);
    let (flagged, is_canonical) = parse_strict_jcs(data).expect("parse_strict accepted it");
    assert_eq!(flagged, value);
    assert_eq!(is_canonical, canonical == data, "JCS flag of the input");
    assert_eq!(
        parse_strict_jcs(&canonical).map(|(_, flag)| flag),
        Ok(true),
        "JCS flag of the canonical form"
    );
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
}

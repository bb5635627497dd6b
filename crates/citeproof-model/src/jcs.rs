//! RFC 8785 JSON Canonicalization Scheme.

use serde_json::Value;

use crate::json::{JsonError, parse_strict};

/// The canonical (RFC 8785) bytes of an already-parsed value.
pub fn canonicalize(value: &Value) -> Vec<u8> {
    // A `Value` holds only finite numbers and valid strings, so serialization cannot fail.
    serde_json_canonicalizer::to_vec(value).unwrap_or_default()
}

/// Parses `input` strictly (I-JSON) and returns its canonical bytes.
pub fn canonicalize_json(input: &[u8]) -> Result<Vec<u8>, JsonError> {
    parse_strict(input).map(|v| canonicalize(&v))
}

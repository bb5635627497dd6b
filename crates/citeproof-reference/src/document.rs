//! Offline validation of one document: strict I-JSON parse, schema, typed parse, then the
//! rules of the document's spec crate (unique ids, chain DAG, hash consistency, ...).

use citeproof_model::{Incident, IncidentCode, Location, Severity, json::parse_strict};
use citeproof_schema::{DocumentKind, SchemaValidator};
use serde::Serialize;
use serde_json::Value;

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
    if let Some(incidents) = spec_validator(kind, value) {
        return incidents;
    }
    let validator = match SchemaValidator::cached(kind) {
        Ok(v) => v,
        Err(e) => {
            return vec![Incident::new(
                IncidentCode::SchemaViolation,
                e.to_string(),
                Location::default(),
            )];
        }
    };
    validator.validate(value)
}

/// Kinds whose whole check (schema rules included) is done by their spec crate (the
/// `documents` of its descriptor), so that every violation gets the specific registry code of
/// the profile (reporting rule 2) instead of the schema's generic one. `None`: the schema alone
/// decides.
fn spec_validator(kind: DocumentKind, value: &Value) -> Option<Vec<Incident>> {
    crate::SPECS
        .iter()
        .flat_map(|spec| spec.documents)
        .find(|rule| rule.kind == kind.name())
        .map(|rule| (rule.validate)(value))
}

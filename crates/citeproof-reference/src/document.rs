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

/// Kinds whose whole check (schema rules included) is done by their spec crate, so that every
/// violation gets the specific registry code of the profile (reporting rule 2) instead of the
/// schema's generic one. `None`: the schema alone decides.
fn spec_validator(kind: DocumentKind, value: &Value) -> Option<Vec<Incident>> {
    match kind {
        DocumentKind::AcaManifest => Some(citeproof_aca::validate_manifest_value(value)),
        DocumentKind::AcaDiscovery => Some(citeproof_aca::validate_discovery_value(value)),
        DocumentKind::AefEvidence => Some(citeproof_aef::validate(value)),
        DocumentKind::Ledger => Some(citeproof_ledger::validate_ledger_value(value)),
        DocumentKind::LedgerTemplate => {
            Some(citeproof_ledger::validate_template_ledger_value(value))
        }
        DocumentKind::LedgerAuditRecord | DocumentKind::LedgerTemplateRecord => {
            Some(citeproof_ledger::validate_record_value(value))
        }
        DocumentKind::LedgerApiExport => Some(citeproof_ledger::validate_api_value(value)),
        DocumentKind::ChainEnvelope => Some(citeproof_chain::verify::validate_value(value, false)),
        DocumentKind::ChainResponse => Some(citeproof_chain::verify::validate_value(value, true)),
        _ => None,
    }
}

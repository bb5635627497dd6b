//! Semantic rules per document kind.

use citeproof_model::Incident;
use citeproof_schema::DocumentKind;
use serde_json::Value;

pub(super) fn check(kind: DocumentKind, value: &Value) -> Vec<Incident> {
    let _ = (kind, value);
    Vec::new()
}

/// Kinds whose whole check (schema rules included) is done by their own checker, so that every
/// violation gets the specific registry code of the profile (reporting rule 2) instead of the
/// schema's generic one. `None`: schema, then [`check`].
pub(super) fn replaces_schema(kind: DocumentKind, value: &Value) -> Option<Vec<Incident>> {
    match kind {
        DocumentKind::AcaManifest => Some(crate::aca::validate_manifest_value(value)),
        DocumentKind::AcaDiscovery => Some(crate::aca::validate_discovery_value(value)),
        DocumentKind::AefEvidence => Some(crate::aef::validate(value)),
        _ => None,
    }
}

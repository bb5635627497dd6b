//! `documents`: offline validation of every document kind (`citeproof validate --kind K`).

use citeproof_model::Incident;
use citeproof_model::json::parse_strict;
use citeproof_reference::validate_document;
use citeproof_schema::DocumentKind;
use serde_json::Value;

/// The first byte picks the kind (every [`DocumentKind`]: the spec validators of manifests,
/// discovery documents, evidence, ledgers and their records, chain envelopes and responses, and
/// the schemas of the others); the rest is the document. Checks: `valid` means no error; every
/// incident of a document that parses is located by an RFC 6901 pointer that is well formed and
/// names a place in the document: a value that exists, or a missing member or element of a
/// value that exists.
pub fn documents(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let kind = DocumentKind::ALL[usize::from(which) % DocumentKind::ALL.len()];
    let report = validate_document(kind, rest);
    assert_eq!(
        report.valid,
        report
            .incidents
            .iter()
            .all(|i| i.severity != citeproof_model::Severity::Error)
    );
    let Ok(value) = parse_strict(rest) else {
        return;
    };
    for incident in &report.incidents {
        check_located(&value, incident);
    }
}

fn check_located(value: &Value, incident: &Incident) {
    let Some(pointer) = incident.location.pointer.as_deref() else {
        return;
    };
    assert!(
        pointer.is_empty() || pointer.starts_with('/'),
        "not a JSON pointer: {pointer:?} ({incident:?})"
    );
    let mut tildes = pointer.match_indices('~');
    assert!(
        tildes.all(|(i, _)| matches!(pointer.as_bytes().get(i + 1), Some(b'0' | b'1'))),
        "a `~` not escaped in {pointer:?} ({incident:?})"
    );
    if value.pointer(pointer).is_some() {
        return;
    }
    let parent = pointer.rfind('/').map_or("", |i| &pointer[..i]);
    assert!(
        value.pointer(parent).is_some(),
        "{pointer:?} names no place in the document ({incident:?})"
    );
}

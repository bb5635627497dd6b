//! The spec descriptors are the one list of specs: `SPECS` has one descriptor per `Spec`, in
//! order; operation names and document kinds are claimed once; every kind a descriptor names
//! exists and is routed to its spec crate's check.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;

use citeproof_model::{IncidentCode, vectors::Spec};
use citeproof_reference::{Reference, SPECS, validate_value};
use citeproof_schema::DocumentKind;
use serde_json::json;

#[test]
fn specs_lists_every_spec_once_in_order() {
    let listed: Vec<Spec> = SPECS.iter().map(|d| d.spec).collect();
    assert_eq!(listed, Spec::ALL);
}

#[test]
fn operation_names_and_document_kinds_are_claimed_once() {
    let mut names = BTreeSet::new();
    for op in SPECS.iter().flat_map(|d| d.operations) {
        assert!(names.insert(op.name), "operation {} twice", op.name);
        assert!(
            Reference::new().supports(op.name),
            "{} is not in the reference",
            op.name
        );
        for member in op.output_when_invalid {
            assert!(op.output.contains(member), "{}: {member}", op.name);
        }
    }
    let mut kinds = BTreeSet::new();
    for rule in SPECS.iter().flat_map(|d| d.documents) {
        assert!(kinds.insert(rule.kind), "kind {} twice", rule.kind);
        assert!(
            DocumentKind::from_name(rule.kind).is_some(),
            "{} is no DocumentKind",
            rule.kind
        );
    }
}

/// A routed kind is answered by its spec crate's check, not by the schema alone: a discovery
/// document that is not an object is `aca-discovery-invalid` (ACA-DISC-002; vector
/// `aca-l3-discovery-not-object`) where the schema says `schema-violation`.
#[test]
fn a_routed_kind_gets_its_spec_crates_codes() {
    let doc = json!({"version": 7});
    let codes = |incidents: Vec<citeproof_model::Incident>| -> BTreeSet<String> {
        incidents
            .iter()
            .map(|i| i.code.as_str().to_owned())
            .collect()
    };
    for rule in SPECS.iter().flat_map(|d| d.documents) {
        let kind = DocumentKind::from_name(rule.kind).unwrap();
        assert_eq!(
            codes(validate_value(kind, &doc)),
            codes((rule.validate)(&doc)),
            "{}",
            rule.kind
        );
    }
    let not_object = json!([]);
    let routed = codes(validate_value(DocumentKind::AcaDiscovery, &not_object));
    let schema_only = codes(
        citeproof_schema::SchemaValidator::new(DocumentKind::AcaDiscovery)
            .unwrap()
            .validate(&not_object),
    );
    assert_eq!(
        routed,
        BTreeSet::from([IncidentCode::AcaDiscoveryInvalid.as_str().to_owned()])
    );
    assert_eq!(
        schema_only,
        BTreeSet::from([IncidentCode::SchemaViolation.as_str().to_owned()])
    );
}

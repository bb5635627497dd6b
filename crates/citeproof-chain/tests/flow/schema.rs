//! The validator's hand-written rules (`validate_value`, the `chain-validate` operation) refuse
//! whatever the published JSON Schemas (`schemas/chain-envelope.schema.json`,
//! `chain-response.schema.json`) refuse, so that no document a schema-driven implementation
//! rejects passes here. The schemas are applied by the `jsonschema` crate, an implementation
//! apart from the rules (and checked against Python's `jsonschema` in citeproof-schema's
//! tests). Checked on every JSON document of the chain vectors and on every one-member
//! mutation of a valid envelope and a valid response of the vectors.

use std::path::Path;

use citeproof_chain::verify::validate_value;
use citeproof_model::Severity;
use citeproof_schema::{DocumentKind, SchemaValidator};
use citeproof_testkit::mutation::one_member_mutations;
use serde_json::{Value, json};

/// The kind of a chain document: a response (`answer` and `chains`) or an envelope.
fn kind(doc: &Value) -> Option<(DocumentKind, bool)> {
    let obj = doc.as_object()?;
    if obj.contains_key("chains") {
        Some((DocumentKind::ChainResponse, true))
    } else if obj.contains_key("claim") {
        Some((DocumentKind::ChainEnvelope, false))
    } else {
        None
    }
}

/// Panics with `what` when the schema refuses `doc` and the rules find no error.
fn rules_refuse_what_the_schema_refuses(doc: &Value, what: &str) -> bool {
    let Some((kind, response)) = kind(doc) else {
        return false;
    };
    let refused = SchemaValidator::cached(kind).unwrap().validate(doc);
    if refused.is_empty() {
        return false;
    }
    let errors = validate_value(doc, response)
        .into_iter()
        .filter(|i| i.severity == Severity::Error)
        .count();
    assert!(
        errors > 0,
        "{what}: the schema refuses the document ({}) and the rules pass it: {doc}",
        refused
            .iter()
            .map(|i| format!("{} at {:?}", i.message, i.location.pointer))
            .collect::<Vec<_>>()
            .join("; ")
    );
    true
}

/// Every case of the chain-verify vectors: (id, document, expected valid).
fn verify_cases() -> Vec<(String, Value, bool)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/chain");
    let mut out = Vec::new();
    for level in ["level1", "level2"] {
        let file: Value =
            serde_json::from_slice(&std::fs::read(root.join(level).join("verify.json")).unwrap())
                .unwrap();
        for case in file["cases"].as_array().unwrap() {
            let Some(text) = case["input"]["document"].as_str() else {
                continue;
            };
            let Ok(doc) = serde_json::from_str::<Value>(text) else {
                continue;
            };
            let valid = case["expected"]["result"] == "valid";
            out.push((case["id"].as_str().unwrap().to_owned(), doc, valid));
        }
    }
    out
}

#[test]
fn the_rules_refuse_what_the_schemas_refuse() {
    let cases = verify_cases();
    let refused = cases
        .iter()
        .filter(|(id, doc, _)| rules_refuse_what_the_schema_refuses(doc, id))
        .count();
    assert!(
        refused > 5,
        "only {refused} vector documents refused by a schema"
    );

    let replacements = [
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(2),
        json!(""),
        json!("x"),
        json!("v2"),
        json!("0123456789abcdef"),
        json!("https://example.com/a"),
        json!("ftp://example.com/a"),
        json!("2026-05-01"),
        json!("2026-05-01T00:00:00Z"),
        json!("2026-05-01T00:00:00"),
        json!("hmac-sha256"),
        json!("did:web:example.com"),
        json!("t".repeat(2049)),
        json!([]),
        json!(["x"]),
        json!([{}]),
        json!({}),
    ];
    for kind_wanted in [DocumentKind::ChainEnvelope, DocumentKind::ChainResponse] {
        let (id, base, _) = cases
            .iter()
            .find(|(_, doc, valid)| *valid && kind(doc).map(|k| k.0) == Some(kind_wanted))
            .unwrap();
        let mut refused = 0;
        for (label, doc) in one_member_mutations(base, &replacements) {
            if rules_refuse_what_the_schema_refuses(&doc, &format!("{id} {label}")) {
                refused += 1;
            }
        }
        assert!(
            refused > 20,
            "{id}: only {refused} mutations refused by the schema"
        );
    }
}

//! The hand-written shape checks (src/shape.rs, src/template.rs) and the published schemas
//! (`schemas/ledger*.json`, generated from the model types) accept and reject the same
//! documents: every ledger (citeproof's and the seed template's), record and API export of the
//! ledger vectors.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_ledger::verify::Subject;
use citeproof_ledger::*;
use citeproof_schema::{DocumentKind, SchemaValidator};
use serde_json::Value;

const SHAPE: [&str; 3] = [
    "schema-violation",
    "unknown-member",
    "schema-timestamp-invalid",
];

fn vectors(name: &str) -> Vec<Value> {
    let p = format!(
        "{}/../../vectors/ledger/level1/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    v["cases"].as_array().unwrap().clone()
}

fn schema_ok(kind: DocumentKind, v: &Value) -> bool {
    SchemaValidator::cached(kind)
        .unwrap()
        .validate(v)
        .is_empty()
}

fn record_kind(v: &Value) -> DocumentKind {
    if v.get("claim").is_none() && v.get("text").is_some() {
        DocumentKind::LedgerTemplateRecord
    } else {
        DocumentKind::LedgerAuditRecord
    }
}

#[test]
fn records_agree() {
    let mut lines: Vec<String> = Vec::new();
    for file in ["verify.json", "audit.json"] {
        for c in vectors(file) {
            if let Some(text) = c["input"]["export"].as_str() {
                lines.extend(text.lines().map(|l| l.trim_end_matches('\r').to_owned()));
            }
        }
    }
    let mut checked = 0;
    for line in lines {
        let Ok(value) = citeproof_model::json::parse_strict(line.as_bytes()) else {
            continue;
        };
        if !value.is_object() {
            continue;
        }
        let mut file = line.clone().into_bytes();
        file.push(b'\n');
        let report = audit(&file, &AuditOptions::default());
        let ours = !report
            .incidents
            .iter()
            .any(|i| SHAPE.contains(&i.code.as_str()));
        assert_eq!(ours, schema_ok(record_kind(&value), &value), "{line}");
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn ledgers_and_api_exports_agree() {
    let mut checked = 0;
    for c in vectors("verify.json") {
        let ledger = c["input"]["ledger"].as_str().unwrap();
        let value: Value = serde_json::from_str(ledger).unwrap();
        let api = c["input"]["api"].as_str();
        let r = verify(
            ledger.as_bytes(),
            b"",
            api.map(str::as_bytes),
            &VerifyOptions::default(),
        );
        let shape_errors = |s: Subject| {
            citeproof_ledger::verify::findings(&r)
                .iter()
                .any(|f| f.file == s && SHAPE.contains(&f.incident.code.as_str()))
        };
        // The seed template's ledger (LEDGER-019) has `metadata` and no `ledger_version`.
        let kind = if value.get("metadata").is_some() && value.get("ledger_version").is_none() {
            DocumentKind::LedgerTemplate
        } else {
            DocumentKind::Ledger
        };
        // JSON-003's integer form is lexical (`3.0` is not an integer here); a JSON Schema
        // cannot say so (its integers are numbers with a zero fraction), so on the outside of
        // that boundary the schema accepts what the shape check rejects, and must.
        let lexical_only = c["flags"]
            .as_array()
            .is_some_and(|f| f.iter().any(|x| x == "boundary:integer-form:outside"));
        assert_eq!(
            !shape_errors(Subject::Ledger),
            schema_ok(kind, &value) && !lexical_only,
            "{}",
            c["id"]
        );
        if lexical_only {
            assert!(schema_ok(kind, &value), "{}", c["id"]);
        }
        if let Some(api) = api {
            let v: Value = serde_json::from_str(api).unwrap();
            assert_eq!(
                !shape_errors(Subject::Api),
                schema_ok(DocumentKind::LedgerApiExport, &v),
                "{}",
                c["id"]
            );
        }
        checked += 1;
    }
    assert_eq!(checked, vectors("verify.json").len());
}

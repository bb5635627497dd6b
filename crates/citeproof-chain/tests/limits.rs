//! The chain bounds exceeded: a response with more than `MAX_CHAINS` (1024) envelopes and a
//! claim with more than `MAX_SOURCES` (256) sources are schema violations at their pointer,
//! raised before any envelope or source is checked; one fewer raises nothing there.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_chain::report::ChainReport;
use citeproof_model::IncidentCode;
use serde_json::{Map, Value, json};

const SECRET: &str = "limits test secret, long enough";

fn verify_offline(doc: &Value) -> ChainReport {
    common::verify_offline(doc.to_string().as_bytes(), SECRET)
}

fn schema_violations_at(report: &ChainReport, pointer: &str) -> Vec<String> {
    report
        .verdict
        .incidents
        .iter()
        .filter(|i| {
            i.incident.code == IncidentCode::SchemaViolation
                && i.incident.location.pointer.as_deref() == Some(pointer)
        })
        .map(|i| i.incident.message.clone())
        .collect()
}

fn envelope() -> Value {
    common::signed_envelope(SECRET, json!([{"url": "https://a.example/1"}]))
}

#[test]
fn a_response_with_more_than_1024_envelopes_is_refused_whole() {
    let response = |n: usize| {
        let chains: Map<String, Value> = (0..n).map(|i| (format!("k{i}"), json!({}))).collect();
        json!({"answer": "", "chains": chains})
    };
    let report = verify_offline(&response(1025));
    let found = schema_violations_at(&report, "/chains");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("at most 1024 envelopes, found 1025"),
        "{found:?}"
    );
    assert_eq!(report.verdict.level, 0);
    // 1024 empty envelopes are each checked (and each fails), but `chains` itself is fine.
    let report = verify_offline(&response(1024));
    assert!(schema_violations_at(&report, "/chains").is_empty());
}

#[test]
fn a_claim_with_more_than_256_sources_is_refused() {
    let with_sources = |n: usize| {
        let mut env = envelope();
        env["claim"]["sources"] = Value::Array(
            (0..n)
                .map(|i| json!({"url": format!("https://a.example/{i}")}))
                .collect(),
        );
        env
    };
    let report = verify_offline(&with_sources(257));
    let found = schema_violations_at(&report, "/claim/sources");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("found 257 items"), "{found:?}");
    assert_eq!(report.verdict.level, 0);
    let report = verify_offline(&with_sources(256));
    assert!(schema_violations_at(&report, "/claim/sources").is_empty());
}

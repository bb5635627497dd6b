//! The builder's unit behaviour (moved from `src/builder.rs`); round trips through the verifier
//! are in `roundtrip.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_aca::sign::StepInputs;
use citeproof_ledger::*;
use serde_json::{Map, Value};

fn ledger(config: LedgerConfig) -> AttributionLedger {
    AttributionLedger::new(
        config,
        RunId::new("run-7").unwrap(),
        Box::new(SteppingClock::new(1_777_370_000, 1)),
    )
}

/// A call of `tool` with public inputs and no earlier calls.
fn call(l: &mut AttributionLedger, tool: &str) -> ToolCallId {
    l.tool_call(tool, StepInputs::Public(Map::new()), &[])
        .unwrap()
}

/// `body` fetched from `https://example.com/a` by a new `fetch` call, as `category`.
fn fetched(l: &mut AttributionLedger, body: &[u8], category: &str) -> CaptureId {
    let call = call(l, "fetch");
    l.capture(&call, "https://example.com/a", body.to_vec(), category)
        .unwrap()
}

/// A ledger under `config` with "alpha beta" cited from a fetched "alpha beta gamma" and the
/// uncited "Market grew 4%." that requires proof.
fn alpha_beta(config: LedgerConfig) -> AttributionLedger {
    let mut l = ledger(config);
    let cap = fetched(&mut l, b"alpha beta gamma", "web_fetch");
    let cited = ClaimInput::attributed("alpha beta", cap, Excerpt::quote("alpha beta"));
    l.register(cited).unwrap();
    l.register(ClaimInput::unattributed("Market grew 4%.", true))
        .unwrap();
    l
}

/// The search result `search-77` at one URL, with `body` and `metadata`.
fn search_77(body: &[u8], metadata: Option<Map<String, Value>>) -> CaptureSpec {
    CaptureSpec {
        url: "https://api.search.example/q?id=77".into(),
        body: body.to_vec(),
        category: "web_search".into(),
        identifier: Some("search-77".into()),
        fetched_at: None,
        metadata,
    }
}

#[test]
fn strict_refuses_below_threshold_and_lenient_warns() {
    let mut l = alpha_beta(LedgerConfig::strict());
    l.register(ClaimInput::unattributed("Processed 1 source.", false))
        .unwrap();
    let report = l.audit();
    // Hand derivation (LEDGER-003/004): 3 claims, 2 required, 1 cited, 1/2 = 0.5.
    assert_eq!(
        (
            report.total_claims,
            report.required_claims,
            report.cited_claims
        ),
        (3, 2, 1)
    );
    assert_eq!(report.coverage_score, 0.5);
    assert_eq!(report.uncited_claims, ["Market grew 4%."]);
    assert!(!report.is_compliant);
    assert!(matches!(
        l.build_manifest("agent", false),
        Err(LedgerError::CoverageBelowThreshold { .. })
    ));
    assert!(l.to_document().is_err());

    let l = alpha_beta(LedgerConfig::lenient(0.5).unwrap());
    assert!(l.audit().is_compliant);
    let m = l.build_manifest("agent", true).unwrap();
    assert_eq!(m.claims.len(), 1);
    assert_eq!(m.claims[0].sources[0].excerpt_offset, Some([0, 10]));
    assert!(LedgerConfig::lenient(1.5).is_err());
}

#[test]
fn excerpts_are_located_in_the_bytes() {
    let mut l = ledger(LedgerConfig::strict());
    let cap = fetched(&mut l, "x é y x".as_bytes(), "web");
    assert!(matches!(
        l.register(ClaimInput::attributed("x", cap, Excerpt::quote("x"))),
        Err(LedgerError::ExcerptAmbiguous { count: 2, .. })
    ));
    assert!(matches!(
        l.register(ClaimInput::attributed("z", cap, Excerpt::quote("z"))),
        Err(LedgerError::ExcerptNotFound { .. })
    ));
    // "é" is bytes 2..4; [2, 3) splits it.
    assert!(matches!(
        l.register(ClaimInput::attributed(
            "e",
            cap,
            Excerpt::Bytes { start: 2, end: 3 }
        )),
        Err(LedgerError::ExcerptRange { .. })
    ));
    assert!(
        l.register(ClaimInput::attributed(
            "é",
            cap,
            Excerpt::Bytes { start: 2, end: 4 }
        ))
        .is_ok()
    );
}

#[test]
fn audit_export_is_one_jcs_line_per_claim() {
    let mut l = ledger(LedgerConfig::lenient(0.5).unwrap());
    l.register(ClaimInput::unattributed("a \"quoted\"\nclaim", true))
        .unwrap();
    l.register(ClaimInput::unattributed("b", false)).unwrap();
    let mut out = Vec::new();
    assert_eq!(l.write_audit_jsonl(&mut out).unwrap(), 2);
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    assert_eq!(lines.len(), 2);
    assert!(text.ends_with('\n'));
    let first: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(first["claim"], "a \"quoted\"\nclaim");
    assert_eq!(first["source"], Value::Null);
    assert_eq!(first["requires_proof"], true);
    assert_eq!(first["ledger_id"], "run-7");
}

#[test]
fn thresholds_follow_the_seed() {
    // Seed: `self.coverage_threshold = 1.0 if self.strict_mode else 0.90`.
    assert_eq!(LedgerConfig::strict().threshold, 1.0);
    assert_eq!(LedgerConfig::lenient_default().threshold, 0.90);
    // A threshold of 0 makes every ledger compliant: refused (LEDGER-005).
    for bad in [0.0, -0.1, 1.0000001, f64::NAN, f64::INFINITY] {
        let e = LedgerConfig::lenient(bad).unwrap_err();
        assert_eq!(e.code(), "ledger-invalid-threshold", "{bad}");
    }
    assert!(LedgerConfig::lenient(f64::MIN_POSITIVE).is_ok());
    assert!(LedgerConfig::lenient(1.0).is_ok());
    // A strict configuration with another threshold is refused at the gate.
    let l = ledger(LedgerConfig {
        mode: citeproof_model::ledger::LedgerMode::Strict,
        threshold: 0.9,
    });
    assert_eq!(l.gate().unwrap_err().code(), "ledger-invalid-threshold");
}

fn two_source_ledger() -> AttributionLedger {
    let mut l = ledger(LedgerConfig::lenient_default());
    let search = call(&mut l, "web_search");
    let mut meta = Map::new();
    meta.insert("rank".into(), Value::from(1));
    let a = l
        .capture_with(&search, search_77(b"Q3 shift: 4%", Some(meta)))
        .unwrap();
    l.register(ClaimInput::attributed(
        "Market analysis indicates a 4% shift in Q3.",
        a,
        Excerpt::quote("Q3 shift: 4%"),
    ))
    .unwrap();
    l.register(ClaimInput::unattributed(
        "The pipeline processed 1 source.",
        false,
    ))
    .unwrap();
    l.register(ClaimInput::unattributed("Competitors lag behind.", true))
        .unwrap();
    l
}

#[test]
fn a_source_identifier_names_one_retrieval() {
    let mut l = two_source_ledger();
    let call = call(&mut l, "web_search");
    // Seed pitfall 4: the same identifier for another tool call's retrieval is refused.
    let e = l
        .capture_with(&call, search_77(b"other slice", None))
        .unwrap_err();
    assert_eq!(e.code(), "ledger-source-identifier-reused");
    // Without an identifier, each capture gets its own.
    let c1 = l
        .capture(&call, "https://a.example/", b"x".to_vec(), "web_fetch")
        .unwrap();
    let c2 = l
        .capture(&call, "https://a.example/", b"y".to_vec(), "web_fetch")
        .unwrap();
    assert_ne!(c1, c2);
}

#[test]
fn export_for_api_has_the_seeds_shape() {
    let l = two_source_ledger();
    let api = serde_json::to_value(l.export_for_api()).unwrap();
    // Hand derivation from the seed's `export_for_api`: texts joined by one space; the clock
    // started at 1777370000 (Python: datetime.fromtimestamp(1777370000, timezone.utc) is
    // 2026-04-28T09:53:20+00:00) and stepped 1 s per reading: tool_call (no reading), capture at
    // +0 (fetched_at), register +1, +2, +3.
    assert_eq!(
        api,
        serde_json::json!({
            "ledger_id": "run-7",
            "output_summary": "Market analysis indicates a 4% shift in Q3. The pipeline processed 1 source. Competitors lag behind.",
            "attribution_map": [
                {"claim": "Market analysis indicates a 4% shift in Q3.", "source_id": "search-77",
                 "source_category": "web_search", "timestamp": "2026-04-28T09:53:20Z"},
                {"claim": "The pipeline processed 1 source.", "source_id": null, "source_category": null, "timestamp": null},
                {"claim": "Competitors lag behind.", "source_id": null, "source_category": null, "timestamp": null}
            ]
        })
    );
}

#[test]
fn documents_and_records_carry_the_ledger_id() {
    let l = two_source_ledger();
    // 1 cited of 2 required: 0.5 < 0.90, lenient: the document is still produced.
    let doc = serde_json::to_value(l.to_document().unwrap()).unwrap();
    assert_eq!(doc["ledger_id"], "run-7");
    assert_eq!(doc["coverage"]["coverage_score"], 0.5);
    assert_eq!(doc["coverage"]["is_compliant"], false);
    assert_eq!(doc["claims"][1]["source"], Value::Null);
    assert_eq!(doc["claims"][0]["source"]["tool_call_id"], "call-1");
    assert!(doc["coverage"]["validated_at"].is_string());
    let mut out = Vec::new();
    l.write_audit_jsonl(&mut out).unwrap();
    let lines: Vec<Value> = out
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for (r, c) in lines.iter().zip(doc["claims"].as_array().unwrap()) {
        assert_eq!(r["ledger_id"], "run-7");
        assert_eq!(r["claim"], c["text"]);
        assert_eq!(r["source"], c["source"]);
        assert_eq!(r["requires_proof"], c["requires_attribution"]);
        assert_eq!(r["claim_id"], c["claim_id"]);
    }
    // Strict below the threshold: no emitted document, but the refused one can be kept.
    let mut s = ledger(LedgerConfig::strict());
    s.register(ClaimInput::unattributed("Uncited.", true))
        .unwrap();
    assert_eq!(
        s.to_document().unwrap_err().code(),
        "ledger-coverage-below-threshold"
    );
    let refused = s.document_of_refused().unwrap();
    assert!(!refused.coverage.is_compliant);
    assert_eq!(refused.coverage.uncited_claims, ["Uncited."]);
}

/// The four input refusals the ledger shares with the ACA signer keep each producer's stable
/// code and message (the codes as both error types spelled them before they shared the shape).
#[test]
fn shared_input_refusals_keep_each_producers_codes_and_messages() {
    use citeproof_aca::sign::{InputRefusal, SignError};
    let refusals = [
        (
            InputRefusal::InvalidUrl {
                value: "ftp://x".into(),
                reason: "not http(s)".into(),
            },
            "invalid-url",
            "`ftp://x` is not a web URL: not http(s)",
        ),
        (
            InputRefusal::InvalidId {
                what: "run id",
                value: "a b".into(),
            },
            "invalid-id",
            "invalid run id `a b`",
        ),
        (
            InputRefusal::InvalidValue {
                what: "tool name",
                reason: "empty".into(),
            },
            "invalid-value",
            "invalid tool name: empty",
        ),
        (
            InputRefusal::UnknownHandle {
                what: "capture",
                id: "7".into(),
            },
            "unknown-handle",
            "unknown capture `7`",
        ),
    ];
    for (refusal, code, message) in refusals {
        let sign = SignError::from(refusal.clone());
        assert_eq!(
            (sign.code(), sign.to_string()),
            (format!("sign-{code}").as_str(), message.to_owned())
        );
        let ledger = LedgerError::from(refusal);
        assert_eq!(
            (ledger.code(), ledger.to_string()),
            (format!("ledger-{code}").as_str(), message.to_owned())
        );
        // Through the signer, a refusal keeps the signer's code.
        let via_sign = LedgerError::from(sign);
        assert_eq!(via_sign.code(), format!("sign-{code}"));
    }
}

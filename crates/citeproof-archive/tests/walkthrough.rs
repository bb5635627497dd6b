//! The gate and the verifiers on the fixture archive (vectors/fixtures/archive): the Rust
//! builder reproduces, value for value, what the independent Python gate
//! (vectors/tools/archive_lib.py) wrote to walkthrough.expected.json; the result verifies; and
//! the attacks of issue 10 against it are caught with their codes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use citeproof_archive::build::{GateOptions, gate};
use citeproof_archive::log::{LogOptions, next_record, verify_log};
use citeproof_archive::signature::{Signer, SignerKey, Trust};
use citeproof_archive::{Store, verify_bundle};
use citeproof_jose::{KeySet, SigningKey, load_public_keys};
use citeproof_model::archive::{GateRequest, LogEvent};
use citeproof_model::{ContentHash, IncidentCode, Timestamp, jcs, json::parse_strict};
use serde_json::{Value, json};

fn fixture(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../vectors/fixtures/archive")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn store() -> Store {
    let (store, findings) = Store::load_bytes(&fixture("archive.json"));
    assert!(findings.0.is_empty(), "{:?}", findings.0);
    store.unwrap()
}

fn expected() -> Value {
    parse_strict(&fixture("walkthrough.expected.json")).unwrap()
}

fn signer() -> Signer {
    let seed = hex::decode(expected()["seed_hex"].as_str().unwrap()).unwrap();
    let seed: [u8; 32] = seed.try_into().unwrap();
    Signer {
        signed_by: "archive.example".into(),
        kid: "archive-2026".into(),
        key: SignerKey::Ed25519(SigningKey::from_secret_bytes(&seed)),
    }
}

fn trust() -> Trust {
    let jwks = json!({ "keys": [expected()["public_jwk"].clone()] });
    let keys: KeySet = load_public_keys(&jcs::canonicalize(&jwks)).unwrap();
    let mut t = Trust::default();
    t.add_keys("archive.example", keys);
    t
}

fn gated() -> citeproof_archive::Gated {
    let request: GateRequest = serde_json::from_slice(&fixture("request.json")).unwrap();
    let signer = signer();
    let opts = GateOptions {
        signer: &signer,
        signed_at: Timestamp::parse("2026-05-16T10:00:01Z").unwrap(),
        plaintext_excerpts: false,
    };
    gate(&request, &store(), &opts).unwrap()
}

const NOW: i64 = 1_778_925_900; // 2026-05-16T10:05:00Z

/// `bundle` and `display` verified against the archive fixture with the gate's key, at `NOW`.
fn verified(bundle: &Value, display: &Value) -> citeproof_archive::ArchiveReport {
    let (bundle, display) = (bundle.to_string(), display.to_string());
    verify_bundle(
        bundle.as_bytes(),
        display.as_bytes(),
        &store(),
        &trust(),
        NOW,
    )
}

fn codes(bundle: &Value, display: &Value) -> Vec<IncidentCode> {
    let report = verified(bundle, display);
    let mut c: Vec<IncidentCode> = report
        .verdict
        .incidents
        .iter()
        .map(|i| i.incident.code)
        .collect();
    c.sort();
    c.dedup();
    c
}

#[test]
fn builder_matches_the_independent_python_gate() {
    let g = gated();
    let want = expected();
    assert_eq!(
        g.bundle, want["bundle"],
        "bundle differs from walkthrough.expected.json"
    );
    assert_eq!(
        g.display, want["display"],
        "display differs from walkthrough.expected.json"
    );
    assert_eq!(
        g.bundle_hash.to_string(),
        want["bundle_hash"].as_str().unwrap()
    );
}

#[test]
fn built_response_verifies_and_says_what_it_is() {
    let g = gated();
    let report = verified(&g.bundle, &g.display);
    assert!(report.verdict.verified, "{:#?}", report.verdict.incidents);
    assert!(report.verdict.incidents.is_empty());
    assert_eq!(report.details.signed_by.as_deref(), Some("archive.example"));
    assert_eq!(report.details.kid.as_deref(), Some("archive-2026"));
    // c1..c4, c7 and the general context c8 delivered; c5 (hidden-only) and c6 (no citation)
    // narrowed.
    let rungs: Vec<String> = report
        .details
        .claims
        .iter()
        .map(|c| format!("{}:{:?}:{}", c.claim_id, c.rung, c.counted))
        .collect();
    assert_eq!(
        rungs,
        [
            "c1:Supported:1",
            "c2:Supported:2",
            "c3:Labeled:1",
            "c4:Supported:1",
            "c5:Narrowed:0",
            "c6:Narrowed:0",
            "c7:Supported:2",
            "c8:Labeled:0"
        ]
    );
}

#[test]
fn the_hidden_topic_was_replaced_by_the_neutral_one() {
    // request.json asks for the topic "Her daughter given to the Haugland family in Bergen",
    // which repeats "to the haugland family" of the hidden letter (ARCHIVE-021).
    let g = gated();
    assert_eq!(
        g.display["removed_topics"][0]["topic"],
        citeproof_archive::build::DEFAULT_TOPIC_NO_COVERAGE
    );
}

fn resign(bundle: &mut Value) {
    let obj = bundle.as_object_mut().unwrap();
    obj.remove("signature");
    citeproof_archive::signature::sign(
        obj,
        &signer(),
        &Timestamp::parse("2026-05-16T10:00:01Z").unwrap(),
    );
}

/// `bundle` re-signed, and `display` showing its claim `i`'s text, bound to it.
fn resigned_showing(display: &Value, mut bundle: Value, i: usize) -> (Value, Value) {
    resign(&mut bundle);
    let mut d = display.clone();
    d["claims"][i]["text"] = bundle["claims"][i]["text"].clone();
    rebind(&mut d, &bundle);
    (bundle, d)
}

fn rebind(display: &mut Value, bundle: &Value) {
    display["bundle_hash"] =
        json!(citeproof_model::sha256_bytes(&jcs::canonicalize(bundle)).to_string());
}

#[test]
fn attacks_are_caught() {
    let g = gated();
    // Rung upgraded: the labeled inference (c3) presented as supported.
    let mut b = g.bundle.clone();
    b["claims"][2]["rung"] = json!("supported");
    b["claims"][2].as_object_mut().unwrap().remove("label");
    resign(&mut b);
    let mut d = g.display.clone();
    d["claims"][2]["rung"] = json!("supported");
    d["claims"][2].as_object_mut().unwrap().remove("label");
    rebind(&mut d, &b);
    assert_eq!(codes(&b, &d), [IncidentCode::ArchiveRungMismatch]);

    // Older snapshot consent: the withdrawn diary (c4) shown with its excerpt.
    let mut d = g.display.clone();
    d["claims"][3]["citations"][0]["restricted"] = json!(false);
    d["claims"][3]["citations"][0]["excerpt"] = json!("Bjørn came home from sea after two years.");
    assert_eq!(codes(&g.bundle, &d), [IncidentCode::ArchiveConsentViolated]);

    // Excerpt longer than the researcher tier allows (80): the whole museum note (c7).
    let mut d = g.display.clone();
    d["claims"][4]["citations"][1]["excerpt"] = json!(
        "Notes for the harbour museum: the 1949 ice, the 1956 storm, the 1963 winter. Ask the Lund family for photographs of the boat shed."
    );
    assert_eq!(codes(&g.bundle, &d), [IncidentCode::ArchiveExcerptTooLong]);

    // Review 3, N2: a negated claim keeps its two paraphrase citations.
    let mut b = g.bundle.clone();
    b["claims"][1]["text"] = json!("She never arranged her desks in a half circle.");
    let (b, d) = resigned_showing(&g.display, b, 1);
    assert_eq!(codes(&b, &d), [IncidentCode::ArchiveClaimUnsupported]);

    // Review 3, N1: the whole 88-character passage quoted to a researcher (cap 80).
    let mut b = g.bundle.clone();
    let quote =
        "The harbour froze solid last week, and the boys walked out to the lighthouse on the ice.";
    b["claims"][0]["text"] = json!(format!("In February 1949 she wrote: \"{quote}\""));
    b["claims"][0]["citations"][0]["span"]["char_end"] = json!(88);
    b["claims"][0]["citations"][0]["excerpt_hash"] =
        json!(citeproof_model::sha256_bytes(quote.as_bytes()).to_string());
    let (b, d) = resigned_showing(&g.display, b, 0);
    assert_eq!(codes(&b, &d), [IncidentCode::ArchiveQuoteTooLong]);

    // Review 3, N1: the auditor-only diary entry quoted word for word as c4's claim text.
    let mut b = g.bundle.clone();
    let diary = "9 August 1958. Bjørn came home from sea after two years.";
    b["claims"][3]["text"] = json!(format!("She wrote: \"{diary}\""));
    b["claims"][3]["citations"][0]["relation"] = json!("direct_quote");
    let (b, mut d) = resigned_showing(&g.display, b, 3);
    d["claims"][3]["citations"][0]["relation_label"] = json!("their words");
    assert_eq!(codes(&b, &d), [IncidentCode::ArchiveRestrictedTextShown]);

    // Hidden artifact revealed through the removed topic.
    let mut b = g.bundle.clone();
    b["removed_topics"][0]["topic"] = json!("Her daughter given to the Haugland family in Bergen");
    resign(&mut b);
    let mut d = g.display.clone();
    d["removed_topics"] = b["removed_topics"].clone();
    rebind(&mut d, &b);
    assert_eq!(codes(&b, &d), [IncidentCode::ArchiveHiddenRevealed]);

    // Signature metadata changed.
    let mut b = g.bundle.clone();
    b["signature"]["signedAt"] = json!("2026-05-16T10:00:02Z");
    let mut d = g.display.clone();
    rebind(&mut d, &b);
    assert_eq!(codes(&b, &d), [IncidentCode::ArchiveSignatureInvalid]);

    // A tampered bundle behind an untouched display.
    let mut b = g.bundle.clone();
    b["claims"][1]["text"] = json!("She had her desks in a half circle!");
    assert_eq!(
        codes(&b, &g.display),
        [
            IncidentCode::ArchiveSignatureInvalid,
            IncidentCode::ArchiveDisplayUnbound
        ]
    );
}

fn log_text(records: &[citeproof_model::archive::LogRecord]) -> String {
    records
        .iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect()
}

fn hash(r: &citeproof_model::archive::LogRecord) -> ContentHash {
    citeproof_model::sha256_bytes(&jcs::canonicalize(&serde_json::to_value(r).unwrap()))
}

#[test]
fn log_of_the_walkthrough() {
    let g = gated();
    let ts = |s: &str| Timestamp::parse(s).unwrap();
    let r0 = next_record(None, ts("2026-05-16T10:00:02Z"), g.log_event.clone());
    let r1 = next_record(
        Some((0, hash(&r0))),
        ts("2026-05-16T10:01:00Z"),
        LogEvent::ContextRequest {
            requester: "req-7f3a".into(),
            response_id: "r-2026-05-16-001".into(),
            handle: "Source B".into(),
            requested_chars: 200,
            delivered_chars: 200,
            extensions: Default::default(),
        },
    );
    let records = vec![r0.clone(), r1.clone()];
    let head = Some((1, hash(&r1)));
    let opts = LogOptions { now: NOW, head };
    let bundle = g.bundle.to_string().into_bytes();
    let report = verify_log(
        log_text(&records).as_bytes(),
        &store(),
        std::slice::from_ref(&bundle),
        &opts,
    );
    assert!(
        report.valid && report.incidents.is_empty(),
        "{:#?}",
        report.incidents
    );
    assert_eq!(report.head, head);
    assert_eq!(
        (report.counts.answered, report.counts.context_requests),
        (1, 1)
    );

    // Reordered: the chain breaks and time goes backwards.
    let swapped = vec![r1.clone(), r0.clone()];
    let report = verify_log(
        log_text(&swapped).as_bytes(),
        &store(),
        std::slice::from_ref(&bundle),
        &opts,
    );
    assert!(report.has(IncidentCode::ArchiveLogBroken));
    assert!(report.has(IncidentCode::ArchiveLogTimeInvalid));

    // Edited record at the head: caught by the head only.
    let mut edited = records.clone();
    if let LogEvent::ContextRequest {
        delivered_chars, ..
    } = &mut edited[1].event
    {
        *delivered_chars = 20;
    }
    let report = verify_log(log_text(&edited).as_bytes(), &store(), &[bundle], &opts);
    let codes: Vec<IncidentCode> = report.incidents.iter().map(|i| i.incident.code).collect();
    assert_eq!(codes, [IncidentCode::ArchiveLogHeadMismatch]);
}

#[test]
fn budget_decisions_for_a_producer() {
    use citeproof_archive::budget::decide_request;
    use citeproof_archive::findings::Findings;
    use citeproof_archive::log::read_lines;
    use citeproof_model::archive::BudgetLimit;
    // Policy in force (all snapshots): daily 1200, request cap 400, 6 per hour.
    let store = store();
    let ts = |s: &str| Timestamp::parse(s).unwrap();
    let mut f = Findings::new();
    let lines = read_lines(b"", &mut f);
    let d = decide_request(&lines, &store, "req-7f3a", &ts("2026-05-16T10:00:00Z"), 500);
    assert_eq!(
        (d.allowed, d.exceeded),
        (400, vec![BudgetLimit::RequestCap])
    );
    // Before the first snapshot (2025-11-01) every limit is 0.
    let d = decide_request(&lines, &store, "req-7f3a", &ts("2025-10-01T00:00:00Z"), 10);
    assert_eq!(d.allowed, 0);
    assert_eq!(
        d.exceeded,
        vec![
            BudgetLimit::DailyBudget,
            BudgetLimit::RequestCap,
            BudgetLimit::Rate
        ]
    );
}

/// The common report: one item per claim, each citation a source whose computed hash is the
/// excerpt hash the independent Python gate declared (walkthrough.expected.json); the span text
/// of the hidden artifact (c5) is never in the report; a tampered citation fails its claim and
/// its source with the code, and the other claims stay as they were.
#[test]
fn the_report_shows_each_claim_with_its_citations() {
    let g = gated();
    let want = expected();
    let report = verified(&g.bundle, &g.display);
    assert_eq!(report.spec, "archive");
    assert_eq!(
        report.subject.digest.as_deref(),
        Some(citeproof_model::sha256_bytes(g.bundle.to_string().as_bytes()).to_string()).as_deref()
    );
    assert!(report.trust.signers.contains_key("archive.example"));
    let ids: Vec<&str> = report.items.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"]);
    for (item, claim) in report
        .items
        .iter()
        .zip(want["bundle"]["claims"].as_array().unwrap())
    {
        assert!(item.verified && item.failed.is_empty(), "{item:?}");
        assert_eq!(item.text.as_deref(), claim["text"].as_str());
        assert_eq!(
            item.sources.len(),
            claim["citations"].as_array().unwrap().len()
        );
        for (source, citation) in item
            .sources
            .iter()
            .zip(claim["citations"].as_array().unwrap())
        {
            assert_eq!(Some(source.url.as_str()), citation["artifact_id"].as_str());
            assert_eq!(
                source.declared_hash.as_deref(),
                citation["excerpt_hash"].as_str()
            );
            assert_eq!(source.computed_hash, source.declared_hash);
            if item.id == "c5" {
                assert_eq!(source.excerpt, None, "hidden text in the report");
                assert!(source.locator.as_deref().unwrap().contains("withheld"));
            } else if let Some(excerpt) = &source.excerpt {
                let hash = citeproof_model::sha256_bytes(excerpt.as_bytes()).to_string();
                assert_eq!(Some(hash.as_str()), citation["excerpt_hash"].as_str());
            } else {
                assert!(citation["excerpt_hash"].is_null(), "{source:?}");
            }
        }
    }
    let c1 = &report.items[0].sources[0];
    assert!(
        c1.locator
            .as_deref()
            .unwrap()
            .starts_with("paragraph 1, characters 0..76")
    );

    // A tampered excerpt hash on c2's second citation, re-signed and re-bound.
    let mut b = g.bundle.clone();
    b["claims"][1]["citations"][1]["excerpt_hash"] =
        json!(citeproof_model::sha256_bytes(b"not the span").to_string());
    resign(&mut b);
    let mut d = g.display.clone();
    rebind(&mut d, &b);
    let report = verified(&b, &d);
    assert!(!report.verdict.verified);
    let c2 = &report.items[1];
    assert!(!c2.verified);
    assert_eq!(
        c2.verdict, None,
        "the bundle's rung said of a claim that failed"
    );
    assert_eq!(report.items[0].verdict.as_deref(), Some("supported"));
    assert!(
        c2.failed
            .contains(&"archive-excerpt-hash-mismatch".to_owned()),
        "{c2:?}"
    );
    assert!(!c2.sources[1].verified);
    assert_eq!(c2.sources[1].failed, ["archive-excerpt-hash-mismatch"]);
    assert!(
        !c2.sources[0].verified,
        "a source of a failed claim is not verified"
    );
    assert!(report.items[0].verified, "{:?}", report.items[0]);
    // The signature is checked for the bundle as a whole: without the key, every claim fails
    // with the code.
    let report = verify_bundle(
        g.bundle.to_string().as_bytes(),
        g.display.to_string().as_bytes(),
        &store(),
        &Trust::default(),
        NOW,
    );
    assert!(report.items.iter().all(|i| !i.verified
        && i.failed.contains(&"archive-key-unresolved".to_owned())
        && i.sources.iter().all(|s| !s.verified)));
}

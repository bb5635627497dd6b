//! Issue 23's hostile chain answer: 400,000 `[ce8a...]`-style references in a 6.5 MiB answer
//! once took 1.6 GiB and printed 150 MiB. Every reference is still judged (the verdict is the
//! same as for a short answer), but what is kept and reported is bounded
//! (`MAX_ANSWER_FINDINGS`, profile CHAIN-011 and the Limits table): time and memory stay linear
//! in the answer with a small constant.
//!
//! Memory is the peak resident set of this test process (`VmHWM`, reset before the run; the
//! document itself, 6.5 MiB, is counted too); the binary holds this one test so that no other
//! test runs at the same time.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

mod common;

use citeproof_chain::report::ChainReport;
use citeproof_model::IncidentCode;
use citeproof_testkit::{peak_rss, reset_peak_rss};
use serde_json::{Value, json};

const SECRET: &str = "hostile answer test secret, long";
const MIB: usize = 1 << 20;

fn envelope() -> (String, Value) {
    let envelope = common::signed_envelope(
        SECRET,
        json!([{"url": "https://arxiv.org/abs/1706.03762", "excerpt": "We propose"}]),
    );
    (
        envelope["claim"]["id"].as_str().unwrap().to_owned(),
        envelope,
    )
}

fn verify_offline(document: &[u8]) -> ChainReport {
    common::verify_offline(document, SECRET)
}

fn count(report: &ChainReport, code: IncidentCode) -> usize {
    report
        .verdict
        .incidents
        .iter()
        .filter(|i| i.incident.code == code)
        .count()
}

#[test]
fn four_hundred_thousand_references_cost_their_size_and_keep_the_verdict() {
    let (id, envelope) = envelope();
    let filler = "GPT-4 [ce8a...]. ".repeat(400_000);
    let answer = format!("Introduced in 2017 [{id}]. {filler}Footnote [1].");
    let document = json!({"answer": answer, "chains": {id.clone(): envelope}}).to_string();
    assert!(document.len() > 6 * MIB, "{}", document.len());

    reset_peak_rss();
    let started = Instant::now();
    let report = verify_offline(document.as_bytes());
    let elapsed = started.elapsed();
    let output = serde_json::to_vec(&report).unwrap();
    let peak = peak_rss();

    // The verdict of the short answer: the fabricated prefix is unresolved, so nothing verifies.
    assert_eq!(report.verdict.level, 0);
    assert!(!report.verdict.verified);
    let references = &report.details.references;
    assert_eq!(references[0].text, id);
    assert_eq!(references[1].text, "ce8a...");
    // Kept and reported: a bounded number of findings, then one that says how many were left out.
    assert!(
        references.len() <= 1024,
        "{} references kept",
        references.len()
    );
    assert!(count(&report, IncidentCode::ChainRefUnresolved) <= 1024);
    assert_eq!(count(&report, IncidentCode::ChainAnswerFindingsElided), 1);
    let elided = report
        .verdict
        .incidents
        .iter()
        .find(|i| i.incident.code == IncidentCode::ChainAnswerFindingsElided)
        .unwrap();
    assert!(
        elided
            .incident
            .message
            .contains("400001 claim references (400000 unresolved)"),
        "{}",
        elided.incident.message
    );
    assert!(
        output.len() < 2 * MIB,
        "{} bytes of JSON report",
        output.len()
    );
    // Linear with a small constant: the answer is 6.5 MiB. Quadratic work or a kept finding per
    // reference took 1.6 GiB and minutes; a loaded 2-core CI machine in a debug build stays far
    // under these.
    assert!(peak < 100 * MIB, "peak {} MiB", peak / MIB);
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
    eprintln!(
        "{} bytes: {elapsed:?}, peak {} MiB, {} bytes of JSON",
        document.len(),
        peak / MIB,
        output.len()
    );
}

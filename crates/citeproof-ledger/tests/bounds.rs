//! LEDGER-015 at the real limits: a file over 64 MiB, a line over 1 MiB, more than 200 000
//! records. Each is reported with `ledger-jsonl-too-large` at its line, and the work stops or
//! skips as the profile says.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_ledger::jsonl::{MAX_FILE_BYTES, MAX_LINE_BYTES, MAX_RECORDS};
use citeproof_ledger::*;

const RECORD: &str = r#"{"ledger_id":"run-a","claim":"c","source":null,"requires_proof":false,"logged_at":"2026-05-16T10:00:00Z"}"#;

/// Where `ledger-jsonl-too-large` was raised: about the file, or at a line (which a line that
/// names a ledger reports with that ledger, LEDGER-008).
fn too_large(report: &AuditReport) -> Vec<Option<u64>> {
    report
        .incidents
        .iter()
        .chain(report.ledgers.iter().flat_map(|l| &l.incidents))
        .filter(|i| i.code.as_str() == "ledger-jsonl-too-large")
        .map(|i| i.location.line)
        .collect()
}

#[test]
fn the_limits_are_the_profiles() {
    // PROFILE.md LEDGER-015: 64 MiB, 1 MiB, 200 000.
    assert_eq!(MAX_FILE_BYTES, 67_108_864);
    assert_eq!(MAX_LINE_BYTES, 1_048_576);
    assert_eq!(MAX_RECORDS, 200_000);
}

#[test]
fn a_file_over_64_mib_is_refused_whole() {
    let mut file = Vec::with_capacity(MAX_FILE_BYTES + 1);
    while file.len() + RECORD.len() < MAX_FILE_BYTES {
        file.extend_from_slice(RECORD.as_bytes());
        file.push(b'\n');
    }
    file.resize(MAX_FILE_BYTES + 1, b'\n');
    let report = audit(&file, &AuditOptions::default());
    assert_eq!(too_large(&report), [None]);
    assert!(report.ledgers.is_empty());
    assert!(!report.ok);
}

#[test]
fn a_line_over_1_mib_is_skipped_and_reported_at_its_line() {
    let long_claim = "x".repeat(MAX_LINE_BYTES);
    let long = RECORD.replace("\"c\"", &format!("\"{long_claim}\""));
    let at_limit = RECORD.replace(
        "\"c\"",
        &format!("\"{}\"", "y".repeat(MAX_LINE_BYTES - RECORD.len() + 1)),
    );
    assert_eq!(at_limit.len(), MAX_LINE_BYTES);
    let file = format!("{RECORD}\n{long}\n{at_limit}\n");
    let report = audit(file.as_bytes(), &AuditOptions::default());
    assert_eq!(too_large(&report), [Some(2)]);
    // Lines 1 and 3 are read: a line of exactly 1 MiB is allowed.
    assert_eq!(report.ledgers[0].records, 2);
}

#[test]
fn reading_stops_past_200000_records() {
    let mut file = String::with_capacity((RECORD.len() + 1) * (MAX_RECORDS + 2));
    for _ in 0..MAX_RECORDS + 2 {
        file.push_str(RECORD);
        file.push('\n');
    }
    let started = std::time::Instant::now();
    let report = audit(file.as_bytes(), &AuditOptions::default());
    let took = started.elapsed();
    assert_eq!(too_large(&report), [Some(MAX_RECORDS as u64 + 1)]);
    assert_eq!(report.ledgers[0].records, MAX_RECORDS as u64);
    eprintln!("audit of {MAX_RECORDS} records: {took:?}");
}

#[test]
fn one_huge_source_does_not_make_dedup_quadratic() {
    // A first source with ~900 KB of metadata, then 20 000 small records reusing its
    // identifier with another source: each source is canonicalized once (LEDGER-013, -015).
    // Comparing against the huge one anew for every record would canonicalize ~18 GB.
    let big = format!(
        r#"{{"ledger_id":"run-a","claim":"c","source":{{"identifier":"s","category":"web","fetched_at":"2026-05-16T10:00:00Z","metadata":{{"blob":"{}"}}}},"requires_proof":true,"logged_at":"2026-05-16T10:00:00Z"}}"#,
        "b".repeat(900_000)
    );
    let small = r#"{"ledger_id":"run-a","claim":"c","source":{"identifier":"s","category":"web","fetched_at":"2026-05-16T10:00:01Z"},"requires_proof":true,"logged_at":"2026-05-16T10:00:01Z"}"#;
    let mut file = big;
    file.push('\n');
    for _ in 0..20_000 {
        file.push_str(small);
        file.push('\n');
    }
    let started = std::time::Instant::now();
    let report = audit(file.as_bytes(), &AuditOptions::default());
    let took = started.elapsed();
    let dedup = report.ledgers[0]
        .incidents
        .iter()
        .filter(|i| i.code.as_str() == "ledger-source-deduplicated")
        .count();
    assert_eq!(dedup, 20_000);
    assert!(took.as_secs() < 20, "{took:?}");
}

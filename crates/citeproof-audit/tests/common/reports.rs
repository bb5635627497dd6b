//! Reports of the common shape, hand-written (not produced by the code under test), and the
//! records made of them.

use citeproof_audit::Record;
use serde_json::{Value, json};

pub const DAY: i64 = 86_400;
/// 2026-05-01T00:00:00Z (see citeproof-cli common.rs for the hand count).
pub const T0: i64 = 1_777_593_600;

/// A report of the common shape, hand-written (not produced by the code under test).
pub fn report(spec: &str, subject: &str, outcome: &str, codes: &[&str]) -> Value {
    let verified = outcome == "verified";
    json!({
        "spec": spec,
        "subject": {"kind": "file", "name": subject, "digest": "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        "level": if verified { 2 } else { 1 },
        "required_level": 2,
        "verified": verified,
        "outcome": outcome,
        "incidents": codes.iter().map(|c| json!({
            "level": 2, "code": c, "severity": "error", "message": format!("{c} happened"),
            "location": {"pointer": "/claims/0"}
        })).collect::<Vec<_>>(),
        "trust": {"signers": {"agent": {"keys": [["k1", "thumb"]]}}},
        "items": [{
            "kind": "claim", "id": "c1", "text": "The sky is blue.", "verified": verified,
            "failed": codes,
            "sources": [{"url": "https://example.org/a", "excerpt": "the sky is blue",
                         "declared_hash": "sha256:aa", "computed_hash": "sha256:bb",
                         "verified": verified}]
        }]
    })
}

pub fn rec(spec: &str, subject: &str, outcome: &str, codes: &[&str], at: i64) -> Record {
    Record::from_report(report(spec, subject, outcome, codes), at + 5, at).unwrap()
}

//! The one command-line surface of `chain verify` and `httpsig verify`: the exit statuses a
//! script relies on (0 verified, 1 not verified, 2 usage error, 3 could not check), `--now` in
//! both forms, `--trust FILE`, and `--json` errors as a JSON object.
//!
//! Expected values: the seed 004 example envelope and its secret (vectors/chain, signed by
//! the Python generator), RFC 9421 Appendix B.2.6 (its key, request, signature and base, in
//! crates/citeproof-httpsig/tests/data) and the key's JWK from RFC 9421 Appendix B.1.4.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use serde_json::json;

#[path = "verify_surface/httpsig.rs"]
mod httpsig;
mod kit;
use kit::{cli_in, codes_of, file_in, json_error, vector_case};

// ---- chain ----

/// The seed's example envelope (vectors/chain/level1/verify.json, case
/// `chain-verify-seed-example`) and its secret.
const SEED_SECRET: &str = "seed-004-example-secret-0001";
const SEED_SIGNER: &str = "did:web:sourcescore.org";
/// 2026-05-20T00:00:00Z, the vector's `now` (1779235200 = 20593 days × 86400: 56 years of 365
/// days, 14 leap days, 139 days of 2026 before May 20).
const NOW_UNIX: &str = "1779235200";
const NOW_RFC3339: &str = "2026-05-20T00:00:00Z";

/// A fresh directory with the seed's envelope (`envelope.json`), a tampered copy
/// (`tampered.json`), its secret (`secret.txt`) and a trust file holding it (`trust.json`).
fn seed_envelope() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let case = vector_case("chain/level1/verify.json", "chain-verify-seed-example");
    assert_eq!(case["input"]["now"], json!(1_779_235_200));
    let document = case["input"]["document"].as_str().unwrap();
    let d = dir.path();
    file_in(d, "envelope.json", document);
    let tampered = document.replace("\"confidence\": 1.0", "\"confidence\": 0.9");
    assert_ne!(tampered, document);
    file_in(d, "tampered.json", tampered);
    let trust = json!({"secrets": {SEED_SIGNER: [SEED_SECRET]}});
    file_in(d, "trust.json", trust.to_string());
    file_in(d, "secret.txt", SEED_SECRET);
    dir
}

#[test]
fn chain_verify_exit_statuses_and_the_verdict_line() {
    let dir = seed_envelope();
    let d = dir.path();
    let offline = "chain verify {} --offline --trust trust.json --now {}";
    // 0: verified; the text starts with the verdict line of every verify.
    cli_in(d, offline, &["envelope.json", NOW_UNIX])
        .exits(0)
        .starts("level achieved: 1 (required 1) -> VERIFIED\n");
    // 1: the checks ran and found it wanting.
    cli_in(d, offline, &["tampered.json", NOW_UNIX])
        .exits(1)
        .starts("level achieved: 0 (required 1) -> NOT VERIFIED")
        .says(&["chain-signature-invalid"]);
    // 2: usage (a bad --now, a trust file of the wrong shape).
    cli_in(
        d,
        "chain verify envelope.json --offline --now yesterday",
        &[],
    )
    .exits(2);
    file_in(d, "bad-trust.json", r#"{"secrets": {"x": "not a list"}}"#);
    let bad_trust = "chain verify envelope.json --offline --trust bad-trust.json";
    cli_in(d, bad_trust, &[])
        .exits(2)
        .mentions(&["trust-invalid", "/secrets/x"]);
    // 3: nothing could be checked (an input that cannot be read; a snapshot that is not one;
    // Level 2 sources missing from the snapshot).
    cli_in(d, offline, &["missing.json", NOW_UNIX]).exits(3);
    file_in(d, "not-a-snapshot.json", "{}");
    let snapshot = "chain verify envelope.json --trust trust.json --now {} --snapshot {}";
    cli_in(d, snapshot, &[NOW_UNIX, "not-a-snapshot.json"]).exits(3);
    let empty = json!({
        "snapshot_version": 1,
        "response": {"url": "https://chain.invalid/", "status": 204, "headers": [], "body_base64": ""},
        "resources": {}
    });
    file_in(d, "empty-snapshot.json", empty.to_string());
    cli_in(d, snapshot, &[NOW_UNIX, "empty-snapshot.json"])
        .exits(3)
        .starts("level achieved: 1 (required 2) -> COULD NOT CHECK (not verified)");
}

#[test]
fn chain_verify_now_in_both_forms_and_trust_file_or_flags() {
    let dir = seed_envelope();
    let d = dir.path();
    let by_trust = "chain verify envelope.json --offline --trust {} --now {} --json";
    for now in [NOW_UNIX, NOW_RFC3339] {
        let v = cli_in(d, by_trust, &["trust.json", now]).exits(0).json();
        assert_eq!(v["outcome"], "verified");
    }
    // The envelope's signedAt is 2026-05-16T00:00:00Z: a verification time an hour before it
    // (beyond the 300 s skew) finds a date in the future, in either form.
    for now in ["1778886000", "2026-05-15T23:00:00Z"] {
        let v = cli_in(d, by_trust, &["trust.json", now]).exits(1).json();
        assert!(
            codes_of(&v).contains(&"chain-date-in-future"),
            "{now}: {v:#}"
        );
    }
    // The trust file and the shorthand flags give the same verdict; the report names the
    // signer and the secret by position, never the secret itself.
    let by_file = cli_in(d, by_trust, &["trust.json", NOW_UNIX])
        .exits(0)
        .json();
    let flags = "chain verify envelope.json --offline --hmac-key-file secret.txt --signed-by {} \
                 --now {} --json";
    let by_flags = cli_in(d, flags, &[SEED_SIGNER, NOW_UNIX]).exits(0).json();
    for v in [&by_file, &by_flags] {
        assert_eq!(v["spec"], "chain");
        assert_eq!(
            v["trust"]["signers"][SEED_SIGNER]["secrets"],
            json!(["secret 1"])
        );
        assert!(!v.to_string().contains(SEED_SECRET));
        assert_eq!(v["items"][0]["kind"], "envelope");
        assert_eq!(v["items"][0]["id"], "ad17e76a8baad7a1");
        assert_eq!(v["items"][0]["verdict"], "verified");
        assert_eq!(
            v["items"][0]["sources"][0]["url"],
            "https://arxiv.org/abs/1706.03762"
        );
        assert_eq!(v["subject"]["name"], "envelope.json");
    }
    // A trust file for another signer: no key for this one.
    let other = json!({"secrets": {"did:web:other.example": [SEED_SECRET]}});
    file_in(d, "other.json", other.to_string());
    let v = cli_in(d, by_trust, &["other.json", NOW_UNIX])
        .exits(1)
        .json();
    assert_eq!(v["incidents"][0]["code"], "chain-key-unresolved");
}

#[test]
fn chain_verify_json_errors_are_json_objects() {
    let dir = seed_envelope();
    let d = dir.path();
    file_in(d, "bad-trust.json", "[]");
    for (line, status, error) in [
        (
            "chain verify missing.json --offline --json",
            3,
            "input-unreadable",
        ),
        (
            "chain verify envelope.json --offline --trust bad-trust.json --json",
            2,
            "usage",
        ),
        ("chain verify envelope.json --now soon --json", 2, "usage"),
        (
            "chain verify envelope.json --offline --trust nowhere.json --json",
            3,
            "input-unreadable",
        ),
    ] {
        json_error(d, line, status, error);
    }
}

// ---- httpsig ----

fn ledger_fixture(name: &str) -> String {
    kit::fixture_in("ledger", name)
}

/// 2026-05-16T11:13:20Z, after every timestamp of run-a (its last record is logged at
/// 2026-05-16T10:00:21+00:00).
const LEDGER_NOW: &str = "1778930000";

#[test]
fn ledger_verify_exit_statuses_now_and_json_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ledger = ledger_fixture("ledger-run-a.json");
    let audit = ledger_fixture("audit-two-runs.jsonl");
    let tampered = std::fs::read_to_string(&audit).unwrap().replacen(
        "Costs fell by 2%",
        "Costs fell by 20%",
        1,
    );
    file_in(d, "tampered.jsonl", tampered);
    let verify = |audit: &str, extra: &str| {
        let line = format!("ledger verify {{}} --audit {{}} {extra}");
        cli_in(d, &line, &[&ledger, audit])
    };
    // 0, --now in both forms (2026-05-16T11:13:20Z = 1778930000).
    for now in [LEDGER_NOW, "2026-05-16T11:13:20Z"] {
        verify(&audit, &format!("--now {now}"))
            .exits(0)
            .starts("level achieved: 1 (required 1) -> VERIFIED\n")
            .never_says(&["ledger-timestamp-future"]);
    }
    // An hour before the records were logged, in either form: timestamps in the future
    // (a warning, LEDGER-017).
    for now in ["1778918400", "2026-05-16T08:00:00Z"] {
        verify(&audit, &format!("--now {now}")).mentions(&["ledger-timestamp-future"]);
    }
    // 1: a record edited.
    verify("tampered.jsonl", &format!("--now {LEDGER_NOW}"))
        .exits(1)
        .starts("level achieved: 0 (required 1) -> NOT VERIFIED\n");
    // The JSON report: the common shape, one item per claim, each incident with its input.
    let v = verify("tampered.jsonl", &format!("--now {LEDGER_NOW} --json"))
        .exits(1)
        .json();
    assert_eq!(
        (v["spec"].clone(), v["outcome"].clone()),
        (json!("ledger"), json!("not-verified"))
    );
    assert_eq!(v["incidents"][0]["file"], "audit");
    assert_eq!(v["incidents"][0]["code"], "ledger-jsonl-record-mismatch");
    assert_eq!(v["items"][1]["kind"], "claim");
    assert_eq!(
        v["items"][1]["text"],
        "Costs fell by 2% in the same quarter."
    );
    // 2: usage (a bad --now; --trust, since a ledger carries no signature).
    file_in(d, "trust.json", "{}");
    for extra in ["--now noon", "--trust trust.json"] {
        verify(&audit, extra).exits(2);
        let v = verify(&audit, &format!("--json {extra}")).exits(2).json();
        assert_eq!(v["error"]["code"], "usage", "{extra}");
    }
    // 3: an input that cannot be read, in text and in JSON.
    verify("missing.jsonl", &format!("--now {LEDGER_NOW}")).exits(3);
    let v = verify("missing.jsonl", "--json").exits(3).json();
    assert_eq!(v["error"]["code"], "input-unreadable");
}

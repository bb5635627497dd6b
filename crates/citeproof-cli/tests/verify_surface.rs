//! The one command-line surface of `chain verify` and `httpsig verify`: the exit statuses a
//! script relies on (0 verified, 1 not verified, 2 usage error, 3 could not check), `--now` in
//! both forms, `--trust FILE`, and `--json` errors as a JSON object.
//!
//! Expected values: the seed 004 example envelope and its secret (vectors/chain, signed by
//! the Python generator), RFC 9421 Appendix B.2.6 (its key, request, signature and base, in
//! crates/citeproof-httpsig/tests/data) and the key's JWK from RFC 9421 Appendix B.1.4.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

#[path = "verify_surface/httpsig.rs"]
mod httpsig;
mod kit;
use kit::{citeproof, words};

/// The status and stdout followed by stderr.
fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    let (code, out, err) = kit::run(dir, args);
    (code, format!("{out}{err}"))
}

fn json_of(dir: &Path, args: &[&str]) -> (i32, Value) {
    let out = citeproof().current_dir(dir).args(args).output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not one JSON object ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    (out.status.code().unwrap_or(-1), v)
}

// ---- chain ----

/// The seed's example envelope (vectors/chain/level1/verify.json, case
/// `chain-verify-seed-example`) and its secret.
const SEED_SECRET: &str = "seed-004-example-secret-0001";
const SEED_SIGNER: &str = "did:web:sourcescore.org";
/// 2026-05-20T00:00:00Z, the vector's `now` (1779235200 = 20593 days × 86400: 56 years of 365
/// days, 14 leap days, 139 days of 2026 before May 20).
const NOW_UNIX: &str = "1779235200";
const NOW_RFC3339: &str = "2026-05-20T00:00:00Z";

fn seed_envelope(dir: &Path) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/chain/level1/verify.json");
    let vectors: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let case = vectors["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "chain-verify-seed-example")
        .unwrap();
    assert_eq!(case["input"]["now"], json!(1_779_235_200));
    let document = case["input"]["document"].as_str().unwrap();
    std::fs::write(dir.join("envelope.json"), document).unwrap();
    let tampered = document.replace("\"confidence\": 1.0", "\"confidence\": 0.9");
    assert_ne!(tampered, document);
    std::fs::write(dir.join("tampered.json"), tampered).unwrap();
    let trust = json!({"secrets": {SEED_SIGNER: [SEED_SECRET]}});
    std::fs::write(dir.join("trust.json"), trust.to_string()).unwrap();
    std::fs::write(dir.join("secret.txt"), SEED_SECRET).unwrap();
}

#[test]
fn chain_verify_exit_statuses_and_the_verdict_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    seed_envelope(d);
    let offline = ["--offline", "--trust", "trust.json", "--now", NOW_UNIX];
    // 0: verified; the text starts with the verdict line of every verify.
    let (code, out) = run(
        d,
        &[&["chain", "verify", "envelope.json"][..], &offline].concat(),
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("level achieved: 1 (required 1) -> VERIFIED\n"),
        "{out}"
    );
    // 1: the checks ran and found it wanting.
    let (code, out) = run(
        d,
        &[&["chain", "verify", "tampered.json"][..], &offline].concat(),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("level achieved: 0 (required 1) -> NOT VERIFIED"),
        "{out}"
    );
    assert!(out.contains("chain-signature-invalid"), "{out}");
    // 2: usage (a bad --now, a trust file of the wrong shape).
    let (code, out) = run(
        d,
        &words("chain verify envelope.json --offline --now yesterday", &[]),
    );
    assert_eq!(code, 2, "{out}");
    std::fs::write(
        d.join("bad-trust.json"),
        r#"{"secrets": {"x": "not a list"}}"#,
    )
    .unwrap();
    let (code, out) = run(
        d,
        &words(
            "chain verify envelope.json --offline --trust bad-trust.json",
            &[],
        ),
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("trust-invalid") && out.contains("/secrets/x"),
        "{out}"
    );
    // 3: nothing could be checked (an input that cannot be read; a snapshot that is not one;
    // Level 2 sources missing from the snapshot).
    let (code, out) = run(
        d,
        &[&["chain", "verify", "missing.json"][..], &offline].concat(),
    );
    assert_eq!(code, 3, "{out}");
    std::fs::write(d.join("not-a-snapshot.json"), "{}").unwrap();
    let (code, out) = run(
        d,
        &words(
            "chain verify envelope.json --trust trust.json --now {} --snapshot not-a-snapshot.json",
            &[NOW_UNIX],
        ),
    );
    assert_eq!(code, 3, "{out}");
    let empty = json!({
        "snapshot_version": 1,
        "response": {"url": "https://chain.invalid/", "status": 204, "headers": [], "body_base64": ""},
        "resources": {}
    });
    std::fs::write(d.join("empty-snapshot.json"), empty.to_string()).unwrap();
    let (code, out) = run(
        d,
        &words(
            "chain verify envelope.json --trust trust.json --now {} --snapshot empty-snapshot.json",
            &[NOW_UNIX],
        ),
    );
    assert_eq!(code, 3, "{out}");
    assert!(
        out.starts_with("level achieved: 1 (required 2) -> COULD NOT CHECK (not verified)"),
        "{out}"
    );
}

#[test]
fn chain_verify_now_in_both_forms_and_trust_file_or_flags() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    seed_envelope(d);
    for now in [NOW_UNIX, NOW_RFC3339] {
        let (code, v) = json_of(
            d,
            &words(
                "chain verify envelope.json --offline --trust trust.json --now {} --json",
                &[now],
            ),
        );
        assert_eq!(code, 0, "{now}: {v:#}");
        assert_eq!(v["outcome"], "verified");
    }
    // The envelope's signedAt is 2026-05-16T00:00:00Z: a verification time an hour before it
    // (beyond the 300 s skew) finds a date in the future, in either form.
    for now in ["1778886000", "2026-05-15T23:00:00Z"] {
        let (code, v) = json_of(
            d,
            &words(
                "chain verify envelope.json --offline --trust trust.json --now {} --json",
                &[now],
            ),
        );
        assert_eq!(code, 1, "{now}: {v:#}");
        assert!(
            v["incidents"]
                .as_array()
                .unwrap()
                .iter()
                .any(|i| i["code"] == "chain-date-in-future"),
            "{now}: {v:#}"
        );
    }
    // The trust file and the shorthand flags give the same verdict; the report names the
    // signer and the secret by position, never the secret itself.
    let (code, by_file) = json_of(
        d,
        &words(
            "chain verify envelope.json --offline --trust trust.json --now {} --json",
            &[NOW_UNIX],
        ),
    );
    assert_eq!(code, 0);
    let (code, by_flags) = json_of(
        d,
        &words(
            "chain verify envelope.json --offline --hmac-key-file secret.txt --signed-by {} --now {} --json",
            &[SEED_SIGNER, NOW_UNIX],
        ),
    );
    assert_eq!(code, 0);
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
    std::fs::write(
        d.join("other.json"),
        json!({"secrets": {"did:web:other.example": [SEED_SECRET]}}).to_string(),
    )
    .unwrap();
    let (code, v) = json_of(
        d,
        &words(
            "chain verify envelope.json --offline --trust other.json --now {} --json",
            &[NOW_UNIX],
        ),
    );
    assert_eq!(code, 1);
    assert_eq!(v["incidents"][0]["code"], "chain-key-unresolved");
}

#[test]
fn chain_verify_json_errors_are_json_objects() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    seed_envelope(d);
    std::fs::write(d.join("bad-trust.json"), "[]").unwrap();
    for (args, code, error) in [
        (
            vec!["chain", "verify", "missing.json", "--offline", "--json"],
            3,
            "input-unreadable",
        ),
        (
            vec![
                "chain",
                "verify",
                "envelope.json",
                "--offline",
                "--trust",
                "bad-trust.json",
                "--json",
            ],
            2,
            "usage",
        ),
        (
            vec![
                "chain",
                "verify",
                "envelope.json",
                "--now",
                "soon",
                "--json",
            ],
            2,
            "usage",
        ),
        (
            vec![
                "chain",
                "verify",
                "envelope.json",
                "--offline",
                "--trust",
                "nowhere.json",
                "--json",
            ],
            3,
            "input-unreadable",
        ),
    ] {
        let (status, v) = json_of(d, &args);
        assert_eq!(status, code, "{args:?}: {v:#}");
        assert_eq!(v["ok"], false, "{args:?}: {v:#}");
        assert_eq!(v["error"]["code"], error, "{args:?}: {v:#}");
    }
}

// ---- httpsig ----

fn ledger_fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../vectors/fixtures/ledger")
        .join(name)
        .to_string_lossy()
        .into_owned()
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
    std::fs::write(d.join("tampered.jsonl"), tampered).unwrap();
    let verify = |audit: &str, extra: &[&str]| {
        run(
            d,
            &[
                &["ledger", "verify", ledger.as_str(), "--audit", audit][..],
                extra,
            ]
            .concat(),
        )
    };
    // 0, --now in both forms (2026-05-16T11:13:20Z = 1778930000).
    for now in [LEDGER_NOW, "2026-05-16T11:13:20Z"] {
        let (code, out) = verify(&audit, &["--now", now]);
        assert_eq!(code, 0, "{now}: {out}");
        assert!(
            out.starts_with("level achieved: 1 (required 1) -> VERIFIED\n"),
            "{out}"
        );
        assert!(!out.contains("ledger-timestamp-future"), "{out}");
    }
    // An hour before the records were logged, in either form: timestamps in the future
    // (a warning, LEDGER-017).
    for now in ["1778918400", "2026-05-16T08:00:00Z"] {
        let (_, out) = verify(&audit, &["--now", now]);
        assert!(out.contains("ledger-timestamp-future"), "{now}: {out}");
    }
    // 1: a record edited.
    let (code, out) = verify("tampered.jsonl", &["--now", LEDGER_NOW]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("level achieved: 0 (required 1) -> NOT VERIFIED\n"),
        "{out}"
    );
    // The JSON report: the common shape, one item per claim, each incident with its input.
    let (code, v) = json_of(
        d,
        &words(
            "ledger verify {} --audit tampered.jsonl --now {} --json",
            &[&ledger, LEDGER_NOW],
        ),
    );
    assert_eq!(code, 1);
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
    std::fs::write(d.join("trust.json"), "{}").unwrap();
    for extra in [&["--now", "noon"][..], &["--trust", "trust.json"][..]] {
        let (code, out) = verify(&audit, extra);
        assert_eq!(code, 2, "{extra:?}: {out}");
        let (code, v) = json_of(
            d,
            &[
                &words(
                    "ledger verify {} --audit {} --json",
                    &[ledger.as_str(), audit.as_str()],
                )[..],
                extra,
            ]
            .concat(),
        );
        assert_eq!(
            (code, v["error"]["code"].clone()),
            (2, json!("usage")),
            "{extra:?}"
        );
    }
    // 3: an input that cannot be read, in text and in JSON.
    let (code, out) = verify("missing.jsonl", &["--now", LEDGER_NOW]);
    assert_eq!(code, 3, "{out}");
    let (code, v) = json_of(
        d,
        &words("ledger verify {} --audit missing.jsonl --json", &[&ledger]),
    );
    assert_eq!(
        (code, v["error"]["code"].clone()),
        (3, json!("input-unreadable"))
    );
}

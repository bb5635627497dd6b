//! `citeproof chain id|sign|verify`: outputs and exit codes (0 ok / verified, 1 invalid or not
//! verified, 2 usage errors, 3 could not check), with typed, located errors on bad input.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use serde_json::Value;

#[path = "chain/answers.rs"]
mod answers;
mod kit;
use kit::{CHAIN_CLAIM as CLAIM, CHAIN_SIGNER as SIGNER, Ran, cli_in, file_in};

const NOW: &str = "1779235200";

fn setup(dir: &Path) {
    file_in(dir, "claim.json", CLAIM);
    file_in(dir, "secret.txt", "a producer's shared secret 2026\n");
}

fn sign_hmac(dir: &Path) -> String {
    let (status, out, err) = kit::sign_chain_envelope(dir);
    assert_eq!(status, 0, "{err}");
    out
}

/// `chain verify FILE` in `dir`, offline at [`NOW`], with `secret.txt` for [`SIGNER`] and the
/// options `extra` (words).
fn verify(dir: &Path, file: &str, extra: &str) -> Ran {
    let line = format!(
        "chain verify {{}} --hmac-key-file secret.txt --signed-by {{}} --offline --now {{}} {extra}"
    );
    cli_in(dir, &line, &[file, SIGNER, NOW])
}

#[test]
fn id_prints_the_seeds_id() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let ran = cli_in(dir.path(), "chain id claim.json", &[]).exits(0);
    assert_eq!(ran.out, "ad17e76a8baad7a1\n");
    let wrong = CLAIM.replacen('{', "{\"id\": \"0123456789abcdef\",", 1);
    file_in(dir.path(), "wrong.json", wrong);
    let v = cli_in(dir.path(), "chain id wrong.json --json", &[])
        .exits(1)
        .json();
    assert_eq!(v["id"], "ad17e76a8baad7a1");
    assert_eq!(v["written_id"], "0123456789abcdef");
    assert_eq!(v["ok"], false);
}

#[test]
fn bad_input_gets_a_typed_error_with_a_location() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    file_in(
        dir.path(),
        "dup.json",
        "{\"vertical\":\"a\",\"vertical\":\"b\"}",
    );
    let novertical = r#"{"subject":"s","predicate":"p","object":"o"}"#;
    file_in(dir.path(), "novertical.json", novertical);
    file_in(dir.path(), "binary.json", [0xffu8, 0xfe, 0x00]);
    for (line, want) in [
        (
            "chain id dup.json",
            "dup.json: [json-duplicate-member] at /vertical (byte 16)",
        ),
        (
            "chain id novertical.json",
            "novertical.json: [schema-violation] at /vertical",
        ),
        (
            "chain id binary.json",
            "binary.json: [json-invalid-utf8] (byte 0)",
        ),
        (
            &format!("chain sign dup.json --hmac-key-file secret.txt --signed-by {SIGNER}"),
            "[json-duplicate-member]",
        ),
        (
            &format!("chain verify binary.json --offline --now {NOW}"),
            "L1 error [json-invalid-utf8] at byte 0",
        ),
    ] {
        let ran = cli_in(dir.path(), line, &[]).exits(1);
        let all = format!("{}{}", ran.out, ran.err);
        assert!(all.contains(want), "{line}: {all}");
        assert!(!all.contains("panicked"), "{all}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    file_in(dir.path(), "short.txt", "short\n");
    // A file that cannot be read: nothing was checked (3).
    cli_in(dir.path(), "chain verify missing.json --offline", &[]).exits(3);
    for line in [
        // Several secrets without the signer they belong to (one is allowed: any signer).
        "chain verify claim.json --hmac-key-file secret.txt --hmac-key-file secret.txt",
        &format!("chain sign claim.json --hmac-key-file short.txt --signed-by {SIGNER}"),
        "chain sign claim.json --hmac-key-file secret.txt --signed-by not-a-did",
        &format!("chain sign claim.json --signed-by {SIGNER}"),
        "chain verify claim.json --offline --level 2",
    ] {
        cli_in(dir.path(), line, &[]).exits(2);
    }
}

#[test]
fn sign_then_verify_and_a_tampered_copy_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let printed = sign_hmac(dir.path());
    let written = std::fs::read_to_string(dir.path().join("envelope.json")).unwrap();
    assert_eq!(printed, written, "--out writes the printed bytes");
    verify(dir.path(), "envelope.json", "").exits(0).says(&[
        "level achieved: 1 (required 1) -> VERIFIED",
        "verified over seed-python with secret 1",
    ]);

    let tampered = written.replace(
        "https://arxiv.org/abs/1706.03762",
        "https://attacker.example/",
    );
    file_in(dir.path(), "tampered.json", tampered);
    let v = verify(dir.path(), "tampered.json", "--json")
        .exits(1)
        .json();
    assert_eq!(v["command"], "chain verify");
    assert_eq!(v["ok"], false);
    assert_eq!(v["incidents"][0]["code"], "chain-signature-invalid");
    assert_eq!(
        v["incidents"][0]["location"]["pointer"],
        "/signature/signature"
    );
    assert_eq!(v["envelopes"][0]["verdict"], "tampered");

    // Trust is bound to the signer: the right secret configured for another signer is no key.
    let line = "chain verify envelope.json --hmac-key-file secret.txt \
                --signed-by did:web:other.example --offline --now {} --json";
    let v = cli_in(dir.path(), line, &[NOW]).exits(1).json();
    assert_eq!(v["incidents"][0]["code"], "chain-key-unresolved");
}

#[test]
fn ed25519_with_rotated_keys_from_a_trust_file() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    for (name, kid) in [("old", "2025"), ("new", "2026")] {
        cli_in(dir.path(), "keygen --out {} --kid {}", &[name, kid]).exits(0);
    }
    let sign = "chain sign claim.json --key new/private.pem --signed-by {} \
                --signed-at 2026-05-16T00:00:00Z --out ed.json";
    cli_in(dir.path(), sign, &[SIGNER]).exits(0);
    let jwks = |name: &str| -> Value {
        serde_json::from_slice(&std::fs::read(dir.path().join(name).join("jwks.json")).unwrap())
            .unwrap()
    };
    let mut keys = jwks("old")["keys"].as_array().unwrap().clone();
    keys.extend(jwks("new")["keys"].as_array().unwrap().iter().cloned());
    let trust = serde_json::json!({"keys": {SIGNER: {"keys": keys}}});
    file_in(dir.path(), "trust.json", trust.to_string());
    let line = "chain verify ed.json --trust trust.json --offline --now {} --json";
    let v = cli_in(dir.path(), line, &[NOW]).exits(0).json();
    assert_eq!(v["envelopes"][0]["algorithm"], "Ed25519");
    assert_eq!(v["envelopes"][0]["key_used"], "2026");
    assert_eq!(v["envelopes"][0]["signing_input"], "seed-python");
    // The public key alone, as a PEM file.
    let line = "chain verify ed.json --key {} --signed-by {} --offline --now {}";
    cli_in(dir.path(), line, &["new/public.pem", SIGNER, NOW]).exits(0);
    cli_in(dir.path(), line, &["old/public.pem", SIGNER, NOW])
        .exits(1)
        .says(&["chain-signature-invalid"]);
}

#[test]
fn level_2_from_a_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    sign_hmac(dir.path());
    let b64 = |s: &str| {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(s)
    };
    let snapshot = serde_json::json!({
        "snapshot_version": 1,
        "response": {"url": "https://chain.invalid/", "status": 204, "headers": [], "body_base64": ""},
        "resources": {
            "https://sourcescore.org/claims/ad17e76a8baad7a1/": {"status": 200, "headers": [["content-type", "text/html"]], "body_base64": b64("<h1>Claim ad17e76a8baad7a1</h1>")},
            "https://arxiv.org/abs/1706.03762": {"status": 200, "headers": [], "body_base64": b64("arxiv")}
        }
    });
    file_in(dir.path(), "snapshot.json", snapshot.to_string());
    let line = "chain verify envelope.json --hmac-key-file secret.txt --signed-by {} \
                --snapshot snapshot.json --now {}";
    cli_in(dir.path(), line, &[SIGNER, NOW]).exits(0).says(&[
        "level achieved: 2 (required 2) -> VERIFIED",
        "reachable source: https://arxiv.org/abs/1706.03762",
    ]);
}

/// `chain verify` of the repository's producer envelope (`examples/chain`, signed with the demo
/// secret) for [`SIGNER`], offline at [`NOW`], with the options `extra`.
fn verify_producer(extra: &str) -> Ran {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/chain");
    let line = format!(
        "chain verify producer-envelope.json --hmac-key-file demo-secret.txt --signed-by {{}} \
         --offline --now {{}} {extra}"
    );
    cli_in(&dir, &line, &[SIGNER, NOW])
}

#[test]
fn a_partially_signed_envelope_is_never_verified_and_its_unsigned_members_are_listed() {
    // Default: NOT VERIFIED, exit 1, verdict partially-signed, every unsigned member named.
    let ran = verify_producer("").exits(1);
    ran.never_says(&["-> VERIFIED", "last verified:"]).says(&[
        "-> NOT VERIFIED",
        "envelope ad17e76a8baad7a1 [partially-signed]",
        "PARTIAL: matches over deployed-js",
        "UNSIGNED (anyone could have changed them): ",
        "/claim/sources/0/url",
        // Freshness must not be judged from unsigned dates.
        "freshness: cannot be judged",
        "L1 error [chain-signature-partial]",
    ]);

    let v = verify_producer("--json").exits(1).json();
    assert_eq!(v["ok"], false);
    assert_eq!(v["verified"], false);
    assert_eq!(v["accepted"], false);
    assert_eq!(v["envelopes"][0]["verdict"], "partially-signed");
    assert_eq!(v["envelopes"][0]["freshness"], "not-judged");
    let unsigned: Vec<&str> = v["envelopes"][0]["unsigned"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap())
        .collect();
    for member in [
        "/claim/sources/0/url",
        "/claim/tags",
        "/claim/lastVerified",
        "/signature/signedAt",
        "/signature/signedBy",
    ] {
        assert!(unsigned.contains(&member), "{member}: {unsigned:?}");
    }

    // Accepted on request: the level is met, but the document is not verified (exit 1) and
    // the verdict line says what it is.
    let ran = verify_producer("--accept-partial-signature").exits(1);
    ran.starts("level achieved: 1 (required 1) -> NOT VERIFIED (ACCEPTED, PARTIALLY SIGNED: 1 envelope signed only in part")
        .never_says(&["-> VERIFIED"])
        .says(&["[partially-signed]", "UNSIGNED"]);
    let v = verify_producer("--accept-partial-signature --json").json();
    assert_eq!(
        (
            v["accepted"].clone(),
            v["verified"].clone(),
            v["ok"].clone()
        ),
        (true.into(), false.into(), false.into())
    );
    assert_eq!(v["outcome"], "not-verified");
    assert_eq!(v["level"], 1);
}

#[test]
fn one_secret_needs_no_signer_and_the_report_says_so() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    sign_hmac(dir.path());
    let line = "chain verify envelope.json --hmac-key-file secret.txt --offline --now {}";
    cli_in(dir.path(), line, &[NOW])
        .exits(0)
        .says(&["verified over seed-python with secret 1 (any signer)"]);
    // A signer with its own secret never falls back to the one given for any signer.
    let trust = serde_json::json!({"secrets": {SIGNER: ["another secret of this signer"]}});
    file_in(dir.path(), "trust.json", trust.to_string());
    let line = "chain verify envelope.json --hmac-key-file secret.txt --trust trust.json \
                --offline --now {}";
    cli_in(dir.path(), line, &[NOW])
        .exits(1)
        .says(&["chain-signature-invalid"]);
}

//! `citeproof chain id|sign|verify`: outputs and exit codes (0 ok / verified, 1 invalid or not
//! verified, 2 usage errors, 3 could not check), with typed, located errors on bad input.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use serde_json::Value;

#[path = "chain/answers.rs"]
mod answers;
mod kit;
use kit::{CHAIN_CLAIM as CLAIM, CHAIN_SIGNER as SIGNER, CHAIN_TRUST, citeproof, words};

fn code(out: &std::process::Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const NOW: &str = "1779235200";

fn setup(dir: &Path) {
    std::fs::write(dir.join("claim.json"), CLAIM).unwrap();
    std::fs::write(dir.join("secret.txt"), "a producer's shared secret 2026\n").unwrap();
}

fn sign_hmac(dir: &Path) -> String {
    let (status, out, err) = kit::sign_chain_envelope(dir);
    assert_eq!(status, 0, "{err}");
    out
}

fn verify(dir: &Path, file: &str, extra: &[&str]) -> std::process::Output {
    citeproof()
        .current_dir(dir)
        .args(["chain", "verify", file])
        .args(CHAIN_TRUST)
        .args(["--offline", "--now", NOW])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn id_prints_the_seeds_id() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let out = citeproof()
        .current_dir(dir.path())
        .args(["chain", "id", "claim.json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    assert_eq!(text(&out.stdout), "ad17e76a8baad7a1\n");
    std::fs::write(
        dir.path().join("wrong.json"),
        CLAIM.replacen('{', "{\"id\": \"0123456789abcdef\",", 1),
    )
    .unwrap();
    let out = citeproof()
        .current_dir(dir.path())
        .args(["chain", "id", "wrong.json", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["id"], "ad17e76a8baad7a1");
    assert_eq!(v["written_id"], "0123456789abcdef");
    assert_eq!(v["ok"], false);
}

#[test]
fn bad_input_gets_a_typed_error_with_a_location() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    std::fs::write(
        dir.path().join("dup.json"),
        "{\"vertical\":\"a\",\"vertical\":\"b\"}",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("novertical.json"),
        r#"{"subject":"s","predicate":"p","object":"o"}"#,
    )
    .unwrap();
    std::fs::write(dir.path().join("binary.json"), [0xffu8, 0xfe, 0x00]).unwrap();
    for (args, want) in [
        (
            vec!["chain", "id", "dup.json"],
            "dup.json: [json-duplicate-member] at /vertical (byte 16)",
        ),
        (
            vec!["chain", "id", "novertical.json"],
            "novertical.json: [schema-violation] at /vertical",
        ),
        (
            vec!["chain", "id", "binary.json"],
            "binary.json: [json-invalid-utf8] (byte 0)",
        ),
        (
            vec![
                "chain",
                "sign",
                "dup.json",
                "--hmac-key-file",
                "secret.txt",
                "--signed-by",
                SIGNER,
            ],
            "[json-duplicate-member]",
        ),
        (
            vec!["chain", "verify", "binary.json", "--offline", "--now", NOW],
            "L1 error [json-invalid-utf8] at byte 0",
        ),
    ] {
        let out = citeproof()
            .current_dir(dir.path())
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(code(&out), 1, "{args:?}: {}", text(&out.stderr));
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(all.contains(want), "{args:?}: {all}");
        assert!(!all.contains("panicked"), "{all}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    std::fs::write(dir.path().join("short.txt"), "short\n").unwrap();
    // A file that cannot be read: nothing was checked (3).
    let out = citeproof()
        .current_dir(dir.path())
        .args(["chain", "verify", "missing.json", "--offline"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 3, "{}", text(&out.stderr));
    for args in [
        // Several secrets without the signer they belong to (one is allowed: any signer).
        vec![
            "chain",
            "verify",
            "claim.json",
            "--hmac-key-file",
            "secret.txt",
            "--hmac-key-file",
            "secret.txt",
        ],
        vec![
            "chain",
            "sign",
            "claim.json",
            "--hmac-key-file",
            "short.txt",
            "--signed-by",
            SIGNER,
        ],
        vec![
            "chain",
            "sign",
            "claim.json",
            "--hmac-key-file",
            "secret.txt",
            "--signed-by",
            "not-a-did",
        ],
        vec!["chain", "sign", "claim.json", "--signed-by", SIGNER],
        vec!["chain", "verify", "claim.json", "--offline", "--level", "2"],
    ] {
        let out = citeproof()
            .current_dir(dir.path())
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(code(&out), 2, "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn sign_then_verify_and_a_tampered_copy_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let printed = sign_hmac(dir.path());
    let written = std::fs::read_to_string(dir.path().join("envelope.json")).unwrap();
    assert_eq!(printed, written, "--out writes the printed bytes");
    let out = verify(dir.path(), "envelope.json", &[]);
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("level achieved: 1 (required 1) -> VERIFIED"),
        "{stdout}"
    );
    assert!(
        stdout.contains("verified over seed-python with secret 1"),
        "{stdout}"
    );

    std::fs::write(
        dir.path().join("tampered.json"),
        written.replace(
            "https://arxiv.org/abs/1706.03762",
            "https://attacker.example/",
        ),
    )
    .unwrap();
    let out = verify(dir.path(), "tampered.json", &["--json"]);
    assert_eq!(code(&out), 1);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["command"], "chain verify");
    assert_eq!(v["ok"], false);
    assert_eq!(v["incidents"][0]["code"], "chain-signature-invalid");
    assert_eq!(
        v["incidents"][0]["location"]["pointer"],
        "/signature/signature"
    );
    assert_eq!(v["envelopes"][0]["verdict"], "tampered");

    // Trust is bound to the signer: the right secret configured for another signer is no key.
    let out = citeproof()
        .current_dir(dir.path())
        .args(words(
            "chain verify envelope.json --hmac-key-file secret.txt",
            &[],
        ))
        .args(words(
            "--signed-by did:web:other.example --offline --now {} --json",
            &[NOW],
        ))
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["incidents"][0]["code"], "chain-key-unresolved");
}

#[test]
fn ed25519_with_rotated_keys_from_a_trust_file() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    for (name, kid) in [("old", "2025"), ("new", "2026")] {
        let out = citeproof()
            .current_dir(dir.path())
            .args(["keygen", "--out", name, "--kid", kid])
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    }
    let out = citeproof()
        .current_dir(dir.path())
        .args(words(
            "chain sign claim.json --key new/private.pem --signed-by {}",
            &[SIGNER],
        ))
        .args(["--signed-at", "2026-05-16T00:00:00Z", "--out", "ed.json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", text(&out.stderr));
    let jwks = |name: &str| -> Value {
        serde_json::from_slice(&std::fs::read(dir.path().join(name).join("jwks.json")).unwrap())
            .unwrap()
    };
    let mut keys = jwks("old")["keys"].as_array().unwrap().clone();
    keys.extend(jwks("new")["keys"].as_array().unwrap().iter().cloned());
    let trust = serde_json::json!({"keys": {SIGNER: {"keys": keys}}});
    std::fs::write(dir.path().join("trust.json"), trust.to_string()).unwrap();
    let out = citeproof()
        .current_dir(dir.path())
        .args(words(
            "chain verify ed.json --trust trust.json --offline --now {} --json",
            &[NOW],
        ))
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["envelopes"][0]["algorithm"], "Ed25519");
    assert_eq!(v["envelopes"][0]["key_used"], "2026");
    assert_eq!(v["envelopes"][0]["signing_input"], "seed-python");
    // The public key alone, as a PEM file.
    let out = citeproof()
        .current_dir(dir.path())
        .args(words(
            "chain verify ed.json --key new/public.pem --signed-by {}",
            &[SIGNER],
        ))
        .args(["--offline", "--now", NOW])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", text(&out.stdout));
    let out = citeproof()
        .current_dir(dir.path())
        .args(words(
            "chain verify ed.json --key old/public.pem --signed-by {}",
            &[SIGNER],
        ))
        .args(["--offline", "--now", NOW])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(text(&out.stdout).contains("chain-signature-invalid"));
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
    std::fs::write(dir.path().join("snapshot.json"), snapshot.to_string()).unwrap();
    let out = citeproof()
        .current_dir(dir.path())
        .args(words(
            "chain verify envelope.json --hmac-key-file secret.txt --signed-by {}",
            &[SIGNER],
        ))
        .args(["--snapshot", "snapshot.json", "--now", NOW])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(code(&out), 0, "{stdout}");
    assert!(
        stdout.contains("level achieved: 2 (required 2) -> VERIFIED"),
        "{stdout}"
    );
    assert!(
        stdout.contains("reachable source: https://arxiv.org/abs/1706.03762"),
        "{stdout}"
    );
}

/// The repository's examples directory (the producer's envelope, signed with the demo secret).
fn examples() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/chain")
}

fn verify_producer(extra: &[&str]) -> std::process::Output {
    let dir = examples();
    citeproof()
        .current_dir(&dir)
        .args(["chain", "verify", "producer-envelope.json"])
        .args(["--hmac-key-file", "demo-secret.txt", "--signed-by", SIGNER])
        .args(["--offline", "--now", NOW])
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_partially_signed_envelope_is_never_verified_and_its_unsigned_members_are_listed() {
    // Default: NOT VERIFIED, exit 1, verdict partially-signed, every unsigned member named.
    let out = verify_producer(&[]);
    let stdout = text(&out.stdout);
    assert_eq!(code(&out), 1, "{stdout}");
    assert!(!stdout.contains("-> VERIFIED"), "{stdout}");
    assert!(stdout.contains("-> NOT VERIFIED"), "{stdout}");
    assert!(
        stdout.contains("envelope ad17e76a8baad7a1 [partially-signed]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("PARTIAL: matches over deployed-js"),
        "{stdout}"
    );
    assert!(
        stdout.contains("UNSIGNED (anyone could have changed them): "),
        "{stdout}"
    );
    assert!(stdout.contains("/claim/sources/0/url"), "{stdout}");
    assert!(
        stdout.contains("freshness: cannot be judged"),
        "freshness must not be judged from unsigned dates: {stdout}"
    );
    assert!(!stdout.contains("last verified:"), "{stdout}");
    assert!(
        stdout.contains("L1 error [chain-signature-partial]"),
        "{stdout}"
    );

    let out = verify_producer(&["--json"]);
    assert_eq!(code(&out), 1);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
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
    let out = verify_producer(&["--accept-partial-signature"]);
    let stdout = text(&out.stdout);
    assert_eq!(code(&out), 1, "{stdout}");
    assert!(
        stdout.starts_with("level achieved: 1 (required 1) -> NOT VERIFIED (ACCEPTED, PARTIALLY SIGNED: 1 envelope signed only in part"),
        "{stdout}"
    );
    assert!(!stdout.contains("-> VERIFIED"), "{stdout}");
    assert!(stdout.contains("[partially-signed]"), "{stdout}");
    assert!(stdout.contains("UNSIGNED"), "{stdout}");
    let out = verify_producer(&["--accept-partial-signature", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
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
    let out = citeproof()
        .current_dir(dir.path())
        .args(words(
            "chain verify envelope.json --hmac-key-file secret.txt",
            &[],
        ))
        .args(["--offline", "--now", NOW])
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(code(&out), 0, "{stdout}");
    assert!(
        stdout.contains("verified over seed-python with secret 1 (any signer)"),
        "{stdout}"
    );
    // A signer with its own secret never falls back to the one given for any signer.
    std::fs::write(
        dir.path().join("trust.json"),
        serde_json::json!({"secrets": {SIGNER: ["another secret of this signer"]}}).to_string(),
    )
    .unwrap();
    let out = citeproof()
        .current_dir(dir.path())
        .args(words(
            "chain verify envelope.json --hmac-key-file secret.txt",
            &[],
        ))
        .args(["--trust", "trust.json", "--offline", "--now", NOW])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("chain-signature-invalid"));
}

//! `citeproof httpsig verify`: exit statuses, trust, `--now`, `--verbose` and `--json` errors.

use super::*;

use kit::rfc9421 as rfc;

/// The B.2.6 message (`b26.http`), a copy with its Date header changed (`b26-bad.http`), the
/// B.1.4 key (`key.pem`) and the trust file holding it under its kid (`trust.json`).
fn b26(dir: &Path) {
    let text = kit::rfc9421_b26_message();
    file_in(dir, "b26.http", &text);
    file_in(dir, "b26-bad.http", text.replace("02:07:55", "02:07:56"));
    std::fs::copy(rfc("test-key-ed25519-public.pem"), dir.join("key.pem")).unwrap();
    // RFC 9421 Appendix B.1.4, the JWK of test-key-ed25519.
    let jwk = json!({"kty": "OKP", "crv": "Ed25519", "kid": "test-key-ed25519",
        "x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"});
    let trust = json!({"keys": {"rfc9421.example": {"keys": [jwk]}}});
    file_in(dir, "trust.json", trust.to_string());
    let other = json!({"keys": {"rfc9421.example": {"keys": [{"kty": "OKP", "crv": "Ed25519",
        "kid": "another-key", "x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}}});
    file_in(dir, "other-trust.json", other.to_string());
}

/// 2021-04-20T02:08:20Z = 1618884500: 27 s after the signature's `created`.
const B26_NOW: &str = "1618884500";
const B26_NOW_RFC3339: &str = "2021-04-20T02:08:20Z";

#[test]
fn httpsig_verify_exit_statuses_trust_and_now() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    b26(d);
    // 0, with the key as a shorthand or from the trust file by kid, --now in both forms.
    for key in ["--key key.pem", "--trust trust.json"] {
        for now in [B26_NOW, B26_NOW_RFC3339] {
            let line = format!("httpsig verify --message b26.http --now {{}} {key}");
            cli_in(d, &line, &[now])
                .exits(0)
                .starts("signatures verified: 1 of 1 examined -> VERIFIED\n");
        }
    }
    let verify = "httpsig verify --message {} --key key.pem --now {}";
    // 1: a changed Date header; a trust file without the keyid.
    cli_in(d, verify, &["b26-bad.http", B26_NOW])
        .exits(1)
        .starts("signatures verified: 0 of 1 examined -> NOT VERIFIED\n")
        .says(&["httpsig-signature-invalid"]);
    let other = "httpsig verify --message b26.http --trust other-trust.json --now {}";
    cli_in(d, other, &[B26_NOW])
        .exits(1)
        .mentions(&["httpsig-key-unresolved", "test-key-ed25519"]);
    // The verification time decides: `created` more than 300 s after --now is in the future.
    cli_in(d, verify, &["b26.http", "2021-04-20T01:00:00Z"])
        .exits(1)
        .mentions(&["httpsig-created-in-future"]);
    // 2: no key at all; a bad --now.
    cli_in(d, "httpsig verify --message b26.http", &[]).exits(2);
    cli_in(d, verify, &["b26.http", "later"]).exits(2);
    // 3: a message file that cannot be read.
    let missing = "httpsig verify --message missing.http --key key.pem";
    cli_in(d, missing, &[]).exits(3);
}

#[test]
fn httpsig_verbose_prints_the_base_of_a_failed_label_too() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    b26(d);
    let published = std::fs::read_to_string(rfc("b2_6-signature-base.txt")).unwrap();
    let verbose = "httpsig verify --message {} --key key.pem --now {} --verbose";
    cli_in(d, verbose, &["b26.http", B26_NOW])
        .exits(0)
        .mentions(&[published.trim_end()]);
    // The Date header changed: the signature fails, and the base printed is the published one
    // with that one line changed (what an implementer compares with the base they signed).
    let changed = published.replace("02:07:55", "02:07:56");
    assert_ne!(changed, published);
    cli_in(d, verbose, &["b26-bad.http", B26_NOW])
        .exits(1)
        .mentions(&["signature base of `sig-b26`:", changed.trim_end()]);
    // An unknown key also fails after the base is known: it is printed too.
    let other = "httpsig verify --message b26.http --trust other-trust.json --now {} --verbose";
    cli_in(d, other, &[B26_NOW])
        .exits(1)
        .mentions(&[published.trim_end()]);
    // In JSON too.
    let v = cli_in(d, &format!("{verbose} --json"), &["b26-bad.http", B26_NOW])
        .exits(1)
        .json();
    assert_eq!(v["outcome"], "not-verified");
    assert_eq!(v["labels"][0]["valid"], false);
    assert_eq!(v["labels"][0]["signature_base"], json!(changed.trim_end()));
}

#[test]
fn httpsig_verify_json_errors_are_json_objects() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    b26(d);
    file_in(d, "bad-trust.json", r#"{"keys": []}"#);
    for (line, status, error) in [
        (
            "httpsig verify --message missing.http --key key.pem --json",
            3,
            "input-unreadable",
        ),
        ("httpsig verify --message b26.http --json", 2, "usage"),
        (
            "httpsig verify --message b26.http --trust bad-trust.json --json",
            2,
            "usage",
        ),
        (
            "httpsig verify --message b26.http --key key.pem --now x --json",
            2,
            "usage",
        ),
    ] {
        json_error(d, line, status, error);
    }
}

// ---- ledger ----

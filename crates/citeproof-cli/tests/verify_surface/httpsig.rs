//! `citeproof httpsig verify`: exit statuses, trust, `--now`, `--verbose` and `--json` errors.

use super::*;

fn rfc(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../citeproof-httpsig/tests/data/rfc9421")
        .join(name)
}

/// The B.2 test request with the B.2.6 signature fields (`keyid="test-key-ed25519"`,
/// `created=1618884473`), and the trust file holding the B.1.4 key under that kid.
fn b26(dir: &Path) {
    let req = std::fs::read_to_string(rfc("test-request.http")).unwrap();
    let (head, body) = req.split_once("\n\n").unwrap();
    let input = std::fs::read_to_string(rfc("b2_6-signature-input.txt")).unwrap();
    let sig = std::fs::read_to_string(rfc("b2_6-signature.txt")).unwrap();
    let text = format!(
        "{}\r\nSignature-Input: {}\r\nSignature: {}\r\n\r\n{body}",
        head.replace('\n', "\r\n"),
        input.trim_end(),
        sig.trim_end()
    );
    std::fs::write(dir.join("b26.http"), &text).unwrap();
    std::fs::write(
        dir.join("b26-bad.http"),
        text.replace("02:07:55", "02:07:56"),
    )
    .unwrap();
    std::fs::copy(rfc("test-key-ed25519-public.pem"), dir.join("key.pem")).unwrap();
    // RFC 9421 Appendix B.1.4, the JWK of test-key-ed25519.
    let jwk = json!({"kty": "OKP", "crv": "Ed25519", "kid": "test-key-ed25519",
        "x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"});
    let trust = json!({"keys": {"rfc9421.example": {"keys": [jwk]}}});
    std::fs::write(dir.join("trust.json"), trust.to_string()).unwrap();
    let other = json!({"keys": {"rfc9421.example": {"keys": [{"kty": "OKP", "crv": "Ed25519",
        "kid": "another-key", "x": "JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs"}]}}});
    std::fs::write(dir.join("other-trust.json"), other.to_string()).unwrap();
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
    for key in [["--key", "key.pem"], ["--trust", "trust.json"]] {
        for now in [B26_NOW, B26_NOW_RFC3339] {
            let (code, out) = run(
                d,
                &[
                    &["httpsig", "verify", "--message", "b26.http", "--now", now][..],
                    &key,
                ]
                .concat(),
            );
            assert_eq!(code, 0, "{key:?} {now}: {out}");
            assert!(
                out.starts_with("signatures verified: 1 of 1 examined -> VERIFIED\n"),
                "{out}"
            );
        }
    }
    // 1: a changed Date header; a trust file without the keyid.
    let (code, out) = run(
        d,
        &words(
            "httpsig verify --message b26-bad.http --key key.pem --now {}",
            &[B26_NOW],
        ),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("signatures verified: 0 of 1 examined -> NOT VERIFIED\n"),
        "{out}"
    );
    assert!(out.contains("httpsig-signature-invalid"), "{out}");
    let (code, out) = run(
        d,
        &words(
            "httpsig verify --message b26.http --trust other-trust.json --now {}",
            &[B26_NOW],
        ),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("httpsig-key-unresolved") && out.contains("test-key-ed25519"),
        "{out}"
    );
    // The verification time decides: `created` more than 300 s after --now is in the future.
    let (code, out) = run(
        d,
        &words(
            "httpsig verify --message b26.http --key key.pem --now 2021-04-20T01:00:00Z",
            &[],
        ),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("httpsig-created-in-future"), "{out}");
    // 2: no key at all; a bad --now.
    let (code, out) = run(d, &["httpsig", "verify", "--message", "b26.http"]);
    assert_eq!(code, 2, "{out}");
    let (code, out) = run(
        d,
        &words(
            "httpsig verify --message b26.http --key key.pem --now later",
            &[],
        ),
    );
    assert_eq!(code, 2, "{out}");
    // 3: a message file that cannot be read.
    let (code, out) = run(
        d,
        &words("httpsig verify --message missing.http --key key.pem", &[]),
    );
    assert_eq!(code, 3, "{out}");
}

#[test]
fn httpsig_verbose_prints_the_base_of_a_failed_label_too() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    b26(d);
    let published = std::fs::read_to_string(rfc("b2_6-signature-base.txt")).unwrap();
    let (code, out) = run(
        d,
        &words(
            "httpsig verify --message b26.http --key key.pem --now {} --verbose",
            &[B26_NOW],
        ),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(published.trim_end()), "{out}");
    // The Date header changed: the signature fails, and the base printed is the published one
    // with that one line changed (what an implementer compares with the base they signed).
    let changed = published.replace("02:07:55", "02:07:56");
    assert_ne!(changed, published);
    let (code, out) = run(
        d,
        &words(
            "httpsig verify --message b26-bad.http --key key.pem --now {} --verbose",
            &[B26_NOW],
        ),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("signature base of `sig-b26`:"), "{out}");
    assert!(out.contains(changed.trim_end()), "{out}");
    // An unknown key also fails after the base is known: it is printed too.
    let (code, out) = run(
        d,
        &words(
            "httpsig verify --message b26.http --trust other-trust.json --now {} --verbose",
            &[B26_NOW],
        ),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(published.trim_end()), "{out}");
    // In JSON too.
    let (code, v) = json_of(
        d,
        &words(
            "httpsig verify --message b26-bad.http --key key.pem --now {} --verbose --json",
            &[B26_NOW],
        ),
    );
    assert_eq!(code, 1);
    assert_eq!(v["outcome"], "not-verified");
    assert_eq!(v["labels"][0]["valid"], false);
    assert_eq!(v["labels"][0]["signature_base"], json!(changed.trim_end()));
}

#[test]
fn httpsig_verify_json_errors_are_json_objects() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    b26(d);
    std::fs::write(d.join("bad-trust.json"), r#"{"keys": []}"#).unwrap();
    for (args, code, error) in [
        (
            vec![
                "httpsig",
                "verify",
                "--message",
                "missing.http",
                "--key",
                "key.pem",
                "--json",
            ],
            3,
            "input-unreadable",
        ),
        (
            vec!["httpsig", "verify", "--message", "b26.http", "--json"],
            2,
            "usage",
        ),
        (
            vec![
                "httpsig",
                "verify",
                "--message",
                "b26.http",
                "--trust",
                "bad-trust.json",
                "--json",
            ],
            2,
            "usage",
        ),
        (
            vec![
                "httpsig",
                "verify",
                "--message",
                "b26.http",
                "--key",
                "key.pem",
                "--now",
                "x",
                "--json",
            ],
            2,
            "usage",
        ),
    ] {
        let (status, v) = json_of(d, &args);
        assert_eq!(status, code, "{args:?}: {v:#}");
        assert_eq!(v["ok"], false, "{args:?}: {v:#}");
        assert_eq!(v["error"]["code"], error, "{args:?}: {v:#}");
    }
}

// ---- ledger ----

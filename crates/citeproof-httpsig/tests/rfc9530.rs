//! RFC 9530 Content-Digest: published values and strict checking.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_httpsig::*;
use common::read_bytes;
use serde_json::Value;

#[test]
fn published_digests_are_reproduced_and_accepted() {
    let cases: Value = serde_json::from_slice(&read_bytes("rfc9530/digests.json")).unwrap();
    let cases = cases.as_array().unwrap();
    assert_eq!(cases.len(), 5);
    for case in cases {
        let content = case["content"].as_str().unwrap().as_bytes();
        let expected = case["content_digest"].as_str().unwrap();
        let source = case["source"].as_str().unwrap();
        let produced = if expected.starts_with("sha-256=") {
            content_digest_sha256(content)
        } else {
            content_digest_sha512(content)
        };
        assert_eq!(produced, expected, "{source}");
        check_content_digest(expected, content).unwrap_or_else(|e| panic!("{source}: {e}"));
        // One byte more or less of content breaks it.
        let mut longer = content.to_vec();
        longer.push(b'\n');
        assert_eq!(
            check_content_digest(expected, &longer).unwrap_err().code(),
            "httpsig-digest-mismatch",
            "{source}"
        );
    }
}

#[test]
fn hello_world_exact_bytes() {
    // The 18-byte body without LF and the 19-byte body with LF (RFC 9530's examples) differ.
    assert_eq!(
        content_digest_sha256(br#"{"hello": "world"}"#),
        "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:"
    );
    assert_eq!(
        content_digest_sha256(b"{\"hello\": \"world\"}\n"),
        "sha-256=:RK/0qy18MlBSVnWgjwz6lZEWjP/lF5HF9bvEF8FabDg=:"
    );
}

#[test]
fn several_algorithms() {
    let body = br#"{"hello": "world"}"#;
    let both = format!(
        "{}, {}",
        content_digest_sha256(body),
        content_digest_sha512(body)
    );
    assert_eq!(
        check_content_digest(&both, body).unwrap(),
        vec!["sha-256", "sha-512"]
    );
    // Unknown and insecure algorithms are ignored next to a supported one...
    let mixed = format!(
        "md5=:Sd/dVLAcvNLSq16eXua5uQ==:, unixsum=8874, {}, x-new=:AAAA:",
        content_digest_sha256(body)
    );
    assert_eq!(check_content_digest(&mixed, body).unwrap(), vec!["sha-256"]);
    // ...but never suffice alone.
    for only in [
        "md5=:Sd/dVLAcvNLSq16eXua5uQ==:",
        "sha=:07CavjDP4u3/TungoUHJO/Wzr4c=:",
        "unixsum=8874",
        "",
    ] {
        assert_eq!(
            check_content_digest(only, body).unwrap_err().code(),
            "httpsig-digest-unsupported",
            "{only:?}"
        );
    }
    // Every supported member must match, not just one.
    let one_wrong = format!(
        "{}, {}",
        content_digest_sha256(body),
        content_digest_sha512(b"other")
    );
    assert_eq!(
        check_content_digest(&one_wrong, body).unwrap_err(),
        HttpSigError::DigestMismatch {
            alg: "sha-512".into()
        }
    );
}

#[test]
fn malformed_values() {
    let body = b"x";
    for (value, code) in [
        ("sha-256=:AAAA:", "httpsig-digest-malformed"),
        ("sha-256=\"abc\"", "httpsig-digest-malformed"),
        ("sha-256=(:AAAA:)", "httpsig-digest-malformed"),
        ("sha-256=1", "httpsig-digest-malformed"),
        ("SHA-256=:AAAA:", "httpsig-invalid-structured-field"),
        (
            "sha-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=",
            "httpsig-invalid-structured-field",
        ),
        ("sha-256=:a:,", "httpsig-invalid-structured-field"),
        (
            "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:, sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:",
            "httpsig-invalid-structured-field",
        ),
    ] {
        assert_eq!(
            check_content_digest(value, body).unwrap_err().code(),
            code,
            "{value:?}"
        );
    }
}

//! `http_message`: HTTP/1.1 messages, RFC 9421 `Signature-Input` / `Signature` and RFC 9530
//! `Content-Digest`.

use citeproof_httpsig::{
    LabelSelector, SigningKey, VerifyPolicy, check_content_digest, content_digest_sha256,
    content_digest_sha512, parse_http1, parse_signature, parse_signature_input, verify,
};

/// Any bytes as an HTTP/1.1 message and as field values. Checks: a message that parses
/// re-serializes to one that parses to the same message; every `Signature-Input` member that
/// parses serializes (RFC 9421 §2.3) to a member that parses back to the same parameters; a
/// `Content-Digest` made for a body checks against it, whatever the body; a random message
/// never verifies under a key that signed nothing.
pub fn http_message(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        field_values(text);
    }
    let (digest_field, body) = crate::halves(data);
    if let Ok(field) = std::str::from_utf8(digest_field) {
        let _ = check_content_digest(field, body);
    }
    assert_eq!(
        check_content_digest(&content_digest_sha256(body), body).ok(),
        Some(vec!["sha-256"])
    );
    assert_eq!(
        check_content_digest(&content_digest_sha512(body), body).ok(),
        Some(vec!["sha-512"])
    );
    let Ok(message) = parse_http1(data) else {
        return;
    };
    let again = parse_http1(&message.to_http1()).expect("serialized message must parse");
    assert_eq!(again.to_http1(), message.to_http1());
    if let Some(field) = message.headers().combined("content-digest") {
        let _ = check_content_digest(&field, message.body());
    }
    let key = SigningKey::from_bytes(&[0xc3; 32]).verifying_key();
    let verified = verify(
        &message,
        &key,
        LabelSelector::Any,
        &VerifyPolicy::default(),
        0,
    );
    assert!(verified.is_err(), "a fuzzed message verified");
}

fn field_values(text: &str) {
    let _ = parse_signature(text);
    let Ok(members) = parse_signature_input(text) else {
        return;
    };
    for (label, params) in members {
        let Ok(serialized) = params.serialize() else {
            continue;
        };
        let member = format!("{label}={serialized}");
        let back = parse_signature_input(&member)
            .unwrap_or_else(|e| panic!("{member:?} does not parse back: {e}"));
        assert_eq!(back, vec![(label, params)], "{member:?}");
    }
}

//! Sign a JSON response and verify it under a strict policy; every tampering fails with the
//! matching error variant.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_httpsig::*;

const NOW: i64 = 1_732_000_000;
const BODY: &[u8] = br#"{"claim":"The sky is blue.","source":"https://example.org/a"}"#;

fn key() -> SigningKey {
    SigningKey::from_bytes(&[42u8; 32])
}

fn id(name: &str) -> ComponentId {
    ComponentId::new(name).unwrap()
}

fn params() -> SignatureParams {
    SignatureParams::new(vec![
        id("@status"),
        id("content-type"),
        id("content-digest"),
    ])
    .with_created(NOW)
    .with_keyid("citeproof-test-key")
}

fn unsigned_response() -> Message {
    let mut r = Response::new(200).unwrap();
    r.headers.push("Content-Type", "application/json").unwrap();
    r.headers
        .push("Content-Digest", &content_digest_sha256(BODY))
        .unwrap();
    r.headers
        .push("Content-Length", &BODY.len().to_string())
        .unwrap();
    r.body = BODY.to_vec();
    Message::Response(r)
}

fn signed_response() -> Message {
    let mut msg = unsigned_response();
    sign_in_place(&mut msg, "sig1", &params(), &key()).unwrap();
    msg
}

fn policy() -> VerifyPolicy {
    VerifyPolicy {
        required_components: vec![id("@status"), id("content-type"), id("content-digest")],
        required_params: vec![ParamName::Created, ParamName::KeyId],
        max_clock_skew: 30,
        max_age: Some(300),
        not_before: None,
        check_content_digest: true,
    }
}

fn check(msg: &Message) -> Result<VerifiedSignature> {
    verify(
        msg,
        &key().verifying_key(),
        LabelSelector::Label("sig1"),
        &policy(),
        NOW + 5,
    )
}

fn set_field(msg: &mut Message, name: &str, value: &str) {
    msg.headers_mut().remove_all(name);
    msg.headers_mut().push(name, value).unwrap();
}

fn with_signature_input(value: &str) -> Message {
    let mut msg = signed_response();
    set_field(&mut msg, "Signature-Input", value);
    msg
}

#[test]
fn sign_and_verify() {
    let msg = signed_response();
    let ok = check(&msg).unwrap();
    assert_eq!(
        ok.signature_base,
        format!(
            "\"@status\": 200\n\"content-type\": application/json\n\"content-digest\": {}\n\"@signature-params\": (\"@status\" \"content-type\" \"content-digest\");created={NOW};keyid=\"citeproof-test-key\"",
            content_digest_sha256(BODY)
        )
    );
    assert_eq!(
        msg.headers().combined("signature-input").unwrap(),
        format!(
            "sig1=(\"@status\" \"content-type\" \"content-digest\");created={NOW};keyid=\"citeproof-test-key\""
        )
    );
    // Deterministic.
    assert_eq!(signed_response(), msg);
}

#[test]
fn signed_message_survives_http1_text_round_trip() {
    let msg = signed_response();
    let text = msg.to_http1();
    let parsed = parse_http1(&text).unwrap();
    assert_eq!(parsed, msg);
    check(&parsed).unwrap();
}

#[test]
fn tampered_body_is_a_digest_mismatch() {
    let mut msg = signed_response();
    msg.body_mut()[3] ^= 0x20;
    assert_eq!(
        check(&msg).unwrap_err(),
        HttpSigError::DigestMismatch {
            alg: "sha-256".into()
        }
    );
}

#[test]
fn tampered_status_is_an_invalid_signature() {
    let mut msg = signed_response();
    let Message::Response(r) = &mut msg else {
        unreachable!()
    };
    r.status = 203;
    assert_eq!(
        check(&msg).unwrap_err(),
        HttpSigError::SignatureInvalid {
            label: "sig1".into()
        }
    );
}

#[test]
fn tampered_content_type_is_an_invalid_signature() {
    let mut msg = signed_response();
    set_field(&mut msg, "Content-Type", "text/html");
    assert_eq!(check(&msg).unwrap_err().code(), "httpsig-signature-invalid");
    // Also a second Content-Type line appended after the first.
    let mut msg = signed_response();
    msg.headers_mut().push("Content-Type", "text/html").unwrap();
    assert_eq!(check(&msg).unwrap_err().code(), "httpsig-signature-invalid");
}

#[test]
fn tampered_digest_field_is_an_invalid_signature() {
    // Attacker replaces body and digest consistently: the signature covers the digest.
    let mut msg = signed_response();
    let evil = br#"{"claim":"The sky is green."}"#;
    *msg.body_mut() = evil.to_vec();
    set_field(&mut msg, "Content-Digest", &content_digest_sha256(evil));
    assert_eq!(check(&msg).unwrap_err().code(), "httpsig-signature-invalid");
}

#[test]
fn tampered_signature_input_params() {
    let components = r#"("@status" "content-type" "content-digest")"#;
    let cases: Vec<(String, HttpSigError)> = vec![
        // A changed parameter value changes the signature base.
        (
            format!(
                r#"sig1={components};created={};keyid="citeproof-test-key""#,
                NOW + 1
            ),
            HttpSigError::SignatureInvalid {
                label: "sig1".into(),
            },
        ),
        (
            format!(r#"sig1={components};created={NOW};keyid="other-key""#),
            HttpSigError::SignatureInvalid {
                label: "sig1".into(),
            },
        ),
        // Parameter order is part of the base.
        (
            format!(r#"sig1={components};keyid="citeproof-test-key";created={NOW}"#),
            HttpSigError::SignatureInvalid {
                label: "sig1".into(),
            },
        ),
        // Dropping a required parameter.
        (
            format!(r#"sig1={components};created={NOW}"#),
            HttpSigError::RequiredParamMissing {
                label: "sig1".into(),
                param: "keyid".into(),
            },
        ),
        (
            format!(r#"sig1={components};keyid="citeproof-test-key""#),
            HttpSigError::RequiredParamMissing {
                label: "sig1".into(),
                param: "created".into(),
            },
        ),
        // Dropping a required component.
        (
            format!(
                r#"sig1=("content-type" "content-digest");created={NOW};keyid="citeproof-test-key""#
            ),
            HttpSigError::RequiredComponentNotCovered {
                label: "sig1".into(),
                component: "\"@status\"".into(),
            },
        ),
        // Declaring another algorithm.
        (
            format!(
                r#"sig1={components};created={NOW};keyid="citeproof-test-key";alg="rsa-pss-sha512""#
            ),
            HttpSigError::AlgMismatch {
                label: "sig1".into(),
                alg: "rsa-pss-sha512".into(),
            },
        ),
        // Adding a parameter.
        (
            format!(r#"sig1={components};created={NOW};keyid="citeproof-test-key";alg="ed25519""#),
            HttpSigError::SignatureInvalid {
                label: "sig1".into(),
            },
        ),
        // An unregistered parameter is kept in the signature base (RFC 9421 §6.3), so adding
        // one after signing breaks the signature instead of being ignored or refused.
        (
            format!(r#"sig1={components};created={NOW};keyid="citeproof-test-key";foo=1"#),
            HttpSigError::SignatureInvalid {
                label: "sig1".into(),
            },
        ),
        (
            format!(r#"sig1={components};created="{NOW}";keyid="citeproof-test-key""#),
            HttpSigError::InvalidParameter {
                param: "created".into(),
                detail: "must be an integer, not a string".into(),
            },
        ),
        // Moving the signature to the future / past.
        (
            format!(
                r#"sig1={components};created={};keyid="citeproof-test-key""#,
                NOW + 3600
            ),
            HttpSigError::CreatedInFuture {
                label: "sig1".into(),
                created: NOW + 3600,
                now: NOW + 5,
            },
        ),
        (
            format!(
                r#"sig1={components};created={NOW};keyid="citeproof-test-key";expires={}"#,
                NOW - 100
            ),
            HttpSigError::InvalidExpiry {
                label: "sig1".into(),
                created: NOW,
                expires: NOW - 100,
            },
        ),
        // Renaming the label.
        (
            format!(r#"sig2={components};created={NOW};keyid="citeproof-test-key""#),
            HttpSigError::LabelNotFound {
                label: "sig1".into(),
            },
        ),
    ];
    for (value, expected) in cases {
        assert_eq!(
            check(&with_signature_input(&value)).unwrap_err(),
            expected,
            "{value}"
        );
    }
}

#[test]
fn structural_tampering_of_the_signature_fields() {
    let original = signed_response()
        .headers()
        .combined("signature-input")
        .unwrap();
    // The same label twice (an ambiguity RFC 8941 would resolve silently) is refused.
    let dup = format!("{original}, {original}");
    assert_eq!(
        check(&with_signature_input(&dup)).unwrap_err().code(),
        "httpsig-invalid-structured-field"
    );
    // A second Signature-Input field line with the same label, likewise.
    let mut msg = signed_response();
    msg.headers_mut()
        .push("Signature-Input", &original)
        .unwrap();
    assert_eq!(
        check(&msg).unwrap_err().code(),
        "httpsig-invalid-structured-field"
    );
    // No Signature field.
    let mut msg = signed_response();
    msg.headers_mut().remove_all("Signature");
    assert_eq!(
        check(&msg).unwrap_err(),
        HttpSigError::SignatureMissing {
            label: "sig1".into()
        }
    );
    // No Signature-Input field.
    let mut msg = signed_response();
    msg.headers_mut().remove_all("Signature-Input");
    assert_eq!(
        check(&msg).unwrap_err(),
        HttpSigError::SignatureInputMissing
    );
    // A signature of the wrong length, or of the wrong type.
    for (value, code) in [
        ("sig1=:AAAA:", "httpsig-malformed-signature"),
        ("sig1=\"abc\"", "httpsig-malformed-signature"),
        ("sig1=:AAAA:;x=1", "httpsig-malformed-signature"),
        ("sig1=:AAAA", "httpsig-invalid-structured-field"),
    ] {
        let mut msg = signed_response();
        set_field(&mut msg, "Signature", value);
        assert_eq!(check(&msg).unwrap_err().code(), code, "{value}");
    }
}

#[test]
fn clock_checks_use_the_callers_now() {
    let msg = signed_response();
    let k = key().verifying_key();
    let sel = LabelSelector::Label("sig1");
    // Within skew of created.
    verify(&msg, &k, sel, &policy(), NOW - 30).unwrap();
    assert_eq!(
        verify(&msg, &k, sel, &policy(), NOW - 31)
            .unwrap_err()
            .code(),
        "httpsig-created-in-future"
    );
    // max_age 300, a policy limit without skew (profile ACA-L3-010).
    verify(&msg, &k, sel, &policy(), NOW + 300).unwrap();
    assert_eq!(
        verify(&msg, &k, sel, &policy(), NOW + 301)
            .unwrap_err()
            .code(),
        "httpsig-too-old"
    );
    // expires.
    let mut msg = unsigned_response();
    sign_in_place(&mut msg, "sig1", &params().with_expires(NOW + 60), &key()).unwrap();
    verify(&msg, &k, sel, &policy(), NOW + 90).unwrap();
    assert_eq!(
        verify(&msg, &k, sel, &policy(), NOW + 91).unwrap_err(),
        HttpSigError::Expired {
            label: "sig1".into(),
            expires: NOW + 60,
            now: NOW + 91
        }
    );
}

#[test]
fn wrong_key_fails() {
    let other = SigningKey::from_bytes(&[43u8; 32]).verifying_key();
    assert_eq!(
        verify(
            &signed_response(),
            &other,
            LabelSelector::Label("sig1"),
            &policy(),
            NOW
        )
        .unwrap_err()
        .code(),
        "httpsig-signature-invalid"
    );
}

#[test]
fn several_signatures() {
    let mut msg = signed_response();
    let second = SignatureParams::new(vec![id("@status"), id("content-digest")])
        .with_created(NOW)
        .with_keyid("citeproof-test-key")
        .with_alg("ed25519")
        .with_tag("second");
    sign_in_place(&mut msg, "sig2", &second, &key()).unwrap();
    // Reusing a label is refused.
    assert_eq!(
        sign(&msg, "sig2", &second, &key()).unwrap_err(),
        HttpSigError::DuplicateLabel {
            label: "sig2".into()
        }
    );
    let k = key().verifying_key();
    let lax = VerifyPolicy::default();
    for label in ["sig1", "sig2"] {
        let one = verify(&msg, &k, LabelSelector::Label(label), &lax, NOW).unwrap();
        assert_eq!(one.label, label);
    }
    // One label suffices: the first that passes is the answer, later labels are not examined.
    let any = verify(&msg, &k, LabelSelector::Any, &lax, NOW).unwrap();
    assert_eq!(any.label, "sig1");
    // The stricter policy rejects sig2 (no content-type) while sig1 passes.
    assert_eq!(
        verify(&msg, &k, LabelSelector::Label("sig2"), &policy(), NOW)
            .unwrap_err()
            .code(),
        "httpsig-required-component-not-covered"
    );
    check(&msg).unwrap();
    // Per-label report: a bad first label does not hide a good second one.
    let mut bad_first = unsigned_response();
    let weak = SignatureParams::new(vec![id("@status")])
        .with_created(NOW)
        .with_keyid("citeproof-test-key");
    sign_in_place(&mut bad_first, "weak", &weak, &key()).unwrap();
    sign_in_place(&mut bad_first, "sig1", &params(), &key()).unwrap();
    let report = verify_message(&bad_first, &SingleKey(k), &policy(), NOW).unwrap();
    assert_eq!(report.labels.len(), 2);
    assert!(matches!(
        &report.labels[0].outcome,
        Err(LabelFailure::Failed(
            HttpSigError::RequiredComponentNotCovered { .. }
        ))
    ));
    assert_eq!(report.verified().unwrap().label, "sig1");
}

#[test]
fn signing_errors() {
    let msg = unsigned_response();
    for label in ["Sig1", "", "1sig", "sig 1"] {
        assert_eq!(
            sign(&msg, label, &params(), &key()).unwrap_err().code(),
            "httpsig-malformed-input",
            "{label:?}"
        );
    }
    assert_eq!(
        sign(&msg, "sig1", &params().with_alg("hmac-sha256"), &key()).unwrap_err(),
        HttpSigError::AlgMismatch {
            label: "sig1".into(),
            alg: "hmac-sha256".into()
        }
    );
    assert_eq!(
        sign(&msg, "sig1", &params().with_created(1), &key())
            .unwrap_err()
            .code(),
        "httpsig-invalid-parameter"
    );
    assert_eq!(
        sign(&msg, "sig1", &params().with_nonce("caf\u{e9}"), &key())
            .unwrap_err()
            .code(),
        "httpsig-invalid-parameter"
    );
    assert_eq!(
        sign(
            &msg,
            "sig1",
            &SignatureParams::new(vec![id("@method")]),
            &key()
        )
        .unwrap_err()
        .code(),
        "httpsig-component-not-applicable"
    );
}

/// RFC 9421 §6.3: the parameter registry is extensible; a verifier keeps an unregistered
/// parameter in the base (where the signature covers it) and otherwise ignores it
/// (profile ACA-L3-008). Expected base written by hand from §2.5.
#[test]
fn unregistered_parameters_are_signed_and_ignored() {
    let mut p = params();
    p.params.insert(
        1,
        SigParam::Other {
            name: "x-purpose".into(),
            value: "\"manifest\"".into(),
        },
    );
    let mut msg = unsigned_response();
    sign_in_place(&mut msg, "sig1", &p, &key()).unwrap();
    let input = msg.headers().combined("Signature-Input").unwrap();
    assert_eq!(
        input,
        format!(
            r#"sig1=("@status" "content-type" "content-digest");created={NOW};x-purpose="manifest";keyid="citeproof-test-key""#
        )
    );
    let ok = check(&msg).unwrap();
    assert!(ok.signature_base.ends_with(&format!(
        r#";created={NOW};x-purpose="manifest";keyid="citeproof-test-key""#
    )));
    // Parsing keeps the position and the exact value text.
    let parsed = parse_signature_input(&input).unwrap();
    assert_eq!(
        parsed[0].1.params[1],
        SigParam::Other {
            name: "x-purpose".into(),
            value: "\"manifest\"".into()
        }
    );
}

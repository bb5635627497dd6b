//! AI Evidence Format v0.1 §5 signing input: JCS of the document without
//! `verification.signature` and `verification.signing_key_uri`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_jose::{KeySet, SigningKey, evidence_signing_input, sign_detached, verify_detached};
use common::expect_code;
use serde_json::{Value, json};

fn evidence() -> Value {
    json!({
        "spec_version": "0.1",
        "evidence_id": "ev-1",
        "source": {"url": "https://example.com/a", "title": "Été"},
        "verification": {
            "content_hash": "sha256:0000000000000000000000000000000000000000000000000000000000000000",
            "signed_by": "pipeline-1",
        },
        "synthesis_role": "supporting",
        "confidence": 1.0,
    })
}

#[test]
fn signing_input_is_jcs_without_signature_members() {
    let doc = evidence();
    let input = evidence_signing_input(&doc).unwrap();
    assert_eq!(
        String::from_utf8(input.clone()).unwrap(),
        concat!(
            r#"{"confidence":1,"evidence_id":"ev-1","source":{"title":"Été","url":"https://example.com/a"},"#,
            r#""spec_version":"0.1","synthesis_role":"supporting","verification":{"content_hash":"sha256:"#,
            r#"0000000000000000000000000000000000000000000000000000000000000000","signed_by":"pipeline-1"}}"#
        )
    );

    // Adding the signature and the key URI does not change the signing input.
    let mut signed = doc.clone();
    signed["verification"]["signature"] = json!("eyJhbGciOiJFZERTQSJ9..AAAA");
    signed["verification"]["signing_key_uri"] = json!("https://example.com/jwks.json");
    assert_eq!(evidence_signing_input(&signed).unwrap(), input);

    // Other members, at any level, do.
    let mut changed = doc.clone();
    changed["verification"]["signed_by"] = json!("someone else");
    assert_ne!(evidence_signing_input(&changed).unwrap(), input);
    let mut top = doc.clone();
    top["signature"] = json!("top-level members are not removed");
    assert_ne!(evidence_signing_input(&top).unwrap(), input);
}

#[test]
fn sign_and_verify_evidence() {
    let key = SigningKey::from_secret_bytes(&[3; 32]);
    let mut doc = evidence();
    let jws = sign_detached(
        &evidence_signing_input(&doc).unwrap(),
        &key,
        Some("pipeline-1"),
    )
    .unwrap();
    doc["verification"]["signature"] = json!(jws);
    doc["verification"]["signing_key_uri"] = json!("https://example.com/jwks.json");

    let keys = KeySet::single(key.verifying_key(), Some("pipeline-1".into()));
    let jws = doc["verification"]["signature"]
        .as_str()
        .unwrap()
        .to_string();
    verify_detached(&jws, &evidence_signing_input(&doc).unwrap(), &keys).unwrap();

    doc["source"]["title"] = json!("Ete");
    expect_code(
        verify_detached(&jws, &evidence_signing_input(&doc).unwrap(), &keys),
        "jws-signature-invalid",
    );
}

#[test]
fn shape_errors() {
    for bad in [
        json!([]),
        json!("x"),
        json!(null),
        json!({"verification": "x"}),
        json!({"verification": []}),
    ] {
        expect_code(evidence_signing_input(&bad), "jws-signing-input-invalid");
    }
    // No verification member: the whole document (schema validation reports it missing).
    assert_eq!(
        evidence_signing_input(&json!({"b": 1, "a": 2})).unwrap(),
        br#"{"a":2,"b":1}"#
    );
}

//! All 151 Wycheproof Ed25519 verification vectors through the crate's verification primitive,
//! plus the two strictness properties that matter for HTTP signatures: a non-canonical `S`
//! (`S + L`) and a small-order public key must both fail.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_httpsig::*;
use common::{read_bytes, read_text};
use ed25519_dalek::Verifier as _;
use serde_json::Value;

#[test]
fn all_wycheproof_ed25519_vectors_agree() {
    let doc: Value = serde_json::from_slice(&read_bytes("wycheproof/ed25519_test.json")).unwrap();
    let groups = doc["testGroups"].as_array().unwrap();
    let (mut total, mut valid, mut invalid) = (0, 0, 0);
    for group in groups {
        let pem = group["publicKeyPem"].as_str().unwrap();
        let key = verifying_key_from_pem(pem).unwrap();
        // The PEM and the raw key of the group are the same key.
        let raw = hex::decode(group["publicKey"]["pk"].as_str().unwrap()).unwrap();
        assert_eq!(key, verifying_key_from_bytes(&raw).unwrap());
        for test in group["tests"].as_array().unwrap() {
            let tc = test["tcId"].as_u64().unwrap();
            let msg = hex::decode(test["msg"].as_str().unwrap()).unwrap();
            let sig = hex::decode(test["sig"].as_str().unwrap()).unwrap();
            let expected = match test["result"].as_str().unwrap() {
                "valid" => true,
                "invalid" => false,
                other => panic!("tcId {tc}: unexpected result {other}"),
            };
            assert_eq!(
                ed25519_verify_strict(&key, &msg, &sig),
                expected,
                "tcId {tc} ({}) flags {}",
                test["comment"],
                test["flags"]
            );
            total += 1;
            if expected {
                valid += 1;
            } else {
                invalid += 1;
            }
        }
    }
    assert_eq!((total, valid, invalid), (151, 88, 63));
    assert_eq!(doc["numberOfTests"].as_u64(), Some(151));
}

fn add_l(s: &[u8]) -> Vec<u8> {
    citeproof_testkit::ed25519_s_plus_l(s)
}

#[test]
fn non_canonical_s_plus_l_fails() {
    // The RFC 9421 B.2.6 signature with S replaced by S + L: the same group element, so a lax
    // verifier would accept it (signature malleability).
    let key = verifying_key_from_pem(&read_text("rfc9421/test-key-ed25519-public.pem")).unwrap();
    let base = read_bytes("rfc9421/b2_6-signature-base.txt");
    let published = read_text("rfc9421/b2_6-signature.txt");
    let (_, sig) = parse_signature(&published).unwrap().remove(0);
    assert!(ed25519_verify_strict(&key, &base, &sig));
    let mut malleated = sig[..32].to_vec();
    malleated.extend(add_l(&sig[32..]));
    assert_ne!(malleated, sig);
    assert!(!ed25519_verify_strict(&key, &base, &malleated));

    // And through the full HTTP verification path.
    let mut msg = parse_http1(&read_bytes("rfc9421/test-request.http")).unwrap();
    msg.headers_mut()
        .push(
            "Signature-Input",
            &read_text("rfc9421/b2_6-signature-input.txt"),
        )
        .unwrap();
    let value = format!("sig-b26=:{}:", b64(&malleated));
    msg.headers_mut().push("Signature", &value).unwrap();
    let err = verify(
        &msg,
        &key,
        LabelSelector::Label("sig-b26"),
        &VerifyPolicy::default(),
        1_618_884_473,
    )
    .unwrap_err();
    assert_eq!(err.code(), "httpsig-signature-invalid");
}

#[test]
fn small_order_public_key_fails() {
    // The identity point (encoding 01 00..00) is a small-order key. With R = identity and S = 0
    // the cofactorless equation [S]B = R + [k]A holds for every message, so a lax verifier
    // accepts this "signature" on anything.
    let mut identity = [0u8; 32];
    identity[0] = 1;
    let weak = VerifyingKey::from_bytes(&identity).unwrap();
    let mut forged = [0u8; 64];
    forged[0] = 1;
    let msg = b"any message at all";
    // ed25519-dalek's lax `verify` accepts it, which is the attack...
    assert!(
        weak.verify(msg, &ed25519_dalek::Signature::from_bytes(&forged))
            .is_ok()
    );
    // ...the crate's primitive does not.
    assert!(!ed25519_verify_strict(&weak, msg, &forged));

    // The key loaders refuse small-order keys outright.
    assert_eq!(
        verifying_key_from_bytes(&identity).unwrap_err(),
        HttpSigError::WeakKey
    );
    let mut spki = vec![
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
    ];
    spki.extend_from_slice(&identity);
    let pem = format!(
        "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----\n",
        b64(&spki)
    );
    assert_eq!(
        verifying_key_from_pem(&pem).unwrap_err(),
        HttpSigError::WeakKey
    );
}

#[test]
fn key_loading_errors() {
    assert_eq!(
        verifying_key_from_pem("not a pem").unwrap_err().code(),
        "httpsig-key-invalid"
    );
    assert_eq!(
        signing_key_from_pem("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
            .unwrap_err()
            .code(),
        "httpsig-key-invalid"
    );
    assert_eq!(
        verifying_key_from_bytes(&[0u8; 31]).unwrap_err().code(),
        "httpsig-key-invalid"
    );
    // A private key PEM is not a public key.
    assert_eq!(
        verifying_key_from_pem(&read_text("rfc9421/test-key-ed25519-private.pem"))
            .unwrap_err()
            .code(),
        "httpsig-key-invalid"
    );
}

fn b64(bytes: &[u8]) -> String {
    citeproof_testkit::base64_std(bytes)
}

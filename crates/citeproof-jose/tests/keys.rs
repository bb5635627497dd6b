//! Key handling: generation, PEM round trips (ours and Python `cryptography`'s), JWK round trips,
//! key sets, the error-code registry.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_jose::{
    JoseError, KeySet, SigningKey, VerifyingKey, b64, load_public_keys, load_signing_key,
    sign_detached, verify_detached,
};
use citeproof_model::jwk::JwkSet;
use common::{expect_code, read_data};

#[test]
fn generate_pem_load_same_key() {
    let key = SigningKey::generate().unwrap();
    let pem = key.to_pkcs8_pem().unwrap();
    assert!(
        pem.starts_with("-----BEGIN PRIVATE KEY-----\n"),
        "{}",
        pem.as_str()
    );
    assert!(pem.ends_with("-----END PRIVATE KEY-----\n"));
    let loaded = SigningKey::from_pkcs8_pem(&pem).unwrap();
    assert_eq!(loaded.verifying_key(), key.verifying_key());
    assert_eq!(*loaded.secret_bytes(), *key.secret_bytes());
    let loaded = load_signing_key(format!("\n{}\n\n", pem.as_str()).as_bytes()).unwrap();
    assert_eq!(loaded.verifying_key(), key.verifying_key());

    let public_pem = key.verifying_key().to_spki_pem().unwrap();
    assert!(public_pem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
    assert_eq!(
        VerifyingKey::from_spki_pem(&public_pem).unwrap(),
        key.verifying_key()
    );
    let set = load_public_keys(public_pem.as_bytes()).unwrap();
    assert_eq!(set.len(), 1);
    assert_eq!(set.entries()[0].key, key.verifying_key());
    assert_eq!(set.entries()[0].kid, None);

    // Whitespace around the block and CRLF line endings are accepted.
    let crlf = format!("\n  {}\r\n\n", public_pem.replace('\n', "\r\n"));
    assert_eq!(
        load_public_keys(crlf.as_bytes()).unwrap().entries()[0].key,
        key.verifying_key()
    );
}

#[test]
fn generated_keys_differ() {
    let a = SigningKey::generate().unwrap();
    let b = SigningKey::generate().unwrap();
    assert_ne!(a.verifying_key(), b.verifying_key());
}

#[test]
fn python_cryptography_pem_fixtures_load() {
    let private = String::from_utf8(read_data("python-cryptography/ed25519_pkcs8.pem")).unwrap();
    let public = String::from_utf8(read_data("python-cryptography/ed25519_spki.pem")).unwrap();
    let raw = String::from_utf8(read_data("python-cryptography/ed25519_public_raw.hex")).unwrap();
    let raw: [u8; 32] = hex::decode(raw.trim()).unwrap().try_into().unwrap();

    let signing = SigningKey::from_pkcs8_pem(&private).unwrap();
    let verifying = VerifyingKey::from_spki_pem(&public).unwrap();
    assert_eq!(signing.verifying_key(), verifying);
    assert_eq!(verifying.to_bytes(), raw);
    // Our SPKI encoding is byte-identical to cryptography's.
    assert_eq!(verifying.to_spki_pem().unwrap(), public);
    // Our PKCS#8 encoding is byte-identical to cryptography's too (v1, no public key).
    let ours = signing.to_pkcs8_pem().unwrap();
    assert_eq!(ours.as_str(), private);
}

#[test]
fn jwk_round_trip_and_set() {
    let keys: Vec<SigningKey> = (1..=3)
        .map(|n| SigningKey::from_secret_bytes(&[n; 32]))
        .collect();
    let set = KeySet::new(
        keys.iter()
            .enumerate()
            .map(|(i, k)| citeproof_jose::KeyEntry {
                kid: Some(format!("key-{i}")),
                key: k.verifying_key(),
            })
            .collect(),
    )
    .unwrap();
    let jwks: JwkSet = set.to_jwk_set();
    let text = serde_json::to_vec(&jwks).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(value["keys"][0]["kty"], "OKP");
    assert_eq!(value["keys"][0]["crv"], "Ed25519");
    assert_eq!(value["keys"][0]["alg"], "EdDSA");
    assert_eq!(value["keys"][0]["use"], "sig");
    assert_eq!(value["keys"][0]["kid"], "key-0");
    assert_eq!(value["keys"][0]["x"].as_str().unwrap().len(), 43);
    assert!(value["keys"][0].get("d").is_none());
    assert_eq!(KeySet::from_json(&text).unwrap(), set);
    assert_eq!(KeySet::from_jwk_set(&jwks).unwrap(), set);
    assert_eq!(load_public_keys(&text).unwrap(), set);

    // Every key verifies its own JWS through the set.
    for (i, k) in keys.iter().enumerate() {
        let jws = sign_detached(b"payload", k, Some(&format!("key-{i}"))).unwrap();
        verify_detached(&jws, b"payload", &set).unwrap();
    }

    // Single JWK, with and without kid.
    let one = serde_json::to_vec(&keys[0].verifying_key().to_jwk(None)).unwrap();
    let single = load_public_keys(&one).unwrap();
    assert_eq!(single.entries()[0].kid, None);
    assert_eq!(single.entries()[0].key, keys[0].verifying_key());
}

#[test]
fn thumbprint_is_stable_and_key_specific() {
    let a = SigningKey::from_secret_bytes(&[1; 32]).verifying_key();
    let b = SigningKey::from_secret_bytes(&[2; 32]).verifying_key();
    assert_eq!(a.thumbprint(), a.thumbprint());
    assert_ne!(a.thumbprint(), b.thumbprint());
    assert_eq!(b64::decode(&a.thumbprint()).unwrap().len(), 32);
}

#[test]
fn signing_is_deterministic_and_header_is_jcs() {
    let key = SigningKey::from_secret_bytes(&[7; 32]);
    assert_eq!(
        sign_detached(b"x", &key, Some("k")).unwrap(),
        sign_detached(b"x", &key, Some("k")).unwrap()
    );
    assert_ne!(
        sign_detached(b"x", &key, Some("k")).unwrap(),
        sign_detached(b"x", &key, None).unwrap()
    );
    assert_eq!(
        citeproof_jose::protected_header_bytes(Some("k1")),
        br#"{"alg":"EdDSA","kid":"k1"}"#
    );
    assert_eq!(
        citeproof_jose::protected_header_bytes(None),
        br#"{"alg":"EdDSA"}"#
    );
    // kid is escaped the JCS way and still round-trips through verification.
    let kid = "a\"b\\c\u{1}é/€😀";
    let header = citeproof_jose::protected_header_bytes(Some(kid));
    assert_eq!(
        header,
        "{\"alg\":\"EdDSA\",\"kid\":\"a\\\"b\\\\c\\u0001é/€😀\"}".as_bytes()
    );
    let jws = sign_detached(b"x", &key, Some(kid)).unwrap();
    let set = KeySet::single(key.verifying_key(), Some(kid.to_string()));
    assert_eq!(
        verify_detached(&jws, b"x", &set).unwrap().kid.as_deref(),
        Some(kid)
    );
}

#[test]
fn debug_does_not_print_the_secret() {
    let key = SigningKey::from_secret_bytes(&[0xab; 32]);
    let shown = format!("{key:?}");
    assert!(!shown.contains("abab"), "{shown}");
    assert!(!shown.contains(&b64::encode(&[0xab; 32])), "{shown}");
    assert!(shown.contains(&b64::encode(&key.verifying_key().to_bytes())));
}

#[test]
fn error_codes_are_unique_kebab_case_and_prefixed() {
    let codes = JoseError::ALL_CODES;
    let mut sorted = codes.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), codes.len(), "duplicate code");
    for code in codes {
        assert!(
            code.starts_with("jws-") || code.starts_with("jwk-") || code.starts_with("key-"),
            "{code}"
        );
        assert!(
            code.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !code.ends_with('-')
                && !code.contains("--"),
            "{code}"
        );
    }
    // One value of every variant: its code is registered, and every registered code is used.
    let s = String::new;
    let all = [
        JoseError::JwsTooLarge { len: 0, limit: 0 },
        JoseError::JwsMalformed { reason: s() },
        JoseError::JwsBase64Invalid {
            part: citeproof_jose::JwsPart::Header,
            reason: s(),
        },
        JoseError::JwsHeaderInvalid { reason: s() },
        JoseError::JwsAlgMissing,
        JoseError::JwsAlgForbidden { alg: s() },
        JoseError::JwsCritUnsupported,
        JoseError::JwsB64Unsupported,
        JoseError::JwsPayloadAttached,
        JoseError::JwsSignatureInvalid { reason: s() },
        JoseError::JwsKidUnknown { kid: s() },
        JoseError::JwsKeyAmbiguous { keys: 2 },
        JoseError::JwsSigningInputInvalid { reason: s() },
        JoseError::JwkMalformed {
            at: s(),
            reason: s(),
        },
        JoseError::JwkUnsupportedKeyType { at: s(), kty: s() },
        JoseError::JwkUnsupportedCurve { at: s(), crv: s() },
        JoseError::JwkInvalidKeyLength { at: s(), len: 0 },
        JoseError::JwkInvalidPoint { at: s() },
        JoseError::JwkWeakKey { at: s() },
        JoseError::JwkPrivateKeyPublished { at: s() },
        JoseError::JwkPrivateKeyMissing { at: s() },
        JoseError::JwkKeyMismatch { at: s() },
        JoseError::JwkDuplicateKid { at: s(), kid: s() },
        JoseError::JwkSetEmpty,
        JoseError::JwkUseMismatch {
            at: s(),
            key_use: s(),
        },
        JoseError::JwkAlgMismatch { at: s(), alg: s() },
        JoseError::KeyInputTooLarge { len: 0, limit: 0 },
        JoseError::KeyFormatUnknown { reason: s() },
        JoseError::KeyPemMalformed { reason: s() },
        JoseError::KeyUnsupportedAlgorithm { reason: s() },
        JoseError::KeyPrivateKeyPublished,
        JoseError::KeyMismatch,
        JoseError::KeyInvalidPoint,
        JoseError::KeyWeak,
        JoseError::KeyRngFailure { reason: s() },
        JoseError::KeyEncodingFailed { reason: s() },
    ];
    let used: Vec<&str> = all.iter().map(JoseError::code).collect();
    assert_eq!(used, codes);
    for e in &all {
        assert!(!e.to_string().is_empty());
        assert_eq!(
            e.pointer().is_some(),
            e.code().starts_with("jwk-") && e.code() != "jwk-set-empty",
            "{e:?}"
        );
    }
}

#[test]
fn public_key_from_bytes_round_trip() {
    let key = SigningKey::from_secret_bytes(&[5; 32]).verifying_key();
    assert_eq!(VerifyingKey::from_bytes(&key.to_bytes()).unwrap(), key);
    expect_code(VerifyingKey::from_bytes(&[0u8; 32]), "key-weak");
}

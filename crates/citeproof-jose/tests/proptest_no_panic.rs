//! Property tests: no input makes the JWS parser/verifier or the key loaders panic, and
//! sign/verify round-trips for arbitrary payloads and kids.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_jose::{
    KeySet, SigningKey, b64, load_public_keys, load_signing_key, parse_detached, sign_detached,
    verify_detached,
};
use citeproof_testkit::arbitrary::JsonShape;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn keys() -> KeySet {
    KeySet::single(
        SigningKey::from_secret_bytes(&[1; 32]).verifying_key(),
        Some("k1".into()),
    )
}

/// JWK-shaped JSON: JWK member names, key types and curves, and base64url texts of any bytes.
fn json_value() -> impl Strategy<Value = Value> {
    citeproof_testkit::arbitrary::json_value(JsonShape {
        text: ".{0,12}",
        words: &["OKP", "Ed25519", "EdDSA", "sig", "RSA", "X25519"],
        extra_leaf: Some(
            prop::collection::vec(any::<u8>(), 0..40)
                .prop_map(|b| Value::String(b64::encode(&b)))
                .boxed(),
        ),
        names: &["kty", "crv", "x", "d", "kid", "alg", "use", "keys"],
        name_pattern: "[a-z]{1,4}",
        max_members: 8,
        branch: 8,
    })
}

/// JWK-shaped objects with a valid or almost-valid `x`.
fn jwk_like() -> impl Strategy<Value = Value> {
    (
        prop::option::of(prop_oneof![Just("OKP"), Just("EC"), Just("okp")]),
        prop::option::of(prop_oneof![Just("Ed25519"), Just("Ed448"), Just("X25519")]),
        prop::collection::vec(any::<u8>(), 0..40),
        any::<bool>(),
        prop::option::of(prop::collection::vec(any::<u8>(), 0..40)),
        prop::option::of("[a-z0-9]{0,4}"),
    )
        .prop_map(|(kty, crv, x, pad, d, kid)| {
            let mut m = Map::new();
            if let Some(kty) = kty {
                m.insert("kty".into(), json!(kty));
            }
            if let Some(crv) = crv {
                m.insert("crv".into(), json!(crv));
            }
            let mut x = b64::encode(&x);
            if pad {
                x.push('=');
            }
            m.insert("x".into(), json!(x));
            if let Some(d) = d {
                m.insert("d".into(), json!(b64::encode(&d)));
            }
            if let Some(kid) = kid {
                m.insert("kid".into(), json!(kid));
            }
            Value::Object(m)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_strings_never_panic(s in ".{0,200}", payload in prop::collection::vec(any::<u8>(), 0..64)) {
        let _ = parse_detached(&s);
        let _ = verify_detached(&s, &payload, &keys());
    }

    #[test]
    fn jws_shaped_strings_never_panic(
        h in "[A-Za-z0-9_=+/-]{0,60}",
        p in "[A-Za-z0-9_-]{0,3}",
        sig in "[A-Za-z0-9_=+/-]{0,100}",
        extra in prop::option::of("[A-Za-z0-9_.-]{0,10}"),
    ) {
        let jws = match extra {
            Some(e) => format!("{h}.{p}.{sig}.{e}"),
            None => format!("{h}.{p}.{sig}"),
        };
        let _ = verify_detached(&jws, b"payload", &keys());
    }

    #[test]
    fn arbitrary_headers_never_panic(header in json_value(), sig in prop::collection::vec(any::<u8>(), 0..70)) {
        let text = serde_json::to_vec(&header).unwrap();
        let jws = format!("{}..{}", b64::encode(&text), b64::encode(&sig));
        if let Ok(parsed) = parse_detached(&jws) {
            // EdDSA (RFC 8037) or its fully specified name Ed25519 (RFC 9864), nothing else.
            let alg = parsed.header.get("alg");
            prop_assert!(alg == Some(&json!("EdDSA")) || alg == Some(&json!("Ed25519")), "{alg:?}");
            prop_assert!(!parsed.header.contains_key("crit") && !parsed.header.contains_key("b64"));
        }
        let _ = verify_detached(&jws, b"payload", &keys());
    }

    #[test]
    fn arbitrary_json_into_jwk_parser_never_panics(v in json_value()) {
        let text = serde_json::to_vec(&v).unwrap();
        let _ = KeySet::from_json(&text);
        let _ = load_public_keys(&text);
        let _ = load_signing_key(&text);
        let set = serde_json::to_vec(&json!({"keys": [v]})).unwrap();
        let _ = KeySet::from_json(&set);
    }

    #[test]
    fn jwk_like_objects_never_panic(v in jwk_like(), w in jwk_like()) {
        let set = serde_json::to_vec(&json!({"keys": [v.clone(), w]})).unwrap();
        let result = KeySet::from_json(&set);
        if let Ok(set) = &result {
            // Whatever was accepted has no private key and round-trips.
            let again = serde_json::to_vec(&set.to_jwk_set()).unwrap();
            prop_assert_eq!(&KeySet::from_json(&again).unwrap(), set);
        }
        let _ = load_signing_key(&serde_json::to_vec(&v).unwrap());
    }

    #[test]
    fn arbitrary_bytes_into_key_loaders_never_panic(b in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = load_public_keys(&b);
        let _ = load_signing_key(&b);
        let mut pem = b"-----BEGIN PUBLIC KEY-----\n".to_vec();
        pem.extend_from_slice(&b);
        let _ = load_public_keys(&pem);
        let mut pem = b"-----BEGIN PRIVATE KEY-----\n".to_vec();
        pem.extend_from_slice(&b);
        let _ = load_signing_key(&pem);
    }

    #[test]
    fn sign_verify_round_trip(secret in any::<[u8; 32]>(), payload in prop::collection::vec(any::<u8>(), 0..256), kid in prop::option::of(".{0,16}")) {
        let key = SigningKey::from_secret_bytes(&secret);
        // A kid with a noncharacter is not I-JSON: the signer refuses it, as the verifier would.
        let nonchar = |c: char| matches!(c as u32, 0xFDD0..=0xFDEF) || (c as u32 & 0xFFFE) == 0xFFFE;
        let jws = match sign_detached(&payload, &key, kid.as_deref()) {
            Ok(jws) => jws,
            Err(e) => {
                prop_assert!(kid.as_deref().is_some_and(|k| k.chars().any(nonchar)), "{e}");
                prop_assert_eq!(e.code(), "jws-header-invalid");
                return Ok(());
            }
        };
        let set = KeySet::single(key.verifying_key(), kid.clone());
        let v = verify_detached(&jws, &payload, &set).unwrap();
        prop_assert_eq!(v.kid, kid);
        let mut other = payload.clone();
        other.push(0);
        prop_assert_eq!(verify_detached(&jws, &other, &set).unwrap_err().code(), "jws-signature-invalid");
    }
}

/// Hand-picked: U+FDD0 and U+FFFF are noncharacters, refused in a kid by the signer with the
/// verifier's own code; a kid that makes the JWS longer than 64 KiB is refused as too large.
#[test]
fn the_signer_refuses_a_kid_the_verifier_would_refuse() {
    let key = SigningKey::from_secret_bytes(&[7; 32]);
    for kid in ["a\u{FDD0}b", "\u{FFFF}"] {
        let e = sign_detached(b"x", &key, Some(kid)).unwrap_err();
        assert_eq!(e.code(), "jws-header-invalid", "{kid:?}");
    }
    let long = "k".repeat(64 * 1024);
    assert_eq!(
        sign_detached(b"x", &key, Some(&long)).unwrap_err().code(),
        "jws-too-large"
    );
    let ok = sign_detached(b"x", &key, Some("k\u{FDCF}")).unwrap();
    let set = KeySet::single(key.verifying_key(), Some("k\u{FDCF}".into()));
    assert!(verify_detached(&ok, b"x", &set).is_ok());
}

//! Everything about a JWS that must be refused, with its exact error code: structure, encoding,
//! header (algorithm confusion, `crit`, `b64`), key selection, tampering, non-canonical
//! signatures. JWK, JWK Set and PEM refusals: `negative_keys.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_jose::{
    JoseError, JwsPart, KeyEntry, KeySet, SigningKey, VerifyingKey, b64, parse_detached,
    sign_detached, signing_input, verify_detached,
};
use common::expect_code;
use serde_json::{Value, json};

const PAYLOAD: &[u8] = b"{\"claim\":\"the sky is blue\"}";

fn key(n: u8) -> SigningKey {
    SigningKey::from_secret_bytes(&[n; 32])
}

fn set(entries: &[(u8, Option<&str>)]) -> KeySet {
    KeySet::new(
        entries
            .iter()
            .map(|(n, kid)| KeyEntry {
                kid: kid.map(str::to_string),
                key: key(*n).verifying_key(),
            })
            .collect(),
    )
    .unwrap()
}

/// A detached JWS over PAYLOAD with an arbitrary protected header, properly signed by `key(1)`.
fn signed_with_header(header: &Value) -> String {
    let protected_b64 = b64::encode(&serde_json::to_vec(header).unwrap());
    let signature = key(1).sign(&signing_input(&protected_b64, PAYLOAD));
    format!("{protected_b64}..{}", b64::encode(&signature))
}

fn k1() -> KeySet {
    set(&[(1, Some("k1"))])
}

/// The error of `jws` over [`PAYLOAD`] under `k1`, which must have `code`.
fn refused(jws: &str, code: &str) -> JoseError {
    expect_code(verify_detached(jws, PAYLOAD, &k1()), code)
}

// ---------------------------------------------------------------- sanity: the happy path

#[test]
fn valid_detached_jws_verifies() {
    let jws = sign_detached(PAYLOAD, &key(1), Some("k1")).unwrap();
    let header = parse_detached(&jws).unwrap();
    assert_eq!(
        b64::decode(&header.protected_b64).unwrap(),
        br#"{"alg":"EdDSA","kid":"k1"}"#
    );
    let verified = verify_detached(&jws, PAYLOAD, &k1()).unwrap();
    assert_eq!(verified.kid.as_deref(), Some("k1"));
    assert_eq!(verified.key_kid.as_deref(), Some("k1"));
    assert_eq!(verified.key, key(1).verifying_key());
    // A header with extra members (typ) is fine when signed.
    let jws = signed_with_header(&json!({"alg": "EdDSA", "kid": "k1", "typ": "JOSE"}));
    verify_detached(&jws, PAYLOAD, &k1()).unwrap();
}

// ---------------------------------------------------------------- algorithm

#[test]
fn alg_none_is_forbidden() {
    let header = b64::encode(br#"{"alg":"none"}"#);
    for jws in [format!("{header}.."), format!("{header}..AAAA")] {
        let e = refused(&jws, "jws-alg-forbidden");
        assert_eq!(e, JoseError::JwsAlgForbidden { alg: "none".into() });
    }
    // Case variants too.
    let jws = signed_with_header(&json!({"alg": "None"}));
    refused(&jws, "jws-alg-forbidden");
    let jws = signed_with_header(&json!({"alg": "eddsa"}));
    refused(&jws, "jws-alg-forbidden");
    // RFC 9864's fully-specified "Ed25519" is the same algorithm: accepted, case-sensitively.
    let jws = signed_with_header(&json!({"alg": "Ed25519"}));
    assert!(verify_detached(&jws, PAYLOAD, &k1()).is_ok());
    let jws = signed_with_header(&json!({"alg": "ed25519"}));
    refused(&jws, "jws-alg-forbidden");
}

/// HMAC-SHA-256 (RFC 2104) on top of the model's SHA-256, for the confusion attack.
fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let sha = |b: &[u8]| *citeproof_model::sha256_bytes(b).digest();
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&sha(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let mut inner: Vec<u8> = block.iter().map(|b| b ^ 0x36).collect();
    inner.extend_from_slice(message);
    let mut outer: Vec<u8> = block.iter().map(|b| b ^ 0x5c).collect();
    outer.extend_from_slice(&sha(&inner));
    sha(&outer)
}

#[test]
fn hmac_helper_matches_rfc4231_case_1() {
    assert_eq!(
        hex::encode(hmac_sha256(&[0x0b; 20], b"Hi There")),
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    );
}

/// The classic confusion: an attacker MACs with HS256 using the *public* key (raw bytes, the JWK
/// text, or the PEM text) as the HMAC secret, hoping the verifier feeds its public key to HMAC.
#[test]
fn hs256_with_the_public_key_as_secret_is_forbidden() {
    let public = key(1).verifying_key();
    let secrets: Vec<Vec<u8>> = vec![
        public.to_bytes().to_vec(),
        serde_json::to_vec(&public.to_jwk(Some("k1"))).unwrap(),
        public.to_spki_pem().unwrap().into_bytes(),
    ];
    for secret in secrets {
        let protected_b64 = b64::encode(br#"{"alg":"HS256","kid":"k1"}"#);
        let mac = hmac_sha256(&secret, &signing_input(&protected_b64, PAYLOAD));
        let jws = format!("{protected_b64}..{}", b64::encode(&mac));
        let e = refused(&jws, "jws-alg-forbidden");
        assert_eq!(
            e,
            JoseError::JwsAlgForbidden {
                alg: "HS256".into()
            }
        );
    }
    for alg in ["RS256", "ES256", "PS256", "HS512", "ES256K", "Ed448"] {
        let jws = signed_with_header(&json!({ "alg": alg }));
        refused(&jws, "jws-alg-forbidden");
    }
}

#[test]
fn alg_missing_or_not_a_string() {
    let jws = signed_with_header(&json!({"kid": "k1"}));
    refused(&jws, "jws-alg-missing");
    for alg in [
        json!(null),
        json!(1),
        json!(["EdDSA"]),
        json!({"EdDSA": true}),
    ] {
        let jws = signed_with_header(&json!({ "alg": alg }));
        refused(&jws, "jws-header-invalid");
    }
}

// ---------------------------------------------------------------- crit, b64

#[test]
fn crit_is_refused() {
    for crit in [json!(["exp"]), json!([]), json!("exp"), json!(["kid"])] {
        let jws = signed_with_header(&json!({"alg": "EdDSA", "kid": "k1", "crit": crit, "exp": 1}));
        refused(&jws, "jws-crit-unsupported");
    }
}

#[test]
fn b64_false_is_refused() {
    // A real RFC 7797 JWS: signing input is ASCII(header_b64) || '.' || payload (unencoded).
    let header = json!({"alg": "EdDSA", "kid": "k1", "b64": false, "crit": ["b64"]});
    let protected_b64 = b64::encode(&serde_json::to_vec(&header).unwrap());
    let mut input = format!("{protected_b64}.").into_bytes();
    input.extend_from_slice(PAYLOAD);
    let jws = format!("{protected_b64}..{}", b64::encode(&key(1).sign(&input)));
    refused(&jws, "jws-b64-unsupported");
    // b64 is refused whatever its value, with or without crit.
    for header in [
        json!({"alg": "EdDSA", "b64": true}),
        json!({"alg": "EdDSA", "b64": false}),
        json!({"alg": "EdDSA", "b64": true, "crit": ["b64"]}),
    ] {
        let jws = signed_with_header(&header);
        refused(&jws, "jws-b64-unsupported");
    }
}

// ---------------------------------------------------------------- structure and encoding

#[test]
fn wrong_number_of_parts() {
    let jws = sign_detached(PAYLOAD, &key(1), Some("k1")).unwrap();
    let (h, sig) = jws.split_once("..").unwrap();
    for bad in [
        format!("{h}.{sig}"),
        format!("{h}...{sig}"),
        format!("{h}..{sig}."),
        format!(".{h}..{sig}"),
        format!("{h}.x.y.{sig}.z"), // JWE-shaped
        h.to_string(),
        String::new(),
        ".".into(),
    ] {
        let e = refused(&bad, "jws-malformed");
        assert!(e.to_string().contains("parts"), "{e}");
    }
    // 3 parts but an empty header or signature.
    refused(&format!("..{sig}"), "jws-malformed");
    refused(&format!("{h}.."), "jws-malformed");
    refused("..", "jws-malformed");
}

#[test]
fn attached_payload_is_refused_even_when_it_matches() {
    let jws = sign_detached(PAYLOAD, &key(1), Some("k1")).unwrap();
    let (h, sig) = jws.split_once("..").unwrap();
    let attached = format!("{h}.{}.{sig}", b64::encode(PAYLOAD));
    refused(&attached, "jws-payload-attached");
    let other = format!("{h}.{}.{sig}", b64::encode(b"other"));
    refused(&other, "jws-payload-attached");
}

#[test]
fn padding_and_wrong_alphabet_are_refused() {
    // kid "k1" makes a 26-byte header: 35 base64url characters, which padding would make 36.
    let jws = sign_detached(PAYLOAD, &key(1), Some("k1")).unwrap();
    let (h, sig) = jws.split_once("..").unwrap();
    assert_eq!(h.len() % 4, 3);
    assert_eq!(sig.len(), 86); // 64 bytes: "==" when padded
    let cases = [
        (format!("{h}=..{sig}"), JwsPart::Header),
        (format!("{h}..{sig}=="), JwsPart::Signature),
        (format!("{h}..{sig}="), JwsPart::Signature),
        (format!("{h} ..{sig}"), JwsPart::Header),
        (format!("{h}..{sig}\n"), JwsPart::Signature),
        (
            format!("{}..{sig}", h.replacen('J', "+", 1).replacen('e', "/", 1)),
            JwsPart::Header,
        ),
        (format!("{h}..{}", &sig[..85]), JwsPart::Signature), // length 1 mod 4 would be 85? 85 % 4 == 1
    ];
    for (bad, part) in cases {
        let e = refused(&bad, "jws-base64-invalid");
        match e {
            JoseError::JwsBase64Invalid { part: got, .. } => assert_eq!(got, part, "{bad}"),
            other => panic!("{other:?}"),
        }
    }
    // Standard-alphabet characters in the signature.
    let std_sig = sig.replace('-', "+").replace('_', "/");
    if std_sig != sig {
        refused(&format!("{h}..{std_sig}"), "jws-base64-invalid");
    }
    // Non-zero trailing bits: the last character of an 86-char (64-byte) segment carries 4
    // unused bits; flipping one of them gives a different string for the same bytes.
    let last = sig.as_bytes()[85];
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let idx = alphabet.iter().position(|&c| c == last).unwrap();
    let twin = alphabet[idx ^ 1] as char;
    let non_canonical = format!("{h}..{}{twin}", &sig[..85]);
    refused(&non_canonical, "jws-base64-invalid");
}

#[test]
fn header_must_be_an_i_json_object() {
    for header in [
        &b"not json"[..],
        b"[\"alg\",\"EdDSA\"]",
        b"\"EdDSA\"",
        b"{\"alg\":\"EdDSA\",\"alg\":\"EdDSA\"}", // duplicate member (I-JSON)
        b"{\"alg\":\"EdDSA\"} x",
        b"\xef\xbb\xbf{\"alg\":\"EdDSA\"}",         // BOM
        b"{\"alg\":\"EdDSA\",\"kid\":\"\\ud800\"}", // lone surrogate
        b"{\"alg\":\"EdDSA\",\"x\":1e400}",
        b"\xff",
    ] {
        let protected_b64 = b64::encode(header);
        let signature = key(1).sign(&signing_input(&protected_b64, PAYLOAD));
        let jws = format!("{protected_b64}..{}", b64::encode(&signature));
        refused(&jws, "jws-header-invalid");
    }
    let jws = signed_with_header(&json!({"alg": "EdDSA", "kid": 7}));
    refused(&jws, "jws-header-invalid");
}

#[test]
fn oversized_jws_is_refused() {
    let jws = format!("{}..AAAA", "A".repeat(citeproof_jose::MAX_JWS_BYTES));
    refused(&jws, "jws-too-large");
    // Exactly at the limit is parsed (and fails later for another reason).
    let h = "A".repeat(citeproof_jose::MAX_JWS_BYTES - 6);
    let jws = format!("{h}..AAAA");
    assert_eq!(jws.len(), citeproof_jose::MAX_JWS_BYTES);
    assert_ne!(
        verify_detached(&jws, PAYLOAD, &k1()).unwrap_err().code(),
        "jws-too-large"
    );
}

#[test]
fn signature_of_wrong_length() {
    let jws = sign_detached(PAYLOAD, &key(1), Some("k1")).unwrap();
    let (h, sig) = jws.split_once("..").unwrap();
    let bytes = b64::decode(sig).unwrap();
    for bad in [
        &bytes[..63],
        &[bytes.as_slice(), &[0]].concat()[..],
        &bytes[..32],
    ] {
        let jws = format!("{h}..{}", b64::encode(bad));
        refused(&jws, "jws-signature-invalid");
    }
}

// ---------------------------------------------------------------- key selection

#[test]
fn unknown_kid() {
    let jws = sign_detached(PAYLOAD, &key(1), Some("k1")).unwrap();
    let e = expect_code(
        verify_detached(&jws, PAYLOAD, &set(&[(1, Some("k2"))])),
        "jws-kid-unknown",
    );
    assert_eq!(e, JoseError::JwsKidUnknown { kid: "k1".into() });
    expect_code(
        verify_detached(&jws, PAYLOAD, &set(&[(1, Some("k2")), (2, Some("k3"))])),
        "jws-kid-unknown",
    );
    // Two keys, one without kid: the kid still has to match.
    expect_code(
        verify_detached(&jws, PAYLOAD, &set(&[(1, None), (2, Some("k3"))])),
        "jws-kid-unknown",
    );
}

#[test]
fn single_key_without_kid_is_used_for_any_kid() {
    // A key loaded from PEM has no kid: the caller chose it explicitly.
    let jws = sign_detached(PAYLOAD, &key(1), Some("k1")).unwrap();
    let verified = verify_detached(&jws, PAYLOAD, &set(&[(1, None)])).unwrap();
    assert_eq!(verified.key_kid, None);
    assert_eq!(verified.kid.as_deref(), Some("k1"));
    // ...but the signature must still verify with it.
    expect_code(
        verify_detached(&jws, PAYLOAD, &set(&[(2, None)])),
        "jws-signature-invalid",
    );
}

#[test]
fn no_kid_and_several_keys_is_ambiguous() {
    let jws = sign_detached(PAYLOAD, &key(1), None).unwrap();
    let e = expect_code(
        verify_detached(&jws, PAYLOAD, &set(&[(1, Some("a")), (2, Some("b"))])),
        "jws-key-ambiguous",
    );
    assert_eq!(e, JoseError::JwsKeyAmbiguous { keys: 2 });
    // One key: used.
    verify_detached(&jws, PAYLOAD, &set(&[(1, Some("a"))])).unwrap();
}

#[test]
fn kid_selects_among_several_keys() {
    let keys = set(&[(1, Some("a")), (2, Some("b")), (3, Some("c"))]);
    for (n, kid) in [(1, "a"), (2, "b"), (3, "c")] {
        let jws = sign_detached(PAYLOAD, &key(n), Some(kid)).unwrap();
        let v = verify_detached(&jws, PAYLOAD, &keys).unwrap();
        assert_eq!(v.key, key(n).verifying_key());
    }
    // Signed by key 1 but claiming kid "b": verified with key 2, fails.
    let jws = sign_detached(PAYLOAD, &key(1), Some("b")).unwrap();
    expect_code(
        verify_detached(&jws, PAYLOAD, &keys),
        "jws-signature-invalid",
    );
}

// ---------------------------------------------------------------- tampering

#[test]
fn tampered_payload() {
    let jws = sign_detached(PAYLOAD, &key(1), Some("k1")).unwrap();
    let mut tampered = PAYLOAD.to_vec();
    tampered[3] ^= 0x20;
    expect_code(
        verify_detached(&jws, &tampered, &k1()),
        "jws-signature-invalid",
    );
    expect_code(verify_detached(&jws, b"", &k1()), "jws-signature-invalid");
    let mut longer = PAYLOAD.to_vec();
    longer.push(b' ');
    expect_code(
        verify_detached(&jws, &longer, &k1()),
        "jws-signature-invalid",
    );
}

#[test]
fn tampered_header() {
    let jws = sign_detached(PAYLOAD, &key(1), Some("k1")).unwrap();
    let (_, sig) = jws.split_once("..").unwrap();
    for header in [
        br#"{"alg":"EdDSA","kid":"k1","typ":"JWT"}"#.as_slice(),
        br#"{"kid":"k1","alg":"EdDSA"}"#, // same members, other order: other bytes
        br#"{"alg":"EdDSA", "kid":"k1"}"#,
    ] {
        let forged = format!("{}..{sig}", b64::encode(header));
        refused(&forged, "jws-signature-invalid");
    }
}

#[test]
fn tampered_signature_bits() {
    let jws = sign_detached(PAYLOAD, &key(1), Some("k1")).unwrap();
    let (h, sig) = jws.split_once("..").unwrap();
    let bytes = b64::decode(sig).unwrap();
    for i in [0, 31, 32, 63] {
        let mut b = bytes.clone();
        b[i] ^= 0x01;
        let forged = format!("{h}..{}", b64::encode(&b));
        refused(&forged, "jws-signature-invalid");
    }
}

fn add_l(s: &[u8]) -> Vec<u8> {
    citeproof_testkit::ed25519_s_plus_l(s)
}

/// Malleability: S + L is the same scalar mod L; a lax verifier accepts it. Strict
/// verification (and RFC 8032 §5.1.7) requires S < L.
#[test]
fn non_canonical_s_is_refused() {
    let jws = sign_detached(PAYLOAD, &key(1), Some("k1")).unwrap();
    let (h, sig) = jws.split_once("..").unwrap();
    let bytes = b64::decode(sig).unwrap();
    let mut malleated = bytes[..32].to_vec();
    malleated.extend(add_l(&bytes[32..]));
    let forged = format!("{h}..{}", b64::encode(&malleated));
    refused(&forged, "jws-signature-invalid");

    // The same property from Wycheproof: every "SignatureMalleability" test is invalid for us.
    let file = common::read_json("wycheproof/ed25519_test.json");
    let mut seen = 0;
    for group in file["testGroups"].as_array().unwrap() {
        let pk: [u8; 32] = hex::decode(group["publicKey"]["pk"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap();
        let key = VerifyingKey::from_bytes(&pk).unwrap();
        for t in group["tests"].as_array().unwrap() {
            if t["flags"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f == "SignatureMalleability")
            {
                seen += 1;
                assert_eq!(t["result"], "invalid");
                let msg = hex::decode(t["msg"].as_str().unwrap()).unwrap();
                let sig = hex::decode(t["sig"].as_str().unwrap()).unwrap();
                expect_code(key.verify(&msg, &sig), "jws-signature-invalid");
            }
        }
    }
    assert_eq!(seen, 8);
}

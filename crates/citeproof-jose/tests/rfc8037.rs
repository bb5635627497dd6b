//! RFC 8037 Appendix A: the published Ed25519 example (A.1 private JWK, A.2 public JWK, A.3
//! thumbprint, A.4 signing, A.5 validation), reproduced byte for byte.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_jose::jwk::ALG_EDDSA;
use citeproof_jose::{
    KeySet, SigningKey, VerifyingKey, b64, parse_detached, protected_header_bytes, sign_detached,
    signing_input, verify_detached,
};
use citeproof_model::jwk::Jwk;
use common::{expect_code, rfc8037, s};

fn a1_key() -> SigningKey {
    let v = rfc8037();
    let jwk: Jwk = serde_json::from_value(v["a1_ed25519_private_key"]["jwk"].clone()).unwrap();
    SigningKey::from_jwk(&jwk).unwrap()
}

fn a2_key() -> VerifyingKey {
    let v = rfc8037();
    let jwk: Jwk = serde_json::from_value(v["a2_ed25519_public_key"]["jwk"].clone()).unwrap();
    VerifyingKey::from_jwk(&jwk).unwrap()
}

#[test]
fn a1_private_jwk_matches_hex_dumps() {
    let v = rfc8037();
    let key = a1_key();
    assert_eq!(
        hex::encode(*key.secret_bytes()),
        s(&v, "/a1_ed25519_private_key/d_hex")
    );
    assert_eq!(
        hex::encode(key.verifying_key().to_bytes()),
        s(&v, "/a1_ed25519_private_key/x_hex")
    );
}

#[test]
fn a2_public_jwk_is_the_public_key_of_a1() {
    assert_eq!(a2_key(), a1_key().verifying_key());
    // Our export has the same kty/crv/x (plus alg and use, which A.2 omits).
    let jwk = a2_key().to_jwk(None);
    let v = rfc8037();
    assert_eq!(jwk.kty, s(&v, "/a2_ed25519_public_key/jwk/kty"));
    assert_eq!(
        jwk.crv.as_deref(),
        Some(s(&v, "/a2_ed25519_public_key/jwk/crv"))
    );
    assert_eq!(
        jwk.x.as_deref(),
        Some(s(&v, "/a2_ed25519_public_key/jwk/x"))
    );
    assert_eq!(jwk.alg.as_deref(), Some(ALG_EDDSA));
    assert_eq!(jwk.key_use.as_deref(), Some("sig"));
    assert!(jwk.d.is_none());
}

#[test]
fn a3_thumbprint() {
    let v = rfc8037();
    let expected = s(&v, "/a3_jwk_thumbprint_canonicalization/thumbprint");
    assert_eq!(a2_key().thumbprint(), expected);
    assert_eq!(
        hex::encode(b64::decode(expected).unwrap()),
        s(
            &v,
            "/a3_jwk_thumbprint_canonicalization/thumbprint_sha256_hex"
        )
    );
    // The thumbprint input is the JCS form of the required members.
    let input = s(&v, "/a3_jwk_thumbprint_canonicalization/thumbprint_input");
    let canonical = citeproof_model::jcs::canonicalize_json(input.as_bytes()).unwrap();
    assert_eq!(canonical, input.as_bytes());
    assert_eq!(
        citeproof_model::sha256_bytes(input.as_bytes()).to_string(),
        format!(
            "sha256:{}",
            s(
                &v,
                "/a3_jwk_thumbprint_canonicalization/thumbprint_sha256_hex"
            )
        )
    );
}

/// A.4: the header `{"alg":"EdDSA"}` is exactly what `sign_detached` emits without a kid, so the
/// A.4 signature is reproduced both through the raw signing primitive on the published signing
/// input and through `sign_detached`.
#[test]
fn a4_signature_is_reproduced_byte_for_byte() {
    let v = rfc8037();
    let key = a1_key();
    let header = s(&v, "/a4_ed25519_signing/protected_header");
    let payload = s(&v, "/a4_ed25519_signing/payload").as_bytes();

    assert_eq!(protected_header_bytes(None), header.as_bytes());
    let protected_b64 = b64::encode(header.as_bytes());
    assert_eq!(protected_b64, s(&v, "/a4_ed25519_signing/protected_b64"));
    assert_eq!(
        b64::encode(payload),
        s(&v, "/a4_ed25519_signing/payload_b64")
    );
    let input = signing_input(&protected_b64, payload);
    assert_eq!(input, s(&v, "/a4_ed25519_signing/signing_input").as_bytes());

    // Attached form, from the signing primitive.
    let signature = key.sign(&input);
    assert_eq!(
        hex::encode(signature),
        s(&v, "/a4_ed25519_signing/signature_hex")
    );
    let attached = format!(
        "{}.{}",
        String::from_utf8(input.clone()).unwrap(),
        b64::encode(&signature)
    );
    assert_eq!(attached, s(&v, "/a4_ed25519_signing/compact"));

    // Detached form, from sign_detached: same header, same signature, empty middle part.
    let detached = sign_detached(payload, &key, None).unwrap();
    assert_eq!(
        detached,
        format!(
            "{}..{}",
            s(&v, "/a4_ed25519_signing/protected_b64"),
            s(&v, "/a4_ed25519_signing/signature_b64")
        )
    );
}

/// A.5: validation of the A.4 JWS with the A.2 public key.
#[test]
fn a5_validation_attached_and_detached() {
    let v = rfc8037();
    let compact = s(&v, "/a4_ed25519_signing/compact");
    let payload = s(&v, "/a4_ed25519_signing/payload").as_bytes();
    let public = a2_key();

    // Attached: the signature verifies over header.payload with the raw strict primitive.
    let (signing, signature_b64) = compact.rsplit_once('.').unwrap();
    public
        .verify(signing.as_bytes(), &b64::decode(signature_b64).unwrap())
        .unwrap();

    // The JWS API is detached-only: the attached form is refused as such...
    let keys = KeySet::single(public, None);
    expect_code(
        verify_detached(compact, payload, &keys),
        "jws-payload-attached",
    );
    // ...and its detached form (Appendix F: empty middle part) verifies.
    let (header_b64, rest) = compact.split_once('.').unwrap();
    let (_, signature_b64) = rest.split_once('.').unwrap();
    let detached = format!("{header_b64}..{signature_b64}");
    let verified = verify_detached(&detached, payload, &keys).unwrap();
    assert_eq!(verified.key, public);
    assert_eq!(verified.kid, None);
    assert_eq!(verified.header["alg"], "EdDSA");
    assert_eq!(
        parse_detached(&detached).unwrap().signature.to_vec(),
        b64::decode(signature_b64).unwrap()
    );

    // A different payload does not verify.
    expect_code(
        verify_detached(&detached, b"Example of Ed25519 signinG", &keys),
        "jws-signature-invalid",
    );
}

#[test]
fn a1_and_a2_load_through_the_text_loaders() {
    let v = rfc8037();
    let private = serde_json::to_vec(&v["a1_ed25519_private_key"]["jwk"]).unwrap();
    let public = serde_json::to_vec(&v["a2_ed25519_public_key"]["jwk"]).unwrap();
    let signing = citeproof_jose::load_signing_key(&private).unwrap();
    let keys = citeproof_jose::load_public_keys(&public).unwrap();
    assert_eq!(keys.entries()[0].key, signing.verifying_key());
    // The private JWK is refused where a public key is expected.
    expect_code(
        citeproof_jose::load_public_keys(&private),
        "jwk-private-key-published",
    );
}

//! Cross-check with an independent implementation, both directions, through
//! `tests/python/jws_crosscheck.py` (joserfc + pyca/cryptography):
//!
//! (a) joserfc verifies a detached JWS made by `sign_detached` (and rejects it over a tampered
//!     payload); (b) joserfc makes a detached EdDSA JWS with a key we give it (our PKCS#8 PEM),
//!     and `verify_detached` accepts it. Also: joserfc reproduces RFC 8037 A.4, and a fresh key
//!     and signature from `cryptography` load and verify here.
//!
//! Without `python3` or its modules the test prints a notice and passes, unless
//! `CITEPROOF_REQUIRE_PYTHON` is set (CI sets it), in which case it fails.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use citeproof_jose::{
    KeySet, SigningKey, VerifyingKey, b64, parse_detached, sign_detached, verify_detached,
};
use citeproof_testkit::PythonOracle;
use serde_json::json;

/// `tests/python/jws_crosscheck.py` (joserfc and cryptography).
fn oracle() -> PythonOracle {
    PythonOracle::new(env!("CARGO_MANIFEST_DIR"), "tests/python/jws_crosscheck.py")
}

#[test]
fn joserfc_cross_check_both_directions() {
    if !citeproof_testkit::oracle_available("the joserfc cross-check", oracle().probe()) {
        return;
    }

    // A JCS payload, as the AEF signer produces.
    let payload = citeproof_model::jcs::canonicalize(&json!({
        "claim": "Évidence ✓",
        "n": [1, 2.5, -0.0, 1e21],
        "nested": {"b": true, "a": null},
    }));
    let ours = SigningKey::generate().unwrap();
    let our_jws = sign_detached(&payload, &ours, Some("rust-1")).unwrap();
    let our_public_jwk = ours.verifying_key().to_jwk(Some("rust-1"));

    // The key joserfc signs with: generated here, handed over as PKCS#8 PEM.
    let theirs = SigningKey::generate().unwrap();
    let rfc = common::rfc8037();
    let request = json!({
        "payload_b64u": b64::encode(&payload),
        "our_jws": our_jws,
        "our_public_jwk": our_public_jwk,
        "our_private_pem": theirs.to_pkcs8_pem().unwrap().as_str(),
        "their_kid": "python-1",
        "rfc8037_private_jwk": rfc["a1_ed25519_private_key"]["jwk"],
    });
    let response = oracle().ask(&request);

    // (a) joserfc accepts our detached JWS, and refuses it over another payload.
    assert_eq!(response["verify_ours"], json!({"ok": true}), "{response}");
    assert_eq!(
        response["verify_ours_tampered_payload"]["ok"],
        json!(false),
        "{response}"
    );

    // (b) we accept joserfc's detached JWS, made with the key we gave it.
    let their_jws = response["their_jws"].as_str().unwrap();
    let parsed = parse_detached(their_jws).unwrap();
    assert_eq!(parsed.header["alg"], "EdDSA");
    assert_eq!(parsed.kid.as_deref(), Some("python-1"));
    let keys = KeySet::from_jwk_set(&citeproof_model::jwk::JwkSet {
        keys: vec![
            ours.verifying_key().to_jwk(Some("rust-1")),
            theirs.verifying_key().to_jwk(Some("python-1")),
        ],
    })
    .unwrap();
    let verified = verify_detached(their_jws, &payload, &keys).unwrap();
    assert_eq!(verified.key, theirs.verifying_key());
    assert_eq!(verified.key_kid.as_deref(), Some("python-1"));
    let mut tampered = payload.clone();
    tampered[0] ^= 1;
    assert_eq!(
        verify_detached(their_jws, &tampered, &keys)
            .unwrap_err()
            .code(),
        "jws-signature-invalid"
    );
    // Ed25519 is deterministic: if joserfc's header bytes equal ours, so must the JWS.
    let their_header = b64::decode(&parsed.protected_b64).unwrap();
    if their_header == citeproof_jose::protected_header_bytes(Some("python-1")) {
        assert_eq!(
            their_jws,
            sign_detached(&payload, &theirs, Some("python-1")).unwrap()
        );
        println!("joserfc's detached JWS is byte-identical to sign_detached's");
    } else {
        println!(
            "joserfc's header bytes differ from ours: {}",
            String::from_utf8_lossy(&their_header)
        );
    }

    // joserfc reproduces RFC 8037 A.4 too.
    assert_eq!(
        response["rfc8037_a4_compact"],
        rfc["a4_ed25519_signing"]["compact"]
    );

    // A fresh pyca/cryptography key: its PKCS#8 and SPKI PEM load here, and its raw signature of
    // the payload verifies with our strict primitive.
    let private =
        SigningKey::from_pkcs8_pem(response["generated_pkcs8_pem"].as_str().unwrap()).unwrap();
    let public =
        VerifyingKey::from_spki_pem(response["generated_spki_pem"].as_str().unwrap()).unwrap();
    assert_eq!(private.verifying_key(), public);
    assert_eq!(
        hex::encode(public.to_bytes()),
        response["generated_public_hex"].as_str().unwrap()
    );
    let signature = hex::decode(response["generated_signature_hex"].as_str().unwrap()).unwrap();
    public.verify(&payload, &signature).unwrap();
    assert_eq!(hex::encode(private.sign(&payload)), hex::encode(&signature));
}

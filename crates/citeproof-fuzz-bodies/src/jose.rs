//! `jws_detached`: JWK / JWK Set / PEM key files and detached JWS (RFC 7515 App. F).

use citeproof_jose::{
    KeySet, SigningKey, load_public_keys, load_signing_key, parse_detached, sign_detached,
    verify_detached,
};

/// Any bytes as key files and as a detached JWS. Checks: every public key set that loads writes
/// out (`to_jwk_set`) to a JWK Set that loads to the same keys and key ids; a signing key that
/// loads signs a detached JWS that verifies under its public key and under no other; a fuzzed
/// JWS never verifies under a key that signed nothing.
pub fn jws_detached(data: &[u8]) {
    if let Ok(keys) = KeySet::from_json(data) {
        round_trip(&keys);
    }
    if let Ok(keys) = load_public_keys(data) {
        round_trip(&keys);
    }
    if let Ok(key) = load_signing_key(data) {
        let jws = sign_detached(data, &key, Some("k")).unwrap();
        let public = KeySet::single(key.verifying_key(), Some("k".into()));
        assert!(verify_detached(&jws, data, &public).is_ok(), "{jws}");
        let other = KeySet::single(
            SigningKey::from_secret_bytes(&[0x3c; 32]).verifying_key(),
            Some("k".into()),
        );
        if other.entries()[0].key.to_bytes() != key.verifying_key().to_bytes() {
            assert!(verify_detached(&jws, data, &other).is_err());
        }
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = parse_detached(text);
    let keys = KeySet::single(
        SigningKey::from_secret_bytes(&[9u8; 32]).verifying_key(),
        None,
    );
    assert!(verify_detached(text, b"payload", &keys).is_err());
}

fn round_trip(keys: &KeySet) {
    let text = serde_json::to_vec(&keys.to_jwk_set()).expect("a JWK Set serializes");
    let again = KeySet::from_json(&text)
        .unwrap_or_else(|e| panic!("{} does not load back: {e}", String::from_utf8_lossy(&text)));
    let ids = |k: &KeySet| -> Vec<(Option<String>, [u8; 32])> {
        k.entries()
            .iter()
            .map(|e| (e.kid.clone(), e.key.to_bytes()))
            .collect()
    };
    assert_eq!(ids(keys), ids(&again));
}

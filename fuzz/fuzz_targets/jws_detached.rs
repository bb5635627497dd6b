//! Detached JWS and JWK parsing on hostile input: never panics, never verifies without the key.
#![no_main]

use citeproof_jose::{KeySet, SigningKey, parse_detached, verify_detached};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = KeySet::from_json(data);
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = parse_detached(text);
    let keys = KeySet::single(SigningKey::from_secret_bytes(&[9u8; 32]).verifying_key(), None);
    // A random string is not a signature by this key over this payload.
    assert!(verify_detached(text, b"payload", &keys).is_err());
});

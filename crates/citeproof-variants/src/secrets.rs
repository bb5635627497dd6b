//! Fresh HMAC-SHA256 shared secrets for a variant, re-signing by construction (the shared-secret
//! counterpart of [`crate::keys`]), and the hex form of signatures.
//!
//! Every configured secret string gets a fresh random one (the same old string always gets the
//! same new string, so two signers or key ids sharing a secret still share it). A tag is re-made
//! only when it is the HMAC-SHA256 of the old signed bytes under an old secret: then the tag of
//! the new bytes under that secret's replacement is what the signer would have produced. A tag
//! that matched no old secret matches no new one either (HMAC is a PRF), so an invalid
//! signature stays invalid and a valid one stays valid, and which secret (hence which signer
//! and key id) verifies it is kept.

use citeproof_conformance::variants::VariantRng;
use citeproof_jose::hmac_sign;

use serde_json::Value;

use crate::keys::KeyRing;

/// The secret replacement of one variant.
#[derive(Debug, Default, Clone)]
pub struct SecretRing {
    /// (old secret, new secret).
    pairs: Vec<(String, String)>,
}

impl SecretRing {
    pub fn new() -> SecretRing {
        SecretRing::default()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The replacement of `old` (drawn the first time it is seen). An empty secret, which no
    /// configuration accepts, is kept: replacing it would repair the case.
    pub fn replace(&mut self, old: &str, rng: &mut VariantRng) -> String {
        if old.is_empty() {
            return String::new();
        }
        if let Some((_, new)) = self.pairs.iter().find(|(o, _)| o == old) {
            return new.clone();
        }
        let new = format!("{}-{}", rng.letters(12), rng.letters(20));
        self.pairs.push((old.to_owned(), new.clone()));
        new
    }

    /// The new tag over `new_message`, when `tag` is the HMAC-SHA256 of `old_message` under an
    /// old secret; `None` otherwise (leave the tag as it is).
    pub fn resign(&self, old_message: &[u8], tag: &[u8], new_message: &[u8]) -> Option<[u8; 32]> {
        self.pairs
            .iter()
            .find(|(old, _)| hmac_sign(old.as_bytes(), old_message).as_slice() == tag)
            .map(|(_, new)| hmac_sign(new.as_bytes(), new_message))
    }
}

/// A signature re-made over `new_message` when it verifies over `old_message`: a 32-byte value
/// as an HMAC-SHA256 tag under an old secret, a 64-byte one as an Ed25519 signature under an
/// old key. What the signature object's `algorithm` says is not consulted: the construction
/// that verified is the one repeated, so a mislabeled signature stays mislabeled.
pub fn resign(
    secrets: &SecretRing,
    keys: &KeyRing,
    old_message: &[u8],
    signature: &[u8],
    new_message: &[u8],
) -> Option<Vec<u8>> {
    match signature.len() {
        32 => secrets
            .resign(old_message, signature, new_message)
            .map(|t| t.to_vec()),
        64 => keys
            .resign(old_message, signature, new_message)
            .map(|s| s.to_vec()),
        _ => None,
    }
}

/// The shape of `secrets` a spec's operation takes: what one signer's value becomes when every
/// secret string in it is replaced (archive: key id → secret; chain: an array of secrets).
pub type SignerSecrets = fn(&Value, &mut SecretRing, &mut VariantRng) -> Value;

/// A case's input with fresh keys and secrets, and the rings that re-sign what verified before.
#[derive(Debug)]
pub struct Fresh {
    pub input: Value,
    /// `new-keys`, `new-secrets`: what changed.
    pub transforms: Vec<&'static str>,
    pub key_ring: KeyRing,
    pub secret_ring: SecretRing,
}

/// Fresh keys and secrets for a case that configures them (`keys`, `secrets`, as the chain and
/// archive verify operations take them). `None` when the replaced `keys` do not read back as
/// JSON.
pub fn fresh_keys_and_secrets(
    case_input: &Value,
    signer_secrets: SignerSecrets,
    rng: &mut VariantRng,
) -> Option<Fresh> {
    let mut input = case_input.clone();
    let mut transforms = Vec::new();
    let mut key_ring = KeyRing::new();
    if let Some(keys) = case_input.get("keys") {
        key_ring.collect(keys, rng);
        if !key_ring.is_empty() {
            input["keys"] = serde_json::from_str(&key_ring.replace(&keys.to_string())).ok()?;
            transforms.push("new-keys");
        }
    }
    let mut secret_ring = SecretRing::new();
    if let Some(secrets) = case_input.get("secrets") {
        input["secrets"] = match secrets.as_object() {
            Some(map) => Value::Object(
                map.iter()
                    .map(|(signer, v)| (signer.clone(), signer_secrets(v, &mut secret_ring, rng)))
                    .collect(),
            ),
            None => secrets.clone(),
        };
        if !secret_ring.is_empty() {
            transforms.push("new-secrets");
        }
    }
    Some(Fresh {
        input,
        transforms,
        key_ring,
        secret_ring,
    })
}

/// `value` with the string replaced by its fresh secret; any other value as it is.
pub fn replace_secret(value: &Value, ring: &mut SecretRing, rng: &mut VariantRng) -> Value {
    match value.as_str() {
        Some(s) => Value::String(ring.replace(s, rng)),
        None => value.clone(),
    }
}

/// A hex signature: its bytes and whether it was written with uppercase digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexSignature {
    pub bytes: Vec<u8>,
    pub upper: bool,
}

impl HexSignature {
    /// Reads hex in either case (a case the profile rejects is re-written in the same case, so
    /// it stays rejected).
    pub fn parse(text: &str) -> Option<HexSignature> {
        let bytes = hex::decode(text).ok()?;
        Some(HexSignature {
            bytes,
            upper: text.bytes().any(|b| b.is_ascii_uppercase()),
        })
    }

    /// `bytes` written in this signature's case.
    pub fn write(&self, bytes: &[u8]) -> String {
        if self.upper {
            hex::encode_upper(bytes)
        } else {
            hex::encode(bytes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_fresh_consistent_and_resign_only_what_verified() {
        let mut rng = VariantRng::new(8);
        let mut ring = SecretRing::new();
        let a = ring.replace("shared secret", &mut rng);
        assert_ne!(a, "shared secret");
        assert_eq!(ring.replace("shared secret", &mut rng), a);
        assert_ne!(ring.replace("other", &mut rng), a);
        assert_eq!(ring.replace("", &mut rng), "");
        // RFC 4231 test case 2: HMAC-SHA256("Jefe", "what do ya want for nothing?").
        assert_eq!(
            hex::encode(hmac_sign(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        let tag = hmac_sign(b"shared secret", b"old");
        let new = ring.resign(b"old", &tag, b"new").unwrap();
        assert_eq!(new, hmac_sign(a.as_bytes(), b"new"));
        assert!(ring.resign(b"tampered", &tag, b"new").is_none());
        assert!(
            ring.resign(b"old", &hmac_sign(b"unknown", b"old"), b"new")
                .is_none()
        );
    }

    #[test]
    fn hex_keeps_its_case() {
        let upper = HexSignature::parse("ABcd").unwrap();
        assert_eq!(upper.bytes, [0xab, 0xcd]);
        assert_eq!(upper.write(&[0x0f]), "0F");
        assert_eq!(HexSignature::parse("0f").unwrap().write(&[0xab]), "ab");
        assert!(HexSignature::parse("abc").is_none());
    }
}

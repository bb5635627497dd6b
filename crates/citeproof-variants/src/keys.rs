//! Fresh Ed25519 keys for a variant, and re-signing by construction.
//!
//! Every usable public Ed25519 JWK of a case (one the reference's key parser accepts, without
//! `d`) gets a fresh key pair from the run's seed; its `x` is replaced wherever it occurs. A
//! signature is re-made only when it verifies under an old key over the old signed bytes: then
//! the same construction over the new bytes with the new key is what a signer would have
//! produced. A signature that verified under no old key is left as it is: it verifies under no
//! new key either (Ed25519 signatures are unforgeable), so an invalid signature stays invalid
//! and a valid one stays valid.

use citeproof_conformance::variants::VariantRng;
use citeproof_jose::{SigningKey, VerifyingKey, b64};
use citeproof_model::jwk::Jwk;
use serde_json::Value;

/// One old public key and its replacement.
#[derive(Debug, Clone)]
struct Pair {
    old_x: String,
    old: VerifyingKey,
    new: SigningKey,
    new_x: String,
}

/// The key replacement of one variant.
#[derive(Debug, Default, Clone)]
pub struct KeyRing {
    pairs: Vec<Pair>,
}

/// A fresh key pair from the variant's random stream.
pub fn fresh_key(rng: &mut VariantRng) -> SigningKey {
    let mut secret = [0u8; 32];
    rng.fill(&mut secret);
    SigningKey::from_secret_bytes(&secret)
}

impl KeyRing {
    pub fn new() -> KeyRing {
        KeyRing::default()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// Adds every usable public Ed25519 JWK found in `value`.
    pub fn collect(&mut self, value: &Value, rng: &mut VariantRng) {
        match value {
            Value::Object(map) => {
                if map.get("kty").and_then(Value::as_str) == Some("OKP")
                    && !map.contains_key("d")
                    && let Some(x) = map.get("x").and_then(Value::as_str)
                    && let Ok(jwk) = serde_json::from_value::<Jwk>(value.clone())
                    && let Ok(old) = VerifyingKey::from_jwk(&jwk)
                    && !self.pairs.iter().any(|p| p.old_x == x)
                {
                    let new = fresh_key(rng);
                    let new_x = b64::encode(&new.verifying_key().to_bytes());
                    self.pairs.push(Pair {
                        old_x: x.to_owned(),
                        old,
                        new,
                        new_x,
                    });
                }
                map.values().for_each(|v| self.collect(v, rng));
            }
            Value::Array(items) => items.iter().for_each(|v| self.collect(v, rng)),
            _ => {}
        }
    }

    /// Adds the keys of a JSON text (a key document, a response body); other texts add none.
    pub fn collect_text(&mut self, text: &[u8], rng: &mut VariantRng) {
        if let Ok(value) = serde_json::from_slice::<Value>(text) {
            self.collect(&value, rng);
        }
    }

    /// `text` with every old `x` replaced by its new one.
    pub fn replace(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for p in &self.pairs {
            if out.contains(&p.old_x) {
                out = out.replace(&p.old_x, &p.new_x);
            }
        }
        out
    }

    /// The new signature over `new_message`, when `signature` verifies over `old_message`
    /// under one of the old keys; `None` otherwise (leave the signature as it is).
    pub fn resign(
        &self,
        old_message: &[u8],
        signature: &[u8],
        new_message: &[u8],
    ) -> Option<[u8; 64]> {
        self.pairs
            .iter()
            .find(|p| p.old.verify(old_message, signature).is_ok())
            .map(|p| p.new.sign(new_message))
    }

    /// A detached compact JWS (`header..signature`) re-made over `new_payload` with the same
    /// protected header, when it verifies over `old_payload` under an old key.
    pub fn resign_detached_jws(
        &self,
        jws: &str,
        old_payload: &[u8],
        new_payload: &[u8],
    ) -> Option<String> {
        let mut parts = jws.split('.');
        let (header, middle, signature) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || !middle.is_empty() {
            return None;
        }
        let sig = b64::decode(signature).ok()?;
        let input = |payload: &[u8]| format!("{header}.{}", b64::encode(payload)).into_bytes();
        let new_sig = self.resign(&input(old_payload), &sig, &input(new_payload))?;
        Some(format!("{header}..{}", b64::encode(&new_sig)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resigns_only_what_verified() {
        let mut rng = VariantRng::new(2);
        let old = fresh_key(&mut rng);
        let jwk = serde_json::json!({"kty": "OKP", "crv": "Ed25519", "x": b64::encode(&old.verifying_key().to_bytes()), "kid": "k1"});
        let mut ring = KeyRing::new();
        ring.collect(&serde_json::json!({"keys": [jwk.clone()]}), &mut rng);
        assert!(!ring.is_empty());
        let good = old.sign(b"old");
        let new_sig = ring.resign(b"old", &good, b"new").unwrap();
        let replaced: Value = serde_json::from_str(&ring.replace(&jwk.to_string())).unwrap();
        let new_key = VerifyingKey::from_jwk(&serde_json::from_value(replaced).unwrap()).unwrap();
        assert!(new_key.verify(b"new", &new_sig).is_ok());
        assert!(ring.resign(b"other", &good, b"new").is_none());
        // A JWK with `d` (a published private key) is left alone.
        let mut ring = KeyRing::new();
        let mut private = jwk;
        private["d"] = "AAAA".into();
        ring.collect(&private, &mut rng);
        assert!(ring.is_empty());
    }
}

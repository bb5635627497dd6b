//! The verifier's trust configuration (profile CHAIN-007): which keys each signer has, and the
//! signature check itself.
//!
//! Trust comes only from this configuration: a signer id (`signedBy`) maps to the HMAC secrets
//! and the Ed25519 public keys the user gave for it. Every secret and key of the signer is
//! tried, so keys can rotate (profile review F13): a key's `kid` names the key in reports and
//! need not equal `signedBy`. An envelope whose `signedBy` has no configured key of its
//! algorithm is `chain-key-unresolved`, whatever key would have verified it.
//!
//! Keys may also be given for *any* signer (the seed's `verify_chain(envelope, shared_secret)`
//! names none; `citeproof chain verify` does this when one secret or key is given without
//! `--signed-by`). They are tried only when no key of the envelope's algorithm is configured for
//! its `signedBy`, and a match says so ([`KeyMatch::signer_configured`] is `false`): the signer
//! id is then only as trustworthy as the signing input that covers it (`seed-python` does,
//! `deployed-js` does not).

use std::collections::BTreeMap;

use citeproof_jose::{KeySet, Zeroizing};
use citeproof_model::IncidentCode;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::signing::SigningInput;

type HmacSha256 = Hmac<Sha256>;

/// A key set that could not be loaded: its `jwk-*` code and message (reported for envelopes of
/// that signer instead of `chain-key-unresolved`, reporting rule 3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenKeys {
    pub code: IncidentCode,
    pub message: String,
}

/// Secrets and public keys per signer.
#[derive(Debug, Clone, Default)]
pub struct TrustConfig {
    secrets: BTreeMap<String, Vec<Zeroizing<Vec<u8>>>>,
    keys: BTreeMap<String, Result<KeySet, BrokenKeys>>,
    /// Secrets tried for an envelope of any signer without its own secrets.
    any_signer_secrets: Vec<Zeroizing<Vec<u8>>>,
    /// Keys tried for an envelope of any signer without its own keys.
    any_signer_keys: Option<KeySet>,
}

/// The signature algorithms of CHAIN-005.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Algorithm {
    #[serde(rename = "HMAC-SHA256")]
    HmacSha256,
    #[serde(rename = "Ed25519")]
    Ed25519,
}

impl Algorithm {
    pub fn from_name(name: &str) -> Option<Algorithm> {
        match name {
            "HMAC-SHA256" => Some(Algorithm::HmacSha256),
            "Ed25519" => Some(Algorithm::Ed25519),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Algorithm::HmacSha256 => "HMAC-SHA256",
            Algorithm::Ed25519 => "Ed25519",
        }
    }

    /// Length of the signature in bytes (written as twice as many lowercase hex digits).
    pub fn signature_len(self) -> usize {
        match self {
            Algorithm::HmacSha256 => 32,
            Algorithm::Ed25519 => 64,
        }
    }
}

/// Which signing input and which key verified a signature.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct KeyMatch {
    pub signing_input: SigningInput,
    /// `secret 1` (the first configured secret of the signer, counting from 1), or the key's
    /// `kid`, or `key 1` for a key without `kid`; `(any signer)` is appended for a key given
    /// for any signer.
    pub key: String,
    /// `true` when the key was configured for the envelope's `signedBy`, `false` when it was
    /// given for any signer.
    pub signer_configured: bool,
}

/// Outcome of checking one signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    Verified(KeyMatch),
    /// Keys were configured and none verified under any signing input.
    Invalid {
        tried: usize,
    },
    /// No secret (HMAC) or key (Ed25519) is configured for the signer.
    NoKey,
    /// The signer's key set could not be loaded.
    Broken(BrokenKeys),
}

impl TrustConfig {
    /// Adds an HMAC-SHA256 secret for `signer`: the key is the secret's UTF-8 bytes.
    pub fn add_secret(&mut self, signer: &str, secret: &str) {
        self.secrets
            .entry(signer.to_owned())
            .or_default()
            .push(Zeroizing::new(secret.as_bytes().to_vec()));
    }

    /// Adds Ed25519 public keys for `signer`. Keys added for the same signer are merged; two
    /// keys with the same `kid` for one signer make its set unusable (`jwk-duplicate-kid`).
    pub fn add_keys(&mut self, signer: &str, keys: KeySet) {
        let merged = match self.keys.remove(signer) {
            None => Ok(keys),
            Some(Err(broken)) => Err(broken),
            Some(Ok(existing)) => {
                let mut entries = existing.entries().to_vec();
                entries.extend(keys.entries().iter().cloned());
                KeySet::new(entries).map_err(|e| broken(&e))
            }
        };
        self.keys.insert(signer.to_owned(), merged);
    }

    /// Adds an HMAC-SHA256 secret tried for envelopes of any signer that has no secret of its
    /// own (the module docs say what such a match proves).
    pub fn add_secret_for_any_signer(&mut self, secret: &str) {
        self.any_signer_secrets
            .push(Zeroizing::new(secret.as_bytes().to_vec()));
    }

    /// Adds Ed25519 public keys tried for envelopes of any signer that has no key of its own.
    pub fn add_keys_for_any_signer(&mut self, keys: KeySet) -> Result<(), String> {
        let merged = match self.any_signer_keys.take() {
            None => keys,
            Some(existing) => {
                let mut entries = existing.entries().to_vec();
                entries.extend(keys.entries().iter().cloned());
                KeySet::new(entries).map_err(|e| e.to_string())?
            }
        };
        self.any_signer_keys = Some(merged);
        Ok(())
    }

    /// Records that the key set given for `signer` could not be loaded.
    pub fn add_broken_keys(&mut self, signer: &str, error: &citeproof_jose::JoseError) {
        self.keys.insert(signer.to_owned(), Err(broken(error)));
    }

    /// Reads `{"secrets": {signer: [secret, ...]}, "keys": {signer: JWK Set}}` (both members
    /// optional), the shape of the `chain-verify` operation and of `citeproof chain verify
    /// --trust FILE`. A key set that does not load is kept as broken (its `jwk-*` code is
    /// reported for envelopes of that signer); any other shape error is an `Err`.
    pub fn from_json(config: &serde_json::Value) -> Result<TrustConfig, String> {
        use serde_json::Value;
        let mut trust = TrustConfig::default();
        let Some(obj) = config.as_object() else {
            return Err("the trust configuration must be a JSON object".into());
        };
        for k in obj.keys() {
            if k != "secrets" && k != "keys" {
                return Err(format!(
                    "unknown member `{k}` (expected `secrets` and `keys`)"
                ));
            }
        }
        let map = |name: &str| -> Result<Option<&serde_json::Map<String, Value>>, String> {
            match obj.get(name) {
                None => Ok(None),
                Some(Value::Object(m)) => Ok(Some(m)),
                Some(_) => Err(format!("`{name}` must be an object keyed by signer id")),
            }
        };
        if let Some(secrets) = map("secrets")? {
            for (signer, list) in secrets {
                let Some(list) = list.as_array().filter(|l| !l.is_empty()) else {
                    return Err(format!(
                        "`secrets.{signer}` must be a non-empty array of strings"
                    ));
                };
                for secret in list {
                    let Some(secret) = secret.as_str() else {
                        return Err(format!("`secrets.{signer}` must hold strings"));
                    };
                    trust.add_secret(signer, secret);
                }
            }
        }
        if let Some(keys) = map("keys")? {
            for (signer, set) in keys {
                let bytes = serde_json::to_vec(set).map_err(|e| e.to_string())?;
                match KeySet::from_json(&bytes) {
                    Ok(set) => trust.add_keys(signer, set),
                    Err(e) => trust.add_broken_keys(signer, &e),
                }
            }
        }
        Ok(trust)
    }

    /// `true` when nothing is configured.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
            && self.keys.is_empty()
            && self.any_signer_secrets.is_empty()
            && self.any_signer_keys.is_none()
    }

    /// Checks `signature` over each signing input in order (`inputs` holds the ones that could
    /// be built), with every key of `signer` for `algorithm`; the first match wins.
    pub fn check(
        &self,
        algorithm: Algorithm,
        signer: &str,
        signature: &[u8],
        inputs: &[(SigningInput, Vec<u8>)],
    ) -> Check {
        match algorithm {
            Algorithm::HmacSha256 => {
                let (secrets, signer_configured) =
                    match self.secrets.get(signer).filter(|s| !s.is_empty()) {
                        Some(own) => (own, true),
                        None if !self.any_signer_secrets.is_empty() => {
                            (&self.any_signer_secrets, false)
                        }
                        None => return Check::NoKey,
                    };
                for (input, bytes) in inputs {
                    for (i, secret) in secrets.iter().enumerate() {
                        if hmac_verify(secret, bytes, signature) {
                            return Check::Verified(KeyMatch {
                                signing_input: *input,
                                key: key_name(format!("secret {}", i + 1), signer_configured),
                                signer_configured,
                            });
                        }
                    }
                }
                Check::Invalid {
                    tried: secrets.len(),
                }
            }
            Algorithm::Ed25519 => {
                let (keys, signer_configured) = match (self.keys.get(signer), &self.any_signer_keys)
                {
                    (Some(Err(broken)), _) => return Check::Broken(broken.clone()),
                    (Some(Ok(keys)), _) => (keys, true),
                    (None, Some(keys)) => (keys, false),
                    (None, None) => return Check::NoKey,
                };
                for (input, bytes) in inputs {
                    for (i, entry) in keys.entries().iter().enumerate() {
                        // Strict verification (SIG-002) by citeproof-jose.
                        if entry.key.verify(bytes, signature).is_ok() {
                            let name = entry
                                .kid
                                .clone()
                                .unwrap_or_else(|| format!("key {}", i + 1));
                            return Check::Verified(KeyMatch {
                                signing_input: *input,
                                key: key_name(name, signer_configured),
                                signer_configured,
                            });
                        }
                    }
                }
                Check::Invalid { tried: keys.len() }
            }
        }
    }
}

fn key_name(name: String, signer_configured: bool) -> String {
    if signer_configured {
        name
    } else {
        format!("{name} (any signer)")
    }
}

fn broken(e: &citeproof_jose::JoseError) -> BrokenKeys {
    BrokenKeys {
        code: IncidentCode::from_code(e.code()).unwrap_or(IncidentCode::JwkMalformed),
        message: e.to_string(),
    }
}

/// HMAC-SHA256 of `message`, compared with `tag` in constant time (`Mac::verify_slice`).
pub fn hmac_verify(key: &[u8], message: &[u8], tag: &[u8]) -> bool {
    match HmacSha256::new_from_slice(key) {
        Ok(mut mac) => {
            mac.update(message);
            mac.verify_slice(tag).is_ok()
        }
        Err(_) => false,
    }
}

/// HMAC-SHA256 of `message` under `key`.
pub fn hmac_sign(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    if let Ok(mut mac) = HmacSha256::new_from_slice(key) {
        mac.update(message);
        out.copy_from_slice(&mac.finalize().into_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
    #[test]
    fn hmac_matches_rfc_4231() {
        let tag = hmac_sign(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(
            hex::encode(tag),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert!(hmac_verify(b"Jefe", b"what do ya want for nothing?", &tag));
        let mut wrong = tag;
        wrong[31] ^= 1;
        assert!(!hmac_verify(
            b"Jefe",
            b"what do ya want for nothing?",
            &wrong
        ));
        assert!(!hmac_verify(
            b"Jefe",
            b"what do ya want for nothing?",
            &tag[..31]
        ));
    }

    #[test]
    fn every_secret_of_the_signer_is_tried_and_only_its_own() {
        let mut trust = TrustConfig::default();
        trust.add_secret("did:web:a.example", "old secret, rotated out");
        trust.add_secret("did:web:a.example", "new secret");
        trust.add_secret("did:web:b.example", "b's secret");
        let msg = b"payload".to_vec();
        let tag = hmac_sign(b"new secret", &msg);
        let inputs = [(SigningInput::SeedPython, msg)];
        assert_eq!(
            trust.check(Algorithm::HmacSha256, "did:web:a.example", &tag, &inputs),
            Check::Verified(KeyMatch {
                signing_input: SigningInput::SeedPython,
                key: "secret 2".into(),
                signer_configured: true,
            })
        );
        assert_eq!(
            trust.check(Algorithm::HmacSha256, "did:web:b.example", &tag, &inputs),
            Check::Invalid { tried: 1 }
        );
        assert_eq!(
            trust.check(Algorithm::HmacSha256, "did:web:c.example", &tag, &inputs),
            Check::NoKey
        );
        assert_eq!(
            trust.check(Algorithm::Ed25519, "did:web:a.example", &tag, &inputs),
            Check::NoKey
        );
    }

    #[test]
    fn secrets_for_any_signer_are_tried_last_and_say_so() {
        let mut trust = TrustConfig::default();
        trust.add_secret("did:web:a.example", "a's own secret");
        trust.add_secret_for_any_signer("the one secret given");
        let msg = b"payload".to_vec();
        let inputs = [(SigningInput::SeedPython, msg.clone())];
        let tag = hmac_sign(b"the one secret given", &msg);
        // A signer with its own secrets never falls back to the any-signer secret.
        assert_eq!(
            trust.check(Algorithm::HmacSha256, "did:web:a.example", &tag, &inputs),
            Check::Invalid { tried: 1 }
        );
        assert_eq!(
            trust.check(Algorithm::HmacSha256, "anyone", &tag, &inputs),
            Check::Verified(KeyMatch {
                signing_input: SigningInput::SeedPython,
                key: "secret 1 (any signer)".into(),
                signer_configured: false,
            })
        );
    }
}

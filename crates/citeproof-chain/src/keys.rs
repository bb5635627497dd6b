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

use citeproof_jose::{JoseError, KeySet, SignerTrust, TrustError};
use citeproof_model::TrustUsed;

use crate::signing::SigningInput;

pub use citeproof_jose::{BrokenKeys, hmac_sign, hmac_verify};

/// The signer id under which keys given for any signer are kept in their own store.
const ANY_SIGNER: &str = "(any signer)";

/// Secrets and public keys per signer (the kit's [`SignerTrust`]), and the keys given for any
/// signer.
#[derive(Debug, Clone, Default)]
pub struct TrustConfig {
    signers: SignerTrust,
    /// Secrets and keys tried for an envelope of a signer without its own of the algorithm.
    any_signer: SignerTrust,
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
        self.signers.add_secret(signer, None, secret.as_bytes());
    }

    /// Adds Ed25519 public keys for `signer`. Keys added for the same signer are merged; two
    /// keys with the same `kid` for one signer make its set unusable (`jwk-duplicate-kid`).
    pub fn add_keys(&mut self, signer: &str, keys: KeySet) {
        self.signers.add_keys(signer, keys);
    }

    /// Adds an HMAC-SHA256 secret tried for envelopes of any signer that has no secret of its
    /// own (the module docs say what such a match proves).
    pub fn add_secret_for_any_signer(&mut self, secret: &str) {
        self.any_signer
            .add_secret(ANY_SIGNER, None, secret.as_bytes());
    }

    /// Adds Ed25519 public keys tried for envelopes of any signer that has no key of its own.
    pub fn add_keys_for_any_signer(&mut self, keys: KeySet) -> Result<(), String> {
        self.any_signer.add_keys(ANY_SIGNER, keys);
        match self.any_signer.keys(ANY_SIGNER) {
            Some(Err(broken)) => Err(broken.message.clone()),
            _ => Ok(()),
        }
    }

    /// Records that the key set given for `signer` could not be loaded.
    pub fn add_broken_keys(&mut self, signer: &str, error: &JoseError) {
        self.signers.add_broken_keys(signer, error);
    }

    /// The trust file of every `verify` ([`SignerTrust::from_json`]), which holds the shape of
    /// the `chain-verify` operation: `{"secrets": {signer: [secret, ...]}, "keys": {signer:
    /// JWK Set}}`. A key set that does not load is kept as broken (its `jwk-*` code is
    /// reported for envelopes of that signer); any other shape error is an `Err`.
    pub fn from_json(config: &serde_json::Value) -> Result<TrustConfig, TrustError> {
        Ok(TrustConfig::from(SignerTrust::from_json(config)?))
    }

    /// `true` when nothing is configured.
    pub fn is_empty(&self) -> bool {
        self.signers.is_empty() && self.any_signer.is_empty()
    }

    /// Signers and key names, for reports; keys given for any signer are listed under
    /// `(any signer)`. Never a secret.
    pub fn describe(&self) -> TrustUsed {
        let mut used = self.signers.describe();
        used.signers.extend(self.any_signer.describe().signers);
        used
    }

    /// Checks `signature` over each signing input in order (`inputs` holds the ones that could
    /// be built), with every key of `signer` for `algorithm`; the first match wins. Keys given
    /// for any signer are tried only when `signer` has none of its own for `algorithm`.
    pub fn check(
        &self,
        algorithm: Algorithm,
        signer: &str,
        signature: &[u8],
        inputs: &[(SigningInput, Vec<u8>)],
    ) -> Check {
        let messages: Vec<&[u8]> = inputs.iter().map(|(_, b)| b.as_slice()).collect();
        let run = |store: &SignerTrust, id: &str| match algorithm {
            Algorithm::HmacSha256 => store.check_hmac(id, None, &messages, signature),
            Algorithm::Ed25519 => store.check_ed25519(id, None, &messages, signature),
        };
        let (mut check, mut message) = run(&self.signers, signer);
        let mut signer_configured = true;
        if check == citeproof_jose::Check::NoKey {
            (check, message) = run(&self.any_signer, ANY_SIGNER);
            signer_configured = false;
        }
        match check {
            citeproof_jose::Check::Verified { key } => {
                let Some(&(signing_input, _)) = message.and_then(|m| inputs.get(m)) else {
                    return Check::Invalid { tried: 0 };
                };
                let key = if signer_configured {
                    key
                } else {
                    format!("{key} (any signer)")
                };
                Check::Verified(KeyMatch {
                    signing_input,
                    key,
                    signer_configured,
                })
            }
            citeproof_jose::Check::Invalid { tried } => Check::Invalid { tried },
            citeproof_jose::Check::NoKey => Check::NoKey,
            citeproof_jose::Check::Broken(broken) => Check::Broken(broken),
        }
    }
}

impl From<SignerTrust> for TrustConfig {
    /// Keys of named signers only (a trust file names every signer).
    fn from(signers: SignerTrust) -> TrustConfig {
        TrustConfig {
            signers,
            any_signer: SignerTrust::new(),
        }
    }
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

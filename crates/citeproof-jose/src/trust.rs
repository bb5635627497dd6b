//! The one trust store of the specs whose signatures are checked with keys the user configured
//! (citation-chain envelopes CHAIN-007, archive bundles ARCHIVE-022, AI evidence AEF-L3-006):
//! for each signer id (a `signedBy` value, compared exactly), HMAC-SHA256 shared secrets and
//! Ed25519 public keys, each optionally named by a `kid`. A signer may have several of each, so
//! keys rotate: every one is tried, or only the one a signature names by `kid`.
//!
//! Trust comes only from this store, never from the document being checked: a document's
//! `signedBy` and `kid` only select which configured keys are tried.
//!
//! The JSON form ([`SignerTrust::from_json`]) is the trust file of every `verify` command
//! (`--trust FILE`) and the trust members of the conformance operations:
//!
//! ```json
//! {
//!   "secrets": {
//!     "did:web:a.example": ["a secret", "the previous secret"],
//!     "archive.example": {"hmac-2026": "a secret named by its kid"}
//!   },
//!   "keys": {"did:web:b.example": {"keys": [{"kty": "OKP", "crv": "Ed25519", "x": "...", "kid": "k1"}]}},
//!   "key_locations": ["https://issuer.example/.well-known/jwks.json"]
//! }
//! ```
//!
//! Secrets are the UTF-8 bytes of their strings (the seed's `shared_secret.encode()`).
//! `key_locations` are the key URLs a user trusts (AEF-L3-006). Reports name keys by `kid` or
//! position ([`SignerTrust::describe`]), never by their secret.

use std::collections::BTreeMap;

use citeproof_model::{IncidentCode, SignerKeys, TrustUsed, jcs, pointer};
use hmac::{Hmac, KeyInit, Mac};
use serde_json::Value;
use sha2::Sha256;

use crate::{JoseError, KeySet, Zeroizing};

type HmacSha256 = Hmac<Sha256>;

/// Members of the trust JSON object.
const MEMBERS: [&str; 3] = ["secrets", "keys", "key_locations"];

/// A key set that could not be loaded: its `jwk-*` code and message, reported for documents of
/// that signer instead of "no key" (the user meant to trust something).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenKeys {
    pub code: IncidentCode,
    pub message: String,
}

#[derive(Debug, Clone)]
struct Secret {
    kid: Option<String>,
    bytes: Zeroizing<Vec<u8>>,
}

#[derive(Debug, Clone, Default)]
struct Signer {
    secrets: Vec<Secret>,
    keys: Option<Result<KeySet, BrokenKeys>>,
}

/// Secrets and public keys per signer, and trusted key locations.
#[derive(Debug, Clone, Default)]
pub struct SignerTrust {
    signers: BTreeMap<String, Signer>,
    key_locations: Vec<String>,
}

/// One shape problem of a trust configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustProblem {
    /// RFC 6901 pointer into the configuration.
    pub pointer: String,
    pub message: String,
}

/// A trust configuration that is not of the documented shape (stable code `trust-invalid`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid trust configuration: {}", .problems.iter().map(|p| format!("{} (at `{}`)", p.message, p.pointer)).collect::<Vec<_>>().join("; "))]
pub struct TrustError {
    pub problems: Vec<TrustProblem>,
}

impl TrustError {
    /// The stable code of every trust configuration error.
    pub fn code(&self) -> &'static str {
        "trust-invalid"
    }
}

/// Outcome of checking one signature against the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// A configured key verified; its name in reports (`kid`, else `secret N` / `key N`,
    /// counting from 1 in configuration order).
    Verified { key: String },
    /// Keys of the signer (and `kid`, when one was asked for) were tried and none verified.
    Invalid { tried: usize },
    /// No secret (HMAC) or key (Ed25519) is configured for the signer (and `kid`).
    NoKey,
    /// The signer's key set could not be loaded.
    Broken(BrokenKeys),
}

impl SignerTrust {
    pub fn new() -> SignerTrust {
        SignerTrust::default()
    }

    /// Adds an HMAC-SHA256 secret for `signer`, optionally named by `kid`.
    pub fn add_secret(&mut self, signer: &str, kid: Option<&str>, secret: &[u8]) {
        self.signer(signer).secrets.push(Secret {
            kid: kid.map(str::to_owned),
            bytes: Zeroizing::new(secret.to_vec()),
        });
    }

    /// Adds Ed25519 public keys for `signer`. Sets added for one signer are merged; two keys
    /// with the same `kid` make the signer's set unusable (`jwk-duplicate-kid`).
    pub fn add_keys(&mut self, signer: &str, keys: KeySet) {
        let entry = self.signer(signer);
        entry.keys = Some(match entry.keys.take() {
            None => Ok(keys),
            Some(Err(broken)) => Err(broken),
            Some(Ok(existing)) => {
                let mut entries = existing.entries().to_vec();
                entries.extend(keys.entries().iter().cloned());
                KeySet::new(entries).map_err(|e| broken(&e))
            }
        });
    }

    /// Records that the key set given for `signer` could not be loaded.
    pub fn add_broken_keys(&mut self, signer: &str, error: &JoseError) {
        self.signer(signer).keys = Some(Err(broken(error)));
    }

    /// Trusts the keys published at `url` (AEF-L3-006).
    pub fn add_key_location(&mut self, url: &str) {
        if !self.key_locations.iter().any(|u| u == url) {
            self.key_locations.push(url.to_owned());
        }
    }

    pub fn key_locations(&self) -> &[String] {
        &self.key_locations
    }

    /// `true` when nothing is configured.
    pub fn is_empty(&self) -> bool {
        self.signers.is_empty() && self.key_locations.is_empty()
    }

    /// The configured signer ids, in order.
    pub fn signers(&self) -> impl Iterator<Item = &str> {
        self.signers.keys().map(String::as_str)
    }

    /// The Ed25519 keys of `signer`: `None` when none are configured.
    pub fn keys(&self, signer: &str) -> Option<Result<&KeySet, &BrokenKeys>> {
        self.signers.get(signer)?.keys.as_ref().map(Result::as_ref)
    }

    /// Checks the HMAC-SHA256 `tag` of each message in turn with every secret of `signer`
    /// (only those named `kid` when a `kid` is given); the index of the message and the key
    /// that verified. Tags are compared in constant time.
    pub fn check_hmac(
        &self,
        signer: &str,
        kid: Option<&str>,
        messages: &[&[u8]],
        tag: &[u8],
    ) -> (Check, Option<usize>) {
        let secrets = self.signers.get(signer).map_or(&[][..], |s| &s.secrets[..]);
        first_verified(
            secrets.iter().map(|s| (s.kid.as_deref(), s)),
            kid,
            messages,
            "secret",
            |secret, message| hmac_verify(&secret.bytes, message, tag),
        )
    }

    /// Checks the Ed25519 `signature` of each message in turn (strict verification, SIG-002)
    /// with every key of `signer` (only the key named `kid` when a `kid` is given).
    pub fn check_ed25519(
        &self,
        signer: &str,
        kid: Option<&str>,
        messages: &[&[u8]],
        signature: &[u8],
    ) -> (Check, Option<usize>) {
        let keys = match self.keys(signer) {
            None => return (Check::NoKey, None),
            Some(Err(broken)) => return (Check::Broken(broken.clone()), None),
            Some(Ok(keys)) => keys,
        };
        first_verified(
            keys.entries().iter().map(|e| (e.kid.as_deref(), e)),
            kid,
            messages,
            "key",
            |entry, message| entry.key.verify(message, signature).is_ok(),
        )
    }

    /// Signers and key names, for reports and audit records; never a secret.
    pub fn describe(&self) -> TrustUsed {
        let signers = self
            .signers
            .iter()
            .map(|(id, s)| {
                let secrets = s
                    .secrets
                    .iter()
                    .enumerate()
                    .map(|(i, s)| s.kid.clone().unwrap_or_else(|| format!("secret {}", i + 1)))
                    .collect();
                let (keys, broken) = match &s.keys {
                    None => (Vec::new(), None),
                    Some(Err(b)) => (Vec::new(), Some(b.code.as_str().to_owned())),
                    Some(Ok(set)) => (
                        set.entries()
                            .iter()
                            .enumerate()
                            .map(|(i, e)| {
                                let name =
                                    e.kid.clone().unwrap_or_else(|| format!("key {}", i + 1));
                                (name, e.key.thumbprint())
                            })
                            .collect(),
                        None,
                    ),
                };
                let description = SignerKeys {
                    secrets,
                    keys,
                    broken,
                };
                (id.clone(), description)
            })
            .collect();
        TrustUsed {
            signers,
            key_locations: self.key_locations.clone(),
            origins: Vec::new(),
        }
    }

    /// Reads the trust JSON of the module docs. `secrets` maps a signer to an array of secret
    /// strings or to an object of `kid` → secret string; `keys` maps a signer to a JWK Set (or
    /// one JWK). A key set that does not load is kept as broken for its signer (documents of
    /// that signer report its `jwk-*` code); every other shape problem is a [`TrustError`]
    /// listing each with its pointer, and nothing is trusted. A wrong configuration is the
    /// user's error, not a finding about a document: it is not a registry incident.
    pub fn from_json(config: &Value) -> Result<SignerTrust, TrustError> {
        let Some(obj) = config.as_object() else {
            return Err(TrustError {
                problems: vec![TrustProblem {
                    pointer: String::new(),
                    message: "the trust configuration is a JSON object".into(),
                }],
            });
        };
        let mut trust = SignerTrust::default();
        let mut problems = Vec::new();
        let mut bad = |at: String, why: String| {
            problems.push(TrustProblem {
                pointer: at,
                message: why,
            })
        };
        for name in obj.keys().filter(|k| !MEMBERS.contains(&k.as_str())) {
            bad(
                pointer::child("", name),
                format!("unknown member `{name}` (expected `secrets`, `keys`, `key_locations`)"),
            );
        }
        for (signer, value) in by_signer(obj, "secrets", &mut bad) {
            let at = pointer::child("/secrets", signer);
            read_secrets(&mut trust, signer, value, &at, &mut bad);
        }
        for (signer, set) in by_signer(obj, "keys", &mut bad) {
            match KeySet::from_json(&jcs::canonicalize(set)) {
                Ok(set) => trust.add_keys(signer, set),
                Err(e) => trust.add_broken_keys(signer, &e),
            }
        }
        match obj.get("key_locations") {
            None => {}
            Some(Value::Array(urls)) => {
                for (i, url) in urls.iter().enumerate() {
                    match url.as_str() {
                        Some(u) if !u.is_empty() => trust.add_key_location(u),
                        _ => bad(
                            pointer::index("/key_locations", i),
                            "a key location is a non-empty URL string".into(),
                        ),
                    }
                }
            }
            Some(_) => bad(
                "/key_locations".into(),
                "`key_locations` is an array of URLs".into(),
            ),
        }
        if problems.is_empty() {
            Ok(trust)
        } else {
            Err(TrustError { problems })
        }
    }

    fn signer(&mut self, id: &str) -> &mut Signer {
        self.signers.entry(id.to_owned()).or_default()
    }
}

fn read_secrets(
    trust: &mut SignerTrust,
    signer: &str,
    value: &Value,
    at: &str,
    bad: &mut impl FnMut(String, String),
) {
    let shape = "a signer's secrets are a non-empty array of non-empty strings, or an object of kid → non-empty string";
    match value {
        Value::Array(list) if !list.is_empty() => {
            for (i, secret) in list.iter().enumerate() {
                match secret.as_str() {
                    Some(s) if !s.is_empty() => trust.add_secret(signer, None, s.as_bytes()),
                    _ => bad(pointer::index(at, i), shape.into()),
                }
            }
        }
        Value::Object(kids) if !kids.is_empty() => {
            for (kid, secret) in kids {
                match secret.as_str() {
                    Some(s) if !s.is_empty() => trust.add_secret(signer, Some(kid), s.as_bytes()),
                    _ => bad(pointer::child(at, kid), shape.into()),
                }
            }
        }
        _ => bad(at.to_owned(), shape.into()),
    }
}

fn broken(e: &JoseError) -> BrokenKeys {
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

/// The members of `obj[member]`, an object keyed by signer id (none when it is absent); any
/// other value is reported through `bad`.
fn by_signer<'v, F: FnMut(String, String)>(
    obj: &'v serde_json::Map<String, Value>,
    member: &str,
    bad: &mut F,
) -> impl Iterator<Item = (&'v String, &'v Value)> + use<'v, F> {
    let signers = match obj.get(member) {
        Some(Value::Object(signers)) => Some(signers),
        None => None,
        Some(_) => {
            bad(
                format!("/{member}"),
                format!("`{member}` is an object keyed by signer id"),
            );
            None
        }
    };
    signers.into_iter().flatten()
}

/// Tries each message in turn with every key (only those named `kid` when a `kid` is given):
/// the key that verified the first message one verifies (its `kid`, else `{unnamed} N` by its
/// place among all keys) and that message's index; `NoKey` when no key is a candidate.
fn first_verified<'k, K: 'k>(
    keys: impl Iterator<Item = (Option<&'k str>, &'k K)>,
    kid: Option<&str>,
    messages: &[&[u8]],
    unnamed: &str,
    verifies: impl Fn(&K, &[u8]) -> bool,
) -> (Check, Option<usize>) {
    let candidates: Vec<(usize, Option<&str>, &K)> = keys
        .enumerate()
        .filter(|(_, (k, _))| kid.is_none() || *k == kid)
        .map(|(i, (k, key))| (i, k, key))
        .collect();
    if candidates.is_empty() {
        return (Check::NoKey, None);
    }
    for (m, message) in messages.iter().enumerate() {
        for (i, name, key) in &candidates {
            if verifies(key, message) {
                let key = name.map_or_else(|| format!("{unnamed} {}", i + 1), str::to_owned);
                return (Check::Verified { key }, Some(m));
            }
        }
    }
    let tried = candidates.len();
    (Check::Invalid { tried }, None)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
    const RFC4231_TAG: &str = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
    const RFC4231_DATA: &[u8] = b"what do ya want for nothing?";

    /// RFC 8032 §7.1 TEST 1: public key and the signature of the empty message.
    const RFC8032_PUBLIC: &str = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
    const RFC8032_SIGNATURE: &str = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";

    fn unhex(s: &str) -> Vec<u8> {
        hex::decode(s).unwrap()
    }

    fn rfc8032_jwks(kid: &str) -> Value {
        json!({"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": kid,
                          "x": crate::b64::encode(&unhex(RFC8032_PUBLIC))}]})
    }

    #[test]
    fn hmac_matches_rfc_4231_and_rotation_tries_every_secret() {
        let tag = unhex(RFC4231_TAG);
        assert_eq!(hmac_sign(b"Jefe", RFC4231_DATA).to_vec(), tag);
        let mut trust = SignerTrust::new();
        trust.add_secret("did:web:a.example", None, b"rotated out");
        trust.add_secret("did:web:a.example", None, b"Jefe");
        trust.add_secret("did:web:b.example", None, b"b's secret");
        let check = |signer, kid| trust.check_hmac(signer, kid, &[b"other", RFC4231_DATA], &tag);
        assert_eq!(
            check("did:web:a.example", None),
            (
                Check::Verified {
                    key: "secret 2".into()
                },
                Some(1)
            )
        );
        assert_eq!(
            check("did:web:b.example", None),
            (Check::Invalid { tried: 1 }, None)
        );
        assert_eq!(check("did:web:c.example", None), (Check::NoKey, None));
        // A kid selects only the secrets it names.
        assert_eq!(check("did:web:a.example", Some("k9")), (Check::NoKey, None));
        let mut truncated = tag.clone();
        truncated.pop();
        assert_eq!(
            trust
                .check_hmac("did:web:a.example", None, &[RFC4231_DATA], &truncated)
                .0,
            Check::Invalid { tried: 2 }
        );
    }

    #[test]
    fn ed25519_matches_rfc_8032_and_kid_selects() {
        let config = json!({"keys": {"did:web:a.example": rfc8032_jwks("k1")}});
        let trust = SignerTrust::from_json(&config).unwrap();
        let sig = unhex(RFC8032_SIGNATURE);
        let check = |kid| trust.check_ed25519("did:web:a.example", kid, &[b"x", b""], &sig);
        assert_eq!(check(None), (Check::Verified { key: "k1".into() }, Some(1)));
        assert_eq!(check(Some("k1")).0, Check::Verified { key: "k1".into() });
        assert_eq!(check(Some("k2")).0, Check::NoKey);
        assert_eq!(
            trust
                .check_ed25519("did:web:a.example", None, &[b"not signed"], &sig)
                .0,
            Check::Invalid { tried: 1 }
        );
        assert_eq!(
            trust
                .check_ed25519("did:web:b.example", None, &[b""], &sig)
                .0,
            Check::NoKey
        );
    }

    #[test]
    fn the_json_form_reads_both_secret_shapes_and_keeps_broken_key_sets() {
        let config = json!({
            "secrets": {"s1": ["a", "b"], "s2": {"hmac-2026": "c"}},
            "keys": {"s3": {"keys": []}, "s4": rfc8032_jwks("k1")},
            "key_locations": ["https://issuer.example/jwks.json"]
        });
        let trust = SignerTrust::from_json(&config).unwrap();
        assert_eq!(
            trust.signers().collect::<Vec<_>>(),
            ["s1", "s2", "s3", "s4"]
        );
        assert_eq!(trust.key_locations(), ["https://issuer.example/jwks.json"]);
        let tag = hmac_sign(b"c", b"m");
        assert_eq!(
            trust.check_hmac("s2", Some("hmac-2026"), &[b"m"], &tag).0,
            Check::Verified {
                key: "hmac-2026".into()
            }
        );
        match trust.check_ed25519("s3", None, &[b""], &[0; 64]).0 {
            Check::Broken(b) => assert_eq!(b.code, IncidentCode::JwkSetEmpty),
            other => panic!("{other:?}"),
        }
        let described = serde_json::to_string(&trust.describe()).unwrap();
        assert!(described.contains("hmac-2026") && described.contains("secret 2"));
        assert!(
            !described.contains("\"a\"") && !described.contains("\"c\""),
            "{described}"
        );
    }

    #[test]
    fn shape_errors_name_every_problem_with_its_pointer() {
        let config = json!({
            "secret": {},
            "secrets": {"s1": [], "s/2": {"k": ""}, "s3": "plain"},
            "keys": [],
            "key_locations": ["", 3]
        });
        let err = SignerTrust::from_json(&config).unwrap_err();
        assert_eq!(err.code(), "trust-invalid");
        let pointers: Vec<&str> = err.problems.iter().map(|p| p.pointer.as_str()).collect();
        // Signers in key order ("s/2" < "s1": 0x2F < 0x31).
        assert_eq!(
            pointers,
            [
                "/secret",
                "/secrets/s~12/k",
                "/secrets/s1",
                "/secrets/s3",
                "/keys",
                "/key_locations/0",
                "/key_locations/1"
            ]
        );
        assert!(SignerTrust::from_json(&json!([])).is_err());
        assert!(SignerTrust::from_json(&json!({})).unwrap().is_empty());
    }
}

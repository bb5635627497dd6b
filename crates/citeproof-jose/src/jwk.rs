//! RFC 8037 OKP/Ed25519 JWKs and JWK Sets (RFC 7517), RFC 7638 thumbprints, key sets and the
//! PEM-or-JWK key loaders.
//!
//! The serde types are [`citeproof_model::jwk::Jwk`] and [`citeproof_model::jwk::JwkSet`]; this
//! module adds the checks. A public JWK is accepted only when, in this order:
//!
//! 1. it has no `d` (`jwk-private-key-published`: a published key set must never carry a
//!    private key);
//! 2. `kty` is `OKP` (`jwk-unsupported-key-type`);
//! 3. `crv` is present (`jwk-malformed`) and is `Ed25519` (`jwk-unsupported-curve`);
//! 4. `use`, if present, is `sig` (`jwk-use-mismatch`); `alg`, if present, is `EdDSA`
//!    (`jwk-alg-mismatch`);
//! 5. `x` is present (`jwk-malformed`), is base64url without padding (`jwk-malformed`), decodes
//!    to exactly 32 bytes (`jwk-invalid-key-length`), is the canonical encoding of a point
//!    (`jwk-invalid-point`) and that point is not of small order (`jwk-weak-key`).
//!
//! Before that, when the JWK comes from JSON text, the members `kty`, `crv`, `x`, `d`, `kid`,
//! `alg` and `use` must be strings when present (`jwk-malformed`; `null` is not a string).
//! Other members are ignored (RFC 7517 §4). In a set, `kid`s must be unique
//! (`jwk-duplicate-kid`) and there must be at least one key (`jwk-set-empty`).

use citeproof_model::jcs::canonicalize;
use citeproof_model::json::parse_strict;
use citeproof_model::jwk::{Jwk, JwkSet};
use citeproof_model::sha256_bytes;
use serde_json::{Map, Value, json};

use crate::b64;
use crate::error::JoseError;
use crate::keys::{MAX_KEY_INPUT_BYTES, PointError, SigningKey, VerifyingKey, decode_point};

/// `kty` of RFC 8037 octet key pairs.
pub const KTY_OKP: &str = "OKP";
/// `crv` of Ed25519 keys.
pub const CRV_ED25519: &str = "Ed25519";
/// The JWS `alg` of RFC 8037 (what citeproof signs with).
pub const ALG_EDDSA: &str = "EdDSA";
/// The fully-specified JWS `alg` of RFC 9864 for Ed25519, which deprecates `EdDSA`; accepted as
/// its equal when verifying.
pub const ALG_ED25519: &str = "Ed25519";

/// Whether a JWS or JWK `alg` names Ed25519 signatures (RFC 8037 `EdDSA` or RFC 9864
/// `Ed25519`; case-sensitive, as JOSE algorithm names are).
pub fn is_ed25519_alg(alg: &str) -> bool {
    alg == ALG_EDDSA || alg == ALG_ED25519
}

fn ptr(base: &str, member: &str) -> String {
    format!("{base}/{member}")
}

/// Checks shared by public and private JWKs: `kty`, `crv`, `use`, `alg`.
fn check_common(jwk: &Jwk, base: &str) -> Result<(), JoseError> {
    if jwk.kty != KTY_OKP {
        return Err(JoseError::JwkUnsupportedKeyType {
            at: ptr(base, "kty"),
            kty: jwk.kty.clone(),
        });
    }
    match jwk.crv.as_deref() {
        None => {
            return Err(JoseError::JwkMalformed {
                at: base.to_string(),
                reason: "missing `crv` (RFC 8037 §2: REQUIRED)".into(),
            });
        }
        Some(CRV_ED25519) => {}
        Some(other) => {
            return Err(JoseError::JwkUnsupportedCurve {
                at: ptr(base, "crv"),
                crv: other.to_string(),
            });
        }
    }
    if let Some(key_use) = jwk.key_use.as_deref()
        && key_use != "sig"
    {
        return Err(JoseError::JwkUseMismatch {
            at: ptr(base, "use"),
            key_use: key_use.to_string(),
        });
    }
    if let Some(alg) = jwk.alg.as_deref()
        && !is_ed25519_alg(alg)
    {
        return Err(JoseError::JwkAlgMismatch {
            at: ptr(base, "alg"),
            alg: alg.to_string(),
        });
    }
    Ok(())
}

/// Decodes a 32-byte base64url member (`x` or `d`).
fn decode_32(value: Option<&str>, base: &str, member: &str) -> Result<[u8; 32], JoseError> {
    let at = ptr(base, member);
    let text = value.ok_or_else(|| JoseError::JwkMalformed {
        at: base.to_string(),
        reason: format!("missing `{member}` (RFC 8037 §2: REQUIRED)"),
    })?;
    let bytes = b64::decode(text).map_err(|e| JoseError::JwkMalformed {
        at: at.clone(),
        reason: format!("`{member}` is not base64url without padding: {e}"),
    })?;
    let len = bytes.len();
    <[u8; 32]>::try_from(bytes).map_err(|_| JoseError::JwkInvalidKeyLength { at, len })
}

fn public_from_jwk_at(jwk: &Jwk, base: &str) -> Result<VerifyingKey, JoseError> {
    if jwk.d.is_some() {
        return Err(JoseError::JwkPrivateKeyPublished { at: ptr(base, "d") });
    }
    check_common(jwk, base)?;
    let x = decode_32(jwk.x.as_deref(), base, "x")?;
    match decode_point(&x) {
        Ok(inner) => Ok(VerifyingKey::from_checked(inner)),
        Err(PointError::Invalid) => Err(JoseError::JwkInvalidPoint { at: ptr(base, "x") }),
        Err(PointError::Weak) => Err(JoseError::JwkWeakKey { at: ptr(base, "x") }),
    }
}

fn private_from_jwk_at(jwk: &Jwk, base: &str) -> Result<SigningKey, JoseError> {
    check_common(jwk, base)?;
    if jwk.d.is_none() {
        return Err(JoseError::JwkPrivateKeyMissing {
            at: base.to_string(),
        });
    }
    let d = decode_32(jwk.d.as_deref(), base, "d")?;
    let key = SigningKey::from_secret_bytes(&d);
    let x = decode_32(jwk.x.as_deref(), base, "x")?;
    if x != key.verifying_key().to_bytes() {
        return Err(JoseError::JwkKeyMismatch { at: ptr(base, "x") });
    }
    Ok(key)
}

/// Type checks on a JWK object before handing it to serde, so that the error names the member.
fn jwk_from_value(value: &Value, base: &str) -> Result<Jwk, JoseError> {
    let Some(map) = value.as_object() else {
        return Err(JoseError::JwkMalformed {
            at: base.to_string(),
            reason: "a JWK must be a JSON object".into(),
        });
    };
    if !map.contains_key("kty") {
        return Err(JoseError::JwkMalformed {
            at: base.to_string(),
            reason: "missing `kty` (RFC 7517 §4.1: REQUIRED)".into(),
        });
    }
    for member in ["kty", "crv", "x", "d", "kid", "alg", "use"] {
        if let Some(v) = map.get(member)
            && !v.is_string()
        {
            return Err(JoseError::JwkMalformed {
                at: ptr(base, member),
                reason: format!("`{member}` must be a string"),
            });
        }
    }
    serde_json::from_value(value.clone()).map_err(|e| JoseError::JwkMalformed {
        at: base.to_string(),
        reason: e.to_string(),
    })
}

fn json_error(e: citeproof_model::json::JsonError) -> JoseError {
    JoseError::JwkMalformed {
        at: e.pointer.clone().unwrap_or_default(),
        reason: match e.offset {
            Some(offset) => format!("{} ({}, byte {offset})", e.message, e.code.as_str()),
            None => format!("{} ({})", e.message, e.code.as_str()),
        },
    }
}

fn check_key_input_size(len: usize) -> Result<(), JoseError> {
    if len > MAX_KEY_INPUT_BYTES {
        return Err(JoseError::KeyInputTooLarge {
            len,
            limit: MAX_KEY_INPUT_BYTES,
        });
    }
    Ok(())
}

impl VerifyingKey {
    /// The public key of an RFC 8037 OKP/Ed25519 JWK, with all the checks of the module docs.
    /// A JWK carrying `d` is refused (`jwk-private-key-published`).
    pub fn from_jwk(jwk: &Jwk) -> Result<VerifyingKey, JoseError> {
        public_from_jwk_at(jwk, "")
    }

    /// The key as an RFC 8037 public JWK:
    /// `{"kty":"OKP","crv":"Ed25519","x":..,"kid":..,"alg":"EdDSA","use":"sig"}`
    /// (`kid` only when given).
    pub fn to_jwk(&self, kid: Option<&str>) -> Jwk {
        Jwk {
            kty: KTY_OKP.into(),
            crv: Some(CRV_ED25519.into()),
            x: Some(b64::encode(&self.to_bytes())),
            kid: kid.map(str::to_string),
            alg: Some(ALG_EDDSA.into()),
            key_use: Some("sig".into()),
            d: None,
            other: Map::new(),
        }
    }

    /// The RFC 7638 JWK SHA-256 thumbprint, base64url without padding: the SHA-256 of
    /// `{"crv":"Ed25519","kty":"OKP","x":"<x>"}` (RFC 8037 §2 lists `crv`, `kty`, `x` as the
    /// required members; RFC 8037 Appendix A.3 is the worked example).
    pub fn thumbprint(&self) -> String {
        let members = json!({
            "crv": CRV_ED25519,
            "kty": KTY_OKP,
            "x": b64::encode(&self.to_bytes()),
        });
        b64::encode(sha256_bytes(&canonicalize(&members)).digest())
    }
}

impl SigningKey {
    /// The private key of an RFC 8037 OKP/Ed25519 private JWK (`d` and `x` both required; `x`
    /// must be the public key of `d`).
    pub fn from_jwk(jwk: &Jwk) -> Result<SigningKey, JoseError> {
        private_from_jwk_at(jwk, "")
    }
}

/// One key of a [`KeySet`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyEntry {
    /// The JWK `kid`, if any (a key from a PEM document has none).
    pub kid: Option<String>,
    pub key: VerifyingKey,
}

/// A non-empty set of Ed25519 public keys with unique `kid`s: what a detached JWS is verified
/// against.
///
/// Key selection ([`KeySet::resolve`]):
/// - the JWS has a `kid`: the key with that `kid`; if none has it, and the set is exactly one key
///   *without* a `kid` (typically loaded from PEM, where the caller chose that key explicitly),
///   that key; otherwise `jws-kid-unknown`;
/// - the JWS has no `kid`: the only key of a one-key set; with several keys,
///   `jws-key-ambiguous` (no key is tried: trying them all would turn a set into "any of these
///   keys" silently).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySet {
    entries: Vec<KeyEntry>,
}

impl KeySet {
    /// A set of one key.
    pub fn single(key: VerifyingKey, kid: Option<String>) -> KeySet {
        KeySet {
            entries: vec![KeyEntry { kid, key }],
        }
    }

    /// A set of the given keys: at least one (`jwk-set-empty`), `kid`s unique
    /// (`jwk-duplicate-kid`, pointer `/keys/<i>/kid` of the second one).
    pub fn new(entries: Vec<KeyEntry>) -> Result<KeySet, JoseError> {
        if entries.is_empty() {
            return Err(JoseError::JwkSetEmpty);
        }
        for (i, entry) in entries.iter().enumerate() {
            if let Some(kid) = &entry.kid
                && entries[..i].iter().any(|e| e.kid.as_ref() == Some(kid))
            {
                return Err(JoseError::JwkDuplicateKid {
                    at: format!("/keys/{i}/kid"),
                    kid: kid.clone(),
                });
            }
        }
        Ok(KeySet { entries })
    }

    /// The keys of a JWK Set, every one checked as a public Ed25519 JWK (see the module docs).
    /// Any bad key fails the whole set: a published key set is wrong as a whole.
    pub fn from_jwk_set(set: &JwkSet) -> Result<KeySet, JoseError> {
        let mut entries = Vec::with_capacity(set.keys.len());
        for (i, jwk) in set.keys.iter().enumerate() {
            let key = public_from_jwk_at(jwk, &format!("/keys/{i}"))?;
            entries.push(KeyEntry {
                kid: jwk.kid.clone(),
                key,
            });
        }
        KeySet::new(entries)
    }

    /// Parses JSON text (strict I-JSON) holding a JWK Set (`{"keys":[...]}`) or a single public
    /// JWK (an object with `kty`). At most [`MAX_KEY_INPUT_BYTES`].
    pub fn from_json(input: &[u8]) -> Result<KeySet, JoseError> {
        check_key_input_size(input.len())?;
        let value = parse_strict(input).map_err(json_error)?;
        let Some(map) = value.as_object() else {
            return Err(JoseError::JwkMalformed {
                at: String::new(),
                reason: "a JWK or JWK Set must be a JSON object".into(),
            });
        };
        if let Some(keys) = map.get("keys") {
            let Some(keys) = keys.as_array() else {
                return Err(JoseError::JwkMalformed {
                    at: "/keys".into(),
                    reason: "`keys` must be an array".into(),
                });
            };
            let mut entries = Vec::with_capacity(keys.len());
            for (i, value) in keys.iter().enumerate() {
                let base = format!("/keys/{i}");
                let jwk = jwk_from_value(value, &base)?;
                let key = public_from_jwk_at(&jwk, &base)?;
                entries.push(KeyEntry { kid: jwk.kid, key });
            }
            KeySet::new(entries)
        } else if map.contains_key("kty") {
            let jwk = jwk_from_value(&value, "")?;
            let key = public_from_jwk_at(&jwk, "")?;
            Ok(KeySet::single(key, jwk.kid))
        } else {
            Err(JoseError::JwkMalformed {
                at: String::new(),
                reason: "neither a JWK Set (no `keys`) nor a JWK (no `kty`)".into(),
            })
        }
    }

    /// The set as an RFC 7517 JWK Set of RFC 8037 public JWKs ([`VerifyingKey::to_jwk`]).
    pub fn to_jwk_set(&self) -> JwkSet {
        JwkSet {
            keys: self
                .entries
                .iter()
                .map(|e| e.key.to_jwk(e.kid.as_deref()))
                .collect(),
        }
    }

    /// The keys, in input order.
    pub fn entries(&self) -> &[KeyEntry] {
        &self.entries
    }

    /// Number of keys (at least 1).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always `false`: a key set is never empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The key with this `kid`.
    pub fn find(&self, kid: &str) -> Option<&KeyEntry> {
        self.entries.iter().find(|e| e.kid.as_deref() == Some(kid))
    }

    /// The key a JWS with this header `kid` must be verified with (rules in the type docs).
    pub fn resolve(&self, kid: Option<&str>) -> Result<&KeyEntry, JoseError> {
        match kid {
            Some(kid) => {
                if let Some(entry) = self.find(kid) {
                    return Ok(entry);
                }
                match self.entries.as_slice() {
                    [only] if only.kid.is_none() => Ok(only),
                    _ => Err(JoseError::JwsKidUnknown {
                        kid: kid.to_string(),
                    }),
                }
            }
            None => match self.entries.as_slice() {
                [only] => Ok(only),
                entries => Err(JoseError::JwsKeyAmbiguous {
                    keys: entries.len(),
                }),
            },
        }
    }
}

/// Detected kind of key text.
enum KeyText<'a> {
    Pem(&'a str),
    Json,
}

fn detect(input: &[u8]) -> Result<KeyText<'_>, JoseError> {
    check_key_input_size(input.len())?;
    let text = std::str::from_utf8(input).map_err(|e| JoseError::KeyFormatUnknown {
        reason: format!(
            "input is not UTF-8 (byte {}); binary DER is not accepted, use PEM",
            e.valid_up_to()
        ),
    })?;
    let trimmed = text.trim_start();
    if trimmed.starts_with("-----BEGIN ") {
        Ok(KeyText::Pem(trimmed))
    } else if trimmed.starts_with('{') {
        Ok(KeyText::Json)
    } else {
        Err(JoseError::KeyFormatUnknown {
            reason: "expected `-----BEGIN PUBLIC KEY-----` PEM or a JSON object".into(),
        })
    }
}

/// Loads public keys from the contents of a key file: a `PUBLIC KEY` PEM document (one key, no
/// `kid`), a JWK Set, or a single public JWK; the format is detected from the first
/// non-whitespace characters. A `PRIVATE KEY` PEM (`key-private-key-published`) or a JWK with `d`
/// (`jwk-private-key-published`) is refused. At most [`MAX_KEY_INPUT_BYTES`].
pub fn load_public_keys(input: &[u8]) -> Result<KeySet, JoseError> {
    match detect(input)? {
        KeyText::Pem(text) => Ok(KeySet::single(VerifyingKey::from_spki_pem(text)?, None)),
        KeyText::Json => KeySet::from_json(input),
    }
}

/// Loads a signing key from the contents of a key file: a PKCS#8 `PRIVATE KEY` PEM document or a
/// single private JWK (with `d` and `x`); the format is detected. At most
/// [`MAX_KEY_INPUT_BYTES`].
pub fn load_signing_key(input: &[u8]) -> Result<SigningKey, JoseError> {
    match detect(input)? {
        KeyText::Pem(text) => SigningKey::from_pkcs8_pem(text),
        KeyText::Json => {
            let value = parse_strict(input).map_err(json_error)?;
            let jwk = jwk_from_value(&value, "")?;
            private_from_jwk_at(&jwk, "")
        }
    }
}

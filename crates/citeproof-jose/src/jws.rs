//! Detached JWS (RFC 7515 §7.1 compact serialization, Appendix F detached content) with RFC 8037
//! `EdDSA` / Ed25519.
//!
//! # Signing
//!
//! [`sign_detached`] produces `BASE64URL(header) + ".." + BASE64URL(signature)` where `header`
//! is the RFC 8785 (JCS) serialization of `{"alg":"EdDSA"}` or `{"alg":"EdDSA","kid":<kid>}`
//! (JCS sorts members, so `alg` comes first; `kid` is escaped as JCS escapes strings), and the
//! signature is Ed25519 over the RFC 7515 §5.1 signing input
//! `ASCII(BASE64URL(header) || '.' || BASE64URL(payload))`. Ed25519 is deterministic: the same
//! key, kid and payload always give the same JWS. See [`protected_header_bytes`].
//!
//! # Verification
//!
//! [`verify_detached`] checks, in this order, and stops at the first failure:
//!
//! 1. length at most [`MAX_JWS_BYTES`] (`jws-too-large`);
//! 2. exactly three `.`-separated parts (`jws-malformed`; a five-part JWE is also refused here);
//! 3. the middle part is empty (`jws-payload-attached`: detached form only, even when the
//!    attached payload would equal the given one);
//! 4. the header part is non-empty (`jws-malformed`) base64url without padding
//!    (`jws-base64-invalid`) of an I-JSON object (`jws-header-invalid`, checked with
//!    [`citeproof_model::json::parse_strict`]: duplicate members are refused);
//! 5. `alg` is present (`jws-alg-missing`), a string (`jws-header-invalid`) and exactly `EdDSA`
//!    (RFC 8037) or `Ed25519` (RFC 9864, which deprecates `EdDSA` for this use)
//!    (`jws-alg-forbidden`: `none`, `HS256`, `eddsa` and everything else);
//! 6. no `b64` member (`jws-b64-unsupported`, RFC 7797), then no `crit` member
//!    (`jws-crit-unsupported`: no extension is understood, RFC 7515 §4.1.11);
//! 7. `kid`, if present, is a string (`jws-header-invalid`);
//! 8. the signature part is non-empty (`jws-malformed`) base64url without padding
//!    (`jws-base64-invalid`) of exactly 64 bytes (`jws-signature-invalid`);
//! 9. the key is selected from the [`KeySet`] by `kid` ([`KeySet::resolve`]:
//!    `jws-kid-unknown`, `jws-key-ambiguous`);
//! 10. strict Ed25519 verification (`verify_strict`) of the signing input built from the
//!     header part *as received* and the base64url of the given payload
//!     (`jws-signature-invalid`).
//!
//! Header members other than `alg`, `kid`, `b64` and `crit` (`typ`, `cty`, `jwk`, `jku`, `x5c`,
//! ...) are ignored: keys come only from the caller's key set, never from the JWS itself.

use serde_json::{Map, Value, json};

use citeproof_model::jcs::canonicalize;
use citeproof_model::json::parse_strict;

use crate::b64;
use crate::error::{JoseError, JwsPart};
use crate::jwk::{ALG_EDDSA, KeySet, is_ed25519_alg};
use crate::keys::{SigningKey, VerifyingKey};

/// Longest compact JWS accepted by [`parse_detached`] / [`verify_detached`], in bytes (64 KiB).
pub const MAX_JWS_BYTES: usize = 64 * 1024;

/// The protected header bytes [`sign_detached`] signs: the JCS form of `{"alg":"EdDSA"}` or
/// `{"alg":"EdDSA","kid":<kid>}`. For example `kid = Some("k1")` gives exactly
/// `{"alg":"EdDSA","kid":"k1"}`.
pub fn protected_header_bytes(kid: Option<&str>) -> Vec<u8> {
    let header = match kid {
        Some(kid) => json!({ "alg": ALG_EDDSA, "kid": kid }),
        None => json!({ "alg": ALG_EDDSA }),
    };
    canonicalize(&header)
}

/// The RFC 7515 §5.1 signing input `ASCII(protected_b64 || '.' || BASE64URL(payload))`.
pub fn signing_input(protected_b64: &str, payload: &[u8]) -> Vec<u8> {
    let payload_b64 = b64::encode(payload);
    let mut input = Vec::with_capacity(protected_b64.len() + 1 + payload_b64.len());
    input.extend_from_slice(protected_b64.as_bytes());
    input.push(b'.');
    input.extend_from_slice(payload_b64.as_bytes());
    input
}

/// Signs `payload` and returns the detached compact JWS `<header>..<signature>` (see the module
/// docs for the exact header bytes).
///
/// Fails, signing nothing, when the JWS would not pass this module's own checks (steps 1-8):
/// a `kid` with a noncharacter (not I-JSON) or so long that the JWS exceeds [`MAX_JWS_BYTES`].
/// A signer never emits what its verifier refuses.
pub fn sign_detached(
    payload: &[u8],
    key: &SigningKey,
    kid: Option<&str>,
) -> Result<String, JoseError> {
    let protected_b64 = b64::encode(&protected_header_bytes(kid));
    // The signature's length is fixed: check the shape with a placeholder before signing.
    let placeholder = format!("{protected_b64}..{}", b64::encode(&[0u8; 64]));
    parse_detached(&placeholder)?;
    let signature = key.sign(&signing_input(&protected_b64, payload));
    Ok(format!("{protected_b64}..{}", b64::encode(&signature)))
}

/// A detached JWS that passed the structural and header checks (steps 1-8 of the module docs),
/// not yet verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedJws {
    /// The protected header segment as received (base64url).
    pub protected_b64: String,
    /// The decoded protected header.
    pub header: Map<String, Value>,
    /// The header's `kid`, if any.
    pub kid: Option<String>,
    /// The 64-byte Ed25519 signature.
    pub signature: [u8; 64],
}

impl ParsedJws {
    /// The signing input for `payload` (RFC 7515 §5.2 step 8).
    pub fn signing_input(&self, payload: &[u8]) -> Vec<u8> {
        signing_input(&self.protected_b64, payload)
    }

    /// Strict Ed25519 verification of the signature over `payload` with `key`.
    pub fn verify_with(&self, payload: &[u8], key: &VerifyingKey) -> Result<(), JoseError> {
        key.verify(&self.signing_input(payload), &self.signature)
    }
}

/// The outcome of a successful [`verify_detached`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedJws {
    /// The decoded protected header.
    pub header: Map<String, Value>,
    /// The header's `kid`, if any.
    pub kid: Option<String>,
    /// The key that verified the signature.
    pub key: VerifyingKey,
    /// The `kid` of that key in the key set, if it has one.
    pub key_kid: Option<String>,
}

fn decode_part(text: &str, part: JwsPart) -> Result<Vec<u8>, JoseError> {
    if text.is_empty() {
        return Err(JoseError::JwsMalformed {
            reason: format!("the {part} segment is empty"),
        });
    }
    b64::decode(text).map_err(|reason| JoseError::JwsBase64Invalid { part, reason })
}

/// Parses and checks a detached compact JWS (steps 1-8 of the module docs) without verifying the
/// signature: useful to read the `kid` before fetching keys.
pub fn parse_detached(jws: &str) -> Result<ParsedJws, JoseError> {
    if jws.len() > MAX_JWS_BYTES {
        return Err(JoseError::JwsTooLarge {
            len: jws.len(),
            limit: MAX_JWS_BYTES,
        });
    }
    let parts: Vec<&str> = jws.split('.').collect();
    let [header_b64, payload_b64, signature_b64] = parts.as_slice() else {
        return Err(JoseError::JwsMalformed {
            reason: format!(
                "expected 3 '.'-separated parts (header..signature), found {}",
                parts.len()
            ),
        });
    };
    if !payload_b64.is_empty() {
        return Err(JoseError::JwsPayloadAttached);
    }
    let header_bytes = decode_part(header_b64, JwsPart::Header)?;
    let header = match parse_strict(&header_bytes) {
        Ok(Value::Object(map)) => map,
        Ok(_) => {
            return Err(JoseError::JwsHeaderInvalid {
                reason: "the protected header is not a JSON object".into(),
            });
        }
        Err(e) => {
            return Err(JoseError::JwsHeaderInvalid {
                reason: format!("{} ({})", e.message, e.code.as_str()),
            });
        }
    };
    match header.get("alg") {
        None => return Err(JoseError::JwsAlgMissing),
        Some(Value::String(alg)) if is_ed25519_alg(alg) => {}
        Some(Value::String(alg)) => {
            return Err(JoseError::JwsAlgForbidden { alg: alg.clone() });
        }
        Some(_) => {
            return Err(JoseError::JwsHeaderInvalid {
                reason: "`alg` must be a string".into(),
            });
        }
    }
    if header.contains_key("b64") {
        return Err(JoseError::JwsB64Unsupported);
    }
    if header.contains_key("crit") {
        return Err(JoseError::JwsCritUnsupported);
    }
    let kid = match header.get("kid") {
        None => None,
        Some(Value::String(kid)) => Some(kid.clone()),
        Some(_) => {
            return Err(JoseError::JwsHeaderInvalid {
                reason: "`kid` must be a string".into(),
            });
        }
    };
    let signature_bytes = decode_part(signature_b64, JwsPart::Signature)?;
    let len = signature_bytes.len();
    let signature: [u8; 64] =
        signature_bytes
            .try_into()
            .map_err(|_| JoseError::JwsSignatureInvalid {
                reason: format!("signature is {len} bytes; Ed25519 needs 64"),
            })?;
    Ok(ParsedJws {
        protected_b64: (*header_b64).to_string(),
        header,
        kid,
        signature,
    })
}

/// Verifies a detached compact JWS over `payload` with a key of `keys` (all steps of the module
/// docs).
pub fn verify_detached(jws: &str, payload: &[u8], keys: &KeySet) -> Result<VerifiedJws, JoseError> {
    let parsed = parse_detached(jws)?;
    let entry = keys.resolve(parsed.kid.as_deref())?;
    parsed.verify_with(payload, &entry.key)?;
    Ok(VerifiedJws {
        header: parsed.header,
        kid: parsed.kid,
        key: entry.key,
        key_kid: entry.kid.clone(),
    })
}

//! [`JoseError`]: every way a key, a JWK (Set) or a JWS can be refused, each with a stable code.

use std::fmt;

/// Which base64url segment of a compact JWS failed to decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JwsPart {
    /// The first segment, `BASE64URL(UTF8(JWS Protected Header))`.
    Header,
    /// The third segment, `BASE64URL(JWS Signature)`.
    Signature,
}

impl fmt::Display for JwsPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            JwsPart::Header => "protected header",
            JwsPart::Signature => "signature",
        })
    }
}

/// An error of this crate. [`JoseError::code`] is the stable, kebab-case identifier (prefixes
/// `jws-`, `jwk-`, `key-`); the `Display` text is for humans and may change.
///
/// JWK errors carry `at`, the RFC 6901 JSON pointer of the offending member in the input that
/// was parsed (`/keys/1/x` in a JWK Set, `/x` for a single JWK; `""` when the error concerns the
/// whole JWK or when the JWK did not come from JSON text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum JoseError {
    // ---- JWS (RFC 7515, RFC 8037) ----
    /// `jws-too-large`: the compact JWS is longer than [`crate::MAX_JWS_BYTES`].
    #[error("JWS is {len} bytes; the limit is {limit}")]
    JwsTooLarge { len: usize, limit: usize },
    /// `jws-malformed`: not `<header>.<payload>.<signature>` (wrong number of `.`-separated
    /// parts, an empty header or signature segment).
    #[error("malformed compact JWS: {reason}")]
    JwsMalformed { reason: String },
    /// `jws-base64-invalid`: a segment is not base64url without padding (RFC 7515 §2: padding,
    /// `+`, `/`, whitespace and non-zero trailing bits are all refused).
    #[error("JWS {part} is not base64url without padding: {reason}")]
    JwsBase64Invalid { part: JwsPart, reason: String },
    /// `jws-header-invalid`: the protected header is not an I-JSON object (RFC 7493), or a
    /// header parameter has the wrong JSON type (`alg`, `kid` must be strings).
    #[error("JWS protected header is invalid: {reason}")]
    JwsHeaderInvalid { reason: String },
    /// `jws-alg-missing`: the protected header has no `alg` (RFC 7515 §4.1.1: REQUIRED).
    #[error("JWS protected header has no `alg`")]
    JwsAlgMissing,
    /// `jws-alg-forbidden`: `alg` is not `EdDSA` (`none`, `HS256`, `RS256`, `Ed25519`, ...).
    /// Only RFC 8037 `EdDSA` with an Ed25519 key is accepted: no algorithm confusion.
    #[error("JWS algorithm {alg:?} is not accepted; only \"EdDSA\" (Ed25519) is")]
    JwsAlgForbidden { alg: String },
    /// `jws-crit-unsupported`: the header has `crit` (RFC 7515 §4.1.11); this implementation
    /// understands no extension, so it must refuse any.
    #[error("JWS protected header has `crit`; no critical extension is supported")]
    JwsCritUnsupported,
    /// `jws-b64-unsupported`: the header has `b64` (RFC 7797 unencoded payload); refused.
    #[error("JWS protected header has `b64` (RFC 7797 unencoded payload), which is not supported")]
    JwsB64Unsupported,
    /// `jws-payload-attached`: the middle segment is not empty; only the detached form
    /// (RFC 7515 Appendix F, `<header>..<signature>`) is accepted.
    #[error(
        "JWS carries an attached payload; only the detached form `<header>..<signature>` is accepted"
    )]
    JwsPayloadAttached,
    /// `jws-signature-invalid`: the Ed25519 signature does not verify (strict verification:
    /// canonical `S`, canonical non-small-order `R`), or it is not 64 bytes.
    #[error("JWS signature is invalid: {reason}")]
    JwsSignatureInvalid { reason: String },
    /// `jws-kid-unknown`: the header's `kid` names no key of the key set.
    #[error("JWS `kid` {kid:?} matches no key")]
    JwsKidUnknown { kid: String },
    /// `jws-key-ambiguous`: the header has no `kid` and the key set has several keys.
    #[error("JWS has no `kid` and {keys} keys are candidates; refusing to guess")]
    JwsKeyAmbiguous { keys: usize },
    /// `jws-signing-input-invalid`: the document to sign or verify is not of the required shape
    /// (an AEF evidence object must be a JSON object whose `verification`, if present, is an
    /// object).
    #[error("cannot build the JWS signing input: {reason}")]
    JwsSigningInputInvalid { reason: String },

    // ---- JWK (RFC 7517, RFC 8037) ----
    /// `jwk-malformed`: not a JSON object of the JWK (Set) shape, a required member is missing
    /// or has the wrong JSON type, or a member is not base64url without padding.
    #[error("malformed JWK at {at:?}: {reason}")]
    JwkMalformed { at: String, reason: String },
    /// `jwk-unsupported-key-type`: `kty` is not `OKP`.
    #[error("JWK at {at:?} has kty {kty:?}; only \"OKP\" is supported")]
    JwkUnsupportedKeyType { at: String, kty: String },
    /// `jwk-unsupported-curve`: `crv` is not `Ed25519`.
    #[error("JWK at {at:?} has crv {crv:?}; only \"Ed25519\" is supported")]
    JwkUnsupportedCurve { at: String, crv: String },
    /// `jwk-invalid-key-length`: `x` or `d` does not decode to exactly 32 bytes.
    #[error("JWK member at {at:?} decodes to {len} bytes; Ed25519 needs exactly 32")]
    JwkInvalidKeyLength { at: String, len: usize },
    /// `jwk-invalid-point`: `x` is not the canonical encoding of a point of edwards25519.
    #[error("JWK `x` at {at:?} is not a canonically encoded edwards25519 point")]
    JwkInvalidPoint { at: String },
    /// `jwk-weak-key`: `x` is a point of small order (a "weak" key that verifies forged
    /// signatures).
    #[error("JWK `x` at {at:?} is a small-order (weak) point")]
    JwkWeakKey { at: String },
    /// `jwk-private-key-published`: a JWK loaded as a *public* key carries `d`.
    #[error("JWK at {at:?} carries the private key `d` where a public key was expected")]
    JwkPrivateKeyPublished { at: String },
    /// `jwk-private-key-missing`: a JWK loaded as a signing key has no `d`.
    #[error("JWK at {at:?} has no private key `d`")]
    JwkPrivateKeyMissing { at: String },
    /// `jwk-key-mismatch`: a private JWK's `x` is not the public key of its `d`.
    #[error("JWK at {at:?}: `x` is not the public key of `d`")]
    JwkKeyMismatch { at: String },
    /// `jwk-duplicate-kid`: two keys of a set share a `kid`.
    #[error("JWK Set has two keys with kid {kid:?} (second at {at:?})")]
    JwkDuplicateKid { at: String, kid: String },
    /// `jwk-set-empty`: the JWK Set has no key.
    #[error("JWK Set has no key")]
    JwkSetEmpty,
    /// `jwk-use-mismatch`: `use` is present and is not `sig`.
    #[error("JWK at {at:?} has use {key_use:?}; a signature key needs \"sig\"")]
    JwkUseMismatch { at: String, key_use: String },
    /// `jwk-alg-mismatch`: `alg` is present and is not `EdDSA`.
    #[error("JWK at {at:?} has alg {alg:?}; expected \"EdDSA\"")]
    JwkAlgMismatch { at: String, alg: String },

    // ---- keys in PEM, raw bytes, generation ----
    /// `key-input-too-large`: key material input is longer than [`crate::MAX_KEY_INPUT_BYTES`].
    #[error("key input is {len} bytes; the limit is {limit}")]
    KeyInputTooLarge { len: usize, limit: usize },
    /// `key-format-unknown`: key input is neither PEM nor a JSON object (JWK or JWK Set).
    #[error("key input is neither PEM nor a JWK / JWK Set: {reason}")]
    KeyFormatUnknown { reason: String },
    /// `key-pem-malformed`: the PEM text, its label, or the PKCS#8 / SPKI DER inside is invalid.
    #[error("malformed PEM key: {reason}")]
    KeyPemMalformed { reason: String },
    /// `key-unsupported-algorithm`: well-formed PKCS#8 / SPKI, but not an Ed25519 key.
    #[error("PEM key is not an Ed25519 key: {reason}")]
    KeyUnsupportedAlgorithm { reason: String },
    /// `key-private-key-published`: a PEM `PRIVATE KEY` was given where a public key was
    /// expected.
    #[error("a PEM PRIVATE KEY was given where a public key was expected")]
    KeyPrivateKeyPublished,
    /// `key-mismatch`: a PKCS#8 v2 document's public key is not the public key of its secret.
    #[error("PKCS#8 public key does not match its private key")]
    KeyMismatch,
    /// `key-invalid-point`: 32 public key bytes (raw or from SPKI) are not the canonical
    /// encoding of a point of edwards25519.
    #[error("public key is not a canonically encoded edwards25519 point")]
    KeyInvalidPoint,
    /// `key-weak`: the public key (raw or from SPKI) is a small-order point.
    #[error("public key is a small-order (weak) point")]
    KeyWeak,
    /// `key-rng-failure`: the operating system random number generator failed.
    #[error("OS random number generator failed: {reason}")]
    KeyRngFailure { reason: String },
    /// `key-encoding-failed`: DER/PEM encoding of a key failed (not expected to happen).
    #[error("key encoding failed: {reason}")]
    KeyEncodingFailed { reason: String },
}

impl JoseError {
    /// Every code [`JoseError::code`] can return, in declaration order.
    pub const ALL_CODES: &'static [&'static str] = &[
        "jws-too-large",
        "jws-malformed",
        "jws-base64-invalid",
        "jws-header-invalid",
        "jws-alg-missing",
        "jws-alg-forbidden",
        "jws-crit-unsupported",
        "jws-b64-unsupported",
        "jws-payload-attached",
        "jws-signature-invalid",
        "jws-kid-unknown",
        "jws-key-ambiguous",
        "jws-signing-input-invalid",
        "jwk-malformed",
        "jwk-unsupported-key-type",
        "jwk-unsupported-curve",
        "jwk-invalid-key-length",
        "jwk-invalid-point",
        "jwk-weak-key",
        "jwk-private-key-published",
        "jwk-private-key-missing",
        "jwk-key-mismatch",
        "jwk-duplicate-kid",
        "jwk-set-empty",
        "jwk-use-mismatch",
        "jwk-alg-mismatch",
        "key-input-too-large",
        "key-format-unknown",
        "key-pem-malformed",
        "key-unsupported-algorithm",
        "key-private-key-published",
        "key-mismatch",
        "key-invalid-point",
        "key-weak",
        "key-rng-failure",
        "key-encoding-failed",
    ];

    /// The stable, kebab-case code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            JoseError::JwsTooLarge { .. } => "jws-too-large",
            JoseError::JwsMalformed { .. } => "jws-malformed",
            JoseError::JwsBase64Invalid { .. } => "jws-base64-invalid",
            JoseError::JwsHeaderInvalid { .. } => "jws-header-invalid",
            JoseError::JwsAlgMissing => "jws-alg-missing",
            JoseError::JwsAlgForbidden { .. } => "jws-alg-forbidden",
            JoseError::JwsCritUnsupported => "jws-crit-unsupported",
            JoseError::JwsB64Unsupported => "jws-b64-unsupported",
            JoseError::JwsPayloadAttached => "jws-payload-attached",
            JoseError::JwsSignatureInvalid { .. } => "jws-signature-invalid",
            JoseError::JwsKidUnknown { .. } => "jws-kid-unknown",
            JoseError::JwsKeyAmbiguous { .. } => "jws-key-ambiguous",
            JoseError::JwsSigningInputInvalid { .. } => "jws-signing-input-invalid",
            JoseError::JwkMalformed { .. } => "jwk-malformed",
            JoseError::JwkUnsupportedKeyType { .. } => "jwk-unsupported-key-type",
            JoseError::JwkUnsupportedCurve { .. } => "jwk-unsupported-curve",
            JoseError::JwkInvalidKeyLength { .. } => "jwk-invalid-key-length",
            JoseError::JwkInvalidPoint { .. } => "jwk-invalid-point",
            JoseError::JwkWeakKey { .. } => "jwk-weak-key",
            JoseError::JwkPrivateKeyPublished { .. } => "jwk-private-key-published",
            JoseError::JwkPrivateKeyMissing { .. } => "jwk-private-key-missing",
            JoseError::JwkKeyMismatch { .. } => "jwk-key-mismatch",
            JoseError::JwkDuplicateKid { .. } => "jwk-duplicate-kid",
            JoseError::JwkSetEmpty => "jwk-set-empty",
            JoseError::JwkUseMismatch { .. } => "jwk-use-mismatch",
            JoseError::JwkAlgMismatch { .. } => "jwk-alg-mismatch",
            JoseError::KeyInputTooLarge { .. } => "key-input-too-large",
            JoseError::KeyFormatUnknown { .. } => "key-format-unknown",
            JoseError::KeyPemMalformed { .. } => "key-pem-malformed",
            JoseError::KeyUnsupportedAlgorithm { .. } => "key-unsupported-algorithm",
            JoseError::KeyPrivateKeyPublished => "key-private-key-published",
            JoseError::KeyMismatch => "key-mismatch",
            JoseError::KeyInvalidPoint => "key-invalid-point",
            JoseError::KeyWeak => "key-weak",
            JoseError::KeyRngFailure { .. } => "key-rng-failure",
            JoseError::KeyEncodingFailed { .. } => "key-encoding-failed",
        }
    }

    /// The RFC 6901 pointer of the offending JWK member, for the `jwk-*` errors that have one.
    pub fn pointer(&self) -> Option<&str> {
        match self {
            JoseError::JwkMalformed { at, .. }
            | JoseError::JwkUnsupportedKeyType { at, .. }
            | JoseError::JwkUnsupportedCurve { at, .. }
            | JoseError::JwkInvalidKeyLength { at, .. }
            | JoseError::JwkInvalidPoint { at }
            | JoseError::JwkWeakKey { at }
            | JoseError::JwkPrivateKeyPublished { at }
            | JoseError::JwkPrivateKeyMissing { at }
            | JoseError::JwkKeyMismatch { at }
            | JoseError::JwkDuplicateKid { at, .. }
            | JoseError::JwkUseMismatch { at, .. }
            | JoseError::JwkAlgMismatch { at, .. } => Some(at),
            _ => None,
        }
    }
}

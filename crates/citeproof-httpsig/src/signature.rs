//! Signature base (RFC 9421 §2.5), Ed25519 signing and verification (§3.1, §3.2, §3.3.6).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use ed25519_dalek::pkcs8::{DecodePrivateKey, DecodePublicKey};
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};

use crate::error::{HttpSigError, Result};
use crate::message::Message;
use crate::params::{
    SignatureParams, parse_signature, parse_signature_input, signature_input_member, validate_label,
};

/// The only algorithm this crate signs and verifies with (RFC 9421 §3.3.6).
pub const ALG_ED25519: &str = "ed25519";

/// Builds the signature base of RFC 9421 §2.5: one line `"<component id>": <value>` per covered
/// component, each ending in LF, then `"@signature-params": <inner list>` without a final LF.
pub fn signature_base(message: &Message, params: &SignatureParams) -> Result<String> {
    params.validate()?;
    let mut base = String::new();
    for component in &params.components {
        let value = component.value(message)?;
        if value.contains(['\n', '\r']) {
            return Err(HttpSigError::InvalidComponent {
                component: component.to_string(),
                detail: "component value contains a line break".into(),
            });
        }
        base.push_str(&component.serialize()?);
        base.push_str(": ");
        base.push_str(&value);
        base.push('\n');
    }
    base.push_str("\"@signature-params\": ");
    base.push_str(&params.serialize()?);
    Ok(base)
}

/// The result of [`sign`]: the field values to attach and the signature base that was signed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedFields {
    /// The label, e.g. `sig1`.
    pub label: String,
    /// The `Signature-Input` member, e.g. `sig1=("@status");created=1`.
    pub signature_input: String,
    /// The `Signature` member, e.g. `sig1=:<base64>:`.
    pub signature: String,
    /// The signature base that was signed.
    pub signature_base: String,
}

/// Signs `message` with Ed25519 under `label` (RFC 9421 §3.1). Deterministic: the same message,
/// parameters and key always give the same bytes (RFC 8032 Ed25519 has no randomness).
///
/// If `params` carries `alg`, it must be `ed25519`. The label must be an sf-key and must not be
/// used by a `Signature-Input` or `Signature` member already on the message.
pub fn sign(
    message: &Message,
    label: &str,
    params: &SignatureParams,
    key: &SigningKey,
) -> Result<SignedFields> {
    validate_label(label)?;
    if let Some(alg) = params.alg()
        && alg != ALG_ED25519
    {
        return Err(HttpSigError::AlgMismatch {
            label: label.to_owned(),
            alg: alg.to_owned(),
        });
    }
    let headers = message.headers();
    if let Some(existing) = headers.combined("signature-input")
        && parse_signature_input(&existing)?
            .iter()
            .any(|(l, _)| l == label)
    {
        return Err(HttpSigError::DuplicateLabel {
            label: label.to_owned(),
        });
    }
    if let Some(existing) = headers.combined("signature")
        && parse_signature(&existing)?.iter().any(|(l, _)| l == label)
    {
        return Err(HttpSigError::DuplicateLabel {
            label: label.to_owned(),
        });
    }
    let base = signature_base(message, params)?;
    let signature = key.sign(base.as_bytes());
    Ok(SignedFields {
        label: label.to_owned(),
        signature_input: signature_input_member(label, params)?,
        signature: format!("{label}=:{}:", STANDARD.encode(signature.to_bytes())),
        signature_base: base,
    })
}

/// Signs `message` and appends the `Signature-Input` and `Signature` field lines to it.
pub fn sign_in_place(
    message: &mut Message,
    label: &str,
    params: &SignatureParams,
    key: &SigningKey,
) -> Result<SignedFields> {
    let signed = sign(message, label, params, key)?;
    let headers = message.headers_mut();
    headers.push("Signature-Input", &signed.signature_input)?;
    headers.push("Signature", &signed.signature)?;
    Ok(signed)
}

/// The Ed25519 verification primitive used by [`crate::verify_message`]: RFC 8032 §5.1.7 via ed25519-dalek
/// `verify_strict`, which rejects a non-canonical `S` (≥ L), a small-order `R` and a small-order
/// public key. Returns `false` for a signature that is not exactly 64 bytes.
pub fn ed25519_verify_strict(key: &VerifyingKey, message: &[u8], signature: &[u8]) -> bool {
    let Ok(bytes) = <[u8; 64]>::try_from(signature) else {
        return false;
    };
    key.verify_strict(message, &Signature::from_bytes(&bytes))
        .is_ok()
}

/// Loads an Ed25519 public key from a PEM `PUBLIC KEY` (SubjectPublicKeyInfo, RFC 8410).
/// Small-order keys are rejected with [`HttpSigError::WeakKey`].
pub fn verifying_key_from_pem(pem: &str) -> Result<VerifyingKey> {
    let key =
        VerifyingKey::from_public_key_pem(pem.trim()).map_err(|e| HttpSigError::KeyInvalid {
            detail: e.to_string(),
        })?;
    if key.is_weak() {
        return Err(HttpSigError::WeakKey);
    }
    Ok(key)
}

/// Loads an Ed25519 public key from its 32-byte encoding (RFC 8032 §5.1.2). Small-order keys are
/// rejected with [`HttpSigError::WeakKey`].
pub fn verifying_key_from_bytes(bytes: &[u8]) -> Result<VerifyingKey> {
    let bytes = <[u8; 32]>::try_from(bytes).map_err(|_| HttpSigError::KeyInvalid {
        detail: format!("{} bytes, an Ed25519 public key has 32", bytes.len()),
    })?;
    let key = VerifyingKey::from_bytes(&bytes).map_err(|e| HttpSigError::KeyInvalid {
        detail: e.to_string(),
    })?;
    if key.is_weak() {
        return Err(HttpSigError::WeakKey);
    }
    Ok(key)
}

/// Loads an Ed25519 private key from a PEM `PRIVATE KEY` (PKCS#8, RFC 8410).
pub fn signing_key_from_pem(pem: &str) -> Result<SigningKey> {
    SigningKey::from_pkcs8_pem(pem.trim()).map_err(|e| HttpSigError::KeyInvalid {
        detail: e.to_string(),
    })
}

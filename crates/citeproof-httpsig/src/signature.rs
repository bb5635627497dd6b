//! Signature base (RFC 9421 §2.5), Ed25519 signing and verification (§3.1, §3.2, §3.3.6).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use ed25519_dalek::pkcs8::{DecodePrivateKey, DecodePublicKey};
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};

use crate::component::ComponentId;
use crate::digest::check_content_digest;
use crate::error::{HttpSigError, Result};
use crate::message::Message;
use crate::params::{
    ParamName, SignatureParams, parse_signature, parse_signature_input, signature_input_member,
    validate_label,
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

/// Which signatures of a message to verify.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelSelector<'a> {
    /// Only the signature with this label.
    Label(&'a str),
    /// Every signature in `Signature-Input` (all must pass, at least one must exist).
    All,
}

/// What a verifier requires beyond a valid signature (RFC 9421 §1.4, §3.2.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyPolicy {
    /// Components the signature must cover (matched by name and parameters).
    pub required_components: Vec<ComponentId>,
    /// Signature parameters the signature must carry.
    pub required_params: Vec<ParamName>,
    /// Tolerance in seconds for `created` in the future and `expires` in the past.
    pub max_clock_skew: u64,
    /// Maximum age of `created` in seconds (`None`: no limit). Only checked when `created` is
    /// present; require [`ParamName::Created`] to make it mandatory.
    pub max_age: Option<u64>,
    /// When the signature covers `content-digest` (without parameters), also check that field
    /// against the message content (RFC 9530).
    pub check_content_digest: bool,
}

impl Default for VerifyPolicy {
    fn default() -> Self {
        Self {
            required_components: Vec::new(),
            required_params: Vec::new(),
            max_clock_skew: 60,
            max_age: None,
            check_content_digest: true,
        }
    }
}

/// A signature that passed [`verify`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedSignature {
    /// Its label.
    pub label: String,
    /// Its covered components and parameters.
    pub params: SignatureParams,
    /// The signature base that verified.
    pub signature_base: String,
}

/// Verifies the selected signatures of `message` with `key` (RFC 9421 §3.2) under `policy`, with
/// the caller's clock `now` (Unix seconds; this crate never reads a clock).
///
/// Per signature, in this order: the label must be in `Signature-Input` and `Signature`; `alg`,
/// if present, must be `ed25519`; the policy's required parameters and components must be
/// present; `created`/`expires` are checked against `now` and the policy; the signature base is
/// rebuilt and the 64-byte signature checked with Ed25519 `verify_strict` (canonical `S`, no
/// small-order `R` or key); finally `Content-Digest`, if covered, is checked against the content.
pub fn verify(
    message: &Message,
    key: &VerifyingKey,
    selector: LabelSelector<'_>,
    policy: &VerifyPolicy,
    now: i64,
) -> Result<Vec<VerifiedSignature>> {
    let headers = message.headers();
    let inputs_raw = headers
        .combined("signature-input")
        .ok_or(HttpSigError::SignatureInputMissing)?;
    let inputs = parse_signature_input(&inputs_raw)?;
    let signatures = match headers.combined("signature") {
        Some(raw) => parse_signature(&raw)?,
        None => Vec::new(),
    };
    let selected: Vec<&(String, SignatureParams)> = match selector {
        LabelSelector::Label(label) => {
            let found = inputs.iter().find(|(l, _)| l == label).ok_or_else(|| {
                HttpSigError::LabelNotFound {
                    label: label.to_owned(),
                }
            })?;
            vec![found]
        }
        LabelSelector::All => {
            if inputs.is_empty() {
                return Err(HttpSigError::SignatureInputMissing);
            }
            inputs.iter().collect()
        }
    };
    let mut out = Vec::with_capacity(selected.len());
    for (label, params) in selected {
        let sig = signatures
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, s)| s.as_slice())
            .ok_or_else(|| HttpSigError::SignatureMissing {
                label: label.clone(),
            })?;
        out.push(verify_one(message, key, label, params, sig, policy, now)?);
    }
    Ok(out)
}

fn verify_one(
    message: &Message,
    key: &VerifyingKey,
    label: &str,
    params: &SignatureParams,
    sig: &[u8],
    policy: &VerifyPolicy,
    now: i64,
) -> Result<VerifiedSignature> {
    if let Some(alg) = params.alg()
        && alg != ALG_ED25519
    {
        return Err(HttpSigError::AlgMismatch {
            label: label.to_owned(),
            alg: alg.to_owned(),
        });
    }
    for required in &policy.required_params {
        if !params.has(*required) {
            return Err(HttpSigError::RequiredParamMissing {
                label: label.to_owned(),
                param: required.as_str().to_owned(),
            });
        }
    }
    for required in &policy.required_components {
        if !params.components.iter().any(|c| c.same_as(required)) {
            return Err(HttpSigError::RequiredComponentNotCovered {
                label: label.to_owned(),
                component: required.to_string(),
            });
        }
    }
    let skew = i64::try_from(policy.max_clock_skew).unwrap_or(i64::MAX);
    if let Some(created) = params.created() {
        if created > now.saturating_add(skew) {
            return Err(HttpSigError::CreatedInFuture {
                label: label.to_owned(),
                created,
                now,
            });
        }
        if let Some(max_age) = policy.max_age {
            let max_age_i = i64::try_from(max_age).unwrap_or(i64::MAX);
            if now.saturating_sub(created) > max_age_i.saturating_add(skew) {
                return Err(HttpSigError::TooOld {
                    label: label.to_owned(),
                    created,
                    now,
                    max_age,
                });
            }
        }
    }
    if let Some(expires) = params.expires()
        && now > expires.saturating_add(skew)
    {
        return Err(HttpSigError::Expired {
            label: label.to_owned(),
            expires,
            now,
        });
    }
    if sig.len() != ed25519_dalek::SIGNATURE_LENGTH {
        return Err(HttpSigError::MalformedSignature {
            label: label.to_owned(),
            detail: format!(
                "{} bytes, an Ed25519 signature has {}",
                sig.len(),
                ed25519_dalek::SIGNATURE_LENGTH
            ),
        });
    }
    let base = signature_base(message, params)?;
    if !ed25519_verify_strict(key, base.as_bytes(), sig) {
        return Err(HttpSigError::SignatureInvalid {
            label: label.to_owned(),
        });
    }
    if policy.check_content_digest {
        let covers_digest = params
            .components
            .iter()
            .any(|c| c.name() == "content-digest" && c.params().is_empty());
        if covers_digest && let Some(value) = message.headers().combined("content-digest") {
            check_content_digest(&value, message.body())?;
        }
    }
    Ok(VerifiedSignature {
        label: label.to_owned(),
        params: params.clone(),
        signature_base: base,
    })
}

/// The Ed25519 verification primitive used by [`verify`]: RFC 8032 §5.1.7 via ed25519-dalek
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

//! Ed25519 keys: generation, raw bytes, PKCS#8 / SPKI PEM.

use std::fmt;

use ed25519_dalek::pkcs8::spki::der::pem::{self, LineEnding};
use ed25519_dalek::pkcs8::spki::der::zeroize::Zeroizing;
use ed25519_dalek::pkcs8::spki::{self, DecodePublicKey, EncodePublicKey};
use ed25519_dalek::pkcs8::{
    self, DecodePrivateKey, EncodePrivateKey, KeypairBytes, PublicKeyBytes,
};
use ed25519_dalek::{Signature, Signer};

use crate::b64;
use crate::error::JoseError;

/// Largest key input accepted by the PEM and JWK loaders, in bytes (1 MiB).
pub const MAX_KEY_INPUT_BYTES: usize = 1024 * 1024;

/// PEM label of a PKCS#8 `PrivateKeyInfo` (RFC 5958 / RFC 7468 §10).
pub const PEM_LABEL_PRIVATE: &str = "PRIVATE KEY";
/// PEM label of a `SubjectPublicKeyInfo` (RFC 5280 / RFC 7468 §13).
pub const PEM_LABEL_PUBLIC: &str = "PUBLIC KEY";

/// An Ed25519 private key. `Debug` shows the public key only; the secret is zeroized on drop
/// (ed25519-dalek's `zeroize` feature).
#[derive(Clone)]
pub struct SigningKey {
    inner: ed25519_dalek::SigningKey,
}

/// An Ed25519 public key that decodes to a point of edwards25519, is canonically encoded and
/// is not of small order: every constructor checks that.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct VerifyingKey {
    inner: ed25519_dalek::VerifyingKey,
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("public", &self.verifying_key())
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VerifyingKey({})", b64::encode(self.inner.as_bytes()))
    }
}

fn check_size(input: &str) -> Result<(), JoseError> {
    if input.len() > MAX_KEY_INPUT_BYTES {
        return Err(JoseError::KeyInputTooLarge {
            len: input.len(),
            limit: MAX_KEY_INPUT_BYTES,
        });
    }
    Ok(())
}

/// The label of a PEM document (RFC 7468 strict form: one block, nothing but whitespace
/// around it).
pub(crate) fn pem_label(input: &str) -> Result<&str, JoseError> {
    pem::decode_label(input.as_bytes()).map_err(|e| JoseError::KeyPemMalformed {
        reason: format!("not a single well-formed PEM block: {e}"),
    })
}

fn pkcs8_error(e: pkcs8::Error) -> JoseError {
    match e {
        pkcs8::Error::PublicKey(spki::Error::OidUnknown { oid }) => {
            JoseError::KeyUnsupportedAlgorithm {
                reason: format!("algorithm OID {oid} is not id-Ed25519 (1.3.101.112)"),
            }
        }
        other => JoseError::KeyPemMalformed {
            reason: format!("PKCS#8: {other}"),
        },
    }
}

fn spki_error(e: spki::Error) -> JoseError {
    match e {
        spki::Error::OidUnknown { oid } => JoseError::KeyUnsupportedAlgorithm {
            reason: format!("algorithm OID {oid} is not id-Ed25519 (1.3.101.112)"),
        },
        other => JoseError::KeyPemMalformed {
            reason: format!("SubjectPublicKeyInfo: {other}"),
        },
    }
}

/// Why 32 bytes are not an acceptable Ed25519 public key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PointError {
    /// Not the canonical encoding of a curve point.
    Invalid,
    /// A point of small order.
    Weak,
}

pub(crate) fn decode_point(bytes: &[u8; 32]) -> Result<ed25519_dalek::VerifyingKey, PointError> {
    let key = ed25519_dalek::VerifyingKey::from_bytes(bytes).map_err(|_| PointError::Invalid)?;
    // curve25519-dalek decompresses some non-canonical encodings (y >= p); a key has one
    // encoding, so those are refused.
    if key.to_edwards().compress().to_bytes() != *bytes {
        return Err(PointError::Invalid);
    }
    if key.is_weak() {
        return Err(PointError::Weak);
    }
    Ok(key)
}

impl SigningKey {
    /// A fresh key: 32 bytes from the operating system RNG (`getrandom`), used as the RFC 8032
    /// secret key.
    pub fn generate() -> Result<SigningKey, JoseError> {
        let mut secret = Zeroizing::new([0u8; 32]);
        getrandom::fill(secret.as_mut_slice()).map_err(|e| JoseError::KeyRngFailure {
            reason: e.to_string(),
        })?;
        Ok(SigningKey::from_secret_bytes(&secret))
    }

    /// The key whose RFC 8032 secret key (seed) is `secret`.
    pub fn from_secret_bytes(secret: &[u8; 32]) -> SigningKey {
        SigningKey {
            inner: ed25519_dalek::SigningKey::from_bytes(secret),
        }
    }

    /// The 32-byte RFC 8032 secret key (seed), zeroized on drop.
    pub fn secret_bytes(&self) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.inner.to_bytes())
    }

    /// Parses a PKCS#8 (RFC 5208 v1 or RFC 5958 v2, RFC 8410) `-----BEGIN PRIVATE KEY-----` PEM
    /// document holding an Ed25519 key. Whitespace around the block is ignored; any other text
    /// around it is refused (one key per document). Encrypted keys are not supported. A v2
    /// document's embedded public key must match the secret key (`key-mismatch`).
    pub fn from_pkcs8_pem(pem_text: &str) -> Result<SigningKey, JoseError> {
        check_size(pem_text)?;
        let text = pem_text.trim();
        let label = pem_label(text)?;
        if label != PEM_LABEL_PRIVATE {
            return Err(JoseError::KeyPemMalformed {
                reason: format!("PEM label is {label:?}; expected {PEM_LABEL_PRIVATE:?}"),
            });
        }
        let bytes = KeypairBytes::from_pkcs8_pem(text).map_err(pkcs8_error)?;
        let key = SigningKey::from_secret_bytes(&bytes.secret_key);
        if let Some(public) = &bytes.public_key
            && public.to_bytes() != key.verifying_key().to_bytes()
        {
            return Err(JoseError::KeyMismatch);
        }
        Ok(key)
    }

    /// The key as a PKCS#8 v1 PEM document (RFC 5208 `PrivateKeyInfo` as profiled by RFC 8410
    /// §7: version 0, no embedded public key), label `PRIVATE KEY`, LF line endings; zeroized on
    /// drop. This is byte for byte what OpenSSL and pyca/cryptography write. The v2 form
    /// (RFC 5958 `OneAsymmetricKey` with `[1] publicKey`), which ed25519-dalek's own encoder
    /// writes, is refused by OpenSSL 3 and by pyca/cryptography 48 ("extra data"), so it is not
    /// produced here ([`SigningKey::from_pkcs8_pem`] reads both).
    pub fn to_pkcs8_pem(&self) -> Result<Zeroizing<String>, JoseError> {
        let bytes = KeypairBytes {
            secret_key: self.inner.to_bytes(),
            public_key: None,
        };
        bytes
            .to_pkcs8_pem(LineEnding::LF)
            .map_err(|e| JoseError::KeyEncodingFailed {
                reason: e.to_string(),
            })
    }

    /// The public key.
    pub fn verifying_key(&self) -> VerifyingKey {
        VerifyingKey {
            inner: self.inner.verifying_key(),
        }
    }

    /// The RFC 8032 Ed25519 signature of `message` (deterministic: the same key and message
    /// always give the same 64 bytes).
    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        let signature: Signature = self.inner.sign(message);
        signature.to_bytes()
    }
}

impl VerifyingKey {
    /// The key encoded by `bytes` (RFC 8032 §5.1.2). Refuses encodings that are not canonical
    /// (`key-invalid-point`) and small-order points (`key-weak`).
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<VerifyingKey, JoseError> {
        match decode_point(bytes) {
            Ok(inner) => Ok(VerifyingKey { inner }),
            Err(PointError::Invalid) => Err(JoseError::KeyInvalidPoint),
            Err(PointError::Weak) => Err(JoseError::KeyWeak),
        }
    }

    pub(crate) fn from_checked(inner: ed25519_dalek::VerifyingKey) -> VerifyingKey {
        VerifyingKey { inner }
    }

    /// The 32-byte encoding of the key.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.inner.to_bytes()
    }

    /// Parses a `-----BEGIN PUBLIC KEY-----` (SubjectPublicKeyInfo, RFC 8410) PEM document
    /// holding an Ed25519 key. Whitespace around the block is ignored; any other text around it
    /// is refused. A `PRIVATE KEY` document is refused with `key-private-key-published`; the key
    /// must be canonical (`key-invalid-point`) and not of small order (`key-weak`).
    pub fn from_spki_pem(pem_text: &str) -> Result<VerifyingKey, JoseError> {
        check_size(pem_text)?;
        let text = pem_text.trim();
        let label = pem_label(text)?;
        if label == PEM_LABEL_PRIVATE {
            return Err(JoseError::KeyPrivateKeyPublished);
        }
        if label != PEM_LABEL_PUBLIC {
            return Err(JoseError::KeyPemMalformed {
                reason: format!("PEM label is {label:?}; expected {PEM_LABEL_PUBLIC:?}"),
            });
        }
        let bytes = PublicKeyBytes::from_public_key_pem(text).map_err(spki_error)?;
        VerifyingKey::from_bytes(&bytes.to_bytes())
    }

    /// The key as a SubjectPublicKeyInfo PEM document, label `PUBLIC KEY`, LF line endings.
    pub fn to_spki_pem(&self) -> Result<String, JoseError> {
        self.inner
            .to_public_key_pem(LineEnding::LF)
            .map_err(|e| JoseError::KeyEncodingFailed {
                reason: e.to_string(),
            })
    }

    /// Strict Ed25519 verification of a raw signature (ed25519-dalek `verify_strict`: `S` must
    /// be canonical, `R` must be canonical and not of small order). A signature that is not 64
    /// bytes is invalid.
    pub fn verify(&self, message: &[u8], signature: &[u8]) -> Result<(), JoseError> {
        let bytes: &[u8; 64] =
            signature
                .try_into()
                .map_err(|_| JoseError::JwsSignatureInvalid {
                    reason: format!("signature is {} bytes; Ed25519 needs 64", signature.len()),
                })?;
        let signature = Signature::from_bytes(bytes);
        self.inner
            .verify_strict(message, &signature)
            .map_err(|_| JoseError::JwsSignatureInvalid {
                reason: "Ed25519 verification failed".into(),
            })
    }
}

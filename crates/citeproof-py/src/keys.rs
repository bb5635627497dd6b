//! Ed25519 signing keys: from PKCS#8 PEM or a private JWK, or fresh; the secret never leaves
//! except as the PEM the caller asks for.

use citeproof_jose::SigningKey;
use pyo3::prelude::*;

use crate::errors::{raise, to_json};

/// An Ed25519 private key (RFC 8032).
#[derive(Debug)]
#[pyclass(module = "citeproof._native", name = "SigningKey", frozen)]
pub struct PySigningKey {
    pub key: SigningKey,
}

fn key_error(py: Python<'_>, e: &citeproof_jose::JoseError) -> PyErr {
    raise(py, "KeyFormatError", e.to_string(), e.code(), None)
}

#[pymethods]
impl PySigningKey {
    /// A fresh key from the operating system's random number generator.
    #[staticmethod]
    fn generate(py: Python<'_>) -> PyResult<PySigningKey> {
        SigningKey::generate()
            .map(|key| PySigningKey { key })
            .map_err(|e| key_error(py, &e))
    }

    /// A key from a PKCS#8 PEM (`citeproof keygen`) or a private OKP/Ed25519 JWK, as bytes.
    #[staticmethod]
    fn load(py: Python<'_>, data: &[u8]) -> PyResult<PySigningKey> {
        if data.len() > citeproof_jose::MAX_KEY_INPUT_BYTES {
            return Err(raise(
                py,
                "KeyFormatError",
                format!(
                    "{} bytes; a key file is at most {}",
                    data.len(),
                    citeproof_jose::MAX_KEY_INPUT_BYTES
                ),
                "jwk-invalid",
                None,
            ));
        }
        citeproof_jose::load_signing_key(data)
            .map(|key| PySigningKey { key })
            .map_err(|e| key_error(py, &e))
    }

    /// A key from its 32-byte RFC 8032 secret.
    #[staticmethod]
    fn from_secret_bytes(py: Python<'_>, secret: &[u8]) -> PyResult<PySigningKey> {
        let bytes: [u8; 32] = secret.try_into().map_err(|_| {
            raise(
                py,
                "KeyFormatError",
                format!("an Ed25519 secret is 32 bytes, not {}", secret.len()),
                "jwk-invalid",
                None,
            )
        })?;
        Ok(PySigningKey {
            key: SigningKey::from_secret_bytes(&bytes),
        })
    }

    /// The PKCS#8 PEM of the private key.
    fn private_pem(&self, py: Python<'_>) -> PyResult<String> {
        self.key
            .to_pkcs8_pem()
            .map(|p| p.to_string())
            .map_err(|e| key_error(py, &e))
    }

    /// The public JWK (RFC 8037) as JSON text, with `kid` when given.
    #[pyo3(signature = (kid=None))]
    fn public_jwk_json(&self, py: Python<'_>, kid: Option<&str>) -> PyResult<String> {
        to_json(py, &self.key.verifying_key().to_jwk(kid))
    }

    /// The RFC 7638 thumbprint of the public key.
    fn thumbprint(&self) -> String {
        self.key.verifying_key().thumbprint()
    }

    fn __repr__(&self) -> String {
        format!("SigningKey(thumbprint={:?})", self.thumbprint())
    }
}

//! The error type of the ACA signer.

/// Why the signer refused. Every variant has a stable [`code`](SignError::code).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SignError {
    /// A value that must be a web URL is not one.
    #[error("`{value}` is not a web URL: {reason}")]
    InvalidUrl { value: String, reason: String },
    /// A run id or claim id that does not match its pattern.
    #[error("invalid {what} `{value}`")]
    InvalidId { what: &'static str, value: String },
    /// A value does not fit where it must go (a header parameter, a tool name, ...).
    #[error("invalid {what}: {reason}")]
    InvalidValue { what: &'static str, reason: String },
    /// A handle (tool call, capture) that this ledger did not issue.
    #[error("unknown {what} `{id}`")]
    UnknownHandle { what: &'static str, id: String },
    /// Signing failed in the HTTP signature layer.
    #[error("HTTP message signature: {0}")]
    HttpSig(String),
    /// A key could not be read or written; `code` is the `citeproof-jose` code (`jwk-*`,
    /// `key-*`).
    #[error("key: {message} [{code}]")]
    Key { code: &'static str, message: String },
    /// The document to sign is not an I-JSON object.
    #[error("invalid document: {0}")]
    InvalidDocument(String),
}

impl SignError {
    /// Stable kebab-case code, prefixed `sign-`.
    pub fn code(&self) -> &'static str {
        match self {
            SignError::InvalidUrl { .. } => "sign-invalid-url",
            SignError::InvalidId { .. } => "sign-invalid-id",
            SignError::InvalidValue { .. } => "sign-invalid-value",
            SignError::UnknownHandle { .. } => "sign-unknown-handle",
            SignError::HttpSig(_) => "sign-httpsig",
            SignError::Key { .. } => "sign-key",
            SignError::InvalidDocument(_) => "sign-invalid-document",
        }
    }
}

pub fn check_web_url(value: &str) -> Result<(), SignError> {
    match citeproof_model::weburl::web_url_problem(value) {
        None => Ok(()),
        Some(reason) => Err(SignError::InvalidUrl {
            value: value.to_owned(),
            reason,
        }),
    }
}

pub fn key_error(e: &citeproof_jose::JoseError) -> SignError {
    SignError::Key {
        code: e.code(),
        message: e.to_string(),
    }
}

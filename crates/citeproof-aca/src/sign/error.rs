//! The error type of the ACA signer, and the refusals of a caller's input that it shares with
//! the ledger builder (which emits through it).

/// A value the caller gave that a producer refuses. The ACA signer and the ledger builder
/// refuse the same four ways; each wraps this in its own error with its own stable codes
/// ([`InputCodes`]), so a refusal reads the same whichever refused it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum InputRefusal {
    /// A value that must be a web URL is not one.
    #[error("`{value}` is not a web URL: {reason}")]
    InvalidUrl { value: String, reason: String },
    /// A run id or claim id that does not match its pattern.
    #[error("invalid {what} `{value}`")]
    InvalidId { what: &'static str, value: String },
    /// A value does not fit where it must go (a header parameter, a tool name, ...).
    #[error("invalid {what}: {reason}")]
    InvalidValue { what: &'static str, reason: String },
    /// A handle (tool call, capture) that this producer did not issue.
    #[error("unknown {what} `{id}`")]
    UnknownHandle { what: &'static str, id: String },
}

/// The stable codes an error type gives the four [`InputRefusal`]s.
#[derive(Debug, Clone, Copy)]
pub struct InputCodes {
    pub invalid_url: &'static str,
    pub invalid_id: &'static str,
    pub invalid_value: &'static str,
    pub unknown_handle: &'static str,
}

impl InputRefusal {
    /// This refusal's code among `codes`.
    pub fn code(&self, codes: &InputCodes) -> &'static str {
        match self {
            InputRefusal::InvalidUrl { .. } => codes.invalid_url,
            InputRefusal::InvalidId { .. } => codes.invalid_id,
            InputRefusal::InvalidValue { .. } => codes.invalid_value,
            InputRefusal::UnknownHandle { .. } => codes.unknown_handle,
        }
    }

    /// `Ok` for a web URL, else the refusal that says why `value` is not one.
    pub fn check_web_url(value: &str) -> Result<(), InputRefusal> {
        match citeproof_model::weburl::web_url_problem(value) {
            None => Ok(()),
            Some(reason) => Err(InputRefusal::InvalidUrl {
                value: value.to_owned(),
                reason,
            }),
        }
    }
}

/// The signer's codes of the [`InputRefusal`]s, prefixed `sign-`.
const SIGN_INPUT_CODES: InputCodes = InputCodes {
    invalid_url: "sign-invalid-url",
    invalid_id: "sign-invalid-id",
    invalid_value: "sign-invalid-value",
    unknown_handle: "sign-unknown-handle",
};

/// Why the signer refused. Every variant has a stable [`code`](SignError::code).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SignError {
    /// A value of the input is refused.
    #[error(transparent)]
    Input(#[from] InputRefusal),
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
            SignError::Input(refusal) => refusal.code(&SIGN_INPUT_CODES),
            SignError::HttpSig(_) => "sign-httpsig",
            SignError::Key { .. } => "sign-key",
            SignError::InvalidDocument(_) => "sign-invalid-document",
        }
    }
}

pub fn key_error(e: &citeproof_jose::JoseError) -> SignError {
    SignError::Key {
        code: e.code(),
        message: e.to_string(),
    }
}

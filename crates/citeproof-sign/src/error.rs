//! The error type of the signer.

use crate::ledger::CoverageReport;

/// Why the signer refused. Every variant has a stable [`code`](SignError::code).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SignError {
    /// Strict mode and coverage below the threshold: the response must not be emitted
    /// (LEDGER-006).
    #[error("attribution coverage {score} is below the threshold {threshold}: {uncited} required claim(s) have no source", score = .report.coverage_score, threshold = .report.threshold, uncited = .report.uncited_claims.len())]
    CoverageBelowThreshold { report: Box<CoverageReport> },
    /// A threshold outside 0..=1, or not 1 in strict mode (LEDGER-005).
    #[error("invalid threshold {threshold}: {reason}")]
    InvalidThreshold { threshold: f64, reason: String },
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
    /// The excerpt quote does not occur in the captured bytes.
    #[error("the excerpt does not occur in the bytes captured from {url}")]
    ExcerptNotFound { url: String },
    /// The excerpt quote occurs more than once; give a byte range instead.
    #[error("the excerpt occurs {count} times in the bytes captured from {url}; give a byte range")]
    ExcerptAmbiguous { url: String, count: usize },
    /// The byte range is empty, outside the body, or not UTF-8 text.
    #[error("invalid excerpt range [{start}, {end}) in {url}: {reason}")]
    ExcerptRange {
        url: String,
        start: u64,
        end: u64,
        reason: String,
    },
    /// There is no attributed claim to put in a manifest.
    #[error("no attributed claim: a manifest needs at least one claim with a source")]
    NoClaims,
    /// A claim id is used for two different texts.
    #[error("claim id `{id}` is used for two different texts")]
    ClaimIdConflict { id: String },
    /// A source was captured after the manifest's emission time.
    #[error("a source was retrieved at {retrieved_at}, after the emission time {emitted_at}")]
    RetrievedAfterEmitted {
        retrieved_at: String,
        emitted_at: String,
    },
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
    /// Writing the audit export failed.
    #[error("audit export: {0}")]
    Io(String),
    /// The operating system random number generator failed.
    #[error("random number generator: {0}")]
    Rng(String),
}

impl SignError {
    /// Stable kebab-case code, prefixed `sign-`.
    pub fn code(&self) -> &'static str {
        match self {
            SignError::CoverageBelowThreshold { .. } => "sign-coverage-below-threshold",
            SignError::InvalidThreshold { .. } => "sign-invalid-threshold",
            SignError::InvalidUrl { .. } => "sign-invalid-url",
            SignError::InvalidId { .. } => "sign-invalid-id",
            SignError::InvalidValue { .. } => "sign-invalid-value",
            SignError::UnknownHandle { .. } => "sign-unknown-handle",
            SignError::ExcerptNotFound { .. } => "sign-excerpt-not-found",
            SignError::ExcerptAmbiguous { .. } => "sign-excerpt-ambiguous",
            SignError::ExcerptRange { .. } => "sign-excerpt-range",
            SignError::NoClaims => "sign-no-claims",
            SignError::ClaimIdConflict { .. } => "sign-claim-id-conflict",
            SignError::RetrievedAfterEmitted { .. } => "sign-retrieved-after-emitted",
            SignError::HttpSig(_) => "sign-httpsig",
            SignError::Key { .. } => "sign-key",
            SignError::InvalidDocument(_) => "sign-invalid-document",
            SignError::Io(_) => "sign-io",
            SignError::Rng(_) => "sign-rng",
        }
    }
}

pub(crate) fn check_web_url(value: &str) -> Result<(), SignError> {
    match citeproof_model::weburl::web_url_problem(value) {
        None => Ok(()),
        Some(reason) => Err(SignError::InvalidUrl {
            value: value.to_owned(),
            reason,
        }),
    }
}

pub(crate) fn key_error(e: &citeproof_jose::JoseError) -> SignError {
    SignError::Key {
        code: e.code(),
        message: e.to_string(),
    }
}

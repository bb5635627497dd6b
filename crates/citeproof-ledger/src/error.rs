//! The error type of the ledger.

use citeproof_aca::sign::{InputCodes, InputRefusal, SignError};

use crate::coverage::CoverageReport;

/// Why the signer refused. Every variant has a stable [`code`](LedgerError::code).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LedgerError {
    /// The ACA signer refused (a chain step, a header value).
    #[error(transparent)]
    Sign(#[from] SignError),
    /// Strict mode and coverage below the threshold: the response must not be emitted
    /// (LEDGER-006).
    #[error("attribution coverage {score} is below the threshold {threshold}: {uncited} required claim(s) have no source", score = .report.coverage_score, threshold = .report.threshold, uncited = .report.uncited_claims.len())]
    CoverageBelowThreshold { report: Box<CoverageReport> },
    /// A threshold outside 0..=1, or not 1 in strict mode (LEDGER-005).
    #[error("invalid threshold {threshold}: {reason}")]
    InvalidThreshold { threshold: f64, reason: String },
    /// A value of the input is refused (the refusals the ACA signer has too, with the
    /// ledger's codes).
    #[error(transparent)]
    Input(#[from] InputRefusal),
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
    /// A source identifier already names another capture (premature deduplication, seed 003
    /// pitfall 4; LEDGER-013).
    #[error(
        "source identifier `{identifier}` already names another capture: one identifier per retrieval"
    )]
    SourceIdentifierReused { identifier: String },
    /// A claim id is used for two different texts.
    #[error("claim id `{id}` is used for two different texts")]
    ClaimIdConflict { id: String },
    /// A source was captured after the manifest's emission time.
    #[error("a source was retrieved at {retrieved_at}, after the emission time {emitted_at}")]
    RetrievedAfterEmitted {
        retrieved_at: String,
        emitted_at: String,
    },
    /// Writing the audit export failed.
    #[error("audit export: {0}")]
    Io(String),
    /// The operating system random number generator failed.
    #[error("random number generator: {0}")]
    Rng(String),
}

impl LedgerError {
    /// Stable kebab-case code, prefixed `ledger-` (or the ACA signer's `sign-` code).
    pub fn code(&self) -> &'static str {
        match self {
            LedgerError::Sign(e) => e.code(),
            LedgerError::CoverageBelowThreshold { .. } => "ledger-coverage-below-threshold",
            LedgerError::InvalidThreshold { .. } => "ledger-invalid-threshold",
            LedgerError::Input(refusal) => refusal.code(&LEDGER_INPUT_CODES),
            LedgerError::ExcerptNotFound { .. } => "ledger-excerpt-not-found",
            LedgerError::ExcerptAmbiguous { .. } => "ledger-excerpt-ambiguous",
            LedgerError::ExcerptRange { .. } => "ledger-excerpt-range",
            LedgerError::NoClaims => "ledger-no-claims",
            LedgerError::SourceIdentifierReused { .. } => "ledger-source-identifier-reused",
            LedgerError::ClaimIdConflict { .. } => "ledger-claim-id-conflict",
            LedgerError::RetrievedAfterEmitted { .. } => "ledger-retrieved-after-emitted",
            LedgerError::Io(_) => "ledger-io",
            LedgerError::Rng(_) => "ledger-rng",
        }
    }
}

/// The ledger's codes of the [`InputRefusal`]s, prefixed `ledger-`.
const LEDGER_INPUT_CODES: InputCodes = InputCodes {
    invalid_url: "ledger-invalid-url",
    invalid_id: "ledger-invalid-id",
    invalid_value: "ledger-invalid-value",
    unknown_handle: "ledger-unknown-handle",
};

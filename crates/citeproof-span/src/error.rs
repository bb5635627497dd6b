//! Why a span could not be resolved.

use citeproof_model::IncidentCode;

use crate::SelectorError;

/// Why a span could not be resolved: an incident code of the profile (the stable part: what a
/// program matches on) and a message for a person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", code.as_str())]
pub struct SpanError {
    code: IncidentCode,
    message: String,
}

impl SpanError {
    pub(crate) fn new(code: IncidentCode, message: impl Into<String>) -> SpanError {
        SpanError {
            code,
            message: message.into(),
        }
    }

    /// The incident code (`aef-span-not-found`, `aef-selector-unsupported-media`, ...).
    pub fn code(&self) -> IncidentCode {
        self.code
    }

    /// What went wrong, for a person.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl From<SelectorError> for SpanError {
    fn from(e: SelectorError) -> SpanError {
        SpanError::new(e.code(), e.to_string())
    }
}

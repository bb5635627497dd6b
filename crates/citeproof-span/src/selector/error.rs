//! Why a selector is refused before any source is looked at (AEF-SEL-001 to AEF-SEL-003).

use citeproof_model::IncidentCode;

use crate::redaction::REDACTION_MARKER;
use crate::{css, xpath};

/// Why a selector does not parse: always `aef-selector-invalid` ([`SelectorError::code`]); the
/// text says which rule it breaks, and [`std::error::Error::source`] gives the CSS or XPath
/// syntax error, when there is one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct SelectorError(#[from] pub(crate) Invalid);

impl SelectorError {
    /// The incident code of every selector syntax error: `aef-selector-invalid`.
    pub fn code(&self) -> IncidentCode {
        IncidentCode::AefSelectorInvalid
    }
}

/// The rule a selector breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Invalid {
    #[error("`selector_value` is required unless `selector_type` is `none`")]
    MissingValue,
    #[error("{kind} `{value}` is not `start-end`")]
    NotARange { kind: &'static str, value: String },
    #[error(
        "{kind} `{value}` is not `start-end` with decimal numbers (no sign, no leading zeros, at most 2^53-1)"
    )]
    RangeNumbers { kind: &'static str, value: String },
    #[error("{kind} `{start}-{end}`: numbers are at most 2^53-1")]
    TooLarge {
        kind: &'static str,
        start: u64,
        end: u64,
    },
    #[error("byte_range `{start}-{end}`: start must be less than end")]
    EmptyByteRange { start: u64, end: u64 },
    #[error("{kind} `{start}-{end}`: 1 <= start <= end is required")]
    OneBasedRange {
        kind: &'static str,
        start: u64,
        end: u64,
    },
    #[error("paragraph_index `{0}` is not a decimal number")]
    ParagraphIndex(String),
    #[error("text_quote `selector_value` must not be empty")]
    EmptyQuote,
    #[error(
        "text_quote `selector_value` must occur in `exact_text` (the quote contains its anchor)"
    )]
    AnchorNotInQuote,
    #[error(
        "a redacted text_quote must begin and end with unredacted text, not with {REDACTION_MARKER}"
    )]
    RedactionAtEdge,
    #[error("CSS selector `{value}`: {source}")]
    Css {
        value: String,
        source: css::SyntaxError,
    },
    #[error("XPath `{value}`: {source}")]
    XPath {
        value: String,
        source: xpath::SyntaxError,
    },
    #[error("fragment identifier `{0}` is not `char=a,b`, `line=a,b` or `:~:text=...`")]
    FragmentScheme(String),
    #[error("{scheme}= with an integrity check is not allowed (content_hash already covers it)")]
    IntegrityCheck { scheme: &'static str },
    #[error("{scheme}={rest}: a range `a,b` is required (a position selects nothing)")]
    Position { scheme: &'static str, rest: String },
    #[error("{scheme}={rest}: a must be less than b")]
    EmptyFragmentRange { scheme: &'static str, rest: String },
    #[error("{scheme}={rest}: a and b must be decimal numbers")]
    FragmentNumbers { scheme: &'static str, rest: String },
    #[error("a text directive part is empty")]
    EmptyDirectivePart,
    #[error("bad percent-encoding in `{0}`")]
    PercentEncoding(String),
    #[error("`{0}` must be percent-encoded in a text directive")]
    MustBeEncoded(String),
    #[error("`{0}` does not decode to UTF-8")]
    NotUtf8(String),
    #[error("only one text directive is allowed")]
    SeveralDirectives,
    #[error("`text={0}` is not `[prefix-,]start[,end][,-suffix]`")]
    DirectiveShape(String),
}

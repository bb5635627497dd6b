//! Selector syntax (AEF-SEL-001 to AEF-SEL-003): what a `span` selects, before any source is
//! looked at. A syntax error is `aef-selector-invalid`.
//!
//! A [`Selector`] can only be made by the functions here, which check every rule, so a selector
//! that exists is one [`crate::resolve`] can apply: ranges are non-empty, one-based ranges start
//! at 1, CSS and XPath have been parsed.

mod error;
mod fragment;
#[cfg(test)]
mod tests;

use citeproof_model::aef::SelectorType;

use crate::limits::MAX_SELECTOR_NUMBER;
use crate::{css, redaction, xpath};

pub(crate) use error::Invalid;
pub use error::SelectorError;
pub(crate) use fragment::TextDirective;

/// A parsed, valid selector: the selector type and value of an AEF `span`, checked against
/// AEF-SEL-001 to AEF-SEL-003. Its parts are private, so only the constructors below, which
/// validate, can make one (an empty byte range or a line range from line 0 cannot exist):
///
/// ```compile_fail
/// let invalid = citeproof_span::Selector::ByteRange { start: 5, end: 2 };
/// ```
///
/// ```
/// use citeproof_span::Selector;
/// use citeproof_model::aef::SelectorType;
///
/// assert!(Selector::byte_range(5, 2).is_err());
/// assert!(Selector::line_range(0, 3).is_err());
/// let lines = Selector::parse(SelectorType::LineRange, Some("2-3"), None, None).unwrap();
/// assert_eq!(citeproof_span::resolve(&lines, "text/plain", b"a\nb\nc\n").unwrap(), b"b\nc");
/// ```
#[derive(Debug, Clone)]
pub struct Selector(pub(crate) Kind);

/// What a selector selects. The invariants the constructors establish are written next to each
/// variant; [`crate::resolve`] relies on them (and still never indexes out of bounds).
#[derive(Debug, Clone)]
pub(crate) enum Kind {
    /// `none`: the whole body.
    Whole,
    /// `byte_range` `start-end`: bytes `[start, end)`; `start < end`.
    ByteRange { start: u64, end: u64 },
    /// `line_range` `start-end`: lines start..=end, 1-based; `1 <= start <= end`.
    LineRange { start: u64, end: u64 },
    /// `page_range` `start-end`: pages start..=end, 1-based; `1 <= start <= end`.
    PageRange { start: u64, end: u64 },
    /// `paragraph_index` n, 0-based.
    ParagraphIndex(u64),
    /// `text_quote`: the quote (`exact_text` when present, else `selector_value`; not empty) and
    /// the optional `surrounding_context`.
    TextQuote {
        quote: String,
        context: Option<String>,
    },
    /// `text_quote` whose quote has redacted runs ([`crate::redaction`]): the quote as written,
    /// beginning and ending with unredacted text.
    RedactedQuote { pattern: String },
    /// `css` / `css_selector`: a Selectors Level 3 selector list the matching engine accepts.
    Css(Box<scraper::Selector>),
    /// `xpath`: the parsed expression.
    XPath(Box<xpath::Expr>),
    /// `fragment_identifier` `char=a,b` (RFC 5147): positions a to b; `a < b`.
    CharRange { start: u64, end: u64 },
    /// `fragment_identifier` `line=a,b` (RFC 5147): lines a+1 to b; `a < b`.
    LineFragment { start: u64, end: u64 },
    /// `fragment_identifier` `:~:text=...`.
    TextDirective(TextDirective),
}

impl Selector {
    /// Parses a selector (AEF-SEL-001..003): `value` is the span's `selector_value`,
    /// `exact_text` and `context` its `exact_text` and `surrounding_context` (a `text_quote`
    /// reads them).
    pub fn parse(
        selector_type: SelectorType,
        value: Option<&str>,
        exact_text: Option<&str>,
        context: Option<&str>,
    ) -> Result<Selector, SelectorError> {
        if selector_type == SelectorType::None {
            return Ok(Selector::whole());
        }
        let Some(value) = value else {
            return Err(Invalid::MissingValue.into());
        };
        let kind = match selector_type {
            SelectorType::None => Kind::Whole,
            SelectorType::ByteRange => {
                let (start, end) = range(value, "byte_range")?;
                return Selector::byte_range(start, end);
            }
            SelectorType::LineRange => {
                let (start, end) = range(value, "line_range")?;
                return Selector::line_range(start, end);
            }
            SelectorType::PageRange => {
                let (start, end) = range(value, "page_range")?;
                return Selector::page_range(start, end);
            }
            SelectorType::ParagraphIndex => Kind::ParagraphIndex(
                number(value).ok_or_else(|| Invalid::ParagraphIndex(value.to_owned()))?,
            ),
            SelectorType::TextQuote => text_quote(value, exact_text, context)?,
            SelectorType::Css | SelectorType::CssSelector => css::check(value)
                .map(|s| Kind::Css(Box::new(s)))
                .map_err(|source| Invalid::Css {
                    value: value.to_owned(),
                    source,
                })?,
            SelectorType::Xpath => xpath::parse(value)
                .map(|e| Kind::XPath(Box::new(e)))
                .map_err(|source| Invalid::XPath {
                    value: value.to_owned(),
                    source,
                })?,
            SelectorType::FragmentIdentifier => fragment::fragment(value)?,
        };
        Ok(Selector(kind))
    }

    /// `none`: the whole body.
    pub fn whole() -> Selector {
        Selector(Kind::Whole)
    }

    /// `byte_range` `start-end`: bytes `start` (included) to `end` (excluded); `start < end`,
    /// both at most [`MAX_SELECTOR_NUMBER`].
    pub fn byte_range(start: u64, end: u64) -> Result<Selector, SelectorError> {
        bounded("byte_range", start, end)?;
        if start >= end {
            return Err(Invalid::EmptyByteRange { start, end }.into());
        }
        Ok(Selector(Kind::ByteRange { start, end }))
    }

    /// `line_range` `start-end`: lines `start` to `end`, both included, counted from 1;
    /// `1 <= start <= end`, both at most [`MAX_SELECTOR_NUMBER`].
    pub fn line_range(start: u64, end: u64) -> Result<Selector, SelectorError> {
        let (start, end) = one_based("line_range", start, end)?;
        Ok(Selector(Kind::LineRange { start, end }))
    }

    /// `page_range` `start-end`: pages `start` to `end`, both included, counted from 1;
    /// `1 <= start <= end`, both at most [`MAX_SELECTOR_NUMBER`]. Recognised, never resolved
    /// (AEF-L2-009: the profile defines no canonical text for PDF pages).
    pub fn page_range(start: u64, end: u64) -> Result<Selector, SelectorError> {
        let (start, end) = one_based("page_range", start, end)?;
        Ok(Selector(Kind::PageRange { start, end }))
    }
}

/// A decimal number without sign or leading zeros, at most 2^53 - 1.
fn number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if text.len() > 1 && text.starts_with('0') {
        return None;
    }
    text.parse::<u64>()
        .ok()
        .filter(|n| *n <= MAX_SELECTOR_NUMBER)
}

/// `start-end` in decimal (the order of the two is checked by the constructor).
fn range(value: &str, kind: &'static str) -> Result<(u64, u64), Invalid> {
    let Some((a, b)) = value.split_once('-') else {
        return Err(Invalid::NotARange {
            kind,
            value: value.to_owned(),
        });
    };
    match (number(a), number(b)) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => Err(Invalid::RangeNumbers {
            kind,
            value: value.to_owned(),
        }),
    }
}

/// Both ends at most [`MAX_SELECTOR_NUMBER`] (what a parsed range always satisfies).
fn bounded(kind: &'static str, start: u64, end: u64) -> Result<(), Invalid> {
    if start > MAX_SELECTOR_NUMBER || end > MAX_SELECTOR_NUMBER {
        return Err(Invalid::TooLarge { kind, start, end });
    }
    Ok(())
}

fn one_based(kind: &'static str, start: u64, end: u64) -> Result<(u64, u64), Invalid> {
    bounded(kind, start, end)?;
    if start < 1 || start > end {
        return Err(Invalid::OneBasedRange { kind, start, end });
    }
    Ok((start, end))
}

/// AEF-SEL-001 for `text_quote`: the anchor occurs in `exact_text`, and a redacted quote begins
/// and ends with unredacted text.
fn text_quote(
    value: &str,
    exact_text: Option<&str>,
    context: Option<&str>,
) -> Result<Kind, Invalid> {
    if value.is_empty() {
        return Err(Invalid::EmptyQuote);
    }
    let quote = match exact_text {
        Some(exact) if exact.contains(value) => exact.to_owned(),
        Some(_) => return Err(Invalid::AnchorNotInQuote),
        None => value.to_owned(),
    };
    if redaction::is_redacted(&quote) {
        let p = redaction::Pattern::parse(&quote);
        if p.leading_marker || p.trailing_marker || p.parts.is_empty() {
            return Err(Invalid::RedactionAtEdge);
        }
        return Ok(Kind::RedactedQuote { pattern: quote });
    }
    Ok(Kind::TextQuote {
        quote,
        context: context.map(str::to_owned),
    })
}

//! Span selection for AI Evidence Format selectors: what a selector selects in a source of a
//! given media type, and the AEF §5 hash of it. The signer (which records `exact_text` and
//! `content_hash`) and the verifier (which recomputes them) both call [`compute_span`], so the two
//! can never disagree.
//!
//! Selector families: byte and line ranges, paragraphs, text quotes, RFC 5147 fragments and text
//! directives over text; CSS (Selectors Level 3, matched by `scraper`) over HTML; XPath 1.0 over
//! XML (`roxmltree`). `page_range` on a PDF is recognised but never resolved (profile
//! AEF-L2-009).
//!
//! Every input here is hostile: a fetched body and a selector written by someone else. Each
//! engine is bounded in time and memory; a bound that is hit is a typed [`SpanError`], never a
//! hang, an abort or a panic.

mod css;
mod html;
pub mod limits;
pub mod media;
pub mod redaction;
mod resolve;
pub mod selector;
mod text;
mod xml;
mod xpath;

use citeproof_model::aef::Span;
use citeproof_model::hash::{ContentHash, aef_normalize_text};
use citeproof_model::{Incident, IncidentCode, Location};
use serde::Serialize;

pub use resolve::{SpanError, resolve};
pub use selector::Selector;

/// The private engines, for the fuzz targets (`crates/citeproof-fuzz-bodies`) only: they check
/// properties an engine must have on its own (an XPath node-set and `count()` of it agree, a CSS
/// selector list and the same list doubled match the same elements) that the public API, which
/// only ever returns one span, cannot show. Not a stable API.
#[doc(hidden)]
pub mod engines {
    pub use crate::css::check as css_check;
    pub use crate::html::HtmlDoc;
    pub use crate::xml::parse as parse_xml;
    pub use crate::xpath::{
        EvalError, Expr, SyntaxError, Value, XNode, evaluate, num_to_str, parse as parse_xpath,
        string_value,
    };
}

/// The span as resolved from a source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ComputedSpan {
    /// Media type the span was resolved under.
    pub media_type: String,
    /// The span content after AEF §5 steps 1-3 (what is hashed).
    pub exact_text: String,
    /// AEF §5 hash of the span content.
    pub content_hash: ContentHash,
}

fn span_location() -> Location {
    Location::pointer("/span")
}

/// Parses the selector of `span` (AEF-SEL-*), resolves it in `body` served as `media_type`
/// (AEF-L2-002..009) and computes the §5 hash. Errors are incidents (`aef-selector-invalid`,
/// span codes, `canon-text-not-utf8`).
// `Incident` is the project's finding type everywhere; boxing it here would only differ in form.
#[allow(clippy::result_large_err)]
pub fn compute_span(span: &Span, media_type: &str, body: &[u8]) -> Result<ComputedSpan, Incident> {
    let sel = parse_span_selector(span)?;
    let media = media::essence(media_type).unwrap_or_else(|| media::OCTET_STREAM.to_owned());
    let content = resolve::resolve(&sel, &media, body)
        .map_err(|e| Incident::new(e.code, e.message, span_location()))?;
    let exact_text = aef_normalize_text(&content).map_err(|e| {
        Incident::new(
            IncidentCode::CanonTextNotUtf8,
            format!("the span content is not well-formed UTF-8: {e}"),
            span_location(),
        )
    })?;
    let content_hash = citeproof_model::sha256_bytes(exact_text.as_bytes());
    Ok(ComputedSpan {
        media_type: media,
        exact_text,
        content_hash,
    })
}

/// The selector of `span`, parsed (AEF-SEL-001..003): `aef-selector-invalid` at
/// `/span/selector_value` when it does not parse.
#[allow(clippy::result_large_err)]
pub fn parse_span_selector(span: &Span) -> Result<Selector, Incident> {
    selector::parse(
        span.selector_type,
        span.selector_value.as_deref(),
        span.exact_text.as_deref(),
        span.surrounding_context.as_deref(),
    )
    .map_err(|m| {
        Incident::new(
            IncidentCode::AefSelectorInvalid,
            m,
            Location::pointer("/span/selector_value"),
        )
    })
}

/// The text a quote is searched in (AEF-L2-006), for any textual body: T(d) for HTML, the
/// line-ending-normalized text otherwise. `None` when the media type is not textual or the body
/// is not UTF-8. ACA uses it to find a manifest's claims in the agent response (ACA-L2-021).
pub fn search_text(media_type: &str, body: &[u8]) -> Option<String> {
    let media = media::essence(media_type)?;
    if !media::is_textual(&media) {
        return None;
    }
    let text = std::str::from_utf8(body).ok()?;
    Some(if media::is_html(&media) {
        html::HtmlDoc::parse(text).ok()?.document_text()
    } else {
        text::normalize_line_endings(text)
    })
}

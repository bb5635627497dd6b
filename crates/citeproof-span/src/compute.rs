//! The entry points of AEF: a span's selector parsed, resolved in a source and hashed (§5), and
//! the search text of a body.

use citeproof_model::aef::Span;
use citeproof_model::hash::{ContentHash, aef_normalize_text};
use citeproof_model::{Incident, IncidentCode, Location};
use serde::Serialize;

use crate::{Selector, html, media, resolve, text};

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
    let content = resolve(&sel, &media, body)
        .map_err(|e| Incident::new(e.code(), e.message(), span_location()))?;
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
    Selector::parse(
        span.selector_type,
        span.selector_value.as_deref(),
        span.exact_text.as_deref(),
        span.surrounding_context.as_deref(),
    )
    .map_err(|e| {
        Incident::new(
            e.code(),
            e.to_string(),
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

//! Span resolution (AEF-L2-002 to AEF-L2-009): the content a [`Selector`] selects in a fetched
//! body of a given media type, one function per selector kind. The result is the bytes the AEF
//! §5 hash is computed over.

use citeproof_model::IncidentCode;

use crate::SpanError;
use crate::html::HtmlDoc;
use crate::limits::XPATH_BUDGET;
use crate::media::{self, ParagraphKind};
use crate::search::{find_directive, find_quote};
use crate::selector::{Kind, Selector, TextDirective};
use crate::text::{collapse_ascii_whitespace, lines, normalize_line_endings, paragraphs};
use crate::{redaction, xml, xpath};

type R<T> = Result<T, SpanError>;

/// Resolves `selector` against `body` served as `media_type` (a media type essence: lowercase,
/// without parameters; see [`media::essence`]). On success returns the span content; hash it with
/// the AEF §5 text hash (or call [`crate::compute_span`], which does both).
pub fn resolve(selector: &Selector, media_type: &str, body: &[u8]) -> R<Vec<u8>> {
    match &selector.0 {
        Kind::Whole => Ok(body.to_vec()),
        Kind::ByteRange { start, end } => byte_range(*start, *end, body),
        Kind::LineRange { start, end } => line_range(*start, *end, media_type, body),
        Kind::PageRange { start, end } => page_range(*start, *end, media_type),
        Kind::ParagraphIndex(n) => paragraph(*n, media_type, body),
        Kind::TextQuote { quote, context } => {
            text_quote(quote, context.as_deref(), media_type, body)
        }
        Kind::RedactedQuote { pattern } => redacted_quote(pattern, media_type, body),
        Kind::Css(selector) => css(selector, media_type, body),
        Kind::XPath(expr) => xpath(expr, media_type, body),
        Kind::CharRange { start, end } => char_range(*start, *end, media_type, body),
        Kind::LineFragment { start, end } => line_fragment(*start, *end, media_type, body),
        Kind::TextDirective(d) => text_directive(d, media_type, body),
    }
}

/// The HTML document of a body, or `aef-source-unparseable` when it nests too deep.
fn parse_html(text: &str) -> R<HtmlDoc> {
    HtmlDoc::parse(text)
        .map_err(|why| SpanError::new(IncidentCode::AefSourceUnparseable, why.to_string()))
}

fn unsupported(what: &str, media: &str, applies_to: &str) -> SpanError {
    SpanError::new(
        IncidentCode::AefSelectorUnsupportedMedia,
        format!("{what} cannot be applied to {media}; it applies to {applies_to}"),
    )
}

fn out_of_range(message: String) -> SpanError {
    SpanError::new(IncidentCode::AefSpanOutOfRange, message)
}

fn decode(body: &[u8]) -> R<&str> {
    std::str::from_utf8(body).map_err(|e| {
        SpanError::new(
            IncidentCode::CanonTextNotUtf8,
            format!(
                "the source is not well-formed UTF-8 (first invalid byte at offset {})",
                e.valid_up_to()
            ),
        )
    })
}

fn usize_of(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// The one match of a selector: `aef-span-not-found` for none, `aef-span-ambiguous` for more
/// (`found` holds at most the matches the caller asked for; `many` gets their number).
fn the_one<T>(found: Vec<T>, none: &str, many: impl FnOnce(usize) -> String) -> R<T> {
    let count = found.len();
    let mut found = found.into_iter();
    match (found.next(), found.next()) {
        (Some(one), None) => Ok(one),
        (None, _) => Err(SpanError::new(IncidentCode::AefSpanNotFound, none)),
        (Some(_), Some(_)) => Err(SpanError::new(IncidentCode::AefSpanAmbiguous, many(count))),
    }
}

/// `lines[first..last]` joined with LF, or `aef-span-out-of-range` naming `what`.
fn line_span(all: &[&str], first: usize, last: usize, what: impl FnOnce() -> String) -> R<Vec<u8>> {
    all.get(first..last)
        .map(|picked| picked.join("\n").into_bytes())
        .ok_or_else(|| out_of_range(what()))
}

fn byte_range(start: u64, end: u64, body: &[u8]) -> R<Vec<u8>> {
    body.get(usize_of(start)..usize_of(end))
        .map(<[u8]>::to_vec)
        .ok_or_else(|| {
            out_of_range(format!(
                "byte_range ends at {end} but the body has {} bytes",
                body.len()
            ))
        })
}

fn line_range(start: u64, end: u64, media_type: &str, body: &[u8]) -> R<Vec<u8>> {
    if !media::is_textual(media_type) {
        return Err(unsupported("line_range", media_type, "textual media types"));
    }
    let text = normalize_line_endings(decode(body)?);
    let all = lines(&text);
    line_span(
        &all,
        usize_of(start).saturating_sub(1),
        usize_of(end),
        || {
            format!(
                "line_range ends at line {end} but the source has {} lines",
                all.len()
            )
        },
    )
}

fn page_range(start: u64, end: u64, media_type: &str) -> R<Vec<u8>> {
    if media_type != "application/pdf" {
        return Err(unsupported("page_range", media_type, "application/pdf"));
    }
    // AEF-L2-009: no canonical text exists for PDF pages, so the bytes are never parsed (a PDF
    // reader on hostile input is all risk and could only pick an error code).
    Err(SpanError::new(
        IncidentCode::AefSpanUnverifiable,
        format!(
            "pages {start}-{end} of a PDF: the profile defines no canonical text for PDF pages, so the hash cannot be reproduced"
        ),
    ))
}

fn paragraph(n: u64, media_type: &str, body: &[u8]) -> R<Vec<u8>> {
    let kind = media::paragraph_kind(media_type).ok_or_else(|| {
        unsupported(
            "paragraph_index",
            media_type,
            "text/plain, text/markdown, text/html and application/xhtml+xml",
        )
    })?;
    let text = decode(body)?;
    let all = match kind {
        ParagraphKind::Text => paragraphs(&normalize_line_endings(text)),
        ParagraphKind::Html => parse_html(text)?.paragraphs(),
    };
    let count = all.len();
    all.into_iter()
        .nth(usize_of(n))
        .map(String::into_bytes)
        .ok_or_else(|| {
            out_of_range(format!(
                "paragraph_index {n} but the source has {count} paragraphs"
            ))
        })
}

/// How a quote or a context is prepared to be searched in the search text.
type Prepare = fn(&str) -> String;

/// The text a quote is searched in, and a quote or context prepared the same way: T(d) and
/// whitespace collapsing for HTML, line-ending normalisation otherwise (AEF-L2-006).
fn quote_search_text(media_type: &str, body: &[u8]) -> R<(String, Prepare)> {
    if !media::is_textual(media_type) {
        return Err(unsupported("text_quote", media_type, "textual media types"));
    }
    let text = decode(body)?;
    Ok(if media::is_html(media_type) {
        (parse_html(text)?.document_text(), collapse_ascii_whitespace)
    } else {
        (normalize_line_endings(text), normalize_line_endings)
    })
}

fn text_quote(quote: &str, context: Option<&str>, media_type: &str, body: &[u8]) -> R<Vec<u8>> {
    let (search, prepare) = quote_search_text(media_type, body)?;
    let context = context.map(prepare);
    find_quote(&search, &prepare(quote), context.as_deref()).map(String::into_bytes)
}

fn redacted_quote(pattern: &str, media_type: &str, body: &[u8]) -> R<Vec<u8>> {
    let (search, prepare) = quote_search_text(media_type, body)?;
    let pattern = prepare(pattern);
    let parsed = redaction::Pattern::parse(&pattern);
    let (start, end) = the_one(
        redaction::find_all(&search, &parsed, 2),
        "the redacted quote does not occur in the source",
        |_| "the redacted quote occurs more than once in the source".into(),
    )?;
    Ok(search
        .get(start..end)
        .unwrap_or_default()
        .as_bytes()
        .to_vec())
}

fn css(selector: &scraper::Selector, media_type: &str, body: &[u8]) -> R<Vec<u8>> {
    if !media::is_html(media_type) {
        return Err(unsupported(
            "a CSS selector",
            media_type,
            "text/html and application/xhtml+xml",
        ));
    }
    let doc = parse_html(decode(body)?)?;
    the_one(
        doc.select_texts(selector, 2),
        "the CSS selector matches no element",
        |_| "the CSS selector matches more than one element".into(),
    )
    .map(String::into_bytes)
}

fn xpath(expr: &xpath::Expr, media_type: &str, body: &[u8]) -> R<Vec<u8>> {
    if !media::is_xml(media_type) {
        return Err(unsupported(
            "an XPath selector",
            media_type,
            "application/xml, text/xml, application/xhtml+xml and +xml types",
        ));
    }
    let text = decode(body)?;
    let doc = xml::parse(text)
        .map_err(|e| SpanError::new(IncidentCode::AefSourceUnparseable, e.to_string()))?;
    let invalid = |message: String| SpanError::new(IncidentCode::AefSelectorInvalid, message);
    match xpath::evaluate(expr, &doc, XPATH_BUDGET) {
        Ok(xpath::Value::Nodes(nodes)) => the_one(nodes, "the XPath selects no node", |n| {
            format!("the XPath selects {n} nodes")
        })
        .map(|one| xpath::string_value(&one).into_bytes()),
        Ok(_) => Err(invalid(
            "the XPath evaluates to a string, number or boolean, not a node-set".into(),
        )),
        Err(e) => Err(invalid(format!("XPath evaluation failed: {e}"))),
    }
}

/// The normalized text of a `text/plain` body, the only media type RFC 5147 fragments apply to.
fn plain_text(what: &str, media_type: &str, body: &[u8]) -> R<String> {
    if media_type != "text/plain" {
        return Err(unsupported(what, media_type, "text/plain"));
    }
    Ok(normalize_line_endings(decode(body)?))
}

fn char_range(start: u64, end: u64, media_type: &str, body: &[u8]) -> R<Vec<u8>> {
    let text = plain_text("fragment_identifier char=", media_type, body)?;
    let len = text.chars().count();
    if usize_of(end) > len {
        return Err(out_of_range(format!(
            "char={start},{end} but the text has {len} characters"
        )));
    }
    let span: String = text
        .chars()
        .skip(usize_of(start))
        .take(usize_of(end.saturating_sub(start)))
        .collect();
    Ok(span.into_bytes())
}

fn line_fragment(start: u64, end: u64, media_type: &str, body: &[u8]) -> R<Vec<u8>> {
    let text = plain_text("fragment_identifier line=", media_type, body)?;
    let all = lines(&text);
    line_span(&all, usize_of(start), usize_of(end), || {
        format!("line={start},{end} but the text has {} lines", all.len())
    })
}

fn text_directive(d: &TextDirective, media_type: &str, body: &[u8]) -> R<Vec<u8>> {
    if !media::is_html(media_type) {
        return Err(unsupported(
            "a text directive",
            media_type,
            "text/html and application/xhtml+xml",
        ));
    }
    let text = parse_html(decode(body)?)?.document_text();
    find_directive(&text, d).map(String::into_bytes)
}

//! Span resolution (AEF-L2-002 to AEF-L2-009): the content a parsed [`Selector`] selects in a
//! fetched body of a given media type. The result is the bytes the AEF §5 hash is computed over.

use citeproof_model::IncidentCode;

use crate::html::HtmlDoc;
use crate::media::{self, ParagraphKind};
use crate::selector::{Selector, TextDirective};
use crate::text::{
    collapse_ascii_whitespace, lines, normalize_line_endings, occurrences, paragraphs,
};
use crate::{redaction, xml, xpath};

/// Why a span could not be resolved: the incident code and a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpanError {
    pub code: IncidentCode,
    pub message: String,
}

impl SpanError {
    fn new(code: IncidentCode, message: impl Into<String>) -> SpanError {
        SpanError {
            code,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for SpanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

type R<T> = Result<T, SpanError>;

/// The HTML document of a body, or `aef-source-unparseable` when it nests too deep.
fn parse_html(text: &str) -> R<HtmlDoc> {
    HtmlDoc::parse(text).map_err(|why| SpanError::new(IncidentCode::AefSourceUnparseable, why))
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

/// Resolves `selector` against `body` served as `media_type` (already lowercased, no parameters).
/// On success returns the span content; hash it with the AEF §5 text hash.
pub fn resolve(selector: &Selector, media_type: &str, body: &[u8]) -> R<Vec<u8>> {
    match selector {
        Selector::Whole => Ok(body.to_vec()),
        Selector::ByteRange { start, end } => {
            if usize_of(*end) > body.len() {
                return Err(out_of_range(format!(
                    "byte_range ends at {end} but the body has {} bytes",
                    body.len()
                )));
            }
            Ok(body[usize_of(*start)..usize_of(*end)].to_vec())
        }
        Selector::LineRange { start, end } => {
            if !media::is_textual(media_type) {
                return Err(unsupported("line_range", media_type, "textual media types"));
            }
            let text = normalize_line_endings(decode(body)?);
            let all = lines(&text);
            if usize_of(*end) > all.len() {
                return Err(out_of_range(format!(
                    "line_range ends at line {end} but the source has {} lines",
                    all.len()
                )));
            }
            Ok(all[usize_of(*start) - 1..usize_of(*end)]
                .join("\n")
                .into_bytes())
        }
        Selector::PageRange { start, end } => {
            if media_type != "application/pdf" {
                return Err(unsupported("page_range", media_type, "application/pdf"));
            }
            // AEF-L2-009: no canonical text exists for PDF pages, so the bytes are never parsed
            // (a PDF reader on hostile input is all risk and could only pick an error code).
            Err(SpanError::new(
                IncidentCode::AefSpanUnverifiable,
                format!(
                    "pages {start}-{end} of a PDF: the profile defines no canonical text for PDF pages, so the hash cannot be reproduced"
                ),
            ))
        }
        Selector::ParagraphIndex(n) => {
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
            all.get(usize_of(*n))
                .map(|p| p.clone().into_bytes())
                .ok_or_else(|| {
                    out_of_range(format!(
                        "paragraph_index {n} but the source has {} paragraphs",
                        all.len()
                    ))
                })
        }
        Selector::TextQuote { quote, context } => {
            if !media::is_textual(media_type) {
                return Err(unsupported("text_quote", media_type, "textual media types"));
            }
            let text = decode(body)?;
            let (search, quote, context) = if media::is_html(media_type) {
                (
                    parse_html(text)?.document_text(),
                    collapse_ascii_whitespace(quote),
                    context.as_deref().map(collapse_ascii_whitespace),
                )
            } else {
                (
                    normalize_line_endings(text),
                    normalize_line_endings(quote),
                    context.as_deref().map(normalize_line_endings),
                )
            };
            find_quote(&search, &quote, context.as_deref()).map(|q| q.into_bytes())
        }
        Selector::RedactedQuote { pattern } => {
            if !media::is_textual(media_type) {
                return Err(unsupported("text_quote", media_type, "textual media types"));
            }
            let text = decode(body)?;
            let (search, pattern) = if media::is_html(media_type) {
                (
                    parse_html(text)?.document_text(),
                    collapse_ascii_whitespace(pattern),
                )
            } else {
                (
                    normalize_line_endings(text),
                    normalize_line_endings(pattern),
                )
            };
            let parsed = redaction::Pattern::parse(&pattern);
            match redaction::find_all(&search, &parsed, 2).as_slice() {
                [(start, end)] => Ok(search
                    .get(*start..*end)
                    .unwrap_or_default()
                    .as_bytes()
                    .to_vec()),
                [] => Err(SpanError::new(
                    IncidentCode::AefSpanNotFound,
                    "the redacted quote does not occur in the source",
                )),
                _ => Err(SpanError::new(
                    IncidentCode::AefSpanAmbiguous,
                    "the redacted quote occurs more than once in the source",
                )),
            }
        }
        Selector::Css(sel) => {
            if !media::is_html(media_type) {
                return Err(unsupported(
                    "a CSS selector",
                    media_type,
                    "text/html and application/xhtml+xml",
                ));
            }
            let doc = parse_html(decode(body)?)?;
            let texts = doc.select_texts(sel, 2);
            match texts.as_slice() {
                [one] => Ok(one.clone().into_bytes()),
                [] => Err(SpanError::new(
                    IncidentCode::AefSpanNotFound,
                    "the CSS selector matches no element",
                )),
                _ => Err(SpanError::new(
                    IncidentCode::AefSpanAmbiguous,
                    "the CSS selector matches more than one element",
                )),
            }
        }
        Selector::XPath(expr) => {
            if !media::is_xml(media_type) {
                return Err(unsupported(
                    "an XPath selector",
                    media_type,
                    "application/xml, text/xml, application/xhtml+xml and +xml types",
                ));
            }
            let text = decode(body)?;
            let doc = xml::parse(text)
                .map_err(|e| SpanError::new(IncidentCode::AefSourceUnparseable, e))?;
            match xpath::evaluate(expr, &doc, crate::limits::XPATH_BUDGET) {
                Ok(xpath::Value::Nodes(nodes)) => match nodes.as_slice() {
                    [one] => Ok(xpath::string_value(one).into_bytes()),
                    [] => Err(SpanError::new(
                        IncidentCode::AefSpanNotFound,
                        "the XPath selects no node",
                    )),
                    many => Err(SpanError::new(
                        IncidentCode::AefSpanAmbiguous,
                        format!("the XPath selects {} nodes", many.len()),
                    )),
                },
                Ok(_) => Err(SpanError::new(
                    IncidentCode::AefSelectorInvalid,
                    "the XPath evaluates to a string, number or boolean, not a node-set",
                )),
                Err(e) => Err(SpanError::new(
                    IncidentCode::AefSelectorInvalid,
                    format!("XPath evaluation failed: {e}"),
                )),
            }
        }
        Selector::CharRange { start, end } => {
            if media_type != "text/plain" {
                return Err(unsupported(
                    "fragment_identifier char=",
                    media_type,
                    "text/plain",
                ));
            }
            let text = normalize_line_endings(decode(body)?);
            let len = text.chars().count();
            if usize_of(*end) > len {
                return Err(out_of_range(format!(
                    "char={start},{end} but the text has {len} characters"
                )));
            }
            let span: String = text
                .chars()
                .skip(usize_of(*start))
                .take(usize_of(*end - *start))
                .collect();
            Ok(span.into_bytes())
        }
        Selector::LineFragment { start, end } => {
            if media_type != "text/plain" {
                return Err(unsupported(
                    "fragment_identifier line=",
                    media_type,
                    "text/plain",
                ));
            }
            let text = normalize_line_endings(decode(body)?);
            let all = lines(&text);
            if usize_of(*end) > all.len() {
                return Err(out_of_range(format!(
                    "line={start},{end} but the text has {} lines",
                    all.len()
                )));
            }
            Ok(all[usize_of(*start)..usize_of(*end)]
                .join("\n")
                .into_bytes())
        }
        Selector::TextDirective(d) => {
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
    }
}

/// AEF-L2-006 over the prepared search text, quote and context.
fn find_quote(search: &str, quote: &str, context: Option<&str>) -> R<String> {
    let hits = occurrences(search, quote, 2);
    match hits.len() {
        0 => Err(SpanError::new(
            IncidentCode::AefSpanNotFound,
            "the quote does not occur in the source",
        )),
        1 => Ok(quote.to_owned()),
        _ => {
            let ambiguous = |why: &str| {
                SpanError::new(
                    IncidentCode::AefSpanAmbiguous,
                    format!("the quote occurs more than once in the source{why}"),
                )
            };
            let Some(ctx) = context else {
                return Err(ambiguous(" and there is no surrounding_context"));
            };
            if occurrences(ctx, quote, 2).len() != 1 {
                return Err(ambiguous(
                    " and surrounding_context does not contain it exactly once",
                ));
            }
            if occurrences(search, ctx, 2).len() != 1 {
                return Err(ambiguous(
                    " and surrounding_context does not occur exactly once",
                ));
            }
            Ok(quote.to_owned())
        }
    }
}

/// AEF-L2-008 text directive over T(body).
fn find_directive(text: &str, d: &TextDirective) -> R<String> {
    let mut found: Vec<(usize, usize)> = Vec::new();
    // The next occurrence of `end` at or after a position only moves forward as candidates do.
    let mut end_cache: Option<(usize, Option<usize>)> = None;
    let mut from = 0;
    while let Some(i) = text.get(from..).and_then(|r| r.find(&d.start)) {
        let pos = from + i;
        from = pos + text[pos..].chars().next().map_or(1, char::len_utf8);
        if let Some(prefix) = &d.prefix {
            let before = &text[..pos];
            let ok = before.ends_with(prefix.as_str())
                || before
                    .strip_suffix(' ')
                    .is_some_and(|b| b.ends_with(prefix.as_str()));
            if !ok {
                continue;
            }
        }
        let after_start = pos + d.start.len();
        let span_end = match &d.end {
            None => after_start,
            Some(end) => {
                let next = match end_cache {
                    Some((q, hit)) if q <= after_start && hit.is_none_or(|h| h >= after_start) => {
                        hit
                    }
                    _ => {
                        let hit = text[after_start..]
                            .find(end.as_str())
                            .map(|k| after_start + k);
                        end_cache = Some((after_start, hit));
                        hit
                    }
                };
                match next {
                    Some(e) => e + end.len(),
                    None => break, // no later candidate can have an end either
                }
            }
        };
        if let Some(suffix) = &d.suffix {
            let after = &text[span_end..];
            let ok = after.starts_with(suffix.as_str())
                || after
                    .strip_prefix(' ')
                    .is_some_and(|a| a.starts_with(suffix.as_str()));
            if !ok {
                continue;
            }
        }
        found.push((pos, span_end));
        if found.len() > 1 {
            break;
        }
    }
    match found.as_slice() {
        [(a, b)] => Ok(text[*a..*b].to_owned()),
        [] => Err(SpanError::new(
            IncidentCode::AefSpanNotFound,
            "the text directive matches nothing",
        )),
        _ => Err(SpanError::new(
            IncidentCode::AefSpanAmbiguous,
            "the text directive matches more than once",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn td(
        prefix: Option<&str>,
        start: &str,
        end: Option<&str>,
        suffix: Option<&str>,
    ) -> TextDirective {
        TextDirective {
            prefix: prefix.map(str::to_owned),
            start: start.into(),
            end: end.map(str::to_owned),
            suffix: suffix.map(str::to_owned),
        }
    }

    #[test]
    fn directives() {
        let t = "The AEO Protocol defines three pillars: Declare, Discover, and Audit. The end.";
        assert_eq!(
            find_directive(t, &td(None, "three", Some("Audit"), None)).as_deref(),
            Ok("three pillars: Declare, Discover, and Audit")
        );
        assert_eq!(
            find_directive(t, &td(Some("defines"), "three", None, Some("pillars"))).as_deref(),
            Ok("three")
        );
        assert_eq!(
            find_directive(t, &td(Some("AEO"), "three", None, None)).map_err(|e| e.code),
            Err(IncidentCode::AefSpanNotFound)
        );
        assert_eq!(
            find_directive(t, &td(None, "The", None, None)).map_err(|e| e.code),
            Err(IncidentCode::AefSpanAmbiguous)
        );
        assert_eq!(
            find_directive(t, &td(None, "The", None, Some("AEO"))).as_deref(),
            Ok("The")
        );
        assert_eq!(
            find_directive(t, &td(None, "three", Some("nothing"), None)).map_err(|e| e.code),
            Err(IncidentCode::AefSpanNotFound)
        );
    }

    #[test]
    fn quotes_with_context() {
        let s = "a b. x y. a b! end";
        assert_eq!(
            find_quote(s, "a b", None).map_err(|e| e.code),
            Err(IncidentCode::AefSpanAmbiguous)
        );
        assert_eq!(find_quote(s, "a b", Some("a b!")).as_deref(), Ok("a b"));
        assert_eq!(
            find_quote(s, "a b", Some("zzz a b")).map_err(|e| e.code),
            Err(IncidentCode::AefSpanAmbiguous)
        );
        assert_eq!(
            find_quote(s, "q", None).map_err(|e| e.code),
            Err(IncidentCode::AefSpanNotFound)
        );
        assert_eq!(
            find_quote("aaa", "aa", None).map_err(|e| e.code),
            Err(IncidentCode::AefSpanAmbiguous)
        );
    }
}

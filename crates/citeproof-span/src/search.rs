//! The searches of AEF-L2-006 (a quote, with its surrounding context when it occurs more than
//! once) and AEF-L2-008 (a text directive), over text prepared by [`crate::resolve`].

use citeproof_model::IncidentCode;

use crate::SpanError;
use crate::selector::TextDirective;
use crate::text::occurrences;

type R<T> = Result<T, SpanError>;

/// AEF-L2-006 over the prepared search text, quote and context.
pub(crate) fn find_quote(search: &str, quote: &str, context: Option<&str>) -> R<String> {
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
pub(crate) fn find_directive(text: &str, d: &TextDirective) -> R<String> {
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
            find_directive(t, &td(Some("AEO"), "three", None, None)).map_err(|e| e.code()),
            Err(IncidentCode::AefSpanNotFound)
        );
        assert_eq!(
            find_directive(t, &td(None, "The", None, None)).map_err(|e| e.code()),
            Err(IncidentCode::AefSpanAmbiguous)
        );
        assert_eq!(
            find_directive(t, &td(None, "The", None, Some("AEO"))).as_deref(),
            Ok("The")
        );
        assert_eq!(
            find_directive(t, &td(None, "three", Some("nothing"), None)).map_err(|e| e.code()),
            Err(IncidentCode::AefSpanNotFound)
        );
    }

    #[test]
    fn quotes_with_context() {
        let s = "a b. x y. a b! end";
        assert_eq!(
            find_quote(s, "a b", None).map_err(|e| e.code()),
            Err(IncidentCode::AefSpanAmbiguous)
        );
        assert_eq!(find_quote(s, "a b", Some("a b!")).as_deref(), Ok("a b"));
        assert_eq!(
            find_quote(s, "a b", Some("zzz a b")).map_err(|e| e.code()),
            Err(IncidentCode::AefSpanAmbiguous)
        );
        assert_eq!(
            find_quote(s, "q", None).map_err(|e| e.code()),
            Err(IncidentCode::AefSpanNotFound)
        );
        assert_eq!(
            find_quote("aaa", "aa", None).map_err(|e| e.code()),
            Err(IncidentCode::AefSpanAmbiguous)
        );
    }
}

//! The searches of AEF-L2-006 (a quote, with its surrounding context when it occurs more than
//! once) and AEF-L2-008 (a text directive), over text prepared by [`crate::resolve`].

use aho_corasick::{AhoCorasickBuilder, AhoCorasickKind};
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

/// Where a needle occurs in a text: `at[i]` is true when an occurrence starts at byte `i`
/// (overlapping occurrences included).
struct Occurrences {
    at: Vec<bool>,
}

impl Occurrences {
    /// Every occurrence of every needle (none is empty: the selector grammar refuses empty
    /// directive parts), found by one pass of one Aho-Corasick automaton, so the time is
    /// linear in the text plus the needles however they repeat themselves (issue 23: a
    /// 400,000-character directive against a 4 MiB page took 26 s when each candidate was
    /// compared again). A contiguous NFA: the automaton's DFA form takes seconds to build for
    /// one long periodic needle, the NFA is linear in it.
    fn of_each(text: &str, needles: &[&str]) -> R<Vec<Self>> {
        let automaton = AhoCorasickBuilder::new()
            .kind(Some(AhoCorasickKind::ContiguousNFA))
            .build(needles)
            .map_err(|e| {
                SpanError::new(
                    IncidentCode::AefSelectorInvalid,
                    format!("the text directive cannot be searched for: {e}"),
                )
            })?;
        let mut found: Vec<Occurrences> = needles
            .iter()
            .map(|_| Occurrences {
                at: vec![false; text.len() + 1],
            })
            .collect();
        for m in automaton.find_overlapping_iter(text) {
            found[m.pattern().as_usize()].at[m.start()] = true;
        }
        Ok(found)
    }

    fn starts_at(&self, i: usize) -> bool {
        self.at.get(i).copied().unwrap_or(false)
    }

    /// The first occurrence starting at or after `from`, scanning on from `*cursor` (callers
    /// ask with `from` never decreasing, so all their questions cost one pass).
    fn next_from(&self, from: usize, cursor: &mut usize) -> Option<usize> {
        *cursor = (*cursor).max(from);
        while *cursor < self.at.len() {
            if self.at[*cursor] {
                return Some(*cursor);
            }
            *cursor += 1;
        }
        None
    }
}

/// AEF-L2-008 text directive over T(body): the candidates are the occurrences of `start`, in
/// order; a candidate needs `prefix` to end right before it (or before one space before it),
/// its span runs to the end of the first occurrence of `end` at or after the end of `start`,
/// and `suffix` must start right after the span (or after one space). Every occurrence of the
/// four parts is found once, so the search is linear in the text and the directive.
pub(crate) fn find_directive(text: &str, d: &TextDirective) -> R<String> {
    let needles: Vec<&str> = [
        Some(d.start.as_str()),
        d.prefix.as_deref(),
        d.end.as_deref(),
        d.suffix.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut found_each = Occurrences::of_each(text, &needles)?.into_iter();
    let mut next = |part: Option<&String>| part.and_then(|p| Some((found_each.next()?, p.len())));
    let starts = next(Some(&d.start)).map(|(o, _)| o);
    let prefixes = next(d.prefix.as_ref());
    let ends = next(d.end.as_ref());
    let suffixes = next(d.suffix.as_ref()).map(|(o, _)| o);
    let Some(starts) = starts else {
        return Err(SpanError::new(
            IncidentCode::AefSpanNotFound,
            "the text directive matches nothing",
        ));
    };
    let bytes = text.as_bytes();
    let mut end_cursor = 0;
    let mut found: Vec<(usize, usize)> = Vec::new();
    for pos in (0..=text.len()).filter(|&i| starts.starts_at(i)) {
        if let Some((prefixes, len)) = &prefixes {
            let ends_at = |e: usize| e >= *len && prefixes.starts_at(e - *len);
            let ok = ends_at(pos) || (pos > 0 && bytes[pos - 1] == b' ' && ends_at(pos - 1));
            if !ok {
                continue;
            }
        }
        let after_start = pos + d.start.len();
        let span_end = match &ends {
            None => after_start,
            Some((ends, len)) => match ends.next_from(after_start, &mut end_cursor) {
                Some(e) => e + len,
                None => break, // no later candidate can have an end either
            },
        };
        if let Some(suffixes) = &suffixes {
            let ok = suffixes.starts_at(span_end)
                || (bytes.get(span_end) == Some(&b' ') && suffixes.starts_at(span_end + 1));
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

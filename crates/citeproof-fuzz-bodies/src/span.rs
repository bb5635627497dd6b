//! `aef_span` and `redacted_quote`: AEF span resolution and redacted quotes.

use citeproof_model::aef::{SelectorType, Span};
use citeproof_span::compute_span;
use citeproof_span::redaction::{Pattern, find_all, matches_fully};

const MEDIA: &[&str] = &[
    "text/html",
    "application/xml",
    "application/pdf",
    "text/plain",
    "application/json",
    "text/markdown",
    "application/xhtml+xml",
    "text/plain; charset=utf-8",
];

/// `compute_span` over every selector type and media type (HTML + CSS, XML + XPath, text
/// ranges, paragraphs, quotes with and without context and redactions, RFC 5147 and text
/// fragments; `page_range`, whose PDF is never parsed, AEF-L2-009). Layout: `[selector, media,
/// value length, value..., body...]`; bit 7 of the selector byte makes the value the
/// `exact_text` too, bit 6 adds the body's first line as `surrounding_context`. Checks: a
/// resolved span's hash is the SHA-256 of its normalized text, and resolving is deterministic.
pub fn aef_span(data: &[u8]) {
    let [s, m, n, rest @ ..] = data else { return };
    let n = usize::from(*n).min(rest.len());
    let (value, body) = rest.split_at(n);
    let Ok(value) = std::str::from_utf8(value) else {
        return;
    };
    let context = (s & 0x40 != 0).then(|| {
        let line = body.split(|b| *b == b'\n').next().unwrap_or_default();
        String::from_utf8_lossy(line).into_owned()
    });
    let span = Span {
        selector_type: SelectorType::ALL[usize::from(*s) % SelectorType::ALL.len()],
        selector_value: Some(value.to_owned()),
        exact_text: (s & 0x80 != 0).then(|| value.to_owned()),
        surrounding_context: context,
    };
    let media = MEDIA[usize::from(*m) % MEDIA.len()];
    let first = compute_span(&span, media, body);
    if let Ok(computed) = &first {
        // `exact_text` is already normalized (§5 steps 1-3): its plain SHA-256 is the hash.
        assert_eq!(
            citeproof_model::sha256_bytes(computed.exact_text.as_bytes()),
            computed.content_hash
        );
        assert_eq!(compute_span(&span, media, body).as_ref(), Ok(computed));
    }
}

/// Longest search text and most literal parts for which the brute-force matcher runs.
const BRUTE_MAX_CHARS: usize = 40;
const BRUTE_MAX_PARTS: usize = 4;

/// A redacted quote (`exact_text` with `[REDACTED]` runs, AEF-5-002, AEF-L2-006)
/// searched in a text: `[pattern NUL text]`. Checks a differential of three paths: every match
/// `find_all` reports is matched as a whole by `matches_fully`; and, for short inputs, the
/// matches are exactly those of a brute-force matcher written from the definition (the literal
/// parts in order, each marker one or more characters; leftmost start, then shortest match).
pub fn redacted_quote(data: &[u8]) {
    let (pattern, text) = crate::halves(data);
    let (Ok(pattern), Ok(text)) = (std::str::from_utf8(pattern), std::str::from_utf8(text)) else {
        return;
    };
    let _ = matches_fully(pattern, text);
    let parsed = Pattern::parse(pattern);
    if parsed.leading_marker || parsed.trailing_marker || parsed.parts.is_empty() {
        // The selector refuses such a quote before searching (AEF-SEL-003).
        return;
    }
    let found = find_all(text, &parsed, 3);
    for &(start, end) in &found {
        let slice = text
            .get(start..end)
            .unwrap_or_else(|| panic!("{start}..{end} is not a slice of {text:?}"));
        assert!(
            matches_fully(pattern, slice),
            "find_all matched {slice:?} for {pattern:?}, matches_fully disagrees"
        );
    }
    if text.chars().count() <= BRUTE_MAX_CHARS && parsed.parts.len() <= BRUTE_MAX_PARTS {
        let expected = brute_force(&parsed.parts, text, 3);
        assert_eq!(found, expected, "{pattern:?} in {text:?}");
    }
    // Every match of the quote as a whole is a match of it found in the text.
    for &(start, end) in &brute_force(&parsed.parts, text, usize::MAX) {
        assert!(matches_fully(pattern, &text[start..end]));
    }
}

/// The first `limit` matches of `parts` (joined by markers) in `text`: for each start in order,
/// the shortest end; matches start at distinct positions.
fn brute_force(parts: &[&str], text: &str, limit: usize) -> Vec<(usize, usize)> {
    if text.chars().count() > BRUTE_MAX_CHARS || parts.len() > BRUTE_MAX_PARTS {
        return Vec::new();
    }
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let mut out = Vec::new();
    for &start in &bounds {
        if out.len() >= limit {
            break;
        }
        if let Some(end) = bounds
            .iter()
            .copied()
            .filter(|&end| end > start)
            .find(|&end| whole(parts, &text[start..end]))
        {
            out.push((start, end));
        }
    }
    out
}

/// Whether `text` is `parts[0] M parts[1] M ... parts[n-1]`, each `M` one or more characters.
fn whole(parts: &[&str], text: &str) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return text.is_empty();
    };
    let Some(after) = text.strip_prefix(first) else {
        return false;
    };
    if rest.is_empty() {
        return after.is_empty();
    }
    // A marker: skip one or more characters, then the rest.
    after
        .char_indices()
        .skip(1)
        .map(|(i, _)| i)
        .any(|i| whole(rest, &after[i..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_brute_force_matcher_follows_the_definition() {
        assert!(whole(&["ab", "cd"], "abXcd"));
        assert!(whole(&["ab", "cd"], "abXYcd"));
        assert!(!whole(&["ab", "cd"], "abcd"));
        assert!(!whole(&["ab", "cd"], "abXcdX"));
        assert_eq!(brute_force(&["a", "b"], "a-b a--b", 5), [(0, 3), (4, 8)]);
        assert_eq!(citeproof_span::redaction::REDACTION_MARKER, "[REDACTED]");
    }
}

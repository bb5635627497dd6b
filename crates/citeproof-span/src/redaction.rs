//! Redacted `exact_text` (profile AEF-5-002, AEF-L2-006): AEF §7 asks pipelines to redact
//! personal data before populating `exact_text`, so `exact_text` may differ from the span it
//! records. A redacted run is written as [`REDACTION_MARKER`]; the marker stands for one or more
//! characters of the span. A redacted `exact_text` is checked as a pattern (every literal part
//! in order, each marker covering at least one character) instead of by its hash.
//!
//! Matching is leftmost and earliest: each literal part is taken at its first occurrence that
//! leaves at least one character for the marker before it. Because those positions only move
//! forward as the start moves forward, one scan per part serves every start position, so the
//! work is linear in the text times the number of parts whatever the input.

/// The text that stands for a redacted run in `exact_text`.
pub const REDACTION_MARKER: &str = "[REDACTED]";

/// Whether `text` contains a redacted run.
pub fn is_redacted(text: &str) -> bool {
    text.contains(REDACTION_MARKER)
}

/// The literal parts of a redacted text, with whether it starts and ends with a marker.
/// Consecutive markers are one marker (each stands for "one or more characters").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern<'a> {
    /// The literal (unredacted) parts, in order, none empty.
    pub parts: Vec<&'a str>,
    /// Whether the text begins with a marker.
    pub leading_marker: bool,
    /// Whether the text ends with a marker.
    pub trailing_marker: bool,
}

impl<'a> Pattern<'a> {
    /// The pattern of a redacted text (any text: one without a marker is one literal part).
    pub fn parse(text: &'a str) -> Pattern<'a> {
        let pieces: Vec<&str> = text.split(REDACTION_MARKER).collect();
        let leading_marker = pieces.first().is_some_and(|p| p.is_empty()) && pieces.len() > 1;
        let trailing_marker = pieces.last().is_some_and(|p| p.is_empty()) && pieces.len() > 1;
        Pattern {
            parts: pieces.into_iter().filter(|p| !p.is_empty()).collect(),
            leading_marker,
            trailing_marker,
        }
    }
}

/// Whether `text` as a whole is what `pattern` (a redacted text) was made from: the literal
/// parts occur in order, separated by at least one character where a marker stood, anchored at
/// both ends.
pub fn matches_fully(pattern: &str, text: &str) -> bool {
    let p = Pattern::parse(pattern);
    let Some((first, rest)) = p.parts.split_first() else {
        // Only markers: any non-empty text.
        return !text.is_empty();
    };
    if rest.is_empty() && p.leading_marker && !p.trailing_marker {
        // One literal part after a marker: it ends the text.
        return text.len() > first.len() && text.ends_with(first);
    }
    let mut pos = if p.leading_marker {
        match find_after(text, first, 1) {
            Some(i) => i + first.len(),
            None => return false,
        }
    } else if text.starts_with(first) {
        first.len()
    } else {
        return false;
    };
    let Some((last, middle)) = rest.split_last() else {
        // One literal part.
        return if p.trailing_marker {
            text.len() > pos
        } else {
            text.len() == pos
        };
    };
    for part in middle {
        match find_after(text, part, pos + 1) {
            Some(i) => pos = i + part.len(),
            None => return false,
        }
    }
    if p.trailing_marker {
        // The last part may sit anywhere that leaves a character after it: its first
        // occurrence is the best choice.
        match find_after(text, last, pos + 1) {
            Some(i) => i + last.len() < text.len(),
            None => false,
        }
    } else {
        text.len() >= pos + 1 + last.len() && text.ends_with(last) && {
            let start = text.len() - last.len();
            text.is_char_boundary(start) && start > pos
        }
    }
}

/// First occurrence of `needle` in `text` at a byte position at or after `from` (rounded up to
/// the next character boundary).
fn find_after(text: &str, needle: &str, from: usize) -> Option<usize> {
    let mut from = from;
    while from < text.len() && !text.is_char_boundary(from) {
        from += 1;
    }
    text.get(from..)?.find(needle).map(|i| from + i)
}

/// Where a redacted quote occurs in `search`: the byte ranges of up to `limit` matches. The
/// quote must begin and end with literal text (checked by the caller), so a match is the span
/// from an occurrence of the first part to the end of the last.
pub fn find_all(search: &str, pattern: &Pattern<'_>, limit: usize) -> Vec<(usize, usize)> {
    let Some((first, rest)) = pattern.parts.split_first() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    // Per later part: the last occurrence found and the position it was searched from.
    let mut cache: Vec<Option<(usize, Option<usize>)>> = vec![None; rest.len()];
    let mut from = 0;
    while found.len() < limit {
        let Some(start) = find_after(search, first, from) else {
            break;
        };
        from = start + search[start..].chars().next().map_or(1, char::len_utf8);
        let mut pos = start + first.len();
        let mut complete = true;
        for (k, part) in rest.iter().enumerate() {
            let want = pos + 1;
            let hit = match cache.get(k).copied().flatten() {
                Some((searched_from, hit))
                    if searched_from <= want && hit.is_none_or(|h| h >= want) =>
                {
                    hit
                }
                _ => {
                    let hit = find_after(search, part, want);
                    if let Some(slot) = cache.get_mut(k) {
                        *slot = Some((want, hit));
                    }
                    hit
                }
            };
            match hit {
                Some(i) => pos = i + part.len(),
                None => {
                    complete = false;
                    break;
                }
            }
        }
        if !complete {
            // Later starts only search further right: no later start can complete either.
            break;
        }
        found.push((start, pos));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: &str = REDACTION_MARKER;

    #[test]
    fn full_matches() {
        let text = "Contact Jane Roe at jane@example.org for details.";
        assert!(matches_fully(
            &format!("Contact {M} at {M} for details."),
            text
        ));
        assert!(matches_fully(&format!("{M} at {M} for details."), text));
        assert!(matches_fully(&format!("Contact {M}"), text));
        assert!(matches_fully(M, text));
        // The unredacted text itself is a pattern without markers.
        assert!(matches_fully(text, text));
        // A marker covers at least one character.
        assert!(!matches_fully(
            &format!("Contact {M}Jane Roe at"),
            "Contact Jane Roe at"
        ));
        assert!(!matches_fully(
            &format!("Contact {M} at {M} for more."),
            text
        ));
        assert!(!matches_fully(
            &format!("Call {M} at {M} for details."),
            text
        ));
        assert!(!matches_fully(&format!("{M}details."), "details."));
        assert!(!matches_fully(M, ""));
    }

    #[test]
    fn finds_redacted_quotes() {
        let search =
            "intro. Contact Jane Roe at jane@x.org today. outro. Contact Joe at joe@y.org today.";
        let p_text = format!("Contact {M} at {M} today.");
        let p = Pattern::parse(&p_text);
        let hits = find_all(search, &p, 2);
        assert_eq!(hits.len(), 2);
        assert_eq!(
            &search[hits[0].0..hits[0].1],
            "Contact Jane Roe at jane@x.org today."
        );
        let p_text = format!("Contact Joe at {M} today.");
        let p = Pattern::parse(&p_text);
        let hits = find_all(search, &p, 2);
        let joe = search.find("Contact Joe").unwrap();
        assert_eq!(hits, vec![(joe, search.len())]);
        assert!(
            find_all(
                search,
                &Pattern::parse(&format!("Contact {M} at {M} tomorrow.")),
                2
            )
            .is_empty()
        );
    }

    #[test]
    fn hostile_repetition_is_linear() {
        // 200k starts of "a", a second part that never occurs: one scan, not 200k.
        let search = "a".repeat(200_000);
        let p_text = format!("a{M}b");
        let hits = find_all(&search, &Pattern::parse(&p_text), 2);
        assert!(hits.is_empty());
        let p_text = format!("a{M}a{M}a");
        let hits = find_all(&search, &Pattern::parse(&p_text), 2);
        assert_eq!(hits, vec![(0, 5), (1, 6)]);
    }

    #[test]
    fn multibyte_boundaries() {
        let text = "é [x] ü";
        assert!(matches_fully(&format!("é{M}ü"), text));
        assert!(matches_fully(&format!("{M}ü"), text));
        assert!(!matches_fully(&format!("é{M}é"), text));
        // The single part after a marker is a suffix, even when it also occurs earlier.
        assert!(matches_fully(&format!("{M}ü"), "xüyü"));
        assert!(!matches_fully(&format!("{M}ü"), "ü"));
    }
}

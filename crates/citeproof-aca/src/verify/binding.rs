//! ACA-L2-021: the claims of a response's manifests are claims *of this response*. Each claim's
//! text, normalized like the support check (N), must occur in the response body's text.
//!
//! The body's text depends on its media type: every string value of a JSON body (member names
//! excluded), the AEF search text of any other textual body (T(d) for HTML, line endings
//! normalized otherwise). A body that is neither, or not UTF-8, has no text and therefore no
//! trace of any claim.

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

use super::support::normalize;

/// Most distinct-claim bytes in one search automaton: its memory is a small multiple of this
/// (ACA-L2-023). More claims are searched in several passes.
pub const MAX_AUTOMATON_PATTERN_BYTES: usize = 2 * 1024 * 1024;

/// Matches the claims-in-response search may enumerate (ACA-L2-023): `16` per byte of response
/// text, and at least this many. Each match is one claim occurring at one place; a response
/// needs one per occurrence of a claim, so only claims nested in one another many times over
/// (`a`, `aa`, `aaa`, ... against `aaaa...`) reach it.
pub const MIN_CLAIM_MATCH_BUDGET: u64 = 1 << 20;
/// Matches allowed per byte of response text.
pub const CLAIM_MATCHES_PER_BYTE: u64 = 16;

/// The claims-in-response search went over its budget of matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchBudgetExceeded {
    pub max_matches: u64,
}

/// The normalized text units of an agent response body.
#[derive(Debug, Clone, Default)]
pub struct ResponseText {
    units: Vec<String>,
}

impl ResponseText {
    /// `media_type` is the response's `Content-Type` field value (or `None`).
    pub fn of(media_type: Option<&str>, body: &[u8]) -> ResponseText {
        let media = media_type
            .and_then(citeproof_span::media::essence)
            .unwrap_or_default();
        let units = if media == "application/json" || media.ends_with("+json") {
            match citeproof_model::json::parse_strict(body) {
                Ok(value) => {
                    let mut strings = Vec::new();
                    collect_strings(&value, &mut strings);
                    strings.into_iter().map(normalize).collect()
                }
                Err(_) => Vec::new(),
            }
        } else {
            citeproof_span::search_text(&media, body)
                .map(|t| vec![normalize(&t)])
                .unwrap_or_default()
        };
        ResponseText { units }
    }

    /// Whether the body has any text at all.
    pub fn is_empty(&self) -> bool {
        self.units.iter().all(String::is_empty)
    }

    /// Whether N(`claim`) occurs in one text unit of the body.
    pub fn contains_claim(&self, claim: &str) -> bool {
        let n = normalize(claim);
        !n.is_empty() && self.units.iter().any(|u| u.contains(&n))
    }

    /// The match budget of [`find_claims`](Self::find_claims) for this text.
    pub fn match_budget(&self) -> u64 {
        let bytes: usize = self.units.iter().map(String::len).sum();
        u64::try_from(bytes)
            .unwrap_or(u64::MAX)
            .saturating_mul(CLAIM_MATCHES_PER_BYTE)
            .max(MIN_CLAIM_MATCH_BUDGET)
    }

    /// [`contains_claim`](Self::contains_claim) for every claim at once, in time linear in the
    /// text and the claims (one Aho-Corasick pass per [`MAX_AUTOMATON_PATTERN_BYTES`] of
    /// distinct normalized claims) instead of one scan of the text per claim. Fails when the
    /// matches enumerated exceed `max_matches`.
    pub fn find_claims(
        &self,
        claims: &[&str],
        max_matches: u64,
    ) -> Result<Vec<bool>, SearchBudgetExceeded> {
        let normalized: Vec<String> = claims.iter().map(|c| normalize(c)).collect();
        let refs: Vec<&str> = normalized.iter().map(String::as_str).collect();
        self.find_normalized(&refs, max_matches)
    }

    /// [`find_claims`](Self::find_claims) for claims already normalized (N applied).
    pub fn find_normalized(
        &self,
        normalized: &[&str],
        max_matches: u64,
    ) -> Result<Vec<bool>, SearchBudgetExceeded> {
        let mut ids: HashMap<&str, usize> = HashMap::new();
        let mut patterns: Vec<&str> = Vec::new();
        let slot: Vec<Option<usize>> = normalized
            .iter()
            .map(|n| {
                if n.is_empty() {
                    return None;
                }
                Some(*ids.entry(n).or_insert_with(|| {
                    patterns.push(n);
                    patterns.len() - 1
                }))
            })
            .collect();
        let mut found = vec![false; patterns.len()];
        let mut matches: u64 = 0;
        let mut start = 0;
        while start < patterns.len() {
            let mut end = start;
            let mut bytes = 0usize;
            while let Some(p) = patterns.get(end) {
                if end > start && bytes + p.len() > MAX_AUTOMATON_PATTERN_BYTES {
                    break;
                }
                bytes += p.len();
                end += 1;
            }
            let chunk = patterns.get(start..end).unwrap_or_default();
            self.search_chunk(chunk, start, &mut found, &mut matches, max_matches)?;
            start = end;
        }
        Ok(slot
            .iter()
            .map(|s| s.and_then(|i| found.get(i).copied()).unwrap_or(false))
            .collect())
    }

    fn search_chunk(
        &self,
        chunk: &[&str],
        offset: usize,
        found: &mut [bool],
        matches: &mut u64,
        max_matches: u64,
    ) -> Result<(), SearchBudgetExceeded> {
        // Standard semantics report every occurrence, overlapping ones included, as
        // `str::contains` per claim would find them. A build failure (more states than the
        // automaton can address) cannot happen under the chunk bound; it would find nothing.
        let Ok(ac) = AhoCorasick::builder()
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::ContiguousNFA))
            .build(chunk)
        else {
            return Ok(());
        };
        let mut missing = chunk.len();
        for unit in &self.units {
            for m in ac.find_overlapping_iter(unit.as_str()) {
                *matches += 1;
                if *matches > max_matches {
                    return Err(SearchBudgetExceeded { max_matches });
                }
                if let Some(f) = found.get_mut(offset + m.pattern().as_usize())
                    && !*f
                {
                    *f = true;
                    missing -= 1;
                    if missing == 0 {
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }
}

/// Every string value of a JSON document, in document order, without member names. Iterative,
/// so a deeply nested body cannot exhaust the stack (the strict parser bounds depth anyway).
fn collect_strings<'a>(value: &'a serde_json::Value, out: &mut Vec<&'a str>) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::String(s) => out.push(s),
            serde_json::Value::Array(items) => stack.extend(items.iter().rev()),
            serde_json::Value::Object(members) => stack.extend(members.values().rev()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_are_found_by_media_type() {
        let claim = "AI crawlers revisit pages with stable canonical URLs more often.";
        let html = b"<html><body><p>AI crawlers <b>revisit</b> pages with stable\n canonical URLs more often.</p><script>x</script></body></html>";
        assert!(ResponseText::of(Some("text/html; charset=utf-8"), html).contains_claim(claim));
        let text = b"Answer:\r\nAI CRAWLERS revisit pages with stable canonical URLs more often.";
        assert!(ResponseText::of(Some("text/plain"), text).contains_claim(claim));
        let json = br#"{"answer": "ai crawlers revisit pages with stable canonical urls more often.", "n": 1}"#;
        assert!(ResponseText::of(Some("application/json"), json).contains_claim(claim));
        // A member name is not text of the response.
        let name = br#"{"AI crawlers revisit pages with stable canonical URLs more often.": 1}"#;
        assert!(!ResponseText::of(Some("application/json"), name).contains_claim(claim));
        // The issue's swapped body.
        let moon = b"The moon is made of cheese. Vaccines cause autism.";
        assert!(!ResponseText::of(Some("text/plain"), moon).contains_claim(claim));
        // No text: binary, undeclared, not UTF-8.
        assert!(ResponseText::of(Some("application/octet-stream"), text).is_empty());
        assert!(ResponseText::of(None, text).is_empty());
        assert!(ResponseText::of(Some("text/plain"), b"\xff\xfe").is_empty());
        assert!(!ResponseText::of(Some("text/plain"), b"").contains_claim(""));
    }

    /// `find_claims` answers exactly what `contains_claim` answers, claim by claim: overlapping
    /// and nested claims, repeated claims, claims across text units, empty ones.
    #[test]
    fn find_claims_agrees_with_contains_claim() {
        let json = br#"{"a": "Alpha beta gamma. Beta gamma delta.", "b": ["Gamma delta epsilon", "zeta"]}"#;
        let text = ResponseText::of(Some("application/json"), json);
        let claims = [
            "alpha beta",
            "BETA GAMMA",
            "beta gamma delta",
            "gamma delta",
            "delta epsilon",
            "gamma. beta",
            "epsilon zeta",
            "zeta",
            "",
            "  ",
            "alpha beta",
            "omega",
            "a",
        ];
        let got = text.find_claims(&claims, u64::MAX).unwrap();
        let want: Vec<bool> = claims.iter().map(|c| text.contains_claim(c)).collect();
        assert_eq!(got, want);
        // Hand derivation: units are "alpha beta gamma. beta gamma delta.",
        // "gamma delta epsilon" and "zeta"; no unit holds "epsilon zeta" or "omega".
        assert_eq!(
            want,
            [
                true, true, true, true, true, true, false, true, false, false, true, false, true
            ]
        );
    }

    /// Claims nested in one another against a text made of their letter: every position ends
    /// an occurrence of each shorter claim, so the matches are quadratic; the budget stops the
    /// search with an error instead of a hang.
    #[test]
    fn nested_claims_exhaust_the_match_budget() {
        let body = "a".repeat(100_000);
        let text = ResponseText::of(Some("text/plain"), body.as_bytes());
        let claims: Vec<String> = (1..=2000).map(|n| "a".repeat(n)).collect();
        let refs: Vec<&str> = claims.iter().map(String::as_str).collect();
        let budget = text.match_budget();
        assert_eq!(
            budget,
            (100_000 * CLAIM_MATCHES_PER_BYTE).max(MIN_CLAIM_MATCH_BUDGET)
        );
        assert_eq!(
            text.find_claims(&refs, budget),
            Err(SearchBudgetExceeded {
                max_matches: budget
            })
        );
        // Within budget, the same search finds every claim.
        let few = &refs[..10];
        assert_eq!(text.find_claims(few, budget), Ok(vec![true; 10]));
    }
}

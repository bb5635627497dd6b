//! ACA-L2-021: the claims of a response's manifests are claims *of this response*. Each claim's
//! text, normalized like the support check (N), must occur in the response body's text.
//!
//! The body's text depends on its media type: every string value of a JSON body (member names
//! excluded), the markdown text model M(d) of a `text/markdown` body (the text without its
//! markup: `citeproof_text::markdown`), the AEF search text of any other textual body (T(d) for
//! HTML, line endings normalized otherwise). A body that is neither, or not UTF-8, has no text
//! and therefore no trace of any claim.
//!
//! # How the claims are found
//!
//! Every claim is decided, at a cost that does not depend on how the claims overlap; two exact
//! searches give the same answers, and the cheaper one for the input is used:
//!
//! - **an automaton over the claims** (Aho-Corasick, one scan of the text) when the distinct
//!   claims are small next to the text (their bytes under a quarter of the text's): a large
//!   response citing a few claims costs little more than reading it. It reports every
//!   occurrence of every claim, which is quadratic for claims nested in one another (`a`, `aa`,
//!   `aaa` against `aaaa...`), so it stops after [`CLAIM_MATCHES_PER_BYTE`] occurrences per
//!   byte of text (at least [`MIN_CLAIM_MATCH_BUDGET`]) and hands over to the suffix array;
//! - **a suffix array of the text** otherwise: the text units joined by the byte `0xFF`, which
//!   UTF-8 never contains, so that no claim matches across two units. Building it is
//!   O(n log n) at worst for n bytes of text (libdivsufsort's algorithm, in the `divsufsort`
//!   crate: the `suffix` crate indexes only `str`, which has no byte to separate units with),
//!   then each claim of m bytes is one binary search, O(m log n), however the claims overlap.
//!   For a response made of ten thousand claims it costs a third of building the automaton.

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

use super::support::normalize;

/// The joined text is indexed with 32-bit positions: text units of at most this many bytes in
/// all. A response body is at most 10 MiB (FETCH-004) and N at most triples a text, so this is
/// never reached through the verifier; the bound keeps the public API total.
pub const MAX_INDEXED_TEXT_BYTES: usize = (i32::MAX - 1) as usize;

/// Most distinct-claim bytes in one automaton: its memory is a small multiple of this. More
/// claims are searched in several passes.
pub const MAX_AUTOMATON_PATTERN_BYTES: usize = 2 * 1024 * 1024;

/// Occurrences the automaton may report per byte of text before the search moves to the suffix
/// array: an honest response has one per claim and place.
pub const CLAIM_MATCHES_PER_BYTE: u64 = 16;
/// The automaton may always report this many occurrences.
pub const MIN_CLAIM_MATCH_BUDGET: u64 = 1 << 20;

/// Which search decides the claims (see the module docs); `Auto` is what the verifier uses,
/// the others exist so that tests can hold the two searches against each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Search {
    Auto,
    Automaton,
    SuffixArray,
}

/// The text of a response is too large to index (see [`MAX_INDEXED_TEXT_BYTES`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextTooLarge {
    pub bytes: usize,
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
        } else if media == "text/markdown" {
            std::str::from_utf8(body)
                .map(|d| vec![normalize(&citeproof_text::markdown_text(d))])
                .unwrap_or_default()
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

    /// [`contains_claim`](Self::contains_claim) for every claim at once: one index of the text,
    /// then one lookup per claim (see the module docs for the cost).
    pub fn find_claims(&self, claims: &[&str]) -> Result<Vec<bool>, TextTooLarge> {
        let normalized: Vec<String> = claims.iter().map(|c| normalize(c)).collect();
        let refs: Vec<&str> = normalized.iter().map(String::as_str).collect();
        self.find_normalized(&refs)
    }

    /// [`find_claims`](Self::find_claims) for claims already normalized (N applied).
    pub fn find_normalized(&self, normalized: &[&str]) -> Result<Vec<bool>, TextTooLarge> {
        self.find_with(normalized, Search::Auto)
    }

    /// [`find_normalized`](Self::find_normalized) with the search chosen by the caller.
    pub fn find_with(
        &self,
        normalized: &[&str],
        search: Search,
    ) -> Result<Vec<bool>, TextTooLarge> {
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
        let text_bytes: usize = self.units.iter().map(String::len).sum();
        let pattern_bytes: usize = patterns.iter().map(|p| p.len()).sum();
        let automaton = match search {
            Search::Auto => pattern_bytes.saturating_mul(4) < text_bytes,
            Search::Automaton => true,
            Search::SuffixArray => false,
        };
        let budget = u64::try_from(text_bytes)
            .unwrap_or(u64::MAX)
            .saturating_mul(CLAIM_MATCHES_PER_BYTE)
            .max(MIN_CLAIM_MATCH_BUDGET);
        let found = match automaton
            .then(|| self.by_automaton(&patterns, budget))
            .flatten()
        {
            Some(found) => found,
            None => self.by_suffix_array(&patterns)?,
        };
        Ok(slot
            .iter()
            .map(|s| s.and_then(|i| found.get(i).copied()).unwrap_or(false))
            .collect())
    }

    /// Which of `patterns` occur, by Aho-Corasick automata over at most
    /// [`MAX_AUTOMATON_PATTERN_BYTES`] of patterns each; `None` past `budget` occurrences (or if
    /// an automaton cannot be built), for the suffix array to decide.
    fn by_automaton(&self, patterns: &[&str], budget: u64) -> Option<Vec<bool>> {
        let mut found = vec![false; patterns.len()];
        let mut occurrences: u64 = 0;
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
            let chunk = patterns.get(start..end)?;
            // Standard semantics report every occurrence, overlapping ones included, as
            // `str::contains` per claim would find them.
            let ac = AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .kind(Some(AhoCorasickKind::ContiguousNFA))
                .build(chunk)
                .ok()?;
            let mut missing = chunk.len();
            'units: for unit in &self.units {
                for m in ac.find_overlapping_iter(unit.as_str()) {
                    occurrences += 1;
                    if occurrences > budget {
                        return None;
                    }
                    if let Some(f) = found.get_mut(start + m.pattern().as_usize())
                        && !*f
                    {
                        *f = true;
                        missing -= 1;
                        if missing == 0 {
                            break 'units;
                        }
                    }
                }
            }
            start = end;
        }
        Some(found)
    }

    /// Which of `patterns` occur, by one suffix array of the text.
    fn by_suffix_array(&self, patterns: &[&str]) -> Result<Vec<bool>, TextTooLarge> {
        let bytes = self.units.iter().map(|u| u.len() + 1).sum::<usize>();
        if bytes > MAX_INDEXED_TEXT_BYTES {
            return Err(TextTooLarge { bytes });
        }
        let mut text = Vec::with_capacity(bytes);
        for unit in &self.units {
            if !text.is_empty() {
                text.push(0xFF);
            }
            text.extend_from_slice(unit.as_bytes());
        }
        let mut index = vec![0i32; text.len()];
        divsufsort::sort_in_place(&text, &mut index);
        Ok(patterns
            .iter()
            .map(|p| occurs(&text, &index, p.as_bytes()))
            .collect())
    }
}

/// Whether `pattern` is a prefix of some suffix of `text`, given its suffix array: the
/// suffixes that start with it, if any, begin at the first suffix not less than it.
fn occurs(text: &[u8], index: &[i32], pattern: &[u8]) -> bool {
    let suffix = |at: &i32| {
        usize::try_from(*at)
            .ok()
            .and_then(|at| text.get(at..))
            .unwrap_or_default()
    };
    let first = index.partition_point(|at| suffix(at) < pattern);
    index
        .get(first)
        .is_some_and(|at| suffix(at).starts_with(pattern))
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
        // Markdown: the text without its markup (emphasis, links, inline code); read raw, the
        // answer does not hold the claim.
        let md = b"## Answer\n\n**AI crawlers** revisit pages with [stable canonical URLs](https://x.example/u) more `often`.";
        assert!(ResponseText::of(Some("text/markdown; charset=utf-8"), md).contains_claim(claim));
        assert!(!ResponseText::of(Some("text/plain"), md).contains_claim(claim));
        assert!(
            !ResponseText::of(Some("text/markdown"), md)
                .contains_claim("stable canonical URLs](https")
        );
        assert!(ResponseText::of(Some("text/markdown"), b"\xff*a*").is_empty());
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
        let got = text.find_claims(&claims).unwrap();
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
    /// an occurrence of each shorter claim (quadratic for a search that reports occurrences),
    /// yet each claim is one lookup in the index.
    #[test]
    fn nested_claims_are_each_one_lookup() {
        let body = "a".repeat(100_000);
        let text = ResponseText::of(Some("text/plain"), body.as_bytes());
        let mut claims: Vec<String> = (1..=2000).map(|n| "a".repeat(n)).collect();
        claims.push(format!("{}b", "a".repeat(1000)));
        claims.push("a".repeat(100_001));
        let refs: Vec<&str> = claims.iter().map(String::as_str).collect();
        let mut want = vec![true; 2000];
        want.extend([false, false]);
        assert_eq!(text.find_claims(&refs), Ok(want.clone()));
        // The automaton alone goes over its budget of occurrences and hands over.
        let normalized: Vec<String> = refs.iter().map(|c| normalize(c)).collect();
        let normalized: Vec<&str> = normalized.iter().map(String::as_str).collect();
        assert_eq!(text.find_with(&normalized, Search::Automaton), Ok(want));
        let few = &normalized[..10];
        let automaton = ResponseText::of(Some("text/plain"), body.as_bytes());
        assert_eq!(
            automaton.by_automaton(few, MIN_CLAIM_MATCH_BUDGET),
            Some(vec![true; 10])
        );
        assert_eq!(
            automaton.by_automaton(&normalized, MIN_CLAIM_MATCH_BUDGET),
            None
        );
    }

    proptest::proptest! {
        /// Both searches against `contains_claim` (a substring test per unit): claims drawn from
        /// the units' own alphabet, often parts of one unit, sometimes spanning two.
        #[test]
        fn the_index_agrees_with_a_scan_of_each_unit(
            units in proptest::collection::vec("[ab ]{0,12}", 0..5),
            claims in proptest::collection::vec("[ab ]{0,6}", 0..12),
        ) {
            let json = serde_json::to_vec(&units).unwrap();
            let text = ResponseText::of(Some("application/json"), &json);
            let mut claims = claims;
            claims.extend(units.windows(2).map(|w| format!("{} {}", w[0], w[1])));
            let refs: Vec<&str> = claims.iter().map(String::as_str).collect();
            let want: Vec<bool> = refs.iter().map(|c| text.contains_claim(c)).collect();
            proptest::prop_assert_eq!(text.find_claims(&refs), Ok(want.clone()));
            let normalized: Vec<String> = refs.iter().map(|c| normalize(c)).collect();
            let normalized: Vec<&str> = normalized.iter().map(String::as_str).collect();
            for search in [Search::Automaton, Search::SuffixArray] {
                proptest::prop_assert_eq!(text.find_with(&normalized, search), Ok(want.clone()));
            }
        }
    }
}

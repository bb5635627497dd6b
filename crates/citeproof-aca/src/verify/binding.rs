//! ACA-L2-021: the claims of a response's manifests are claims *of this response*. Each claim's
//! text, normalized like the support check (N), must occur in the response body's text.
//!
//! The body's text depends on its media type: every string value of a JSON body (member names
//! excluded), the AEF search text of any other textual body (T(d) for HTML, line endings
//! normalized otherwise). A body that is neither, or not UTF-8, has no text and therefore no
//! trace of any claim.
//!
//! # How the claims are found
//!
//! All claims are looked up in one index of the text: a suffix array of the text units joined
//! by the byte `0xFF`, which UTF-8 never contains, so no claim can match across two units.
//! Building it is O(n log n) at worst in the text length n (libdivsufsort's algorithm, in the
//! `divsufsort` crate: the `suffix` crate indexes only `str`, which has no byte to separate
//! units with); each claim of m bytes is then one binary search, O(m log n). The cost does not
//! depend on how the claims overlap, so no budget of matches is needed (an Aho-Corasick
//! automaton over the claims reports every occurrence of every claim, which is quadratic for
//! claims nested in one another, and cost three to four times as much to build for a response
//! made of ten thousand claims).

use super::support::normalize;

/// The joined text is indexed with 32-bit positions: text units of at most this many bytes in
/// all. A response body is at most 10 MiB (FETCH-004) and N at most triples a text, so this is
/// never reached through the verifier; the bound keeps the public API total.
pub const MAX_INDEXED_TEXT_BYTES: usize = (i32::MAX - 1) as usize;

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
        Ok(normalized
            .iter()
            .map(|claim| !claim.is_empty() && occurs(&text, &index, claim.as_bytes()))
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
        assert_eq!(text.find_claims(&refs), Ok(want));
    }

    proptest::proptest! {
        /// Against `contains_claim` (a substring test per unit): claims drawn from the units'
        /// own alphabet, often parts of one unit, sometimes spanning two.
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
            proptest::prop_assert_eq!(text.find_claims(&refs), Ok(want));
        }
    }
}

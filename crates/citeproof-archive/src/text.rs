//! Text helpers of the profile: Unicode scalar slicing (ARCHIVE-004), NFC checks, and the
//! 4-token overlap of ARCHIVE-021 over `N(s)` and its tokens, which come from `citeproof-text`
//! (one definition with the ACA support check).

use std::borrow::Cow;
use std::collections::HashSet;

use icu_properties::props::{GeneralCategory, WhiteSpace};
use icu_properties::{CodePointMapData, CodePointSetData};
use unicode_normalization::{UnicodeNormalization, is_nfc};

/// Number of consecutive tokens that count as revealing text (ARCHIVE-021).
pub const REVEAL_TOKENS: usize = 4;

/// Length in Unicode scalar values.
pub fn scalar_len(s: &str) -> usize {
    s.chars().count()
}

/// The scalar values `[start, end)` of `s`, or `None` when the range is not inside `s`.
pub fn scalar_slice(s: &str, start: usize, end: usize) -> Option<&str> {
    if start > end {
        return None;
    }
    let mut indices = s
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(s.len()));
    let from = indices.nth(start)?;
    let to = if end == start {
        from
    } else {
        indices.nth(end - start - 1)?
    };
    s.get(from..to)
}

/// The first `n` scalar values of `s` (all of it when shorter).
pub fn scalar_prefix(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => s.get(..i).unwrap_or(s),
        None => s,
    }
}

pub fn is_nfc_text(s: &str) -> bool {
    is_nfc(s)
}

pub fn nfc(s: &str) -> String {
    s.nfc().collect()
}

use citeproof_text::tokens;

/// Whether `c` is dropped by [`visible`]: General_Category Cf, or a variation selector.
fn invisible(c: char) -> bool {
    if c.is_ascii() {
        return false;
    }
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
        || CodePointMapData::<GeneralCategory>::new().get(c) == GeneralCategory::Format
}

/// `V(s)` of the profile: `s` without format characters (zero-width spaces and joiners, soft
/// hyphens, bidi controls, ...) and variation selectors, which change the tokens of a text
/// without changing what a reader sees (ARCHIVE-021, ARCHIVE-033).
pub fn visible(s: &str) -> Cow<'_, str> {
    if s.chars().any(invisible) {
        Cow::Owned(s.chars().filter(|c| !invisible(*c)).collect())
    } else {
        Cow::Borrowed(s)
    }
}

/// Every run of [`REVEAL_TOKENS`] consecutive tokens of the given texts, joined by a space.
pub fn token_runs<'a>(texts: impl IntoIterator<Item = &'a str>) -> HashSet<String> {
    let mut runs = HashSet::new();
    for text in texts {
        let toks = tokens(&visible(text));
        for w in toks.windows(REVEAL_TOKENS) {
            runs.insert(w.join(" "));
        }
    }
    runs
}

/// The first run of [`REVEAL_TOKENS`] tokens of `text` that is in `runs`.
pub fn shared_run(text: &str, runs: &HashSet<String>) -> Option<String> {
    if runs.is_empty() {
        return None;
    }
    tokens(&visible(text))
        .windows(REVEAL_TOKENS)
        .map(|w| w.join(" "))
        .find(|r| runs.contains(r))
}

/// The display trim of the reference gate: the span text when it fits the cap; otherwise its
/// longest prefix of at most `cap` scalar values that ends before a White_Space character,
/// without trailing White_Space, or the first `cap` scalar values when no such prefix exists.
pub fn trim_excerpt(span_text: &str, cap: usize) -> String {
    if cap == 0 {
        return String::new();
    }
    if scalar_len(span_text) <= cap {
        return span_text.to_owned();
    }
    let chars: Vec<char> = span_text.chars().collect();
    let ws = CodePointSetData::new::<WhiteSpace>();
    // Cut at position k (k <= cap) where chars[k] is White_Space, the largest such k > 0.
    let mut cut = None;
    for k in (1..=cap).rev() {
        if chars.get(k).is_some_and(|c| ws.contains(*c)) {
            cut = Some(k);
            break;
        }
    }
    let Some(mut k) = cut else {
        return chars.iter().take(cap).collect();
    };
    while k > 0 && chars.get(k - 1).is_some_and(|c| ws.contains(*c)) {
        k -= 1;
    }
    if k == 0 {
        return chars.iter().take(cap).collect();
    }
    chars.iter().take(k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // Expected value from the standard library's char iteration (a second implementation).
        #[test]
        fn slice_agrees_with_chars(s in "\\PC{0,12}", a in 0usize..16, b in 0usize..16) {
            let n = s.chars().count();
            let expected = (a <= b && b <= n).then(|| s.chars().skip(a).take(b - a).collect::<String>());
            prop_assert_eq!(scalar_slice(&s, a, b).map(str::to_owned), expected);
        }

        #[test]
        fn trimmed_excerpts_are_nonempty_parts_within_the_cap(s in "[a-z ]{1,40}", cap in 1usize..30) {
            prop_assume!(!s.trim().is_empty());
            let t = trim_excerpt(&s, cap);
            prop_assert!(s.contains(t.as_str()));
            prop_assert!(scalar_len(&t) <= cap);
            prop_assert!(!t.is_empty());
        }
    }

    #[test]
    fn slices_count_scalar_values() {
        // "Ålesund" is 7 scalar values; "Å" is 2 bytes.
        assert_eq!(scalar_slice("Ålesund harbour", 0, 7), Some("Ålesund"));
        assert_eq!(scalar_slice("Ålesund harbour", 8, 15), Some("harbour"));
        assert_eq!(scalar_slice("abc", 3, 3), Some(""));
        assert_eq!(scalar_slice("abc", 2, 4), None);
        assert_eq!(scalar_slice("abc", 2, 1), None);
        assert_eq!(scalar_prefix("héllo", 2), "hé");
    }

    #[test]
    fn invisible_characters_do_not_split_tokens() {
        // U+200B, U+200D, U+2060, U+00AD and U+FEFF are Cf; U+FE0F is a variation selector.
        assert_eq!(
            visible("c\u{200b}a\u{200d}m\u{2060}e \u{ad}h\u{feff}ome\u{fe0f}"),
            "came home"
        );
        assert!(matches!(visible("plain, é"), Cow::Borrowed(_)));
        let runs = token_runs(["He came home from sea."]);
        assert!(shared_run("he ca\u{200b}me ho\u{ad}me from", &runs).is_some());
    }

    #[test]
    fn four_token_runs() {
        let runs = token_runs(["He kept a second family in Lyon from 1971."]);
        assert_eq!(
            shared_run("His second family in Lyon", &runs).as_deref(),
            Some("second family in lyon")
        );
        assert_eq!(shared_run("A family matter in Lyon", &runs), None);
        assert_eq!(shared_run("second family", &runs), None);
    }

    #[test]
    fn trim_cuts_at_white_space() {
        assert_eq!(
            trim_excerpt("the harbour froze solid", 100),
            "the harbour froze solid"
        );
        assert_eq!(trim_excerpt("the harbour froze solid", 14), "the harbour");
        assert_eq!(trim_excerpt("the harbour froze solid", 11), "the harbour");
        assert_eq!(trim_excerpt("harbourmaster", 5), "harbo");
        assert_eq!(trim_excerpt("the  harbour", 5), "the");
        assert_eq!(trim_excerpt("abc", 0), "");
    }
}

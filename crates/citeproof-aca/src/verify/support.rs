//! The support check of ACA-L2-018 and the relevance check of ACA-L2-019, behind a trait so
//! that users can plug in a stronger judge.
//!
//! The reference judge is the profile's deterministic lexical check:
//!
//! ```text
//! N(s)   = collapse( NFC( casefold( NFC(s) ) ) )
//! token  = maximal run of characters whose General_Category is L*, M* or N*
//! content word = token of at least 3 scalar values that is not a stop word
//! supported  <=>  N(text) is a substring of N(e) for some excerpt e,
//!             or  every content word of N(text) is a token of some excerpt
//! ```
//!
//! Unicode data comes from ICU4X (full case folding, General_Category, White_Space) and
//! `unicode-normalization` (NFC).

use std::collections::BTreeSet;

use icu_casemap::CaseMapper;
use icu_properties::props::{GeneralCategory, GeneralCategoryGroup, WhiteSpace};
use icu_properties::{CodePointMapData, CodePointSetData};
use unicode_normalization::UnicodeNormalization;

/// The stop words of the profile (ACA Level 2), sorted.
pub const STOP_WORDS: &[&str] = &[
    "about", "after", "all", "also", "and", "any", "are", "because", "been", "before", "being",
    "between", "both", "but", "can", "could", "did", "does", "during", "each", "for", "from",
    "get", "had", "has", "have", "her", "here", "him", "his", "how", "into", "its", "itself",
    "just", "let", "may", "might", "more", "most", "must", "new", "nor", "not", "now", "old",
    "one", "only", "other", "our", "ours", "out", "over", "own", "per", "same", "say", "see",
    "shall", "she", "should", "some", "such", "than", "that", "the", "their", "theirs", "them",
    "then", "there", "these", "they", "this", "those", "through", "too", "two", "under", "upon",
    "use", "very", "via", "was", "were", "what", "when", "where", "which", "while", "who", "whom",
    "whose", "why", "will", "with", "would", "yet", "you", "your", "yours",
];

/// A judge's verdict on one claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    Supported,
    /// Not supported; the reason is shown in the incident message.
    Unsupported {
        reason: String,
    },
}

/// Decides whether a claim's text is supported by its excerpts (ACA-L2-018). Implementations
/// must be deterministic for conformance runs and must never panic; findings are reported under
/// `aca-claim-unsupported` whatever the judge.
pub trait SupportJudge: Send + Sync {
    /// A short name shown in reports.
    fn name(&self) -> &str;
    /// The verdict for `claim` given every excerpt of its sources.
    fn judge(&self, claim: &str, excerpts: &[&str]) -> Judgement;
}

/// The profile's lexical check (the default judge).
#[derive(Debug, Clone, Copy, Default)]
pub struct LexicalJudge;

impl SupportJudge for LexicalJudge {
    fn name(&self) -> &str {
        "citeproof lexical check (profile ACA-L2-018)"
    }

    fn judge(&self, claim: &str, excerpts: &[&str]) -> Judgement {
        let n_claim = normalize(claim);
        let n_excerpts: Vec<String> = excerpts.iter().map(|e| normalize(e)).collect();
        if n_excerpts.iter().any(|e| e.contains(&n_claim)) {
            return Judgement::Supported;
        }
        let tokens: BTreeSet<String> = n_excerpts.iter().flat_map(|e| tokens(e)).collect();
        let missing: Vec<String> = content_words(&n_claim)
            .into_iter()
            .filter(|w| !tokens.contains(w))
            .collect();
        if missing.is_empty() {
            Judgement::Supported
        } else {
            Judgement::Unsupported {
                reason: format!(
                    "the claim is not a substring of any excerpt and these content words occur in none: {}",
                    missing.join(", ")
                ),
            }
        }
    }
}

/// `N(s)` of the profile.
pub fn normalize(s: &str) -> String {
    let nfc: String = s.nfc().collect();
    let folded = CaseMapper::new().fold_string(&nfc).into_owned();
    let nfc2: String = folded.nfc().collect();
    collapse(&nfc2)
}

fn collapse(s: &str) -> String {
    let ws = CodePointSetData::new::<WhiteSpace>();
    let mut out = String::with_capacity(s.len());
    let mut in_space = false;
    for c in s.chars() {
        if ws.contains(c) {
            in_space = true;
        } else {
            if in_space && !out.is_empty() {
                out.push(' ');
            }
            in_space = false;
            out.push(c);
        }
    }
    out
}

fn is_word_char(gc: GeneralCategory) -> bool {
    GeneralCategoryGroup::Letter.contains(gc)
        || GeneralCategoryGroup::Mark.contains(gc)
        || GeneralCategoryGroup::Number.contains(gc)
}

/// Tokens of an already normalized string.
pub fn tokens(s: &str) -> Vec<String> {
    let gc = CodePointMapData::<GeneralCategory>::new();
    let mut out = Vec::new();
    let mut current = String::new();
    for c in s.chars() {
        if is_word_char(gc.get(c)) {
            current.push(c);
        } else if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// Content words of an already normalized string, in order, without repeats.
pub fn content_words(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in tokens(s) {
        if t.chars().count() >= 3
            && STOP_WORDS.binary_search(&t.as_str()).is_err()
            && !out.contains(&t)
        {
            out.push(t);
        }
    }
    out
}

/// ACA-L2-019: does `excerpt` contain at least one content word of `claim` as a token?
/// `None` when the claim has no content word (the check is skipped).
pub fn is_relevant(claim: &str, excerpt: &str) -> Option<bool> {
    let words = content_words(&normalize(claim));
    if words.is_empty() {
        return None;
    }
    let toks: BTreeSet<String> = tokens(&normalize(excerpt)).into_iter().collect();
    Some(words.iter().any(|w| toks.contains(w)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_sorted() {
        let mut sorted = STOP_WORDS.to_vec();
        sorted.sort_unstable();
        assert_eq!(sorted, STOP_WORDS);
    }

    #[test]
    fn normalization() {
        // Full case folding: ß -> ss; final sigma folds to sigma; NFC composes e + U+0301.
        assert_eq!(
            normalize("  Straße\u{2003}ΣΟΦΟΣ\n\tCafe\u{301} "),
            "strasse σοφοσ café"
        );
        assert_eq!(tokens("a-b c3po, x_y"), ["a", "b", "c3po", "x", "y"]);
        assert_eq!(
            content_words("the programmatic geo templates emit at most one page"),
            ["programmatic", "geo", "templates", "emit", "page"]
        );
    }

    #[test]
    fn lexical_judge() {
        let j = LexicalJudge;
        assert_eq!(
            j.judge(
                "Templates EMIT one question.",
                &["templates emit one question. more"]
            ),
            Judgement::Supported
        );
        assert_eq!(
            j.judge(
                "Programmatic pages emit templates",
                &["emit", "programmatic templates, pages"]
            ),
            Judgement::Supported
        );
        assert!(matches!(
            j.judge(
                "Programmatic pages emit templates",
                &["programmatic templates"]
            ),
            Judgement::Unsupported { .. }
        ));
        assert_eq!(is_relevant("the and", "x"), None);
        assert_eq!(is_relevant("geo pages", "GEO"), Some(true));
        assert_eq!(is_relevant("geo pages", "other"), Some(false));
    }
}

//! The support check of ACA-L2-018, the excerpt cap of ACA-L2-020 and the relevance check of
//! ACA-L2-019, behind a trait so that a stronger judge can be added.
//!
//! The reference judge is the profile's deterministic lexical rule ("ACA Level 2", support
//! check). Every claim is checked against each of its excerpts on its own; it is supported when
//! one excerpt e satisfies all of:
//!
//! ```text
//! negation parity : neg(N(claim)) ≡ neg(N(e))  (mod 2)
//! numbers         : numbers(claim) ⊆ numbers(e)          (digits and number words, by value)
//! quantifiers     : quantifiers(claim) ⊆ tokens(e)       ("more", "less", "only", "all", ...)
//! content         : N(claim) is a substring of N(e), or at least 80 % (rounded up) of the
//!                   claim's content-word stems are stems of e
//! ```
//!
//! Unicode data comes from ICU4X (full case folding, General_Category, White_Space) and
//! `unicode-normalization` (NFC); ASCII text takes a fast path with the same result.

mod analysis;

pub use analysis::{Analyzed, digit_numbers, stem};

use citeproof_model::{Incident, IncidentCode, Location};

/// The stop words of the profile (ACA Level 2), sorted. Negations, quantifiers and number words
/// are not stop words: each has its own rule.
pub const STOP_WORDS: &[&str] = &[
    "about", "after", "also", "and", "are", "because", "been", "before", "being", "between",
    "both", "but", "can", "could", "did", "does", "during", "for", "from", "get", "had", "has",
    "have", "her", "here", "him", "his", "how", "into", "its", "itself", "just", "let", "may",
    "might", "must", "new", "now", "old", "other", "our", "ours", "out", "over", "own", "per",
    "same", "say", "see", "shall", "she", "should", "such", "than", "that", "the", "their",
    "theirs", "them", "then", "there", "these", "they", "this", "those", "through", "too", "under",
    "upon", "use", "very", "via", "was", "were", "what", "when", "where", "which", "while", "who",
    "whom", "whose", "why", "will", "with", "would", "yet", "you", "your", "yours",
];

/// Negation markers (sorted). Each occurrence counts once; so does each `n't` / `n’t`.
pub const NEGATIONS: &[&str] = &[
    "cannot", "neither", "never", "no", "nobody", "none", "nor", "not", "nothing", "nowhere",
    "without",
];

/// Quantifier and comparison words (sorted): each one in a claim must be a token of the excerpt.
pub const QUANTIFIERS: &[&str] = &[
    "all",
    "always",
    "any",
    "each",
    "every",
    "few",
    "fewer",
    "fewest",
    "greater",
    "higher",
    "least",
    "less",
    "lower",
    "many",
    "more",
    "most",
    "often",
    "only",
    "rarely",
    "seldom",
    "several",
    "some",
    "sometimes",
    "usually",
];

/// Number words and their values (sorted by word).
pub const NUMBER_WORDS: &[(&str, u64)] = &[
    ("billion", 1_000_000_000),
    ("dozen", 12),
    ("eight", 8),
    ("eighteen", 18),
    ("eighty", 80),
    ("eleven", 11),
    ("fifteen", 15),
    ("fifty", 50),
    ("five", 5),
    ("forty", 40),
    ("four", 4),
    ("fourteen", 14),
    ("hundred", 100),
    ("million", 1_000_000),
    ("nine", 9),
    ("nineteen", 19),
    ("ninety", 90),
    ("once", 1),
    ("one", 1),
    ("seven", 7),
    ("seventeen", 17),
    ("seventy", 70),
    ("single", 1),
    ("six", 6),
    ("sixteen", 16),
    ("sixty", 60),
    ("ten", 10),
    ("thirteen", 13),
    ("thirty", 30),
    ("thousand", 1_000),
    ("three", 3),
    ("trillion", 1_000_000_000_000),
    ("twelve", 12),
    ("twenty", 20),
    ("twice", 2),
    ("two", 2),
    ("zero", 0),
];

/// Share of a claim's content-word stems that one excerpt must contain (paraphrase tolerance):
/// `ceil(k * 4 / 5)` of `k`.
pub(crate) const CONTENT_NUMERATOR: usize = 4;
pub(crate) const CONTENT_DENOMINATOR: usize = 5;

/// ACA-L2-020: an excerpt may hold at most `max(4 × |N(claim)|, 400)` scalar values.
pub const EXCERPT_CAP_FACTOR: usize = 4;
pub const EXCERPT_CAP_FLOOR: usize = 400;

/// A judge's verdict on one claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    Supported,
    /// Not supported; the reason is shown in the incident message.
    Unsupported {
        reason: String,
    },
    /// No verdict (an external judge crashed, timed out or answered malformed).
    Failed {
        reason: String,
    },
}

/// Decides whether a claim's text is supported by its excerpts. Must never panic. The
/// verifier's rule (the one that decides ACA Level 2) is deterministic; an additional judge
/// can only add findings (`aca-judge-unsupported`), never remove one.
pub trait SupportJudge: Send + Sync {
    /// A short name shown in reports.
    fn name(&self) -> &str;
    /// The verdict for `claim` given every usable excerpt of its sources.
    fn judge(&self, claim: &str, excerpts: &[&str]) -> Judgement;
    /// [`judge`](Self::judge) on texts the verifier has already analyzed: the lexical rule
    /// uses the analysis instead of repeating it; other judges need not override this.
    fn judge_analyzed(&self, claim: &Analyzed<'_>, excerpts: &[&Analyzed<'_>]) -> Judgement {
        let texts: Vec<&str> = excerpts.iter().map(|e| e.text()).collect();
        self.judge(claim.text(), &texts)
    }
}

/// The profile's lexical rule (the default judge).
#[derive(Debug, Clone, Copy, Default)]
pub struct LexicalJudge;

impl SupportJudge for LexicalJudge {
    fn name(&self) -> &str {
        "citeproof lexical rule (profile ACA-L2-018)"
    }

    fn judge(&self, claim: &str, excerpts: &[&str]) -> Judgement {
        let analyzed: Vec<Analyzed<'_>> = excerpts.iter().map(|e| Analyzed::new(e)).collect();
        let refs: Vec<&Analyzed<'_>> = analyzed.iter().collect();
        self.judge_analyzed(&Analyzed::new(claim), &refs)
    }

    fn judge_analyzed(&self, claim: &Analyzed<'_>, excerpts: &[&Analyzed<'_>]) -> Judgement {
        let mut reasons = Vec::new();
        for e in excerpts {
            match claim.supported_by(e) {
                Ok(()) => return Judgement::Supported,
                Err(why) => reasons.push(why),
            }
        }
        Judgement::Unsupported {
            reason: if reasons.is_empty() {
                "no excerpt to check the claim against".into()
            } else {
                format!(
                    "no single excerpt supports the claim: {}",
                    reasons.join("; ")
                )
            },
        }
    }
}

/// One excerpt of a claim, with where its findings are reported.
#[derive(Debug, Clone)]
pub struct ExcerptRef<'a> {
    pub text: &'a str,
    /// The cited source, for messages.
    pub source_url: &'a str,
    pub location: Location,
}

/// The findings of ACA-L2-018 to ACA-L2-020 for one claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assessment {
    pub incidents: Vec<Incident>,
    /// `Some(verdict)` when the rule ran (it is skipped when every excerpt broke the cap).
    pub supported: Option<bool>,
}

/// The excerpt cap, relevance, the verifier's `judge` and every additional judge, for a claim
/// (analyzed by the caller, who may have normalized it for another check already) whose every
/// source yielded an excerpt. Each text is analyzed once; an excerpt over the cap is only
/// normalized. Additional judges can only add findings.
pub fn assess(
    claim: &Analyzed<'_>,
    excerpts: &[ExcerptRef<'_>],
    claim_location: &Location,
    judge: &dyn SupportJudge,
    additional: &[&dyn SupportJudge],
) -> Assessment {
    let cap = excerpt_cap(claim.len());
    let mut incidents = Vec::new();
    let mut usable: Vec<Analyzed<'_>> = Vec::with_capacity(excerpts.len());
    for e in excerpts {
        let normalized = normalize(e.text);
        let url = e.source_url;
        let chars = normalized.chars().count();
        if chars > cap {
            incidents.push(Incident::new(
                IncidentCode::AcaExcerptTooLong,
                format!(
                    "the excerpt of `{url}` has {chars} characters after normalization; a claim of {} may cite at most {cap} (ACA-L2-020)",
                    claim.len()
                ),
                e.location.clone(),
            ));
            continue;
        }
        let analyzed = Analyzed::from_normalized(e.text, normalized);
        if analyzed.shares_content_with(claim) == Some(false) {
            incidents.push(Incident::new(
                IncidentCode::AcaSourceIrrelevant,
                format!("the excerpt of `{url}` shares no content word with the claim"),
                e.location.clone(),
            ));
        }
        usable.push(analyzed);
    }
    if usable.is_empty() && !excerpts.is_empty() {
        // Every excerpt broke the cap: Level 2 has already failed (reporting rule 3).
        return Assessment {
            incidents,
            supported: None,
        };
    }
    let usable: Vec<&Analyzed<'_>> = usable.iter().collect();
    let mut supported = true;
    let verdicts = std::iter::once((judge, true)).chain(additional.iter().map(|j| (*j, false)));
    for (j, is_rule) in verdicts {
        let (code, reason) = match j.judge_analyzed(claim, &usable) {
            Judgement::Supported => continue,
            Judgement::Unsupported { reason } if is_rule => {
                (IncidentCode::AcaClaimUnsupported, reason)
            }
            Judgement::Unsupported { reason } => (
                IncidentCode::AcaJudgeUnsupported,
                format!("{}: {reason}", j.name()),
            ),
            Judgement::Failed { reason } => (
                IncidentCode::AcaJudgeFailed,
                format!("{}: {reason}", j.name()),
            ),
        };
        supported = false;
        incidents.push(Incident::new(code, reason, claim_location.clone()));
    }
    Assessment {
        incidents,
        supported: Some(supported),
    }
}

/// ACA-L2-020: the largest excerpt (in scalar values of `N`) allowed for a claim of
/// `claim_len` scalar values.
pub fn excerpt_cap(claim_len: usize) -> usize {
    claim_len
        .saturating_mul(EXCERPT_CAP_FACTOR)
        .max(EXCERPT_CAP_FLOOR)
}

pub use citeproof_text::normalize;

/// Tokens of an already normalized string: maximal runs of L*, M* and N* characters.
pub fn tokens(s: &str) -> Vec<String> {
    citeproof_text::split_tokens(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_lists_are_sorted_and_disjoint() {
        for list in [STOP_WORDS, NEGATIONS, QUANTIFIERS] {
            let mut sorted = list.to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, list);
        }
        let words: Vec<&str> = NUMBER_WORDS.iter().map(|(w, _)| *w).collect();
        let mut sorted = words.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, words);
        for w in NEGATIONS.iter().chain(QUANTIFIERS).chain(&words) {
            assert!(STOP_WORDS.binary_search(w).is_err(), "{w}");
        }
    }

    #[test]
    fn numbers_and_stems() {
        // Hand derivations from the rule in the module docs.
        assert_eq!(
            digit_numbers("1,000 and 3.50, 007, c3po, 1,00"),
            ["1000", "3.5", "7", "1", "0"]
        );
        assert_eq!(stem("templates"), "template");
        assert_eq!(stem("emits"), "emit");
        assert_eq!(stem("revisited"), "revisit");
        assert_eq!(stem("revisiting"), "revisit");
        assert_eq!(stem("process"), "process");
        assert_eq!(stem("gas"), "gas");
        assert_eq!(excerpt_cap(10), 400);
        assert_eq!(excerpt_cap(150), 600);
    }

    /// The review's cases (profile-review.md, F1 and its appendix): attacks that must fail and
    /// paraphrases that must pass.
    #[test]
    fn the_reviews_attacks_fail_and_its_paraphrases_pass() {
        let j = LexicalJudge;
        let geo = "Programmatic GEO templates emit at most one canonical question per page.";
        let crawl = "AI crawlers revisit pages with stable canonical URLs more often.";
        let supported = |claim: &str, e: &str| j.judge(claim, &[e]) == Judgement::Supported;
        assert!(supported(geo, geo));
        assert!(supported(
            "Programmatic GEO templates emit a single canonical question per page.",
            geo
        ));
        assert!(supported(
            "Programmatic GEO templates produce at most one canonical question per page.",
            geo
        ));
        assert!(!supported(
            "AI crawlers do not revisit stable canonical URLs more often.",
            crawl
        ));
        assert!(!supported(
            "AI crawlers don't revisit stable canonical URLs more often.",
            crawl
        ));
        assert!(!supported(
            "Programmatic GEO templates emit at most 9 canonical question per page.",
            geo
        ));
        assert!(!supported(
            "Programmatic GEO templates must not emit one canonical question per page.",
            geo
        ));
        assert!(!supported(
            "AI crawlers revisit pages with stable canonical URLs less often.",
            crawl
        ));
        // Content from two excerpts is not combined.
        assert!(matches!(
            j.judge(
                "Programmatic crawlers revisit canonical templates",
                &["programmatic templates", "crawlers revisit canonical"]
            ),
            Judgement::Unsupported { .. }
        ));
    }

    /// "Cite the whole page": an excerpt of 200 000 distinct words is over the cap and is only
    /// normalized, never analyzed word by word (the analysis of such a text used to keep its
    /// content words distinct by a linear search each: quadratic, hours for a 10 MiB page).
    #[test]
    fn a_whole_page_excerpt_is_refused_by_its_length() {
        let page: String = (0..200_000).map(|i| format!("w{i:x}q ")).collect();
        let refs = [ExcerptRef {
            text: &page,
            source_url: "https://s.example/page",
            location: Location::default(),
        }];
        let got = assess(
            &Analyzed::new("the page says w1q"),
            &refs,
            &Location::default(),
            &LexicalJudge,
            &[],
        );
        assert_eq!(got.supported, None);
        assert_eq!(
            got.incidents.iter().map(|i| i.code).collect::<Vec<_>>(),
            [IncidentCode::AcaExcerptTooLong]
        );
        // Analyzed on its own (the judge of an excerpt under the cap) is O(k log k) too.
        let a = Analyzed::new(&page);
        assert_eq!(a.content_stem_count(), 200_000);
    }

    #[test]
    fn relevance() {
        let c = Analyzed::new("geo pages");
        assert_eq!(Analyzed::new("GEO").shares_content_with(&c), Some(true));
        assert_eq!(Analyzed::new("other").shares_content_with(&c), Some(false));
        assert_eq!(
            Analyzed::new("x").shares_content_with(&Analyzed::new("the and")),
            None
        );
    }
}

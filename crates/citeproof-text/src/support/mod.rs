//! The deterministic support rule of the profile (ACA-L2-018, the excerpt cap of ACA-L2-020,
//! the relevance check of ACA-L2-019), behind a trait so that a stronger judge can be added. It
//! is pure text analysis: the specs that use it (ACA, archive) turn its verdicts into their own
//! incidents.
//!
//! The reference judge is the profile's deterministic lexical rule ("ACA Level 2", support
//! check). A text is cut into sentences ([`sentences`]: NFKC, default ignorable code points
//! removed, case folded); a claim of m sentences is supported when one excerpt e has a run of
//! m consecutive sentences that supports the claim's sentences in order, each sentence x by
//! its sentence y satisfying all of:
//!
//! ```text
//! negation parity : neg(x) ≡ neg(y)  (mod 2)
//! numbers         : numbers(x) ⊆ numbers(y)        (digits of any script and number words)
//! quantifiers     : quantifiers(x) ⊆ quantifiers(y) ("more", "less", "only", "all", ...)
//! content         : x is a substring of y, or every strict word of x (one written outside
//!                   ASCII) is in y and at least 80 % (rounded up) of x's content-word stems
//!                   are stems of y
//! ```
//!
//! Words of the lists are recognised by their UTS #39 skeleton ("rnore" is "more"); a word
//! with a character outside ASCII is in no list and must be in the sentence as written.
//! A neighbouring sentence of the excerpt never takes part: the agent chooses the offsets, so
//! a "not" next door must neither negate a claim nor make an honest quote fail.
//!
//! Unicode data comes from ICU4X (full case folding, General_Category, White_Space,
//! Default_Ignorable_Code_Point) and `unicode-normalization` (NFC, NFKC); ASCII text takes a
//! fast path with the same result.

mod analysis;
pub mod sentences;

pub use analysis::{Analyzed, ascii_skeleton, digit_numbers, stem};
pub use sentences::sentences;

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
pub const CONTENT_NUMERATOR: usize = 4;
pub const CONTENT_DENOMINATOR: usize = 5;

/// The lines of UTS #39 confusables.txt whose source is a lowercase ASCII letter or an ASCII
/// digit (all an ASCII token holds after case folding): `0 → O`, `1 → l`, `m → rn`.
pub const ASCII_CONFUSABLES: &[(u8, &str)] = &[(b'0', "O"), (b'1', "l"), (b'm', "rn")];

/// ACA-L2-018: a claim of more sentences is unsupported (it is not an individual claim, and
/// comparing it sentence by sentence would cost its length times its excerpt's).
pub const MAX_CLAIM_SENTENCES: usize = 16;

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
        Judgement::by_any_excerpt(excerpts, |e| claim.supported_by(e))
    }
}

impl Judgement {
    /// The rule's shape: supported when one excerpt on its own supports the claim (`check`
    /// answers `Ok`), else unsupported with every excerpt's reason, in order.
    pub fn by_any_excerpt<E>(
        excerpts: impl IntoIterator<Item = E>,
        mut check: impl FnMut(E) -> Result<(), String>,
    ) -> Judgement {
        let mut reasons = Vec::new();
        for e in excerpts {
            match check(e) {
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

/// ACA-L2-020: the largest excerpt (in scalar values of `N`) allowed for a claim of
/// `claim_len` scalar values.
pub fn excerpt_cap(claim_len: usize) -> usize {
    claim_len
        .saturating_mul(EXCERPT_CAP_FACTOR)
        .max(EXCERPT_CAP_FLOOR)
}

pub use crate::normalize;

/// Tokens of an already normalized string: maximal runs of L*, M* and N* characters.
pub fn tokens(s: &str) -> Vec<String> {
    crate::split_tokens(s)
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
        assert!(analysis::skeletons_are_distinct());
    }

    /// The ASCII lines of confusables.txt are the skeleton of a well-kept UTS #39
    /// implementation (unicode-security, as rustc uses it), for every character an ASCII token
    /// can hold after case folding.
    #[test]
    fn ascii_skeleton_is_the_uts39_skeleton() {
        for c in ('a'..='z').chain('0'..='9') {
            let s = c.to_string();
            let want: String = unicode_security::confusable_detection::skeleton(&s).collect();
            assert_eq!(ascii_skeleton(&s), want, "{c:?}");
        }
        assert_eq!(ascii_skeleton("rnore"), ascii_skeleton("more"));
        assert_eq!(ascii_skeleton("on1y"), "only");
        assert_eq!(ascii_skeleton("n0"), "nO");
    }

    #[test]
    fn numbers_and_stems() {
        // Hand derivations from the rule in the module docs.
        assert_eq!(
            digit_numbers("1,000 and 3.50, 007, c3po, 1,00"),
            ["1000", "3.5", "7", "1", "0"]
        );
        // Digits of any script by value; a run glued to a letter of any script is no number.
        assert_eq!(
            digit_numbers(
                "\u{661}\u{662} and \u{ff13}, \u{967},\u{966}\u{966}\u{966} x\u{663} \u{3b1}4"
            ),
            ["12", "3", "1000"]
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

    /// The excerpts of the review's cases.
    const GEO: &str = "Programmatic GEO templates emit at most one canonical question per page.";
    const CRAWL: &str = "AI crawlers revisit pages with stable canonical URLs more often.";

    /// Whether the lexical judge finds `claim` supported by the one excerpt `e`.
    fn supported(claim: &str, e: &str) -> bool {
        LexicalJudge.judge(claim, &[e]) == Judgement::Supported
    }

    /// The review's cases (profile-review.md, F1 and its appendix): attacks that must fail and
    /// paraphrases that must pass.
    #[test]
    fn the_reviews_attacks_fail_and_its_paraphrases_pass() {
        let (geo, crawl) = (GEO, CRAWL);
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
            LexicalJudge.judge(
                "Programmatic crawlers revisit canonical templates",
                &["programmatic templates", "crawlers revisit canonical"]
            ),
            Judgement::Unsupported { .. }
        ));
    }

    /// Review 3, N4: a negation in a neighbouring sentence of the excerpt neither supports a
    /// negated claim nor defeats an honest quote; dragging the neighbour in with one of its
    /// words does not help either (the comparison is sentence by sentence).
    #[test]
    fn negation_is_judged_on_the_matching_sentence() {
        let crawl = "AI crawlers revisit pages with stable canonical URLs more often. That is not surprising.";
        assert!(!supported(
            "AI crawlers do not revisit stable canonical URLs more often.",
            crawl
        ));
        assert!(!supported(
            "AI crawlers do not revisit stable canonical URLs more often, surprising.",
            crawl
        ));
        assert!(supported(
            "AI crawlers revisit pages with stable canonical URLs more often.",
            crawl
        ));
        let geo = GEO;
        assert!(!supported(
            "Programmatic GEO templates must not emit one canonical question per page.",
            &format!("{geo} They never emit FAQ blocks.")
        ));
        assert!(supported(
            geo,
            &format!("{geo} They do not emit FAQ blocks.")
        ));
        // A negation earlier in the same sentence still counts, even for a verbatim fragment.
        assert!(!supported(
            "AI crawlers revisit pages more often.",
            "No AI crawlers revisit pages more often."
        ));
        // A negation moved from one sentence of the claim to the other, or split off into a
        // sentence of its own that an unrelated negative sentence would support.
        assert!(!supported(
            "AI crawlers do not revisit stable canonical URLs more often. That is surprising.",
            crawl
        ));
        assert!(!supported(
            "AI crawlers do not. Revisit pages more often.",
            "AI crawlers revisit pages more often. Crawlers are not slow."
        ));
        assert!(supported(crawl, crawl));
    }

    /// Numbers by value in every script, compatibility forms and confusable spellings of the
    /// listed words (hand derivations: NFKC maps U+FF12 to "2"; U+0662 ARABIC-INDIC DIGIT TWO
    /// is 2; "tw" + U+043E CYRILLIC SMALL LETTER O is a strict word, absent from the excerpt;
    /// U+00AD and U+200B are default ignorable; "rnore" has the skeleton of "more").
    #[test]
    fn no_script_or_spelling_hides_a_word_of_the_lists() {
        let (geo, crawl) = (GEO, CRAWL);
        for claim in [
            "Programmatic GEO templates emit at most \u{ff12} canonical questions per page.",
            "Programmatic GEO templates emit at most \u{662} canonical questions per page.",
            "Programmatic GEO templates emit at most tw\u{43e} canonical questions per page.",
            "Programmatic GEO templates emit at most TW\u{41e} canonical questions per page.",
            "Programmatic GEO templates must n\u{1d428}t emit one canonical question per page.",
            "Programmatic GEO templates must no\u{ad}t emit one canonical question per page.",
            "Programmatic GEO templates must n\u{200b}ot emit one canonical question per page.",
            "Programmatic GEO templates emit one canonical question on \u{435}\u{430}\u{441}\u{4bb} page.",
            "Programmatic GEO templates emit on1y one canonical question per page.",
            "Programmatic GEO templates must \u{202e}ton\u{202c} emit one canonical question per page.",
        ] {
            assert!(!supported(claim, geo), "{claim}");
        }
        assert!(supported(
            "Programmatic GEO templates emit at most \u{661} canonical question per page.",
            geo
        ));
        assert!(supported(
            "Programmatic GEO templates emit at most \u{ff11} canonical question per page.",
            geo
        ));
        assert!(supported(
            "AI crawlers revisit pages with stable canonical URLs rnore often.",
            crawl
        ));
        assert!(!supported(
            "AI crawlers revisit pages with stable canonical URLs rnore often.",
            &crawl.replace("more", "less")
        ));
    }

    /// A claim of more than sixteen sentences is not compared.
    #[test]
    fn a_claim_of_seventeen_sentences_is_unsupported() {
        let claim: String = (0..17)
            .map(|i| format!("Sentence number{i} holds words. "))
            .collect();
        assert!(matches!(
            LexicalJudge.judge(&claim, &[&claim]),
            Judgement::Unsupported { reason } if reason.contains("17 sentences")
        ));
        let claim: String = (0..16)
            .map(|i| format!("Sentence number{i} holds words. "))
            .collect();
        assert_eq!(LexicalJudge.judge(&claim, &[&claim]), Judgement::Supported);
    }

    /// The analysis of a page of 200 000 distinct words is O(k log k), not quadratic (its
    /// content words used to be kept distinct by a linear search each: hours for 10 MiB).
    #[test]
    fn a_large_text_is_analyzed_in_k_log_k() {
        let page: String = (0..200_000).map(|i| format!("w{i:x}q ")).collect();
        assert_eq!(Analyzed::new(&page).content_stem_count(), 200_000);
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

//! ARCHIVE-032: each counted text citation of a delivered claim is verified by its relation,
//! with the deterministic support rule of `citeproof_text::support` (one definition with ACA):
//! a paraphrase or metadata fact must support the claim, an inference must be relevant to it,
//! and neither may cite more than a passage. A direct quote is verbatim (ARCHIVE-006), and the
//! words around it must not deny it.

use citeproof_model::archive::Relation;
use citeproof_text::support::{
    Analyzed, Judgement, LexicalJudge, NEGATIONS, SupportJudge, excerpt_cap,
};
use citeproof_text::{normalize, split_tokens};
use unicode_normalization::UnicodeNormalization;

/// Negation markers of the support rule in `text`: each token of `N(text)` in [`NEGATIONS`],
/// and each `n't` or `n’t`.
fn negation_markers(text: &str) -> usize {
    let n = normalize(text);
    let words = split_tokens(&n)
        .iter()
        .filter(|t| NEGATIONS.binary_search(&t.as_str()).is_ok())
        .count();
    words + n.matches("n't").count() + n.matches("n\u{2019}t").count()
}

/// Whether the frame of a direct quote denies it: the NFC claim without its quoted span texts
/// (each replaced by a space, first occurrence, in citation order) holds an odd number of
/// negation markers ("she never wrote: ...").
pub fn frame_negated(claim: &str, quotes: &[&str]) -> bool {
    let mut frame: String = claim.nfc().collect();
    for q in quotes {
        frame = frame.replacen(q, " ", 1);
    }
    negation_markers(&frame) % 2 == 1
}

/// Why the relation of a citation whose span text is `span` does not hold for `claim`, or
/// `None` when it holds.
pub fn relation_problem(relation: Relation, claim: &str, span: &str) -> Option<String> {
    if relation == Relation::DirectQuote {
        return None;
    }
    let c = Analyzed::new(claim);
    let e = Analyzed::new(span);
    let cap = excerpt_cap(c.len());
    if e.len() > cap {
        return Some(format!(
            "the span has {} characters; a passage for this claim has at most {cap}",
            e.len()
        ));
    }
    match relation {
        Relation::Paraphrase | Relation::MetadataFact => match LexicalJudge.judge(claim, &[span]) {
            Judgement::Supported => None,
            Judgement::Unsupported { reason } | Judgement::Failed { reason } => Some(reason),
        },
        Relation::InferenceFrom => match e.shares_content_with(&c) {
            Some(true) => None,
            _ => Some("the span shares no content word with the claim".into()),
        },
        Relation::DirectQuote => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Hand derivations from the support rule (docs/PROFILE.md, ACA-L2-018/019/020).
    #[test]
    fn the_reviews_claims() {
        let desks = "I moved the desks into a half circle";
        let ok = |r, c| relation_problem(r, c, desks).is_none();
        assert!(ok(
            Relation::Paraphrase,
            "She had her desks in a half circle."
        ));
        // One negation in the claim, none in the span.
        assert!(!ok(
            Relation::Paraphrase,
            "She never arranged her desks in a half circle."
        ));
        // "all" is no token of the span; voted, labour, life are no stems of it.
        assert!(!ok(
            Relation::MetadataFact,
            "She voted Labour all her life."
        ));
        assert!(ok(
            Relation::InferenceFrom,
            "Her desks probably mattered to her."
        ));
        assert!(!ok(Relation::InferenceFrom, "She probably voted Labour."));
        assert!(ok(Relation::DirectQuote, "anything: ARCHIVE-006 decides"));
    }

    #[test]
    fn a_denied_quote() {
        let q = "The headmaster did not like it.";
        assert!(frame_negated(&format!("She never wrote: \"{q}\""), &[q]));
        assert!(!frame_negated(&format!("She wrote: \"{q}\""), &[q]));
        assert!(!frame_negated(
            &format!("She wrote, not without pride: \"{q}\""),
            &[q]
        ));
        assert!(frame_negated(&format!("She didn't write: \"{q}\""), &[q]));
        // Two quotes: the negation inside the second is not part of the first one's frame.
        assert!(!frame_negated(
            &format!("She wrote \"{q}\" and \"yes\""),
            &[q, "yes"]
        ));
    }

    #[test]
    fn a_whole_page_is_not_a_passage() {
        // 401 scalar values of N against a claim of 20: the cap is max(4 x 20, 400) = 400.
        let page = format!("desks {}", "x".repeat(395));
        assert_eq!(page.chars().count(), 401);
        assert!(relation_problem(Relation::InferenceFrom, "Her desks mattered.", &page).is_some());
        assert!(
            relation_problem(Relation::InferenceFrom, "Her desks mattered.", &page[..400])
                .is_none()
        );
    }
}

//! The support check of ACA-L2-018 to ACA-L2-020 for one claim: the excerpt cap, relevance,
//! the verifier's judge and every additional judge, as ACA incidents. The rule itself (word
//! lists, analysis, [`LexicalJudge`]) is `citeproof_text::support`, shared with the archive
//! spec.

pub use citeproof_text::support::{
    Analyzed, Judgement, LexicalJudge, SupportJudge, digit_numbers, excerpt_cap, normalize, stem,
    tokens,
};

use citeproof_model::{Incident, IncidentCode, Location};

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
    // `None`: the excerpt is the claim's own text (a verbatim quote), whose analysis is the
    // claim's: the analysis is a function of the text alone, so it is not made twice.
    let mut usable: Vec<Option<Analyzed<'_>>> = Vec::with_capacity(excerpts.len());
    for e in excerpts {
        let normalized = (e.text != claim.text()).then(|| normalize(e.text));
        let url = e.source_url;
        let chars = normalized
            .as_ref()
            .map_or(claim.len(), |n| n.chars().count());
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
        let analyzed = normalized.map(|n| Analyzed::from_normalized(e.text, n));
        if analyzed
            .as_ref()
            .unwrap_or(claim)
            .shares_content_with(claim)
            == Some(false)
        {
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
    let usable: Vec<&Analyzed<'_>> = usable.iter().map(|a| a.as_ref().unwrap_or(claim)).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}

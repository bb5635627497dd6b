//! The display view against its bundle: binding (ARCHIVE-012), correspondence (ARCHIVE-013),
//! handles and labels (ARCHIVE-015), the consent gate (ARCHIVE-016), tier and minimum-span
//! excerpts (ARCHIVE-017) and labeled claims shown with their excerpt when the gates let it
//! through (ARCHIVE-019).

use std::collections::HashMap;

use citeproof_model::archive::{
    ArchiveCitation, Consent, DisplayCitation, DisplayView, Relation, RelationLabel,
    ResponseBundle, Rung,
};
use citeproof_model::{ContentHash, IncidentCode};

use crate::citation::CitationFacts;
use crate::findings::{Findings, pointer};
use crate::text;

/// `Source A` … `Source Z`, `Source AA` …: bijective base 26 of `n` (from 1).
pub fn handle(n: usize) -> String {
    let mut letters = Vec::new();
    let mut n = n;
    while n > 0 {
        let rem = (n - 1) % 26;
        letters.push(char::from(b'A' + rem as u8));
        n = (n - 1) / 26;
    }
    letters.reverse();
    format!("Source {}", letters.into_iter().collect::<String>())
}

/// The bundle citations a display shows for one claim: those not hidden in force, with facts.
pub fn shown<'a>(
    citations: &'a [ArchiveCitation],
    facts: &'a [CitationFacts],
) -> Vec<(&'a ArchiveCitation, &'a CitationFacts)> {
    citations
        .iter()
        .zip(facts)
        .filter(|(_, f)| !f.hidden())
        .collect()
}

/// What the display checks need from the bundle side.
#[derive(Debug)]
pub struct BundleSide<'a> {
    pub bundle: &'a ResponseBundle,
    pub facts: &'a [Vec<CitationFacts>],
    /// Effective excerpt cap of the bundle's tier, when the tier is known.
    pub cap: Option<usize>,
}

/// Runs the correspondence checks. Assumes the display is bound to this bundle.
pub fn check_display(side: &BundleSide<'_>, display: &DisplayView, f: &mut Findings) {
    let bundle = side.bundle;
    check_view_members(bundle, display, f);
    let delivered: Vec<usize> = bundle
        .claims
        .iter()
        .enumerate()
        .filter(|(_, c)| c.rung.is_delivered())
        .map(|(i, _)| i)
        .collect();
    let ids = |v: &mut dyn Iterator<Item = &str>| v.map(str::to_owned).collect::<Vec<_>>();
    let expected_ids = ids(&mut delivered
        .iter()
        .filter_map(|i| bundle.claims.get(*i))
        .map(|c| c.claim_id.as_str()));
    let display_ids = ids(&mut display.claims.iter().map(|c| c.claim_id.as_str()));
    if expected_ids != display_ids {
        f.at(
            IncidentCode::ArchiveDisplayClaimMismatch,
            "/claims",
            format!(
                "the display shows claims {display_ids:?}; the bundle delivers {expected_ids:?}"
            ),
        );
        return;
    }
    let mut handles: HashMap<ContentHash, usize> = HashMap::new();
    let mut handles_checkable = true;
    let mut handle_findings = Findings::new();
    for (k, (dc, bi)) in display.claims.iter().zip(&delivered).enumerate() {
        let at = pointer("/claims", k);
        let (Some(bc), Some(facts)) = (bundle.claims.get(*bi), side.facts.get(*bi)) else {
            continue;
        };
        if dc.text != bc.text
            || dc.rung != bc.rung
            || dc.label != bc.label
            || dc.general_context != bc.general_context
        {
            f.claim(
                IncidentCode::ArchiveDisplayClaimMismatch,
                &dc.claim_id,
                at.clone(),
                "the display claim's text, rung, label or general-context mark differs from the bundle's",
            );
        }
        if dc.rung == Rung::Labeled && dc.label.is_none() {
            f.claim(
                IncidentCode::ArchiveDisplayLabelMissing,
                &dc.claim_id,
                pointer(&at, "label"),
                "a labeled claim is displayed without its label",
            );
        }
        let expected = shown(&bc.citations, facts);
        if dc.citations.len() != expected.len() {
            handles_checkable = false;
            let hidden = facts.iter().any(CitationFacts::hidden);
            let code = if hidden && dc.citations.len() == bc.citations.len() {
                IncidentCode::ArchiveConsentViolated
            } else {
                IncidentCode::ArchiveDisplayClaimMismatch
            };
            f.claim(
                code,
                &dc.claim_id,
                pointer(&at, "citations"),
                format!(
                    "{} display citations for {} citations the gates let through",
                    dc.citations.len(),
                    expected.len()
                ),
            );
            continue;
        }
        for (j, (d, (c, fact))) in dc.citations.iter().zip(&expected).enumerate() {
            let cat = pointer(&pointer(&at, "citations"), j);
            let next = handles.len() + 1;
            let n = *handles.entry(c.artifact_id).or_insert(next);
            if d.handle != handle(n) {
                handle_findings.claim(
                    IncidentCode::ArchiveHandleInvalid,
                    &dc.claim_id,
                    pointer(&cat, "handle"),
                    format!("expected `{}` (first appearance order)", handle(n)),
                );
            }
            check_citation(d, c, fact, side.cap, &dc.claim_id, &cat, f);
        }
        check_labeled_excerpt(dc, &expected, side.cap, &at, f);
    }
    if handles_checkable {
        f.extend(handle_findings.into_vec());
    }
}

/// ARCHIVE-010 and ARCHIVE-013: the members of the view that repeat the bundle's.
fn check_view_members(bundle: &ResponseBundle, display: &DisplayView, f: &mut Findings) {
    if display.tier != bundle.tier {
        f.at(
            IncidentCode::ArchiveDisplayClaimMismatch,
            "/tier",
            format!(
                "the display is for tier `{}`, the bundle for `{}`",
                display.tier, bundle.tier
            ),
        );
    }
    if display.refusal != bundle.refusal {
        f.at(
            IncidentCode::ArchiveDisplayClaimMismatch,
            "/refusal",
            "the display's refusal differs from the bundle's",
        );
    }
    if display.downgrade != bundle.downgrade {
        f.at(
            IncidentCode::ArchiveDisplayClaimMismatch,
            "/downgrade",
            "the display's downgrade differs from the bundle's",
        );
    }
    if display.removed_topics != bundle.removed_topics {
        f.at(
            IncidentCode::ArchiveRemovedTopicsMismatch,
            "/removed_topics",
            "the display's removed topics differ from the bundle's",
        );
    }
}

/// ARCHIVE-019: a labeled claim is shown side by side with an `interpreted from` excerpt
/// whenever consent and tier let one of its inference excerpts through.
fn check_labeled_excerpt(
    dc: &citeproof_model::archive::DisplayClaim,
    expected: &[(&ArchiveCitation, &CitationFacts)],
    cap: Option<usize>,
    at: &str,
    f: &mut Findings,
) {
    let may_show = cap.is_some_and(|cap| cap > 0)
        && expected.iter().any(|(c, x)| {
            c.relation == Relation::InferenceFrom
                && x.consent == Some(Consent::Open)
                && x.span_text.is_some()
        });
    if dc.rung == Rung::Labeled
        && may_show
        && !dc
            .citations
            .iter()
            .any(|d| d.relation_label == RelationLabel::InterpretedFrom && d.excerpt.is_some())
    {
        f.claim(
            IncidentCode::ArchiveLabeledExcerptMissing,
            &dc.claim_id,
            pointer(at, "citations"),
            "a labeled claim whose inference source may be shown is shown side by side with an `interpreted from` excerpt",
        );
    }
}

fn check_citation(
    d: &DisplayCitation,
    c: &ArchiveCitation,
    fact: &CitationFacts,
    cap: Option<usize>,
    claim_id: &str,
    at: &str,
    f: &mut Findings,
) {
    if d.relation_label != RelationLabel::from(c.relation) {
        f.claim(
            IncidentCode::ArchiveRelationLabelMismatch,
            claim_id,
            pointer(at, "relation_label"),
            format!(
                "relation {:?} is labeled `{}`",
                c.relation,
                RelationLabel::from(c.relation).as_str()
            ),
        );
    }
    let auditor_only = fact.consent == Some(Consent::AuditorOnly);
    if fact.consent.is_some() && d.restricted != auditor_only {
        f.claim(
            IncidentCode::ArchiveConsentViolated,
            claim_id,
            pointer(at, "restricted"),
            if auditor_only {
                "the artifact is auditor-only in the snapshot in force: `restricted` must be true"
            } else {
                "only an auditor-only artifact is `restricted`"
            },
        );
    }
    let Some(excerpt) = &d.excerpt else {
        return;
    };
    let eat = pointer(at, "excerpt");
    if auditor_only {
        f.claim(
            IncidentCode::ArchiveConsentViolated,
            claim_id,
            eat,
            "the excerpt of an auditor-only artifact is withheld",
        );
        return;
    }
    if fact.media {
        f.claim(
            IncidentCode::ArchiveExcerptNotInSpan,
            claim_id,
            eat,
            "a media citation has no display excerpt",
        );
        return;
    }
    let Some(span_text) = &fact.span_text else {
        return;
    };
    if excerpt.is_empty() || !span_text.contains(excerpt.as_str()) {
        f.claim(
            IncidentCode::ArchiveExcerptNotInSpan,
            claim_id,
            eat,
            "the excerpt is not a non-empty part of the cited span",
        );
        return;
    }
    if let Some(cap) = cap
        && text::scalar_len(excerpt) > cap
    {
        f.claim(
            IncidentCode::ArchiveExcerptTooLong,
            claim_id,
            eat,
            format!(
                "the excerpt has {} characters; the tier allows {cap}",
                text::scalar_len(excerpt)
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::handle;

    #[test]
    fn handles_are_bijective_base_26() {
        assert_eq!(handle(1), "Source A");
        assert_eq!(handle(26), "Source Z");
        assert_eq!(handle(27), "Source AA");
        assert_eq!(handle(52), "Source AZ");
        assert_eq!(handle(53), "Source BA");
        assert_eq!(handle(702), "Source ZZ");
        assert_eq!(handle(703), "Source AAA");
    }
}

//! The coverage gate as a verifier sees it: claim ids (ARCHIVE-008), rungs never above what the
//! counted citations allow (ARCHIVE-009), relations verified (ARCHIVE-032), removed topics and
//! their reasons (ARCHIVE-010), labels (ARCHIVE-013, bundle side), the tier (ARCHIVE-018), the
//! refusal (ARCHIVE-020), hidden artifacts never revealed by a topic or a label (ARCHIVE-021),
//! shown text within the gates (ARCHIVE-033), general context (ARCHIVE-035) and downgrades
//! (ARCHIVE-036).

use std::collections::HashSet;

use citeproof_model::IncidentCode;
use citeproof_model::archive::{
    ArchiveCitation, BundleClaim, MAX_GENERAL_CONTEXT, Refusal, RefusalReason, Relation,
    RemovedReason, ResponseBundle, Rung,
};

use crate::build::GENERAL_LABEL;
use crate::citation::CitationFacts;
use crate::findings::{Findings, pointer};
use crate::relation::{frame_negated, relation_problem};
use crate::shown::ShownText;
use crate::store::Store;
use crate::text;

/// What the gate allows a claim, from its counted citations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Allowed {
    pub supported: bool,
    pub labeled: bool,
    /// At least one counted citation.
    pub any: bool,
}

impl Allowed {
    pub fn from_facts(
        citations: &[citeproof_model::archive::ArchiveCitation],
        facts: &[CitationFacts],
    ) -> Allowed {
        let mut a = Allowed::default();
        for (c, fact) in citations.iter().zip(facts) {
            if fact.counted() {
                a.any = true;
                if c.relation.is_direct_support() {
                    a.supported = true;
                } else {
                    a.labeled = true;
                }
            }
        }
        a
    }

    /// The removed-topic reason of a withheld claim.
    pub fn removed_reason(&self) -> RemovedReason {
        if self.any {
            RemovedReason::ThinCoverage
        } else {
            RemovedReason::NoCoverage
        }
    }
}

/// Runs the gate checks. `facts[i][j]` is citation j of claim i; `in_force` is the snapshot in
/// force for the bundle (gate checks that need it are skipped without one).
pub fn check_gate(
    bundle: &ResponseBundle,
    facts: &[Vec<CitationFacts>],
    store: &Store,
    in_force: Option<usize>,
    f: &mut Findings,
) {
    let mut ids = HashSet::new();
    for (i, c) in bundle.claims.iter().enumerate() {
        let at = pointer("/claims", i);
        if !ids.insert(c.claim_id.as_str()) {
            f.claim(
                IncidentCode::ArchiveClaimIdDuplicate,
                &c.claim_id,
                pointer(&at, "claim_id"),
                format!("claim id `{}` is used twice", c.claim_id),
            );
        }
        let labeled = c.rung == Rung::Labeled;
        if labeled != c.label.is_some() {
            f.claim(
                IncidentCode::ArchiveDisplayLabelMissing,
                &c.claim_id,
                pointer(&at, "label"),
                if labeled {
                    "a labeled claim needs a non-empty `label`"
                } else {
                    "only a labeled claim has a `label`"
                },
            );
        }
    }
    let delivered_any = bundle.claims.iter().any(|c| c.rung.is_delivered());
    check_refusal(bundle.refusal.as_ref(), bundle, delivered_any, f);
    check_general_context(bundle, f);
    check_downgrade(bundle, f);
    let Some(in_force) = in_force else {
        return;
    };
    let cap = store
        .tier(in_force, &bundle.tier)
        .map(|t| t.excerpt_cap as usize);
    if cap.is_none() {
        f.at(
            IncidentCode::ArchiveTierUnknown,
            "/tier",
            format!(
                "tier `{}` is not defined by the policy in force",
                bundle.tier
            ),
        );
    }
    let mut narrowed = Vec::new();
    for (i, c) in bundle.claims.iter().enumerate() {
        let claim_facts = facts.get(i).map(Vec::as_slice).unwrap_or_default();
        let checkable = claim_facts.iter().all(|x| x.valid);
        let allowed = Allowed::from_facts(&c.citations, claim_facts);
        if c.rung == Rung::Narrowed {
            narrowed.push((i, checkable.then(|| allowed.removed_reason())));
        }
        if !checkable {
            continue;
        }
        let why = match c.rung {
            Rung::Supported if !allowed.supported => Some(
                "`supported` needs a counted direct_quote, paraphrase or metadata_fact citation",
            ),
            Rung::Labeled if !allowed.labeled && !c.general_context => {
                Some("`labeled` needs a counted inference_from citation (or general context)")
            }
            Rung::Narrowed if !delivered_any => {
                Some("`narrowed` needs another delivered claim; with none, the claim is `refused`")
            }
            Rung::Refused if delivered_any => Some(
                "`refused` is for a response that delivers nothing; here the claim is `narrowed`",
            ),
            _ => None,
        };
        if let Some(why) = why {
            f.claim(
                IncidentCode::ArchiveRungMismatch,
                &c.claim_id,
                pointer(&pointer("/claims", i), "rung"),
                why,
            );
        }
        if c.rung.is_delivered() && !c.general_context {
            check_relations(i, c, claim_facts, allowed, f);
        }
    }
    check_removed_topics(bundle, &narrowed, f);
    check_hidden(bundle, store, in_force, f);
    check_shown_text(bundle, store, in_force, cap, f);
}

/// ARCHIVE-032 for a delivered claim whose citations all passed ARCHIVE-002 to ARCHIVE-007.
fn check_relations(
    i: usize,
    c: &BundleClaim,
    facts: &[CitationFacts],
    allowed: Allowed,
    f: &mut Findings,
) {
    let at = pointer("/claims", i);
    let text_citations: Vec<(usize, &ArchiveCitation, &str)> = c
        .citations
        .iter()
        .zip(facts)
        .enumerate()
        .filter(|(_, (_, x))| x.counted())
        .filter_map(|(j, (cit, x))| x.span_text.as_deref().map(|t| (j, cit, t)))
        .collect();
    for (j, cit, span) in &text_citations {
        if let Some(why) = relation_problem(cit.relation, &c.text, span) {
            f.claim(
                IncidentCode::ArchiveClaimUnsupported,
                &c.claim_id,
                pointer(&pointer(&at, "citations"), j),
                format!(
                    "the {} span does not hold for the claim: {why}",
                    relation_name(cit.relation)
                ),
            );
        }
    }
    let quotes: Vec<&str> = text_citations
        .iter()
        .filter(|(_, cit, _)| cit.relation == Relation::DirectQuote)
        .map(|(_, _, t)| *t)
        .collect();
    if !quotes.is_empty() && frame_negated(&c.text, &quotes) {
        f.claim(
            IncidentCode::ArchiveClaimUnsupported,
            &c.claim_id,
            pointer(&at, "text"),
            "the words around the direct quote deny it (an odd number of negation markers outside the quoted text)",
        );
    }
    let has = |inference: bool| {
        text_citations
            .iter()
            .any(|(_, cit, _)| (cit.relation == Relation::InferenceFrom) == inference)
    };
    let missing = match c.rung {
        Rung::Supported if allowed.supported && !has(false) => Some(
            "no counted direct_quote, paraphrase or metadata_fact citation has a text span to check the claim against (a media span carries no text)",
        ),
        Rung::Labeled if allowed.labeled && !has(true) => Some(
            "no counted inference_from citation has a text span to check the claim against (a media span carries no text)",
        ),
        _ => None,
    };
    if let Some(why) = missing {
        f.claim(IncidentCode::ArchiveClaimUnsupported, &c.claim_id, at, why);
    }
}

fn relation_name(r: Relation) -> &'static str {
    match r {
        Relation::DirectQuote => "direct_quote",
        Relation::Paraphrase => "paraphrase",
        Relation::InferenceFrom => "inference_from",
        Relation::MetadataFact => "metadata_fact",
    }
}

/// ARCHIVE-035: general-context claims.
fn check_general_context(bundle: &ResponseBundle, f: &mut Findings) {
    let from_archive = bundle
        .claims
        .iter()
        .any(|c| c.rung.is_delivered() && !c.general_context);
    for (i, c) in bundle.claims.iter().enumerate() {
        if !c.general_context {
            continue;
        }
        let why = if !c.citations.is_empty() {
            Some("a general-context claim cites nothing from the archive".to_owned())
        } else if text::scalar_len(&c.text) > MAX_GENERAL_CONTEXT {
            Some(format!(
                "a general-context claim is brief: at most {MAX_GENERAL_CONTEXT} characters, not {}",
                text::scalar_len(&c.text)
            ))
        } else if c.label.as_deref().is_some_and(|l| l != GENERAL_LABEL) {
            Some(format!(
                "the label of general context is \"{GENERAL_LABEL}\", so that it cannot pass for archive content"
            ))
        } else if c.rung == Rung::Labeled && !from_archive {
            Some(
                "general context is delivered only beside a claim from the archive; alone it is general world knowledge"
                    .to_owned(),
            )
        } else {
            None
        };
        if let Some(why) = why {
            f.claim(
                IncidentCode::ArchiveGeneralContextInvalid,
                &c.claim_id,
                pointer("/claims", i),
                why,
            );
        }
    }
}

/// ARCHIVE-036: a downgraded response delivers only what the person said.
fn check_downgrade(bundle: &ResponseBundle, f: &mut Findings) {
    if bundle.downgrade.is_none() {
        return;
    }
    for (i, c) in bundle.claims.iter().enumerate() {
        if c.rung == Rung::Labeled {
            f.claim(
                IncidentCode::ArchiveDowngradeViolated,
                &c.claim_id,
                pointer(&pointer("/claims", i), "rung"),
                "a downgraded response delivers what the person said, not an inference or general context",
            );
        }
    }
}

/// ARCHIVE-033 over the bundle's shown text (the display's is the same, ARCHIVE-010/-013).
fn check_shown_text(
    bundle: &ResponseBundle,
    store: &Store,
    in_force: usize,
    cap: Option<usize>,
    f: &mut Findings,
) {
    // (pointer, claim id, text, hidden artifacts count as restricted)
    let mut shown: Vec<(String, Option<&str>, &str, bool)> = Vec::new();
    for (i, c) in bundle.claims.iter().enumerate() {
        if !c.rung.is_delivered() {
            continue;
        }
        let at = pointer("/claims", i);
        shown.push((pointer(&at, "text"), Some(&c.claim_id), &c.text, true));
        if let Some(l) = &c.label {
            shown.push((pointer(&at, "label"), Some(&c.claim_id), l, false));
        }
    }
    for (k, t) in bundle.removed_topics.iter().enumerate() {
        shown.push((
            pointer(&pointer("/removed_topics", k), "topic"),
            None,
            &t.topic,
            false,
        ));
    }
    let scanned = ShownText::scan(shown.iter().map(|s| s.2), store, in_force);
    for (n, (at, claim_id, _, hidden_too)) in shown.iter().enumerate() {
        let mut report = |code, why: String| match claim_id {
            Some(id) => f.claim(code, id, at.clone(), why),
            None => f.at(code, at.clone(), why),
        };
        if let Some(w) = scanned.restricted(n, *hidden_too) {
            report(
                IncidentCode::ArchiveRestrictedTextShown,
                format!(
                    "\"{w}\" is text of an artifact the consent in force restricts (and of no open one)"
                ),
            );
        }
        if let Some(cap) = cap
            && let Some(len) = scanned.runs_over(n, cap)
        {
            report(
                IncidentCode::ArchiveQuoteTooLong,
                format!("{len} characters of archive text verbatim; the tier allows {cap}"),
            );
        }
    }
}

fn check_removed_topics(
    bundle: &ResponseBundle,
    narrowed: &[(usize, Option<RemovedReason>)],
    f: &mut Findings,
) {
    if bundle.removed_topics.len() != narrowed.len() {
        f.at(
            IncidentCode::ArchiveRemovedTopicsMismatch,
            "/removed_topics",
            format!(
                "{} removed topics for {} narrowed claims",
                bundle.removed_topics.len(),
                narrowed.len()
            ),
        );
        return;
    }
    for (k, (topic, (claim, reason))) in bundle.removed_topics.iter().zip(narrowed).enumerate() {
        if let Some(reason) = reason
            && topic.reason != *reason
        {
            let id = bundle
                .claims
                .get(*claim)
                .map(|c| c.claim_id.as_str())
                .unwrap_or_default();
            f.claim(
                IncidentCode::ArchiveRemovedTopicsMismatch,
                id,
                pointer(&pointer("/removed_topics", k), "reason"),
                format!("the claim's counted citations give the reason {reason:?}"),
            );
        }
    }
}

fn check_refusal(
    refusal: Option<&Refusal>,
    bundle: &ResponseBundle,
    delivered_any: bool,
    f: &mut Findings,
) {
    let mut bad = |why: &str| f.at(IncidentCode::ArchiveRefusalInvalid, "/refusal", why);
    match (refusal, delivered_any) {
        (None, false) => bad("a bundle that delivers no claim needs a `refusal`"),
        (Some(_), true) => bad("a bundle that delivers a claim has no `refusal`"),
        (None, true) => {}
        (Some(r), false) => match r.reason {
            RefusalReason::Category => {
                if r.category.is_none() {
                    bad("a category refusal names its `category`");
                }
                if !bundle.claims.is_empty() || !bundle.removed_topics.is_empty() {
                    bad(
                        "a category refusal happens before retrieval: no claims, no removed topics",
                    );
                }
            }
            RefusalReason::Coverage => {
                if r.category.is_some() {
                    bad("a coverage refusal has no `category`");
                }
                if !r.inventory_offered {
                    bad(
                        "a coverage refusal offers the archive inventory (`inventory_offered: true`)",
                    );
                }
            }
        },
    }
}

fn check_hidden(bundle: &ResponseBundle, store: &Store, in_force: usize, f: &mut Findings) {
    let unlisted = bundle
        .claims
        .iter()
        .flat_map(|c| c.citations.iter())
        .map(|c| c.artifact_id)
        .filter(|id| !store.lists(in_force, id))
        .filter(|id| store.payload(id).is_some());
    let paragraphs = store.hidden_paragraphs(in_force, unlisted.collect::<Vec<_>>());
    if paragraphs.is_empty() {
        return;
    }
    let runs = text::token_runs(paragraphs.iter().copied());
    for (k, t) in bundle.removed_topics.iter().enumerate() {
        if let Some(run) = text::shared_run(&t.topic, &runs) {
            f.at(
                IncidentCode::ArchiveHiddenRevealed,
                pointer(&pointer("/removed_topics", k), "topic"),
                format!("the topic repeats \"{run}\" from an artifact whose existence is hidden"),
            );
        }
    }
    for (i, c) in bundle.claims.iter().enumerate() {
        if let Some(label) = &c.label
            && let Some(run) = text::shared_run(label, &runs)
        {
            f.claim(
                IncidentCode::ArchiveHiddenRevealed,
                &c.claim_id,
                pointer(&pointer("/claims", i), "label"),
                format!("the label repeats \"{run}\" from an artifact whose existence is hidden"),
            );
        }
    }
}

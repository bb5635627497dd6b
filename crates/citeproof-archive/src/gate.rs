//! The coverage gate as a verifier sees it: claim ids (ARCHIVE-008), rungs never above what the
//! counted citations allow (ARCHIVE-009), removed topics and their reasons (ARCHIVE-010),
//! labels (ARCHIVE-013, bundle side), the tier (ARCHIVE-018), the refusal (ARCHIVE-020) and
//! hidden artifacts never revealed by a topic or a label (ARCHIVE-021).

use std::collections::HashSet;

use citeproof_model::IncidentCode;
use citeproof_model::archive::{Refusal, RefusalReason, RemovedReason, ResponseBundle, Rung};

use crate::citation::CitationFacts;
use crate::findings::{Findings, pointer};
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
    let Some(in_force) = in_force else {
        return;
    };
    if store.tier(in_force, &bundle.tier).is_none() {
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
            Rung::Labeled if !allowed.labeled => {
                Some("`labeled` needs a counted inference_from citation")
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
    }
    check_removed_topics(bundle, &narrowed, f);
    check_hidden(bundle, store, in_force, f);
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

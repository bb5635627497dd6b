//! The rules across the claims and steps of one manifest (ACA-L2-007 first half, ACA-L2-010,
//! ACA-L3-001's presence and ACA-L3-006), once every member has been checked on its own: one
//! code for the `Value` walk and the typed reading.

use std::collections::{BTreeSet, HashSet};

use citeproof_model::IncidentCode;

use super::{CheckedStep, ManifestFindings};
use crate::verify::jsonpath::{Ctx, child, instant_cmp};
use crate::verify::url::EqualityKeys;

/// A manifest's `chain` member as its steps' own checks left it.
pub(super) enum Chain {
    Absent,
    Empty,
    /// A non-empty array, each step checked on its own.
    Steps(Vec<CheckedStep>),
    /// Not an array (already reported).
    Invalid,
}

/// The rules across claims and steps, once every member has been checked on its own: the same
/// for the `Value` walk and the typed reading of [`typed`].
pub(super) fn check_across(ctx: &Ctx, f: &mut ManifestFindings, chain: Chain) {
    // ACA-L2-007 (first half): claim ids unique within the manifest.
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    for claim in &f.manifest.claims {
        if let Some(id) = &claim.claim_id
            && !seen.insert(id.as_str())
        {
            f.level2.push(ctx.at_claim(
                IncidentCode::AcaClaimIdDuplicate,
                &child(&claim.pointer, "claim_id"),
                Some(id),
                format!("claim_id `{id}` is used by more than one claim of this manifest"),
            ));
        }
    }

    // ACA-L2-010: retrieval before emission.
    if let Some(emitted) = &f.manifest.emitted_at {
        for claim in &f.manifest.claims {
            for source in &claim.sources {
                if let Some(retrieved) = &source.retrieved_at
                    && instant_cmp(retrieved, emitted) == std::cmp::Ordering::Greater
                {
                    f.level2.push(ctx.at_claim(
                        IncidentCode::AcaRetrievedAfterEmitted,
                        &child(&source.pointer, "retrieved_at"),
                        claim.claim_id.as_deref(),
                        format!("retrieved_at {retrieved} is later than emitted_at {emitted}"),
                    ));
                }
            }
        }
    }

    // Level 3: the chain.
    match chain {
        Chain::Absent => f.level3.push(ctx.at(
            IncidentCode::AcaChainMissing,
            "",
            "the manifest has no `chain` (required for Level 3)".into(),
        )),
        Chain::Empty => f.level3.push(ctx.at(
            IncidentCode::AcaChainMissing,
            "/chain",
            "the manifest's `chain` is empty (Level 3 needs at least one step)".into(),
        )),
        Chain::Steps(checked) => {
            // ACA-L3-006: every cited source appears in the chain.
            let mut keys = EqualityKeys::default();
            let chain_sources: HashSet<String> = checked
                .iter()
                .flat_map(|s| s.sources.iter())
                .map(|u| keys.key(u).to_owned())
                .collect();
            for claim in &f.manifest.claims {
                for source in &claim.sources {
                    if let Some(u) = &source.url
                        && !chain_sources.contains(keys.key(u))
                    {
                        f.level3.push(ctx.at_claim(
                            IncidentCode::AcaSourceNotInChain,
                            &child(&source.pointer, "url"),
                            claim.claim_id.as_deref(),
                            format!(
                                "source `{u}` is cited but no chain step lists it in `sources`"
                            ),
                        ));
                    }
                }
            }
            f.manifest.chain = Some(checked);
        }
        Chain::Invalid => {}
    }
}

//! The checks of one envelope that depend on what its signature covers or on the verification
//! time: members outside the profile (CHAIN-003, CHAIN-017), excerpts and the citation string
//! (CHAIN-008, CHAIN-009), dates in the future (CHAIN-016), freshness from signed dates only
//! (CHAIN-010), and whether the canonical URL is bound to the signer (CHAIN-020).

use citeproof_model::{CLOCK_SKEW_SECONDS, IncidentCode};
use serde_json::Value;

use crate::canonical::did_web_authority;
use crate::envelope::CheckedEnvelope;
use crate::report::{EnvelopeReport, Freshness};
use crate::signing::{SigningInput, child};
use crate::verify::{Run, VerifyOptions};

/// CHAIN-003 and CHAIN-017: a claim or source member outside the profile is kept with the
/// warning `chain-member-unrecognized` when the `seed-python` signature covers it (or, in
/// document validation, when no key is at hand to tell); otherwise it is `unknown-member`.
pub(crate) fn members_outside_the_profile(
    e: &CheckedEnvelope,
    report: &EnvelopeReport,
    run: &mut Run,
) {
    let signed = report.signing_input == Some(SigningInput::SeedPython);
    for (object, name) in &e.unrecognized {
        let incident = if signed || run.validate_only {
            let why = if signed {
                "the seed-python signature covers it"
            } else {
                "accepted only if the seed-python signature covers it"
            };
            e.at(
                IncidentCode::ChainMemberUnrecognized,
                &child(object, name),
                format!("member `{name}` is not defined by the profile; kept and ignored ({why})"),
            )
        } else {
            let why = match report.signing_input {
                Some(SigningInput::DeployedJs) => "the deployed-js signature does not cover it",
                _ => "no signature was verified over it",
            };
            e.at(
                IncidentCode::UnknownMember,
                object,
                format!("unknown member `{name}`: not defined by the profile, not `x-`, and {why}"),
            )
        };
        run.push(1, incident);
    }
}

/// CHAIN-008, CHAIN-009 (warnings).
pub(crate) fn excerpt_and_citation(e: &CheckedEnvelope, value: &Value, run: &mut Run) {
    if let Some(Value::Array(sources)) = value.pointer("/claim/sources") {
        let has_excerpt = sources.iter().any(|s| {
            s.get("excerpt")
                .and_then(Value::as_str)
                .is_some_and(|x| !x.is_empty())
        });
        if !sources.is_empty() && !has_excerpt {
            run.push(
                1,
                e.at(
                    IncidentCode::ChainExcerptMissing,
                    "/claim/sources",
                    "no source carries a verbatim excerpt".into(),
                ),
            );
        }
    }
    if let (Some(Value::String(cited)), Some(id), Some(canonical)) =
        (value.get("citedAs"), &e.claim_id, &e.canonical)
        && !(cited.contains(id.as_str()) && cited.contains(canonical.as_str()))
    {
        run.push(
            1,
            e.at(
                IncidentCode::ChainCitedAsMismatch,
                "/citedAs",
                "citedAs does not contain both the claim id and the canonical URL".into(),
            ),
        );
    }
}

/// CHAIN-016: no date denotes an instant after the verification time plus the clock skew
/// tolerance (a date without offset denotes no instant before its start at UTC+14:00).
pub(crate) fn check_dates(e: &CheckedEnvelope, now: i64, run: &mut Run) {
    let limit = now.saturating_add(CLOCK_SKEW_SECONDS);
    for (pointer, text, earliest) in &e.dates {
        if *earliest > limit {
            run.push(
                1,
                e.at(
                    IncidentCode::ChainDateInFuture,
                    pointer,
                    format!(
                        "`{text}` is {} seconds after the verification time (tolerance {CLOCK_SKEW_SECONDS})",
                        earliest.saturating_sub(now)
                    ),
                ),
            );
        }
    }
}

/// CHAIN-010: judged only from a date the verified signature covers. `seed-python` covers
/// `claim.lastVerified` and `signature.signedAt`; `deployed-js` covers neither, and an
/// unverified signature covers nothing, so then freshness is not judged.
pub(crate) fn freshness(
    e: &CheckedEnvelope,
    options: &VerifyOptions,
    run: &mut Run,
    report: &mut EnvelopeReport,
) {
    if report.signing_input != Some(SigningInput::SeedPython) {
        report.freshness = Freshness::NotJudged;
        return;
    }
    let (t, text, pointer) = match (&e.last_verified, &e.signed_at) {
        (Some((t, text)), _) => (*t, text.clone(), "/claim/lastVerified"),
        (None, Some(t)) => (
            t.unix_seconds(),
            t.as_str().to_owned(),
            "/signature/signedAt",
        ),
        (None, None) => return,
    };
    report.fresh_as_of = Some(text.clone());
    let age = options.now.saturating_sub(t);
    if age > options.stale_after_days.saturating_mul(86_400) {
        report.freshness = Freshness::Stale;
        run.push(
            1,
            e.at(
                IncidentCode::ChainStale,
                pointer,
                format!(
                    "last verified {text} (signed), {} days before the verification time (stale after {})",
                    age / 86_400,
                    options.stale_after_days
                ),
            ),
        );
    } else {
        report.freshness = Freshness::Fresh;
    }
}

/// CHAIN-020 (Level 2, a warning): the canonical check proves something about the signer only
/// when `signedBy` is a `did:web` DID that the signature covers (`seed-python`) or that the
/// configuration fixed (a key configured for that signer). Raised only when the signature
/// verified; otherwise nothing about the envelope is bound anyway.
pub(crate) fn unbound_canonical(
    e: &CheckedEnvelope,
    report: &EnvelopeReport,
    signer_configured: bool,
    run: &mut Run,
) {
    let Some(input) = report.signing_input else {
        return;
    };
    let did_web = e
        .signed_by
        .as_deref()
        .and_then(did_web_authority)
        .is_some_and(|a| !a.is_empty());
    let signer_fixed = input == SigningInput::SeedPython || signer_configured;
    if did_web && signer_fixed {
        return;
    }
    let why = if !did_web {
        "its signer is not a did:web DID, which would name the host"
    } else {
        "signedBy is neither covered by the deployed-js signature nor fixed by a key configured for it"
    };
    run.push(
        2,
        e.at(
            IncidentCode::ChainCanonicalUnbound,
            "/canonical",
            format!(
                "the canonical URL is not bound to the signer ({why}): its check shows only that some page shows the id"
            ),
        ),
    );
}

//! The answer of a chain response (CHAIN-011, CHAIN-018, CHAIN-019): every claim reference
//! resolves to an envelope, the answer cites at least one claim, and every other bracketed item
//! is reported as text.

use citeproof_model::{Incident, IncidentCode, Location};

use std::collections::HashMap;

use crate::refs::{Item, for_each_item};
use crate::report::{EnvelopeReport, ReferenceReport, Verdict};
use crate::verify::Run;

fn at_answer(code: IncidentCode, text: Option<&str>, message: String) -> Incident {
    let mut location = Location::pointer("/answer");
    location.claim_id = text.map(str::to_owned);
    Incident::new(code, message, location)
}

/// At most this many findings of each kind are kept from one answer: claim references listed
/// in the report, `chain-ref-unresolved` errors and `chain-bracket-not-reference` warnings
/// (CHAIN-011, profile Limits). Every item is still judged; past the bound, findings are only
/// counted, and one `chain-answer-findings-elided` says how many were left out. An honest
/// answer holds a few dozen brackets; a hostile one of 400,000 would otherwise keep a finding
/// per bracket (issue 23: 1.6 GiB and 150 MiB of output for a 6.5 MiB answer).
const MAX_ANSWER_FINDINGS: usize = 1024;

/// What an answer held and what of it was left out of the report.
#[derive(Default)]
struct Tally {
    references: usize,
    texts: usize,
    unresolved: usize,
    unlisted_references: usize,
    unlisted_unresolved: usize,
    unlisted_texts: usize,
}

/// Checks the answer against the envelopes verified; returns the verdict of each claim
/// reference, the first [`MAX_ANSWER_FINDINGS`] of them.
pub(crate) fn check_answer(
    answer: &str,
    envelopes: &[EnvelopeReport],
    run: &mut Run,
) -> Vec<ReferenceReport> {
    // Keys are unique (a JSON object's members), so each reference is one hash lookup.
    let by_key: HashMap<&str, Verdict> = envelopes
        .iter()
        .filter_map(|e| Some((e.key.as_deref()?, e.verdict)))
        .collect();
    let mut references = Vec::new();
    let mut tally = Tally::default();
    for_each_item(answer, |item| {
        if !item.is_reference {
            tally.texts += 1;
            if tally.texts > MAX_ANSWER_FINDINGS {
                tally.unlisted_texts += 1;
                return;
            }
            run.push(
                1,
                at_answer(
                    IncidentCode::ChainBracketNotReference,
                    None,
                    format!(
                        "[{}] at character {} is not a claim reference: it is text, not a citation",
                        item.escaped(),
                        item.offset
                    ),
                ),
            );
            return;
        }
        tally.references += 1;
        let resolved = item.full_id().and_then(|id| by_key.get(id).copied());
        let verdict = resolved.unwrap_or(Verdict::Unverified);
        if resolved.is_none() {
            tally.unresolved += 1;
            if tally.unresolved > MAX_ANSWER_FINDINGS {
                tally.unlisted_unresolved += 1;
            } else {
                run.push(1, unresolved(&item));
            }
        }
        if references.len() < MAX_ANSWER_FINDINGS {
            references.push(ReferenceReport {
                text: item.text,
                offset: item.offset,
                verdict,
            });
        } else {
            tally.unlisted_references += 1;
        }
    });
    if let Some(incident) = elided(&tally) {
        run.push(1, incident);
    }
    if references.is_empty() {
        run.push(
            1,
            at_answer(
                IncidentCode::ChainAnswerUnreferenced,
                None,
                "the answer holds no claim reference: nothing in it was verified".into(),
            ),
        );
    }
    references
}

/// The `chain-ref-unresolved` of a claim reference that names no envelope, with the reason.
fn unresolved(item: &Item) -> Incident {
    let why = if item.full_id().is_some() {
        "is not a key of `chains`"
    } else if crate::refs::skeleton(&item.text) != item.text {
        "is not written exactly as a claim id (16 lowercase hex digits, nothing else)"
    } else {
        "is not a complete claim id (16 lowercase hex digits)"
    };
    at_answer(
        IncidentCode::ChainRefUnresolved,
        Some(&item.text),
        format!(
            "the reference [{}] at character {} {why}",
            item.escaped(),
            item.offset
        ),
    )
}

/// One warning saying what the report leaves out, when it leaves anything out. The verdict
/// does not depend on it: a finding is left out only after [`MAX_ANSWER_FINDINGS`] of its own
/// code and severity were reported.
fn elided(tally: &Tally) -> Option<Incident> {
    if tally.unlisted_references + tally.unlisted_unresolved + tally.unlisted_texts == 0 {
        return None;
    }
    Some(at_answer(
        IncidentCode::ChainAnswerFindingsElided,
        None,
        format!(
            "the answer holds {} claim references ({} unresolved) and {} bracketed text items; \
             every one was judged, and the report lists the first {MAX_ANSWER_FINDINGS} of each: \
             {} more references, {} more `chain-ref-unresolved` and {} more \
             `chain-bracket-not-reference` are not listed",
            tally.references,
            tally.unresolved,
            tally.texts,
            tally.unlisted_references,
            tally.unlisted_unresolved,
            tally.unlisted_texts
        ),
    ))
}

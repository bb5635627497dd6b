//! The answer of a chain response (CHAIN-011, CHAIN-018, CHAIN-019): every claim reference
//! resolves to an envelope, the answer cites at least one claim, and every other bracketed item
//! is reported as text.

use citeproof_model::{Incident, IncidentCode, Location};

use crate::refs::find_items;
use crate::report::{EnvelopeReport, ReferenceReport, Verdict};
use crate::verify::Run;

fn at_answer(code: IncidentCode, text: Option<&str>, message: String) -> Incident {
    let mut location = Location::pointer("/answer");
    location.claim_id = text.map(str::to_owned);
    Incident::new(code, message, location)
}

/// Checks the answer against the envelopes verified; returns each claim reference's verdict.
pub(crate) fn check_answer(
    answer: &str,
    envelopes: &[EnvelopeReport],
    run: &mut Run,
) -> Vec<ReferenceReport> {
    let mut references = Vec::new();
    for item in find_items(answer) {
        let shown = item.escaped();
        if !item.is_reference {
            run.push(
                1,
                at_answer(
                    IncidentCode::ChainBracketNotReference,
                    None,
                    format!(
                        "[{shown}] at character {} is not a claim reference: it is text, not a citation",
                        item.offset
                    ),
                ),
            );
            continue;
        }
        let resolved = item
            .full_id()
            .and_then(|id| envelopes.iter().find(|e| e.key.as_deref() == Some(id)));
        let verdict = match resolved {
            Some(e) => e.verdict,
            None => {
                let why = if item.full_id().is_some() {
                    "is not a key of `chains`".to_owned()
                } else if crate::refs::skeleton(&item.text) != item.text {
                    "is not written exactly as a claim id (16 lowercase hex digits, nothing else)"
                        .to_owned()
                } else {
                    "is not a complete claim id (16 lowercase hex digits)".to_owned()
                };
                run.push(
                    1,
                    at_answer(
                        IncidentCode::ChainRefUnresolved,
                        Some(&item.text),
                        format!("the reference [{shown}] at character {} {why}", item.offset),
                    ),
                );
                Verdict::Unverified
            }
        };
        references.push(ReferenceReport {
            text: item.text,
            offset: item.offset,
            verdict,
        });
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

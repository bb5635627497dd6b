//! The evidence budget of "request more context" (ARCHIVE-030) and the extraction-risk records
//! (ARCHIVE-031), computed from the log's own times (never from a clock). What a context
//! request may refer to is [`crate::context`].

use std::collections::HashMap;

use citeproof_model::IncidentCode;
use citeproof_model::archive::{BudgetLimit, EvidenceBudget, LogEvent};

use crate::findings::{Findings, pointer};
use crate::log::Line;
use crate::store::Store;

/// Seconds of the rate-limit window.
pub const RATE_WINDOW_SECONDS: i64 = 3600;
const DAY_SECONDS: i64 = 86_400;

/// An earlier context request of the same requester.
#[derive(Debug, Clone, Copy)]
struct Seen {
    at: i64,
    delivered: u64,
}

/// What one context request may deliver and which limits it exceeds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The most it may deliver.
    pub allowed: u64,
    /// The limits the request exceeds, in record order.
    pub exceeded: Vec<BudgetLimit>,
}

/// The budget in force at `at`; every limit is 0 before the first snapshot.
fn budget_at(store: &Store, at: &citeproof_model::Timestamp) -> EvidenceBudget {
    store
        .in_force_at(at)
        .and_then(|i| store.policy(i))
        .map(|p| p.evidence_budget.clone())
        .unwrap_or(EvidenceBudget {
            daily_chars: 0,
            request_cap: 0,
            requests_per_hour: 0,
        })
}

fn decide(budget: &EvidenceBudget, earlier: &[Seen], at: i64, requested: u64) -> Decision {
    let day = at.div_euclid(DAY_SECONDS);
    let used: u64 = earlier
        .iter()
        .filter(|s| s.at.div_euclid(DAY_SECONDS) == day)
        .map(|s| s.delivered)
        .fold(0, u64::saturating_add);
    let in_window = earlier
        .iter()
        .filter(|s| s.at > at - RATE_WINDOW_SECONDS && s.at <= at)
        .count() as u64
        + 1;
    let mut exceeded = Vec::new();
    if used.saturating_add(requested) > budget.daily_chars {
        exceeded.push(BudgetLimit::DailyBudget);
    }
    if requested > budget.request_cap {
        exceeded.push(BudgetLimit::RequestCap);
    }
    let rate = in_window > budget.requests_per_hour;
    if rate {
        exceeded.push(BudgetLimit::Rate);
    }
    let allowed = if rate {
        0
    } else {
        requested
            .min(budget.request_cap)
            .min(budget.daily_chars.saturating_sub(used))
    };
    Decision { allowed, exceeded }
}

/// Decides a new context request of `requester` at `at` against the records of a log (for a
/// producer appending to it).
pub fn decide_request(
    lines: &[Line],
    store: &Store,
    requester: &str,
    at: &citeproof_model::Timestamp,
    requested: u64,
) -> Decision {
    let earlier: Vec<Seen> = lines
        .iter()
        .filter_map(|l| l.record.as_ref())
        .filter_map(|r| match &r.event {
            LogEvent::ContextRequest {
                requester: q,
                delivered_chars,
                ..
            } if q == requester => Some(Seen {
                at: r.at.unix_seconds(),
                delivered: *delivered_chars,
            }),
            _ => None,
        })
        .collect();
    decide(
        &budget_at(store, at),
        &earlier,
        at.unix_seconds(),
        requested,
    )
}

/// A context request that exceeded a limit, by its `seq` member.
#[derive(Debug, Clone)]
struct Exceeding<'a> {
    position: usize,
    requester: &'a str,
    limits: Vec<BudgetLimit>,
    at: i64,
}

/// Seconds after its request within which an extraction-risk record must be logged.
pub const RISK_WINDOW_SECONDS: i64 = 300;

/// ARCHIVE-030 and ARCHIVE-031 over the records that have their form.
pub fn check_budget(lines: &[Line], store: &Store, f: &mut Findings) {
    let mut seen: HashMap<&str, Vec<Seen>> = HashMap::new();
    let mut exceeding: HashMap<u64, Exceeding<'_>> = HashMap::new();
    // seq of an exceeding request -> (limits, at) of the risk record that refers to it.
    let mut risks: HashMap<u64, (&[BudgetLimit], i64)> = HashMap::new();
    for (n, line) in lines.iter().enumerate() {
        let Some(record) = &line.record else {
            continue;
        };
        let at = pointer("", n);
        let t = record.at.unix_seconds();
        match &record.event {
            LogEvent::ContextRequest {
                requester,
                requested_chars,
                delivered_chars,
                ..
            } => {
                let earlier = seen.entry(requester.as_str()).or_default();
                let d = decide(&budget_at(store, &record.at), earlier, t, *requested_chars);
                if *delivered_chars > d.allowed {
                    f.at(
                        IncidentCode::ArchiveBudgetExceeded,
                        pointer(&at, "delivered_chars"),
                        format!(
                            "{delivered_chars} characters delivered; the evidence budget allows {} here",
                            d.allowed
                        ),
                    );
                }
                earlier.push(Seen {
                    at: t,
                    delivered: *delivered_chars,
                });
                if !d.exceeded.is_empty() {
                    exceeding.insert(
                        record.seq,
                        Exceeding {
                            position: n,
                            requester,
                            limits: d.exceeded,
                            at: t,
                        },
                    );
                }
            }
            LogEvent::ExtractionRisk {
                requester,
                refers_to,
                limits,
                ..
            } => {
                let refers = exceeding
                    .get(refers_to)
                    .is_some_and(|e| e.requester == requester.as_str());
                if refers && !risks.contains_key(refers_to) {
                    risks.insert(*refers_to, (limits.as_slice(), t));
                } else {
                    f.at(
                        IncidentCode::ArchiveLogRecordInvalid,
                        at,
                        "an extraction-risk record refers to an earlier context request of its requester that exceeded a limit, and is its only one",
                    );
                }
            }
            LogEvent::Bundle { .. } => {}
        }
    }
    let mut unlogged: Vec<&Exceeding<'_>> = exceeding
        .iter()
        .filter(|(seq, e)| {
            !risks.get(*seq).is_some_and(|(limits, t)| {
                *limits == e.limits.as_slice() && *t - e.at <= RISK_WINDOW_SECONDS
            })
        })
        .map(|(_, e)| e)
        .collect();
    unlogged.sort_by_key(|e| e.position);
    for e in unlogged {
        f.at(
            IncidentCode::ArchiveExtractionRiskUnlogged,
            pointer("", e.position),
            format!(
                "the request exceeds {:?}; an extraction-risk record naming exactly those limits must follow within {RISK_WINDOW_SECONDS} s",
                e.limits
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget() -> EvidenceBudget {
        EvidenceBudget {
            daily_chars: 1000,
            request_cap: 400,
            requests_per_hour: 3,
        }
    }

    /// A request of the past: its time and what it delivered.
    fn seen(at: i64, delivered: u64) -> Seen {
        Seen { at, delivered }
    }

    #[test]
    fn limits_by_hand() {
        // First request of the day, within every limit.
        assert_eq!(
            decide(&budget(), &[], 0, 300),
            Decision {
                allowed: 300,
                exceeded: vec![]
            }
        );
        // Above the cap: up to the cap is allowed, the request exceeds request-cap.
        assert_eq!(
            decide(&budget(), &[], 0, 500),
            Decision {
                allowed: 400,
                exceeded: vec![BudgetLimit::RequestCap]
            }
        );
        // 800 used today: 200 remain; asking 300 exceeds the daily budget.
        let used = [seen(10, 400), seen(20, 400)];
        assert_eq!(
            decide(&budget(), &used, 30, 300),
            Decision {
                allowed: 200,
                exceeded: vec![BudgetLimit::DailyBudget]
            }
        );
        // A new UTC day resets the budget (86 400 s later), and the window has only this one.
        assert_eq!(decide(&budget(), &used, 86_400, 300).allowed, 300);
        // Fourth request within the hour (3 allowed): nothing delivered.
        let three = [seen(0, 1), seen(10, 1), seen(20, 1)];
        assert_eq!(
            decide(&budget(), &three, 3599, 5),
            Decision {
                allowed: 0,
                exceeded: vec![BudgetLimit::Rate]
            }
        );
        // At 3600 s after the first, the first has left the window (start excluded).
        assert_eq!(decide(&budget(), &three, 3600, 5).exceeded, vec![]);
    }
}

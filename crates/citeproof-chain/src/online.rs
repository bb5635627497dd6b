//! Level 2 (profile CHAIN-012, CHAIN-013): the canonical URL is re-fetched and shows the claim
//! id; at least one source answers. Every fetch goes through [`Fetcher`] (a live
//! `HttpFetcher`, or a snapshot for vectors and offline replays) under the fetching rules.

use citeproof_fetch::{Fetcher, fetch_incident, get_ok, refusal};
use citeproof_model::{Incident, IncidentCode, Location};

/// Result of the canonical check: `Some(true)` when the page shows the id.
#[derive(Debug)]
pub struct CanonicalOutcome {
    pub contains_id: Option<bool>,
    pub incidents: Vec<Incident>,
}

/// Result of the reachability check: the first source that answered.
#[derive(Debug)]
pub struct SourcesOutcome {
    pub reachable: Option<String>,
    pub incidents: Vec<Incident>,
}

fn at_url(
    code: IncidentCode,
    url: &str,
    pointer: &str,
    claim_id: Option<&str>,
    message: String,
) -> Incident {
    Incident::new(
        code,
        message,
        Location {
            url: Some(url.to_owned()),
            pointer: Some(pointer.to_owned()),
            claim_id: claim_id.map(str::to_owned),
            ..Location::default()
        },
    )
}

/// A cause incident (`fetch-*`, at its URL) at the envelope's `pointer` and claim.
fn located(mut cause: Incident, pointer: &str, claim_id: Option<&str>) -> Incident {
    cause.location.pointer = Some(pointer.to_owned());
    cause.location.claim_id = claim_id.map(str::to_owned);
    cause
}

/// CHAIN-012: GET `canonical`, status 200, body contains `claim_id` as bytes.
pub fn check_canonical(
    fetcher: &dyn Fetcher,
    canonical: &str,
    claim_id: &str,
    base: &str,
) -> CanonicalOutcome {
    let pointer = format!("{base}/canonical");
    let response = match get_ok(fetcher, canonical) {
        Ok(r) => r,
        Err(cause) => {
            let consumer = at_url(
                IncidentCode::ChainCanonicalFetchFailed,
                canonical,
                &pointer,
                Some(claim_id),
                format!("the canonical URL could not be fetched: {}", cause.message),
            );
            return CanonicalOutcome {
                contains_id: None,
                incidents: vec![consumer, located(cause, &pointer, Some(claim_id))],
            };
        }
    };
    let contains = response
        .body
        .windows(claim_id.len())
        .any(|w| w == claim_id.as_bytes());
    let mut incidents = Vec::new();
    if !contains {
        incidents.push(at_url(
            IncidentCode::ChainCanonicalIdAbsent,
            canonical,
            &pointer,
            Some(claim_id),
            format!("the canonical page does not contain the claim id `{claim_id}`"),
        ));
    }
    CanonicalOutcome {
        contains_id: Some(contains),
        incidents,
    }
}

/// CHAIN-013: the sources in order, HEAD (GET when HEAD is answered 405 or 501), until one
/// answers 2xx without a content coding. When none does, `chain-sources-unreachable` and each
/// source's cause (reporting rule 4).
pub fn check_sources(
    fetcher: &dyn Fetcher,
    sources: &[(String, String)],
    claim_id: Option<&str>,
    base: &str,
) -> SourcesOutcome {
    let mut causes = Vec::new();
    for (pointer, url) in sources {
        let mut result = fetcher.head(url);
        if let Ok(r) = &result
            && matches!(r.status, 405 | 501)
        {
            result = fetcher.fetch(url);
        }
        let cause = match result {
            Err(e) => Some(fetch_incident(&e, url)),
            Ok(r) => refusal(&r, url, |s| (200..300).contains(&s)),
        };
        match cause {
            None => {
                return SourcesOutcome {
                    reachable: Some(url.clone()),
                    incidents: Vec::new(),
                };
            }
            Some(cause) => causes.push(located(cause, pointer, claim_id)),
        }
    }
    let mut incidents = vec![Incident::new(
        IncidentCode::ChainSourcesUnreachable,
        format!(
            "none of the {} source URLs answered with a 2xx status",
            sources.len()
        ),
        Location {
            pointer: Some(format!("{base}/claim/sources")),
            claim_id: claim_id.map(str::to_owned),
            ..Location::default()
        },
    )];
    incidents.extend(causes);
    SourcesOutcome {
        reachable: None,
        incidents,
    }
}

//! Fetching for AEF (AEF-L2-001, AEF-L3-004) on top of [`Fetcher`]: a GET succeeds only with
//! status 200 and no content coding (FETCH-006, FETCH-007). A failure is the cause incident
//! (`fetch-*`, at the URL); the caller adds its own consumer code (reporting rule 4).

use citeproof_fetch::{FetchedResponse, Fetcher};
use citeproof_model::{Incident, IncidentCode, Location};

pub(crate) enum FetchOutcome {
    Ok(FetchedResponse),
    Failed(Incident),
}

fn url_loc(url: &str) -> Location {
    Location {
        url: Some(url.to_owned()),
        ..Location::default()
    }
}

/// Fetches `url` and applies the status and content-coding rules.
pub(crate) fn fetch_ok(fetcher: &dyn Fetcher, url: &str) -> FetchOutcome {
    let resp = match fetcher.fetch(url) {
        Ok(r) => r,
        Err(e) => {
            let code = IncidentCode::from_code(e.code()).unwrap_or(IncidentCode::FetchIoFailed);
            return FetchOutcome::Failed(Incident::new(code, e.to_string(), url_loc(url)));
        }
    };
    if resp.status != 200 {
        return FetchOutcome::Failed(Incident::new(
            IncidentCode::FetchHttpStatus,
            format!("{url} answered with status {}, not 200", resp.status),
            url_loc(url),
        ));
    }
    let coded = resp.header_values("content-encoding").any(|v| {
        v.split(',')
            .map(|c| c.trim_matches([' ', '\t']))
            .any(|c| !c.is_empty() && !c.eq_ignore_ascii_case("identity"))
    });
    if coded {
        return FetchOutcome::Failed(Incident::new(
            IncidentCode::FetchContentEncoding,
            format!("{url} was served with a content coding although identity was requested"),
            url_loc(url),
        ));
    }
    FetchOutcome::Ok(resp)
}

//! The profile's rules for a GET whose body a verifier will use (FETCH-006, FETCH-007): the
//! status is accepted (200, unless a rule says otherwise) and no content coding was applied.
//! One definition for every spec; a refusal is the cause incident (`fetch-*`, at the URL), to
//! which the caller adds its own consumer code (reporting rule 4).

use citeproof_model::{Incident, IncidentCode, Location};

use crate::{FetchError, FetchedResponse, Fetcher};

/// GET `url` with `fetcher`, requiring status 200 and identity coding.
#[allow(clippy::result_large_err)] // `Incident` is the finding type everywhere
pub fn get_ok(fetcher: &dyn Fetcher, url: &str) -> Result<FetchedResponse, Incident> {
    get_accepting(fetcher, url, |status| status == 200)
}

/// GET `url` with `fetcher`, requiring a status `accept` takes and identity coding.
#[allow(clippy::result_large_err)]
pub fn get_accepting(
    fetcher: &dyn Fetcher,
    url: &str,
    accept: impl Fn(u16) -> bool,
) -> Result<FetchedResponse, Incident> {
    let response = fetcher.fetch(url).map_err(|e| fetch_incident(&e, url))?;
    match refusal(&response, url, accept) {
        Some(incident) => Err(incident),
        None => Ok(response),
    }
}

/// Why `response` is not usable: its status is not accepted (`fetch-http-status`) or it
/// carries a content coding other than identity (`fetch-content-encoding`).
pub fn refusal(
    response: &FetchedResponse,
    url: &str,
    accept: impl Fn(u16) -> bool,
) -> Option<Incident> {
    if !accept(response.status) {
        return Some(Incident::new(
            IncidentCode::FetchHttpStatus,
            format!("{url} answered with status {}", response.status),
            url_location(url),
        ));
    }
    let codings: Vec<String> = response
        .header_values("content-encoding")
        .flat_map(|v| v.split(','))
        .map(|c| c.trim_matches([' ', '\t']).to_ascii_lowercase())
        .filter(|c| !c.is_empty() && c != "identity")
        .collect();
    (!codings.is_empty()).then(|| {
        Incident::new(
            IncidentCode::FetchContentEncoding,
            format!(
                "{url} was served with Content-Encoding `{}` although identity was requested",
                codings.join(", ")
            ),
            url_location(url),
        )
    })
}

/// The registry incident of a fetch error, at the URL.
pub fn fetch_incident(error: &FetchError, url: &str) -> Incident {
    let code = IncidentCode::from_code(error.code()).unwrap_or(IncidentCode::FetchIoFailed);
    Incident::new(code, error.to_string(), url_location(url))
}

/// A location naming only a URL.
pub fn url_location(url: &str) -> Location {
    Location {
        url: Some(url.to_owned()),
        ..Location::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Bytes;

    struct One(FetchedResponse);

    impl Fetcher for One {
        fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError> {
            if url == self.0.url {
                Ok(self.0.clone())
            } else {
                Err(FetchError::NotInSnapshot { url: url.into() })
            }
        }
    }

    fn response(status: u16, coding: Option<&str>) -> One {
        let headers = coding
            .map(|c| vec![("Content-Encoding".to_owned(), c.to_owned())])
            .unwrap_or_default();
        One(FetchedResponse {
            url: "https://s.example/".into(),
            status,
            headers,
            body: Bytes::from_static(b"x"),
        })
    }

    #[test]
    fn status_coding_and_errors() {
        let code = |r: Result<FetchedResponse, Incident>| r.err().map(|i| i.code);
        let url = "https://s.example/";
        assert_eq!(code(get_ok(&response(200, None), url)), None);
        assert_eq!(code(get_ok(&response(200, Some(" identity ")), url)), None);
        assert_eq!(
            code(get_ok(&response(404, None), url)),
            Some(IncidentCode::FetchHttpStatus)
        );
        assert_eq!(
            code(get_ok(&response(200, Some("identity, GZIP")), url)),
            Some(IncidentCode::FetchContentEncoding)
        );
        assert_eq!(
            code(get_ok(&response(200, None), "https://other.example/")),
            Some(IncidentCode::FetchNotInSnapshot)
        );
        assert_eq!(
            code(get_accepting(&response(204, None), url, |s| (200..300).contains(&s))),
            None
        );
    }
}

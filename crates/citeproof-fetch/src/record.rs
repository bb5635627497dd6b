//! Recording fetches into a [`WebSnapshot`].

use std::collections::BTreeMap;
use std::sync::Mutex;

use citeproof_model::snapshot::{SnapshotResponse, StoredResponse, WebSnapshot};
use url::Url;

use crate::error::{FetchError, sanitize};
use crate::snapshot::SNAPSHOT_VERSION;
use crate::{FetchedResponse, Fetcher};

/// One successful fetch seen by a [`RecordingFetcher`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recorded {
    /// The URL passed to [`Fetcher::fetch`], as given.
    pub requested: String,
    /// What the wrapped fetcher returned.
    pub response: FetchedResponse,
}

/// Wraps a fetcher and records every response it returns (errors are not recorded: a snapshot
/// has no way to store them, and replaying such a URL gives `fetch-not-in-snapshot`).
///
/// [`snapshot`](RecordingFetcher::snapshot) turns the recording into a [`WebSnapshot`] that a
/// [`SnapshotFetcher`](crate::SnapshotFetcher) replays with the same bytes, statuses, headers
/// and final URLs:
/// - a response is stored under its final URL; when that differs from the requested URL
///   (redirects), the requested URL is stored as a `302` with `location: <final URL>` and an
///   empty body (the intermediate hops are not known to the wrapper);
/// - keys are WHATWG-normalized URLs without fragment; when one URL was fetched several times,
///   the first response wins;
/// - the agent response goes to `response`, not to `resources`.
#[derive(Debug)]
pub struct RecordingFetcher<F> {
    inner: F,
    log: Mutex<Vec<Recorded>>,
}

impl<F> RecordingFetcher<F> {
    pub fn new(inner: F) -> Self {
        RecordingFetcher {
            inner,
            log: Mutex::new(Vec::new()),
        }
    }

    pub fn inner(&self) -> &F {
        &self.inner
    }

    pub fn into_inner(self) -> F {
        self.inner
    }

    /// Every successful fetch so far, in order.
    pub fn recorded(&self) -> Vec<Recorded> {
        // A poisoned lock only means another thread panicked while pushing; the log is still a
        // valid Vec.
        self.log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Builds the snapshot whose agent response is the first recorded fetch of
    /// `agent_response_url` (compared as given, then normalized). `fetch-not-in-snapshot` when
    /// that URL was never fetched successfully.
    pub fn snapshot(&self, agent_response_url: &str) -> Result<WebSnapshot, FetchError> {
        let log = self.recorded();
        let wanted = normalize(agent_response_url);
        let agent = log
            .iter()
            .find(|r| r.requested == agent_response_url)
            .or_else(|| {
                log.iter()
                    .find(|r| wanted.is_some() && normalize(&r.requested) == wanted)
            })
            .ok_or_else(|| FetchError::NotInSnapshot {
                url: sanitize(agent_response_url),
            })?;

        let response = to_snapshot_response(&agent.response);
        let agent_final =
            normalize(&agent.response.url).unwrap_or_else(|| agent.response.url.clone());
        let mut resources: BTreeMap<String, StoredResponse> = BTreeMap::new();
        // Keys already taken; the agent's final URL is served from `response`.
        let mut taken: Vec<String> = vec![agent_final.clone()];
        let mut add = |key: String, stored: StoredResponse, resources: &mut BTreeMap<_, _>| {
            if !taken.contains(&key) {
                taken.push(key.clone());
                resources.insert(key, stored);
            }
        };
        for record in &log {
            let final_key =
                normalize(&record.response.url).unwrap_or_else(|| record.response.url.clone());
            let requested_key =
                normalize(&record.requested).unwrap_or_else(|| record.requested.clone());
            if requested_key != final_key {
                add(
                    requested_key,
                    StoredResponse {
                        status: 302,
                        headers: vec![("location".to_owned(), final_key.clone())],
                        body_base64: String::new(),
                    },
                    &mut resources,
                );
            }
            add(final_key, record.response.to_stored(), &mut resources);
        }
        Ok(WebSnapshot {
            snapshot_version: SNAPSHOT_VERSION,
            response,
            resources,
        })
    }
}

fn normalize(url: &str) -> Option<String> {
    let mut parsed = Url::parse(url).ok()?;
    parsed.set_fragment(None);
    Some(parsed.into())
}

fn to_snapshot_response(response: &FetchedResponse) -> SnapshotResponse {
    let stored = response.to_stored();
    SnapshotResponse {
        url: normalize(&response.url).unwrap_or_else(|| response.url.clone()),
        status: stored.status,
        headers: stored.headers,
        body_base64: stored.body_base64,
    }
}

impl<F: Fetcher> Fetcher for RecordingFetcher<F> {
    fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError> {
        let response = self.inner.fetch(url)?;
        self.log
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(Recorded {
                requested: url.to_owned(),
                response: response.clone(),
            });
        Ok(response)
    }
}

//! Recording fetches into a [`WebSnapshot`].

use std::collections::{BTreeMap, BTreeSet};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use std::sync::Mutex;

use citeproof_model::snapshot::{SnapshotResponse, StoredResponse, WebSnapshot};
use url::Url;

use crate::error::{FetchError, sanitize};
use crate::snapshot::{SNAPSHOT_VERSION, StoredEntry};
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

    /// The agent response (the first recorded fetch of `agent_response_url`, compared as given,
    /// then normalized; its URL normalized) and every other stored response, keyed by
    /// normalized URL, in recording order. `fetch-not-in-snapshot` when that URL was never
    /// fetched successfully.
    pub fn entries(
        &self,
        agent_response_url: &str,
    ) -> Result<(FetchedResponse, Vec<(String, StoredEntry)>), FetchError> {
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
        let agent_final =
            normalize(&agent.response.url).unwrap_or_else(|| agent.response.url.clone());
        let mut resources: Vec<(String, StoredEntry)> = Vec::new();
        // Keys already taken; the agent's final URL is served from the agent response.
        let mut taken: BTreeSet<String> = BTreeSet::from([agent_final.clone()]);
        let mut add = |key: String, entry: StoredEntry, resources: &mut Vec<_>| {
            if taken.insert(key.clone()) {
                resources.push((key, entry));
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
                    StoredEntry {
                        status: 302,
                        headers: vec![("location".to_owned(), final_key.clone())],
                        body: crate::Bytes::new(),
                    },
                    &mut resources,
                );
            }
            let r = &record.response;
            add(
                final_key,
                StoredEntry {
                    status: r.status,
                    headers: r.headers.clone(),
                    body: r.body.clone(),
                },
                &mut resources,
            );
        }
        let mut agent_response = agent.response.clone();
        agent_response.url = agent_final;
        Ok((agent_response, resources))
    }

    /// Builds the JSON snapshot of [`entries`](RecordingFetcher::entries).
    pub fn snapshot(&self, agent_response_url: &str) -> Result<WebSnapshot, FetchError> {
        let (agent, resources) = self.entries(agent_response_url)?;
        let stored = agent.to_stored();
        Ok(WebSnapshot {
            snapshot_version: SNAPSHOT_VERSION,
            response: SnapshotResponse {
                url: agent.url,
                status: stored.status,
                headers: stored.headers,
                body_base64: stored.body_base64,
            },
            resources: resources
                .into_iter()
                .map(|(url, e)| {
                    (
                        url,
                        StoredResponse {
                            status: e.status,
                            headers: e.headers,
                            body_base64: STANDARD.encode(&e.body),
                        },
                    )
                })
                .collect::<BTreeMap<_, _>>(),
        })
    }

    /// Writes the WARC snapshot of [`entries`](RecordingFetcher::entries); `date` is the
    /// `WARC-Date` of its records (RFC 3339).
    pub fn write_warc(
        &self,
        agent_response_url: &str,
        out: &mut dyn std::io::Write,
        date: &str,
    ) -> Result<(), FetchError> {
        let (agent, resources) = self.entries(agent_response_url)?;
        crate::warc::write_warc(out, &agent, &resources, date)
    }
}

fn normalize(url: &str) -> Option<String> {
    let mut parsed = Url::parse(url).ok()?;
    parsed.set_fragment(None);
    Some(parsed.into())
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

    fn known_sha256(&self, body: &crate::Bytes) -> Option<citeproof_model::ContentHash> {
        self.inner.known_sha256(body)
    }
}

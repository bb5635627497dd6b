//! Replaying a [`WebSnapshot`] offline.

use std::collections::{BTreeMap, HashMap};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use citeproof_model::ContentHash;
use citeproof_model::snapshot::{SnapshotResponse, StoredResponse, WebSnapshot};
use url::Url;

use crate::error::{FetchError, SnapshotProblem, sanitize};
use crate::http::{Hop, follow_redirects};
use crate::json_snapshot::{DecodedBodies, Slot};
use crate::policy::{FetchPolicy, redirect_target};
use crate::{FetchedResponse, Fetcher};

/// The only `snapshot_version` understood.
pub const SNAPSHOT_VERSION: u32 = 1;

/// Largest JSON snapshot parsed (profile JSON-001): bodies are base64 in it, so a snapshot of a
/// large run outgrows the 16 MiB document limit; WARC snapshots have no whole-file limit.
pub const MAX_SNAPSHOT_JSON_BYTES: usize = 256 * 1024 * 1024;

/// Parses a snapshot from JSON bytes with the project's strict I-JSON parser (duplicate member
/// names, lone surrogates, ... are refused), then checks its shape.
pub fn parse_snapshot(bytes: &[u8]) -> Result<WebSnapshot, FetchError> {
    let json_invalid = |message: String| FetchError::SnapshotInvalid {
        url: None,
        problem: SnapshotProblem::Json(message),
    };
    let value = citeproof_model::json::parse_strict_limited(bytes, MAX_SNAPSHOT_JSON_BYTES)
        .map_err(|e| {
            json_invalid(match e.offset {
                Some(offset) => format!("{} (byte {offset})", sanitize(&e.message)),
                None => sanitize(&e.message),
            })
        })?;
    serde_json::from_value(value).map_err(|e| json_invalid(sanitize(&e.to_string())))
}

/// One stored response, decoded: what a JSON snapshot entry or a WARC response record holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEntry {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// Shared with every response served from it.
    pub body: Bytes,
}

type Entry = StoredEntry;

/// Serves responses from a [`WebSnapshot`], as [`HttpFetcher`](crate::HttpFetcher) would have
/// served them:
///
/// - the snapshot is validated when the fetcher is made: version 1, statuses in 100..=599, header
///   names HTTP tokens and values without control characters other than HTAB, every `body_base64` canonical standard base64
///   with padding, every URL absolute, and no URL (after WHATWG normalization, fragment removed)
///   with two different responses: `fetch-snapshot-invalid`;
/// - each requested URL goes through [`check_url`](crate::policy::check_url) with this fetcher's policy (so IP-literal
///   hosts are classified; host names are not resolved offline);
/// - lookup is by the normalized URL; a URL that is not there is `fetch-not-in-snapshot`;
/// - a stored redirect (301/302/303/307/308 with one `Location`) is followed inside the
///   snapshot under the same rules and limits as live fetching;
/// - a body larger than `max_body_bytes` is `fetch-too-large`.
///
/// The agent response (`response` in the snapshot) is available from
/// [`agent_response`](SnapshotFetcher::agent_response) and is also served for its own URL.
#[derive(Debug, Clone)]
pub struct SnapshotFetcher {
    agent: FetchedResponse,
    resources: ResourceFetcher,
}

/// Stored responses served offline under the same checks as a snapshot's resources, for
/// inputs that have no agent response (an AEF evidence object or a chain envelope verified
/// against stored sources). [`SnapshotFetcher`] is one of these plus its agent response.
#[derive(Debug, Clone)]
pub struct ResourceFetcher {
    policy: FetchPolicy,
    entries: BTreeMap<String, Entry>,
    /// SHA-256 of bodies hashed while they were decoded, by [`body_key`].
    digests: Digests,
}

/// Digests by body identity: the address and length of the shared bytes, which an entry keeps
/// alive (and immutable) as long as the fetcher lives, so a key names exactly one byte string.
type Digests = HashMap<(usize, usize), ContentHash>;

fn body_key(body: &Bytes) -> (usize, usize) {
    (body.as_ptr() as usize, body.len())
}

fn invalid(url: Option<&str>, problem: SnapshotProblem) -> FetchError {
    FetchError::SnapshotInvalid {
        url: url.map(sanitize),
        problem,
    }
}

/// The WHATWG-normalized form of a snapshot URL (fragment removed), used as lookup key.
fn normalize(url: &str) -> Result<String, FetchError> {
    let mut parsed =
        Url::parse(url).map_err(|e| invalid(Some(url), SnapshotProblem::Url(e.to_string())))?;
    parsed.set_fragment(None);
    Ok(parsed.into())
}

fn decode_entry(url: &str, stored: &StoredResponse) -> Result<Entry, FetchError> {
    let body = STANDARD
        .decode(stored.body_base64.as_bytes())
        .map_err(|e| invalid(Some(url), SnapshotProblem::Base64(e.to_string())))?;
    let entry = Entry {
        status: stored.status,
        headers: stored.headers.clone(),
        body: body.into(),
    };
    check_entry(url, &entry)?;
    Ok(entry)
}

/// Status in 100..=599, header names HTTP tokens, values without control characters but HTAB.
fn check_entry(url: &str, stored: &Entry) -> Result<(), FetchError> {
    if !(100..=599).contains(&stored.status) {
        return Err(invalid(Some(url), SnapshotProblem::Status(stored.status)));
    }
    for (name, value) in &stored.headers {
        if name.is_empty() || !name.bytes().all(citeproof_model::token::is_tchar) {
            return Err(invalid(
                Some(url),
                SnapshotProblem::Header(format!("name {}", sanitize(name))),
            ));
        }
        // RFC 9110 §5.5: a field value is SP, HTAB, VCHAR and obs-text. A snapshot records
        // what was fetched, and the HTTP client (and the WARC reader) refuse other control
        // characters, so a stored value with one was never received; refusing it also keeps
        // the JSON and WARC forms of a snapshot equivalent (found by the `snapshots` fuzz target).
        if let Some(c) = value.chars().find(|c| c.is_ascii_control() && *c != '\t') {
            return Err(invalid(
                Some(url),
                SnapshotProblem::Header(format!(
                    "value of {name} contains the control character U+{:04X}",
                    u32::from(c)
                )),
            ));
        }
    }
    Ok(())
}

impl SnapshotFetcher {
    /// Validates `snapshot` (see the type's documentation) and serves it under `policy`.
    pub fn new(snapshot: &WebSnapshot, policy: FetchPolicy) -> Result<Self, FetchError> {
        Self::with_decoded(snapshot, policy, DecodedBodies::new())
    }

    /// [`new`](SnapshotFetcher::new) where the bodies of some slots were already decoded (and
    /// hashed) from the document: those are taken instead of their `body_base64`.
    pub(crate) fn with_decoded(
        snapshot: &WebSnapshot,
        policy: FetchPolicy,
        mut decoded: DecodedBodies,
    ) -> Result<Self, FetchError> {
        if snapshot.snapshot_version != SNAPSHOT_VERSION {
            return Err(invalid(
                None,
                SnapshotProblem::UnsupportedVersion(snapshot.snapshot_version),
            ));
        }
        let SnapshotResponse { url: agent_url, .. } = &snapshot.response;
        let mut digests = Digests::new();
        let mut entry = |slot: Slot, url: &str, stored: &StoredResponse| match decoded.remove(&slot)
        {
            Some(d) => {
                let entry = Entry {
                    status: stored.status,
                    headers: stored.headers.clone(),
                    body: d.body,
                };
                check_entry(url, &entry)?;
                digests.insert(body_key(&entry.body), d.sha256);
                Ok(entry)
            }
            None => decode_entry(url, stored),
        };
        let agent_entry = entry(Slot::Agent, agent_url, &snapshot.response.stored())?;
        let resources = snapshot
            .resources
            .iter()
            .map(|(url, stored)| {
                entry(Slot::Resource(url.clone()), url, stored).map(|e| (url.clone(), e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut fetcher = Self::from_entries(agent_url, agent_entry, resources, policy)?;
        // Only the digests of bodies the fetcher keeps: a body dropped as a duplicate is freed,
        // and its address may be reused by other bytes.
        let kept = &fetcher.resources.entries;
        fetcher.resources.digests = kept
            .values()
            .filter_map(|e| {
                digests
                    .get(&body_key(&e.body))
                    .map(|h| (body_key(&e.body), *h))
            })
            .collect();
        Ok(fetcher)
    }

    /// A fetcher over decoded entries (a WARC file, or a snapshot built in memory), checked as
    /// [`new`](SnapshotFetcher::new) checks a JSON snapshot.
    pub fn from_entries(
        agent_url: &str,
        agent_entry: StoredEntry,
        resources: impl IntoIterator<Item = (String, StoredEntry)>,
        policy: FetchPolicy,
    ) -> Result<Self, FetchError> {
        check_entry(agent_url, &agent_entry)?;
        let agent_key = normalize(agent_url)?;
        let all = std::iter::once((agent_url.to_owned(), agent_entry.clone())).chain(resources);
        let resources = ResourceFetcher::from_entries(all, policy)?;
        Ok(SnapshotFetcher {
            agent: FetchedResponse {
                url: agent_key,
                status: agent_entry.status,
                headers: agent_entry.headers,
                body: agent_entry.body,
            },
            resources,
        })
    }

    /// The agent response (the snapshot's `response`), URL normalized.
    pub fn agent_response(&self) -> &FetchedResponse {
        &self.agent
    }

    pub fn policy(&self) -> &FetchPolicy {
        &self.resources.policy
    }

    /// Every URL the snapshot can serve (normalized, sorted).
    pub fn urls(&self) -> impl Iterator<Item = &str> {
        self.resources.urls()
    }
}

impl Fetcher for SnapshotFetcher {
    fn fetch(&self, input: &str) -> Result<FetchedResponse, FetchError> {
        self.resources.fetch(input)
    }

    fn known_sha256(&self, body: &Bytes) -> Option<ContentHash> {
        self.resources.known_sha256(body)
    }
}

impl ResourceFetcher {
    /// Validates stored responses keyed by URL (base64 bodies, status, header names and
    /// values, no URL twice with different responses) and serves them under `policy`.
    pub fn new(
        resources: &BTreeMap<String, StoredResponse>,
        policy: FetchPolicy,
    ) -> Result<Self, FetchError> {
        let entries = resources
            .iter()
            .map(|(url, stored)| decode_entry(url, stored).map(|e| (url.clone(), e)))
            .collect::<Result<Vec<_>, _>>()?;
        Self::from_entries(entries, policy)
    }

    /// Decoded entries, checked as [`new`](ResourceFetcher::new) checks stored ones.
    pub fn from_entries(
        resources: impl IntoIterator<Item = (String, StoredEntry)>,
        policy: FetchPolicy,
    ) -> Result<Self, FetchError> {
        let mut entries: BTreeMap<String, Entry> = BTreeMap::new();
        for (raw_url, entry) in resources {
            check_entry(&raw_url, &entry)?;
            let key = normalize(&raw_url)?;
            match entries.get(&key) {
                Some(existing) if *existing != entry => {
                    return Err(invalid(Some(&raw_url), SnapshotProblem::Ambiguous));
                }
                Some(_) => {}
                None => {
                    entries.insert(key, entry);
                }
            }
        }
        Ok(ResourceFetcher {
            policy,
            entries,
            digests: Digests::new(),
        })
    }

    pub fn policy(&self) -> &FetchPolicy {
        &self.policy
    }

    /// Every URL that can be served (normalized, sorted).
    pub fn urls(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }
}

impl Fetcher for ResourceFetcher {
    fn fetch(&self, input: &str) -> Result<FetchedResponse, FetchError> {
        follow_redirects(input, &self.policy, |url| {
            let Some(entry) = self.entries.get(url.as_str()) else {
                return Err(FetchError::NotInSnapshot {
                    url: sanitize(url.as_str()),
                });
            };
            if let Some(next) = redirect_target(url, entry.status, &entry.headers, &self.policy)? {
                return Ok(Hop::Redirect(next));
            }
            if u64::try_from(entry.body.len()).unwrap_or(u64::MAX) > self.policy.max_body_bytes {
                return Err(FetchError::TooLarge {
                    url: sanitize(url.as_str()),
                    limit: self.policy.max_body_bytes,
                });
            }
            Ok(Hop::Final(FetchedResponse {
                url: url.as_str().into(),
                status: entry.status,
                headers: entry.headers.clone(),
                body: entry.body.clone(),
            }))
        })
    }

    fn known_sha256(&self, body: &Bytes) -> Option<ContentHash> {
        self.digests.get(&body_key(body)).copied()
    }
}

//! The one way the citeproof verifier gets bytes from URLs.
//!
//! Everything fetched is chosen by someone else (an AI agent's response, a manifest, a source),
//! so every input is treated as an attack:
//!
//! - [`Fetcher`] is the trait the verifier depends on; a fetch returns the final URL, status,
//!   headers and the body bytes exactly as served ([`FetchedResponse`]).
//! - [`HttpFetcher`] fetches `http`/`https` under a [`FetchPolicy`]: SSRF guard (see
//!   [`AddressClass`] and [`check_url`]), connection pinned to the checked addresses, manual
//!   redirects re-checked at every hop, hard caps on body size, time and redirect count, no
//!   content decoding.
//! - [`SnapshotFetcher`] replays a [`WebSnapshot`](citeproof_model::snapshot::WebSnapshot)
//!   offline with the same checks that make sense without a network.
//! - [`RecordingFetcher`] wraps any fetcher and produces such a snapshot.
//! - [`ResourceFetcher`] serves stored responses without an agent response (evidence objects
//!   and envelopes verified offline).
//! - [`get_ok`]: the profile's rules for a body a verifier uses (status 200, identity coding),
//!   one definition for every spec.
//!
//! Every failure is a [`FetchError`] with a stable `fetch-*` [`code`](FetchError::code).
//! Local files are not this crate's business: it fetches URLs only.
//!
//! # SSRF policy
//!
//! A URL is fetched only if its scheme is `http` or `https`, it has no userinfo, its port is not
//! 0 or a Fetch-standard bad port, and every address its host is or resolves to is
//! [allowed](AddressClass::is_allowed): public addresses always; loopback and private ones only
//! with [`FetchPolicy::allow_private`]; link-local (cloud metadata `169.254.169.254`),
//! unspecified, multicast, broadcast, shared (CGNAT `100.64/10`), documentation, benchmarking and
//! reserved addresses never. IPv6 forms embedding an IPv4 address (mapped, compatible,
//! translated, NAT64 `64:ff9b::/96`, 6to4) are judged by the embedded address. The same checks
//! run on every redirect target before it is contacted.

mod address;
mod budget;
mod error;
mod http;
mod json_snapshot;
mod policy;
mod record;
mod rules;
mod snapshot;
mod warc;

use std::fmt;
use std::sync::Arc;

pub use bytes::Bytes;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use citeproof_model::ContentHash;
use citeproof_model::snapshot::StoredResponse;

pub use address::{AddressClass, classify_ip, classify_ipv4, classify_ipv6};
pub use budget::{
    BudgetedFetcher, DEFAULT_MAX_DURATION, DEFAULT_MAX_FETCHES, DEFAULT_MAX_TOTAL_BYTES,
    FetchBudget,
};
pub use error::{FetchError, SnapshotProblem};
pub use http::HttpFetcher;
pub use json_snapshot::{JsonSnapshotError, read_json_snapshot};
pub use policy::{
    DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_REDIRECTS, DEFAULT_TOTAL_TIMEOUT,
    FORBIDDEN_PORTS, FetchPolicy, MAX_URL_BYTES, check_url,
};
pub use record::{Recorded, RecordingFetcher};
pub use rules::{fetch_incident, get_accepting, get_ok, refusal, url_location};
pub use snapshot::{
    MAX_SNAPSHOT_JSON_BYTES, ResourceFetcher, SNAPSHOT_VERSION, SnapshotFetcher, StoredEntry,
    parse_snapshot,
};
pub use warc::{
    MAX_WARC_HEADER_BYTES, MAX_WARC_RECORD_BYTES, MAX_WARC_RECORDS, MAX_WARC_TOTAL_BYTES,
    read_warc, read_warc_bytes, write_warc,
};

/// Gets the bytes behind a URL.
pub trait Fetcher {
    /// Fetches `url` (redirects followed); 4xx/5xx are responses, not errors.
    fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError>;

    /// A `HEAD` request for reachability checks (profile CHAIN-013): the final status and
    /// headers, an empty body, under the same rules as [`fetch`](Fetcher::fetch). The default
    /// makes a GET and drops the body: what a snapshot answers (it stores GET responses) and
    /// what a fetcher that cannot send HEAD must do. [`HttpFetcher`] sends a real HEAD.
    fn head(&self, url: &str) -> Result<FetchedResponse, FetchError> {
        let mut response = self.fetch(url)?;
        response.body.clear();
        Ok(response)
    }

    /// The SHA-256 of `body` (a body this fetcher returned) when the fetcher already computed
    /// it, so that a verifier hashes each distinct body once: a JSON snapshot hashes its bodies
    /// while decoding them. `None`: hash it yourself. A digest is only ever that of exactly
    /// these bytes (bodies are immutable and kept alive by the fetcher that knows them).
    fn known_sha256(&self, body: &Bytes) -> Option<ContentHash> {
        let _ = body;
        None
    }
}

/// A reference, a box or an `Arc` of a fetcher is the fetcher it points to.
macro_rules! forward_fetcher {
    ($($pointer:ty),*) => {$(
        impl<F: Fetcher + ?Sized> Fetcher for $pointer {
            fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError> {
                (**self).fetch(url)
            }

            fn head(&self, url: &str) -> Result<FetchedResponse, FetchError> {
                (**self).head(url)
            }

            fn known_sha256(&self, body: &Bytes) -> Option<ContentHash> {
                (**self).known_sha256(body)
            }
        }
    )*};
}

forward_fetcher!(&F, Box<F>, Arc<F>);

/// A response as served.
#[derive(Clone, PartialEq, Eq)]
pub struct FetchedResponse {
    /// The URL of the final response, after redirects (WHATWG-normalized, no fragment).
    pub url: String,
    pub status: u16,
    /// Header fields in order; names compare case-insensitively (see [`HttpFetcher`] for what
    /// "in order" means for live responses).
    pub headers: Vec<(String, String)>,
    /// The body bytes exactly as served: no content or transfer decoding beyond HTTP framing.
    /// Shared: cloning a response (a snapshot serving the same source to every claim that
    /// cites it) copies no body.
    pub body: Bytes,
}

impl fmt::Debug for FetchedResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Bodies can be megabytes: show the length and a short prefix.
        let prefix = &self.body[..self.body.len().min(64)];
        f.debug_struct("FetchedResponse")
            .field("url", &self.url)
            .field("status", &self.status)
            .field("headers", &self.headers)
            .field("body_len", &self.body.len())
            .field("body_prefix", &String::from_utf8_lossy(prefix))
            .finish()
    }
}

impl FetchedResponse {
    /// Value of the first field named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Values of every field named `name` (case-insensitive), in order.
    pub fn header_values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The media type of `Content-Type`, lowercased, without parameters (`text/html`).
    ///
    /// `None` when there is no `Content-Type`, when a value is not `type/subtype` made of HTTP
    /// token characters, or when several `Content-Type` fields disagree (an ambiguity different
    /// consumers would resolve differently).
    pub fn content_type_essence(&self) -> Option<String> {
        let mut essence: Option<String> = None;
        for value in self.header_values("content-type") {
            let this = parse_essence(value)?;
            match &essence {
                Some(first) if *first != this => return None,
                Some(_) => {}
                None => essence = Some(this),
            }
        }
        essence
    }

    /// `true` for 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The response in snapshot form (body as standard base64 with padding).
    pub fn to_stored(&self) -> StoredResponse {
        StoredResponse {
            status: self.status,
            headers: self.headers.clone(),
            body_base64: STANDARD.encode(&self.body),
        }
    }
}

fn parse_essence(value: &str) -> Option<String> {
    citeproof_model::token::media_type_essence(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(headers: &[(&str, &str)]) -> FetchedResponse {
        FetchedResponse {
            url: "https://example.com/".to_owned(),
            status: 200,
            headers: headers
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
            body: Vec::new().into(),
        }
    }

    #[test]
    fn header_lookup_is_case_insensitive_and_ordered() {
        let r = response(&[("Link", "a"), ("x", "1"), ("link", "b")]);
        assert_eq!(r.header("LINK"), Some("a"));
        assert_eq!(r.header_values("link").collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(r.header("absent"), None);
    }

    #[test]
    fn content_type_essence_cases() {
        type Case<'a> = (&'a [(&'a str, &'a str)], Option<&'a str>);
        let cases: &[Case] = &[
            (
                &[("Content-Type", "Text/HTML; charset=utf-8")],
                Some("text/html"),
            ),
            (
                &[("content-type", " application/json ")],
                Some("application/json"),
            ),
            (
                &[("content-type", "application/ld+json;profile=x")],
                Some("application/ld+json"),
            ),
            (&[], None),
            (&[("content-type", "text")], None),
            (&[("content-type", "text/")], None),
            (&[("content-type", "text/html, text/plain")], None),
            (&[("content-type", "te xt/html")], None),
            (
                &[
                    ("content-type", "text/html"),
                    ("content-type", "TEXT/html;q=1"),
                ],
                Some("text/html"),
            ),
            (
                &[
                    ("content-type", "text/html"),
                    ("content-type", "text/plain"),
                ],
                None,
            ),
        ];
        for (headers, want) in cases {
            assert_eq!(
                response(headers).content_type_essence().as_deref(),
                *want,
                "{headers:?}"
            );
        }
    }

    #[test]
    fn codes_are_listed_and_prefixed() {
        for code in FetchError::ALL_CODES {
            assert!(code.starts_with("fetch-"));
        }
        let mut sorted = FetchError::ALL_CODES.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), FetchError::ALL_CODES.len());
    }
}

//! The hardened HTTP fetcher.

use std::io::{self, Read};
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use ureq::Agent;
use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};
use url::{Host, Url};

use crate::address::classify_ip;
use crate::error::{FetchError, sanitize};
use crate::policy::{FetchPolicy, check_parsed, check_url, redirect_target};
use crate::{FetchedResponse, Fetcher};

/// Most addresses kept from one name resolution (ureq's own limit).
const MAX_ADDRS: usize = 16;

/// First allocation for a body; the buffer grows as bytes actually arrive, so a large declared
/// `Content-Length` does not reserve memory by itself.
const INITIAL_BODY_CAPACITY: u64 = 64 * 1024;

/// Fetches `http`/`https` URLs under a [`FetchPolicy`].
///
/// Per hop (the first URL and every redirect target):
/// 1. [`check_url`]: syntax, scheme, no credentials, port, IP-literal class;
/// 2. the host name is resolved *here* (bounded by the connect timeout), and **every** returned
///    address must be allowed by the policy, else `fetch-address-forbidden` — nothing is
///    connected;
/// 3. ureq connects only to those checked addresses: it is given a resolver that returns the
///    checked list and nothing else (and refuses any other host), so a second DNS answer
///    (rebinding) is never used; proxies from the environment are disabled;
/// 4. the request is a `GET` (a `HEAD` for [`Fetcher::head`]) with `Accept-Encoding: identity`; ureq's own redirect handling is
///    off (`max_redirects(0)`), 4xx/5xx are responses, not errors;
/// 5. a redirect (301, 302, 303, 307, 308 with one `Location`) is resolved against the current
///    URL and goes back to step 1; https → http downgrades are refused;
/// 6. the body is read as served (no content decoding) up to `max_body_bytes`; a declared
///    `Content-Length` above the limit fails before reading, and a body that grows past the
///    limit (chunked, close-delimited) fails as soon as it does.
///
/// Header names come back lowercased (the HTTP library normalizes them); fields of the same
/// name keep their relative order, but fields are grouped by name in order of each name's first
/// appearance, so the interleaving of *different* names is not preserved. Header values are
/// decoded byte-for-character (ISO-8859-1 / "isomorphic decode"), which is lossless.
///
/// Do not enable ureq's `gzip` or `brotli` features anywhere in the build: ureq would then
/// decode such bodies and drop `Content-Encoding`, whatever this crate asks for.
#[derive(Debug, Clone, Default)]
pub struct HttpFetcher {
    policy: FetchPolicy,
}

impl HttpFetcher {
    pub fn new(policy: FetchPolicy) -> Self {
        HttpFetcher { policy }
    }

    pub fn policy(&self) -> &FetchPolicy {
        &self.policy
    }
}

/// Outcome of one hop.
pub(crate) enum Hop {
    Final(FetchedResponse),
    Redirect(Url),
}

impl Fetcher for HttpFetcher {
    fn fetch(&self, input: &str) -> Result<FetchedResponse, FetchError> {
        self.request(input, false)
    }

    /// A `HEAD` request with the same checks at every hop; the final response has no body.
    fn head(&self, input: &str) -> Result<FetchedResponse, FetchError> {
        self.request(input, true)
    }
}

impl HttpFetcher {
    fn request(&self, input: &str, head: bool) -> Result<FetchedResponse, FetchError> {
        let start = Instant::now();
        let deadline = start.checked_add(self.policy.total_timeout);
        follow_redirects(input, &self.policy, |url| self.hop(url, deadline, head))
    }
}

/// Fetches `input` one hop at a time with `hop`, following at most the policy's redirects:
/// the one redirect loop of the live client and of stored resources.
pub(crate) fn follow_redirects(
    input: &str,
    policy: &FetchPolicy,
    mut hop: impl FnMut(&Url) -> Result<Hop, FetchError>,
) -> Result<FetchedResponse, FetchError> {
    let mut url = check_url(input, policy)?;
    let mut redirects: u32 = 0;
    loop {
        match hop(&url)? {
            Hop::Final(response) => return Ok(response),
            Hop::Redirect(next) => {
                if redirects >= policy.max_redirects {
                    return Err(FetchError::TooManyRedirects {
                        url: sanitize(input),
                        limit: policy.max_redirects,
                    });
                }
                redirects += 1;
                url = next;
            }
        }
    }
}

fn timeout_error(url: &Url, reason: &str) -> FetchError {
    FetchError::Timeout {
        url: sanitize(url.as_str()),
        reason: reason.to_owned(),
    }
}

/// Time left before `deadline` (`None` deadline: the total timeout is too large to represent,
/// treated as no deadline).
fn remaining(deadline: Option<Instant>) -> Option<Duration> {
    deadline.map(|d| d.saturating_duration_since(Instant::now()))
}

impl HttpFetcher {
    /// One request to `url` (GET, or HEAD when `head`): its final response, or the redirect it
    /// answers with.
    fn hop(&self, url: &Url, deadline: Option<Instant>, head: bool) -> Result<Hop, FetchError> {
        // Re-check even though check_url ran: cheap, and keeps every hop on one path.
        check_parsed(url, &self.policy)?;
        if let Err(e) = Uri::try_from(url.as_str()) {
            return Err(FetchError::UrlInvalid {
                url: sanitize(url.as_str()),
                reason: format!(
                    "not accepted by the HTTP client: {}",
                    sanitize(&e.to_string())
                ),
            });
        }
        let agent = self.agent_for(url, deadline)?;
        let is_https = url.scheme() == "https";
        let request = if head {
            agent.head(url.as_str())
        } else {
            agent.get(url.as_str())
        };
        let response = request
            .header("Accept-Encoding", "identity")
            .call()
            .map_err(|e| map_ureq_error(e, url, is_https))?;

        let status = response.status().as_u16();
        if !(100..=599).contains(&status) {
            return Err(FetchError::ProtocolError {
                url: sanitize(url.as_str()),
                reason: format!("status {status} outside 100..=599"),
            });
        }
        let headers: Vec<(String, String)> = response
            .headers()
            .iter()
            .map(|(name, value)| {
                (
                    name.as_str().to_owned(),
                    isomorphic_decode(value.as_bytes()),
                )
            })
            .collect();

        if let Some(next) = redirect_target(url, status, &headers, &self.policy)? {
            // The redirect body is not read; dropping the response closes the connection.
            return Ok(Hop::Redirect(next));
        }

        if head {
            // A HEAD response has no body, whatever its `Content-Length` says.
            return Ok(Hop::Final(FetchedResponse {
                url: url.as_str().to_owned(),
                status,
                headers,
                body: crate::Bytes::new(),
            }));
        }
        let body = self.read_body(response, url, is_https)?;
        Ok(Hop::Final(FetchedResponse {
            url: url.as_str().to_owned(),
            status,
            headers,
            body: body.into(),
        }))
    }

    /// An agent for one request to `url`: connected only to the addresses resolved and checked
    /// here (the resolver is pinned), within the connect budget and what is left of `deadline`.
    fn agent_for(&self, url: &Url, deadline: Option<Instant>) -> Result<Agent, FetchError> {
        // One connect budget per hop covers resolution, TCP connect and TLS handshake.
        let connect_deadline = Instant::now().checked_add(self.policy.connect_timeout);
        let budget = |what: &str| -> Result<(Option<Duration>, Duration), FetchError> {
            let left = remaining(deadline);
            let connect_left = remaining(connect_deadline).unwrap_or(self.policy.connect_timeout);
            let connect_left = left.map_or(connect_left, |l| l.min(connect_left));
            if connect_left.is_zero() {
                return Err(timeout_error(url, what));
            }
            Ok((left, connect_left))
        };
        let (_, resolve_budget) = budget("timeout before name resolution")?;
        let addrs = self.resolve_checked(url, resolve_budget)?;
        let (left, connect_budget) = budget("name resolution used up the connect timeout")?;
        let user_agent = self.policy.user_agent.as_str();
        if !user_agent
            .bytes()
            .all(|b| b == b'\t' || (b' '..=b'~').contains(&b))
        {
            return Err(FetchError::ProtocolError {
                url: sanitize(url.as_str()),
                reason: "the configured user agent is not a valid header value".to_owned(),
            });
        }
        let config = Config::builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .proxy(None)
            .https_only(false)
            .user_agent(user_agent)
            .accept_encoding("identity")
            .timeout_global(left)
            .timeout_connect(Some(connect_budget))
            .build();
        let host = url.host_str().unwrap_or_default().to_owned();
        let port = url.port_or_known_default().unwrap_or(0);
        let resolver = PinnedResolver { host, port, addrs };
        let agent = Agent::with_parts(config, DefaultConnector::new(), resolver);
        Ok(agent)
    }

    /// The body, at most `max_body_bytes` (refused early when `Content-Length` says more).
    fn read_body(
        &self,
        response: ureq::http::Response<ureq::Body>,
        url: &Url,
        is_https: bool,
    ) -> Result<Vec<u8>, FetchError> {
        let limit = self.policy.max_body_bytes;
        let too_large = || FetchError::TooLarge {
            url: sanitize(url.as_str()),
            limit,
        };
        let body = response.into_body();
        let declared = body.content_length();
        if declared.is_some_and(|n| n > limit) {
            return Err(too_large());
        }
        let capacity = declared.unwrap_or(0).min(INITIAL_BODY_CAPACITY);
        let mut buf = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
        let mut reader = body.into_reader().take(limit.saturating_add(1));
        reader
            .read_to_end(&mut buf)
            .map_err(|e| map_read_error(e, url, is_https))?;
        if u64::try_from(buf.len()).unwrap_or(u64::MAX) > limit {
            return Err(too_large());
        }
        Ok(buf)
    }

    /// Resolves the URL's host (IP literals as they are) and checks every address.
    fn resolve_checked(&self, url: &Url, budget: Duration) -> Result<Vec<SocketAddr>, FetchError> {
        let port = url.port_or_known_default().unwrap_or(0);
        let host_shown = sanitize(url.host_str().unwrap_or_default());
        let ips: Vec<IpAddr> = match url.host() {
            Some(Host::Ipv4(ip)) => vec![IpAddr::V4(ip)],
            Some(Host::Ipv6(ip)) => vec![IpAddr::V6(ip)],
            Some(Host::Domain(name)) => lookup(name, port, budget, url)?,
            None => {
                return Err(FetchError::UrlInvalid {
                    url: sanitize(url.as_str()),
                    reason: "no host".to_owned(),
                });
            }
        };
        let mut addrs: Vec<SocketAddr> = Vec::new();
        for ip in ips {
            let class = classify_ip(ip);
            if !class.is_allowed(self.policy.allow_private) {
                return Err(FetchError::AddressForbidden {
                    url: sanitize(url.as_str()),
                    host: host_shown,
                    addr: ip,
                    class,
                });
            }
            let addr = SocketAddr::new(ip, port);
            if !addrs.contains(&addr) && addrs.len() < MAX_ADDRS {
                addrs.push(addr);
            }
        }
        if addrs.is_empty() {
            return Err(FetchError::DnsFailed {
                host: host_shown,
                reason: "no address".to_owned(),
            });
        }
        Ok(addrs)
    }
}

/// System name resolution on a helper thread, abandoned after `budget`. Every address is
/// returned (they are all checked by the caller).
fn lookup(name: &str, port: u16, budget: Duration, url: &Url) -> Result<Vec<IpAddr>, FetchError> {
    let host_shown = sanitize(name);
    let (tx, rx) = mpsc::sync_channel(1);
    let owned = name.to_owned();
    thread::Builder::new()
        .name("citeproof-fetch-dns".to_owned())
        .spawn(move || {
            let result = (owned.as_str(), port)
                .to_socket_addrs()
                .map(|addrs| addrs.map(|a| a.ip()).take(256).collect::<Vec<_>>());
            // The receiver may have given up (timeout); nothing to do then.
            let _ = tx.send(result);
        })
        .map_err(|e| FetchError::DnsFailed {
            host: host_shown.clone(),
            reason: format!("cannot start resolver thread: {e}"),
        })?;
    match rx.recv_timeout(budget) {
        Ok(Ok(ips)) if ips.is_empty() => Err(FetchError::DnsFailed {
            host: host_shown,
            reason: "no address".to_owned(),
        }),
        Ok(Ok(ips)) => Ok(ips),
        Ok(Err(e)) => Err(FetchError::DnsFailed {
            host: host_shown,
            reason: sanitize(&e.to_string()),
        }),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(timeout_error(url, "name resolution")),
        Err(mpsc::RecvTimeoutError::Disconnected) => Err(FetchError::DnsFailed {
            host: host_shown,
            reason: "resolver thread ended without an answer".to_owned(),
        }),
    }
}

/// A resolver that answers only for the host it was made for, with the addresses that were
/// checked against the policy. ureq connects to what its resolver returns, so the connection is
/// pinned to checked addresses.
#[derive(Debug)]
pub(crate) struct PinnedResolver {
    /// Host as serialized in the URL (`example.com`, `127.0.0.1`, `[::1]`).
    host: String,
    port: u16,
    addrs: Vec<SocketAddr>,
}

impl Resolver for PinnedResolver {
    fn resolve(
        &self,
        uri: &Uri,
        _config: &Config,
        _timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let host_matches = uri
            .host()
            .is_some_and(|h| h.eq_ignore_ascii_case(&self.host));
        let port = uri.port_u16().or(match uri.scheme_str() {
            Some("http") => Some(80),
            Some("https") => Some(443),
            _ => None,
        });
        if !host_matches || port != Some(self.port) {
            // Fail closed: never resolve anything else.
            return Err(ureq::Error::HostNotFound);
        }
        let mut out = self.empty();
        for addr in &self.addrs {
            if out.try_push(*addr).is_err() {
                break;
            }
        }
        if out.is_empty() {
            Err(ureq::Error::HostNotFound)
        } else {
            Ok(out)
        }
    }
}

/// Each byte becomes the character with that code point (ISO-8859-1): lossless, and equal to
/// the text for ASCII values.
fn isomorphic_decode(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn map_read_error(e: io::Error, url: &Url, is_https: bool) -> FetchError {
    map_ureq_error(ureq::Error::from(e), url, is_https)
}

fn map_ureq_error(e: ureq::Error, url: &Url, is_https: bool) -> FetchError {
    let shown = sanitize(url.as_str());
    let reason = sanitize(&e.to_string());
    match e {
        ureq::Error::Timeout(t) => FetchError::Timeout {
            url: shown,
            reason: sanitize(&t.to_string()),
        },
        ureq::Error::Io(io) => match io.kind() {
            io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => {
                FetchError::Timeout { url: shown, reason }
            }
            io::ErrorKind::ConnectionRefused
            | io::ErrorKind::AddrNotAvailable
            | io::ErrorKind::AddrInUse
            | io::ErrorKind::NetworkUnreachable
            | io::ErrorKind::HostUnreachable
            | io::ErrorKind::NetworkDown => FetchError::ConnectFailed { url: shown, reason },
            // rustls reports handshake and certificate failures as InvalidData.
            io::ErrorKind::InvalidData if is_https => FetchError::TlsFailed { url: shown, reason },
            io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput => {
                FetchError::ProtocolError { url: shown, reason }
            }
            _ => FetchError::IoFailed { url: shown, reason },
        },
        ureq::Error::HostNotFound => FetchError::DnsFailed {
            host: sanitize(url.host_str().unwrap_or_default()),
            reason,
        },
        ureq::Error::ConnectionFailed => FetchError::ConnectFailed { url: shown, reason },
        ureq::Error::Tls(_)
        | ureq::Error::Rustls(_)
        | ureq::Error::Pem(_)
        | ureq::Error::TlsRequired => FetchError::TlsFailed { url: shown, reason },
        ureq::Error::BadUri(_) => FetchError::UrlInvalid { url: shown, reason },
        _ => FetchError::ProtocolError { url: shown, reason },
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn resolve(resolver: &PinnedResolver, uri: &str) -> Result<Vec<SocketAddr>, ureq::Error> {
        let uri: Uri = uri.parse().unwrap();
        resolver
            .resolve(&uri, &Config::default(), NextTimeout::default())
            .map(|addrs| addrs.iter().copied().collect())
    }

    #[test]
    fn pinned_resolver_answers_only_for_its_host_and_port() {
        let checked: SocketAddr = "93.184.216.34:443".parse().unwrap();
        let resolver = PinnedResolver {
            host: "example.com".to_owned(),
            port: 443,
            addrs: vec![checked],
        };
        assert_eq!(
            resolve(&resolver, "https://example.com/x").unwrap(),
            [checked]
        );
        assert_eq!(
            resolve(&resolver, "https://EXAMPLE.com:443/").unwrap(),
            [checked]
        );
        for other in [
            "https://example.org/",
            "http://example.com/",
            "https://example.com:8443/",
            "https://127.0.0.1/",
        ] {
            assert!(
                matches!(resolve(&resolver, other), Err(ureq::Error::HostNotFound)),
                "{other}"
            );
        }
        let v6 = PinnedResolver {
            host: "[::1]".to_owned(),
            port: 80,
            addrs: vec!["[::1]:80".parse().unwrap()],
        };
        assert_eq!(resolve(&v6, "http://[::1]/").unwrap().len(), 1);
        let empty = PinnedResolver {
            host: "example.com".to_owned(),
            port: 80,
            addrs: Vec::new(),
        };
        assert!(resolve(&empty, "http://example.com/").is_err());
    }

    #[test]
    fn isomorphic_decode_maps_bytes_to_code_points() {
        assert_eq!(isomorphic_decode(b"abc"), "abc");
        assert_eq!(isomorphic_decode(&[0xc3, 0xa9, 0xff]), "\u{c3}\u{a9}\u{ff}");
    }
}

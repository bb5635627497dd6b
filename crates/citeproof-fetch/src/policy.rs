//! The fetch policy and the static URL checks every hop goes through.

use std::time::Duration;

use url::{Host, Url};

use crate::address::classify_ip;
use crate::error::{FetchError, sanitize};

/// Longest URL (and `Location` value) accepted, in bytes.
pub const MAX_URL_BYTES: usize = 8192;

/// Default [`FetchPolicy::max_body_bytes`]: 10 MiB.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 10 * 1024 * 1024;

/// Default [`FetchPolicy::max_redirects`].
pub const DEFAULT_MAX_REDIRECTS: u32 = 5;

/// Default [`FetchPolicy::connect_timeout`]: 10 s.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Default [`FetchPolicy::total_timeout`]: 30 s.
pub const DEFAULT_TOTAL_TIMEOUT: Duration = Duration::from_secs(30);

/// Limits and switches for fetching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchPolicy {
    /// Budget for name resolution plus TCP connect plus TLS handshake, per hop (also bounded by
    /// what is left of `total_timeout`). Default 10 s.
    pub connect_timeout: Duration,
    /// Budget for the whole fetch: every hop's resolution, connection, request, response and
    /// body. Default 30 s.
    pub total_timeout: Duration,
    /// Largest body accepted; a larger body is an error (`fetch-too-large`), never truncated.
    /// Default 10 MiB.
    pub max_body_bytes: u64,
    /// Redirects followed at most; one more is `fetch-too-many-redirects`. Default 5.
    pub max_redirects: u32,
    /// Permit loopback and private addresses (tests, local demos). Link-local (cloud metadata
    /// `169.254.169.254`), unspecified, multicast, broadcast, shared (CGNAT), documentation,
    /// benchmarking and reserved addresses stay forbidden even then. Default `false`.
    pub allow_private: bool,
    /// `User-Agent` sent; empty sends none. Default `citeproof-fetch/<version>`.
    pub user_agent: String,
}

impl Default for FetchPolicy {
    fn default() -> Self {
        FetchPolicy {
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            total_timeout: DEFAULT_TOTAL_TIMEOUT,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_redirects: DEFAULT_MAX_REDIRECTS,
            allow_private: false,
            user_agent: concat!("citeproof-fetch/", env!("CARGO_PKG_VERSION")).to_owned(),
        }
    }
}

/// Ports refused: 0 and the Fetch standard's "bad ports" (protocols an HTTP request could be
/// smuggled into), <https://fetch.spec.whatwg.org/#port-blocking>.
pub const FORBIDDEN_PORTS: &[u16] = &[
    0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101,
    102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427,
    465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990,
    993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667,
    6668, 6669, 6679, 6697, 10080,
];

fn invalid(input: &str, reason: impl Into<String>) -> FetchError {
    FetchError::UrlInvalid {
        url: sanitize(input),
        reason: reason.into(),
    }
}

/// Checks a URL against everything the policy can decide without the network, and returns it
/// parsed (WHATWG rules, fragment removed). Never panics, for any input.
///
/// Refused, in this order:
/// - more than [`MAX_URL_BYTES`] bytes, any ASCII control character, space, DEL or backslash
///   (the WHATWG parser silently strips or rewrites these, a source of parser confusion):
///   `fetch-url-invalid`;
/// - no scheme, or a scheme other than `http`/`https` (case-insensitive):
///   `fetch-scheme-forbidden` (`fetch-url-invalid` when there is no scheme at all);
/// - not of the form `scheme://authority...`: `fetch-url-invalid`;
/// - any `@` in the authority (`user:pass@`, `user@`, even an empty `@`):
///   `fetch-credentials-in-url`;
/// - anything the WHATWG URL parser rejects: `fetch-url-invalid`;
/// - port 0 or a Fetch-standard bad port: `fetch-port-forbidden`;
/// - a host that is an IP address (in any spelling the WHATWG parser accepts: `2130706433`,
///   `0x7f.1`, `0177.0.0.1`, `[::ffff:7f00:1]`, ...) whose class the policy refuses:
///   `fetch-address-forbidden`.
///
/// Host *names* are not resolved here; [`HttpFetcher`](crate::HttpFetcher) resolves them and
/// checks every address before connecting.
pub fn check_url(input: &str, policy: &FetchPolicy) -> Result<Url, FetchError> {
    if input.len() > MAX_URL_BYTES {
        return Err(invalid(input, format!("longer than {MAX_URL_BYTES} bytes")));
    }
    if let Some(c) = input
        .chars()
        .find(|c| *c <= ' ' || *c == '\u{7f}' || *c == '\\')
    {
        return Err(invalid(
            input,
            format!(
                "contains {:?}; whitespace, control characters and backslashes are not allowed",
                c
            ),
        ));
    }
    let Some(colon) = input.find(':') else {
        return Err(invalid(input, "not an absolute URL (no scheme)"));
    };
    let scheme = &input[..colon];
    let scheme_ok = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return Err(invalid(input, "not an absolute URL (no valid scheme)"));
    }
    let scheme_lower = scheme.to_ascii_lowercase();
    if scheme_lower != "http" && scheme_lower != "https" {
        return Err(FetchError::SchemeForbidden {
            url: sanitize(input),
            scheme: sanitize(scheme),
        });
    }
    let rest = &input[colon + 1..];
    let Some(after_slashes) = rest.strip_prefix("//") else {
        return Err(invalid(input, "expected \"//\" after the scheme"));
    };
    let authority_end = after_slashes
        .find(['/', '?', '#'])
        .unwrap_or(after_slashes.len());
    let authority = &after_slashes[..authority_end];
    if let Some(at) = authority.rfind('@') {
        let redacted = format!(
            "{scheme_lower}://{}{}",
            &authority[at + 1..],
            &after_slashes[authority_end..]
        );
        return Err(FetchError::CredentialsInUrl {
            url: sanitize(&redacted),
        });
    }
    let mut url = Url::parse(input).map_err(|e| invalid(input, e.to_string()))?;
    url.set_fragment(None);
    check_parsed(&url, policy)?;
    Ok(url)
}

/// Checks a parsed URL: scheme, credentials, port, IP-literal host class.
pub(crate) fn check_parsed(url: &Url, policy: &FetchPolicy) -> Result<(), FetchError> {
    let scheme = url.scheme();
    if scheme != "http" && scheme != "https" {
        return Err(FetchError::SchemeForbidden {
            url: sanitize(url.as_str()),
            scheme: sanitize(scheme),
        });
    }
    if !url.username().is_empty() || url.password().is_some() {
        let mut redacted = url.clone();
        // Both setters only fail for URLs without a host, which http(s) URLs always have.
        let _ = redacted.set_username("");
        let _ = redacted.set_password(None);
        return Err(FetchError::CredentialsInUrl {
            url: sanitize(redacted.as_str()),
        });
    }
    let Some(port) = url.port_or_known_default() else {
        return Err(invalid(url.as_str(), "no port"));
    };
    if FORBIDDEN_PORTS.contains(&port) {
        return Err(FetchError::PortForbidden {
            url: sanitize(url.as_str()),
            port,
        });
    }
    let ip = match url.host() {
        None => return Err(invalid(url.as_str(), "no host")),
        Some(Host::Domain("")) => return Err(invalid(url.as_str(), "empty host")),
        Some(Host::Domain(_)) => return Ok(()),
        Some(Host::Ipv4(ip)) => std::net::IpAddr::V4(ip),
        Some(Host::Ipv6(ip)) => std::net::IpAddr::V6(ip),
    };
    let class = classify_ip(ip);
    if !class.is_allowed(policy.allow_private) {
        return Err(FetchError::AddressForbidden {
            url: sanitize(url.as_str()),
            host: sanitize(url.host_str().unwrap_or_default()),
            addr: ip,
            class,
        });
    }
    Ok(())
}

/// Redirect statuses that are followed (with `GET`, no body).
pub(crate) const REDIRECT_STATUSES: &[u16] = &[301, 302, 303, 307, 308];

/// If `status`/`headers` ask for a redirect that is to be followed, the checked target.
///
/// - not a redirect status (300 and 304 are not followed), or no `Location`: `Ok(None)`, the
///   response is final;
/// - several `Location` fields, a value with whitespace/control characters/backslash, longer
///   than [`MAX_URL_BYTES`], not resolvable against `current`, or an https → http downgrade:
///   `fetch-redirect-invalid`;
/// - otherwise the target goes through [`check_url`] (scheme, credentials, port, IP literal).
pub(crate) fn redirect_target(
    current: &Url,
    status: u16,
    headers: &[(String, String)],
    policy: &FetchPolicy,
) -> Result<Option<Url>, FetchError> {
    if !REDIRECT_STATUSES.contains(&status) {
        return Ok(None);
    }
    let mut locations = headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("location"))
        .map(|(_, v)| v.as_str());
    let redirect_invalid = |reason: String| FetchError::RedirectInvalid {
        url: sanitize(current.as_str()),
        reason,
    };
    // FETCH-005: a redirect status without a target fails the fetch; it is not a final answer.
    let Some(location) = locations.next() else {
        return Err(redirect_invalid(format!(
            "{status} without a Location field"
        )));
    };
    if locations.next().is_some() {
        return Err(redirect_invalid("several Location fields".to_owned()));
    }
    if location.len() > MAX_URL_BYTES {
        return Err(redirect_invalid(format!(
            "Location longer than {MAX_URL_BYTES} bytes"
        )));
    }
    // Live header values are decoded one character per byte; a Location made of UTF-8 bytes is
    // read as UTF-8, as browsers do (the parser then percent-encodes it).
    let reinterpreted: Option<String> = if location.is_ascii() {
        None
    } else {
        location
            .chars()
            .map(|c| u8::try_from(u32::from(c)).ok())
            .collect::<Option<Vec<u8>>>()
            .and_then(|bytes| String::from_utf8(bytes).ok())
    };
    let location = reinterpreted.as_deref().unwrap_or(location);
    let location = location.trim_matches([' ', '\t']);
    if location.is_empty() {
        return Err(redirect_invalid("empty Location".to_owned()));
    }
    if location
        .chars()
        .any(|c| c <= ' ' || c == '\u{7f}' || c == '\\')
    {
        return Err(redirect_invalid(format!(
            "Location {} contains whitespace, a control character or a backslash",
            sanitize(location)
        )));
    }
    let target = current
        .join(location)
        .map_err(|e| redirect_invalid(format!("Location {}: {e}", sanitize(location))))?;
    if current.scheme() == "https" && target.scheme() == "http" {
        return Err(redirect_invalid(format!(
            "downgrade from https to {}",
            sanitize(target.as_str())
        )));
    }
    check_url(target.as_str(), policy).map(Some)
}

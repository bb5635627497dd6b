//! Typed fetch errors with stable codes.

use std::net::IpAddr;

use crate::address::AddressClass;

/// Why a fetch failed. Every variant has a stable [`code`](FetchError::code) starting with
/// `fetch-`.
///
/// URLs and other strings from the network or from documents are stored *sanitized* (control
/// characters escaped, length bounded, credentials removed) so that an error message is safe to
/// print on a terminal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FetchError {
    /// Not a URL, not absolute, too long, or written in a form this crate refuses (see
    /// [`check_url`](crate::check_url)).
    #[error("invalid URL {url}: {reason}")]
    UrlInvalid { url: String, reason: String },

    /// A scheme other than `http` or `https`.
    #[error("URL scheme {scheme:?} is not allowed (only http and https): {url}")]
    SchemeForbidden { url: String, scheme: String },

    /// `user:pass@` (or any userinfo) in the URL. The stored URL has the userinfo removed.
    #[error("credentials in URL are not allowed: {url}")]
    CredentialsInUrl { url: String },

    /// A port on the Fetch standard's "bad port" list (cross-protocol attacks), or port 0.
    #[error("port {port} is not allowed: {url}")]
    PortForbidden { url: String, port: u16 },

    /// The host is, or resolves to, an address the policy refuses.
    #[error("address {addr} ({class}) of host {host} is not allowed: {url}")]
    AddressForbidden {
        url: String,
        host: String,
        addr: IpAddr,
        class: AddressClass,
    },

    /// Name resolution failed or returned no address.
    #[error("cannot resolve host {host}: {reason}")]
    DnsFailed { host: String, reason: String },

    /// The TCP connection could not be established.
    #[error("cannot connect to {url}: {reason}")]
    ConnectFailed { url: String, reason: String },

    /// The connect timeout or the total timeout expired.
    #[error("timeout fetching {url}: {reason}")]
    Timeout { url: String, reason: String },

    /// The body is larger than the configured limit (declared or actually received).
    #[error("response body of {url} exceeds the limit of {limit} bytes")]
    TooLarge { url: String, limit: u64 },

    /// More redirects than the policy allows.
    #[error("more than {limit} redirects fetching {url}")]
    TooManyRedirects { url: String, limit: u32 },

    /// A redirect whose `Location` is missing-but-required, repeated, unparseable, too long, or a
    /// downgrade from https to http.
    #[error("invalid redirect from {url}: {reason}")]
    RedirectInvalid { url: String, reason: String },

    /// TLS handshake or certificate failure.
    #[error("TLS failure fetching {url}: {reason}")]
    TlsFailed { url: String, reason: String },

    /// The server spoke invalid HTTP (bad status line, bad framing, oversized header block,
    /// status outside 100..=599, ...).
    #[error("HTTP protocol error fetching {url}: {reason}")]
    ProtocolError { url: String, reason: String },

    /// The connection failed after it was established (reset, broken pipe, early end of body).
    #[error("I/O failure fetching {url}: {reason}")]
    IoFailed { url: String, reason: String },

    /// The URL is not in the web snapshot being replayed.
    #[error("URL not in snapshot: {url}")]
    NotInSnapshot { url: String },

    /// The verification's fetch budget (count, total bytes or deadline) is used up; the URL was
    /// not fetched, or its body was dropped.
    #[error("fetch budget exhausted ({what}) before {url}")]
    BudgetExhausted { url: String, what: String },

    /// The web snapshot itself is unusable.
    #[error("invalid web snapshot{}: {problem}", .url.as_ref().map(|u| format!(" (entry {u})")).unwrap_or_default())]
    SnapshotInvalid {
        /// The entry concerned, when the problem is in one entry.
        url: Option<String>,
        problem: SnapshotProblem,
    },
}

/// What is wrong with a web snapshot.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SnapshotProblem {
    /// The JSON text is not strict I-JSON or does not have the snapshot shape.
    #[error("JSON: {0}")]
    Json(String),
    /// `snapshot_version` is not 1.
    #[error("unsupported snapshot_version {0} (expected 1)")]
    UnsupportedVersion(u32),
    /// `body_base64` is not canonical standard base64 with padding.
    #[error("body_base64 is not valid base64: {0}")]
    Base64(String),
    /// Status outside 100..=599.
    #[error("status {0} is outside 100..=599")]
    Status(u16),
    /// A header name that is not an HTTP token, or a value with a control character but HTAB.
    #[error("invalid header field: {0}")]
    Header(String),
    /// A key or response URL that is not an absolute URL.
    #[error("invalid URL: {0}")]
    Url(String),
    /// Two entries whose URLs are the same after normalization but whose responses differ.
    #[error("two different responses for the same URL")]
    Ambiguous,
    /// A WARC file that is not well-formed or exceeds a bound of the WARC reader.
    #[error("WARC: {0}")]
    Warc(String),
}

impl FetchError {
    /// Stable code, `fetch-*`, for the incident registry.
    pub fn code(&self) -> &'static str {
        match self {
            FetchError::UrlInvalid { .. } => "fetch-url-invalid",
            FetchError::SchemeForbidden { .. } => "fetch-scheme-forbidden",
            FetchError::CredentialsInUrl { .. } => "fetch-credentials-in-url",
            FetchError::PortForbidden { .. } => "fetch-port-forbidden",
            FetchError::AddressForbidden { .. } => "fetch-address-forbidden",
            FetchError::DnsFailed { .. } => "fetch-dns-failed",
            FetchError::ConnectFailed { .. } => "fetch-connect-failed",
            FetchError::Timeout { .. } => "fetch-timeout",
            FetchError::TooLarge { .. } => "fetch-too-large",
            FetchError::TooManyRedirects { .. } => "fetch-too-many-redirects",
            FetchError::RedirectInvalid { .. } => "fetch-redirect-invalid",
            FetchError::TlsFailed { .. } => "fetch-tls-failed",
            FetchError::ProtocolError { .. } => "fetch-protocol-error",
            FetchError::IoFailed { .. } => "fetch-io-failed",
            FetchError::NotInSnapshot { .. } => "fetch-not-in-snapshot",
            FetchError::BudgetExhausted { .. } => "fetch-budget-exhausted",
            FetchError::SnapshotInvalid { .. } => "fetch-snapshot-invalid",
        }
    }

    /// Every code [`code`](FetchError::code) can return, in declaration order.
    pub const ALL_CODES: &'static [&'static str] = &[
        "fetch-url-invalid",
        "fetch-scheme-forbidden",
        "fetch-credentials-in-url",
        "fetch-port-forbidden",
        "fetch-address-forbidden",
        "fetch-dns-failed",
        "fetch-connect-failed",
        "fetch-timeout",
        "fetch-too-large",
        "fetch-too-many-redirects",
        "fetch-redirect-invalid",
        "fetch-tls-failed",
        "fetch-protocol-error",
        "fetch-io-failed",
        "fetch-not-in-snapshot",
        "fetch-budget-exhausted",
        "fetch-snapshot-invalid",
    ];
}

/// Maximum number of characters of an untrusted string kept in an error message.
const MAX_SHOWN: usize = 300;

/// Makes an untrusted string safe to print: control and other non-printing characters escaped
/// (`escape_debug`), length bounded (an ellipsis marks truncation).
pub(crate) fn sanitize(s: &str) -> String {
    let mut out = String::new();
    for (shown, c) in s.chars().enumerate() {
        if shown >= MAX_SHOWN {
            out.push('…');
            break;
        }
        let invisible = matches!(
            c,
            '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        );
        if c.is_control() || invisible {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

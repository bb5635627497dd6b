//! A small HTTP message model (the text parser is `http1.rs`).
//!
//! The model carries exactly what RFC 9421 needs: for a request the method, the target URI
//! (scheme, authority, path, query) and the request target as sent; for a response the status
//! code and optionally the related request (for `req` components); for both the ordered header
//! field lines and the content bytes (for RFC 9530 digests).

use crate::error::{Result, malformed};

/// Ordered header field lines `(name, value)`. Names compare case-insensitively; values are kept
/// as received minus surrounding whitespace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields {
    lines: Vec<(String, String)>,
}

impl Fields {
    /// An empty field section.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a field line. The name must be a token (RFC 9110 §5.1); the value may contain
    /// visible characters, spaces and tabs only (no CR, LF, NUL or other controls). Leading and
    /// trailing spaces/tabs are removed (RFC 9110 §5.5).
    pub fn push(&mut self, name: &str, value: &str) -> Result<()> {
        if !is_token(name) {
            return Err(malformed(format!("field name {name:?} is not a token")));
        }
        if let Some(c) = value.chars().find(|&c| !is_field_char(c)) {
            return Err(malformed(format!(
                "field {name}: value contains the forbidden character {c:?}"
            )));
        }
        self.lines
            .push((name.to_owned(), trim_ows(value).to_owned()));
        Ok(())
    }

    /// Builder form of [`Fields::push`].
    pub fn with(mut self, name: &str, value: &str) -> Result<Self> {
        self.push(name, value)?;
        Ok(self)
    }

    /// All values of the field `name` (case-insensitive), in message order.
    pub fn get_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.lines
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The values of `name` combined as in RFC 9110 §5.3 (joined with `", "`), or `None` when the
    /// field is absent.
    pub fn combined(&self, name: &str) -> Option<String> {
        let values: Vec<&str> = self.get_all(name).collect();
        if values.is_empty() {
            None
        } else {
            Some(values.join(", "))
        }
    }

    /// Whether the field is present at least once.
    pub fn contains(&self, name: &str) -> bool {
        self.get_all(name).next().is_some()
    }

    /// Removes every line of the field `name`.
    pub fn remove_all(&mut self, name: &str) {
        self.lines.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    }

    /// All lines in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.lines.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Number of field lines.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether there are no field lines.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// The target URI of a request: `scheme "://" authority path [ "?" query ]` (RFC 9110 §7.1).
/// No userinfo, no fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetUri {
    scheme: String,
    authority: String,
    path: String,
    query: Option<String>,
}

impl TargetUri {
    /// Parses an absolute `http`/`https`-style URI. The scheme is lowercased; everything else is
    /// kept as written. Rejects userinfo, fragments, whitespace and non-ASCII characters.
    pub fn parse(uri: &str) -> Result<Self> {
        if let Some(c) = uri.chars().find(|c| !c.is_ascii_graphic()) {
            return Err(malformed(format!("target URI contains {c:?}")));
        }
        if uri.contains('#') {
            return Err(malformed("target URI must not contain a fragment"));
        }
        let (scheme, rest) = uri
            .split_once("://")
            .ok_or_else(|| malformed(format!("target URI {uri:?} is not absolute")))?;
        if !is_scheme(scheme) {
            return Err(malformed(format!("invalid URI scheme {scheme:?}")));
        }
        let auth_end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, path_query) = rest.split_at(auth_end);
        validate_authority(authority)?;
        let (path, query) = match path_query.split_once('?') {
            Some((p, q)) => (p, Some(q.to_owned())),
            None => (path_query, None),
        };
        Ok(Self {
            scheme: scheme.to_ascii_lowercase(),
            authority: authority.to_owned(),
            path: path.to_owned(),
            query,
        })
    }

    /// Builds a target URI from parts (e.g. origin-form target plus `Host`).
    pub fn from_parts(
        scheme: &str,
        authority: &str,
        path: &str,
        query: Option<&str>,
    ) -> Result<Self> {
        let mut uri = format!("{scheme}://{authority}{path}");
        if let Some(q) = query {
            uri.push('?');
            uri.push_str(q);
        }
        let parsed = Self::parse(&uri)?;
        if parsed.authority != authority || parsed.path != path {
            return Err(malformed(format!("invalid target URI parts for {uri:?}")));
        }
        Ok(parsed)
    }

    /// The scheme, lowercase.
    pub fn scheme(&self) -> &str {
        &self.scheme
    }

    /// The authority as written (`host[:port]`).
    pub fn authority(&self) -> &str {
        &self.authority
    }

    /// The path as written (may be empty).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The query without the leading `?`, if the URI has one (possibly empty).
    pub fn query(&self) -> Option<&str> {
        self.query.as_deref()
    }
}

impl std::fmt::Display for TargetUri {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}://{}{}", self.scheme, self.authority, self.path)?;
        if let Some(q) = &self.query {
            write!(f, "?{q}")?;
        }
        Ok(())
    }
}

/// An HTTP request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The method, case-sensitive (e.g. `POST`).
    pub method: String,
    /// The target URI.
    pub target: TargetUri,
    /// The request target exactly as on the request line (`@request-target`); when `None`, the
    /// origin form `path[?query]` of [`Request::target`] is used.
    pub request_target: Option<String>,
    /// Header field lines.
    pub headers: Fields,
    /// Content bytes.
    pub body: Vec<u8>,
}

impl Request {
    /// A request with no header fields and no content. `method` must be a token.
    pub fn new(method: &str, target_uri: &str) -> Result<Self> {
        if !is_token(method) {
            return Err(malformed(format!("method {method:?} is not a token")));
        }
        Ok(Self {
            method: method.to_owned(),
            target: TargetUri::parse(target_uri)?,
            request_target: None,
            headers: Fields::new(),
            body: Vec::new(),
        })
    }
}

/// An HTTP response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The three-digit status code.
    pub status: u16,
    /// Header field lines.
    pub headers: Fields,
    /// Content bytes.
    pub body: Vec<u8>,
    /// The request this responds to, for `req` components (RFC 9421 §2.4).
    pub request: Option<Box<Request>>,
}

impl Response {
    /// A response with no header fields and no content. `status` must be 100..=999.
    pub fn new(status: u16) -> Result<Self> {
        if !(100..=999).contains(&status) {
            return Err(malformed(format!(
                "status {status} is not a three-digit code"
            )));
        }
        Ok(Self {
            status,
            headers: Fields::new(),
            body: Vec::new(),
            request: None,
        })
    }
}

/// A request or a response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// A request.
    Request(Request),
    /// A response.
    Response(Response),
}

impl Message {
    /// The header field lines.
    pub fn headers(&self) -> &Fields {
        match self {
            Message::Request(r) => &r.headers,
            Message::Response(r) => &r.headers,
        }
    }

    /// The header field lines, mutable.
    pub fn headers_mut(&mut self) -> &mut Fields {
        match self {
            Message::Request(r) => &mut r.headers,
            Message::Response(r) => &mut r.headers,
        }
    }

    /// The content bytes.
    pub fn body(&self) -> &[u8] {
        match self {
            Message::Request(r) => &r.body,
            Message::Response(r) => &r.body,
        }
    }

    /// The content bytes, mutable.
    pub fn body_mut(&mut self) -> &mut Vec<u8> {
        match self {
            Message::Request(r) => &mut r.body,
            Message::Response(r) => &mut r.body,
        }
    }

    /// Serializes the message as HTTP/1.1 text with CRLF line endings: the start line (a request
    /// uses its request target, or the origin form of its target URI; a response has no reason
    /// phrase), the field lines in order, an empty line, then the content. No field is added or
    /// removed (in particular neither `Host` nor `Content-Length`).
    pub fn to_http1(&self) -> Vec<u8> {
        let mut out = String::new();
        match self {
            Message::Request(r) => {
                let target = match &r.request_target {
                    Some(t) => t.clone(),
                    None => {
                        let path = if r.target.path().is_empty() {
                            "/"
                        } else {
                            r.target.path()
                        };
                        match r.target.query() {
                            Some(q) => format!("{path}?{q}"),
                            None => path.to_owned(),
                        }
                    }
                };
                out.push_str(&format!("{} {target} HTTP/1.1\r\n", r.method));
            }
            Message::Response(r) => out.push_str(&format!("HTTP/1.1 {:03} \r\n", r.status)),
        }
        for (name, value) in self.headers().iter() {
            out.push_str(name);
            out.push_str(": ");
            out.push_str(value);
            out.push_str("\r\n");
        }
        out.push_str("\r\n");
        let mut bytes = out.into_bytes();
        bytes.extend_from_slice(self.body());
        bytes
    }
}

/// RFC 9110 §5.6.2 token.
pub(crate) fn is_token(s: &str) -> bool {
    !s.is_empty()
        && s.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'!' | b'#'
                        | b'$'
                        | b'%'
                        | b'&'
                        | b'\''
                        | b'*'
                        | b'+'
                        | b'-'
                        | b'.'
                        | b'^'
                        | b'_'
                        | b'`'
                        | b'|'
                        | b'~'
                )
        })
}

/// Characters allowed in a field value: VCHAR, SP, HTAB, and non-ASCII (obs-text as UTF-8).
pub(crate) fn is_field_char(c: char) -> bool {
    c == '\t' || (' '..='~').contains(&c) || !c.is_ascii()
}

/// Strips optional whitespace (SP / HTAB) at both ends.
pub(crate) fn trim_ows(s: &str) -> &str {
    s.trim_matches([' ', '\t'])
}

/// RFC 3986 §3.1 scheme.
pub(crate) fn is_scheme(s: &str) -> bool {
    let mut bytes = s.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

fn validate_authority(authority: &str) -> Result<()> {
    if authority.is_empty() {
        return Err(malformed("empty authority"));
    }
    if authority.contains('@') {
        return Err(malformed("authority must not contain userinfo"));
    }
    if let Some(c) = authority
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=:[]%".contains(*c)))
    {
        return Err(malformed(format!("authority contains {c:?}")));
    }
    Ok(())
}

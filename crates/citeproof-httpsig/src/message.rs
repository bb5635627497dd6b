//! A small HTTP message model and a strict HTTP/1.1 text parser (RFC 9112).
//!
//! The model carries exactly what RFC 9421 needs: for a request the method, the target URI
//! (scheme, authority, path, query) and the request target as sent; for a response the status
//! code and optionally the related request (for `req` components); for both the ordered header
//! field lines and the content bytes (for RFC 9530 digests).

use crate::error::{HttpSigError, Result, malformed};

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

/// Default [`ParseOptions::max_header_fields`].
pub const DEFAULT_MAX_HEADER_FIELDS: usize = 100;
/// Default [`ParseOptions::max_header_bytes`].
pub const DEFAULT_MAX_HEADER_BYTES: usize = 64 * 1024;
/// Default [`ParseOptions::max_body_bytes`].
pub const DEFAULT_MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// Options and limits for [`parse_http1_with`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseOptions {
    /// Scheme of the target URI for origin-form requests (HTTP/1.1 text does not carry it).
    pub scheme: String,
    /// Maximum number of header field lines.
    pub max_header_fields: usize,
    /// Maximum size of the start line plus header section, in bytes.
    pub max_header_bytes: usize,
    /// Maximum content size, in bytes.
    pub max_body_bytes: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        Self {
            scheme: "https".to_owned(),
            max_header_fields: DEFAULT_MAX_HEADER_FIELDS,
            max_header_bytes: DEFAULT_MAX_HEADER_BYTES,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
        }
    }
}

/// Parses an HTTP/1.1 message (request or response) with [`ParseOptions::default`] (origin-form
/// requests get the `https` scheme).
pub fn parse_http1(input: &[u8]) -> Result<Message> {
    parse_http1_with(input, &ParseOptions::default())
}

/// Parses an HTTP/1.1 message (RFC 9112) strictly.
///
/// * Lines end with CRLF or a bare LF (RFC 9112 §2.2); a CR anywhere else is rejected.
/// * A start line beginning with `HTTP/` is a status line, anything else a request line
///   (`method SP request-target SP HTTP/1.x`, single spaces). Request targets in origin form
///   (`/path?query`) take their authority from the single `Host` field and their scheme from
///   [`ParseOptions::scheme`]; absolute form (`https://host/path`) is taken as is. Authority and
///   asterisk forms are rejected.
/// * Field lines are `name ":" OWS value OWS`; obs-fold (a line starting with SP or HTAB), space
///   before the colon, invalid names and control characters are rejected (RFC 9112 §5).
/// * The header section ends with an empty line; everything after it is the content. When
///   `Content-Length` is present the content must have exactly that length; a request without
///   `Content-Length` must have no content; `Transfer-Encoding` is not supported.
pub fn parse_http1_with(input: &[u8], opts: &ParseOptions) -> Result<Message> {
    let mut pos = 0usize;
    let mut line_no = 0usize;
    let mut start: Option<String> = None;
    let mut fields = Fields::new();
    let mut terminated = false;

    while pos < input.len() {
        let rest = &input[pos..];
        let nl = rest.iter().position(|&b| b == b'\n').ok_or_else(|| {
            syntax(
                line_no + 1,
                "header section does not end with an empty line",
            )
        })?;
        let raw = &rest[..nl];
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        pos += nl + 1;
        line_no += 1;
        if pos > opts.max_header_bytes {
            return Err(HttpSigError::MessageTooLarge {
                detail: format!("header section exceeds {} bytes", opts.max_header_bytes),
            });
        }
        if line.contains(&b'\r') {
            return Err(syntax(line_no, "bare CR in line"));
        }
        if start.is_none() {
            if line.is_empty() {
                return Err(syntax(line_no, "empty start line"));
            }
            let text = std::str::from_utf8(line)
                .map_err(|_| syntax(line_no, "start line is not valid UTF-8"))?;
            start = Some(text.to_owned());
            continue;
        }
        if line.is_empty() {
            terminated = true;
            break;
        }
        if fields.len() >= opts.max_header_fields {
            return Err(HttpSigError::MessageTooLarge {
                detail: format!("more than {} header fields", opts.max_header_fields),
            });
        }
        parse_field_line(line, line_no, &mut fields)?;
    }
    let start = start.ok_or_else(|| syntax(0, "empty message"))?;
    if !terminated {
        return Err(syntax(
            line_no,
            "header section does not end with an empty line",
        ));
    }
    let body = &input[pos..];
    if body.len() > opts.max_body_bytes {
        return Err(HttpSigError::MessageTooLarge {
            detail: format!("content exceeds {} bytes", opts.max_body_bytes),
        });
    }
    if fields.contains("transfer-encoding") {
        return Err(syntax(0, "Transfer-Encoding is not supported"));
    }
    let content_length = content_length(&fields)?;
    if let Some(len) = content_length
        && len != body.len() as u64
    {
        return Err(syntax(
            0,
            format!(
                "Content-Length is {len} but the content has {} bytes",
                body.len()
            ),
        ));
    }

    if let Some(status_line) = start.strip_prefix("HTTP/") {
        let status = parse_status_line(status_line)?;
        Ok(Message::Response(Response {
            status,
            headers: fields,
            body: body.to_vec(),
            request: None,
        }))
    } else {
        let (method, request_target, target) = parse_request_line(&start, &fields, opts)?;
        if content_length.is_none() && !body.is_empty() {
            return Err(syntax(
                0,
                "request has content but no Content-Length (RFC 9112 §6.3)",
            ));
        }
        Ok(Message::Request(Request {
            method,
            target,
            request_target: Some(request_target),
            headers: fields,
            body: body.to_vec(),
        }))
    }
}

fn syntax(line: usize, detail: impl Into<String>) -> HttpSigError {
    HttpSigError::MessageSyntax {
        line,
        detail: detail.into(),
    }
}

fn parse_field_line(line: &[u8], line_no: usize, fields: &mut Fields) -> Result<()> {
    if matches!(line.first(), Some(b' ' | b'\t')) {
        return Err(syntax(
            line_no,
            "obsolete line folding (obs-fold) is not accepted",
        ));
    }
    let colon = line
        .iter()
        .position(|&b| b == b':')
        .ok_or_else(|| syntax(line_no, "field line has no colon"))?;
    let name = std::str::from_utf8(&line[..colon])
        .map_err(|_| syntax(line_no, "field name is not ASCII"))?;
    if !is_token(name) {
        return Err(syntax(
            line_no,
            format!("invalid field name {name:?} (must be a token, no whitespace)"),
        ));
    }
    let value_bytes = &line[colon + 1..];
    if let Some(b) = value_bytes
        .iter()
        .find(|&&b| !(b == b'\t' || (0x20..0x7f).contains(&b) || b >= 0x80))
    {
        return Err(syntax(
            line_no,
            format!("field {name}: value contains control byte 0x{b:02x}"),
        ));
    }
    let value = std::str::from_utf8(value_bytes)
        .map_err(|_| syntax(line_no, format!("field {name}: value is not valid UTF-8")))?;
    fields
        .push(name, value)
        .map_err(|e| syntax(line_no, e.to_string()))
}

fn content_length(fields: &Fields) -> Result<Option<u64>> {
    let mut found: Option<u64> = None;
    for value in fields.get_all("content-length") {
        for part in value.split(',') {
            let part = trim_ows(part);
            if part.is_empty() || part.len() > 18 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax(0, format!("invalid Content-Length {value:?}")));
            }
            let n: u64 = part
                .parse()
                .map_err(|_| syntax(0, format!("invalid Content-Length {value:?}")))?;
            match found {
                Some(prev) if prev != n => {
                    return Err(syntax(0, "conflicting Content-Length values"));
                }
                _ => found = Some(n),
            }
        }
    }
    Ok(found)
}

fn parse_status_line(after_http: &str) -> Result<u16> {
    // after_http = "1.1 200 OK"
    let (version, rest) = after_http
        .split_once(' ')
        .ok_or_else(|| syntax(1, "invalid status line"))?;
    check_version(version)?;
    let (code, reason) = match rest.split_once(' ') {
        Some((c, r)) => (c, Some(r)),
        None => (rest, None),
    };
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax(1, format!("invalid status code {code:?}")));
    }
    if let Some(reason) = reason
        && reason.chars().any(|c| !is_field_char(c))
    {
        return Err(syntax(1, "invalid character in reason phrase"));
    }
    let status: u16 = code
        .parse()
        .map_err(|_| syntax(1, format!("invalid status code {code:?}")))?;
    if status < 100 {
        return Err(syntax(1, format!("invalid status code {code:?}")));
    }
    Ok(status)
}

fn check_version(version: &str) -> Result<()> {
    if version == "1.1" || version == "1.0" {
        Ok(())
    } else {
        Err(syntax(
            1,
            format!("unsupported HTTP version HTTP/{version}"),
        ))
    }
}

fn parse_request_line(
    line: &str,
    fields: &Fields,
    opts: &ParseOptions,
) -> Result<(String, String, TargetUri)> {
    let mut parts = line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(syntax(
            1,
            "request line must be `method SP request-target SP HTTP-version`",
        ));
    };
    if !is_token(method) {
        return Err(syntax(1, format!("invalid method {method:?}")));
    }
    let version = version
        .strip_prefix("HTTP/")
        .ok_or_else(|| syntax(1, format!("invalid HTTP version {version:?}")))?;
    check_version(version)?;
    if target.is_empty() || !target.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(syntax(1, format!("invalid request target {target:?}")));
    }
    if target.contains('#') {
        return Err(syntax(1, "request target must not contain a fragment"));
    }
    let uri = if target.starts_with('/') {
        let mut hosts = fields.get_all("host");
        let host = match (hosts.next(), hosts.next()) {
            (Some(h), None) => h,
            (None, _) => {
                return Err(syntax(0, "origin-form request without a Host field"));
            }
            (Some(_), Some(_)) => return Err(syntax(0, "more than one Host field")),
        };
        if !is_scheme(&opts.scheme) {
            return Err(malformed(format!(
                "invalid scheme option {:?}",
                opts.scheme
            )));
        }
        let (path, query) = match target.split_once('?') {
            Some((p, q)) => (p, Some(q)),
            None => (target, None),
        };
        TargetUri::from_parts(&opts.scheme, host, path, query)
            .map_err(|e| syntax(0, format!("invalid Host or target: {e}")))?
    } else if target.contains("://") {
        TargetUri::parse(target).map_err(|e| syntax(1, e.to_string()))?
    } else {
        return Err(syntax(
            1,
            format!("unsupported request-target form {target:?} (origin or absolute form only)"),
        ));
    };
    Ok((method.to_owned(), target.to_owned(), uri))
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
fn is_field_char(c: char) -> bool {
    c == '\t' || (' '..='~').contains(&c) || !c.is_ascii()
}

/// Strips optional whitespace (SP / HTAB) at both ends.
pub(crate) fn trim_ows(s: &str) -> &str {
    s.trim_matches([' ', '\t'])
}

fn is_scheme(s: &str) -> bool {
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

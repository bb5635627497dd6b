//! The strict HTTP/1.1 text parser (RFC 9112): a message as a file holds it, start line, header
//! section and content, framed by `Content-Length` alone, within limits.

use crate::error::{HttpSigError, Result, malformed};
use crate::message::{
    Fields, Message, Request, Response, TargetUri, is_field_char, is_scheme, is_token, trim_ows,
};

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
    let Head {
        start,
        fields,
        body_start,
    } = read_head(input, opts)?;
    let body = input.get(body_start..).unwrap_or_default();
    let content_length = check_framing(&fields, body, opts)?;
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

/// The start line and header section of a message, and where its content starts.
struct Head {
    start: String,
    fields: Fields,
    body_start: usize,
}

/// Reads lines up to the empty line that ends the header section (RFC 9112 §2.1), within the
/// limits of `opts`.
fn read_head(input: &[u8], opts: &ParseOptions) -> Result<Head> {
    let mut pos = 0usize;
    let mut line_no = 0usize;
    let mut start: Option<String> = None;
    let mut fields = Fields::new();
    while let Some(rest) = input.get(pos..).filter(|r| !r.is_empty()) {
        let nl = rest.iter().position(|&b| b == b'\n').ok_or_else(|| {
            syntax(
                line_no + 1,
                "header section does not end with an empty line",
            )
        })?;
        let raw = rest.get(..nl).unwrap_or_default();
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
        let Some(start) = &start else {
            start = Some(start_line(line, line_no)?);
            continue;
        };
        if line.is_empty() {
            return Ok(Head {
                start: start.clone(),
                fields,
                body_start: pos,
            });
        }
        if fields.len() >= opts.max_header_fields {
            return Err(HttpSigError::MessageTooLarge {
                detail: format!("more than {} header fields", opts.max_header_fields),
            });
        }
        parse_field_line(line, line_no, &mut fields)?;
    }
    if start.is_none() {
        return Err(syntax(0, "empty message"));
    }
    Err(syntax(
        line_no,
        "header section does not end with an empty line",
    ))
}

/// The start line, as text (RFC 9112 §2.1: it is not empty).
fn start_line(line: &[u8], line_no: usize) -> Result<String> {
    if line.is_empty() {
        return Err(syntax(line_no, "empty start line"));
    }
    std::str::from_utf8(line)
        .map(str::to_owned)
        .map_err(|_| syntax(line_no, "start line is not valid UTF-8"))
}

/// The content limit, and framing by `Content-Length` only (RFC 9112 §6): its value, when
/// present, which the content must match.
fn check_framing(fields: &Fields, body: &[u8], opts: &ParseOptions) -> Result<Option<u64>> {
    if body.len() > opts.max_body_bytes {
        return Err(HttpSigError::MessageTooLarge {
            detail: format!("content exceeds {} bytes", opts.max_body_bytes),
        });
    }
    if fields.contains("transfer-encoding") {
        return Err(syntax(0, "Transfer-Encoding is not supported"));
    }
    let content_length = content_length(fields)?;
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
    Ok(content_length)
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

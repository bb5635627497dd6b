//! Web URLs (profile "Definitions").
//!
//! A web URL is at most 2048 bytes, matches RFC 3986 `absolute-URI` optionally followed by
//! `#fragment`, has scheme `http` or `https` (any case), an authority with a non-empty host and
//! no userinfo, and only visible ASCII. The grammar is checked here by hand (RFC 3986 §3, §2),
//! because WHATWG parsers accept and silently repair many strings RFC 3986 rejects.

/// Longest web URL, in bytes.
pub const MAX_WEB_URL_BYTES: usize = 2048;

/// Why a string is not a web URL.
pub fn web_url_problem(text: &str) -> Option<String> {
    if text.len() > MAX_WEB_URL_BYTES {
        return Some(format!(
            "URL is {} bytes; the limit is {MAX_WEB_URL_BYTES}",
            text.len()
        ));
    }
    if text.is_empty() {
        return Some("URL is empty".into());
    }
    if let Some(c) = text.chars().find(|c| !('\x21'..='\x7e').contains(c)) {
        return Some(format!(
            "URL contains {c:?}; only visible ASCII is allowed (percent-encode the rest)"
        ));
    }
    let Some((scheme, rest)) = text.split_once(':') else {
        return Some("URL has no scheme".into());
    };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Some(format!("URL scheme `{scheme}` is not http or https"));
    }
    let Some(rest) = rest.strip_prefix("//") else {
        return Some("URL has no authority (`//host`)".into());
    };
    // Split off the fragment, then the query, then the authority from the path.
    let (before_fragment, fragment) = match rest.split_once('#') {
        Some((a, f)) => (a, Some(f)),
        None => (rest, None),
    };
    if let Some(f) = fragment
        && let Some(problem) = check_query_or_fragment(f, "fragment")
    {
        return Some(problem);
    }
    let (hier, query) = match before_fragment.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (before_fragment, None),
    };
    if let Some(q) = query
        && let Some(problem) = check_query_or_fragment(q, "query")
    {
        return Some(problem);
    }
    let (authority, path) = match hier.find('/') {
        Some(i) => (&hier[..i], &hier[i..]),
        None => (hier, ""),
    };
    if let Some(problem) = check_authority(authority) {
        return Some(problem);
    }
    for segment in path.split('/') {
        if let Some(problem) = check_chars(segment, "path", is_pchar) {
            return Some(problem);
        }
    }
    None
}

/// `true` when `text` is a web URL.
pub fn is_web_url(text: &str) -> bool {
    web_url_problem(text).is_none()
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

fn is_pchar(b: u8) -> bool {
    is_unreserved(b) || is_sub_delim(b) || matches!(b, b':' | b'@')
}

/// Checks every byte with `allowed`, treating `%XX` as one pct-encoded octet.
fn check_chars(part: &str, what: &str, allowed: impl Fn(u8) -> bool) -> Option<String> {
    let bytes = part.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'%' {
            let ok = bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
            if !ok {
                return Some(format!(
                    "URL {what} has a `%` not followed by two hex digits"
                ));
            }
            i += 3;
            continue;
        }
        if !allowed(b) {
            return Some(format!(
                "URL {what} contains `{}`, which RFC 3986 does not allow there",
                b as char
            ));
        }
        i += 1;
    }
    None
}

fn check_query_or_fragment(part: &str, what: &str) -> Option<String> {
    check_chars(part, what, |b| is_pchar(b) || b == b'/' || b == b'?')
}

fn check_authority(authority: &str) -> Option<String> {
    if authority.contains('@') {
        return Some("URL has userinfo (`user@`) in its authority".into());
    }
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let Some(end) = rest.find(']') else {
            return Some("URL IP literal has no closing `]`".into());
        };
        let literal = &rest[..end];
        if !is_ip_literal(literal) {
            return Some(format!("URL IP literal `[{literal}]` is not valid"));
        }
        let after = &rest[end + 1..];
        let port = match after.strip_prefix(':') {
            Some(p) => Some(p),
            None if after.is_empty() => None,
            None => return Some("URL authority has text after the IP literal".into()),
        };
        (None, port)
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (Some(h), Some(p)),
            None => (Some(authority), None),
        }
    };
    if let Some(host) = host {
        if host.is_empty() {
            return Some("URL host is empty".into());
        }
        if let Some(problem) = check_chars(host, "host", |b| is_unreserved(b) || is_sub_delim(b)) {
            return Some(problem);
        }
    }
    if let Some(port) = port
        && !port.bytes().all(|b| b.is_ascii_digit())
    {
        return Some(format!("URL port `{port}` is not a decimal number"));
    }
    None
}

/// RFC 3986 `IPv6address / IPvFuture` (the part between `[` and `]`).
fn is_ip_literal(literal: &str) -> bool {
    if let Some(rest) = literal
        .strip_prefix('v')
        .or_else(|| literal.strip_prefix('V'))
    {
        let Some((hex, tail)) = rest.split_once('.') else {
            return false;
        };
        return !hex.is_empty()
            && hex.bytes().all(|b| b.is_ascii_hexdigit())
            && !tail.is_empty()
            && tail
                .bytes()
                .all(|b| is_unreserved(b) || is_sub_delim(b) || b == b':');
    }
    // Rust's parser accepts exactly the RFC 4291 text forms (with an embedded IPv4 tail), which
    // is the RFC 3986 `IPv6address` production; zone identifiers are refused, as in RFC 3986.
    literal.parse::<std::net::Ipv6Addr>().is_ok()
}

/// The key under which two URLs compare equal: the WHATWG serialization, or the input itself
/// when the WHATWG parser rejects it (such a URL is only equal to itself).
pub fn equality_key(text: &str) -> String {
    match url::Url::parse(text) {
        Ok(u) => u.into(),
        Err(_) => text.to_owned(),
    }
}

/// URL equality of the profile.
pub fn urls_equal(a: &str, b: &str) -> bool {
    a == b || equality_key(a) == equality_key(b)
}

/// The origin `scheme://host[:port]` (WHATWG, default port omitted) of a URL.
pub fn origin_of(text: &str) -> Option<String> {
    let u = url::Url::parse(text).ok()?;
    let origin = u.origin();
    if !origin.is_tuple() {
        return None;
    }
    Some(origin.ascii_serialization())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn web_urls() {
        for ok in [
            "https://example.com",
            "HTTP://Example.COM:8080/a/b?c=d#e",
            "https://example.com/%E2%82%AC?q=%20#frag/with?chars",
            "http://[::1]:80/",
            "http://[v1.x:y]/",
            "https://example.com/a:b@c!$&'()*+,;=",
        ] {
            assert_eq!(web_url_problem(ok), None, "{ok}");
        }
        for bad in [
            "",
            "ftp://example.com/",
            "https:example.com",
            "https://",
            "https://user@example.com/",
            "https://@example.com/",
            "https://exa mple.com/",
            "https://example.com/é",
            "https://example.com/%zz",
            "https://example.com/a#b#c",
            "https://example.com:80a/",
            "https://[::1/",
            "https://[fe80::1%25eth0]/",
            "https://exa<mple.com/",
            "https://example.com/\"",
        ] {
            assert!(web_url_problem(bad).is_some(), "{bad}");
        }
        let long = format!("https://example.com/{}", "a".repeat(2048));
        assert!(web_url_problem(&long).is_some());
    }
}

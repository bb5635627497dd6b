//! Differential test of the strict HTTP/1.1 parser against `httparse` (hyper's parser), an
//! independent implementation of RFC 9112's start line and header section, over generated
//! messages near the grammar's edges (line endings, separators, status codes, obs-text, control
//! characters, obs-fold, leading empty lines).
//!
//! What must hold: citeproof never accepts a head `httparse` refuses; where both accept they read
//! the same method, request target or status and the same field lines; and where only
//! `httparse` accepts, the input breaks one of the rules citeproof adds on purpose, listed in
//! [`stricter_on_purpose`] (each a line of the `parse_http1_with` documentation or of RFC 9112
//! where `httparse` is lenient). The generated messages leave framing out of the comparison: no
//! `Content-Length` or `Transfer-Encoding`, no request content, one valid `Host`.
//!
//! This is also why the parser is not built on `httparse`: every rule in the list would have to
//! be checked again after it, and its errors carry no line number, which the parser's messages
//! give (`line 3: field line has no colon`), so the lines would have to be scanned a second time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_httpsig::{Message, parse_http1};
use proptest::prelude::*;

/// What a head says, as either parser reads it.
#[derive(Debug, PartialEq, Eq)]
enum Head {
    Request {
        method: String,
        target: String,
        fields: Vec<(String, String)>,
    },
    Response {
        status: u16,
        fields: Vec<(String, String)>,
    },
}

fn trim_ows(v: &[u8]) -> &[u8] {
    let start = v.iter().position(|b| !matches!(b, b' ' | b'\t'));
    let end = v.iter().rposition(|b| !matches!(b, b' ' | b'\t'));
    match (start, end) {
        (Some(s), Some(e)) => &v[s..=e],
        _ => &[],
    }
}

/// `httparse`'s reading of the head, with its default configuration (no obs-fold, no space
/// before a colon); `None` when it refuses it or finds no end of the header section. Field
/// values stay bytes here: whether they are UTF-8 is one of citeproof's own rules.
fn httparse_head(input: &[u8]) -> Option<(Head, Vec<Vec<u8>>)> {
    let mut headers = [httparse::EMPTY_HEADER; 16];
    let fields = |h: &[httparse::Header<'_>]| -> (Vec<(String, String)>, Vec<Vec<u8>>) {
        let raw: Vec<Vec<u8>> = h.iter().map(|h| trim_ows(h.value).to_vec()).collect();
        let text = h
            .iter()
            .zip(&raw)
            .map(|(h, v)| (h.name.to_owned(), String::from_utf8_lossy(v).into_owned()))
            .collect();
        (text, raw)
    };
    // Like citeproof, a start line beginning with `HTTP/` is a status line.
    let skipped = input
        .iter()
        .position(|b| !matches!(b, b'\r' | b'\n'))
        .unwrap_or(input.len());
    let complete = |r: httparse::Result<usize>| matches!(r, Ok(httparse::Status::Complete(_)));
    if input[skipped..].starts_with(b"HTTP/") {
        let mut response = httparse::Response::new(&mut headers);
        if !complete(response.parse(input)) {
            return None;
        }
        let (fields, raw) = fields(response.headers);
        let status = response.code?;
        Some((Head::Response { status, fields }, raw))
    } else {
        let mut request = httparse::Request::new(&mut headers);
        if !complete(request.parse(input)) {
            return None;
        }
        let (fields, raw) = fields(request.headers);
        let (method, target) = (request.method?.to_owned(), request.path?.to_owned());
        Some((
            Head::Request {
                method,
                target,
                fields,
            },
            raw,
        ))
    }
}

fn citeproof_head(message: &Message) -> Head {
    let fields = message
        .headers()
        .iter()
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect();
    match message {
        Message::Request(r) => Head::Request {
            method: r.method.clone(),
            target: r.request_target.clone().unwrap_or_default(),
            fields,
        },
        Message::Response(r) => Head::Response {
            status: r.status,
            fields,
        },
    }
}

/// The rules citeproof adds to what `httparse` checks, each with where it comes from. An input
/// both read differently must break one of them.
fn stricter_on_purpose(input: &[u8], head: &Head, raw_values: &[Vec<u8>]) -> Option<&'static str> {
    if input.starts_with(b"\n") || input.starts_with(b"\r\n") {
        // RFC 9112 §2.2 lets a server skip empty lines before a request line; a file that is
        // one message has none.
        return Some("an empty line before the start line");
    }
    let start_line = input.split(|b| *b == b'\n').next().unwrap_or_default();
    if std::str::from_utf8(start_line).is_err() {
        return Some("a start line that is not UTF-8 (obs-text in the reason phrase)");
    }
    if raw_values.iter().any(|v| std::str::from_utf8(v).is_err()) {
        return Some("a field value that is not UTF-8 (obs-text)");
    }
    match head {
        Head::Response { status, .. } if *status < 100 => Some("a status code below 100"),
        Head::Request { target, .. } if !target.is_ascii() => {
            Some("a request target with non-ASCII characters")
        }
        Head::Request { target, .. } if target.contains('#') => {
            Some("a request target with a fragment")
        }
        Head::Request { target, .. } if !target.starts_with('/') && !target.contains("://") => {
            Some("authority or asterisk form (origin and absolute form only)")
        }
        Head::Request { target, .. } if target.contains("://") && target.contains('@') => {
            Some("an absolute-form target with userinfo")
        }
        _ => None,
    }
}

/// A valid choice most of the time, an edge case otherwise, so that most messages are read by
/// both parsers and each edge case is met alone.
fn pick(
    valid: &'static [&'static [u8]],
    edges: &'static [&'static [u8]],
) -> impl Strategy<Value = &'static [u8]> {
    prop_oneof![
        12 => proptest::sample::select(valid),
        1 => proptest::sample::select(edges),
    ]
}

fn eol() -> impl Strategy<Value = &'static [u8]> {
    pick(&[b"\r\n", b"\n"], &[b"\r", b"\r\r\n"])
}

fn request_line() -> impl Strategy<Value = Vec<u8>> {
    (
        pick(&[b"GET", b"POST", b"M-SEARCH"], &[b"G(T", b"", b"GE\x01T"]),
        pick(&[b" "], &[b"  ", b"\t"]),
        pick(
            &[b"/", b"/a?b=c", b"https://a.example/p?q"],
            &[
                b"/caf\xc3\xa9",
                b"/a#f",
                b"https://u@a.example/",
                b"a.example:443",
                b"*",
                b"/a\x01",
                b"/a\x7f",
                b"/\xff",
                b"",
            ],
        ),
        pick(&[b" "], &[b"  "]),
        pick(
            &[b"HTTP/1.1", b"HTTP/1.0"],
            &[b"HTTP/2", b"HTTP/1.10", b"http/1.1", b"HTTP/1.1 x"],
        ),
    )
        .prop_map(|(m, s1, t, s2, v)| [m, s1, t, s2, v].concat())
}

fn status_line() -> impl Strategy<Value = Vec<u8>> {
    (
        pick(&[b"HTTP/1.1 ", b"HTTP/1.0 "], &[b"HTTP/3 ", b"HTTP/1.1  "]),
        pick(
            &[b"200", b"204", b"404", b"999"],
            &[b"099", b"000", b"20", b"2000", b"abc"],
        ),
        pick(
            &[b"", b" ", b" OK", b" Not Found", b" caf\xc3\xa9", b" a\tb"],
            &[b" caf\xe9", b" a\x01b", b" a\x7f"],
        ),
    )
        .prop_map(|(v, c, r)| [v, c, r].concat())
}

fn field_line() -> impl Strategy<Value = Vec<u8>> {
    (
        pick(
            &[b"X-A", b"x-b", b"Accept"],
            &[b"X A", b"X(A)", b"", b"Caf\xc3\xa9", b" X-C"],
        ),
        pick(&[b": ", b":", b":\t"], &[b" : ", b"\t:"]),
        pick(
            &[
                b"v",
                b"  padded \t",
                b"a, b",
                b"",
                b"caf\xc3\xa9",
                b"\"quoted\"",
            ],
            &[b"a\x01b", b"a\x7fb", b"\xff", b"a\rb"],
        ),
    )
        .prop_map(|(n, s, v)| [n, s, v].concat())
}

prop_compose! {
    fn message()(
        leading in proptest::bool::weighted(0.05),
        request in any::<bool>(),
        request_line in request_line(),
        status_line in status_line(),
        lines in proptest::collection::vec((field_line(), eol(), proptest::bool::weighted(0.05)), 0..4),
        start_eol in eol(),
        end_eol in eol(),
        terminated in proptest::bool::weighted(0.95),
        body in pick(&[b"", b"content\r\n"], &[b"\x00\xff"]),
    ) -> Vec<u8> {
        let mut m = Vec::new();
        if leading {
            m.extend_from_slice(b"\r\n");
        }
        if request {
            m.extend_from_slice(&request_line);
            m.extend_from_slice(start_eol);
            m.extend_from_slice(b"Host: a.example");
            m.extend_from_slice(start_eol);
        } else {
            m.extend_from_slice(&status_line);
            m.extend_from_slice(start_eol);
        }
        for (line, eol, folded) in lines {
            m.extend_from_slice(&line);
            m.extend_from_slice(eol);
            if folded {
                m.extend_from_slice(b"  folded");
                m.extend_from_slice(eol);
            }
        }
        if terminated {
            m.extend_from_slice(end_eol);
            if !request {
                m.extend_from_slice(body);
            }
        }
        m
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn agrees_with_httparse_but_for_its_own_rules(input in message()) {
        let ours = parse_http1(&input);
        let theirs = httparse_head(&input);
        match (&ours, &theirs) {
            (Ok(message), Some((head, _))) => prop_assert_eq!(&citeproof_head(message), head),
            (Ok(message), None) => prop_assert!(
                false,
                "accepted, httparse refuses: {:?} -> {message:?}",
                String::from_utf8_lossy(&input)
            ),
            (Err(e), Some((head, raw))) => prop_assert!(
                stricter_on_purpose(&input, head, raw).is_some(),
                "refused ({e}), httparse accepts {head:?}: {:?}",
                String::from_utf8_lossy(&input)
            ),
            (Err(_), None) => {}
        }
    }
}

/// The cases above, by hand: the deviations each happen, and a plain message reads the same.
#[test]
fn the_listed_deviations_happen() {
    let only_httparse = [
        &b"\r\nHTTP/1.1 200 OK\r\n\r\n"[..],
        b"HTTP/1.1 200 caf\xe9\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nX-A: \xff\r\n\r\n",
        b"HTTP/1.1 099 OK\r\n\r\n",
        b"GET /caf\xc3\xa9 HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET /a#f HTTP/1.1\r\nHost: a\r\n\r\n",
        b"OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
        b"CONNECT a.example:443 HTTP/1.1\r\nHost: a\r\n\r\n",
        b"GET https://u@a.example/ HTTP/1.1\r\nHost: a\r\n\r\n",
    ];
    for input in only_httparse {
        let (head, raw) = httparse_head(input).expect("httparse accepts");
        assert!(parse_http1(input).is_err(), "{input:?}");
        assert!(
            stricter_on_purpose(input, &head, &raw).is_some(),
            "{input:?}"
        );
    }
    let plain = b"GET /a?b HTTP/1.1\nHost: a.example\nX-A:  one \t\n\n";
    let (head, _) = httparse_head(plain).unwrap();
    assert_eq!(citeproof_head(&parse_http1(plain).unwrap()), head);
}

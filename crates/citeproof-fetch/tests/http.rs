//! HttpFetcher against real tiny_http servers on 127.0.0.1 (no mocks on the HTTP path).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io;

use citeproof_fetch::{AddressClass, FetchError, FetchPolicy, Fetcher, HttpFetcher};
use common::{
    SilentListener, bytes_response, code, header, loopback, loopback_policy, respond_raw, serve,
};

#[test]
fn serves_bytes_exactly() {
    let body: Vec<u8> = (0..=255u8)
        .chain((0..5000).map(|i| (i * 7 % 256) as u8))
        .collect();
    let expected = body.clone();
    let server = serve(1, move |req, _| {
        req.respond(bytes_response(200, body.clone())).unwrap();
    });
    let r = loopback().fetch(&server.url("/bytes?x=1#frag")).unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.body, expected);
    assert_eq!(
        r.url,
        server.url("/bytes?x=1"),
        "final URL without fragment"
    );
    assert_eq!(r.header("content-length"), Some("5256"));
    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].url, "/bytes?x=1", "the fragment is never sent");
}

#[test]
fn gzip_looking_body_is_not_decoded() {
    // A real gzip stream of "hello\n": with decoding on, the body would come back as "hello\n".
    let gzip: Vec<u8> = vec![
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9,
        0xe7, 0x02, 0x00, 0x20, 0x30, 0x3a, 0x36, 0x06, 0x00, 0x00, 0x00,
    ];
    let served = gzip.clone();
    let server = serve(1, move |req, _| {
        let resp = bytes_response(200, served.clone())
            .with_header(header("Content-Encoding", "gzip"))
            .with_header(header("Content-Type", "text/plain"));
        req.respond(resp).unwrap();
    });
    let r = loopback().fetch(&server.url("/gz")).unwrap();
    assert_eq!(r.body, gzip);
    assert_eq!(r.header("Content-Encoding"), Some("gzip"));
    assert_eq!(r.header("content-length"), Some("26"));
    assert_eq!(r.content_type_essence().as_deref(), Some("text/plain"));
    let seen = server.seen();
    let sent = |name: &str| -> Vec<&str> {
        let headers = seen[0].headers.iter();
        let named = headers.filter(|(n, _)| n.eq_ignore_ascii_case(name));
        named.map(|(_, v)| v.as_str()).collect()
    };
    assert_eq!(sent("accept-encoding"), ["identity"]);
    let ua = FetchPolicy::default().user_agent;
    assert_eq!(sent("user-agent"), [ua.as_str()]);
}

#[test]
fn error_statuses_are_responses() {
    let server = serve(3, |req, _| {
        let status = match req.url() {
            "/404" => 404,
            "/500" => 500,
            _ => 200,
        };
        req.respond(bytes_response(
            status,
            format!("status {status}").into_bytes(),
        ))
        .unwrap();
    });
    let fetcher = loopback();
    for status in [200u16, 404, 500] {
        let r = fetcher.fetch(&server.url(&format!("/{status}"))).unwrap();
        assert_eq!(r.status, status);
        assert_eq!(r.body, format!("status {status}").into_bytes());
        assert_eq!(r.is_success(), status == 200);
    }
    assert_eq!(server.requests(), 3);
}

#[test]
fn headers_keep_duplicates_in_order() {
    let server = serve(1, |req, _| {
        let resp = bytes_response(200, b"h".to_vec())
            .with_header(header("X-A", "1"))
            .with_header(header("Link", "<a>; rel=x"))
            .with_header(header("X-A", "2"))
            .with_header(header("Link", "<b>; rel=y"))
            .with_header(header("X-A", "3"));
        req.respond(resp).unwrap();
    });
    let r = loopback().fetch(&server.url("/h")).unwrap();
    assert_eq!(r.header_values("x-a").collect::<Vec<_>>(), ["1", "2", "3"]);
    assert_eq!(
        r.header_values("LINK").collect::<Vec<_>>(),
        ["<a>; rel=x", "<b>; rel=y"]
    );
    // Names come back lowercased; fields are grouped by name in order of first appearance.
    let names: Vec<&str> = r.headers.iter().map(|(n, _)| n.as_str()).collect();
    let xa = names.iter().position(|n| *n == "x-a").unwrap();
    let link = names.iter().position(|n| *n == "link").unwrap();
    assert!(xa < link, "{names:?}");
    assert_eq!(&names[xa..xa + 3], ["x-a", "x-a", "x-a"]);
}

#[test]
fn header_value_bytes_map_one_to_one_to_characters() {
    let server = serve(1, |req, _| {
        // UTF-8 "é" (C3 A9) and a lone Latin-1 byte E9.
        respond_raw(
            req,
            b"HTTP/1.1 200 OK\r\nX-Utf8: caf\xc3\xa9\r\nX-Latin: caf\xe9\r\nContent-Length: 0\r\n\r\n",
            &mut io::empty(),
        );
    });
    let r = loopback().fetch(&server.url("/")).unwrap();
    assert_eq!(r.header("x-utf8"), Some("caf\u{c3}\u{a9}"));
    assert_eq!(r.header("x-latin"), Some("caf\u{e9}"));
}

#[test]
fn loopback_is_refused_before_any_connection() {
    let silent = SilentListener::new();
    let server = serve(1, |req, _| {
        req.respond(bytes_response(200, b"no".to_vec())).unwrap();
    });
    let strict = HttpFetcher::new(FetchPolicy::default());
    let urls = [
        format!("http://127.0.0.1:{}/", silent.port),
        format!("http://localhost:{}/", silent.port),
        format!("http://2130706433:{}/", silent.port),
        format!("http://0x7f.1:{}/", silent.port),
        format!("http://0177.0.0.1:{}/", silent.port),
        format!("http://127.1:{}/", silent.port),
        format!("http://[::ffff:127.0.0.1]:{}/", silent.port),
        format!("http://[::1]:{}/", silent.port),
        server.url("/"),
    ];
    for url in &urls {
        let err = strict.fetch(url).unwrap_err();
        assert_eq!(err.code(), "fetch-address-forbidden", "{url}: {err}");
        match err {
            FetchError::AddressForbidden { class, .. } => {
                assert_eq!(class, AddressClass::Loopback, "{url}")
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(!silent.accepted(), "a TCP connection reached the listener");
    assert_eq!(server.requests(), 0);
    // The same server is reachable once private addresses are allowed.
    let r = loopback().fetch(&server.url("/")).unwrap();
    assert_eq!(r.body, b"no".as_slice());
    assert_eq!(server.requests(), 1);
}

#[test]
fn credentials_and_bad_ports_are_refused_before_any_connection() {
    let silent = SilentListener::new();
    let fetcher = loopback();
    let cases = [
        (
            format!("http://user:pass@127.0.0.1:{}/", silent.port),
            "fetch-credentials-in-url",
        ),
        (
            format!("http://user@127.0.0.1:{}/", silent.port),
            "fetch-credentials-in-url",
        ),
        (
            format!("http://@127.0.0.1:{}/", silent.port),
            "fetch-credentials-in-url",
        ),
        ("http://127.0.0.1:25/".to_owned(), "fetch-port-forbidden"),
        ("http://127.0.0.1:0/".to_owned(), "fetch-port-forbidden"),
        (
            format!("ftp://127.0.0.1:{}/", silent.port),
            "fetch-scheme-forbidden",
        ),
        ("file:///etc/passwd".to_owned(), "fetch-scheme-forbidden"),
        (
            format!(" http://127.0.0.1:{}/", silent.port),
            "fetch-url-invalid",
        ),
    ];
    for (url, want) in &cases {
        assert_eq!(code(fetcher.fetch(url)), *want, "{url}");
    }
    assert!(!silent.accepted());
    // The password never appears in the error.
    let err = fetcher
        .fetch(&format!("http://user:s3cret@127.0.0.1:{}/", silent.port))
        .unwrap_err();
    assert!(!err.to_string().contains("s3cret"), "{err}");
}

/// `/r/N` redirects to `/r/N-1` (alternating relative and absolute Locations and statuses);
/// `/r/0` answers 200.
fn redirect_server(max_requests: usize) -> common::TestServer {
    serve(max_requests, |req, _| {
        let n: u32 = req
            .url()
            .strip_prefix("/r/")
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        if n == 0 {
            req.respond(bytes_response(200, b"done".to_vec())).unwrap();
            return;
        }
        let statuses = [301u16, 302, 303, 307, 308];
        let status = statuses[(n as usize) % statuses.len()];
        let host = req
            .headers()
            .iter()
            .find(|h| h.field.equiv("Host"))
            .map(|h| h.value.to_string())
            .unwrap();
        let location = if n.is_multiple_of(2) {
            format!("/r/{}", n - 1)
        } else {
            format!("http://{host}/r/{}", n - 1)
        };
        let resp =
            bytes_response(status, b"moved".to_vec()).with_header(header("Location", &location));
        req.respond(resp).unwrap();
    })
}

#[test]
fn redirect_chain_of_five_is_followed() {
    let server = redirect_server(6);
    let r = loopback().fetch(&server.url("/r/5")).unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.body, b"done".as_slice());
    assert_eq!(r.url, server.url("/r/0"));
    assert_eq!(server.requests(), 6);
}

#[test]
fn redirect_chain_of_six_fails() {
    let server = redirect_server(7);
    let err = loopback().fetch(&server.url("/r/6")).unwrap_err();
    assert_eq!(err.code(), "fetch-too-many-redirects", "{err}");
    assert_eq!(server.requests(), 6, "the seventh hop is never requested");
}

#[test]
fn max_redirects_zero_refuses_any_redirect() {
    let server = redirect_server(1);
    let policy = FetchPolicy {
        max_redirects: 0,
        ..loopback_policy()
    };
    let err = HttpFetcher::new(policy)
        .fetch(&server.url("/r/1"))
        .unwrap_err();
    assert_eq!(err.code(), "fetch-too-many-redirects");
}

#[test]
fn redirects_to_forbidden_targets_are_refused_even_with_allow_private() {
    let targets: Vec<(String, &str)> = vec![
        (
            "http://169.254.169.254/latest/meta-data/".into(),
            "fetch-address-forbidden",
        ),
        ("http://[fe80::1]/".into(), "fetch-address-forbidden"),
        ("http://0.0.0.0:8080/".into(), "fetch-address-forbidden"),
        ("http://100.100.100.200/".into(), "fetch-address-forbidden"),
        (
            "http://[::ffff:169.254.169.254]/".into(),
            "fetch-address-forbidden",
        ),
        (
            "http://[64:ff9b::a9fe:a9fe]/".into(),
            "fetch-address-forbidden",
        ),
        ("http://2852039166/".into(), "fetch-address-forbidden"),
        ("file:///etc/passwd".into(), "fetch-scheme-forbidden"),
        ("gopher://127.0.0.1:70/".into(), "fetch-scheme-forbidden"),
        ("http://u:p@127.0.0.1/".into(), "fetch-credentials-in-url"),
        ("http://127.0.0.1:22/".into(), "fetch-port-forbidden"),
        ("http://[".into(), "fetch-redirect-invalid"),
        ("http:\\\\evil.example\\".into(), "fetch-redirect-invalid"),
    ];
    let n = targets.len();
    let locations: Vec<String> = targets.iter().map(|(t, _)| t.clone()).collect();
    let server = serve(n + 1, move |req, i| {
        let resp = if i < locations.len() {
            bytes_response(302, Vec::new()).with_header(header("Location", &locations[i]))
        } else {
            // Two Location fields.
            bytes_response(302, Vec::new())
                .with_header(header("Location", "/a"))
                .with_header(header("Location", "/b"))
        };
        req.respond(resp).unwrap();
    });
    let fetcher = loopback();
    for (target, want) in &targets {
        let err = fetcher.fetch(&server.url("/go")).unwrap_err();
        assert_eq!(err.code(), *want, "{target}: {err}");
    }
    let err = fetcher.fetch(&server.url("/two")).unwrap_err();
    assert_eq!(err.code(), "fetch-redirect-invalid", "{err}");
    // Only the first hops reached the server; no forbidden target was contacted.
    assert_eq!(server.requests(), n + 1);
}

/// FETCH-005: "A redirect without a `Location` ... fails the fetch."
#[test]
fn redirect_without_location_fails_the_fetch() {
    let server = serve(1, |req, _| {
        req.respond(bytes_response(302, b"nowhere".to_vec()))
            .unwrap();
    });
    let err = loopback().fetch(&server.url("/")).unwrap_err();
    assert_eq!(err.code(), "fetch-redirect-invalid", "{err}");
}

//! The strict HTTP/1.1 parser.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_httpsig::*;

fn parse(text: &str) -> Result<Message> {
    parse_http1(text.as_bytes())
}

fn code(text: &str) -> &'static str {
    parse(text).unwrap_err().code()
}

#[test]
fn request_with_lf_and_crlf_parse_the_same() {
    let lf = "POST /foo?a=1 HTTP/1.1\nHost: Example.com\nContent-Length: 2\n\nhi";
    let crlf = lf.replace('\n', "\r\n");
    let a = parse(lf).unwrap();
    let b = parse(&crlf).unwrap();
    assert_eq!(a, b);
    let Message::Request(r) = a else { panic!() };
    assert_eq!(r.method, "POST");
    assert_eq!(r.target.to_string(), "https://Example.com/foo?a=1");
    assert_eq!(r.request_target.as_deref(), Some("/foo?a=1"));
    assert_eq!(r.body, b"hi");
}

#[test]
fn body_bytes_are_kept_verbatim() {
    let msg = parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\na\r\nb\n").unwrap();
    assert_eq!(msg.body(), b"a\r\nb\n");
    let Message::Response(r) = msg else { panic!() };
    assert_eq!(r.status, 200);
}

#[test]
fn scheme_option() {
    let opts = ParseOptions {
        scheme: "http".into(),
        ..ParseOptions::default()
    };
    let msg = parse_http1_with(b"GET / HTTP/1.1\r\nHost: a.example\r\n\r\n", &opts).unwrap();
    let Message::Request(r) = msg else { panic!() };
    assert_eq!(r.target.to_string(), "http://a.example/");
}

#[test]
fn response_without_content_length_takes_the_rest() {
    let msg = parse("HTTP/1.0 404 Not Found\n\nnope").unwrap();
    assert_eq!(msg.body(), b"nope");
    let msg = parse("HTTP/1.1 204\n\n").unwrap();
    assert!(msg.body().is_empty());
}

#[test]
fn field_values_are_trimmed_and_names_case_insensitive() {
    let msg = parse("HTTP/1.1 200 OK\nX-A:   padded\t \nx-a: two\n\n").unwrap();
    assert_eq!(msg.headers().combined("X-A").unwrap(), "padded, two");
}

#[test]
fn rejections() {
    let cases = [
        // obs-fold
        (
            "HTTP/1.1 200 OK\nX-A: one\n  two\n\n",
            "httpsig-message-syntax",
        ),
        (
            "HTTP/1.1 200 OK\nX-A: one\n\ttwo\n\n",
            "httpsig-message-syntax",
        ),
        // invalid field names
        ("HTTP/1.1 200 OK\nX A: b\n\n", "httpsig-message-syntax"),
        ("HTTP/1.1 200 OK\nX-A : b\n\n", "httpsig-message-syntax"),
        ("HTTP/1.1 200 OK\n: b\n\n", "httpsig-message-syntax"),
        ("HTTP/1.1 200 OK\nX(A): b\n\n", "httpsig-message-syntax"),
        ("HTTP/1.1 200 OK\nno colon\n\n", "httpsig-message-syntax"),
        // control characters, bare CR
        (
            "HTTP/1.1 200 OK\nX-A: a\u{1}b\n\n",
            "httpsig-message-syntax",
        ),
        ("HTTP/1.1 200 OK\nX-A: a\rb\n\n", "httpsig-message-syntax"),
        (
            "HTTP/1.1 200 OK\nX-A: a\u{7f}\n\n",
            "httpsig-message-syntax",
        ),
        // start lines
        ("", "httpsig-message-syntax"),
        ("\nGET / HTTP/1.1\nHost: a\n\n", "httpsig-message-syntax"),
        ("GET  / HTTP/1.1\nHost: a\n\n", "httpsig-message-syntax"),
        ("GET / HTTP/2\nHost: a\n\n", "httpsig-message-syntax"),
        ("GET / HTTP/1.1 x\nHost: a\n\n", "httpsig-message-syntax"),
        ("G(T / HTTP/1.1\nHost: a\n\n", "httpsig-message-syntax"),
        ("GET /#frag HTTP/1.1\nHost: a\n\n", "httpsig-message-syntax"),
        (
            "CONNECT a:443 HTTP/1.1\nHost: a\n\n",
            "httpsig-message-syntax",
        ),
        ("OPTIONS * HTTP/1.1\nHost: a\n\n", "httpsig-message-syntax"),
        ("HTTP/1.1 20 OK\n\n", "httpsig-message-syntax"),
        ("HTTP/1.1 2000 OK\n\n", "httpsig-message-syntax"),
        ("HTTP/1.1 099 OK\n\n", "httpsig-message-syntax"),
        ("HTTP/3 200 OK\n\n", "httpsig-message-syntax"),
        // Host
        ("GET / HTTP/1.1\n\n", "httpsig-message-syntax"),
        (
            "GET / HTTP/1.1\nHost: a\nHost: b\n\n",
            "httpsig-message-syntax",
        ),
        ("GET / HTTP/1.1\nHost: user@a\n\n", "httpsig-message-syntax"),
        ("GET / HTTP/1.1\nHost: a/b\n\n", "httpsig-message-syntax"),
        ("GET / HTTP/1.1\nHost: \n\n", "httpsig-message-syntax"),
        // header section not terminated
        ("GET / HTTP/1.1\nHost: a\n", "httpsig-message-syntax"),
        ("GET / HTTP/1.1\nHost: a", "httpsig-message-syntax"),
        // content framing
        (
            "POST / HTTP/1.1\nHost: a\nContent-Length: 3\n\nab",
            "httpsig-message-syntax",
        ),
        (
            "POST / HTTP/1.1\nHost: a\nContent-Length: 1\n\nab",
            "httpsig-message-syntax",
        ),
        ("POST / HTTP/1.1\nHost: a\n\nab", "httpsig-message-syntax"),
        (
            "POST / HTTP/1.1\nHost: a\nContent-Length: -1\n\n",
            "httpsig-message-syntax",
        ),
        (
            "POST / HTTP/1.1\nHost: a\nContent-Length: 1\nContent-Length: 2\n\na",
            "httpsig-message-syntax",
        ),
        (
            "POST / HTTP/1.1\nHost: a\nTransfer-Encoding: chunked\n\n0\r\n\r\n",
            "httpsig-message-syntax",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(code(text), expected, "{text:?}");
    }
    // Equal duplicate Content-Length values are fine (RFC 9112 §6.3).
    parse("POST / HTTP/1.1\nHost: a\nContent-Length: 1, 1\n\na").unwrap();
}

#[test]
fn limits() {
    let opts = ParseOptions {
        max_header_fields: 3,
        max_header_bytes: 200,
        max_body_bytes: 4,
        ..ParseOptions::default()
    };
    let many = "HTTP/1.1 200 OK\nA: 1\nB: 2\nC: 3\nD: 4\n\n";
    assert_eq!(
        parse_http1_with(many.as_bytes(), &opts).unwrap_err().code(),
        "httpsig-message-too-large"
    );
    let long = format!("HTTP/1.1 200 OK\nA: {}\n\n", "x".repeat(300));
    assert_eq!(
        parse_http1_with(long.as_bytes(), &opts).unwrap_err().code(),
        "httpsig-message-too-large"
    );
    let body = "HTTP/1.1 200 OK\n\n12345";
    assert_eq!(
        parse_http1_with(body.as_bytes(), &opts).unwrap_err().code(),
        "httpsig-message-too-large"
    );
    parse_http1_with(b"HTTP/1.1 200 OK\nA: 1\n\n1234", &opts).unwrap();
}

#[test]
fn non_utf8_field_value_rejected_but_utf8_accepted() {
    assert_eq!(
        parse_http1(b"HTTP/1.1 200 OK\nX-A: \xff\n\n")
            .unwrap_err()
            .code(),
        "httpsig-message-syntax"
    );
    let msg = parse_http1("HTTP/1.1 200 OK\nX-A: caf\u{e9}\n\n".as_bytes()).unwrap();
    assert_eq!(msg.headers().combined("x-a").unwrap(), "caf\u{e9}");
}

#[test]
fn model_rejects_bad_values() {
    let mut f = Fields::new();
    assert_eq!(
        f.push("X A", "v").unwrap_err().code(),
        "httpsig-malformed-input"
    );
    assert_eq!(
        f.push("X-A", "a\nb").unwrap_err().code(),
        "httpsig-malformed-input"
    );
    assert_eq!(
        f.push("X-A", "a\0b").unwrap_err().code(),
        "httpsig-malformed-input"
    );
    assert!(Request::new("GE T", "https://a/").is_err());
    assert!(Request::new("GET", "/relative").is_err());
    assert!(Request::new("GET", "https://u@a/").is_err());
    assert!(Request::new("GET", "https://a/#f").is_err());
    assert!(Response::new(99).is_err());
    assert!(Response::new(1000).is_err());
}

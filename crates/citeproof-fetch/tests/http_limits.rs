//! HttpFetcher's bounds and failures against real servers on 127.0.0.1: body size caps,
//! timeouts, refused and unresolvable hosts, garbage and cut-short responses, TLS failures
//! (responses, headers, address refusals and redirects: `http.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{self, Cursor, Read};
use std::net::TcpListener;
use std::thread;
use std::time::{Duration, Instant};

use citeproof_fetch::{FetchPolicy, Fetcher, HttpFetcher};
use common::{
    MIB, Pattern, bytes_response, code, header, loopback, loopback_policy, respond_raw, serve,
};

/// A fetcher with the shipped policy (its size caps and timeouts), loopback allowed.
fn shipped_but_loopback() -> HttpFetcher {
    HttpFetcher::new(FetchPolicy {
        allow_private: true,
        ..FetchPolicy::default()
    })
}

/// A fetch of `url` by `fetcher` fails with the code `want`.
#[track_caller]
fn fails_with(fetcher: &HttpFetcher, url: &str, want: &str) {
    assert_eq!(code(fetcher.fetch(url)), want, "{url}");
}

/// A fetch under `policy` of `SCHEME://` a loopback port that accepts one connection and never
/// answers (for 4 s) fails with `fetch-timeout` after at least 900 ms and before `under`.
fn times_out_silently(policy: FetchPolicy, scheme: &str, under: Duration) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let holder = thread::spawn(move || {
        listener.set_nonblocking(true).unwrap();
        let deadline = Instant::now() + Duration::from_secs(4);
        let mut held = None;
        while Instant::now() < deadline {
            if held.is_none()
                && let Ok((socket, _)) = listener.accept()
            {
                held = Some(socket);
            }
            thread::sleep(Duration::from_millis(20));
        }
        drop(held);
    });
    let start = Instant::now();
    let err = HttpFetcher::new(policy)
        .fetch(&format!("{scheme}://127.0.0.1:{port}/"))
        .unwrap_err();
    let elapsed = start.elapsed();
    assert_eq!(err.code(), "fetch-timeout", "{err}");
    assert!(elapsed >= Duration::from_millis(900), "{elapsed:?}");
    assert!(elapsed < under, "{elapsed:?}");
    holder.join().unwrap();
}

#[test]
fn body_over_ten_mib_with_content_length_fails_before_reading() {
    let server = serve(1, |req, _| {
        let len = 10 * MIB + 1;
        let resp = tiny_http::Response::new(
            tiny_http::StatusCode(200),
            Vec::new(),
            Pattern::new(len),
            Some(len as usize),
            None,
        )
        .with_chunked_threshold(usize::MAX);
        let _ = req.respond(resp);
    });
    let policy = FetchPolicy {
        allow_private: true,
        ..FetchPolicy::default()
    };
    assert_eq!(policy.max_body_bytes, 10 * MIB);
    fails_with(
        &HttpFetcher::new(policy),
        &server.url("/big"),
        "fetch-too-large",
    );
}

#[test]
fn chunked_body_over_ten_mib_fails() {
    let server = serve(2, |req, _| {
        let len = if req.url() == "/exact" {
            10 * MIB
        } else {
            10 * MIB + 1
        };
        // No length given: tiny_http sends it chunked.
        let resp = tiny_http::Response::new(
            tiny_http::StatusCode(200),
            Vec::new(),
            Pattern::new(len),
            None,
            None,
        );
        let _ = req.respond(resp);
    });
    let fetcher = shipped_but_loopback();
    fails_with(&fetcher, &server.url("/over"), "fetch-too-large");
    let ok = fetcher.fetch(&server.url("/exact")).unwrap();
    assert_eq!(ok.body.len() as u64, 10 * MIB);
    assert_eq!(ok.header("transfer-encoding"), Some("chunked"));
    let mut expected = Vec::new();
    Pattern::new(10 * MIB).read_to_end(&mut expected).unwrap();
    assert!(ok.body == expected);
}

#[test]
fn close_delimited_body_over_limit_fails() {
    let server = serve(1, |req, _| {
        respond_raw(
            req,
            b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n",
            &mut Pattern::new(10 * MIB + 1),
        );
    });
    fails_with(
        &shipped_but_loopback(),
        &server.url("/close"),
        "fetch-too-large",
    );
}

#[test]
fn lying_content_length_never_yields_more_than_the_limit() {
    let server = serve(2, |req, _| {
        if req.url() == "/cl-and-chunked" {
            // Content-Length claims 16 bytes, but the body is chunked and 10 MiB + 1 long.
            let head =
                b"HTTP/1.1 200 OK\r\nContent-Length: 16\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .to_vec();
            let chunk = vec![b'x'; 1024 * 1024];
            let mut body = Vec::new();
            for _ in 0..10 {
                body.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
                body.extend_from_slice(&chunk);
                body.extend_from_slice(b"\r\n");
            }
            body.extend_from_slice(b"1\r\nx\r\n0\r\n\r\n");
            respond_raw(req, &head, &mut Cursor::new(body));
        } else {
            // Content-Length says 10, then 10 MiB + 1 bytes follow: the message is 10 bytes.
            respond_raw(
                req,
                b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\n",
                &mut Pattern::new(10 * MIB + 1),
            );
        }
    });
    let fetcher = shipped_but_loopback();
    // Transfer-Encoding wins over Content-Length (RFC 9112 §6.3): the chunked body is read, and
    // it is too large.
    fails_with(&fetcher, &server.url("/cl-and-chunked"), "fetch-too-large");
    let short = fetcher.fetch(&server.url("/cl-short")).unwrap();
    assert_eq!(short.body.len(), 10, "framing is by Content-Length");
}

#[test]
fn small_limit_is_exact() {
    let server = serve(4, |req, _| {
        let len = if req.url().starts_with("/100") {
            100
        } else {
            101
        };
        let chunked = req.url().ends_with("chunked");
        let resp = tiny_http::Response::new(
            tiny_http::StatusCode(200),
            Vec::new(),
            Pattern::new(len),
            if chunked { None } else { Some(len as usize) },
            None,
        )
        .with_chunked_threshold(if chunked { 0 } else { usize::MAX });
        let _ = req.respond(resp);
    });
    let fetcher = HttpFetcher::new(FetchPolicy {
        max_body_bytes: 100,
        ..loopback_policy()
    });
    for path in ["/100", "/100-chunked"] {
        assert_eq!(fetcher.fetch(&server.url(path)).unwrap().body.len(), 100);
    }
    for path in ["/101", "/101-chunked"] {
        assert_eq!(
            code(fetcher.fetch(&server.url(path))),
            "fetch-too-large",
            "{path}"
        );
    }
}

#[test]
fn silent_server_times_out_within_total_timeout() {
    let policy = FetchPolicy {
        total_timeout: Duration::from_secs(1),
        ..loopback_policy()
    };
    times_out_silently(policy, "http", Duration::from_millis(2500));
}

/// Sends one byte every 100 ms.
struct Drip {
    left: u32,
}

impl Read for Drip {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 || buf.is_empty() {
            return Ok(0);
        }
        thread::sleep(Duration::from_millis(100));
        self.left -= 1;
        buf[0] = b'.';
        Ok(1)
    }
}

#[test]
fn slow_body_times_out_within_total_timeout() {
    let server = serve(1, |req, _| {
        let resp = tiny_http::Response::new(
            tiny_http::StatusCode(200),
            Vec::new(),
            Drip { left: 30 },
            None,
            None,
        );
        let _ = req.respond(resp);
    });
    let policy = FetchPolicy {
        total_timeout: Duration::from_secs(1),
        ..loopback_policy()
    };
    let start = Instant::now();
    let err = HttpFetcher::new(policy)
        .fetch(&server.url("/drip"))
        .unwrap_err();
    let elapsed = start.elapsed();
    assert_eq!(err.code(), "fetch-timeout", "{err}");
    assert!(elapsed < Duration::from_millis(2500), "{elapsed:?}");
}

#[test]
fn refused_connection_is_connect_failed() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    fails_with(
        &loopback(),
        &format!("http://127.0.0.1:{port}/"),
        "fetch-connect-failed",
    );
}

#[test]
fn unresolvable_name_is_dns_failed() {
    let policy = FetchPolicy {
        connect_timeout: Duration::from_secs(3),
        ..FetchPolicy::default()
    };
    let err = HttpFetcher::new(policy)
        .fetch("http://does-not-exist.invalid/")
        .unwrap_err();
    // Without network access the resolver may also hang until the budget runs out.
    assert!(
        matches!(err.code(), "fetch-dns-failed" | "fetch-timeout"),
        "{err}"
    );
}

#[test]
fn garbage_response_is_protocol_error() {
    let server = serve(1, |req, _| {
        respond_raw(req, b"SSH-2.0-OpenSSH_9.6\r\n\r\n", &mut io::empty());
    });
    fails_with(&loopback(), &server.url("/"), "fetch-protocol-error");
}

#[test]
fn host_names_are_resolved_and_checked() {
    let server = serve(1, |req, _| {
        req.respond(bytes_response(200, b"by name".to_vec()))
            .unwrap();
    });
    let url = format!("http://localhost:{}/", server.port);
    // Refused by name too (localhost resolves to loopback), with no request made ...
    fails_with(
        &HttpFetcher::new(FetchPolicy::default()),
        &url,
        "fetch-address-forbidden",
    );
    assert_eq!(server.requests(), 0);
    // ... and reachable with allow_private, on the checked address.
    let r = loopback().fetch(&url).unwrap();
    assert_eq!(r.body, b"by name".as_slice());
    assert_eq!(r.url, url);
}

#[test]
fn utf8_location_bytes_are_read_as_utf8() {
    let server = serve(2, |req, _| {
        if req.url() == "/start" {
            respond_raw(
                req,
                b"HTTP/1.1 302 Found\r\nLocation: /caf\xc3\xa9?q=\xe2\x9c\x93\r\nContent-Length: 0\r\n\r\n",
                &mut io::empty(),
            );
        } else {
            req.respond(bytes_response(200, b"landed".to_vec()))
                .unwrap();
        }
    });
    let r = loopback().fetch(&server.url("/start")).unwrap();
    assert_eq!(r.body, b"landed".as_slice());
    assert_eq!(r.url, server.url("/caf%C3%A9?q=%E2%9C%93"));
    assert_eq!(server.seen()[1].url, "/caf%C3%A9?q=%E2%9C%93");
}

#[test]
fn oversized_header_block_is_protocol_error() {
    let server = serve(1, |req, _| {
        let mut head = b"HTTP/1.1 200 OK\r\n".to_vec();
        for i in 0..2000 {
            head.extend_from_slice(format!("X-Filler-{i}: {}\r\n", "v".repeat(60)).as_bytes());
        }
        head.extend_from_slice(b"Content-Length: 0\r\n\r\n");
        respond_raw(req, &head, &mut io::empty());
    });
    fails_with(&loopback(), &server.url("/"), "fetch-protocol-error");
}

#[test]
fn concurrent_fetches_share_one_fetcher() {
    let server = serve(8, |req, i| {
        req.respond(bytes_response(200, format!("n{i}").into_bytes()))
            .unwrap();
    });
    let fetcher = std::sync::Arc::new(loopback());
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let f = fetcher.clone();
            let url = server.url("/c");
            thread::spawn(move || f.fetch(&url).map(|r| r.status))
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap().unwrap(), 200);
    }
    assert_eq!(server.requests(), 8);
}

/// A fetch of `SCHEME://` a loopback server that answers `reply` fails with the code `want`.
#[track_caller]
fn raw_reply_fails_with(reply: &'static [u8], scheme: &str, want: &str) {
    let (port, server) = raw_server(reply);
    fails_with(&loopback(), &format!("{scheme}://127.0.0.1:{port}/"), want);
    server.join().unwrap();
}

/// Accepts one connection on loopback, reads the request, writes `reply`, closes. Bounded: one
/// connection, 5 s.
fn raw_server(reply: &'static [u8]) -> (u16, thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let handle = thread::spawn(move || {
        use std::io::Write;
        listener.set_nonblocking(true).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok((mut socket, _)) = listener.accept() {
                socket.set_nonblocking(false).unwrap();
                socket
                    .set_read_timeout(Some(Duration::from_secs(2)))
                    .unwrap();
                let mut buf = [0u8; 4096];
                let _ = socket.read(&mut buf);
                let _ = socket.write_all(reply);
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
    });
    (port, handle)
}

/// FETCH-003: an https URL whose server does not speak TLS fails the handshake.
#[test]
fn tls_handshake_failure_is_fetch_tls_failed() {
    let reply = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi";
    raw_reply_fails_with(reply, "https", "fetch-tls-failed");
}

/// FETCH-003/FETCH-004: a body cut short of its Content-Length fails the fetch; no partial body
/// is returned.
#[test]
fn body_cut_short_fails_the_fetch() {
    let reply = b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b";
    // The peer closed after 10 of 100 announced bytes: an I/O failure, not a short response.
    raw_reply_fails_with(reply, "http", "fetch-io-failed");
}

#[test]
fn head_sends_head_at_every_hop_and_returns_no_body() {
    let server = serve(2, |req, i| {
        let method = req.method().to_string();
        if i == 0 {
            let resp = tiny_http::Response::empty(302)
                .with_header(header("Location", "/final"))
                .with_header(header("X-Method", &method));
            req.respond(resp).unwrap();
        } else {
            let resp = bytes_response(200, b"a body HEAD must not return".to_vec())
                .with_header(header("X-Method", &method));
            req.respond(resp).unwrap();
        }
    });
    let r = loopback().head(&server.url("/start")).unwrap();
    assert_eq!(r.status, 200);
    assert_eq!(r.header("x-method"), Some("HEAD"));
    assert!(r.body.is_empty());
    assert_eq!(r.url, server.url("/final"));
    assert_eq!(server.requests(), 2);
}

/// FETCH-003: the TLS handshake counts toward the connect timeout. A server that accepts the
/// connection and never answers the ClientHello holds the fetch for `connect_timeout` (1 s
/// here), not for `total_timeout` (20 s).
#[test]
fn silent_tls_handshake_times_out_within_connect_timeout() {
    let policy = FetchPolicy {
        connect_timeout: Duration::from_secs(1),
        total_timeout: Duration::from_secs(20),
        ..loopback_policy()
    };
    times_out_silently(policy, "https", Duration::from_millis(3500));
}

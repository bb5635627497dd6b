//! Real loopback servers for the tests: tiny_http on 127.0.0.1, port 0, in a thread. Every
//! server stops by itself after `max_requests` requests, after `LIFETIME`, or when dropped, and
//! never handles more than `max_requests`.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{self, Read};
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use citeproof_fetch::FetchPolicy;

/// Longest a test server lives.
pub const LIFETIME: Duration = Duration::from_secs(20);

/// What a server saw of one request.
#[derive(Debug, Clone)]
pub struct Seen {
    pub url: String,
    pub headers: Vec<(String, String)>,
}

pub struct TestServer {
    pub base: String,
    pub port: u16,
    count: Arc<AtomicUsize>,
    seen: Arc<Mutex<Vec<Seen>>>,
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl TestServer {
    /// Requests received so far.
    pub fn requests(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// Starts a server answering at most `max_requests` requests with `handler(request, index)`.
pub fn serve<H>(max_requests: usize, handler: H) -> TestServer
where
    H: Fn(tiny_http::Request, usize) + Send + 'static,
{
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let port = server.server_addr().to_ip().unwrap().port();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let (c, s, st) = (count.clone(), seen.clone(), stop.clone());
    let handle = thread::spawn(move || {
        let deadline = Instant::now() + LIFETIME;
        while !st.load(Ordering::SeqCst)
            && c.load(Ordering::SeqCst) < max_requests
            && Instant::now() < deadline
        {
            if let Ok(Some(request)) = server.recv_timeout(Duration::from_millis(20)) {
                let index = c.fetch_add(1, Ordering::SeqCst);
                s.lock().unwrap().push(Seen {
                    url: request.url().to_owned(),
                    headers: request
                        .headers()
                        .iter()
                        .map(|h| (h.field.to_string(), h.value.to_string()))
                        .collect(),
                });
                handler(request, index);
            }
        }
    });
    TestServer {
        base: format!("http://127.0.0.1:{port}"),
        port,
        count,
        seen,
        stop,
        handle: Some(handle),
    }
}

pub fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).unwrap()
}

/// A response with exactly these bytes and a Content-Length (never chunked).
pub fn bytes_response(status: u16, body: Vec<u8>) -> tiny_http::Response<io::Cursor<Vec<u8>>> {
    let len = body.len();
    tiny_http::Response::new(
        tiny_http::StatusCode(status),
        Vec::new(),
        io::Cursor::new(body),
        Some(len),
        None,
    )
    .with_chunked_threshold(usize::MAX)
}

/// A reader of `len` bytes of a repeating pattern (byte `i` is `i % 251`), without allocating
/// them.
pub struct Pattern {
    pos: u64,
    left: u64,
}

impl Pattern {
    pub fn new(len: u64) -> Self {
        Pattern { pos: 0, left: len }
    }
}

impl Read for Pattern {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (buf.len() as u64).min(self.left) as usize;
        for b in buf[..n].iter_mut() {
            *b = (self.pos % 251) as u8;
            self.pos += 1;
        }
        self.left -= n as u64;
        Ok(n)
    }
}

/// Writes raw bytes as the whole response (status line, headers, body) on the request's socket.
pub fn respond_raw(request: tiny_http::Request, head: &[u8], body: &mut dyn Read) {
    let mut writer = request.into_writer();
    if writer.write_all(head).is_ok() {
        let _ = io::copy(body, &mut writer);
    }
    let _ = writer.flush();
}

use std::io::Write as _;

/// A plain listener that nobody answers on; `accepted()` tells whether any TCP connection
/// reached it.
pub struct SilentListener {
    pub listener: TcpListener,
    pub port: u16,
}

impl SilentListener {
    pub fn new() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        SilentListener { listener, port }
    }

    /// `true` if a connection is waiting (a connect reached the socket).
    pub fn accepted(&self) -> bool {
        match self.listener.accept() {
            Ok(_) => true,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => false,
            Err(e) => panic!("accept: {e}"),
        }
    }
}

/// Policy for loopback tests: private allowed, short timeouts.
pub fn loopback_policy() -> FetchPolicy {
    FetchPolicy {
        allow_private: true,
        connect_timeout: Duration::from_secs(5),
        total_timeout: Duration::from_secs(15),
        ..FetchPolicy::default()
    }
}

/// Size unit of the body caps.
pub const MIB: u64 = 1024 * 1024;

/// A fetcher that may reach loopback (the test servers).
pub fn loopback() -> citeproof_fetch::HttpFetcher {
    citeproof_fetch::HttpFetcher::new(loopback_policy())
}

/// The code of a fetch that must fail.
pub fn code(
    result: Result<citeproof_fetch::FetchedResponse, citeproof_fetch::FetchError>,
) -> &'static str {
    match result {
        Ok(r) => panic!("expected an error, got {r:?}"),
        Err(e) => e.code(),
    }
}

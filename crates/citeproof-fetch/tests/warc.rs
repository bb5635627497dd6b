//! WARC snapshots: what citeproof writes, warcio (Python, the Webrecorder project's reader)
//! reads back byte for byte; what warcio writes (including chunked payloads, as live recorders
//! store them) citeproof replays; and hostile files end in a typed error, never a hang or an
//! unbounded allocation.
//!
//! Needs `pip install warcio`; skipped when python3 is missing unless CITEPROOF_REQUIRE_PYTHON
//! is set (CI sets it).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Cursor;
use std::path::Path;
use std::process::Command;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use citeproof_fetch::{
    FetchError, FetchPolicy, FetchedResponse, Fetcher, RecordingFetcher, SnapshotFetcher,
    StoredEntry, read_warc, read_warc_bytes,
};
use citeproof_model::sha256_bytes;
use serde_json::{Value, json};

const AGENT: &str = "https://agent.example/runs/r1";

fn entries() -> Vec<(String, StoredEntry)> {
    let html = b"<!doctype html><p>Caf\xc3\xa9 \xe2\x80\x94 binary \x00\xff ok</p>\r\n".to_vec();
    vec![
        (
            "https://agent.example/runs/r1/manifest".into(),
            StoredEntry {
                status: 200,
                headers: vec![
                    ("content-type".into(), "application/json".into()),
                    ("signature".into(), "sig1=:AAAA:".into()),
                    ("content-length".into(), "15".into()),
                ],
                body: br#"{"run_id":"r1"}"#.to_vec().into(),
            },
        ),
        (
            "https://example.com/a".into(),
            StoredEntry {
                status: 200,
                headers: vec![
                    ("Content-Type".into(), "text/html; charset=utf-8".into()),
                    ("Content-Length".into(), html.len().to_string()),
                ],
                body: html.into(),
            },
        ),
        (
            "https://example.com/old".into(),
            StoredEntry {
                status: 301,
                headers: vec![
                    ("location".into(), "https://example.com/a".into()),
                    ("content-length".into(), "0".into()),
                ],
                body: Vec::new().into(),
            },
        ),
    ]
}

fn agent() -> StoredEntry {
    StoredEntry {
        status: 200,
        headers: vec![
            ("content-type".into(), "text/plain".into()),
            (
                "citation-source".into(),
                "<https://example.com/a>; manifest=\"https://agent.example/runs/r1/manifest\""
                    .into(),
            ),
            ("content-length".into(), "11".into()),
        ],
        body: b"An answer.\n".to_vec().into(),
    }
}

/// A recording of fetches served from memory: what was recorded (the writer's input), and the
/// WARC written from it.
type Recording = (FetchedResponse, Vec<(String, StoredEntry)>);

fn written() -> (Recording, Vec<u8>) {
    let source =
        SnapshotFetcher::from_entries(AGENT, agent(), entries(), FetchPolicy::default()).unwrap();
    let rec = RecordingFetcher::new(source);
    rec.fetch(AGENT).unwrap();
    for (url, _) in entries() {
        rec.fetch(&url).unwrap();
    }
    let mut out = Vec::new();
    rec.write_warc(AGENT, &mut out, "2026-04-28T10:00:00Z")
        .unwrap();
    (rec.entries(AGENT).unwrap(), out)
}

/// The file read both ways, streamed ([`read_warc`]) and from memory ([`read_warc_bytes`]):
/// the two must agree (the same agent response, or the same error); the streamed result.
fn read_both(bytes: &[u8]) -> Result<SnapshotFetcher, FetchError> {
    let streamed = read_warc(&mut Cursor::new(bytes), FetchPolicy::default());
    let in_memory = read_warc_bytes(Bytes::copy_from_slice(bytes), FetchPolicy::default());
    match (&streamed, &in_memory) {
        (Ok(a), Ok(b)) => assert_eq!(a.agent_response(), b.agent_response()),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!(
            "the readers disagree: streamed {:?}, in memory {:?}",
            streamed.as_ref().err(),
            in_memory.as_ref().err()
        ),
    }
    streamed
}

fn fetch_all(f: &SnapshotFetcher) -> Vec<FetchedResponse> {
    entries().iter().map(|(u, _)| f.fetch(u).unwrap()).collect()
}

#[test]
fn what_citeproof_writes_it_replays_identically() {
    let (_, bytes) = written();
    assert!(bytes.starts_with(b"WARC/1.1\r\n"), "{:?}", &bytes[..20]);
    let replay = read_both(&bytes).unwrap();
    let direct =
        SnapshotFetcher::from_entries(AGENT, agent(), entries(), FetchPolicy::default()).unwrap();
    assert_eq!(replay.agent_response(), direct.agent_response());
    assert_eq!(fetch_all(&replay), fetch_all(&direct));
    // The redirect is followed inside the WARC like inside a JSON snapshot.
    assert_eq!(
        replay.fetch("https://example.com/old").unwrap().url,
        "https://example.com/a"
    );
}

/// From memory, every stored body is a slice of the file (issue 23: no body is copied), and
/// the responses are the streamed reader's.
#[test]
fn bodies_read_from_memory_are_slices_of_the_file() {
    let (_, bytes) = written();
    let file = Bytes::from(bytes.clone());
    let from_memory = read_warc_bytes(file.clone(), FetchPolicy::default()).unwrap();
    let streamed = read_warc(&mut Cursor::new(&bytes), FetchPolicy::default()).unwrap();
    assert_eq!(fetch_all(&from_memory), fetch_all(&streamed));
    let range = file.as_ptr_range();
    for response in fetch_all(&from_memory) {
        if !response.body.is_empty() {
            assert!(
                range.contains(&response.body.as_ptr()),
                "{}: the body was copied",
                response.url
            );
        }
    }
}

/// Agent response, manifest, source, and the redirect.
fn expected_len() -> usize {
    4
}

/// `tests/python/warcio_interop.py ARGS` run by python3: its standard output, or `None` (the
/// test skipped, with a notice) when python3 is missing and CITEPROOF_REQUIRE_PYTHON is unset.
fn warcio(args: &[&Path]) -> Option<String> {
    if Command::new("python3").arg("--version").output().is_err() {
        let required = std::env::var_os("CITEPROOF_REQUIRE_PYTHON").is_some();
        assert!(!required, "python3 is required");
        eprintln!("skipped: python3 not found");
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/warcio_interop.py");
    let out = Command::new("python3")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pip install warcio: {stderr}");
    Some(String::from_utf8(out.stdout).unwrap())
}

#[test]
fn warcio_reads_what_citeproof_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.warc");
    let ((recorded_agent, recorded), bytes) = written();
    std::fs::write(&path, bytes).unwrap();
    let Some(read) = warcio(&[Path::new("read"), &path]) else {
        return;
    };
    let records: Vec<Value> = read
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let responses: Vec<&Value> = records.iter().filter(|r| r["type"] == "response").collect();
    assert_eq!(records[0]["type"], "warcinfo");
    assert_eq!(
        records.iter().filter(|r| r["type"] == "request").count(),
        expected_len()
    );
    assert_eq!(responses.len(), expected_len());
    // The writer's input: the redirect was recorded as a 302 to the final URL (the recorder
    // sees only where a fetch ended), the final URL once.
    let mut expected = vec![(
        recorded_agent.url.clone(),
        StoredEntry {
            status: recorded_agent.status,
            headers: recorded_agent.headers.clone(),
            body: recorded_agent.body.clone(),
        },
    )];
    expected.extend(recorded);
    for ((url, entry), got) in expected.iter().zip(&responses) {
        assert_eq!(got["uri"], json!(url));
        assert_eq!(got["status"], json!(entry.status));
        assert_eq!(
            got["sha256"].as_str().unwrap(),
            &sha256_bytes(&entry.body).to_string()[7..],
            "{url}"
        );
        for (name, value) in &entry.headers {
            assert!(
                got["headers"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|h| h[0] == json!(name) && h[1] == json!(value)),
                "{url}: {name}"
            );
        }
    }
}

#[test]
fn citeproof_replays_what_warcio_writes() {
    let dir = tempfile::tempdir().unwrap();
    // Framing is the writer's business: the Python side adds Content-Length or chunks.
    let unframed = |h: &[(String, String)]| -> Vec<(String, String)> {
        h.iter()
            .filter(|(n, _)| !n.eq_ignore_ascii_case("content-length"))
            .cloned()
            .collect()
    };
    let mut responses = vec![
        json!({"url": AGENT, "status": 200, "headers": unframed(&agent().headers),
        "body_b64": STANDARD.encode(&agent().body)}),
    ];
    for (i, (url, e)) in entries().into_iter().enumerate() {
        responses.push(
            json!({"url": url, "status": e.status, "headers": unframed(&e.headers),
            "body_b64": STANDARD.encode(&e.body), "chunked": i == 1}),
        );
    }
    let spec = dir.path().join("spec.json");
    std::fs::write(
        &spec,
        json!({"agent": AGENT, "responses": responses}).to_string(),
    )
    .unwrap();
    let path = dir.path().join("warcio.warc");
    if warcio(&[Path::new("write"), &spec, &path]).is_none() {
        return;
    }
    let bytes = std::fs::read(&path).unwrap();
    let replay = read_both(&bytes).unwrap();
    let direct =
        SnapshotFetcher::from_entries(AGENT, agent(), entries(), FetchPolicy::default()).unwrap();
    assert_eq!(replay.agent_response().body, direct.agent_response().body);
    for (got, want) in fetch_all(&replay).iter().zip(fetch_all(&direct)) {
        // warcio adds framing fields (Content-Length, Transfer-Encoding); bytes and the
        // recorded fields are what matter.
        assert_eq!(
            (got.status, &got.body),
            (want.status, &want.body),
            "{}",
            want.url
        );
        for h in unframed(&want.headers) {
            assert!(got.headers.contains(&h), "{}: {h:?}", want.url);
        }
    }
}

#[test]
fn hostile_warc_files_get_a_typed_error() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("not warc", b"HTTP/1.1 200 OK\r\n\r\n".to_vec()),
        ("endless header", {
            let mut v = b"WARC/1.1\r\n".to_vec();
            v.extend(std::iter::repeat_n(b'a', 200_000));
            v
        }),
        ("huge record", b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 99999999999\r\n\r\n".to_vec()),
        ("short block", b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://a.example/\r\nContent-Length: 100\r\n\r\nHTTP/1.1 200 OK\r\n".to_vec()),
        ("bad http", b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://a.example/\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n".to_vec()),
        ("bad chunk", b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://a.example/\r\nContent-Length: 51\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n".to_vec()),
    ];
    for (name, bytes) in cases {
        match read_both(&bytes) {
            Err(e) => assert_eq!(e.code(), "fetch-snapshot-invalid", "{name}: {e}"),
            Ok(_) => panic!("{name}: accepted"),
        }
    }
}

/// FETCH-008: a file of more than `MAX_WARC_RECORDS` records is refused while it is read (the
/// 200 001st record), whatever the records are.
#[test]
fn more_than_200000_records_are_refused() {
    assert_eq!(citeproof_fetch::MAX_WARC_RECORDS, 200_000);
    let record = b"WARC/1.1\r\nWARC-Type: metadata\r\nContent-Length: 0\r\n\r\n\r\n\r\n";
    let file = record.repeat(citeproof_fetch::MAX_WARC_RECORDS + 1);
    match read_both(&file) {
        Err(e) => {
            assert_eq!(e.code(), "fetch-snapshot-invalid", "{e}");
            assert!(e.to_string().contains("more than 200000 records"), "{e}");
        }
        Ok(_) => panic!("accepted"),
    }
    // One record fewer is read to the end (and then has no response record).
    let file = record.repeat(citeproof_fetch::MAX_WARC_RECORDS);
    match read_both(&file) {
        Err(e) => assert!(e.to_string().contains("no response record"), "{e}"),
        Ok(_) => panic!("accepted"),
    }
}

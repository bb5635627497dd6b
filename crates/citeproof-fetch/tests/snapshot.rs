//! SnapshotFetcher and RecordingFetcher: round trip through JSON, and hostile snapshots.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use citeproof_fetch::{
    FetchError, FetchPolicy, Fetcher, HttpFetcher, RecordingFetcher, SnapshotFetcher,
    SnapshotProblem, parse_snapshot,
};
use citeproof_model::snapshot::{SnapshotResponse, StoredResponse, WebSnapshot};
use common::{bytes_response, header, loopback_policy, serve};

fn stored(status: u16, headers: &[(&str, &str)], body_base64: &str) -> StoredResponse {
    let headers = headers.iter().map(|&(n, v)| (n.into(), v.into()));
    StoredResponse {
        status,
        headers: headers.collect(),
        body_base64: body_base64.into(),
    }
}

fn snapshot(resources: Vec<(&str, StoredResponse)>) -> WebSnapshot {
    WebSnapshot {
        snapshot_version: 1,
        response: SnapshotResponse {
            url: "https://agent.example/answer".to_owned(),
            status: 200,
            headers: vec![(
                "citation-source".to_owned(),
                "<https://src.example/doc>".to_owned(),
            )],
            body_base64: "aGVsbG8=".to_owned(),
        },
        resources: resources
            .into_iter()
            .map(|(u, r)| (u.to_owned(), r))
            .collect::<BTreeMap<_, _>>(),
    }
}

fn invalid_problem(result: Result<SnapshotFetcher, FetchError>) -> SnapshotProblem {
    match result {
        Err(FetchError::SnapshotInvalid { problem, .. }) => problem,
        Err(other) => panic!("expected fetch-snapshot-invalid, got {other}"),
        Ok(_) => panic!("expected fetch-snapshot-invalid, got a fetcher"),
    }
}

#[test]
fn recording_round_trips_through_json() {
    let binary: Vec<u8> = (0..=255u8).rev().collect();
    let served = binary.clone();
    let server = serve(6, move |req, _| {
        let resp = match req.url() {
            "/answer" => bytes_response(200, b"agent says hi".to_vec())
                .with_header(header("Citation-Source", "</doc>; rel=a"))
                .with_header(header("Citation-Source", "</bin>; rel=b")),
            "/doc" => bytes_response(200, b"<p>doc</p>".to_vec())
                .with_header(header("Content-Type", "text/html; charset=utf-8")),
            "/bin" => {
                bytes_response(200, served.clone()).with_header(header("Content-Encoding", "gzip"))
            }
            "/old" => bytes_response(301, Vec::new()).with_header(header("Location", "/doc")),
            _ => bytes_response(404, b"nope".to_vec()),
        };
        req.respond(resp).unwrap();
    });
    let recorder = RecordingFetcher::new(HttpFetcher::new(loopback_policy()));
    let urls = [
        server.url("/answer"),
        server.url("/doc"),
        server.url("/bin"),
        server.url("/old"),
        server.url("/missing"),
    ];
    let live: Vec<_> = urls.iter().map(|u| recorder.fetch(u).unwrap()).collect();
    assert_eq!(live[2].body, binary);
    assert_eq!(live[3].url, server.url("/doc"));
    assert_eq!(live[4].status, 404);
    assert_eq!(recorder.recorded().len(), 5);

    let snap = recorder.snapshot(&server.url("/answer")).unwrap();
    assert_eq!(snap.response.url, server.url("/answer"));
    let json = serde_json::to_vec_pretty(&snap).unwrap();
    let parsed = parse_snapshot(&json).unwrap();
    assert_eq!(parsed, snap);

    let replay = SnapshotFetcher::new(&parsed, loopback_policy()).unwrap();
    assert_eq!(*replay.agent_response(), live[0]);
    for (url, original) in urls.iter().zip(&live) {
        let again = replay.fetch(url).unwrap();
        assert_eq!(&again, original, "{url}");
    }
    // A second recording of the replay gives the same snapshot.
    let recorder2 = RecordingFetcher::new(&replay);
    for url in &urls {
        recorder2.fetch(url).unwrap();
    }
    assert_eq!(recorder2.snapshot(&server.url("/answer")).unwrap(), snap);
    // Five fetches, one of them redirected: six requests, all during recording.
    assert_eq!(server.requests(), 6, "replay never touches the network");
}

#[test]
fn snapshot_of_unfetched_agent_url_is_not_in_snapshot() {
    let recorder = RecordingFetcher::new(
        SnapshotFetcher::new(&snapshot(vec![]), FetchPolicy::default()).unwrap(),
    );
    let err = recorder
        .snapshot("https://agent.example/other")
        .unwrap_err();
    assert_eq!(err.code(), "fetch-not-in-snapshot");
}

#[test]
fn missing_url_is_not_in_snapshot() {
    let fetcher = SnapshotFetcher::new(
        &snapshot(vec![("https://src.example/doc", stored(200, &[], "ZG9j"))]),
        FetchPolicy::default(),
    )
    .unwrap();
    assert_eq!(
        fetcher.fetch("https://src.example/doc").unwrap().body,
        b"doc".as_slice()
    );
    // Normalization: case of scheme/host, default port, fragment.
    assert_eq!(
        fetcher.fetch("HTTPS://SRC.example:443/doc#x").unwrap().body,
        b"doc".as_slice()
    );
    let agent = fetcher.fetch("https://agent.example/answer").unwrap();
    assert_eq!(agent.body, b"hello".as_slice());
    assert_eq!(&agent, fetcher.agent_response());
    let err = fetcher.fetch("https://src.example/other").unwrap_err();
    assert_eq!(err.code(), "fetch-not-in-snapshot");
    // Policy errors come before the lookup, as when fetching live.
    assert_eq!(
        fetcher.fetch("file:///etc/passwd").unwrap_err().code(),
        "fetch-scheme-forbidden"
    );
}

#[test]
fn bad_base64_is_typed() {
    for bad in [
        "%%%",
        "aGVsbG8",
        "aGVsbG8==",
        "aGVs bG8=",
        "aGVsbG9=",
        "aGVsbG8=\n",
    ] {
        let problem = invalid_problem(SnapshotFetcher::new(
            &snapshot(vec![("https://src.example/doc", stored(200, &[], bad))]),
            FetchPolicy::default(),
        ));
        assert!(
            matches!(problem, SnapshotProblem::Base64(_)),
            "{bad:?}: {problem:?}"
        );
    }
    // Also in the agent response.
    let mut snap = snapshot(vec![]);
    snap.response.body_base64 = "!".to_owned();
    let result = SnapshotFetcher::new(&snap, FetchPolicy::default());
    assert_eq!(
        result.as_ref().map(|_| ()).unwrap_err().code(),
        "fetch-snapshot-invalid"
    );
    assert!(matches!(
        invalid_problem(result),
        SnapshotProblem::Base64(_)
    ));
}

#[test]
fn hostile_snapshots_are_refused() {
    let mut wrong_version = snapshot(vec![]);
    wrong_version.snapshot_version = 2;
    assert_eq!(
        invalid_problem(SnapshotFetcher::new(&wrong_version, FetchPolicy::default())),
        SnapshotProblem::UnsupportedVersion(2)
    );
    type Case = (&'static str, StoredResponse, fn(&SnapshotProblem) -> bool);
    let cases: Vec<Case> = vec![
        ("https://a.example/", stored(700, &[], ""), |p| {
            matches!(p, SnapshotProblem::Status(700))
        }),
        ("https://a.example/", stored(99, &[], ""), |p| {
            matches!(p, SnapshotProblem::Status(99))
        }),
        (
            "https://a.example/",
            stored(200, &[("x-a", "1\r\nSet-Cookie: a=b")], ""),
            |p| matches!(p, SnapshotProblem::Header(_)),
        ),
        // A backspace in a value (the `snapshots` fuzz target's finding: the WARC written
        // for such a snapshot did not read back) and DEL: control characters, refused.
        (
            "https://a.example/",
            stored(200, &[("signature-input", "sig1=(\"@status\" \u{8}x)")], ""),
            |p| matches!(p, SnapshotProblem::Header(m) if m.contains("U+0008")),
        ),
        (
            "https://a.example/",
            stored(200, &[("x-a", "a\u{7f}")], ""),
            |p| matches!(p, SnapshotProblem::Header(m) if m.contains("U+007F")),
        ),
        (
            "https://a.example/",
            stored(200, &[("bad name", "1")], ""),
            |p| matches!(p, SnapshotProblem::Header(_)),
        ),
        ("https://a.example/", stored(200, &[("", "1")], ""), |p| {
            matches!(p, SnapshotProblem::Header(_))
        }),
        ("not a url", stored(200, &[], ""), |p| {
            matches!(p, SnapshotProblem::Url(_))
        }),
    ];
    // HTAB and obs-text are field-value characters: accepted.
    let fine = snapshot(vec![(
        "https://a.example/",
        stored(200, &[("x-a", "a\tb caf\u{e9}")], ""),
    )]);
    assert!(SnapshotFetcher::new(&fine, FetchPolicy::default()).is_ok());
    for (url, entry, check) in cases {
        let problem = invalid_problem(SnapshotFetcher::new(
            &snapshot(vec![(url, entry)]),
            FetchPolicy::default(),
        ));
        assert!(check(&problem), "{url}: {problem:?}");
    }
    // Two keys that normalize to one URL, with different responses.
    let ambiguous = snapshot(vec![
        ("https://a.example/x", stored(200, &[], "YQ==")),
        ("HTTPS://A.EXAMPLE:443/x", stored(200, &[], "Yg==")),
    ]);
    assert_eq!(
        invalid_problem(SnapshotFetcher::new(&ambiguous, FetchPolicy::default())),
        SnapshotProblem::Ambiguous
    );
    // ... and the agent URL listed again with another body.
    let ambiguous_agent = snapshot(vec![(
        "https://agent.example/answer",
        stored(200, &[], "Yg=="),
    )]);
    assert_eq!(
        invalid_problem(SnapshotFetcher::new(
            &ambiguous_agent,
            FetchPolicy::default()
        )),
        SnapshotProblem::Ambiguous
    );
}

#[test]
fn strict_json_is_required() {
    let good = serde_json::to_string(&snapshot(vec![])).unwrap();
    assert!(parse_snapshot(good.as_bytes()).is_ok());
    let duplicate = good.replacen("{", "{\"snapshot_version\":1,", 1);
    let unknown = good.replacen("{", "{\"extra\":1,", 1);
    for bad in [duplicate.as_str(), unknown.as_str(), "{", "[]", "null"] {
        let err = parse_snapshot(bad.as_bytes()).unwrap_err();
        assert_eq!(err.code(), "fetch-snapshot-invalid", "{bad}");
        assert!(
            matches!(
                err,
                FetchError::SnapshotInvalid {
                    problem: SnapshotProblem::Json(_),
                    ..
                }
            ),
            "{bad}"
        );
    }
}

#[test]
fn snapshot_replay_applies_the_policy() {
    let chain: Vec<(String, StoredResponse)> = (0..=6)
        .map(|i| {
            let url = format!("https://a.example/r/{i}");
            let entry = if i == 0 {
                stored(200, &[], "ZG9uZQ==")
            } else {
                stored(302, &[("location", &format!("/r/{}", i - 1))], "")
            };
            (url, entry)
        })
        .collect();
    let mut resources: Vec<(&str, StoredResponse)> =
        chain.iter().map(|(u, e)| (u.as_str(), e.clone())).collect();
    resources.push(("http://127.0.0.1/local", stored(200, &[], "")));
    resources.push((
        "https://a.example/to-metadata",
        stored(302, &[("location", "https://169.254.169.254/")], ""),
    ));
    resources.push((
        "https://a.example/to-file",
        stored(302, &[("location", "file:///etc/passwd")], ""),
    ));
    resources.push((
        "https://a.example/downgrade",
        stored(302, &[("location", "http://a.example/r/0")], ""),
    ));
    resources.push(("https://a.example/big", stored(200, &[], "YWJjZA==")));
    let snap = snapshot(resources);
    let fetcher = SnapshotFetcher::new(&snap, FetchPolicy::default()).unwrap();

    let ok = fetcher.fetch("https://a.example/r/5").unwrap();
    assert_eq!(
        (ok.url.as_str(), &ok.body[..]),
        ("https://a.example/r/0", &b"done"[..])
    );
    let cases = [
        ("https://a.example/r/6", "fetch-too-many-redirects"),
        ("http://127.0.0.1/local", "fetch-address-forbidden"),
        ("https://a.example/to-metadata", "fetch-address-forbidden"),
        ("https://a.example/to-file", "fetch-scheme-forbidden"),
        ("https://a.example/downgrade", "fetch-redirect-invalid"),
    ];
    for (url, code) in cases {
        assert_eq!(fetcher.fetch(url).unwrap_err().code(), code, "{url}");
    }
    let under = |policy: FetchPolicy| SnapshotFetcher::new(&snap, policy).unwrap();
    let private = under(FetchPolicy {
        allow_private: true,
        ..FetchPolicy::default()
    });
    assert_eq!(private.fetch("http://127.0.0.1/local").unwrap().status, 200);
    let at_most = |max_body_bytes| {
        under(FetchPolicy {
            max_body_bytes,
            ..FetchPolicy::default()
        })
        .fetch("https://a.example/big")
    };
    assert_eq!(at_most(3).unwrap_err().code(), "fetch-too-large");
    assert_eq!(at_most(4).unwrap().body, b"abcd".as_slice());
}

/// JSON-001/FETCH-008: a JSON snapshot over 256 MiB is refused before it is parsed. The bytes
/// are zeros (pages the allocator never touches), so the test costs no parse and no memset.
#[test]
fn json_snapshot_over_256_mib_is_refused_unparsed() {
    let limit = citeproof_fetch::MAX_SNAPSHOT_JSON_BYTES;
    assert_eq!(limit, 268_435_456);
    let err = parse_snapshot(&vec![0u8; limit + 1]).unwrap_err();
    assert_eq!(err.code(), "fetch-snapshot-invalid", "{err}");
    assert!(err.to_string().contains("the limit is 268435456"), "{err}");
}

//! `snapshots`: offline web snapshots, JSON and WARC (ISO 28500).

use std::io::Cursor;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use citeproof_fetch::{
    FetchPolicy, FetchedResponse, Fetcher, SnapshotFetcher, StoredEntry, parse_snapshot, read_warc,
    read_warc_bytes, write_warc,
};
use citeproof_model::snapshot::WebSnapshot;

/// Bytes starting `WARC/` are read as a WARC file, anything else as a JSON snapshot. Checks: a
/// snapshot that loads serves its agent response for its own URL; and a JSON snapshot written
/// out as WARC (what `--save-snapshot run.warc` writes) reads back to a snapshot that answers
/// every URL exactly as the JSON one does: same status, body and fields (apart from the
/// framing fields `Content-Length` and `Transfer-Encoding`, and whitespace around values).
pub fn snapshots(data: &[u8]) {
    let policy = FetchPolicy {
        allow_private: true,
        ..FetchPolicy::default()
    };
    if data.starts_with(b"WARC/") {
        let streamed = read_warc(&mut Cursor::new(data), policy.clone());
        let in_memory = read_warc_bytes(bytes::Bytes::copy_from_slice(data), policy);
        match (&streamed, &in_memory) {
            (Ok(a), Ok(b)) => assert_eq!(a.agent_response(), b.agent_response()),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("the streamed and in-memory WARC readers disagree"),
        }
        if let Ok(f) = streamed {
            serves_itself(&f);
        }
        return;
    }
    let Ok(snapshot) = parse_snapshot(data) else {
        return;
    };
    let Ok(json) = SnapshotFetcher::new(&snapshot, policy.clone()) else {
        return;
    };
    serves_itself(&json);
    let mut warc = Vec::new();
    let resources = entries(&snapshot);
    if let Err(e) = write_warc(
        &mut warc,
        json.agent_response(),
        &resources,
        "2026-01-01T00:00:00Z",
    ) {
        panic!("a snapshot that loads cannot be written as WARC: {e}");
    }
    let replayed = read_warc(&mut Cursor::new(&warc), policy).unwrap_or_else(|e| {
        panic!(
            "the WARC written for a snapshot does not read back: {e}\n{}",
            String::from_utf8_lossy(&warc)
        )
    });
    let urls: Vec<&str> = json.urls().collect();
    assert_eq!(replayed.urls().collect::<Vec<_>>(), urls);
    assert_eq!(
        comparable(Ok(replayed.agent_response().clone())),
        comparable(Ok(json.agent_response().clone()))
    );
    for url in urls {
        assert_eq!(
            comparable(replayed.fetch(url)),
            comparable(json.fetch(url)),
            "{url}"
        );
    }
}

fn serves_itself(f: &SnapshotFetcher) {
    let agent = f.agent_response().clone();
    if let Ok(again) = f.fetch(&agent.url) {
        assert_eq!(again.body, agent.body);
    }
    for url in f.urls().map(str::to_owned).collect::<Vec<_>>() {
        let _ = f.fetch(&url);
    }
}

/// The resources of a JSON snapshot, decoded, under their normalized URLs (what the recorder
/// hands the WARC writer).
fn entries(s: &WebSnapshot) -> Vec<(String, StoredEntry)> {
    s.resources
        .iter()
        .map(|(url, stored)| {
            let mut key = url::Url::parse(url).expect("the snapshot loaded");
            key.set_fragment(None);
            let entry = StoredEntry {
                status: stored.status,
                headers: stored.headers.clone(),
                body: STANDARD
                    .decode(&stored.body_base64)
                    .expect("the snapshot loaded")
                    .into(),
            };
            (key.into(), entry)
        })
        .collect()
}

type Comparable = Result<(String, u16, Vec<(String, String)>, Vec<u8>), String>;

fn comparable(r: Result<FetchedResponse, citeproof_fetch::FetchError>) -> Comparable {
    r.map(|r| {
        let fields = r
            .headers
            .iter()
            .filter(|(n, _)| {
                !n.eq_ignore_ascii_case("content-length")
                    && !n.eq_ignore_ascii_case("transfer-encoding")
            })
            .map(|(n, v)| {
                (
                    n.to_ascii_lowercase(),
                    v.trim_matches([' ', '\t']).to_owned(),
                )
            })
            .collect();
        (r.url, r.status, fields, r.body.to_vec())
    })
    .map_err(|e| e.code().to_owned())
}

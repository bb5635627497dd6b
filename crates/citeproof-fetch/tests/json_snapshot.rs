//! `read_json_snapshot` (bodies decoded straight from the document, hashed while decoded)
//! against the plain path it replaces (`parse_snapshot`, then `SnapshotFetcher::new`): the same
//! fetcher or the same error, byte for byte, on every snapshot of the conformance vectors, on
//! hostile variants of them and on random edits; and the fast path is really taken on honest
//! snapshots (its digests are there, and are the SHA-256 of the bytes served).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use citeproof_fetch::{
    FetchPolicy, Fetcher, JsonSnapshotError, SnapshotFetcher, parse_snapshot, read_json_snapshot,
};
use proptest::prelude::*;
use serde_json::Value;

/// What a reader made of the bytes, in a comparable form: every URL served, with what it
/// serves (or the error), or the error and the stage that gave it.
#[derive(Debug, PartialEq)]
enum Outcome {
    Served(Vec<(String, String)>),
    Unreadable(String),
    Invalid(String, String),
}

fn served(f: &SnapshotFetcher) -> Vec<(String, String)> {
    let mut out = vec![("agent".to_owned(), format!("{:?}", f.agent_response()))];
    let urls: Vec<String> = f.urls().map(str::to_owned).collect();
    for u in urls {
        let got = match f.fetch(&u) {
            Ok(r) => format!("{r:?} body={:?}", r.body),
            Err(e) => format!("{} {e}", e.code()),
        };
        out.push((u, got));
    }
    out
}

fn plain(bytes: &[u8]) -> Outcome {
    match parse_snapshot(bytes) {
        Err(e) => Outcome::Unreadable(format!("{} {e}", e.code())),
        Ok(s) => match SnapshotFetcher::new(&s, FetchPolicy::default()) {
            Ok(f) => Outcome::Served(served(&f)),
            Err(e) => Outcome::Invalid(s.response.url.clone(), format!("{} {e}", e.code())),
        },
    }
}

/// The outcome of `read_json_snapshot`, and whether its fast path served every body (each one
/// has a digest, equal to the SHA-256 of what is served).
fn fast(bytes: &[u8]) -> (Outcome, bool) {
    match read_json_snapshot(bytes, FetchPolicy::default()) {
        Err(JsonSnapshotError::Unreadable(e)) => {
            (Outcome::Unreadable(format!("{} {e}", e.code())), false)
        }
        Err(JsonSnapshotError::Invalid { agent_url, error }) => (
            Outcome::Invalid(agent_url, format!("{} {error}", error.code())),
            false,
        ),
        Ok(f) => {
            let mut hashed = true;
            let bodies = std::iter::once(f.agent_response().body.clone()).chain(
                f.urls()
                    .filter_map(|u| f.fetch(u).ok())
                    .map(|r| r.body)
                    .collect::<Vec<_>>(),
            );
            for body in bodies {
                match f.known_sha256(&body) {
                    Some(h) => assert_eq!(h, citeproof_model::sha256_bytes(&body)),
                    None => hashed = false,
                }
            }
            (Outcome::Served(served(&f)), hashed)
        }
    }
}

fn agree(bytes: &[u8]) -> bool {
    let (got, hashed) = fast(bytes);
    assert_eq!(got, plain(bytes), "{}", String::from_utf8_lossy(bytes));
    hashed
}

/// Every `snapshot` input of the ACA vectors, as the vectors hold it.
fn vector_snapshots() -> Vec<Value> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/aca");
    let mut out = Vec::new();
    for level in ["level1", "level2", "level3"] {
        let text = std::fs::read_to_string(root.join(level).join("verify.json")).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        for case in doc["cases"].as_array().unwrap() {
            if let Some(s) = case["input"].get("snapshot") {
                out.push(s.clone());
            }
        }
    }
    assert!(out.len() >= 100, "only {} snapshots", out.len());
    out
}

#[test]
fn every_vector_snapshot_reads_alike_and_fast() {
    let mut fast_path = 0;
    let snapshots = vector_snapshots();
    for s in &snapshots {
        for bytes in [
            serde_json::to_vec(s).unwrap(),
            serde_json::to_vec_pretty(s).unwrap(),
        ] {
            let hashed = agree(&bytes);
            // Every honest snapshot's bodies are canonical base64 without escapes.
            if plain_is_served(&bytes) {
                assert!(
                    hashed,
                    "fast path not taken: {}",
                    String::from_utf8_lossy(&bytes)
                );
                fast_path += 1;
            }
        }
    }
    assert!(fast_path >= 100, "fast path taken {fast_path} times");
}

fn plain_is_served(bytes: &[u8]) -> bool {
    matches!(plain(bytes), Outcome::Served(_))
}

/// A small snapshot whose text the hostile cases edit.
const BASE: &str = r#"{"snapshot_version": 1, "response": {"url": "https://agent.example/a", "status": 200, "headers": [["content-type", "text/plain"]], "body_base64": "aGVsbG8="}, "resources": {"https://src.example/x": {"status": 200, "headers": [], "body_base64": "QUJD"}, "https://src.example/y": {"status": 200, "headers": [["x", "body_base64"]], "body_base64": ""}}}"#;

#[test]
fn hostile_edits_read_alike() {
    assert!(agree(BASE.as_bytes()), "the base case takes the fast path");
    let edits: &[(&str, &str)] = &[
        // Bodies the decoders must refuse alike.
        (r#""QUJD""#, r#""QUI=""#),
        (r#""QUJD""#, r#""QUJ=""#),
        (r#""QUJD""#, r#""QR==""#),
        (r#""QUJD""#, r#""QUJ""#),
        (r#""QUJD""#, r#""QU JD""#),
        (r#""QUJD""#, r#""QU\nJD""#),
        (r#""QUJD""#, r#""QQ==QUJD""#),
        (r#""QUJD""#, r#""QUJD====""#),
        (r#""QUJD""#, r#""QU-D""#),
        // Escapes: valid JSON, the plain path unescapes before decoding.
        (r#""QUJD""#, r#""\u0051UJD""#),
        (r#""QUJD""#, r#""QUJ\u0044""#),
        (r#""QUJD""#, r#""QU\/D""#),
        // A raw control character or quote inside the body string.
        ("\"QUJD\"", "\"QU\u{1}JD\""),
        (r#""QUJD""#, r#""QU"JD""#),
        // The member name written with an escape, or not a member name.
        (r#""body_base64": "QUJD""#, r#""body\u005fbase64": "QUJD""#),
        (r#""body_base64": "QUJD""#, r#""body_base64" : "QUJD""#),
        (
            r#""body_base64": "QUJD""#,
            "\"body_base64\"\n\t:\r \"QUJD\"",
        ),
        (
            r#""body_base64": "QUJD""#,
            r#""body_base64": "QUJD", "body_base64": "QUJD""#,
        ),
        (
            r#""body_base64": "QUJD""#,
            r#""body_base64": "QUJD", "extra": "QUJD""#,
        ),
        (r#""body_base64": "QUJD""#, r#""body_base64": ["QUJD"]"#),
        (r#""body_base64": "QUJD""#, r#""body_base64": 5"#),
        (r#""body_base64": "QUJD""#, r#""body_base64" "QUJD""#),
        (
            r#""body_base64": "QUJD""#,
            r#""body_base64": "QUJD" "QUJD""#,
        ),
        (r#""body_base64": "QUJD""#, r#""body_base64": "QUJD":"#),
        // A body where the snapshot shape has none.
        (
            r#"{"snapshot_version": 1,"#,
            r#"{"body_base64": "QUJD", "snapshot_version": 1,"#,
        ),
        (
            r#""headers": [], "body_base64": "QUJD""#,
            r#""headers": [{"body_base64": "QUJD"}], "body_base64": "QUJD""#,
        ),
        (
            r#""https://src.example/x": {"#,
            r#""https://src.example/x": {"inner": {"body_base64": "QUJD"}}, "https://src.example/z": {"#,
        ),
        // URLs that normalize alike (the second body is dropped as a duplicate, or ambiguous).
        (r#""https://src.example/y""#, r#""https://SRC.example/x""#),
        (
            r#""https://src.example/y": {"status": 200, "headers": [["x", "body_base64"]], "body_base64": """#,
            r#""https://SRC.example/x": {"status": 200, "headers": [], "body_base64": "QUJD""#,
        ),
        // Shape and document faults next to a body.
        (
            r#""status": 200, "headers": [], "body_base64": "QUJD""#,
            r#""status": 99, "headers": [], "body_base64": "QUJD""#,
        ),
        (r#"{"snapshot_version": 1,"#, r#"{"snapshot_version": 2,"#),
        (r#""resources": {"#, r#""resources": null, "x": {"#),
        (r#""QUJD"}"#, r#""QUJD"},"#),
        (r#""aGVsbG8=""#, r#""aGVsbG8=" "#),
        (r#"}}}"#, r#"}}} x"#),
        (r#"}}}"#, r#"}}"#),
        (r#"{"snapshot_version""#, "\u{feff}{\"snapshot_version\""),
        (r#""text/plain""#, "\"text/pl\u{fdd0}ain\""),
        (r#""text/plain""#, r#""text/plain\ud800""#),
        (r#""text/plain""#, "\"text/plain\u{1}\""),
    ];
    for (from, to) in edits {
        assert!(BASE.contains(from), "{from}");
        let text = BASE.replacen(from, to, 1);
        agree(text.as_bytes());
    }
    // Truncated at every byte, and with invalid UTF-8 at every byte.
    for cut in 0..BASE.len() {
        agree(&BASE.as_bytes()[..cut]);
        let mut bytes = BASE.as_bytes().to_vec();
        bytes[cut] = 0xff;
        agree(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Random edits of a snapshot with real bodies: replaced, inserted or removed bytes, drawn
    /// from the characters that matter to the lexer and the decoders.
    #[test]
    fn random_edits_read_alike(
        edits in prop::collection::vec(
            (0usize..10_000, 0u8..4, prop::sample::select(
                b"\"\\:,{}[] =A/+\n\x01\xc3\xa9_b".to_vec())),
            1..4),
    ) {
        let mut bytes = BASE.as_bytes().to_vec();
        for (at, kind, byte) in edits {
            let at = at % (bytes.len() + 1);
            match kind {
                0 if at < bytes.len() => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                2 if at < bytes.len() => { bytes.remove(at); }
                _ => bytes.insert(at, b'A'),
            }
        }
        agree(&bytes);
    }
}

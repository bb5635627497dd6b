//! `citeproof evidence new|sign|verify`: outputs and exit codes (0 verified / written, 1 invalid
//! or not verified, 2 usage errors). Sources come from the AEF fixtures in vectors/fixtures/aef and
//! from a loopback HTTP server; expected hashes come from the fixtures' independently computed
//! `expected.json`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::thread;

use serde_json::Value;

mod kit;
use kit::{cli, codes_of, file_in};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors/fixtures/aef")
}

fn fixture(name: &str) -> String {
    fixtures().join(name).to_string_lossy().into_owned()
}

/// The independently computed expectation of a fixture case.
fn expected(case: &str) -> Value {
    let all: Value =
        serde_json::from_slice(&std::fs::read(fixtures().join("expected.json")).unwrap()).unwrap();
    all["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == case)
        .unwrap()["expect"]
        .clone()
}

/// A new evidence object of the article fixture, checked against `expected.json`; its path.
fn new_evidence(dir: &Path) -> String {
    let line = "evidence new --source {} --uri https://example.com/aeo --selector css=p.lead \
                --claim {} --fetched-at 2026-05-12T03:45:00Z";
    let claim = "The AEO Protocol defines three pillars.";
    let ran = cli(line, &[&fixture("article.html"), claim]).exits(0);
    let doc = ran.json();
    let want = expected("html-css-class");
    assert_eq!(doc["verification"]["content_hash"], want["content_hash"]);
    assert_eq!(doc["span"]["exact_text"], want["exact_text"]);
    file_in(dir, "ev.json", ran.out)
}

/// `keygen` into `dir/keys` (kid `aef-1`); the path of `name` in it.
fn keys(dir: &Path) -> impl Fn(&str) -> String {
    let keys = dir.join("keys");
    cli("keygen --out {} --kid aef-1", &[keys.to_str().unwrap()]).exits(0);
    move |name| keys.join(name).to_string_lossy().into_owned()
}

#[test]
fn new_sign_verify_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let ev = new_evidence(dir.path());
    let key = keys(dir.path());
    let sign =
        "evidence sign {} --key {} --kid aef-1 --signing-key-uri https://example.com/keys.json";
    let signed = cli(sign, &[&ev, &key("private.pem")]).exits(0);
    let signed_path = file_in(dir.path(), "signed.json", &signed.out);
    let article = fixture("article.html");

    let verify = "evidence verify {} --json --source {} --key {}";
    for name in ["jwks.json", "public.pem"] {
        let report = cli(verify, &[&signed_path, &article, &key(name)])
            .exits(0)
            .json();
        assert_eq!(report["level"], 3);
        assert_eq!(report["verified"], true);
        assert_eq!(report["incidents"], Value::Array(vec![]));
    }

    // A changed claim breaks the signature: level 2, exit 1.
    let mut doc = signed.json();
    doc["claim_text"] = "The AEO Protocol defines four pillars.".into();
    let tampered = file_in(
        dir.path(),
        "tampered.json",
        serde_json::to_vec(&doc).unwrap(),
    );
    let report = cli(verify, &[&tampered, &article, &key("jwks.json")])
        .exits(1)
        .json();
    assert_eq!(report["level"], 2);
    assert_eq!(report["incidents"][0]["code"], "aef-signature-invalid");

    // Level 2 is enough when asked for: exit 0.
    cli(
        "evidence verify {} --level 2 --source {}",
        &[&tampered, &article],
    )
    .exits(0);

    // Another source: the content hash no longer matches.
    let crlf = fixture("notes-crlf.txt");
    let line = "evidence verify {} --json --source {} --media-type text/html";
    let report = cli(line, &[&ev, &crlf]).exits(1).json();
    assert_eq!(report["level"], 1);
}

#[test]
fn new_and_sign_usage_and_input_errors() {
    let dir = tempfile::tempdir().unwrap();
    let article = fixture("article.html");
    // Unknown selector type: usage error.
    let line = "evidence new --source {} --selector regex=.* --claim c";
    cli(line, &[&article]).exits(2);
    // Span not in the source: exit 1 with the incident code.
    let line = "evidence new --source {} --uri https://example.com/ --selector {} --claim c";
    cli(line, &[&article, "text_quote=four pillars"])
        .exits(1)
        .warns(&["aef-span-not-found"]);
    // A file that does not exist: nothing was checked (3).
    let missing = dir.path().join("missing.json");
    cli("evidence verify {}", &[missing.to_str().unwrap()]).exits(3);
    // Not an evidence object: sign refuses (1), verify reports level 0 (1).
    let bad = file_in(dir.path(), "bad.json", br#"{"evidence_version":"0.2"}"#);
    let key = keys(dir.path());
    let sign = "evidence sign {} --key {} --kid k";
    cli(sign, &[&bad, &key("private.pem")]).exits(1);
    let report = cli("evidence verify {} --json", &[&bad]).exits(1).json();
    assert_eq!(report["level"], 0);
    // A public key where a private key is needed: usage error.
    let ev = new_evidence(dir.path());
    cli(sign, &[&ev, &key("public.pem")]).exits(2);
}

/// Serves `body` as `content_type` on loopback for `n` requests; returns the base URL.
fn serve(body: Vec<u8>, content_type: &'static str, n: usize) -> String {
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let addr = server.server_addr().to_ip().unwrap();
    thread::spawn(move || {
        for _ in 0..n {
            let Ok(req) = server.recv() else { return };
            let header = tiny_http::Header::from_bytes("Content-Type", content_type).unwrap();
            let _ = req.respond(tiny_http::Response::from_data(body.clone()).with_header(header));
        }
    });
    format!("http://{addr}/page")
}

#[test]
fn sources_fetched_over_http_need_allow_private_on_loopback() {
    let body = std::fs::read(fixture("notes-crlf.txt")).unwrap();
    let url = serve(body, "text/plain; charset=utf-8", 3);
    let line = "evidence new --source {} --allow-private --selector line_range=3-4 --claim {}";
    let ran = cli(line, &[&url, "Evidence travels with the claim."]).exits(0);
    let doc = ran.json();
    assert_eq!(doc["source"]["uri"], url.as_str());
    assert_eq!(
        doc["verification"]["content_hash"],
        expected("text-line-range")["content_hash"]
    );
    let dir = tempfile::tempdir().unwrap();
    let ev = file_in(dir.path(), "ev.json", &ran.out);
    // source.uri is fetched: allowed with --allow-private ...
    cli("evidence verify {} --allow-private --json", &[&ev]).exits(0);
    // ... refused without it (FETCH-002), before any connection.
    let report = cli("evidence verify {} --json", &[&ev]).exits(1).json();
    let codes = codes_of(&report);
    assert!(
        codes.contains(&"aef-source-fetch-failed") && codes.contains(&"fetch-address-forbidden"),
        "{codes:?}"
    );
}

//! `citeproof evidence new|sign|verify`: outputs and exit codes (0 verified / written, 1 invalid
//! or not verified, 2 usage errors). Sources come from the AEF fixtures in vectors/fixtures/aef and
//! from a loopback HTTP server; expected hashes come from the fixtures' independently computed
//! `expected.json`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::thread;

use serde_json::Value;

mod kit;
use kit::citeproof;

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

fn code(out: &std::process::Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn new_evidence(dir: &Path) -> PathBuf {
    let out = citeproof()
        .args(["evidence", "new", "--source", &fixture("article.html")])
        .args([
            "--uri",
            "https://example.com/aeo",
            "--selector",
            "css=p.lead",
        ])
        .args([
            "--claim",
            "The AEO Protocol defines three pillars.",
            "--fetched-at",
            "2026-05-12T03:45:00Z",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let want = expected("html-css-class");
    assert_eq!(doc["verification"]["content_hash"], want["content_hash"]);
    assert_eq!(doc["span"]["exact_text"], want["exact_text"]);
    let path = dir.join("ev.json");
    std::fs::write(&path, &out.stdout).unwrap();
    path
}

fn keys(dir: &Path) -> PathBuf {
    let keys = dir.join("keys");
    let out = citeproof()
        .args(["keygen", "--out", &keys.to_string_lossy(), "--kid", "aef-1"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    keys
}

#[test]
fn new_sign_verify_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let ev = new_evidence(dir.path());
    let keys = keys(dir.path());
    let signed = citeproof()
        .args(["evidence", "sign", &ev.to_string_lossy()])
        .args([
            "--key",
            &keys.join("private.pem").to_string_lossy(),
            "--kid",
            "aef-1",
        ])
        .args(["--signing-key-uri", "https://example.com/keys.json"])
        .output()
        .unwrap();
    assert_eq!(
        code(&signed),
        0,
        "{}",
        String::from_utf8_lossy(&signed.stderr)
    );
    let signed_path = dir.path().join("signed.json");
    std::fs::write(&signed_path, &signed.stdout).unwrap();

    for key in ["jwks.json", "public.pem"] {
        let out = citeproof()
            .args([
                "evidence",
                "verify",
                &signed_path.to_string_lossy(),
                "--json",
            ])
            .args(["--source", &fixture("article.html")])
            .args(["--key", &keys.join(key).to_string_lossy()])
            .output()
            .unwrap();
        assert_eq!(
            code(&out),
            0,
            "{key}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["level"], 3);
        assert_eq!(report["verified"], true);
        assert_eq!(report["incidents"], Value::Array(vec![]));
    }

    // A changed claim breaks the signature: level 2, exit 1.
    let mut doc: Value = serde_json::from_slice(&signed.stdout).unwrap();
    doc["claim_text"] = "The AEO Protocol defines four pillars.".into();
    let tampered = dir.path().join("tampered.json");
    std::fs::write(&tampered, serde_json::to_vec(&doc).unwrap()).unwrap();
    let out = citeproof()
        .args(["evidence", "verify", &tampered.to_string_lossy(), "--json"])
        .args(["--source", &fixture("article.html")])
        .args(["--key", &keys.join("jwks.json").to_string_lossy()])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["level"], 2);
    assert_eq!(report["incidents"][0]["code"], "aef-signature-invalid");

    // Level 2 is enough when asked for: exit 0.
    let out = citeproof()
        .args([
            "evidence",
            "verify",
            &tampered.to_string_lossy(),
            "--level",
            "2",
        ])
        .args(["--source", &fixture("article.html")])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stdout));

    // Another source: the content hash no longer matches.
    let out = citeproof()
        .args(["evidence", "verify", &ev.to_string_lossy(), "--json"])
        .args([
            "--source",
            &fixture("notes-crlf.txt"),
            "--media-type",
            "text/html",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["level"], 1);
}

#[test]
fn new_and_sign_usage_and_input_errors() {
    let dir = tempfile::tempdir().unwrap();
    // Unknown selector type: usage error.
    let out = citeproof()
        .args([
            "evidence",
            "new",
            "--source",
            &fixture("article.html"),
            "--selector",
            "regex=.*",
            "--claim",
            "c",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    // Span not in the source: exit 1 with the incident code.
    let out = citeproof()
        .args([
            "evidence",
            "new",
            "--source",
            &fixture("article.html"),
            "--uri",
            "https://example.com/",
        ])
        .args(["--selector", "text_quote=four pillars", "--claim", "c"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(String::from_utf8_lossy(&out.stderr).contains("aef-span-not-found"));
    // A file that does not exist: nothing was checked (3).
    let out = citeproof()
        .args([
            "evidence",
            "verify",
            &dir.path().join("missing.json").to_string_lossy(),
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 3);
    // Not an evidence object: sign refuses (1), verify reports level 0 (1).
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, br#"{"evidence_version":"0.2"}"#).unwrap();
    let keys = keys(dir.path());
    let out = citeproof()
        .args([
            "evidence",
            "sign",
            &bad.to_string_lossy(),
            "--key",
            &keys.join("private.pem").to_string_lossy(),
            "--kid",
            "k",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let out = citeproof()
        .args(["evidence", "verify", &bad.to_string_lossy(), "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["level"], 0);
    // A public key where a private key is needed: usage error.
    let ev = new_evidence(dir.path());
    let out = citeproof()
        .args([
            "evidence",
            "sign",
            &ev.to_string_lossy(),
            "--key",
            &keys.join("public.pem").to_string_lossy(),
            "--kid",
            "k",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
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
    let out = citeproof()
        .args(["evidence", "new", "--source", &url, "--allow-private"])
        .args([
            "--selector",
            "line_range=3-4",
            "--claim",
            "Evidence travels with the claim.",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["source"]["uri"], url.as_str());
    assert_eq!(
        doc["verification"]["content_hash"],
        expected("text-line-range")["content_hash"]
    );
    let dir = tempfile::tempdir().unwrap();
    let ev = dir.path().join("ev.json");
    std::fs::write(&ev, &out.stdout).unwrap();
    // source.uri is fetched: allowed with --allow-private ...
    let ok = citeproof()
        .args([
            "evidence",
            "verify",
            &ev.to_string_lossy(),
            "--allow-private",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&ok), 0, "{}", String::from_utf8_lossy(&ok.stdout));
    // ... refused without it (FETCH-002), before any connection.
    let refused = citeproof()
        .args(["evidence", "verify", &ev.to_string_lossy(), "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&refused), 1);
    let report: Value = serde_json::from_slice(&refused.stdout).unwrap();
    let codes: Vec<&str> = report["incidents"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["code"].as_str())
        .collect();
    assert!(
        codes.contains(&"aef-source-fetch-failed") && codes.contains(&"fetch-address-forbidden"),
        "{codes:?}"
    );
}

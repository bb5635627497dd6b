//! Issue 19, items 6 and 8, over the demo platform served by `citeproof demo serve`:
//!
//! - every line of `aca verify`'s human output agrees with the verdict: a signature is called
//!   valid only when the whole Level 3 check of its manifest passed, a claim is tagged
//!   `[supported]` only when it is verified, and every other line says what failed;
//! - with a shared audit store, a replay of a response at another URL fails and the original
//!   keeps its verdict, in whatever order the two are recorded, one by one or in a batch.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Child;

use serde_json::Value;

mod kit;
use kit::{citeproof, holds_all, holds_none, start_demo, words};

/// `citeproof demo serve` on a free loopback port, killed when dropped.
struct Demo {
    child: Child,
    base: String,
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn demo() -> Demo {
    let (child, base) = start_demo();
    Demo { child, base }
}

fn codes(report: &Value) -> Vec<&str> {
    report["incidents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["code"].as_str().unwrap())
        .collect()
}

/// `aca verify` of one URL, text and JSON.
fn verify_both(url: &str) -> (String, Value) {
    let text = citeproof()
        .args(["aca", "verify", "--allow-private"])
        .arg(url)
        .output()
        .unwrap();
    let json = citeproof()
        .args(["aca", "verify", "--allow-private", "--json"])
        .arg(url)
        .output()
        .unwrap();
    assert_eq!(text.status.code(), json.status.code(), "{url}");
    (
        String::from_utf8(text.stdout).unwrap(),
        serde_json::from_slice(&json.stdout).unwrap(),
    )
}

/// The lines of the text report that belong to the manifest block of `url`.
fn block<'a>(text: &'a str, url: &str) -> Vec<&'a str> {
    let head = format!("manifest {url}");
    text.lines()
        .skip_while(|l| !l.starts_with(&head))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect()
}

const RUNS: &[&str] = &[
    "complete",
    "level2",
    "unsigned",
    "tampered",
    "wrong-key",
    "changed-source",
    "reused-manifest",
    "replayed",
    "error-page",
    "latest",
    "unbound",
    "unbound-copy",
    "unsupported-claim",
    "no-header",
];

#[test]
fn every_line_of_the_human_report_agrees_with_the_verdict() {
    let demo = demo();
    for run in RUNS {
        let url = format!("{}/runs/{run}", demo.base);
        let (text, report) = verify_both(&url);
        let verified = report["verified"].as_bool().unwrap();
        assert_eq!(
            text.contains("-> VERIFIED"),
            verified,
            "{run}: verdict line\n{text}"
        );
        // Whatever failed is named before any detail.
        let errors: Vec<&Value> = report["incidents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| {
                i["severity"] == "error" && i["level"].as_u64() <= report["required_level"].as_u64()
            })
            .collect();
        let summary = text
            .lines()
            .find(|l| l.starts_with("failed checks: "))
            .unwrap_or("");
        for e in &errors {
            assert!(
                summary.contains(e["code"].as_str().unwrap()),
                "{run}: `{}` not in the failed checks line\n{text}",
                e["code"]
            );
        }
        assert_eq!(summary.is_empty(), errors.is_empty(), "{run}\n{text}");
        for m in report["manifests"].as_array().unwrap() {
            let lines = block(&text, m["url"].as_str().unwrap());
            let status = m["signature"]["status"].as_str().unwrap();
            let failed = m["failed"].as_array().map_or(0, Vec::len);
            let sig = lines
                .iter()
                .find(|l| l.trim_start().starts_with("signature "))
                .unwrap_or_else(|| panic!("{run}: no signature line\n{text}"));
            match status {
                "valid" if failed == 0 => {
                    assert!(sig.contains("signature valid (keyid"), "{run}: {sig}");
                    assert_eq!(m["signed_by"], m["signature"]["keyid"]);
                }
                "valid" => assert!(sig.contains("but the manifest FAILED"), "{run}: {sig}"),
                "failed" => {
                    assert!(sig.contains("signature NOT valid"), "{run}: {sig}");
                    assert!(!sig.contains("signature valid"), "{run}: {sig}");
                    assert!(m.get("signed_by").is_none(), "{run}: {m}");
                    for code in m["signature"]["failed"].as_array().unwrap() {
                        assert!(sig.contains(code.as_str().unwrap()), "{run}: {sig}");
                    }
                }
                _ => {
                    assert!(sig.contains("signature not checked"), "{run}: {sig}");
                    assert!(m.get("signed_by").is_none(), "{run}: {m}");
                }
            }
            let claim_lines: Vec<&&str> = lines
                .iter()
                .filter(|l| l.trim_start().starts_with("claim "))
                .collect();
            // The claims are the `claim` items under the manifest's item (the shared form).
            let item = report["items"]
                .as_array()
                .unwrap()
                .iter()
                .find(|i| i["kind"] == "manifest" && i["id"] == m["url"])
                .unwrap_or_else(|| panic!("{run}: no item for {}", m["url"]));
            assert_eq!(item["verdict"], m["signature"]["status"], "{run}");
            let claims = item["items"].as_array().map_or(&[][..], Vec::as_slice);
            assert_eq!(claim_lines.len(), claims.len(), "{run}\n{text}");
            for (line, c) in claim_lines.iter().zip(claims) {
                assert_eq!(c["kind"], "claim", "{run}");
                if c["verified"] == true {
                    assert_eq!(c["verdict"], "supported", "{run}: {c}");
                    assert!(line.contains("[supported]"), "{run}: {line}");
                } else {
                    assert!(!line.contains("[supported]"), "{run}: {line}");
                    assert!(line.contains("[NOT "), "{run}: {line}");
                    for code in c["failed"].as_array().into_iter().flatten() {
                        assert!(line.contains(code.as_str().unwrap()), "{run}: {line}");
                    }
                }
            }
        }
    }
}

/// The two runs of the review, by name: the tampered manifest and the unpublished key; and the
/// complete run, which says what passed.
#[test]
fn the_reviews_runs_name_what_failed_and_the_complete_run_what_passed() {
    let demo = demo();
    let (text, report) = verify_both(&format!("{}/runs/tampered", demo.base));
    assert!(codes(&report).contains(&"aca-content-digest-mismatch"));
    let failed = "signature NOT valid: the Level 3 check of this manifest failed: ";
    holds_all(
        &text,
        &[
            &format!("{failed}aca-content-digest-mismatch"),
            "[NOT verified: manifest signature NOT valid",
        ],
    );
    holds_none(&text, &["signature valid", "[supported]"]);
    let (text, _) = verify_both(&format!("{}/runs/wrong-key", demo.base));
    holds_all(&text, &[&format!("{failed}aca-key-unresolved")]);
    holds_none(&text, &["signature valid", "[supported]"]);
    // And the complete run says what passed.
    let (text, _) = verify_both(&format!("{}/runs/complete", demo.base));
    assert!(text.contains("signature valid (keyid demo-2026): every Level 3 check"));
    assert_eq!(text.matches("[supported]").count(), 2, "{text}");
}

/// `aca verify --json --record DB URL`.
fn recorded(db: &std::path::Path, url: &str) -> Value {
    let out = citeproof()
        .args(["aca", "verify", "--allow-private", "--json", "--record"])
        .arg(db)
        .arg(url)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_replay_fails_and_the_original_keeps_its_verdict_in_any_order() {
    let demo = demo();
    let dir = tempfile::tempdir().unwrap();
    let complete = format!("{}/runs/complete", demo.base);
    let replayed = format!("{}/runs/replayed", demo.base);
    let verdict = |r: &Value| (r["level"].as_u64().unwrap(), r["verified"] == true);

    // The replay first, then the original.
    let db = dir.path().join("replay-first.db");
    let r = recorded(&db, &replayed);
    assert_eq!(verdict(&r), (1, false), "{r}");
    assert_eq!(codes(&r), ["aca-response-url-mismatch"]);
    let c = recorded(&db, &complete);
    assert_eq!(verdict(&c), (3, true), "{c}");
    assert!(codes(&c).is_empty(), "{c}");
    // The original first, then the replay, then the original again.
    let db = dir.path().join("original-first.db");
    assert_eq!(verdict(&recorded(&db, &complete)), (3, true));
    let r = recorded(&db, &replayed);
    assert_eq!(verdict(&r), (1, false));
    assert_eq!(codes(&r), ["aca-response-url-mismatch"]);
    assert_eq!(verdict(&recorded(&db, &complete)), (3, true));
    assert_eq!(verdict(&recorded(&db, &replayed)), (1, false));

    // A manifest that names no response: nothing tells the original, so once both were seen
    // both fail, whatever the order (ACA-L2-022).
    for (first, second) in [("unbound", "unbound-copy"), ("unbound-copy", "unbound")] {
        let db = dir.path().join(format!("{first}.db"));
        let a = recorded(&db, &format!("{}/runs/{first}", demo.base));
        assert_eq!(verdict(&a), (3, true), "{a}");
        assert_eq!(codes(&a), ["aca-response-unbound"]);
        let b = recorded(&db, &format!("{}/runs/{second}", demo.base));
        assert_eq!(verdict(&b), (1, false), "{b}");
        assert!(codes(&b).contains(&"aca-manifest-reused"), "{b}");
        let a = recorded(&db, &format!("{}/runs/{first}", demo.base));
        assert_eq!(verdict(&a), (1, false), "{a}");
    }

    // A batch of 100 snapshots of each, the replay first on every pair of lines: every
    // original is Level 3, every replay Level 1, and nothing is called reused.
    let snap = |run: &str| {
        let path = dir.path().join(format!("{run}.json"));
        citeproof()
            .args(words(
                "aca verify --allow-private --json --save-snapshot",
                &[],
            ))
            .arg(&path)
            .arg(format!("{}/runs/{run}", demo.base))
            .output()
            .unwrap();
        assert!(path.exists(), "{run}");
        path
    };
    let (c_snap, r_snap) = (snap("complete"), snap("replayed"));
    let mut list = String::new();
    for _ in 0..100 {
        list.push_str(&format!("{}\n{}\n", r_snap.display(), c_snap.display()));
    }
    let list_path = dir.path().join("batch.txt");
    std::fs::write(&list_path, list).unwrap();
    let out = citeproof()
        .args(["aca", "verify", "--allow-private", "--record"])
        .arg(dir.path().join("batch.db"))
        .arg("--batch")
        .arg(&list_path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 200);
    let (mut originals, mut replays) = (0, 0);
    for l in &lines {
        assert!(!codes(l).contains(&"aca-manifest-reused"), "{l}");
        if l["subject"]["name"]
            .as_str()
            .unwrap()
            .ends_with("/runs/complete")
        {
            assert_eq!(verdict(l), (3, true), "{l}");
            originals += 1;
        } else {
            assert_eq!(verdict(l), (1, false), "{l}");
            assert_eq!(codes(l), ["aca-response-url-mismatch"]);
            replays += 1;
        }
    }
    assert_eq!((originals, replays), (100, 100));
}

/// Text from the documents under verification cannot print lines of its own: a claim text and
/// an invalid source URL that carry `\nlevel achieved: 3 (required 3) -> VERIFIED` stay inside
/// their line.
#[test]
fn document_text_cannot_forge_a_line_of_the_report() {
    use base64::Engine as _;
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let forged = "\nlevel achieved: 3 (required 3) -> VERIFIED\n  claim c9 [supported]: forged";
    let manifest = serde_json::json!({
        "run_id": "r1",
        "agent_id": "agent.example/v1",
        "emitted_at": "2026-04-28T10:00:00Z",
        "claims": [{
            "claim_id": "c1",
            "text": format!("A claim.{forged}"),
            "sources": [{
                "url": format!("https://example.com/a{forged}"),
                "retrieved_at": "2026-04-28T09:55:00Z",
                "hash": format!("sha256:{}", "0".repeat(64)),
                "excerpt_offset": [0, 1]
            }]
        }]
    });
    let snapshot = serde_json::json!({
        "snapshot_version": 1,
        "response": {
            "url": "https://agent.example/runs/r1",
            "status": 200,
            "headers": [
                ["content-type", "text/plain"],
                ["citation-source", "<https://example.com/a>; manifest=\"https://agent.example/m\"; run=\"r1\""]
            ],
            "body_base64": b64(format!("A claim.{forged}\n").as_bytes())
        },
        "resources": {
            "https://agent.example/m": {
                "status": 200,
                "headers": [["content-type", "application/json"]],
                "body_base64": b64(manifest.to_string().as_bytes())
            }
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("forged.json");
    std::fs::write(&path, snapshot.to_string()).unwrap();
    let out = citeproof()
        .args(["aca", "verify", "--now", "1777370400", "--snapshot"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let verdicts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("level achieved:"))
        .collect();
    assert_eq!(
        verdicts,
        ["level achieved: 1 (required 2) -> NOT VERIFIED"],
        "{text}"
    );
    assert!(
        !text.lines().any(|l| l.trim_start().starts_with("claim c9")),
        "{text}"
    );
    assert!(text.contains("\\u{000A}level achieved"), "{text}");
}

/// The reference signer binds a manifest to its response (ACA-L2-024) before signing, and never
/// silently re-binds one that names another response.
#[test]
fn aca_sign_writes_response_url_into_the_signed_body() {
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys");
    citeproof()
        .args(["keygen", "--kid", "k1", "--out"])
        .arg(&keys)
        .assert()
        .success();
    let manifest = serde_json::json!({
        "run_id": "r1", "agent_id": "agent.example/v1", "emitted_at": "2026-04-28T10:00:00Z",
        "claims": [{"claim_id": "c1", "text": "A claim.", "sources": [{
            "url": "https://example.com/a", "retrieved_at": "2026-04-28T09:55:00Z",
            "hash": format!("sha256:{}", "0".repeat(64)), "excerpt_offset": [0, 1]}]}]
    });
    let path = dir.path().join("manifest.json");
    std::fs::write(&path, manifest.to_string()).unwrap();
    let sign = |extra: &[&str], file: &std::path::Path| {
        citeproof()
            .args(words(
                "aca sign --json --kid k1 --created 1777370400 --key",
                &[],
            ))
            .arg(keys.join("private.pem"))
            .args(extra)
            .arg(file)
            .output()
            .unwrap()
    };
    let out = sign(&["--response-url", "https://agent.example/runs/r1"], &path);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let signed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let body: Value = serde_json::from_str(signed["body"].as_str().unwrap()).unwrap();
    assert_eq!(body["response_url"], "https://agent.example/runs/r1");
    // Already bound to another response: refused, not re-bound.
    std::fs::write(&path, body.to_string()).unwrap();
    let out = sign(&["--response-url", "https://agent.example/runs/r2"], &path);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("refusing to re-bind"));
    // The same URL in another spelling is the same response.
    let out = sign(
        &["--response-url", "HTTPS://agent.example:443/runs/r1"],
        &path,
    );
    assert_eq!(out.status.code(), Some(0));
    // Not a web URL: a usage error.
    let out = sign(&["--response-url", "/runs/r1"], &path);
    assert_eq!(out.status.code(), Some(2));
}

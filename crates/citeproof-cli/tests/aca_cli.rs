//! End-to-end tests of the ACA subcommands: keygen, sign manifest, httpsig verify of what was
//! signed, verify, serve (`httpsig_cli.rs` checks httpsig verify against RFC 9421's data).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value;

mod kit;
use kit::{citeproof, start_demo, stdout_of, words};

/// The incident codes of a `--json` report.
fn codes_of(report: &Value) -> Vec<String> {
    report["incidents"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|i| i["code"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn keygen_sign_and_httpsig_verify_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys");
    let out = citeproof()
        .args(["keygen", "--kid", "agent-2026-04", "--out"])
        .arg(&keys)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    for f in ["private.pem", "public.pem", "jwks.json"] {
        assert!(keys.join(f).exists(), "{f}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(keys.join("private.pem"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "private key readable by others");
    }
    let jwks: Value =
        serde_json::from_slice(&std::fs::read(keys.join("jwks.json")).unwrap()).unwrap();
    assert_eq!(jwks["keys"][0]["kid"], "agent-2026-04");
    assert_eq!(jwks["keys"][0]["crv"], "Ed25519");
    assert!(jwks["keys"][0].get("d").is_none());
    // keygen refuses to overwrite.
    let again = citeproof()
        .args(["keygen", "--out"])
        .arg(&keys)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));

    let manifest = r#"{"run_id":"123","agent_id":"agent.example/v1","emitted_at":"2026-04-28T10:00:00Z",
      "claims":[{"claim_id":"c1","text":"A claim.","sources":[{"url":"https://example.com/a",
      "retrieved_at":"2026-04-28T09:55:00Z","hash":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "excerpt_offset":[0,1]}]}]}"#;
    let mpath = dir.path().join("manifest.json");
    std::fs::write(&mpath, manifest).unwrap();
    let out = citeproof()
        .args(["aca", "sign"])
        .arg(&mpath)
        .arg("--key")
        .arg(keys.join("private.pem"))
        .args(["--kid", "agent-2026-04", "--created", "1777370400"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let signed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(signed["status"], 200);
    let names: Vec<&str> = signed["headers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h[0].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "content-type",
            "content-digest",
            "signature-input",
            "signature"
        ]
    );
    assert_eq!(
        signed["headers"][2][1],
        "sig1=(\"@status\" \"content-type\" \"content-digest\");created=1777370400;keyid=\"agent-2026-04\";alg=\"ed25519\""
    );
    let body = signed["body"].as_str().unwrap();
    assert!(body.starts_with("{\"agent_id\":"), "JCS body: {body}");

    // Serve it as an HTTP/1.1 message and verify with the public key.
    let mut text = String::from("HTTP/1.1 200 OK\r\n");
    for h in signed["headers"].as_array().unwrap() {
        text.push_str(&format!(
            "{}: {}\r\n",
            h[0].as_str().unwrap(),
            h[1].as_str().unwrap()
        ));
    }
    text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    let msg = dir.path().join("resp.http");
    std::fs::write(&msg, &text).unwrap();
    let out = citeproof()
        .args(["httpsig", "verify", "--message"])
        .arg(&msg)
        .arg("--key")
        .arg(keys.join("public.pem"))
        .args(["--now", "1777370460"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout_of(&out));
    // The JWK Set works as a key file too.
    let out = citeproof()
        .args(["httpsig", "verify", "--message"])
        .arg(&msg)
        .arg("--key")
        .arg(keys.join("jwks.json"))
        .args(["--now", "1777370460"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stdout_of(&out));

    // An invalid manifest is refused (exit 1) unless --allow-invalid.
    std::fs::write(&mpath, manifest.replace("\"c1\"", "\"claim one\"")).unwrap();
    let out = citeproof()
        .args(["aca", "sign"])
        .arg(&mpath)
        .arg("--key")
        .arg(keys.join("private.pem"))
        .args(["--keyid", "k"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("aca-claim-id-invalid"));
}

#[test]
fn serve_lists_runs_and_verify_reports_their_levels() {
    let (mut child, base) = start_demo();
    let result = std::panic::catch_unwind(|| {
        // GET /runs through the verifier's own fetcher is overkill; use the CLI on each run.
        let out = citeproof()
            .args(["aca", "verify", "--allow-private", "--json"])
            .arg(format!("{base}/runs/complete"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stdout_of(&out));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["level"], 3);
        assert_eq!(report["verified"], true);
        assert_eq!(report["incidents"], Value::Array(vec![]));

        let dir = tempfile::tempdir().unwrap();
        let snap = dir.path().join("unsigned.json");
        let out = citeproof()
            .args(words(
                "aca verify --allow-private --json --save-snapshot",
                &[],
            ))
            .arg(&snap)
            .arg(format!("{base}/runs/unsigned"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["level"], 2);
        let codes: Vec<&str> = report["incidents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["code"].as_str().unwrap())
            .collect();
        assert!(codes.contains(&"aca-signature-missing"), "{codes:?}");
        for i in report["incidents"].as_array().unwrap() {
            assert!(i["severity"].is_string() && i["message"].is_string());
        }

        // Offline replay of the saved snapshot: same level; --level 2 is met.
        let out = citeproof()
            .args(["aca", "verify", "--allow-private", "--snapshot"])
            .arg(&snap)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(
            stdout_of(&out).contains("level achieved: 2 (required 3)"),
            "{}",
            stdout_of(&out)
        );
        let out = citeproof()
            .args(words(
                "aca verify --allow-private --level 2 --snapshot",
                &[],
            ))
            .arg(&snap)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stdout_of(&out));
        // Replayed without --allow-private: refused, and the message says what to add.
        let out = citeproof()
            .args(["aca", "verify", "--level", "2", "--snapshot"])
            .arg(&snap)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("add --allow-private"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );

        // An added judge (JSON lines over stdin/stdout) can only add findings.
        let judge = |script: &str, timeout: &str| -> Value {
            let out = citeproof()
                .args(words(
                    "aca verify --allow-private --json --judge-timeout {} --judge",
                    &[timeout],
                ))
                .arg(format!("python3 -c '{script}'"))
                .arg(format!("{base}/runs/complete"))
                .output()
                .unwrap();
            serde_json::from_slice(&out.stdout).unwrap()
        };
        let codes = |r: &Value| -> Vec<String> {
            r["incidents"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["code"].as_str().unwrap().to_owned())
                .collect()
        };
        let yes = "import sys, json\nfor l in sys.stdin: print(json.dumps({\"supported\": True}), flush=True)";
        let r = judge(yes, "30");
        assert_eq!(
            (r["level"].as_u64(), codes(&r)),
            (Some(3), Vec::<String>::new())
        );
        let no_to_crawlers = "import sys, json\nfor l in sys.stdin:\n  c = json.loads(l)[\"claim\"]\n  print(json.dumps({\"supported\": \"crawlers\" not in c, \"reason\": \"model: unsure\"}), flush=True)";
        let r = judge(no_to_crawlers, "30");
        assert_eq!(r["level"], 1, "{r}");
        assert_eq!(codes(&r), ["aca-judge-unsupported"]);
        assert!(
            r["incidents"][0]["message"]
                .as_str()
                .unwrap()
                .contains("model: unsure")
        );
        let silent = "import sys, time\nfor l in sys.stdin: time.sleep(30)";
        let r = judge(silent, "1");
        assert_eq!(r["level"], 1, "{r}");
        assert!(codes(&r).iter().all(|c| c == "aca-judge-failed"), "{r}");
        // A "yes" with a byte that is not UTF-8 in its reason is no answer (read lossily, it
        // would have been a yes).
        let not_utf8 = "import sys\nfor l in sys.stdin:\n  sys.stdout.buffer.write(b\"{\\x22supported\\x22: true, \\x22reason\\x22: \\x22\\xff\\x22}\\n\"); sys.stdout.flush()";
        let r = judge(not_utf8, "30");
        assert_eq!(r["level"], 1, "{r}");
        assert!(codes(&r).iter().all(|c| c == "aca-judge-failed"), "{r}");
        assert!(
            r["incidents"][0]["message"]
                .as_str()
                .unwrap()
                .contains("not UTF-8"),
            "{r}"
        );

        // The audit store: the complete run's manifest names its response, so its replay on
        // another URL fails on its own (ACA-L2-024), recorded or not; the unbound pair shows
        // what the history (ACA-L2-022) does for manifests that name no response.
        let db = dir.path().join("audit.db");
        let verify_recorded = |path: &str| -> Value {
            let out = citeproof()
                .args(["aca", "verify", "--allow-private", "--json", "--record"])
                .arg(&db)
                .arg(format!("{base}{path}"))
                .output()
                .unwrap();
            serde_json::from_slice(&out.stdout).unwrap()
        };
        let alone = citeproof()
            .args(["aca", "verify", "--allow-private", "--json"])
            .arg(format!("{base}/runs/replayed"))
            .output()
            .unwrap();
        assert_eq!(alone.status.code(), Some(1), "{}", stdout_of(&alone));
        assert_eq!(verify_recorded("/runs/complete")["level"], 3);
        assert_eq!(
            verify_recorded("/runs/complete")["level"],
            3,
            "re-verifying is not reuse"
        );
        let replayed = verify_recorded("/runs/replayed");
        assert_eq!(replayed["level"], 1, "{replayed}");
        assert_eq!(
            replayed["incidents"][0]["code"],
            "aca-response-url-mismatch"
        );
        assert_eq!(verify_recorded("/runs/unbound")["level"], 3);
        let copy = verify_recorded("/runs/unbound-copy");
        assert_eq!(copy["level"], 1, "{copy}");
        assert!(
            codes_of(&copy).contains(&"aca-manifest-reused".to_owned()),
            "{copy}"
        );
        let out = citeproof()
            .args(["audit", "--json", "--db"])
            .arg(&db)
            .arg("summary")
            .output()
            .unwrap();
        let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(summary["verifications"], 5);
        assert_eq!(summary["verified"], 3);
        // Both manifests were served with two responses: a fact the summary keeps.
        let reused = summary["reused_documents"].as_array().unwrap();
        assert_eq!(reused.len(), 2, "{summary}");
        for r in reused {
            assert_eq!((r[1].as_u64(), r[2].as_u64()), (Some(1), Some(2)));
        }
        let out = citeproof()
            .args(["audit", "--db"])
            .arg(&db)
            .args(["list", "--code", "aca-manifest-reused"])
            .output()
            .unwrap();
        let listing = stdout_of(&out);
        assert_eq!(listing.lines().count(), 1, "{listing}");
        assert!(listing.contains("/runs/unbound-copy") && listing.contains("NOT VERIFIED"));
        // The time of the verification reads as RFC 3339 UTC (`2026-11-25T03:40:00Z`).
        let when = listing.split_whitespace().nth(1).unwrap();
        let shape: Vec<bool> = when.bytes().map(|b| b.is_ascii_digit()).collect();
        assert_eq!(when.len(), 20, "{listing}");
        assert_eq!(
            (
                &when[4..5],
                &when[7..8],
                &when[10..11],
                &when[13..14],
                &when[16..17],
                &when[19..]
            ),
            ("-", "-", "T", ":", ":", "Z"),
            "{listing}"
        );
        assert_eq!(shape.iter().filter(|d| **d).count(), 14, "{listing}");
        let out = citeproof()
            .args(["audit", "--db"])
            .arg(dir.path().join("absent.db"))
            .arg("summary")
            .output()
            .unwrap();
        // A store that cannot be used: exit 3, `audit-not-found`, nothing created.
        assert_eq!(out.status.code(), Some(3));

        // A WARC snapshot (ISO 28500) replays like the JSON one.
        let warc = dir.path().join("complete.warc");
        let out = citeproof()
            .args(words(
                "aca verify --allow-private --json --save-snapshot",
                &[],
            ))
            .arg(&warc)
            .arg(format!("{base}/runs/complete"))
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(std::fs::read(&warc).unwrap().starts_with(b"WARC/1.1\r\n"));
        let out = citeproof()
            .args(["aca", "verify", "--allow-private", "--json", "--snapshot"])
            .arg(&warc)
            .output()
            .unwrap();
        let replayed: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (replayed["level"].as_u64(), replayed["verified"].as_bool()),
            (Some(3), Some(true)),
            "{replayed}"
        );

        // Batch: URLs and snapshot files, one a line, JSON lines out in input order.
        let list = dir.path().join("batch.txt");
        std::fs::write(
            &list,
            format!(
                "# demo runs\n{base}/runs/complete\n\n{}\n{base}/runs/replayed\n{}\n",
                snap.display(),
                dir.path().join("missing.json").display()
            ),
        )
        .unwrap();
        let db2 = dir.path().join("batch.db");
        let out = citeproof()
            .args(["aca", "verify", "--allow-private", "--record"])
            .arg(&db2)
            .arg("--batch")
            .arg(&list)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let lines: Vec<Value> = stdout_of(&out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4, "{}", stdout_of(&out));
        let got: Vec<(u64, Option<u64>, bool)> = lines
            .iter()
            .map(|l| {
                (
                    l["line"].as_u64().unwrap(),
                    l["level"].as_u64(),
                    l["ok"].as_bool().unwrap(),
                )
            })
            .collect();
        // complete: 3; the unsigned snapshot: 2 of 3; the replay of complete: its manifest
        // names /runs/complete (ACA-L2-024); the missing file: an error line.
        assert_eq!(
            got,
            [
                (2, Some(3), true),
                (4, Some(2), false),
                (5, Some(1), false),
                (6, None, false)
            ]
        );
        assert_eq!(
            lines[2]["incidents"][0]["code"],
            "aca-response-url-mismatch"
        );
        assert!(
            lines[3]["error"]["message"]
                .as_str()
                .unwrap()
                .contains("missing.json")
        );
        assert_eq!(lines[3]["outcome"], "could-not-check");
        assert_eq!(
            lines[3]["input"],
            dir.path().join("missing.json").display().to_string()
        );
        assert_eq!(lines[0]["command"], "aca verify");

        // Without --allow-private the loopback address is refused.
        let out = citeproof()
            .args(["aca", "verify", "--json"])
            .arg(format!("{base}/runs/complete"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(stdout_of(&out).contains("fetch-address-forbidden"));

        let out = citeproof()
            .args(["aca", "verify", "--allow-private"])
            .arg(format!("{base}/runs/no-header"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(stdout_of(&out).contains("aca-header-missing"));
    });
    let _ = child.kill();
    let _ = child.wait();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["aca", "verify"],
        vec!["aca", "verify", "--level", "4", "https://example.com/"],
        vec!["demo", "serve", "--addr", "8.8.8.8:80"],
    ] {
        let out = citeproof().args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Files that cannot be read: nothing was checked (3).
    for args in [
        vec!["aca", "verify", "--snapshot", "/definitely/not/here.json"],
        vec![
            "sign",
            "manifest",
            "/definitely/not/here.json",
            "--key",
            "k",
            "--keyid",
            "k",
        ],
        vec![
            "httpsig",
            "verify",
            "--message",
            "/definitely/not/here",
            "--key",
            "k",
        ],
    ] {
        let out = citeproof().args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(3),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

//! End-to-end tests of the ACA subcommands: keygen, sign manifest, httpsig verify of what was
//! signed, verify, serve (`httpsig_cli.rs` checks httpsig verify against RFC 9421's data).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value;

mod kit;
use kit::{cli, codes_of, exits_each, start_demo};

#[test]
fn keygen_sign_and_httpsig_verify_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys");
    let keys_dir = keys.to_str().unwrap();
    cli("keygen --kid agent-2026-04 --out {}", &[keys_dir]).exits(0);
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
    cli("keygen --out {}", &[keys_dir]).exits(2);

    let manifest = r#"{"run_id":"123","agent_id":"agent.example/v1","emitted_at":"2026-04-28T10:00:00Z",
      "claims":[{"claim_id":"c1","text":"A claim.","sources":[{"url":"https://example.com/a",
      "retrieved_at":"2026-04-28T09:55:00Z","hash":"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "excerpt_offset":[0,1]}]}]}"#;
    let mpath = dir.path().join("manifest.json");
    std::fs::write(&mpath, manifest).unwrap();
    let [mfile, private, public, jwks_file] = [
        mpath.clone(),
        keys.join("private.pem"),
        keys.join("public.pem"),
        keys.join("jwks.json"),
    ]
    .map(|p| p.to_string_lossy().into_owned());
    let sign = "aca sign {} --key {} --kid agent-2026-04 --created 1777370400";
    let signed = cli(sign, &[&mfile, &private]).exits(0).json();
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
    let verify = "httpsig verify --message {} --key {} --now 1777370460";
    let msg = msg.to_str().unwrap();
    cli(verify, &[msg, &public]).exits(0);
    // The JWK Set works as a key file too.
    cli(verify, &[msg, &jwks_file]).exits(0);

    // An invalid manifest is refused (exit 1) unless --allow-invalid.
    std::fs::write(&mpath, manifest.replace("\"c1\"", "\"claim one\"")).unwrap();
    cli("aca sign {} --key {} --keyid k", &[&mfile, &private])
        .exits(1)
        .warns(&["aca-claim-id-invalid"]);
}

#[test]
fn serve_lists_runs_and_verify_reports_their_levels() {
    let (mut child, base) = start_demo();
    let result = std::panic::catch_unwind(|| {
        // GET /runs through the verifier's own fetcher is overkill; use the CLI on each run.
        let verify = "aca verify --allow-private --json {}";
        let report = cli(verify, &[&format!("{base}/runs/complete")])
            .exits(0)
            .json();
        assert_eq!(report["level"], 3);
        assert_eq!(report["verified"], true);
        assert_eq!(report["incidents"], Value::Array(vec![]));

        let dir = tempfile::tempdir().unwrap();
        let snap = dir
            .path()
            .join("unsigned.json")
            .to_string_lossy()
            .into_owned();
        let save = "aca verify --allow-private --json --save-snapshot {} {}";
        let report = cli(save, &[&snap, &format!("{base}/runs/unsigned")])
            .exits(1)
            .json();
        assert_eq!(report["level"], 2);
        let codes = codes_of(&report);
        assert!(codes.contains(&"aca-signature-missing"), "{codes:?}");
        for i in report["incidents"].as_array().unwrap() {
            assert!(i["severity"].is_string() && i["message"].is_string());
        }

        // Offline replay of the saved snapshot: same level; --level 2 is met.
        cli("aca verify --allow-private --snapshot {}", &[&snap])
            .exits(1)
            .says(&["level achieved: 2 (required 3)"]);
        cli(
            "aca verify --allow-private --level 2 --snapshot {}",
            &[&snap],
        )
        .exits(0);
        // Replayed without --allow-private: refused, and the message says what to add.
        cli("aca verify --level 2 --snapshot {}", &[&snap])
            .exits(1)
            .warns(&["add --allow-private"]);

        judge_adds_findings_only(&base);
        audit_store_of_the_demo_runs(&base, dir.path());

        // A WARC snapshot (ISO 28500) replays like the JSON one.
        let warc = dir.path().join("complete.warc");
        let warc_file = warc.to_str().unwrap();
        cli(save, &[warc_file, &format!("{base}/runs/complete")]).exits(0);
        assert!(std::fs::read(&warc).unwrap().starts_with(b"WARC/1.1\r\n"));
        let replayed = cli(
            "aca verify --allow-private --json --snapshot {}",
            &[warc_file],
        )
        .json();
        assert_eq!(
            (replayed["level"].as_u64(), replayed["verified"].as_bool()),
            (Some(3), Some(true)),
            "{replayed}"
        );
        // The same file through a FIFO, which has no size: streamed, the same verdict.
        let fifo = dir.path().join("complete-fifo.warc");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let (from, to) = (warc.clone(), fifo.clone());
        let writer = std::thread::spawn(move || std::fs::copy(from, to));
        let streamed = cli(
            "aca verify --allow-private --json --snapshot {}",
            &[fifo.to_str().unwrap()],
        )
        .json();
        writer.join().unwrap().unwrap();
        assert_eq!(streamed["level"], replayed["level"], "{streamed}");
        assert_eq!(streamed["incidents"], replayed["incidents"]);

        batch_of_urls_and_snapshots(&base, dir.path(), &snap);

        // Without --allow-private the loopback address is refused.
        cli("aca verify --json {}", &[&format!("{base}/runs/complete")])
            .exits(1)
            .says(&["fetch-address-forbidden"]);
        cli(
            "aca verify --allow-private {}",
            &[&format!("{base}/runs/no-header")],
        )
        .exits(1)
        .says(&["aca-header-missing"]);
    });
    let _ = child.kill();
    let _ = child.wait();
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

/// An added judge (JSON lines over stdin/stdout) can only add findings.
fn judge_adds_findings_only(base: &str) {
    let complete = format!("{base}/runs/complete");
    let judge = |script: &str, timeout: &str| -> Value {
        let line = "aca verify --allow-private --json --judge-timeout {} --judge {} {}";
        cli(
            line,
            &[timeout, &format!("python3 -c '{script}'"), &complete],
        )
        .json()
    };
    let yes = "import sys, json\nfor l in sys.stdin: print(json.dumps({\"supported\": True}), flush=True)";
    let r = judge(yes, "30");
    assert_eq!(
        (r["level"].as_u64(), codes_of(&r)),
        (Some(3), Vec::<&str>::new())
    );
    let no_to_crawlers = "import sys, json\nfor l in sys.stdin:\n  c = json.loads(l)[\"claim\"]\n  print(json.dumps({\"supported\": \"crawlers\" not in c, \"reason\": \"model: unsure\"}), flush=True)";
    let r = judge(no_to_crawlers, "30");
    assert_eq!(r["level"], 1, "{r}");
    assert_eq!(codes_of(&r), ["aca-judge-unsupported"]);
    assert!(
        r["incidents"][0]["message"]
            .as_str()
            .unwrap()
            .contains("model: unsure")
    );
    let silent = "import sys, time\nfor l in sys.stdin: time.sleep(30)";
    let r = judge(silent, "1");
    assert_eq!(r["level"], 1, "{r}");
    assert!(codes_of(&r).iter().all(|c| *c == "aca-judge-failed"), "{r}");
    // A "yes" with a byte that is not UTF-8 in its reason is no answer (read lossily, it
    // would have been a yes).
    let not_utf8 = "import sys\nfor l in sys.stdin:\n  sys.stdout.buffer.write(b\"{\\x22supported\\x22: true, \\x22reason\\x22: \\x22\\xff\\x22}\\n\"); sys.stdout.flush()";
    let r = judge(not_utf8, "30");
    assert_eq!(r["level"], 1, "{r}");
    assert!(codes_of(&r).iter().all(|c| *c == "aca-judge-failed"), "{r}");
    assert!(
        r["incidents"][0]["message"]
            .as_str()
            .unwrap()
            .contains("not UTF-8"),
        "{r}"
    );
}

/// The audit store: the complete run's manifest names its response, so its replay on another
/// URL fails on its own (ACA-L2-024), recorded or not; the unbound pair shows what the history
/// (ACA-L2-022) does for manifests that name no response.
fn audit_store_of_the_demo_runs(base: &str, dir: &std::path::Path) {
    let db = dir.join("audit.db").to_string_lossy().into_owned();
    let verify_recorded = |path: &str| -> Value {
        let line = "aca verify --allow-private --json --record {} {}";
        cli(line, &[&db, &format!("{base}{path}")]).json()
    };
    cli(
        "aca verify --allow-private --json {}",
        &[&format!("{base}/runs/replayed")],
    )
    .exits(1);
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
    assert!(codes_of(&copy).contains(&"aca-manifest-reused"), "{copy}");
    let summary = cli("audit --json --db {} summary", &[&db]).json();
    assert_eq!(summary["verifications"], 5);
    assert_eq!(summary["verified"], 3);
    // Both manifests were served with two responses: a fact the summary keeps.
    let reused = summary["reused_documents"].as_array().unwrap();
    assert_eq!(reused.len(), 2, "{summary}");
    for r in reused {
        assert_eq!((r[1].as_u64(), r[2].as_u64()), (Some(1), Some(2)));
    }
    let listing = cli("audit --db {} list --code aca-manifest-reused", &[&db]).out;
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
    // A store that cannot be used: exit 3, `audit-not-found`, nothing created.
    let absent = dir.join("absent.db").to_string_lossy().into_owned();
    cli("audit --db {} summary", &[&absent]).exits(3);
}

/// Batch: URLs and snapshot files, one a line, JSON lines out in input order.
fn batch_of_urls_and_snapshots(base: &str, dir: &std::path::Path, snap: &str) {
    let list = dir.join("batch.txt");
    let missing = dir.join("missing.json").display().to_string();
    std::fs::write(
        &list,
        format!("# demo runs\n{base}/runs/complete\n\n{snap}\n{base}/runs/replayed\n{missing}\n"),
    )
    .unwrap();
    let db2 = dir.join("batch.db").to_string_lossy().into_owned();
    let list = list.to_string_lossy().into_owned();
    let ran = cli(
        "aca verify --allow-private --record {} --batch {}",
        &[&db2, &list],
    )
    .exits(1);
    let lines: Vec<Value> = ran
        .out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{}", ran.out);
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
    assert_eq!(lines[3]["input"], missing);
    assert_eq!(lines[0]["command"], "aca verify");
}

#[test]
fn usage_errors_exit_2() {
    let usage = [
        "aca verify",
        "aca verify --level 4 https://example.com/",
        "demo serve --addr 8.8.8.8:80",
    ];
    exits_each(&usage, 2);
    // Files that cannot be read: nothing was checked (3).
    let unreadable = [
        "aca verify --snapshot /definitely/not/here.json",
        "sign manifest /definitely/not/here.json --key k --keyid k",
        "httpsig verify --message /definitely/not/here --key k",
    ];
    exits_each(&unreadable, 3);
}

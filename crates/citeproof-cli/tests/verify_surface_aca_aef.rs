//! The command-line surface every `verify` shares (issue 20, item 5), for `aca verify` and
//! `aef verify`: exit statuses 0 verified, 1 not verified, 2 usage error, 3 could not check;
//! `--json` errors as a JSON object; `--now` as RFC 3339 or Unix seconds; `--batch` in input
//! order with the worst exit status.
//!
//! ACA inputs are the snapshots of the conformance vectors (written by the independent Python
//! generator `vectors/tools/aca_vectors.py`, with their expected results); AEF inputs are built
//! from the AEF fixtures, whose hashes `expected.json` computes independently.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use serde_json::Value;

mod kit;
use kit::{citeproof, each_where, words};

fn code(out: &std::process::Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn json_of(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn repo(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// A case of the ACA Level 3 verify vectors: its snapshot, verification time and expectation.
fn aca_case(id: &str) -> (Value, i64, Value) {
    let all: Value =
        serde_json::from_slice(&std::fs::read(repo("vectors/aca/level3/verify.json")).unwrap())
            .unwrap();
    let case = all["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no case {id}"))
        .clone();
    assert_eq!(case["input"]["required_level"], 3);
    (
        case["input"]["snapshot"].clone(),
        case["input"]["now"].as_i64().unwrap(),
        case["expected"].clone(),
    )
}

fn write_json(dir: &Path, name: &str, value: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(value).unwrap()).unwrap();
    path.to_string_lossy().into_owned()
}

fn aca_verify(snapshot: &str, now: &str, extra: &[&str]) -> std::process::Output {
    citeproof()
        .args(["aca", "verify", "--snapshot", snapshot, "--now", now])
        .args(extra)
        .output()
        .unwrap()
}

/// 2026-04-28T10:00:00Z, the verification time of the ACA vectors: 20571 days after the epoch
/// (56 years of 365 days, 14 leap days, 117 days of 2026 before April 28) = 1 777 334 400 s,
/// plus 10 hours.
const ACA_NOW: i64 = 1_777_370_400;
const ACA_NOW_RFC3339: &str = "2026-04-28T10:00:00Z";

#[test]
fn aca_verify_exit_statuses_and_now() {
    let dir = tempfile::tempdir().unwrap();
    let (baseline, now, expected) = aca_case("aca-l3-verify-baseline");
    assert_eq!((now, &expected["result"]), (ACA_NOW, &Value::from("valid")));
    let good = write_json(dir.path(), "baseline.json", &baseline);

    // 0: verified, with --now in both forms giving the same report.
    let unix = aca_verify(&good, &ACA_NOW.to_string(), &["--json"]);
    let rfc = aca_verify(&good, ACA_NOW_RFC3339, &["--json"]);
    assert_eq!((code(&unix), code(&rfc)), (0, 0));
    let report = json_of(&unix);
    assert_eq!(report, json_of(&rfc));
    assert_eq!(
        (&report["spec"], &report["outcome"], &report["level"]),
        (&"aca".into(), &"verified".into(), &3.into())
    );
    assert_eq!(report["subject"]["kind"], "snapshot");
    // The verification time is used: 91 days later the signature is older than the 90-day
    // default of ACA-L3-010 (`created` is before the vectors' time).
    let later = (ACA_NOW + 91 * 86_400).to_string();
    let old = aca_verify(&good, &later, &["--json"]);
    assert_eq!(code(&old), 1, "{}", String::from_utf8_lossy(&old.stdout));
    assert!(
        json_of(&old)["incidents"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["code"] == "httpsig-too-old")
    );

    // Text output starts with the verdict line.
    let text = aca_verify(&good, ACA_NOW_RFC3339, &[]);
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(
        stdout.starts_with("level achieved: 3 (required 3) -> VERIFIED\n"),
        "{stdout}"
    );

    // 1: not verified (the vector's expected errors).
    let (missing_chain, _, expected) = aca_case("aca-l3-verify-chain-missing");
    let bad = write_json(dir.path(), "chain-missing.json", &missing_chain);
    let out = aca_verify(&bad, ACA_NOW_RFC3339, &["--json"]);
    assert_eq!(code(&out), 1);
    let report = json_of(&out);
    assert_eq!(report["outcome"], "not-verified");
    let codes = each_where(&report["incidents"], "severity", "error", "code");
    for want in expected["errors"].as_array().unwrap() {
        assert!(codes.contains(&want.as_str().unwrap()), "{codes:?}");
    }

    // 3: a cited source missing from the snapshot (`fetch-not-in-snapshot`, transient): the
    // Level 2 check could not run, so the response could not be checked.
    let mut partial = baseline.clone();
    let removed = partial["resources"]
        .as_object_mut()
        .unwrap()
        .remove("https://example.org/crawl.txt");
    assert!(removed.is_some());
    let partial = write_json(dir.path(), "partial.json", &partial);
    let out = aca_verify(&partial, ACA_NOW_RFC3339, &["--json"]);
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stdout));
    let report = json_of(&out);
    assert_eq!(
        (&report["outcome"], &report["verified"]),
        (&"could-not-check".into(), &false.into())
    );
    // 3: a snapshot file that cannot be read; under --json the error is the JSON object.
    let out = aca_verify("/definitely/not/here.json", ACA_NOW_RFC3339, &["--json"]);
    assert_eq!(code(&out), 3);
    let error = json_of(&out);
    assert_eq!(
        (&error["command"], &error["ok"], &error["error"]["code"]),
        (
            &"aca verify".into(),
            &false.into(),
            &"input-unreadable".into()
        )
    );

    // 2: usage errors, as JSON objects under --json.
    let out = aca_verify(&good, "yesterday", &["--json"]);
    assert_eq!(code(&out), 2);
    assert_eq!(json_of(&out)["error"]["code"], "usage");
    let trust = write_json(dir.path(), "trust.json", &serde_json::json!({"signers": 7}));
    let out = aca_verify(&good, ACA_NOW_RFC3339, &["--json", "--trust", &trust]);
    assert_eq!(code(&out), 2, "{}", String::from_utf8_lossy(&out.stdout));
    let error = json_of(&out);
    assert_eq!(error["error"]["code"], "usage");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("trust file"), "{message}");
    // A well-formed trust file is accepted; ACA says it uses none of it, and the report's
    // trust is only the response origin's discovery document.
    let trust = write_json(
        dir.path(),
        "trust-ok.json",
        &serde_json::json!({"key_locations": ["https://keys.example/jwks.json"]}),
    );
    let out = aca_verify(&good, ACA_NOW_RFC3339, &["--json", "--trust", &trust]);
    assert_eq!(code(&out), 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains("ACA uses no member of the trust file"));
    let report = json_of(&out);
    assert!(report["trust"].get("key_locations").is_none(), "{report}");
    assert_eq!(report["trust"]["origins"][0], "https://agent.example");
}

fn batch_lines(out: &std::process::Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn aca_verify_batch_keeps_input_order_and_exits_with_the_worst() {
    let dir = tempfile::tempdir().unwrap();
    let (baseline, _, _) = aca_case("aca-l3-verify-baseline");
    let (chain_missing, _, _) = aca_case("aca-l3-verify-chain-missing");
    let (jwks, _, _) = aca_case("aca-l3-verify-jwks-uri");
    let good = write_json(dir.path(), "good.json", &baseline);
    let bad = write_json(dir.path(), "bad.json", &chain_missing);
    let jwks = write_json(dir.path(), "jwks.json", &jwks);
    let missing = dir
        .path()
        .join("missing.json")
        .to_string_lossy()
        .into_owned();
    let run = |lines: &[&str]| {
        let list = dir.path().join("list.txt");
        std::fs::write(&list, lines.join("\n") + "\n").unwrap();
        citeproof()
            .args(["aca", "verify", "--now", ACA_NOW_RFC3339, "--batch"])
            .arg(&list)
            .output()
            .unwrap()
    };
    // Many lines, so that the parallel run finishes out of order at least sometimes.
    let mut many: Vec<&str> = Vec::new();
    for _ in 0..6 {
        many.extend([good.as_str(), bad.as_str(), jwks.as_str()]);
    }
    many.insert(4, "# a comment");
    many.insert(5, "");
    let out = run(&many);
    assert_eq!(code(&out), 1);
    let lines = batch_lines(&out);
    assert_eq!(lines.len(), 18);
    for (k, l) in lines.iter().enumerate() {
        let want = [&good, &bad, &jwks][k % 3];
        assert_eq!(l["input"], want.as_str(), "{k}");
        assert_eq!(l["ok"], k % 3 != 1, "{k}");
        assert_eq!(l["command"], "aca verify");
    }
    let numbers: Vec<u64> = lines.iter().map(|l| l["line"].as_u64().unwrap()).collect();
    assert_eq!(
        &numbers[..6],
        [1, 2, 3, 4, 7, 8],
        "the comment and the blank line count"
    );

    // All verified: 0. A could-not-check next to verified ones: 3. Not verified wins over
    // could not check: 1.
    assert_eq!(code(&run(&[&good, &jwks])), 0);
    let out = run(&[&good, &missing]);
    assert_eq!(code(&out), 3);
    let lines = batch_lines(&out);
    assert_eq!(lines[1]["outcome"], "could-not-check");
    assert_eq!(lines[1]["error"]["code"], "input-unreadable");
    assert_eq!(code(&run(&[&missing, &bad, &good])), 1);
    // `-` is never a line (standard input is one stream, and may be the list itself), as in
    // every other verify: a usage error for that line, the run's status 2.
    let out = run(&[&good, "-"]);
    assert_eq!(code(&out), 2);
    let lines = batch_lines(&out);
    assert_eq!(lines[1]["outcome"], "usage-error", "{}", lines[1]);
    assert_eq!(lines[1]["error"]["code"], "usage");
}

fn new_evidence(dir: &Path) -> String {
    let fixture = repo("vectors/fixtures/aef/article.html");
    let out = citeproof()
        .args(["aef", "new", "--source"])
        .arg(&fixture)
        .args(words(
            "--uri https://example.com/aeo --selector css=p.lead",
            &[],
        ))
        .args(["--claim", "The AEO Protocol defines three pillars."])
        .args(["--fetched-at", "2026-05-12T03:45:00Z"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let path = dir.join("ev.json");
    std::fs::write(&path, &out.stdout).unwrap();
    path.to_string_lossy().into_owned()
}

fn aef_verify(args: &[&str]) -> std::process::Output {
    let source = repo("vectors/fixtures/aef/article.html");
    citeproof()
        .args(["aef", "verify", "--source"])
        .arg(&source)
        .args(["--media-type", "text/html"])
        .args(args)
        .output()
        .unwrap()
}

fn incident_codes(report: &Value) -> Vec<String> {
    report["incidents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["code"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn aef_verify_exit_statuses_now_and_batch() {
    let dir = tempfile::tempdir().unwrap();
    let good = new_evidence(dir.path());

    // 0, and --now in both forms: 2026-05-01T00:00:00Z is 1 777 593 600 s (hand count in
    // common.rs), 11 days before `fetched_at`, so AEF-4-007 warns; after it, it does not.
    let out = aef_verify(&[&good, "--json", "--now", "1777593600"]);
    assert_eq!(code(&out), 0);
    let unix = json_of(&out);
    let out = aef_verify(&[&good, "--json", "--now", "2026-05-01T00:00:00Z"]);
    assert_eq!(json_of(&out), unix);
    assert!(incident_codes(&unix).contains(&"aef-fetched-in-future".to_owned()));
    let out = aef_verify(&[&good, "--json", "--now", "2026-05-12T03:50:00Z"]);
    assert_eq!(code(&out), 0);
    let report = json_of(&out);
    assert_eq!(report["outcome"], "verified");
    assert!(incident_codes(&report).is_empty(), "{report}");

    // 1: the exact text no longer what the source says.
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&good).unwrap()).unwrap();
    doc["span"]["exact_text"] = "The AEO Protocol defines four pillars.".into();
    let bad = write_json(dir.path(), "bad.json", &doc);
    let out = aef_verify(&[&bad, "--json"]);
    assert_eq!(code(&out), 1);
    assert_eq!(json_of(&out)["outcome"], "not-verified");

    // 3: the source cannot be fetched (a loopback port that was just closed: the connection
    // is refused).
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}/article.html");
    let out = citeproof()
        .args(["aef", "verify", &good, "--json", "--allow-private"])
        .args(["--source", &url])
        .output()
        .unwrap();
    assert_eq!(code(&out), 3, "{}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(json_of(&out)["outcome"], "could-not-check");
    // 3: an evidence file that cannot be read, as a JSON error object.
    let out = aef_verify(&["/definitely/not/here.json", "--json"]);
    assert_eq!(code(&out), 3);
    assert_eq!(json_of(&out)["error"]["code"], "input-unreadable");

    // 2: usage errors as JSON objects.
    let out = aef_verify(&[&good, "--json", "--now", "2026-05-01"]);
    assert_eq!(code(&out), 2);
    assert_eq!(
        (&json_of(&out)["command"], &json_of(&out)["error"]["code"]),
        (&"aef verify".into(), &"usage".into())
    );
    let out = aef_verify(&["--json"]);
    assert_eq!(code(&out), 2, "a file or --batch is required");

    // --batch: input order, worst exit status.
    let list = dir.path().join("list.txt");
    let missing = dir.path().join("missing.json");
    std::fs::write(
        &list,
        format!("{good}\n{bad}\n{}\n{good}\n", missing.display()),
    )
    .unwrap();
    let out = aef_verify(&["--batch", &list.to_string_lossy()]);
    assert_eq!(code(&out), 1);
    let lines = batch_lines(&out);
    let got: Vec<(&str, &str)> = lines
        .iter()
        .map(|l| (l["input"].as_str().unwrap(), l["outcome"].as_str().unwrap()))
        .collect();
    let missing = missing.to_string_lossy();
    assert_eq!(
        got,
        [
            (good.as_str(), "verified"),
            (bad.as_str(), "not-verified"),
            (missing.as_ref(), "could-not-check"),
            (good.as_str(), "verified"),
        ]
    );
    assert_eq!(lines[0]["subject"]["name"], good.as_str());
    std::fs::write(&list, format!("{good}\n{good}\n")).unwrap();
    assert_eq!(code(&aef_verify(&["--batch", &list.to_string_lossy()])), 0);
}

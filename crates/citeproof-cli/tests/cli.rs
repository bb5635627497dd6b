//! End-to-end tests of the `citeproof` binary: outputs, messages and exit codes.
//! Expected outputs are hand-derived (RFC 8785 rules) or published (FIPS 180-2 "abc").

mod kit;

use kit::{citeproof, stderr_of, words};

const ABC_SHA256: &str = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn canon_writes_jcs_without_trailing_newline() {
    // Hand derivation: members sorted ("a" < "b"), 1.0 -> 1, 2e2 -> 200, \u00e9 -> raw UTF-8.
    let out = citeproof()
        .arg("canon")
        .arg("-")
        .write_stdin(r#"{"b":[1.0,2e2],"a":"\u00e9"}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert_eq!(out.stdout, "{\"a\":\"é\",\"b\":[1,200]}".as_bytes());
}

#[test]
fn canon_rejects_non_i_json_with_exit_1_and_the_code() {
    for (input, code) in [
        (&br#"{"a":1,"a":2}"#[..], "json-duplicate-member"),
        (br#"{"a":"\ud800"}"#, "json-lone-surrogate"),
        (br#"[1e400]"#, "json-number-out-of-range"),
        (br#"{"a":}"#, "json-syntax"),
        (b"[\"\xff\"]", "json-invalid-utf8"),
    ] {
        let out = citeproof()
            .args(["canon", "-"])
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "input {:?}",
            String::from_utf8_lossy(input)
        );
        assert!(
            stderr_of(&out).contains(code),
            "stderr {:?} lacks {code}",
            stderr_of(&out)
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn usage_errors_exit_2() {
    // Files that cannot be read: nothing was checked (3), under --json as a JSON object.
    for args in [
        vec!["canon", "/definitely/not/here.json"],
        vec!["hash", "/definitely/not/here"],
        vec![
            "validate",
            "--kind",
            "manifest",
            "/definitely/not/here.json",
        ],
    ] {
        let out = citeproof().args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(3),
            "args {args:?}: {}",
            stderr_of(&out)
        );
        let out = citeproof().args(&args).arg("--json").output().unwrap();
        assert_eq!(out.status.code(), Some(3), "args {args:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["ok"], false);
        assert_eq!(v["error"]["code"], "input-unreadable", "{v}");
        assert_eq!(v["command"], args[0], "{v}");
    }
    // A usage error under --json is a JSON object too.
    let out = citeproof()
        .args(["validate", "--kind", "no-such-kind", "--json", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "usage", "{v}");
    for args in [
        vec!["canon"],
        vec!["validate", "--kind", "no-such-kind", "-"],
        vec!["validate", "-"],
        vec!["no-such-command"],
    ] {
        let out = citeproof().args(&args).write_stdin("{}").output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "args {args:?}: {}",
            stderr_of(&out)
        );
        assert!(
            !stderr_of(&out).is_empty(),
            "args {args:?} printed no message"
        );
    }
}

#[test]
fn hash_raw_and_text() {
    let out = citeproof()
        .args(["hash", "-"])
        .write_stdin("abc")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{ABC_SHA256}\n")
    );

    // AEF §5: CRLF -> LF and one trailing newline stripped, so "abc\r\n" hashes as "abc".
    let out = citeproof()
        .args(["hash", "--text", "-"])
        .write_stdin("abc\r\n")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{ABC_SHA256}\n")
    );

    // Raw mode hashes the CRLF too, so the digest differs.
    let out = citeproof()
        .args(["hash", "-"])
        .write_stdin("abc\r\n")
        .output()
        .unwrap();
    assert_ne!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{ABC_SHA256}\n")
    );

    let out = citeproof()
        .args(["hash", "--text", "-"])
        .write_stdin(&b"ab\xffc"[..])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr_of(&out).contains("UTF-8"));
}

#[test]
fn validate_accepts_a_valid_manifest() {
    let out = citeproof()
        .args(["validate", "--kind", "manifest", &fixture("manifest.json")])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn validate_reports_pointer_and_code_and_exits_1() {
    let manifest = std::fs::read_to_string(fixture("manifest.json")).unwrap();
    let broken = manifest.replace("\"claim_id\": \"c1\"", "\"claim_id\": \"the first claim\"");
    let out = citeproof()
        .args(["validate", "--kind", "manifest", "--json", "-"])
        .write_stdin(broken)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["valid"], false);
    let incidents = report["incidents"].as_array().unwrap();
    assert!(
        incidents
            .iter()
            .any(|i| i["location"]["pointer"] == "/claims/0/claim_id"),
        "no incident points at the claim id: {incidents:?}"
    );

    let unknown = manifest.replace("\"run_id\"", "\"surprise\": 1, \"run_id\"");
    let out = citeproof()
        .args(["validate", "--kind", "manifest", "-"])
        .write_stdin(unknown)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("[unknown-member]"));

    let out = citeproof()
        .args(["validate", "--kind", "evidence", "-"])
        .write_stdin("{\"a\":1,\"a\":1}")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("json-duplicate-member"));
}

/// `validate --kind vectors` applies the vector rules beyond the schema (via the conformance
/// lint): a duplicated case id and a case id without its spec's prefix are each reported.
#[test]
fn validate_vectors_applies_the_lint() {
    let root = format!("{}/../..", env!("CARGO_MANIFEST_DIR"));
    let good = format!("{root}/vectors/canon/hash-bytes.json");
    let out = citeproof()
        .args(["validate", "--kind", "vectors", &good])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&good).unwrap()).unwrap();
    let first = file["cases"][0]["id"].clone();
    file["cases"][1]["id"] = first;
    file["cases"][2]["id"] = serde_json::json!("aca-wrong-prefix");
    let out = citeproof()
        .current_dir(&root)
        .args(["validate", "--kind", "vectors", "--json", "-"])
        .write_stdin(file.to_string())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let messages: Vec<&str> = report["incidents"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["code"] == "vector-invalid")
        .map(|i| i["message"].as_str().unwrap())
        .collect();
    assert!(
        messages.iter().any(|m| m.contains("duplicate case id")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("must start with `canon-`")),
        "{messages:?}"
    );
}

#[test]
fn a_closed_stdout_ends_quietly_with_the_command_s_own_exit_status() {
    use std::io::Write;
    use std::process::{Command as Std, Stdio};
    // 2 MiB of output into a pipe whose reader is already gone: every write gets EPIPE.
    let big = format!("[{}]", vec!["\"0123456789abcdef\""; 110_000].join(","));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.json");
    std::fs::write(&path, big).unwrap();
    let mut child = Std::new(assert_cmd::cargo::cargo_bin("citeproof"))
        .args(["canon", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = stderr_of(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // The same for a --json report.
    let mut child = Std::new(assert_cmd::cargo::cargo_bin("citeproof"))
        .args(["canon", "--json", path.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let _ = child.stdin.take().map(|mut s| s.write_all(b""));
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert!(!stderr_of(&out).contains("panicked"));
}

#[test]
fn json_reports_share_one_envelope() {
    let parse = |out: &std::process::Output| -> serde_json::Value {
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
    };
    let out = citeproof()
        .args(["hash", "--json", "-"])
        .write_stdin("abc")
        .output()
        .unwrap();
    let v = parse(&out);
    assert_eq!(v["command"], "hash");
    assert_eq!(v["ok"], true);
    assert_eq!(v["incidents"], serde_json::json!([]));
    assert_eq!(v["hash"], ABC_SHA256);

    let out = citeproof()
        .args(["canon", "--json", "-"])
        .write_stdin(r#"{"a":1,"a":2}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v = parse(&out);
    assert_eq!(
        (v["command"].as_str(), v["ok"].as_bool()),
        (Some("canon"), Some(false))
    );
    assert_eq!(v["incidents"][0]["code"], "json-duplicate-member");

    let dir = tempfile::tempdir().unwrap();
    let out = citeproof()
        .args(["keygen", "--json", "--kid", "k1", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let v = parse(&out);
    assert_eq!(
        (v["command"].as_str(), v["kid"].as_str()),
        (Some("keygen"), Some("k1"))
    );
    assert!(std::path::Path::new(v["jwks"].as_str().unwrap()).exists());

    let out = citeproof()
        .args(["validate", "--json", "--kind", "jwks", "-"])
        .write_stdin(r#"{"keys":[]}"#)
        .output()
        .unwrap();
    let v = parse(&out);
    assert_eq!(v["command"], "validate");
    assert_eq!(v["ok"], v["valid"]);
}

#[test]
fn previous_spellings_still_work_with_a_notice() {
    for (args, now) in [
        (
            vec!["verify", "--snapshot", "/definitely/not/here.json"],
            "citeproof aca verify",
        ),
        (
            vec!["evidence", "verify", "/definitely/not/here.json"],
            "citeproof aef",
        ),
        (
            vec![
                "sign",
                "manifest",
                "/definitely/not/here.json",
                "--key",
                "k",
                "--keyid",
                "k",
            ],
            "citeproof aca sign",
        ),
    ] {
        // Each names a file that cannot be read (3) after printing its notice.
        let out = citeproof().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        assert!(
            stderr_of(&out).contains(now),
            "{args:?}: {}",
            stderr_of(&out)
        );
    }
    // Hidden from the help, which lists the spec nouns.
    let out = citeproof().arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for noun in ["aca", "aef", "httpsig", "demo", "conformance"] {
        assert!(help.contains(&format!("  {noun} ")), "{help}");
    }
    assert!(
        !help.contains("  evidence ") && !help.contains("  serve "),
        "{help}"
    );
}

#[test]
fn conformance_runs_outside_a_checkout_with_the_embedded_suite() {
    let dir = tempfile::tempdir().unwrap();
    let out = citeproof()
        .current_dir(dir.path())
        .args(["conformance", "--suite", "canon*", "--no-progress"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("embedded in this binary"));
    // A selection: every canon case passes, and it is still not a conformance claim.
    assert!(
        stdout.contains("canon    core     not verified"),
        "{stdout}"
    );
    assert!(
        stdout.contains("claim: subset, not a conformance claim"),
        "{stdout}"
    );
}

/// `conformance --json`: the common envelope with the JSON report inside; `ok` follows the
/// exit status; the summary goes to stderr.
#[test]
fn conformance_json_envelope() {
    let out = citeproof()
        .args(words(
            "conformance --suite canon* --no-progress --json --seed 3",
            &[],
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["command"], "conformance");
    assert_eq!(v["ok"], true);
    assert_eq!(v["incidents"], serde_json::json!([]));
    assert!(v["report"].is_object(), "{v}");
    assert!(v["report"].to_string().contains("canon"), "{v}");
    assert!(stderr_of(&out).contains("canon    core     not verified"));
    assert_eq!(v["report"]["claim"]["conformance_claim"], false, "{v}");
    // Only one document on stdout.
    let out = citeproof()
        .args(["conformance", "--json", "--report", "json", "--out", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
}

/// Every command speaks the one `--json` envelope: `command`, `ok`, `incidents`, then its own
/// members (issue 13). Checked here for the commands that print a document or a listing.
#[test]
fn json_envelope_on_document_and_listing_commands() {
    let envelope = |out: &std::process::Output, command: &str| -> serde_json::Value {
        assert_eq!(out.status.code(), Some(0), "{}", stderr_of(out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["command"], command);
        assert_eq!(v["ok"], true);
        assert!(v["incidents"].is_array());
        v
    };
    let article = format!(
        "{}/../../vectors/fixtures/aef/article.html",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = citeproof()
        .args(words(
            "aef new --source {} --uri https://example.com/aeo",
            &[&article],
        ))
        .args(["--selector", "css=#audit > h2", "--claim", "c"])
        .args(["--fetched-at", "2026-05-12T03:45:00Z", "--json"])
        .output()
        .unwrap();
    let v = envelope(&out, "aef new");
    // The span text of `#audit > h2` in the fixture (see vectors/fixtures/aef/expected.json).
    assert_eq!(v["evidence"]["span"]["exact_text"], "3.3 Audit");
    // A css span without exact_text would warn; this one has it, so no incident.
    assert_eq!(v["incidents"], serde_json::json!([]));

    let out = citeproof()
        .args(["adapter", "--list", "--json"])
        .output()
        .unwrap();
    let v = envelope(&out, "adapter");
    let ops = v["implementation"]["operations"].as_array().unwrap();
    assert!(ops.iter().any(|o| o == "aef-verify"));
}

#[test]
fn demo_serve_json_announces_its_address_before_serving() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_citeproof"))
        .args(["demo", "serve", "--addr", "127.0.0.1:0", "--json"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["command"], "demo serve");
    let base = v["base_url"].as_str().unwrap();
    assert!(
        base.starts_with("http://127.0.0.1:") && !base.ends_with(":0"),
        "{base}"
    );
    assert!(v["runs"].as_array().unwrap().len() >= 9);
}

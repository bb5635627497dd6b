//! End-to-end tests of the `citeproof` binary: outputs, messages and exit codes.
//! Expected outputs are hand-derived (RFC 8785 rules) or published (FIPS 180-2 "abc").

mod kit;

use kit::{cli, cli_in, cli_stdin, cli_with, each_where, stderr_of};

const ABC_SHA256: &str = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn canon_writes_jcs_without_trailing_newline() {
    // Hand derivation: members sorted ("a" < "b"), 1.0 -> 1, 2e2 -> 200, \u00e9 -> raw UTF-8.
    let ran = cli_stdin("canon -", &[], r#"{"b":[1.0,2e2],"a":"\u00e9"}"#).exits(0);
    assert_eq!(ran.out, "{\"a\":\"é\",\"b\":[1,200]}");
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
        let ran = cli_stdin("canon -", &[], input).exits(1);
        assert!(ran.warns(&[code]).out.is_empty());
    }
}

#[test]
fn usage_errors_exit_2() {
    // Files that cannot be read: nothing was checked (3), under --json as a JSON object.
    for line in [
        "canon /definitely/not/here.json",
        "hash /definitely/not/here",
        "validate --kind manifest /definitely/not/here.json",
    ] {
        cli(line, &[]).exits(3);
        let v = cli(&format!("{line} --json"), &[]).exits(3).json();
        assert_eq!(v["ok"], false);
        assert_eq!(v["error"]["code"], "input-unreadable", "{v}");
        assert_eq!(v["command"], line.split(' ').next().unwrap(), "{v}");
    }
    // A usage error under --json is a JSON object too.
    let v = cli("validate --kind no-such-kind --json -", &[])
        .exits(2)
        .json();
    assert_eq!(v["error"]["code"], "usage", "{v}");
    for line in [
        "canon",
        "validate --kind no-such-kind -",
        "validate -",
        "no-such-command",
    ] {
        let ran = cli_stdin(line, &[], "{}").exits(2);
        assert!(!ran.err.is_empty(), "{line} printed no message");
    }
}

#[test]
fn hash_raw_and_text() {
    let abc = format!("{ABC_SHA256}\n");
    assert_eq!(cli_stdin("hash -", &[], "abc").exits(0).out, abc);
    // AEF §5: CRLF -> LF and one trailing newline stripped, so "abc\r\n" hashes as "abc".
    assert_eq!(cli_stdin("hash --text -", &[], "abc\r\n").out, abc);
    // Raw mode hashes the CRLF too, so the digest differs.
    assert_ne!(cli_stdin("hash -", &[], "abc\r\n").out, abc);
    cli_stdin("hash --text -", &[], &b"ab\xffc"[..])
        .exits(1)
        .warns(&["UTF-8"]);
}

#[test]
fn validate_accepts_a_valid_manifest() {
    cli("validate --kind manifest {}", &[&fixture("manifest.json")]).exits(0);
}

#[test]
fn validate_reports_pointer_and_code_and_exits_1() {
    let manifest = std::fs::read_to_string(fixture("manifest.json")).unwrap();
    let broken = manifest.replace("\"claim_id\": \"c1\"", "\"claim_id\": \"the first claim\"");
    let report = cli_stdin("validate --kind manifest --json -", &[], broken)
        .exits(1)
        .json();
    assert_eq!(report["valid"], false);
    let incidents = report["incidents"].as_array().unwrap();
    assert!(
        incidents
            .iter()
            .any(|i| i["location"]["pointer"] == "/claims/0/claim_id"),
        "no incident points at the claim id: {incidents:?}"
    );

    let unknown = manifest.replace("\"run_id\"", "\"surprise\": 1, \"run_id\"");
    cli_stdin("validate --kind manifest -", &[], unknown)
        .exits(1)
        .says(&["[unknown-member]"]);
    cli_stdin("validate --kind evidence -", &[], "{\"a\":1,\"a\":1}")
        .exits(1)
        .says(&["json-duplicate-member"]);
}

/// `validate --kind vectors` applies the vector rules beyond the schema (via the conformance
/// lint): a duplicated case id and a case id without its spec's prefix are each reported.
#[test]
fn validate_vectors_applies_the_lint() {
    let root = format!("{}/../..", env!("CARGO_MANIFEST_DIR"));
    let good = format!("{root}/vectors/canon/hash-bytes.json");
    cli("validate --kind vectors {}", &[&good]).exits(0);

    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&good).unwrap()).unwrap();
    let first = file["cases"][0]["id"].clone();
    file["cases"][1]["id"] = first;
    file["cases"][2]["id"] = serde_json::json!("aca-wrong-prefix");
    let stdin = Some(file.to_string().into_bytes());
    let line = "validate --kind vectors --json -";
    let report = cli_with(Some(root.as_ref()), stdin, line, &[])
        .exits(1)
        .json();
    let messages = each_where(&report["incidents"], "code", "vector-invalid", "message");
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
    let v = cli_stdin("hash --json -", &[], "abc").json();
    assert_eq!(v["command"], "hash");
    assert_eq!(v["ok"], true);
    assert_eq!(v["incidents"], serde_json::json!([]));
    assert_eq!(v["hash"], ABC_SHA256);

    let v = cli_stdin("canon --json -", &[], r#"{"a":1,"a":2}"#)
        .exits(1)
        .json();
    assert_eq!(
        (v["command"].as_str(), v["ok"].as_bool()),
        (Some("canon"), Some(false))
    );
    assert_eq!(v["incidents"][0]["code"], "json-duplicate-member");

    let dir = tempfile::tempdir().unwrap();
    let v = cli(
        "keygen --json --kid k1 --out {}",
        &[dir.path().to_str().unwrap()],
    )
    .exits(0)
    .json();
    assert_eq!(
        (v["command"].as_str(), v["kid"].as_str()),
        (Some("keygen"), Some("k1"))
    );
    assert!(std::path::Path::new(v["jwks"].as_str().unwrap()).exists());

    let v = cli_stdin("validate --json --kind jwks -", &[], r#"{"keys":[]}"#).json();
    assert_eq!(v["command"], "validate");
    assert_eq!(v["ok"], v["valid"]);
}

#[test]
fn previous_spellings_still_work_with_a_notice() {
    for (line, now) in [
        (
            "verify --snapshot /definitely/not/here.json",
            "citeproof aca verify",
        ),
        ("evidence verify /definitely/not/here.json", "citeproof aef"),
        (
            "sign manifest /definitely/not/here.json --key k --keyid k",
            "citeproof aca sign",
        ),
    ] {
        // Each names a file that cannot be read (3) after printing its notice.
        cli(line, &[]).exits(3).warns(&[now]);
    }
    // Hidden from the help, which lists the spec nouns.
    let help = cli("--help", &[]).out;
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
    let line = "conformance --suite canon* --no-progress";
    cli_in(dir.path(), line, &[])
        .exits(0)
        .warns(&["embedded in this binary"])
        // A selection: every canon case passes, and it is still not a conformance claim.
        .says(&[
            "canon    core     not verified",
            "claim: subset, not a conformance claim",
        ]);
}

/// `conformance --json`: the common envelope with the JSON report inside; `ok` follows the
/// exit status; the summary goes to stderr.
#[test]
fn conformance_json_envelope() {
    let line = "conformance --suite canon* --no-progress --json --seed 3";
    let ran = cli(line, &[]).exits(0);
    let v = ran.json();
    assert_eq!(v["command"], "conformance");
    assert_eq!(v["ok"], true);
    assert_eq!(v["incidents"], serde_json::json!([]));
    assert!(v["report"].is_object(), "{v}");
    assert!(v["report"].to_string().contains("canon"), "{v}");
    ran.warns(&["canon    core     not verified"]);
    assert_eq!(v["report"]["claim"]["conformance_claim"], false, "{v}");
    // Only one document on stdout.
    cli("conformance --json --report json --out -", &[]).exits(2);
}

/// Every command speaks the one `--json` envelope: `command`, `ok`, `incidents`, then its own
/// members (issue 13). Checked here for the commands that print a document or a listing.
#[test]
fn json_envelope_on_document_and_listing_commands() {
    let envelope = |ran: kit::Ran, command: &str| -> serde_json::Value {
        let v = ran.exits(0).json();
        assert_eq!(v["command"], command);
        assert_eq!(v["ok"], true);
        assert!(v["incidents"].is_array());
        v
    };
    let article = format!(
        "{}/../../vectors/fixtures/aef/article.html",
        env!("CARGO_MANIFEST_DIR")
    );
    let new = "aef new --source {} --uri https://example.com/aeo --selector {} --claim c \
               --fetched-at 2026-05-12T03:45:00Z --json";
    let v = envelope(cli(new, &[&article, "css=#audit > h2"]), "aef new");
    // The span text of `#audit > h2` in the fixture (see vectors/fixtures/aef/expected.json).
    assert_eq!(v["evidence"]["span"]["exact_text"], "3.3 Audit");
    // A css span without exact_text would warn; this one has it, so no incident.
    assert_eq!(v["incidents"], serde_json::json!([]));

    let v = envelope(cli("adapter --list --json", &[]), "adapter");
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

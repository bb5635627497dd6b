//! `citeproof ledger audit|verify` end to end, on the fixtures `vectors/tools/ledger_vectors.py`
//! writes (the seed's own files among them). Expected numbers: the seed's arithmetic by hand
//! (`seed-export.jsonl`: 4 records, 3 required, 2 cited: 2/3; `audit_coverage` counts the
//! exempt claim as cited: 3/4).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value;

mod kit;
use kit::{citeproof, words};

const NOW: &str = "1778930000";

fn fixture(name: &str) -> String {
    format!(
        "{}/../../vectors/fixtures/ledger/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn run(args: &[&str], stdin: Option<Vec<u8>>) -> (i32, String, String) {
    let mut c = citeproof();
    c.args(args);
    if let Some(s) = stdin {
        c.write_stdin(s);
    }
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn audit_of_the_seeds_own_file() {
    let f = fixture("seed-export.jsonl");
    let (code, out, err) = run(&["ledger", "audit", &f, "--now", NOW], None);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("Coverage: 2/3 | Compliant: false"), "{out}");
    assert!(
        out.contains("seed audit_coverage: Coverage: 3/4 | Compliant: false"),
        "{out}"
    );
    assert!(
        out.contains("uncited (line 2): \"Competitors lag behind.\""),
        "{out}"
    );
    assert!(out.contains("ledger-record-unidentified"), "{out}");
    // The template's records, strict, all required claims cited.
    let (code, out, _) = run(
        &words(
            "ledger audit {} --now {}",
            &[&fixture("seed-template.jsonl"), NOW],
        ),
        None,
    );
    assert_eq!(code, 0, "{out}");
    // JSON, lenient at the seed's 0.90: 2/3 < 0.9.
    let (code, out, _) = run(
        &[
            "ledger", "audit", &f, "--mode", "lenient", "--json", "--now", NOW,
        ],
        None,
    );
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["command"], "ledger audit");
    assert_eq!(v["ok"], false);
    assert_eq!(v["threshold"], 0.9);
    assert_eq!(v["ledgers"][0]["coverage_score"], 2.0 / 3.0);
    assert_eq!(v["ledgers"][0]["ledger_id"], Value::Null);
    assert_eq!(v["ledgers"][0]["audit_coverage"]["cited_claims"], 3);
}

#[test]
fn audit_per_ledger_and_by_id() {
    let f = fixture("audit-two-runs.jsonl");
    let (code, out, _) = run(&["ledger", "audit", &f, "--json", "--now", NOW], None);
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let ids: Vec<&str> = v["ledgers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["ledger_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["run-a", "run-b"]);
    let (code, out, _) = run(
        &words(
            "ledger audit {} --ledger-id run-b --json --now {}",
            &[&f, NOW],
        ),
        None,
    );
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ledgers"].as_array().unwrap().len(), 1);
    // No record of the ledger asked for: nothing audited, never OK (LEDGER-020).
    let (code, out, _) = run(&["ledger", "audit", &f, "--ledger-id", "run-z"], None);
    assert_eq!(code, 1);
    assert!(
        out.contains("-> NOTHING AUDITED: no record of ledger `run-z`"),
        "{out}"
    );
    assert!(!out.contains("OK:"), "{out}");
}

#[test]
fn an_empty_audit_file_audits_nothing() {
    // An emptied audit file is well-formed, but no verdict rests on it (LEDGER-020).
    let (code, out, _) = run(&["ledger", "audit", "-", "--now", NOW], Some(Vec::new()));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("-> NOTHING AUDITED: the file holds no record; nothing was verified"),
        "{out}"
    );
    assert!(!out.contains("compliant"), "{out}");
    let (code, out, _) = run(
        &["ledger", "audit", "-", "--json", "--now", NOW],
        Some(Vec::new()),
    );
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["incidents"][0]["code"], "ledger-audit-empty");
}

#[test]
fn a_shared_file_damaged_elsewhere() {
    // `audit-shared.jsonl`: run-a and run-b interleaved record by record (with `seq`), then
    // run-c's append cut short (LEDGER-008, -011).
    let shared = fixture("audit-shared.jsonl");
    let (code, out, err) = run(
        &words(
            "ledger verify {} --audit {} --now {}",
            &[&fixture("ledger-run-a.json"), &shared, NOW],
        ),
        None,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("(3 record(s) of this ledger)"), "{out}");
    assert!(
        out.contains("audit: warning [ledger-audit-file-damaged] at line 6"),
        "{out}"
    );
    assert!(
        out.starts_with("level achieved: 1 (required 1) -> VERIFIED\n"),
        "{out}"
    );
    // The whole file: the torn line is run-c's damage and an error of the file's audit.
    let (code, out, _) = run(&["ledger", "audit", &shared, "--now", NOW], None);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error [ledger-jsonl-malformed] at line 6"),
        "{out}"
    );
    assert!(
        out.ends_with("-> NOT OK: the audit file has errors; no coverage above is established\n"),
        "{out}"
    );
    // A damaged line may have been any ledger's record: no "Compliant: true" above NOT OK.
    assert!(!out.contains("Compliant: true"), "{out}");
    // One ledger of it: the damage is elsewhere.
    let (code, out, _) = run(
        &words(
            "ledger audit {} --ledger-id run-b --now {}",
            &[&shared, NOW],
        ),
        None,
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.ends_with(
            "-> OK: ledger `run-b` compliant; 1 damaged line(s) of other ledgers, reported above\n"
        ),
        "{out}"
    );
    // run-c itself: its only line is the torn one.
    let (code, out, _) = run(
        &words(
            "ledger audit {} --ledger-id run-c --now {}",
            &[&shared, NOW],
        ),
        None,
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error [ledger-jsonl-malformed] at line 6"),
        "{out}"
    );
    assert!(!out.contains("-> OK"), "{out}");
}

/// A case of `vectors/ledger/level1/verify.json`, its inputs written to files.
fn vector_case(id: &str, dir: &std::path::Path) -> (String, String) {
    let p = format!(
        "{}/../../vectors/ledger/level1/verify.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    let c = v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no case {id}"));
    std::fs::create_dir_all(dir).unwrap();
    let ledger = dir.join("ledger.json");
    let audit = dir.join("audit.jsonl");
    std::fs::write(&ledger, c["input"]["ledger"].as_str().unwrap()).unwrap();
    std::fs::write(&audit, c["input"]["export"].as_str().unwrap()).unwrap();
    (
        ledger.to_string_lossy().into_owned(),
        audit.to_string_lossy().into_owned(),
    )
}

#[test]
fn verify_judges_a_ledger_as_emitted_unless_told_it_was_refused() {
    // The vector `ledger-verify-strict-below-default`: strict, 2 of 3 cited; the adapter
    // operation without `emitted` says invalid, and so must the command (LEDGER-006, N17).
    let dir = std::env::temp_dir().join(format!("citeproof-ledger-cli-{}", std::process::id()));
    let (ledger, audit_file) = vector_case("ledger-verify-strict-below-default", &dir);
    let (code, out, _) = run(
        &words(
            "ledger verify {} --audit {} --now {}",
            &[&ledger, &audit_file, NOW],
        ),
        None,
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error [ledger-below-threshold]"), "{out}");
    assert!(
        out.starts_with("level achieved: 0 (required 1) -> NOT VERIFIED\n"),
        "{out}"
    );
    assert!(!out.contains("Compliant: true"), "{out}");
    let (code, out, _) = run(
        &words(
            "ledger verify {} --audit {} --refused --now {}",
            &[&ledger, &audit_file, NOW],
        ),
        None,
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with(
            "level achieved: 1 (required 1) -> VERIFIED (the record of a refused response: below its threshold, it must not have been emitted)\n"
        ),
        "{out}"
    );
    let (code, _, err) = run(
        &words(
            "ledger verify {} --audit {} --refused --emitted",
            &[&ledger, &audit_file],
        ),
        None,
    );
    assert_eq!(code, 2, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_seed_templates_ledger() {
    // Written by the seed's own ProductionAttributionPipeline (vectors/tools/ledger_vectors.py):
    // the production run all cited; the staging run 2 of 3 (is_compliant false at 0.90).
    let audit_file = fixture("template-audit.jsonl");
    let production = fixture("template-ledger-production.json");
    let staging = fixture("template-ledger-staging.json");
    let (code, out, err) = run(
        &words(
            "ledger verify {} --audit {} --now {}",
            &[&production, &audit_file, NOW],
        ),
        None,
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("(template ledger, no ledger id, emitted)"),
        "{out}"
    );
    assert!(out.contains("(3 record(s) of this ledger)"), "{out}");
    // Staging verified as production (the default): it must not have been emitted.
    let (code, out, _) = run(
        &words(
            "ledger verify {} --audit {} --now {}",
            &[&staging, &audit_file, NOW],
        ),
        None,
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("ledger-below-threshold"), "{out}");
    let (code, out, _) = run(
        &words(
            "ledger verify {} --audit {} --mode lenient --now {}",
            &[&staging, &audit_file, NOW],
        ),
        None,
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("warning [ledger-coverage-low]"), "{out}");
    assert!(
        out.starts_with(
            "level achieved: 1 (required 1) -> VERIFIED (not compliant: a lenient ledger emitted below its threshold, warning below)\n"
        ),
        "{out}"
    );
    // --mode is for template ledgers only.
    let (code, _, err) = run(
        &words(
            "ledger verify {} --audit {} --mode lenient",
            &[
                &fixture("ledger-run-a.json"),
                &fixture("audit-two-runs.jsonl"),
            ],
        ),
        None,
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("for a template ledger"), "{err}");
    let (code, out, _) = run(&["validate", "--kind", "ledger-template", &staging], None);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn verify_then_tamper() {
    let ledger = fixture("ledger-run-a.json");
    let audit_file = fixture("audit-two-runs.jsonl");
    let api = fixture("api-run-a.json");
    let args = |audit: &str| {
        vec![
            "ledger".to_owned(),
            "verify".into(),
            ledger.clone(),
            "--audit".into(),
            audit.to_owned(),
            "--api".into(),
            api.clone(),
            "--emitted".into(),
            "--now".into(),
            NOW.into(),
        ]
    };
    let a = args(&audit_file);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let (code, out, err) = run(&a, None);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("-> VERIFIED"), "{out}");
    // The second record's claim edited on stdin: caught at its line.
    let text = std::fs::read_to_string(&audit_file).unwrap();
    let tampered = text.replacen("Costs fell by 2%", "Costs fell by 20%", 1);
    assert_ne!(text, tampered);
    let a = args("-");
    let mut a: Vec<&str> = a.iter().map(String::as_str).collect();
    a.push("--json");
    let tampered_bytes = tampered.into_bytes();
    let (code, out, _) = run(&a, Some(tampered_bytes.clone()));
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verified"], false);
    // In text, the verdict line comes first and nothing says the ledger is compliant.
    let (code, text, _) = run(&a[..a.len() - 1], Some(tampered_bytes.clone()));
    assert_eq!(code, 1);
    assert!(!text.contains("Compliant: true"), "{text}");
    assert!(text.contains("coverage: not verified"), "{text}");
    assert!(
        text.starts_with("level achieved: 0 (required 1) -> NOT VERIFIED\n"),
        "{text}"
    );
    let i = &v["incidents"][0];
    assert_eq!(i["code"], "ledger-jsonl-record-mismatch");
    assert_eq!(i["file"], "audit");
    assert_eq!(i["location"]["line"], 2);
    assert_eq!(i["location"]["pointer"], "/claim");
}

#[test]
fn bad_input_is_a_typed_error_with_a_location_never_a_panic() {
    let ledger = fixture("ledger-run-a.json");
    // Lines that name run-a are its own damage (errors); a line that cannot hold a record is
    // damage elsewhere (a warning, still located).
    for (audit, code, line) in [
        (
            &b"{\"ledger_id\":\"run-a\",\"claim\":\"a\",\"claim\":\"b\"}\n"[..],
            "json-duplicate-member",
            1,
        ),
        (b"[]\n", "ledger-audit-file-damaged", 1),
        (
            b"{\"ledger_id\":\"run-a\",\"claim\":\"\xff\"}\n",
            "json-invalid-utf8",
            1,
        ),
        (
            b"{\"ledger_id\":\"run-a\",\"claim\":1}\n",
            "schema-violation",
            1,
        ),
    ] {
        let (exit, out, err) = run(
            &[
                "ledger", "verify", &ledger, "--audit", "-", "--json", "--now", NOW,
            ],
            Some(audit.to_vec()),
        );
        assert_eq!(exit, 1, "{out}{err}");
        assert!(!err.contains("panicked"), "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let hit = v["incidents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["code"] == code)
            .unwrap_or_else(|| panic!("{code}: {out}"));
        assert_eq!(hit["location"]["line"], line, "{out}");
    }
    // Not a ledger: the JSON error of the document.
    let (exit, out, _) = run(
        &words(
            "ledger verify - --audit {}",
            &[&fixture("audit-two-runs.jsonl")],
        ),
        Some(b"{\"ledger_version\":".to_vec()),
    );
    assert_eq!(exit, 1);
    assert!(out.contains("json-syntax"), "{out}");
    // A file that cannot be read: nothing was checked (3).
    let (exit, _, err) = run(&["ledger", "audit", "/no/such/file.jsonl"], None);
    assert_eq!(exit, 3);
    assert!(err.contains("cannot read"), "{err}");
    // Usage errors: exit 2.
    let (exit, _, err) = run(
        &words(
            "ledger audit {} --mode lenient --threshold 0",
            &[&fixture("seed-export.jsonl")],
        ),
        None,
    );
    assert_eq!(exit, 2);
    assert!(err.contains("ledger-threshold-invalid"), "{err}");
}

#[test]
fn validate_knows_the_ledger_kinds() {
    let (code, out, err) = run(
        &words(
            "validate --kind ledger {}",
            &[&fixture("ledger-run-a.json")],
        ),
        None,
    );
    assert_eq!(code, 0, "{out}{err}");
    let text = std::fs::read_to_string(fixture("ledger-run-a.json")).unwrap();
    let bad = text.replacen("\"source\": null", "\"source\": {}", 1);
    assert_ne!(text, bad);
    let (code, out, _) = run(
        &["validate", "--kind", "ledger", "--json", "-"],
        Some(bad.into_bytes()),
    );
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    let i = &v["incidents"][0];
    assert_eq!(i["code"], "schema-violation");
    assert_eq!(i["location"]["pointer"], "/claims/2/source");
    // One line of the seed's own file, as a record.
    let line = std::fs::read_to_string(fixture("seed-export.jsonl")).unwrap();
    let first = line.lines().next().unwrap().to_owned();
    let (code, out, _) = run(
        &["validate", "--kind", "ledger-audit-record", "-"],
        Some(first.into_bytes()),
    );
    assert_eq!(code, 0, "{out}");
}

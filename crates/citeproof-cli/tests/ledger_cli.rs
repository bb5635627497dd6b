//! `citeproof ledger audit|verify` end to end, on the fixtures `vectors/tools/ledger_vectors.py`
//! writes (the seed's own files among them). Expected numbers: the seed's arithmetic by hand
//! (`seed-export.jsonl`: 4 records, 3 required, 2 cited: 2/3; `audit_coverage` counts the
//! exempt claim as cited: 3/4).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value;

mod kit;
use kit::{cli, cli_stdin, each};

const NOW: &str = "1778930000";

fn fixture(name: &str) -> String {
    format!(
        "{}/../../vectors/fixtures/ledger/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn audit_of_the_seeds_own_file() {
    let f = fixture("seed-export.jsonl");
    cli("ledger audit {} --now {}", &[&f, NOW]).exits(1).says(&[
        "Coverage: 2/3 | Compliant: false",
        "seed audit_coverage: Coverage: 3/4 | Compliant: false",
        "uncited (line 2): \"Competitors lag behind.\"",
        "ledger-record-unidentified",
    ]);
    // The template's records, strict, all required claims cited.
    cli(
        "ledger audit {} --now {}",
        &[&fixture("seed-template.jsonl"), NOW],
    )
    .exits(0);
    // JSON, lenient at the seed's 0.90: 2/3 < 0.9.
    let v = cli("ledger audit {} --mode lenient --json --now {}", &[&f, NOW])
        .exits(1)
        .json();
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
    let v = cli("ledger audit {} --json --now {}", &[&f, NOW])
        .exits(0)
        .json();
    assert_eq!(each(&v["ledgers"], "ledger_id"), ["run-a", "run-b"]);
    let one = "ledger audit {} --ledger-id run-b --json --now {}";
    let v = cli(one, &[&f, NOW]).exits(0).json();
    assert_eq!(v["ledgers"].as_array().unwrap().len(), 1);
    // No record of the ledger asked for: nothing audited, never OK (LEDGER-020).
    cli("ledger audit {} --ledger-id run-z", &[&f])
        .exits(1)
        .says(&["-> NOTHING AUDITED: no record of ledger `run-z`"])
        .never_says(&["OK:"]);
}

#[test]
fn an_empty_audit_file_audits_nothing() {
    // An emptied audit file is well-formed, but no verdict rests on it (LEDGER-020).
    cli_stdin("ledger audit - --now {}", &[NOW], Vec::new())
        .exits(1)
        .says(&["-> NOTHING AUDITED: the file holds no record; nothing was verified"])
        .never_says(&["compliant"]);
    let v = cli_stdin("ledger audit - --json --now {}", &[NOW], Vec::new())
        .exits(1)
        .json();
    assert_eq!(v["ok"], false);
    assert_eq!(v["incidents"][0]["code"], "ledger-audit-empty");
}

#[test]
fn a_shared_file_damaged_elsewhere() {
    // `audit-shared.jsonl`: run-a and run-b interleaved record by record (with `seq`), then
    // run-c's append cut short (LEDGER-008, -011).
    let shared = fixture("audit-shared.jsonl");
    let run_a = fixture("ledger-run-a.json");
    let ran = cli(
        "ledger verify {} --audit {} --now {}",
        &[&run_a, &shared, NOW],
    )
    .exits(0);
    ran.says(&[
        "(3 record(s) of this ledger)",
        "audit: warning [ledger-audit-file-damaged] at line 6",
    ]);
    ran.starts("level achieved: 1 (required 1) -> VERIFIED\n");
    // The whole file: the torn line is run-c's damage and an error of the file's audit.
    let ran = cli("ledger audit {} --now {}", &[&shared, NOW]).exits(1);
    ran.says(&["error [ledger-jsonl-malformed] at line 6"])
        // A damaged line may have been any ledger's record: no "Compliant: true" above NOT OK.
        .never_says(&["Compliant: true"]);
    ran.ends("-> NOT OK: the audit file has errors; no coverage above is established\n");
    // One ledger of it: the damage is elsewhere.
    let ran = cli(
        "ledger audit {} --ledger-id run-b --now {}",
        &[&shared, NOW],
    )
    .exits(0);
    ran.ends(
        "-> OK: ledger `run-b` compliant; 1 damaged line(s) of other ledgers, reported above\n",
    );
    // run-c itself: its only line is the torn one.
    cli(
        "ledger audit {} --ledger-id run-c --now {}",
        &[&shared, NOW],
    )
    .exits(1)
    .says(&["error [ledger-jsonl-malformed] at line 6"])
    .never_says(&["-> OK"]);
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
    let files = [ledger.as_str(), &audit_file, NOW];
    let ran = cli("ledger verify {} --audit {} --now {}", &files).exits(1);
    ran.says(&["error [ledger-below-threshold]"])
        .never_says(&["Compliant: true"]);
    ran.starts("level achieved: 0 (required 1) -> NOT VERIFIED\n");
    let ran = cli("ledger verify {} --audit {} --refused --now {}", &files).exits(0);
    ran.starts("level achieved: 1 (required 1) -> VERIFIED (the record of a refused response: below its threshold, it must not have been emitted)\n");
    cli(
        "ledger verify {} --audit {} --refused --emitted",
        &files[..2],
    )
    .exits(2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_seed_templates_ledger() {
    // Written by the seed's own ProductionAttributionPipeline (vectors/tools/ledger_vectors.py):
    // the production run all cited; the staging run 2 of 3 (is_compliant false at 0.90).
    let audit_file = fixture("template-audit.jsonl");
    let production = fixture("template-ledger-production.json");
    let staging = fixture("template-ledger-staging.json");
    let verify = "ledger verify {} --audit {} --now {}";
    cli(verify, &[&production, &audit_file, NOW])
        .exits(0)
        .says(&[
            "(template ledger, no ledger id, emitted)",
            "(3 record(s) of this ledger)",
        ]);
    // Staging verified as production (the default): it must not have been emitted.
    cli(verify, &[&staging, &audit_file, NOW])
        .exits(1)
        .says(&["ledger-below-threshold"]);
    let lenient = "ledger verify {} --audit {} --mode lenient --now {}";
    let ran = cli(lenient, &[&staging, &audit_file, NOW]).exits(0);
    ran.says(&["warning [ledger-coverage-low]"]);
    ran.starts("level achieved: 1 (required 1) -> VERIFIED (not compliant: a lenient ledger emitted below its threshold, warning below)\n");
    // --mode is for template ledgers only.
    let (run_a, two_runs) = (
        fixture("ledger-run-a.json"),
        fixture("audit-two-runs.jsonl"),
    );
    cli(
        "ledger verify {} --audit {} --mode lenient",
        &[&run_a, &two_runs],
    )
    .exits(2)
    .warns(&["for a template ledger"]);
    cli("validate --kind ledger-template {}", &[&staging]).exits(0);
}

#[test]
fn verify_then_tamper() {
    let [ledger, audit_file, api] = [
        "ledger-run-a.json",
        "audit-two-runs.jsonl",
        "api-run-a.json",
    ]
    .map(fixture);
    let verify = "ledger verify {} --audit {} --api {} --emitted --now {}";
    cli(verify, &[&ledger, &audit_file, &api, NOW])
        .exits(0)
        .says(&["-> VERIFIED"]);
    // The second record's claim edited on stdin: caught at its line.
    let text = std::fs::read_to_string(&audit_file).unwrap();
    let tampered = text.replacen("Costs fell by 2%", "Costs fell by 20%", 1);
    assert_ne!(text, tampered);
    let on_stdin = [ledger.as_str(), "-", &api, NOW];
    let v = cli_stdin(&format!("{verify} --json"), &on_stdin, tampered.clone())
        .exits(1)
        .json();
    assert_eq!(v["verified"], false);
    // In text, the verdict line comes first and nothing says the ledger is compliant.
    let ran = cli_stdin(verify, &on_stdin, tampered).exits(1);
    ran.never_says(&["Compliant: true"])
        .says(&["coverage: not verified"]);
    ran.starts("level achieved: 0 (required 1) -> NOT VERIFIED\n");
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
        let verify = "ledger verify {} --audit - --json --now {}";
        let ran = cli_stdin(verify, &[&ledger, NOW], audit).exits(1);
        assert!(!ran.err.contains("panicked"), "{}", ran.err);
        let hit = ran.json()["incidents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["code"] == code)
            .cloned()
            .unwrap_or_else(|| panic!("{code}: {}", ran.out));
        assert_eq!(hit["location"]["line"], line, "{}", ran.out);
    }
    // Not a ledger: the JSON error of the document.
    let two_runs = fixture("audit-two-runs.jsonl");
    cli_stdin(
        "ledger verify - --audit {}",
        &[&two_runs],
        "{\"ledger_version\":",
    )
    .exits(1)
    .says(&["json-syntax"]);
    // A file that cannot be read: nothing was checked (3).
    cli("ledger audit /no/such/file.jsonl", &[])
        .exits(3)
        .warns(&["cannot read"]);
    // Usage errors: exit 2.
    let seed = fixture("seed-export.jsonl");
    cli("ledger audit {} --mode lenient --threshold 0", &[&seed])
        .exits(2)
        .warns(&["ledger-threshold-invalid"]);
}

#[test]
fn validate_knows_the_ledger_kinds() {
    cli(
        "validate --kind ledger {}",
        &[&fixture("ledger-run-a.json")],
    )
    .exits(0);
    let text = std::fs::read_to_string(fixture("ledger-run-a.json")).unwrap();
    let bad = text.replacen("\"source\": null", "\"source\": {}", 1);
    assert_ne!(text, bad);
    let v = cli_stdin("validate --kind ledger --json -", &[], bad)
        .exits(1)
        .json();
    let i = &v["incidents"][0];
    assert_eq!(i["code"], "schema-violation");
    assert_eq!(i["location"]["pointer"], "/claims/2/source");
    // One line of the seed's own file, as a record.
    let line = std::fs::read_to_string(fixture("seed-export.jsonl")).unwrap();
    let first = line.lines().next().unwrap().to_owned();
    cli_stdin("validate --kind ledger-audit-record -", &[], first).exits(0);
}

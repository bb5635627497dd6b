//! `citeproof ledger audit|verify` end to end, on the fixtures `vectors/tools/ledger_vectors.py`
//! writes (the seed's own files among them). Expected numbers: the seed's arithmetic by hand
//! (`seed-export.jsonl`: 4 records, 3 required, 2 cited: 2/3; `audit_coverage` counts the
//! exempt claim as cited: 3/4).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::Command;
use serde_json::Value;

const NOW: &str = "1778930000";

fn citeproof() -> Command {
    Command::cargo_bin("citeproof").unwrap()
}

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
        &[
            "ledger",
            "audit",
            &fixture("seed-template.jsonl"),
            "--now",
            NOW,
        ],
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
        &[
            "ledger",
            "audit",
            &f,
            "--ledger-id",
            "run-b",
            "--json",
            "--now",
            NOW,
        ],
        None,
    );
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ledgers"].as_array().unwrap().len(), 1);
    let (code, _, err) = run(&["ledger", "audit", &f, "--ledger-id", "run-z"], None);
    assert_eq!(code, 1);
    assert!(err.contains("no record of ledger `run-z`"), "{err}");
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
    let (code, out, _) = run(&a, Some(tampered.into_bytes()));
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["verified"], false);
    let i = &v["incidents"][0];
    assert_eq!(i["code"], "ledger-jsonl-record-mismatch");
    assert_eq!(i["file"], "audit");
    assert_eq!(i["location"]["line"], 2);
    assert_eq!(i["location"]["pointer"], "/claim");
}

#[test]
fn bad_input_is_a_typed_error_with_a_location_never_a_panic() {
    let ledger = fixture("ledger-run-a.json");
    for (audit, code, line) in [
        (
            &b"{\"claim\":\"a\",\"claim\":\"b\"}\n"[..],
            "json-duplicate-member",
            1,
        ),
        (b"{}\n[]\n", "ledger-jsonl-malformed", 2),
        (b"\xff\n", "json-invalid-utf8", 1),
        (b"{\"claim\":1}\n", "schema-violation", 1),
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
        &[
            "ledger",
            "verify",
            "-",
            "--audit",
            &fixture("audit-two-runs.jsonl"),
        ],
        Some(b"{\"ledger_version\":".to_vec()),
    );
    assert_eq!(exit, 1);
    assert!(out.contains("json-syntax"), "{out}");
    // Usage errors: exit 2.
    let (exit, _, err) = run(&["ledger", "audit", "/no/such/file.jsonl"], None);
    assert_eq!(exit, 2);
    assert!(err.contains("cannot read"), "{err}");
    let (exit, _, err) = run(
        &[
            "ledger",
            "audit",
            &fixture("seed-export.jsonl"),
            "--mode",
            "lenient",
            "--threshold",
            "0",
        ],
        None,
    );
    assert_eq!(exit, 2);
    assert!(err.contains("ledger-threshold-invalid"), "{err}");
}

#[test]
fn validate_knows_the_ledger_kinds() {
    let (code, out, err) = run(
        &[
            "validate",
            "--kind",
            "ledger",
            &fixture("ledger-run-a.json"),
        ],
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

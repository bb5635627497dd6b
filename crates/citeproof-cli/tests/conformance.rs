//! `citeproof conformance` and `citeproof adapter` end to end: the reference run in-process and
//! as a child process over the adapter protocol, reports on disk, exit codes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod kit;

use kit::{citeproof, root, words};

fn vectors() -> String {
    root().join("vectors").display().to_string()
}

/// `--suite canon` runs every canon case and passes, yet it is a selection: canon core is not
/// verified and the run says it is a subset, not a conformance claim (issue 19, item 7).
#[test]
fn in_process_reference_passes_canon_with_a_summary() {
    let out = citeproof()
        .args(["conformance", "--suite", "canon", "--vectors", &vectors()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("citeproof-reference"), "{stdout}");
    assert!(
        stdout.contains("canon    core     not verified"),
        "{stdout}"
    );
    assert!(
        stdout.contains("claim: subset, not a conformance claim: --suite canon left out"),
        "{stdout}"
    );
    assert!(
        stdout.contains("PASS for the 364 cases run: a subset, not a conformance claim"),
        "{stdout}"
    );
    // One line per operation.
    for op in ["jcs-canonicalize", "hash-bytes", "hash-aef-text"] {
        assert_eq!(
            stdout
                .lines()
                .filter(|l| l.trim_start().starts_with(op))
                .count(),
            1,
            "{op}: {stdout}"
        );
    }
    // not a terminal: no progress bar, no escape sequences
    assert!(
        !out.stderr.contains(&0x1b),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn reference_as_an_adapter_with_every_report() {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("citeproof");
    let implementation = format!("'{}' adapter", bin.display());
    let path = |name: &str| dir.path().join(name).display().to_string();
    let out = citeproof()
        .args(words(
            "conformance --vectors {} --suite canon --impl {}",
            &[&vectors(), &implementation],
        ))
        .args(["--report", "json", "--out", &path("r.json")])
        .args(["--report", "junit", "--out", &path("r.xml")])
        .args(["--report", "markdown", "--out", &path("r.md")])
        .args(["--report", "html", "--out", &path("r.html")])
        .args(["--report", "svg", "--out", &path("badge.svg")])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path("r.json")).unwrap()).unwrap();
    assert_eq!(report["implementation"]["name"], "citeproof-reference");
    assert_eq!(report["implementation"]["starts"], 1);
    assert_eq!(report["success"], true);
    assert_eq!(report["claim"]["conformance_claim"], false);
    assert!(report["totals"]["passed"].as_u64().unwrap() >= 180);
    for name in ["r.xml", "r.md", "r.html", "badge.svg"] {
        assert!(std::fs::metadata(path(name)).unwrap().len() > 100, "{name}");
    }
}

#[test]
fn report_to_stdout_moves_the_summary_to_stderr() {
    let out = citeproof()
        .args(words(
            "conformance --vectors {} --suite canon/hash-bytes --report json --out -",
            &[&vectors()],
        ))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // 18 static cases and one generated variant of each.
    assert_eq!(report["totals"]["total"], 36);
    let generated = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["origin"]["kind"] == "generated")
        .count();
    assert_eq!(generated, 18);
    // A report with generated variants matches the published report schema.
    let schema: serde_json::Value =
        serde_json::from_str(citeproof_conformance::report::JSON_REPORT_SCHEMA).unwrap();
    let validator = citeproof_schema::compile(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert!(report["run"]["seed"].is_u64());
    assert_eq!(report["generation"]["generated"], 18);
    assert!(String::from_utf8_lossy(&out.stderr).contains("PASS"));
}

#[test]
fn strict_xfail_fails_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let xfail = dir.path().join("xfail.txt");
    std::fs::write(
        &xfail,
        "# passes, so this fails the run\ncanon-hash-bytes-abc\n",
    )
    .unwrap();
    let out = citeproof()
        .args(words(
            "conformance --vectors {} --suite canon/hash-bytes",
            &[&vectors()],
        ))
        .arg("--xfail")
        .arg(&xfail)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAILED  canon-hash-bytes-abc"), "{stdout}");
    assert!(stdout.contains("but passed"), "{stdout}");
    // The entry covers the case's generated variant too.
    assert!(
        stdout.contains("FAILED  canon-hash-bytes-abc~1"),
        "{stdout}"
    );
    assert!(stdout.contains("failures (2)"), "{stdout}");
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["conformance", "--report", "json"][..],
        &["conformance", "--report", "pdf", "--out", "x"],
        &["conformance", "--suite", "no-such-spec"],
        &["conformance", "--case-timeout", "0"],
        &["conformance", "--vectors", "/nonexistent/vectors"],
        &words(
            "conformance --report json --out a.json --report html --out a.json",
            &[],
        ),
        &words(
            "conformance --report json --out - --report html --out -",
            &[],
        ),
    ] {
        let out = citeproof().args(args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn adapter_speaks_the_protocol() {
    let list = citeproof().args(["adapter", "--list"]).output().unwrap();
    assert!(
        String::from_utf8_lossy(&list.stdout)
            .lines()
            .any(|l| l == "jcs-canonicalize")
    );
    let session = concat!(
        "{\"cmd\":\"start\",\"protocol\":1}\n",
        "{\"cmd\":\"run\",\"seq\":1,\"case\":{\"id\":\"canon-x\",\"operation\":\"hash-aef-text\",\"input\":{\"data_base64\":\"YWJjDQo=\"}}}\n",
        "{\"cmd\":\"stop\"}\n",
    );
    let out = citeproof()
        .arg("adapter")
        .write_stdin(session)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["protocol"], 1);
    // AEF §5 of "abc\r\n" is "abc": FIPS 180-2 example digest
    assert_eq!(
        lines[1],
        serde_json::json!({"seq": 1, "result": "valid", "errors": [],
            "output": {"hash": "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}})
    );
}

/// docs/ADAPTER.md §5's table says the reference implements every operation: it does (the
/// operations `citeproof adapter` announces are exactly the table's), and nothing is "pending".
#[test]
fn adapter_doc_lists_what_the_reference_implements() {
    let list = citeproof().args(["adapter", "--list"]).output().unwrap();
    let mut announced: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    announced.sort();
    let doc = std::fs::read_to_string(root().join("docs/ADAPTER.md")).unwrap();
    let mut rows: Vec<String> = Vec::new();
    for line in doc.lines() {
        let cells: Vec<&str> = line.split(" | ").collect();
        if line.starts_with("| `") && cells.len() == 5 {
            assert!(cells[4].starts_with("yes"), "{line}");
            rows.push(
                cells[0]
                    .trim_start_matches("| ")
                    .trim_matches('`')
                    .to_owned(),
            );
        }
    }
    rows.sort();
    assert_eq!(rows, announced);
    assert!(!doc.contains("pending"));
}

//! Issue 21's done-when for every spec but AEF (audit_cli.rs): verify with `--record`, find the
//! record by filters, show one claim with its excerpt, export it as HTML (the failed claim's row
//! names its failing check), and check the chain; and `--batch --record` of chain, ledger and
//! archive, resumed from the store.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use serde_json::Value;

mod kit;
use kit::{
    CHAIN_SIGNER as SIGNER, CHAIN_TRUST, archive_fixture, archive_gate, each_where, root, run,
    start_demo, words,
};

/// `--record audit.db` with an HTML report page `now.html`.
const RECORD_WITH_PAGE: &[&str] = &[
    "--record", "audit.db", "--report", "html", "--out", "now.html",
];

fn audit(dir: &Path, args: &[&str]) -> (i32, String) {
    let (code, out, _) = run(dir, &[&["audit", "--db", "audit.db"][..], args].concat());
    (code, out)
}

/// The five steps after a verified run (record 1) and a failed one (record 2) of `spec` were
/// recorded in `dir/audit.db`: the failed one found by filters with `code`; item `claim` of it
/// shown with its sources (`excerpt`: a judged excerpt it must carry); its HTML read NOT
/// VERIFIED with the failing check named on every failed claim row; the chain intact.
fn find_show_export_check(dir: &Path, spec: &str, code: &str, claim: &str, excerpt: Option<&str>) {
    let (c, listing) = audit(dir, &["list", "--spec", spec, "--verdict", "not-verified"]);
    assert_eq!(c, 0);
    assert_eq!(listing.lines().count(), 1, "{listing}");
    assert!(
        listing.starts_with("    2  ") && listing.contains(code),
        "{listing}"
    );
    let (_, verified) = audit(dir, &["list", "--spec", spec, "--verdict", "verified"]);
    assert!(verified.starts_with("    1  "), "{verified}");
    let (_, by_code) = audit(
        dir,
        &["list", "--code", code, "--since", "2000-01-01T00:00:00Z"],
    );
    assert_eq!(by_code.lines().count(), 1, "{by_code}");

    let (c, shown) = audit(dir, &["show", "2", "--claim", claim]);
    assert_eq!(c, 0, "{shown}");
    let shown: Value = serde_json::from_str(&shown).unwrap();
    let item = &shown["claim"];
    assert_eq!(item["id"], claim, "{shown}");
    assert_eq!(item["verified"], false, "{shown}");
    assert!(!item["failed"].as_array().unwrap().is_empty(), "{shown}");
    if let Some(excerpt) = excerpt {
        let sources = item["sources"].as_array().unwrap();
        assert!(
            sources.iter().any(|s| s["excerpt"] == excerpt),
            "{excerpt}: {shown}"
        );
    }

    let html = |record: &str, name: &str| {
        let (c, _) = audit(dir, &["report", record, "--format", "html", "--out", name]);
        assert_eq!(c, 0);
        std::fs::read_to_string(dir.join(name)).unwrap()
    };
    let page = html("2", "failed.html");
    assert!(page.contains(">NOT VERIFIED<") && !page.contains(">VERIFIED<"));
    failed_rows_name_their_checks(&page);
    assert!(page.contains(code), "{code}");
    let page = html("1", "verified.html");
    assert!(page.contains(">VERIFIED<") && !page.contains("claim-row not-ok"));

    let (c, out) = audit(dir, &["verify"]);
    assert_eq!(c, 0, "{out}");
    assert!(out.starts_with("chain intact: 2 rows"), "{out}");
}

/// Every failed claim row of the page names a failing check by code and words, and no failed
/// row carries a passing badge.
fn failed_rows_name_their_checks(page: &str) {
    let rows: Vec<&str> = page
        .split("<tr class=\"claim-row ")
        .skip(1)
        .map(|r| r.split("</tr>").next().unwrap())
        .collect();
    let failed: Vec<&&str> = rows.iter().filter(|r| r.starts_with("not-ok")).collect();
    assert!(!failed.is_empty(), "no failed claim row");
    for row in failed {
        assert!(
            row.contains("class=\"claim-failures\"><li><code>"),
            "a failed row names no check: {row}"
        );
        assert!(!row.contains("badge good"), "{row}");
    }
}

/// `--batch LIST --record audit-batch.db` twice: every line recorded, then every line skipped.
fn batch_records_and_resumes(dir: &Path, args: &[&str], lines: usize, worst: i32) {
    let with = [args, &["--record", "audit-batch.db"][..]].concat();
    let (c, out, err) = run(dir, &with);
    assert_eq!(c, worst, "{out}{err}");
    let parsed: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(parsed.len(), lines, "{out}");
    for (n, line) in parsed.iter().enumerate() {
        assert_eq!(line["recorded_as"], n + 1, "{line}");
        assert!(line["outcome"].is_string(), "{line}");
    }
    let (c, again, _) = run(dir, &with);
    assert_eq!(c, worst);
    let skipped = again
        .lines()
        .filter(|l| l.contains("\"skipped\":true"))
        .count();
    assert_eq!(skipped, lines, "{again}");
    // A resumed line says when its verdict was reached: the batch's --now, not the rerun's.
    let now = args.iter().position(|a| *a == "--now").map(|i| args[i + 1]);
    for line in again.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let at = v["verified_at"]
            .as_str()
            .unwrap_or_else(|| panic!("{line}"));
        match now {
            Some(n) if n.contains('T') => assert_eq!(at, n, "{line}"),
            // 1778930000 = 2026-05-16T11:13:20Z (date -u -d @1778930000).
            Some("1778930000") => assert_eq!(at, "2026-05-16T11:13:20Z", "{line}"),
            other => panic!("give the batch a --now: {other:?}"),
        }
    }
    let (c, out, _) = run(dir, &["audit", "--db", "audit-batch.db", "verify"]);
    assert_eq!(c, 0);
    assert!(
        out.starts_with(&format!("chain intact: {lines} rows")),
        "{out}"
    );
}

// ---------------------------------------------------------------- chain

#[test]
fn chain_record_find_show_export_and_check_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (c, _, e) = kit::sign_chain_envelope(d);
    assert_eq!(c, 0, "{e}");
    let envelope = std::fs::read_to_string(d.join("envelope.json")).unwrap();
    let tampered = envelope.replace("2017)", "2016)");
    assert_ne!(tampered, envelope);
    std::fs::write(d.join("tampered.json"), tampered).unwrap();
    let verify = |file: &str, extra: &[&str]| {
        run(d, &[&words("chain verify {} --hmac-key-file secret.txt --signed-by {} --offline --now 2026-05-20T00:00:00Z", &[file, SIGNER])[..], extra].concat())
    };
    let (c, out, e) = verify("envelope.json", RECORD_WITH_PAGE);
    assert_eq!(c, 0, "{out}{e}");
    assert!(e.contains("recorded as verification 1"), "{e}");
    assert!(
        std::fs::read_to_string(d.join("now.html"))
            .unwrap()
            .contains(">VERIFIED<")
    );
    let (c, _, e) = verify("tampered.json", &["--record", "audit.db"]);
    assert_eq!(c, 1, "{e}");
    let (_, shown) = audit(d, &["show", "2"]);
    let shown: Value = serde_json::from_str(&shown).unwrap();
    let claim = shown["items"][0]["id"].as_str().unwrap().to_owned();
    find_show_export_check(
        d,
        "chain",
        "chain-id-mismatch",
        &claim,
        Some("We propose a new simple network architecture"),
    );

    std::fs::write(d.join("list.txt"), "envelope.json\ntampered.json\n").unwrap();
    let offline = ["--offline", "--now", "2026-05-20T00:00:00Z"];
    batch_records_and_resumes(
        d,
        &[
            &["chain", "verify", "--batch", "list.txt"][..],
            &CHAIN_TRUST,
            &offline,
        ]
        .concat(),
        2,
        1,
    );
}

// ---------------------------------------------------------------- ledger

#[test]
fn ledger_record_find_show_export_and_check_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fixtures = root().join("vectors/fixtures/ledger");
    let ledger = std::fs::read_to_string(fixtures.join("ledger-run-a.json")).unwrap();
    std::fs::write(d.join("ledger.json"), &ledger).unwrap();
    // The claim text changed after its record was written.
    let tampered = ledger.replace("a 4% shift", "a 9% shift");
    assert_ne!(tampered, ledger);
    std::fs::write(d.join("tampered.json"), tampered).unwrap();
    let audit_file = fixtures.join("audit-shared.jsonl");
    let audit_file = audit_file.to_str().unwrap();
    let verify = |file: &str, extra: &[&str]| {
        let args = [
            &words(
                "ledger verify {} --audit {} --now 1778930000",
                &[file, audit_file],
            )[..],
            extra,
        ]
        .concat();
        run(d, &args)
    };
    let (c, out, e) = verify("ledger.json", &["--record", "audit.db"]);
    assert_eq!(c, 0, "{out}{e}");
    assert!(e.contains("recorded as verification 1"), "{e}");
    let (c, out, e) = verify("tampered.json", &["--json", "--record", "audit.db"]);
    assert_eq!(c, 1, "{e}");
    // `--json` keeps each incident's file, and the record is made all the same.
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["incidents"][0]["file"], "audit", "{v}");
    assert!(e.contains("recorded as verification 2"), "{e}");
    // A ledger source has no excerpt: the claim is shown with its text and source.
    find_show_export_check(d, "ledger", "ledger-jsonl-record-mismatch", "c-1", None);
    let (_, shown) = audit(d, &["show", "2", "--claim", "c-1"]);
    let shown: Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(
        shown["claim"]["text"],
        "Market analysis indicates a 9% shift in Q3."
    );
    assert_eq!(shown["claim"]["sources"][0]["url"], "search-77");

    std::fs::write(
        d.join("list.txt"),
        "ledger.json\n# a comment\ntampered.json\n",
    )
    .unwrap();
    batch_records_and_resumes(
        d,
        &words(
            "ledger verify --batch list.txt --audit {} --now 1778930000",
            &[audit_file],
        ),
        2,
        1,
    );
}

// ---------------------------------------------------------------- archive

/// The README's archive walkthrough: a signed bundle and its display view, and the bundle with
/// c2's claim text changed after signing.
fn archive_documents(d: &Path) {
    let (c, _, e) = run(d, &["keygen", "--out", "keys", "--kid", "archive-2026"]);
    assert_eq!(c, 0, "{e}");
    let (c, _, e) = archive_gate(d, &archive_fixture("request.json"), "1778925601", "", &[]);
    assert_eq!(c, 0, "{e}");
    let bundle = std::fs::read_to_string(d.join("bundle.json")).unwrap();
    let tampered = bundle.replace("in a half circle", "in a full circle");
    assert_ne!(tampered, bundle);
    std::fs::write(d.join("tampered.json"), tampered).unwrap();
}

#[test]
fn archive_record_find_show_export_and_check_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    archive_documents(d);
    let archive = archive_fixture("archive.json");
    let verify = |bundle: &str, extra: &[&str]| {
        run(d, &[&words("archive verify {} display.json --archive {} --keys archive.example=keys/jwks.json --now 2026-05-16T10:05:00Z", &[bundle, &archive])[..], extra].concat())
    };
    let (c, out, e) = verify("bundle.json", RECORD_WITH_PAGE);
    assert_eq!(c, 0, "{out}{e}");
    assert!(
        out.starts_with("bundle and display view -> VERIFIED\n"),
        "{out}"
    );
    let page = std::fs::read_to_string(d.join("now.html")).unwrap();
    assert!(page.contains(">VERIFIED<"));
    // The span text of the artifact hidden in force (c5's citation) is in no page: read from
    // the archive itself, paragraph 1 of the artifact the snapshots list as hidden.
    let archive_value: Value =
        serde_json::from_str(&std::fs::read_to_string(&archive).unwrap()).unwrap();
    let hidden_id = archive_value["snapshots"][0]["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["consent"] == "hidden")
        .unwrap()["artifact_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let hidden = &archive_value["artifacts"][&hidden_id];
    let hidden_text = hidden["paragraphs"][1]
        .as_str()
        .or_else(|| hidden["payload"]["paragraphs"][1].as_str())
        .unwrap_or_else(|| panic!("{hidden}"));
    let hidden_start: String = hidden_text.chars().take(40).collect();
    assert!(!page.contains(&hidden_start), "hidden text in the page");

    let (c, out, e) = verify("tampered.json", &["--json", "--record", "audit.db"]);
    assert_eq!(c, 1, "{e}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["spec"], "archive");
    assert_eq!(v["subject"]["name"], "tampered.json");
    let digest = v["subject"]["digest"].as_str().unwrap();
    assert!(digest.starts_with("sha256:"), "{digest}");
    assert!(!out.contains(&hidden_start), "hidden text in the report");
    find_show_export_check(
        d,
        "archive",
        "archive-claim-unsupported",
        "c2",
        Some("I moved the desks into a half circle"),
    );
    // The tampered bundle's signature fails: every claim of it says so.
    let page = std::fs::read_to_string(d.join("failed.html")).unwrap();
    let failed_rows = page.matches("claim-row not-ok").count();
    assert_eq!(
        failed_rows, 8,
        "every claim of a bundle whose signature failed"
    );

    std::fs::write(
        d.join("list.txt"),
        "bundle.json display.json\ntampered.json\tdisplay.json\n",
    )
    .unwrap();
    batch_records_and_resumes(
        d,
        &words(
            "archive verify --batch list.txt --archive {} --keys archive.example=keys/jwks.json --now 2026-05-16T10:05:00Z",
            &[&archive],
        ),
        2,
        1,
    );
    // A line that is not two files is a usage error of that line.
    std::fs::write(d.join("bad.txt"), "bundle.json\n").unwrap();
    let (c, out, _) = run(
        d,
        &words(
            "archive verify --batch bad.txt --archive {} --now 0",
            &[&archive],
        ),
    );
    assert_eq!(c, 2, "{out}");
    assert!(out.contains("BUNDLE DISPLAY"), "{out}");
}

// ---------------------------------------------------------------- aca

#[test]
fn aca_record_find_show_export_and_check_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (mut server, base) = start_demo();
    let verify = |path: &str| {
        run(
            d,
            &words(
                "aca verify --allow-private --record audit.db {}",
                &[&format!("{base}{path}")],
            ),
        )
    };
    let (c, out, e) = verify("/runs/complete");
    let (c2, out2, e2) = verify("/runs/changed-source");
    server.kill().unwrap();
    server.wait().unwrap();
    assert_eq!(c, 0, "{out}{e}");
    assert_eq!(c2, 1, "{out2}{e2}");
    let (_, shown) = audit(d, &["show", "2"]);
    let shown: Value = serde_json::from_str(&shown).unwrap();
    let codes = each_where(&shown["incidents"], "severity", "error", "code");
    assert!(!codes.is_empty(), "{shown}");
    // The first failed claim of the manifest, and the excerpt it was checked against.
    let claim = shown["items"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["items"].as_array().cloned().unwrap_or_default())
        .find(|c| c["verified"] == false)
        .unwrap_or_else(|| panic!("no failed claim: {shown}"));
    let excerpt = claim["sources"][0]["excerpt"].as_str().map(str::to_owned);
    assert!(excerpt.is_some(), "{claim}");
    find_show_export_check(
        d,
        "aca",
        codes[0],
        claim["id"].as_str().unwrap(),
        excerpt.as_deref(),
    );
}

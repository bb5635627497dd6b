//! The auditor's system of record from the command line: verify with `--record`, find the
//! record by filters, show one claim with its excerpt, export it as HTML, check the chain and
//! see an edit found; the ACA reuse race; concurrent writers; a batch killed mid-way; and the
//! reports in a real browser (headless Chromium).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;
use serde_json::Value;

#[path = "audit_cli/browser.rs"]
mod browser;
mod kit;
use kit::{citeproof, root, start_demo, stderr_of, stdout_of, words};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("citeproof")
}

fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        stdout_of(&out),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout_of(&out)
}

/// The README's AEF flow: a signed evidence object, and its tampered twin whose claim text is
/// hostile HTML.
fn aef_documents(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let article = root().join("vectors/fixtures/aef/article.html");
    let ev = dir.join("ev.json");
    let text = run_ok(
        citeproof()
            .args(["aef", "new", "--source"])
            .arg(&article)
            .args(words("--uri https://example.com/aeo --selector {} --claim {} --fetched-at 2026-05-12T03:45:00Z", &["css=#declare > p:nth-of-type(2)", "Publishers keep the document and its signature in sync."])),
    );
    std::fs::write(&ev, text).unwrap();
    run_ok(
        citeproof()
            .args(["keygen", "--out"])
            .arg(dir.join("keys"))
            .args(["--kid", "aef-1"]),
    );
    let signed = run_ok(
        citeproof()
            .args(["aef", "sign"])
            .arg(&ev)
            .arg("--key")
            .arg(dir.join("keys/private.pem"))
            .args(words(
                "--kid aef-1 --signing-key-uri https://example.com/.well-known/aef-keys.json",
                &[],
            )),
    );
    let signed_path = dir.join("signed.json");
    std::fs::write(&signed_path, &signed).unwrap();
    let tampered_path = dir.join("tampered.json");
    std::fs::write(
        &tampered_path,
        signed.replace(
            "keep the document and",
            "keep the </td><script>alert(1)</script><a href=\\\"javascript:alert(2)\\\">x</a> and",
        ),
    )
    .unwrap();
    (article, signed_path, tampered_path)
}

fn aef_verify(dir: &Path, file: &Path, article: &Path, extra: &[&str]) -> std::process::Output {
    citeproof()
        .args(["aef", "verify"])
        .arg(file)
        .arg("--key")
        .arg(dir.join("keys/jwks.json"))
        .arg("--source")
        .arg(article)
        .args(extra)
        .output()
        .unwrap()
}

fn audit(db: &str, args: &[&str]) -> std::process::Output {
    citeproof()
        .args(["audit", "--db", db])
        .args(args)
        .output()
        .unwrap()
}

/// The second (tampered) AEF run of the audit store is found by every filter.
fn finds_the_tampered_run(db: &str) {
    // Find it by filters.
    let listing = stdout_of(&audit(
        db,
        &["list", "--spec", "aef", "--verdict", "not-verified"],
    ));
    assert_eq!(listing.lines().count(), 1, "{listing}");
    assert!(
        listing.contains("tampered.json") && listing.contains("aef-signature-invalid"),
        "{listing}"
    );
    let since = stdout_of(&audit(
        db,
        &words(
            "list --since 2026-05-12T03:59:00Z --until 2026-05-12T04:01:00Z",
            &[],
        ),
    ));
    assert_eq!(since.lines().count(), 1, "{since}");
    let recent = stdout_of(&audit(db, &["list", "--since", "1h"]));
    assert_eq!(recent.lines().count(), 1, "{recent}");
    let by_code = stdout_of(&audit(db, &["list", "--code", "aef-signature-invalid"]));
    assert!(by_code.starts_with("    2  "), "{by_code}");
    let summary: Value =
        serde_json::from_slice(&audit(db, &["--json", "summary", "--spec", "aef"]).stdout).unwrap();
    assert_eq!(
        (
            summary["verifications"].as_u64(),
            summary["verified"].as_u64()
        ),
        (Some(2), Some(1))
    );
}

/// `audit show` of the second run: the common envelope, and one item with its source and the
/// excerpt judged.
fn shows_its_claim(db: &str) {
    // Show it: the common envelope, and one item with its source and the excerpt judged.
    let shown: Value = serde_json::from_slice(&audit(db, &["show", "2"]).stdout).unwrap();
    assert_eq!(shown["command"], "audit show");
    assert_eq!(shown["outcome"], "not-verified");
    assert_eq!(shown["record"]["id"], 2);
    let item_id = shown["items"][0]["id"].as_str().unwrap().to_owned();
    let claim: Value =
        serde_json::from_slice(&audit(db, &["show", "2", "--claim", &item_id]).stdout).unwrap();
    assert!(
        claim["claim"]["text"]
            .as_str()
            .unwrap()
            .contains("</td><script>"),
        "{claim}"
    );
    let source = &claim["claim"]["sources"][0];
    assert!(
        source["excerpt"]
            .as_str()
            .unwrap()
            .contains("Publishers should keep"),
        "{claim}"
    );
    assert!(
        source["computed_hash"]
            .as_str()
            .unwrap()
            .starts_with("sha256:"),
        "{claim}"
    );
}

/// `audit report` of the second run in every format.
fn exports_it(dir: &std::path::Path, db: &str) {
    // Export it: the tampered run reads NOT VERIFIED with the failing check, and nothing
    // from the document is active.
    let page = dir.join("tampered.html");
    run_ok(
        citeproof()
            .args([
                "audit", "--db", db, "report", "2", "--format", "html", "--out",
            ])
            .arg(&page),
    );
    let page = std::fs::read_to_string(&page).unwrap();
    assert!(page.contains(">NOT VERIFIED<") && !page.contains(">VERIFIED<"));
    assert!(page.contains("aef-signature-invalid"));
    assert!(
        !page.contains("<script") && !page.contains("href=\"javascript"),
        "active content"
    );
    assert!(
        page.contains("&lt;&#x2f;td&gt;&lt;script&gt;")
            || page.contains("&lt;/td&gt;&lt;script&gt;")
    );
    for format in ["markdown", "csv", "json"] {
        let out = audit(db, &["report", "2", "--format", format]);
        assert_eq!(out.status.code(), Some(0), "{format}");
        assert!(
            stdout_of(&out).contains("aef-signature-invalid"),
            "{format}"
        );
    }
}

#[test]
fn aef_record_find_show_export_and_check_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let (article, signed, tampered) = aef_documents(dir.path());
    let db = dir.path().join("audit.db");
    let db = db.to_str().unwrap();
    let html = dir.path().join("verified.html");
    let out = aef_verify(
        dir.path(),
        &signed,
        &article,
        &words(
            "--record {} --report html --out {}",
            &[db, html.to_str().unwrap()],
        ),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The verdict comes first, on stdout; the record is said on stderr.
    assert!(stdout_of(&out).contains("-> VERIFIED"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("recorded as verification 1"));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains(">VERIFIED<"), "{page}");
    let out = aef_verify(
        dir.path(),
        &tampered,
        &article,
        &["--record", db, "--now", "2026-05-12T04:00:00Z"],
    );
    assert_eq!(out.status.code(), Some(1));

    finds_the_tampered_run(db);
    shows_its_claim(db);
    exports_it(dir.path(), db);

    // The chain: intact, a head to write down, and an edit found.
    let verified = audit(db, &["verify"]);
    assert_eq!(verified.status.code(), Some(0));
    assert!(stdout_of(&verified).starts_with("chain intact: 2 rows"));
    let head = stdout_of(&audit(db, &["head"])).trim().to_owned();
    assert!(head.starts_with("2:sha256:"), "{head}");
    let aef_again = aef_verify(dir.path(), &signed, &article, &["--record", db]);
    assert_eq!(aef_again.status.code(), Some(0));
    assert_eq!(
        audit(db, &["verify", "--head", &head]).status.code(),
        Some(0)
    );
    let c = rusqlite::Connection::open(db).unwrap();
    c.execute_batch(
        "UPDATE verification SET verified = 1, level = 3, outcome = 'verified' WHERE id = 2",
    )
    .unwrap();
    drop(c);
    let broken = audit(db, &["verify"]);
    assert_eq!(broken.status.code(), Some(1));
    assert!(
        stdout_of(&broken).starts_with("chain BROKEN at row 2"),
        "{}",
        stdout_of(&broken)
    );
}

/// The console block of README "Auditing", run as written (after the README's AEF example).
#[test]
fn readme_auditing_commands_run() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme.split("## Auditing").nth(1).unwrap();
    let block = section
        .split("```console\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    aef_documents(dir.path());
    std::os::unix::fs::symlink(root().join("vectors"), dir.path().join("vectors")).unwrap();
    let mut commands = Vec::new();
    let mut current = String::new();
    for line in block.lines() {
        let line = line.strip_prefix("$ ").unwrap_or(line);
        if let Some(head) = line.strip_suffix('\\') {
            current.push_str(head);
        } else {
            current.push_str(line);
            commands.push(std::mem::take(&mut current));
        }
    }
    assert_eq!(commands.len(), 8, "{commands:?}");
    for command in commands {
        let words = shlex::split(&command).unwrap();
        assert_eq!(words[0], "citeproof");
        let out = StdCommand::new(bin())
            .args(&words[1..])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let expected = if command.contains("tampered.json") {
            1
        } else {
            0
        };
        assert_eq!(
            out.status.code(),
            Some(expected),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(
        std::fs::read_to_string(dir.path().join("tampered.html"))
            .unwrap()
            .contains("NOT VERIFIED")
    );
}

#[test]
fn store_failures_exit_3_after_the_verdict_and_leave_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let (article, signed, _) = aef_documents(dir.path());
    let other = dir.path().join("other.db");
    let c = rusqlite::Connection::open(&other).unwrap();
    c.execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');")
        .unwrap();
    drop(c);
    let before = std::fs::read(&other).unwrap();
    let out = aef_verify(
        dir.path(),
        &signed,
        &article,
        &["--record", other.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stdout_of(&out).contains("-> VERIFIED"),
        "the verdict is printed first"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("NOT recorded") && err.contains("[audit-not-a-store]"),
        "{err}"
    );
    let listed = audit(other.to_str().unwrap(), &["list"]);
    assert_eq!(listed.status.code(), Some(3));
    assert_eq!(
        std::fs::read(&other).unwrap(),
        before,
        "the file was changed"
    );
    let missing = audit(dir.path().join("absent.db").to_str().unwrap(), &["list"]);
    assert_eq!(missing.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("audit-not-found"));
    assert!(!dir.path().join("absent.db").exists());
}

// ---------------------------------------------------------------- ACA: race, load, crash

/// Snapshots of the demo's unbound run and its copy at another URL (the same signed manifest,
/// which names no response: only the history of ACA-L2-022 tells them apart).
fn unbound_snapshots(dir: &Path) -> (PathBuf, PathBuf) {
    let (mut server, base) = start_demo();
    let save = |path: &str, file: &str| {
        let target = dir.join(file);
        let out = citeproof()
            .args(["aca", "verify", "--allow-private", "--save-snapshot"])
            .arg(&target)
            .arg(format!("{base}{path}"))
            .output()
            .unwrap();
        assert!(target.exists(), "{}", String::from_utf8_lossy(&out.stderr));
        target
    };
    let pair = (
        save("/runs/unbound", "unbound.json"),
        save("/runs/unbound-copy", "copy.json"),
    );
    server.kill().unwrap();
    server.wait().unwrap();
    pair
}

fn spawn_verify(snapshot: &Path, db: &str) -> std::process::Child {
    StdCommand::new(bin())
        .args(words(
            "aca verify --allow-private --json --now 1777593600 --record {} --snapshot",
            &[db],
        ))
        .arg(snapshot)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn reused(out: &std::process::Output) -> bool {
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["incidents"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["code"] == "aca-manifest-reused")
}

/// reliability-3 1f: a replay submitted at the same instant as the original was recorded
/// VERIFIED in 39 of 50 trials. Now exactly one of the two is found reused, every time.
#[test]
fn a_replay_and_its_original_at_the_same_instant_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (original, copy) = unbound_snapshots(dir.path());
    let trials = 50;
    let mut told_apart = 0;
    for t in 0..trials {
        let db = dir.path().join(format!("race-{t}.db"));
        let db = db.to_str().unwrap();
        let a = spawn_verify(&original, db);
        let b = spawn_verify(&copy, db);
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        let flags = (reused(&a), reused(&b));
        if flags.0 != flags.1 {
            told_apart += 1;
        }
        assert_ne!(
            flags.0,
            flags.1,
            "trial {t}: {}{}",
            String::from_utf8_lossy(&a.stderr),
            String::from_utf8_lossy(&b.stderr)
        );
    }
    eprintln!("replay race: told apart in {told_apart} of {trials} trials");
    assert_eq!(told_apart, trials);
}

/// reliability-3 1c/1d and 2a: writers in parallel processes lose nothing and never fail with
/// "database is locked"; a batch killed mid-way keeps every verification it finished whole,
/// and running it again records only the rest.
#[test]
fn concurrent_batches_lose_nothing_and_a_killed_batch_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let (original, copy) = unbound_snapshots(dir.path());
    // Distinct inputs: the snapshot bytes with a distinct trailing space each.
    let base = std::fs::read(&original).unwrap();
    let mut lines = String::new();
    for n in 0..120 {
        let p = dir.path().join(format!("s{n}.json"));
        let mut bytes = base.clone();
        bytes.extend(std::iter::repeat_n(b' ', n));
        std::fs::write(&p, bytes).unwrap();
        lines.push_str(&format!("{}\n", p.display()));
    }
    let _ = copy;
    let writers = 8;
    let db = dir.path().join("load.db");
    let db = db.to_str().unwrap();
    let children: Vec<_> = (0..writers)
        .map(|w| {
            let list = dir.path().join(format!("batch-{w}.txt"));
            std::fs::write(&list, &lines).unwrap();
            StdCommand::new(bin())
                .args(words(
                    "aca verify --allow-private --now {} --record {} --batch",
                    &[&format!("{}", 1_777_593_600 + w), db],
                ))
                .arg(&list)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !err.contains("locked") && !err.contains("NOT recorded"),
            "{err}"
        );
        assert_eq!(stdout_of(&out).lines().count(), 120, "{err}");
    }
    let check: Value = serde_json::from_slice(&audit(db, &["--json", "verify"]).stdout).unwrap();
    assert_eq!(check["rows"], writers * 120, "{check}");
    assert_eq!(check["broken"], Value::Null);

    // Kill -9 mid-batch, then resume.
    let list = dir.path().join("kill.txt");
    std::fs::write(&list, &lines).unwrap();
    let db = dir.path().join("kill.db");
    let db = db.to_str().unwrap();
    let mut child = StdCommand::new(bin())
        .args(words(
            "aca verify --allow-private --now 1777593600 --record {} --batch",
            &[db],
        ))
        .arg(&list)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill once some rows are in.
    let start = std::time::Instant::now();
    loop {
        std::thread::sleep(std::time::Duration::from_millis(20));
        let rows =
            rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .and_then(|c| {
                    c.query_row("SELECT COUNT(*) FROM verification", [], |r| {
                        r.get::<_, i64>(0)
                    })
                })
                .unwrap_or(0);
        if rows >= 10 || start.elapsed().as_secs() > 120 {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let check: Value = serde_json::from_slice(&audit(db, &["--json", "verify"]).stdout).unwrap();
    assert_eq!(check["broken"], Value::Null, "{check}");
    let kept = check["rows"].as_u64().unwrap();
    assert!(
        (10..120).contains(&kept),
        "killed too late to show anything: {kept}"
    );
    // Every kept verification is whole: the chain check compares its incident rows with the
    // hashed record. Resume: the kept ones are skipped, the rest recorded.
    let out = citeproof()
        .args(words(
            "aca verify --allow-private --now 1777593600 --record {} --batch",
            &[db],
        ))
        .arg(&list)
        .output()
        .unwrap();
    let skipped = stdout_of(&out)
        .lines()
        .filter(|l| l.contains("\"skipped\":true"))
        .count();
    assert_eq!(u64::try_from(skipped).unwrap(), kept);
    let check: Value = serde_json::from_slice(&audit(db, &["--json", "verify"]).stdout).unwrap();
    assert_eq!(check["rows"], 120, "{check}");
}

// ---------------------------------------------------------------- the reports in a browser

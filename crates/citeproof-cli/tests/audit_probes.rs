//! The audit store's probes of issue 21 (reliability-3 1c, 5f), with their figures printed:
//!
//! - many concurrent `--batch --record` writers lose nothing: every verification printed is
//!   recorded once, no process fails with "database is locked", the chain is intact. Default
//!   8 writers x 50 lines; the size is `CITEPROOF_PROBE_WRITERS=64
//!   CITEPROOF_PROBE_LINES=1000`;
//! - `audit list` over 100,000 records answers in under 1 s (ignored: it builds the store through
//!   the library, then times the CLI; run it with a release binary:
//!   `cargo build --release -p citeproof-cli && CITEPROOF_BIN=target/release/citeproof cargo
//!   test -p citeproof-cli --test audit_probes -- --ignored --nocapture`).
//!
//! `CITEPROOF_BIN` names the binary under test (default: this build's). The figures of the full
//! runs are in docs/AUDIT-PROBES.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

mod kit;

use citeproof_audit::{Access, Record};
use kit::CHAIN_TRUST;
use serde_json::Value;

fn bin() -> PathBuf {
    std::env::var_os("CITEPROOF_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| assert_cmd::cargo::cargo_bin("citeproof"))
}

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name}={v}: not a number"))
        })
        .unwrap_or(default)
}

fn citeproof(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(bin())
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// 2026-05-20T00:00:00Z.
const NOW: i64 = 1_779_235_200;

/// A signed chain envelope (`envelope.json`) and its tampered twin (`tampered.json`) in `dir`,
/// verified offline with `secret.txt`.
fn envelopes(dir: &Path) {
    let (status, _, err) = kit::sign_chain_envelope(dir);
    assert_eq!(status, 0, "{err}");
    let envelope = std::fs::read_to_string(dir.join("envelope.json")).unwrap();
    std::fs::write(
        dir.join("tampered.json"),
        envelope.replace("2017)", "2016)"),
    )
    .unwrap();
}

/// reliability-3 1c: with 64 concurrent batch writers, 26 of 64 processes exited "database is
/// locked" and 12,427 of 64,000 verifications were never recorded.
#[test]
fn concurrent_batch_writers_lose_nothing() {
    let writers = env_or("CITEPROOF_PROBE_WRITERS", 8);
    let lines = env_or("CITEPROOF_PROBE_LINES", 50);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    envelopes(d);
    // Distinct inputs: the envelope with n trailing spaces (distinct digests, same verdict).
    let envelope = std::fs::read(d.join("envelope.json")).unwrap();
    let mut list = String::new();
    for n in 0..lines {
        let name = format!("e{n}.json");
        let mut bytes = envelope.clone();
        bytes.extend(std::iter::repeat_n(b' ', n));
        std::fs::write(d.join(&name), bytes).unwrap();
        list.push_str(&name);
        list.push('\n');
    }
    std::fs::write(d.join("list.txt"), list).unwrap();
    let start = Instant::now();
    // Each writer its own `--now`, so that none resumes from another's rows.
    let children: Vec<_> = (0..writers)
        .map(|w| {
            Command::new(bin())
                .current_dir(d)
                .args(["chain", "verify", "--batch", "list.txt"])
                .args(CHAIN_TRUST)
                .args(["--offline", "--record", "audit.db", "--now"])
                .arg((NOW + i64::try_from(w).unwrap()).to_string())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut ids = HashSet::new();
    let mut failed_processes = 0;
    for child in children {
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(0) || err.contains("locked") || err.contains("NOT recorded") {
            failed_processes += 1;
            eprintln!("a writer failed: {:?} {err}", out.status.code());
        }
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["outcome"], "verified", "{v}");
            assert!(ids.insert(v["recorded_as"].as_i64().unwrap()), "{v}");
        }
    }
    let wall = start.elapsed();
    let out = citeproof(d, &["audit", "--db", "audit.db", "--json", "verify"]);
    let check: Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected = writers * lines;
    eprintln!(
        "{writers} concurrent batch writers x {lines} verifications: {} printed with an id, {} rows, {} lost, {failed_processes} processes failed, chain broken: {}, wall {wall:.1?}",
        ids.len(),
        check["rows"],
        expected.saturating_sub(ids.len()),
        check["broken"]
    );
    assert_eq!(failed_processes, 0);
    assert_eq!(ids.len(), expected);
    assert_eq!(check["rows"], expected, "{check}");
    assert_eq!(check["broken"], Value::Null, "{check}");
}

/// The `--json` report of a chain verification, without the envelope members: a real report of
/// the common shape (items, sources, trust), recorded many times.
fn real_report(dir: &Path, file: &str) -> Value {
    let now = NOW.to_string();
    let options = ["--offline", "--json", "--now", &now];
    let out = citeproof(
        dir,
        &[&["chain", "verify", file][..], &CHAIN_TRUST, &options].concat(),
    );
    let mut v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let obj = v.as_object_mut().unwrap();
    obj.remove("command");
    obj.remove("ok");
    v
}

/// reliability-3 5f: `audit list` was quadratic (29.5 s at 22k rows). 100,000 records of real
/// chain reports (one in three tampered), on tmpfs when there is one (the store is built
/// through the library, one append per record as the CLI does; the time measured is the CLI's).
#[test]
#[ignore = "builds a store of 100,000 records; run with a release CITEPROOF_BIN"]
fn audit_list_over_many_records_answers_in_under_a_second() {
    let rows = env_or("CITEPROOF_PROBE_ROWS", 100_000);
    let work = tempfile::tempdir().unwrap();
    envelopes(work.path());
    let good = real_report(work.path(), "envelope.json");
    let bad = real_report(work.path(), "tampered.json");
    assert_eq!(
        (good["verified"].as_bool(), bad["verified"].as_bool()),
        (Some(true), Some(false))
    );
    let shm = Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        tempfile::tempdir_in(shm).unwrap()
    } else {
        tempfile::tempdir().unwrap()
    };
    let db = dir.path().join("audit.db");
    let db_text = db.to_str().unwrap();
    let start = Instant::now();
    let mut store = citeproof_audit::open(db_text, Access::Write).unwrap();
    for n in 0..rows {
        let mut report = if n % 3 == 0 {
            bad.clone()
        } else {
            good.clone()
        };
        report["subject"]["name"] = Value::from(format!("runs/{n}/envelope.json"));
        let at = NOW + i64::try_from(n).unwrap();
        store
            .record(&Record::from_report(report, at, at).unwrap())
            .unwrap();
    }
    drop(store);
    let built = start.elapsed();
    let size = std::fs::metadata(&db).unwrap().len();
    let timed = |args: &[&str]| {
        let start = Instant::now();
        let out = citeproof(
            dir.path(),
            &[&["audit", "--db", db_text][..], args].concat(),
        );
        let took = start.elapsed();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (took, String::from_utf8_lossy(&out.stdout).lines().count())
    };
    let (list, listed) = timed(&["list"]);
    let (by_code, failed) = timed(&["list", "--code", "chain-id-mismatch"]);
    let (since, recent) = timed(&[
        "list",
        "--since",
        "2026-05-20T12:00:00Z",
        "--verdict",
        "verified",
    ]);
    let (summary, _) = timed(&["summary"]);
    eprintln!(
        "{rows} records ({} MB, built in {built:.1?}) with {}: list {list:.3?} ({listed} lines), list --code {by_code:.3?} ({failed}), list --since --verdict {since:.3?} ({recent}), summary {summary:.3?}",
        size / 1_000_000,
        bin().display()
    );
    assert_eq!(listed, rows);
    assert_eq!(failed, rows.div_ceil(3));
    for took in [list, by_code, since, summary] {
        assert!(took.as_secs_f64() < 1.0, "{took:?}");
    }
}

//! The recorder on a real SQLite store: every report recorded in input order, a batch run
//! again resumed, and verified again when a file's bytes or the configuration changed.

mod common;

use std::sync::Mutex;

use citeproof_batch::Recorder;
use common::{Kept, by_word, report, run_batch};
use serde_json::{Value, json};

/// Recorded at a fixed time: the record time is not what these tests look at.
fn clock() -> i64 {
    1_777_593_700
}

/// Runs `files` (each a path, verified `ok`) through a recorder on `db` under
/// `configuration`; the lines written and the inputs verified.
fn recorded_batch(db: &str, files: &[&str], configuration: &Value) -> (Vec<Value>, Vec<String>) {
    let verified = Mutex::new(Vec::new());
    let verify = |line: &str| {
        verified.lock().unwrap().push(line.to_owned());
        Ok::<_, common::Fail>(report(line, true))
    };
    let mut recorder =
        Recorder::open("aef", Some(db), configuration.clone(), 1_777_593_600, clock).unwrap();
    let mut output = Kept::default();
    let summary = run_batch(files, verify, &mut recorder, &mut output).unwrap();
    assert_eq!(summary.exit_status(), 0);
    (output.lines, verified.into_inner().unwrap())
}

#[test]
fn a_batch_run_again_skips_what_the_store_holds_under_the_same_bytes_and_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("audit.db");
    let db = db.to_str().unwrap();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    std::fs::write(&a, "a").unwrap();
    std::fs::write(&b, "b").unwrap();
    let files = [a.to_str().unwrap(), b.to_str().unwrap()];
    let configuration = json!({"now": null});

    let (lines, verified) = recorded_batch(db, &files, &configuration);
    assert_eq!(verified.len(), 2);
    let ids: Vec<i64> = lines
        .iter()
        .map(|l| l["recorded_as"].as_i64().unwrap())
        .collect();
    assert!(ids[0] < ids[1], "recorded in input order: {ids:?}");

    let (lines, verified) = recorded_batch(db, &files, &configuration);
    assert!(verified.is_empty(), "{verified:?}");
    for (line, id) in lines.iter().zip(&ids) {
        assert_eq!(line["skipped"], json!(true));
        assert_eq!(line["recorded_as"], json!(id));
        assert_eq!(line["verified_at"], json!("2026-05-01T00:00:00Z"));
    }

    // New bytes under the same name: verified again; the other file is still skipped.
    std::fs::write(&b, "b2").unwrap();
    let (_, verified) = recorded_batch(db, &files, &configuration);
    assert_eq!(verified, [files[1]]);

    // Another configuration: both verified again.
    let (_, verified) = recorded_batch(db, &files, &json!({"now": 1}));
    assert_eq!(verified.len(), 2);
}

#[test]
fn without_a_store_nothing_is_recorded_or_resumed() {
    let mut recorder = Recorder::open("aef", None, json!({}), 0, clock).unwrap();
    let mut output = Kept::default();
    run_batch(&["ok a", "ok a"], by_word, &mut recorder, &mut output).unwrap();
    for line in &output.lines {
        assert!(line.get("recorded_as").is_none() && line.get("skipped").is_none());
    }
}

#[test]
fn a_store_that_cannot_be_opened_is_said_with_its_code() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("missing-dir").join("audit.db");
    let err = Recorder::open("aef", Some(db.to_str().unwrap()), json!({}), 0, clock).unwrap_err();
    let said = err.to_string();
    assert!(said.starts_with(db.to_str().unwrap()), "{said}");
    assert!(said.ends_with(']') && said.contains(" [audit-"), "{said}");
}

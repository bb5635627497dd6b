//! Self-test of the suite: deliberately broken adapters (tests/broken_adapters/) must be caught,
//! each with exactly the statuses its defect deserves; the good Python example adapter must
//! pass every case of the operations it announces. A suite that a broken implementation passes
//! is a defect.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::{
    collections::{BTreeMap, BTreeSet},
    time::{Duration, Instant},
};

use base64::Engine as _;
use citeproof_conformance::{
    Status, Summary,
    runner::{RunResult, SkipReason},
    summary::Verdict,
};
use citeproof_model::vectors::Validity;
use common::*;

fn statuses(run: &RunResult) -> BTreeMap<String, Status> {
    run.results
        .iter()
        .map(|r| (r.case.id.clone(), r.status))
        .collect()
}

fn ids_with(run: &RunResult, status: Status) -> BTreeSet<String> {
    run.results
        .iter()
        .filter(|r| r.status == status)
        .map(|r| r.case.id.clone())
        .collect()
}

#[test]
fn python_example_adapter_passes_its_subset() {
    let Some(py) = python() else { return };
    let script = root().join("examples/adapters/python/citeproof_adapter.py");
    let suite = vectors();
    let result = run_command(
        &[&py, &script.display().to_string()],
        &suite,
        &options(10_000, Some(5)),
    );
    let bad: Vec<_> = result
        .results
        .iter()
        .filter(|r| matches!(r.status, Status::Failed | Status::Errored))
        .map(|r| format!("{} {:?}: {:?}", r.case.id, r.status, r.message))
        .collect();
    assert!(
        bad.is_empty(),
        "the example adapter fails:\n{}",
        bad.join("\n")
    );
    let info = result.implementation.as_ref().unwrap();
    assert_eq!(info.name, "citeproof-python-example");
    for required in [
        "jcs-canonicalize",
        "hash-bytes",
        "hash-aef-text",
        "aca-header-parse",
        "aef-validate",
        "ledger-verify",
        "ledger-audit",
    ] {
        assert!(info.supports(required), "{required}");
    }
    // Every case of an announced operation was run and passed; the rest are skipped as unsupported.
    for r in &result.results {
        if info.supports(&r.case.operation) {
            assert_eq!(r.status, Status::Passed, "{}", r.case.id);
        } else {
            assert_eq!(
                r.skip_reason,
                Some(SkipReason::Unsupported),
                "{}",
                r.case.id
            );
        }
    }
    assert!(result.count(Status::Passed) >= 380);
    assert_eq!(result.starts, 1, "no restart was needed");
}

/// What an implementation that answers `valid` with no output and no codes deserves.
fn always_valid_status(expected: &citeproof_conformance::suite::Expected) -> Status {
    match expected.result {
        Validity::Invalid => Status::Failed,
        Validity::Valid
            if expected.output.is_some()
                || expected.warnings.as_ref().is_some_and(|w| !w.is_empty()) =>
        {
            Status::Failed
        }
        _ => Status::Passed,
    }
}

#[test]
fn always_valid_adapter_is_caught_everywhere() {
    let Some(py) = python() else { return };
    let suite = vectors();
    let result = run_command(
        &[&py, &broken("always_valid.py")],
        &suite,
        &options(10_000, Some(5)),
    );
    assert!(!result.success());
    for r in &result.results {
        assert_eq!(
            r.status,
            always_valid_status(&r.case.expected),
            "{}: {:?}",
            r.case.id,
            r.message
        );
    }
    // Every vector file catches it, and no level is achieved.
    for file in &suite.files {
        assert!(
            result
                .results
                .iter()
                .any(|r| r.case.file == file.path && r.status == Status::Failed),
            "{} does not catch an implementation that accepts everything",
            file.path
        );
    }
    let summary = Summary::new(&result, &profile());
    assert!(!summary.levels.is_empty());
    for level in &summary.levels {
        assert_eq!(
            level.verdict,
            Verdict::NotAchieved,
            "{} {}",
            level.spec,
            level.level
        );
    }
}

/// The cases the off-by-one adapter must fail, derived from the inputs (not from its answers).
fn off_by_one_expected_failures(result: &RunResult) -> BTreeSet<String> {
    let mut expected = BTreeSet::new();
    for r in &result.results {
        match r.case.operation.as_str() {
            "hash-aef-text" => {
                let data = base64::engine::general_purpose::STANDARD
                    .decode(r.case.input["data_base64"].as_str().unwrap())
                    .unwrap();
                if let Ok(text) = String::from_utf8(data) {
                    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
                    // `text[:-1]` is right only when the last character is the newline.
                    if !normalized.is_empty() && !normalized.ends_with('\n') {
                        expected.insert(r.case.id.clone());
                    }
                }
            }
            "aef-validate" => {
                let doc: serde_json::Value =
                    serde_json::from_str(r.case.input["document"].as_str().unwrap())
                        .unwrap_or_default();
                // `rank >= 0` instead of `rank >= 1`: only a rank of exactly 0 is misjudged.
                if doc["retrieval"]["rank"] == 0 {
                    expected.insert(r.case.id.clone());
                }
            }
            _ => {}
        }
    }
    expected
}

#[test]
fn off_by_one_adapter_is_caught() {
    let Some(py) = python() else { return };
    let suite = vectors().filtered(&["canon".into(), "aef".into()]);
    let result = run_command(
        &[&py, &broken("off_by_one.py")],
        &suite,
        &options(10_000, Some(5)),
    );
    let expected = off_by_one_expected_failures(&result);
    assert!(
        expected.len() >= 10,
        "too few cases exercise the defect: {expected:?}"
    );
    assert!(expected.contains("aef-validate-type-rank-zero"));
    assert!(expected.contains("canon-hash-aef-text-abc"));
    assert_eq!(ids_with(&result, Status::Failed), expected);
    // Everything else the adapter runs passes: the defect is the only difference. (Cases of
    // operations it does not announce are skipped as unsupported.)
    for r in &result.results {
        if !expected.contains(&r.case.id) {
            assert!(
                r.status == Status::Passed || r.skip_reason == Some(SkipReason::Unsupported),
                "{}: {:?} {:?}",
                r.case.id,
                r.status,
                r.message
            );
        }
    }
}

#[test]
fn adapter_accepting_unsigned_level3_is_caught() {
    let Some(py) = python() else { return };
    let fixtures = citeproof_conformance::Suite::load(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/signature-vectors"),
    )
    .unwrap();
    let result = run_command(
        &[&py, &broken("accepts_unsigned_level3.py")],
        &fixtures,
        &options(10_000, Some(5)),
    );
    assert_eq!(result.results.len(), 3);
    for r in &result.results {
        assert_eq!(r.status, Status::Failed, "{}: {:?}", r.case.id, r.message);
    }
    // The real vectors of the signature-checking operations: every case expected invalid
    // must fail, among them the unsigned Level 3 responses.
    let ops = [
        "aca-verify-snapshot",
        "aef-verify",
        "aef-jws-verify",
        "httpsig-verify",
        "chain-verify",
    ];
    let mut suite = vectors();
    suite.files.retain(|f| ops.contains(&f.operation.as_str()));
    assert!(
        !suite.is_empty(),
        "no signature-checking vectors in vectors/"
    );
    let real = run_command(
        &[&py, &broken("accepts_unsigned_level3.py")],
        &suite,
        &options(10_000, Some(5)),
    );
    let mut caught = 0;
    for r in &real.results {
        if r.case.expected.result == Validity::Invalid {
            assert_eq!(r.status, Status::Failed, "{}", r.case.id);
            caught += 1;
        }
    }
    assert!(caught >= 10, "only {caught} cases catch it");
    if let Some(unsigned) = real
        .results
        .iter()
        .find(|r| r.case.id == "aca-l3-verify-unsigned")
    {
        assert_eq!(unsigned.status, Status::Failed);
    }
}

#[test]
fn crash_is_errored_then_restarted() {
    let Some(py) = python() else { return };
    let suite = vectors().filtered(&["canon/hash-bytes.json".into()]);
    let n = suite.len();
    assert!(n >= 12);
    let result = run_command(
        &[&py, &broken("crash_after_3.py")],
        &suite,
        &options(10_000, None),
    );
    for (i, r) in result.results.iter().enumerate() {
        let want = if (i + 1) % 4 == 0 {
            Status::Errored
        } else {
            Status::Passed
        };
        assert_eq!(
            r.status,
            want,
            "case {} ({}): {:?}",
            i + 1,
            r.case.id,
            r.message
        );
        if want == Status::Errored {
            let message = r.message.as_deref().unwrap();
            assert!(message.contains("exited"), "{message}");
            assert!(
                r.stderr
                    .as_deref()
                    .unwrap_or_default()
                    .contains("simulated crash"),
                "stderr of the crash is kept: {:?}",
                r.stderr
            );
        }
    }
    assert_eq!(result.starts as usize, n.div_ceil(4));
    assert!(!result.success());
    assert!(result.aborted.is_none());
}

#[test]
fn garbage_is_errored_and_max_errors_ends_the_run() {
    let Some(py) = python() else { return };
    let suite = vectors().filtered(&["canon/hash-bytes.json".into()]);
    let mut opts = options(10_000, Some(6));
    opts.process.max_line_bytes = 1024;
    let result = run_command(&[&py, &broken("garbage.py")], &suite, &opts);
    let expected_messages = [
        "not a JSON text",       // plain text
        "seq 1002",              // wrong seq
        "malformed reply",       // result "maybe"
        "json-invalid-utf8",     // bytes that are not UTF-8
        "line longer than 1024", // an overlong line
        "malformed reply",       // a JSON array
    ];
    for (i, want) in expected_messages.iter().enumerate() {
        let r = &result.results[i];
        assert_eq!(r.status, Status::Errored, "case {}", i + 1);
        let message = r.message.as_deref().unwrap();
        assert!(
            message.contains(want),
            "case {}: {message:?} lacks {want:?}",
            i + 1
        );
    }
    for r in &result.results[6..] {
        assert_eq!(r.status, Status::Skipped);
        assert_eq!(r.skip_reason, Some(SkipReason::NotRun));
        assert!(r.message.as_deref().unwrap().contains("--max-errors 6"));
    }
    assert!(result.aborted.is_some());
    assert!(!result.success());
    assert_eq!(result.starts, 6, "restarted after every garbage line");
}

/// A malformed hello on the first start: the implementation never started, so nothing could be
/// checked: one start failure for the run, every case not run (not one errored case each).
#[test]
fn garbage_handshake_is_one_start_failure() {
    let Some(py) = python() else { return };
    let suite = vectors().filtered(&["canon/hash-bytes.json".into()]);
    let result = run_command(
        &[&py, &broken("garbage.py"), "--bad-hello"],
        &suite,
        &options(10_000, Some(3)),
    );
    assert!(result.could_not_start());
    let (message, _) = result.start_failure.as_ref().unwrap();
    assert!(message.contains("bad handshake"), "{message}");
    assert_eq!(result.count(Status::Errored), 0);
    assert_eq!(result.count(Status::Skipped), suite.len());
    for r in &result.results {
        assert_eq!(r.skip_reason, Some(SkipReason::NotRun));
        assert!(
            r.message
                .as_deref()
                .unwrap()
                .contains("could not be started"),
            "{:?}",
            r.message
        );
    }
    assert_eq!(result.starts, 1, "not restarted for every case");
    assert!(result.implementation.is_none());
    assert!(!result.success());
}

#[test]
fn hanging_adapter_times_out_and_cannot_stall_the_run() {
    let Some(py) = python() else { return };
    let suite = vectors().filtered(&["canon/hash-bytes.json".into()]);
    let clock = Instant::now();
    let result = run_command(&[&py, &broken("hang.py")], &suite, &options(300, Some(2)));
    assert!(
        clock.elapsed() < Duration::from_secs(15),
        "took {:?}",
        clock.elapsed()
    );
    let s = statuses(&result);
    assert_eq!(ids_with(&result, Status::Errored).len(), 2, "{s:?}");
    for r in &result.results[..2] {
        let m = r.message.as_deref().unwrap();
        assert!(m.contains("timeout") && m.contains("0.3 s"), "{m}");
    }
    assert_eq!(result.count(Status::Skipped), suite.len() - 2);
    assert!(result.aborted.is_some());
}

#[test]
fn adapter_that_stops_reading_cannot_block_the_runner_on_a_large_input() {
    let Some(py) = python() else { return };
    let big = base64::engine::general_purpose::STANDARD.encode(vec![b'a'; 1 << 20]);
    let case = |id: &str| {
        serde_json::json!({"id": id, "description": "1 MiB input", "requirements": ["CANON-003"], "level": 0,
            "input": {"data_base64": big}, "expected": {"result": "valid"},
            "derivation": {"kind": "hand", "detail": "test"}})
    };
    let (_dir, suite) = temp_suite(&[(
        "canon/big.json",
        serde_json::json!({"spec": "canon", "operation": "hash-bytes", "description": "d",
            "cases": [case("canon-big-1"), case("canon-big-2"), case("canon-big-3")]}),
    )]);
    let clock = Instant::now();
    let result = run_command(
        &[&py, &broken("hang.py"), "--stop-reading"],
        &suite,
        &options(300, Some(2)),
    );
    assert!(
        clock.elapsed() < Duration::from_secs(15),
        "took {:?}",
        clock.elapsed()
    );
    assert_eq!(result.count(Status::Errored), 2);
    assert!(message(&result, 0).contains("timeout"));
    assert_eq!(result.results[2].skip_reason, Some(SkipReason::NotRun));
}

#[test]
fn hanging_handshake_times_out() {
    let Some(py) = python() else { return };
    let suite = vectors().filtered(&["canon/hash-bytes.json".into()]);
    let mut opts = options(300, Some(1));
    opts.process.start_timeout = Duration::from_millis(300);
    let clock = Instant::now();
    let result = run_command(&[&py, &broken("hang.py"), "--hang-hello"], &suite, &opts);
    assert!(
        clock.elapsed() < Duration::from_secs(10),
        "one timeout, not one per case"
    );
    let (m, _) = result.start_failure.as_ref().unwrap();
    assert!(m.contains("hello") && m.contains("timeout"), "{m}");
    assert_eq!(result.results[0].status, Status::Skipped);
    assert!(
        result
            .aborted
            .as_deref()
            .unwrap()
            .contains("could not be started"),
        "{:?}",
        result.aborted
    );
}

/// A program that does not exist: one "cannot start" for the run (the CLI exits 3), not one
/// errored case per case.
#[test]
fn missing_command_is_one_start_failure_not_a_crash_of_the_runner() {
    let suite = vectors().filtered(&["canon/hash-bytes.json".into()]);
    let result = run_command(
        &["/nonexistent/citeproof-adapter"],
        &suite,
        &options(1000, Some(2)),
    );
    assert_eq!(result.count(Status::Errored), 0);
    assert_eq!(result.count(Status::Skipped), suite.len());
    let (m, _) = result.start_failure.as_ref().unwrap();
    assert!(m.contains("cannot start"), "{m}");
    assert_eq!(result.starts, 1);
}

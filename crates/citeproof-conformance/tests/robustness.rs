//! Runner robustness against adapters that misbehave in ways a strict reading would misjudge:
//! replies holding noncharacters (transport, not documents), wrappers that leave a grandchild
//! running, and second replies that must be blamed on the case they answer.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::{Duration, Instant};

use citeproof_conformance::{RunResult, Status};
use common::*;

fn span_suite() -> (tempfile::TempDir, citeproof_conformance::Suite) {
    let case = |id: &str| {
        serde_json::json!({"id": id, "description": "a span text with noncharacters", "requirements": ["AEF-L2-002"],
            "level": 2, "input": {"evidence": {}, "source": {"media_type": "text/plain", "body_base64": ""}},
            // Vector files are I-JSON: the noncharacter can only be in the source bytes and in
            // the reply, never in the expected value.
            "expected": {"result": "valid", "output": {"content_hash": "sha256:00"}},
            "derivation": {"kind": "hand", "detail": "test"}})
    };
    temp_suite(&[(
        "aef/level2/span.json",
        serde_json::json!({"spec": "aef", "operation": "aef-verify-span", "description": "d",
            "cases": [case("aef-nonchar-1"), case("aef-nonchar-2")]}),
    )])
}

#[test]
fn a_noncharacter_in_a_reply_is_an_answer_not_an_error() {
    let Some(py) = python() else { return };
    let (_dir, suite) = span_suite();
    assert_eq!(
        suite.len(),
        2,
        "{:?}",
        citeproof_conformance::Suite::load(&suite.root).err()
    );
    for flag in ["--raw", "--escaped"] {
        let result = run_command(
            &[&py, &broken("noncharacter.py"), flag],
            &suite,
            &options(10_000, Some(5)),
        );
        for r in &result.results {
            assert_eq!(
                r.status,
                Status::Passed,
                "{flag} {}: {:?}",
                r.case.id,
                r.message
            );
        }
        assert_eq!(result.starts, 1);
    }
}

/// Whether a process exists (Linux: a reaped or never-existing pid has no /proc entry; a zombie
/// counts as gone).
#[cfg(target_os = "linux")]
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        Err(_) => false,
    }
}

#[cfg(target_os = "linux")]
fn wait_gone(pid: u32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[cfg(target_os = "linux")]
fn read_pid(path: &std::path::Path) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < deadline, "no pid written");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `broken/grandchild.py PIDFILE EXTRA...` over the hash-bytes cases, stopped at the first
/// error, each case given `case_timeout_ms`: the result and the pid the grandchild wrote.
fn run_grandchild(py: &str, extra: &[&str], case_timeout_ms: u64) -> (RunResult, u32) {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid");
    let suite = vectors().filtered(&["canon/hash-bytes.json".into()]);
    let (script, pidfile) = (broken("grandchild.py"), pidfile.display().to_string());
    let argv: Vec<&str> = [py, script.as_str(), pidfile.as_str()]
        .into_iter()
        .chain(extra.iter().copied())
        .collect();
    let result = run_command(&argv, &suite, &options(case_timeout_ms, Some(1)));
    (result, read_pid(&dir.path().join("pid")))
}

#[cfg(target_os = "linux")]
#[test]
fn a_grandchild_of_a_timed_out_wrapper_is_killed() {
    let Some(py) = python() else { return };
    let (result, pid) = run_grandchild(&py, &[], 300);
    assert_eq!(result.results[0].status, Status::Errored);
    assert!(message(&result, 0).contains("timeout"));
    assert!(wait_gone(pid), "grandchild {pid} still running");
}

#[cfg(target_os = "linux")]
#[test]
fn a_grandchild_left_behind_at_stop_is_killed() {
    let Some(py) = python() else { return };
    let (result, pid) = run_grandchild(&py, &["--answer"], 10_000);
    assert!(result.results.iter().all(|r| r.status == Status::Skipped));
    assert_eq!(result.starts, 1);
    assert!(wait_gone(pid), "grandchild {pid} still running");
}

#[test]
fn a_second_reply_is_blamed_on_the_case_it_answers() {
    let Some(py) = python() else { return };
    let suite = vectors().filtered(&["canon/hash-bytes.json".into()]);
    assert!(suite.len() >= 4);
    let result = run_command(
        &[&py, &broken("double_reply.py")],
        &suite,
        &options(10_000, Some(5)),
    );
    for (i, r) in result.results.iter().enumerate() {
        if i == 1 {
            assert_eq!(r.status, Status::Errored, "{:?}", r.message);
            let m = r.message.as_deref().unwrap();
            assert!(m.contains("another reply to this case"), "{m}");
            assert!(m.contains("passed before that"), "{m}");
        } else {
            assert_eq!(r.status, Status::Passed, "case {i}: {:?}", r.message);
        }
    }
    assert_eq!(result.starts, 1, "the stream stayed in sync: no restart");
}

#[test]
fn a_late_second_reply_at_stop_is_blamed_on_the_last_case() {
    let Some(py) = python() else { return };
    let suite = vectors().filtered(&["canon/hash-bytes.json".into()]);
    let n = suite.len();
    let result = run_command(
        &[&py, &broken("double_reply.py"), "--late"],
        &suite,
        &options(10_000, Some(5)),
    );
    for (i, r) in result.results.iter().enumerate() {
        let want = if i + 1 == n {
            Status::Errored
        } else {
            Status::Passed
        };
        assert_eq!(r.status, want, "case {i}: {:?}", r.message);
    }
    assert!(!result.success());
}

#[test]
fn the_adapter_runs_in_an_empty_directory_with_absolute_paths() {
    let Some(py) = python() else { return };
    let suite = vectors().filtered(&["canon/hash-bytes.json".into()]);
    let result = run_command(
        &[&py, &broken("cwd_probe.py")],
        &suite,
        &options(10_000, Some(2)),
    );
    for r in &result.results {
        assert_eq!(r.status, Status::Skipped, "{:?}", r.message);
        assert!(r.message.as_deref().unwrap().contains("empty cwd"));
    }
    // A relative script path still works: words naming existing paths are made absolute
    // before the child starts in its empty directory. (Only this test changes the current
    // directory; the others pass absolute paths.)
    let here = std::env::current_dir().unwrap();
    std::env::set_current_dir(root()).unwrap();
    let rel = "examples/adapters/python/citeproof_adapter.py";
    let result = run_command(&[&py, rel], &suite, &options(10_000, Some(2)));
    std::env::set_current_dir(here).unwrap();
    assert!(result.success(), "{:?}", result.results[0].message);
    assert!(result.results.iter().all(|r| r.status == Status::Passed));
}

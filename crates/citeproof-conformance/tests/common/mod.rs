//! Helpers of the integration tests.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::{
    path::{Path, PathBuf},
    process::Command,
    time::Duration,
};

use citeproof_conformance::{
    Profile, RunOptions, RunResult, Suite, Target, process::ProcessOptions, run,
};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

pub fn vectors() -> Suite {
    Suite::load(&root().join("vectors")).unwrap()
}

pub fn profile() -> Profile {
    Profile::load(&root().join("docs/PROFILE.md")).unwrap()
}

pub fn broken(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/broken_adapters")
        .join(name)
        .display()
        .to_string()
}

/// `python3`, or `None` (test skipped) when it is missing and CITEPROOF_REQUIRE_PYTHON is unset.
pub fn python() -> Option<String> {
    for candidate in ["python3", "python"] {
        if Command::new(candidate)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return Some(candidate.to_owned());
        }
    }
    assert!(
        std::env::var_os("CITEPROOF_REQUIRE_PYTHON").is_none(),
        "python3 is required (CITEPROOF_REQUIRE_PYTHON is set) but not found"
    );
    eprintln!("skipped: python3 not found");
    None
}

pub fn options(case_timeout_ms: u64, max_errors: Option<usize>) -> RunOptions {
    RunOptions {
        max_errors,
        xfail: Vec::new(),
        process: ProcessOptions {
            case_timeout: Duration::from_millis(case_timeout_ms),
            start_timeout: Duration::from_secs(20),
            ..ProcessOptions::default()
        },
        ..RunOptions::default()
    }
}

pub fn run_command(argv: &[&str], suite: &Suite, options: &RunOptions) -> RunResult {
    let mut target = Target::command(
        argv.iter().map(|s| (*s).to_owned()).collect(),
        options.process.clone(),
    );
    run(suite, &mut target, options, |_| {})
}

/// The message of the `i`th result (it must have one).
pub fn message(result: &RunResult, i: usize) -> &str {
    result.results[i]
        .message
        .as_deref()
        .unwrap_or_else(|| panic!("result {i} has no message"))
}

/// A suite made of vector files written to a temporary directory (files that do not load are
/// left out; the lint reports them).
pub fn temp_suite(files: &[(&str, serde_json::Value)]) -> (tempfile::TempDir, Suite) {
    let dir = tempfile::tempdir().unwrap();
    for (path, value) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, serde_json::to_string_pretty(value).unwrap()).unwrap();
    }
    let (suite, _) = Suite::load_lenient(dir.path());
    (dir, suite)
}

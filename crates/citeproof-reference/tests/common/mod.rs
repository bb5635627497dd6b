//! Helpers of the end-to-end tests: the committed suite run against the in-process reference.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use citeproof_conformance::{
    Profile, RunOptions, RunResult, Suite, Target, process::ProcessOptions, run,
};
use citeproof_reference::Reference;

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

pub fn run_reference(suite: &Suite, options: &RunOptions) -> RunResult {
    let mut target = Target::in_process(Box::new(Reference::new()));
    run(suite, &mut target, options, |_| {})
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

//! Helpers of the end-to-end tests: the committed suite run against the in-process reference.
//! The suite, profile, run options and temporary suites are the runner's own test helpers
//! (`citeproof-conformance/tests/common`), included rather than copied.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../../citeproof-conformance/tests/common/mod.rs"]
mod runner;

pub use runner::{options, profile, temp_suite, vectors};

use citeproof_conformance::{RunOptions, RunResult, Suite, Target, run};
use citeproof_reference::Reference;

pub fn run_reference(suite: &Suite, options: &RunOptions) -> RunResult {
    let mut target = Target::in_process(Box::new(Reference::new()));
    run(suite, &mut target, options, |_| {})
}

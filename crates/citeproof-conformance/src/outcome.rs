//! What a run decides for one case: its status, why it was skipped, and the case result.

use std::time::Duration;

use crate::{protocol::ResultReply, suite::Case};

/// Final status of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Passed,
    Failed,
    Skipped,
    Errored,
    /// Failed, and declared as an expected failure.
    Xfailed,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::Passed,
        Status::Failed,
        Status::Errored,
        Status::Skipped,
        Status::Xfailed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
            Status::Errored => "errored",
            Status::Xfailed => "xfailed",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a case was skipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SkipReason {
    /// The implementation does not announce the case's operation.
    Unsupported,
    /// The implementation answered `skipped`.
    Declined,
    /// The run ended early (`--max-errors`) before the case was sent.
    NotRun,
}

/// The outcome of one case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseResult {
    pub case: Case,
    pub status: Status,
    pub skip_reason: Option<SkipReason>,
    /// Why the case did not pass (or why it was skipped/errored), for people.
    pub message: Option<String>,
    /// The implementation's answer, when it gave one.
    pub actual: Option<ResultReply>,
    /// stderr written by the implementation during the case, when captured.
    pub stderr: Option<String>,
    pub duration: Duration,
}

//! What the engine's tests share: reports of each outcome, a failure of each rank, an output
//! that keeps its lines, and the error a test batch stops with.

#![allow(dead_code)]

use std::cell::RefCell;
use std::rc::Rc;

use citeproof_batch::{
    Batch, Input, LineFailure, Output, Rank, SerializeError, Settle, StoreError, Summary,
};
use citeproof_model::{Findings, Incident, IncidentCode, Location, Report, Subject, SubjectKind};
use serde::Serialize;
use serde_json::Value;

/// The spec-specific members of a test report.
#[derive(Debug, Clone, Serialize)]
pub struct Details {
    pub note: String,
}

pub type TestReport = Report<Details>;

/// A report on `name`: verified at level 1, or not (an error at level 1).
pub fn report(name: &str, verified: bool) -> TestReport {
    let mut findings = Findings::new();
    if !verified {
        findings.push(
            1,
            Incident::new(IncidentCode::SchemaViolation, "bad", Location::default()),
        );
    }
    Report::new(
        "aef",
        Subject::new(SubjectKind::File, name),
        findings.finish(1, 1),
        Details {
            note: "verified".into(),
        },
    )
}

/// An input that could not be verified.
#[derive(Debug)]
pub struct Fail(pub Rank);

impl LineFailure for Fail {
    fn rank(&self) -> Rank {
        self.0
    }
    fn code(&self) -> &str {
        match self.0 {
            Rank::Usage => "usage",
            _ => "input-unreadable",
        }
    }
    fn message(&self) -> &str {
        "cannot read it"
    }
}

/// Verifies a line by its words: `ok`, `bad`, `unreadable` or `usage` (first word).
pub fn by_word(line: &str) -> Result<TestReport, Fail> {
    match line.split_whitespace().next() {
        Some("ok") => Ok(report(line, true)),
        Some("bad") => Ok(report(line, false)),
        Some("usage") => Err(Fail(Rank::Usage)),
        _ => Err(Fail(Rank::CouldNotCheck)),
    }
}

/// Inputs with these texts, on lines 1, 2, ...
pub fn inputs(texts: &[&str]) -> Vec<Input> {
    texts
        .iter()
        .enumerate()
        .map(|(n, text)| Input {
            line: n + 1,
            text: (*text).to_owned(),
        })
        .collect()
}

/// Why a test batch stopped.
#[derive(Debug, PartialEq, Eq)]
pub enum Stop {
    Store(String),
    Output,
    Serialize,
}

impl From<String> for Stop {
    fn from(e: String) -> Stop {
        Stop::Store(e)
    }
}

impl From<StoreError> for Stop {
    fn from(e: StoreError) -> Stop {
        Stop::Store(e.to_string())
    }
}

impl From<()> for Stop {
    fn from((): ()) -> Stop {
        Stop::Output
    }
}

impl From<SerializeError> for Stop {
    fn from(_: SerializeError) -> Stop {
        Stop::Serialize
    }
}

/// Keeps every line and failed record, and what happened in which order (`events`, shared
/// with a settle), refusing lines after `fail_after` of them.
#[derive(Debug, Default)]
pub struct Kept {
    pub lines: Vec<Value>,
    pub events: Rc<RefCell<Vec<String>>>,
    pub fail_after: Option<usize>,
}

impl Output for Kept {
    type Error = ();

    fn line(&mut self, line: &Value) -> Result<(), ()> {
        if self.fail_after == Some(self.lines.len()) {
            return Err(());
        }
        self.events
            .borrow_mut()
            .push(format!("line {}", line["line"]));
        self.lines.push(line.clone());
        Ok(())
    }

    fn record_failed(&mut self, line: usize, message: &str) {
        self.events
            .borrow_mut()
            .push(format!("record failed {line}: {message}"));
    }
}

/// Runs a batch of `texts` verified by `verify`, settled by `settle`; the lines kept.
pub fn run_batch<S, V>(
    texts: &[&str],
    verify: V,
    settle: &mut S,
    output: &mut Kept,
) -> Result<Summary, Stop>
where
    S: Settle<Details>,
    Stop: From<S::Error>,
    V: Fn(&str) -> Result<TestReport, Fail> + Sync,
{
    citeproof_batch::run(
        &inputs(texts),
        Batch {
            command: "test verify",
            verify,
            settle,
            output,
            progress: || {},
        },
    )
}

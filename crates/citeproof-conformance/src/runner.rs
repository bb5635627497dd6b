//! Runs a suite against an implementation and decides the status of every case.

use std::time::{Duration, Instant};

use citeproof_model::protocol::Implementation;
use citeproof_model::vectors::Validity;
use serde_json::Value;

use crate::{
    glob,
    process::{ProcessOptions, Subprocess},
    protocol::{self, Answer, ImplementationInfo, Reply, ResultReply},
    suite::{Case, Expected, Suite},
};

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

/// Options of a run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// End the run after this many errored cases.
    pub max_errors: Option<usize>,
    /// Case-id globs of expected failures.
    pub xfail: Vec<String>,
    pub process: ProcessOptions,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            max_errors: Some(DEFAULT_MAX_ERRORS),
            xfail: Vec::new(),
            process: ProcessOptions::default(),
        }
    }
}

/// Default of `--max-errors`.
pub const DEFAULT_MAX_ERRORS: usize = 20;

/// An implementation called directly (the reference, a test double).
pub struct InProcess(pub Box<dyn Implementation>);

impl std::fmt::Debug for InProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("InProcess")
            .field(&self.0.info().name)
            .finish()
    }
}

/// The implementation under test.
#[derive(Debug)]
pub enum Target {
    /// An implementation in this process.
    InProcess(InProcess),
    /// A command speaking the adapter protocol.
    Command(Box<Subprocess>),
}

impl Target {
    pub fn in_process(implementation: Box<dyn Implementation>) -> Target {
        Target::InProcess(InProcess(implementation))
    }

    pub fn command(argv: Vec<String>, options: ProcessOptions) -> Target {
        Target::Command(Box::new(Subprocess::new(argv, options)))
    }

    fn start(&mut self) -> Result<ImplementationInfo, (String, Option<String>)> {
        match self {
            Target::InProcess(r) => Ok(r.0.info()),
            Target::Command(p) => p
                .ensure_started()
                .map_err(|e| (e.reply.err().unwrap_or_default(), e.stderr)),
        }
    }

    fn run(&mut self, seq: u64, case: &Case) -> (Result<Reply, String>, Option<String>) {
        match self {
            Target::InProcess(r) => {
                // The reference's replies go through the same wire checks as any adapter's.
                let reply = r.0.run(&case.operation, &case.input);
                let line = reply.to_json(seq).to_string();
                (protocol::parse_reply(line.as_bytes(), seq), None)
            }
            Target::Command(p) => {
                let ex = p.run_case(seq, &case.id, &case.operation, &case.input);
                (ex.reply, ex.stderr)
            }
        }
    }

    fn stop(&mut self) {
        if let Target::Command(p) = self {
            p.stop();
        }
    }

    /// `in-process` or the command line.
    pub fn describe(&self) -> String {
        match self {
            Target::InProcess(_) => "in-process".into(),
            Target::Command(p) => p.command_line(),
        }
    }

    /// How many times a command implementation was started (0 in-process).
    pub fn starts(&self) -> u32 {
        match self {
            Target::InProcess(_) => 0,
            Target::Command(p) => p.starts,
        }
    }
}

/// Everything a run produced.
#[derive(Debug, Clone)]
pub struct RunResult {
    /// What the implementation announced (the last hello), if it ever answered.
    pub implementation: Option<ImplementationInfo>,
    /// `in-process` or the command line.
    pub command: String,
    pub starts: u32,
    pub results: Vec<CaseResult>,
    /// Set when the run ended early.
    pub aborted: Option<String>,
    pub started_at: time::OffsetDateTime,
    pub duration: Duration,
}

impl RunResult {
    pub fn count(&self, status: Status) -> usize {
        self.results.iter().filter(|r| r.status == status).count()
    }

    /// True when nothing failed or errored and the run was not aborted.
    pub fn success(&self) -> bool {
        self.aborted.is_none()
            && self
                .results
                .iter()
                .all(|r| !matches!(r.status, Status::Failed | Status::Errored))
    }
}

/// Progress of a run, reported after each case.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    pub done: usize,
    pub total: usize,
    pub last: &'a CaseResult,
}

/// Runs every case of `suite` against `target`.
pub fn run(
    suite: &Suite,
    target: &mut Target,
    options: &RunOptions,
    mut on_progress: impl FnMut(Progress<'_>),
) -> RunResult {
    let started_at = time::OffsetDateTime::now_utc();
    let clock = Instant::now();
    let cases: Vec<&Case> = suite.cases().collect();
    let total = cases.len();
    let mut results = Vec::with_capacity(total);
    let mut implementation = None;
    let mut errored = 0usize;
    let mut aborted = None;
    let mut seq = 0u64;

    for case in cases {
        if aborted.is_some() {
            results.push(CaseResult {
                case: case.clone(),
                status: Status::Skipped,
                skip_reason: Some(SkipReason::NotRun),
                message: Some("not run: the run was aborted".into()),
                actual: None,
                stderr: None,
                duration: Duration::ZERO,
            });
            continue;
        }
        let case_clock = Instant::now();
        let mut result = match target.start() {
            Err((message, stderr)) => errored_result(
                case,
                format!("the implementation did not start: {message}"),
                stderr,
            ),
            Ok(info) => {
                let supported = info.supports(&case.operation);
                implementation = Some(info);
                if supported {
                    seq += 1;
                    let (reply, stderr) = target.run(seq, case);
                    judge(case, reply, stderr)
                } else {
                    CaseResult {
                        case: case.clone(),
                        status: Status::Skipped,
                        skip_reason: Some(SkipReason::Unsupported),
                        message: Some(format!(
                            "not run: the implementation does not support `{}`",
                            case.operation
                        )),
                        actual: None,
                        stderr: None,
                        duration: Duration::ZERO,
                    }
                }
            }
        };
        result.duration = case_clock.elapsed();
        apply_xfail(&mut result, &options.xfail);
        if result.status == Status::Errored {
            errored += 1;
            if let Some(max) = options.max_errors
                && errored >= max
            {
                aborted = Some(format!(
                    "the run was aborted after {errored} errored cases (--max-errors {max})"
                ));
            }
        }
        results.push(result);
        if let Some(last) = results.last() {
            on_progress(Progress {
                done: results.len(),
                total,
                last,
            });
        }
    }
    target.stop();
    if let Some(reason) = &aborted {
        for r in results.iter_mut() {
            if r.skip_reason == Some(SkipReason::NotRun) {
                r.message = Some(format!("not run: {reason}"));
            }
        }
    }
    RunResult {
        implementation,
        command: target.describe(),
        starts: target.starts(),
        results,
        aborted,
        started_at,
        duration: clock.elapsed(),
    }
}

fn errored_result(case: &Case, message: String, stderr: Option<String>) -> CaseResult {
    CaseResult {
        case: case.clone(),
        status: Status::Errored,
        skip_reason: None,
        message: Some(message),
        actual: None,
        stderr,
        duration: Duration::ZERO,
    }
}

fn judge(case: &Case, reply: Result<Reply, String>, stderr: Option<String>) -> CaseResult {
    let reply = match reply {
        Err(message) => return errored_result(case, message, stderr),
        Ok(r) => r,
    };
    let (status, skip_reason, message, actual) = match reply {
        Reply::Skipped { message } => (
            Status::Skipped,
            Some(SkipReason::Declined),
            Some(if message.is_empty() {
                "skipped by the implementation".to_owned()
            } else {
                format!("skipped by the implementation: {message}")
            }),
            None,
        ),
        Reply::Errored { message } => (
            Status::Errored,
            None,
            Some(format!("the implementation reported an error: {message}")),
            None,
        ),
        Reply::Result(actual) => match evaluate(&case.expected, &actual) {
            Ok(()) => (Status::Passed, None, None, Some(actual)),
            Err(why) => (Status::Failed, None, Some(why), Some(actual)),
        },
    };
    CaseResult {
        case: case.clone(),
        status,
        skip_reason,
        message,
        actual,
        stderr,
        duration: Duration::ZERO,
    }
}

fn apply_xfail(result: &mut CaseResult, xfail: &[String]) {
    let Some(pattern) = xfail.iter().find(|p| glob::matches(p, &result.case.id)) else {
        return;
    };
    match result.status {
        Status::Failed => {
            result.status = Status::Xfailed;
            let why = result.message.take().unwrap_or_default();
            result.message = Some(format!("expected failure (xfail `{pattern}`): {why}"));
        }
        Status::Passed => {
            result.status = Status::Failed;
            result.message = Some(format!(
                "declared as an expected failure (xfail `{pattern}`) but passed; remove it from the xfail list"
            ));
        }
        _ => {}
    }
}

/// Compares an answer with the expected result. `Err` says why the case failed.
pub fn evaluate(expected: &Expected, actual: &ResultReply) -> Result<(), String> {
    let answer = actual.result.unwrap_or(Answer::Invalid);
    match (expected.result, answer) {
        (Validity::Valid, Answer::Invalid) => {
            return Err(format!(
                "expected valid, got invalid with errors [{}]",
                actual.errors.join(", ")
            ));
        }
        (Validity::Invalid, Answer::Valid) => {
            return Err(format!(
                "expected invalid with errors [{}], got valid",
                expected.errors.join(", ")
            ));
        }
        (Validity::Invalid, Answer::Invalid) => compare_errors(expected, &actual.errors)?,
        (Validity::Valid, Answer::Valid) => {
            if let Some(want) = &expected.output {
                compare_output(want, actual.output.as_ref())?;
            }
        }
    }
    match &expected.warnings {
        Some(want) => compare_warnings(want, &actual.warnings),
        None => Ok(()),
    }
}

fn missing_codes<'a>(want: &'a [String], got: &[String]) -> Vec<&'a str> {
    want.iter()
        .filter(|c| !got.contains(c))
        .map(String::as_str)
        .collect()
}

fn compare_errors(expected: &Expected, got: &[String]) -> Result<(), String> {
    let missing = missing_codes(&expected.errors, got);
    let extra = if expected.errors_match.is_exact() {
        missing_codes(got, &expected.errors)
    } else {
        Vec::new()
    };
    if missing.is_empty() && extra.is_empty() {
        return Ok(());
    }
    let mut why = Vec::new();
    if !missing.is_empty() {
        why.push(format!("error codes [{}] are missing", missing.join(", ")));
    }
    if !extra.is_empty() {
        why.push(format!(
            "error codes [{}] were not expected (the case lists exactly [{}])",
            extra.join(", "),
            expected.errors.join(", ")
        ));
    }
    Err(format!(
        "invalid as expected, but {} (got [{}])",
        why.join(" and "),
        got.join(", ")
    ))
}

fn compare_warnings(want: &[String], got: &[String]) -> Result<(), String> {
    let missing = missing_codes(want, got);
    let extra = missing_codes(got, want);
    if missing.is_empty() && extra.is_empty() {
        return Ok(());
    }
    Err(format!(
        "warning codes differ: expected exactly [{}], got [{}]",
        want.join(", "),
        got.join(", ")
    ))
}

/// Every member of the expected output must be present and JSON-equal; other members of the
/// actual output are ignored.
fn compare_output(want: &Value, got: Option<&Value>) -> Result<(), String> {
    let Some(got) = got else {
        return Err(format!("expected output {want}, got no output"));
    };
    let (Some(want_obj), Some(got_obj)) = (want.as_object(), got.as_object()) else {
        return if json_equal(want, got) {
            Ok(())
        } else {
            Err(format!("expected output {want}, got {got}"))
        };
    };
    let mut diffs = Vec::new();
    for (key, w) in want_obj {
        match got_obj.get(key) {
            None => diffs.push(format!("`{key}`: expected {w}, missing")),
            Some(g) if !json_equal(w, g) => diffs.push(format!("`{key}`: expected {w}, got {g}")),
            Some(_) => {}
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!("wrong output: {}", diffs.join("; ")))
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`).
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if x.is_f64() || y.is_f64() {
                x.as_f64() == y.as_f64()
            } else {
                x == y
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// Reads an xfail file: one case-id glob per line; `#` starts a comment.
pub fn parse_xfail(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::suite::ErrorsMatch;

    fn expected(result: Validity, errors: &[&str], output: Option<Value>) -> Expected {
        Expected {
            result,
            errors: errors.iter().map(|s| (*s).to_owned()).collect(),
            errors_match: ErrorsMatch::Exact,
            warnings: None,
            output,
        }
    }

    fn reply(
        answer: Answer,
        errors: &[&str],
        warnings: &[&str],
        output: Option<Value>,
    ) -> ResultReply {
        ResultReply {
            result: Some(answer),
            errors: errors.iter().map(|s| (*s).to_owned()).collect(),
            warnings: warnings.iter().map(|s| (*s).to_owned()).collect(),
            output,
        }
    }

    #[test]
    fn evaluation_rules() {
        let v = expected(Validity::Valid, &[], Some(json!({"hash": "h"})));
        assert!(
            evaluate(
                &v,
                &reply(
                    Answer::Valid,
                    &[],
                    &[],
                    Some(json!({"hash": "h", "extra": 1}))
                )
            )
            .is_ok()
        );
        assert!(
            evaluate(
                &v,
                &reply(Answer::Valid, &[], &[], Some(json!({"hash": "x"})))
            )
            .is_err()
        );
        assert!(evaluate(&v, &reply(Answer::Valid, &[], &[], None)).is_err());
        assert!(evaluate(&v, &reply(Answer::Invalid, &["a"], &[], None)).is_err());

        let mut i = expected(Validity::Invalid, &["a", "b"], None);
        assert!(evaluate(&i, &reply(Answer::Invalid, &["b", "a"], &[], None)).is_ok());
        // Exact by default: listing every registered code does not pass.
        assert!(evaluate(&i, &reply(Answer::Invalid, &["b", "a", "c"], &[], None)).is_err());
        assert!(evaluate(&i, &reply(Answer::Invalid, &["a"], &[], None)).is_err());
        assert!(evaluate(&i, &reply(Answer::Valid, &[], &[], None)).is_err());
        i.errors_match = ErrorsMatch::Superset;
        assert!(evaluate(&i, &reply(Answer::Invalid, &["b", "a", "c"], &[], None)).is_ok());
        assert!(evaluate(&i, &reply(Answer::Invalid, &["a", "c"], &[], None)).is_err());

        // Warnings, when listed, are asserted in both directions and on either result.
        let mut w = expected(Validity::Valid, &[], None);
        w.warnings = Some(vec!["w".into()]);
        assert!(evaluate(&w, &reply(Answer::Valid, &[], &["w"], None)).is_ok());
        assert!(evaluate(&w, &reply(Answer::Valid, &[], &[], None)).is_err());
        assert!(evaluate(&w, &reply(Answer::Valid, &[], &["w", "x"], None)).is_err());
        w.warnings = Some(Vec::new());
        assert!(evaluate(&w, &reply(Answer::Valid, &[], &["w"], None)).is_err());
        let mut iw = expected(Validity::Invalid, &["a"], None);
        iw.warnings = Some(vec!["w".into()]);
        assert!(evaluate(&iw, &reply(Answer::Invalid, &["a"], &["w"], None)).is_ok());
        assert!(evaluate(&iw, &reply(Answer::Invalid, &["a"], &[], None)).is_err());

        // Rejecting a document over a SHOULD fails a case that expects it valid with a warning
        // (warnings never lower a level).
        assert!(evaluate(&w, &reply(Answer::Invalid, &["w"], &[], None)).is_err());
    }

    #[test]
    fn numbers_compare_by_value_nested_objects_exactly() {
        assert!(json_equal(&json!({"level": 1}), &json!({"level": 1.0})));
        assert!(!json_equal(&json!([{"a": 1}]), &json!([{"a": 1, "b": 2}])));
    }

    #[test]
    fn xfail_parsing_and_strictness() {
        assert_eq!(
            parse_xfail("# header\naef-*  # not done\n\n  canon-x\n"),
            ["aef-*", "canon-x"]
        );
    }
}

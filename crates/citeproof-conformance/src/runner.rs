//! Runs a suite against an implementation and decides the status of every case.

use std::time::{Duration, Instant};

use citeproof_model::vectors::Validity;
use serde_json::Value;

use crate::{
    process::{ProcessOptions, Stray},
    protocol::{Answer, ImplementationInfo, Reply, ResultReply},
    suite::{Case, Expected, Suite},
    variants::{self, Dropped, VariantPlan, VariantRng},
};

use crate::xfail::apply_xfail;
pub use crate::{
    outcome::{CaseResult, SkipReason, Status},
    target::{InProcess, Target},
    xfail::{parse_xfail, unmatched_xfail},
};

/// Options of a run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// End the run after this many errored cases.
    pub max_errors: Option<usize>,
    /// Case-id globs of expected failures (a glob that matches a case covers its variants).
    pub xfail: Vec<String>,
    pub process: ProcessOptions,
    /// The seed of every random choice of the run (tokens, order, variants); `None`: a fresh
    /// one, reported with the run.
    pub seed: Option<u64>,
    /// Derive generated variants with this plan; `None`: static cases only.
    pub variants: Option<VariantPlan>,
    /// Send the cases in a random order (from the seed) instead of suite order.
    pub shuffle: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            max_errors: Some(DEFAULT_MAX_ERRORS),
            xfail: Vec::new(),
            process: ProcessOptions::default(),
            seed: None,
            variants: None,
            shuffle: false,
        }
    }
}

/// Default of `--max-errors`.
pub const DEFAULT_MAX_ERRORS: usize = 20;

/// What a run generated besides the static cases.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GenerationReport {
    /// Variants run (generated and kept).
    pub generated: usize,
    /// Variants the oracle disagreed with: generator bugs, reported, not run.
    pub dropped: Vec<Dropped>,
    /// Static cases not derived from, and why.
    pub not_derived: Vec<(String, String)>,
    /// Static cases of operations without a transform.
    pub no_transform: usize,
}

/// Everything a run produced.
#[derive(Debug, Clone)]
pub struct RunResult {
    /// What the implementation announced (the last hello), if it ever answered.
    pub implementation: Option<ImplementationInfo>,
    /// `in-process` or the command line.
    pub command: String,
    pub starts: u32,
    /// Static cases (suite order) then generated ones (derivation order).
    pub results: Vec<CaseResult>,
    /// The seed of the run's random choices (`--seed` reproduces the run).
    pub seed: u64,
    /// Whether the cases were sent in a random order.
    pub shuffled: bool,
    /// `None` when the run had no generated variants (`--no-variants`).
    pub generation: Option<GenerationReport>,
    /// Set when the run ended early.
    pub aborted: Option<String>,
    /// Set when the implementation never answered a hello (a program that cannot be started,
    /// a handshake that fails or times out on the first start): nothing could be checked.
    /// The message and the stderr the program wrote.
    pub start_failure: Option<(String, Option<String>)>,
    /// What was selected of the suite (copied from the suite that was run).
    pub selection: crate::claim::Selection,
    pub started_at: time::OffsetDateTime,
    pub duration: Duration,
}

impl RunResult {
    pub fn count(&self, status: Status) -> usize {
        self.results.iter().filter(|r| r.status == status).count()
    }

    /// True when the implementation could not be started: no case was checked.
    pub fn could_not_start(&self) -> bool {
        self.start_failure.is_some()
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

/// Runs every case of `suite` (and the variants derived from it, with `options.variants`)
/// against `target`. Cases go on the wire under opaque per-run tokens, never their ids.
pub fn run(
    suite: &Suite,
    target: &mut Target,
    options: &RunOptions,
    mut on_progress: impl FnMut(Progress<'_>),
) -> RunResult {
    let started_at = time::OffsetDateTime::now_utc();
    let clock = Instant::now();
    let seed = options.seed.unwrap_or_else(variants::fresh_seed);
    let statics: Vec<&Case> = suite.cases().collect();
    let generation = options
        .variants
        .as_ref()
        .map(|plan| variants::generate(&statics, plan, seed));
    let mut cases: Vec<&Case> = statics;
    if let Some(g) = &generation {
        cases.extend(g.cases.iter());
    }
    let total = cases.len();
    let mut order: Vec<usize> = (0..total).collect();
    let mut run_rng = VariantRng::new(seed ^ 0x7275_6e6f_7264_6572);
    if options.shuffle {
        run_rng.shuffle(&mut order);
    }
    let mut slots: Vec<Option<CaseResult>> = vec![None; total];
    let mut seq_index: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let mut implementation = None;
    let mut errored = 0usize;
    let mut aborted = None;
    let mut start_failure = None;
    let mut seq = 0u64;
    let mut done = 0usize;

    for &index in &order {
        let Some(case) = cases.get(index).copied() else {
            continue;
        };
        if aborted.is_some() {
            slots[index] = Some(not_run(case));
            continue;
        }
        let case_clock = Instant::now();
        let mut result = match target.start() {
            // Never started: one failure for the run, not one errored case per case.
            Err((message, stderr)) if implementation.is_none() => {
                aborted = Some(format!(
                    "the implementation could not be started: {message}"
                ));
                start_failure = Some((message, stderr));
                slots[index] = Some(not_run(case));
                continue;
            }
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
                    seq_index.insert(seq, index);
                    let token = run_rng.token();
                    send(target, seq, &token, case, seed)
                } else {
                    unsupported(case)
                }
            }
        };
        result.duration = case_clock.elapsed();
        apply_xfail(&mut result, &options.xfail);
        if result.status == Status::Errored {
            errored += 1;
        }
        slots[index] = Some(result);
        errored += blame_strays(target.take_strays(), &seq_index, &mut slots);
        if let Some(max) = options.max_errors
            && errored >= max
            && aborted.is_none()
        {
            aborted = Some(format!(
                "the run was aborted after {errored} errored cases (--max-errors {max})"
            ));
        }
        done += 1;
        if let Some(last) = slots[index].as_ref() {
            on_progress(Progress { done, total, last });
        }
    }
    target.stop();
    blame_strays(target.take_strays(), &seq_index, &mut slots);
    let mut results: Vec<CaseResult> = slots.into_iter().flatten().collect();
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
        seed,
        shuffled: options.shuffle,
        generation: generation.map(|g| GenerationReport {
            generated: g.cases.len(),
            dropped: g.dropped,
            not_derived: g.not_derived,
            no_transform: g.no_transform,
        }),
        aborted,
        start_failure,
        selection: suite.selection.clone(),
        started_at,
        duration: clock.elapsed(),
    }
}

/// Sends one case under `token` and judges the reply. A generated case's input goes on the
/// wire with its members shuffled (from the seed and its id, so a rerun sends the same text).
fn send(target: &mut Target, seq: u64, token: &str, case: &Case, seed: u64) -> CaseResult {
    let (reply, stderr) = target.run(seq, token, case, || {
        if case.origin.is_generated() {
            variants::to_text_shuffled(&case.input, &mut VariantRng::for_label(seed, &case.id))
        } else {
            case.input.to_string()
        }
    });
    judge(case, reply, stderr)
}

/// A case of an operation the implementation does not announce: skipped without being sent.
fn unsupported(case: &Case) -> CaseResult {
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

/// A case the run did not reach; its message is completed once the reason is known.
fn not_run(case: &Case) -> CaseResult {
    CaseResult {
        case: case.clone(),
        status: Status::Skipped,
        skip_reason: Some(SkipReason::NotRun),
        message: Some("not run: the run was aborted".into()),
        actual: None,
        stderr: None,
        duration: Duration::ZERO,
    }
}

/// Records second replies against the cases they belong to; returns how many cases became
/// errored.
fn blame_strays(
    strays: Vec<Stray>,
    seq_index: &std::collections::HashMap<u64, usize>,
    slots: &mut [Option<CaseResult>],
) -> usize {
    let mut newly = 0;
    for stray in strays {
        let Some(result) = seq_index
            .get(&stray.seq)
            .and_then(|i| slots.get_mut(*i))
            .and_then(Option::as_mut)
        else {
            continue;
        };
        if result.status != Status::Errored {
            newly += 1;
        }
        let before = match (&result.status, &result.message) {
            (Status::Errored, Some(m)) => format!("; also: {m}"),
            (status, _) => format!(" (its answer was {status} before that)"),
        };
        result.status = Status::Errored;
        result.message = Some(format!("{}{before}", stray.message));
    }
    newly
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
        (Validity::Invalid, Answer::Invalid) => {
            compare_errors(expected, &actual.errors)?;
            // Operations whose invalid answers carry output (chain-verify's verdicts).
            if let Some(want) = &expected.output {
                compare_output(want, actual.output.as_ref())?;
            }
        }
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

        // An invalid case with an expected output (chain-verify's verdicts) compares it too:
        // the right codes with the wrong verdict fail.
        let verdict = expected(
            Validity::Invalid,
            &["a"],
            Some(json!({"verdicts": {"x": "tampered"}})),
        );
        let answer = |v: &str| Some(json!({"verdicts": {"x": v}, "level": 0}));
        assert!(
            evaluate(
                &verdict,
                &reply(Answer::Invalid, &["a"], &[], answer("tampered"))
            )
            .is_ok()
        );
        assert!(
            evaluate(
                &verdict,
                &reply(Answer::Invalid, &["a"], &[], answer("verified"))
            )
            .is_err()
        );
        assert!(evaluate(&verdict, &reply(Answer::Invalid, &["a"], &[], None)).is_err());
    }

    #[test]
    fn numbers_compare_by_value_nested_objects_exactly() {
        assert!(json_equal(&json!({"level": 1}), &json!({"level": 1.0})));
        assert!(!json_equal(&json!([{"a": 1}]), &json!([{"a": 1, "b": 2}])));
    }
}

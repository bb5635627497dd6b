//! Runs a suite against an implementation and decides the status of every case.

use std::time::{Duration, Instant};

use crate::{
    process::{ProcessOptions, Stray},
    protocol::{ImplementationInfo, Reply},
    suite::{Case, Suite},
    variants::{self, Dropped, VariantPlan, VariantRng},
};

use crate::xfail::apply_xfail;
pub use crate::{
    evaluate::{evaluate, json_equal},
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
    let mut session = Session::new(options, seed, total);
    if options.shuffle {
        session.rng.shuffle(&mut order);
    }
    let mut done = 0usize;
    for &index in &order {
        let Some(case) = cases.get(index).copied() else {
            continue;
        };
        if !session.run_case(target, index, case) {
            continue;
        }
        done += 1;
        if let Some(last) = session.slots[index].as_ref() {
            on_progress(Progress { done, total, last });
        }
    }
    target.stop();
    blame_strays(target.take_strays(), &session.seq_index, &mut session.slots);
    let mut results: Vec<CaseResult> = session.slots.into_iter().flatten().collect();
    if let Some(reason) = &session.aborted {
        for r in results.iter_mut() {
            if r.skip_reason == Some(SkipReason::NotRun) {
                r.message = Some(format!("not run: {reason}"));
            }
        }
    }
    RunResult {
        implementation: session.implementation,
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
        aborted: session.aborted,
        start_failure: session.start_failure,
        selection: suite.selection.clone(),
        started_at,
        duration: clock.elapsed(),
    }
}

/// What a run knows between cases.
struct Session<'o> {
    options: &'o RunOptions,
    seed: u64,
    rng: VariantRng,
    slots: Vec<Option<CaseResult>>,
    /// The case index of each sequence number sent (for replies that come late).
    seq_index: std::collections::HashMap<u64, usize>,
    implementation: Option<ImplementationInfo>,
    errored: usize,
    aborted: Option<String>,
    start_failure: Option<(String, Option<String>)>,
    seq: u64,
}

impl<'o> Session<'o> {
    fn new(options: &'o RunOptions, seed: u64, total: usize) -> Session<'o> {
        Session {
            options,
            seed,
            rng: VariantRng::new(seed ^ 0x7275_6e6f_7264_6572),
            slots: vec![None; total],
            seq_index: std::collections::HashMap::new(),
            implementation: None,
            errored: 0,
            aborted: None,
            start_failure: None,
            seq: 0,
        }
    }

    /// Runs one case into its slot; `false` when it was not run (the run was aborted, or the
    /// implementation never started).
    fn run_case(&mut self, target: &mut Target, index: usize, case: &Case) -> bool {
        if self.aborted.is_some() {
            self.slots[index] = Some(not_run(case));
            return false;
        }
        let case_clock = Instant::now();
        let mut result = match target.start() {
            // Never started: one failure for the run, not one errored case per case.
            Err((message, stderr)) if self.implementation.is_none() => {
                self.aborted = Some(format!(
                    "the implementation could not be started: {message}"
                ));
                self.start_failure = Some((message, stderr));
                self.slots[index] = Some(not_run(case));
                return false;
            }
            Err((message, stderr)) => errored_result(
                case,
                format!("the implementation did not start: {message}"),
                stderr,
            ),
            Ok(info) => {
                let supported = info.supports(&case.operation);
                self.implementation = Some(info);
                if supported {
                    self.seq += 1;
                    self.seq_index.insert(self.seq, index);
                    let token = self.rng.token();
                    send(target, self.seq, &token, case, self.seed)
                } else {
                    unsupported(case)
                }
            }
        };
        result.duration = case_clock.elapsed();
        apply_xfail(&mut result, &self.options.xfail);
        if result.status == Status::Errored {
            self.errored += 1;
        }
        self.slots[index] = Some(result);
        self.errored += blame_strays(target.take_strays(), &self.seq_index, &mut self.slots);
        if let Some(max) = self.options.max_errors
            && self.errored >= max
            && self.aborted.is_none()
        {
            self.aborted = Some(format!(
                "the run was aborted after {} errored cases (--max-errors {max})",
                self.errored
            ));
        }
        true
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

//! The engine: verify in parallel, settle and write in input order, count the worst.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use citeproof_model::{Outcome, Report};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::input::Input;

/// What one input came to, ordered from best to worst: the exit status of a batch is that of
/// its worst input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// Verified (exit 0).
    Verified,
    /// Could not be checked (exit 3): an unreadable input, a network failure.
    CouldNotCheck,
    /// Checked and found wanting (exit 1).
    NotVerified,
    /// The input line itself is a usage error (exit 2).
    Usage,
}

impl Rank {
    /// The rank of a report's outcome.
    pub fn of_outcome(outcome: Outcome) -> Rank {
        match outcome {
            Outcome::Verified => Rank::Verified,
            Outcome::CouldNotCheck => Rank::CouldNotCheck,
            Outcome::NotVerified => Rank::NotVerified,
        }
    }

    /// The exit status of a single verify that came to this.
    pub fn exit_status(self) -> u8 {
        match self {
            Rank::Verified => 0,
            Rank::NotVerified => 1,
            Rank::Usage => 2,
            Rank::CouldNotCheck => 3,
        }
    }

    /// The `outcome` member of a line.
    pub fn outcome_word(self) -> &'static str {
        match self {
            Rank::Verified => "verified",
            Rank::CouldNotCheck => "could-not-check",
            Rank::NotVerified => "not-verified",
            Rank::Usage => "usage-error",
        }
    }
}

/// An input that could not be verified at all (an unreadable file, a malformed line): its line
/// carries `error: {code, message}` and the outcome of its rank.
pub trait LineFailure {
    /// What it counts as.
    fn rank(&self) -> Rank;
    /// Its stable code (`error.code`).
    fn code(&self) -> &str;
    /// Its message (`error.message`).
    fn message(&self) -> &str;
}

/// What happens to each report of a batch, in input order, before its line is written.
pub trait Settle<D> {
    /// Why the batch cannot go on (a store that cannot be read).
    type Error;
    /// Resume: the record the store already holds for this input and configuration (the input
    /// is then not verified again).
    fn recorded(&mut self, input: &Input) -> Result<Option<Resumed>, Self::Error>;
    /// Settles what depends on the earlier lines and records `report`.
    fn settle(&mut self, input: &Input, report: &mut Report<D>) -> Recorded;
}

/// A record a resumed batch found for an input: its line repeats that verdict, with the time
/// it was verified, never as a verdict of now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resumed {
    /// The record's id in the store.
    pub id: i64,
    /// The outcome recorded then.
    pub outcome: Outcome,
    /// When that verification ran (Unix seconds).
    pub verified_at: i64,
}

/// What became of a report's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recorded {
    /// Nothing to record into.
    NotAsked,
    /// Recorded under this id.
    As(i64),
    /// The record failed, with the message to say.
    Failed(String),
}

/// Where a batch's lines go, in input order.
pub trait Output {
    /// Why a line could not be written (the batch stops).
    type Error;
    /// One JSON line: the input's report object, or its error object, with `input` and `line`.
    fn line(&mut self, line: &Value) -> Result<(), Self::Error>;
    /// A record that failed, said as soon as it is known, before the input's line.
    fn record_failed(&mut self, line: usize, message: &str);
}

/// A report that cannot be serialized.
#[derive(Debug, thiserror::Error)]
#[error("cannot serialize the report: {0}")]
pub struct SerializeError(#[from] serde_json::Error);

/// The JSON object of a report (a line of a batch, and the `--json` object of a single
/// verify): `command`, `ok`, `incidents`, then the report's members.
pub fn report_value<D: Serialize>(
    command: &str,
    report: &Report<D>,
) -> Result<Value, SerializeError> {
    let mut obj = Map::new();
    obj.insert("command".into(), Value::String(command.to_owned()));
    obj.insert("ok".into(), Value::Bool(report.verdict.verified));
    obj.insert(
        "incidents".into(),
        serde_json::to_value(&report.verdict.incidents)?,
    );
    if let Value::Object(members) = serde_json::to_value(report)? {
        for (k, v) in members {
            obj.entry(k).or_insert(v);
        }
    }
    Ok(Value::Object(obj))
}

/// The work of one batch besides its inputs: what a line is verified with, settled with and
/// written to.
#[derive(Debug)]
pub struct Batch<'a, V, S: ?Sized, O: ?Sized, P> {
    /// The command the lines name (`"chain verify"`).
    pub command: &'a str,
    /// Verifies one input line, as the command verifies its argument (called in parallel).
    pub verify: V,
    /// Settles and records each report in input order.
    pub settle: &'a mut S,
    /// Receives the lines in input order.
    pub output: &'a mut O,
    /// Called once per input verified (from the worker threads): progress.
    pub progress: P,
}

/// Verifies every input with `batch.verify` (in parallel, on rayon's pool), settles each report
/// with `batch.settle` in input order, and writes one line per input in input order as soon as
/// the lines before it are done. An input that `settle` finds recorded already is not verified
/// again. Returns the counts and the worst rank; stops at the first error of `settle`'s resume
/// look-up or of the output (the inputs not yet verified are then skipped).
pub fn run<D, E, F, V, S, O, P>(
    inputs: &[Input],
    batch: Batch<'_, V, S, O, P>,
) -> Result<Summary, F>
where
    D: Serialize + Send,
    E: LineFailure + Send,
    V: Fn(&str) -> Result<Report<D>, E> + Sync,
    S: Settle<D> + ?Sized,
    O: Output + ?Sized,
    P: Fn() + Sync,
    F: From<S::Error> + From<O::Error> + From<SerializeError>,
{
    let Batch {
        command,
        verify,
        settle,
        output,
        progress,
    } = batch;
    let mut resumed = Vec::with_capacity(inputs.len());
    for input in inputs {
        resumed.push(settle.recorded(input)?);
    }
    let mut tally = Tally::default();
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<Report<D>, E>)>();
        let work: Vec<usize> = (0..inputs.len())
            .filter(|n| resumed[*n].is_none())
            .collect();
        let (verify, progress, stop_ref) = (&verify, &progress, &stop);
        scope.spawn(move || {
            work.par_iter().for_each_with(tx, |tx, &n| {
                // Output closed: nobody reads the rest.
                if stop_ref.load(Ordering::Relaxed) {
                    return;
                }
                let r = verify(&inputs[n].text);
                progress();
                // The receiver stops only on an output error; the rest is not needed then.
                let _ = tx.send((n, r));
            });
        });
        let mut pending = BTreeMap::new();
        let mut next = 0;
        let mut write_ready = |pending: &mut BTreeMap<usize, _>| {
            while next < inputs.len() {
                let input = &inputs[next];
                let line = match resumed[next] {
                    Some(recorded) => tally.resumed(command, recorded),
                    None => match pending.remove(&next) {
                        None => return Ok(()),
                        Some(result) => tally.finished(command, input, result, settle, output)?,
                    },
                };
                output.line(&with_input(line, input))?;
                next += 1;
            }
            Ok::<_, F>(())
        };
        let mut written = write_ready(&mut pending);
        for (n, result) in rx.iter() {
            if written.is_err() {
                break;
            }
            pending.insert(n, result);
            written = write_ready(&mut pending);
        }
        if written.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        written
    })?;
    Ok(Summary {
        total: inputs.len(),
        tally,
    })
}

fn with_input(mut line: Value, input: &Input) -> Value {
    if let Value::Object(obj) = &mut line {
        obj.insert("input".into(), Value::String(input.text.clone()));
        obj.insert("line".into(), json!(input.line));
    }
    line
}

/// Counts per rank, the worst one, and failed records.
#[derive(Debug, Default)]
struct Tally {
    counts: [usize; 4],
    worst: Option<Rank>,
    resumed: usize,
    record_errors: usize,
}

impl Tally {
    fn count(&mut self, rank: Rank) {
        self.counts[rank as usize] += 1;
        self.worst = Some(self.worst.map_or(rank, |w| w.max(rank)));
    }

    /// The line of an input the store already holds.
    fn resumed(&mut self, command: &str, recorded: Resumed) -> Value {
        self.resumed += 1;
        let rank = Rank::of_outcome(recorded.outcome);
        self.count(rank);
        let verified_at = citeproof_model::Timestamp::from_unix(recorded.verified_at)
            .map_or_else(|_| json!(recorded.verified_at), |t| json!(t.to_string()));
        json!({"command": command, "ok": recorded.outcome == Outcome::Verified, "incidents": [],
               "outcome": rank.outcome_word(), "skipped": true, "recorded_as": recorded.id,
               "verified_at": verified_at})
    }

    /// The line of a verified input, settled and recorded.
    fn finished<D, E, S, O>(
        &mut self,
        command: &str,
        input: &Input,
        result: Result<Report<D>, E>,
        settle: &mut S,
        output: &mut O,
    ) -> Result<Value, SerializeError>
    where
        D: Serialize,
        E: LineFailure,
        S: Settle<D> + ?Sized,
        O: Output + ?Sized,
    {
        let mut report = match result {
            Ok(report) => report,
            Err(failure) => {
                let rank = failure.rank();
                self.count(rank);
                return Ok(json!({
                    "command": command,
                    "ok": false,
                    "incidents": [],
                    "outcome": rank.outcome_word(),
                    "error": {"code": failure.code(), "message": failure.message()},
                }));
            }
        };
        let recorded = settle.settle(input, &mut report);
        self.count(Rank::of_outcome(report.outcome));
        let mut line = report_value(command, &report)?;
        if let Value::Object(obj) = &mut line {
            match recorded {
                Recorded::NotAsked => {}
                Recorded::As(id) => {
                    obj.insert("recorded_as".into(), json!(id));
                }
                Recorded::Failed(message) => {
                    self.record_errors += 1;
                    output.record_failed(input.line, &message);
                    obj.insert("record_error".into(), json!(message));
                }
            }
        }
        Ok(line)
    }
}

/// What a batch came to: its counts (the summary line, [`std::fmt::Display`]) and its exit
/// status.
#[derive(Debug)]
pub struct Summary {
    total: usize,
    tally: Tally,
}

impl Summary {
    /// The inputs that came to `rank`.
    pub fn count(&self, rank: Rank) -> usize {
        self.tally.counts[rank as usize]
    }

    /// The exit status: the worst rank's, worst last (0 verified, 3 could not check, 1 not
    /// verified, 2 usage error); a failed record exits 3 whatever the verdicts, as a single
    /// verify's does.
    pub fn exit_status(&self) -> u8 {
        if self.tally.record_errors > 0 {
            return 3;
        }
        self.tally.worst.unwrap_or(Rank::Verified).exit_status()
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} inputs: {} verified, {} not verified, {} could not be checked, {} usage errors",
            self.total,
            self.count(Rank::Verified),
            self.count(Rank::NotVerified),
            self.count(Rank::CouldNotCheck),
            self.count(Rank::Usage),
        )?;
        if self.tally.resumed > 0 {
            write!(
                f,
                " ({} already recorded, not verified again)",
                self.tally.resumed
            )?;
        }
        if self.tally.record_errors > 0 {
            write!(f, "; {} NOT recorded", self.tally.record_errors)?;
        }
        Ok(())
    }
}

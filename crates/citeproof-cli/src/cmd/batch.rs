//! `--batch FILE|-` of every `verify`: many inputs in one process, on every core.
//!
//! Each line of FILE (`-`: standard input) is one input, as the command would take it as its
//! argument (a URL, a snapshot or document path); empty lines and lines starting with `#` are
//! skipped. The verifications run in parallel (rayon, every core); their results are then taken
//! in input order, so that anything order-dependent (ACA's manifest reuse against the audit
//! store and the earlier lines, recording) does not depend on timing. Each input prints one JSON
//! line: the command's `--json` object plus `input` (the line as given) and `line` (its number).
//! An input that could not be verified at all (an unreadable file) prints the `--json` error
//! object (`error: {code, message}`) with its `outcome` and the same two members.
//!
//! The exit status is the worst over the inputs, worst last: 0 (all verified), 3 (some could
//! not be checked, none found wanting), 1 (some not verified), 2 (some input was a usage error).
//!
//! Wiring a verify is one call, from its `run` when `--batch` is given:
//!
//! ```ignore
//! use crate::cmd::batch;
//! // `verify_input`: Fn(&str) -> Result<Report<D>, Failure> + Sync, one input line in, the
//! // report out (D: Serialize + Send), exactly as the command verifies its argument.
//! return batch::run("chain verify", path, verify_input, batch::no_settle);
//! ```
//!
//! `settle` (here `batch::no_settle`) runs on each report in input order before it is printed:
//! ACA uses it for reuse across responses and `--record`.

use std::io::BufRead;
use std::process::ExitCode;

use citeproof_model::{Outcome, Report};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Value, json};

use crate::cmd::Failure;
use crate::cmd::common::report_value;
use crate::out;

/// Longest line of a batch file, and most lines.
const MAX_LINE_BYTES: usize = 64 * 1024;
const MAX_LINES: usize = 1_000_000;

/// One input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// 1-based line number in the batch file.
    pub line: usize,
    /// The line, trimmed.
    pub text: String,
}

/// Reads the inputs of a batch file (`-`: standard input).
pub fn read_inputs(path: &str) -> Result<Vec<Input>, Failure> {
    let mut reader: Box<dyn BufRead> = if path == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| Failure::Unreadable(format!("cannot read {path}: {e}")))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut inputs = Vec::new();
    for n in 1.. {
        let mut line = String::new();
        let got = std::io::Read::take(&mut reader, MAX_LINE_BYTES as u64 + 1)
            .read_line(&mut line)
            .map_err(|e| Failure::Unreadable(format!("{path}: line {n}: {e}")))?;
        if got == 0 {
            break;
        }
        if line.len() > MAX_LINE_BYTES && !line.ends_with('\n') {
            return Err(Failure::Usage(format!(
                "{path}: line {n} is longer than {MAX_LINE_BYTES} bytes"
            )));
        }
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if inputs.len() == MAX_LINES {
            return Err(Failure::Usage(format!(
                "{path}: more than {MAX_LINES} lines"
            )));
        }
        inputs.push(Input {
            line: n,
            text: text.to_owned(),
        });
    }
    Ok(inputs)
}

/// No settling step.
pub fn no_settle<D>(_input: &Input, _report: &mut Report<D>) -> Result<(), Failure> {
    Ok(())
}

/// What one input came to, for the exit status and the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Verified,
    CouldNotCheck,
    NotVerified,
    Usage,
}

impl Rank {
    fn of_outcome(outcome: Outcome) -> Rank {
        match outcome {
            Outcome::Verified => Rank::Verified,
            Outcome::CouldNotCheck => Rank::CouldNotCheck,
            Outcome::NotVerified => Rank::NotVerified,
        }
    }

    fn of_failure(failure: &Failure) -> Rank {
        match failure {
            Failure::Unreadable(_) => Rank::CouldNotCheck,
            Failure::Invalid(_) => Rank::NotVerified,
            Failure::Usage(_) => Rank::Usage,
        }
    }

    fn exit_status(self) -> u8 {
        match self {
            Rank::Verified => 0,
            Rank::NotVerified => 1,
            Rank::Usage => 2,
            Rank::CouldNotCheck => 3,
        }
    }

    fn outcome_word(self) -> &'static str {
        match self {
            Rank::Verified => "verified",
            Rank::CouldNotCheck => "could-not-check",
            Rank::NotVerified => "not-verified",
            Rank::Usage => "usage-error",
        }
    }
}

fn progress(total: usize) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(u64::try_from(total).unwrap_or(u64::MAX));
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {pos}/{len} inputs verified [{elapsed}] {wide_bar}",
    ) {
        bar.set_style(style);
    }
    bar
}

/// Verifies every input of the batch file at `path` with `verify` (in parallel), runs `settle`
/// on each report in input order, and prints one JSON line per input in input order. Returns
/// the worst exit status (module docs).
pub fn run<D, V, S>(
    command: &str,
    path: &str,
    verify: V,
    mut settle: S,
) -> Result<ExitCode, Failure>
where
    D: Serialize + Send,
    V: Fn(&str) -> Result<Report<D>, Failure> + Sync,
    S: FnMut(&Input, &mut Report<D>) -> Result<(), Failure>,
{
    let inputs = read_inputs(path)?;
    let bar = progress(inputs.len());
    let results: Vec<Result<Report<D>, Failure>> = inputs
        .par_iter()
        .map(|input| {
            let r = verify(&input.text);
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    let mut counts = [0usize; 4];
    let mut worst = Rank::Verified;
    for (input, result) in inputs.iter().zip(results) {
        let (rank, mut line) = match result {
            Ok(mut report) => {
                settle(input, &mut report)?;
                (
                    Rank::of_outcome(report.outcome),
                    report_value(command, &report)?,
                )
            }
            Err(failure) => {
                let rank = Rank::of_failure(&failure);
                let error = json!({
                    "command": command,
                    "ok": false,
                    "incidents": [],
                    "outcome": rank.outcome_word(),
                    "error": {"code": failure.code(), "message": failure.message()},
                });
                (rank, error)
            }
        };
        if let Value::Object(obj) = &mut line {
            obj.insert("input".into(), Value::String(input.text.clone()));
            obj.insert("line".into(), json!(input.line));
        }
        out::println(&line.to_string())?;
        counts[rank as usize] += 1;
        worst = worst.max(rank);
    }
    eprintln!(
        "{} inputs: {} verified, {} not verified, {} could not be checked, {} usage errors",
        inputs.len(),
        counts[Rank::Verified as usize],
        counts[Rank::NotVerified as usize],
        counts[Rank::CouldNotCheck as usize],
        counts[Rank::Usage as usize],
    );
    Ok(ExitCode::from(worst.exit_status()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worst_outcome_decides_the_exit_status() {
        let worst = |ranks: &[Rank]| {
            ranks
                .iter()
                .copied()
                .max()
                .unwrap_or(Rank::Verified)
                .exit_status()
        };
        assert_eq!(worst(&[]), 0);
        assert_eq!(worst(&[Rank::Verified, Rank::Verified]), 0);
        assert_eq!(worst(&[Rank::Verified, Rank::CouldNotCheck]), 3);
        assert_eq!(worst(&[Rank::CouldNotCheck, Rank::NotVerified]), 1);
        assert_eq!(worst(&[Rank::NotVerified, Rank::Usage, Rank::Verified]), 2);
        assert_eq!(
            Rank::of_failure(&Failure::Unreadable(String::new())),
            Rank::CouldNotCheck
        );
    }
}

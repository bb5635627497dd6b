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
//! With `--record`, each report is recorded in input order as soon as every line before it is
//! done, before its line is printed: a batch killed mid-way keeps every line it printed, and
//! running it again skips the inputs the store already holds for the same input (the URL, or the
//! SHA-256 of the file) and configuration; a skipped line prints `skipped`, `recorded_as` and
//! `verified_at` with the outcome recorded then: a verdict of that time, not of now (a URL's
//! content or the clock may have moved since; verify without `--record` to judge again). A record that failed is said on standard error and in the
//! line (`record_error`), and the exit status is 3 whatever the verdicts (as a single verify).
//!
//! Wiring a verify is one call, from its `run` when `--batch` is given:
//!
//! ```ignore
//! use crate::cmd::batch;
//! // `verify_input`: Fn(&str) -> Result<Report<D>, Failure> + Sync, one input line in, the
//! // report out (D: Serialize + Send), exactly as the command verifies its argument.
//! let mut settle = batch::Recorder::open("chain", &common, configuration)?;
//! return batch::run("chain verify", path, verify_input, &mut settle);
//! ```
//!
//! [`Settle`] runs on each report in input order before it is printed: [`Recorder`] records
//! (`--record`, or nothing without it); ACA's settles the manifest reuse check and the record
//! in one store transaction.

use std::io::BufRead;
use std::process::ExitCode;

use citeproof_model::{Outcome, Report};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Value, json};

use crate::cmd::Failure;
use crate::cmd::common::{VerifyCommon, report_value};
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

/// What happens to each report of a batch, in input order, before its line is printed.
pub trait Settle<D> {
    /// Resume: the record the store already holds for this input and configuration (the input
    /// is then not verified again).
    fn recorded(&mut self, input: &Input) -> Result<Option<Resumed>, Failure>;
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
    /// No `--record`.
    NotAsked,
    /// Recorded under this id.
    As(i64),
    /// The record failed: the message said on standard error.
    Failed(String),
}

/// The [`Settle`] of every verify without order-dependent checks: records with `--record`.
pub struct Recorder {
    store: Option<(String, Box<dyn citeproof_audit::AuditStore + Send>)>,
    spec: &'static str,
    configuration: Value,
    verified_at: i64,
}

impl Recorder {
    /// Opens the store of `--record` (none: nothing is recorded). `configuration` is every
    /// option that changes a verdict; a resumed batch skips an input only under the same one.
    pub fn open(
        spec: &'static str,
        common: &VerifyCommon,
        configuration: Value,
    ) -> Result<Recorder, Failure> {
        let store = match &common.record.record {
            Some(target) => Some((
                target.clone(),
                citeproof_audit::open(target, citeproof_audit::Access::Write)
                    .map_err(|e| crate::cmd::record::store_failure(target, &e))?,
            )),
            None => None,
        };
        Ok(Recorder {
            store,
            spec,
            configuration,
            verified_at: common.time(),
        })
    }

    /// The store, its target, and the input key of `input` (None without `--record`).
    pub fn store_for(
        &mut self,
        input: &Input,
    ) -> Option<(
        &str,
        &mut (dyn citeproof_audit::AuditStore + Send + 'static),
        Option<String>,
    )> {
        let key = input_key(self.spec, &input.text, &self.configuration);
        self.store
            .as_mut()
            .map(|(target, store)| (target.as_str(), store.as_mut(), key))
    }

    /// The verification time of the batch.
    pub fn verified_at(&self) -> i64 {
        self.verified_at
    }
}

impl<D: Serialize> Settle<D> for Recorder {
    fn recorded(&mut self, input: &Input) -> Result<Option<Resumed>, Failure> {
        let Some((target, store, Some(key))) = self.store_for(input) else {
            return Ok(None);
        };
        let fail = |e: &citeproof_audit::AuditError| crate::cmd::record::store_failure(target, e);
        let Some(id) = store.find_input(&key).map_err(|e| fail(&e))? else {
            return Ok(None);
        };
        // A record the store lists but cannot return is not resumed: the input is verified again.
        Ok(store.get(id).map_err(|e| fail(&e))?.map(|stored| Resumed {
            id,
            outcome: outcome_of(&stored.record.outcome),
            verified_at: stored.record.verified_at,
        }))
    }

    fn settle(&mut self, input: &Input, report: &mut Report<D>) -> Recorded {
        let verified_at = self.verified_at;
        let Some((target, store, key)) = self.store_for(input) else {
            return Recorded::NotAsked;
        };
        let record = citeproof_audit::Record::of(&*report, crate::cmd::now(), verified_at)
            .map(|r| match key {
                Some(k) => r.with_input_key(k),
                None => r,
            })
            .and_then(|r| store.record(&r));
        match record {
            Ok(head) => Recorded::As(head.id),
            Err(e) => Recorded::Failed(crate::cmd::audit::record_failed(target, &e)),
        }
    }
}

/// The outcome a store recorded (its words are the report's).
fn outcome_of(word: &str) -> Outcome {
    match word {
        "verified" => Outcome::Verified,
        "not-verified" => Outcome::NotVerified,
        _ => Outcome::CouldNotCheck,
    }
}

/// What a resumed batch compares: the URL, or the SHA-256 of the file's bytes (of each file,
/// for a line naming several, as `archive verify`'s `BUNDLE DISPLAY`), with the spec and the
/// configuration. `None` when a file cannot be read (it is verified, and fails).
pub fn input_key(spec: &str, input: &str, configuration: &Value) -> Option<String> {
    let digest = |path: &str| {
        std::fs::read(path)
            .ok()
            .map(|b| citeproof_model::sha256_bytes(&b).to_string())
    };
    let identity = if is_url(input) {
        input.to_owned()
    } else if let Some(d) = digest(input) {
        d
    } else {
        let parts = input
            .split_whitespace()
            .map(digest)
            .collect::<Option<Vec<_>>>()?;
        if parts.len() < 2 {
            return None;
        }
        parts.join(" ")
    };
    citeproof_audit::input_key(spec, &identity, configuration).ok()
}

/// A batch line naming a file: standard input (`-`) is the list itself, never a line of it.
pub fn file_line(line: &str) -> Result<&str, Failure> {
    if line == "-" {
        return Err(Failure::Usage(
            "`-` (standard input) cannot be a line of a batch".into(),
        ));
    }
    Ok(line)
}

/// What the batch key holds of a configuration file (a key, a secret, a trust file, an
/// archive): the SHA-256 of its bytes, so that a resumed batch verifies again when the file
/// changed under the same name. A URL stands for itself.
pub fn file_digest(path: &str) -> Result<String, Failure> {
    if is_url(path) {
        return Ok(path.to_owned());
    }
    Ok(citeproof_model::sha256_bytes(&crate::input::read_document(path)?).to_string())
}

/// An `http://` or `https://` line (any case).
pub fn is_url(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
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

/// Verifies every input of the batch file at `path` with `verify` (in parallel), settles each
/// report with `settle` in input order, and prints one JSON line per input in input order as
/// soon as the lines before it are done. Returns the worst exit status (module docs).
pub fn run<D, V, S>(
    command: &str,
    path: &str,
    verify: V,
    settle: &mut S,
) -> Result<ExitCode, Failure>
where
    D: Serialize + Send,
    V: Fn(&str) -> Result<Report<D>, Failure> + Sync,
    S: Settle<D> + ?Sized,
{
    let inputs = read_inputs(path)?;
    let mut resumed = Vec::with_capacity(inputs.len());
    for input in &inputs {
        resumed.push(settle.recorded(input)?);
    }
    let bar = progress(inputs.len());
    let mut tally = Tally::default();
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<Report<D>, Failure>)>();
        let work: Vec<usize> = (0..inputs.len())
            .filter(|n| resumed[*n].is_none())
            .collect();
        let (inputs_ref, bar_ref, verify_ref, stop_ref) = (&inputs, &bar, &verify, &stop);
        scope.spawn(move || {
            work.par_iter().for_each_with(tx, |tx, &n| {
                // Output closed: nobody reads the rest.
                if stop_ref.load(std::sync::atomic::Ordering::Relaxed) {
                    return;
                }
                let r = verify_ref(&inputs_ref[n].text);
                bar_ref.inc(1);
                // The receiver stops only on an output error; the rest is not needed then.
                let _ = tx.send((n, r));
            });
        });
        let mut pending = std::collections::BTreeMap::new();
        let mut next = 0;
        let mut print_ready = |pending: &mut std::collections::BTreeMap<usize, _>| {
            while next < inputs.len() {
                let input = &inputs[next];
                let line = match resumed[next] {
                    Some(recorded) => tally.resumed(command, recorded),
                    None => match pending.remove(&next) {
                        None => return Ok(()),
                        Some(result) => tally.finished(command, input, result, settle)?,
                    },
                };
                print_line(line, input)?;
                next += 1;
            }
            Ok::<_, Failure>(())
        };
        let mut printed = print_ready(&mut pending);
        for (n, result) in rx.iter() {
            if printed.is_err() {
                break;
            }
            pending.insert(n, result);
            printed = print_ready(&mut pending);
        }
        if printed.is_err() {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        printed
    })?;
    bar.finish_and_clear();
    eprintln!("{}", tally.summary(inputs.len()));
    Ok(ExitCode::from(tally.exit_status()))
}

fn print_line(mut line: Value, input: &Input) -> Result<(), Failure> {
    if let Value::Object(obj) = &mut line {
        obj.insert("input".into(), Value::String(input.text.clone()));
        obj.insert("line".into(), json!(input.line));
    }
    out::println(&line.to_string())
}

/// Counts per outcome, the worst one, and failed records.
#[derive(Default)]
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
    fn finished<D: Serialize, S: Settle<D> + ?Sized>(
        &mut self,
        command: &str,
        input: &Input,
        result: Result<Report<D>, Failure>,
        settle: &mut S,
    ) -> Result<Value, Failure> {
        let mut report = match result {
            Ok(report) => report,
            Err(failure) => {
                let rank = Rank::of_failure(&failure);
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
                    eprintln!("citeproof: error: line {}: {message}", input.line);
                    obj.insert("record_error".into(), json!(message));
                }
            }
        }
        Ok(line)
    }

    fn summary(&self, total: usize) -> String {
        let mut text = format!(
            "{total} inputs: {} verified, {} not verified, {} could not be checked, {} usage errors",
            self.counts[Rank::Verified as usize],
            self.counts[Rank::NotVerified as usize],
            self.counts[Rank::CouldNotCheck as usize],
            self.counts[Rank::Usage as usize],
        );
        if self.resumed > 0 {
            text.push_str(&format!(
                " ({} already recorded, not verified again)",
                self.resumed
            ));
        }
        if self.record_errors > 0 {
            text.push_str(&format!("; {} NOT recorded", self.record_errors));
        }
        text
    }

    /// A failed record exits 3 whatever the verdicts, as a single verify's does.
    fn exit_status(&self) -> u8 {
        if self.record_errors > 0 {
            return 3;
        }
        self.worst.unwrap_or(Rank::Verified).exit_status()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_input_is_never_a_line_of_a_batch() {
        assert!(matches!(file_line("-"), Err(Failure::Usage(_))));
        assert_eq!(file_line("a.json").ok(), Some("a.json"));
    }

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

    /// A key changed under the same name changes the batch key (a resumed batch verifies
    /// again); the expected digests are `printf 'k1' | sha256sum` and `printf 'k2' | sha256sum`.
    #[test]
    fn configuration_files_count_by_their_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("key.pem");
        let path = path.to_str().unwrap();
        std::fs::write(path, "k1").unwrap();
        assert_eq!(
            file_digest(path).unwrap(),
            "sha256:6ab9f1eb8f7d3388f4f9d586f66e99fd54080df2c446f0e58668b09c08a16dd0"
        );
        std::fs::write(path, "k2").unwrap();
        assert_eq!(
            file_digest(path).unwrap(),
            "sha256:015f7e6bc5aeaf483724089e9252cc13b50951a6b69412522765cff4d780306e"
        );
        assert_eq!(
            file_digest("https://keys.example/jwks.json").unwrap(),
            "https://keys.example/jwks.json"
        );
    }
}

//! `--batch FILE|-` of every `verify`: the command line's wiring of `citeproof_batch` (the
//! engine: the list read, every input verified on every core, settled, recorded and printed in
//! input order as JSON lines, resumable with `--record`, the worst exit status; its crate docs
//! say how). Here: the store of `--record`, the progress bar on a terminal, the lines on
//! standard output, failed records and the summary on standard error, and the CLI's `Failure`
//! as a line's error.
//!
//! Wiring a verify is one call, from its `run` when `--batch` is given:
//!
//! ```ignore
//! use crate::cmd::batch;
//! // `verify_input`: Fn(&str) -> Result<Report<D>, Failure> + Sync, one input line in, the
//! // report out (D: Serialize + Send), exactly as the command verifies its argument.
//! let mut settle = batch::recorder("chain", &common, configuration)?;
//! return batch::run("chain verify", path, verify_input, &mut settle);
//! ```

use std::process::ExitCode;

use citeproof_batch::{Batch, InputError, LineFailure, Rank, SerializeError, Settle, StoreError};
pub use citeproof_batch::{Recorder, is_url};
use citeproof_model::Report;
use serde::Serialize;
use serde_json::Value;

use crate::cmd::Failure;
use crate::cmd::common::VerifyCommon;

impl LineFailure for Failure {
    fn rank(&self) -> Rank {
        match self {
            Failure::Unreadable(_) => Rank::CouldNotCheck,
            Failure::Invalid(_) => Rank::NotVerified,
            Failure::Usage(_) => Rank::Usage,
        }
    }

    fn code(&self) -> &str {
        Failure::code(self)
    }

    fn message(&self) -> &str {
        Failure::message(self)
    }
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Failure {
        if e.is_usage() {
            Failure::Usage(e.to_string())
        } else {
            Failure::Unreadable(e.to_string())
        }
    }
}

impl From<StoreError> for Failure {
    fn from(e: StoreError) -> Failure {
        Failure::Unreadable(e.to_string())
    }
}

impl From<SerializeError> for Failure {
    fn from(e: SerializeError) -> Failure {
        Failure::Usage(e.to_string())
    }
}

/// The [`Recorder`] of `--record` (none: nothing is recorded), at the batch's `--now`.
/// `configuration` is every option that changes a verdict; a resumed batch skips an input only
/// under the same one.
pub fn recorder(
    spec: &'static str,
    common: &VerifyCommon,
    configuration: Value,
) -> Result<Recorder, Failure> {
    Ok(Recorder::open(
        spec,
        common.record.record.as_deref(),
        configuration,
        common.time(),
        crate::cmd::now,
    )?)
}

/// The lines on standard output (a closed pipe ends them quietly), failed records on standard
/// error.
struct Stdout;

impl citeproof_batch::Output for Stdout {
    type Error = Failure;

    fn line(&mut self, line: &Value) -> Result<(), Failure> {
        crate::out::println(&line.to_string())
    }

    fn record_failed(&mut self, line: usize, message: &str) {
        eprintln!("citeproof: error: line {line}: {message}");
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

/// Verifies every input of the batch list at `path` with `verify`, settled by `settle`, and
/// prints one JSON line per input in input order, then the summary on standard error. Returns
/// the worst exit status (`citeproof_batch::Summary::exit_status`).
pub fn run<D, V, S>(
    command: &str,
    path: &str,
    verify: V,
    settle: &mut S,
) -> Result<ExitCode, Failure>
where
    D: Serialize + Send,
    V: Fn(&str) -> Result<Report<D>, Failure> + Sync,
    S: Settle<D, Error = StoreError> + ?Sized,
{
    let inputs = citeproof_batch::read_list(path)?;
    let bar = progress(inputs.len());
    let batch = Batch {
        command,
        verify,
        settle,
        output: &mut Stdout,
        progress: || bar.inc(1),
    };
    let summary = citeproof_batch::run::<_, _, Failure, _, _, _, _>(&inputs, batch)?;
    bar.finish_and_clear();
    eprintln!("{summary}");
    Ok(ExitCode::from(summary.exit_status()))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_input_is_never_a_line_of_a_batch() {
        assert!(matches!(file_line("-"), Err(Failure::Usage(_))));
        assert_eq!(file_line("a.json").ok(), Some("a.json"));
    }

    /// A line's failure counts as its exit status says: unreadable 3, invalid 1, usage 2.
    #[test]
    fn a_failure_counts_as_its_exit_status() {
        for failure in [
            Failure::Unreadable(String::new()),
            Failure::Invalid(String::new()),
            Failure::Usage(String::new()),
        ] {
            assert_eq!(failure.rank().exit_status(), failure.exit_status());
        }
        assert_eq!(
            Failure::Unreadable(String::new()).rank(),
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

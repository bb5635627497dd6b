//! What every `verify` command shares (one command-line surface): the verification time, the
//! trust file, `--json`, and how a report becomes output and an exit status.
//!
//! Exit statuses of every `verify`: 0 verified, 1 not verified (checked, and found wanting),
//! 2 usage error (arguments, a malformed trust file), 3 could not check (an input file that
//! cannot be read, a network failure or timeout that left the required level undecided).

use std::process::ExitCode;

use citeproof_jose::SignerTrust;
use citeproof_model::{Outcome, Report, Subject, SubjectKind, Timestamp};
use serde::Serialize;

use crate::cmd::Failure;
use crate::input::read_limited;

/// The largest trust file read.
const MAX_TRUST_FILE_BYTES: usize = 1024 * 1024;

/// Options of every `verify`.
#[derive(Debug, Clone, clap::Args)]
pub struct VerifyCommon {
    /// Verification time: RFC 3339 (`2026-05-01T12:00:00Z`) or Unix seconds. Default: now.
    /// An auditor replaying an old capture sets the time of capture.
    #[arg(long, value_name = "TIME", value_parser = parse_time)]
    pub now: Option<i64>,
    /// Trust file (JSON): per signer id, HMAC secrets (`"secrets"`) and Ed25519 JWK Sets
    /// (`"keys"`), and trusted key locations (`"key_locations"`). The one format of every
    /// verify; README "Trust file".
    #[arg(long, value_name = "FILE")]
    pub trust: Option<String>,
    /// Print one JSON object (the report, or the error) instead of text.
    #[arg(long)]
    pub json: bool,
    /// `--record DB|postgres://...`, `--report FORMAT --out FILE` (cmd/record.rs).
    #[command(flatten)]
    pub record: crate::cmd::record::RecordArgs,
}

impl VerifyCommon {
    /// The verification time: `--now`, else the clock.
    pub fn time(&self) -> i64 {
        self.now.unwrap_or_else(crate::cmd::now)
    }

    /// The trust file, or an empty store.
    pub fn load_trust(&self) -> Result<SignerTrust, Failure> {
        let Some(path) = &self.trust else {
            return Ok(SignerTrust::new());
        };
        load_trust_file(path)
    }
}

/// Reads a trust file; a file that is not JSON or not of the documented shape is a usage error
/// naming each problem with its pointer.
pub fn load_trust_file(path: &str) -> Result<SignerTrust, Failure> {
    let bytes = read_limited(path, MAX_TRUST_FILE_BYTES)?;
    let value = citeproof_model::json::parse_strict(&bytes)
        .map_err(|e| Failure::Usage(format!("trust file {path}: {e}")))?;
    SignerTrust::from_json(&value)
        .map_err(|e| Failure::Usage(format!("trust file {path}: {e} [{}]", e.code())))
}

/// The subject of a report about a file argument (`-` is standard input).
pub fn file_subject(path: &str, bytes: &[u8]) -> Subject {
    let kind = if path == "-" {
        SubjectKind::Stdin
    } else {
        SubjectKind::File
    };
    Subject::new(kind, path).with_digest_of(bytes)
}

/// `--now`: RFC 3339 date-time or Unix seconds.
pub fn parse_time(text: &str) -> Result<i64, String> {
    if let Ok(seconds) = text.parse::<i64>() {
        return Ok(seconds);
    }
    Timestamp::parse(text)
        .map(|t| t.unix_seconds())
        .map_err(|e| format!("{e}; or give Unix seconds"))
}

/// Prints `report` (as the `--json` envelope, or `text`) and returns the exit status of its
/// outcome.
pub fn finish_report<D: Serialize>(
    command: &str,
    report: &Report<D>,
    json: bool,
    text: impl FnOnce() -> String,
) -> Result<ExitCode, Failure> {
    if json {
        crate::out::json_report(
            command,
            report.verdict.verified,
            &report.verdict.incidents,
            report,
        )?;
    } else {
        crate::out::print(&text())?;
    }
    Ok(exit_code(report.outcome))
}

pub fn exit_code(outcome: Outcome) -> ExitCode {
    ExitCode::from(outcome.exit_status())
}

/// The verdict line every text report starts with.
/// The incident list of a text report: `no incidents`, or `incidents (N):` and one indented
/// line per incident, as `line` writes it.
pub fn push_incidents<T>(out: &mut String, incidents: &[T], line: impl Fn(&T) -> String) {
    if incidents.is_empty() {
        out.push_str("no incidents\n");
        return;
    }
    out.push_str(&format!("incidents ({}):\n", incidents.len()));
    for incident in incidents {
        out.push_str(&format!("  {}\n", line(incident)));
    }
}

pub fn verdict_line<D>(report: &Report<D>) -> String {
    let v = &report.verdict;
    let word = match report.outcome {
        Outcome::Verified => "VERIFIED",
        Outcome::NotVerified => "NOT VERIFIED",
        Outcome::CouldNotCheck => "COULD NOT CHECK (not verified)",
    };
    format!(
        "level achieved: {} (required {}) -> {word}",
        v.level, v.required_level
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_in_both_forms() {
        assert_eq!(parse_time("0"), Ok(0));
        assert_eq!(parse_time("1777593600"), Ok(1_777_593_600));
        // 2026-05-01T00:00:00Z: 20574 days after the epoch (hand count: 56 years of 365 days,
        // 14 leap days, 120 days of 2026 before May) = 1 777 593 600 s.
        assert_eq!(parse_time("2026-05-01T00:00:00Z"), Ok(1_777_593_600));
        assert_eq!(parse_time("2026-05-01T02:00:00+02:00"), Ok(1_777_593_600));
        assert!(parse_time("yesterday").is_err());
        assert!(parse_time("2026-05-01").is_err());
    }
}

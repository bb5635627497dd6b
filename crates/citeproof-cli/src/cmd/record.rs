//! `--record DB|postgres://...` and `--report FORMAT --out FILE` of every `verify`: one path from
//! the common report (`Report<D: Serialize>`) to the audit store and to a report a person reads.
//!
//! Wiring a verify command is one call: replace `finish_report(command, &report, json, text)`
//! by `record::finish(command, &report, &common, text)`. The verdict is printed first; then the
//! report file is written and the verification recorded. A failed record or report file is said
//! on standard error (`citeproof: error: ... [audit-...]`) and turns the exit status into 3,
//! whatever the verdict was.

use std::path::PathBuf;
use std::process::ExitCode;

use citeproof_audit::render::{Format, Provenance};
use citeproof_audit::{Access, AuditError, Head, Record, redact};
use citeproof_model::Report;
use serde::Serialize;

use crate::cmd::Failure;
use crate::cmd::common::{VerifyCommon, finish_report};

/// Options of every `verify` (flattened into [`VerifyCommon`]).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct RecordArgs {
    /// Record the verification in this audit store: a SQLite file (created if needed) or a
    /// `postgres://` URL. Hash-chained and append-only; read it with `citeproof audit --db`.
    /// A failed record is said on standard error, after the verdict, and exits 3.
    #[arg(long, value_name = "DB|postgres://...")]
    pub record: Option<String>,
    /// Also write a report a person reads: `html` (one self-contained page), `markdown`, `csv`
    /// or `json`; needs `--out`.
    #[arg(long, value_name = "FORMAT", requires = "out", value_parser = ["html", "markdown", "csv", "json"])]
    pub report: Option<String>,
    /// Where `--report` writes.
    #[arg(long, value_name = "FILE", requires = "report")]
    pub out: Option<PathBuf>,
}

/// Prints the report (text or `--json`), then writes `--report` and records `--record`.
pub fn finish<D: Serialize>(
    command: &str,
    report: &Report<D>,
    common: &VerifyCommon,
    text: impl FnOnce() -> String,
) -> Result<ExitCode, Failure> {
    let status = finish_report(command, report, common.json, text)?;
    Ok(after_verdict(report, common.time(), &common.record).unwrap_or(status))
}

/// Records and exports an already printed verdict; `Some(3)` when either failed (said on
/// standard error), `None` when all went well.
pub fn after_verdict<D: Serialize>(
    report: &Report<D>,
    verified_at: i64,
    args: &RecordArgs,
) -> Option<ExitCode> {
    if args.record.is_none() && args.report.is_none() {
        return None;
    }
    let record = match Record::of(report, crate::cmd::now(), verified_at) {
        Ok(r) => r,
        Err(e) => {
            return Some(said(
                &format!("the verification cannot be recorded: {e}"),
                e.code(),
            ));
        }
    };
    let mut failed = None;
    let mut from = Provenance::default();
    if let Some(target) = &args.record {
        match record_one(target, &record) {
            Ok(head) => {
                eprintln!("recorded as verification {} ({})", head.id, head.hash);
                from = Provenance {
                    id: Some(head.id),
                    row_hash: Some(head.hash),
                    prev_hash: None,
                };
            }
            Err(e) => {
                failed = Some(said(
                    &format!(
                        "the verification was NOT recorded in {}: {e}",
                        redact(target)
                    ),
                    e.code(),
                ));
            }
        }
    }
    if let (Some(format), Some(out)) = (&args.report, &args.out)
        && let Err(message) = write_report(&record, &from, format, out)
    {
        failed = Some(said(&message, "report-write"));
    }
    failed
}

/// Writes `--report FORMAT --out FILE` of an already printed and recorded verdict (`head`: its
/// row, when it was recorded); `Some(3)` when it failed (said on standard error).
pub fn report_file<D: Serialize>(
    report: &Report<D>,
    verified_at: i64,
    args: &RecordArgs,
    head: Option<&Head>,
) -> Option<ExitCode> {
    let (Some(format), Some(out)) = (&args.report, &args.out) else {
        return None;
    };
    let from = Provenance {
        id: head.map(|h| h.id),
        row_hash: head.map(|h| h.hash.clone()),
        prev_hash: None,
    };
    let written = Record::of(report, crate::cmd::now(), verified_at)
        .map_err(|e| format!("the report cannot be written: {e}"))
        .and_then(|record| write_report(&record, &from, format, out));
    written.err().map(|message| said(&message, "report-write"))
}

fn said(message: &str, code: &str) -> ExitCode {
    eprintln!("citeproof: error: {message} [{code}]");
    ExitCode::from(3)
}

/// Opens the store for writing and appends one record (no history check).
pub fn record_one(target: &str, record: &Record) -> Result<Head, AuditError> {
    citeproof_audit::open(target, Access::Write)?.record(record)
}

/// Writes `record` as `format` to `out`.
pub fn write_report(
    record: &Record,
    from: &Provenance,
    format: &str,
    out: &std::path::Path,
) -> Result<(), String> {
    let format = Format::parse(format).ok_or_else(|| format!("unknown report format {format}"))?;
    let text = citeproof_audit::render::render(record, from, format)
        .map_err(|e| format!("cannot render the report: {e}"))?;
    std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))
}

/// A store error as a command failure: exit 3 (the store could not be used; nothing in it was
/// changed).
pub fn store_failure(target: &str, e: &AuditError) -> Failure {
    Failure::Unreadable(format!("{}: {e} [{}]", redact(target), e.code()))
}

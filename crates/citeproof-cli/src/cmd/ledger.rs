//! `citeproof ledger audit|verify`: the attribution ledger of seed 003 (profile LEDGER-*).
//!
//! - `audit FILE.jsonl [--ledger-id ID] [--mode strict|lenient] [--threshold T] [--now T]
//!   [--json]`: the coverage of every ledger in an append-only audit file (the seed's own
//!   records included), like the seed's `audit_coverage` / `summary()`; exit 0 when at least
//!   one ledger was audited, the file (or, with `--ledger-id`, that ledger's records) is
//!   well-formed and every ledger reaches the threshold; 1 otherwise (an empty file audits
//!   nothing: LEDGER-020); 2 on usage errors; 3 when the file cannot be read.
//! - `verify LEDGER.json | --batch LIST --audit FILE.jsonl [--api API.json] [--refused]
//!   [--mode M] [--threshold T] [--now T] [--json] [--record DB] [--report FORMAT --out FILE]`: the ledger document (citeproof's, or the seed
//!   template's `validate_and_finalize()` result, whose mode `--mode`/`--threshold` give), its
//!   records in the audit file, its `export_for_api` dictionary; presented as emitted unless
//!   `--refused`, like the adapter operation; the options and exit statuses of every `verify`
//!   (`common`): 0 verified, 1 not verified, 2 usage error, 3 an input that cannot be read.

use std::io::Read;
use std::process::ExitCode;

use citeproof_ledger::jsonl::MAX_FILE_BYTES;
use citeproof_ledger::verify::{Subject, VerifyReport};
use citeproof_ledger::{
    AuditOptions, AuditReport, LENIENT_DEFAULT_THRESHOLD, STRICT_THRESHOLD, TemplateConfig,
    VerifyOptions, audit, threshold_problem, verify,
};
use citeproof_model::json::MAX_DOCUMENT_BYTES;
use citeproof_model::ledger::LedgerMode;
use citeproof_model::{Incident, IncidentCode, Severity};

use crate::cmd::Failure;
use crate::cmd::common::{VerifyCommon, exit_code, file_subject, finish_report, verdict_line};
use crate::input::display;

#[derive(Debug, clap::Subcommand)]
pub enum Verb {
    /// Coverage of every ledger in a JSONL audit file (seed records included), per ledger id.
    Audit(AuditArgs),
    /// Verify a ledger document against the records of its id in a JSONL audit file.
    Verify(VerifyArgs),
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Mode {
    Strict,
    Lenient,
}

#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// The JSONL audit file, or `-` for standard input.
    file: String,
    /// Report only the ledger with this id.
    #[arg(long)]
    ledger_id: Option<String>,
    /// `strict` (threshold 1) or `lenient` (threshold 0.90 unless --threshold).
    #[arg(long, value_enum, default_value = "strict")]
    mode: Mode,
    /// Coverage threshold: exactly 1 in strict mode; more than 0 and at most 1 in lenient mode.
    #[arg(long)]
    threshold: Option<f64>,
    /// Verification time, RFC 3339 or Unix seconds (default: now), for timestamps in the
    /// future.
    #[arg(long, value_name = "TIME", value_parser = crate::cmd::common::parse_time)]
    now: Option<i64>,
    /// Print JSON: `command`, `ok`, `incidents` (about the file), `mode`, `threshold`,
    /// `records` and `ledgers` (each with its coverage, `summary`, `audit_coverage`, incidents).
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The ledger document (JSON), or `-` for standard input.
    #[arg(required_unless_present = "batch", conflicts_with = "batch")]
    ledger: Option<String>,
    /// Verify every ledger document listed in FILE (`-`: stdin), one path a line, against the
    /// same audit file and options, on every core; prints one JSON line per ledger (the
    /// `--json` object plus `input` and `line`), in input order. Exit status: the worst over
    /// the lines.
    #[arg(long, value_name = "FILE")]
    batch: Option<String>,
    /// The JSONL audit file holding the ledger's records (and possibly other ledgers').
    #[arg(long)]
    audit: String,
    /// The ledger's `export_for_api` dictionary (JSON), to check against it.
    #[arg(long)]
    api: Option<String>,
    /// The ledger is that of an emitted response (the default): a strict ledger below its
    /// threshold is an error (LEDGER-006).
    #[arg(long, conflicts_with = "refused")]
    emitted: bool,
    /// The ledger is the record of a refused response, kept for audit: a strict ledger below
    /// its threshold is then not an error.
    #[arg(long)]
    refused: bool,
    /// The mode of a template ledger (`validate_and_finalize()` result), which does not state
    /// it: `strict` (threshold 1; the default) or `lenient` (0.90 unless --threshold).
    #[arg(long, value_enum)]
    mode: Option<Mode>,
    /// The threshold of a template ledger: exactly 1 in strict mode; more than 0 and at most 1
    /// in lenient mode.
    #[arg(long)]
    threshold: Option<f64>,
    /// `--now` (timestamps in the future, LEDGER-017), `--json` (the common report: `spec`,
    /// `subject`, `level`, `required_level`, `verified`, `outcome`, `incidents` (each with
    /// `file`: ledger, audit or api), `items` (one per ledger claim), and the ledger's `kind`
    /// (`ledger` or `ledger-template`), `ledger_id`, `emitted`, `coverage`, `records`). A
    /// ledger carries no signature: `--trust` is refused.
    #[command(flatten)]
    common: VerifyCommon,
}

pub fn run(verb: Verb) -> Result<ExitCode, Failure> {
    match verb {
        Verb::Audit(a) => run_audit(a),
        Verb::Verify(a) => run_verify(a),
    }
}

/// Reads at most `limit + 1` bytes, so that the library sees (and reports with its own code)
/// an input over its limit without this command reading an unbounded file.
fn read_capped(path: &str, limit: usize) -> Result<Vec<u8>, Failure> {
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    let mut buf = Vec::new();
    let result = if path == "-" {
        std::io::stdin().lock().take(cap).read_to_end(&mut buf)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(cap).read_to_end(&mut buf))
    };
    result.map_err(|e| Failure::Unreadable(format!("cannot read {}: {e}", display(path))))?;
    Ok(buf)
}

fn run_audit(a: AuditArgs) -> Result<ExitCode, Failure> {
    let mut options = match a.mode {
        Mode::Strict => AuditOptions::default(),
        Mode::Lenient => AuditOptions::lenient(),
    };
    if let Some(t) = a.threshold {
        options.threshold = t;
    }
    if let Some(reason) = threshold_problem(options.mode, options.threshold) {
        return Err(Failure::Usage(format!(
            "--threshold {}: {reason} [ledger-threshold-invalid]",
            options.threshold
        )));
    }
    options.ledger_id = a.ledger_id.clone();
    options.now = Some(a.now.unwrap_or_else(crate::cmd::now));
    let bytes = read_capped(&a.file, MAX_FILE_BYTES)?;
    let report = audit(&bytes, &options);
    if a.json {
        crate::out::json_report("ledger audit", report.ok, &report.incidents, &report)?;
    } else {
        crate::out::print(&readable_audit(
            display(&a.file),
            a.ledger_id.as_deref(),
            &report,
        ))?;
    }
    Ok(if report.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn has_errors(incidents: &[Incident]) -> bool {
    incidents.iter().any(|i| i.severity == Severity::Error)
}

fn readable_audit(file: &str, target: Option<&str>, r: &AuditReport) -> String {
    let mode = match r.mode {
        LedgerMode::Strict => "strict",
        LedgerMode::Lenient => "lenient",
    };
    let mut out = format!(
        "audit file: {file} ({} records, {} ledger(s)), {mode}, threshold {}\n",
        r.records,
        r.ledgers.len(),
        r.threshold
    );
    // With an error anywhere, a ledger's numbers are only what its readable records give: a
    // damaged line may have been one of its records. They are then printed without the
    // seed's "Compliant:" wording, so no line says more than the verdict.
    let established = !r.has_errors();
    for l in &r.ledgers {
        let name = l
            .ledger_id
            .as_deref()
            .map_or_else(|| "(no ledger id)".to_owned(), |id| format!("`{id}`"));
        let exempt = if l.exempt_claims > 0 {
            format!(" | {} exempt", l.exempt_claims)
        } else {
            String::new()
        };
        let head = if has_errors(&l.incidents) {
            " - NOT OK (errors below)"
        } else {
            ""
        };
        out.push_str(&format!(
            "ledger {name}: {} records from line {}{head}\n",
            l.records, l.first_line
        ));
        if established {
            out.push_str(&format!(
                "  {} | coverage {}{exempt}\n  seed audit_coverage: Coverage: {}/{} | Compliant: {}\n",
                l.summary,
                l.coverage.coverage_score,
                l.audit_coverage.cited_claims,
                l.audit_coverage.total_claims,
                l.audit_coverage.is_compliant
            ));
        } else {
            out.push_str(&format!(
                "  coverage not established: its readable records give {}/{} cited, score {}{exempt} (seed audit_coverage {}/{})\n",
                l.coverage.cited_claims,
                l.coverage.required_claims,
                l.coverage.coverage_score,
                l.audit_coverage.cited_claims,
                l.audit_coverage.total_claims
            ));
        }
        for (text, line) in l.coverage.uncited_claims.iter().zip(&l.uncited_lines) {
            out.push_str(&format!("  uncited (line {line}): {text:?}\n"));
        }
        for i in &l.incidents {
            out.push_str(&format!("  {i}\n"));
        }
    }
    if !r.incidents.is_empty() {
        out.push_str(&format!("incidents ({}):\n", r.incidents.len()));
        for i in &r.incidents {
            out.push_str(&format!("  {i}\n"));
        }
    }
    let subject = target.map_or_else(|| "every ledger".to_owned(), |id| format!("ledger `{id}`"));
    let elsewhere = r
        .incidents
        .iter()
        .filter(|i| i.code == IncidentCode::LedgerAuditFileDamaged)
        .count();
    let verdict = if r.ledgers.is_empty() {
        let errors_besides = r
            .incidents
            .iter()
            .any(|i| i.severity == Severity::Error && i.code != IncidentCode::LedgerAuditEmpty);
        if errors_besides {
            "-> NOT OK: the audit file has errors, and no record was audited".to_owned()
        } else {
            match target {
                Some(id) => {
                    format!("-> NOTHING AUDITED: no record of ledger `{id}`; nothing was verified")
                }
                None => {
                    "-> NOTHING AUDITED: the file holds no record; nothing was verified".to_owned()
                }
            }
        }
    } else if r.ok && elsewhere > 0 {
        format!(
            "-> OK: {subject} compliant; {elsewhere} damaged line(s) of other ledgers, reported above"
        )
    } else if r.ok {
        format!("-> OK: well-formed, {subject} compliant")
    } else if r.has_errors() {
        "-> NOT OK: the audit file has errors; no coverage above is established".to_owned()
    } else {
        "-> NOT OK: a ledger is below the threshold".to_owned()
    };
    out.push_str(&verdict);
    out.push('\n');
    out
}

fn run_verify(a: VerifyArgs) -> Result<ExitCode, Failure> {
    if a.common.trust.is_some() {
        return Err(Failure::Usage(
            "a ledger carries no signature: --trust has nothing to check".into(),
        ));
    }
    let template = template_config(&a)?;
    let audit_file = read_capped(&a.audit, MAX_FILE_BYTES)?;
    let api = match &a.api {
        Some(p) => Some(read_capped(p, MAX_DOCUMENT_BYTES)?),
        None => None,
    };
    let options = VerifyOptions {
        emitted: !a.refused,
        now: Some(a.common.time()),
        template,
        ..VerifyOptions::default()
    };
    let verify_file = |file: &str| -> Result<VerifyReport, Failure> {
        let ledger = read_capped(file, MAX_DOCUMENT_BYTES)?;
        let mut report = verify(&ledger, &audit_file, api.as_deref(), &options);
        report.subject = file_subject(file, &ledger);
        if template.is_some() && report.details.kind == Some("ledger") {
            return Err(Failure::Usage(
                "--mode and --threshold are for a template ledger; this ledger states its own"
                    .into(),
            ));
        }
        Ok(report)
    };
    if let Some(list) = &a.batch {
        let in_batch = |file: &str| verify_file(crate::cmd::batch::file_line(file)?);
        let digest = |bytes: &[u8]| citeproof_model::sha256_bytes(bytes).to_string();
        let configuration = serde_json::json!({
            "audit": digest(&audit_file), "api": api.as_deref().map(digest),
            "refused": a.refused, "mode": a.mode.map(|m| format!("{m:?}")),
            "threshold": a.threshold, "now": a.common.now,
        });
        let mut settle =
            crate::cmd::batch::recorder(citeproof_ledger::SPEC.name(), &a.common, configuration)?;
        return crate::cmd::batch::run("ledger verify", list, in_batch, &mut settle);
    }
    let file = a.ledger.as_deref().unwrap_or("-");
    let report = verify_file(file)?;
    let status = if a.common.json {
        // Each incident with the input it is about.
        let incidents: Vec<serde_json::Value> = report
            .verdict
            .incidents
            .iter()
            .zip(&report.details.incident_files)
            .map(|(i, file)| {
                let mut v = serde_json::to_value(i).unwrap_or_default();
                if let Some(obj) = v.as_object_mut() {
                    obj.insert("file".into(), serde_json::json!(file));
                }
                v
            })
            .collect();
        crate::out::json_report(
            "ledger verify",
            report.verdict.verified,
            &incidents,
            &report,
        )?;
        exit_code(report.outcome)
    } else {
        finish_report("ledger verify", &report, false, || {
            readable_verify(&a, file, &report)
        })?
    };
    Ok(
        crate::cmd::record::after_verdict(&report, a.common.time(), &a.common.record)
            .unwrap_or(status),
    )
}

/// `--mode` and `--threshold` of a template ledger, refused as `ledger audit` refuses them.
fn template_config(a: &VerifyArgs) -> Result<Option<TemplateConfig>, Failure> {
    if a.mode.is_none() && a.threshold.is_none() {
        return Ok(None);
    }
    let (mode, default) = match a.mode.unwrap_or(Mode::Strict) {
        Mode::Strict => (LedgerMode::Strict, STRICT_THRESHOLD),
        Mode::Lenient => (LedgerMode::Lenient, LENIENT_DEFAULT_THRESHOLD),
    };
    let threshold = a.threshold.unwrap_or(default);
    if let Some(reason) = threshold_problem(mode, threshold) {
        return Err(Failure::Usage(format!(
            "--threshold {threshold}: {reason} [ledger-threshold-invalid]"
        )));
    }
    Ok(Some(TemplateConfig { mode, threshold }))
}

fn readable_verify(a: &VerifyArgs, file: &str, r: &VerifyReport) -> String {
    let d = &r.details;
    let what = match (d.kind, d.ledger_id.as_deref()) {
        (_, Some(id)) => format!("ledger id {id}"),
        (Some("ledger-template"), None) => "template ledger, no ledger id".to_owned(),
        _ => "unreadable".to_owned(),
    };
    let compliant = d.coverage.as_ref().is_some_and(|c| c.is_compliant);
    let qualifier = match (r.verdict.verified, d.emitted, compliant) {
        (false, _, _) | (true, true, true) => "",
        (true, true, false) => {
            " (not compliant: a lenient ledger emitted below its threshold, warning below)"
        }
        (true, false, true) => " (the record of a refused response; compliant)",
        (true, false, false) => {
            " (the record of a refused response: below its threshold, it must not have been emitted)"
        }
    };
    let mut out = format!(
        "{}{qualifier}\nledger: {} ({what}, {})\naudit file: {} ({} record(s) of this ledger)\n",
        verdict_line(r),
        display(file),
        if d.emitted {
            "emitted"
        } else {
            "refused response kept for audit"
        },
        display(&a.audit),
        d.records
    );
    if let Some(api) = &a.api {
        out.push_str(&format!("api export: {api}\n"));
    }
    if let Some(c) = &d.coverage {
        // Coverage is the ledger's only when the ledger verified; otherwise its numbers are
        // what its claims say, and are labelled so (never "Compliant: true" above NOT
        // VERIFIED).
        if r.verdict.verified {
            out.push_str(&format!(
                "coverage: {} | score {} | threshold {}\n",
                c.summary(),
                c.coverage_score,
                c.threshold
            ));
        } else {
            out.push_str(&format!(
                "coverage: not verified (the ledger's claims give {}/{} cited, score {}, threshold {})\n",
                c.cited_claims, c.required_claims, c.coverage_score, c.threshold
            ));
        }
    }
    let incidents = citeproof_ledger::verify::findings(r);
    crate::cmd::common::push_incidents(&mut out, &incidents, |f| {
        let file = match f.file {
            Subject::Ledger => "ledger",
            Subject::Audit => "audit",
            Subject::Api => "api",
        };
        format!("{file}: {}", f.incident)
    });
    out
}

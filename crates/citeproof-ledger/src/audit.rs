//! The coverage audit of a JSONL audit file (the seed's `audit_coverage` / `summary()` and the
//! template's `validate_and_finalize` arithmetic), per ledger when the append-only file holds
//! many: records are grouped by `ledger_id` (LEDGER-011); records without one (the seed's own)
//! form one group, which cannot be split into requests (`ledger-record-unidentified`).

use std::collections::HashMap;

use citeproof_model::ledger::LedgerMode;
use citeproof_model::{Incident, IncidentCode, Location, Severity};
use serde::Serialize;

use crate::config::{
    CoverageReport, LENIENT_DEFAULT_THRESHOLD, STRICT_THRESHOLD, threshold_problem,
};
use crate::jsonl::{Limits, frame};
use crate::record::{self, Record};
use crate::shape::instant;

/// Clock skew tolerated before a timestamp is "in the future" (profile Definitions).
pub const SKEW_SECONDS: i64 = 300;

/// How to audit.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditOptions {
    pub mode: LedgerMode,
    pub threshold: f64,
    /// Report only this ledger.
    pub ledger_id: Option<String>,
    /// Verification time (Unix seconds) for LEDGER-017; `None` skips that check.
    pub now: Option<i64>,
    pub limits: Limits,
}

impl Default for AuditOptions {
    /// Strict, threshold 1 (the seed's production setting).
    fn default() -> AuditOptions {
        AuditOptions {
            mode: LedgerMode::Strict,
            threshold: STRICT_THRESHOLD,
            ledger_id: None,
            now: None,
            limits: Limits::default(),
        }
    }
}

impl AuditOptions {
    /// Lenient with the seed's 0.90.
    pub fn lenient() -> AuditOptions {
        AuditOptions {
            mode: LedgerMode::Lenient,
            threshold: LENIENT_DEFAULT_THRESHOLD,
            ..AuditOptions::default()
        }
    }
}

/// The seed's Step 3 `audit_coverage` numbers, kept next to the template's: its
/// `cited_claims` is `total - uncited`, which counts claims exempt from attribution as cited
/// (the profile follows the template; `is_compliant` is the same at threshold 1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SeedAuditCoverage {
    pub total_claims: u64,
    pub cited_claims: u64,
    pub is_compliant: bool,
}

/// The audit of one ledger's records.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LedgerAudit {
    /// `null` for the records that carry no ledger id.
    pub ledger_id: Option<String>,
    pub first_line: u64,
    pub records: u64,
    #[serde(flatten)]
    pub coverage: CoverageReport,
    /// Claims with `requires_proof` false (kept, not counted: seed pitfall 3).
    pub exempt_claims: u64,
    /// Line numbers of the uncited required claims, in `uncited_claims` order.
    pub uncited_lines: Vec<u64>,
    /// `Coverage: cited/required | Compliant: bool`.
    pub summary: String,
    pub audit_coverage: SeedAuditCoverage,
    pub incidents: Vec<Incident>,
}

/// The audit of a whole file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditReport {
    /// No error anywhere and every reported ledger compliant.
    pub ok: bool,
    pub mode: LedgerMode,
    pub threshold: f64,
    /// Records read (well-formed or not).
    pub records: u64,
    pub ledgers: Vec<LedgerAudit>,
    /// Incidents about the file and its records (framing, shape, options).
    pub incidents: Vec<Incident>,
}

impl AuditReport {
    pub fn has_errors(&self) -> bool {
        self.incidents
            .iter()
            .chain(self.ledgers.iter().flat_map(|l| l.incidents.iter()))
            .any(|i| i.severity == Severity::Error)
    }
}

/// Reads every record of an audit file (framing and shape checked) and the LEDGER-011 blocks:
/// the records of one ledger id must be one contiguous block.
pub(crate) struct ReadFile {
    pub records: Vec<Record>,
    pub lines: u64,
    pub incidents: Vec<Incident>,
    /// Lines where a ledger id starts a second (third, ...) block.
    pub reused: Vec<(String, u64)>,
    /// Ledger ids of records whose shape failed (their `ledger_id` was still a string).
    pub unreadable: std::collections::HashSet<String>,
}

pub(crate) fn read_file(bytes: &[u8], limits: &Limits) -> ReadFile {
    let framed = frame(bytes, limits);
    let mut incidents = framed.incidents;
    let lines = framed.lines.len() as u64;
    let mut records = Vec::with_capacity(framed.lines.len());
    let mut unreadable = std::collections::HashSet::new();
    for line in &framed.lines {
        match record::read(&line.value, line.number, &mut incidents) {
            Some(r) => records.push(r),
            None => {
                if let Some(id) = line
                    .value
                    .get("ledger_id")
                    .and_then(serde_json::Value::as_str)
                {
                    unreadable.insert(id.to_owned());
                }
            }
        }
    }
    incidents.sort_by_key(|i| i.location.line);
    let mut reused = Vec::new();
    let mut closed: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut current: Option<&str> = None;
    for r in &records {
        let id = r.ledger_id.as_deref();
        if id != current {
            if let Some(prev) = current {
                closed.insert(prev);
            }
            if let Some(id) = id
                && closed.contains(id)
            {
                reused.push((id.to_owned(), r.line));
            }
            current = id;
        }
    }
    ReadFile {
        records,
        lines,
        incidents,
        reused,
        unreadable,
    }
}

fn at(line: u64, pointer: &str) -> Location {
    Location {
        line: Some(line),
        pointer: Some(pointer.to_owned()),
        ..Location::default()
    }
}

/// LEDGER-013: within one ledger, every use of a source identifier names the same source.
/// Each source is canonicalized once and compared with the first one's canonical bytes, so the
/// work is linear in the size of the records (a huge first source followed by many small ones
/// costs no more than reading them).
pub(crate) fn dedup_incidents<'r>(records: impl IntoIterator<Item = &'r Record>) -> Vec<Incident> {
    let mut seen: HashMap<&str, (u64, Vec<u8>)> = HashMap::new();
    let mut out = Vec::new();
    for r in records {
        let Some((id, value)) = &r.source_key else {
            continue;
        };
        let canonical = citeproof_model::jcs::canonicalize(value);
        match seen.get(id.as_str()) {
            None => {
                seen.insert(id, (r.line, canonical));
            }
            Some((first, first_canonical)) if *first_canonical != canonical => {
                out.push(Incident::new(
                    IncidentCode::LedgerSourceDeduplicated,
                    format!(
                        "source identifier `{id}` already names a different source reference on line {first}: one identifier per tool call and retrieval (seed 003 pitfall 4)"
                    ),
                    at(r.line, match r.form {
                        record::Form::Export => "/source/identifier",
                        record::Form::Template => "/source_id",
                    }),
                ));
            }
            Some(_) => {}
        }
    }
    out
}

/// LEDGER-017: the first timestamp of `records` later than `now` + skew, as a warning.
pub(crate) fn future_incident<'r>(
    records: impl IntoIterator<Item = &'r Record>,
    now: Option<i64>,
) -> Option<Incident> {
    let limit = now?.saturating_add(SKEW_SECONDS);
    records.into_iter().find_map(|r| {
        let (pointer, t) = if instant(&r.time).0 > limit {
            (
                match r.form {
                    record::Form::Export => "/logged_at",
                    record::Form::Template => "/recorded_at",
                },
                &r.time,
            )
        } else {
            let f = r.fetched_at.as_ref().filter(|f| instant(f).0 > limit)?;
            ("/source/fetched_at", f)
        };
        Some(Incident::new(
            IncidentCode::LedgerTimestampFuture,
            format!("{t} is later than the verification time plus {SKEW_SECONDS} s"),
            at(r.line, pointer),
        ))
    })
}

/// The coverage audit of an audit file.
pub fn audit(bytes: &[u8], options: &AuditOptions) -> AuditReport {
    let file = read_file(bytes, &options.limits);
    let mut incidents = file.incidents;
    if let Some(reason) = threshold_problem(options.mode, options.threshold) {
        incidents.insert(
            0,
            Incident::new(
                IncidentCode::LedgerThresholdInvalid,
                format!("threshold {}: {reason}", options.threshold),
                Location::default(),
            ),
        );
    }
    // Groups in order of first appearance.
    let mut order: Vec<Option<&str>> = Vec::new();
    let mut groups: HashMap<Option<&str>, Vec<&Record>> = HashMap::new();
    for r in &file.records {
        let key = r.ledger_id.as_deref();
        if let Some(filter) = &options.ledger_id
            && key != Some(filter.as_str())
        {
            continue;
        }
        groups
            .entry(key)
            .or_insert_with(|| {
                order.push(key);
                Vec::new()
            })
            .push(r);
    }
    let mut ledgers = Vec::new();
    for key in order {
        let Some(records) = groups.get(&key) else {
            continue;
        };
        ledgers.push(audit_group(key, records, &file.reused, options));
    }
    let mut report = AuditReport {
        ok: false,
        mode: options.mode,
        threshold: options.threshold,
        records: file.lines,
        ledgers,
        incidents,
    };
    report.ok = !report.has_errors() && report.ledgers.iter().all(|l| l.coverage.is_compliant);
    report
}

fn audit_group(
    key: Option<&str>,
    records: &[&Record],
    reused: &[(String, u64)],
    options: &AuditOptions,
) -> LedgerAudit {
    let coverage = CoverageReport::compute(
        records
            .iter()
            .map(|r| (r.claim.as_str(), r.requires_proof, r.cited)),
        options.threshold,
    );
    let uncited_lines: Vec<u64> = records
        .iter()
        .filter(|r| r.requires_proof && !r.cited)
        .map(|r| r.line)
        .collect();
    let total = records.len() as u64;
    let exempt = records.iter().filter(|r| !r.requires_proof).count() as u64;
    let first_line = records.first().map_or(0, |r| r.line);
    let mut incidents = Vec::new();
    match key {
        None => incidents.push(Incident::new(
            IncidentCode::LedgerRecordUnidentified,
            format!(
                "{total} record(s) carry no `ledger_id`: the requests they come from cannot be told apart, so they are audited as one ledger"
            ),
            at(first_line, ""),
        )),
        Some(id) => {
            for (_, line) in reused.iter().filter(|(r, _)| r == id) {
                incidents.push(Incident::new(
                    IncidentCode::LedgerIdReused,
                    format!("ledger id `{id}` starts a second block of records here (its first block starts on line {first_line})"),
                    at(*line, "/ledger_id"),
                ));
            }
        }
    }
    incidents.extend(dedup_incidents(records.iter().copied()));
    incidents.extend(future_incident(records.iter().copied(), options.now));
    LedgerAudit {
        ledger_id: key.map(str::to_owned),
        first_line,
        records: total,
        exempt_claims: exempt,
        uncited_lines,
        summary: coverage.summary(),
        audit_coverage: SeedAuditCoverage {
            total_claims: total,
            cited_claims: total - coverage.uncited_claims.len() as u64,
            is_compliant: coverage.uncited_claims.is_empty(),
        },
        coverage,
        incidents,
    }
}

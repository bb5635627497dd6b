//! The coverage audit of a JSONL audit file (the seed's `audit_coverage` / `summary()` and the
//! template's `validate_and_finalize` arithmetic), per ledger when the append-only file holds
//! many: records are grouped by `ledger_id` (LEDGER-011); records without one (the seed's own)
//! form one group, which cannot be split into requests (`ledger-record-unidentified`).
//!
//! The audit of the whole file counts every damaged line against the file (and against the
//! ledger it names); the audit of one ledger (`ledger_id`) counts only the damage that is, or
//! may be, that ledger's and reports the rest as `ledger-audit-file-damaged` (LEDGER-008). An
//! audit that finds no record audited nothing: `ledger-audit-empty` (LEDGER-020).

use std::collections::HashMap;

use citeproof_model::ledger::LedgerMode;
use citeproof_model::{CLOCK_SKEW_SECONDS, Incident, IncidentCode, Location, Severity};
use serde::Serialize;

use crate::config::{LENIENT_DEFAULT_THRESHOLD, STRICT_THRESHOLD, threshold_problem};
use crate::coverage::CoverageReport;
use crate::file::{Owner, ReadFile, read_file};
use crate::jsonl::Limits;
use crate::record::{self, Record};
use crate::shape::{instant, source_key};

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
    /// At least one ledger audited, no error anywhere, and every reported ledger compliant.
    pub ok: bool,
    pub mode: LedgerMode,
    pub threshold: f64,
    /// Lines holding a JSON object (records, well-formed or not).
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
        let canonical = source_key(value);
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
    let limit = now?.saturating_add(CLOCK_SKEW_SECONDS);
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
            format!("{t} is later than the verification time plus {CLOCK_SKEW_SECONDS} s"),
            at(r.line, pointer),
        ))
    })
}

/// The coverage audit of an audit file.
pub fn audit(bytes: &[u8], options: &AuditOptions) -> AuditReport {
    let file = read_file(bytes, &options.limits);
    let mut incidents = file.incidents.clone();
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
    for r in file.records() {
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
    let mut ledgers: Vec<LedgerAudit> = order
        .iter()
        .filter_map(|key| {
            let records = groups.get(key)?;
            Some(audit_group(*key, records, &file, options))
        })
        .collect();
    assign_damage(&file, options, &mut ledgers, &mut incidents);
    if ledgers.is_empty() && !file.unreadable() {
        let what = match &options.ledger_id {
            Some(id) => format!("no record of ledger `{id}`"),
            None => "no record".to_owned(),
        };
        incidents.push(Incident::new(
            IncidentCode::LedgerAuditEmpty,
            format!(
                "the audit file holds {what}: there is nothing to audit, and nothing was verified"
            ),
            Location::default(),
        ));
    }
    let mut report = AuditReport {
        ok: false,
        mode: options.mode,
        threshold: options.threshold,
        records: file.objects,
        ledgers,
        incidents,
    };
    report.ok = !report.has_errors()
        && !report.ledgers.is_empty()
        && report.ledgers.iter().all(|l| l.coverage.is_compliant);
    report
}

/// Each damaged line goes to the ledger it names when that ledger is reported (the records
/// without an id for an id-less object), else to the file. Auditing one ledger, only damage
/// that is or may be its own stays an error; the rest becomes `ledger-audit-file-damaged`.
fn assign_damage(
    file: &ReadFile,
    options: &AuditOptions,
    ledgers: &mut [LedgerAudit],
    incidents: &mut Vec<Incident>,
) {
    // Where each reported ledger is, so that a line naming many ids costs one lookup per id.
    let index: HashMap<Option<String>, usize> = ledgers
        .iter()
        .enumerate()
        .map(|(k, l)| (l.ledger_id.clone(), k))
        .collect();
    for d in file.damage() {
        if let Some(target) = &options.ledger_id
            && !d.is_own(Some(target), true)
        {
            incidents.push(d.elsewhere(&format!("ledger `{target}`")));
            continue;
        }
        let home = match &d.owner {
            Owner::Ledgers(ids) => ids
                .iter()
                .find_map(|id| index.get(&Some(id.clone())).copied()),
            Owner::Unidentified => index.get(&None).copied(),
            Owner::Nobody | Owner::Unknown => None,
        };
        match home.and_then(|k| ledgers.get_mut(k)) {
            Some(l) => {
                // The damaged record leaves a hole in the ledger's `seq`: reported once, as
                // the damage (reporting rule 3).
                l.incidents
                    .retain(|i| i.code != IncidentCode::LedgerSeqBroken);
                l.incidents.extend(d.incidents.iter().cloned());
            }
            None => incidents.extend(d.incidents.iter().cloned()),
        }
    }
    incidents.sort_by_key(|i| i.location.line);
    for l in ledgers {
        l.incidents.sort_by_key(|i| i.location.line);
    }
}

/// LEDGER-018: one warning per source member name the profile does not define, at its first
/// record.
pub(crate) fn undefined_member_incidents<'r>(
    records: impl IntoIterator<Item = &'r Record>,
) -> Vec<Incident> {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for r in records {
        for name in &r.undefined {
            if seen.contains(&name.as_str()) {
                continue;
            }
            seen.push(name);
            out.push(Incident::new(
                IncidentCode::LedgerSourceMemberUndefined,
                format!(
                    "source member `{name}` is not defined by the profile: kept and compared, not interpreted"
                ),
                at(r.line, &crate::shape::child("/source", name)),
            ));
        }
    }
    out
}

fn audit_group(
    key: Option<&str>,
    records: &[&Record],
    file: &ReadFile,
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
        Some(id) => incidents.extend(file.sequence.get(id).cloned()),
    }
    incidents.extend(dedup_incidents(records.iter().copied()));
    incidents.extend(undefined_member_incidents(records.iter().copied()));
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

//! Verification of a ledger document against its audit file (and, optionally, its
//! `export_for_api` dictionary): the document on its own (see `document`), the framing and
//! records of the whole audit file (LEDGER-008, -010), the block of records carrying the
//! ledger's id (LEDGER-011) and their agreement with the claims, one by one (LEDGER-009).

use citeproof_model::json::parse_strict;
use citeproof_model::{Incident, IncidentCode, Location, Severity};
use serde::Serialize;

use crate::audit::{future_incident, read_file};
use crate::config::CoverageReport;
use crate::document::{self, Doc, DocClaim};
use crate::jsonl::Limits;
use crate::record::{Form, Record};
use crate::shape::json_equal;

/// How to verify.
#[derive(Debug, Clone, PartialEq)]
pub struct VerifyOptions {
    /// The ledger is presented as that of an emitted response (LEDGER-006/-007).
    pub emitted: bool,
    /// Verification time (Unix seconds) for LEDGER-017; `None` skips that check.
    pub now: Option<i64>,
    pub limits: Limits,
}

impl Default for VerifyOptions {
    fn default() -> VerifyOptions {
        VerifyOptions {
            emitted: true,
            now: None,
            limits: Limits::default(),
        }
    }
}

/// Which input an incident is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Subject {
    Ledger,
    Audit,
    Api,
}

/// One incident and the input it is about.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub file: Subject,
    #[serde(flatten)]
    pub incident: Incident,
}

/// The result of [`verify`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifyReport {
    /// No error-severity incident.
    pub verified: bool,
    pub ledger_id: Option<String>,
    pub emitted: bool,
    /// The coverage recomputed from the ledger's claims (when its shape holds).
    pub coverage: Option<CoverageReport>,
    /// Records of this ledger found in the audit file.
    pub records: u64,
    pub incidents: Vec<Finding>,
}

/// Verifies `ledger` (JSON text) against `audit` (JSONL text) and, when given, `api` (JSON
/// text of the seed's `export_for_api`).
pub fn verify(
    ledger: &[u8],
    audit: &[u8],
    api: Option<&[u8]>,
    options: &VerifyOptions,
) -> VerifyReport {
    let mut findings: Vec<Finding> = Vec::new();
    let mut push = |file: Subject, incidents: Vec<Incident>| {
        findings.extend(
            incidents
                .into_iter()
                .map(|incident| Finding { file, incident }),
        );
    };
    let mut ledger_incidents = Vec::new();
    let doc = match parse_strict(ledger) {
        Ok(value) => document::check(&value, options.emitted, options.now, &mut ledger_incidents),
        Err(e) => {
            ledger_incidents.push(e.to_incident());
            None
        }
    };
    push(Subject::Ledger, ledger_incidents);

    let file = read_file(audit, &options.limits);
    let mut audit_incidents = file.incidents;
    let mut records = 0;
    if let Some(doc) = &doc {
        let mine: Vec<&Record> = file
            .records
            .iter()
            .filter(|r| r.ledger_id.as_deref() == Some(doc.ledger_id.as_str()))
            .collect();
        records = mine.len() as u64;
        let reused: Vec<u64> = file
            .reused
            .iter()
            .filter(|(id, _)| *id == doc.ledger_id)
            .map(|(_, line)| *line)
            .collect();
        if file.unreadable.contains(&doc.ledger_id) {
            // A record of this ledger failed its shape check (reported above): comparing the
            // others would only repeat it (reporting rule 3).
        } else if reused.is_empty() {
            compare(doc, &mine, file.lines, &mut audit_incidents);
        } else {
            for line in reused {
                audit_incidents.push(Incident::new(
                    IncidentCode::LedgerIdReused,
                    format!(
                        "a second block of records of ledger `{}` starts here: a replayed or concurrent append; the records are not compared",
                        doc.ledger_id
                    ),
                    at(line, "/ledger_id"),
                ));
            }
        }
        audit_incidents.extend(future_incident(mine.iter().copied(), options.now));
    }
    push(Subject::Audit, audit_incidents);

    if let Some(api) = api {
        let mut api_incidents = Vec::new();
        match parse_strict(api) {
            Ok(value) => crate::api::check(&value, doc.as_ref(), &mut api_incidents),
            Err(e) => api_incidents.push(e.to_incident()),
        }
        push(Subject::Api, api_incidents);
    }
    VerifyReport {
        verified: !findings
            .iter()
            .any(|f| f.incident.severity == Severity::Error),
        ledger_id: doc.as_ref().map(|d| d.ledger_id.clone()),
        emitted: options.emitted,
        coverage: doc.map(|d| d.coverage),
        records,
        incidents: findings,
    }
}

fn at(line: u64, pointer: &str) -> Location {
    Location {
        line: Some(line),
        pointer: Some(pointer.to_owned()),
        ..Location::default()
    }
}

/// LEDGER-009: one record per claim, in order, each equal to its claim. When the counts
/// differ the records are not compared one by one (reporting rule 3).
fn compare(doc: &Doc, records: &[&Record], lines: u64, out: &mut Vec<Incident>) {
    if records.len() != doc.claims.len() {
        out.push(Incident::new(
            IncidentCode::LedgerJsonlCountMismatch,
            format!(
                "the audit file holds {} record(s) of ledger `{}` (of {lines} line(s)); the ledger has {} claim(s)",
                records.len(),
                doc.ledger_id,
                doc.claims.len()
            ),
            Location {
                line: records.first().map(|r| r.line),
                ..Location::default()
            },
        ));
        return;
    }
    for (i, (r, c)) in records.iter().zip(&doc.claims).enumerate() {
        for (pointer, what) in differences(r, c) {
            out.push(Incident::new(
                IncidentCode::LedgerJsonlRecordMismatch,
                format!("{what} differs from claim {i} of the ledger"),
                at(r.line, pointer),
            ));
        }
    }
}

fn differences(r: &Record, c: &DocClaim) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    let text_pointer = match r.form {
        Form::Export => "/claim",
        Form::Template => "/text",
    };
    if r.claim != c.text {
        out.push((text_pointer, "the claim text"));
    }
    if r.requires_proof != c.requires_attribution {
        out.push(("/requires_proof", "`requires_proof`"));
    }
    match r.form {
        Form::Export => {
            if !json_equal(&r.source, &c.source) {
                out.push(("/source", "the source reference"));
            }
            if (r.claim_id.is_some() || c.claim_id.is_some()) && r.claim_id != c.claim_id {
                out.push(("/claim_id", "the claim id"));
            }
        }
        Form::Template => {
            let id = r.source_key.as_ref().map(|(id, _)| id.as_str());
            if id != c.identifier.as_deref() {
                out.push(("/source_id", "`source_id`"));
            }
            if r.source_type.as_deref() != c.category.as_deref() {
                out.push(("/source_type", "`source_type`"));
            }
        }
    }
    out
}

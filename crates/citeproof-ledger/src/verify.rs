//! Verification of a ledger document against its audit file (and, optionally, its
//! `export_for_api` dictionary): the document on its own (citeproof's, see `document`, or the
//! seed template's, see `template`), the records of the ledger in the audit file that many
//! requests share (LEDGER-008, -010, -011) and their agreement with the claims, one by one
//! (LEDGER-009). Damage on lines that are not the ledger's is reported as the warning
//! `ledger-audit-file-damaged`: whether the ledger is whole is decided by its own records,
//! which must be exactly its claims.

use citeproof_model::json::parse_strict;
use citeproof_model::{
    Findings, Incident, IncidentCode, Item, Location, Report, Severity, SourceView,
    Subject as ReportSubject, SubjectKind,
};
use serde::Serialize;

use crate::audit::future_incident;
use crate::coverage::CoverageReport;
use crate::document::{self, Doc, DocClaim, Form};
use crate::file::{Entry, ReadFile, read_file};
use crate::jsonl::Limits;
use crate::record::{self, Record};
use crate::shape::{same_instant, source_key};
use crate::template::{self, TemplateConfig};

/// How to verify.
#[derive(Debug, Clone, PartialEq)]
pub struct VerifyOptions {
    /// The ledger is presented as that of an emitted response (LEDGER-006/-007).
    pub emitted: bool,
    /// Verification time (Unix seconds) for LEDGER-017; `None` skips that check.
    pub now: Option<i64>,
    pub limits: Limits,
    /// The mode and threshold of a template ledger, which does not state them (LEDGER-019);
    /// `None`: strict, threshold 1 (the template's production setting). Not read for
    /// citeproof's ledger document, which states its own.
    pub template: Option<TemplateConfig>,
}

impl Default for VerifyOptions {
    fn default() -> VerifyOptions {
        VerifyOptions {
            emitted: true,
            now: None,
            limits: Limits::default(),
            template: None,
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

/// What a ledger report carries besides the common verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LedgerDetails {
    /// `ledger` (citeproof's document), `ledger-template` (the seed template's), or `null`
    /// when the document could not be read.
    pub kind: Option<&'static str>,
    pub ledger_id: Option<String>,
    pub emitted: bool,
    /// The coverage recomputed from the ledger's claims (when its shape holds).
    pub coverage: Option<CoverageReport>,
    /// Records of this ledger found in the audit file.
    pub records: u64,
    /// The input each incident is about, in the order of `incidents`.
    pub incident_files: Vec<Subject>,
}

/// The result of [`verify`]: the common report shape ([`citeproof_model::Report`], spec
/// `ledger`) with [`LedgerDetails`]. A ledger has one level: verified when no incident of
/// severity error was found in any input.
pub type VerifyReport = Report<LedgerDetails>;

/// The incidents of a report with the input each is about.
pub fn findings(report: &VerifyReport) -> Vec<Finding> {
    report
        .verdict
        .incidents
        .iter()
        .zip(&report.details.incident_files)
        .map(|(i, file)| Finding {
            file: *file,
            incident: i.incident.clone(),
        })
        .collect()
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
        Ok(value) if template::is_template(&value) => template::check(
            &value,
            Some(options.template.unwrap_or(TemplateConfig {
                mode: citeproof_model::ledger::LedgerMode::Strict,
                threshold: crate::config::STRICT_THRESHOLD,
            })),
            options.emitted,
            options.now,
            &mut ledger_incidents,
        ),
        Ok(value) => document::check(&value, options.emitted, options.now, &mut ledger_incidents),
        Err(e) => {
            ledger_incidents.push(e.to_incident());
            None
        }
    };
    push(Subject::Ledger, ledger_incidents);

    let file = read_file(audit, &options.limits);
    let mut audit_incidents = file.incidents.clone();
    let mut records = 0;
    if let Some(doc) = &doc {
        let mine = match &doc.ledger_id {
            Some(id) => records_by_id(id, &file, &mut audit_incidents),
            None => records_by_content(doc, &file, &mut audit_incidents),
        };
        if let Some(mine) = mine {
            records = mine.len() as u64;
            compare(doc, &mine, file.objects, &mut audit_incidents);
            audit_incidents.extend(future_incident(mine.iter().copied(), options.now));
        }
        audit_incidents.sort_by_key(|i| i.location.line);
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
    let items = doc
        .as_ref()
        .map(|d| claim_items(d, &findings))
        .unwrap_or_default();
    let mut leveled = Findings::new();
    leveled.extend(1, findings.iter().map(|f| f.incident.clone()));
    let details = LedgerDetails {
        kind: doc.as_ref().map(|d| match d.form {
            Form::Citeproof => "ledger",
            Form::Template => "ledger-template",
        }),
        ledger_id: doc.as_ref().and_then(|d| d.ledger_id.clone()),
        emitted: options.emitted,
        coverage: doc.map(|d| d.coverage),
        records,
        incident_files: findings.iter().map(|f| f.file).collect(),
    };
    let subject = ReportSubject::new(SubjectKind::Value, "ledger").with_digest_of(ledger);
    let mut report = Report::new(crate::SPEC.name(), subject, leveled.finish(1, 1), details);
    report.items = items;
    report
}

/// `pointer` is `base` or under it.
fn under(pointer: &str, base: &str) -> bool {
    pointer == base
        || (pointer.starts_with(base) && pointer.as_bytes().get(base.len()) == Some(&b'/'))
}

/// One item per ledger claim: its text, and its source (identifier and category; a ledger
/// source carries no URL or hash of its own). The errors that concern a claim: those located
/// in it (in the ledger, or naming its id), and those located in no claim (the ledger as a
/// whole, a record of the audit file, the API export), which the claim cannot be told apart
/// from: a claim whose record does not match is never shown verified.
fn claim_items(doc: &Doc, findings: &[Finding]) -> Vec<Item> {
    doc.claims
        .iter()
        .enumerate()
        .map(|(n, c)| {
            let at = format!("/claims/{n}");
            let mut failed: Vec<String> = Vec::new();
            for f in findings {
                let pointer = f.incident.location.pointer.as_deref().unwrap_or("");
                let named = f.incident.location.claim_id.as_deref();
                let in_ledger = f.file == Subject::Ledger;
                let concerns = (in_ledger && under(pointer, &at))
                    || (named.is_some() && named == c.claim_id.as_deref())
                    || (named.is_none() && !(in_ledger && under(pointer, "/claims")));
                let code = f.incident.code.as_str();
                if concerns
                    && f.incident.severity == Severity::Error
                    && !failed.iter().any(|c| c == code)
                {
                    failed.push(code.to_owned());
                }
            }
            let sources = c
                .identifier
                .iter()
                .map(|identifier| SourceView {
                    url: identifier.clone(),
                    locator: c.category.clone(),
                    declared_hash: None,
                    computed_hash: None,
                    excerpt: None,
                    verified: failed.is_empty(),
                    failed: Vec::new(),
                })
                .collect();
            Item {
                kind: "claim".into(),
                id: c.claim_id.clone().unwrap_or_else(|| at.clone()),
                text: Some(c.text.clone()),
                verified: failed.is_empty(),
                verdict: None,
                failed,
                sources,
                items: Vec::new(),
            }
        })
        .collect()
}

/// The records carrying the ledger's id (LEDGER-011). Damage on a line that names the id is
/// an error; other damage is reported elsewhere. `None` (the records are not compared:
/// reporting rule 3) when a record of the ledger is damaged or their order is broken.
fn records_by_id<'f>(
    id: &str,
    file: &'f ReadFile,
    out: &mut Vec<Incident>,
) -> Option<Vec<&'f Record>> {
    let mut damaged = false;
    for d in file.damage() {
        if d.is_own(Some(id), false) {
            damaged = true;
            out.extend(d.incidents.iter().cloned());
        } else {
            out.push(d.elsewhere(&format!("ledger `{id}`")));
        }
    }
    if damaged || file.unreadable() {
        // A damaged record of the ledger leaves a hole in its `seq` too: reported once, as
        // the damage (reporting rule 3).
        return None;
    }
    if let Some(problem) = file.sequence.get(id) {
        out.push(problem.clone());
        return None;
    }
    Some(file.records_of(id))
}

/// The records of a template ledger without a ledger id (LEDGER-019): the block of
/// consecutive id-less template-form lines that starts with a record of the first claim's
/// `recorded_at`. Every damaged line is reported elsewhere; one that falls inside the block
/// breaks it.
fn records_by_content<'f>(
    doc: &Doc,
    file: &'f ReadFile,
    out: &mut Vec<Incident>,
) -> Option<Vec<&'f Record>> {
    for d in file.damage() {
        out.push(d.elsewhere("the template ledger"));
    }
    let first = doc.claims.first()?;
    let is_template_record = |e: &Entry| match e {
        Entry::Record(r) => r.ledger_id.is_none() && r.form == record::Form::Template,
        Entry::Damaged(_) => false,
    };
    let block_at = |k: usize| -> Vec<&'f Record> {
        file.entries
            .iter()
            .skip(k)
            .take(doc.claims.len())
            .map_while(|e| match e {
                Entry::Record(r) if is_template_record(e) => Some(&**r),
                _ => None,
            })
            .collect()
    };
    let starts: Vec<usize> = file
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| match e {
            Entry::Record(r) => {
                is_template_record(e)
                    && same_instant(Some(r.time.as_str()), Some(first.recorded_at.as_str()))
            }
            Entry::Damaged(_) => false,
        })
        .map(|(k, _)| k)
        .collect();
    let whole: Vec<Vec<&Record>> = starts
        .iter()
        .map(|k| block_at(*k))
        .filter(|b| {
            b.len() == doc.claims.len()
                && b.iter()
                    .zip(&doc.claims)
                    .all(|(r, c)| differences(r, c, doc.form).is_empty())
        })
        .collect();
    if let Some(second) = whole.get(1).and_then(|b| b.first()) {
        out.push(Incident::new(
            IncidentCode::LedgerIdReused,
            format!(
                "the ledger's records appear again from here (first from line {}): they were appended more than once",
                whole.first().and_then(|b| b.first()).map_or(0, |r| r.line)
            ),
            at(second.line, "/recorded_at"),
        ));
        return None;
    }
    if let Some(block) = whole.into_iter().next() {
        return Some(block);
    }
    let Some(k) = starts.first() else {
        out.push(Incident::new(
            IncidentCode::LedgerJsonlCountMismatch,
            format!(
                "no template-form record without a ledger id was recorded at {} (the first claim's `recorded_at`): the ledger's records are not in the audit file",
                first.recorded_at
            ),
            Location::default(),
        ));
        return None;
    };
    Some(block_at(*k))
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
    let name = doc.ledger_id.as_deref().map_or_else(
        || "the template ledger".to_owned(),
        |id| format!("ledger `{id}`"),
    );
    if records.len() != doc.claims.len() {
        out.push(Incident::new(
            IncidentCode::LedgerJsonlCountMismatch,
            format!(
                "the audit file holds {} record(s) of {name} (of {lines} line(s)); the ledger has {} claim(s)",
                records.len(),
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
        for (pointer, what) in differences(r, c, doc.form) {
            out.push(Incident::new(
                IncidentCode::LedgerJsonlRecordMismatch,
                format!("{what} differs from claim {i} of the ledger"),
                at(r.line, pointer),
            ));
        }
    }
}

/// Where a record differs from its claim. Sources compare as LEDGER-009 says: the whole
/// reference, timestamps as instants, when both are references; identifier and category when
/// one side only names its source (a template record or claim).
fn differences(r: &Record, c: &DocClaim, form: Form) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    let text_pointer = match r.form {
        record::Form::Export => "/claim",
        record::Form::Template => "/text",
    };
    if r.claim != c.text {
        out.push((text_pointer, "the claim text"));
    }
    if r.requires_proof != c.requires_attribution {
        out.push(("/requires_proof", "`requires_proof`"));
    }
    match (r.form, form) {
        (record::Form::Export, Form::Citeproof) => {
            if source_key(&r.source) != source_key(&c.source) {
                out.push(("/source", "the source reference"));
            }
        }
        (record::Form::Export, Form::Template) => {
            let id = r.source.get("identifier").and_then(|v| v.as_str());
            let category = r.source.get("category").and_then(|v| v.as_str());
            if id != c.identifier.as_deref() || category != c.category.as_deref() {
                out.push(("/source", "the source reference"));
            }
        }
        (record::Form::Template, _) => {
            let id = r.source_key.as_ref().map(|(id, _)| id.as_str());
            if id != c.identifier.as_deref() {
                out.push(("/source_id", "`source_id`"));
            }
            if r.source_type.as_deref() != c.category.as_deref() {
                out.push(("/source_type", "`source_type`"));
            }
            if !same_instant(Some(r.time.as_str()), Some(c.recorded_at.as_str())) {
                out.push(("/recorded_at", "`recorded_at`"));
            }
        }
    }
    if r.form == record::Form::Export
        && (r.claim_id.is_some() || c.claim_id.is_some())
        && r.claim_id != c.claim_id
    {
        out.push(("/claim_id", "the claim id"));
    }
    out
}

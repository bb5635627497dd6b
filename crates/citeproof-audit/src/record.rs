//! The one record type, built from the serialized common report of any spec.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::AuditError;

/// A document a verification fetched and identified by digest (an ACA manifest): what the
/// reuse check of ACA-L2-022 looks up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocumentUse {
    pub url: String,
    /// `sha256:<hex>` of the document's bytes as served.
    pub digest: String,
    /// The run the document says it belongs to, when it says one.
    pub run_id: Option<String>,
}

/// One incident of a verification, as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedIncident {
    pub level: u8,
    pub code: String,
    pub severity: String,
    pub message: String,
    /// The incident's location object (pointer, offset, url, claim), `{}` when it has none.
    pub location: Value,
}

/// One verification, as recorded. Every field but `report` is a projection of the report
/// (or of the recording: `recorded_at`, `input_key`, `documents`) kept as columns so that
/// listing and counting are indexed queries; the chain covers the whole record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// `aca`, `aef`, `chain`, `ledger`, `archive`.
    pub spec: String,
    /// `url`, `snapshot`, `file`, `stdin`, `value`.
    pub subject_kind: String,
    /// What was verified: the response URL, the evidence file, ...
    pub subject: String,
    /// `sha256:<hex>` of the bytes verified, when they were read whole.
    pub subject_digest: Option<String>,
    /// The verification time (Unix seconds), as given to the verifier (`--now`).
    pub verified_at: i64,
    /// When the record was written (Unix seconds, the recorder's clock).
    pub recorded_at: i64,
    pub level: u8,
    pub required_level: u8,
    pub verified: bool,
    /// `verified`, `not-verified` or `could-not-check`.
    pub outcome: String,
    /// The input and configuration digest a resumed batch skips on (`None`: not from a batch).
    pub input_key: Option<String>,
    pub incidents: Vec<RecordedIncident>,
    pub documents: Vec<DocumentUse>,
    /// The common report as the verifier printed it (`--json` without the envelope): trust
    /// used, items with sources, hashes and judged excerpts, the spec's details.
    pub report: Value,
}

const OUTCOMES: [&str; 3] = ["verified", "not-verified", "could-not-check"];

impl Record {
    /// The record of a common report (`Report<D>`, or any value that serializes to its shape).
    pub fn of<R: serde::Serialize>(
        report: &R,
        recorded_at: i64,
        verified_at: i64,
    ) -> Result<Record, AuditError> {
        let value = serde_json::to_value(report).map_err(|e| AuditError::Record(e.to_string()))?;
        Record::from_report(value, recorded_at, verified_at)
    }

    /// Builds the record of a serialized common report (`serde_json::to_value(&Report<D>)`).
    /// A value that is not of the common shape is refused with `audit-record`.
    pub fn from_report(
        report: Value,
        recorded_at: i64,
        verified_at: i64,
    ) -> Result<Record, AuditError> {
        let bad = |what: &str| AuditError::Record(format!("the report has no valid {what}"));
        let obj = report.as_object().ok_or_else(|| bad("object"))?;
        let str_of = |v: Option<&Value>, what: &str| {
            v.and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| bad(what))
        };
        let level_of = |key: &str| {
            obj.get(key)
                .and_then(Value::as_u64)
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(|| bad(key))
        };
        let subject = obj.get("subject").ok_or_else(|| bad("subject"))?;
        let outcome = str_of(obj.get("outcome"), "outcome")?;
        if !OUTCOMES.contains(&outcome.as_str()) {
            return Err(bad("outcome"));
        }
        let verified = obj
            .get("verified")
            .and_then(Value::as_bool)
            .ok_or_else(|| bad("verified"))?;
        if verified != (outcome == "verified") {
            return Err(AuditError::Record(
                "the report's `verified` and `outcome` disagree".into(),
            ));
        }
        let incidents = obj
            .get("incidents")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("incidents"))?
            .iter()
            .map(|i| incident_of(i).ok_or_else(|| bad("incident")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Record {
            spec: str_of(obj.get("spec"), "spec")?,
            subject_kind: str_of(subject.get("kind"), "subject kind")?,
            subject: str_of(subject.get("name"), "subject name")?,
            subject_digest: subject
                .get("digest")
                .and_then(Value::as_str)
                .map(str::to_owned),
            verified_at,
            recorded_at,
            level: level_of("level")?,
            required_level: level_of("required_level")?,
            verified,
            outcome,
            input_key: None,
            incidents,
            documents: Vec::new(),
            report,
        })
    }

    /// The record with the documents it saw (ACA manifests).
    pub fn with_documents(mut self, documents: Vec<DocumentUse>) -> Record {
        self.documents = documents;
        self
    }

    /// The record with the batch input key (see [`input_key`]).
    pub fn with_input_key(mut self, key: String) -> Record {
        self.input_key = Some(key);
        self
    }

    /// The RFC 8785 (JCS) form the chain hashes and the store keeps.
    pub fn canonical(&self) -> Result<String, AuditError> {
        serde_json_canonicalizer::to_string(self).map_err(|e| AuditError::Record(e.to_string()))
    }

    /// Parses a stored canonical form.
    pub fn parse(text: &str) -> Result<Record, AuditError> {
        serde_json::from_str(text).map_err(|e| AuditError::Record(e.to_string()))
    }
}

fn incident_of(v: &Value) -> Option<RecordedIncident> {
    Some(RecordedIncident {
        level: u8::try_from(v.get("level")?.as_u64()?).ok()?,
        code: v.get("code")?.as_str()?.to_owned(),
        severity: v.get("severity")?.as_str()?.to_owned(),
        message: v.get("message")?.as_str()?.to_owned(),
        location: v
            .get("location")
            .cloned()
            .unwrap_or_else(|| Value::Object(serde_json::Map::new())),
    })
}

/// The key a resumed batch skips on: SHA-256 over the JCS form of the spec, the input (the
/// digest of its bytes, or its URL) and the configuration that can change the verdict (level,
/// trust, time, options), so that a changed input or configuration is verified again.
pub fn input_key(spec: &str, input: &str, configuration: &Value) -> Result<String, AuditError> {
    let value = serde_json::json!({"spec": spec, "input": input, "configuration": configuration});
    let text = serde_json_canonicalizer::to_string(&value)
        .map_err(|e| AuditError::Record(e.to_string()))?;
    Ok(crate::chain::sha256_tag(text.as_bytes()))
}

//! The audit store: every verification a verifier ran, with its level, incidents and the
//! manifests it saw, kept so that auditors can list and count them and so that a manifest
//! reused across responses can be seen (a single response cannot show it).
//!
//! [`AuditStore`] is the interface; [`SqliteStore`] is the default, an embedded SQLite database
//! in WAL mode (`citeproof aca verify --record audit.db`, `citeproof audit`). A server database
//! can implement the same trait.
//!
//! The store is spec-neutral: a [`VerificationRecord`] names its spec and subject, and the
//! documents it saw ([`DocumentUse`]: a digest, a URL and the run it claimed). What "reuse"
//! means is the spec's decision (profile ACA-L2-022); the store only answers which earlier
//! verifications saw a digest.

mod sqlite;

pub use sqlite::SqliteStore;

use citeproof_model::{Incident, Severity};
use serde::Serialize;

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuditError {
    /// The database could not be opened, read or written.
    #[error("audit database: {0}")]
    Database(#[from] rusqlite::Error),
    /// The database was written by an incompatible version of citeproof.
    #[error("audit database schema version {found}, this citeproof reads version {expected}")]
    SchemaVersion { found: i64, expected: i64 },
    /// A stored report could not be (de)serialized.
    #[error("audit record: {0}")]
    Record(String),
}

impl AuditError {
    /// Stable code for messages and `--json` output.
    pub fn code(&self) -> &'static str {
        match self {
            AuditError::Database(_) => "audit-database",
            AuditError::SchemaVersion { .. } => "audit-schema-version",
            AuditError::Record(_) => "audit-record",
        }
    }
}

/// A document a verification fetched and identified by digest (an ACA manifest).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocumentUse {
    pub url: String,
    /// `sha256:<hex>` of the document's bytes as served.
    pub digest: String,
    /// The run the document says it belongs to, when it says one.
    pub run_id: Option<String>,
}

/// One incident of a verification, with the level it counts toward.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordedIncident {
    pub level: u8,
    #[serde(flatten)]
    pub incident: Incident,
}

/// One verification, as it is recorded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerificationRecord {
    /// `aca`, `aef`, `chain`, ...
    pub spec: String,
    /// What was verified: the response URL, the evidence file, ...
    pub subject: String,
    /// The verification time (Unix seconds), as given to the verifier.
    pub verified_at: i64,
    pub level: u8,
    pub required_level: u8,
    pub verified: bool,
    pub documents: Vec<DocumentUse>,
    pub incidents: Vec<RecordedIncident>,
    /// The full report as the verifier printed it with `--json`.
    pub report: serde_json::Value,
}

/// An earlier verification that saw a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PriorUse {
    pub verification_id: i64,
    pub subject: String,
    pub verified_at: i64,
    pub url: String,
    pub run_id: Option<String>,
}

/// A stored verification, as listed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StoredVerification {
    pub id: i64,
    pub spec: String,
    pub subject: String,
    pub verified_at: i64,
    pub level: u8,
    pub required_level: u8,
    pub verified: bool,
    /// Error-severity incident codes, in order.
    pub errors: Vec<String>,
    /// Warning-severity incident codes, in order.
    pub warnings: Vec<String>,
}

/// Which verifications to list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    pub spec: Option<String>,
    pub subject: Option<String>,
    /// Only verifications with an incident of this code.
    pub code: Option<String>,
    /// Only verifications that did (`Some(true)`) or did not reach their required level.
    pub verified: Option<bool>,
    /// At most this many, newest first (`None`: all).
    pub limit: Option<u32>,
}

/// Counts over the whole store.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub verifications: u64,
    pub verified: u64,
    pub not_verified: u64,
    /// `(spec, level achieved, count)`, ordered.
    pub by_level: Vec<(String, u8, u64)>,
    /// `(code, severity, verifications raising it)`, most frequent first.
    pub by_code: Vec<(String, String, u64)>,
    /// Documents seen by more than one verification under different runs or subjects:
    /// `(digest, distinct runs, distinct subjects)`.
    pub reused_documents: Vec<(String, u64, u64)>,
}

/// Where verifications are kept.
pub trait AuditStore {
    /// Stores one verification; returns its id.
    fn record(&mut self, record: &VerificationRecord) -> Result<i64, AuditError>;
    /// Earlier verifications that saw a document with this digest, oldest first.
    fn prior_uses(&self, digest: &str) -> Result<Vec<PriorUse>, AuditError>;
    /// Stored verifications matching `filter`, newest first.
    fn list(&self, filter: &Filter) -> Result<Vec<StoredVerification>, AuditError>;
    /// The full JSON report of one verification.
    fn report(&self, id: i64) -> Result<Option<serde_json::Value>, AuditError>;
    fn summary(&self) -> Result<Summary, AuditError>;
}

fn severity_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

//! The audit store: the auditor's system of record. Every verification of every spec, recorded
//! from the common report (`citeproof_model::Report`, serialized), kept so that it can be listed,
//! counted, shown claim by claim and re-checked later without the network, and so that a
//! manifest reused across responses can be seen (ACA-L2-022; a single response cannot show it).
//!
//! - [`Record`] is the one record type: subject and digest, times, spec, level, outcome, trust
//!   used, every incident, the report's items (sources, hashes, judged excerpts) and the report
//!   JSON itself, built by [`Record::from_report`].
//! - Rows are append-only and **hash-chained** ([`chain`]): each row commits to the previous
//!   row's hash over the RFC 8785 (JCS) form of its record, so editing, deleting or reordering
//!   rows is found by [`AuditStore::verify_chain`]; ids are never reused.
//! - [`AuditStore`] is the interface; [`SqliteStore`] (embedded default, WAL, FULL sync) and
//!   [`PostgresStore`] (`postgres://` targets, for teams) implement it; [`open`] picks one.
//! - [`AuditStore::append`] runs a history check and the write in one transaction under the
//!   store's write lock, so that two verifications submitted at the same instant cannot both miss
//!   each other (the ACA reuse race).
//! - [`aca::check_and_record`] is ACA's reuse check and record in one such transaction, the one
//!   spec-specific step (the CLI and the Python package both call it).
//! - [`render`] turns a recorded report into HTML, Markdown, CSV or JSON for a person.

pub mod aca;
mod backend;
pub mod chain;
mod error;
mod filter;
mod pg_store;
mod record;
pub mod render;
mod sql;
mod sqlite;

pub use error::AuditError;
pub use filter::{Filter, parse_since};
pub use pg_store::PostgresStore;
pub use record::{DocumentUse, Record, RecordedIncident, input_key};
pub use sqlite::SqliteStore;

use serde::Serialize;

/// An earlier verification that saw a document (an ACA manifest) with a digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PriorUse {
    pub verification_id: i64,
    pub digest: String,
    pub subject: String,
    pub verified_at: i64,
    pub url: String,
    pub run_id: Option<String>,
}

/// A stored verification, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Listed {
    pub id: i64,
    pub spec: String,
    pub subject: String,
    pub verified_at: i64,
    pub level: u8,
    pub required_level: u8,
    pub verified: bool,
    /// `verified`, `not-verified` or `could-not-check`.
    pub outcome: String,
    /// Error-severity incident codes, in order.
    pub errors: Vec<String>,
}

/// Counts over the verifications a [`Filter`] selects.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub verifications: u64,
    /// Verifications whose outcome is `verified`.
    pub verified: u64,
    /// `(outcome, count)`, ordered by outcome.
    pub by_outcome: Vec<(String, u64)>,
    /// `(spec, count)`.
    pub by_spec: Vec<(String, u64)>,
    /// `(code, severity, verifications raising it)`, most frequent first.
    pub by_code: Vec<(String, String, u64)>,
    /// `(UTC day YYYY-MM-DD, verifications, verified)`, oldest first.
    pub by_day: Vec<(String, u64, u64)>,
    /// Documents seen by more than one verification under different runs or subjects:
    /// `(digest, distinct runs, distinct subjects)`.
    pub reused_documents: Vec<(String, u64, u64)>,
}

/// The newest row of the chain: what an auditor writes down or publishes
/// (`citeproof audit head`), and later checks the store still extends (`audit verify --head`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Head {
    pub id: i64,
    /// `sha256:<hex>` of the row.
    pub hash: String,
    /// Rows in the chain.
    pub rows: u64,
}

impl Head {
    /// `ID:sha256:HEX`, the form `--head` takes.
    pub fn token(&self) -> String {
        format!("{}:{}", self.id, self.hash)
    }
}

/// One stored verification with its chain fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    pub id: i64,
    pub record: Record,
    pub prev_hash: String,
    pub row_hash: String,
}

/// Where verifications are kept. Every method that reads may be used on a store opened
/// read-only; only [`AuditStore::append`] writes.
pub trait AuditStore {
    /// Appends one verification in one transaction under the store's write lock: reads the
    /// earlier uses of `digests` (oldest first), hands them to `make`, and stores the record
    /// it returns, chained to the head. Nothing is stored when `make` fails. Returns the new
    /// row's id and hash.
    fn append(
        &mut self,
        digests: &[String],
        make: &mut dyn FnMut(&[PriorUse]) -> Result<Record, AuditError>,
    ) -> Result<Head, AuditError>;

    /// Appends a record that needs no history.
    fn record(&mut self, record: &Record) -> Result<Head, AuditError> {
        self.append(&[], &mut |_| Ok(record.clone()))
    }

    /// Earlier verifications that saw a document with this digest, oldest first.
    fn prior_uses(&mut self, digest: &str) -> Result<Vec<PriorUse>, AuditError>;

    /// Verifications matching `filter`, newest first.
    fn list(&mut self, filter: &Filter) -> Result<Vec<Listed>, AuditError>;

    /// Counts over the verifications matching `filter`.
    fn summary(&mut self, filter: &Filter) -> Result<Summary, AuditError>;

    /// One verification.
    fn get(&mut self, id: i64) -> Result<Option<Stored>, AuditError>;

    /// The id of a verification of the same input under the same configuration
    /// ([`Record::input_key`]), if one is stored (a resumed batch skips it).
    fn find_input(&mut self, input_key: &str) -> Result<Option<i64>, AuditError>;

    /// The newest row, or `None` for an empty store.
    fn head(&mut self) -> Result<Option<Head>, AuditError>;

    /// Recomputes the whole chain (and checks every projected column against the record it
    /// was projected from); `expected` is a head written down earlier that the chain must
    /// still contain.
    fn verify_chain(&mut self, expected: Option<&Head>) -> Result<chain::ChainCheck, AuditError>;
}

/// What kind of access a command needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Reading commands: never create, never write, work on read-only files and mounts.
    Read,
    /// Recording: create the store if needed.
    Write,
}

/// Opens the store named by `target`: a `postgres://` or `postgresql://` URL, else a SQLite
/// file path.
pub fn open(target: &str, access: Access) -> Result<Box<dyn AuditStore + Send>, AuditError> {
    if is_postgres_url(target) {
        Ok(Box::new(PostgresStore::connect(target, access)?))
    } else {
        Ok(Box::new(SqliteStore::open(
            std::path::Path::new(target),
            access,
        )?))
    }
}

/// Whether a `--record`/`--db` target names a PostgreSQL server.
pub fn is_postgres_url(target: &str) -> bool {
    let lower = target.get(..13).unwrap_or(target).to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// A store target as it may be shown: a `postgres://` URL without its password (an unparsable
/// one not at all); a file path as given.
pub fn redact(target: &str) -> String {
    if !is_postgres_url(target) {
        return target.to_owned();
    }
    match url::Url::parse(target) {
        Ok(mut u) => {
            if u.password().is_some() {
                let _ = u.set_password(Some("***"));
            }
            u.to_string()
        }
        Err(_) => "postgres://(unparsable URL)".into(),
    }
}

/// Runs `op`, retrying with exponential backoff (and jitter from the clock) while the store
/// answers "busy"; gives up after `budget`.
pub(crate) fn with_retry<T>(
    budget: std::time::Duration,
    mut op: impl FnMut() -> Result<T, AuditError>,
) -> Result<T, AuditError> {
    let start = std::time::Instant::now();
    let mut wait = std::time::Duration::from_millis(5);
    loop {
        match op() {
            Err(e) if e.is_busy() && start.elapsed() < budget => {
                let jitter = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| u64::from(d.subsec_nanos() % 1000))
                    .unwrap_or(0);
                std::thread::sleep(wait + std::time::Duration::from_micros(jitter * 10));
                wait = (wait * 2).min(std::time::Duration::from_millis(500));
            }
            other => return other,
        }
    }
}

/// How long a writer waits for the write lock, in all, before giving up (`audit-busy`).
/// `CITEPROOF_AUDIT_BUSY_SECONDS` overrides it (tests of the give-up path).
pub(crate) fn busy_budget() -> std::time::Duration {
    let secs = std::env::var("CITEPROOF_AUDIT_BUSY_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(600);
    std::time::Duration::from_secs(secs)
}

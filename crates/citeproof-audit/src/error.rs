//! Why the store failed, each with a stable code. Every one of them leaves the data untouched:
//! a store is refused before anything is written to it.

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuditError {
    /// A reading command named a store that does not exist.
    #[error("{0} does not exist (record verifications with --record {0})")]
    NotFound(String),
    /// The file is not a database at all (garbage, a text file).
    #[error("{0} is not a database")]
    NotADatabase(String),
    /// A database of another application (or an empty database a reading command was given).
    #[error("{0} is not a citeproof audit store: {1}")]
    NotAStore(String, String),
    /// A store written by a newer citeproof.
    #[error(
        "audit store schema version {found} is newer than this citeproof's ({expected}); upgrade citeproof"
    )]
    NewerSchema { found: i64, expected: i64 },
    /// A store of a version this citeproof cannot read.
    #[error("audit store schema version {found} is not one this citeproof reads ({expected})")]
    SchemaVersion { found: i64, expected: i64 },
    /// The database is damaged.
    #[error("{0}: the database is corrupt ({1})")]
    Corrupt(String, String),
    /// The store (or its directory or mount) cannot be written.
    #[error("{0}: the store is read-only ({1})")]
    ReadOnly(String, String),
    /// The disk or the database is full.
    #[error("{0}: the disk or the database is full ({1})")]
    Full(String, String),
    /// Other writers held the lock for longer than the wait allowed.
    #[error("the audit store stayed locked by other writers for the whole wait ({0})")]
    Busy(String),
    /// Any other database failure.
    #[error("audit database: {0}")]
    Database(String),
    /// A report could not be turned into a record (it is not of the common shape).
    #[error("audit record: {0}")]
    Record(String),
}

impl AuditError {
    /// Stable code for messages and `--json` output.
    pub fn code(&self) -> &'static str {
        match self {
            AuditError::NotFound(_) => "audit-not-found",
            AuditError::NotADatabase(_) => "audit-not-a-database",
            AuditError::NotAStore(..) => "audit-not-a-store",
            AuditError::NewerSchema { .. } => "audit-schema-newer",
            AuditError::SchemaVersion { .. } => "audit-schema-version",
            AuditError::Corrupt(..) => "audit-corrupt",
            AuditError::ReadOnly(..) => "audit-read-only",
            AuditError::Full(..) => "audit-full",
            AuditError::Busy(_) => "audit-busy",
            AuditError::Database(_) => "audit-database",
            AuditError::Record(_) => "audit-record",
        }
    }

    pub(crate) fn is_busy(&self) -> bool {
        matches!(self, AuditError::Busy(_))
    }

    /// Classifies a SQLite error for the store at `path`.
    pub(crate) fn sqlite(path: &str, e: rusqlite::Error) -> AuditError {
        use rusqlite::ErrorCode as C;
        let text = e.to_string();
        match e.sqlite_error_code() {
            Some(C::NotADatabase) => AuditError::NotADatabase(path.to_owned()),
            Some(C::DatabaseCorrupt) => AuditError::Corrupt(path.to_owned(), text),
            Some(C::ReadOnly) => AuditError::ReadOnly(path.to_owned(), text),
            Some(C::DiskFull) => AuditError::Full(path.to_owned(), text),
            Some(C::DatabaseBusy | C::DatabaseLocked) => AuditError::Busy(text),
            Some(C::CannotOpen) => AuditError::Database(format!("{path}: {text}")),
            _ => AuditError::Database(format!("{path}: {text}")),
        }
    }

    /// Classifies a PostgreSQL error.
    pub(crate) fn postgres(e: &::postgres::Error) -> AuditError {
        use ::postgres::error::SqlState;
        let text = e.to_string();
        match e.code() {
            Some(c) if *c == SqlState::T_R_SERIALIZATION_FAILURE => AuditError::Busy(text),
            Some(c) if *c == SqlState::T_R_DEADLOCK_DETECTED => AuditError::Busy(text),
            Some(c) if *c == SqlState::LOCK_NOT_AVAILABLE => AuditError::Busy(text),
            Some(c) if *c == SqlState::DISK_FULL => AuditError::Full("postgres".into(), text),
            Some(c) if *c == SqlState::READ_ONLY_SQL_TRANSACTION => {
                AuditError::ReadOnly("postgres".into(), text)
            }
            Some(c) if *c == SqlState::INSUFFICIENT_PRIVILEGE => {
                AuditError::ReadOnly("postgres".into(), text)
            }
            _ => AuditError::Database(format!("postgres: {text}")),
        }
    }
}

//! The SQLite audit store. One file, WAL mode (readers do not block the verifier writing),
//! foreign keys on, a schema version in `PRAGMA user_version`.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use crate::{
    AuditError, AuditStore, Filter, PriorUse, StoredVerification, Summary, VerificationRecord,
    severity_name,
};

/// Version of the table layout below; bumped on any incompatible change.
const SCHEMA_VERSION: i64 = 1;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS verification (
    id             INTEGER PRIMARY KEY,
    spec           TEXT    NOT NULL,
    subject        TEXT    NOT NULL,
    verified_at    INTEGER NOT NULL,
    level          INTEGER NOT NULL,
    required_level INTEGER NOT NULL,
    verified       INTEGER NOT NULL CHECK (verified IN (0, 1)),
    report         TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS verification_subject ON verification(subject);
CREATE TABLE IF NOT EXISTS document_use (
    verification_id INTEGER NOT NULL REFERENCES verification(id),
    url             TEXT    NOT NULL,
    digest          TEXT    NOT NULL,
    run_id          TEXT
);
CREATE INDEX IF NOT EXISTS document_use_digest ON document_use(digest);
CREATE TABLE IF NOT EXISTS incident (
    verification_id INTEGER NOT NULL REFERENCES verification(id),
    level           INTEGER NOT NULL,
    code            TEXT    NOT NULL,
    severity        TEXT    NOT NULL,
    message         TEXT    NOT NULL,
    location        TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS incident_code ON incident(code);
";

/// The audit store in one SQLite file.
#[derive(Debug)]
pub struct SqliteStore {
    conn: Connection,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`.
    pub fn open(path: &Path) -> Result<SqliteStore, AuditError> {
        Self::init(Connection::open(path)?)
    }

    /// A store that lives in memory (tests, one-off runs).
    pub fn in_memory() -> Result<SqliteStore, AuditError> {
        Self::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<SqliteStore, AuditError> {
        // WAL lets `citeproof audit` read while a batch verification writes; an in-memory
        // database answers "memory", which is fine.
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.execute_batch("PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;")?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        match version {
            0 => {
                conn.execute_batch(SCHEMA)?;
                conn.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION}"))?;
            }
            SCHEMA_VERSION => {}
            found => {
                return Err(AuditError::SchemaVersion {
                    found,
                    expected: SCHEMA_VERSION,
                });
            }
        }
        Ok(SqliteStore { conn })
    }
}

/// A COUNT or SUM column (SQLite integers are i64; these are never negative).
fn count(row: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<u64> {
    Ok(u64::try_from(row.get::<_, i64>(i)?).unwrap_or(0))
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<String, AuditError> {
    serde_json::to_string(v).map_err(|e| AuditError::Record(e.to_string()))
}

impl AuditStore for SqliteStore {
    fn record(&mut self, r: &VerificationRecord) -> Result<i64, AuditError> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO verification (spec, subject, verified_at, level, required_level, verified, report)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                r.spec,
                r.subject,
                r.verified_at,
                r.level,
                r.required_level,
                r.verified,
                to_json(&r.report)?
            ],
        )?;
        let id = tx.last_insert_rowid();
        {
            let mut doc = tx.prepare(
                "INSERT INTO document_use (verification_id, url, digest, run_id) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for d in &r.documents {
                doc.execute(params![id, d.url, d.digest, d.run_id])?;
            }
            let mut inc = tx.prepare(
                "INSERT INTO incident (verification_id, level, code, severity, message, location)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for i in &r.incidents {
                inc.execute(params![
                    id,
                    i.level,
                    i.incident.code.as_str(),
                    severity_name(i.incident.severity),
                    i.incident.message,
                    to_json(&i.incident.location)?
                ])?;
            }
        }
        tx.commit()?;
        Ok(id)
    }

    fn prior_uses(&self, digest: &str) -> Result<Vec<PriorUse>, AuditError> {
        let mut stmt = self.conn.prepare(
            "SELECT v.id, v.subject, v.verified_at, d.url, d.run_id
             FROM document_use d JOIN verification v ON v.id = d.verification_id
             WHERE d.digest = ?1 ORDER BY v.id",
        )?;
        let rows = stmt.query_map(params![digest], |row| {
            Ok(PriorUse {
                verification_id: row.get(0)?,
                subject: row.get(1)?,
                verified_at: row.get(2)?,
                url: row.get(3)?,
                run_id: row.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<Vec<_>, _>>()?)
    }

    fn list(&self, f: &Filter) -> Result<Vec<StoredVerification>, AuditError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, spec, subject, verified_at, level, required_level, verified
             FROM verification v
             WHERE (?1 IS NULL OR spec = ?1)
               AND (?2 IS NULL OR subject = ?2)
               AND (?3 IS NULL OR verified = ?3)
               AND (?4 IS NULL OR EXISTS (SELECT 1 FROM incident i WHERE i.verification_id = v.id AND i.code = ?4))
             ORDER BY id DESC
             LIMIT ?5",
        )?;
        let limit = f.limit.map_or(-1_i64, i64::from);
        let rows = stmt.query_map(
            params![f.spec, f.subject, f.verified, f.code, limit],
            |row| {
                Ok(StoredVerification {
                    id: row.get(0)?,
                    spec: row.get(1)?,
                    subject: row.get(2)?,
                    verified_at: row.get(3)?,
                    level: row.get(4)?,
                    required_level: row.get(5)?,
                    verified: row.get(6)?,
                    errors: Vec::new(),
                    warnings: Vec::new(),
                })
            },
        )?;
        let mut out = rows.collect::<Result<Vec<_>, _>>()?;
        let mut codes = self.conn.prepare(
            "SELECT code, severity FROM incident WHERE verification_id = ?1 ORDER BY rowid",
        )?;
        for v in &mut out {
            let found = codes.query_map(params![v.id], |row| {
                Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
            })?;
            for item in found {
                let (code, severity) = item?;
                if severity == "error" {
                    v.errors.push(code);
                } else {
                    v.warnings.push(code);
                }
            }
        }
        Ok(out)
    }

    fn report(&self, id: i64) -> Result<Option<serde_json::Value>, AuditError> {
        let text: Option<String> = self
            .conn
            .query_row(
                "SELECT report FROM verification WHERE id = ?1",
                params![id],
                |r| r.get(0),
            )
            .optional()?;
        text.map(|t| serde_json::from_str(&t).map_err(|e| AuditError::Record(e.to_string())))
            .transpose()
    }

    fn summary(&self) -> Result<Summary, AuditError> {
        let (verifications, verified) = self.conn.query_row(
            "SELECT COUNT(*), COALESCE(SUM(verified), 0) FROM verification",
            [],
            |r| Ok((count(r, 0)?, count(r, 1)?)),
        )?;
        let mut s = Summary {
            verifications,
            verified,
            not_verified: verifications.saturating_sub(verified),
            ..Summary::default()
        };
        let mut stmt = self.conn.prepare(
            "SELECT spec, level, COUNT(*) FROM verification GROUP BY spec, level ORDER BY spec, level",
        )?;
        s.by_level = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, count(r, 2)?)))?
            .collect::<Result<_, _>>()?;
        let mut stmt = self.conn.prepare(
            "SELECT code, severity, COUNT(DISTINCT verification_id) AS n FROM incident
             GROUP BY code, severity ORDER BY n DESC, code",
        )?;
        s.by_code = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, count(r, 2)?)))?
            .collect::<Result<_, _>>()?;
        let mut stmt = self.conn.prepare(
            "SELECT d.digest, COUNT(DISTINCT COALESCE(d.run_id, '')), COUNT(DISTINCT v.subject)
             FROM document_use d JOIN verification v ON v.id = d.verification_id
             GROUP BY d.digest
             HAVING COUNT(DISTINCT COALESCE(d.run_id, '')) > 1 OR COUNT(DISTINCT v.subject) > 1
             ORDER BY d.digest",
        )?;
        s.reused_documents = stmt
            .query_map([], |r| Ok((r.get(0)?, count(r, 1)?, count(r, 2)?)))?
            .collect::<Result<_, _>>()?;
        Ok(s)
    }
}

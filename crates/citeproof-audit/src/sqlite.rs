//! The SQLite audit store: one file, WAL mode with FULL sync (a kill -9 keeps every committed
//! verification whole), `application_id` naming it a citeproof store, a schema version in
//! `user_version`, `AUTOINCREMENT` ids (never reused). Writers take the write lock up front
//! (`BEGIN IMMEDIATE`) and wait for it with backoff; reading commands open the file read-only
//! (and, on a read-only directory or mount, immutable) and never write.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};

use crate::chain::{self, ChainCheck, RawRow, Walker};
use crate::{
    Access, AuditError, AuditStore, DocumentUse, Filter, Head, Listed, PriorUse, Record,
    RecordedIncident, Stored, Summary, sql,
};

/// Version of the table layout; bumped on any incompatible change.
pub(crate) const SCHEMA_VERSION: i64 = 2;
/// `PRAGMA application_id` of a citeproof audit store ("CPAU").
const APPLICATION_ID: i64 = 0x4350_4155;

/// The audit store in one SQLite file.
#[derive(Debug)]
pub struct SqliteStore {
    conn: Connection,
    name: String,
}

impl SqliteStore {
    /// Opens the store at `path`. [`Access::Write`] creates it when the file is missing or
    /// empty; a database of another application, of a newer schema, or no database at all is
    /// refused before anything is written to it.
    pub fn open(path: &Path, access: Access) -> Result<SqliteStore, AuditError> {
        let name = path.display().to_string();
        let err = |e: rusqlite::Error| AuditError::sqlite(&name, e);
        let conn = match access {
            Access::Read => {
                if !path.exists() {
                    return Err(AuditError::NotFound(name));
                }
                open_read_only(path).map_err(err)?
            }
            Access::Write => Connection::open_with_flags(
                path,
                OpenFlags::SQLITE_OPEN_READ_WRITE
                    | OpenFlags::SQLITE_OPEN_CREATE
                    | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
            .map_err(err)?,
        };
        conn.busy_timeout(std::time::Duration::from_secs(2))
            .map_err(err)?;
        let mut store = SqliteStore { conn, name };
        crate::with_retry(crate::busy_budget(), || store.identify(access))?;
        Ok(store)
    }

    /// A store in memory (tests).
    pub fn in_memory() -> Result<SqliteStore, AuditError> {
        let conn = Connection::open_in_memory().map_err(|e| AuditError::sqlite(":memory:", e))?;
        let mut store = SqliteStore {
            conn,
            name: ":memory:".into(),
        };
        store.identify(Access::Write)?;
        Ok(store)
    }

    fn err(&self) -> impl Fn(rusqlite::Error) -> AuditError + '_ {
        |e| AuditError::sqlite(&self.name, e)
    }

    /// Checks that the file is a citeproof store of a version this build reads; creates the
    /// schema in a fresh (empty) database when writing.
    fn identify(&mut self, access: Access) -> Result<(), AuditError> {
        let (app, version, tables) = self.identity()?;
        if app == APPLICATION_ID {
            return self.check_version(version, access);
        }
        if app != 0 || tables > 0 || version != 0 {
            return Err(AuditError::NotAStore(
                self.name.clone(),
                if version == 1 && app == 0 {
                    "a store of citeproof's first layout (schema 1, no hash chain); record into a new file".into()
                } else {
                    "it holds another application's tables; citeproof does not adopt it".into()
                },
            ));
        }
        if access == Access::Read {
            return Err(AuditError::NotAStore(
                self.name.clone(),
                "the database is empty".into(),
            ));
        }
        self.create()
    }

    /// The application id, schema version and table count, read by one statement so that they
    /// come from one snapshot: read apart, a store another process created in between looked
    /// like "tables but no application id", another application's database.
    fn identity(&self) -> Result<(i64, i64, i64), AuditError> {
        self.conn
            .query_row(
                "SELECT (SELECT application_id FROM pragma_application_id()),
                        (SELECT user_version FROM pragma_user_version()),
                        (SELECT COUNT(*) FROM sqlite_master)",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .map_err(self.err())
    }

    fn check_version(&self, version: i64, access: Access) -> Result<(), AuditError> {
        if version > SCHEMA_VERSION {
            return Err(AuditError::NewerSchema {
                found: version,
                expected: SCHEMA_VERSION,
            });
        }
        if version != SCHEMA_VERSION {
            return Err(AuditError::SchemaVersion {
                found: version,
                expected: SCHEMA_VERSION,
            });
        }
        if access == Access::Write {
            self.pragmas()?;
        }
        Ok(())
    }

    fn pragmas(&self) -> Result<(), AuditError> {
        let _mode: String = self
            .conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(self.err())?;
        self.conn
            .execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
            .map_err(self.err())
    }

    /// Creates the schema atomically: a kill during creation leaves an empty database, which
    /// the next writer creates again.
    fn create(&mut self) -> Result<(), AuditError> {
        let name = self.name.clone();
        let e = |x: rusqlite::Error| AuditError::sqlite(&name, x);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(e)?;
        // Another writer may have created it while this one waited for the lock.
        let app: i64 = tx
            .query_row("PRAGMA application_id", [], |r| r.get(0))
            .map_err(e)?;
        if app != APPLICATION_ID {
            tx.execute_batch(&sql::schema("INTEGER PRIMARY KEY AUTOINCREMENT", "BOOLEAN"))
                .map_err(e)?;
            tx.execute_batch(&format!(
                "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};
                 INSERT INTO citeproof_audit (key, value) VALUES ('store', 'citeproof-audit'),
                   ('head_id', '0'), ('head_hash', '{}');",
                chain::GENESIS
            ))
            .map_err(e)?;
        }
        tx.commit().map_err(e)?;
        self.pragmas()
    }

    fn append_once(
        &mut self,
        digests: &[String],
        make: &mut dyn FnMut(&[PriorUse]) -> Result<Record, AuditError>,
    ) -> Result<Head, AuditError> {
        let name = self.name.clone();
        let e = |x: rusqlite::Error| AuditError::sqlite(&name, x);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(e)?;
        let mut uses = Vec::new();
        for d in digests {
            uses.extend(prior_uses(&tx, d).map_err(e)?);
        }
        uses.sort_by_key(|u| u.verification_id);
        let record = make(&uses)?;
        let entry = record.canonical()?;
        let meta = |key: &str| -> Result<String, AuditError> {
            tx.query_row(
                "SELECT value FROM citeproof_audit WHERE key = ?1",
                [key],
                |r| r.get(0),
            )
            .map_err(e)
        };
        let prev = meta("head_hash")?;
        let rows: i64 = tx
            .query_row("SELECT COUNT(*) FROM verification", [], |r| r.get(0))
            .map_err(e)?;
        let id: i64 = tx
            .query_row(
                sql::INSERT_VERIFICATION,
                params![
                    record.spec,
                    record.subject_kind,
                    record.subject,
                    record.subject_digest,
                    record.verified_at,
                    record.recorded_at,
                    record.level,
                    record.required_level,
                    record.verified,
                    record.outcome,
                    record.input_key,
                    prev
                ],
                |r| r.get(0),
            )
            .map_err(e)?;
        let hash = chain::row_hash(id, &prev, &entry);
        tx.execute(
            "UPDATE verification SET row_hash = ?1 WHERE id = ?2",
            params![hash, id],
        )
        .map_err(e)?;
        tx.execute(
            "INSERT INTO record_entry (verification_id, entry) VALUES (?1, ?2)",
            params![id, entry],
        )
        .map_err(e)?;
        {
            let mut inc = tx.prepare_cached(sql::INSERT_INCIDENT).map_err(e)?;
            for (seq, i) in (0_i64..).zip(&record.incidents) {
                let location = location_text(&i.location)?;
                inc.execute(params![
                    id, seq, i.level, i.code, i.severity, i.message, location
                ])
                .map_err(e)?;
            }
            let mut doc = tx.prepare_cached(sql::INSERT_DOCUMENT).map_err(e)?;
            for (seq, d) in (0_i64..).zip(&record.documents) {
                doc.execute(params![id, seq, d.url, d.digest, d.run_id])
                    .map_err(e)?;
            }
        }
        tx.execute(
            "UPDATE citeproof_audit SET value = CASE key WHEN 'head_id' THEN ?1 ELSE ?2 END
             WHERE key IN ('head_id', 'head_hash')",
            params![id.to_string(), hash],
        )
        .map_err(e)?;
        tx.commit().map_err(e)?;
        Ok(Head {
            id,
            hash,
            rows: u64::try_from(rows + 1).unwrap_or(0),
        })
    }

    fn incidents_of(&self, id: i64) -> Result<Vec<RecordedIncident>, AuditError> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT level, code, severity, message, location FROM incident
                 WHERE verification_id = ?1 ORDER BY seq",
            )
            .map_err(self.err())?;
        let rows = stmt
            .query_map([id], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                ))
            })
            .map_err(self.err())?;
        let mut out = Vec::new();
        for row in rows {
            let (level, code, severity, message, location) = row.map_err(self.err())?;
            out.push(RecordedIncident {
                // An edited level out of range stays visible as a mismatch, not a wrap.
                level: u8::try_from(level).unwrap_or(u8::MAX),
                code,
                severity,
                message,
                location: serde_json::from_str(&location)
                    .unwrap_or(serde_json::Value::String(location)),
            });
        }
        Ok(out)
    }

    fn documents_of(&self, id: i64) -> Result<Vec<DocumentUse>, AuditError> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT url, digest, run_id FROM document_use WHERE verification_id = ?1 ORDER BY seq",
            )
            .map_err(self.err())?;
        let rows = stmt
            .query_map([id], |r| {
                Ok(DocumentUse {
                    url: r.get(0)?,
                    digest: r.get(1)?,
                    run_id: r.get(2)?,
                })
            })
            .map_err(self.err())?;
        rows.collect::<Result<_, _>>().map_err(self.err())
    }

    fn filtered<T>(
        &self,
        query: &str,
        f: &Filter,
        map: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>, AuditError> {
        let mut stmt = self.conn.prepare(query).map_err(self.err())?;
        let rows = stmt
            .query_map(
                params![f.since, f.until, f.spec, f.subject, f.outcome, f.code],
                map,
            )
            .map_err(self.err())?;
        rows.collect::<Result<_, _>>().map_err(self.err())
    }
}

/// The JCS text of an incident location (what is stored and compared).
pub(crate) fn location_text(v: &serde_json::Value) -> Result<String, AuditError> {
    serde_json_canonicalizer::to_string(v).map_err(|e| AuditError::Record(e.to_string()))
}

fn open_read_only(path: &Path) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)?;
    // A WAL database in a read-only directory or on a read-only mount cannot create its
    // shared-memory file; read it as immutable then (nobody can be writing it).
    match conn.query_row("PRAGMA application_id", [], |r| r.get::<_, i64>(0)) {
        Ok(_) => Ok(conn),
        Err(e)
            if matches!(
                e.sqlite_error_code(),
                Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly)
            ) =>
        {
            let uri = format!("file:{}?immutable=1", uri_path(path));
            Connection::open_with_flags(uri, flags | OpenFlags::SQLITE_OPEN_URI)
        }
        Err(e) => Err(e),
    }
}

/// A path as the path part of a `file:` URI.
fn uri_path(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn prior_uses(conn: &Connection, digest: &str) -> rusqlite::Result<Vec<PriorUse>> {
    let mut stmt = conn.prepare_cached(sql::PRIOR_USES)?;
    let rows = stmt.query_map([digest], |r| {
        Ok(PriorUse {
            verification_id: r.get(0)?,
            digest: r.get(1)?,
            subject: r.get(2)?,
            verified_at: r.get(3)?,
            url: r.get(4)?,
            run_id: r.get(5)?,
        })
    })?;
    rows.collect()
}

fn raw_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawRow> {
    Ok(RawRow {
        id: r.get(0)?,
        spec: r.get(1)?,
        subject_kind: r.get(2)?,
        subject: r.get(3)?,
        subject_digest: r.get(4)?,
        verified_at: r.get(5)?,
        recorded_at: r.get(6)?,
        level: r.get(7)?,
        required_level: r.get(8)?,
        verified: r.get(9)?,
        outcome: r.get(10)?,
        input_key: r.get(11)?,
        entry: r.get::<_, Option<String>>(12)?.unwrap_or_default(),
        prev_hash: r.get(13)?,
        row_hash: r.get(14)?,
    })
}

fn count(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<u64> {
    Ok(u64::try_from(r.get::<_, Option<i64>>(i)?.unwrap_or(0)).unwrap_or(0))
}

impl AuditStore for SqliteStore {
    fn append(
        &mut self,
        digests: &[String],
        make: &mut dyn FnMut(&[PriorUse]) -> Result<Record, AuditError>,
    ) -> Result<Head, AuditError> {
        crate::with_retry(crate::busy_budget(), || self.append_once(digests, make))
    }

    fn prior_uses(&mut self, digest: &str) -> Result<Vec<PriorUse>, AuditError> {
        prior_uses(&self.conn, digest).map_err(self.err())
    }

    fn list(&mut self, f: &Filter) -> Result<Vec<Listed>, AuditError> {
        let errors = "(SELECT group_concat(code, ',') FROM (SELECT code FROM incident i
                        WHERE i.verification_id = v.id AND i.severity = 'error' ORDER BY i.seq))";
        self.filtered(&sql::list(errors, f.limit, "-1"), f, |r| {
            Ok(Listed {
                id: r.get(0)?,
                spec: r.get(1)?,
                subject: r.get(2)?,
                verified_at: r.get(3)?,
                level: r.get(4)?,
                required_level: r.get(5)?,
                verified: r.get(6)?,
                outcome: r.get(7)?,
                errors: r
                    .get::<_, Option<String>>(8)?
                    .map(|s| s.split(',').map(str::to_owned).collect())
                    .unwrap_or_default(),
            })
        })
    }

    fn summary(&mut self, f: &Filter) -> Result<Summary, AuditError> {
        let verifications = self
            .filtered(&sql::count(), f, |r| count(r, 0))?
            .first()
            .copied()
            .unwrap_or(0);
        let mut summary = Summary {
            verifications,
            verified: 0,
            by_outcome: self.filtered(&sql::by_outcome(), f, |r| Ok((r.get(0)?, count(r, 1)?)))?,
            by_spec: self.filtered(&sql::by_spec(), f, |r| Ok((r.get(0)?, count(r, 1)?)))?,
            by_code: self.filtered(&sql::by_code(), f, |r| {
                Ok((r.get(0)?, r.get(1)?, count(r, 2)?))
            })?,
            by_day: self.filtered(
                &sql::by_day("strftime('%Y-%m-%d', v.verified_at, 'unixepoch')"),
                f,
                |r| Ok((r.get(0)?, count(r, 1)?, count(r, 2)?)),
            )?,
            reused_documents: self.filtered(&sql::reused(), f, |r| {
                Ok((r.get(0)?, count(r, 1)?, count(r, 2)?))
            })?,
        };
        summary.verified = summary
            .by_outcome
            .iter()
            .filter(|(o, _)| o == "verified")
            .map(|(_, n)| n)
            .sum();
        Ok(summary)
    }

    fn get(&mut self, id: i64) -> Result<Option<Stored>, AuditError> {
        let query = format!(
            "SELECT {} FROM verification v LEFT JOIN record_entry e ON e.verification_id = v.id
             WHERE v.id = ?1",
            sql::ROW_COLUMNS
        );
        let row = self
            .conn
            .query_row(&query, [id], raw_row)
            .optional()
            .map_err(self.err())?;
        row.map(|r| {
            Ok(Stored {
                id: r.id,
                record: Record::parse(&r.entry)?,
                prev_hash: r.prev_hash,
                row_hash: r.row_hash,
            })
        })
        .transpose()
    }

    fn find_input(&mut self, input_key: &str) -> Result<Option<i64>, AuditError> {
        self.conn
            .query_row(
                "SELECT id FROM verification WHERE input_key = ?1 ORDER BY id LIMIT 1",
                [input_key],
                |r| r.get(0),
            )
            .optional()
            .map_err(self.err())
    }

    fn head(&mut self) -> Result<Option<Head>, AuditError> {
        let row: Option<(i64, String)> = self
            .conn
            .query_row(
                "SELECT id, row_hash FROM verification ORDER BY id DESC LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(self.err())?;
        let rows: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM verification", [], |r| r.get(0))
            .map_err(self.err())?;
        Ok(row.map(|(id, hash)| Head {
            id,
            hash,
            rows: u64::try_from(rows).unwrap_or(0),
        }))
    }

    fn verify_chain(&mut self, expected: Option<&Head>) -> Result<ChainCheck, AuditError> {
        let mut walker = Walker::new(expected);
        let query = format!(
            "SELECT {} FROM verification v LEFT JOIN record_entry e ON e.verification_id = v.id
             ORDER BY v.id",
            sql::ROW_COLUMNS
        );
        let mut stmt = self.conn.prepare(&query).map_err(self.err())?;
        let mut rows = stmt.query([]).map_err(self.err())?;
        while let Some(r) = rows.next().map_err(self.err())? {
            let row = raw_row(r).map_err(self.err())?;
            let incidents = self.incidents_of(row.id)?;
            let docs = self.documents_of(row.id)?;
            walker.visit(&row, &incidents, &docs);
            if walker.is_broken() {
                break;
            }
        }
        let orphans = self
            .conn
            .query_row(sql::ORPHANS, [], |r| count(r, 0))
            .map_err(self.err())?;
        Ok(walker.finish(orphans))
    }
}

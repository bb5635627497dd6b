//! The SQLite audit store: one file, WAL mode with FULL sync (a kill -9 keeps every committed
//! verification whole), `application_id` naming it a citeproof store, a schema version in
//! `user_version`, `AUTOINCREMENT` ids (never reused). Writers take the write lock up front
//! (`BEGIN IMMEDIATE`) and wait for it with backoff; reading commands open the file read-only
//! (and, on a read-only directory or mount, immutable) and never write.

use std::path::Path;

use rusqlite::types::{Null, ToSqlOutput};
use rusqlite::{Connection, OpenFlags, TransactionBehavior};

use crate::backend::{self, Cells, Db, Make, MapRow, Param, Rows};
use crate::chain::{self, ChainCheck, Walker};
use crate::sql::SCHEMA_VERSION;
use crate::{Access, AuditError, DocumentUse, Head, RecordedIncident, sql};
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
        backend::check_version(version)?;
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
        let tx = begin_immediate(&mut self.conn, &self.name)?;
        let e = |x: rusqlite::Error| AuditError::sqlite(&self.name, x);
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
}

/// The write lock taken up front (`BEGIN IMMEDIATE`).
fn begin_immediate<'c>(
    conn: &'c mut Connection,
    name: &str,
) -> Result<rusqlite::Transaction<'c>, AuditError> {
    conn.transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|e| AuditError::sqlite(name, e))
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

/// A connection (or a transaction, which derefs to one) with the store's name for errors.
struct SqliteDb<'c> {
    conn: &'c Connection,
    name: &'c str,
}

impl<'c> SqliteDb<'c> {
    fn new(conn: &'c Connection, name: &'c str) -> SqliteDb<'c> {
        SqliteDb { conn, name }
    }
}

impl rusqlite::ToSql for Param<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match *self {
            Param::Int(i) => ToSqlOutput::from(i),
            Param::OptInt(i) => i.map_or(ToSqlOutput::from(Null), ToSqlOutput::from),
            Param::Small(i) => ToSqlOutput::from(i),
            Param::Text(t) => ToSqlOutput::from(t),
            Param::OptText(t) => t.map_or(ToSqlOutput::from(Null), ToSqlOutput::from),
            Param::Flag(b) => ToSqlOutput::from(b),
        })
    }
}

impl Db for SqliteDb<'_> {
    fn rows<T>(&mut self, query: &str, params: &[Param<'_>], map: &mut MapRow<'_, T>) -> Rows<T> {
        let e = |x: rusqlite::Error| AuditError::sqlite(self.name, x);
        let mut stmt = self.conn.prepare_cached(query).map_err(e)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(params)).map_err(e)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(e)? {
            out.push(map(&SqliteCells {
                row,
                name: self.name,
            })?);
        }
        Ok(out)
    }

    fn execute(&mut self, statement: &str, params: &[Param<'_>]) -> Result<(), AuditError> {
        let e = |x: rusqlite::Error| AuditError::sqlite(self.name, x);
        let mut stmt = self.conn.prepare_cached(statement).map_err(e)?;
        stmt.execute(rusqlite::params_from_iter(params))
            .map_err(e)
            .map(drop)
    }
}

struct SqliteCells<'r> {
    row: &'r rusqlite::Row<'r>,
    name: &'r str,
}

impl SqliteCells<'_> {
    fn get<T: rusqlite::types::FromSql>(&self, i: usize) -> Result<T, AuditError> {
        self.row
            .get(i)
            .map_err(|e| AuditError::sqlite(self.name, e))
    }
}

/// Every cell is read by `rusqlite`'s own conversion.
macro_rules! cells_by_conversion {
    ($($name:ident -> $t:ty),* $(,)?) => {
        impl Cells for SqliteCells<'_> {
            $(fn $name(&self, i: usize) -> Result<$t, AuditError> {
                self.get(i)
            })*
        }
    };
}

cells_by_conversion!(
    int -> i64,
    opt_int -> Option<i64>,
    text -> String,
    opt_text -> Option<String>,
    flag -> bool,
);

impl backend::Backend for SqliteStore {
    const LIST_ERRORS: &'static str =
        "(SELECT group_concat(code, ',') FROM (SELECT code FROM incident i
                        WHERE i.verification_id = v.id AND i.severity = 'error' ORDER BY i.seq))";
    const UNLIMITED: &'static str = "-1";
    const DAY: &'static str = "strftime('%Y-%m-%d', v.verified_at, 'unixepoch')";

    fn db(&mut self) -> impl Db + '_ {
        SqliteDb::new(&self.conn, &self.name)
    }

    fn append_once(&mut self, digests: &[String], make: &mut Make<'_>) -> Result<Head, AuditError> {
        let tx = begin_immediate(&mut self.conn, &self.name)?;
        let head = backend::append(&mut SqliteDb::new(&tx, &self.name), digests, make)?;
        tx.commit().map_err(|e| AuditError::sqlite(&self.name, e))?;
        Ok(head)
    }

    /// Streams the rows, reading each one's incidents and documents by its id.
    fn walk_chain(&mut self, expected: Option<&Head>) -> Result<ChainCheck, AuditError> {
        let mut walker = Walker::new(expected);
        let mut stmt = self
            .conn
            .prepare(&backend::chain_rows_query())
            .map_err(self.err())?;
        let mut rows = stmt.query([]).map_err(self.err())?;
        let mut db = SqliteDb::new(&self.conn, &self.name);
        while let Some(r) = rows.next().map_err(self.err())? {
            let row = backend::raw_row(&SqliteCells {
                row: r,
                name: &self.name,
            })?;
            let id = [Param::Int(row.id)];
            let incidents: Vec<RecordedIncident> = db.rows(
                "SELECT level, code, severity, message, location FROM incident
                 WHERE verification_id = $1 ORDER BY seq",
                &id,
                &mut |c| backend::incident(c, 0),
            )?;
            let docs: Vec<DocumentUse> = db.rows(
                "SELECT url, digest, run_id FROM document_use WHERE verification_id = $1 ORDER BY seq",
                &id,
                &mut |c| backend::document(c, 0),
            )?;
            walker.visit(&row, &incidents, &docs);
            if walker.is_broken() {
                break;
            }
        }
        let orphans = db.one(sql::ORPHANS, &[], |r| backend::count(r, 0))?;
        Ok(walker.finish(orphans))
    }
}

//! The PostgreSQL audit store (`--record postgres://...`): the same tables, chain and queries as
//! SQLite. A writer locks the `verification` table in SHARE ROW EXCLUSIVE mode for its
//! transaction (writers queue, readers go on), so the history check and the append are one
//! step; ids come from an identity column (never reused). Reading commands run read-only
//! transactions.

use postgres::types::ToSql;
use postgres::{Client, GenericClient, NoTls, Row};

use crate::backend::{self, Cells, Db, Make, MapRow, Param, Rows};
use crate::chain::{self, ChainCheck, Walker};
use crate::sql::SCHEMA_VERSION;
use crate::{Access, AuditError, Head, sql};

/// A PostgreSQL database holding (or about to hold) a citeproof audit store.
pub struct PostgresStore {
    client: Client,
}

impl std::fmt::Debug for PostgresStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PostgresStore").finish_non_exhaustive()
    }
}

fn pg(e: postgres::Error) -> AuditError {
    AuditError::postgres(&e)
}

/// Serializes schema creation between processes.
const CREATE_LOCK: i64 = 0x4350_4155;

impl PostgresStore {
    /// Connects to `url` (no TLS: a server on loopback or a private network; put TLS in front
    /// with a proxy). Refuses a database that holds other tables but no citeproof store, and a
    /// store of a newer schema.
    pub fn connect(url: &str, access: Access) -> Result<PostgresStore, AuditError> {
        let client = Client::connect(url, NoTls).map_err(pg)?;
        let mut store = PostgresStore { client };
        if access == Access::Read {
            store
                .client
                .batch_execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
                .map_err(pg)?;
        }
        store.identify(access)?;
        Ok(store)
    }

    fn identify(&mut self, access: Access) -> Result<(), AuditError> {
        let mut tx = self.client.transaction().map_err(pg)?;
        if access == Access::Write {
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&CREATE_LOCK])
                .map_err(pg)?;
        }
        let ours: bool = tx
            .query_one("SELECT to_regclass('citeproof_audit') IS NOT NULL", &[])
            .map_err(pg)?
            .get(0);
        if ours {
            let version: Option<String> = tx
                .query_opt(
                    "SELECT value FROM citeproof_audit WHERE key = 'schema'",
                    &[],
                )
                .map_err(pg)?
                .map(|r| r.get(0));
            backend::check_version(version.and_then(|v| v.parse().ok()).unwrap_or(-1))?;
            return tx.commit().map_err(pg);
        }
        let tables: i64 = tx
            .query_one(
                "SELECT COUNT(*) FROM information_schema.tables
                 WHERE table_schema = current_schema()",
                &[],
            )
            .map_err(pg)?
            .get(0);
        if tables > 0 {
            return Err(AuditError::NotAStore(
                "postgres".into(),
                "the database holds another application's tables; citeproof does not adopt it"
                    .into(),
            ));
        }
        if access == Access::Read {
            return Err(AuditError::NotAStore(
                "postgres".into(),
                "the database is empty".into(),
            ));
        }
        tx.batch_execute(&sql::schema(
            "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
            "BOOLEAN",
        ))
        .map_err(pg)?;
        tx.execute(
            "INSERT INTO citeproof_audit (key, value) VALUES ('store', 'citeproof-audit'),
               ('schema', $1), ('head_id', '0'), ('head_hash', $2)",
            &[&SCHEMA_VERSION.to_string(), &chain::GENESIS],
        )
        .map_err(pg)?;
        tx.commit().map_err(pg)
    }
}

/// A client or transaction.
struct PgDb<'c, C: GenericClient>(&'c mut C);

/// The parameters as PostgreSQL binds them (an `INTEGER` column takes `int4`).
fn bound<'a>(params: &[Param<'a>]) -> Vec<Box<dyn ToSql + Sync + 'a>> {
    params
        .iter()
        .map(|p| -> Box<dyn ToSql + Sync + 'a> {
            match *p {
                Param::Int(i) => Box::new(i),
                Param::OptInt(i) => Box::new(i),
                Param::Small(i) => Box::new(i),
                Param::Text(t) => Box::new(t),
                Param::OptText(t) => Box::new(t),
                Param::Flag(b) => Box::new(b),
            }
        })
        .collect()
}

impl<C: GenericClient> Db for PgDb<'_, C> {
    fn rows<T>(&mut self, query: &str, params: &[Param<'_>], map: &mut MapRow<'_, T>) -> Rows<T> {
        let bound = bound(params);
        let refs: Vec<&(dyn ToSql + Sync)> = bound.iter().map(|b| &**b as _).collect();
        let rows = self.0.query(query, &refs).map_err(pg)?;
        rows.iter().map(|r| map(&PgCells(r))).collect()
    }

    fn execute(&mut self, statement: &str, params: &[Param<'_>]) -> Result<(), AuditError> {
        let bound = bound(params);
        let refs: Vec<&(dyn ToSql + Sync)> = bound.iter().map(|b| &**b as _).collect();
        self.0.execute(statement, &refs).map_err(pg).map(drop)
    }
}

struct PgCells<'r>(&'r Row);

impl Cells for PgCells<'_> {
    /// `BIGINT`, or an `INTEGER` column widened.
    fn int(&self, i: usize) -> Result<i64, AuditError> {
        self.0
            .try_get::<_, i64>(i)
            .or_else(|_| self.0.try_get::<_, i32>(i).map(i64::from))
            .map_err(pg)
    }
    fn opt_int(&self, i: usize) -> Result<Option<i64>, AuditError> {
        self.0
            .try_get::<_, Option<i64>>(i)
            .or_else(|_| {
                self.0
                    .try_get::<_, Option<i32>>(i)
                    .map(|n| n.map(i64::from))
            })
            .map_err(pg)
    }
    fn text(&self, i: usize) -> Result<String, AuditError> {
        self.0.try_get(i).map_err(pg)
    }
    fn opt_text(&self, i: usize) -> Result<Option<String>, AuditError> {
        self.0.try_get(i).map_err(pg)
    }
    fn flag(&self, i: usize) -> Result<bool, AuditError> {
        self.0.try_get(i).map_err(pg)
    }
}

/// The rows of `rows` that belong to verification `id` (column 0), from `*next` on: both lists
/// are in id order, so one pass merges them.
fn rows_of<T>(
    rows: &[Row],
    next: &mut usize,
    id: i64,
    map: impl Fn(&dyn Cells) -> Result<T, AuditError>,
) -> Result<Vec<T>, AuditError> {
    let mut mine = Vec::new();
    while let Some(r) = rows.get(*next) {
        let cells = PgCells(r);
        let vid = cells.int(0)?;
        if vid > id {
            break;
        }
        *next += 1;
        if vid == id {
            mine.push(map(&cells)?);
        }
    }
    Ok(mine)
}

impl backend::Backend for PostgresStore {
    const LIST_ERRORS: &'static str =
        "(SELECT string_agg(i.code, ',' ORDER BY i.seq) FROM incident i
                        WHERE i.verification_id = v.id AND i.severity = 'error')";
    const UNLIMITED: &'static str = "ALL";
    const DAY: &'static str =
        "to_char(to_timestamp(v.verified_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD')";

    fn db(&mut self) -> impl Db + '_ {
        PgDb(&mut self.client)
    }

    fn append_once(&mut self, digests: &[String], make: &mut Make<'_>) -> Result<Head, AuditError> {
        let mut tx = self.client.transaction().map_err(pg)?;
        tx.batch_execute("LOCK TABLE verification IN SHARE ROW EXCLUSIVE MODE")
            .map_err(pg)?;
        let head = backend::append(&mut PgDb(&mut tx), digests, make)?;
        tx.commit().map_err(pg)?;
        Ok(head)
    }

    /// Reads the rows, incidents and documents in one repeatable-read snapshot and merges them
    /// by id.
    fn walk_chain(&mut self, expected: Option<&Head>) -> Result<ChainCheck, AuditError> {
        let mut walker = Walker::new(expected);
        let mut tx = self
            .client
            .build_transaction()
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(pg)?;
        let rows = tx.query(&backend::chain_rows_query(), &[]).map_err(pg)?;
        let incidents = tx
            .query(
                "SELECT verification_id, level, code, severity, message, location FROM incident
                 ORDER BY verification_id, seq",
                &[],
            )
            .map_err(pg)?;
        let docs = tx
            .query(
                "SELECT verification_id, url, digest, run_id FROM document_use
                 ORDER BY verification_id, seq",
                &[],
            )
            .map_err(pg)?;
        let (mut ii, mut di) = (0, 0);
        for r in &rows {
            let row = backend::raw_row(&PgCells(r))?;
            let mine = rows_of(&incidents, &mut ii, row.id, |c| backend::incident(c, 1))?;
            let my_docs = rows_of(&docs, &mut di, row.id, |c| backend::document(c, 1))?;
            walker.visit(&row, &mine, &my_docs);
            if walker.is_broken() {
                break;
            }
        }
        let orphans = PgDb(&mut tx).one(sql::ORPHANS, &[], |r| backend::count(r, 0))?;
        tx.commit().map_err(pg)?;
        Ok(walker.finish(orphans))
    }
}

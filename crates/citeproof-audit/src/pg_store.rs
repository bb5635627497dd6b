//! The PostgreSQL audit store (`--record postgres://...`): the same tables, chain and queries as
//! SQLite. A writer locks the `verification` table in SHARE ROW EXCLUSIVE mode for its
//! transaction (writers queue, readers go on), so the history check and the append are one
//! step; ids come from an identity column (never reused). Reading commands run read-only
//! transactions.

use postgres::{Client, GenericClient, NoTls, Row};

use crate::chain::{self, ChainCheck, RawRow, Walker};
use crate::sqlite::{SCHEMA_VERSION, location_text};
use crate::{
    Access, AuditError, AuditStore, DocumentUse, Filter, Head, Listed, PriorUse, Record,
    RecordedIncident, Stored, Summary, sql,
};

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
            let version: i64 = version.and_then(|v| v.parse().ok()).unwrap_or(-1);
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

    fn append_once(
        &mut self,
        digests: &[String],
        make: &mut dyn FnMut(&[PriorUse]) -> Result<Record, AuditError>,
    ) -> Result<Head, AuditError> {
        let mut tx = self.client.transaction().map_err(pg)?;
        tx.batch_execute("LOCK TABLE verification IN SHARE ROW EXCLUSIVE MODE")
            .map_err(pg)?;
        let mut uses = Vec::new();
        for d in digests {
            uses.extend(prior_uses(&mut tx, d)?);
        }
        uses.sort_by_key(|u| u.verification_id);
        let record = make(&uses)?;
        let entry = record.canonical()?;
        let prev: String = tx
            .query_one(
                "SELECT value FROM citeproof_audit WHERE key = 'head_hash'",
                &[],
            )
            .map_err(pg)?
            .get(0);
        let rows: i64 = tx
            .query_one("SELECT COUNT(*) FROM verification", &[])
            .map_err(pg)?
            .get(0);
        let id: i64 = tx
            .query_one(
                sql::INSERT_VERIFICATION,
                &[
                    &record.spec,
                    &record.subject_kind,
                    &record.subject,
                    &record.subject_digest,
                    &record.verified_at,
                    &record.recorded_at,
                    &i32::from(record.level),
                    &i32::from(record.required_level),
                    &record.verified,
                    &record.outcome,
                    &record.input_key,
                    &prev,
                ],
            )
            .map_err(pg)?
            .get(0);
        let hash = chain::row_hash(id, &prev, &entry);
        tx.execute(
            "UPDATE verification SET row_hash = $1 WHERE id = $2",
            &[&hash, &id],
        )
        .map_err(pg)?;
        tx.execute(
            "INSERT INTO record_entry (verification_id, entry) VALUES ($1, $2)",
            &[&id, &entry],
        )
        .map_err(pg)?;
        for (seq, i) in (0_i32..).zip(&record.incidents) {
            let location = location_text(&i.location)?;
            tx.execute(
                sql::INSERT_INCIDENT,
                &[
                    &id,
                    &seq,
                    &i32::from(i.level),
                    &i.code,
                    &i.severity,
                    &i.message,
                    &location,
                ],
            )
            .map_err(pg)?;
        }
        for (seq, d) in (0_i32..).zip(&record.documents) {
            tx.execute(
                sql::INSERT_DOCUMENT,
                &[&id, &seq, &d.url, &d.digest, &d.run_id],
            )
            .map_err(pg)?;
        }
        tx.execute(
            "UPDATE citeproof_audit SET value = CASE key WHEN 'head_id' THEN $1 ELSE $2 END
             WHERE key IN ('head_id', 'head_hash')",
            &[&id.to_string(), &hash],
        )
        .map_err(pg)?;
        tx.commit().map_err(pg)?;
        Ok(Head {
            id,
            hash,
            rows: u64::try_from(rows + 1).unwrap_or(0),
        })
    }

    fn filtered<T>(
        &mut self,
        query: &str,
        f: &Filter,
        map: impl Fn(&Row) -> T,
    ) -> Result<Vec<T>, AuditError> {
        let rows = self
            .client
            .query(
                query,
                &[&f.since, &f.until, &f.spec, &f.subject, &f.outcome, &f.code],
            )
            .map_err(pg)?;
        Ok(rows.iter().map(map).collect())
    }
}

fn prior_uses(client: &mut impl GenericClient, digest: &str) -> Result<Vec<PriorUse>, AuditError> {
    let rows = client.query(sql::PRIOR_USES, &[&digest]).map_err(pg)?;
    Ok(rows
        .iter()
        .map(|r| PriorUse {
            verification_id: r.get(0),
            digest: r.get(1),
            subject: r.get(2),
            verified_at: r.get(3),
            url: r.get(4),
            run_id: r.get(5),
        })
        .collect())
}

fn raw_row(r: &Row) -> RawRow {
    RawRow {
        id: r.get(0),
        spec: r.get(1),
        subject_kind: r.get(2),
        subject: r.get(3),
        subject_digest: r.get(4),
        verified_at: r.get(5),
        recorded_at: r.get(6),
        level: i64::from(r.get::<_, i32>(7)),
        required_level: i64::from(r.get::<_, i32>(8)),
        verified: r.get(9),
        outcome: r.get(10),
        input_key: r.get(11),
        entry: r.get::<_, Option<String>>(12).unwrap_or_default(),
        prev_hash: r.get(13),
        row_hash: r.get(14),
    }
}

fn count(r: &Row, i: usize) -> u64 {
    u64::try_from(r.get::<_, Option<i64>>(i).unwrap_or(0)).unwrap_or(0)
}

impl AuditStore for PostgresStore {
    fn append(
        &mut self,
        digests: &[String],
        make: &mut dyn FnMut(&[PriorUse]) -> Result<Record, AuditError>,
    ) -> Result<Head, AuditError> {
        crate::with_retry(crate::busy_budget(), || self.append_once(digests, make))
    }

    fn prior_uses(&mut self, digest: &str) -> Result<Vec<PriorUse>, AuditError> {
        prior_uses(&mut self.client, digest)
    }

    fn list(&mut self, f: &Filter) -> Result<Vec<Listed>, AuditError> {
        let errors = "(SELECT string_agg(i.code, ',' ORDER BY i.seq) FROM incident i
                        WHERE i.verification_id = v.id AND i.severity = 'error')";
        self.filtered(&sql::list(errors, f.limit, "ALL"), f, |r| Listed {
            id: r.get(0),
            spec: r.get(1),
            subject: r.get(2),
            verified_at: r.get(3),
            level: u8::try_from(r.get::<_, i32>(4)).unwrap_or(u8::MAX),
            required_level: u8::try_from(r.get::<_, i32>(5)).unwrap_or(u8::MAX),
            verified: r.get(6),
            outcome: r.get(7),
            errors: r
                .get::<_, Option<String>>(8)
                .map(|s| s.split(',').map(str::to_owned).collect())
                .unwrap_or_default(),
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
            by_outcome: self.filtered(&sql::by_outcome(), f, |r| (r.get(0), count(r, 1)))?,
            by_spec: self.filtered(&sql::by_spec(), f, |r| (r.get(0), count(r, 1)))?,
            by_code: self.filtered(&sql::by_code(), f, |r| (r.get(0), r.get(1), count(r, 2)))?,
            by_day: self.filtered(
                &sql::by_day(
                    "to_char(to_timestamp(v.verified_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD')",
                ),
                f,
                |r| (r.get(0), count(r, 1), count(r, 2)),
            )?,
            reused_documents: self
                .filtered(&sql::reused(), f, |r| (r.get(0), count(r, 1), count(r, 2)))?,
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
             WHERE v.id = $1",
            sql::ROW_COLUMNS
        );
        let row = self.client.query_opt(&query, &[&id]).map_err(pg)?;
        row.map(|r| {
            let r = raw_row(&r);
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
        Ok(self
            .client
            .query_opt(
                "SELECT id FROM verification WHERE input_key = $1 ORDER BY id LIMIT 1",
                &[&input_key],
            )
            .map_err(pg)?
            .map(|r| r.get(0)))
    }

    fn head(&mut self) -> Result<Option<Head>, AuditError> {
        let row = self
            .client
            .query_opt(
                "SELECT id, row_hash, (SELECT COUNT(*) FROM verification)
                 FROM verification ORDER BY id DESC LIMIT 1",
                &[],
            )
            .map_err(pg)?;
        Ok(row.map(|r| Head {
            id: r.get(0),
            hash: r.get(1),
            rows: count(&r, 2),
        }))
    }

    fn verify_chain(&mut self, expected: Option<&Head>) -> Result<ChainCheck, AuditError> {
        let mut walker = Walker::new(expected);
        let mut tx = self
            .client
            .build_transaction()
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(pg)?;
        let query = format!(
            "SELECT {} FROM verification v LEFT JOIN record_entry e ON e.verification_id = v.id
             ORDER BY v.id",
            sql::ROW_COLUMNS
        );
        let rows = tx.query(&query, &[]).map_err(pg)?;
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
            let row = raw_row(r);
            let mut mine = Vec::new();
            while let Some(i) = incidents.get(ii) {
                let vid: i64 = i.get(0);
                if vid > row.id {
                    break;
                }
                ii += 1;
                if vid == row.id {
                    let location: String = i.get(5);
                    mine.push(RecordedIncident {
                        level: u8::try_from(i.get::<_, i32>(1)).unwrap_or(u8::MAX),
                        code: i.get(2),
                        severity: i.get(3),
                        message: i.get(4),
                        location: serde_json::from_str(&location)
                            .unwrap_or(serde_json::Value::String(location)),
                    });
                }
            }
            let mut my_docs = Vec::new();
            while let Some(d) = docs.get(di) {
                let vid: i64 = d.get(0);
                if vid > row.id {
                    break;
                }
                di += 1;
                if vid == row.id {
                    my_docs.push(DocumentUse {
                        url: d.get(1),
                        digest: d.get(2),
                        run_id: d.get(3),
                    });
                }
            }
            walker.visit(&row, &mine, &my_docs);
            if walker.is_broken() {
                break;
            }
        }
        let orphans = count(&tx.query_one(sql::ORPHANS, &[]).map_err(pg)?, 0);
        tx.commit().map_err(pg)?;
        Ok(walker.finish(orphans))
    }
}

//! What the SQLite and PostgreSQL stores share beyond their SQL text (`sql.rs`): the reading of
//! a row's cells into the store's types, the steps of one append, the listing and the summary.
//! Each backend implements [`Db`] (run a statement, read its rows) over its connection or
//! transaction; connecting, locking and the transaction itself stay the backend's.

use crate::chain::{self, ChainCheck, RawRow};
use crate::{
    AuditError, AuditStore, DocumentUse, Filter, Head, Listed, PriorUse, Record, RecordedIncident,
    Stored, Summary, sql,
};

/// What [`AuditStore::append`] calls to make the record from the history.
pub(crate) type Make<'a> = dyn FnMut(&[PriorUse]) -> Result<Record, AuditError> + 'a;

/// A store backend: its connection as a [`Db`], its append under its write lock, its walk of
/// the chain, and the few SQL words its dialect spells its own way. Every [`AuditStore`]
/// method is written once, over it.
pub(crate) trait Backend {
    /// The aggregate of a verification's error codes, in order, for `list`.
    const LIST_ERRORS: &'static str;
    /// The LIMIT for "all".
    const UNLIMITED: &'static str;
    /// The `YYYY-MM-DD` (UTC) of `v.verified_at`.
    const DAY: &'static str;

    fn db(&mut self) -> impl Db + '_;

    /// One attempt at [`AuditStore::append`]: [`append`] inside the backend's write
    /// transaction.
    fn append_once(&mut self, digests: &[String], make: &mut Make<'_>) -> Result<Head, AuditError>;

    /// [`AuditStore::verify_chain`].
    fn walk_chain(&mut self, expected: Option<&Head>) -> Result<ChainCheck, AuditError>;
}

impl<B: Backend> AuditStore for B {
    fn append(
        &mut self,
        digests: &[String],
        make: &mut dyn FnMut(&[PriorUse]) -> Result<Record, AuditError>,
    ) -> Result<Head, AuditError> {
        crate::with_retry(crate::busy_budget(), || self.append_once(digests, make))
    }

    fn prior_uses(&mut self, digest: &str) -> Result<Vec<PriorUse>, AuditError> {
        prior_uses(&mut self.db(), digest)
    }

    fn list(&mut self, f: &Filter) -> Result<Vec<Listed>, AuditError> {
        list(&mut self.db(), f, B::LIST_ERRORS, B::UNLIMITED)
    }

    fn summary(&mut self, f: &Filter) -> Result<Summary, AuditError> {
        summary(&mut self.db(), f, B::DAY)
    }

    fn get(&mut self, id: i64) -> Result<Option<Stored>, AuditError> {
        get(&mut self.db(), id)
    }

    fn find_input(&mut self, input_key: &str) -> Result<Option<i64>, AuditError> {
        find_input(&mut self.db(), input_key)
    }

    fn head(&mut self) -> Result<Option<Head>, AuditError> {
        head(&mut self.db())
    }

    fn verify_chain(&mut self, expected: Option<&Head>) -> Result<ChainCheck, AuditError> {
        self.walk_chain(expected)
    }
}

/// A statement parameter, bound by each backend as its own type.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Param<'a> {
    Int(i64),
    OptInt(Option<i64>),
    /// An `INTEGER` column (PostgreSQL's `int4`): levels and sequence numbers.
    Small(i32),
    Text(&'a str),
    OptText(Option<&'a str>),
    Flag(bool),
}

/// The cells of one result row.
pub(crate) trait Cells {
    /// A `BIGINT` or `INTEGER` cell.
    fn int(&self, i: usize) -> Result<i64, AuditError>;
    fn opt_int(&self, i: usize) -> Result<Option<i64>, AuditError>;
    fn text(&self, i: usize) -> Result<String, AuditError>;
    fn opt_text(&self, i: usize) -> Result<Option<String>, AuditError>;
    fn flag(&self, i: usize) -> Result<bool, AuditError>;
}

/// What [`Db::rows`] makes of each row.
pub(crate) type MapRow<'m, T> = dyn FnMut(&dyn Cells) -> Result<T, AuditError> + 'm;
/// The rows of a query, mapped.
pub(crate) type Rows<T> = Result<Vec<T>, AuditError>;

/// A connection or transaction of either backend.
pub(crate) trait Db {
    /// Runs `query` with `params` and maps every row it returns.
    fn rows<T>(&mut self, query: &str, params: &[Param<'_>], map: &mut MapRow<'_, T>) -> Rows<T>;

    /// Runs a statement that returns no rows.
    fn execute(&mut self, statement: &str, params: &[Param<'_>]) -> Result<(), AuditError>;

    /// The first row of `query`, mapped, or `None`.
    fn first<T>(
        &mut self,
        query: &str,
        params: &[Param<'_>],
        mut map: impl FnMut(&dyn Cells) -> Result<T, AuditError>,
    ) -> Result<Option<T>, AuditError> {
        Ok(self.rows(query, params, &mut map)?.into_iter().next())
    }

    /// The first row of a query that always returns one.
    fn one<T>(
        &mut self,
        query: &str,
        params: &[Param<'_>],
        map: impl FnMut(&dyn Cells) -> Result<T, AuditError>,
    ) -> Result<T, AuditError> {
        self.first(query, params, map)?
            .ok_or_else(|| AuditError::Record(format!("no row from `{query}`")))
    }

    /// Runs a query of `list` or `summary` with the filter's parameters.
    fn filtered<T>(
        &mut self,
        query: &str,
        f: &Filter,
        mut map: impl FnMut(&dyn Cells) -> Result<T, AuditError>,
    ) -> Result<Vec<T>, AuditError> {
        let params = [
            Param::OptInt(f.since),
            Param::OptInt(f.until),
            Param::OptText(f.spec.as_deref()),
            Param::OptText(f.subject.as_deref()),
            Param::OptText(f.outcome.as_deref()),
            Param::OptText(f.code.as_deref()),
        ];
        self.rows(query, &params, &mut map)
    }
}

/// Refuses a store of another schema version (a newer one by name).
pub(crate) fn check_version(version: i64) -> Result<(), AuditError> {
    if version > sql::SCHEMA_VERSION {
        return Err(AuditError::NewerSchema {
            found: version,
            expected: sql::SCHEMA_VERSION,
        });
    }
    if version != sql::SCHEMA_VERSION {
        return Err(AuditError::SchemaVersion {
            found: version,
            expected: sql::SCHEMA_VERSION,
        });
    }
    Ok(())
}

/// A count cell (`NULL`, from an empty `SUM`, is 0).
pub(crate) fn count(r: &dyn Cells, i: usize) -> Result<u64, AuditError> {
    Ok(u64::try_from(r.opt_int(i)?.unwrap_or(0)).unwrap_or(0))
}

pub(crate) fn prior_uses(db: &mut impl Db, digest: &str) -> Result<Vec<PriorUse>, AuditError> {
    db.rows(sql::PRIOR_USES, &[Param::Text(digest)], &mut |r| {
        Ok(PriorUse {
            verification_id: r.int(0)?,
            digest: r.text(1)?,
            subject: r.text(2)?,
            verified_at: r.int(3)?,
            url: r.text(4)?,
            run_id: r.opt_text(5)?,
        })
    })
}

/// A row of [`sql::ROW_COLUMNS`].
pub(crate) fn raw_row(r: &dyn Cells) -> Result<RawRow, AuditError> {
    Ok(RawRow {
        id: r.int(0)?,
        spec: r.text(1)?,
        subject_kind: r.text(2)?,
        subject: r.text(3)?,
        subject_digest: r.opt_text(4)?,
        verified_at: r.int(5)?,
        recorded_at: r.int(6)?,
        level: r.int(7)?,
        required_level: r.int(8)?,
        verified: r.flag(9)?,
        outcome: r.text(10)?,
        input_key: r.opt_text(11)?,
        entry: r.opt_text(12)?.unwrap_or_default(),
        prev_hash: r.text(13)?,
        row_hash: r.text(14)?,
    })
}

/// A level column of verification `id` as listed. `record` stores 0 to 255; a value edited
/// outside that range is the same error on both backends (`audit-record`), never a level
/// clamped or wrapped into range (a listed level is read by people as what was verified).
fn stored_level(r: &dyn Cells, i: usize, id: i64) -> Result<u8, AuditError> {
    let n = r.int(i)?;
    u8::try_from(n).map_err(|_| {
        AuditError::Record(format!(
            "verification {id} has a level of {n}, outside 0 to 255: the store was edited \
             (`citeproof audit verify` finds where)"
        ))
    })
}

/// An incident row from column `at` on: level, code, severity, message, location.
pub(crate) fn incident(r: &dyn Cells, at: usize) -> Result<RecordedIncident, AuditError> {
    let location = r.text(at + 4)?;
    Ok(RecordedIncident {
        // An edited level out of range stays visible as a mismatch, not a wrap.
        level: u8::try_from(r.int(at)?).unwrap_or(u8::MAX),
        code: r.text(at + 1)?,
        severity: r.text(at + 2)?,
        message: r.text(at + 3)?,
        location: serde_json::from_str(&location).unwrap_or(serde_json::Value::String(location)),
    })
}

/// A document row from column `at` on: url, digest, run id.
pub(crate) fn document(r: &dyn Cells, at: usize) -> Result<DocumentUse, AuditError> {
    Ok(DocumentUse {
        url: r.text(at)?,
        digest: r.text(at + 1)?,
        run_id: r.opt_text(at + 2)?,
    })
}

/// The JCS text of an incident location (what is stored and compared).
pub(crate) fn location_text(v: &serde_json::Value) -> Result<String, AuditError> {
    serde_json_canonicalizer::to_string(v).map_err(|e| AuditError::Record(e.to_string()))
}

/// One append inside the backend's write transaction (taken, and committed, by the caller):
/// the history of `digests`, the record `make` returns, its row chained to the head.
pub(crate) fn append(
    db: &mut impl Db,
    digests: &[String],
    make: &mut Make<'_>,
) -> Result<Head, AuditError> {
    let mut uses = Vec::new();
    for d in digests {
        uses.extend(prior_uses(db, d)?);
    }
    uses.sort_by_key(|u| u.verification_id);
    let record = make(&uses)?;
    let entry = record.canonical()?;
    let prev = db.one(
        "SELECT value FROM citeproof_audit WHERE key = 'head_hash'",
        &[],
        |r| r.text(0),
    )?;
    let rows = db.one("SELECT COUNT(*) FROM verification", &[], |r| r.int(0))?;
    let id = db.one(
        sql::INSERT_VERIFICATION,
        &[
            Param::Text(&record.spec),
            Param::Text(&record.subject_kind),
            Param::Text(&record.subject),
            Param::OptText(record.subject_digest.as_deref()),
            Param::Int(record.verified_at),
            Param::Int(record.recorded_at),
            Param::Small(i32::from(record.level)),
            Param::Small(i32::from(record.required_level)),
            Param::Flag(record.verified),
            Param::Text(&record.outcome),
            Param::OptText(record.input_key.as_deref()),
            Param::Text(&prev),
        ],
        |r| r.int(0),
    )?;
    let hash = chain::row_hash(id, &prev, &entry);
    db.execute(
        "UPDATE verification SET row_hash = $1 WHERE id = $2",
        &[Param::Text(&hash), Param::Int(id)],
    )?;
    db.execute(
        "INSERT INTO record_entry (verification_id, entry) VALUES ($1, $2)",
        &[Param::Int(id), Param::Text(&entry)],
    )?;
    for (seq, i) in (0_i32..).zip(&record.incidents) {
        let location = location_text(&i.location)?;
        db.execute(
            sql::INSERT_INCIDENT,
            &[
                Param::Int(id),
                Param::Small(seq),
                Param::Small(i32::from(i.level)),
                Param::Text(&i.code),
                Param::Text(&i.severity),
                Param::Text(&i.message),
                Param::Text(&location),
            ],
        )?;
    }
    for (seq, d) in (0_i32..).zip(&record.documents) {
        db.execute(
            sql::INSERT_DOCUMENT,
            &[
                Param::Int(id),
                Param::Small(seq),
                Param::Text(&d.url),
                Param::Text(&d.digest),
                Param::OptText(d.run_id.as_deref()),
            ],
        )?;
    }
    let head_id = id.to_string();
    db.execute(
        "UPDATE citeproof_audit SET value = CASE key WHEN 'head_id' THEN $1 ELSE $2 END
         WHERE key IN ('head_id', 'head_hash')",
        &[Param::Text(&head_id), Param::Text(&hash)],
    )?;
    Ok(Head {
        id,
        hash,
        rows: u64::try_from(rows + 1).unwrap_or(0),
    })
}

/// `list`; `errors` is the backend's aggregate of a verification's error codes in order,
/// `unlimited` its LIMIT for "all".
pub(crate) fn list(
    db: &mut impl Db,
    f: &Filter,
    errors: &str,
    unlimited: &str,
) -> Result<Vec<Listed>, AuditError> {
    db.filtered(&sql::list(errors, f.limit, unlimited), f, |r| {
        let id = r.int(0)?;
        Ok(Listed {
            id,
            spec: r.text(1)?,
            subject: r.text(2)?,
            verified_at: r.int(3)?,
            level: stored_level(r, 4, id)?,
            required_level: stored_level(r, 5, id)?,
            verified: r.flag(6)?,
            outcome: r.text(7)?,
            errors: r
                .opt_text(8)?
                .map(|s| s.split(',').map(str::to_owned).collect())
                .unwrap_or_default(),
        })
    })
}

/// `summary`; `day` is the backend's `YYYY-MM-DD` (UTC) of `v.verified_at`.
pub(crate) fn summary(db: &mut impl Db, f: &Filter, day: &str) -> Result<Summary, AuditError> {
    let pair = |r: &dyn Cells| Ok((r.text(0)?, count(r, 1)?));
    let triple = |r: &dyn Cells| Ok((r.text(0)?, count(r, 1)?, count(r, 2)?));
    let verifications = db
        .filtered(&sql::count(), f, |r| count(r, 0))?
        .first()
        .copied()
        .unwrap_or(0);
    let mut summary = Summary {
        verifications,
        verified: 0,
        by_outcome: db.filtered(&sql::by_outcome(), f, pair)?,
        by_spec: db.filtered(&sql::by_spec(), f, pair)?,
        by_code: db.filtered(&sql::by_code(), f, |r| {
            Ok((r.text(0)?, r.text(1)?, count(r, 2)?))
        })?,
        by_day: db.filtered(&sql::by_day(day), f, triple)?,
        reused_documents: db.filtered(&sql::reused(), f, triple)?,
    };
    summary.verified = summary
        .by_outcome
        .iter()
        .filter(|(o, _)| o == "verified")
        .map(|(_, n)| n)
        .sum();
    Ok(summary)
}

/// `get`: one verification with its chain fields.
pub(crate) fn get(db: &mut impl Db, id: i64) -> Result<Option<Stored>, AuditError> {
    let query = format!(
        "SELECT {} FROM verification v LEFT JOIN record_entry e ON e.verification_id = v.id
         WHERE v.id = $1",
        sql::ROW_COLUMNS
    );
    let row = db.first(&query, &[Param::Int(id)], raw_row)?;
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

/// `find_input`: the first verification recorded under an input key.
pub(crate) fn find_input(db: &mut impl Db, input_key: &str) -> Result<Option<i64>, AuditError> {
    db.first(
        "SELECT id FROM verification WHERE input_key = $1 ORDER BY id LIMIT 1",
        &[Param::Text(input_key)],
        |r| r.int(0),
    )
}

/// `head`: the newest row and the number of rows, read by one statement.
pub(crate) fn head(db: &mut impl Db) -> Result<Option<Head>, AuditError> {
    db.first(
        "SELECT id, row_hash, (SELECT COUNT(*) FROM verification)
         FROM verification ORDER BY id DESC LIMIT 1",
        &[],
        |r| {
            Ok(Head {
                id: r.int(0)?,
                hash: r.text(1)?,
                rows: count(r, 2)?,
            })
        },
    )
}

/// The rows `verify_chain` walks, in id order.
pub(crate) fn chain_rows_query() -> String {
    format!(
        "SELECT {} FROM verification v LEFT JOIN record_entry e ON e.verification_id = v.id
         ORDER BY v.id",
        sql::ROW_COLUMNS
    )
}

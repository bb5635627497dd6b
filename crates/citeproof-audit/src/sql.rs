//! SQL both backends share. Parameters are written `$1..$n`, numbered in order of first
//! appearance: PostgreSQL reads them as positional, SQLite as named parameters whose indexes
//! are assigned in that same order. Casts use `CAST(... AS ...)`, which both accept.

/// Version of the table layout; bumped on any incompatible change.
pub(crate) const SCHEMA_VERSION: i64 = 2;

/// The filter of `list` and `summary`, over `verification v`: `$1` since, `$2` until,
/// `$3` spec, `$4` subject, `$5` outcome, `$6` incident code.
pub const WHERE: &str = "(CAST($1 AS BIGINT) IS NULL OR v.verified_at >= $1)
  AND (CAST($2 AS BIGINT) IS NULL OR v.verified_at < $2)
  AND (CAST($3 AS TEXT) IS NULL OR v.spec = $3)
  AND (CAST($4 AS TEXT) IS NULL OR v.subject = $4)
  AND (CAST($5 AS TEXT) IS NULL OR v.outcome = $5)
  AND (CAST($6 AS TEXT) IS NULL OR EXISTS (
        SELECT 1 FROM incident i WHERE i.verification_id = v.id AND i.code = $6))";

/// The listing (newest first); `errors` is the backend's aggregate of the error codes of `v`
/// in order; `unlimited` is the backend's LIMIT for "all" (`-1`, `ALL`).
pub fn list(errors: &str, limit: Option<u32>, unlimited: &str) -> String {
    let limit = limit.map_or_else(|| unlimited.to_owned(), |n| n.to_string());
    format!(
        "SELECT v.id, v.spec, v.subject, v.verified_at, v.level, v.required_level, v.verified,
                v.outcome, {errors}
         FROM verification v WHERE {WHERE}
         ORDER BY v.id DESC LIMIT {limit}"
    )
}

pub fn count() -> String {
    format!("SELECT COUNT(*) FROM verification v WHERE {WHERE}")
}

pub fn by_outcome() -> String {
    format!(
        "SELECT v.outcome, COUNT(*) FROM verification v WHERE {WHERE}
         GROUP BY v.outcome ORDER BY v.outcome"
    )
}

pub fn by_spec() -> String {
    format!(
        "SELECT v.spec, COUNT(*) FROM verification v WHERE {WHERE}
         GROUP BY v.spec ORDER BY v.spec"
    )
}

pub fn by_code() -> String {
    format!(
        "SELECT c.code, c.severity, COUNT(DISTINCT c.verification_id) AS n
         FROM incident c JOIN verification v ON v.id = c.verification_id
         WHERE {WHERE}
         GROUP BY c.code, c.severity ORDER BY n DESC, c.code"
    )
}

/// `day` is the backend's `YYYY-MM-DD` (UTC) of `v.verified_at`.
pub fn by_day(day: &str) -> String {
    format!(
        "SELECT {day} AS d, COUNT(*), SUM(CASE WHEN v.verified THEN 1 ELSE 0 END)
         FROM verification v WHERE {WHERE}
         GROUP BY d ORDER BY d"
    )
}

pub fn reused() -> String {
    format!(
        "SELECT d.digest, COUNT(DISTINCT COALESCE(d.run_id, '')), COUNT(DISTINCT v.subject)
         FROM document_use d JOIN verification v ON v.id = d.verification_id
         WHERE {WHERE}
         GROUP BY d.digest
         HAVING COUNT(DISTINCT COALESCE(d.run_id, '')) > 1 OR COUNT(DISTINCT v.subject) > 1
         ORDER BY d.digest"
    )
}

pub const ROW_COLUMNS: &str = "v.id, v.spec, v.subject_kind, v.subject, v.subject_digest,
    v.verified_at, v.recorded_at, v.level, v.required_level, v.verified, v.outcome, v.input_key,
    e.entry, v.prev_hash, v.row_hash";

pub const PRIOR_USES: &str = "SELECT v.id, d.digest, v.subject, v.verified_at, d.url, d.run_id
     FROM document_use d JOIN verification v ON v.id = d.verification_id
     WHERE d.digest = $1 ORDER BY v.id, d.seq";

pub const INSERT_VERIFICATION: &str = "INSERT INTO verification
    (spec, subject_kind, subject, subject_digest, verified_at, recorded_at, level,
     required_level, verified, outcome, input_key, prev_hash, row_hash)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '') RETURNING id";

pub const INSERT_INCIDENT: &str = "INSERT INTO incident
    (verification_id, seq, level, code, severity, message, location)
    VALUES ($1, $2, $3, $4, $5, $6, $7)";

pub const INSERT_DOCUMENT: &str = "INSERT INTO document_use
    (verification_id, seq, url, digest, run_id) VALUES ($1, $2, $3, $4, $5)";

pub const ORPHANS: &str = "SELECT
    (SELECT COUNT(*) FROM incident WHERE verification_id NOT IN (SELECT id FROM verification))
  + (SELECT COUNT(*) FROM document_use WHERE verification_id NOT IN (SELECT id FROM verification))
  + (SELECT COUNT(*) FROM record_entry WHERE verification_id NOT IN (SELECT id FROM verification))";

/// The tables of both backends; `id` is the backend's never-reused key, `boolean` its type.
pub fn schema(id: &str, boolean: &str) -> String {
    format!(
        "
CREATE TABLE citeproof_audit (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE verification (
    id             {id},
    spec           TEXT    NOT NULL,
    subject_kind   TEXT    NOT NULL,
    subject        TEXT    NOT NULL,
    subject_digest TEXT,
    verified_at    BIGINT  NOT NULL,
    recorded_at    BIGINT  NOT NULL,
    level          INTEGER NOT NULL,
    required_level INTEGER NOT NULL,
    verified       {boolean} NOT NULL,
    outcome        TEXT    NOT NULL,
    input_key      TEXT,
    prev_hash      TEXT    NOT NULL,
    row_hash       TEXT    NOT NULL
);
CREATE INDEX verification_time ON verification(verified_at);
CREATE INDEX verification_spec ON verification(spec, verified_at);
CREATE INDEX verification_subject ON verification(subject);
CREATE INDEX verification_outcome ON verification(outcome, verified_at);
CREATE INDEX verification_input ON verification(input_key);
CREATE TABLE record_entry (
    verification_id BIGINT NOT NULL PRIMARY KEY REFERENCES verification(id),
    entry           TEXT   NOT NULL
);
CREATE TABLE incident (
    verification_id BIGINT  NOT NULL REFERENCES verification(id),
    seq             INTEGER NOT NULL,
    level           INTEGER NOT NULL,
    code            TEXT    NOT NULL,
    severity        TEXT    NOT NULL,
    message         TEXT    NOT NULL,
    location        TEXT    NOT NULL,
    PRIMARY KEY (verification_id, seq)
);
CREATE INDEX incident_code ON incident(code, verification_id);
CREATE TABLE document_use (
    verification_id BIGINT  NOT NULL REFERENCES verification(id),
    seq             INTEGER NOT NULL,
    url             TEXT    NOT NULL,
    digest          TEXT    NOT NULL,
    run_id          TEXT,
    PRIMARY KEY (verification_id, seq)
);
CREATE INDEX document_use_digest ON document_use(digest);
"
    )
}

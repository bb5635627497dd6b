//! The hash chain over the rows, in the manner of a transparency log.
//!
//! Row `n` stores `prev_hash` (the hash of the row before it; [`GENESIS`] for the first) and
//! `row_hash = sha256("citeproof-audit/1\n" || id || "\n" || prev_hash || "\n" || record)`, where
//! `record` is the RFC 8785 (JCS) text of the whole [`Record`] (the report included). Every
//! column and every incident and document row is a projection of that record, checked against
//! it on verification. So editing any column of any row, deleting a row or reordering rows
//! breaks the chain at the first row concerned. Rewriting the chain from a row onward (or
//! cutting its tail) is only found against a head written down earlier (`audit head`,
//! `audit verify --head`): that is what publishing the head is for.

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::{DocumentUse, Head, Record, RecordedIncident};

/// The `prev_hash` of the first row.
pub const GENESIS: &str = "sha256:0000000000000000000000000000000000000000000000000000000000000000";

/// `sha256:<hex>` of bytes.
pub fn sha256_tag(bytes: &[u8]) -> String {
    format!("sha256:{}", hex::encode(Sha256::digest(bytes)))
}

/// The hash of a row.
pub fn row_hash(id: i64, prev_hash: &str, canonical_record: &str) -> String {
    let mut h = Sha256::new();
    h.update(format!("citeproof-audit/1\n{id}\n{prev_hash}\n").as_bytes());
    h.update(canonical_record.as_bytes());
    format!("sha256:{}", hex::encode(h.finalize()))
}

/// A row as stored: its columns, exactly as the database returned them.
#[derive(Debug, Clone)]
pub struct RawRow {
    pub id: i64,
    pub spec: String,
    pub subject_kind: String,
    pub subject: String,
    pub subject_digest: Option<String>,
    pub verified_at: i64,
    pub recorded_at: i64,
    pub level: i64,
    pub required_level: i64,
    pub verified: bool,
    pub outcome: String,
    pub input_key: Option<String>,
    pub entry: String,
    pub prev_hash: String,
    pub row_hash: String,
}

/// The first row where the chain does not hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Broken {
    /// The row id (or the id of the head that was not found).
    pub id: i64,
    pub reason: String,
}

/// What `audit verify` found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChainCheck {
    /// Rows checked.
    pub rows: u64,
    /// The head as recomputed (the last row that was checked).
    pub head: Option<Head>,
    /// `None`: every row holds (and the expected head, if any, is in the chain).
    pub broken: Option<Broken>,
}

/// Walks the rows in id order and remembers the first break.
#[derive(Debug)]
pub struct Walker<'a> {
    prev: String,
    rows: u64,
    last: Option<(i64, String)>,
    broken: Option<Broken>,
    expected: Option<&'a Head>,
    expected_seen: bool,
}

impl<'a> Walker<'a> {
    pub fn new(expected: Option<&'a Head>) -> Walker<'a> {
        Walker {
            prev: GENESIS.to_owned(),
            rows: 0,
            last: None,
            broken: None,
            expected,
            expected_seen: false,
        }
    }

    /// Whether a break was found (the walk can stop).
    pub fn is_broken(&self) -> bool {
        self.broken.is_some()
    }

    /// Checks one row with its incident and document rows (in stored order).
    pub fn visit(&mut self, row: &RawRow, incidents: &[RecordedIncident], docs: &[DocumentUse]) {
        if self.broken.is_some() {
            return;
        }
        if let Err(reason) = self.check(row, incidents, docs) {
            self.broken = Some(Broken { id: row.id, reason });
            return;
        }
        self.rows += 1;
        self.prev = row.row_hash.clone();
        self.last = Some((row.id, row.row_hash.clone()));
        if let Some(e) = self.expected
            && e.id == row.id
        {
            self.expected_seen = true;
            if e.hash != row.row_hash {
                self.broken = Some(Broken {
                    id: row.id,
                    reason: format!(
                        "row {} has hash {}, the head written down says {}: the chain was rewritten",
                        row.id, row.row_hash, e.hash
                    ),
                });
            }
        }
    }

    fn check(
        &self,
        row: &RawRow,
        incidents: &[RecordedIncident],
        docs: &[DocumentUse],
    ) -> Result<(), String> {
        if row.prev_hash != self.prev {
            return Err(match &self.last {
                Some((id, _)) => format!(
                    "row {} does not follow row {id}: a row was deleted, inserted or moved",
                    row.id
                ),
                None => format!(
                    "row {} is the first row but does not start the chain: earlier rows were deleted",
                    row.id
                ),
            });
        }
        if row_hash(row.id, &row.prev_hash, &row.entry) != row.row_hash {
            return Err(format!(
                "row {}: its record does not hash to its row hash: the record or the hash was edited",
                row.id
            ));
        }
        let record = Record::parse(&row.entry)
            .map_err(|e| format!("row {}: the record cannot be read: {e}", row.id))?;
        let columns_agree = row.spec == record.spec
            && row.subject_kind == record.subject_kind
            && row.subject == record.subject
            && row.subject_digest == record.subject_digest
            && row.verified_at == record.verified_at
            && row.recorded_at == record.recorded_at
            && row.level == i64::from(record.level)
            && row.required_level == i64::from(record.required_level)
            && row.verified == record.verified
            && row.outcome == record.outcome
            && row.input_key == record.input_key;
        if !columns_agree {
            return Err(format!(
                "row {}: a column disagrees with the hashed record: the row was edited",
                row.id
            ));
        }
        if incidents != record.incidents.as_slice() {
            return Err(format!(
                "row {}: its incidents are not the hashed ones: incidents were edited, added or deleted",
                row.id
            ));
        }
        if docs != record.documents.as_slice() {
            return Err(format!(
                "row {}: its document uses are not the hashed ones: they were edited, added or deleted",
                row.id
            ));
        }
        Ok(())
    }

    /// The result; `orphans` is the number of incident or document rows that belong to no
    /// verification (added or left behind by a deleted row).
    pub fn finish(mut self, orphans: u64) -> ChainCheck {
        if self.broken.is_none()
            && let Some(e) = self.expected
            && !self.expected_seen
        {
            self.broken = Some(Broken {
                id: e.id,
                reason: format!(
                    "the head written down (row {}) is not in the store: rows were deleted or the store was replaced",
                    e.id
                ),
            });
        }
        if self.broken.is_none() && orphans > 0 {
            self.broken = Some(Broken {
                id: 0,
                reason: format!(
                    "{orphans} incident or document row(s) belong to no recorded verification"
                ),
            });
        }
        ChainCheck {
            rows: self.rows,
            head: self.last.map(|(id, hash)| Head {
                id,
                hash,
                rows: self.rows,
            }),
            broken: self.broken,
        }
    }
}

/// Parses `ID:sha256:HEX` (what `audit head` prints).
pub fn parse_head(text: &str) -> Result<Head, String> {
    let (id, hash) = text
        .split_once(':')
        .ok_or_else(|| format!("`{text}` is not a head (ID:sha256:HEX, as `audit head` prints)"))?;
    let id: i64 = id.parse().map_err(|_| format!("`{id}` is not a row id"))?;
    let hex_part = hash
        .strip_prefix("sha256:")
        .ok_or_else(|| format!("`{hash}` is not sha256:HEX"))?;
    if hex_part.len() != 64 || !hex_part.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("`{hash}` is not sha256: and 64 hex digits"));
    }
    Ok(Head {
        id,
        hash: format!("sha256:{}", hex_part.to_ascii_lowercase()),
        rows: 0,
    })
}

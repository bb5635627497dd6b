//! One reading of an audit file that many requests share (LEDGER-008, -010, -011): its records
//! and damaged lines in file order, each damaged line with the ledger it can be attributed to,
//! and the first problem in the order of each ledger's records.
//!
//! The file is one artifact, but its lines are not one subject: a torn append of one request
//! says nothing about the records of another. So damage is kept with its owner, and each
//! check decides whether it is its own (an error) or elsewhere (the warning
//! `ledger-audit-file-damaged`).

use std::collections::HashMap;

use citeproof_model::{Incident, IncidentCode, Location, Severity};
use serde_json::Value;

use crate::jsonl::{Limits, frame};
use crate::record::{self, Record};

/// Whose a damaged line is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Owner {
    /// It cannot hide a record (an empty line, a byte order mark, a JSON value that is not an
    /// object).
    Nobody,
    /// It may hide a record, and names no ledger id (torn before its `ledger_id`).
    Unknown,
    /// A JSON object without `ledger_id` that fails the record checks: one of the records that
    /// carry no id (LEDGER-012).
    Unidentified,
    /// It names these ledger ids (a record of one of them, or several records glued together).
    Ledgers(Vec<String>),
}

/// A line that yields no record, and why.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Damage {
    pub line: u64,
    pub owner: Owner,
    pub incidents: Vec<Incident>,
}

impl Damage {
    /// Whether a check of ledger `target` (`None`: the records that carry no id) must count
    /// this damage as its own. `unknown_is_own`: whether a line that names no id may be
    /// counted against the target (an audit has no other way to know the target is whole).
    pub fn is_own(&self, target: Option<&str>, unknown_is_own: bool) -> bool {
        match (&self.owner, target) {
            (Owner::Ledgers(ids), Some(t)) => ids.iter().any(|i| i == t),
            (Owner::Unidentified, None) => true,
            (Owner::Unknown, _) => unknown_is_own,
            _ => false,
        }
    }

    /// The warning that reports this damage to a check of another ledger.
    pub fn elsewhere(&self, target: &str) -> Incident {
        let first = self.incidents.first();
        let cause = first.map_or_else(String::new, |i| format!("[{}] {}", i.code, i.message));
        let more = match self.incidents.len() {
            0 | 1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        let whose = match &self.owner {
            Owner::Nobody => "it holds no record".to_owned(),
            Owner::Unknown => "it names no ledger id".to_owned(),
            Owner::Unidentified => "a record without a ledger id".to_owned(),
            Owner::Ledgers(ids) => format!("a record of {}", quoted(ids)),
        };
        Incident::new(
            IncidentCode::LedgerAuditFileDamaged,
            format!(
                "{cause}{more}; not a record of {target} ({whose}), so it is reported, not counted"
            ),
            Location {
                line: Some(self.line),
                offset: first.and_then(|i| i.location.offset),
                ..Location::default()
            },
        )
    }
}

/// The first few ids, quoted (a damaged line may name very many).
fn quoted(ids: &[String]) -> String {
    let mut out = ids
        .iter()
        .take(3)
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if ids.len() > 3 {
        out.push_str(&format!(" and {} more", ids.len() - 3));
    }
    out
}

/// A line of the file that is a record, or one that is damaged.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Entry {
    Record(Box<Record>),
    Damaged(Damage),
}

/// An audit file, read once.
pub(crate) struct ReadFile {
    /// Records and damaged lines, in file order.
    pub entries: Vec<Entry>,
    /// Lines that hold a JSON object (records, well-formed or not).
    pub objects: u64,
    /// Incidents about the file as a whole (too large, too many records): every check's own.
    pub incidents: Vec<Incident>,
    /// The first problem in the order of each ledger's records (LEDGER-011).
    pub sequence: HashMap<String, Incident>,
}

impl ReadFile {
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.entries.iter().filter_map(|e| match e {
            Entry::Record(r) => Some(&**r),
            Entry::Damaged(_) => None,
        })
    }

    pub fn damage(&self) -> impl Iterator<Item = &Damage> {
        self.entries.iter().filter_map(|e| match e {
            Entry::Damaged(d) => Some(d),
            Entry::Record(_) => None,
        })
    }

    /// The records of ledger `id`, in file order.
    pub fn records_of(&self, id: &str) -> Vec<&Record> {
        self.records()
            .filter(|r| r.ledger_id.as_deref() == Some(id))
            .collect()
    }

    /// Whether any error-severity incident concerns the file as a whole.
    pub fn unreadable(&self) -> bool {
        self.incidents.iter().any(|i| i.severity == Severity::Error)
    }
}

pub(crate) fn read_file(bytes: &[u8], limits: &Limits) -> ReadFile {
    let framed = frame(bytes, limits);
    let objects = framed.lines.len() as u64;
    let mut entries = Vec::with_capacity(framed.lines.len() + framed.damaged.len());
    let mut damaged = framed.damaged.into_iter().peekable();
    for line in &framed.lines {
        while let Some(d) = damaged.next_if(|d| d.number <= line.number) {
            entries.push(framing_damage(d));
        }
        let mut incidents = Vec::new();
        match record::read(&line.value, line.number, &mut incidents) {
            Some(r) => entries.push(Entry::Record(Box::new(r))),
            None => {
                let owner = match line.value.get("ledger_id") {
                    Some(Value::String(id)) => Owner::Ledgers(vec![id.clone()]),
                    Some(_) => Owner::Unknown,
                    None => Owner::Unidentified,
                };
                entries.push(Entry::Damaged(Damage {
                    line: line.number,
                    owner,
                    incidents,
                }));
            }
        }
    }
    entries.extend(damaged.map(framing_damage));
    let mut file = ReadFile {
        entries,
        objects,
        incidents: framed.incidents,
        sequence: HashMap::new(),
    };
    file.sequence = sequence_problems(&file);
    file
}

fn framing_damage(d: crate::jsonl::DamagedLine) -> Entry {
    let owner = match (d.may_hold_record, d.ledger_ids.is_empty()) {
        (false, _) => Owner::Nobody,
        (true, true) => Owner::Unknown,
        (true, false) => Owner::Ledgers(d.ledger_ids),
    };
    Entry::Damaged(Damage {
        line: d.number,
        owner,
        incidents: vec![d.incident],
    })
}

/// LEDGER-011, per ledger id: with `seq`, the records carry 0, 1, 2, ... in file order,
/// whatever lies between them; without, they form one block of consecutive records. The first
/// problem of each ledger: `ledger-id-reused` for a position written again (a replayed
/// append) or a second block, `ledger-seq-broken` for a position skipped or a record without
/// `seq` among records with one.
fn sequence_problems(file: &ReadFile) -> HashMap<String, Incident> {
    let records: Vec<&Record> = file.records().collect();
    let mut numbered: HashMap<&str, bool> = HashMap::new();
    for r in &records {
        if let Some(id) = r.ledger_id.as_deref() {
            *numbered.entry(id).or_default() |= r.seq.is_some();
        }
    }
    // Per ledger: the line of each position seen so far, and the index of its last record.
    let mut seen: HashMap<&str, (Vec<u64>, usize)> = HashMap::new();
    let mut out: HashMap<String, Incident> = HashMap::new();
    for (k, r) in records.iter().enumerate() {
        let Some(id) = r.ledger_id.as_deref() else {
            continue;
        };
        let (lines, last) = seen.entry(id).or_insert_with(|| (Vec::new(), k));
        let position = lines.len() as u64;
        let problem = if numbered.get(id).copied().unwrap_or(false) {
            match r.seq {
                None => Some((
                    IncidentCode::LedgerSeqBroken,
                    format!(
                        "a record of ledger `{id}` without `seq`, among records of it that carry one"
                    ),
                )),
                Some(s) if s < position => Some((
                    IncidentCode::LedgerIdReused,
                    format!(
                        "`seq` {s} of ledger `{id}` again (first on line {}): its records were appended more than once",
                        lines
                            .get(usize::try_from(s).unwrap_or(usize::MAX))
                            .copied()
                            .unwrap_or(0)
                    ),
                )),
                Some(s) if s > position => Some((
                    IncidentCode::LedgerSeqBroken,
                    format!(
                        "`seq` {s} where {position} comes next: a record of ledger `{id}` is missing or out of order"
                    ),
                )),
                Some(_) => None,
            }
        } else if !lines.is_empty() && *last + 1 != k {
            Some((
                IncidentCode::LedgerIdReused,
                format!(
                    "ledger `{id}` starts a second block of records here (its first block starts on line {}); records without `seq` cannot be told from a replayed append",
                    lines.first().copied().unwrap_or(0)
                ),
            ))
        } else {
            None
        };
        lines.push(r.line);
        *last = k;
        if let Some((code, message)) = problem {
            out.entry(id.to_owned()).or_insert_with(|| {
                Incident::new(
                    code,
                    message,
                    Location {
                        line: Some(r.line),
                        pointer: Some(
                            if r.seq.is_some() {
                                "/seq"
                            } else {
                                "/ledger_id"
                            }
                            .into(),
                        ),
                        ..Location::default()
                    },
                )
            });
        }
    }
    out
}

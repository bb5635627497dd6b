//! The framing of a JSONL audit file (LEDGER-008) and the bounds on the work it causes
//! (LEDGER-015). Hostile input is expected: the file is read once, line by line, each line
//! parsed with the strict I-JSON parser under a per-line size limit; nothing here recurses or
//! panics.

use citeproof_model::json::parse_strict_limited;
use citeproof_model::{Incident, IncidentCode, Location};
use serde_json::Value;

/// The bounds of LEDGER-015.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest audit file read, in bytes.
    pub max_file_bytes: usize,
    /// Longest line (one record, line ending excluded), in bytes.
    pub max_line_bytes: usize,
    /// Most records read from one file.
    pub max_records: usize,
}

/// 64 MiB per audit file.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;
/// 1 MiB per record.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;
/// 200 000 records per audit file.
pub const MAX_RECORDS: usize = 200_000;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_file_bytes: MAX_FILE_BYTES,
            max_line_bytes: MAX_LINE_BYTES,
            max_records: MAX_RECORDS,
        }
    }
}

/// One line that holds a JSON object.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// 1-based line number.
    pub number: u64,
    /// Byte offset of the line's first byte in the file.
    pub offset: u64,
    pub value: Value,
}

/// A line that yields no record (LEDGER-008), with what can still be said about whose it is.
#[derive(Debug, Clone, PartialEq)]
pub struct DamagedLine {
    /// 1-based line number.
    pub number: u64,
    pub incident: Incident,
    /// Whether the line could have been a record: false for an empty line, a byte order mark
    /// and a line holding a JSON value that is not an object; true for a torn, over-long or
    /// unparseable line.
    pub may_hold_record: bool,
    /// The ledger ids the line's bytes name ([`named_ledger_ids`]).
    pub ledger_ids: Vec<String>,
}

/// The lines of an audit file that hold JSON objects, the damaged lines, and the incidents
/// about the file as a whole (too large, too many records).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Framed {
    pub lines: Vec<Line>,
    pub damaged: Vec<DamagedLine>,
    pub incidents: Vec<Incident>,
}

/// The ledger ids a line names, in order of appearance: every member name `"ledger_id"`
/// followed, after optional JSON whitespace, by `:` and a complete JSON string of the
/// ledger-id grammar written without escapes. This is how a line that is not a record (torn,
/// not UTF-8, not I-JSON) is still attributed to a ledger (LEDGER-008): an escaped quote
/// (`\"ledger_id\"` inside a string) never matches, and a torn id is no id.
pub fn named_ledger_ids(bytes: &[u8]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // A hostile line may name a million distinct ids: membership is a hash lookup.
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    // An id has at most 128 bytes (ACA-L1-007's grammar).
    for range in citeproof_model::raw_members::string_values(bytes, "ledger_id", 128) {
        let Ok(id) = std::str::from_utf8(&bytes[range]) else {
            continue;
        };
        if citeproof_model::ids::is_run_id(id) && seen.insert(id) {
            out.push(id.to_owned());
        }
    }
    out
}

fn at_line(number: u64, offset: u64) -> Location {
    Location {
        line: Some(number),
        offset: Some(offset),
        ..Location::default()
    }
}

/// Splits `bytes` into records. Lines end in LF; a CR before the LF is allowed (the seed's
/// `open(filepath, "a")` writes CRLF on Windows through text mode). A line that is empty,
/// holds anything but one JSON object, or is the last line without its LF (a torn append) is
/// an incident and no record. A line or file over its limit is `ledger-jsonl-too-large`; past
/// `max_records` reading stops.
pub fn frame(bytes: &[u8], limits: &Limits) -> Framed {
    let mut out = Framed::default();
    if bytes.len() > limits.max_file_bytes {
        out.incidents.push(Incident::new(
            IncidentCode::LedgerJsonlTooLarge,
            format!(
                "the audit file is {} bytes; the limit is {}",
                bytes.len(),
                limits.max_file_bytes
            ),
            Location::default(),
        ));
        return out;
    }
    let mut start = 0usize;
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        out.damaged.push(damaged(
            1,
            Incident::new(
                IncidentCode::LedgerJsonlMalformed,
                "the audit file starts with a byte order mark",
                at_line(1, 0),
            ),
            None,
        ));
        start = 3;
    }
    let mut number = 0u64;
    while start < bytes.len() {
        number += 1;
        let rest = bytes.get(start..).unwrap_or_default();
        let (line, next, terminated) = match rest.iter().position(|b| *b == b'\n') {
            Some(i) => (rest.get(..i).unwrap_or_default(), start + i + 1, true),
            None => (rest, bytes.len(), false),
        };
        let offset = start as u64;
        start = next;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if let Some(damage) = framing_damage(line, terminated, number, offset, limits) {
            out.damaged.push(damage);
            continue;
        }
        if out.lines.len() >= limits.max_records {
            out.incidents.push(Incident::new(
                IncidentCode::LedgerJsonlTooLarge,
                format!(
                    "the audit file holds more than {} records; the rest is not read",
                    limits.max_records
                ),
                at_line(number, offset),
            ));
            break;
        }
        match parse_strict_limited(line, limits.max_line_bytes) {
            Ok(value @ Value::Object(_)) => out.lines.push(Line {
                number,
                offset,
                value,
            }),
            Ok(other) => out.damaged.push(damaged(
                number,
                Incident::new(
                    IncidentCode::LedgerJsonlMalformed,
                    format!(
                        "the line holds {}, not a JSON object",
                        crate::shape::kind(&other)
                    ),
                    at_line(number, offset),
                ),
                None,
            )),
            Err(e) => {
                let mut incident = e.to_incident();
                incident.location.line = Some(number);
                incident.location.offset = Some(offset + e.offset.unwrap_or(0));
                out.damaged.push(damaged(number, incident, Some(line)));
            }
        }
    }
    out
}

/// A damaged line; `line` when it may still hold a record (its ledger ids are read from it).
fn damaged(number: u64, incident: Incident, line: Option<&[u8]>) -> DamagedLine {
    DamagedLine {
        number,
        incident,
        may_hold_record: line.is_some(),
        ledger_ids: line.map(named_ledger_ids).unwrap_or_default(),
    }
}

/// What is wrong with a line before its JSON is read: torn (no LF), empty, or too long.
fn framing_damage(
    line: &[u8],
    terminated: bool,
    number: u64,
    offset: u64,
    limits: &Limits,
) -> Option<DamagedLine> {
    let at = at_line(number, offset);
    if !terminated {
        let why = "the last line does not end in LF: a torn or unfinished append";
        let incident = Incident::new(IncidentCode::LedgerJsonlMalformed, why, at);
        return Some(damaged(number, incident, Some(line)));
    }
    if line.is_empty() {
        let why = "empty line: every line holds one record";
        let incident = Incident::new(IncidentCode::LedgerJsonlMalformed, why, at);
        return Some(damaged(number, incident, None));
    }
    if line.len() > limits.max_line_bytes {
        let why = format!(
            "the line is {} bytes; a record is at most {}",
            line.len(),
            limits.max_line_bytes
        );
        let incident = Incident::new(IncidentCode::LedgerJsonlTooLarge, why, at);
        return Some(damaged(number, incident, Some(line)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(f: &Framed) -> Vec<(&'static str, Option<u64>)> {
        f.damaged
            .iter()
            .map(|d| &d.incident)
            .chain(&f.incidents)
            .map(|i| (i.code.as_str(), i.location.line))
            .collect()
    }

    #[test]
    fn damaged_lines_are_attributed_by_the_ids_they_name() {
        // Hand-written lines: a torn record, two glued records, an escaped name, a torn id.
        let f = frame(
            b"{\"claim\":\"a\",\"ledger_id\" : \"run-a\",\"logged\n\
              {\"ledger_id\":\"run-b\",\"x\":{\"ledger_id\":\"run-c\",\"ledger_id\":\"run-b\"}\n\
              {\"claim\":\"see \\\"ledger_id\\\":\\\"run-d\\\"\",\"claim\":1}\n\
              {\"ledger_id\":\"run-\n\
              [1]\n",
            &Limits::default(),
        );
        let got: Vec<(u64, bool, Vec<String>)> = f
            .damaged
            .iter()
            .map(|d| (d.number, d.may_hold_record, d.ledger_ids.clone()))
            .collect();
        let ids = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            got,
            [
                (1, true, ids(&["run-a"])),
                (2, true, ids(&["run-b", "run-c"])),
                (3, true, ids(&[])),
                (4, true, ids(&[])),
                (5, false, ids(&[])),
            ]
        );
    }

    #[test]
    fn lines_crlf_bom_torn_and_empty() {
        let f = frame(b"{\"a\":1}\r\n{\"b\":2}\n", &Limits::default());
        assert_eq!(f.lines.len(), 2);
        assert!(f.incidents.is_empty());
        assert_eq!((f.lines[1].number, f.lines[1].offset), (2, 9));

        let f = frame(
            b"\xEF\xBB\xBF{}\n\n[1]\n{\"a\":1,\"a\":2}\n{}",
            &Limits::default(),
        );
        assert_eq!(f.lines.len(), 1);
        assert_eq!(
            codes(&f),
            [
                ("ledger-jsonl-malformed", Some(1)),
                ("ledger-jsonl-malformed", Some(2)),
                ("ledger-jsonl-malformed", Some(3)),
                ("json-duplicate-member", Some(4)),
                ("ledger-jsonl-malformed", Some(5)),
            ]
        );
        assert!(frame(b"", &Limits::default()).incidents.is_empty());
    }

    #[test]
    fn bounds_are_enforced_and_reported() {
        let limits = Limits {
            max_file_bytes: 64,
            max_line_bytes: 8,
            max_records: 2,
        };
        let f = frame(&[b' '; 65], &limits);
        assert_eq!(codes(&f), [("ledger-jsonl-too-large", None)]);
        let f = frame(b"{\"abcdefgh\":1}\n{}\n{}\n{}\n", &limits);
        assert_eq!(
            codes(&f),
            [
                ("ledger-jsonl-too-large", Some(1)),
                ("ledger-jsonl-too-large", Some(4)),
            ]
        );
        assert_eq!(f.lines.len(), 2);
    }
}

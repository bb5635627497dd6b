//! The bundle log (ARCHIVE-025 to ARCHIVE-029): JSON lines forming a hash chain, anchored by a
//! head the verifier was given, in time order, with every delivered bundle logged once at
//! assembly. The evidence budget over the same records is in [`crate::budget`].

use std::collections::HashMap;

use citeproof_model::archive::{
    BundleOutcome, LOG_GENESIS, LogEvent, LogRecord, RefusalReason, ResponseBundle,
};
use citeproof_model::json::parse_strict;
use citeproof_model::{ContentHash, Incident, IncidentCode, Severity, jcs, sha256_bytes};
use citeproof_schema::{DocumentKind, SchemaValidator};
use serde::Serialize;
use serde_json::Value;

use crate::budget::check_budget;
use crate::context::{check_context, handles_of};
use crate::findings::{Findings, pointer};
use crate::store::Store;
use crate::verify::{ArchiveIncident, Document};

/// Most records a log may have.
pub const MAX_RECORDS: usize = 1 << 20;
/// Most bytes a log may have.
pub const MAX_LOG_BYTES: usize = 256 * 1024 * 1024;
/// Seconds after a bundle's `created_at` within which it must be logged (ARCHIVE-029).
pub const LOG_WINDOW_SECONDS: i64 = 300;

/// A record of the log, as read.
#[derive(Debug, Clone)]
pub struct Line {
    /// The parsed JSON value (whatever its form), when the line is JSON.
    pub value: Option<Value>,
    /// The typed record, when the line has the form of its type.
    pub record: Option<LogRecord>,
    /// JCS hash of the value.
    pub hash: Option<ContentHash>,
}

/// What the verifier is told besides the log.
#[derive(Debug, Clone, Default)]
pub struct LogOptions {
    /// Verification time, Unix seconds.
    pub now: i64,
    /// A head `(seq, hash)` obtained independently (ARCHIVE-026).
    pub head: Option<(u64, ContentHash)>,
}

/// Counts an auditor reads off a log.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LogCounts {
    pub bundles: usize,
    pub answered: usize,
    pub refused_category: usize,
    pub refused_coverage: usize,
    pub context_requests: usize,
    pub extraction_risks: usize,
}

/// The verdict on a log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LogReport {
    pub valid: bool,
    pub incidents: Vec<ArchiveIncident>,
    pub records: usize,
    /// `seq` and hash of the last record: the head to remember for the next verification.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<(u64, ContentHash)>,
    pub counts: LogCounts,
}

impl LogReport {
    pub fn plain_incidents(&self) -> Vec<Incident> {
        self.incidents.iter().map(|i| i.incident.clone()).collect()
    }
    pub fn has(&self, code: IncidentCode) -> bool {
        self.incidents.iter().any(|i| i.incident.code == code)
    }
}

/// Splits and parses the log text; form problems go to `f`.
pub fn read_lines(bytes: &[u8], f: &mut Findings) -> Vec<Line> {
    if bytes.len() > MAX_LOG_BYTES {
        f.at(
            IncidentCode::JsonTooLarge,
            "",
            "the log is larger than 256 MiB",
        );
        return Vec::new();
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        f.at(IncidentCode::JsonInvalidUtf8, "", "the log is not UTF-8");
        return Vec::new();
    };
    let body = text.strip_suffix('\n').unwrap_or(text);
    if body.is_empty() {
        return Vec::new();
    }
    let count = body.split('\n').count();
    if count > MAX_RECORDS {
        f.at(
            IncidentCode::JsonTooLarge,
            "",
            "the log has more than 1 048 576 records",
        );
        return Vec::new();
    }
    let validator = SchemaValidator::cached(DocumentKind::ArchiveLogRecord).ok();
    body.split('\n')
        .enumerate()
        .map(|(n, line)| read_line(n, line, validator, f))
        .collect()
}

fn read_line(n: usize, line: &str, validator: Option<&SchemaValidator>, f: &mut Findings) -> Line {
    let at = pointer("", n);
    let mut out = Line {
        value: None,
        record: None,
        hash: None,
    };
    if line.is_empty() {
        f.at(
            IncidentCode::ArchiveLogRecordInvalid,
            at,
            "an empty line is not a record",
        );
        return out;
    }
    let value = match parse_strict(line.as_bytes()) {
        Ok(v) => v,
        Err(e) => {
            let mut i = e.to_incident();
            i.location.pointer = Some(at);
            f.push(i);
            return out;
        }
    };
    out.hash = Some(sha256_bytes(&jcs::canonicalize(&value)));
    let mut problems: Vec<String> = match validator {
        Some(v) => v
            .validate(&value)
            .into_iter()
            .map(|i| format!("{} ({})", i.message, i.location.pointer.unwrap_or_default()))
            .collect(),
        None => vec!["the record schema is unavailable".into()],
    };
    if problems.is_empty() {
        match citeproof_model::typed::<LogRecord>(&value) {
            Ok(r) => {
                if let Some(why) = semantic_problem(&r) {
                    problems.push(why.into());
                } else {
                    out.record = Some(r);
                }
            }
            Err(i) => problems.push(i.message),
        }
    }
    if let Some(first) = problems.first() {
        f.at(
            IncidentCode::ArchiveLogRecordInvalid,
            at,
            format!("the record does not have the form of its type: {first}"),
        );
    }
    out.value = Some(value);
    out
}

fn semantic_problem(r: &LogRecord) -> Option<&'static str> {
    match &r.event {
        LogEvent::ContextRequest {
            requested_chars,
            delivered_chars,
            ..
        } if delivered_chars > requested_chars => {
            Some("`delivered_chars` is above `requested_chars`")
        }
        LogEvent::ExtractionRisk { limits, .. } if limits.windows(2).any(|w| w[0] >= w[1]) => {
            Some("`limits` are distinct and in the order daily-budget, request-cap, rate")
        }
        _ => None,
    }
}

/// ARCHIVE-025 (chain), ARCHIVE-026 (head) and ARCHIVE-028 (times).
fn check_chain(lines: &[Line], opts: &LogOptions, f: &mut Findings) {
    let genesis: Option<ContentHash> = LOG_GENESIS.parse().ok();
    let mut expected_prev = genesis;
    let mut last_at = None;
    let limit = opts.now.saturating_add(citeproof_model::CLOCK_SKEW_SECONDS);
    for (n, line) in lines.iter().enumerate() {
        let at = pointer("", n);
        if let Some(value) = &line.value {
            let seq = value.get("seq").and_then(Value::as_u64);
            let prev = value
                .get("prev")
                .and_then(Value::as_str)
                .and_then(|p| p.parse::<ContentHash>().ok());
            let seq_ok = seq == Some(n as u64);
            let prev_ok = match expected_prev {
                Some(e) => prev == Some(e),
                None => true,
            };
            if !seq_ok || !prev_ok {
                f.at(
                    IncidentCode::ArchiveLogBroken,
                    at.clone(),
                    if seq_ok {
                        "`prev` is not the hash of the record before: a record was edited, removed or moved"
                    } else {
                        "`seq` is not the record's position: a record was removed or moved"
                    },
                );
            }
        }
        expected_prev = line.hash;
        if let Some(r) = &line.record {
            if last_at.is_some_and(|l| r.at < l) {
                f.at(
                    IncidentCode::ArchiveLogTimeInvalid,
                    pointer(&at, "at"),
                    "the record's time goes backwards",
                );
            }
            if r.at.unix_seconds() > limit {
                f.at(
                    IncidentCode::ArchiveLogTimeInvalid,
                    pointer(&at, "at"),
                    "the record's time is in the future",
                );
            }
            last_at = Some(r.at.clone());
        }
    }
    match opts.head {
        Some((seq, hash)) => {
            let found = usize::try_from(seq)
                .ok()
                .and_then(|i| lines.get(i))
                .and_then(|l| l.hash);
            if found != Some(hash) {
                f.at(
                    IncidentCode::ArchiveLogHeadMismatch,
                    pointer("", seq),
                    format!("the record at line {seq} does not hash to {hash}: the log was rewritten, truncated, or records before it were removed or inserted"),
                );
            }
        }
        None => f.at(
            IncidentCode::ArchiveLogUnanchored,
            "",
            "no head was given: a rewritten or truncated end of the log would go unnoticed",
        ),
    }
}

/// The outcome a log records for a bundle (ARCHIVE-029).
pub fn outcome_of(bundle: &ResponseBundle) -> BundleOutcome {
    match &bundle.refusal {
        _ if bundle.claims.iter().any(|c| c.rung.is_delivered()) => BundleOutcome::Answered,
        Some(r) if r.reason == RefusalReason::Category => BundleOutcome::RefusedCategory,
        _ => BundleOutcome::RefusedCoverage,
    }
}

/// ARCHIVE-029 for one bundle (raw JSON text).
fn check_bundle_logged(
    index: usize,
    bytes: &[u8],
    lines: &[Line],
    lf: &mut Findings,
    bf: &mut Findings,
) {
    let at = pointer("", index);
    let value = match parse_strict(bytes) {
        Ok(v) => v,
        Err(e) => {
            let mut i = e.to_incident();
            i.location.pointer = Some(at);
            bf.push(i);
            return;
        }
    };
    let hash = sha256_bytes(&jcs::canonicalize(&value));
    let mut unsigned = value.clone();
    if let Some(o) = unsigned.as_object_mut() {
        o.remove("signature");
    }
    let bundle: ResponseBundle = match citeproof_model::typed(&unsigned) {
        Ok(b) => b,
        Err(mut i) => {
            i.location.pointer = Some(at);
            bf.push(i);
            return;
        }
    };
    let outcome = outcome_of(&bundle);
    let records: Vec<(usize, &LogRecord)> = lines
        .iter()
        .enumerate()
        .filter_map(|(n, l)| l.record.as_ref().map(|r| (n, r)))
        .filter(|(_, r)| matches!(&r.event, LogEvent::Bundle { bundle_hash, .. } if *bundle_hash == hash))
        .collect();
    let [(n, record)] = records.as_slice() else {
        lf.at(
            IncidentCode::ArchiveLogBundleMissing,
            "",
            format!(
                "bundle {} ({hash}) is logged {} times; exactly once is required",
                bundle.response_id,
                records.len()
            ),
        );
        return;
    };
    if let LogEvent::Bundle {
        response_id,
        requester,
        tier,
        outcome: logged,
        ..
    } = &record.event
        && (*response_id != bundle.response_id
            || *requester != bundle.requester
            || *tier != bundle.tier
            || *logged != outcome)
    {
        lf.at(
            IncidentCode::ArchiveLogBundleMissing,
            pointer("", n),
            format!("the record of bundle {} differs from the bundle (response, requester, tier or outcome)", bundle.response_id),
        );
    }
    let delay = record.at.unix_seconds() - bundle.created_at.unix_seconds();
    if !(0..=LOG_WINDOW_SECONDS).contains(&delay) {
        lf.at(
            IncidentCode::ArchiveLogTimeInvalid,
            pointer(&pointer("", n), "at"),
            format!(
                "bundle {} is logged {delay} s after its `created_at`; the window is 0 to 300 s",
                bundle.response_id
            ),
        );
    }
}

/// The handles of each given bundle that parses, by its JCS hash (for ARCHIVE-034).
fn given_handles(
    bundles: &[Vec<u8>],
    store: &Store,
) -> HashMap<ContentHash, Option<HashMap<String, ContentHash>>> {
    let mut out = HashMap::new();
    for bytes in bundles {
        let Ok(value) = parse_strict(bytes) else {
            continue;
        };
        let hash = sha256_bytes(&jcs::canonicalize(&value));
        let mut unsigned = value;
        if let Some(o) = unsigned.as_object_mut() {
            o.remove("signature");
        }
        if let Ok(bundle) = citeproof_model::typed::<ResponseBundle>(&unsigned) {
            out.insert(hash, handles_of(&bundle, store));
        }
    }
    out
}

/// Verifies a bundle log (raw JSONL) against the archive's policies, with the bundles it must
/// record (raw JSON texts).
pub fn verify_log(log: &[u8], store: &Store, bundles: &[Vec<u8>], opts: &LogOptions) -> LogReport {
    let mut lf = Findings::new();
    let mut bf = Findings::new();
    let lines = read_lines(log, &mut lf);
    check_chain(&lines, opts, &mut lf);
    check_budget(&lines, store, &mut lf);
    check_context(&lines, store, &given_handles(bundles, store), &mut lf);
    for (i, b) in bundles.iter().enumerate() {
        check_bundle_logged(i, b, &lines, &mut lf, &mut bf);
    }
    let mut counts = LogCounts::default();
    for r in lines.iter().filter_map(|l| l.record.as_ref()) {
        match &r.event {
            LogEvent::Bundle { outcome, .. } => {
                counts.bundles += 1;
                match outcome {
                    BundleOutcome::Answered => counts.answered += 1,
                    BundleOutcome::RefusedCategory => counts.refused_category += 1,
                    BundleOutcome::RefusedCoverage => counts.refused_coverage += 1,
                }
            }
            LogEvent::ContextRequest { .. } => counts.context_requests += 1,
            LogEvent::ExtractionRisk { .. } => counts.extraction_risks += 1,
        }
    }
    let head = lines
        .len()
        .checked_sub(1)
        .and_then(|n| lines.get(n).and_then(|l| l.hash).map(|h| (n as u64, h)));
    let mut incidents: Vec<ArchiveIncident> = lf
        .into_vec()
        .into_iter()
        .map(|incident| ArchiveIncident {
            document: Document::Log,
            incident,
        })
        .collect();
    incidents.extend(bf.into_vec().into_iter().map(|incident| ArchiveIncident {
        document: Document::Bundle,
        incident,
    }));
    let valid = !incidents
        .iter()
        .any(|i| i.incident.severity == Severity::Error);
    LogReport {
        valid,
        incidents,
        records: lines.len(),
        head,
        counts,
    }
}

/// The next record of a log whose last line is `last` (value), for appending.
pub fn next_record(
    last: Option<(u64, ContentHash)>,
    at: citeproof_model::Timestamp,
    event: LogEvent,
) -> LogRecord {
    let (seq, prev) = match last {
        Some((seq, hash)) => (seq + 1, hash),
        None => (
            0,
            LOG_GENESIS
                .parse()
                .unwrap_or(ContentHash::from_digest([0; 32])),
        ),
    };
    LogRecord {
        seq,
        at,
        prev,
        event,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_count_is_bounded() {
        // One more line than MAX_RECORDS (3 bytes each): refused before any line is parsed.
        let text = "{}\n".repeat(MAX_RECORDS + 1);
        let mut f = Findings::new();
        assert!(read_lines(text.as_bytes(), &mut f).is_empty());
        assert_eq!(
            f.0.iter().map(|i| i.code).collect::<Vec<_>>(),
            [IncidentCode::JsonTooLarge]
        );
    }

    #[test]
    fn log_size_is_bounded() {
        // MAX_LOG_BYTES + 1 zero bytes (pages never touched): refused before any line is read.
        let bytes = vec![0u8; MAX_LOG_BYTES + 1];
        let mut f = Findings::new();
        assert!(read_lines(&bytes, &mut f).is_empty());
        assert_eq!(
            f.0.iter().map(|i| i.code).collect::<Vec<_>>(),
            [IncidentCode::JsonTooLarge]
        );
    }

    #[test]
    fn final_newline_is_optional_and_empty_lines_are_records() {
        let mut f = Findings::new();
        assert_eq!(read_lines(b"{}\n{}", &mut f).len(), 2);
        let mut f = Findings::new();
        assert_eq!(read_lines(b"{}\n\n{}\n", &mut f).len(), 3);
        assert!(f.has(IncidentCode::ArchiveLogRecordInvalid));
        let mut f = Findings::new();
        assert!(read_lines(b"\xff\n", &mut f).is_empty());
        assert!(f.has(IncidentCode::JsonInvalidUtf8));
    }
}

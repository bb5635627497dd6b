//! The attribution ledger of seed 003, as the agent-side API that produces ACA manifests.
//!
//! Sources are captured at the tool boundary ([`AttributionLedger::capture`]): the bytes the
//! tool fetched are kept, so the manifest's `hash`, `excerpt_offset` and `excerpt_hash` are
//! computed from them, never parsed out of model text (seed 003 pitfall 1). Claims are
//! registered with a reference to a capture and the excerpt that supports them
//! ([`AttributionLedger::register`]); computational and structural claims are registered with
//! `requires_attribution = false`. Before emitting, [`AttributionLedger::audit`] computes
//! coverage (LEDGER-003 to -005); in strict mode [`AttributionLedger::build_manifest`] refuses to
//! emit below the threshold (LEDGER-006). [`AttributionLedger::write_audit_jsonl`] appends one
//! JSONL record per claim (LEDGER-008, -009).
//!
//! ```
//! use citeproof_ledger::*;
//! use citeproof_aca::sign::StepInputs;
//!
//! # fn main() -> Result<(), citeproof_ledger::LedgerError> {
//! let clock = SteppingClock::new(1_777_370_000, 1);
//! let mut ledger = AttributionLedger::new(LedgerConfig::strict(), RunId::new("run-1")?, Box::new(clock));
//! let call = ledger.tool_call("fetch", StepInputs::Public(Default::default()), &[])?;
//! let page = ledger.capture(&call, "https://example.com/a", b"<p>Templates emit one canonical question per page.</p>".to_vec(), "web_fetch")?;
//! ledger.register(ClaimInput::attributed("Templates emit one canonical question per page.", page, Excerpt::quote("Templates emit one canonical question per page.")))?;
//! ledger.register(ClaimInput::unattributed("The pipeline processed 1 source.", false))?;
//! assert!(ledger.audit().is_compliant);
//! let manifest = ledger.build_manifest("agent.example/v1", true)?;
//! assert_eq!(manifest.claims.len(), 1);
//! # Ok(())
//! # }
//! ```

use std::io::Write;
use std::sync::atomic::{AtomicI64, Ordering};

use citeproof_model::aca::{Claim, ClaimSource, Confidence, Manifest};
use citeproof_model::ledger::{
    AuditRecord, ClaimRecord, Coverage, Ledger, LedgerMode, SourceReference,
};
use citeproof_model::{
    ContentHash, Extensions, HttpUrl, Timestamp, aef_text_hash, jcs::canonicalize, sha256_bytes,
};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{LedgerError, check_web_url};
use citeproof_aca::sign::{ChainBuilder, StepInputs, StepRef};

/// Where the ledger gets "now" from. Implementations must never go backwards.
pub trait Clock: Send + Sync {
    fn now(&self) -> Result<Timestamp, LedgerError>;
}

/// The system clock, whole seconds, UTC.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Result<Timestamp, LedgerError> {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .map_err(|e| LedgerError::InvalidValue {
                what: "system clock",
                reason: e.to_string(),
            })?;
        unix_timestamp(i64::try_from(secs).unwrap_or(i64::MAX))
    }
}

/// A clock that starts at `start` (Unix seconds) and advances `step` seconds at every reading:
/// deterministic runs for tests and demos.
#[derive(Debug)]
pub struct SteppingClock {
    next: AtomicI64,
    step: i64,
}

impl SteppingClock {
    pub fn new(start: i64, step: i64) -> SteppingClock {
        SteppingClock {
            next: AtomicI64::new(start),
            step: step.max(0),
        }
    }
}

impl Clock for SteppingClock {
    fn now(&self) -> Result<Timestamp, LedgerError> {
        unix_timestamp(self.next.fetch_add(self.step, Ordering::SeqCst))
    }
}

/// `seconds` as a profile timestamp (`YYYY-MM-DDTHH:MM:SSZ`).
pub fn unix_timestamp(seconds: i64) -> Result<Timestamp, LedgerError> {
    Timestamp::from_unix(seconds).map_err(|reason| LedgerError::InvalidValue {
        what: "timestamp",
        reason,
    })
}

/// A per-run id matching `^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct RunId(String);

impl RunId {
    pub fn new(id: &str) -> Result<RunId, LedgerError> {
        if citeproof_model::ids::is_run_id(id) {
            Ok(RunId(id.to_owned()))
        } else {
            Err(LedgerError::InvalidId {
                what: "run id",
                value: id.to_owned(),
            })
        }
    }

    /// `run-` followed by 32 random hex digits (OS RNG): a fresh id for every run, so that a
    /// manifest can never be mistaken for another run's (seed 000 pitfall 1).
    pub fn random() -> Result<RunId, LedgerError> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| LedgerError::Rng(e.to_string()))?;
        Ok(RunId(format!("run-{}", hex::encode(bytes))))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Strict (threshold 1, refuses to emit) or lenient (configurable threshold, warns).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LedgerConfig {
    pub mode: LedgerMode,
    pub threshold: f64,
}

impl LedgerConfig {
    /// Production: every required claim must be cited (seed 003 `coverage_threshold = 1.0`).
    pub fn strict() -> LedgerConfig {
        LedgerConfig {
            mode: LedgerMode::Strict,
            threshold: 1.0,
        }
    }

    /// Development: coverage below `threshold` is reported but does not block.
    pub fn lenient(threshold: f64) -> Result<LedgerConfig, LedgerError> {
        if !(0.0..=1.0).contains(&threshold) {
            return Err(LedgerError::InvalidThreshold {
                threshold,
                reason: "must be between 0 and 1".into(),
            });
        }
        Ok(LedgerConfig {
            mode: LedgerMode::Lenient,
            threshold,
        })
    }
}

/// The coverage audit (seed 003 `CoverageReport`, LEDGER-003 to -005).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CoverageReport {
    pub total_claims: u64,
    pub required_claims: u64,
    pub cited_claims: u64,
    pub coverage_score: f64,
    pub threshold: f64,
    pub is_compliant: bool,
    /// Texts of the required claims without a source, in ledger order.
    pub uncited_claims: Vec<String>,
}

impl CoverageReport {
    /// `Coverage: cited/required | Compliant: bool`.
    pub fn summary(&self) -> String {
        format!(
            "Coverage: {}/{} | Compliant: {}",
            self.cited_claims, self.required_claims, self.is_compliant
        )
    }
}

/// A tool call issued by the ledger.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ToolCallId {
    id: String,
    step: StepRef,
}

impl ToolCallId {
    pub fn as_str(&self) -> &str {
        &self.id
    }
}

/// A captured source issued by the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CaptureId(usize);

/// Which part of the captured bytes supports a claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Excerpt {
    /// Text that occurs exactly once in the captured bytes (as UTF-8).
    Quote(String),
    /// Byte offsets `[start, end)` into the captured bytes.
    Bytes { start: u64, end: u64 },
}

impl Excerpt {
    pub fn quote(text: &str) -> Excerpt {
        Excerpt::Quote(text.to_owned())
    }
}

/// A claim to register.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimInput {
    pub text: String,
    /// The capture and excerpt the claim comes from; `None` for an uncited claim.
    pub source: Option<(CaptureId, Excerpt)>,
    /// `false` for computational, structural and agent-metadata claims (seed 003 pitfall 3).
    pub requires_attribution: bool,
    /// A stable id; derived from the text when absent.
    pub claim_id: Option<String>,
    pub confidence: Option<Confidence>,
}

impl ClaimInput {
    /// A claim that requires attribution, with its source.
    pub fn attributed(text: &str, capture: CaptureId, excerpt: Excerpt) -> ClaimInput {
        ClaimInput {
            text: text.to_owned(),
            source: Some((capture, excerpt)),
            requires_attribution: true,
            claim_id: None,
            confidence: None,
        }
    }

    /// A claim without a source.
    pub fn unattributed(text: &str, requires_attribution: bool) -> ClaimInput {
        ClaimInput {
            text: text.to_owned(),
            source: None,
            requires_attribution,
            claim_id: None,
            confidence: None,
        }
    }

    pub fn with_id(mut self, id: &str) -> ClaimInput {
        self.claim_id = Some(id.to_owned());
        self
    }

    pub fn with_confidence(mut self, c: Confidence) -> ClaimInput {
        self.confidence = Some(c);
        self
    }
}

#[derive(Debug, Clone)]
struct Capture {
    tool_call_id: String,
    identifier: String,
    category: String,
    url: String,
    fetched_at: Timestamp,
    body: Vec<u8>,
    hash: ContentHash,
    metadata: Option<Map<String, Value>>,
}

#[derive(Debug, Clone)]
struct Entry {
    claim_id: String,
    text: String,
    requires_attribution: bool,
    recorded_at: Timestamp,
    source: Option<(usize, u64, u64)>,
    confidence: Option<Confidence>,
}

/// The ledger of one agent run.
pub struct AttributionLedger {
    config: LedgerConfig,
    run_id: RunId,
    clock: Box<dyn Clock>,
    chain: ChainBuilder,
    calls: Vec<ToolCallId>,
    captures: Vec<Capture>,
    entries: Vec<Entry>,
}

impl std::fmt::Debug for AttributionLedger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AttributionLedger")
            .field("config", &self.config)
            .field("run_id", &self.run_id)
            .field("tool_calls", &self.calls.len())
            .field("captures", &self.captures.len())
            .field("claims", &self.entries.len())
            .finish()
    }
}

/// A stable claim id derived from the text: `c-` + the first 16 hex digits of the SHA-256 of
/// the text's UTF-8 bytes. The same text gets the same id in every run, so downstream systems
/// can deduplicate (seed 000 pitfall 3).
pub fn derived_claim_id(text: &str) -> String {
    let h = sha256_bytes(text.as_bytes());
    format!("c-{}", &hex::encode(h.digest())[..16])
}

impl AttributionLedger {
    pub fn new(config: LedgerConfig, run_id: RunId, clock: Box<dyn Clock>) -> AttributionLedger {
        let chain = ChainBuilder::new(run_id.as_str());
        AttributionLedger {
            config,
            run_id,
            clock,
            chain,
            calls: Vec::new(),
            captures: Vec::new(),
            entries: Vec::new(),
        }
    }

    pub fn run_id(&self) -> &RunId {
        &self.run_id
    }

    pub fn config(&self) -> LedgerConfig {
        self.config
    }

    /// Records a tool call (a chain step). `inputs_from` are earlier calls whose outputs it
    /// consumed. Private inputs are kept only as their JCS hash.
    pub fn tool_call(
        &mut self,
        tool: &str,
        inputs: StepInputs,
        inputs_from: &[&ToolCallId],
    ) -> Result<ToolCallId, LedgerError> {
        let from: Vec<StepRef> = inputs_from.iter().map(|c| c.step).collect();
        for c in inputs_from {
            if !self.calls.contains(c) {
                return Err(LedgerError::UnknownHandle {
                    what: "tool call",
                    id: c.id.clone(),
                });
            }
        }
        let step = self.chain.step(tool, inputs, &from, &[])?;
        let id = ToolCallId {
            id: format!("call-{}", step.0),
            step,
        };
        self.calls.push(id.clone());
        Ok(id)
    }

    /// Captures the bytes a tool call fetched from `url`, at the tool boundary, with the
    /// clock's time as `fetched_at`.
    pub fn capture(
        &mut self,
        call: &ToolCallId,
        url: &str,
        body: Vec<u8>,
        category: &str,
    ) -> Result<CaptureId, LedgerError> {
        let now = self.clock.now()?;
        self.capture_at(call, url, body, category, now, None)
    }

    /// [`capture`](Self::capture) with an explicit fetch time and metadata.
    pub fn capture_at(
        &mut self,
        call: &ToolCallId,
        url: &str,
        body: Vec<u8>,
        category: &str,
        fetched_at: Timestamp,
        metadata: Option<Map<String, Value>>,
    ) -> Result<CaptureId, LedgerError> {
        if !self.calls.contains(call) {
            return Err(LedgerError::UnknownHandle {
                what: "tool call",
                id: call.id.clone(),
            });
        }
        check_web_url(url)?;
        if category.is_empty() {
            return Err(LedgerError::InvalidValue {
                what: "source category",
                reason: "must not be empty".into(),
            });
        }
        self.chain.add_source(call.step, url)?;
        let n = self.captures.len() + 1;
        self.captures.push(Capture {
            tool_call_id: call.id.clone(),
            identifier: format!("{}-src-{n}", call.id),
            category: category.to_owned(),
            url: url.to_owned(),
            fetched_at,
            hash: sha256_bytes(&body),
            body,
            metadata,
        });
        Ok(CaptureId(n - 1))
    }

    /// Registers a claim. The excerpt is located in the captured bytes now: a quote must occur
    /// exactly once; a byte range must be non-empty, inside the body and UTF-8 text.
    pub fn register(&mut self, claim: ClaimInput) -> Result<String, LedgerError> {
        let recorded_at = self.clock.now()?;
        let claim_id = match &claim.claim_id {
            Some(id) if citeproof_model::ids::is_claim_id(id) => id.clone(),
            Some(id) => {
                return Err(LedgerError::InvalidId {
                    what: "claim id",
                    value: id.clone(),
                });
            }
            None => derived_claim_id(&claim.text),
        };
        if claim.text.is_empty() {
            return Err(LedgerError::InvalidValue {
                what: "claim text",
                reason: "must not be empty".into(),
            });
        }
        if let Some(other) = self
            .entries
            .iter()
            .find(|e| e.claim_id == claim_id && e.text != claim.text)
        {
            return Err(LedgerError::ClaimIdConflict {
                id: other.claim_id.clone(),
            });
        }
        let source = match &claim.source {
            None => None,
            Some((CaptureId(i), excerpt)) => {
                let cap = self.captures.get(*i).ok_or(LedgerError::UnknownHandle {
                    what: "capture",
                    id: i.to_string(),
                })?;
                if cap.fetched_at > recorded_at {
                    return Err(LedgerError::InvalidValue {
                        what: "capture time",
                        reason: "the source was fetched after the claim was recorded".into(),
                    });
                }
                let (start, end) = locate(cap, excerpt)?;
                Some((*i, start, end))
            }
        };
        self.entries.push(Entry {
            claim_id: claim_id.clone(),
            text: claim.text,
            requires_attribution: claim.requires_attribution,
            recorded_at,
            source,
            confidence: claim.confidence,
        });
        Ok(claim_id)
    }

    /// Coverage of the claims registered so far (LEDGER-003 to -005).
    pub fn audit(&self) -> CoverageReport {
        let total = self.entries.len() as u64;
        let required: Vec<&Entry> = self
            .entries
            .iter()
            .filter(|e| e.requires_attribution)
            .collect();
        let uncited: Vec<String> = required
            .iter()
            .filter(|e| e.source.is_none())
            .map(|e| e.text.clone())
            .collect();
        let cited = (required.len() - uncited.len()) as u64;
        let required_n = required.len() as u64;
        let score = if required_n == 0 {
            1.0
        } else {
            cited as f64 / required_n as f64
        };
        CoverageReport {
            total_claims: total,
            required_claims: required_n,
            cited_claims: cited,
            coverage_score: score,
            threshold: self.config.threshold,
            is_compliant: score >= self.config.threshold,
            uncited_claims: uncited,
        }
    }

    /// The pre-flight gate: in strict mode, an error when coverage is below the threshold.
    pub fn gate(&self) -> Result<CoverageReport, LedgerError> {
        let report = self.audit();
        if self.config.mode == LedgerMode::Strict && self.config.threshold != 1.0 {
            return Err(LedgerError::InvalidThreshold {
                threshold: self.config.threshold,
                reason: "strict mode requires a threshold of exactly 1".into(),
            });
        }
        if !report.is_compliant && self.config.mode == LedgerMode::Strict {
            return Err(LedgerError::CoverageBelowThreshold {
                report: Box::new(report),
            });
        }
        Ok(report)
    }

    fn source_reference(&self, i: usize) -> Option<SourceReference> {
        let cap = self.captures.get(i)?;
        Some(SourceReference {
            identifier: cap.identifier.clone(),
            category: cap.category.clone(),
            tool_call_id: cap.tool_call_id.clone(),
            fetched_at: cap.fetched_at.clone(),
            endpoint: HttpUrl::parse(&cap.url).ok(),
            metadata: cap.metadata.clone(),
            extensions: Extensions::default(),
        })
    }

    /// The ledger document (LEDGER-001). Refused in strict mode below the threshold.
    pub fn to_document(&self) -> Result<Ledger, LedgerError> {
        let report = self.gate()?;
        Ok(Ledger {
            ledger_version: "1".into(),
            mode: self.config.mode,
            threshold: self.config.threshold,
            claims: self
                .entries
                .iter()
                .map(|e| ClaimRecord {
                    claim_id: Some(e.claim_id.clone()),
                    text: e.text.clone(),
                    requires_attribution: e.requires_attribution,
                    recorded_at: e.recorded_at.clone(),
                    source: e.source.and_then(|(i, _, _)| self.source_reference(i)),
                    extensions: Extensions::default(),
                })
                .collect(),
            coverage: Coverage {
                total_claims: report.total_claims,
                required_claims: report.required_claims,
                cited_claims: report.cited_claims,
                coverage_score: report.coverage_score,
                is_compliant: report.is_compliant,
                uncited_claims: report.uncited_claims,
            },
            extensions: Extensions::default(),
        })
    }

    /// Appends one JSONL audit record per claim, in ledger order (LEDGER-008, LEDGER-009): each
    /// line is the JCS form of the record followed by LF. Written as one buffer, so a writer
    /// opened in append mode never interleaves a partial export.
    pub fn write_audit_jsonl(&self, out: &mut dyn Write) -> Result<usize, LedgerError> {
        let logged_at = self.clock.now()?;
        let mut buf = Vec::new();
        for e in &self.entries {
            let record = AuditRecord {
                claim_id: Some(e.claim_id.clone()),
                claim: e.text.clone(),
                source: e.source.and_then(|(i, _, _)| self.source_reference(i)),
                requires_attribution: e.requires_attribution,
                logged_at: logged_at.clone(),
                extensions: Extensions::default(),
            };
            let value =
                serde_json::to_value(&record).map_err(|e| LedgerError::Io(e.to_string()))?;
            buf.extend_from_slice(&canonicalize(&value));
            buf.push(b'\n');
        }
        out.write_all(&buf)
            .map_err(|e| LedgerError::Io(e.to_string()))?;
        out.flush().map_err(|e| LedgerError::Io(e.to_string()))?;
        Ok(self.entries.len())
    }

    /// [`write_audit_jsonl`](Self::write_audit_jsonl) to a file opened for appending (created
    /// when absent): the audit trail is append-only.
    pub fn append_audit_log(&self, path: &std::path::Path) -> Result<usize, LedgerError> {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| LedgerError::Io(format!("{}: {e}", path.display())))?;
        self.write_audit_jsonl(&mut f)
    }

    /// The Level 2 manifest of the run (with the chain for Level 3 when `with_chain`), after the
    /// coverage gate. Claims with the same id are one claim with several sources; claims
    /// without a source are not in the manifest (they are in the ledger and the audit export).
    pub fn build_manifest(
        &self,
        agent_id: &str,
        with_chain: bool,
    ) -> Result<Manifest, LedgerError> {
        self.gate()?;
        if agent_id.is_empty() {
            return Err(LedgerError::InvalidValue {
                what: "agent id",
                reason: "must not be empty".into(),
            });
        }
        let emitted_at = self.clock.now()?;
        let mut claims: Vec<Claim> = Vec::new();
        for e in &self.entries {
            let Some((i, start, end)) = e.source else {
                continue;
            };
            let Some(cap) = self.captures.get(i) else {
                continue;
            };
            if cap.fetched_at > emitted_at {
                return Err(LedgerError::RetrievedAfterEmitted {
                    retrieved_at: cap.fetched_at.to_string(),
                    emitted_at: emitted_at.to_string(),
                });
            }
            let excerpt = cap.body.get(start as usize..end as usize).ok_or_else(|| {
                LedgerError::ExcerptRange {
                    url: cap.url.clone(),
                    start,
                    end,
                    reason: "outside the body".into(),
                }
            })?;
            let source = ClaimSource {
                url: HttpUrl::parse(&cap.url).map_err(|reason| LedgerError::InvalidUrl {
                    value: cap.url.clone(),
                    reason,
                })?,
                retrieved_at: cap.fetched_at.clone(),
                hash: Some(cap.hash),
                excerpt_offset: Some([start, end]),
                excerpt_hash: aef_text_hash(excerpt).ok(),
                extensions: Extensions::default(),
            };
            match claims.iter_mut().find(|c| c.claim_id == e.claim_id) {
                Some(c) if c.text != e.text => {
                    return Err(LedgerError::ClaimIdConflict {
                        id: e.claim_id.clone(),
                    });
                }
                Some(c) => {
                    if !c.sources.contains(&source) {
                        c.sources.push(source);
                    }
                    if c.confidence.is_none() {
                        c.confidence = e.confidence;
                    }
                }
                None => claims.push(Claim {
                    claim_id: e.claim_id.clone(),
                    text: e.text.clone(),
                    sources: vec![source],
                    confidence: e.confidence,
                    extensions: Extensions::default(),
                }),
            }
        }
        if claims.is_empty() {
            return Err(LedgerError::NoClaims);
        }
        let chain = if with_chain {
            if self.chain.is_empty() {
                return Err(LedgerError::InvalidValue {
                    what: "chain",
                    reason: "no tool call was recorded".into(),
                });
            }
            Some(self.chain.clone().build())
        } else {
            None
        };
        Ok(Manifest {
            run_id: self.run_id.as_str().to_owned(),
            agent_id: agent_id.to_owned(),
            emitted_at,
            claims,
            chain,
            extensions: Extensions::default(),
        })
    }

    /// The distinct source URLs cited by attributed claims, in first-citation order: the
    /// sources of the `Citation-Source` header.
    pub fn cited_sources(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for e in &self.entries {
            if let Some((i, _, _)) = e.source
                && let Some(cap) = self.captures.get(i)
                && !out.contains(&cap.url)
            {
                out.push(cap.url.clone());
            }
        }
        out
    }
}

fn locate(cap: &Capture, excerpt: &Excerpt) -> Result<(u64, u64), LedgerError> {
    match excerpt {
        Excerpt::Quote(q) => {
            let needle = q.as_bytes();
            if needle.is_empty() {
                return Err(LedgerError::ExcerptNotFound {
                    url: cap.url.clone(),
                });
            }
            let hits: Vec<usize> = cap
                .body
                .windows(needle.len())
                .enumerate()
                .filter(|(_, w)| *w == needle)
                .map(|(i, _)| i)
                .collect();
            match hits.as_slice() {
                [] => Err(LedgerError::ExcerptNotFound {
                    url: cap.url.clone(),
                }),
                [at] => Ok((*at as u64, (*at + needle.len()) as u64)),
                many => Err(LedgerError::ExcerptAmbiguous {
                    url: cap.url.clone(),
                    count: many.len(),
                }),
            }
        }
        Excerpt::Bytes { start, end } => {
            let bad = |reason: &str| LedgerError::ExcerptRange {
                url: cap.url.clone(),
                start: *start,
                end: *end,
                reason: reason.to_owned(),
            };
            if start >= end {
                return Err(bad("start must be before end"));
            }
            let slice = cap
                .body
                .get(*start as usize..*end as usize)
                .ok_or_else(|| bad("beyond the end of the body"))?;
            std::str::from_utf8(slice).map_err(|_| bad("not well-formed UTF-8"))?;
            Ok((*start, *end))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ledger(config: LedgerConfig) -> AttributionLedger {
        AttributionLedger::new(
            config,
            RunId::new("run-7").unwrap(),
            Box::new(SteppingClock::new(1_777_370_000, 1)),
        )
    }

    #[test]
    fn strict_refuses_below_threshold_and_lenient_warns() {
        let mut l = ledger(LedgerConfig::strict());
        let call = l
            .tool_call("fetch", StepInputs::Public(Map::new()), &[])
            .unwrap();
        let cap = l
            .capture(
                &call,
                "https://example.com/a",
                b"alpha beta gamma".to_vec(),
                "web_fetch",
            )
            .unwrap();
        l.register(ClaimInput::attributed(
            "alpha beta",
            cap,
            Excerpt::quote("alpha beta"),
        ))
        .unwrap();
        l.register(ClaimInput::unattributed("Market grew 4%.", true))
            .unwrap();
        l.register(ClaimInput::unattributed("Processed 1 source.", false))
            .unwrap();
        let report = l.audit();
        // Hand derivation (LEDGER-003/004): 3 claims, 2 required, 1 cited, 1/2 = 0.5.
        assert_eq!(
            (
                report.total_claims,
                report.required_claims,
                report.cited_claims
            ),
            (3, 2, 1)
        );
        assert_eq!(report.coverage_score, 0.5);
        assert_eq!(report.uncited_claims, ["Market grew 4%."]);
        assert!(!report.is_compliant);
        assert!(matches!(
            l.build_manifest("agent", false),
            Err(LedgerError::CoverageBelowThreshold { .. })
        ));
        assert!(l.to_document().is_err());

        let mut l = ledger(LedgerConfig::lenient(0.5).unwrap());
        let call = l
            .tool_call("fetch", StepInputs::Public(Map::new()), &[])
            .unwrap();
        let cap = l
            .capture(
                &call,
                "https://example.com/a",
                b"alpha beta gamma".to_vec(),
                "web_fetch",
            )
            .unwrap();
        l.register(ClaimInput::attributed(
            "alpha beta",
            cap,
            Excerpt::quote("alpha beta"),
        ))
        .unwrap();
        l.register(ClaimInput::unattributed("Market grew 4%.", true))
            .unwrap();
        assert!(l.audit().is_compliant);
        let m = l.build_manifest("agent", true).unwrap();
        assert_eq!(m.claims.len(), 1);
        assert_eq!(m.claims[0].sources[0].excerpt_offset, Some([0, 10]));
        assert!(LedgerConfig::lenient(1.5).is_err());
    }

    #[test]
    fn excerpts_are_located_in_the_bytes() {
        let mut l = ledger(LedgerConfig::strict());
        let call = l
            .tool_call("fetch", StepInputs::Public(Map::new()), &[])
            .unwrap();
        let cap = l
            .capture(
                &call,
                "https://example.com/a",
                "x é y x".as_bytes().to_vec(),
                "web",
            )
            .unwrap();
        assert!(matches!(
            l.register(ClaimInput::attributed("x", cap, Excerpt::quote("x"))),
            Err(LedgerError::ExcerptAmbiguous { count: 2, .. })
        ));
        assert!(matches!(
            l.register(ClaimInput::attributed("z", cap, Excerpt::quote("z"))),
            Err(LedgerError::ExcerptNotFound { .. })
        ));
        // "é" is bytes 2..4; [2, 3) splits it.
        assert!(matches!(
            l.register(ClaimInput::attributed(
                "e",
                cap,
                Excerpt::Bytes { start: 2, end: 3 }
            )),
            Err(LedgerError::ExcerptRange { .. })
        ));
        assert!(
            l.register(ClaimInput::attributed(
                "é",
                cap,
                Excerpt::Bytes { start: 2, end: 4 }
            ))
            .is_ok()
        );
    }

    #[test]
    fn audit_export_is_one_jcs_line_per_claim() {
        let mut l = ledger(LedgerConfig::lenient(0.0).unwrap());
        l.register(ClaimInput::unattributed("a \"quoted\"\nclaim", true))
            .unwrap();
        l.register(ClaimInput::unattributed("b", false)).unwrap();
        let mut out = Vec::new();
        assert_eq!(l.write_audit_jsonl(&mut out).unwrap(), 2);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.split_terminator('\n').collect();
        assert_eq!(lines.len(), 2);
        assert!(text.ends_with('\n'));
        let first: Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(first["claim"], "a \"quoted\"\nclaim");
        assert_eq!(first["source"], Value::Null);
        assert_eq!(first["requires_attribution"], true);
    }
}

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

use citeproof_model::aca::Confidence;
use citeproof_model::{ContentHash, Timestamp, sha256_bytes};
use serde_json::{Map, Value};

use crate::clock::Clock;
use crate::config::{LedgerConfig, RunId, threshold_problem};
use crate::coverage::CoverageReport;
use citeproof_aca::sign::InputRefusal;

use crate::error::LedgerError;
use citeproof_aca::sign::{ChainBuilder, StepInputs, StepRef};
use citeproof_model::ledger::LedgerMode;

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

/// What a tool call fetched, for [`AttributionLedger::capture_with`].
#[derive(Debug, Clone, PartialEq)]
pub struct CaptureSpec {
    /// Where the bytes came from (a web URL): the source's `endpoint`.
    pub url: String,
    pub body: Vec<u8>,
    /// The source's `category` (`web_search`, `web_fetch`, ...).
    pub category: String,
    /// The source's `identifier`; `<tool call>-src-<n>` when absent.
    pub identifier: Option<String>,
    /// The source's `fetched_at`; the clock's time when absent.
    pub fetched_at: Option<Timestamp>,
    pub metadata: Option<Map<String, Value>>,
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
pub(crate) struct Capture {
    pub(crate) tool_call_id: String,
    pub(crate) identifier: String,
    pub(crate) category: String,
    pub(crate) url: String,
    pub(crate) fetched_at: Timestamp,
    pub(crate) body: Vec<u8>,
    pub(crate) hash: ContentHash,
    pub(crate) metadata: Option<Map<String, Value>>,
}

#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) claim_id: String,
    pub(crate) text: String,
    pub(crate) requires_attribution: bool,
    pub(crate) recorded_at: Timestamp,
    pub(crate) source: Option<(usize, u64, u64)>,
    pub(crate) confidence: Option<Confidence>,
}

/// The ledger of one agent run.
pub struct AttributionLedger {
    pub(crate) config: LedgerConfig,
    pub(crate) run_id: RunId,
    pub(crate) clock: Box<dyn Clock>,
    pub(crate) chain: ChainBuilder,
    pub(crate) calls: Vec<ToolCallId>,
    pub(crate) captures: Vec<Capture>,
    pub(crate) entries: Vec<Entry>,
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
                return Err(InputRefusal::UnknownHandle {
                    what: "tool call",
                    id: c.id.clone(),
                }
                .into());
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
        self.capture_with(
            call,
            CaptureSpec {
                url: url.to_owned(),
                body,
                category: category.to_owned(),
                identifier: None,
                fetched_at: Some(fetched_at),
                metadata,
            },
        )
    }

    /// Captures what a tool call fetched, with every member of the source reference chosen by
    /// the caller. An `identifier` names one retrieval: giving the identifier of an earlier
    /// capture is refused (seed 003 pitfall 4, premature deduplication; LEDGER-013).
    pub fn capture_with(
        &mut self,
        call: &ToolCallId,
        spec: CaptureSpec,
    ) -> Result<CaptureId, LedgerError> {
        if !self.calls.contains(call) {
            return Err(InputRefusal::UnknownHandle {
                what: "tool call",
                id: call.id.clone(),
            }
            .into());
        }
        InputRefusal::check_web_url(&spec.url)?;
        if spec.category.is_empty() {
            return Err(InputRefusal::InvalidValue {
                what: "source category",
                reason: "must not be empty".into(),
            }
            .into());
        }
        let n = self.captures.len() + 1;
        let identifier = match spec.identifier {
            Some(id) if id.is_empty() => {
                return Err(InputRefusal::InvalidValue {
                    what: "source identifier",
                    reason: "must not be empty".into(),
                }
                .into());
            }
            Some(id) => id,
            None => format!("{}-src-{n}", call.id),
        };
        if self.captures.iter().any(|c| c.identifier == identifier) {
            return Err(LedgerError::SourceIdentifierReused { identifier });
        }
        let fetched_at = match spec.fetched_at {
            Some(t) => t,
            None => self.clock.now()?,
        };
        self.chain.add_source(call.step, &spec.url)?;
        self.captures.push(Capture {
            tool_call_id: call.id.clone(),
            identifier,
            category: spec.category,
            url: spec.url,
            fetched_at,
            hash: sha256_bytes(&spec.body),
            body: spec.body,
            metadata: spec.metadata,
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
                return Err(InputRefusal::InvalidId {
                    what: "claim id",
                    value: id.clone(),
                }
                .into());
            }
            None => derived_claim_id(&claim.text),
        };
        if claim.text.is_empty() {
            return Err(InputRefusal::InvalidValue {
                what: "claim text",
                reason: "must not be empty".into(),
            }
            .into());
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
                let cap = self.captures.get(*i).ok_or(InputRefusal::UnknownHandle {
                    what: "capture",
                    id: i.to_string(),
                })?;
                if cap.fetched_at > recorded_at {
                    return Err(InputRefusal::InvalidValue {
                        what: "capture time",
                        reason: "the source was fetched after the claim was recorded".into(),
                    }
                    .into());
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
        CoverageReport::compute(
            self.entries
                .iter()
                .map(|e| (e.text.as_str(), e.requires_attribution, e.source.is_some())),
            self.config.threshold,
        )
    }

    /// The pre-flight gate: in strict mode, an error when coverage is below the threshold.
    pub fn gate(&self) -> Result<CoverageReport, LedgerError> {
        let report = self.audit();
        if let Some(reason) = threshold_problem(self.config.mode, self.config.threshold) {
            return Err(LedgerError::InvalidThreshold {
                threshold: self.config.threshold,
                reason: reason.into(),
            });
        }
        if !report.is_compliant && self.config.mode == LedgerMode::Strict {
            return Err(LedgerError::CoverageBelowThreshold {
                report: Box::new(report),
            });
        }
        Ok(report)
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

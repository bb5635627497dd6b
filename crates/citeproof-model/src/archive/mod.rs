//! Archive citations, the coverage gate, display citations and the bundle log (seed 002,
//! profile ARCHIVE-*).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{
    hash::ContentHash,
    primitives::{Extensions, Timestamp},
};

mod display;
pub use display::{DisplayCitation, DisplayClaim, DisplayView, RelationLabel};

/// Pattern of a tier name (ARCHIVE-001).
pub const TIER_PATTERN: &str = "^[a-z0-9][a-z0-9-]{0,63}$";
/// Pattern of a display handle (ARCHIVE-015).
pub const HANDLE_PATTERN: &str = "^Source [A-Z]{1,3}$";
/// Largest display excerpt any tier may allow, in Unicode scalar values (ARCHIVE-018).
pub const MAX_EXCERPT_CAP: u32 = 280;
/// Longest general-context claim, in Unicode scalar values ("brief", ARCHIVE-035).
pub const MAX_GENERAL_CONTEXT: usize = 280;
/// `prev` of the first record of a bundle log (ARCHIVE-025).
pub const LOG_GENESIS: &str =
    "sha256:0000000000000000000000000000000000000000000000000000000000000000";

/// How a claim uses its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    DirectQuote,
    Paraphrase,
    InferenceFrom,
    MetadataFact,
}

impl Relation {
    /// Relations that allow the `supported` rung (ARCHIVE-009).
    pub fn is_direct_support(self) -> bool {
        !matches!(self, Relation::InferenceFrom)
    }
}

/// Where in the artifact the passage is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ArchiveSpan {
    /// Paragraph index plus `[char_start, char_end)` in Unicode scalar values of the NFC paragraph.
    Text {
        paragraph_index: u32,
        char_start: u32,
        char_end: u32,
    },
    /// `[start_ms, end_ms)` of an audio or video artifact.
    TimeRange { start_ms: u64, end_ms: u64 },
    /// A pixel rectangle of an image artifact.
    Region {
        x: u32,
        y: u32,
        width: u32,
        height: u32,
    },
}

/// The four-field citation of seed 002, with the excerpt hash for automated verifiers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct ArchiveCitation {
    /// `sha256:` of the JCS form of the canonicalized artifact payload.
    pub artifact_id: ContentHash,
    #[schemars(length(min = 1, max = 256))]
    pub archive_version: String,
    pub span: ArchiveSpan,
    pub relation: Relation,
    /// SHA-256 of the UTF-8 span text (text spans only, ARCHIVE-007).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt_hash: Option<ContentHash>,
    /// The unredacted span text (ARCHIVE-023: should not be sent in plaintext).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// Rungs of the coverage ladder, in the seed's order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Rung {
    Supported,
    Narrowed,
    Labeled,
    Refused,
}

impl Rung {
    /// `supported` and `labeled` claims are delivered; `narrowed` and `refused` are withheld.
    pub fn is_delivered(self) -> bool {
        matches!(self, Rung::Supported | Rung::Labeled)
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One claim of the auditor-facing response bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct BundleClaim {
    #[schemars(regex(pattern = crate::aca::CLAIM_ID_PATTERN))]
    pub claim_id: String,
    #[schemars(length(min = 1))]
    pub text: String,
    pub rung: Rung,
    /// The visible label of a `labeled` claim (ARCHIVE-013).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub label: Option<String>,
    #[serde(default)]
    pub citations: Vec<ArchiveCitation>,
    /// A brief background definition, not from the archive (ARCHIVE-035).
    #[serde(default, skip_serializing_if = "is_false")]
    pub general_context: bool,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// Why a narrowed claim was removed (ARCHIVE-010).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RemovedReason {
    /// No counted citation: the archive has nothing to show (hidden support included).
    NoCoverage,
    /// Counted citations exist, but the gate judged them too thin to deliver the claim.
    ThinCoverage,
}

/// One entry of the "removed topics" list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemovedTopic {
    #[schemars(length(min = 1, max = 512))]
    pub topic: String,
    pub reason: RemovedReason,
}

/// Category refusal (before retrieval) or coverage shortfall (after the ladder), ARCHIVE-020.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RefusalReason {
    Category,
    Coverage,
}

/// The seed's refusing categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RefusalCategory {
    PostDeathEvents,
    GeneralWorldKnowledge,
    Adversarial,
}

/// A response that answers nothing, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    pub reason: RefusalReason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<RefusalCategory>,
    /// The persona offers an archive inventory view (required for coverage refusals).
    pub inventory_offered: bool,
}

/// The category filter's downgrade (seed 002: "downgrade to archive-only search"), ARCHIVE-036.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DowngradeCategory {
    /// "May offer what the person actually said about the topic; cannot synthesize conclusions."
    PrivateMentalState,
}

/// A response the category filter downgraded: it delivers only what the person said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Downgrade {
    pub category: DowngradeCategory,
}

/// Algorithms of a bundle signature (ARCHIVE-011).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum BundleAlgorithm {
    #[serde(rename = "HMAC-SHA256")]
    HmacSha256,
    #[serde(rename = "Ed25519")]
    Ed25519,
}

impl BundleAlgorithm {
    pub fn as_str(self) -> &'static str {
        match self {
            BundleAlgorithm::HmacSha256 => "HMAC-SHA256",
            BundleAlgorithm::Ed25519 => "Ed25519",
        }
    }
}

/// The signature of a response bundle: signer, key id and time are part of the payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BundleSignature {
    pub algorithm: BundleAlgorithm,
    #[schemars(length(min = 1, max = 512))]
    pub signed_by: String,
    /// Key id within the signer's keys, so that keys can rotate.
    #[schemars(length(min = 1, max = 256))]
    pub kid: String,
    pub signed_at: Timestamp,
    /// Lowercase hex: 64 digits for HMAC-SHA256, 128 for Ed25519.
    #[schemars(regex(pattern = "^([0-9a-f]{64}|[0-9a-f]{128})$"))]
    pub signature: String,
}

/// The signed system of record for one response (layer 1, auditor-facing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Archive response bundle")]
#[schemars(extend("additionalProperties" = false))]
pub struct ResponseBundle {
    #[schemars(extend("const" = "1"))]
    pub bundle_version: String,
    #[schemars(length(min = 1, max = 128))]
    pub response_id: String,
    /// Pseudonymous requestor id established with the session.
    #[schemars(length(min = 1, max = 128))]
    pub requester: String,
    /// The requestor's access tier (ARCHIVE-018).
    #[schemars(regex(pattern = TIER_PATTERN))]
    pub tier: String,
    /// The snapshot in force at `created_at` (ARCHIVE-003).
    #[schemars(length(min = 1, max = 256))]
    pub archive_version: String,
    pub created_at: Timestamp,
    pub claims: Vec<BundleClaim>,
    /// One entry per narrowed claim, shown to the requestor.
    #[serde(default)]
    pub removed_topics: Vec<RemovedTopic>,
    /// Present exactly when no claim is delivered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<Refusal>,
    /// The category filter downgraded the question (ARCHIVE-036).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub downgrade: Option<Downgrade>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<BundleSignature>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// An archived artifact as the archive stores it; its `artifact_id` is the JCS hash of this object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[schemars(title = "Archive artifact payload")]
pub enum ArtifactPayload {
    /// Text: paragraphs in Unicode NFC.
    Text {
        media_type: String,
        #[schemars(length(min = 1))]
        paragraphs: Vec<String>,
        #[serde(flatten)]
        extensions: Extensions,
    },
    Audio {
        media_type: String,
        content_hash: ContentHash,
        #[schemars(range(min = 1))]
        duration_ms: u64,
        #[serde(flatten)]
        extensions: Extensions,
    },
    Video {
        media_type: String,
        content_hash: ContentHash,
        #[schemars(range(min = 1))]
        duration_ms: u64,
        #[schemars(range(min = 1))]
        width: u32,
        #[schemars(range(min = 1))]
        height: u32,
        #[serde(flatten)]
        extensions: Extensions,
    },
    Image {
        media_type: String,
        content_hash: ContentHash,
        #[schemars(range(min = 1))]
        width: u32,
        #[schemars(range(min = 1))]
        height: u32,
        #[serde(flatten)]
        extensions: Extensions,
    },
}

/// Consent scope of an artifact in a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Consent {
    #[default]
    Open,
    AuditorOnly,
    Hidden,
}

/// One access tier of the decedent's policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TierRule {
    #[schemars(regex(pattern = TIER_PATTERN))]
    pub tier: String,
    /// Longest display excerpt, in Unicode scalar values (0: no excerpt).
    #[schemars(range(max = 280))]
    pub excerpt_cap: u32,
}

/// Limits on "request more context" (ARCHIVE-030).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvidenceBudget {
    /// Scalar values a requestor may receive per UTC day.
    pub daily_chars: u64,
    /// Scalar values one request may deliver.
    pub request_cap: u64,
    /// Requests (delivered or not) per requestor in any 3600 seconds.
    pub requests_per_hour: u64,
}

/// The decedent's policy in a snapshot: tiers and the evidence budget.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArchivePolicy {
    #[schemars(length(min = 1))]
    pub tiers: Vec<TierRule>,
    pub evidence_budget: EvidenceBudget,
}

/// One version of the archive: which artifacts exist in it, with consent and policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Archive snapshot")]
pub struct ArchiveSnapshot {
    #[schemars(length(min = 1, max = 256))]
    pub archive_version: String,
    /// When this version became the one in force.
    pub published_at: Timestamp,
    pub policy: ArchivePolicy,
    pub artifacts: Vec<SnapshotArtifact>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapshotArtifact {
    pub artifact_id: ContentHash,
    #[serde(default)]
    pub consent: Consent,
}

/// The archive a verifier is configured with: snapshots in publication order and every payload
/// by its id (ARCHIVE-024).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Archive")]
pub struct Archive {
    #[schemars(length(min = 1))]
    pub snapshots: Vec<ArchiveSnapshot>,
    /// Artifact id (`sha256:…`) to payload.
    #[schemars(extend("propertyNames" = {"pattern": "^sha256:[0-9a-f]{64}$"}))]
    pub artifacts: BTreeMap<String, ArtifactPayload>,
}

/// What a bundle log record says happened to a bundle (ARCHIVE-029).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BundleOutcome {
    Answered,
    RefusedCategory,
    RefusedCoverage,
}

/// A limit of the evidence budget (ARCHIVE-031), in the order records list them.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum BudgetLimit {
    DailyBudget,
    RequestCap,
    Rate,
}

/// What one log record is about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum LogEvent {
    /// A signed bundle was delivered (its display sent to the requestor).
    Bundle {
        #[schemars(length(min = 1, max = 128))]
        response_id: String,
        #[schemars(length(min = 1, max = 128))]
        requester: String,
        #[schemars(regex(pattern = TIER_PATTERN))]
        tier: String,
        bundle_hash: ContentHash,
        outcome: BundleOutcome,
        #[serde(flatten)]
        extensions: Extensions,
    },
    /// "Request more context" on one handle of a response.
    ContextRequest {
        #[schemars(length(min = 1, max = 128))]
        requester: String,
        #[schemars(length(min = 1, max = 128))]
        response_id: String,
        #[schemars(regex(pattern = HANDLE_PATTERN))]
        handle: String,
        #[schemars(range(min = 1))]
        requested_chars: u64,
        delivered_chars: u64,
        #[serde(flatten)]
        extensions: Extensions,
    },
    /// A context request exceeded the evidence budget.
    ExtractionRisk {
        #[schemars(length(min = 1, max = 128))]
        requester: String,
        refers_to: u64,
        #[schemars(length(min = 1, max = 3))]
        limits: Vec<BudgetLimit>,
        #[serde(flatten)]
        extensions: Extensions,
    },
}

/// One line of the bundle log: an append-only hash chain (ARCHIVE-025).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Archive bundle log record")]
#[schemars(extend("unevaluatedProperties" = false))]
pub struct LogRecord {
    /// Position in the log, from 0.
    pub seq: u64,
    pub at: Timestamp,
    /// JCS hash of the previous record; zeros for the first.
    pub prev: ContentHash,
    #[serde(flatten)]
    pub event: LogEvent,
}

/// A claim handed to the gate by the pipeline (builder input).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GateClaim {
    #[schemars(regex(pattern = crate::aca::CLAIM_ID_PATTERN))]
    pub claim_id: String,
    #[schemars(length(min = 1))]
    pub text: String,
    #[serde(default)]
    pub citations: Vec<GateCitation>,
    /// What the requestor sees when this claim is removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 512))]
    pub topic: Option<String>,
    /// The visible label when the claim ends up `labeled`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub label: Option<String>,
    /// Withhold the claim whatever its citations allow (the conservative refusal).
    #[serde(default)]
    pub withhold: bool,
    /// A brief background definition, not from the archive, with no citations (ARCHIVE-035).
    #[serde(default)]
    pub general_context: bool,
}

/// A citation as citation assignment produced it (the four fields).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GateCitation {
    pub artifact_id: ContentHash,
    #[schemars(length(min = 1, max = 256))]
    pub archive_version: String,
    pub span: ArchiveSpan,
    pub relation: Relation,
}

/// Everything the gate needs for one response (builder input, `citeproof archive gate`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Archive gate request")]
pub struct GateRequest {
    #[schemars(length(min = 1, max = 128))]
    pub response_id: String,
    #[schemars(length(min = 1, max = 128))]
    pub requester: String,
    #[schemars(regex(pattern = TIER_PATTERN))]
    pub tier: String,
    /// Defaults to the signing time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<Timestamp>,
    #[serde(default)]
    pub claims: Vec<GateClaim>,
    /// A category refusal decided before retrieval (then `claims` is empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category_refusal: Option<RefusalCategory>,
    /// The category filter downgraded the question (ARCHIVE-036).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub downgrade: Option<DowngradeCategory>,
}

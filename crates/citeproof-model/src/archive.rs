//! Archive citations, the coverage gate and display citations (seed 002).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{
    hash::ContentHash,
    primitives::{Extensions, Timestamp},
};

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
    /// Relations that count as direct support on the coverage ladder ("supported" rung).
    pub fn is_direct_support(self) -> bool {
        !matches!(self, Relation::InferenceFrom)
    }
}

/// Where in the artifact the passage is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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

/// The four-field citation of seed 002.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct ArchiveCitation {
    /// `sha256:` of the JCS form of the canonicalized artifact payload.
    pub artifact_id: ContentHash,
    #[schemars(length(min = 1, max = 256))]
    pub archive_version: String,
    pub span: ArchiveSpan,
    pub relation: Relation,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// Rungs of the coverage ladder, best first.
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

/// One claim of the auditor-facing response bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct BundleClaim {
    #[schemars(regex(pattern = crate::aca::CLAIM_ID_PATTERN))]
    pub claim_id: String,
    #[schemars(length(min = 1))]
    pub text: String,
    pub rung: Rung,
    #[serde(default)]
    pub citations: Vec<ArchiveCitation>,
    /// Unredacted excerpt for auditors (seed 002: may be encrypted; then absent and hashed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    #[serde(flatten)]
    pub extensions: Extensions,
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
    #[schemars(length(min = 1, max = 256))]
    pub archive_version: String,
    pub created_at: Timestamp,
    pub claims: Vec<BundleClaim>,
    /// Topics removed by the narrowed rung, shown to the requestor.
    #[serde(default)]
    pub removed_topics: Vec<String>,
    /// Signature over the JCS form of the bundle without this member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<crate::envelope::EnvelopeSignature>,
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

/// One version of the archive: which artifacts exist in it, with their consent scope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Archive snapshot")]
pub struct ArchiveSnapshot {
    #[schemars(length(min = 1, max = 256))]
    pub archive_version: String,
    pub artifacts: Vec<SnapshotArtifact>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapshotArtifact {
    pub artifact_id: ContentHash,
    #[serde(default)]
    pub consent: Consent,
}

/// The requestor-facing view of a bundle (layer 2), bound to the signed bundle by its hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Archive display view")]
pub struct DisplayView {
    #[schemars(extend("const" = "1"))]
    pub display_version: String,
    /// JCS hash of the complete signed bundle.
    pub bundle_hash: ContentHash,
    pub claims: Vec<DisplayClaim>,
    pub removed_topics: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DisplayClaim {
    #[schemars(regex(pattern = crate::aca::CLAIM_ID_PATTERN))]
    pub claim_id: String,
    #[schemars(length(min = 1))]
    pub text: String,
    pub rung: Rung,
    pub citations: Vec<DisplayCitation>,
    /// Present exactly when the rung is `labeled`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub label: Option<String>,
}

/// Relation label shown to requestors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum RelationLabel {
    #[serde(rename = "their words")]
    TheirWords,
    #[serde(rename = "paraphrased")]
    Paraphrased,
    #[serde(rename = "interpreted from")]
    InterpretedFrom,
    #[serde(rename = "metadata")]
    Metadata,
}

impl From<Relation> for RelationLabel {
    fn from(r: Relation) -> RelationLabel {
        match r {
            Relation::DirectQuote => RelationLabel::TheirWords,
            Relation::Paraphrase => RelationLabel::Paraphrased,
            Relation::InferenceFrom => RelationLabel::InterpretedFrom,
            Relation::MetadataFact => RelationLabel::Metadata,
        }
    }
}

/// Requestor-facing citation (layer 2). It never carries the artifact id, canonical span or
/// archive version, so unknown members are refused outright (no extensions either).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Archive display citation")]
pub struct DisplayCitation {
    /// Opaque handle valid within one response, e.g. `Source A`.
    #[schemars(regex(pattern = "^Source [A-Z]{1,3}$"))]
    pub handle: String,
    pub relation_label: RelationLabel,
    /// Trimmed excerpt; absent when consent or tier withholds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    /// True when consent restricts the source ("source restricted by the person's instructions").
    #[serde(default)]
    pub restricted: bool,
}

//! The requestor-facing display view of a bundle (layer 2) and its citations.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{
    Downgrade, HANDLE_PATTERN, Refusal, Relation, RemovedTopic, Rung, TIER_PATTERN, is_false,
};
use crate::hash::ContentHash;

/// The requestor-facing view of a bundle (layer 2), bound to the signed bundle by its hash.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Archive display view")]
pub struct DisplayView {
    #[schemars(extend("const" = "1"))]
    pub display_version: String,
    /// JCS hash of the complete signed bundle.
    pub bundle_hash: ContentHash,
    #[schemars(regex(pattern = TIER_PATTERN))]
    pub tier: String,
    pub claims: Vec<DisplayClaim>,
    pub removed_topics: Vec<RemovedTopic>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<Refusal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub downgrade: Option<Downgrade>,
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
    /// A background definition, not from the archive (ARCHIVE-035).
    #[serde(default, skip_serializing_if = "is_false")]
    pub general_context: bool,
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

impl RelationLabel {
    pub fn as_str(self) -> &'static str {
        match self {
            RelationLabel::TheirWords => "their words",
            RelationLabel::Paraphrased => "paraphrased",
            RelationLabel::InterpretedFrom => "interpreted from",
            RelationLabel::Metadata => "metadata",
        }
    }
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
    #[schemars(regex(pattern = HANDLE_PATTERN))]
    pub handle: String,
    pub relation_label: RelationLabel,
    /// Trimmed excerpt; absent when consent or tier withholds it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    /// True when consent restricts the source ("source restricted by the person's instructions").
    #[serde(default)]
    pub restricted: bool,
}

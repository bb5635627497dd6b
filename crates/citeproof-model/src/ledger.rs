//! The attribution ledger (seed 003) and its JSONL audit records.

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::primitives::{Extensions, HttpUrl, Timestamp};

/// `strict` refuses to emit below the threshold (which must be 1.0); `lenient` warns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LedgerMode {
    Strict,
    Lenient,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Attribution ledger", extend("additionalProperties" = false))]
pub struct Ledger {
    #[schemars(extend("const" = "1"))]
    pub ledger_version: String,
    pub mode: LedgerMode,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub threshold: f64,
    pub claims: Vec<ClaimRecord>,
    pub coverage: Coverage,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// `null` is meaningful here (a claim registered without a source), so the member is required
/// and nullable rather than optional.
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct ClaimRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::aca::CLAIM_ID_PATTERN))]
    pub claim_id: Option<String>,
    #[schemars(length(min = 1))]
    pub text: String,
    pub requires_attribution: bool,
    pub recorded_at: Timestamp,
    #[serde(deserialize_with = "nullable")]
    #[schemars(required)]
    pub source: Option<SourceReference>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// What a tool call returned, captured at the tool boundary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct SourceReference {
    #[schemars(length(min = 1))]
    pub identifier: String,
    #[schemars(length(min = 1))]
    pub category: String,
    /// The tool call the source was captured from (never parsed from model text).
    #[schemars(length(min = 1))]
    pub tool_call_id: String,
    pub fetched_at: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<HttpUrl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Map<String, Value>>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Coverage {
    pub total_claims: u64,
    pub required_claims: u64,
    pub cited_claims: u64,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub coverage_score: f64,
    pub is_compliant: bool,
    pub uncited_claims: Vec<String>,
}

/// One line of the JSONL audit export.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Attribution ledger audit record", extend("additionalProperties" = false))]
pub struct AuditRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::aca::CLAIM_ID_PATTERN))]
    pub claim_id: Option<String>,
    pub claim: String,
    #[serde(deserialize_with = "nullable")]
    #[schemars(required)]
    pub source: Option<SourceReference>,
    pub requires_attribution: bool,
    pub logged_at: Timestamp,
    #[serde(flatten)]
    pub extensions: Extensions,
}

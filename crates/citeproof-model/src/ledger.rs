//! The attribution ledger (seed 003): the ledger document, the lines of its append-only JSONL
//! audit file in the two forms the seed writes, and the seed's `export_for_api` dictionary.
//!
//! `null` carries meaning here: a claim registered without a source (the very case the
//! coverage audit counts) has `"source": null`, and the seed's `vars(SourceReference)` writes
//! `"endpoint": null` when no endpoint was given. Those members are therefore declared with a
//! `oneOf [..., {"type": "null"}]` schema, which the schema generator keeps (it strips `null`
//! only from optional members declared the usual way).

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::primitives::{Extensions, Timestamp};

/// Pattern of a ledger id: the run-id grammar (one ledger per request lifecycle).
pub const LEDGER_ID_PATTERN: &str = crate::aca::RUN_ID_PATTERN;

/// `strict` refuses to emit below the threshold (which must be 1.0); `lenient` warns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LedgerMode {
    Strict,
    Lenient,
}

/// The ledger of one request (profile LEDGER-001).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Attribution ledger", extend("additionalProperties" = false))]
pub struct Ledger {
    #[schemars(extend("const" = "1"))]
    pub ledger_version: String,
    /// Delimits the records of this ledger in an append-only audit file holding many.
    #[schemars(regex(pattern = LEDGER_ID_PATTERN))]
    pub ledger_id: String,
    pub mode: LedgerMode,
    /// `1` in strict mode; more than 0 and at most 1 in lenient mode (LEDGER-005).
    pub threshold: f64,
    pub claims: Vec<ClaimRecord>,
    pub coverage: Coverage,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// `null` is meaningful (a claim registered without a source), so the member is required and
/// nullable rather than optional.
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

fn nullable_source(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let source = generator.subschema_for::<SourceReference>();
    schemars::json_schema!({ "oneOf": [source, { "type": "null" }] })
}

/// Where the tool got the data: a URL for web tools, any name for others (a database, an
/// internal service), as the seed's `endpoint=raw_result.url` leaves open.
fn nullable_endpoint(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "oneOf": [
        { "type": "string", "minLength": 1, "maxLength": crate::primitives::MAX_URL_BYTES },
        { "type": "null" }
    ] })
}

fn nullable_object(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "oneOf": [{ "type": "object" }, { "type": "null" }] })
}

fn nullable_string(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "oneOf": [{ "type": "string", "minLength": 1 }, { "type": "null" }] })
}

/// One claim of the ledger (the seed's `ClaimRecord`).
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
    #[schemars(required, schema_with = "nullable_source")]
    pub source: Option<SourceReference>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// What a tool call returned, captured at the tool boundary: the seed's `SourceReference`
/// (`identifier`, `category`, `endpoint`, `metadata`, `fetched_at`, what `vars(entry.source)`
/// writes) plus citeproof's optional `tool_call_id` (LEDGER-002). The seed's definition of the
/// class is lost and its Pitfall 6 asks for "query hashes, and response snapshots", so other
/// members are allowed (LEDGER-018): kept, compared, never interpreted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SourceReference {
    #[schemars(length(min = 1))]
    pub identifier: String,
    #[schemars(length(min = 1))]
    pub category: String,
    /// The tool call the source was captured from, when the producer names its tool calls
    /// apart from the source identifier (the ACA chain step of citeproof's builder).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub tool_call_id: Option<String>,
    /// `isoformat()` of the seed's `fetched_at` datetime.
    pub fetched_at: Timestamp,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "nullable"
    )]
    #[schemars(schema_with = "nullable_endpoint")]
    pub endpoint: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "nullable"
    )]
    #[schemars(schema_with = "nullable_object")]
    pub metadata: Option<Map<String, Value>>,
    /// `x-` extensions and the members LEDGER-018 accepts with a warning (`query_hash`,
    /// `snapshot_ref`, ...).
    #[serde(flatten)]
    pub other: std::collections::BTreeMap<String, Value>,
}

/// The coverage gate's result (the seed's `CoverageReport` and the template's `metadata`).
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
    /// When the gate ran (the template's `metadata.validated_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validated_at: Option<Timestamp>,
}

/// One line of the JSONL audit file in the form of the seed's `export_audit_log` (Step 4):
/// `{"claim", "source", "requires_proof", "logged_at"}`, with citeproof's `ledger_id` and
/// `claim_id`. `requires_attribution` is accepted instead of `requires_proof` (exactly one of
/// the two is present; the schema's `oneOf` says so).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(
    title = "Attribution ledger audit record",
    extend("additionalProperties" = false),
    extend("oneOf" = [{"required": ["requires_proof"]}, {"required": ["requires_attribution"]}]),
    extend("dependentRequired" = {"seq": ["ledger_id"]})
)]
pub struct AuditRecord {
    /// The ledger (request) the record belongs to; absent in the seed's own records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = LEDGER_ID_PATTERN))]
    pub ledger_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = crate::aca::CLAIM_ID_PATTERN))]
    pub claim_id: Option<String>,
    /// The record's position in its ledger, from 0 (LEDGER-011): with it, records of several
    /// ledgers may interleave and a replayed append is still caught. Only with `ledger_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    pub claim: String,
    #[serde(deserialize_with = "nullable")]
    #[schemars(required, schema_with = "nullable_source")]
    pub source: Option<SourceReference>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_proof: Option<bool>,
    /// Alias of `requires_proof` (the ledger's own name for it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_attribution: Option<bool>,
    pub logged_at: Timestamp,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// One line of the JSONL audit file in the form of the seed's production template
/// (`_persist_audit` writes each `record_claim` dictionary as is).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(
    title = "Attribution ledger audit record, production-template form",
    extend("additionalProperties" = false),
    extend("dependentRequired" = {"seq": ["ledger_id"]})
)]
pub struct TemplateRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = LEDGER_ID_PATTERN))]
    pub ledger_id: Option<String>,
    /// As [`AuditRecord::seq`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    pub text: String,
    #[serde(deserialize_with = "nullable")]
    #[schemars(required, schema_with = "nullable_string")]
    pub source_id: Option<String>,
    #[serde(deserialize_with = "nullable")]
    #[schemars(required, schema_with = "nullable_string")]
    pub source_type: Option<String>,
    pub requires_proof: bool,
    pub recorded_at: Timestamp,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// The ledger the seed's production template returns from `validate_and_finalize()`
/// (Configuration Template): `{"claims": [...], "metadata": {...}}`, each claim the dictionary
/// `record_claim` built (and `_persist_audit` writes as a template-form record). The template
/// states neither its mode nor its threshold (its `env` decides them); the verifier is told
/// (LEDGER-019). `ledger_id` is citeproof's optional addition, as in the records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(
    title = "Attribution ledger, production-template form",
    extend("additionalProperties" = false)
)]
pub struct TemplateLedger {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = LEDGER_ID_PATTERN))]
    pub ledger_id: Option<String>,
    pub claims: Vec<TemplateClaim>,
    pub metadata: TemplateMetadata,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// One claim of the template ledger: `record_claim`'s dictionary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct TemplateClaim {
    pub text: String,
    #[serde(deserialize_with = "nullable")]
    #[schemars(required, schema_with = "nullable_string")]
    pub source_id: Option<String>,
    #[serde(deserialize_with = "nullable")]
    #[schemars(required, schema_with = "nullable_string")]
    pub source_type: Option<String>,
    pub requires_proof: bool,
    pub recorded_at: Timestamp,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// `validate_and_finalize`'s `metadata`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct TemplateMetadata {
    pub coverage_score: f64,
    pub is_compliant: bool,
    pub total_claims: u64,
    pub validated_at: Timestamp,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// The seed's `export_for_api` dictionary (Step 4), with citeproof's optional `ledger_id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(
    title = "Attribution ledger API export",
    extend("additionalProperties" = false)
)]
pub struct ApiExport {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = LEDGER_ID_PATTERN))]
    pub ledger_id: Option<String>,
    /// `" ".join(e.text for e in ledger._entries)`.
    pub output_summary: String,
    pub attribution_map: Vec<Attribution>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// One entry of `attribution_map`; the three source members are `null` for an uncited claim.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct Attribution {
    pub claim: String,
    #[serde(deserialize_with = "nullable")]
    #[schemars(required, schema_with = "nullable_string")]
    pub source_id: Option<String>,
    #[serde(deserialize_with = "nullable")]
    #[schemars(required, schema_with = "nullable_string")]
    pub source_category: Option<String>,
    /// `e.source.fetched_at.isoformat()`.
    #[serde(deserialize_with = "nullable")]
    #[schemars(required, schema_with = "nullable_timestamp")]
    pub timestamp: Option<Timestamp>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

fn nullable_timestamp(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let t = generator.subschema_for::<Timestamp>();
    schemars::json_schema!({ "oneOf": [t, { "type": "null" }] })
}

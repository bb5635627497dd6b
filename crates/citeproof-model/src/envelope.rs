//! Citation-chain envelopes (seed 004, profile CHAIN-*): content-addressed claim ids,
//! HMAC-SHA256 or Ed25519 signatures over the signing inputs of CHAIN-006 (`seed-python`,
//! `deployed-js`). The rules a schema cannot say (the id derivation, the signature, dates) are
//! checked by `citeproof-chain`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::primitives::{Extensions, HttpUrl, Timestamp};

/// Members of a chain claim or source beyond the profile's: `x-` members, and any other member,
/// which the verifier keeps with a warning when the `seed-python` signature covers it and
/// rejects otherwise (CHAIN-017). A schema cannot see the signature, so it accepts them all.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct OpenMembers(pub std::collections::BTreeMap<String, serde_json::Value>);

impl JsonSchema for OpenMembers {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "OpenMembers".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "object" })
    }
}

/// Pattern of a content-addressed claim id: 16 lowercase hex digits.
pub const ENVELOPE_CLAIM_ID_PATTERN: &str = "^[0-9a-f]{16}$";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(title = "Citation-chain envelope")]
#[schemars(extend("additionalProperties" = false))]
pub struct ChainEnvelope {
    #[schemars(extend("const" = "v1"))]
    pub api_version: String,
    pub methodology: HttpUrl,
    /// Re-fetchable canonical URL of the claim; contains the claim id.
    pub canonical: HttpUrl,
    pub claim: EnvelopeClaim,
    pub signature: EnvelopeSignature,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cited_as: Option<String>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// An answer with the envelopes of the claims it references (`[<16 hex>]`, CHAIN-011).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Citation-chain response", extend("additionalProperties" = false))]
pub struct ChainResponse {
    pub answer: String,
    /// Envelopes by claim id; at most 1024.
    #[schemars(extend("maxProperties" = 1024))]
    pub chains: std::collections::BTreeMap<String, ChainEnvelope>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnvelopeClaim {
    /// First 16 lowercase hex digits of SHA-256 over `vertical|subject|predicate|object`, each
    /// trimmed and lowercased as ECMAScript does (CHAIN-002).
    #[schemars(regex(pattern = ENVELOPE_CLAIM_ID_PATTERN))]
    pub id: String,
    /// Part of the id, so required.
    #[schemars(length(min = 1))]
    pub vertical: String,
    #[schemars(length(min = 1))]
    pub subject: String,
    #[schemars(length(min = 1))]
    pub predicate: String,
    #[schemars(length(min = 1))]
    pub object: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: Option<f64>,
    #[schemars(length(min = 1, max = 256))]
    pub sources: Vec<EnvelopeSource>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// When the claim was first published.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published_at: Option<Timestamp>,
    /// When the claim was last re-verified: `YYYY-MM-DD` or an RFC 3339 date-time; stale after
    /// 180 days (CHAIN-010).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_verified: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub methodology_version: Option<String>,
    /// `x-` members and members outside the profile (CHAIN-017).
    #[serde(flatten)]
    pub extensions: OpenMembers,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnvelopeSource {
    pub url: HttpUrl,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    /// `YYYY-MM-DD` or an RFC 3339 date-time; `YYYY` or `YYYY-MM` with a warning (CHAIN-017).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published_date: Option<String>,
    /// When the producer last accessed the source: `YYYY-MM-DD` or an RFC 3339 date-time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accessed_date: Option<String>,
    /// Kind of document (`preprint`, `peer-reviewed`, ...; not enumerated by the profile).
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub source_type: Option<String>,
    /// Verbatim source excerpt preserved in the envelope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    /// `x-` members and members outside the profile (CHAIN-017).
    #[serde(flatten)]
    pub extensions: OpenMembers,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum SignatureAlgorithm {
    #[serde(rename = "HMAC-SHA256")]
    HmacSha256,
    #[serde(rename = "Ed25519")]
    Ed25519,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EnvelopeSignature {
    pub algorithm: SignatureAlgorithm,
    /// Signer identifier, e.g. `did:web:sourcescore.org`; a verifier's key configuration is
    /// keyed by it.
    #[schemars(length(min = 1, max = 512))]
    pub signed_by: String,
    pub signed_at: Timestamp,
    /// Lowercase hex: 64 digits for HMAC-SHA256, 128 for Ed25519.
    #[schemars(regex(pattern = "^([0-9a-f]{64}|[0-9a-f]{128})$"))]
    pub signature: String,
}

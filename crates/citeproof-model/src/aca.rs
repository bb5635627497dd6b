//! Agent Citation Attribution (seed 000): `Citation-Source` header entries, the per-claim
//! provenance manifest with its chain-of-citation envelope, and the discovery document.
//! Rules that need more than one field (unique ids, chain DAG, offsets within a body) live in
//! the verifier; the types here enforce what a single value can.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{
    hash::ContentHash,
    jwk::JwkSet,
    primitives::{Extensions, HttpUrl, Timestamp},
};

/// Pattern of a claim id (ACA-L2): stable, short, no whitespace or free text.
pub const CLAIM_ID_PATTERN: &str = "^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$";
/// Pattern of a run id.
pub const RUN_ID_PATTERN: &str = "^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$";

/// One link-value of a `Citation-Source` header: `<source>; manifest="<manifest>"`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CitationSourceEntry {
    /// The source URL consulted by the response.
    pub source: HttpUrl,
    /// The manifest URL mapping the response's claims to this source.
    pub manifest: HttpUrl,
    /// Optional `run` parameter: the run id the manifest must carry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = RUN_ID_PATTERN))]
    pub run: Option<String>,
    /// Other parameters, lower-cased names, kept for forward compatibility and otherwise ignored.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<(String, String)>,
}

/// Per-claim provenance manifest (seed 000, Component 2), with the optional chain (Component 3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "ACA provenance manifest")]
#[schemars(extend("additionalProperties" = false))]
pub struct Manifest {
    #[schemars(regex(pattern = RUN_ID_PATTERN))]
    pub run_id: String,
    #[schemars(length(min = 1))]
    pub agent_id: String,
    pub emitted_at: Timestamp,
    #[schemars(length(min = 1))]
    pub claims: Vec<Claim>,
    /// Chain-of-citation envelope; required for Level 3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<Vec<ChainStep>>,
    /// The URL of the agent response this manifest was emitted for (ACA-L2-024): a copy of the
    /// response served at another URL is then told apart by the manifest itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_url: Option<HttpUrl>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// Confidence vocabulary of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    High,
    Medium,
    Low,
}

/// One verifiable claim of the response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct Claim {
    #[schemars(regex(pattern = CLAIM_ID_PATTERN))]
    pub claim_id: String,
    #[schemars(length(min = 1))]
    pub text: String,
    #[schemars(length(min = 1))]
    pub sources: Vec<ClaimSource>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Confidence>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// Where a claim came from. `hash` and `excerpt_offset` are optional in the type so that their
/// absence is reported by the verifier with a precise code instead of a schema error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct ClaimSource {
    pub url: HttpUrl,
    pub retrieved_at: Timestamp,
    /// `sha256:` over the exact bytes of the representation as served.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<ContentHash>,
    /// `[start, end)` byte offsets of the excerpt in those bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt_offset: Option<[u64; 2]>,
    /// AEF §5 text hash of the excerpt bytes: tells a changed excerpt from an unrelated edit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt_hash: Option<ContentHash>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// `inputs_ref`: one earlier step's `outputs_ref`, or several (a DAG join).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum StepRefs {
    One(String),
    Many(Vec<String>),
}

impl StepRefs {
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        let slice: &[String] = match self {
            StepRefs::One(one) => std::slice::from_ref(one),
            StepRefs::Many(many) => many,
        };
        slice.iter().map(String::as_str)
    }
}

/// One tool call of the chain-of-citation envelope.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
pub struct ChainStep {
    /// 1-based, consecutive, in array order.
    #[schemars(range(min = 1))]
    pub step: u32,
    #[schemars(length(min = 1, max = 256))]
    pub tool: String,
    /// Public inputs of the call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs: Option<Map<String, Value>>,
    /// `sha256:` of the JCS bytes of the inputs object; replaces `inputs` for private tools.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs_hash: Option<ContentHash>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs_ref: Option<StepRefs>,
    #[schemars(length(min = 1, max = 2048))]
    pub outputs_ref: String,
    #[serde(default)]
    pub sources: Vec<HttpUrl>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

/// Discovery document served at `/.well-known/agent-citation-attribution`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "ACA discovery document")]
#[schemars(extend("additionalProperties" = false))]
pub struct Discovery {
    /// Supported header version, e.g. `1.0`.
    #[schemars(regex(pattern = r"^[0-9]+\.[0-9]+$"))]
    pub version: String,
    pub manifest_schema: HttpUrl,
    /// Signing methods, e.g. `http-message-signatures`.
    pub supported_signing: Vec<String>,
    /// Email address or URL for verification disputes.
    #[schemars(length(min = 1))]
    pub contact: String,
    /// Inline public keys (RFC 7517 JWK Set of RFC 8037 OKP Ed25519 keys).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<JwkSet>,
    /// URL of a JWK Set with the public keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jwks_uri: Option<HttpUrl>,
    /// Origins (`scheme://host[:port]`) other than the agent's own that may host its manifests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest_origins: Option<Vec<String>>,
    #[serde(flatten)]
    pub extensions: Extensions,
}

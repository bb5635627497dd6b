//! Agent Citation Attribution (seed 000): validate, verify and sign, Levels 1-3.
//!
//! - [`verify`]: the reference verifier: `Citation-Source` (ACA-L1-*), manifests and their chain
//!   (ACA-L2-*, ACA-L3-001 to -006), the discovery document and keys (ACA-DISC-*), the support
//!   check behind the [`SupportJudge`] trait, RFC 9421 signatures of manifest responses
//!   (ACA-L3-007 to -014), and the seed's four-step flow over a
//!   [`Fetcher`](citeproof_fetch::Fetcher) returning the level achieved and every incident;
//! - [`sign`]: the reference signer: the `Citation-Source` emitter, the chain builder, signed
//!   manifest responses (JCS body, RFC 9530 `Content-Digest`, RFC 9421 Ed25519) and the discovery
//!   document;
//! - [`ops`]: the conformance operations of docs/ADAPTER.md §5.2.

pub mod emit;
pub mod ops;
pub use ops::SPEC;
pub mod sign;
pub mod verify;

pub use verify::header::{HeaderEntry, HeaderParse, parse_citation_source};
pub use verify::manifest::{ManifestFindings, check_manifest};
pub use verify::support::{Judgement, LexicalJudge, SupportJudge};
pub use verify::{
    AcaDetails, AcaReport, ClaimReport, ManifestHistory, ManifestReport, Sighting,
    SignatureVerdict, SourceReport, VerifyOptions, apply_history, verify_response, verify_snapshot,
    verify_snapshot_bytes, verify_snapshot_error, verify_url,
};

use citeproof_model::{Incident, IncidentCode, Severity, json::parse_strict};
use citeproof_schema::{DocumentKind, SchemaValidator};
use serde_json::Value;

/// The published schema has the last word on structure: when the profile's own checks (which
/// give the specific codes of reporting rule 2) find no error, the schema's findings are added.
/// So nothing the schema rejects is valid; a test runs every vector document through Python's
/// `jsonschema` too, so the schema, the profile and this verifier cannot drift apart.
fn with_schema(kind: DocumentKind, value: &Value, mut incidents: Vec<Incident>) -> Vec<Incident> {
    if incidents.iter().any(|i| i.severity == Severity::Error) {
        return incidents;
    }
    match SchemaValidator::cached(kind) {
        Ok(v) => incidents.extend(v.validate(value)),
        Err(e) => incidents.push(Incident::new(
            IncidentCode::SchemaViolation,
            e.to_string(),
            citeproof_model::Location::default(),
        )),
    }
    incidents
}

/// Document validation of a manifest on its own (what `citeproof validate --kind manifest` and
/// the `aca-manifest-validate` operation report): every rule that needs only the document.
/// An absent `chain` is not reported (a Level 2 manifest has none; ACA-L3-001 is a requirement
/// on the response); a `chain` that is present must be a non-empty array of valid steps.
pub fn validate_manifest_value(value: &Value) -> Vec<Incident> {
    let f = check_manifest(value, None);
    let has_chain = value.get("chain").is_some();
    let incidents = f
        .level2
        .into_iter()
        .chain(
            f.level3
                .into_iter()
                .filter(|i| has_chain || i.code != IncidentCode::AcaChainMissing),
        )
        .collect();
    with_schema(DocumentKind::AcaManifest, value, incidents)
}

/// Document validation of a discovery document, as Level 3 requires it.
pub fn validate_discovery_value(value: &Value) -> Vec<Incident> {
    with_schema(
        DocumentKind::AcaDiscovery,
        value,
        verify::discovery::check_discovery(value, None).incidents,
    )
}

/// Strict parse, then [`validate_manifest_value`].
pub fn validate_manifest_bytes(bytes: &[u8]) -> Vec<Incident> {
    match parse_strict(bytes) {
        Ok(v) => validate_manifest_value(&v),
        Err(e) => vec![e.to_incident()],
    }
}

/// Strict parse, then [`validate_discovery_value`].
pub fn validate_discovery_bytes(bytes: &[u8]) -> Vec<Incident> {
    match parse_strict(bytes) {
        Ok(v) => validate_discovery_value(&v),
        Err(e) => vec![e.to_incident()],
    }
}

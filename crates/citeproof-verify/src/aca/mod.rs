//! Agent Citation Attribution (seed 000): the reference verifier of Levels 1-3.
//!
//! - [`header`]: `Citation-Source` (ACA-L1-*);
//! - [`manifest`]: one manifest and its chain (ACA-L2-003 to -010, ACA-L3-001 to -006);
//! - [`discovery`]: the discovery document and published keys (ACA-DISC-*);
//! - [`support`]: the support check, behind the [`SupportJudge`] trait;
//! - [`signature`]: RFC 9421 signatures of manifest responses (ACA-L3-007 to -014);
//! - [`verify_response`] / [`verify_url`] / [`verify_snapshot`]: the seed's four-step flow over a
//!   [`Fetcher`](citeproof_fetch::Fetcher), returning the level achieved and every incident.

pub mod discovery;
pub mod header;
mod jsonpath;
pub mod manifest;
pub mod signature;
pub mod support;
pub mod url;
mod verify;

pub use header::{HeaderEntry, HeaderParse, parse_citation_source};
pub use manifest::{ManifestFindings, check_manifest};
pub use support::{Judgement, LexicalJudge, SupportJudge};
pub use verify::{
    AcaIncident, AcaReport, ClaimReport, ManifestReport, SourceReport, VerifyOptions,
    verify_response, verify_snapshot, verify_snapshot_bytes, verify_url,
};

use citeproof_model::{Incident, IncidentCode, json::parse_strict};
use serde_json::Value;

/// Document validation of a manifest on its own (what `citeproof validate --kind manifest` and
/// the `aca-manifest-validate` operation report): every rule that needs only the document.
/// An absent `chain` is not reported (a Level 2 manifest has none; ACA-L3-001 is a requirement
/// on the response); a `chain` that is present must be a non-empty array of valid steps.
pub fn validate_manifest_value(value: &Value) -> Vec<Incident> {
    let f = check_manifest(value, None);
    let has_chain = value.get("chain").is_some();
    f.level2
        .into_iter()
        .chain(
            f.level3
                .into_iter()
                .filter(|i| has_chain || i.code != IncidentCode::AcaChainMissing),
        )
        .collect()
}

/// Document validation of a discovery document, as Level 3 requires it.
pub fn validate_discovery_value(value: &Value) -> Vec<Incident> {
    discovery::check_discovery(value, None).incidents
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

//! The reference verifier of ACA Levels 1-3.
//!
//! - [`header`]: `Citation-Source` (ACA-L1-*);
//! - [`manifest`]: one manifest and its chain (ACA-L2-003 to -010, ACA-L3-001 to -006);
//! - [`discovery`]: the discovery document and published keys (ACA-DISC-*);
//! - [`support`]: the support check, behind the [`SupportJudge`](support::SupportJudge) trait;
//! - [`signature`]: RFC 9421 signatures of manifest responses (ACA-L3-007 to -014);
//! - [`verify_response`] / [`verify_url`] / [`verify_snapshot`]: the seed's four-step flow.

pub mod binding;
pub mod discovery;
mod flow;
pub mod header;
mod jsonpath;
pub mod manifest;
pub mod signature;
pub mod support;
pub mod url;

pub use flow::{
    AcaDetails, AcaReport, ClaimReport, ManifestHistory, ManifestReport, Sighting,
    SignatureVerdict, SourceReport, VerifyOptions, apply_history, verify_response, verify_snapshot,
    verify_snapshot_bytes, verify_snapshot_error, verify_url,
};

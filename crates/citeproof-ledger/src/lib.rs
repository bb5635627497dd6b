//! The attribution ledger of seed 003 (profile LEDGER-*), both sides:
//!
//! - the **builder** ([`AttributionLedger`]): claims registered with their sources at the tool
//!   boundary, the coverage gate before a response is emitted, the ledger document, the
//!   append-only JSONL audit records, the seed's `export_for_api` dictionary and the ACA
//!   manifest of the run;
//! - the **verifier**: [`audit`] reads an append-only JSONL audit file (the seed's own records
//!   as written, citeproof's, many ledgers in one file) and reports coverage per ledger;
//!   [`verify`] checks a ledger document (citeproof's, or the one the seed's production
//!   template returns), its records in an audit file shared by many requests, and optionally
//!   its `export_for_api` dictionary.
//!
//! Every finding is an [`Incident`](citeproof_model::Incident) with a registered code and a
//! location (a line number in the audit file, a JSON pointer); no input makes it panic, and the
//! work is bounded ([`jsonl::Limits`]).

mod api;
pub mod audit;
mod builder;
mod clock;
mod config;
mod coverage;
mod document;
mod emit;
mod error;
mod file;
pub mod jsonl;
mod manifest;
pub mod ops;
pub use ops::SPEC;
pub mod record;
mod shape;
mod template;
pub mod verify;

pub use audit::{AuditOptions, AuditReport, LedgerAudit, audit};
pub use builder::{
    AttributionLedger, CaptureId, CaptureSpec, ClaimInput, Excerpt, ToolCallId, derived_claim_id,
};
pub use clock::{Clock, SteppingClock, SystemClock, unix_timestamp};
pub use config::{
    LENIENT_DEFAULT_THRESHOLD, LedgerConfig, RunId, STRICT_THRESHOLD, threshold_problem,
};
pub use coverage::{CoverageReport, coverage_score};
pub use error::LedgerError;
pub use template::TemplateConfig;
pub use verify::{VerifyOptions, VerifyReport, verify};

/// The checks of one ledger document on its own (LEDGER-001 to -005, -013, -014), as
/// `citeproof validate --kind ledger` runs them: the ledger is not presented as emitted, and no
/// verification time is given.
pub fn validate_ledger_value(value: &serde_json::Value) -> Vec<citeproof_model::Incident> {
    let mut out = Vec::new();
    document::check(value, false, None, &mut out);
    out
}

/// The checks of the seed template's ledger on its own (LEDGER-019), as `citeproof validate
/// --kind ledger-template` runs them: its mode is unknown, so compliance is not judged, and it
/// is not presented as emitted.
pub fn validate_template_ledger_value(value: &serde_json::Value) -> Vec<citeproof_model::Incident> {
    let mut out = Vec::new();
    template::check(value, None, false, None, &mut out);
    out
}

/// The checks of one audit record (LEDGER-010), in either seed form.
pub fn validate_record_value(value: &serde_json::Value) -> Vec<citeproof_model::Incident> {
    let mut out = Vec::new();
    if let Some(r) = record::read(value, 1, &mut out) {
        out.extend(audit::undefined_member_incidents([&r]));
    }
    for i in &mut out {
        i.location.line = None;
    }
    out
}

/// The shape checks of an `export_for_api` document on its own (LEDGER-016).
pub fn validate_api_value(value: &serde_json::Value) -> Vec<citeproof_model::Incident> {
    let mut out = Vec::new();
    api::check(value, None, &mut out);
    out
}

//! The attribution ledger: claims registered with their sources at the tool boundary, the
//! coverage gate before a response is emitted, and the append-only JSONL audit export (profile
//! LEDGER-*). The builder ([`AttributionLedger`]) produces the ACA manifest of a run.

mod builder;
mod error;
pub mod ops;

pub use builder::{
    AttributionLedger, CaptureId, ClaimInput, Clock, CoverageReport, Excerpt, LedgerConfig, RunId,
    SteppingClock, SystemClock, ToolCallId, derived_claim_id, unix_timestamp,
};
pub use error::LedgerError;

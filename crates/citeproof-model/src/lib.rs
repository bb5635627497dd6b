//! Typed documents of the citation specs citeproof implements, and their canonical forms.
//!
//! No I/O happens in this crate: it parses, canonicalizes and hashes bytes it is given.
//! Every public document type derives `serde` and `schemars`; `cargo xtask schemas` writes the
//! JSON Schemas in `schemas/` from them.

pub mod aca;
pub mod aef;
pub mod archive;
pub mod envelope;
pub mod hash;
pub mod ids;
pub mod incident;
pub mod jcs;
pub mod json;
pub mod jwk;
pub mod ledger;
pub mod members;
pub mod pointer;
pub mod primitives;
pub mod protocol;
pub mod raw_members;
pub mod report;
pub mod snapshot;
pub mod spec;
pub mod token;
pub mod vectors;
pub mod verdict;
pub mod weburl;

pub use hash::{ContentHash, aef_text_hash, sha256_bytes};
pub use incident::{Incident, IncidentCode, Location, Severity};
pub use primitives::{CLOCK_SKEW_SECONDS, Extensions, HttpUrl, Rfc3339DateTime, Timestamp};
pub use report::{Item, Outcome, Report, SignerKeys, SourceView, Subject, SubjectKind, TrustUsed};
pub use verdict::{Findings, LeveledIncident, Verdict};

/// Typed parse of a schema-valid value. A failure here means the schema admits something the
/// type does not: reported as `schema-violation`, never unwrapped.
#[allow(clippy::result_large_err)] // `Incident` is the finding type everywhere
pub fn typed<T: serde::de::DeserializeOwned>(value: &serde_json::Value) -> Result<T, Incident> {
    T::deserialize(value).map_err(|e| {
        Incident::new(
            IncidentCode::SchemaViolation,
            format!("document does not match its type: {e}"),
            Location::pointer(""),
        )
    })
}

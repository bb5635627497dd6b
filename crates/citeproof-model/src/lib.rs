//! Typed documents of the citation specs citeproof implements, and their canonical forms.
//!
//! No I/O happens in this crate: it parses, canonicalizes and hashes bytes it is given.

pub mod hash;
pub mod incident;
pub mod jcs;
pub mod json;

pub use hash::{ContentHash, aef_text_hash, sha256_bytes};
pub use incident::{Incident, IncidentCode, Location, Severity};

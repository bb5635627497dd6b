//! Reference verifier: checks documents and responses against `docs/PROFILE.md` and reports
//! incidents from the shared registry. Never panics on input; every finding has a code.

pub mod aca;
pub mod aef;
pub mod document;

pub use document::{DocumentReport, validate_document};

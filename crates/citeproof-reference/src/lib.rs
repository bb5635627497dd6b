//! The reference implementation of citeproof: every operation of docs/ADAPTER.md, assembled from
//! the spec crates, and offline validation of any document kind.
//!
//! Each spec crate exports `ops::OPERATIONS: &[(name, OperationFn)]`; [`Reference::new`] chains
//! them in [`SPECS`]. Adding a spec is one line there. The runner (`citeproof-conformance`) runs
//! the reference in-process through the [`Implementation`] trait, or over stdin/stdout through
//! `citeproof adapter`; it does not depend on this crate.

use std::collections::BTreeMap;

use citeproof_model::protocol::{Implementation, ImplementationInfo, OperationFn, Reply};

mod canon;
mod document;

pub use document::{DocumentReport, validate_document, validate_value};

/// The operation tables of every spec, in report order.
pub const SPECS: &[&[(&str, OperationFn)]] = &[
    canon::OPERATIONS,
    citeproof_aca::ops::OPERATIONS,
    citeproof_aef::ops::OPERATIONS,
    citeproof_archive::ops::OPERATIONS,
    citeproof_ledger::ops::OPERATIONS,
    citeproof_chain::ops::OPERATIONS,
];

/// The dispatch table of the reference implementation.
#[derive(Debug, Clone)]
pub struct Reference {
    table: BTreeMap<&'static str, OperationFn>,
}

impl Default for Reference {
    fn default() -> Self {
        Reference::new()
    }
}

impl Reference {
    pub fn new() -> Reference {
        let table = SPECS
            .iter()
            .flat_map(|ops| ops.iter())
            .map(|(name, f)| (*name, *f))
            .collect();
        Reference { table }
    }

    pub fn supports(&self, operation: &str) -> bool {
        self.table.contains_key(operation)
    }
}

impl Implementation for Reference {
    fn info(&self) -> ImplementationInfo {
        ImplementationInfo {
            name: "citeproof-reference".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            language: "rust".into(),
            homepage: Some("https://github.com/citeproof/citeproof".into()),
            operations: self.table.keys().map(|k| (*k).to_owned()).collect(),
        }
    }

    /// Runs one operation. Unknown operations are skipped; a panic is reported as errored (a
    /// bug, never an answer).
    fn run(&self, operation: &str, input: &serde_json::Value) -> Reply {
        let Some(f) = self.table.get(operation) else {
            return Reply::Skipped {
                message: format!("operation `{operation}` is not implemented by the reference"),
            };
        };
        let f = *f;
        match std::panic::catch_unwind(|| f(input)) {
            Ok(reply) => reply,
            Err(_) => Reply::errored(format!("internal error: `{operation}` panicked")),
        }
    }
}

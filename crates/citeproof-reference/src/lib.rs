//! The reference implementation of citeproof: every operation of docs/ADAPTER.md, assembled from
//! the spec crates, and offline validation of any document kind.
//!
//! Each spec crate exports one `SPEC: SpecDescriptor` (its document checks and its operations
//! with their input contracts); [`SPECS`] lists them, one line per spec, in the order of
//! [`Spec::ALL`] (a test keeps the two equal). Everything that needs the list of specs takes it
//! from here: [`Reference::new`], [`validate_value`], the runner's lint of the operation
//! contracts, the generated variants and the fuzz bodies. The runner (`citeproof-conformance`)
//! runs the reference in-process through the [`Implementation`] trait, or over stdin/stdout
//! through `citeproof adapter`; it does not depend on this crate.

use std::collections::BTreeMap;

use citeproof_model::protocol::{Implementation, ImplementationInfo, OperationFn, Reply};
use citeproof_model::spec::SpecDescriptor;
#[cfg(doc)]
use citeproof_model::vectors::Spec;

mod canon;
mod document;

pub use document::{DocumentReport, validate_document, validate_value};

/// The descriptor of every spec, in the order of [`Spec::ALL`].
pub const SPECS: &[&SpecDescriptor] = &[
    &canon::SPEC,
    &citeproof_aca::SPEC,
    &citeproof_aef::SPEC,
    &citeproof_archive::SPEC,
    &citeproof_ledger::SPEC,
    &citeproof_chain::SPEC,
];

/// `schemas/adapter/operations.json`: the input contract of every operation (docs/ADAPTER.md,
/// section 5) as JSON Schema 2020-12, one `$defs` entry per operation, generated from [`SPECS`]
/// (`cargo xtask schemas`; `--check` fails when the committed file is stale). An adapter can
/// validate a case's `input` against `#/$defs/<operation>`.
pub fn operations_schema() -> serde_json::Value {
    let defs: serde_json::Map<String, serde_json::Value> = SPECS
        .iter()
        .flat_map(|spec| spec.operations.iter().map(move |op| (spec.name(), op)))
        .map(|(spec, op)| {
            let mut schema = op.input_schema();
            if let Some(obj) = schema.as_object_mut() {
                obj.insert("title".into(), op.name.into());
                obj.insert(
                    "description".into(),
                    format!("Input of `{}` (spec `{spec}`).", op.name).into(),
                );
            }
            (op.name.to_owned(), schema)
        })
        .collect();
    serde_json::json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://schemas.citeproof.dev/v0/adapter/operations.json",
        "title": "citeproof adapter operation inputs",
        "description": "The input members of every operation of docs/ADAPTER.md section 5, generated from the spec crates' descriptors by `cargo xtask schemas`; do not edit.",
        "$defs": defs,
    })
}

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
            .flat_map(|spec| spec.operations)
            .map(|op| (op.name, op.run))
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

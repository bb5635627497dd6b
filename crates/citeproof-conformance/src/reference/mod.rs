//! The reference implementation of the operations of docs/ADAPTER.md, as a dispatch table.
//!
//! Each spec has its own module exporting `OPERATIONS: &[(name, fn)]`. To add an operation,
//! write `fn(&Value) -> Reply` in the spec's module and list it there: the runner, the
//! `citeproof adapter` command and the handshake pick it up without other changes. Operations
//! not listed are not announced in the handshake, so their cases are reported as skipped.

use std::collections::BTreeMap;

use base64::Engine as _;
use citeproof_model::{Incident, Severity};
use serde_json::Value;

use crate::protocol::{Answer, ImplementationInfo, Reply, ResultReply};

mod aca;
mod aef;
mod canon;

/// The signature of an operation: input object in, reply out. Never panics on input.
pub type OperationFn = fn(&Value) -> Reply;

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
        let mut table = BTreeMap::new();
        for (name, f) in canon::OPERATIONS
            .iter()
            .chain(aca::OPERATIONS)
            .chain(aef::OPERATIONS)
        {
            table.insert(*name, *f);
        }
        Reference { table }
    }

    /// What the reference announces in its hello.
    pub fn info(&self) -> ImplementationInfo {
        ImplementationInfo {
            name: "citeproof-reference".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            language: "rust".into(),
            homepage: Some("https://github.com/citeproof/citeproof".into()),
            operations: self.table.keys().map(|k| (*k).to_owned()).collect(),
        }
    }

    pub fn supports(&self, operation: &str) -> bool {
        self.table.contains_key(operation)
    }

    /// Runs one operation. Unknown operations are skipped; a panic is reported as errored.
    pub fn run(&self, operation: &str, input: &Value) -> Reply {
        let Some(f) = self.table.get(operation) else {
            return Reply::Skipped {
                message: format!("operation `{operation}` is not implemented by the reference"),
            };
        };
        if let Some(spec) = crate::protocol::operation(operation) {
            let problems = spec.check_input(input);
            if !problems.is_empty() {
                return Reply::errored(format!("bad input: {}", problems.join("; ")));
            }
        }
        let f = *f;
        match std::panic::catch_unwind(|| f(input)) {
            Ok(reply) => reply,
            Err(_) => Reply::errored(format!("internal error: `{operation}` panicked")),
        }
    }
}

/// A reply from a list of incidents: `invalid` when any has error severity.
pub(crate) fn from_incidents(incidents: &[Incident], output: Option<Value>) -> Reply {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for i in incidents {
        let list = match i.severity {
            Severity::Error => &mut errors,
            Severity::Warning => &mut warnings,
        };
        let code = i.code.as_str().to_owned();
        if !list.contains(&code) {
            list.push(code);
        }
    }
    let result = if errors.is_empty() {
        Answer::Valid
    } else {
        Answer::Invalid
    };
    Reply::Result(ResultReply {
        result: Some(result),
        errors,
        warnings,
        output: if result == Answer::Valid {
            output
        } else {
            None
        },
    })
}

/// Validates the raw `document` text of the input as a document of `kind`.
pub(crate) fn validate_document_input(
    kind: citeproof_schema::DocumentKind,
    input: &Value,
) -> Reply {
    match str_member(input, "document") {
        Ok(text) => {
            let report = citeproof_verify::validate_document(kind, text.as_bytes());
            from_incidents(&report.incidents, None)
        }
        Err(r) => r,
    }
}

/// A string member of the input.
pub(crate) fn str_member<'a>(input: &'a Value, name: &str) -> Result<&'a str, Reply> {
    input
        .get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| Reply::errored(format!("bad input: `{name}` must be a string")))
}

/// A standard-base64 (padded) member of the input, decoded.
pub(crate) fn base64_member(input: &Value, name: &str) -> Result<Vec<u8>, Reply> {
    let text = str_member(input, name)?;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| Reply::errored(format!("bad input: `{name}` is not standard base64: {e}")))
}

//! The checks of every spec, as the reference implementation runs them (docs/ADAPTER.md §5):
//! the typed Python functions of `citeproof.canon`, `.aca`, `.aef`, `.archive`, `.ledger` and
//! `.chain` build the operation's input and call [`check`]. One table of operations for the
//! package, the CLI's `adapter` and `cargo xtask conformance`, so none can disagree.

use std::sync::LazyLock;

use citeproof_model::protocol::{Answer, Implementation, Reply};
use citeproof_reference::Reference;
use pyo3::prelude::*;
use serde_json::json;

use crate::errors::{invalid_input, raise, to_json};

static REFERENCE: LazyLock<Reference> = LazyLock::new(Reference::new);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(operations, m)?)?;
    m.add_function(wrap_pyfunction!(aca_report, m)?)?;
    Ok(())
}

/// The names of the operations [`check`] runs.
#[pyfunction]
fn operations() -> Vec<String> {
    REFERENCE.info().operations
}

/// Runs one check on its JSON input, without the GIL; returns the verdict as JSON text:
/// `{"result": "valid"|"invalid", "errors": [...], "warnings": [...], "output": {...}?}`.
/// An input that is not of the documented shape raises `InvalidInputError`.
#[pyfunction]
fn check(py: Python<'_>, operation: &str, input_json: &str) -> PyResult<String> {
    if !REFERENCE.supports(operation) {
        return Err(invalid_input(py, format!("no check named `{operation}`")));
    }
    let reply = py
        .detach(|| serde_json::from_str(input_json).map(|input| REFERENCE.run(operation, &input)));
    let reply = reply.map_err(|e| invalid_input(py, format!("input: {e}")))?;
    match reply {
        Reply::Result(r) => {
            let result = match r.result {
                Some(Answer::Valid) => "valid",
                _ => "invalid",
            };
            to_json(
                py,
                &json!({
                    "result": result,
                    "errors": r.errors,
                    "warnings": r.warnings,
                    "output": r.output,
                }),
            )
        }
        Reply::Errored { message } => Err(invalid_input(py, message)),
        Reply::Skipped { message } => {
            Err(raise(py, "CiteproofError", message, "unsupported", None))
        }
    }
}

/// The full ACA report of one snapshot, as `citeproof aca verify --snapshot FILE --json`
/// prints it (`command`, `ok`, `incidents`, then the report's members), computed without the
/// GIL, as JSON text.
#[pyfunction]
#[pyo3(signature = (snapshot_json, now, required_level=None, allow_private=false))]
fn aca_report(
    py: Python<'_>,
    snapshot_json: &str,
    now: i64,
    required_level: Option<u8>,
    allow_private: bool,
) -> PyResult<String> {
    let bytes = snapshot_json.as_bytes();
    let value = py.detach(|| {
        let mut opts = citeproof_aca::VerifyOptions::new(now);
        opts.required_level = required_level;
        opts.allow_private = allow_private;
        aca_envelope(&citeproof_aca::verify_snapshot_bytes(bytes, &opts))
    });
    value.map_err(|e| raise(py, "CiteproofError", e.to_string(), "internal", None))
}

/// An ACA report as `citeproof aca verify --json` prints it: `command`, `ok`, `incidents`, then
/// the report's members.
pub fn aca_envelope(report: &citeproof_aca::AcaReport) -> serde_json::Result<String> {
    let mut obj = serde_json::Map::new();
    obj.insert("command".into(), json!("aca verify"));
    obj.insert("ok".into(), json!(report.verdict.verified));
    obj.insert(
        "incidents".into(),
        serde_json::to_value(&report.verdict.incidents)?,
    );
    if let serde_json::Value::Object(members) = serde_json::to_value(report)? {
        for (k, v) in members {
            obj.entry(k).or_insert(v);
        }
    }
    serde_json::to_string(&serde_json::Value::Object(obj))
}

//! The checks of every spec, as the reference implementation runs them (docs/ADAPTER.md §5):
//! the typed Python functions of `citeproof.canon`, `.aca`, `.aef`, `.archive`, `.ledger` and
//! `.chain` build the operation's input and call [`check`]. One table of operations for the
//! package, the CLI's `adapter` and `cargo xtask conformance`, so none can disagree.

use std::sync::LazyLock;

use citeproof_model::protocol::{Answer, Implementation, Reply};
use citeproof_reference::Reference;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use serde_json::json;

use crate::errors::{invalid_input, raise, strict_json, to_json};
use crate::pyobjects::{BuildError, Builder};

static REFERENCE: LazyLock<Reference> = LazyLock::new(Reference::new);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_functions!(m, check, operations, aca_report, aca_verify_snapshot);
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
    let reply = py.detach(|| strict_json(input_json).map(|input| REFERENCE.run(operation, &input)));
    let reply = reply.map_err(|e| invalid_input(py, format!("input: {e}")))?;
    verdict_json(py, reply)
}

/// `aca-verify-snapshot` on the snapshot's own text (`str` or `bytes`, read as the CLI reads a
/// file, so a duplicate member is the CLI's `fetch-snapshot-invalid`, not a parse that keeps
/// the last one); `members_json`: `now`, `required_level`, `history`. The verdict as [`check`].
#[pyfunction]
fn aca_verify_snapshot(
    py: Python<'_>,
    snapshot: &Bound<'_, PyAny>,
    members_json: &str,
) -> PyResult<String> {
    let bytes = json_bytes(snapshot, "snapshot")?;
    let reply = py.detach(|| {
        strict_json(members_json)
            .map(|members| citeproof_aca::ops::verify_snapshot_text(bytes, &members))
    });
    let reply = reply.map_err(|e| invalid_input(py, format!("input: {e}")))?;
    verdict_json(py, reply)
}

/// A reply as the verdict JSON of [`check`].
fn verdict_json(py: Python<'_>, reply: Reply) -> PyResult<String> {
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

/// The full ACA report of one snapshot (JSON text as `str` or `bytes`), as
/// `citeproof aca verify --snapshot FILE --json` prints it (`command`, `ok`, `incidents`, then
/// the report's members), as Python objects: verified without the GIL, built straight from the
/// report (no JSON text in between), the report dropped without the GIL.
#[pyfunction]
#[pyo3(signature = (snapshot, now, required_level=None, allow_private=false))]
fn aca_report<'py>(
    py: Python<'py>,
    snapshot: &Bound<'py, PyAny>,
    now: i64,
    required_level: Option<u8>,
    allow_private: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let bytes = json_bytes(snapshot, "snapshot")?;
    let report = py.detach(|| {
        let mut opts = citeproof_aca::VerifyOptions::new(now);
        opts.required_level = required_level;
        opts.allow_private = allow_private;
        citeproof_aca::verify_snapshot_bytes(bytes, &opts)
    });
    aca_report_object(py, report)
}

/// An ACA report as `citeproof aca verify --json` prints it (`command`, `ok`, `incidents`,
/// then the report's members), as Python objects. The report is dropped without the GIL.
pub fn aca_report_object(
    py: Python<'_>,
    report: citeproof_aca::AcaReport,
) -> PyResult<Bound<'_, PyDict>> {
    let built = aca_report_dict(py, &report);
    py.detach(move || drop(report));
    built
}

/// The dict of [`aca_report_object`].
pub fn aca_report_dict<'py>(
    py: Python<'py>,
    report: &citeproof_aca::AcaReport,
) -> PyResult<Bound<'py, PyDict>> {
    let mut b = Builder::new(py);
    let built = b.build(&report.verdict.incidents).and_then(|incidents| {
        let first = vec![
            ("command", b.build("aca verify")?),
            ("ok", b.build(&report.verdict.verified)?),
            ("incidents", incidents),
        ];
        b.object_with(first, report)
    });
    built.map_err(|e| match e {
        BuildError::Python(e) => e,
        BuildError::Unsupported(m) => raise(py, "CiteproofError", m, "internal", None),
    })
}

/// The bytes of a JSON text given as `str` or `bytes`, borrowed (no copy).
pub fn json_bytes<'a>(text: &'a Bound<'_, PyAny>, what: &str) -> PyResult<&'a [u8]> {
    if let Ok(s) = text.cast::<PyString>() {
        return Ok(s.to_str()?.as_bytes());
    }
    if let Ok(b) = text.cast::<PyBytes>() {
        return Ok(b.as_bytes());
    }
    Err(PyTypeError::new_err(format!(
        "{what}: JSON text as str or bytes"
    )))
}

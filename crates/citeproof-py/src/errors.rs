//! Raising the exception classes of `citeproof.errors` (defined in Python, so that they carry
//! `code` and `location` as plain attributes and can be subclassed and caught like any other).

use pyo3::prelude::*;

/// An instance of `citeproof.errors.<class>(message, code, location)` as a `PyErr`.
pub fn raise(
    py: Python<'_>,
    class: &str,
    message: impl Into<String>,
    code: &str,
    location: Option<String>,
) -> PyErr {
    let made = py
        .import("citeproof.errors")
        .and_then(|m| m.getattr(class))
        .and_then(|c| c.call1((message.into(), code, location)));
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

/// Bad arguments: not the JSON shape a function documents.
pub fn invalid_input(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, "InvalidInputError", message, "bad-input", None)
}

pub fn to_json<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<String> {
    serde_json::to_string(value)
        .map_err(|e| raise(py, "CiteproofError", e.to_string(), "internal", None))
}

/// Reads JSON text as the CLI and the adapter read it (strict I-JSON: a repeated member is an
/// error, never the last one kept).
pub fn from_json(py: Python<'_>, text: &str, what: &str) -> PyResult<serde_json::Value> {
    strict_json(text).map_err(|e| invalid_input(py, format!("{what}: {e}")))
}

/// [`from_json`] without the GIL's error type, for use inside `py.detach`.
pub fn strict_json(text: &str) -> Result<serde_json::Value, String> {
    citeproof_model::json::parse_strict(text.as_bytes()).map_err(|e| {
        let at = e
            .offset
            .map(|o| format!(" at byte {o}"))
            .unwrap_or_default();
        format!("{} ({}){at}", e.message, e.code)
    })
}

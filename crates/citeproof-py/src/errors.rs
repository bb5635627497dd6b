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

pub fn from_json(py: Python<'_>, text: &str, what: &str) -> PyResult<serde_json::Value> {
    serde_json::from_str(text).map_err(|e| invalid_input(py, format!("{what}: {e}")))
}

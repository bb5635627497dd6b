//! The archive gate as a producer runs it (`citeproof archive gate`): the request checked against
//! its schema, then `citeproof_archive::build::gate` (the CLI's function) gates, signs and builds
//! the display view; with a bundle log, the record to append (ARCHIVE-029) is made the way the
//! CLI appends it.

use citeproof_archive::Store;
use citeproof_archive::build::{BuildError, GateOptions, gate};
use citeproof_archive::findings::Findings;
use citeproof_archive::log::{next_record, read_lines};
use citeproof_archive::signature::{Signer, SignerKey};
use citeproof_model::archive::GateRequest;
use citeproof_model::{Incident, Timestamp};
use citeproof_schema::{DocumentKind, SchemaValidator};
use pyo3::prelude::*;
use serde_json::{Value, json};

use crate::errors::{invalid_input, raise, to_json};
use crate::keys::PySigningKey;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_functions!(m, archive_gate);
    Ok(())
}

fn document_error(py: Python<'_>, what: &str, incidents: &[Incident]) -> PyErr {
    let first = incidents.first();
    let message = incidents
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    let codes: Vec<String> = incidents
        .iter()
        .map(|i| i.code.as_str().to_owned())
        .collect();
    let made = py
        .import("citeproof.errors")
        .and_then(|m| m.getattr("InvalidDocumentError"))
        .and_then(|c| {
            c.call1((
                format!("{what}: {message}"),
                first.map_or("invalid", |i| i.code.as_str()),
                first.and_then(|i| i.location.pointer.clone()),
                codes,
            ))
        });
    match made {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

/// The stable code and location of a refusal to assemble (the archive crate's, which the CLI
/// reports too).
fn refusal(request: &GateRequest, e: &BuildError) -> (String, Option<String>) {
    (e.code().to_string(), e.pointer(request))
}

fn parse_request(py: Python<'_>, bytes: &[u8]) -> PyResult<GateRequest> {
    let value = py
        .detach(|| citeproof_model::json::parse_strict(bytes))
        .map_err(|e| document_error(py, "the gate request", &[e.to_incident()]))?;
    let validator = SchemaValidator::cached(DocumentKind::ArchiveGateRequest)
        .map_err(|e| raise(py, "CiteproofError", e.to_string(), "internal", None))?;
    let problems = py.detach(|| validator.validate(&value));
    if !problems.is_empty() {
        return Err(document_error(py, "not a gate request", &problems));
    }
    citeproof_model::typed(&value).map_err(|i| document_error(py, "the gate request", &[i]))
}

fn load_archive(py: Python<'_>, bytes: &[u8]) -> PyResult<Store> {
    let (store, findings) = py.detach(|| Store::load_bytes(bytes));
    store.ok_or_else(|| document_error(py, "not a usable archive", &findings.into_vec()))
}

/// The line to append to the bundle log `log` (its text; empty for a new log) for `event`.
fn log_line(
    py: Python<'_>,
    log: &str,
    at: Timestamp,
    event: citeproof_model::archive::LogEvent,
) -> PyResult<String> {
    let mut f = Findings::new();
    let lines = read_lines(log.as_bytes(), &mut f);
    if f.has_errors() {
        return Err(document_error(
            py,
            "not a well-formed bundle log (nothing to append to)",
            &f.into_vec(),
        ));
    }
    let last = lines
        .len()
        .checked_sub(1)
        .and_then(|n| lines.get(n).and_then(|l| l.hash).map(|h| (n as u64, h)));
    let record = next_record(last, at, event);
    Ok(to_json(py, &record)? + "\n")
}

/// Gates one response (`citeproof archive gate`): returns JSON text
/// `{"bundle", "display", "bundle_hash", "rungs": [[claim_id, rung]...], "log_line"?}`.
/// Signs with the Ed25519 `key` or the HMAC-SHA256 `secret` (bytes), exactly one of them. The
/// request and the archive are the JSON bytes as given, parsed strictly (never repaired: what
/// is signed is what was asked).
#[pyfunction]
#[pyo3(signature = (request_json, archive_json, kid, signed_by, now, key=None, secret=None, log=None, plaintext_excerpts=false))]
#[allow(clippy::too_many_arguments)]
fn archive_gate(
    py: Python<'_>,
    request_json: &[u8],
    archive_json: &[u8],
    kid: String,
    signed_by: String,
    now: i64,
    key: Option<PyRef<'_, PySigningKey>>,
    secret: Option<&[u8]>,
    log: Option<&str>,
    plaintext_excerpts: bool,
) -> PyResult<String> {
    let key = match (&key, secret) {
        (Some(k), None) => SignerKey::Ed25519(k.key.clone()),
        (None, Some([])) => return Err(invalid_input(py, "the secret is empty")),
        (None, Some(s)) => SignerKey::Hmac(s.to_vec()),
        _ => return Err(invalid_input(py, "give exactly one of `key` and `secret`")),
    };
    let signer = Signer {
        signed_by,
        kid,
        key,
    };
    let signed_at = Timestamp::from_unix(now).map_err(|e| invalid_input(py, e))?;
    let request = parse_request(py, request_json)?;
    let store = load_archive(py, archive_json)?;
    let opts = GateOptions {
        signer: &signer,
        signed_at: signed_at.clone(),
        plaintext_excerpts,
    };
    let gated = py.detach(|| gate(&request, &store, &opts)).map_err(|e| {
        let (code, location) = refusal(&request, &e);
        raise(
            py,
            "GateError",
            format!("the gate refused to assemble the bundle: {e}"),
            &code,
            location,
        )
    })?;
    let rungs: Vec<(String, String)> = gated.bundle["claims"]
        .as_array()
        .map(|cs| {
            cs.iter()
                .map(|c| {
                    let member = |name: &str| c[name].as_str().unwrap_or_default().to_owned();
                    (member("claim_id"), member("rung"))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut out = json!({
        "bundle": gated.bundle,
        "display": gated.display,
        "bundle_hash": gated.bundle_hash,
        "rungs": rungs,
    });
    if let Some(log) = log {
        out["log_line"] = Value::String(log_line(py, log, signed_at, gated.log_event)?);
    }
    to_json(py, &out)
}

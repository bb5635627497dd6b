//! The producer side: what an agent platform emits (ACA header, discovery document, signed
//! manifest responses; AEF evidence objects and their JWS; chain envelopes), through the same
//! signer functions as the CLI.

use citeproof_aca::emit::{EmitError, EmitOptions, emit_signed_manifest};
use citeproof_aca::sign::{
    DiscoveryConfig, ManifestSignOptions, SignError, discovery_document, emit_citation_source,
    entries_for_run,
};
use citeproof_aef::build::{EvidenceSignOptions, NewEvidence, build_evidence, sign_evidence};
use citeproof_model::Incident;
use pyo3::prelude::*;
use serde_json::Value;

use crate::errors::{from_json, invalid_input, raise, to_json};
use crate::keys::PySigningKey;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_functions!(
        m,
        aca_sign_manifest,
        aca_citation_source,
        aca_discovery_document,
        aef_new_evidence,
        aef_sign_evidence,
        chain_claim_id,
        chain_sign
    );
    Ok(())
}

/// `(status, headers, body)` of a signed response.
type StoredResponse = (u16, Vec<(String, String)>, Vec<u8>);

fn sign_error(py: Python<'_>, e: &SignError) -> PyErr {
    raise(py, "SignError", e.to_string(), e.code(), None)
}

fn first_location(incidents: &[Incident]) -> Option<String> {
    incidents.first().and_then(|i| i.location.pointer.clone())
}

/// The signed manifest response (RFC 9421, Ed25519) of `manifest_json`: `(status, headers,
/// body)`. The manifest is bound to `response_url` when given and must pass the document checks.
#[pyfunction]
#[pyo3(signature = (manifest_json, key, keyid, created, expires=None, response_url=None, allow_invalid=false))]
#[allow(clippy::too_many_arguments)]
fn aca_sign_manifest(
    py: Python<'_>,
    manifest_json: &str,
    key: &PySigningKey,
    keyid: String,
    created: i64,
    expires: Option<i64>,
    response_url: Option<String>,
    allow_invalid: bool,
) -> PyResult<StoredResponse> {
    // Parsing, canonicalizing and signing a large manifest: without the GIL.
    let manifest = py.detach(|| citeproof_model::json::parse_strict(manifest_json.as_bytes()));
    let manifest = manifest.map_err(|e| {
        let i = e.to_incident();
        raise(
            py,
            "InvalidDocumentError",
            i.message.clone(),
            i.code.as_str(),
            i.location.pointer.clone(),
        )
    })?;
    let options = EmitOptions {
        sign: ManifestSignOptions {
            keyid,
            created,
            expires,
        },
        response_url,
        allow_invalid,
    };
    match py.detach(|| emit_signed_manifest(manifest, &key.key, &options)) {
        Ok(r) => Ok((r.status, r.headers, r.body)),
        Err(e @ EmitError::Invalid(_)) => Err(raise(
            py,
            "InvalidDocumentError",
            e.to_string(),
            e.code(),
            e.pointer(),
        )),
        Err(e) => Err(raise(py, "SignError", e.to_string(), e.code(), e.pointer())),
    }
}

/// The `Citation-Source` field value of a run: one entry per source, all naming the manifest.
#[pyfunction]
#[pyo3(signature = (sources, manifest_url, run_id=None))]
fn aca_citation_source(
    py: Python<'_>,
    sources: Vec<String>,
    manifest_url: &str,
    run_id: Option<&str>,
) -> PyResult<String> {
    let entries =
        entries_for_run(&sources, manifest_url, run_id).map_err(|e| sign_error(py, &e))?;
    emit_citation_source(&entries).map_err(|e| sign_error(py, &e))
}

/// The discovery document (ACA-DISC), as JSON text, publishing the public halves of `keys`.
#[pyfunction]
#[pyo3(signature = (manifest_schema, contact, keys, jwks_uri=None, manifest_origins=Vec::new()))]
fn aca_discovery_document(
    py: Python<'_>,
    manifest_schema: String,
    contact: String,
    keys: Vec<(String, PyRef<'_, PySigningKey>)>,
    jwks_uri: Option<String>,
    manifest_origins: Vec<String>,
) -> PyResult<String> {
    let config = DiscoveryConfig {
        manifest_schema,
        contact,
        keys: keys
            .iter()
            .map(|(kid, k)| (kid.clone(), k.key.verifying_key()))
            .collect(),
        jwks_uri,
        manifest_origins,
    };
    let doc = discovery_document(&config).map_err(|e| sign_error(py, &e))?;
    to_json(py, &doc)
}

fn text(fields: &Value, name: &str) -> Option<String> {
    fields.get(name).and_then(Value::as_str).map(str::to_owned)
}

fn vocabulary<T: serde::de::DeserializeOwned>(
    py: Python<'_>,
    fields: &Value,
    name: &str,
) -> PyResult<Option<T>> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => serde_json::from_value(v.clone())
            .map(Some)
            .map_err(|e| invalid_input(py, format!("`{name}`: {e}"))),
    }
}

/// A Level-1-valid AEF evidence object whose `exact_text` and `content_hash` are computed from
/// `body` (served as `media_type`) under the selector of `fields_json`, as JSON text.
#[pyfunction]
fn aef_new_evidence(
    py: Python<'_>,
    fields_json: &str,
    media_type: &str,
    body: &[u8],
) -> PyResult<String> {
    let f = from_json(py, fields_json, "fields")?;
    let required = |name: &str| {
        text(&f, name).ok_or_else(|| invalid_input(py, format!("`{name}` (a string) is required")))
    };
    let selector_type = vocabulary(py, &f, "selector_type")?
        .ok_or_else(|| invalid_input(py, "`selector_type` is required"))?;
    let mut n = NewEvidence::new(
        required("evidence_id")?,
        required("claim_text")?,
        required("source_uri")?,
        required("fetched_at")?,
        selector_type,
        text(&f, "selector_value"),
    );
    if let Some(v) = vocabulary(py, &f, "source_type")? {
        n.source_type = v;
    }
    if let Some(v) = vocabulary(py, &f, "retrieval_method")? {
        n.retrieval_method = v;
    }
    if let Some(v) = vocabulary(py, &f, "synthesis_role")? {
        n.synthesis_role = v;
    }
    n.title = text(&f, "title");
    n.publisher = text(&f, "publisher");
    n.published_at = text(&f, "published_at");
    n.quote = text(&f, "quote");
    n.surrounding_context = text(&f, "surrounding_context");
    n.confidence = f.get("confidence").and_then(Value::as_f64);
    n.rank = f.get("rank").and_then(Value::as_u64);
    n.freshness_age_seconds = f.get("freshness_age_seconds").and_then(Value::as_u64);
    n.retriever_id = text(&f, "retriever_id");
    n.notes = text(&f, "notes");
    n.signed_by = text(&f, "signed_by");
    n.signing_key_uri = text(&f, "signing_key_uri");
    let built = py.detach(|| build_evidence(&n, media_type, body));
    match built {
        Ok(doc) => to_json(py, &doc),
        Err(e) => {
            let location = match &e {
                citeproof_aef::build::EvidenceError::Invalid(list) => first_location(list),
                _ => None,
            };
            Err(raise(
                py,
                "EvidenceError",
                e.to_string(),
                e.code(),
                location,
            ))
        }
    }
}

/// `evidence_json` with `verification.signature` set to a detached JWS (AEF-5-003), as JSON text.
#[pyfunction]
#[pyo3(signature = (evidence_json, key, kid=None, signed_by=None, signing_key_uri=None))]
fn aef_sign_evidence(
    py: Python<'_>,
    evidence_json: &str,
    key: &PySigningKey,
    kid: Option<String>,
    signed_by: Option<String>,
    signing_key_uri: Option<String>,
) -> PyResult<String> {
    let evidence = from_json(py, evidence_json, "evidence")?;
    let options = EvidenceSignOptions {
        kid,
        signed_by,
        signing_key_uri,
    };
    let signed = py
        .detach(|| sign_evidence(&evidence, &key.key, &options))
        .map_err(|e| raise(py, "EvidenceError", e.to_string(), e.code(), None))?;
    to_json(py, &signed)
}

/// The content-addressed claim id of CHAIN-002.
#[pyfunction]
fn chain_claim_id(vertical: &str, subject: &str, predicate: &str, object: &str) -> String {
    citeproof_chain::id::claim_id(vertical, subject, predicate, object)
}

/// Builds and signs the envelope of the claim in `claim_json` with an HMAC-SHA256 `secret`
/// (bytes, UTF-8) or an Ed25519 `key`: `(envelope_json, claim_id, signature)`.
#[pyfunction]
#[pyo3(signature = (claim_json, signed_by, signed_at, secret=None, key=None, canonical_base=None, methodology=None))]
#[allow(clippy::too_many_arguments)]
fn chain_sign(
    py: Python<'_>,
    claim_json: &str,
    signed_by: String,
    signed_at: String,
    secret: Option<&[u8]>,
    key: Option<PyRef<'_, PySigningKey>>,
    canonical_base: Option<String>,
    methodology: Option<String>,
) -> PyResult<(String, String, String)> {
    let secret_text;
    let sign_key = match (secret, &key) {
        (Some(s), None) => {
            secret_text = std::str::from_utf8(s).map_err(|_| {
                invalid_input(
                    py,
                    "an HMAC secret must be UTF-8 text (the seed signs its UTF-8 bytes)",
                )
            })?;
            citeproof_chain::SignKey::Hmac(secret_text)
        }
        (None, Some(k)) => citeproof_chain::SignKey::Ed25519(&k.key),
        _ => return Err(invalid_input(py, "give exactly one of `secret` and `key`")),
    };
    let options = citeproof_chain::SignOptions {
        signed_by,
        signed_at,
        canonical_base,
        methodology,
    };
    match py.detach(|| citeproof_chain::sign(claim_json.as_bytes(), sign_key, &options)) {
        Ok(s) => Ok((s.envelope, s.claim_id, s.signature)),
        Err(e) => {
            let incidents = e.incidents();
            let code = incidents
                .first()
                .map_or("chain-sign-refused", |i| i.code.as_str());
            Err(raise(
                py,
                "SignError",
                e.to_string(),
                code,
                first_location(&incidents),
            ))
        }
    }
}

//! The signed manifest response (ACA Level 3): the manifest's JCS bytes as the body, with
//! `Content-Type`, an RFC 9530 `Content-Digest` and an RFC 9421 signature (Ed25519,
//! `alg="ed25519"`) covering `@status`, `content-type` and `content-digest`, with `created` and
//! `keyid` (ACA-L3-007 to -014).
//!
//! Ed25519 is deterministic (RFC 8032), so the same manifest, key, `keyid` and `created` always
//! give the same bytes: conformance vectors check the output byte for byte.

use citeproof_httpsig::{
    ComponentId, Message, Response, SignatureParams, content_digest_sha256, sign,
};
use citeproof_jose::SigningKey;
use citeproof_model::aca::Manifest;
use citeproof_model::jcs::canonicalize;
use serde::Serialize;
use serde_json::Value;

use super::error::{InputRefusal, SignError};

/// The label of the signature.
pub const SIGNATURE_LABEL: &str = "sig1";

/// A response exactly as it must be served.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignedResponse {
    pub status: u16,
    /// Header fields in order: `content-type`, `content-digest`, `signature-input`,
    /// `signature` (lowercase names, as HTTP/2 and HTTP/3 send them).
    pub headers: Vec<(String, String)>,
    /// The body bytes (JCS of the manifest).
    #[serde(skip)]
    pub body: Vec<u8>,
    /// The signature base that was signed.
    #[serde(skip)]
    pub signature_base: String,
}

impl SignedResponse {
    /// The body as text (JCS is UTF-8).
    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// What to sign with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestSignOptions {
    /// `keyid`: the `kid` of the key in the discovery document.
    pub keyid: String,
    /// `created`, Unix seconds.
    pub created: i64,
    /// `expires`, Unix seconds, if any.
    pub expires: Option<i64>,
}

fn sig_err(e: citeproof_httpsig::HttpSigError) -> SignError {
    SignError::HttpSig(e.to_string())
}

/// Signs a manifest given as a JSON value (any JSON object; it is not validated here).
pub fn sign_manifest_value(
    manifest: &Value,
    key: &SigningKey,
    opts: &ManifestSignOptions,
) -> Result<SignedResponse, SignError> {
    if !manifest.is_object() {
        return Err(SignError::InvalidDocument(
            "a manifest must be a JSON object".into(),
        ));
    }
    if opts.keyid.is_empty() {
        return Err(InputRefusal::InvalidValue {
            what: "keyid",
            reason: "must not be empty".into(),
        }
        .into());
    }
    if let Some(expires) = opts.expires
        && expires <= opts.created
    {
        return Err(InputRefusal::InvalidValue {
            what: "expires",
            reason: "must be after created".into(),
        }
        .into());
    }
    let body = canonicalize(manifest);
    let mut response = Response::new(200).map_err(sig_err)?;
    response
        .headers
        .push("content-type", "application/json")
        .map_err(sig_err)?;
    response
        .headers
        .push("content-digest", &content_digest_sha256(&body))
        .map_err(sig_err)?;
    response.body = body;
    let mut message = Message::Response(response);
    let mut params = SignatureParams::new(vec![
        ComponentId::new("@status").map_err(sig_err)?,
        ComponentId::new("content-type").map_err(sig_err)?,
        ComponentId::new("content-digest").map_err(sig_err)?,
    ])
    .with_created(opts.created)
    .with_keyid(&opts.keyid)
    .with_alg("ed25519");
    if let Some(expires) = opts.expires {
        params = params.with_expires(expires);
    }
    let dalek = citeproof_httpsig::SigningKey::from_bytes(&key.secret_bytes());
    let signed = sign(&message, SIGNATURE_LABEL, &params, &dalek).map_err(sig_err)?;
    let fields = message.headers_mut();
    fields
        .push("signature-input", &signed.signature_input)
        .map_err(sig_err)?;
    fields
        .push("signature", &signed.signature)
        .map_err(sig_err)?;
    let headers = message
        .headers()
        .iter()
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect();
    Ok(SignedResponse {
        status: 200,
        headers,
        body: message.body().to_vec(),
        signature_base: signed.signature_base,
    })
}

/// Signs a typed manifest.
pub fn sign_manifest(
    manifest: &Manifest,
    key: &SigningKey,
    opts: &ManifestSignOptions,
) -> Result<SignedResponse, SignError> {
    let value =
        serde_json::to_value(manifest).map_err(|e| SignError::InvalidDocument(e.to_string()))?;
    sign_manifest_value(&value, key, opts)
}

/// The unsigned manifest response of Level 2: JCS body and `Content-Type` only.
pub fn unsigned_manifest_response(manifest: &Manifest) -> Result<SignedResponse, SignError> {
    let value =
        serde_json::to_value(manifest).map_err(|e| SignError::InvalidDocument(e.to_string()))?;
    Ok(SignedResponse {
        status: 200,
        headers: vec![("content-type".into(), "application/json".into())],
        body: canonicalize(&value),
        signature_base: String::new(),
    })
}

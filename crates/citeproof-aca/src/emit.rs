//! The producer's path from a manifest document to its signed response, shared by
//! `citeproof aca sign` and the Python package (`citeproof.aca.sign_manifest`), so that the two
//! cannot disagree on what is signed: the response URL written into the manifest before signing
//! (ACA-L2-024, never silently re-bound), the manifest checked by the same document validation
//! as `aca-manifest-validate` (unless the caller builds a test case on purpose), then the RFC 9421
//! signed response of [`sign_manifest_value`].

use citeproof_jose::SigningKey;
use citeproof_model::{Incident, Severity};
use serde_json::Value;

use crate::sign::{ManifestSignOptions, SignError, SignedResponse, sign_manifest_value};
use crate::validate_manifest_value;

/// What to sign and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmitOptions {
    pub sign: ManifestSignOptions,
    /// The URL the agent response is served at, written into the manifest as `response_url`.
    pub response_url: Option<String>,
    /// Sign even a manifest that breaks profile rules (for building test cases).
    pub allow_invalid: bool,
}

/// Why a manifest was not signed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EmitError {
    #[error("the response URL `{url}` is not a web URL: {problem}")]
    ResponseUrl { url: String, problem: String },
    #[error("a manifest must be a JSON object")]
    NotObject,
    #[error("the manifest already names the response {named}; refusing to re-bind it to `{url}`")]
    AlreadyBound { named: String, url: String },
    #[error("not a valid manifest: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<Incident>),
    #[error("{0}")]
    Sign(#[from] SignError),
}

impl EmitError {
    /// Stable code: the registry code of the first error where there is one.
    pub fn code(&self) -> &'static str {
        match self {
            EmitError::ResponseUrl { .. } => "aca-url-invalid",
            EmitError::NotObject => "schema-violation",
            EmitError::AlreadyBound { .. } => "aca-response-url-mismatch",
            EmitError::Invalid(incidents) => incidents
                .first()
                .map_or("schema-violation", |i| i.code.as_str()),
            EmitError::Sign(e) => e.code(),
        }
    }

    /// Where in the manifest, as a JSON pointer, when known.
    pub fn pointer(&self) -> Option<String> {
        match self {
            EmitError::AlreadyBound { .. } => Some("/response_url".into()),
            EmitError::Invalid(incidents) => {
                incidents.first().and_then(|i| i.location.pointer.clone())
            }
            _ => None,
        }
    }
}

/// Writes `response_url` into the manifest (ACA-L2-024); a manifest that already names another
/// response is refused, one that names this one (by URL equality) is kept as it is.
pub fn bind_response_url(manifest: &mut Value, url: &str) -> Result<(), EmitError> {
    if let Some(problem) = citeproof_model::weburl::web_url_problem(url) {
        return Err(EmitError::ResponseUrl {
            url: url.to_owned(),
            problem,
        });
    }
    let Some(obj) = manifest.as_object_mut() else {
        return Err(EmitError::NotObject);
    };
    match obj.get("response_url") {
        Some(Value::String(named)) if citeproof_model::weburl::urls_equal(named, url) => {}
        Some(other) => {
            return Err(EmitError::AlreadyBound {
                named: other.to_string(),
                url: url.to_owned(),
            });
        }
        None => {
            obj.insert("response_url".into(), Value::String(url.into()));
        }
    }
    Ok(())
}

/// The error-severity findings of the manifest's document validation.
pub fn signing_blockers(manifest: &Value) -> Vec<Incident> {
    validate_manifest_value(manifest)
        .into_iter()
        .filter(|i| i.severity == Severity::Error)
        .collect()
}

/// Binds and checks: the manifest that will be signed, or why none will be.
pub fn prepare_for_signing(
    mut manifest: Value,
    response_url: Option<&str>,
    allow_invalid: bool,
) -> Result<Value, EmitError> {
    if let Some(url) = response_url {
        bind_response_url(&mut manifest, url)?;
    }
    let blockers = signing_blockers(&manifest);
    if !blockers.is_empty() && !allow_invalid {
        return Err(EmitError::Invalid(blockers));
    }
    Ok(manifest)
}

/// Binds, checks and signs: the one path from a manifest to its signed response.
pub fn emit_signed_manifest(
    manifest: Value,
    key: &SigningKey,
    options: &EmitOptions,
) -> Result<SignedResponse, EmitError> {
    let manifest = prepare_for_signing(
        manifest,
        options.response_url.as_deref(),
        options.allow_invalid,
    )?;
    Ok(sign_manifest_value(&manifest, key, &options.sign)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_bound_manifest_is_not_rebound() {
        let mut m = json!({"response_url": "https://a.example/r/1"});
        assert!(bind_response_url(&mut m, "https://a.example/r/1").is_ok());
        let e = bind_response_url(&mut m, "https://b.example/r/1").unwrap_err();
        assert_eq!(e.code(), "aca-response-url-mismatch");
        assert_eq!(m["response_url"], "https://a.example/r/1");
    }

    #[test]
    fn a_non_web_url_is_refused_and_an_invalid_manifest_is_not_signed() {
        let mut m = json!({});
        assert!(matches!(
            bind_response_url(&mut m, "ftp://a.example/x"),
            Err(EmitError::ResponseUrl { .. })
        ));
        let key = SigningKey::from_secret_bytes(&[1u8; 32]);
        let opts = EmitOptions {
            sign: ManifestSignOptions {
                keyid: "k".into(),
                created: 1,
                expires: None,
            },
            response_url: None,
            allow_invalid: false,
        };
        assert!(matches!(
            emit_signed_manifest(json!({"claims": []}), &key, &opts),
            Err(EmitError::Invalid(_))
        ));
    }
}

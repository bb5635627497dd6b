//! The discovery document `/.well-known/agent-citation-attribution` (ACA-DISC-001 to -004) and
//! the key files of `citeproof keygen`.

use citeproof_jose::{KeyEntry, KeySet, SigningKey, VerifyingKey};
use citeproof_model::aca::Discovery;
use citeproof_model::jwk::JwkSet;
use citeproof_model::{Extensions, HttpUrl};

use super::error::{InputRefusal, SignError, key_error};

/// Path of the discovery document on the agent's origin.
pub const DISCOVERY_PATH: &str = "/.well-known/agent-citation-attribution";

/// What the discovery document says.
#[derive(Debug, Clone)]
pub struct DiscoveryConfig {
    /// URL of the agent's manifest schema.
    pub manifest_schema: String,
    /// Email address, web URL or `mailto:` URI for verification disputes.
    pub contact: String,
    /// Public keys published inline, with their `kid`s.
    pub keys: Vec<(String, VerifyingKey)>,
    /// An https URL of a JWK Set with more keys.
    pub jwks_uri: Option<String>,
    /// Other origins that host this agent's manifests (ACA-DISC-006).
    pub manifest_origins: Vec<String>,
}

/// The JWK Set of `keys` (RFC 8037 public JWKs with `kid`, `alg` `EdDSA`, `use` `sig`).
pub fn jwk_set(keys: &[(String, VerifyingKey)]) -> Result<JwkSet, SignError> {
    let entries = keys
        .iter()
        .map(|(kid, key)| KeyEntry {
            kid: Some(kid.clone()),
            key: *key,
        })
        .collect();
    let set = KeySet::new(entries).map_err(|e| key_error(&e))?;
    Ok(set.to_jwk_set())
}

/// The discovery document: version `1.0`, `supported_signing` `["http-message-signatures"]`.
pub fn discovery_document(config: &DiscoveryConfig) -> Result<Discovery, SignError> {
    InputRefusal::check_web_url(&config.manifest_schema)?;
    if config.contact.is_empty() {
        return Err(InputRefusal::InvalidValue {
            what: "contact",
            reason: "must not be empty".into(),
        }
        .into());
    }
    let keys = if config.keys.is_empty() {
        None
    } else {
        for (kid, _) in &config.keys {
            if kid.is_empty() {
                return Err(InputRefusal::InvalidValue {
                    what: "kid",
                    reason: "published keys need a kid".into(),
                }
                .into());
            }
        }
        Some(jwk_set(&config.keys)?)
    };
    let jwks_uri = match &config.jwks_uri {
        None => None,
        Some(u) => {
            InputRefusal::check_web_url(u)?;
            if !u.to_ascii_lowercase().starts_with("https://") {
                return Err(InputRefusal::InvalidUrl {
                    value: u.clone(),
                    reason: "jwks_uri must use https".into(),
                }
                .into());
            }
            Some(
                HttpUrl::parse(u).map_err(|reason| InputRefusal::InvalidUrl {
                    value: u.clone(),
                    reason,
                })?,
            )
        }
    };
    if keys.is_none() && jwks_uri.is_none() {
        return Err(InputRefusal::InvalidValue {
            what: "discovery document",
            reason: "publish keys inline or through jwks_uri".into(),
        }
        .into());
    }
    Ok(Discovery {
        version: "1.0".into(),
        manifest_schema: HttpUrl::parse(&config.manifest_schema).map_err(|reason| {
            InputRefusal::InvalidUrl {
                value: config.manifest_schema.clone(),
                reason,
            }
        })?,
        supported_signing: vec!["http-message-signatures".into()],
        contact: config.contact.clone(),
        keys,
        jwks_uri,
        manifest_origins: (!config.manifest_origins.is_empty())
            .then(|| config.manifest_origins.clone()),
        extensions: Extensions::default(),
    })
}

/// The three files of `citeproof keygen`: PKCS#8 private PEM, SPKI public PEM and a JWK Set.
#[derive(Debug, Clone)]
pub struct KeyFiles {
    pub private_pem: String,
    pub public_pem: String,
    /// Pretty-printed JWK Set with one key, ending in LF.
    pub jwks_json: String,
}

/// A fresh Ed25519 key (OS RNG).
pub fn generate_key() -> Result<SigningKey, SignError> {
    SigningKey::generate().map_err(|e| key_error(&e))
}

/// The key files of `key` with `kid`.
pub fn key_files(key: &SigningKey, kid: &str) -> Result<KeyFiles, SignError> {
    let private_pem = key.to_pkcs8_pem().map_err(|e| key_error(&e))?.to_string();
    let public = key.verifying_key();
    let public_pem = public.to_spki_pem().map_err(|e| key_error(&e))?;
    let set = jwk_set(&[(kid.to_owned(), public)])?;
    let mut jwks_json = serde_json::to_string_pretty(&set)
        .map_err(|e| SignError::InvalidDocument(e.to_string()))?;
    jwks_json.push('\n');
    Ok(KeyFiles {
        private_pem,
        public_pem,
        jwks_json,
    })
}

/// Reads a private key file: PKCS#8 PEM or a private JWK.
pub fn load_signing_key(bytes: &[u8]) -> Result<SigningKey, SignError> {
    citeproof_jose::load_signing_key(bytes).map_err(|e| key_error(&e))
}

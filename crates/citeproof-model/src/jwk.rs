//! JSON Web Keys (RFC 7517) for Ed25519 public keys (RFC 8037 `OKP`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A JWK Set: `{"keys": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct JwkSet {
    pub keys: Vec<Jwk>,
}

/// One JWK. Only OKP/Ed25519 is used by citeproof; other members are kept but ignored
/// (RFC 7517 §4: unknown members MUST be ignored).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Jwk {
    /// Key type; `OKP` for Ed25519.
    pub kty: String,
    /// Curve; `Ed25519`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crv: Option<String>,
    /// Public key, base64url without padding (32 bytes for Ed25519).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alg: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "use")]
    pub key_use: Option<String>,
    /// Private key. A published key set that contains it is an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d: Option<String>,
    #[serde(flatten)]
    #[schemars(skip)]
    pub other: Map<String, Value>,
}

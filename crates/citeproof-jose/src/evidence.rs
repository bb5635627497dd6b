//! The AI Evidence Format v0.1 signing input (§5 "Canonicalization rules").

use serde_json::Value;

use citeproof_model::jcs::canonicalize;

use crate::error::JoseError;

/// The bytes an AEF evidence signature covers: the RFC 8785 (JCS) form of `evidence` with
/// `verification.signature` and `verification.signing_key_uri` removed (AEF v0.1 §5; every
/// other member, including `verification.content_hash` and `verification.signed_by`, stays).
///
/// `evidence` must be a JSON object, and its `verification`, when present, an object
/// (`jws-signing-input-invalid` otherwise). A document without `verification` is canonicalized
/// whole (schema validation, not this function, reports the missing member).
pub fn evidence_signing_input(evidence: &Value) -> Result<Vec<u8>, JoseError> {
    let Value::Object(document) = evidence else {
        return Err(JoseError::JwsSigningInputInvalid {
            reason: "an evidence document must be a JSON object".into(),
        });
    };
    let mut document = document.clone();
    match document.get_mut("verification") {
        None => {}
        Some(Value::Object(verification)) => {
            verification.remove("signature");
            verification.remove("signing_key_uri");
        }
        Some(_) => {
            return Err(JoseError::JwsSigningInputInvalid {
                reason: "`verification` must be a JSON object".into(),
            });
        }
    }
    Ok(canonicalize(&Value::Object(document)))
}

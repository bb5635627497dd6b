//! Canonical forms: RFC 8785 JCS and content hashes (profile JSON-001, JSON-002, CANON-001,
//! CANON-003).

use serde_json::json;

use citeproof_model::operation_input;
use citeproof_model::protocol::Reply;
use citeproof_model::spec::{Base64, Operation, OperationInput, Optional, Spec, SpecDescriptor};

/// The core spec: canonical forms and content hashes; no document kind of its own.
pub const SPEC: SpecDescriptor = SpecDescriptor {
    spec: Spec::Canon,
    documents: &[],
    operations: &[
        Operation::new::<JcsCanonicalize>(&["canonical"]),
        Operation::new::<HashBytes>(&["hash"]),
        Operation::new::<HashAefText>(&["hash"]),
    ],
};

/// Incident code for AEF §5 input that is not UTF-8 (CANON-003 b).
const TEXT_NOT_UTF8: &str = "canon-text-not-utf8";

operation_input! {
    /// `jcs-canonicalize`: exactly one of `json` (the text) and `json_base64` (its bytes).
    struct JcsCanonicalize = "jcs-canonicalize" {
        #[serde(default)]
        json: Optional<String>,
        #[serde(default)]
        json_base64: Optional<Base64>,
    }
}

impl OperationInput for JcsCanonicalize {
    const EXACTLY_ONE: &'static [&'static [&'static str]] = &[&["json", "json_base64"]];

    fn run(self) -> Reply {
        let bytes = match (self.json.0, self.json_base64.0) {
            (Some(text), None) => text.into_bytes(),
            (None, Some(Base64(bytes))) => bytes,
            _ => return Reply::errored("bad input: give exactly one of `json`, `json_base64`"),
        };
        match citeproof_model::jcs::canonicalize_json(&bytes) {
            Ok(canonical) => match String::from_utf8(canonical) {
                Ok(text) => Reply::valid(Some(json!({ "canonical": text }))),
                Err(_) => Reply::errored("internal error: canonical form is not UTF-8"),
            },
            Err(e) => Reply::invalid(vec![e.code.as_str().to_owned()]),
        }
    }
}

operation_input! {
    /// `hash-bytes`: the bytes.
    struct HashBytes = "hash-bytes" {
        data_base64: Base64,
    }
}

impl OperationInput for HashBytes {
    fn run(self) -> Reply {
        let hash = citeproof_model::sha256_bytes(&self.data_base64.0);
        Reply::valid(Some(json!({ "hash": hash.to_string() })))
    }
}

operation_input! {
    /// `hash-aef-text`: the bytes of a text.
    struct HashAefText = "hash-aef-text" {
        data_base64: Base64,
    }
}

impl OperationInput for HashAefText {
    fn run(self) -> Reply {
        match citeproof_model::aef_text_hash(&self.data_base64.0) {
            Ok(hash) => Reply::valid(Some(json!({ "hash": hash.to_string() }))),
            Err(_) => Reply::invalid(vec![TEXT_NOT_UTF8.to_owned()]),
        }
    }
}

//! Canonical forms: RFC 8785 JCS and content hashes (profile JSON-001, JSON-002, CANON-001,
//! CANON-003).

use serde_json::{Value, json};

use citeproof_model::protocol::{Reply, base64_member, str_member};
use citeproof_model::spec::{Operation, Spec, SpecDescriptor};

/// The core spec: canonical forms and content hashes; no document kind of its own.
pub const SPEC: SpecDescriptor = SpecDescriptor {
    spec: Spec::Canon,
    documents: &[],
    operations: &[
        Operation::new(
            "jcs-canonicalize",
            &["json|json_base64"],
            &[],
            &["canonical"],
            jcs_canonicalize,
        ),
        Operation::new("hash-bytes", &["data_base64"], &[], &["hash"], hash_bytes),
        Operation::new(
            "hash-aef-text",
            &["data_base64"],
            &[],
            &["hash"],
            hash_aef_text,
        ),
    ],
};

/// Incident code for AEF §5 input that is not UTF-8 (CANON-003 b).
const TEXT_NOT_UTF8: &str = "canon-text-not-utf8";

fn jcs_canonicalize(input: &Value) -> Reply {
    let bytes = if input.get("json_base64").is_some() {
        match base64_member(input, "json_base64") {
            Ok(b) => b,
            Err(r) => return r,
        }
    } else {
        match str_member(input, "json") {
            Ok(s) => s.as_bytes().to_vec(),
            Err(r) => return r,
        }
    };
    match citeproof_model::jcs::canonicalize_json(&bytes) {
        Ok(canonical) => match String::from_utf8(canonical) {
            Ok(text) => Reply::valid(Some(json!({ "canonical": text }))),
            Err(_) => Reply::errored("internal error: canonical form is not UTF-8"),
        },
        Err(e) => Reply::invalid(vec![e.code.as_str().to_owned()]),
    }
}

fn hash_bytes(input: &Value) -> Reply {
    match base64_member(input, "data_base64") {
        Ok(data) => Reply::valid(Some(
            json!({ "hash": citeproof_model::sha256_bytes(&data).to_string() }),
        )),
        Err(r) => r,
    }
}

fn hash_aef_text(input: &Value) -> Reply {
    let data = match base64_member(input, "data_base64") {
        Ok(d) => d,
        Err(r) => return r,
    };
    match citeproof_model::aef_text_hash(&data) {
        Ok(hash) => Reply::valid(Some(json!({ "hash": hash.to_string() }))),
        Err(_) => Reply::invalid(vec![TEXT_NOT_UTF8.to_owned()]),
    }
}

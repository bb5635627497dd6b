//! AI Evidence Format operations (docs/ADAPTER.md §5.3).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use citeproof_model::aef::Span;
use citeproof_model::spec::{DocumentRule, Operation, Spec, SpecDescriptor};
use citeproof_model::{ContentHash, Incident, Severity};

use crate::build::{EvidenceSignOptions, sign_evidence};
use crate::signature::{KeySource, check as check_signature};
use crate::{VerifyOptions, verify_with_resources};
use serde_json::{Value, json};

use citeproof_model::protocol::{
    Answer, Reply, ResultReply, bad_input as bad, from_incidents, resources_member, str_member,
};

/// What this crate tells the workspace: its document checks and its operations (docs/ADAPTER.md,
/// section 5: input members, output members, the reference's implementation).
pub const SPEC: SpecDescriptor = SpecDescriptor {
    spec: Spec::Aef,
    documents: &[DocumentRule::new("aef-evidence", crate::validate)],
    operations: &[
        Operation::new("aef-validate", &["document"], &[], &[], aef_validate),
        Operation::new(
            "aef-verify-span",
            &["evidence", "source"],
            &[],
            &["exact_text", "content_hash"],
            aef_verify_span,
        ),
        Operation::new(
            "aef-jws-sign",
            &["evidence", "private_jwk"],
            &["kid"],
            &["signature"],
            aef_jws_sign,
        ),
        Operation::new(
            "aef-jws-verify",
            &["evidence", "key_document"],
            &[],
            &[],
            aef_jws_verify,
        ),
        Operation::new(
            "aef-verify",
            &["document", "resources", "now", "required_level"],
            &["trusted_key_uris"],
            &["level"],
            aef_verify,
        ),
    ],
};

/// A JSON document given either as raw text (a string) or as a JSON value.
fn document_bytes(input: &Value, name: &str) -> Result<Vec<u8>, Reply> {
    match input.get(name) {
        Some(Value::String(text)) => Ok(text.as_bytes().to_vec()),
        Some(v @ Value::Object(_)) => serde_json::to_vec(v).map_err(|e| bad(e.to_string())),
        _ => Err(bad(format!("`{name}` must be a JSON object or its text"))),
    }
}

fn aef_validate(input: &Value) -> Reply {
    match str_member(input, "document") {
        Ok(text) => {
            let incidents = match citeproof_model::json::parse_strict(text.as_bytes()) {
                Ok(value) => crate::validate(&value),
                Err(e) => vec![e.to_incident()],
            };
            from_incidents(&incidents, None)
        }
        Err(r) => r,
    }
}

fn aef_verify_span(input: &Value) -> Reply {
    let Some(evidence) = input.get("evidence").filter(|v| v.is_object()) else {
        return bad("`evidence` must be a JSON object");
    };
    let span: Span = match evidence
        .get("span")
        .map(|s| serde_json::from_value(s.clone()))
    {
        Some(Ok(span)) => span,
        Some(Err(e)) => return bad(format!("`evidence.span` is not an AEF span: {e}")),
        None => return bad("`evidence.span` is required"),
    };
    let declared: ContentHash = match evidence
        .pointer("/verification/content_hash")
        .and_then(Value::as_str)
        .map(str::parse)
    {
        Some(Ok(h)) => h,
        _ => return bad("`evidence.verification.content_hash` must be a content hash"),
    };
    let Some(source) = input.get("source") else {
        return bad("`source` is required");
    };
    let media_type = match source.get("media_type").and_then(Value::as_str) {
        Some(m) => m,
        None => return bad("`source.media_type` must be a string"),
    };
    let body = match source
        .get("body_base64")
        .and_then(Value::as_str)
        .map(|b| STANDARD.decode(b))
    {
        Some(Ok(b)) => b,
        _ => return bad("`source.body_base64` must be standard base64"),
    };
    // Level 1's vocabulary rule first: a landing-page selector type is not an AEF selector.
    if let Some(incident) = crate::span::vocabulary_problem(&span, crate::Vocabulary::Spec) {
        return from_incidents(&[incident], None);
    }
    let mut incidents: Vec<Incident> = Vec::new();
    incidents.extend(crate::span::check_exact_text_hash(&span, declared));
    let (resolved, computed) = crate::span::check_resolved(&span, declared, media_type, &body);
    incidents.extend(resolved);
    let output = computed.map(|c| {
        json!({
            "exact_text": c.exact_text,
            "content_hash": c.content_hash.to_string(),
        })
    });
    from_incidents(&incidents, output)
}

fn aef_jws_sign(input: &Value) -> Reply {
    let Some(evidence) = input.get("evidence").filter(|v| v.is_object()) else {
        return bad("`evidence` must be a JSON object");
    };
    let key_bytes = match document_bytes(input, "private_jwk") {
        Ok(b) => b,
        Err(r) => return r,
    };
    let key = match citeproof_jose::load_signing_key(&key_bytes) {
        Ok(k) => k,
        Err(e) => return bad(format!("`private_jwk`: {e}")),
    };
    let kid = match input.get("kid") {
        None => None,
        Some(Value::String(k)) => Some(k.clone()),
        Some(_) => return bad("`kid` must be a string"),
    };
    let options = EvidenceSignOptions {
        kid,
        ..EvidenceSignOptions::default()
    };
    match sign_evidence(evidence, &key, &options) {
        Ok(signed) => {
            let signature = signed
                .pointer("/verification/signature")
                .cloned()
                .unwrap_or(Value::Null);
            Reply::valid(Some(json!({ "signature": signature })))
        }
        Err(e) => bad(e.to_string()),
    }
}

fn aef_jws_verify(input: &Value) -> Reply {
    let Some(evidence) = input.get("evidence").filter(|v| v.is_object()) else {
        return bad("`evidence` must be a JSON object");
    };
    let key_document = match document_bytes(input, "key_document") {
        Ok(b) => b,
        Err(r) => return r,
    };
    let incidents = check_signature(evidence, KeySource::Document(&key_document));
    from_incidents(&incidents, None)
}

fn aef_verify(input: &Value) -> Reply {
    let document = match str_member(input, "document") {
        Ok(d) => d,
        Err(r) => return r,
    };
    let resources = match resources_member(input, true) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let Some(now) = input.get("now").and_then(Value::as_i64) else {
        return bad("`now` must be an integer");
    };
    let required = match input.get("required_level").and_then(Value::as_u64) {
        Some(n @ 1..=3) => n as u8,
        _ => return bad("`required_level` must be 1, 2 or 3"),
    };
    let trusted_key_uris = match input.get("trusted_key_uris") {
        None => Vec::new(),
        Some(Value::Array(items)) => {
            match items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<Vec<String>>>()
            {
                Some(list) => list,
                None => return bad("`trusted_key_uris` must be an array of strings"),
            }
        }
        Some(_) => return bad("`trusted_key_uris` must be an array of strings"),
    };
    let options = VerifyOptions {
        required_level: Some(required),
        trusted_key_uris,
        now: Some(now),
        ..VerifyOptions::default()
    };
    let report = verify_with_resources(document.as_bytes(), resources, &options);
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for i in &report.verdict.incidents {
        let list = match i.incident.severity {
            Severity::Error => &mut errors,
            Severity::Warning => &mut warnings,
        };
        let code = i.incident.code.as_str().to_owned();
        if !list.contains(&code) {
            list.push(code);
        }
    }
    let verified = report.verdict.verified;
    Reply::Result(ResultReply {
        result: Some(if verified {
            Answer::Valid
        } else {
            Answer::Invalid
        }),
        errors,
        warnings,
        output: verified.then(|| json!({ "level": report.verdict.level })),
    })
}

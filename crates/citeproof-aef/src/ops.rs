//! AI Evidence Format operations (docs/ADAPTER.md §5.3). Each operation reads its input into
//! one typed struct.

use std::collections::BTreeMap;

use citeproof_model::aef::Span;
use citeproof_model::snapshot::StoredResponse;
use citeproof_model::spec::{
    Base64, DocumentRule, Operation, OperationInput, Optional, RequiredLevel, Spec, SpecDescriptor,
    TextOrObject,
};
use citeproof_model::{ContentHash, Incident};
use citeproof_model::{document_operation, operation_input};
use schemars::JsonSchema;
use serde::Deserialize;

use crate::build::{EvidenceSignOptions, sign_evidence};
use crate::signature::{KeySource, check as check_signature};
use crate::{VerifyOptions, verify_with_resources};
use serde_json::{Map, Value, json};

use citeproof_model::protocol::{
    Answer, Reply, ResultReply, bad_input as bad, from_incidents, split_codes,
};

/// What this crate tells the workspace: its document checks and its operations (docs/ADAPTER.md,
/// section 5: the typed input, the output members, the reference's implementation).
pub const SPEC: SpecDescriptor = SpecDescriptor {
    spec: Spec::Aef,
    documents: &[DocumentRule::new("aef-evidence", crate::validate)],
    operations: &[
        Operation::new::<AefValidate>(&[]),
        Operation::new::<AefVerifySpan>(&["exact_text", "content_hash"]),
        Operation::new::<AefJwsSign>(&["signature"]),
        Operation::new::<AefJwsVerify>(&[]),
        Operation::new::<AefVerify>(&["level"]),
    ],
};

document_operation! {
    /// `aef-validate`: the raw JSON text of an evidence object.
    struct AefValidate = "aef-validate" => |bytes| {
        let incidents = match citeproof_model::json::parse_strict(bytes) {
            Ok(value) => crate::validate(&value),
            Err(e) => vec![e.to_incident()],
        };
        from_incidents(&incidents, None)
    }
}

operation_input! {
    /// `aef-verify-span`: an evidence object and the source it points into.
    struct AefVerifySpan = "aef-verify-span" {
        evidence: Map<String, Value>,
        source: SpanSource,
    }
}

/// The bytes of a source and their media type.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SpanSource {
    media_type: String,
    body_base64: Base64,
}

impl OperationInput for AefVerifySpan {
    fn run(self) -> Reply {
        let span: Span = match self
            .evidence
            .get("span")
            .map(|s| serde_json::from_value(s.clone()))
        {
            Some(Ok(span)) => span,
            Some(Err(e)) => return bad(format!("`evidence.span` is not an AEF span: {e}")),
            None => return bad("`evidence.span` is required"),
        };
        let declared: ContentHash = match self
            .evidence
            .get("verification")
            .and_then(|v| v.get("content_hash"))
            .and_then(Value::as_str)
            .map(str::parse)
        {
            Some(Ok(h)) => h,
            _ => return bad("`evidence.verification.content_hash` must be a content hash"),
        };
        // Level 1's vocabulary rule first: a landing-page selector type is not an AEF selector.
        if let Some(incident) = crate::span::vocabulary_problem(&span, crate::Vocabulary::Spec) {
            return from_incidents(&[incident], None);
        }
        let mut incidents: Vec<Incident> = Vec::new();
        incidents.extend(crate::span::check_exact_text_hash(&span, declared));
        let (resolved, computed) = crate::span::check_resolved(
            &span,
            declared,
            &self.source.media_type,
            &self.source.body_base64.0,
        );
        incidents.extend(resolved);
        let output = computed.map(|c| {
            json!({
                "exact_text": c.exact_text,
                "content_hash": c.content_hash.to_string(),
            })
        });
        from_incidents(&incidents, output)
    }
}

operation_input! {
    /// `aef-jws-sign`: an evidence object, the signing key (a JWK object or its text), a `kid`.
    struct AefJwsSign = "aef-jws-sign" {
        evidence: Map<String, Value>,
        private_jwk: TextOrObject,
        #[serde(default)]
        kid: Optional<String>,
    }
}

impl OperationInput for AefJwsSign {
    fn run(self) -> Reply {
        let key = match citeproof_jose::load_signing_key(&self.private_jwk.to_bytes()) {
            Ok(k) => k,
            Err(e) => return bad(format!("`private_jwk`: {e}")),
        };
        let options = EvidenceSignOptions {
            kid: self.kid.0,
            ..EvidenceSignOptions::default()
        };
        match sign_evidence(&Value::Object(self.evidence), &key, &options) {
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
}

operation_input! {
    /// `aef-jws-verify`: a signed evidence object and a key document (a JWK Set or its text).
    struct AefJwsVerify = "aef-jws-verify" {
        evidence: Map<String, Value>,
        key_document: TextOrObject,
    }
}

impl OperationInput for AefJwsVerify {
    fn run(self) -> Reply {
        let key_document = self.key_document.to_bytes();
        let evidence = Value::Object(self.evidence);
        let incidents = check_signature(&evidence, KeySource::Document(&key_document));
        from_incidents(&incidents, None)
    }
}

operation_input! {
    /// `aef-verify`: the raw JSON text of an evidence object, the recorded responses by URL and the
    /// verification's options.
    struct AefVerify = "aef-verify" {
        document: String,
        resources: BTreeMap<String, StoredResponse>,
        now: i64,
        required_level: RequiredLevel<3>,
        #[serde(default)]
        trusted_key_uris: Optional<Vec<String>>,
    }
}

impl OperationInput for AefVerify {
    fn run(self) -> Reply {
        let RequiredLevel(required) = self.required_level;
        let options = VerifyOptions {
            required_level: Some(required),
            trusted_key_uris: self.trusted_key_uris.0.unwrap_or_default(),
            now: Some(self.now),
            ..VerifyOptions::default()
        };
        let document = self.document.as_bytes();
        let resources = self.resources;
        let report = verify_with_resources(document, resources, &options);
        let (errors, warnings) = split_codes(&report.plain_incidents());
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
}

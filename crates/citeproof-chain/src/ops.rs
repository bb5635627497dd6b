//! The conformance operations of this spec (docs/ADAPTER.md §5.4), for `citeproof-reference`.
//! Each operation reads its input into one typed struct.

use citeproof_fetch::{FetchPolicy, ResourceFetcher};
use std::collections::BTreeMap;

use citeproof_model::protocol::{Answer, Reply, ResultReply, bad_input as bad, from_incidents};
use citeproof_model::snapshot::StoredResponse;
use citeproof_model::spec::{
    DocumentRule, Operation, OperationInput, Optional, RequiredLevel, Spec, SpecDescriptor,
};
use citeproof_model::{Incident, IncidentCode, Location, Severity};
use citeproof_model::{document_operation, operation_input};
use serde_json::{Map, Value, json};

use crate::keys::TrustConfig;
use crate::lossless::{self, Node};
use crate::signing::{SigningError, deployed_js, seed_python};
use crate::verify::{VerifyOptions, verify};

/// What this crate tells the workspace: its document checks and its operations (docs/ADAPTER.md,
/// section 5: the typed input, the output members, the reference's implementation).
pub const SPEC: SpecDescriptor = SpecDescriptor {
    spec: Spec::Chain,
    documents: &[
        DocumentRule::new("chain-envelope", validate_envelope),
        DocumentRule::new("chain-response", validate_response),
    ],
    operations: &[
        Operation::new::<ChainClaimId>(&["id"]),
        Operation::new::<ChainSigningInput>(&["seed_python", "deployed_js"]),
        // The seed's verdicts ("⚠ unverified", "⚠ tampered") and the unsigned members of a
        // partially signed envelope are what an invalid answer is about.
        Operation::new::<ChainVerify>(CHAIN_VERIFY_OUTPUT)
            .with_output_when_invalid(CHAIN_VERIFY_OUTPUT),
    ],
};

const CHAIN_VERIFY_OUTPUT: &[&str] = &[
    "level",
    "signing_inputs",
    "verdicts",
    "references",
    "unsigned",
];

fn validate_envelope(value: &Value) -> Vec<Incident> {
    crate::verify::validate_value(value, false)
}

fn validate_response(value: &Value) -> Vec<Incident> {
    crate::verify::validate_value(value, true)
}

operation_input! {
    /// `chain-claim-id`: a claim object.
    struct ChainClaimId = "chain-claim-id" {
        claim: Map<String, Value>,
    }
}

impl OperationInput for ChainClaimId {
    fn run(self) -> Reply {
        let bytes = match serde_json::to_vec(&self.claim) {
            Ok(b) => b,
            Err(e) => return bad(e.to_string()),
        };
        match crate::sign::claim_id_of(&bytes) {
            Ok((id, _)) => Reply::valid(Some(json!({ "id": id }))),
            Err(e) => {
                let incidents = e.incidents();
                if incidents.is_empty() {
                    bad(e.to_string())
                } else {
                    from_incidents(&incidents, None)
                }
            }
        }
    }
}

document_operation! {
    /// `chain-signing-input`: the raw JSON text of an envelope.
    struct ChainSigningInput = "chain-signing-input" => signing_inputs
}

fn signing_inputs(document: &[u8]) -> Reply {
    let node = match lossless::parse(document) {
        Ok(n) => n,
        Err(e) => return from_incidents(&[e.to_incident()], None),
    };
    let schema = |pointer: &str, message: &str| {
        from_incidents(
            &[Incident::new(
                IncidentCode::SchemaViolation,
                message,
                Location::pointer(pointer),
            )],
            None,
        )
    };
    let Some(claim @ Node::Object(_)) = node.get("claim") else {
        return schema("/claim", "`claim` must be an object");
    };
    let (Some(at @ Node::String(_)), Some(by @ Node::String(_))) = (
        node.pointer("/signature/signedAt"),
        node.pointer("/signature/signedBy"),
    ) else {
        return schema(
            "/signature",
            "`signature.signedAt` and `signature.signedBy` must be strings",
        );
    };
    let seed = match seed_python(claim, at, by) {
        Ok(b) => b,
        Err(SigningError::Conflict(name)) => {
            return from_incidents(
                &[Incident::new(
                    IncidentCode::ChainPayloadConflict,
                    format!("the claim has its own `{name}`"),
                    Location::pointer(format!("/claim/{name}")),
                )],
                None,
            );
        }
        Err(e) => return schema("/claim", &e.to_string()),
    };
    let deployed = match deployed_js(claim) {
        Ok(b) => b,
        Err(e) => return schema("/claim/sources", &e.to_string()),
    };
    Reply::valid(Some(json!({
        "seed_python": String::from_utf8_lossy(&seed),
        "deployed_js": String::from_utf8_lossy(&deployed),
    })))
}

operation_input! {
    /// `chain-verify`: the raw JSON text of an envelope or response, the time, the level asked
    /// for, the trusted secrets and keys (judged by the verifier), the recorded responses by URL.
    struct ChainVerify = "chain-verify" {
        document: String,
        now: i64,
        required_level: RequiredLevel<2>,
        /// Signer → array of secret strings.
        #[serde(default)]
        secrets: Optional<Value>,
        /// Signer → JWK Set.
        #[serde(default)]
        keys: Optional<Value>,
        #[serde(default)]
        resources: Optional<BTreeMap<String, StoredResponse>>,
        #[serde(default)]
        accept_partial_signature: Optional<bool>,
    }
}

impl ChainVerify {
    /// `secrets` and `keys` as one trust file.
    fn trust(&mut self) -> Result<TrustConfig, Reply> {
        let mut config = Map::new();
        for (name, value) in [
            ("secrets", self.secrets.0.take()),
            ("keys", self.keys.0.take()),
        ] {
            if let Some(v) = value {
                config.insert(name.to_owned(), v);
            }
        }
        TrustConfig::from_json(&Value::Object(config)).map_err(|e| bad(e.to_string()))
    }
}

impl OperationInput for ChainVerify {
    fn run(mut self) -> Reply {
        let RequiredLevel(required) = self.required_level;
        let trust = match self.trust() {
            Ok(t) => t,
            Err(r) => return r,
        };
        let resources = self.resources.0.unwrap_or_default();
        let fetcher = match ResourceFetcher::new(&resources, FetchPolicy::default()) {
            Ok(f) => f,
            Err(e) => return bad(format!("`resources`: {e}")),
        };
        let mut options = VerifyOptions::new(self.now, required, trust);
        options.accept_partial_signature = self.accept_partial_signature.0.unwrap_or(false);
        let report = verify(self.document.as_bytes(), &fetcher, &options);
        Reply::Result(ResultReply {
            result: Some(if report.details.accepted {
                Answer::Valid
            } else {
                Answer::Invalid
            }),
            errors: crate::report::codes(&report, Severity::Error)
                .into_iter()
                .map(str::to_owned)
                .collect(),
            warnings: crate::report::codes(&report, Severity::Warning)
                .into_iter()
                .map(str::to_owned)
                .collect(),
            output: Some(verify_output(&report)),
        })
    }
}

/// The `chain-verify` output (docs/ADAPTER.md), given for valid and invalid answers alike: the
/// level, and per envelope (by claim id for a lone envelope, by `chains` key in a response) the
/// signing input that verified, the verdict and the unsigned members; the answer's references
/// with their verdicts, in order.
fn verify_output(report: &crate::ChainReport) -> Value {
    let name = |e: &crate::report::EnvelopeReport| e.key.clone().or_else(|| e.claim_id.clone());
    let mut signing_inputs = Map::new();
    let mut verdicts = Map::new();
    let mut unsigned = Map::new();
    for e in &report.details.envelopes {
        let Some(name) = name(e) else { continue };
        if let Some(input) = e.signing_input {
            signing_inputs.insert(name.clone(), json!(input.as_str()));
        }
        if !e.unsigned.is_empty() {
            unsigned.insert(name.clone(), json!(e.unsigned));
        }
        verdicts.insert(name, json!(e.verdict.as_str()));
    }
    let mut out = json!({
        "level": report.verdict.level,
        "signing_inputs": signing_inputs,
        "verdicts": verdicts,
        "unsigned": unsigned,
    });
    if report.details.document == "response" {
        out["references"] = Value::Array(
            report
                .details
                .references
                .iter()
                .map(|r| json!({"text": r.text, "verdict": r.verdict.as_str()}))
                .collect(),
        );
    }
    out
}

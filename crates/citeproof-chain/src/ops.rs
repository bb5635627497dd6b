//! The conformance operations of this spec (docs/ADAPTER.md §5.4), for `citeproof-reference`.

use citeproof_fetch::{FetchPolicy, SnapshotFetcher};
use citeproof_model::protocol::{
    Answer, Reply, ResultReply, bad_input as bad, from_incidents, resources_member, str_member,
};
use citeproof_model::snapshot::{SnapshotResponse, WebSnapshot};
use citeproof_model::spec::{DocumentRule, Operation, Spec, SpecDescriptor};
use citeproof_model::{Incident, IncidentCode, Location, Severity};
use serde_json::{Map, Value, json};

use crate::keys::TrustConfig;
use crate::lossless::{self, Node};
use crate::signing::{SigningError, deployed_js, seed_python};
use crate::verify::{VerifyOptions, verify};

/// What this crate tells the workspace: its document checks and its operations (docs/ADAPTER.md,
/// section 5: input members, output members, the reference's implementation).
pub const SPEC: SpecDescriptor = SpecDescriptor {
    spec: Spec::Chain,
    documents: &[
        DocumentRule::new("chain-envelope", validate_envelope),
        DocumentRule::new("chain-response", validate_response),
    ],
    operations: &[
        Operation::new("chain-claim-id", &["claim"], &[], &["id"], chain_claim_id),
        Operation::new(
            "chain-signing-input",
            &["document"],
            &[],
            &["seed_python", "deployed_js"],
            chain_signing_input,
        ),
        Operation {
            // The seed's verdicts ("⚠ unverified", "⚠ tampered") and the unsigned members of a
            // partially signed envelope are what an invalid answer is about.
            output_when_invalid: CHAIN_VERIFY_OUTPUT,
            ..Operation::new(
                "chain-verify",
                &["document", "now", "required_level"],
                &["secrets", "keys", "resources", "accept_partial_signature"],
                CHAIN_VERIFY_OUTPUT,
                chain_verify,
            )
        },
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

fn chain_claim_id(input: &Value) -> Reply {
    let Some(claim) = input.get("claim").filter(|c| c.is_object()) else {
        return bad("`claim` must be a JSON object");
    };
    let bytes = match serde_json::to_vec(claim) {
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

fn chain_signing_input(input: &Value) -> Reply {
    let document = match str_member(input, "document") {
        Ok(d) => d,
        Err(r) => return r,
    };
    let node = match lossless::parse(document.as_bytes()) {
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

/// `secrets` (signer → array of secret strings) and `keys` (signer → JWK Set) of the input.
fn trust_from_input(input: &Value) -> Result<TrustConfig, Reply> {
    let mut config = Map::new();
    for name in ["secrets", "keys"] {
        if let Some(v) = input.get(name) {
            config.insert(name.to_owned(), v.clone());
        }
    }
    TrustConfig::from_json(&Value::Object(config)).map_err(|e| bad(e.to_string()))
}

fn chain_verify(input: &Value) -> Reply {
    let document = match str_member(input, "document") {
        Ok(d) => d,
        Err(r) => return r,
    };
    let Some(now) = input.get("now").and_then(Value::as_i64) else {
        return bad("`now` must be an integer");
    };
    let required = match input.get("required_level").and_then(Value::as_u64) {
        Some(n @ 1..=2) => n as u8,
        _ => return bad("`required_level` must be 1 or 2"),
    };
    let trust = match trust_from_input(input) {
        Ok(t) => t,
        Err(r) => return r,
    };
    let resources = match resources_member(input, false) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let snapshot = WebSnapshot {
        snapshot_version: citeproof_fetch::SNAPSHOT_VERSION,
        // The snapshot format carries an agent response; a chain verification has none, so a
        // placeholder at a reserved name (RFC 6761 `.invalid`) stands in for it.
        response: SnapshotResponse {
            url: "https://chain.invalid/".into(),
            status: 204,
            headers: Vec::new(),
            body_base64: String::new(),
        },
        resources,
    };
    let fetcher = match SnapshotFetcher::new(&snapshot, FetchPolicy::default()) {
        Ok(f) => f,
        Err(e) => return bad(format!("`resources`: {e}")),
    };
    let accept_partial_signature = match input.get("accept_partial_signature") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return bad("`accept_partial_signature` must be a boolean"),
    };
    let mut options = VerifyOptions::new(now, required, trust);
    options.accept_partial_signature = accept_partial_signature;
    let report = verify(document.as_bytes(), &fetcher, &options);
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

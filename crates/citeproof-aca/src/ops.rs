//! Agent Citation Attribution operations (docs/ADAPTER.md §5.2), backed by [`crate::verify`]
//! and [`crate::sign`]. Each operation reads its input into one typed struct.

use crate::sign::{
    EntryText, ManifestSignOptions, SignError, format_citation_source, load_signing_key,
    sign_manifest_value,
};
use crate::verify::signature::verify_http_message;
use crate::{
    VerifyOptions, parse_citation_source, validate_discovery_bytes, validate_manifest_bytes,
    validate_manifest_value, verify_snapshot_bytes,
};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use citeproof_model::spec::{
    DocumentRule, Operation, OperationInput, Optional, RequiredLevel, Spec, SpecDescriptor, read,
};
use citeproof_model::{Incident, IncidentCode, Location, Severity};
use citeproof_model::{document_operation, operation_input};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use citeproof_model::protocol::{
    Answer, Reply, ResultReply, bad_input as bad, from_incidents, split_codes,
};

/// What this crate tells the workspace: its document checks and its operations (docs/ADAPTER.md,
/// section 5: the typed input, the output members, the reference's implementation).
pub const SPEC: SpecDescriptor = SpecDescriptor {
    spec: Spec::Aca,
    documents: &[
        DocumentRule::new("aca-manifest", crate::validate_manifest_value),
        DocumentRule::new("aca-discovery", crate::validate_discovery_value),
    ],
    operations: &[
        Operation::new::<HeaderParse>(&["entries"]),
        Operation::new::<HeaderEmit>(&["value"]),
        Operation::new::<ManifestValidate>(&[]),
        Operation::new::<DiscoveryValidate>(&[]),
        Operation::new::<VerifySnapshot>(&["level"]),
        Operation::new::<ManifestSign>(&["status", "headers", "body_base64"]),
        Operation::new::<SupportCheck>(&[]),
        Operation::new::<HttpsigVerify>(&["signature_base"]),
    ],
};

operation_input! {
    /// `aca-header-parse`: the values of every `Citation-Source` field line, in order.
    struct HeaderParse = "aca-header-parse" {
        values: Vec<String>,
    }
}

impl OperationInput for HeaderParse {
    fn run(self) -> Reply {
        let lines: Vec<&str> = self.values.iter().map(String::as_str).collect();
        let parsed = parse_citation_source(&lines);
        let entries = serde_json::to_value(&parsed.entries).unwrap_or(Value::Null);
        from_incidents(&parsed.incidents, Some(json!({ "entries": entries })))
    }
}

operation_input! {
    /// `aca-header-emit`: entries in the output shape of `aca-header-parse`.
    struct HeaderEmit = "aca-header-emit" {
        entries: Vec<EmitEntry>,
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct EmitEntry {
    source: String,
    #[serde(default)]
    manifest: Optional<String>,
    #[serde(default)]
    run: Optional<String>,
    /// `[name, value]` pairs.
    #[serde(default)]
    params: Optional<Vec<(String, String)>>,
}

impl OperationInput for HeaderEmit {
    fn run(self) -> Reply {
        let texts: Vec<EntryText<'_>> = self
            .entries
            .iter()
            .map(|e| EntryText {
                source: &e.source,
                manifest: e.manifest.0.as_deref(),
                run: e.run.0.as_deref(),
                params: e.params.0.as_deref().unwrap_or_default(),
            })
            .collect();
        let value = format_citation_source(&texts);
        // The emitter never writes what the parser would reject: check with the parser.
        let lines: Vec<&str> = if texts.is_empty() {
            Vec::new()
        } else {
            vec![value.as_str()]
        };
        let parsed = parse_citation_source(&lines);
        from_incidents(&parsed.incidents, Some(json!({ "value": value })))
    }
}

document_operation! {
    /// `aca-manifest-validate`: the raw JSON text of a manifest.
    struct ManifestValidate = "aca-manifest-validate" =>
        |bytes| from_incidents(&validate_manifest_bytes(bytes), None)
}

document_operation! {
    /// `aca-discovery-validate`: the raw JSON text of a discovery document.
    struct DiscoveryValidate = "aca-discovery-validate" =>
        |bytes| from_incidents(&validate_discovery_bytes(bytes), None)
}

operation_input! {
    /// `aca-verify-snapshot`: a web snapshot and the verification's options.
    struct VerifySnapshot = "aca-verify-snapshot" {
        /// The web snapshot (`schemas/web-snapshot.schema.json`), judged by the verifier itself.
        snapshot: Value,
        now: i64,
        required_level: RequiredLevel<3>,
        #[serde(default)]
        history: Optional<Vec<Sighting>>,
    }
}

/// The members of `aca-verify-snapshot` other than the snapshot.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SnapshotMembers {
    now: i64,
    required_level: RequiredLevel<3>,
    #[serde(default)]
    history: Optional<Vec<Sighting>>,
}

/// One earlier sighting of a manifest (ACA-L2-022).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Sighting {
    digest: String,
    response_url: String,
    #[serde(default)]
    run_id: Optional<String>,
}

impl OperationInput for VerifySnapshot {
    fn run(self) -> Reply {
        let Ok(bytes) = serde_json::to_vec(&self.snapshot) else {
            return bad("`snapshot` cannot be serialized");
        };
        let members = SnapshotMembers {
            now: self.now,
            required_level: self.required_level,
            history: self.history,
        };
        verify_snapshot_members(&bytes, members)
    }
}

/// `aca-verify-snapshot` on a snapshot given as the bytes of its JSON text, as the CLI reads a
/// file; `members` holds the other input members (`now`, `required_level`, `history`). A caller
/// holding the text (the Python package) uses this: the snapshot is judged on what was written,
/// duplicate members and all, never on a lenient parse written out again.
pub fn verify_snapshot_text(bytes: &[u8], members: &Value) -> Reply {
    match read::<SnapshotMembers>(members) {
        Ok(members) => verify_snapshot_members(bytes, members),
        Err(e) => e.reply(),
    }
}

fn verify_snapshot_members(bytes: &[u8], members: SnapshotMembers) -> Reply {
    let RequiredLevel(required) = members.required_level;
    let mut opts = VerifyOptions::new(members.now);
    opts.required_level = Some(required);
    if let Some(history) = members.history.0 {
        let sightings: Vec<(String, crate::Sighting)> = history
            .into_iter()
            .map(|s| {
                let sighting = crate::Sighting {
                    response_url: s.response_url,
                    run_id: s.run_id.0,
                };
                (s.digest, sighting)
            })
            .collect();
        opts.history = Some(std::sync::Arc::new(sightings));
    }
    let report = verify_snapshot_bytes(bytes, &opts);
    let (errors, warnings) = split_codes(&report.plain_incidents());
    Reply::Result(ResultReply {
        result: Some(if report.verdict.level >= required {
            Answer::Valid
        } else {
            Answer::Invalid
        }),
        errors,
        warnings,
        output: Some(json!({ "level": report.verdict.level })),
    })
}

operation_input! {
    /// `aca-manifest-sign`: the manifest, the signing key and the signature's parameters.
    struct ManifestSign = "aca-manifest-sign" {
        manifest: Value,
        /// An OKP/Ed25519 JWK with `d`.
        private_jwk: Value,
        keyid: String,
        created: i64,
        #[serde(default)]
        expires: Optional<i64>,
    }
}

impl OperationInput for ManifestSign {
    fn run(self) -> Reply {
        let mut incidents = validate_manifest_value(&self.manifest);
        let key = match serde_json::to_vec(&self.private_jwk) {
            Ok(bytes) => match load_signing_key(&bytes) {
                Ok(k) => Some(k),
                Err(SignError::Key { code, message }) => {
                    let code = IncidentCode::from_code(code).unwrap_or(IncidentCode::JwkMalformed);
                    incidents.push(Incident::new(
                        code,
                        message,
                        Location::pointer("/private_jwk"),
                    ));
                    None
                }
                Err(e) => return bad(e.to_string()),
            },
            Err(e) => return bad(format!("`private_jwk`: {e}")),
        };
        if incidents.iter().any(|i| i.severity == Severity::Error) {
            return from_incidents(&incidents, None);
        }
        let Some(key) = key else {
            return bad("no key");
        };
        let opts = ManifestSignOptions {
            keyid: self.keyid,
            created: self.created,
            expires: self.expires.0,
        };
        match sign_manifest_value(&self.manifest, &key, &opts) {
            Ok(signed) => Reply::valid(Some(json!({
                "status": signed.status,
                "headers": signed.headers,
                "body_base64": STANDARD.encode(&signed.body),
            }))),
            Err(e) => bad(e.to_string()),
        }
    }
}

operation_input! {
    /// `httpsig-verify`: an HTTP/1.1 message, a JWK Set and the verification time.
    struct HttpsigVerify = "httpsig-verify" {
        message: String,
        /// A JWK Set; the signature's `keyid` selects the key by `kid`.
        keys: Value,
        now: i64,
        #[serde(default)]
        required_components: Optional<Vec<String>>,
    }
}

impl OperationInput for HttpsigVerify {
    fn run(self) -> Reply {
        let outcome = match verify_http_message(
            self.message.as_bytes(),
            &self.keys,
            self.now,
            self.required_components.0,
        ) {
            Ok(outcome) => outcome,
            Err(e) => return bad(format!("`message` is not an HTTP/1.1 message: {e}")),
        };
        let output = outcome
            .signature_base
            .map(|b| json!({ "signature_base": b }));
        let mut reply = from_incidents(&outcome.incidents, output);
        if let Reply::Result(r) = &mut reply
            && r.result == Some(Answer::Valid)
            && r.output.is_none()
        {
            r.result = Some(Answer::Invalid);
        }
        reply
    }
}

operation_input! {
    /// `aca-support-check`: one claim and its excerpt texts.
    struct SupportCheck = "aca-support-check" {
        claim: String,
        excerpts: Vec<String>,
    }
}

impl OperationInput for SupportCheck {
    /// ACA-L2-018 to -020 on one claim and its excerpts, without fetching anything.
    fn run(self) -> Reply {
        let excerpts: Vec<_> = self
            .excerpts
            .iter()
            .enumerate()
            .map(|(i, text)| crate::verify::support::ExcerptRef {
                text,
                source_url: "",
                location: Location::pointer(format!("/excerpts/{i}")),
            })
            .collect();
        let assessment = crate::verify::support::assess(
            &crate::verify::support::Analyzed::new(&self.claim),
            &excerpts,
            &Location::pointer("/claim"),
            &crate::LexicalJudge,
            &[],
        );
        from_incidents(&assessment.incidents, None)
    }
}

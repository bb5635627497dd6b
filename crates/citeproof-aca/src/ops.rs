//! Agent Citation Attribution operations (docs/ADAPTER.md §5.2), backed by [`crate::verify`]
//! and [`crate::sign`].

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
use citeproof_model::spec::{DocumentRule, Operation, Spec, SpecDescriptor};
use citeproof_model::{Incident, IncidentCode, Location, Severity};
use serde_json::{Value, json};

use citeproof_model::protocol::{
    Answer, Reply, ResultReply, bad_input as bad, from_incidents, split_codes, str_member,
};

/// What this crate tells the workspace: its document checks and its operations (docs/ADAPTER.md,
/// section 5: input members, output members, the reference's implementation).
pub const SPEC: SpecDescriptor = SpecDescriptor {
    spec: Spec::Aca,
    documents: &[
        DocumentRule::new("aca-manifest", crate::validate_manifest_value),
        DocumentRule::new("aca-discovery", crate::validate_discovery_value),
    ],
    operations: &[
        Operation::new(
            "aca-header-parse",
            &["values"],
            &[],
            &["entries"],
            header_parse,
        ),
        Operation::new(
            "aca-header-emit",
            &["entries"],
            &[],
            &["value"],
            header_emit,
        ),
        Operation::new(
            "aca-manifest-validate",
            &["document"],
            &[],
            &[],
            manifest_validate,
        ),
        Operation::new(
            "aca-discovery-validate",
            &["document"],
            &[],
            &[],
            discovery_validate,
        ),
        Operation::new(
            "aca-verify-snapshot",
            &["snapshot", "now", "required_level"],
            &["history"],
            &["level"],
            verify_snapshot_op,
        ),
        Operation::new(
            "aca-manifest-sign",
            &["manifest", "private_jwk", "keyid", "created"],
            &["expires"],
            &["status", "headers", "body_base64"],
            manifest_sign,
        ),
        Operation::new(
            "aca-support-check",
            &["claim", "excerpts"],
            &[],
            &[],
            support_check,
        ),
        Operation::new(
            "httpsig-verify",
            &["message", "keys", "now"],
            &["required_components"],
            &["signature_base"],
            httpsig_verify,
        ),
    ],
};

fn int_member(input: &Value, name: &str) -> Result<i64, Reply> {
    input
        .get(name)
        .and_then(Value::as_i64)
        .ok_or_else(|| bad(format!("`{name}` must be an integer")))
}

fn header_parse(input: &Value) -> Reply {
    let Some(values) = input.get("values").and_then(Value::as_array) else {
        return bad("`values` must be an array of strings");
    };
    let mut lines = Vec::with_capacity(values.len());
    for v in values {
        match v.as_str() {
            Some(s) => lines.push(s),
            None => return bad("`values` must be an array of strings"),
        }
    }
    let parsed = parse_citation_source(&lines);
    let entries = serde_json::to_value(&parsed.entries).unwrap_or(Value::Null);
    from_incidents(&parsed.incidents, Some(json!({ "entries": entries })))
}

fn header_emit(input: &Value) -> Reply {
    let Some(entries) = input.get("entries").and_then(Value::as_array) else {
        return bad("`entries` must be an array");
    };
    struct Owned {
        source: String,
        manifest: Option<String>,
        run: Option<String>,
        params: Vec<(String, String)>,
    }
    let mut owned = Vec::with_capacity(entries.len());
    for e in entries {
        let text = |name: &str| e.get(name).and_then(Value::as_str).map(str::to_owned);
        let Some(source) = text("source") else {
            return bad("every entry needs a string `source`");
        };
        let mut params = Vec::new();
        if let Some(list) = e.get("params") {
            let Some(list) = list.as_array() else {
                return bad("`params` must be an array of [name, value] pairs");
            };
            for p in list {
                match (
                    p.get(0).and_then(Value::as_str),
                    p.get(1).and_then(Value::as_str),
                    p.as_array().map(Vec::len),
                ) {
                    (Some(n), Some(v), Some(2)) => params.push((n.to_owned(), v.to_owned())),
                    _ => return bad("`params` must be an array of [name, value] pairs"),
                }
            }
        }
        owned.push(Owned {
            source,
            manifest: text("manifest"),
            run: text("run"),
            params,
        });
    }
    let texts: Vec<EntryText<'_>> = owned
        .iter()
        .map(|o| EntryText {
            source: &o.source,
            manifest: o.manifest.as_deref(),
            run: o.run.as_deref(),
            params: &o.params,
        })
        .collect();
    let value = format_citation_source(&texts);
    // The emitter never writes what the parser would reject: check with the parser.
    let lines: Vec<&str> = if owned.is_empty() {
        Vec::new()
    } else {
        vec![value.as_str()]
    };
    let parsed = parse_citation_source(&lines);
    from_incidents(&parsed.incidents, Some(json!({ "value": value })))
}

fn manifest_validate(input: &Value) -> Reply {
    match str_member(input, "document") {
        Ok(text) => from_incidents(&validate_manifest_bytes(text.as_bytes()), None),
        Err(r) => r,
    }
}

fn discovery_validate(input: &Value) -> Reply {
    match str_member(input, "document") {
        Ok(text) => from_incidents(&validate_discovery_bytes(text.as_bytes()), None),
        Err(r) => r,
    }
}

fn verify_snapshot_op(input: &Value) -> Reply {
    let Some(snapshot) = input.get("snapshot") else {
        return bad("`snapshot` is required");
    };
    let Ok(bytes) = serde_json::to_vec(snapshot) else {
        return bad("`snapshot` cannot be serialized");
    };
    verify_snapshot_text(&bytes, input)
}

/// `aca-verify-snapshot` on a snapshot given as the bytes of its JSON text, as the CLI reads a
/// file; `members` holds the other input members (`now`, `required_level`, `history`). A caller
/// holding the text (the Python package) uses this: the snapshot is judged on what was written,
/// duplicate members and all, never on a lenient parse written out again.
pub fn verify_snapshot_text(bytes: &[u8], members: &Value) -> Reply {
    let input = members;
    let now = match int_member(input, "now") {
        Ok(n) => n,
        Err(r) => return r,
    };
    let required = match input.get("required_level").and_then(Value::as_u64) {
        Some(l @ 1..=3) => l as u8,
        _ => return bad("`required_level` must be 1, 2 or 3"),
    };
    let mut opts = VerifyOptions::new(now);
    opts.required_level = Some(required);
    if let Some(history) = input.get("history") {
        match parse_history(history) {
            Ok(h) => opts.history = Some(std::sync::Arc::new(h)),
            Err(r) => return r,
        }
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

/// `history`: `[{"digest", "response_url", "run_id"?}]`, earlier sightings of manifests.
fn parse_history(value: &Value) -> Result<Vec<(String, crate::Sighting)>, Reply> {
    let shape = "`history` must be an array of {digest, response_url, run_id?} objects";
    let Some(items) = value.as_array() else {
        return Err(bad(shape));
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let text = |name: &str| item.get(name).and_then(Value::as_str).map(str::to_owned);
        let (Some(digest), Some(response_url)) = (text("digest"), text("response_url")) else {
            return Err(bad(shape));
        };
        let run_id = match item.get("run_id") {
            None => None,
            Some(Value::String(r)) => Some(r.clone()),
            Some(_) => return Err(bad(shape)),
        };
        out.push((
            digest,
            crate::Sighting {
                response_url,
                run_id,
            },
        ));
    }
    Ok(out)
}

fn manifest_sign(input: &Value) -> Reply {
    let Some(manifest) = input.get("manifest") else {
        return bad("`manifest` is required");
    };
    let keyid = match str_member(input, "keyid") {
        Ok(k) => k.to_owned(),
        Err(r) => return r,
    };
    let created = match int_member(input, "created") {
        Ok(n) => n,
        Err(r) => return r,
    };
    let expires = match input.get("expires") {
        None => None,
        Some(v) => match v.as_i64() {
            Some(n) => Some(n),
            None => return bad("`expires` must be an integer"),
        },
    };
    let mut incidents = validate_manifest_value(manifest);
    let key = match input.get("private_jwk").map(serde_json::to_vec) {
        Some(Ok(bytes)) => match load_signing_key(&bytes) {
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
        _ => return bad("`private_jwk` is required"),
    };
    if incidents.iter().any(|i| i.severity == Severity::Error) {
        return from_incidents(&incidents, None);
    }
    let Some(key) = key else {
        return bad("no key");
    };
    let opts = ManifestSignOptions {
        keyid,
        created,
        expires,
    };
    match sign_manifest_value(manifest, &key, &opts) {
        Ok(signed) => Reply::valid(Some(json!({
            "status": signed.status,
            "headers": signed.headers,
            "body_base64": STANDARD.encode(&signed.body),
        }))),
        Err(e) => bad(e.to_string()),
    }
}

fn httpsig_verify(input: &Value) -> Reply {
    let message = match str_member(input, "message") {
        Ok(m) => m,
        Err(r) => return r,
    };
    let Some(keys) = input.get("keys") else {
        return bad("`keys` is required");
    };
    let now = match int_member(input, "now") {
        Ok(n) => n,
        Err(r) => return r,
    };
    let required = match input.get("required_components") {
        None => None,
        Some(Value::Array(items)) => {
            let mut out = Vec::with_capacity(items.len());
            for i in items {
                match i.as_str() {
                    Some(s) => out.push(s.to_owned()),
                    None => return bad("`required_components` must be an array of strings"),
                }
            }
            Some(out)
        }
        Some(_) => return bad("`required_components` must be an array of strings"),
    };
    match verify_http_message(message.as_bytes(), keys, now, required) {
        Ok(outcome) => {
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
        Err(e) => bad(format!("`message` is not an HTTP/1.1 message: {e}")),
    }
}

/// ACA-L2-018 to -020 on one claim and its excerpts, without fetching anything.
fn support_check(input: &Value) -> Reply {
    let claim = match str_member(input, "claim") {
        Ok(c) => c,
        Err(r) => return r,
    };
    let Some(list) = input.get("excerpts").and_then(Value::as_array) else {
        return bad("`excerpts` must be an array of strings");
    };
    let mut excerpts = Vec::with_capacity(list.len());
    for (i, e) in list.iter().enumerate() {
        let Some(text) = e.as_str() else {
            return bad("`excerpts` must be an array of strings");
        };
        excerpts.push(crate::verify::support::ExcerptRef {
            text,
            source_url: "",
            location: Location::pointer(format!("/excerpts/{i}")),
        });
    }
    let assessment = crate::verify::support::assess(
        &crate::verify::support::Analyzed::new(claim),
        &excerpts,
        &Location::pointer("/claim"),
        &crate::LexicalJudge,
        &[],
    );
    from_incidents(&assessment.incidents, None)
}

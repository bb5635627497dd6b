//! Variants of the AI Evidence Format operations. Hosts are renamed only in members whose name
//! ends in `uri` (a span text or a quote may mention a host that the source, kept byte for
//! byte, also contains), ids only in `evidence_id`.

use base64::{Engine as _, engine::general_purpose::STANDARD};
use citeproof_conformance::{
    suite::Case,
    variants::{Derived, VariantRng},
};
use citeproof_jose::evidence_signing_input;
use serde_json::{Map, Value, json};

use crate::{
    TransformFn, derived, expects_valid,
    jsontext::{self, Node, Style},
    keys::KeyRing,
    rename::Renamer,
    stored::{self, Edit},
};

pub const TRANSFORMS: &[(&str, TransformFn)] = &[
    ("aef-validate", validate),
    ("aef-verify-span", verify_span),
    ("aef-jws-sign", jws_sign),
    ("aef-jws-verify", jws_verify),
    ("aef-verify", verify),
];

fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'-'))
}

/// The new value of string member `name`, or `None` to keep it.
fn rename_member(
    name: &str,
    value: &str,
    renamer: &mut Renamer,
    rng: &mut VariantRng,
) -> Option<String> {
    let new = if name.ends_with("uri") {
        renamer.text(value, rng)
    } else if name == "evidence_id" && is_id(value) {
        renamer.id(value, rng)
    } else {
        return None;
    };
    (new != value).then_some(new)
}

/// An evidence object (as a JSON value) with uris and its id renamed.
fn rename_value(value: &Value, renamer: &mut Renamer, rng: &mut VariantRng) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = Map::new();
            for (k, v) in map {
                let new = match v.as_str().and_then(|s| rename_member(k, s, renamer, rng)) {
                    Some(s) => json!(s),
                    None => rename_value(v, renamer, rng),
                };
                out.insert(k.clone(), new);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| rename_value(v, renamer, rng))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The same renaming on a raw tree: only string tokens of the renamed members change.
fn rename_tree(node: &mut Node, renamer: &mut Renamer, rng: &mut VariantRng) {
    match node {
        Node::Scalar(_) => {}
        Node::Array(items) => items.iter_mut().for_each(|n| rename_tree(n, renamer, rng)),
        Node::Object(members) => {
            for (name, value) in members.iter_mut() {
                let decoded_name: Option<String> = serde_json::from_str(name).ok();
                let renamed = match (&decoded_name, &*value) {
                    (Some(n), Node::Scalar(raw)) if raw.starts_with('"') => {
                        serde_json::from_str::<String>(raw)
                            .ok()
                            .and_then(|s| rename_member(n, &s, renamer, rng))
                    }
                    _ => None,
                };
                match renamed {
                    Some(s) => *value = Node::Scalar(Value::String(s).to_string()),
                    None => rename_tree(value, renamer, rng),
                }
            }
        }
    }
}

/// Sets `verification.signature` of a raw tree (when both exist).
fn set_signature(node: &mut Node, signature: &str) {
    let Node::Object(members) = node else { return };
    for (name, value) in members.iter_mut() {
        if name == "\"verification\""
            && let Node::Object(inner) = value
        {
            for (n, v) in inner.iter_mut() {
                if n == "\"signature\"" {
                    *v = Node::Scalar(Value::String(signature.to_owned()).to_string());
                }
            }
        }
    }
}

fn validate(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let text = case.input.get("document")?.as_str()?;
    let mut tree = jsontext::parse(text)?;
    let mut renamer = Renamer::new();
    rename_tree(&mut tree, &mut renamer, rng);
    jsontext::shuffle(&mut tree, rng);
    let mut transforms = vec!["member-order", "whitespace"];
    if renamer.renamed > 0 || !renamer.id_map().is_empty() {
        transforms.extend(["rename-hosts", "rename-ids"]);
    }
    let text = jsontext::emit(&tree, Style::Spaced, rng);
    Some(derived(case, &transforms, json!({"document": text})))
}

fn verify_span(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let evidence = case.input.get("evidence")?;
    let mut renamer = Renamer::new();
    let new = rename_value(evidence, &mut renamer, rng);
    if &new == evidence {
        return None;
    }
    let mut input = case.input.clone();
    input["evidence"] = new;
    Some(derived(case, &["rename-hosts", "rename-ids"], input))
}

fn jws_sign(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let mut renamer = Renamer::new();
    let mut input = case.input.clone();
    let mut transforms = Vec::new();
    if let Some(evidence) = case.input.get("evidence") {
        input["evidence"] = rename_value(evidence, &mut renamer, rng);
        if &input["evidence"] != evidence {
            transforms.extend(["rename-hosts", "rename-ids"]);
        }
    }
    if let Some(jwk) = case
        .input
        .get("private_jwk")
        .and_then(|j| crate::aca::fresh_private_jwk(j, rng))
    {
        input["private_jwk"] = jwk;
        transforms.push("new-keys");
    }
    if let Some(kid) = case.input.get("kid").and_then(Value::as_str)
        && kid.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && !kid.is_empty()
    {
        input["kid"] = json!(renamer.id(kid, rng));
    }
    if transforms.is_empty() {
        return None;
    }
    let mut d = derived(case, &transforms, input);
    if expects_valid(case) {
        d.oracle_outputs = vec!["signature".into()];
    }
    Some(d)
}

/// The evidence re-signed over its new signing input when its signature verified under an old
/// key over the old one.
fn resign_evidence(old: &Value, new: &mut Value, ring: &KeyRing) {
    let Some(jws) = old
        .pointer("/verification/signature")
        .and_then(Value::as_str)
    else {
        return;
    };
    let (Ok(old_payload), Ok(new_payload)) =
        (evidence_signing_input(old), evidence_signing_input(new))
    else {
        return;
    };
    if let Some(sig) = ring.resign_detached_jws(jws, &old_payload, &new_payload)
        && let Some(slot) = new.pointer_mut("/verification/signature")
    {
        *slot = json!(sig);
    }
}

fn jws_verify(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let evidence = case.input.get("evidence")?;
    let key_document = case.input.get("key_document")?.as_str()?;
    let mut ring = KeyRing::new();
    ring.collect_text(key_document.as_bytes(), rng);
    let mut renamer = Renamer::new();
    let mut new = rename_value(evidence, &mut renamer, rng);
    resign_evidence(evidence, &mut new, &ring);
    let mut transforms = Vec::new();
    if &new != evidence {
        transforms.extend(["rename-hosts", "rename-ids"]);
    }
    if !ring.is_empty() {
        transforms.push("new-keys");
    }
    if transforms.is_empty() {
        return None;
    }
    let mut input = case.input.clone();
    input["evidence"] = new;
    input["key_document"] = json!(ring.replace(key_document));
    Some(derived(case, &transforms, input))
}

/// Whether a resource is a key document (renamed and re-keyed) rather than a source (kept byte
/// for byte: the evidence records its hash).
fn is_key_document(response: &Value) -> bool {
    response
        .get("body_base64")
        .and_then(Value::as_str)
        .and_then(|b| STANDARD.decode(b).ok())
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .is_some_and(|v| v.get("keys").is_some() || v.get("kty").is_some())
}

fn verify(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let text = case.input.get("document")?.as_str()?;
    let old_value = citeproof_model::json::parse_strict(text.as_bytes()).ok()?;
    let mut tree = jsontext::parse(text)?;
    let resources = case
        .input
        .get("resources")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut ring = KeyRing::new();
    for response in resources.values() {
        if is_key_document(response)
            && let Some(body) = response
                .get("body_base64")
                .and_then(Value::as_str)
                .and_then(|b| STANDARD.decode(b).ok())
        {
            ring.collect_text(&body, rng);
        }
    }
    let mut renamer = Renamer::new();
    rename_tree(&mut tree, &mut renamer, rng);
    let compact = jsontext::emit(&tree, Style::Compact, rng);
    if let Ok(mut new_value) = citeproof_model::json::parse_strict(compact.as_bytes()) {
        resign_evidence(&old_value, &mut new_value, &ring);
        if let Some(sig) = new_value
            .pointer("/verification/signature")
            .and_then(Value::as_str)
        {
            set_signature(&mut tree, sig);
        }
    }
    jsontext::shuffle(&mut tree, rng);
    let mut new_resources = Map::new();
    let mut trusted: Option<Vec<Value>> = None;
    {
        let mut edit = Edit {
            renamer: &mut renamer,
            ring: &ring,
            rng,
        };
        for (url, response) in &resources {
            let (new, _) = stored::stored_response(response, is_key_document(response), &mut edit);
            new_resources.insert(edit.text(url), new);
        }
        // The user's trusted key locations (AEF-L3-006) follow the hosts they name.
        if let Some(list) = case.input.get("trusted_key_uris").and_then(Value::as_array) {
            trusted = Some(
                list.iter()
                    .map(|u| match u.as_str() {
                        Some(text) => json!(edit.text(text)),
                        None => u.clone(),
                    })
                    .collect(),
            );
        }
    }
    let mut transforms = vec!["member-order", "whitespace"];
    if renamer.renamed > 0 {
        transforms.push("rename-hosts");
    }
    if !ring.is_empty() {
        transforms.push("new-keys");
    }
    let mut input = case.input.clone();
    input["document"] = json!(jsontext::emit(&tree, Style::Spaced, rng));
    if case.input.get("resources").is_some() {
        input["resources"] = Value::Object(new_resources);
    }
    if let Some(list) = trusted {
        input["trusted_key_uris"] = Value::Array(list);
    }
    Some(derived(case, &transforms, input))
}

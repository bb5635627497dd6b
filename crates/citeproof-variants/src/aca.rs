//! Variants of the Agent Citation Attribution operations.

use base64::{Engine as _, engine::general_purpose::STANDARD};
use citeproof_conformance::{
    suite::Case,
    variants::{Derived, VariantRng},
};
use citeproof_jose::{SigningKey, b64};
use citeproof_model::jwk::Jwk;
use serde_json::{Map, Value, json};

use crate::{
    TransformFn, derived, expected_output, expects_valid,
    jsontext::{self, Style},
    keys::{KeyRing, fresh_key},
    rename::Renamer,
    stored::{self, Edit},
};

pub const TRANSFORMS: &[(&str, TransformFn)] = &[
    ("aca-header-parse", header_parse),
    ("aca-header-emit", header_emit),
    ("aca-manifest-validate", document),
    ("aca-discovery-validate", document),
    ("aca-verify-snapshot", verify_snapshot),
    ("aca-manifest-sign", manifest_sign),
    ("aca-support-check", support_check),
    ("httpsig-verify", httpsig_verify),
];

/// Renames the value of every `run` parameter of a `Citation-Source` field value (any letter
/// case, quoted or token) whose characters are all of the id grammar's safe set; other values
/// are left alone.
fn rename_runs(text: &str, renamer: &mut Renamer, rng: &mut VariantRng) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i + 3 <= bytes.len() {
        let is_param = bytes[..i].iter().rev().find(|b| !matches!(b, b' ' | b'\t')) == Some(&b';');
        if !(is_param
            && text
                .get(i..i + 3)
                .is_some_and(|s| s.eq_ignore_ascii_case("run")))
        {
            i += 1;
            continue;
        }
        let mut j = i + 3;
        while matches!(bytes.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        if bytes.get(j) != Some(&b'=') {
            i += 1;
            continue;
        }
        j += 1;
        while matches!(bytes.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        let quoted = bytes.get(j) == Some(&b'"');
        let start = if quoted { j + 1 } else { j };
        let mut end = start;
        while bytes.get(end).is_some_and(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'~' | b'-')
        }) {
            end += 1;
        }
        let closed = if quoted {
            bytes.get(end) == Some(&b'"')
        } else {
            !bytes
                .get(end)
                .is_some_and(|b| !matches!(b, b';' | b',' | b' ' | b'\t'))
        };
        if end > start && closed {
            out.push_str(&text[copied..start]);
            out.push_str(&renamer.id(&text[start..end], rng));
            copied = end;
        }
        i = end.max(i + 1);
    }
    out.push_str(&text[copied..]);
    out
}

/// The expected `entries` with hosts renamed and `run` values mapped like the input's.
fn rename_entries(entries: &Value, renamer: &mut Renamer, rng: &mut VariantRng) -> Value {
    let mut out = renamer.value(entries, rng);
    if let Some(items) = out.as_array_mut() {
        for entry in items {
            if let Some(run) = entry.get_mut("run")
                && let Some(old) = run.as_str()
                && let Some(new) = renamer.id_map().get(old)
            {
                *run = json!(new);
            }
        }
    }
    out
}

/// A header case with `input`, when `renamer` renamed a host or a run id (else nothing is new).
fn renamed(case: &Case, renamer: &Renamer, input: Value) -> Option<Derived> {
    let unchanged = renamer.renamed == 0 && renamer.id_map().is_empty();
    (!unchanged).then(|| derived(case, &["rename-hosts", "rename-ids"], input))
}

fn header_parse(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let values = case.input.get("values")?.as_array()?;
    let mut renamer = Renamer::new();
    let mut new_values = Vec::new();
    for v in values {
        let v = v.as_str()?;
        let renamed = renamer.text(v, rng);
        new_values.push(json!(rename_runs(&renamed, &mut renamer, rng)));
    }
    let mut d = renamed(case, &renamer, json!({"values": new_values}))?;
    if let Some(entries) = expected_output(case, "entries") {
        d.expected.output = Some(json!({"entries": rename_entries(entries, &mut renamer, rng)}));
    }
    Some(d)
}

fn header_emit(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let entries = case.input.get("entries")?;
    let mut renamer = Renamer::new();
    let mut new_entries = renamer.value(entries, rng);
    if let Some(items) = new_entries.as_array_mut() {
        for entry in items {
            if let Some(run) = entry.get_mut("run")
                && let Some(old) = run.as_str()
                && !old.is_empty()
                && old.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b':' | b'~' | b'-')
                })
            {
                *run = json!(renamer.id(old, rng));
            }
        }
    }
    let mut d = renamed(case, &renamer, json!({"entries": new_entries}))?;
    if let Some(value) = expected_output(case, "value").and_then(Value::as_str) {
        let mut text = renamer.text(value, rng);
        for (old, new) in renamer.id_map().clone() {
            text = text.replace(&format!("run=\"{old}\""), &format!("run=\"{new}\""));
        }
        d.expected.output = Some(json!({"value": text}));
    }
    Some(d)
}

/// A raw JSON document: hosts renamed everywhere in it; a strict text also gets its members
/// permuted and new whitespace.
fn document(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let text = case.input.get("document")?.as_str()?;
    let mut renamer = Renamer::new();
    let mut transforms = Vec::new();
    let mut text = renamer.text(text, rng);
    if renamer.renamed > 0 {
        transforms.push("rename-hosts");
    }
    if let Some(mut tree) = jsontext::parse(&text) {
        jsontext::shuffle(&mut tree, rng);
        text = jsontext::emit(&tree, Style::Spaced, rng);
        transforms.extend(["member-order", "whitespace"]);
    }
    (!transforms.is_empty()).then(|| derived(case, &transforms, json!({"document": text})))
}

/// Whether a snapshot resource holds a protocol document (renamed and re-keyed with the
/// case) rather than a source (kept byte for byte: its hash is recorded in manifests).
fn is_document(url: &str, manifests: &[String], response: &Value) -> bool {
    if manifests.iter().any(|m| m == url)
        || url.ends_with("/.well-known/agent-citation-attribution")
    {
        return true;
    }
    let body = response
        .get("body_base64")
        .and_then(Value::as_str)
        .and_then(|b| STANDARD.decode(b).ok())
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
    body.is_some_and(|v| v.get("keys").is_some())
}

/// The `manifest="..."` URLs of every `Citation-Source` value of the snapshot's response.
fn manifest_urls(snapshot: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let headers = snapshot
        .pointer("/response/headers")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for h in headers {
        let (Some(name), Some(value)) = (
            h.get(0).and_then(Value::as_str),
            h.get(1).and_then(Value::as_str),
        ) else {
            continue;
        };
        if !name.eq_ignore_ascii_case("citation-source") {
            continue;
        }
        let mut rest = value;
        while let Some(at) = rest.to_ascii_lowercase().find("manifest=\"") {
            rest = &rest[at + 10..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_owned());
                rest = &rest[end..];
            }
        }
    }
    out
}

fn verify_snapshot(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let snapshot = case.input.get("snapshot")?.as_object()?;
    let manifests = manifest_urls(&case.input["snapshot"]);
    let resources = snapshot
        .get("resources")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut ring = KeyRing::new();
    for (url, response) in &resources {
        if is_document(url, &manifests, response)
            && let Some(body) = response
                .get("body_base64")
                .and_then(Value::as_str)
                .and_then(|b| STANDARD.decode(b).ok())
        {
            ring.collect_text(&body, rng);
        }
    }
    let mut renamer = Renamer::new();
    let mut digests: Vec<(String, String)> = Vec::new();
    let mut new_resources = Map::new();
    {
        let mut edit = Edit {
            renamer: &mut renamer,
            ring: &ring,
            rng,
        };
        for (url, response) in &resources {
            let document = is_document(url, &manifests, response);
            let (new, changed) = stored::stored_response(response, document, &mut edit);
            if let Some((old_body, new_body)) = changed {
                digests.push((
                    citeproof_model::sha256_bytes(&old_body).to_string(),
                    citeproof_model::sha256_bytes(&new_body).to_string(),
                ));
            }
            new_resources.insert(edit.text(url), new);
        }
    }
    let mut new_snapshot = snapshot.clone();
    if let Some(response) = snapshot.get("response") {
        let mut edit = Edit {
            renamer: &mut renamer,
            ring: &ring,
            rng,
        };
        // The agent's answer is renamed too: claims must occur in it as in the manifests.
        let (new, _) = stored::stored_response(response, true, &mut edit);
        new_snapshot.insert("response".into(), new);
    }
    if snapshot.contains_key("resources") {
        new_snapshot.insert("resources".into(), Value::Object(new_resources));
    }
    let mut input = case.input.clone();
    input["snapshot"] = Value::Object(new_snapshot);
    if let Some(history) = case.input.get("history").and_then(Value::as_array) {
        let mut new_history = Vec::new();
        for entry in history {
            let mut e = renamer.value(entry, rng);
            if let Some(d) = e.get_mut("digest")
                && let Some(old) = d.as_str()
                && let Some((_, new)) = digests.iter().find(|(o, _)| o == old)
            {
                *d = json!(new);
            }
            new_history.push(e);
        }
        input["history"] = Value::Array(new_history);
    }
    let mut transforms = Vec::new();
    if renamer.renamed > 0 {
        transforms.push("rename-hosts");
    }
    if !ring.is_empty() {
        transforms.push("new-keys");
    }
    (!transforms.is_empty()).then(|| derived(case, &transforms, input))
}

/// A fresh private JWK in place of a usable one (same members otherwise).
pub(crate) fn fresh_private_jwk(jwk: &Value, rng: &mut VariantRng) -> Option<Value> {
    let parsed: Jwk = serde_json::from_value(jwk.clone()).ok()?;
    SigningKey::from_jwk(&parsed).ok()?;
    let key = fresh_key(rng);
    let mut out = jwk.clone();
    out["d"] = json!(b64::encode(&key.secret_bytes()[..]));
    out["x"] = json!(b64::encode(&key.verifying_key().to_bytes()));
    Some(out)
}

fn manifest_sign(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let mut renamer = Renamer::new();
    let mut input = case.input.clone();
    let mut transforms = Vec::new();
    if let Some(m) = case.input.get("manifest") {
        input["manifest"] = renamer.value(m, rng);
        if renamer.renamed > 0 {
            transforms.push("rename-hosts");
        }
    }
    if let Some(jwk) = case
        .input
        .get("private_jwk")
        .and_then(|j| fresh_private_jwk(j, rng))
    {
        input["private_jwk"] = jwk;
        transforms.push("new-keys");
    }
    if let Some(keyid) = case.input.get("keyid").and_then(Value::as_str)
        && !keyid.is_empty()
        && keyid
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        input["keyid"] = json!(renamer.id(keyid, rng));
        transforms.push("rename-ids");
    }
    if transforms.is_empty() {
        return None;
    }
    let mut d = derived(case, &transforms, input);
    if expects_valid(case) {
        d.oracle_outputs = vec!["headers".into(), "body_base64".into()];
    }
    Some(d)
}

/// `aca-support-check`: one excerpt repeated (excerpts are a set: a copy supports nothing new
/// and warns about nothing new) and the excerpts permuted (order is irrelevant by contract).
/// Where the static case already expects `aca-source-irrelevant` (so its claim has content
/// words and no excerpt is over the cap), an excerpt of random letter-words is added too: it
/// shares no content word with the claim, supports nothing and only repeats that warning.
fn support_check(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let excerpts = case.input.get("excerpts")?.as_array()?;
    let mut new = excerpts.clone();
    let mut transforms = vec!["excerpt-order"];
    if !excerpts.is_empty() {
        let copy = excerpts[rng.below(excerpts.len())].clone();
        new.push(copy);
        transforms.push("repeat-excerpt");
    }
    let warns_irrelevant = case
        .expected
        .warnings
        .as_ref()
        .is_some_and(|w| w.iter().any(|c| c == "aca-source-irrelevant"));
    if warns_irrelevant
        && !case
            .expected
            .errors
            .iter()
            .any(|e| e == "aca-excerpt-too-long")
    {
        let words: Vec<String> = (0..3 + rng.below(3))
            .map(|_| {
                let n = 7 + rng.below(4);
                rng.letters(n)
            })
            .collect();
        new.push(json!(words.join(" ")));
        transforms.push("irrelevant-excerpt");
    }
    rng.shuffle(&mut new);
    if &new == excerpts {
        return None;
    }
    let mut input = case.input.clone();
    input["excerpts"] = Value::Array(new);
    Some(derived(case, &transforms, input))
}

fn httpsig_verify(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let message = case.input.get("message")?.as_str()?;
    let keys = case.input.get("keys")?;
    let mut ring = KeyRing::new();
    ring.collect(keys, rng);
    let mut renamer = Renamer::new();
    let new_message = {
        let mut edit = Edit {
            renamer: &mut renamer,
            ring: &ring,
            rng,
        };
        stored::http1_message(message, &mut edit)
    };
    let new_keys: Value = serde_json::from_str(&ring.replace(&keys.to_string())).ok()?;
    let mut transforms = Vec::new();
    if renamer.renamed > 0 {
        transforms.push("rename-hosts");
    }
    if !ring.is_empty() {
        transforms.push("new-keys");
    }
    if transforms.is_empty() {
        return None;
    }
    let mut input = case.input.clone();
    input["message"] = json!(new_message);
    input["keys"] = new_keys;
    let mut d = derived(case, &transforms, input);
    if expects_valid(case) && new_message != message {
        d.oracle_outputs = vec!["signature_base".into()];
    }
    Some(d)
}

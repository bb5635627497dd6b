//! HTTP messages of a case rewritten by construction: hosts renamed and keys replaced in the
//! header values and (for protocol documents) the body, then every `Content-Digest` member that
//! matched the old body recomputed over the new one (a wrong digest stays wrong), then every
//! RFC 9421 signature that verified under an old key re-made over the new signature base with
//! the new key (one that did not verify stays as it is). Renaming keeps lengths, so a
//! `Content-Length` stays right.

use base64::{Engine as _, engine::general_purpose::STANDARD};
use citeproof_conformance::variants::VariantRng;
use citeproof_httpsig::{
    Message, Response, parse_http1, parse_signature, parse_signature_input, signature_base,
};
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256, Sha512};

use crate::{keys::KeyRing, rename::Renamer};

/// Everything a variant renames and re-keys.
#[derive(Debug)]
pub struct Edit<'a> {
    pub renamer: &'a mut Renamer,
    pub ring: &'a KeyRing,
    pub rng: &'a mut VariantRng,
}

impl Edit<'_> {
    /// A text with hosts renamed and keys replaced.
    pub fn text(&mut self, text: &str) -> String {
        self.ring.replace(&self.renamer.text(text, self.rng))
    }

    /// Bytes with hosts renamed and keys replaced when they are UTF-8; kept otherwise.
    pub fn bytes(&mut self, bytes: &[u8]) -> Vec<u8> {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.text(text).into_bytes(),
            Err(_) => bytes.to_vec(),
        }
    }
}

/// `value` (a `Content-Digest` field value) with every member that was the right digest of
/// `old_body` made the right digest of `new_body`.
pub fn fix_digest(value: &str, old_body: &[u8], new_body: &[u8]) -> String {
    let pairs = [
        (
            STANDARD.encode(Sha256::digest(old_body)),
            STANDARD.encode(Sha256::digest(new_body)),
        ),
        (
            STANDARD.encode(Sha512::digest(old_body)),
            STANDARD.encode(Sha512::digest(new_body)),
        ),
    ];
    let mut out = value.to_owned();
    for (old, new) in pairs {
        out = out.replace(&format!(":{old}:"), &format!(":{new}:"));
    }
    out
}

/// The `(old, new)` base64 signature strings for every signature of `old` that verified under
/// an old key, re-made over the same label's signature base in `new`.
pub fn fix_signatures(old: &Message, new: &Message, ring: &KeyRing) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let (Some(old_inputs), Some(old_sigs), Some(new_inputs)) = (
        old.headers().combined("signature-input"),
        old.headers().combined("signature"),
        new.headers().combined("signature-input"),
    ) else {
        return out;
    };
    let (Ok(old_inputs), Ok(old_sigs), Ok(new_inputs)) = (
        parse_signature_input(&old_inputs),
        parse_signature(&old_sigs),
        parse_signature_input(&new_inputs),
    ) else {
        return out;
    };
    for (label, params) in &old_inputs {
        let Some((_, signature)) = old_sigs.iter().find(|(l, _)| l == label) else {
            continue;
        };
        let Some((_, new_params)) = new_inputs.iter().find(|(l, _)| l == label) else {
            continue;
        };
        let (Ok(old_base), Ok(new_base)) =
            (signature_base(old, params), signature_base(new, new_params))
        else {
            continue;
        };
        if let Some(sig) = ring.resign(old_base.as_bytes(), signature, new_base.as_bytes()) {
            out.push((STANDARD.encode(signature), STANDARD.encode(sig)));
        }
    }
    out
}

fn replace_signatures(value: &str, fixes: &[(String, String)]) -> String {
    let mut out = value.to_owned();
    for (old, new) in fixes {
        out = out.replace(&format!(":{old}:"), &format!(":{new}:"));
    }
    out
}

fn response_message(status: u16, headers: &[(String, String)], body: &[u8]) -> Option<Message> {
    let mut r = Response::new(status).ok()?;
    for (n, v) in headers {
        r.headers.push(n, v).ok()?;
    }
    r.body = body.to_vec();
    Some(Message::Response(r))
}

/// The old and the new body of a rewritten response.
pub type BodyChange = (Vec<u8>, Vec<u8>);

/// A stored response (`{status, headers, body_base64, ...}`) rewritten. With `rewrite_body`
/// the body is renamed too (a protocol document); otherwise it is kept byte for byte (a source,
/// whose hash is recorded elsewhere). Returns the new response and, when the body changed, the
/// old and new bodies. A response that is not in the stored form is returned unchanged.
pub fn stored_response(
    response: &Value,
    rewrite_body: bool,
    edit: &mut Edit<'_>,
) -> (Value, Option<BodyChange>) {
    let unchanged = (response.clone(), None);
    let (Some(obj), Some(status), Some(headers), Some(body)) = (
        response.as_object(),
        response
            .get("status")
            .and_then(Value::as_u64)
            .and_then(|s| u16::try_from(s).ok()),
        response.get("headers").and_then(Value::as_array),
        response.get("body_base64").and_then(Value::as_str),
    ) else {
        return unchanged;
    };
    let Ok(old_body) = STANDARD.decode(body) else {
        return unchanged;
    };
    let mut old_headers = Vec::new();
    for h in headers {
        match h.as_array().map(Vec::as_slice) {
            Some([Value::String(n), Value::String(v)]) => old_headers.push((n.clone(), v.clone())),
            _ => return unchanged,
        }
    }
    let new_body = if rewrite_body {
        edit.bytes(&old_body)
    } else {
        old_body.clone()
    };
    let mut new_headers: Vec<(String, String)> = old_headers
        .iter()
        .map(|(n, v)| {
            let v = edit.text(v);
            if n.eq_ignore_ascii_case("content-digest") {
                (n.clone(), fix_digest(&v, &old_body, &new_body))
            } else {
                (n.clone(), v)
            }
        })
        .collect();
    if let (Some(old_msg), Some(new_msg)) = (
        response_message(status, &old_headers, &old_body),
        response_message(status, &new_headers, &new_body),
    ) {
        let fixes = fix_signatures(&old_msg, &new_msg, edit.ring);
        for (n, v) in &mut new_headers {
            if n.eq_ignore_ascii_case("signature") {
                *v = replace_signatures(v, &fixes);
            }
        }
    }
    let mut out = obj.clone();
    out.insert(
        "headers".into(),
        Value::Array(new_headers.iter().map(|(n, v)| json!([n, v])).collect()),
    );
    out.insert("body_base64".into(), json!(STANDARD.encode(&new_body)));
    if let Some(url) = obj.get("url").and_then(Value::as_str) {
        out.insert("url".into(), json!(edit.text(url)));
    }
    let changed = (new_body != old_body).then_some((old_body, new_body));
    (Value::Object(out), changed)
}

/// An HTTP/1.1 message text rewritten (hosts and keys in the header section and the body,
/// digests and signatures fixed). A text that does not parse is renamed only.
pub fn http1_message(text: &str, edit: &mut Edit<'_>) -> String {
    let renamed = edit.text(text);
    let (Ok(old), Ok(mut new)) = (
        parse_http1(text.as_bytes()),
        parse_http1(renamed.as_bytes()),
    ) else {
        return renamed;
    };
    // Digests first: the signature base covers them.
    let mut fixed = renamed.clone();
    for value in old.headers().get_all("content-digest") {
        let new_value = fix_digest(value, old.body(), new.body());
        fixed = fixed.replace(value, &new_value);
    }
    if fixed != renamed {
        match parse_http1(fixed.as_bytes()) {
            Ok(m) => new = m,
            Err(_) => return renamed,
        }
    }
    let fixes = fix_signatures(&old, &new, edit.ring);
    replace_signatures(&fixed, &fixes)
}

//! The two signing inputs of a chain envelope (profile CHAIN-006) and what each covers.
//!
//! - `seed-python`: the seed's documented verifier. The bytes are the UTF-8 encoding of Python's
//!   `json.dumps({**claim, "signedAt": sig["signedAt"], "signedBy": sig["signedBy"]},
//!   sort_keys=True, separators=(",", ":"), ensure_ascii=False)` ([`crate::pyjson`]). It covers
//!   every member of the claim, at every depth, and the signing metadata.
//! - `deployed-js`: the producer's deployed signer. The bytes are the UTF-8 encoding of
//!   ECMAScript `JSON.stringify(payload, Object.keys(payload).sort())` where `payload` is
//!   `{id, vertical, subject, predicate, object, statement, confidence, sources:
//!   claim.sources.map(s => ({url, title, publisher, publishedDate: s.publishedDate ?? null,
//!   type})), publishedAt, methodologyVersion}` ([`crate::esjson`]). The sorted key list also
//!   filters the source objects, so each source is written `{}`: only the number of sources is
//!   covered, and neither `signedAt` nor `signedBy` is.

use serde::Serialize;

use crate::esjson::stringify_with_keys;
use crate::lossless::Node;
use crate::pyjson::dumps_sorted;

/// A signing input, in the order a verifier tries them (CHAIN-007).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum SigningInput {
    #[serde(rename = "seed-python")]
    SeedPython,
    #[serde(rename = "deployed-js")]
    DeployedJs,
}

impl SigningInput {
    /// Every signing input, in the order a verifier tries them.
    pub const ORDER: [SigningInput; 2] = [SigningInput::SeedPython, SigningInput::DeployedJs];

    pub fn as_str(self) -> &'static str {
        match self {
            SigningInput::SeedPython => "seed-python",
            SigningInput::DeployedJs => "deployed-js",
        }
    }
}

impl std::fmt::Display for SigningInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The members of the deployed payload, in the order the producer writes the object literal.
pub const DEPLOYED_PAYLOAD_KEYS: [&str; 10] = [
    "id",
    "vertical",
    "subject",
    "predicate",
    "object",
    "statement",
    "confidence",
    "sources",
    "publishedAt",
    "methodologyVersion",
];

/// The members of each source object the deployed payload builds (all filtered out).
const DEPLOYED_SOURCE_KEYS: [&str; 5] = ["url", "title", "publisher", "publishedDate", "type"];

/// `Object.keys(payload).sort()`: the property list of `JSON.stringify` (UTF-16 order; these
/// names are ASCII).
pub fn deployed_property_list() -> Vec<&'static str> {
    let mut keys = DEPLOYED_PAYLOAD_KEYS.to_vec();
    keys.sort_unstable();
    keys
}

/// Why a signing input cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SigningError {
    #[error("the claim is not a JSON object")]
    ClaimNotObject,
    /// CHAIN-006: the dictionary merge would overwrite the claim's own member.
    #[error("the claim has its own `{0}` member, which the signing payload would overwrite")]
    Conflict(&'static str),
    #[error("`sources` is not an array of objects, so the deployed payload cannot be built")]
    SourcesUnusable,
    #[error("a number has no {0} form")]
    Number(&'static str),
}

/// The `seed-python` bytes: the claim merged with `signedAt` and `signedBy` (the values of the
/// signature object's members, whatever their JSON type).
pub fn seed_python(
    claim: &Node,
    signed_at: &Node,
    signed_by: &Node,
) -> Result<Vec<u8>, SigningError> {
    let Node::Object(members) = claim else {
        return Err(SigningError::ClaimNotObject);
    };
    for name in ["signedAt", "signedBy"] {
        if claim.get(name).is_some() {
            return Err(SigningError::Conflict(name));
        }
    }
    let mut merged = members.clone();
    merged.push(("signedAt".to_owned(), signed_at.clone()));
    merged.push(("signedBy".to_owned(), signed_by.clone()));
    dumps_sorted(&Node::Object(merged))
        .map(String::into_bytes)
        .map_err(|_| SigningError::Number("Python"))
}

/// The deployed payload object built from a claim.
fn deployed_payload(claim: &Node) -> Result<Node, SigningError> {
    if !matches!(claim, Node::Object(_)) {
        return Err(SigningError::ClaimNotObject);
    }
    let mut payload = Vec::new();
    for key in DEPLOYED_PAYLOAD_KEYS {
        let Some(value) = claim.get(key) else {
            continue; // `undefined`: JSON.stringify leaves the member out
        };
        let value = if key == "sources" {
            let Node::Array(sources) = value else {
                return Err(SigningError::SourcesUnusable);
            };
            let mut mapped = Vec::with_capacity(sources.len());
            for source in sources {
                if !matches!(source, Node::Object(_)) {
                    return Err(SigningError::SourcesUnusable);
                }
                let members = DEPLOYED_SOURCE_KEYS
                    .iter()
                    .map(|k| {
                        let v = match (source.get(k), *k) {
                            (Some(v), _) => v.clone(),
                            (None, "publishedDate") => Node::Null,
                            // `undefined` members are dropped by the filter anyway.
                            (None, _) => return None,
                        };
                        Some(((*k).to_owned(), v))
                    })
                    .collect::<Option<Vec<_>>>()
                    .unwrap_or_default();
                mapped.push(Node::Object(members));
            }
            Node::Array(mapped)
        } else {
            value.clone()
        };
        payload.push((key.to_owned(), value));
    }
    Ok(Node::Object(payload))
}

/// The `deployed-js` bytes of a claim.
pub fn deployed_js(claim: &Node) -> Result<Vec<u8>, SigningError> {
    let payload = deployed_payload(claim)?;
    stringify_with_keys(&payload, &deployed_property_list())
        .map(String::into_bytes)
        .ok_or(SigningError::Number("ECMAScript"))
}

/// The signing input's bytes.
pub fn signing_bytes(
    input: SigningInput,
    claim: &Node,
    signed_at: &Node,
    signed_by: &Node,
) -> Result<Vec<u8>, SigningError> {
    match input {
        SigningInput::SeedPython => seed_python(claim, signed_at, signed_by),
        SigningInput::DeployedJs => deployed_js(claim),
    }
}

/// The bytes of each signing input that can be built from `envelope`, in the order a verifier
/// tries them (CHAIN-007); none when it lacks `claim`, `signature.signedAt` or
/// `signature.signedBy`.
pub fn envelope_signing_inputs(envelope: &Node) -> Vec<(SigningInput, Vec<u8>)> {
    let (Some(claim), Some(at), Some(by)) = (
        envelope.get("claim"),
        envelope.pointer("/signature/signedAt"),
        envelope.pointer("/signature/signedBy"),
    ) else {
        return Vec::new();
    };
    let bytes = |input| signing_bytes(input, claim, at, by).ok().map(|b| (input, b));
    SigningInput::ORDER.into_iter().filter_map(bytes).collect()
}

/// JSON pointers (relative to the envelope, prefixed with `base`) of the members whose value
/// the `deployed-js` bytes do not depend on: claim members outside the payload, every member of
/// every source (at any depth), members of nested objects the property list filters out, and
/// `signature/signedAt`, `signature/signedBy`.
pub fn deployed_uncovered(claim: &Node, base: &str) -> Vec<String> {
    let keys = deployed_property_list();
    let claim_base = format!("{base}/claim");
    let mut out = Vec::new();
    if let Node::Object(members) = claim {
        for (name, value) in members {
            let at = child(&claim_base, name);
            if !DEPLOYED_PAYLOAD_KEYS.contains(&name.as_str()) {
                out.push(at);
            } else if name == "sources" {
                if let Node::Array(sources) = value {
                    for (i, source) in sources.iter().enumerate() {
                        if let Node::Object(sm) = source {
                            for (k, _) in sm {
                                out.push(child(&format!("{at}/{i}"), k));
                            }
                        }
                    }
                }
            } else {
                filtered(value, &at, &keys, &mut out);
            }
        }
    }
    out.push(format!("{base}/signature/signedAt"));
    out.push(format!("{base}/signature/signedBy"));
    out
}

/// Members of objects nested in a covered value that the property list filters out.
fn filtered(node: &Node, at: &str, keys: &[&str], out: &mut Vec<String>) {
    match node {
        Node::Object(members) => {
            for (k, v) in members {
                let here = child(at, k);
                if keys.contains(&k.as_str()) {
                    filtered(v, &here, keys, out);
                } else {
                    out.push(here);
                }
            }
        }
        Node::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                filtered(item, &format!("{at}/{i}"), keys, out);
            }
        }
        _ => {}
    }
}

pub(crate) use citeproof_model::pointer::child;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lossless::parse;

    #[test]
    fn deployed_form_drops_every_source_member() {
        // Node 20: JSON.stringify(payload, Object.keys(payload).sort()) with this claim.
        let claim = parse(
            br#"{"id":"x","vertical":"v","subject":"s","predicate":"p","object":"o","confidence":1.0,
               "sources":[{"url":"https://a.example/","title":"t"},{"url":"https://b.example/"}],
               "tags":["t"],"lastVerified":"2026-05-16"}"#,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(deployed_js(&claim).unwrap()).unwrap(),
            r#"{"confidence":1,"id":"x","object":"o","predicate":"p","sources":[{},{}],"subject":"s","vertical":"v"}"#
        );
        assert_eq!(
            deployed_uncovered(&claim, ""),
            [
                "/claim/sources/0/url",
                "/claim/sources/0/title",
                "/claim/sources/1/url",
                "/claim/tags",
                "/claim/lastVerified",
                "/signature/signedAt",
                "/signature/signedBy"
            ]
        );
    }

    #[test]
    fn seed_form_merges_metadata_and_refuses_conflicts() {
        let claim = parse(br#"{"b":1.0,"a":"x"}"#).unwrap();
        let at = Node::String("2026-05-16T00:00:00.000Z".into());
        let by = Node::String("did:web:example.org".into());
        assert_eq!(
            String::from_utf8(seed_python(&claim, &at, &by).unwrap()).unwrap(),
            r#"{"a":"x","b":1.0,"signedAt":"2026-05-16T00:00:00.000Z","signedBy":"did:web:example.org"}"#
        );
        let conflict = parse(br#"{"signedBy":"me"}"#).unwrap();
        assert_eq!(
            seed_python(&conflict, &at, &by),
            Err(SigningError::Conflict("signedBy"))
        );
    }
}

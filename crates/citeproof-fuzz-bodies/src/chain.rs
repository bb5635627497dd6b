//! `chain_documents`: chain envelopes and responses on arbitrary bytes: the number-preserving reader, the Python
//! `json.dumps` and ECMAScript `JSON.stringify` serializers, the signing inputs, the answer's
//! reference scanner and the whole verification never panic; whatever the reader accepts, the
//! strict parser accepts, and the Python form of it is JSON that reads back to the same value
//! apart from number forms.

use citeproof_chain::lossless::{self, Node};
use citeproof_chain::refs::find_references;
use citeproof_chain::signing::{SigningInput, deployed_uncovered, signing_bytes};
use citeproof_chain::{TrustConfig, VerifyOptions, pyjson, verify};
use citeproof_fetch::{FetchError, FetchedResponse, Fetcher};

/// Answers every fetch with the same page; HEAD and GET alike.
struct Echo;

impl Fetcher for Echo {
    fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError> {
        if url.len().is_multiple_of(3) {
            return Err(FetchError::NotInSnapshot { url: url.into() });
        }
        Ok(FetchedResponse {
            url: url.into(),
            status: 200,
            headers: Vec::new(),
            body: url.as_bytes().to_vec().into(),
        })
    }
}

fn same_shape(a: &Node, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Node::Null, Value::Null) => true,
        (Node::Bool(x), Value::Bool(y)) => x == y,
        (Node::Number(_), Value::Number(_)) => true,
        (Node::String(x), Value::String(y)) => x == y,
        (Node::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_shape(p, q))
        }
        (Node::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_shape(v, w)))
        }
        _ => false,
    }
}

/// The body of the `chain_documents` target (see the module documentation).
pub fn chain_documents(data: &[u8]) {
    let _ = find_references(&String::from_utf8_lossy(data));
    if let Ok(node) = lossless::parse(data) {
        assert!(citeproof_model::json::parse_strict(data).is_ok());
        if let Ok(text) = pyjson::dumps_sorted(&node) {
            let back: serde_json::Value = serde_json::from_str(&text).expect("Python form is JSON");
            assert!(same_shape(&node, &back), "{text}");
        }
        let _ = lossless::to_pretty(&node);
        if let Some(claim) = node.get("claim") {
            let at = node.pointer("/signature/signedAt").unwrap_or(&Node::Null);
            let by = node.pointer("/signature/signedBy").unwrap_or(&Node::Null);
            for input in SigningInput::ORDER {
                let _ = signing_bytes(input, claim, at, by);
            }
            let _ = deployed_uncovered(claim, "");
        }
    }
    let mut trust = TrustConfig::default();
    trust.add_secret("did:web:sourcescore.org", "fuzz secret, sixteen+");
    let report = verify(data, &Echo, &VerifyOptions::new(1_779_235_200, 2, trust));
    assert!(report.verdict.level <= 2);
}

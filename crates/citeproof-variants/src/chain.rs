//! Variants of the citation-chain operations (seed 004).
//!
//! Why these keep the verdict (docs/PROFILE.md CHAIN-002, CHAIN-006, CHAIN-007):
//!
//! - The claim id hashes `V|S|P|O`, each ECMAScript-trimmed and lowercased, and nothing else of
//!   the claim: flipping the letter case of ASCII letters (lowercasing maps both cases to the
//!   same letter, and both are cased letters for the `Final_Sigma` context), padding a
//!   non-empty value with characters of the trimmed set, and adding a member the operation does
//!   not read give the same id and the same errors.
//! - Both signing inputs are computed from the parsed envelope (`seed-python` sorts members at
//!   every depth; `deployed-js` writes a fixed property list), and every number and string
//!   token is kept byte for byte: the member order and the whitespace of the document text are
//!   not signed, so they change neither the signing inputs nor any check.
//! - Trust is the configuration: every usable Ed25519 key and every HMAC secret of the input is
//!   replaced consistently ([`KeyRing`], [`SecretRing`]); a signature is re-made over the same
//!   signing input only when it verified under an old key or secret over that input, so which
//!   (input, key) pairs verify, and so the level and the `signing_inputs` output, are kept.

use citeproof_chain::{lossless, signing::envelope_signing_inputs};
use citeproof_conformance::{
    suite::Case,
    variants::{Derived, VariantRng},
};
use serde_json::{Value, json};

use crate::{
    TransformFn, derived,
    jsontext::{self, Node, Style},
    keys::KeyRing,
    secrets::{self, HexSignature, SecretRing},
};

pub const TRANSFORMS: &[(&str, TransformFn)] = &[
    ("chain-claim-id", claim_id),
    ("chain-signing-input", signing_input),
    ("chain-verify", verify),
];

/// Characters the claim id trims (CHAIN-002), used for padding.
const TRIMMED: [char; 7] = [
    ' ', '\t', '\n', '\u{a0}', '\u{3000}', '\u{2028}', '\u{feff}',
];

/// `s` with the letter case of some ASCII letters flipped and trimmed characters around it.
fn same_id_text(s: &str, rng: &mut VariantRng) -> String {
    let mut out = String::new();
    for _ in 0..1 + rng.below(2) {
        out.push(TRIMMED[rng.below(TRIMMED.len())]);
    }
    for c in s.chars() {
        out.push(if c.is_ascii_alphabetic() && rng.chance(0.5) {
            if c.is_ascii_lowercase() {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        } else {
            c
        });
    }
    for _ in 0..rng.below(3) {
        out.push(TRIMMED[rng.below(TRIMMED.len())]);
    }
    out
}

/// `chain-claim-id`: the four id members re-cased and padded (an empty or non-string member
/// is kept: padding an empty one would make it valid), and an `x-` member the operation does
/// not read added (never `claim`, which would make the input read as an envelope).
fn claim_id(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let mut claim = case.input.get("claim")?.as_object()?.clone();
    for name in ["vertical", "subject", "predicate", "object"] {
        if let Some(Value::String(s)) = claim.get_mut(name)
            && !s.is_empty()
        {
            *s = same_id_text(s, rng);
        }
    }
    let name = format!("x-{}", rng.letters(8));
    claim.insert(name, json!(rng.letters(12)));
    Some(derived(
        case,
        &["id-case-and-space", "fresh-member"],
        json!({"claim": Value::Object(claim)}),
    ))
}

/// A strict JSON text with its members permuted and new whitespace; any other text with
/// whitespace around it ([`jsontext::pad`]). Returns the text and the transforms applied.
pub(crate) fn rewrite_text(
    text: &str,
    rng: &mut VariantRng,
) -> Option<(String, Vec<&'static str>)> {
    match jsontext::parse(text) {
        Some(mut tree) => {
            jsontext::shuffle(&mut tree, rng);
            let text = jsontext::emit(&tree, Style::Spaced, rng);
            Some((text, vec!["member-order", "whitespace"]))
        }
        None => jsontext::pad(text, Style::Spaced, rng).map(|t| (t, vec!["whitespace"])),
    }
}

/// `chain-signing-input`: the document rewritten ([`rewrite_text`]).
fn signing_input(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let text = case.input.get("document")?.as_str()?;
    let (text, transforms) = rewrite_text(text, rng)?;
    let mut input = case.input.clone();
    input["document"] = json!(text);
    Some(derived(case, &transforms, input))
}

/// The envelopes of a document: each value of `chains` in a chain response, else the document.
fn envelopes(tree: &mut Node) -> Vec<&mut Node> {
    if tree.member_mut("answer").is_some() || tree.member_mut("chains").is_some() {
        match tree.member_mut("chains") {
            Some(Node::Object(members)) => members.iter_mut().map(|(_, v)| v).collect(),
            _ => Vec::new(),
        }
    } else {
        vec![tree]
    }
}

/// Re-makes the envelope's signature with the new key or secret when it verified over one of
/// its signing inputs under an old one (the first input that verified, as CHAIN-007 tries
/// them). Returns whether it was re-made.
fn resign_envelope(
    envelope: &mut Node,
    secret_ring: &SecretRing,
    key_ring: &KeyRing,
    rng: &mut VariantRng,
) -> bool {
    let text = jsontext::emit(envelope, Style::Compact, rng);
    let Ok(parsed) = lossless::parse(text.as_bytes()) else {
        return false;
    };
    let Some(slot) = envelope.at_mut(&["signature", "signature"]) else {
        return false;
    };
    let Some(old) = slot.as_string().as_deref().and_then(HexSignature::parse) else {
        return false;
    };
    for (_, bytes) in envelope_signing_inputs(&parsed) {
        if let Some(new) = secrets::resign(secret_ring, key_ring, &bytes, &old.bytes, &bytes) {
            *slot = Node::string(&old.write(&new));
            return true;
        }
    }
    false
}

/// One signer's secrets (an array of secret strings) with every string replaced.
fn signer_secrets(list: &Value, ring: &mut SecretRing, rng: &mut VariantRng) -> Value {
    match list.as_array() {
        Some(items) => Value::Array(
            items
                .iter()
                .map(|s| secrets::replace_secret(s, ring, rng))
                .collect(),
        ),
        None => list.clone(),
    }
}

/// `chain-verify`: fresh keys and secrets, signatures that verified re-made, and a strict
/// document's members permuted and whitespace changed.
fn verify(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let text = case.input.get("document")?.as_str()?;
    let secrets::Fresh {
        mut input,
        mut transforms,
        key_ring,
        secret_ring,
    } = secrets::fresh_keys_and_secrets(&case.input, signer_secrets, rng)?;
    if let Some(mut tree) = jsontext::parse(text) {
        for envelope in envelopes(&mut tree) {
            resign_envelope(envelope, &secret_ring, &key_ring, rng);
        }
        jsontext::shuffle(&mut tree, rng);
        input["document"] = json!(jsontext::emit(&tree, Style::Spaced, rng));
        transforms.extend(["member-order", "whitespace"]);
    } else if let Some(padded) = jsontext::pad(text, Style::Spaced, rng) {
        input["document"] = json!(padded);
        transforms.push("whitespace");
    }
    (!transforms.is_empty()).then(|| derived(case, &transforms, input))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_text_trims_and_lowercases_to_the_same_value() {
        let mut rng = VariantRng::new(4);
        for s in ["Transformer architecture", "\u{85}x", "ΟΔΟΣ İ", "a"] {
            for _ in 0..20 {
                let t = same_id_text(s, &mut rng);
                assert_ne!(t, s);
                // Every padding character is in CHAIN-002's trimmed set (U+0085 is not).
                let trimmed = t.trim_matches(|c| TRIMMED.contains(&c));
                assert_eq!(trimmed.to_lowercase(), s.to_lowercase(), "{t:?}");
            }
        }
    }
}

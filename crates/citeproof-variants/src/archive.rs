//! Variants of the archive operations (seed 002).
//!
//! Why these keep the verdict (docs/PROFILE.md ARCHIVE-011, -012, -022, -025, -026, -029):
//! everything the archive profile hashes or signs is a JCS form (the bundle signature's
//! payload, the display's `bundle_hash`, each log record's `prev`, a head's `hash`, a logged
//! `bundle_hash`), and every other check reads parsed values.
//!
//! - `member-order`, `whitespace`: the bundle, the display view and the bundles given to the
//!   log check are rewritten as JSON texts, each log record on its line ([`crate::jsonl`],
//!   framing kept byte for byte): JCS forms, hence every hash and signature, are unchanged.
//! - `new-keys`, `new-secrets`: every usable Ed25519 key of `keys` and every secret of
//!   `secrets` is replaced consistently; the bundle's signature is re-made over the same
//!   payload only when it verified under an old key or secret ([`secrets::resign`]), so it
//!   verifies under the same (`signedBy`, `kid`) entry or under none as before. The signed
//!   bundle's JCS form then changes with its signature, so a display `bundle_hash` that was
//!   the old bundle's hash is made the new bundle's hash (one that was not stays wrong).

use citeproof_conformance::{
    suite::Case,
    variants::{Derived, VariantRng},
};
use citeproof_model::jcs;
use serde_json::{Value, json};

use crate::chain::rewrite_text;
use crate::jsonl::{Text, lines};
use crate::jsontext::{self, Node, Style};
use crate::keys::KeyRing;
use crate::secrets::{self, HexSignature, SecretRing};
use crate::{TransformFn, derived};

pub const TRANSFORMS: &[(&str, TransformFn)] = &[
    ("archive-verify", verify),
    ("archive-log-verify", log_verify),
];

/// `sha256:<hex>` of the JCS form of a value.
fn jcs_hash(value: &Value) -> String {
    citeproof_model::sha256_bytes(&jcs::canonicalize(value)).to_string()
}

/// One signer's secrets (key id → secret string) with every string replaced.
fn signer_secrets(kids: &Value, ring: &mut SecretRing, rng: &mut VariantRng) -> Value {
    match kids.as_object() {
        Some(kids) => Value::Object(
            kids.iter()
                .map(|(kid, s)| (kid.clone(), secrets::replace_secret(s, ring, rng)))
                .collect(),
        ),
        None => kids.clone(),
    }
}

/// The bundle's signature re-made when it verified over its payload under an old key or
/// secret: the new bundle tree and the old and new JCS hashes of the signed bundle.
fn resign_bundle(
    text: &str,
    secret_ring: &SecretRing,
    key_ring: &KeyRing,
) -> Option<(Node, String, String)> {
    let value = citeproof_model::json::parse_strict(text.as_bytes()).ok()?;
    let mut tree = jsontext::parse(text)?;
    let old_hex = value.pointer("/signature/signature")?.as_str()?;
    let old = HexSignature::parse(old_hex)?;
    let mut unsigned = value.clone();
    unsigned
        .get_mut("signature")?
        .as_object_mut()?
        .remove("signature");
    let payload = jcs::canonicalize(&unsigned);
    let new = secrets::resign(secret_ring, key_ring, &payload, &old.bytes, &payload)?;
    let new_hex = old.write(&new);
    *tree.at_mut(&["signature", "signature"])? = Node::string(&new_hex);
    let mut signed = value.clone();
    *signed.pointer_mut("/signature/signature")? = json!(new_hex);
    Some((tree, jcs_hash(&value), jcs_hash(&signed)))
}

fn verify(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let bundle = case.input.get("bundle")?.as_str()?;
    let display = case.input.get("display")?.as_str()?;
    let fresh = secrets::fresh_keys_and_secrets(&case.input, signer_secrets, rng)?;
    let (mut input, mut transforms) = (fresh.input, fresh.transforms);
    let mut display = display.to_owned();
    let bundle = match resign_bundle(bundle, &fresh.secret_ring, &fresh.key_ring) {
        Some((tree, old_hash, new_hash)) => {
            display = display.replace(&old_hash, &new_hash);
            jsontext::emit(&tree, Style::Compact, rng)
        }
        None => bundle.to_owned(),
    };
    for (name, text) in [("bundle", bundle), ("display", display)] {
        match rewrite_text(&text, rng) {
            Some((new, t)) => {
                input[name] = json!(new);
                for t in t {
                    if !transforms.contains(&t) {
                        transforms.push(t);
                    }
                }
            }
            None => input[name] = json!(text),
        }
    }
    (!transforms.is_empty()).then(|| derived(case, &transforms, input))
}

fn log_verify(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let log = case.input.get("log")?.as_str()?;
    let mut input = case.input.clone();
    let new = Text::Lines(lines(log.as_bytes(), true)).emit(rng);
    input["log"] = json!(String::from_utf8(new).ok()?);
    if let Some(bundles) = case.input.get("bundles").and_then(Value::as_array) {
        let new: Vec<Value> = bundles
            .iter()
            .map(|b| match b.as_str().and_then(|t| rewrite_text(t, rng)) {
                Some((text, _)) => json!(text),
                None => b.clone(),
            })
            .collect();
        input["bundles"] = Value::Array(new);
    }
    Some(derived(case, &["member-order", "whitespace"], input))
}

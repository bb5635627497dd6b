//! The one RFC 9421 verifier of citeproof: every label of a message checked against a policy,
//! with keys looked up by `keyid`, and a report per label. `citeproof httpsig verify`, ACA
//! Level 3 and the `httpsig-verify` conformance operation all call [`verify_message`].
//!
//! Per label, in this order, the first failure is that label's outcome (profile ACA-L3-007):
//! the member is an inner list of sf-strings; the label has a 64-byte value in `Signature`;
//! the component identifiers are valid and not repeated; the required components are covered
//! and present; the parameters have their types; the required parameters are present; `alg`,
//! if present, is `ed25519`; `created` is not in the future, not before the policy's
//! `not_before` and not older than its maximum age; `expires`, if present, is after `created`
//! and not past; the key resolves; the Ed25519 signature verifies (strict, RFC 8032 §5.1.7);
//! optionally `Content-Digest`, when covered, matches the content. A message is validly signed
//! when one label passes: labels are independent, so one bad label never hides a good one.
//!
//! Structured fields are parsed as RFC 8941 with repeated keys refused (see `sf`); unregistered
//! signature parameters are kept in `@signature-params` and otherwise ignored (RFC 9421 §6.3).

//!
//! | file | holds |
//! |---|---|
//! | `policy.rs` | what the caller decides: the policy and how `keyid`s become keys |
//! | `report.rs` | what the verifier says: a report per label |
//! | `label.rs` | the checks of one label, in the order above |

mod label;
mod policy;
mod report;

use ed25519_dalek::VerifyingKey;
use sfv::{BareItem, Dictionary, ListEntry};

use crate::error::{HttpSigError, Result};
use crate::message::Message;
use crate::sf;

pub use policy::{DEFAULT_CLOCK_SKEW, KeyMiss, KeyResolver, SingleKey, VerifyPolicy};
pub use report::{LabelFailure, LabelReport, MessageReport, VerifiedSignature};

/// Which signatures of a message to verify.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelSelector<'a> {
    /// Only the signature with this label.
    Label(&'a str),
    /// Any: the message is validly signed when one of its signatures passes (profile
    /// ACA-L3-007; every failing label is reported by [`verify_message`]).
    Any,
}

/// Verifies `message` with one key (RFC 9421 §3.2) under `policy`, with the caller's clock
/// `now` (Unix seconds; this crate never reads a clock): the selected signature, or the first
/// that passes. The checks and their order are those of [`verify_message`]; on failure the
/// error is the first failing check of the selected label, or of the first label.
pub fn verify(
    message: &Message,
    key: &VerifyingKey,
    selector: LabelSelector<'_>,
    policy: &VerifyPolicy,
    now: i64,
) -> Result<VerifiedSignature> {
    let only = match selector {
        LabelSelector::Label(label) => Some(label),
        LabelSelector::Any => None,
    };
    let report = verify_selected(message, &SingleKey(*key), policy, now, only)?;
    if let Some(verified) = report.verified() {
        return Ok(verified.clone());
    }
    match report.labels.into_iter().next().map(|l| l.outcome) {
        Some(Err(LabelFailure::Failed(e))) => Err(e),
        _ => Err(HttpSigError::SignatureInputMissing),
    }
}

/// Verifies the signatures of `message` (RFC 9421 §3.2) at the caller's clock `now` (Unix
/// seconds; nothing here reads a clock). `Err` when the message has no signature at all or its
/// `Signature-Input` / `Signature` fields are not strict sf-dictionaries; otherwise a report per
/// label (see the module documentation for the checks and their order).
pub fn verify_message(
    message: &Message,
    keys: &dyn KeyResolver,
    policy: &VerifyPolicy,
    now: i64,
) -> Result<MessageReport> {
    verify_selected(message, keys, policy, now, None)
}

/// [`verify_message`] for one label only (`LabelNotFound` when `Signature-Input` has no such
/// label).
pub fn verify_label(
    message: &Message,
    keys: &dyn KeyResolver,
    policy: &VerifyPolicy,
    now: i64,
    label: &str,
) -> Result<MessageReport> {
    verify_selected(message, keys, policy, now, Some(label))
}

/// [`verify_message`] restricted to one label when `only` is given (`LabelNotFound` when
/// `Signature-Input` has no such label).
fn verify_selected(
    message: &Message,
    keys: &dyn KeyResolver,
    policy: &VerifyPolicy,
    now: i64,
    only: Option<&str>,
) -> Result<MessageReport> {
    let headers = message.headers();
    let inputs_raw = headers
        .combined("signature-input")
        .ok_or(HttpSigError::SignatureInputMissing)?;
    let inputs = sf::field_dictionary("Signature-Input", &inputs_raw)?;
    // Without a Signature field every label lacks its value (`SignatureMissing` per label).
    let signatures = match headers.combined("signature") {
        Some(raw) => sf::field_dictionary("Signature", &raw)?,
        None => Dictionary::new(),
    };
    if inputs.is_empty() {
        return Err(HttpSigError::SignatureInputMissing);
    }
    if let Some(wanted) = only
        && !inputs.keys().any(|k| k.as_str() == wanted)
    {
        return Err(HttpSigError::LabelNotFound {
            label: wanted.to_owned(),
        });
    }
    let mut report = MessageReport::default();
    for (label, entry) in &inputs {
        if only.is_some_and(|wanted| wanted != label.as_str()) {
            continue;
        }
        let label = label.as_str().to_owned();
        let keyid = keyid_of(entry);
        let outcome = label::check_label(&label, entry, &signatures, message, keys, policy, now);
        let verified = outcome.is_ok();
        let signature_base = match &outcome {
            Ok(v) => Some(v.signature_base.clone()),
            Err(_) => label::signature_base_of(&label, entry, message, policy),
        };
        report.labels.push(LabelReport {
            label,
            keyid,
            outcome,
            signature_base,
        });
        if verified {
            break;
        }
    }
    Ok(report)
}

fn keyid_of(entry: &ListEntry) -> Option<String> {
    let ListEntry::InnerList(list) = entry else {
        return None;
    };
    list.params.iter().find_map(|(k, v)| match v {
        BareItem::String(s) if k.as_str() == "keyid" => Some(s.as_str().to_owned()),
        _ => None,
    })
}

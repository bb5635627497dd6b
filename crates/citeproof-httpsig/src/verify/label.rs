//! The checks of one label, in the order of the module documentation of `verify`.

use sfv::{BareItem, Dictionary, FieldType as _, InnerList, List, ListEntry};

use super::policy::{KeyMiss, KeyResolver, VerifyPolicy};
use super::report::{LabelFailure, VerifiedSignature, is_plain_digest};
use crate::component::ComponentId;
use crate::digest::check_content_digest;
use crate::error::{HttpSigError, Result};
use crate::message::Message;
use crate::params::{ParamName, SignatureParams, params_of};
use crate::sf;
use crate::signature::{ALG_ED25519, ed25519_verify_strict, signature_base};

/// The parameters citeproof reads, typed; others are kept in the base only.
#[derive(Debug, Default)]
struct ReadParams {
    created: Option<i64>,
    expires: Option<i64>,
    keyid: Option<String>,
    alg: Option<String>,
    present: Vec<ParamName>,
}

fn read_params(list: &InnerList) -> Result<ReadParams> {
    let mut p = ReadParams::default();
    for (key, value) in &list.params {
        let name = key.as_str();
        let invalid = |want: &str| HttpSigError::InvalidParameter {
            param: name.to_owned(),
            detail: format!("must be {want}, not a {}", sf::bare_item_kind(value)),
        };
        let int = || match value {
            BareItem::Integer(i) => Ok(i64::from(*i)),
            _ => Err(invalid("an integer")),
        };
        let string = || match value {
            BareItem::String(s) => Ok(s.as_str().to_owned()),
            _ => Err(invalid("a string")),
        };
        let known = match name {
            "created" => {
                p.created = Some(int()?);
                ParamName::Created
            }
            "expires" => {
                p.expires = Some(int()?);
                ParamName::Expires
            }
            "keyid" => {
                p.keyid = Some(string()?);
                ParamName::KeyId
            }
            "alg" => {
                p.alg = Some(string()?);
                ParamName::Alg
            }
            "nonce" => {
                string()?;
                ParamName::Nonce
            }
            "tag" => {
                string()?;
                ParamName::Tag
            }
            _ => ParamName::Other,
        };
        p.present.push(known);
    }
    Ok(p)
}

/// The outcome of one label: the checks of the module documentation, in their order, the first
/// failure being the label's outcome.
pub(super) fn check_label(
    label: &str,
    entry: &ListEntry,
    signatures: &Dictionary,
    message: &Message,
    keys: &dyn KeyResolver,
    policy: &VerifyPolicy,
    now: i64,
) -> std::result::Result<VerifiedSignature, LabelFailure> {
    let fail = LabelFailure::Failed;
    let list = inner_list_of_strings(label, entry).map_err(fail)?;
    let signature = signature_bytes(label, signatures).map_err(fail)?;
    let components = covered_components(label, list, policy).map_err(fail)?;
    let lines = component_lines(message, &components).map_err(fail)?;
    let params = read_params(list).map_err(fail)?;
    check_params(label, &params, policy, now).map_err(fail)?;
    let key = match keys.resolve(params.keyid.as_deref()) {
        Ok(key) => key,
        Err(KeyMiss::AlreadyReported) => return Err(LabelFailure::KeyAlreadyReported),
        Err(KeyMiss::Unresolved(detail)) => {
            return Err(fail(HttpSigError::KeyUnresolved {
                label: label.to_owned(),
                keyid: params.keyid.clone().unwrap_or_default(),
                detail,
            }));
        }
    };
    let base = base_from_lines(label, list, &lines).map_err(fail)?;
    if !ed25519_verify_strict(&key, base.as_bytes(), &signature) {
        return Err(fail(HttpSigError::SignatureInvalid {
            label: label.to_owned(),
        }));
    }
    if policy.check_content_digest
        && components.iter().any(is_plain_digest)
        && let Some(value) = message.headers().combined("content-digest")
    {
        check_content_digest(&value, message.body()).map_err(fail)?;
    }
    let mut typed = SignatureParams::new(components);
    typed.params = params_of(list);
    Ok(VerifiedSignature {
        label: label.to_owned(),
        params: typed,
        signature_base: base,
    })
}

/// The signature base: the component lines and the `@signature-params` line of `list`.
fn base_from_lines(label: &str, list: &InnerList, lines: &str) -> Result<String> {
    let entries: List = vec![ListEntry::InnerList(list.clone())];
    let serialized = entries
        .serialize()
        .ok_or_else(|| HttpSigError::InvalidStructuredField {
            field: "Signature-Input".into(),
            detail: format!("the parameters of `{label}` cannot be serialized"),
        })?;
    Ok(format!("{lines}\"@signature-params\": {serialized}"))
}

/// The signature base of a label as far as the message allows, whatever the signature, the
/// key and the dates (`None` when its covered components cannot be read from the message).
pub(super) fn signature_base_of(
    label: &str,
    entry: &ListEntry,
    message: &Message,
    policy: &VerifyPolicy,
) -> Option<String> {
    let list = inner_list_of_strings(label, entry).ok()?;
    let components = covered_components(label, list, policy).ok()?;
    let lines = component_lines(message, &components).ok()?;
    base_from_lines(label, list, &lines).ok()
}

/// The member is an inner list of sf-strings (RFC 9421 §4.1).
fn inner_list_of_strings<'e>(label: &str, entry: &'e ListEntry) -> Result<&'e InnerList> {
    let ListEntry::InnerList(list) = entry else {
        return Err(HttpSigError::InvalidStructuredField {
            field: "Signature-Input".into(),
            detail: format!("member `{label}` is not an inner list"),
        });
    };
    if let Some(item) = list
        .items
        .iter()
        .find(|i| !matches!(i.bare_item, BareItem::String(_)))
    {
        return Err(HttpSigError::InvalidStructuredField {
            field: "Signature-Input".into(),
            detail: format!(
                "covered component `{}` of `{label}` is not an sf-string",
                sf::serialize_entry(&ListEntry::Item(item.clone()))
            ),
        });
    }
    Ok(list)
}

/// The covered components: valid identifiers, none repeated, the policy's required ones among
/// them (RFC 9421 §2.1, §3.2 steps 3 and 5).
fn covered_components(
    label: &str,
    list: &InnerList,
    policy: &VerifyPolicy,
) -> Result<Vec<ComponentId>> {
    let mut components: Vec<ComponentId> = Vec::with_capacity(list.items.len());
    for item in &list.items {
        let text = sf::serialize_entry(&ListEntry::Item(item.clone()));
        // Any identifier the parser refuses is an invalid component (whatever the cause).
        let id = ComponentId::parse(&text).map_err(|e| match e {
            HttpSigError::InvalidComponent { .. } => e,
            other => HttpSigError::InvalidComponent {
                component: text.clone(),
                detail: other.to_string(),
            },
        })?;
        if components.iter().any(|c| c.same_as(&id)) {
            return Err(HttpSigError::DuplicateComponent { component: text });
        }
        components.push(id);
    }
    for required in &policy.required_components {
        let covered = components
            .iter()
            .any(|c| c.name() == required.name() && c.params().is_empty());
        if !covered {
            return Err(HttpSigError::RequiredComponentNotCovered {
                label: label.to_owned(),
                component: required.to_string(),
            });
        }
    }
    Ok(components)
}

/// The policy's required parameters, `alg` and the times (RFC 9421 §3.2.1).
fn check_params(label: &str, params: &ReadParams, policy: &VerifyPolicy, now: i64) -> Result<()> {
    for required in &policy.required_params {
        if !params.present.contains(required) {
            return Err(HttpSigError::RequiredParamMissing {
                label: label.to_owned(),
                param: required.as_str().to_owned(),
            });
        }
    }
    if let Some(alg) = &params.alg
        && alg != ALG_ED25519
    {
        return Err(HttpSigError::AlgMismatch {
            label: label.to_owned(),
            alg: alg.clone(),
        });
    }
    check_times(label, params, policy, now)
}

/// The label's value in `Signature`: a 64-byte sf-binary.
fn signature_bytes(label: &str, signatures: &Dictionary) -> Result<Vec<u8>> {
    let malformed = |detail: &str| HttpSigError::MalformedSignature {
        label: label.to_owned(),
        detail: detail.to_owned(),
    };
    match signatures.get(label) {
        None => Err(HttpSigError::SignatureMissing {
            label: label.to_owned(),
        }),
        Some(ListEntry::Item(item)) => match &item.bare_item {
            BareItem::ByteSequence(bytes) if bytes.len() == 64 => Ok(bytes.clone()),
            BareItem::ByteSequence(bytes) => Err(malformed(&format!(
                "{} bytes; an Ed25519 signature has 64",
                bytes.len()
            ))),
            _ => Err(malformed("not a byte sequence")),
        },
        Some(ListEntry::InnerList(_)) => Err(malformed("an inner list, not a byte sequence")),
    }
}

/// `created`, `not_before`, `max_age` and `expires` (profile ACA-L3-010).
fn check_times(label: &str, p: &ReadParams, policy: &VerifyPolicy, now: i64) -> Result<()> {
    let skew = i64::try_from(policy.max_clock_skew).unwrap_or(i64::MAX);
    if let Some(created) = p.created {
        if created > now.saturating_add(skew) {
            return Err(HttpSigError::CreatedInFuture {
                label: label.to_owned(),
                created,
                now,
            });
        }
        if let Some(not_before) = policy.not_before
            && created < not_before
        {
            return Err(HttpSigError::CreatedTooEarly {
                label: label.to_owned(),
                created,
                not_before,
            });
        }
    }
    if let Some(expires) = p.expires {
        if let Some(created) = p.created
            && expires <= created
        {
            return Err(HttpSigError::InvalidExpiry {
                label: label.to_owned(),
                created,
                expires,
            });
        }
        if now > expires.saturating_add(skew) {
            return Err(HttpSigError::Expired {
                label: label.to_owned(),
                expires,
                now,
            });
        }
    }
    if let (Some(created), Some(max_age)) = (p.created, policy.max_age) {
        let max_age_i = i64::try_from(max_age).unwrap_or(i64::MAX);
        if created < now.saturating_sub(max_age_i) {
            return Err(HttpSigError::TooOld {
                label: label.to_owned(),
                created,
                now,
                max_age,
            });
        }
    }
    Ok(())
}

/// The component lines of the signature base (RFC 9421 §2.5 steps 1-2), each ending in LF.
fn component_lines(message: &Message, components: &[ComponentId]) -> Result<String> {
    let params = SignatureParams::new(components.to_vec());
    let base = signature_base(message, &params)?;
    // `signature_base` ends with the `@signature-params` line of a parameterless list.
    let cut =
        base.rfind("\"@signature-params\": ")
            .ok_or_else(|| HttpSigError::MissingComponent {
                component: "@signature-params".into(),
            })?;
    Ok(base.get(..cut).unwrap_or_default().to_owned())
}

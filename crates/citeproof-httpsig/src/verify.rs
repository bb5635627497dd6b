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

use sfv::{BareItem, Dictionary, FieldType as _, InnerList, List, ListEntry, Version};

use crate::component::ComponentId;
use crate::digest::check_content_digest;
use crate::error::{HttpSigError, Result};
use crate::message::Message;
use crate::params::SignatureParams;
use crate::signature::{ALG_ED25519, ed25519_verify_strict, signature_base};
use crate::{ParamName, VerifyingKey, sf};

/// Clock skew tolerated by default for `created` and `expires`, in seconds.
pub const DEFAULT_CLOCK_SKEW: u64 = 300;

/// Why a `keyid` gives no key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyMiss {
    /// No usable key has this id; the text says why.
    Unresolved(String),
    /// The keys could not be read, or the key with this id is unusable, for a reason the caller
    /// has already reported: the label fails without a finding of its own.
    AlreadyReported,
}

/// How `keyid`s become keys (the caller's trust decision: a key set it chose).
pub trait KeyResolver {
    /// The one usable key for `keyid` (`None` when the signature has no `keyid`).
    fn resolve(&self, keyid: Option<&str>) -> std::result::Result<VerifyingKey, KeyMiss>;
}

/// One key for every `keyid`: what a caller that was handed a single public key uses.
#[derive(Debug, Clone, Copy)]
pub struct SingleKey(pub VerifyingKey);

impl KeyResolver for SingleKey {
    fn resolve(&self, _: Option<&str>) -> std::result::Result<VerifyingKey, KeyMiss> {
        Ok(self.0)
    }
}

/// What a verifier requires beyond a valid signature (RFC 9421 §1.4, §3.2.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyPolicy {
    /// Components every accepted signature covers, without component parameters.
    pub required_components: Vec<ComponentId>,
    /// Signature parameters every accepted signature carries.
    pub required_params: Vec<ParamName>,
    /// Tolerance in seconds for `created` in the future and `expires` in the past.
    pub max_clock_skew: u64,
    /// Maximum age of `created` in seconds (`None`: no limit): a `created` earlier than
    /// `now - max_age` fails.
    pub max_age: Option<u64>,
    /// Earliest acceptable `created` (Unix seconds), for example the emission time of what the
    /// signature signs minus the skew.
    pub not_before: Option<i64>,
    /// When a label covers `content-digest` (without parameters) and the field is present,
    /// check it against the content before accepting the label (RFC 9530).
    pub check_content_digest: bool,
}

impl Default for VerifyPolicy {
    fn default() -> Self {
        VerifyPolicy {
            required_components: Vec::new(),
            required_params: Vec::new(),
            max_clock_skew: DEFAULT_CLOCK_SKEW,
            max_age: None,
            not_before: None,
            check_content_digest: true,
        }
    }
}

/// A signature that passed every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedSignature {
    /// Its label.
    pub label: String,
    /// Its covered components and parameters.
    pub params: SignatureParams,
    /// The signature base that verified.
    pub signature_base: String,
}

/// Why one label did not verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabelFailure {
    /// The first check that failed.
    Failed(HttpSigError),
    /// Its key is unusable for a reason the key resolver's owner already reported.
    KeyAlreadyReported,
}

impl LabelFailure {
    /// A message naming the label once.
    pub fn describe(&self, label: &str) -> String {
        match self {
            LabelFailure::Failed(e) => {
                let text = e.to_string();
                if text.contains(&format!("`{label}`")) {
                    text
                } else {
                    format!("signature `{label}`: {text}")
                }
            }
            LabelFailure::KeyAlreadyReported => {
                format!("signature `{label}`: its key is unusable (reported separately)")
            }
        }
    }
}

/// The outcome for one label of `Signature-Input`, in field order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelReport {
    pub label: String,
    /// The `keyid` parameter, when it is a string.
    pub keyid: Option<String>,
    pub outcome: std::result::Result<VerifiedSignature, LabelFailure>,
}

/// The report of [`verify_message`]: every label that was examined. Labels after the first
/// that verified are not examined (one is enough).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MessageReport {
    pub labels: Vec<LabelReport>,
}

impl MessageReport {
    /// The first label that verified.
    pub fn verified(&self) -> Option<&VerifiedSignature> {
        self.labels.iter().find_map(|l| l.outcome.as_ref().ok())
    }

    /// Whether any label covers `content-digest` without parameters.
    pub fn covers_digest(&self) -> bool {
        self.labels.iter().any(|l| match &l.outcome {
            Ok(v) => v.params.components.iter().any(is_plain_digest),
            Err(_) => false,
        })
    }
}

fn is_plain_digest(c: &ComponentId) -> bool {
    c.name() == "content-digest" && c.params().is_empty()
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
pub(crate) fn verify_selected(
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
    let inputs = dictionary("Signature-Input", &inputs_raw)?;
    // Without a Signature field every label lacks its value (`SignatureMissing` per label).
    let signatures = match headers.combined("signature") {
        Some(raw) => dictionary("Signature", &raw)?,
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
        let outcome = check_label(&label, entry, &signatures, message, keys, policy, now);
        let verified = outcome.is_ok();
        report.labels.push(LabelReport {
            label,
            keyid,
            outcome,
        });
        if verified {
            break;
        }
    }
    Ok(report)
}

fn dictionary(field: &str, value: &str) -> Result<Dictionary> {
    sf::parse_dictionary(value, Version::Rfc8941).map_err(|detail| {
        HttpSigError::InvalidStructuredField {
            field: field.to_owned(),
            detail,
        }
    })
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

fn check_label(
    label: &str,
    entry: &ListEntry,
    signatures: &Dictionary,
    message: &Message,
    keys: &dyn KeyResolver,
    policy: &VerifyPolicy,
    now: i64,
) -> std::result::Result<VerifiedSignature, LabelFailure> {
    let fail = |e: HttpSigError| LabelFailure::Failed(e);
    let ListEntry::InnerList(list) = entry else {
        return Err(fail(HttpSigError::InvalidStructuredField {
            field: "Signature-Input".into(),
            detail: format!("member `{label}` is not an inner list"),
        }));
    };
    if let Some(item) = list
        .items
        .iter()
        .find(|i| !matches!(i.bare_item, BareItem::String(_)))
    {
        return Err(fail(HttpSigError::InvalidStructuredField {
            field: "Signature-Input".into(),
            detail: format!(
                "covered component `{}` of `{label}` is not an sf-string",
                sf::serialize_entry(&ListEntry::Item(item.clone()))
            ),
        }));
    }
    let signature = signature_bytes(label, signatures).map_err(fail)?;
    let mut components: Vec<ComponentId> = Vec::with_capacity(list.items.len());
    for item in &list.items {
        let text = sf::serialize_entry(&ListEntry::Item(item.clone()));
        // Any identifier the parser refuses is an invalid component (whatever the cause).
        let id = ComponentId::parse(&text).map_err(|e| match e {
            HttpSigError::InvalidComponent { .. } => fail(e),
            other => fail(HttpSigError::InvalidComponent {
                component: text.clone(),
                detail: other.to_string(),
            }),
        })?;
        if components.iter().any(|c| c.same_as(&id)) {
            return Err(fail(HttpSigError::DuplicateComponent { component: text }));
        }
        components.push(id);
    }
    for required in &policy.required_components {
        let covered = components
            .iter()
            .any(|c| c.name() == required.name() && c.params().is_empty());
        if !covered {
            return Err(fail(HttpSigError::RequiredComponentNotCovered {
                label: label.to_owned(),
                component: required.to_string(),
            }));
        }
    }
    let lines = component_lines(message, &components).map_err(fail)?;
    let params = read_params(list).map_err(fail)?;
    for required in &policy.required_params {
        if !params.present.contains(required) {
            return Err(fail(HttpSigError::RequiredParamMissing {
                label: label.to_owned(),
                param: required.as_str().to_owned(),
            }));
        }
    }
    if let Some(alg) = &params.alg
        && alg != ALG_ED25519
    {
        return Err(fail(HttpSigError::AlgMismatch {
            label: label.to_owned(),
            alg: alg.clone(),
        }));
    }
    check_times(label, &params, policy, now).map_err(fail)?;
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
    let entries: List = vec![ListEntry::InnerList(list.clone())];
    let serialized = entries.serialize().ok_or_else(|| {
        fail(HttpSigError::InvalidStructuredField {
            field: "Signature-Input".into(),
            detail: format!("the parameters of `{label}` cannot be serialized"),
        })
    })?;
    let base = format!("{lines}\"@signature-params\": {serialized}");
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
    typed.params = crate::params::params_of(list);
    Ok(VerifiedSignature {
        label: label.to_owned(),
        params: typed,
        signature_base: base,
    })
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

//! The HTTP message signature of a manifest response: ACA-L3-007 to ACA-L3-011, ACA-L3-013 and
//! ACA-L3-014.
//!
//! Component values come from `citeproof-httpsig` (RFC 9421 §2); the `Signature-Input` and
//! `Signature` fields are parsed here, member by member, with `sfv`, so that one bad label does
//! not hide a good one (ACA-L3-007) and so that unregistered signature parameters are kept in
//! `@signature-params` and otherwise ignored (ACA-L3-009).

use std::collections::BTreeSet;

use citeproof_httpsig::{
    ComponentId, HttpSigError, Message, Response, SignatureParams, check_content_digest,
    signature_base,
};
use citeproof_jose::VerifyingKey;
use citeproof_model::{Incident, IncidentCode, Location};
use sfv::visitor::{DictionaryVisitor, Ignored};
use sfv::{BareItem, Dictionary, FieldType, InnerList, KeyRef, List, ListEntry, Parser, Version};

/// Clock skew tolerated for `created` and `expires`, in seconds (ACA-L3-010).
pub const CLOCK_SKEW_SECONDS: i64 = 300;

/// The components every manifest signature must cover (ACA-L3-009).
pub const REQUIRED_COMPONENTS: &[&str] = &["@status", "content-type", "content-digest"];

/// A response as received: status, header field lines in order, body.
#[derive(Debug, Clone, Copy)]
pub struct ReceivedResponse<'a> {
    pub status: u16,
    pub headers: &'a [(String, String)],
    pub body: &'a [u8],
}

/// How `keyid`s are resolved to keys (ACA-L3-013).
pub trait KeyResolver {
    /// The one usable key published with this `kid`, or why there is none.
    fn resolve(&self, keyid: &str) -> Result<VerifyingKey, KeyMiss>;
}

/// Why a `keyid` resolves to no key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyMiss {
    /// No usable key has this id; the message says why (`aca-key-unresolved`).
    Unresolved(String),
    /// The keys could not be read, or the key with this id is unusable, for a reason already
    /// reported as its own incident.
    AlreadyReported,
}

/// Settings of the signature check.
#[derive(Debug, Clone, Copy)]
pub struct SignatureCheck {
    /// Verification time, Unix seconds.
    pub now: i64,
    /// Maximum age of `created` in seconds (`None`: no limit, the profile's default).
    pub max_age: Option<u64>,
}

/// A label that verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedLabel {
    pub label: String,
    pub keyid: String,
    pub signature_base: String,
}

/// The outcome for one manifest response.
#[derive(Debug, Clone, Default)]
pub struct SignatureFindings {
    pub incidents: Vec<Incident>,
    pub verified: Option<VerifiedLabel>,
}

fn at(url: Option<&str>, code: IncidentCode, message: String) -> Incident {
    Incident::new(
        code,
        message,
        Location {
            url: url.map(str::to_owned),
            ..Location::default()
        },
    )
}

/// Parses a dictionary (RFC 8941), refusing a repeated member key (two readers could pick
/// different members otherwise).
pub fn parse_dictionary_strict(value: &str) -> Result<Dictionary, String> {
    #[derive(Default)]
    struct Keys(BTreeSet<String>);
    #[derive(Debug)]
    struct Dup(String);
    impl std::fmt::Display for Dup {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "duplicate dictionary key `{}`", self.0)
        }
    }
    impl std::error::Error for Dup {}
    impl<'de> DictionaryVisitor<'de> for Keys {
        type Out = ();
        type Error = Dup;
        fn entry(&mut self, key: &'de KeyRef) -> Result<impl sfv::visitor::EntryVisitor<'de>, Dup> {
            if !self.0.insert(key.as_str().to_owned()) {
                return Err(Dup(key.as_str().to_owned()));
            }
            Ok(Ignored)
        }
        fn finish(self) -> Result<(), Dup> {
            Ok(())
        }
    }
    Parser::new(value)
        .with_version(Version::Rfc8941)
        .parse_dictionary_with_visitor(Keys::default())
        .map_err(|e| e.to_string())?;
    Parser::new(value)
        .with_version(Version::Rfc8941)
        .parse_dictionary::<Dictionary>()
        .map_err(|e| e.to_string())
}

/// Builds the `citeproof-httpsig` message of a received response. Field lines that the HTTP
/// model refuses (control characters) are left out: a signature covering one of them fails as
/// a missing component.
pub fn response_message(resp: &ReceivedResponse<'_>) -> Option<Message> {
    let mut r = Response::new(resp.status).ok()?;
    for (name, value) in resp.headers {
        let _ = r.headers.push(name, value);
    }
    r.body = resp.body.to_vec();
    Some(Message::Response(r))
}

/// ACA-L3-011: `Content-Digest` over the body, checked once per response.
pub fn check_digest(message: &Message, url: Option<&str>) -> Vec<Incident> {
    let Some(value) = message.headers().combined("content-digest") else {
        return vec![at(
            url,
            IncidentCode::AcaContentDigestMissing,
            "the message has no Content-Digest field".into(),
        )];
    };
    match check_content_digest(&value, message.body()) {
        Ok(_) => Vec::new(),
        Err(e) => {
            let code = match &e {
                HttpSigError::DigestUnsupported { .. } => IncidentCode::AcaContentDigestMissing,
                HttpSigError::DigestMalformed { .. } => IncidentCode::AcaContentDigestInvalid,
                HttpSigError::DigestMismatch { .. } => IncidentCode::AcaContentDigestMismatch,
                _ => IncidentCode::HttpsigInvalidStructuredField,
            };
            vec![at(url, code, format!("Content-Digest: {e}"))]
        }
    }
}

/// What a signature must cover, and whether `Content-Digest` is checked even when it is not
/// covered.
#[derive(Debug, Clone)]
pub struct SignaturePolicy {
    /// Component identifiers every accepted signature covers (without parameters).
    pub required_components: Vec<String>,
    /// Check `Content-Digest` once per message whatever the labels (ACA-L3-011); when `false`
    /// it is checked only when a signature covers `content-digest`.
    pub always_check_digest: bool,
}

impl SignaturePolicy {
    /// The policy of ACA Level 3 manifest responses.
    pub fn aca() -> SignaturePolicy {
        SignaturePolicy {
            required_components: REQUIRED_COMPONENTS
                .iter()
                .map(|c| (*c).to_owned())
                .collect(),
            always_check_digest: true,
        }
    }
}

/// Checks the signatures of one manifest response (ACA-L3-007 to -011, -013, -014).
pub fn check_response_signature(
    resp: &ReceivedResponse<'_>,
    keys: &dyn KeyResolver,
    settings: SignatureCheck,
    url: Option<&str>,
) -> SignatureFindings {
    match response_message(resp) {
        Some(message) => {
            check_message_signature(&message, &SignaturePolicy::aca(), keys, settings, url)
        }
        None => SignatureFindings {
            incidents: vec![at(
                url,
                IncidentCode::HttpsigMissingComponent,
                format!("status {} cannot be a signed component", resp.status),
            )],
            verified: None,
        },
    }
}

/// Checks the RFC 9421 signatures of any request or response under `policy`: the message is
/// validly signed when one label passes every check; otherwise every label's first failure is
/// reported.
pub fn check_message_signature(
    message: &Message,
    policy: &SignaturePolicy,
    keys: &dyn KeyResolver,
    settings: SignatureCheck,
    url: Option<&str>,
) -> SignatureFindings {
    let mut f = SignatureFindings::default();
    let headers = message.headers();
    let input = headers.combined("signature-input");
    let sig = headers.combined("signature");
    if policy.always_check_digest {
        f.incidents.extend(check_digest(message, url));
    }
    let (Some(input), Some(sig)) = (input, sig) else {
        f.incidents.push(at(
            url,
            IncidentCode::AcaSignatureMissing,
            "the message carries no HTTP message signature (Signature-Input and Signature are both required)".into(),
        ));
        return f;
    };
    let inputs = match parse_dictionary_strict(&input) {
        Ok(d) => d,
        Err(e) => {
            f.incidents.push(at(
                url,
                IncidentCode::HttpsigInvalidStructuredField,
                format!("Signature-Input is not a structured-field dictionary: {e}"),
            ));
            return f;
        }
    };
    let signatures = match parse_dictionary_strict(&sig) {
        Ok(d) => d,
        Err(e) => {
            f.incidents.push(at(
                url,
                IncidentCode::HttpsigInvalidStructuredField,
                format!("Signature is not a structured-field dictionary: {e}"),
            ));
            return f;
        }
    };
    if inputs.is_empty() {
        f.incidents.push(at(
            url,
            IncidentCode::AcaSignatureMissing,
            "Signature-Input has no signature".into(),
        ));
        return f;
    }
    let mut failures = Vec::new();
    let mut covers_digest = false;
    for (label, entry) in &inputs {
        if let ListEntry::InnerList(list) = entry {
            covers_digest |= list.items.iter().any(|i| {
                matches!(&i.bare_item, BareItem::String(s) if s.as_str() == "content-digest")
                    && i.params.is_empty()
            });
        }
        match check_label(
            label.as_str(),
            entry,
            &signatures,
            message,
            policy,
            keys,
            settings,
        ) {
            Ok(verified) => {
                f.verified = Some(verified);
                break;
            }
            Err(LabelFail::Report((code, msg))) => failures.push(at(
                url,
                code,
                format!("signature `{}`: {msg}", label.as_str()),
            )),
            Err(LabelFail::AlreadyReported) => {}
        }
    }
    if !policy.always_check_digest && covers_digest && headers.contains("content-digest") {
        f.incidents.extend(check_digest(message, url));
    }
    if f.verified.is_none() {
        f.incidents.extend(failures);
    }
    f
}

type Fail = (IncidentCode, String);

/// Why a label did not verify.
enum LabelFail {
    /// A failure to report.
    Report(Fail),
    /// The key is unusable for a reason already reported elsewhere (a failed discovery document,
    /// a duplicate or weak key): nothing more is reported (reporting rule 3).
    AlreadyReported,
}

impl From<Fail> for LabelFail {
    fn from(fail: Fail) -> LabelFail {
        LabelFail::Report(fail)
    }
}

fn check_label(
    label: &str,
    entry: &ListEntry,
    signatures: &Dictionary,
    message: &Message,
    policy: &SignaturePolicy,
    keys: &dyn KeyResolver,
    settings: SignatureCheck,
) -> Result<VerifiedLabel, LabelFail> {
    // ACA-L3-008: shapes.
    let ListEntry::InnerList(list) = entry else {
        return Err(LabelFail::Report((
            IncidentCode::HttpsigInvalidStructuredField,
            "the Signature-Input member is not an inner list".into(),
        )));
    };
    if let Some(item) = list
        .items
        .iter()
        .find(|i| !matches!(i.bare_item, BareItem::String(_)))
    {
        return Err(LabelFail::Report((
            IncidentCode::HttpsigInvalidStructuredField,
            format!(
                "covered component `{}` is not an sf-string",
                item.serialize()
            ),
        )));
    }
    let signature = match signatures.get(label) {
        None => {
            return Err(LabelFail::Report((
                IncidentCode::HttpsigSignatureMissing,
                "the label has no value in the Signature field".into(),
            )));
        }
        Some(ListEntry::Item(item)) => match &item.bare_item {
            BareItem::ByteSequence(bytes) if bytes.len() == 64 => bytes.clone(),
            BareItem::ByteSequence(bytes) => {
                return Err(LabelFail::Report((
                    IncidentCode::HttpsigMalformedSignature,
                    format!(
                        "the signature is {} bytes; Ed25519 signatures have 64",
                        bytes.len()
                    ),
                )));
            }
            _ => {
                return Err(LabelFail::Report((
                    IncidentCode::HttpsigMalformedSignature,
                    "the Signature member is not a byte sequence".into(),
                )));
            }
        },
        Some(ListEntry::InnerList(_)) => {
            return Err(LabelFail::Report((
                IncidentCode::HttpsigMalformedSignature,
                "the Signature member is an inner list, not a byte sequence".into(),
            )));
        }
    };
    let mut components: Vec<ComponentId> = Vec::with_capacity(list.items.len());
    for item in &list.items {
        let text = item.serialize();
        let id = ComponentId::parse(&text).map_err(|e| {
            (
                IncidentCode::HttpsigInvalidComponent,
                format!("component {text}: {e}"),
            )
        })?;
        if components.iter().any(|c| c.same_as(&id)) {
            return Err(LabelFail::Report((
                IncidentCode::HttpsigDuplicateComponent,
                format!("component {text} is covered twice"),
            )));
        }
        components.push(id);
    }

    // ACA-L3-009: covered components and parameters.
    for required in &policy.required_components {
        let covered = components
            .iter()
            .any(|c| c.name() == required.as_str() && c.params().is_empty());
        if !covered {
            return Err(LabelFail::Report((
                IncidentCode::HttpsigRequiredComponentNotCovered,
                format!("the signature does not cover \"{required}\""),
            )));
        }
    }
    let lines = component_lines(message, &components)?;
    let params = SigParams::read(list)?;
    let Some(created) = params.created else {
        return Err(LabelFail::Report((
            IncidentCode::HttpsigRequiredParamMissing,
            "the signature has no `created` parameter".into(),
        )));
    };
    let Some(keyid) = params.keyid.clone() else {
        return Err(LabelFail::Report((
            IncidentCode::HttpsigRequiredParamMissing,
            "the signature has no `keyid` parameter".into(),
        )));
    };
    if let Some(alg) = &params.alg
        && alg != "ed25519"
    {
        return Err(LabelFail::Report((
            IncidentCode::HttpsigAlgMismatch,
            format!("alg is `{alg}`; only `ed25519` is accepted"),
        )));
    }

    // ACA-L3-010: time window.
    let now = settings.now;
    if created > now.saturating_add(CLOCK_SKEW_SECONDS) {
        return Err(LabelFail::Report((
            IncidentCode::HttpsigCreatedInFuture,
            format!(
                "created {created} is more than {CLOCK_SKEW_SECONDS} s after the verification time {now}"
            ),
        )));
    }
    if let Some(expires) = params.expires {
        if expires <= created {
            return Err(LabelFail::Report((
                IncidentCode::HttpsigExpired,
                format!("expires {expires} is not after created {created}"),
            )));
        }
        if now > expires.saturating_add(CLOCK_SKEW_SECONDS) {
            return Err(LabelFail::Report((
                IncidentCode::HttpsigExpired,
                format!("the signature expired at {expires} (verification time {now})"),
            )));
        }
    }
    if let Some(max_age) = settings.max_age {
        let max_age = i64::try_from(max_age).unwrap_or(i64::MAX);
        if created < now.saturating_sub(max_age) {
            return Err(LabelFail::Report((
                IncidentCode::HttpsigTooOld,
                format!("created {created} is older than the maximum age of {max_age} s"),
            )));
        }
    }

    // ACA-L3-013: key.
    let key = match keys.resolve(&keyid) {
        Ok(key) => key,
        Err(KeyMiss::AlreadyReported) => return Err(LabelFail::AlreadyReported),
        Err(KeyMiss::Unresolved(why)) => {
            return Err(LabelFail::Report((
                IncidentCode::AcaKeyUnresolved,
                format!("keyid `{keyid}`: {why}"),
            )));
        }
    };

    // ACA-L3-014: signature.
    let serialized = serialize_inner_list(list).ok_or((
        IncidentCode::HttpsigInvalidStructuredField,
        "the signature parameters cannot be serialized".to_owned(),
    ))?;
    let base = format!("{lines}\"@signature-params\": {serialized}");
    key.verify(base.as_bytes(), &signature).map_err(|_| {
        (
            IncidentCode::AcaSignatureInvalid,
            format!(
                "the Ed25519 signature does not verify with key `{keyid}` over the signature base"
            ),
        )
    })?;
    Ok(VerifiedLabel {
        label: label.to_owned(),
        keyid,
        signature_base: base,
    })
}

/// The component lines of the signature base (RFC 9421 §2.5 steps 1-2), each ending in LF.
pub fn component_lines(message: &Message, components: &[ComponentId]) -> Result<String, Fail> {
    let params = SignatureParams::new(components.to_vec());
    let base = signature_base(message, &params).map_err(|e| {
        let code = match &e {
            HttpSigError::InvalidComponent { .. } => IncidentCode::HttpsigInvalidComponent,
            HttpSigError::DuplicateComponent { .. } => IncidentCode::HttpsigDuplicateComponent,
            _ => IncidentCode::HttpsigMissingComponent,
        };
        (code, e.to_string())
    })?;
    // `signature_base` ends with the `@signature-params` line of a parameterless list; keep the
    // component lines only.
    let cut = base.rfind("\"@signature-params\": ").ok_or((
        IncidentCode::HttpsigMissingComponent,
        "no signature base".to_owned(),
    ))?;
    Ok(base[..cut].to_owned())
}

/// The canonical serialization of a received inner list (RFC 9421 §2.3): the value of the
/// `@signature-params` line.
pub fn serialize_inner_list(list: &InnerList) -> Option<String> {
    let l: List = vec![ListEntry::InnerList(list.clone())];
    l.serialize()
}

#[derive(Debug, Default)]
struct SigParams {
    created: Option<i64>,
    expires: Option<i64>,
    keyid: Option<String>,
    alg: Option<String>,
}

impl SigParams {
    fn read(list: &InnerList) -> Result<SigParams, Fail> {
        let mut p = SigParams::default();
        for (key, value) in &list.params {
            let name = key.as_str();
            let int = || match value {
                BareItem::Integer(i) => Ok(i64::from(*i)),
                _ => Err((
                    IncidentCode::HttpsigInvalidParameter,
                    format!("parameter `{name}` must be an integer"),
                )),
            };
            let string = || match value {
                BareItem::String(s) => Ok(s.as_str().to_owned()),
                _ => Err((
                    IncidentCode::HttpsigInvalidParameter,
                    format!("parameter `{name}` must be a string"),
                )),
            };
            match name {
                "created" => p.created = Some(int()?),
                "expires" => p.expires = Some(int()?),
                "keyid" => p.keyid = Some(string()?),
                "alg" => p.alg = Some(string()?),
                "nonce" | "tag" => {
                    string()?;
                }
                _ => {} // unregistered parameters are ignored (kept in the base)
            }
        }
        Ok(p)
    }
}

/// Keys given directly (a JWK Set), resolved by exact `kid` equality.
#[derive(Debug, Clone, Default)]
pub struct StaticKeys {
    pub keys: Vec<super::discovery::PublishedKey>,
    pub unusable: Vec<String>,
}

impl KeyResolver for StaticKeys {
    fn resolve(&self, keyid: &str) -> Result<VerifyingKey, KeyMiss> {
        if self.unusable.iter().any(|k| k == keyid) {
            return Err(KeyMiss::AlreadyReported);
        }
        let found: Vec<&super::discovery::PublishedKey> =
            self.keys.iter().filter(|k| k.kid == keyid).collect();
        match found.as_slice() {
            [one] => Ok(one.key),
            [] => Err(KeyMiss::Unresolved("no key has this kid".into())),
            _ => Err(KeyMiss::Unresolved("several keys have this kid".into())),
        }
    }
}

/// The outcome of [`verify_http_message`].
#[derive(Debug, Clone, Default)]
pub struct HttpMessageVerification {
    pub incidents: Vec<Incident>,
    /// The signature base of the label that verified.
    pub signature_base: Option<String>,
}

/// RFC 9421 verification of one HTTP/1.1 message (request or response) with the keys of a JWK
/// Set (the `httpsig-verify` operation of docs/ADAPTER.md): ACA-L3-008 to ACA-L3-011 and
/// ACA-L3-014 with `required_components` (default: the ACA three). `Content-Digest` is checked
/// when a signature covers it. `Err` when the message text is not an HTTP/1.1 message.
pub fn verify_http_message(
    message: &[u8],
    keys: &serde_json::Value,
    now: i64,
    required_components: Option<Vec<String>>,
) -> Result<HttpMessageVerification, String> {
    let parsed = citeproof_httpsig::parse_http1(message).map_err(|e| e.to_string())?;
    let ctx = super::jsonpath::Ctx::default();
    let set = super::discovery::check_jwk_set(keys, "", &ctx);
    let mut incidents = set.incidents;
    let resolver = StaticKeys {
        keys: set.keys,
        unusable: set.unusable_kids,
    };
    let policy = SignaturePolicy {
        required_components: required_components.unwrap_or_else(|| {
            REQUIRED_COMPONENTS
                .iter()
                .map(|c| (*c).to_owned())
                .collect()
        }),
        always_check_digest: false,
    };
    let found = check_message_signature(
        &parsed,
        &policy,
        &resolver,
        SignatureCheck { now, max_age: None },
        None,
    );
    incidents.extend(found.incidents);
    Ok(HttpMessageVerification {
        incidents,
        signature_base: found.verified.map(|v| v.signature_base),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_dictionary() {
        assert!(parse_dictionary_strict("a=1, b=2").is_ok());
        assert!(parse_dictionary_strict("a=1, a=2").is_err());
        assert!(parse_dictionary_strict("a=(").is_err());
    }
}

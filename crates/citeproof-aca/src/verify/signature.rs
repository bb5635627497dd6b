//! The HTTP message signature of a manifest response: ACA-L3-007 to ACA-L3-011, ACA-L3-013 and
//! ACA-L3-014. The RFC 9421 checks are `citeproof-httpsig`'s one verifier
//! ([`citeproof_httpsig::verify_message`], a report per label); this module sets the ACA policy
//! (required components and parameters, clock skew, freshness), checks `Content-Digest` once per
//! response and turns each label's failure into a registry incident.

use citeproof_httpsig::{
    ComponentId, DEFAULT_CLOCK_SKEW, HttpSigError, LabelFailure, Message, ParamName, Response,
    VerifyPolicy, check_content_digest, verify_message,
};
use citeproof_model::{Incident, IncidentCode, Location};

pub use citeproof_httpsig::{KeyMiss, KeyResolver, VerifyingKey};

/// A published key (JOSE, already checked strictly by SIG-005) as the verifier's key type.
pub fn verifying_key(key: &citeproof_jose::VerifyingKey) -> Result<VerifyingKey, KeyMiss> {
    citeproof_httpsig::verifying_key_from_bytes(&key.to_bytes())
        .map_err(|e| KeyMiss::Unresolved(format!("the published key is not usable: {e}")))
}

/// Clock skew tolerated for `created` and `expires`, in seconds (ACA-L3-010): the profile's one
/// tolerance, which is also the RFC 9421 verifier's default (checked when this compiles).
pub const CLOCK_SKEW_SECONDS: i64 = citeproof_model::CLOCK_SKEW_SECONDS;
const _: () = assert!(DEFAULT_CLOCK_SKEW as i64 == CLOCK_SKEW_SECONDS);

/// Maximum age of a manifest signature by default, in seconds: 90 days (ACA-L3-010).
pub const DEFAULT_MAX_SIGNATURE_AGE: u64 = 90 * 24 * 60 * 60;

/// The components every manifest signature must cover (ACA-L3-009).
pub const REQUIRED_COMPONENTS: &[&str] = &["@status", "content-type", "content-digest"];

/// A response as received: status, header field lines in order, body.
#[derive(Debug, Clone, Copy)]
pub struct ReceivedResponse<'a> {
    pub status: u16,
    pub headers: &'a [(String, String)],
    pub body: &'a [u8],
}

/// Settings of the signature check (ACA-L3-010).
#[derive(Debug, Clone, Copy)]
pub struct SignatureCheck {
    /// Verification time, Unix seconds.
    pub now: i64,
    /// Maximum age of `created` in seconds (`None`: no limit).
    pub max_age: Option<u64>,
    /// `emitted_at` of the manifest the signature signs (Unix seconds): `created` may not be
    /// more than the clock skew before it.
    pub emitted_at: Option<i64>,
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
        Err(e) => vec![at(url, incident_code(&e), format!("Content-Digest: {e}"))],
    }
}

/// The registry code of a failure of the RFC 9421 verifier, in ACA terms.
pub fn incident_code(e: &HttpSigError) -> IncidentCode {
    use HttpSigError as E;
    use IncidentCode as C;
    match e {
        E::SignatureInputMissing => C::AcaSignatureMissing,
        E::SignatureMissing { .. } => C::HttpsigSignatureMissing,
        E::MalformedSignature { .. } => C::HttpsigMalformedSignature,
        E::InvalidComponent { .. } => C::HttpsigInvalidComponent,
        E::DuplicateComponent { .. } => C::HttpsigDuplicateComponent,
        E::MissingComponent { .. }
        | E::StatusOnRequest
        | E::ComponentNotApplicable { .. }
        | E::RelatedRequestMissing { .. }
        | E::TrailersUnsupported { .. }
        | E::AmbiguousQueryParam { .. } => C::HttpsigMissingComponent,
        E::RequiredComponentNotCovered { .. } => C::HttpsigRequiredComponentNotCovered,
        E::InvalidParameter { .. } => C::HttpsigInvalidParameter,
        E::RequiredParamMissing { .. } => C::HttpsigRequiredParamMissing,
        E::AlgMismatch { .. } => C::HttpsigAlgMismatch,
        E::CreatedInFuture { .. } => C::HttpsigCreatedInFuture,
        E::CreatedTooEarly { .. } => C::AcaSignaturePredatesRun,
        E::InvalidExpiry { .. } | E::Expired { .. } => C::HttpsigExpired,
        E::TooOld { .. } => C::HttpsigTooOld,
        E::KeyUnresolved { .. } => C::AcaKeyUnresolved,
        E::SignatureInvalid { .. } | E::KeyInvalid { .. } | E::WeakKey => C::AcaSignatureInvalid,
        E::DigestUnsupported { .. } => C::AcaContentDigestMissing,
        E::DigestMalformed { .. } => C::AcaContentDigestInvalid,
        E::DigestMismatch { .. } => C::AcaContentDigestMismatch,
        _ => C::HttpsigInvalidStructuredField,
    }
}

/// What a signature must cover, and whether `Content-Digest` is checked even when it is not
/// covered.
#[derive(Debug, Clone)]
pub struct SignaturePolicy {
    /// Component identifiers every accepted signature covers (without parameters).
    pub required_components: Vec<String>,
    /// Check `Content-Digest` once per response whatever the labels (ACA-L3-011); otherwise
    /// only when a verified label covers it and the field is present.
    pub always_check_digest: bool,
}

impl SignaturePolicy {
    /// The policy of ACA Level 3.
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
/// reported (a label whose key was already reported unusable adds nothing, reporting rule 3).
pub fn check_message_signature(
    message: &Message,
    policy: &SignaturePolicy,
    keys: &dyn KeyResolver,
    settings: SignatureCheck,
    url: Option<&str>,
) -> SignatureFindings {
    let mut f = SignatureFindings::default();
    if policy.always_check_digest {
        f.incidents.extend(check_digest(message, url));
    }
    let headers = message.headers();
    if !headers.contains("signature-input") || !headers.contains("signature") {
        f.incidents.push(at(
            url,
            IncidentCode::AcaSignatureMissing,
            "the message carries no HTTP message signature (Signature-Input and Signature are both required)".into(),
        ));
        return f;
    }
    let mut required_components = Vec::with_capacity(policy.required_components.len());
    for c in &policy.required_components {
        match ComponentId::parse(c) {
            Ok(id) => required_components.push(id),
            Err(e) => {
                f.incidents.push(at(url, incident_code(&e), e.to_string()));
                return f;
            }
        }
    }
    let verify_policy = VerifyPolicy {
        required_components,
        required_params: vec![ParamName::Created, ParamName::KeyId],
        max_clock_skew: DEFAULT_CLOCK_SKEW,
        max_age: settings.max_age,
        not_before: settings
            .emitted_at
            .map(|t| t.saturating_sub(CLOCK_SKEW_SECONDS)),
        check_content_digest: false,
    };
    let report = match verify_message(message, keys, &verify_policy, settings.now) {
        Ok(r) => r,
        Err(e) => {
            let what = match &e {
                HttpSigError::SignatureInputMissing => "Signature-Input has no signature".into(),
                other => other.to_string(),
            };
            f.incidents.push(at(url, incident_code(&e), what));
            return f;
        }
    };
    if !policy.always_check_digest && report.covers_digest() && headers.contains("content-digest") {
        f.incidents.extend(check_digest(message, url));
    }
    match report.verified() {
        Some(v) => {
            f.verified = Some(VerifiedLabel {
                label: v.label.clone(),
                keyid: v.params.keyid().unwrap_or_default().to_owned(),
                signature_base: v.signature_base.clone(),
            });
        }
        None => {
            for label in &report.labels {
                if let Err(failure @ LabelFailure::Failed(e)) = &label.outcome {
                    f.incidents
                        .push(at(url, incident_code(e), failure.describe(&label.label)));
                }
            }
        }
    }
    f
}

/// Keys given directly (a JWK Set), resolved by exact `kid` equality.
#[derive(Debug, Clone, Default)]
pub struct StaticKeys {
    pub keys: Vec<super::discovery::PublishedKey>,
    pub unusable: Vec<String>,
}

impl KeyResolver for StaticKeys {
    fn resolve(&self, keyid: Option<&str>) -> Result<VerifyingKey, KeyMiss> {
        let Some(keyid) = keyid else {
            return Err(KeyMiss::Unresolved("the signature has no keyid".into()));
        };
        if self.unusable.iter().any(|k| k == keyid) {
            return Err(KeyMiss::AlreadyReported);
        }
        let found: Vec<&super::discovery::PublishedKey> =
            self.keys.iter().filter(|k| k.kid == keyid).collect();
        match found.as_slice() {
            [one] => verifying_key(&one.key),
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
        SignatureCheck {
            now,
            max_age: None,
            emitted_at: None,
        },
        None,
    );
    incidents.extend(found.incidents);
    Ok(HttpMessageVerification {
        incidents,
        signature_base: found.verified.map(|v| v.signature_base),
    })
}

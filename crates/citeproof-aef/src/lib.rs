//! AI Evidence Format v0.1: validate, verify (Levels 1-3) and build evidence objects, as made
//! precise by `docs/PROFILE.md` (AEF-4-*, AEF-VOC-*, AEF-SEL-*, AEF-5-*, AEF-L2-*, AEF-L3-*).
//!
//! - [`validate`]: Level 1 (Attach), what `citeproof validate --kind evidence` reports: the
//!   published schema with the profile's specific codes, plus warnings;
//! - [`verify`] / [`verify_value`]: Levels 1-3 over a [`Fetcher`], returning the level achieved
//!   and every incident with the level it counts toward; spans are resolved by
//!   [`citeproof_span::compute_span`], the same function the builder uses;
//! - [`signature`]: the detached JWS of Level 3;
//! - [`build`]: build an evidence object from a source and a span, and sign it;
//! - [`ops`]: the conformance operations of docs/ADAPTER.md §5.3.

pub mod build;
pub mod ops;
pub use ops::SPEC;
pub mod signature;
mod span;
mod validate;

use citeproof_fetch::{FetchPolicy, Fetcher, ResourceFetcher, get_ok};
use citeproof_jose::{KeySet, SignerTrust};
use citeproof_model::aef::Evidence;
use citeproof_model::snapshot::StoredResponse;
use citeproof_model::{
    Findings, Incident, IncidentCode, Item, Location, Report, Severity, SourceView, Subject,
    SubjectKind, json::parse_strict,
};
use citeproof_schema::{DocumentKind, SchemaValidator};
use serde::Serialize;
use serde_json::Value;

pub use citeproof_span::{ComputedSpan, SpanError, compute_span};
pub use validate::{refine_schema_incidents, semantic_check};

/// Which enumerated values an evidence object may use (profile AEF-VOC-001, AEF-VOC-002).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Vocabulary {
    /// The published schema's values only: the conformance levels.
    #[default]
    Spec,
    /// Also the landing page's values, each with a warning: a lenient reading for documents
    /// written from the landing page. Its results are not AEF conformance levels.
    Landing,
}

/// Level 1 of an evidence value: schema (published-schema semantics, specific codes) and the
/// semantic warnings. Errors mean the document is not an AEF evidence object (level 0).
pub fn validate(value: &Value) -> Vec<Incident> {
    validate_with(value, Vocabulary::Spec)
}

/// [`validate`] under a vocabulary.
pub fn validate_with(value: &Value, vocabulary: Vocabulary) -> Vec<Incident> {
    let schema = match SchemaValidator::cached(DocumentKind::AefEvidence) {
        Ok(v) => v.validate(value),
        Err(e) => vec![Incident::new(
            IncidentCode::SchemaViolation,
            e.to_string(),
            Location::default(),
        )],
    };
    validate::level1(value, schema, vocabulary)
}

/// Where the source comes from for Level 2.
#[derive(Debug, Clone, Default)]
pub enum SourceChoice {
    /// Fetch `source.uri` (it must be a web URL).
    #[default]
    FromUri,
    /// Fetch this URL instead of `source.uri` (a mirror, a local server).
    Url(String),
    /// Use these bytes, served as `media_type` (a local file; no fetch).
    Bytes { media_type: String, body: Vec<u8> },
}

/// How to verify an evidence object.
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions {
    pub source: SourceChoice,
    /// Keys to verify the JWS with instead of fetching `verification.signing_key_uri`. The user
    /// chose them, so a JWS that verifies under them is trusted (AEF-L3-006).
    pub keys: Option<KeySet>,
    /// `signing_key_uri` values the user trusts (AEF-L3-006): a key fetched from any other URL
    /// gives `aef-key-untrusted` even when the JWS verifies under it.
    pub trusted_key_uris: Vec<String>,
    /// Level to check up to and require. `None`: the level the object claims, 3 when it has
    /// `verification.signature`, else 2.
    pub required_level: Option<u8>,
    /// The vocabulary documents may use; anything but the default is outside conformance.
    pub vocabulary: Vocabulary,
    /// Verification time, Unix seconds (never read from a clock by the library); `None`: no
    /// check that needs one (AEF-4-007).
    pub now: Option<i64>,
    /// The user's trust file: its `key_locations` are trusted like `trusted_key_uris`, and keys
    /// given for a signer id equal to the object's `signing_key_uri` are used without fetching
    /// (and trusted).
    pub trust: SignerTrust,
}

/// What an AEF report carries besides the common verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AefDetails {
    /// The resolved span, when Level 2 got that far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<ComputedSpan>,
    /// The vocabulary the object was read with; `landing` results are not conformance levels.
    pub vocabulary: Vocabulary,
}

/// Result of verifying one evidence object: the common report shape
/// ([`citeproof_model::Report`]) with [`AefDetails`].
pub type AefReport = Report<AefDetails>;

fn finish(
    findings: Findings,
    subject: Subject,
    options: &VerifyOptions,
    required: u8,
    checked: u8,
    span: Option<ComputedSpan>,
) -> AefReport {
    let details = AefDetails {
        span,
        vocabulary: options.vocabulary,
    };
    Report::new(
        SPEC.name(),
        subject,
        findings.finish(required, checked),
        details,
    )
}

/// Verifies an evidence object given as bytes (strict I-JSON first: JSON-001/002). The
/// report's subject is a value with the digest of `bytes`; a caller that read a file or a URL
/// names it ([`Report::subject`]).
pub fn verify(bytes: &[u8], fetcher: &dyn Fetcher, options: &VerifyOptions) -> AefReport {
    let subject = Subject::new(SubjectKind::Value, "evidence").with_digest_of(bytes);
    match parse_strict(bytes) {
        Ok(value) => {
            let mut report = verify_value(&value, fetcher, options);
            report.subject = subject;
            report
        }
        Err(e) => {
            let mut findings = Findings::new();
            findings.push(1, e.to_incident());
            let required = options.required_level.unwrap_or(1).clamp(1, 3);
            let mut report = finish(findings, subject, options, required, 1, None);
            report.trust = trust_used(options);
            report
        }
    }
}

/// Verifies a parsed evidence object up to the required level.
pub fn verify_value(value: &Value, fetcher: &dyn Fetcher, options: &VerifyOptions) -> AefReport {
    let mut report = check_levels(value, fetcher, options);
    report.trust = trust_used(options);
    report.items = vec![evidence_item(value, &report)];
    report
}

/// What the verification trusted: the trust file's signers and key locations, the key given
/// directly (named `given key`) and the key locations given directly.
fn trust_used(options: &VerifyOptions) -> citeproof_model::TrustUsed {
    let mut used = options.trust.describe();
    if let Some(keys) = &options.keys {
        let named = keys
            .entries()
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let name = e.kid.clone().unwrap_or_else(|| format!("key {}", i + 1));
                (name, e.key.thumbprint())
            })
            .collect();
        used.signers.insert(
            "given key".into(),
            citeproof_model::SignerKeys {
                keys: named,
                ..Default::default()
            },
        );
    }
    used.key_locations
        .extend(options.trusted_key_uris.iter().cloned());
    used
}

/// The evidence object in the shared item form: its claim, and the source it was checked
/// against with the declared and computed hashes. The report is about this one object, so
/// every error concerns it.
fn evidence_item(value: &Value, report: &AefReport) -> Item {
    let text_at = |pointer: &str| {
        value
            .pointer(pointer)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let failed: Vec<String> = report
        .verdict
        .incidents
        .iter()
        .filter(|i| i.incident.severity == Severity::Error)
        .map(|i| i.incident.code.as_str().to_owned())
        .collect();
    let locator = match (
        text_at("/span/selector_type"),
        text_at("/span/selector_value"),
    ) {
        (Some(kind), Some(selector)) => Some(format!("{kind}: {selector}")),
        (kind, _) => kind,
    };
    let span = report.details.span.as_ref();
    let source = SourceView {
        url: text_at("/source/uri").unwrap_or_default(),
        locator,
        declared_hash: text_at("/verification/content_hash"),
        computed_hash: span.map(|s| s.content_hash.to_string()),
        excerpt: span
            .map(|s| s.exact_text.clone())
            .or_else(|| text_at("/span/exact_text")),
        // The source is verified only where its span was resolved and hashed (Level 2 ran):
        // a Level 1 run says nothing about the source.
        verified: failed.is_empty() && span.is_some(),
        failed: Vec::new(),
    };
    Item {
        kind: "evidence".into(),
        id: text_at("/evidence_id").unwrap_or_default(),
        text: text_at("/claim_text"),
        verified: failed.is_empty() && report.verdict.verified,
        verdict: None,
        failed,
        sources: vec![source],
        items: Vec::new(),
    }
}

fn check_levels(value: &Value, fetcher: &dyn Fetcher, options: &VerifyOptions) -> AefReport {
    let subject = Subject::new(SubjectKind::Value, "evidence");
    let has_signature = value.pointer("/verification/signature").is_some();
    let required = options
        .required_level
        .unwrap_or(if has_signature { 3 } else { 2 })
        .clamp(1, 3);
    let mut run = Findings::new();
    // ---- Level 1 ----
    run.extend(1, validate_with(value, options.vocabulary));
    if let Some(now) = options.now {
        run.extend(1, validate::fetched_in_future(value, now));
    }
    if run.fails(1) {
        return finish(run, subject, options, required, 1, None);
    }
    let evidence: Evidence = match citeproof_model::typed(value) {
        Ok(e) => e,
        Err(incident) => {
            run.push(1, incident);
            return finish(run, subject, options, required, 1, None);
        }
    };
    if required < 2 {
        return finish(run, subject, options, required, 1, None);
    }
    // ---- Level 2 ----
    let span = level2(&evidence, fetcher, options, &mut run);
    if required < 3 {
        return finish(run, subject, options, required, 2, span);
    }
    // ---- Level 3 ----
    let configured = options
        .keys
        .as_ref()
        .or_else(|| configured_keys(&evidence, &options.trust));
    let keys = match configured {
        Some(set) => signature::KeySource::Given(set),
        None => signature::KeySource::Fetch(fetcher),
    };
    let (l3, origin) = signature::check_with_origin(value, keys);
    run.extend(3, l3);
    // AEF-L3-006: a key the document names is not a key the user trusts.
    if let Some(signature::KeyOrigin::Fetched(uri)) = origin
        && !options
            .trusted_key_uris
            .iter()
            .chain(options.trust.key_locations())
            .any(|t| citeproof_model::weburl::urls_equal(t, &uri))
    {
        run.push(
            3,
            Incident::new(
                IncidentCode::AefKeyUntrusted,
                format!(
                    "the JWS verifies under the key at {uri}, but that key location is not one the verifier trusts (the document names its own key; give the key or trust its location)"
                ),
                Location {
                    url: Some(uri),
                    pointer: Some("/verification/signing_key_uri".into()),
                    ..Location::default()
                },
            ),
        );
    }
    finish(run, subject, options, required, 3, span)
}

/// The keys a trust file gives for the object's `signing_key_uri` (its signer id is the key
/// location): configured by the user, so trusted, and used without fetching.
fn configured_keys<'t>(evidence: &Evidence, trust: &'t SignerTrust) -> Option<&'t KeySet> {
    let uri = evidence.verification.signing_key_uri.as_ref()?;
    trust
        .signers()
        .find(|signer| citeproof_model::weburl::urls_equal(signer, uri.as_str()))
        .and_then(|signer| trust.keys(signer)?.ok())
}

/// Verifies an evidence object (raw JSON bytes) with every fetch answered from `resources`
/// (absolute URL → stored response), under the same rules as live fetching (FETCH-008): the
/// conformance operation `aef-verify`.
pub fn verify_with_resources(
    bytes: &[u8],
    resources: std::collections::BTreeMap<String, StoredResponse>,
    options: &VerifyOptions,
) -> AefReport {
    match ResourceFetcher::new(&resources, FetchPolicy::default()) {
        Ok(fetcher) => verify(bytes, &fetcher, options),
        Err(e) => verify(bytes, &FailingFetcher(e), options),
    }
}

/// A fetcher whose every fetch fails with the same error (an unusable snapshot).
struct FailingFetcher(citeproof_fetch::FetchError);

impl Fetcher for FailingFetcher {
    fn fetch(
        &self,
        _url: &str,
    ) -> Result<citeproof_fetch::FetchedResponse, citeproof_fetch::FetchError> {
        Err(self.0.clone())
    }
}

fn level2(
    evidence: &Evidence,
    fetcher: &dyn Fetcher,
    options: &VerifyOptions,
    run: &mut Findings,
) -> Option<ComputedSpan> {
    let declared = evidence.verification.content_hash;
    // AEF-5-002: needs no fetch (a redacted exact_text is checked once the span is resolved).
    if let Some(incident) = span::check_exact_text_hash(&evidence.span, declared) {
        run.push(2, incident);
    }
    // AEF-SEL-*: selector syntax, before fetching anything.
    let span = &evidence.span;
    if let Err(incident) = citeproof_span::parse_span_selector(span) {
        run.push(2, incident);
        return None;
    }
    // AEF-L2-001.
    let (media_type, body) = match &options.source {
        SourceChoice::Bytes { media_type, body } => (media_type.clone(), body.clone()),
        choice => {
            let url = match choice {
                SourceChoice::Url(u) => u.as_str(),
                _ => evidence.source.uri.as_str(),
            };
            if matches!(choice, SourceChoice::FromUri)
                && let Some(problem) = citeproof_model::weburl::web_url_problem(url)
            {
                run.push(
                    2,
                    Incident::new(
                        IncidentCode::AefSourceFetchFailed,
                        format!("source.uri cannot be fetched: it is not a web URL ({problem})"),
                        Location::pointer("/source/uri"),
                    ),
                );
                return None;
            }
            match get_ok(fetcher, url) {
                Ok(resp) => (
                    resp.content_type_essence()
                        .unwrap_or_else(|| citeproof_span::media::OCTET_STREAM.to_owned()),
                    Vec::from(resp.body),
                ),
                Err(cause) => {
                    run.push(
                        2,
                        Incident::new(
                            IncidentCode::AefSourceFetchFailed,
                            format!("the source could not be fetched: {}", cause.message),
                            Location {
                                url: Some(url.to_owned()),
                                ..Location::default()
                            },
                        ),
                    );
                    run.push(2, cause);
                    return None;
                }
            }
        }
    };
    // AEF-L2-002..009, then AEF-5-001 and a redacted exact_text (AEF-5-002).
    let (incidents, computed) = span::check_resolved(span, declared, &media_type, &body);
    run.extend(2, incidents);
    computed
}

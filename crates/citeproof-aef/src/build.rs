//! AI Evidence Format v0.1: build an evidence object from a source and a span, and sign it.
//!
//! [`build_evidence`] resolves the span with the same resolver the verifier uses
//! ([`citeproof_span::compute_span`]), so `exact_text` and `content_hash` are exactly what a
//! conforming verifier recomputes (AEF-5-001, AEF-5-002), and checks the result at Level 1.
//! [`sign_evidence`] adds a detached JWS (`EdDSA`, RFC 7515 Appendix F) over the JCS form of the
//! object without `verification.signature` and `verification.signing_key_uri` (AEF-5-003).

use citeproof_jose::{SigningKey, evidence_signing_input, sign_detached};
use citeproof_model::aef::{
    EVIDENCE_VERSION, RetrievalMethod, SelectorType, SourceType, Span, SynthesisRole,
};
use citeproof_model::{Incident, Severity};
use citeproof_span::{ComputedSpan, compute_span};

use crate::validate;
use serde_json::{Value, json};

/// Why an evidence object could not be built or signed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum EvidenceError {
    /// The span cannot be resolved in the source (the incident says why, with its registry code).
    #[error("the span cannot be resolved: {0}")]
    Span(Box<Incident>),
    /// A `text_quote` whose anchor is not how the quote reads in the source text (for HTML, runs
    /// of whitespace become one space).
    #[error(
        "the text_quote anchor {anchor:?} is not a prefix of the quote as it reads in the source ({quote:?})"
    )]
    AnchorNotPrefix { anchor: String, quote: String },
    /// The object would not be valid at Level 1 (the incidents say why).
    #[error("the evidence object is not valid: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<Incident>),
    /// The document to sign is not an object with a `verification` object.
    #[error("cannot sign: {0}")]
    NotSignable(String),
}

impl EvidenceError {
    /// Stable code: the registry code of the underlying incident where there is one.
    pub fn code(&self) -> &'static str {
        match self {
            EvidenceError::Span(i) => i.code.as_str(),
            EvidenceError::AnchorNotPrefix { .. } => "aef-selector-invalid",
            EvidenceError::Invalid(incidents) => incidents
                .iter()
                .find(|i| i.severity == Severity::Error)
                .map_or("schema-violation", |i| i.code.as_str()),
            EvidenceError::NotSignable(_) => "evidence-not-signable",
        }
    }
}

/// What an evidence object says, apart from what is computed from the source.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvidence {
    pub evidence_id: String,
    pub claim_text: String,
    pub source_uri: String,
    pub source_type: SourceType,
    pub title: Option<String>,
    pub publisher: Option<String>,
    /// RFC 3339 date-time.
    pub published_at: Option<String>,
    /// RFC 3339 date-time.
    pub fetched_at: String,
    pub selector_type: SelectorType,
    /// Required unless `selector_type` is `none`. For `text_quote` it is the quote, or the anchor
    /// (prefix) of [`NewEvidence::quote`].
    pub selector_value: Option<String>,
    /// `text_quote` only: a quote longer than its anchor `selector_value`.
    pub quote: Option<String>,
    pub surrounding_context: Option<String>,
    pub retrieval_method: RetrievalMethod,
    pub confidence: Option<f64>,
    pub rank: Option<u64>,
    pub freshness_age_seconds: Option<u64>,
    pub retriever_id: Option<String>,
    pub synthesis_role: SynthesisRole,
    pub notes: Option<String>,
    pub signed_by: Option<String>,
    pub signing_key_uri: Option<String>,
}

impl NewEvidence {
    /// An evidence object with the required members and spec-vocabulary defaults
    /// (`webpage`, `direct_fetch`, `supporting`).
    pub fn new(
        evidence_id: impl Into<String>,
        claim_text: impl Into<String>,
        source_uri: impl Into<String>,
        fetched_at: impl Into<String>,
        selector_type: SelectorType,
        selector_value: Option<String>,
    ) -> NewEvidence {
        NewEvidence {
            evidence_id: evidence_id.into(),
            claim_text: claim_text.into(),
            source_uri: source_uri.into(),
            source_type: SourceType::Webpage,
            title: None,
            publisher: None,
            published_at: None,
            fetched_at: fetched_at.into(),
            selector_type,
            selector_value,
            quote: None,
            surrounding_context: None,
            retrieval_method: RetrievalMethod::DirectFetch,
            confidence: None,
            rank: None,
            freshness_age_seconds: None,
            retriever_id: None,
            synthesis_role: SynthesisRole::Supporting,
            notes: None,
            signed_by: None,
            signing_key_uri: None,
        }
    }
}

fn name<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn text(v: &Option<String>) -> Option<Value> {
    v.clone().map(Value::from)
}

/// An object of the members whose value is `Some`.
fn object<const N: usize>(members: [(&str, Option<Value>); N]) -> Value {
    let present = members
        .into_iter()
        .filter_map(|(k, v)| Some((k.to_owned(), v?)));
    Value::Object(present.collect())
}

/// Builds a Level-1-valid evidence object whose `exact_text` and `content_hash` are computed from
/// `body`, served as `media_type`, under the span of `input`.
pub fn build_evidence(
    input: &NewEvidence,
    media_type: &str,
    body: &[u8],
) -> Result<Value, EvidenceError> {
    let is_quote = input.selector_type == SelectorType::TextQuote;
    let span = Span {
        selector_type: input.selector_type,
        selector_value: input.selector_value.clone(),
        exact_text: if is_quote { input.quote.clone() } else { None },
        surrounding_context: input.surrounding_context.clone(),
    };
    let ComputedSpan {
        exact_text,
        content_hash,
        ..
    } = compute_span(&span, media_type, body).map_err(|i| EvidenceError::Span(Box::new(i)))?;
    if is_quote
        && let Some(anchor) = &input.selector_value
        && !exact_text.starts_with(anchor.as_str())
    {
        return Err(EvidenceError::AnchorNotPrefix {
            anchor: anchor.clone(),
            quote: exact_text,
        });
    }
    let source = object([
        ("uri", Some(json!(input.source_uri))),
        ("type", Some(name(&input.source_type))),
        ("title", text(&input.title)),
        ("publisher", text(&input.publisher)),
        ("published_at", text(&input.published_at)),
        ("fetched_at", Some(json!(input.fetched_at))),
    ]);
    let span_obj = object([
        ("selector_type", Some(name(&input.selector_type))),
        ("selector_value", text(&input.selector_value)),
        ("exact_text", Some(Value::from(exact_text))),
        ("surrounding_context", text(&input.surrounding_context)),
    ]);
    let retrieval = object([
        ("method", Some(name(&input.retrieval_method))),
        ("confidence", input.confidence.map(Value::from)),
        ("rank", input.rank.map(Value::from)),
        (
            "freshness_age_seconds",
            input.freshness_age_seconds.map(Value::from),
        ),
        ("retriever_id", text(&input.retriever_id)),
    ]);
    let verification = object([
        ("content_hash", Some(json!(content_hash.to_string()))),
        ("signing_key_uri", text(&input.signing_key_uri)),
        ("signed_by", text(&input.signed_by)),
    ]);
    let doc = object([
        ("evidence_version", Some(json!(EVIDENCE_VERSION))),
        ("evidence_id", Some(json!(input.evidence_id))),
        ("claim_text", Some(json!(input.claim_text))),
        ("source", Some(source)),
        ("span", Some(span_obj)),
        ("retrieval", Some(retrieval)),
        ("verification", Some(verification)),
        ("synthesis_role", Some(name(&input.synthesis_role))),
        ("notes", text(&input.notes)),
    ]);

    let errors: Vec<Incident> = validate(&doc)
        .into_iter()
        .filter(|i| i.severity == Severity::Error)
        .collect();
    if !errors.is_empty() {
        return Err(EvidenceError::Invalid(errors));
    }
    Ok(doc)
}

/// How to sign.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EvidenceSignOptions {
    /// JWS header `kid`.
    pub kid: Option<String>,
    /// Sets `verification.signed_by` (covered by the signature).
    pub signed_by: Option<String>,
    /// Sets `verification.signing_key_uri` (not covered by the signature, AEF §5).
    pub signing_key_uri: Option<String>,
}

/// Returns `evidence` with `verification.signature` set to a detached JWS over its AEF-5-003
/// payload. An existing signature is replaced.
pub fn sign_evidence(
    evidence: &Value,
    key: &SigningKey,
    options: &EvidenceSignOptions,
) -> Result<Value, EvidenceError> {
    let mut doc = evidence.clone();
    let Some(verification) = doc.get_mut("verification").and_then(Value::as_object_mut) else {
        return Err(EvidenceError::NotSignable(
            "an evidence object needs a `verification` object".into(),
        ));
    };
    verification.remove("signature");
    if let Some(s) = &options.signed_by {
        verification.insert("signed_by".into(), json!(s));
    }
    if let Some(u) = &options.signing_key_uri {
        verification.insert("signing_key_uri".into(), json!(u));
    }
    let payload =
        evidence_signing_input(&doc).map_err(|e| EvidenceError::NotSignable(e.to_string()))?;
    let jws = sign_detached(&payload, key, options.kid.as_deref())
        .map_err(|e| EvidenceError::NotSignable(format!("{e} [{}]", e.code())))?;
    if let Some(v) = doc.get_mut("verification").and_then(Value::as_object_mut) {
        v.insert("signature".into(), json!(jws));
    }
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    // AEF §5 hash of "three pillars", computed independently:
    //   python3 -c "import hashlib;print(hashlib.sha256(b'three pillars').hexdigest())"
    const THREE_PILLARS: &str =
        "sha256:e38f3d1f3a04e02ce84f88defa025bd5c3c5609ca70fbac9a7dbd691c8c7326f";

    #[test]
    fn builds_a_text_quote_over_plain_text() {
        let input = NewEvidence::new(
            "ev-1",
            "AEO has three pillars.",
            "https://example.com/spec.txt",
            "2026-05-12T03:45:00Z",
            SelectorType::TextQuote,
            Some("three pillars".into()),
        );
        let doc = build_evidence(&input, "text/plain", b"The three pillars:\r\nDeclare.\r\n")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(doc["span"]["exact_text"], "three pillars");
        assert_eq!(doc["verification"]["content_hash"], THREE_PILLARS);
    }

    #[test]
    fn refuses_unresolvable_spans() {
        let input = NewEvidence::new(
            "ev-1",
            "c",
            "https://example.com/",
            "2026-05-12T03:45:00Z",
            SelectorType::TextQuote,
            Some("absent".into()),
        );
        let err = build_evidence(&input, "text/plain", b"nothing here").err();
        assert_eq!(err.map(|e| e.code()), Some("aef-span-not-found"));
    }
}

//! Level 2 checks of one span against a source body, shared by the verifier and the
//! `aef-verify-span` operation: vocabulary (AEF-VOC-001), `exact_text` (AEF-5-002), selector
//! syntax and resolution (AEF-SEL-*, AEF-L2-002..009) and the content hash (AEF-5-001).

use citeproof_model::aef::Span;
use citeproof_model::{ContentHash, Incident, IncidentCode, Location, aef_text_hash};
use citeproof_span::redaction::{is_redacted, matches_fully};
use citeproof_span::{ComputedSpan, compute_span};

use crate::Vocabulary;

/// AEF-VOC-001 for the selector type, for callers that did not validate the whole document.
pub(crate) fn vocabulary_problem(span: &Span, vocabulary: Vocabulary) -> Option<Incident> {
    (vocabulary == Vocabulary::Spec && !span.selector_type.is_spec_vocabulary()).then(|| {
        Incident::new(
            IncidentCode::AefVocabularyInvalid,
            crate::validate::landing_message(
                "span.selector_type",
                crate::validate::selector_type_name(span.selector_type),
            ),
            Location::pointer("/span/selector_type"),
        )
    })
}

/// AEF-5-002 before any fetch: an unredacted `exact_text` hashes to `content_hash`. A redacted
/// one is checked against the resolved span by [`check_resolved_exact_text`].
pub(crate) fn check_exact_text_hash(span: &Span, declared: ContentHash) -> Option<Incident> {
    let exact = span.exact_text.as_deref()?;
    if is_redacted(exact) {
        return None;
    }
    match aef_text_hash(exact.as_bytes()) {
        Ok(h) if h != declared => Some(Incident::new(
            IncidentCode::AefExactTextMismatch,
            format!("the §5 hash of span.exact_text is {h}, not the declared {declared}"),
            Location::pointer("/span/exact_text"),
        )),
        _ => None, // equal, or not UTF-8 (a JSON string always is)
    }
}

/// AEF-5-002 for a redacted `exact_text`: it is a redaction of the resolved span text.
fn check_resolved_exact_text(span: &Span, computed: &ComputedSpan) -> Option<Incident> {
    let exact = span.exact_text.as_deref().filter(|e| is_redacted(e))?;
    let pattern = citeproof_model::hash::aef_normalize_text(exact.as_bytes()).ok()?;
    (!matches_fully(&pattern, &computed.exact_text)).then(|| {
        Incident::new(
            IncidentCode::AefExactTextMismatch,
            "the redacted span.exact_text is not a redaction of the resolved span: its unredacted parts do not read, in order, as the span does",
            Location::pointer("/span/exact_text"),
        )
    })
}

/// Resolves `span` in `body` (served as `media_type`) and checks the hashes: every incident of
/// AEF-SEL-*, AEF-L2-002..009, AEF-5-001 and the redacted form of AEF-5-002.
pub(crate) fn check_resolved(
    span: &Span,
    declared: ContentHash,
    media_type: &str,
    body: &[u8],
) -> (Vec<Incident>, Option<ComputedSpan>) {
    let mut incidents = Vec::new();
    match compute_span(span, media_type, body) {
        Ok(computed) => {
            if computed.content_hash != declared {
                incidents.push(Incident::new(
                    IncidentCode::AefContentHashMismatch,
                    format!(
                        "the §5 hash of the resolved span is {}, not the declared {declared}",
                        computed.content_hash
                    ),
                    Location::pointer("/verification/content_hash"),
                ));
            }
            incidents.extend(check_resolved_exact_text(span, &computed));
            (incidents, Some(computed))
        }
        Err(incident) => {
            incidents.push(incident);
            (incidents, None)
        }
    }
}

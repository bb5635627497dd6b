//! `aef_evidence`: AI Evidence Format validation and verification, Levels 1-3.

use std::sync::OnceLock;

use citeproof_aef::{AefReport, SourceChoice, VerifyOptions, Vocabulary, verify};
use citeproof_fetch::{FetchError, FetchedResponse, Fetcher};
use citeproof_jose::{KeySet, load_public_keys};
use citeproof_model::json::parse_strict;
use citeproof_model::{Severity, hash::aef_text_hash};
use citeproof_span::redaction::is_redacted;

/// The public key the AEF Level 3 vectors are signed with (RFC 8037 §A.1, `kid` `k1`).
const KEY: &[u8] = br#"{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo","kid":"k1"}]}"#;

const MEDIA: &[&str] = &[
    "text/html; charset=utf-8",
    "text/plain",
    "application/xml",
    "text/markdown",
    "application/xhtml+xml",
    "application/pdf",
    "application/json",
    "text/html",
];

fn keys() -> &'static KeySet {
    static K: OnceLock<KeySet> = OnceLock::new();
    K.get_or_init(|| load_public_keys(KEY).expect("the RFC 8037 key loads"))
}

/// Nothing is fetched: the source is given as bytes and the keys are configured.
struct NoFetch;

impl Fetcher for NoFetch {
    fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError> {
        Err(FetchError::NotInSnapshot { url: url.into() })
    }
}

/// `[flags, evidence JSON, NUL, source body]`: Level 1 validation (published schema and the
/// profile's codes), Level 2 against the body (selector, span resolution, hashes, redacted
/// `exact_text`), Level 3 with the RFC 8037 key configured. Flags: bits 0-1 the required level
/// (`None`, 1, 2, 3), bits 2-4 the media type of the body, bit 7 the landing-page vocabulary.
/// Checks: the level rule of the report; at Level 2 or above the span was resolved and the
/// document's `content_hash` is the AEF §5 hash of the resolved span, and of an unredacted
/// `exact_text` too (a hash is never bought).
pub fn aef_evidence(data: &[u8]) {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let (evidence, body) = match rest.iter().position(|b| *b == 0) {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let options = VerifyOptions {
        source: SourceChoice::Bytes {
            media_type: MEDIA[usize::from(flags >> 2) % MEDIA.len()].to_owned(),
            body: body.to_vec(),
        },
        keys: Some(keys().clone()),
        trusted_key_uris: Vec::new(),
        required_level: match flags % 4 {
            0 => None,
            n => Some(n),
        },
        vocabulary: if flags & 0x80 != 0 {
            Vocabulary::Landing
        } else {
            Vocabulary::Spec
        },
        now: (flags & 0x40 != 0).then_some(1_778_557_500),
        ..VerifyOptions::default()
    };
    let report = verify(evidence, &NoFetch, &options);
    check_levels(&report);
    if report.verdict.level < 2 {
        return;
    }
    let value = parse_strict(evidence).expect("a document at Level 2 parses");
    let declared = value
        .pointer("/verification/content_hash")
        .and_then(|v| v.as_str())
        .expect("a document at Level 2 declares a content hash");
    let span = report
        .details
        .span
        .as_ref()
        .expect("Level 2 resolved the span");
    assert_eq!(span.content_hash.to_string(), declared);
    if let Some(exact) = value.pointer("/span/exact_text").and_then(|v| v.as_str())
        && !is_redacted(exact)
    {
        assert_eq!(
            aef_text_hash(exact.as_bytes())
                .map(|h| h.to_string())
                .as_deref(),
            Ok(declared)
        );
    }
}

fn check_levels(r: &AefReport) {
    assert!((1..=3).contains(&r.verdict.required_level), "{r:?}");
    assert!(r.verdict.level <= r.verdict.required_level, "{r:?}");
    assert_eq!(
        r.verdict.verified,
        r.verdict.level >= r.verdict.required_level
    );
    let fails = |n: u8| {
        r.verdict
            .incidents
            .iter()
            .any(|i| i.level == n && i.incident.severity == Severity::Error)
    };
    for n in 1..=r.verdict.level {
        assert!(
            !fails(n),
            "level {} achieved with an error at {n}",
            r.verdict.level
        );
    }
}

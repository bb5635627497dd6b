//! AEF Level 1 (Attach): the published schema, neither narrower nor wider (JSON-003/JSON-005
//! exceptions, AEF-VOC-001), with the profile's specific codes, plus the warnings of
//! AEF-4-004..006; landing-page values are errors, or warnings in lenient vocabulary mode.
//!
//! Everything here works on the raw JSON value and never assumes the schema passed, so the
//! warnings are reported next to schema errors too.

use citeproof_model::aef::{RetrievalMethod, SelectorType, SourceType};
use citeproof_model::{CLOCK_SKEW_SECONDS, Incident, IncidentCode, Location, Timestamp};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::Vocabulary;

/// Members holding enumerated values (AEF-VOC-001), with their landing-page-only values.
const ENUMS: &[&str] = &[
    "/source/type",
    "/span/selector_type",
    "/retrieval/method",
    "/synthesis_role",
];

/// Replaces generic schema codes by the specific ones the profile names (reporting rule 2):
/// `aef-version-unsupported` (AEF-4-001), `aef-vocabulary-invalid` (AEF-VOC-001) and
/// `schema-timestamp-invalid` (AEF-4-002, JSON-005), when the offending member is a string (a
/// wrong JSON type stays a `schema-violation`, except for `evidence_version`, which AEF-4-001
/// covers whatever its type). `canon-hash-syntax` (CANON-002, any type) comes from the schema's
/// `ContentHash` definition already (`citeproof_schema::schema_incidents`).
pub fn refine_schema_incidents(value: &Value, incidents: Vec<Incident>) -> Vec<Incident> {
    let mut out: Vec<Incident> = Vec::with_capacity(incidents.len());
    for mut incident in incidents {
        if incident.code == IncidentCode::SchemaViolation
            && let Some(pointer) = incident.location.pointer.as_deref()
            && let Some(member) = value.pointer(pointer)
        {
            let code = match pointer {
                // AEF-4-001: whatever it is, a present evidence_version other than "0.1".
                "/evidence_version" => Some(IncidentCode::AefVersionUnsupported),
                _ if !member.is_string() => None,
                p if ENUMS.contains(&p) => Some(IncidentCode::AefVocabularyInvalid),
                "/source/fetched_at" | "/source/published_at" => {
                    Some(IncidentCode::SchemaTimestampInvalid)
                }
                _ => None,
            };
            if let Some(code) = code {
                incident.code = code;
                incident.severity = code.severity();
            }
        }
        // One incident per code and member is enough (a `oneOf` can fail in several ways).
        if !out.iter().any(|o| {
            o.code == incident.code
                && o.location == incident.location
                && o.code != IncidentCode::SchemaViolation
        }) {
            out.push(incident);
        }
    }
    out
}

fn string_at<'v>(value: &'v Value, pointer: &str) -> Option<&'v str> {
    value.pointer(pointer).and_then(Value::as_str)
}

fn parse_enum<T: DeserializeOwned>(value: &Value, pointer: &str) -> Option<T> {
    value.pointer(pointer).and_then(|v| T::deserialize(v).ok())
}

fn warn(code: IncidentCode, message: impl Into<String>, pointer: &str) -> Incident {
    Incident::new(code, message, Location::pointer(pointer))
}

/// The landing-page-only values of a document (AEF-VOC-001): pointer and value.
fn landing_values(value: &Value) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut add = |pointer: &'static str, spec: Option<bool>| {
        if spec == Some(false)
            && let Some(v) = string_at(value, pointer)
        {
            out.push((pointer, v.to_owned()));
        }
    };
    add(
        "/source/type",
        parse_enum::<SourceType>(value, "/source/type").map(SourceType::is_spec_vocabulary),
    );
    add(
        "/span/selector_type",
        parse_enum::<SelectorType>(value, "/span/selector_type")
            .map(SelectorType::is_spec_vocabulary),
    );
    add(
        "/retrieval/method",
        parse_enum::<RetrievalMethod>(value, "/retrieval/method")
            .map(RetrievalMethod::is_spec_vocabulary),
    );
    out
}

/// The wire name of a selector type.
pub(crate) fn selector_type_name(t: SelectorType) -> String {
    serde_json::to_value(t)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// What to tell the author of a landing-page-only value.
pub(crate) fn landing_message(member: &str, value: impl AsRef<str>) -> String {
    let value = value.as_ref();
    let hint = match value {
        "css_selector" => " (the schema value is `css`)",
        "direct" => " (the schema value is `direct_fetch`)",
        "semantic" => " (the closest schema value is `vector`)",
        _ => "",
    };
    format!(
        "{member} `{value}` comes from the AEF landing page, not from the v0.1 schema{hint}; it is read only in lenient vocabulary mode, which is not an AEF conformance level"
    )
}

/// Level 1 under a vocabulary: the schema incidents (refined) and the semantic warnings. In
/// [`Vocabulary::Spec`] a landing-page-only value is `aef-vocabulary-invalid` (an error); in
/// [`Vocabulary::Landing`] it is `aef-nonstandard-vocabulary` (a warning).
pub(crate) fn level1(
    value: &Value,
    schema_incidents: Vec<Incident>,
    vocabulary: Vocabulary,
) -> Vec<Incident> {
    let mut out = refine_schema_incidents(value, schema_incidents);
    let landing = landing_values(value);
    let is_landing = |i: &Incident| {
        i.code == IncidentCode::AefVocabularyInvalid
            && landing
                .iter()
                .any(|(p, _)| i.location.pointer.as_deref() == Some(*p))
    };
    match vocabulary {
        Vocabulary::Spec => {
            for incident in out.iter_mut().filter(|i| is_landing(i)) {
                if let Some((p, v)) = landing
                    .iter()
                    .find(|(p, _)| incident.location.pointer.as_deref() == Some(*p))
                {
                    incident.message = landing_message(&member_name(p), v);
                }
            }
        }
        Vocabulary::Landing => {
            out.retain(|i| !is_landing(i));
            for (p, v) in &landing {
                out.push(warn(
                    IncidentCode::AefNonstandardVocabulary,
                    landing_message(&member_name(p), v),
                    p,
                ));
            }
        }
    }
    out.extend(semantic_check(value));
    out
}

/// `/span/selector_type` → `span.selector_type`.
fn member_name(pointer: &str) -> String {
    pointer.trim_start_matches('/').replace('/', ".")
}

/// The semantic rules of AEF Level 1 that a schema cannot express; all SHOULDs (warnings).
pub fn semantic_check(value: &Value) -> Vec<Incident> {
    let mut out = Vec::new();
    let selector_type = parse_enum::<SelectorType>(value, "/span/selector_type");
    // AEF-4-004.
    if let (Some(published), Some(fetched)) = (
        string_at(value, "/source/published_at").and_then(|s| Timestamp::parse(s).ok()),
        string_at(value, "/source/fetched_at").and_then(|s| Timestamp::parse(s).ok()),
    ) && published.instant() > fetched.instant()
    {
        out.push(warn(
            IncidentCode::AefPublishedAfterFetched,
            format!("source.published_at {published} is later than source.fetched_at {fetched}"),
            "/source/published_at",
        ));
    }
    if let Some(t) = selector_type {
        let span = value.pointer("/span");
        let has = |m: &str| span.and_then(|s| s.get(m)).is_some();
        // AEF-4-005.
        if t != SelectorType::None && !has("exact_text") {
            out.push(warn(
                IncidentCode::AefExactTextMissing,
                "span.exact_text is RECOMMENDED when the span selects part of the source",
                "/span",
            ));
        }
        // AEF-4-006.
        if t == SelectorType::None && has("selector_value") {
            out.push(warn(
                IncidentCode::AefSelectorValueIgnored,
                "span.selector_value is ignored when selector_type is `none`",
                "/span/selector_value",
            ));
        }
    }
    out
}

/// AEF-4-007: `source.fetched_at` SHOULD NOT be more than the clock skew after the
/// verification time `now` (Unix seconds): a source cannot have been fetched in the future.
pub(crate) fn fetched_in_future(value: &Value, now: i64) -> Vec<Incident> {
    let Some(fetched) =
        string_at(value, "/source/fetched_at").and_then(|s| Timestamp::parse(s).ok())
    else {
        return Vec::new();
    };
    let limit = i128::from(now) + i128::from(CLOCK_SKEW_SECONDS);
    if fetched.instant().unix_timestamp_nanos() <= limit * 1_000_000_000 {
        return Vec::new();
    }
    vec![warn(
        IncidentCode::AefFetchedInFuture,
        format!(
            "source.fetched_at {fetched} is more than {CLOCK_SKEW_SECONDS} seconds after the verification time"
        ),
        "/source/fetched_at",
    )]
}

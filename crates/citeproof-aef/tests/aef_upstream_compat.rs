//! citeproof's AEF validation vs the upstream published schema, over the same documents.
//!
//! Property: upstream accepts ⇔ citeproof reports no error (profile AEF-VOC-001: the published
//! schema, neither narrowed nor widened). In lenient vocabulary mode (AEF-VOC-002) the documents
//! upstream rejects only for a landing-page value are accepted with one
//! `aef-nonstandard-vocabulary` warning each.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_model::{IncidentCode, Severity};

use serde_json::{Value, json};

fn upstream() -> jsonschema::Validator {
    let text = include_str!("data/upstream-aef/evidence.schema.json");
    let schema: Value = serde_json::from_str(text).unwrap();
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&schema)
        .unwrap()
}

/// A complete, valid evidence object: the seed's canonical example (seeds/001) with every
/// optional member, but `exact_text`, so that the hash is unconstrained.
fn base() -> Value {
    let mut doc: Value = serde_json::from_str(include_str!("data/seed-001-example.json")).unwrap();
    remove(&mut doc, "/span/exact_text");
    for (path, value) in [
        ("/source/published_at", "2026-05-01T00:00:00Z"),
        ("/span/surrounding_context", "context"),
        ("/retrieval/retriever_id", "r1"),
        ("/verification/signed_by", "pipeline"),
        ("/notes", "n"),
    ] {
        set(&mut doc, path, json!(value));
    }
    doc
}

const PATHS: &[&str] = &[
    "/evidence_version",
    "/evidence_id",
    "/claim_text",
    "/source",
    "/source/uri",
    "/source/type",
    "/source/title",
    "/source/publisher",
    "/source/published_at",
    "/source/fetched_at",
    "/span",
    "/span/selector_type",
    "/span/selector_value",
    "/span/exact_text",
    "/span/surrounding_context",
    "/retrieval",
    "/retrieval/method",
    "/retrieval/confidence",
    "/retrieval/rank",
    "/retrieval/freshness_age_seconds",
    "/retrieval/retriever_id",
    "/verification",
    "/verification/content_hash",
    "/verification/signature",
    "/verification/signing_key_uri",
    "/verification/signed_by",
    "/synthesis_role",
    "/notes",
];

fn set(doc: &mut Value, path: &str, v: Value) {
    let (parent, last) = path.rsplit_once('/').unwrap();
    if let Some(Value::Object(m)) = doc.pointer_mut(parent) {
        m.insert(last.to_owned(), v);
    }
}

fn remove(doc: &mut Value, path: &str) {
    let (parent, last) = path.rsplit_once('/').unwrap();
    if let Some(Value::Object(m)) = doc.pointer_mut(parent) {
        m.remove(last);
    }
}

/// [`base`] with `path` set to `v`, and its name.
fn with(path: &str, v: Value) -> (String, Value) {
    let mut d = base();
    set(&mut d, path, v.clone());
    (format!("{path} = {v}"), d)
}

/// The words of `list`.
fn words(list: &str) -> Vec<&str> {
    list.split_whitespace().collect()
}

fn corpus() -> Vec<(String, Value)> {
    let mut out = vec![("base".to_owned(), base())];
    let values = [
        json!(null),
        json!(0),
        json!(1),
        json!(-1),
        json!(1.5),
        json!(1e30),
        json!(""),
        json!("x"),
        json!(true),
        json!([]),
        json!({}),
        json!("0.1"),
        json!(0.1),
    ];
    for path in PATHS {
        let mut d = base();
        remove(&mut d, path);
        out.push((format!("remove {path}"), d));
        out.extend(values.iter().map(|v| with(path, v.clone())));
    }
    for parent in ["", "/source", "/span", "/retrieval", "/verification"] {
        for name in ["extra", "x-extension", "$schema", "@context"] {
            let mut d = base();
            set(&mut d, &format!("{parent}/{name}"), json!("v"));
            out.push((format!("{parent}/{name} added"), d));
        }
    }
    // String values, each set at every path of its row: the published enums with the landing
    // page's and some near misses, URIs, RFC 3339 timestamps and their corners, content hashes.
    let strings: &[(&[&str], &[&str])] = &[
        (
            &["/source/type"],
            &words(
                "document webpage api_response knowledge_graph aeo_declaration dataset \
                 database_row api book paper Webpage web_page other",
            ),
        ),
        (
            &["/span/selector_type"],
            &words(
                "byte_range line_range xpath css text_quote paragraph_index none css_selector \
                 fragment_identifier page_range CSS regex",
            ),
        ),
        (
            &["/retrieval/method"],
            &words(
                "vector keyword graph hybrid direct_fetch model_recall semantic direct Vector \
                 bm25",
            ),
        ),
        (
            &["/synthesis_role"],
            &words("supporting contradicting partial background neutral Supporting"),
        ),
        (
            &["/source/uri", "/verification/signing_key_uri"],
            &[
                "https://example.com/a",
                "urn:isbn:0451450523",
                "mailto:a@example.com",
                "relative/path",
                "https://exa mple.com/",
                "",
                "http://[::1]/x",
                "https://example.com/a#frag",
                "file:///etc/passwd",
                "\\\\server\\share",
            ],
        ),
        (
            &["/source/fetched_at", "/source/published_at"],
            &[
                "2026-05-12T03:45:00Z",
                "2026-05-12T03:45:00.123456Z",
                "2026-05-12T03:45:00+05:30",
                "2026-05-12t03:45:00z",
                "2026-05-12 03:45:00Z",
                "2026-05-12",
                "2026-05-12T03:45:00",
                "2026-13-12T03:45:00Z",
                "2026-02-30T03:45:00Z",
                "2016-12-31T23:59:60Z",
                "2026-05-12T24:00:00Z",
                "2026-05-12T03:45:00-00:00",
                "+2026-05-12T03:45:00Z",
                "2026-05-12T03:45Z",
            ],
        ),
        (
            &["/verification/content_hash"],
            &[
                "sha256:C7D1F2A3B4C5D6E7F8A9B0C1D2E3F4A5B6C7D8E9F0A1B2C3D4E5F6A7B8C9D0E1",
                "sha256:c7d1",
                "sha-256:c7d1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1",
                "c7d1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1",
                "sha256:c7d1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1\n",
                "sha256:g7d1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1",
            ],
        ),
    ];
    for (paths, values) in strings {
        for path in *paths {
            out.extend(values.iter().map(|v| with(path, json!(v))));
        }
    }
    for (path, v) in [
        ("/retrieval/confidence", json!(-0.0)),
        ("/retrieval/confidence", json!(1.0)),
        ("/retrieval/confidence", json!(1.0000001)),
        ("/retrieval/rank", json!(1.0)),
        ("/retrieval/rank", json!(0)),
        ("/retrieval/rank", json!(18446744073709551615u64)),
        ("/retrieval/freshness_age_seconds", json!(0.0)),
        ("/retrieval/freshness_age_seconds", json!(-0.5)),
    ] {
        out.push(with(path, v));
    }
    // selector_value is required unless selector_type is none.
    for st in ["none", "css", "page_range"] {
        let mut d = base();
        set(&mut d, "/span/selector_type", json!(st));
        remove(&mut d, "/span/selector_value");
        out.push((format!("selector_type {st} without selector_value"), d));
    }
    // Selector syntax is Level 2 (AEF-SEL-*): at Level 1 any string is accepted, as upstream.
    for st in words("byte_range line_range xpath css text_quote paragraph_index none") {
        for v in [
            "",
            "10-2",
            "01-5",
            "p::before",
            "//p[",
            "$x",
            "char=5",
            ":~:text=a b",
            "not a selector",
        ] {
            let mut d = base();
            set(&mut d, "/span/selector_type", json!(st));
            set(&mut d, "/span/selector_value", json!(v));
            out.push((format!("selector {st} = {v:?}"), d));
        }
    }
    // exact_text that does not hash to content_hash is a Level 2 finding (AEF-5-002).
    let more = json!("## 3. The three pillars and more");
    out.push(with("/span/exact_text", more));
    // Leap seconds and other RFC 3339 corners JSON Schema's date-time decides.
    for ts in [
        "2026-05-12T23:59:60Z",
        "2026-06-30T23:59:60+01:00",
        "1998-12-31T15:59:60.123-08:00",
        "2026-05-12T23:59:61Z",
        "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59-23:59",
    ] {
        out.push(with("/source/fetched_at", json!(ts)));
    }
    out.push(("not an object".into(), json!([base()])));
    out
}

#[test]
fn citeproof_accepts_exactly_what_upstream_accepts() {
    let upstream = upstream();
    let (mut both_valid, mut both_invalid, mut flagged) = (0, 0, 0);
    let mut failures = Vec::new();
    for (name, doc) in corpus() {
        let upstream_valid = upstream.is_valid(&doc);
        let incidents = citeproof_aef::validate(&doc);
        let has_error = incidents.iter().any(|i| i.severity == Severity::Error);
        let lenient = citeproof_aef::validate_with(&doc, citeproof_aef::Vocabulary::Landing);
        let lenient_error = lenient.iter().any(|i| i.severity == Severity::Error);
        let flags = lenient
            .iter()
            .filter(|i| i.code == IncidentCode::AefNonstandardVocabulary)
            .count();
        match (upstream_valid, has_error) {
            (true, false) if flags == 0 && !lenient_error => both_valid += 1,
            (false, true) => {
                both_invalid += 1;
                if !lenient_error {
                    // Only landing-page values made it invalid: lenient mode flags each once.
                    if flags == 1 {
                        flagged += 1;
                    } else {
                        failures.push(format!("{name}: lenient mode flags {flags} values"));
                    }
                }
            }
            _ => failures.push(format!(
                "{name}: upstream valid={upstream_valid}, citeproof incidents={incidents:?}"
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The corpus must exercise all three outcomes, or the property proves nothing.
    assert!(
        both_valid >= 40,
        "only {both_valid} documents valid on both sides"
    );
    assert!(
        both_invalid >= 200,
        "only {both_invalid} documents invalid on both sides"
    );
    assert_eq!(
        flagged, 8,
        "each landing-page-only value is read, with a warning, only in lenient mode"
    );
}

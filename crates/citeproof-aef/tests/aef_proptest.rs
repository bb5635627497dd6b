//! No input panics: arbitrary evidence JSON, arbitrary source bytes and media types for every
//! selector type, arbitrary selector values drawn from each grammar's alphabet, and mutated
//! PDFs. Every run must end in a report, a value or an error.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use citeproof_aef::{VerifyOptions, compute_span, verify_with_resources};
use citeproof_model::aef::{SelectorType, Span};
use citeproof_model::snapshot::StoredResponse;
use proptest::prelude::*;
use serde_json::{Value, json};

const MEDIA: &[&str] = &[
    "text/plain",
    "text/html",
    "application/xhtml+xml",
    "application/xml",
    "image/svg+xml",
    "text/markdown",
    "application/pdf",
    "application/json",
    "application/octet-stream",
    "bogus",
];

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../../vectors/fixtures/aef/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Bodies: arbitrary bytes, or a fixture with a few bytes changed or cut.
fn body() -> impl Strategy<Value = Vec<u8>> {
    let names = prop::sample::select(vec![
        "article.html",
        "catalog.xml",
        "notes-crlf.txt",
        "report.pdf",
        "report-objstm.pdf",
        "notes.md",
    ]);
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..512),
        (
            names,
            prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
            any::<prop::sample::Index>()
        )
            .prop_map(|(name, edits, cut)| {
                let mut b = fixture(name);
                for (at, v) in edits {
                    let i = at.index(b.len());
                    b[i] = v;
                }
                let keep = cut.index(b.len() + 1);
                if keep > b.len() / 2 {
                    b.truncate(keep);
                }
                b
            }),
    ]
}

/// Selector values from the characters that matter to each grammar.
fn selector_value() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9\\-]{0,12}",
        "(char|line)=[0-9,;]{0,8}",
        "#?:~:text=[a-zA-Z%0-9,\\-&]{0,20}",
        "[a-z#.>+~*|:\\[\\]=\"' ()0-9n-]{0,24}",
        "[/a-z@\\[\\]()=':*.|$0-9 ,-]{0,30}",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn span_resolution_never_panics(
        t in prop::sample::select(&SelectorType::ALL[..]),
        value in proptest::option::of(selector_value()),
        exact in proptest::option::of("[a-zA-Z ]{0,12}"),
        context in proptest::option::of("[a-zA-Z ]{0,30}"),
        media in prop::sample::select(MEDIA),
        body in body(),
    ) {
        let span = Span { selector_type: t, selector_value: value, exact_text: exact, surrounding_context: context };
        let _ = compute_span(&span, media, &body);
    }

    #[test]
    fn xpath_never_panics(expr in "[/a-z@\\[\\]()=':*.|$0-9 ,<>!-]{0,40}") {
        let span = Span { selector_type: SelectorType::Xpath, selector_value: Some(expr), exact_text: None, surrounding_context: None };
        let _ = compute_span(&span, "application/xml", &fixture("catalog.xml"));
    }

    #[test]
    fn css_never_panics(sel in "[a-z#.>+~*|:\\[\\]=\"' ()0-9n,\\\\/-]{0,30}") {
        let span = Span { selector_type: SelectorType::Css, selector_value: Some(sel), exact_text: None, surrounding_context: None };
        let _ = compute_span(&span, "text/html", &fixture("article.html"));
    }

    #[test]
    fn verification_never_panics(
        doc in evidence_json(),
        media in prop::sample::select(MEDIA),
        body in body(),
        status in prop::sample::select(vec![200u16, 301, 404]),
        level in 1u8..=3,
    ) {
        let mut resources = BTreeMap::new();
        let stored = StoredResponse {
            status,
            headers: vec![("Content-Type".into(), media.into()), ("Location".into(), "https://example.com/src".into())],
            body_base64: STANDARD.encode(&body),
        };
        resources.insert("https://example.com/src".to_owned(), stored.clone());
        resources.insert("https://example.com/keys".to_owned(), stored);
        let options = VerifyOptions { required_level: Some(level), ..VerifyOptions::default() };
        let text = serde_json::to_vec(&doc).unwrap();
        let report = verify_with_resources(&text, resources, &options);
        prop_assert!(report.verdict.level <= 3);
    }
}

/// Evidence-shaped JSON: a valid base with members replaced by arbitrary JSON or strings.
fn evidence_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e3f64..1e3).prop_map(Value::from),
        selector_value().prop_map(Value::from),
    ];
    let arbitrary = leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    let paths = prop::sample::select(vec![
        "/evidence_version",
        "/source/uri",
        "/source/type",
        "/source/fetched_at",
        "/span/selector_type",
        "/span/selector_value",
        "/span/exact_text",
        "/span/surrounding_context",
        "/verification/content_hash",
        "/verification/signature",
        "/verification/signing_key_uri",
        "/retrieval",
        "/span",
    ]);
    let types = prop::sample::select(vec![
        "none",
        "byte_range",
        "line_range",
        "xpath",
        "css",
        "text_quote",
        "paragraph_index",
        "css_selector",
        "fragment_identifier",
        "page_range",
    ]);
    (types, selector_value(), prop::collection::vec((paths, arbitrary), 0..3)).prop_map(|(t, v, edits)| {
        let mut doc = json!({
            "evidence_version": "0.1",
            "evidence_id": "e",
            "claim_text": "c",
            "source": { "uri": "https://example.com/src", "type": "webpage", "fetched_at": "2026-05-12T03:45:00Z" },
            "span": { "selector_type": t, "selector_value": v, "exact_text": "x" },
            "retrieval": { "method": "keyword" },
            "verification": {
                "content_hash": "sha256:2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881",
                "signature": "eyJhbGciOiJFZERTQSJ9..AAAA",
                "signing_key_uri": "https://example.com/keys"
            },
            "synthesis_role": "supporting"
        });
        for (path, value) in edits {
            let (parent, last) = path.rsplit_once('/').unwrap();
            if let Some(Value::Object(m)) = doc.pointer_mut(parent) {
                m.insert(last.to_owned(), value);
            }
        }
        doc
    })
}

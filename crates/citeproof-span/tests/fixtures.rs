//! Span resolution against real documents committed under `vectors/fixtures/aef/` (an HTML page,
//! an XML catalog, PDFs with a classic cross-reference table and with object streams, text with
//! CRLF and a lone CR, Markdown, Latin-1), every selector type with positive and negative cases.
//!
//! The expectations (`expected.json`) are written by `vectors/fixtures/aef/expected.py`, which
//! computes span texts and AEF §5 hashes with the Python standard library (html.parser,
//! xml.etree, hashlib) and never runs citeproof.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use citeproof_model::aef::Span;
use citeproof_span::compute_span;
use serde_json::Value;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../vectors/fixtures/aef")
}

#[test]
fn every_fixture_case_resolves_as_computed_independently() {
    let expected: Value =
        serde_json::from_slice(&std::fs::read(fixtures().join("expected.json")).unwrap()).unwrap();
    let cases = expected["cases"].as_array().unwrap();
    assert!(cases.len() >= 90, "only {} cases", cases.len());
    let mut failures = Vec::new();
    let mut selector_types = std::collections::BTreeMap::<String, (usize, usize)>::new();
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let body = std::fs::read(fixtures().join(case["file"].as_str().unwrap())).unwrap();
        let span: Span = serde_json::from_value(case["span"].clone()).unwrap();
        let media = case["media_type"].as_str().unwrap();
        let got = compute_span(&span, media, &body);
        let expect = &case["expect"];
        let counts = selector_types
            .entry(case["span"]["selector_type"].as_str().unwrap().to_owned())
            .or_default();
        match (expect.get("error").and_then(Value::as_str), &got) {
            (None, Ok(computed)) => {
                counts.0 += 1;
                if computed.exact_text != expect["exact_text"].as_str().unwrap()
                    || computed.content_hash.to_string() != expect["content_hash"].as_str().unwrap()
                {
                    failures.push(format!(
                        "{name}: got {:?} {}, expected {:?} {}",
                        computed.exact_text,
                        computed.content_hash,
                        expect["exact_text"],
                        expect["content_hash"]
                    ));
                }
            }
            (Some(code), Err(incident)) => {
                counts.1 += 1;
                if incident.code.as_str() != code {
                    failures.push(format!("{name}: got {incident}, expected {code}"));
                }
            }
            (Some(code), Ok(computed)) => {
                failures.push(format!(
                    "{name}: resolved to {:?}, expected {code}",
                    computed.exact_text
                ));
            }
            (None, Err(incident)) => failures.push(format!("{name}: {incident}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Positive and negative cases for every selector type of both vocabularies.
    for t in [
        "none",
        "byte_range",
        "line_range",
        "text_quote",
        "css",
        "xpath",
        "paragraph_index",
        "css_selector",
        "fragment_identifier",
        "page_range",
    ] {
        let (pos, neg) = selector_types.get(t).copied().unwrap_or_default();
        assert!(neg > 0, "{t}: no negative case");
        // page_range never passes: no canonical text for PDF pages (AEF-L2-009).
        if t != "page_range" {
            assert!(pos > 0, "{t}: no positive case");
        }
    }
}

#[test]
fn crlf_fixture_keeps_its_bytes() {
    // Guards against a checkout converting line endings (see the fixtures' .gitattributes).
    let body = std::fs::read(fixtures().join("notes-crlf.txt")).unwrap();
    assert!(body.windows(2).any(|w| w == b"\r\n"));
    assert!(body.windows(2).any(|w| w[0] == b'\r' && w[1] != b'\n'));
}

/// Regression (issue 13): a 320-byte PDF whose object stream takes its `/Length` from an object
/// stored in that same stream overflowed the stack of the old PDF reader and aborted the process.
/// The profile now never parses a PDF (AEF-L2-009): every `page_range` on a PDF, damaged or not,
/// is `aef-span-unverifiable`, and no other selector reads PDF structure.
#[test]
fn hostile_pdfs_get_a_typed_incident_and_never_parse() {
    use citeproof_model::IncidentCode;
    use citeproof_model::aef::SelectorType;
    for name in [
        "objstm-self-length.pdf",
        "truncated.pdf",
        "report.pdf",
        "report-objstm.pdf",
    ] {
        let body = std::fs::read(fixtures().join(name)).unwrap();
        for range in ["1-1", "1-3", "2-999"] {
            let span = Span {
                selector_type: SelectorType::PageRange,
                selector_value: Some(range.into()),
                exact_text: None,
                surrounding_context: None,
            };
            let err = compute_span(&span, "application/pdf", &body).unwrap_err();
            assert_eq!(
                err.code,
                IncidentCode::AefSpanUnverifiable,
                "{name} {range}"
            );
        }
    }
    assert_eq!(
        std::fs::read(fixtures().join("objstm-self-length.pdf"))
            .unwrap()
            .len(),
        320
    );
}

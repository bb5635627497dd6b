//! Every bound of the span engines, exceeded through the public API (`compute_span`), ends in
//! its incident code, quickly: the XPath expression length (`MAX_XPATH_BYTES`, 16 KiB),
//! its nesting (`MAX_XPATH_DEPTH`, 100) and the HTML nesting depth (`MAX_HTML_DEPTH`, 512). (The
//! XPath evaluation budget is exceeded in `src/xpath/tests.rs`, with a lowered budget: exhausting the
//! default 50 000 000 units takes about 45 s in a debug build.) Each test also shows the input just
//! under the bound is accepted, so the error comes from the bound and not from the input.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_model::IncidentCode;
use citeproof_model::aef::{SelectorType, Span};
use citeproof_span::compute_span;

fn span(selector_type: SelectorType, value: &str) -> Span {
    Span {
        selector_type,
        selector_value: Some(value.to_owned()),
        exact_text: None,
        surrounding_context: None,
    }
}

fn code(r: Result<citeproof_span::ComputedSpan, citeproof_model::Incident>) -> IncidentCode {
    match r {
        Ok(s) => panic!("accepted: {:?}", s.exact_text),
        Err(i) => i.code,
    }
}

const XML: &[u8] = b"<a><b>x</b></a>";

#[test]
fn xpath_longer_than_16_kib_is_invalid() {
    // `/a/b` padded with spaces (XPath whitespace) to 16 384 bytes, then one byte more.
    let at_limit = format!("/a/b{}", " ".repeat(16 * 1024 - 4));
    assert_eq!(at_limit.len(), 16_384);
    let ok = compute_span(
        &span(SelectorType::Xpath, &at_limit),
        "application/xml",
        XML,
    );
    assert_eq!(ok.unwrap().exact_text, "x");
    let over = format!("{at_limit} ");
    assert_eq!(
        code(compute_span(
            &span(SelectorType::Xpath, &over),
            "application/xml",
            XML
        )),
        IncidentCode::AefSelectorInvalid
    );
}

#[test]
fn xpath_nested_deeper_than_100_is_invalid() {
    // Parenthesised predicates nest the parser; a few dozen levels parse, 200 do not.
    let nested = |n: usize| format!("/a/b[{}1{}]", "(".repeat(n), ")".repeat(n));
    let ok = compute_span(
        &span(SelectorType::Xpath, &nested(30)),
        "application/xml",
        XML,
    );
    assert_eq!(ok.unwrap().exact_text, "x");
    assert_eq!(
        code(compute_span(
            &span(SelectorType::Xpath, &nested(200)),
            "application/xml",
            XML
        )),
        IncidentCode::AefSelectorInvalid
    );
}

#[test]
fn html_nested_deeper_than_512_is_unparseable() {
    // The document and body are two levels: 509 divs and the `p` reach 512, one div more
    // exceeds it.
    let page = |divs: usize| format!("<!doctype html><body>{}<p>x", "<div>".repeat(divs));
    let ok = compute_span(
        &span(SelectorType::Css, "p"),
        "text/html",
        page(509).as_bytes(),
    );
    assert_eq!(ok.unwrap().exact_text, "x");
    assert_eq!(
        code(compute_span(
            &span(SelectorType::Css, "p"),
            "text/html",
            page(510).as_bytes()
        )),
        IncidentCode::AefSourceUnparseable
    );
}

#[test]
fn xml_nested_200000_deep_is_read_without_recursion() {
    // XML nesting has no bound of its own: roxmltree builds the tree without recursion and
    // the XPath engine walks it with explicit stacks, so 200 000 levels (1.4 MB) cost their
    // size and overflow no stack; a million levels take about 0.35 s in a release build.
    let depth = 200_000;
    let body = format!("{}x{}", "<a>".repeat(depth), "</a>".repeat(depth));
    let started = std::time::Instant::now();
    let found = compute_span(
        &span(SelectorType::Xpath, "/a"),
        "application/xml",
        body.as_bytes(),
    );
    assert_eq!(found.unwrap().exact_text, "x");
    assert_eq!(
        code(compute_span(
            &span(SelectorType::Xpath, "//a"),
            "application/xml",
            body.as_bytes()
        )),
        IncidentCode::AefSpanAmbiguous
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(15));
}

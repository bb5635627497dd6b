//! `css_selector`: the Selectors Level 3 check of the `css` selector (AEF-SEL-002) and matching
//! over HTML (AEF-L2-004).

use citeproof_span::engines::{HtmlDoc, css_check};

/// Most matches compared per selector.
const LIMIT: usize = 64;

/// `[selector NUL html]`: check the selector against the Level 3 grammar (and the matching
/// engine), parse the HTML (depth-bounded), select. Checks: whitespace around a selector and a
/// list repeated (`S, S`) are accepted whenever the selector is, and match exactly the same
/// elements in the same order; nothing matches more elements than `*`.
pub fn css_selector(data: &[u8]) {
    let (selector, html) = crate::halves(data);
    let Ok(selector) = std::str::from_utf8(selector) else {
        return;
    };
    let Ok(parsed) = css_check(selector) else {
        return;
    };
    let padded = format!(" \t{selector}\n ");
    let padded = css_check(&padded)
        .unwrap_or_else(|e| panic!("{selector:?} is accepted, {padded:?} is not: {e}"));
    let doubled = format!("{selector}, {selector}");
    let doubled = css_check(&doubled)
        .unwrap_or_else(|e| panic!("{selector:?} is accepted, {doubled:?} is not: {e}"));
    let Ok(doc) = HtmlDoc::parse(&String::from_utf8_lossy(html)) else {
        return;
    };
    let texts = doc.select_texts(&parsed, LIMIT);
    assert_eq!(doc.select_texts(&padded, LIMIT), texts, "{selector:?}");
    assert_eq!(doc.select_texts(&doubled, LIMIT), texts, "{selector:?}");
    let all = css_check("*").expect("`*` is a selector");
    assert!(doc.select_texts(&all, LIMIT).len() >= texts.len());
}

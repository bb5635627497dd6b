//! AEF span resolution on hostile sources and selectors (HTML + CSS, XML + XPath, PDF page
//! trees, RFC 5147 and text fragments, quotes, ranges): never panics; a resolved span's hash is
//! the SHA-256 of its normalized text.
#![no_main]

use citeproof_model::aef::{SelectorType, Span};
use citeproof_span::compute_span;
use libfuzzer_sys::fuzz_target;

const SELECTORS: &[SelectorType] = &[
    SelectorType::ByteRange,
    SelectorType::LineRange,
    SelectorType::Xpath,
    SelectorType::Css,
    SelectorType::TextQuote,
    SelectorType::ParagraphIndex,
    SelectorType::None,
    SelectorType::CssSelector,
    SelectorType::FragmentIdentifier,
    SelectorType::PageRange,
];
const MEDIA: &[&str] = &["text/html", "application/xml", "application/pdf", "text/plain", "application/json"];

fuzz_target!(|data: &[u8]| {
    // Layout: [selector, media, value length, value bytes..., body bytes...]
    let [s, m, n, rest @ ..] = data else { return };
    let n = usize::from(*n).min(rest.len());
    let (value, body) = rest.split_at(n);
    let Ok(value) = std::str::from_utf8(value) else { return };
    let span = Span {
        selector_type: SELECTORS[usize::from(*s) % SELECTORS.len()],
        selector_value: Some(value.to_owned()),
        exact_text: (s & 0x80 != 0).then(|| value.to_owned()),
        surrounding_context: None,
    };
    if let Ok(computed) = compute_span(&span, MEDIA[usize::from(*m) % MEDIA.len()], body) {
        // `exact_text` is already normalized (§5 steps 1-3): its plain SHA-256 is the hash.
        assert_eq!(citeproof_model::sha256_bytes(computed.exact_text.as_bytes()), computed.content_hash);
    }
});

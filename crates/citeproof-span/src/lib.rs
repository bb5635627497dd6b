//! Span selection for AI Evidence Format selectors: what a selector selects in a source of a
//! given media type, and the AEF §5 hash of it. The signer (which records `exact_text` and
//! `content_hash`) and the verifier (which recomputes them) both call [`compute_span`], so the two
//! can never disagree.
//!
//! | item | does |
//! |---|---|
//! | [`compute_span`] | parse a span's selector, resolve it, hash it (AEF-SEL-*, AEF-L2-002..009, §5) |
//! | [`parse_span_selector`], [`Selector`] | selector syntax (AEF-SEL-001..003); a `Selector` exists only if valid |
//! | [`resolve`] | the content a selector selects in a body ([`SpanError`] with an incident code) |
//! | [`search_text`] | the text a quote is searched in (ACA-L2-021 uses it too) |
//! | [`media`] | media type essences and the profile's "textual" types |
//! | [`redaction`] | redacted `exact_text` (AEF-5-002) |
//! | [`limits`] | every bound of the engines |
//!
//! Selector families: byte and line ranges, paragraphs, text quotes, RFC 5147 fragments and text
//! directives over text; CSS (Selectors Level 3, matched by `scraper`) over HTML; XPath 1.0 over
//! XML (`roxmltree`). `page_range` on a PDF is recognised but never resolved (profile
//! AEF-L2-009).
//!
//! Every input here is hostile: a fetched body and a selector written by someone else. Each
//! engine is bounded in time and memory; a bound that is hit is a typed [`SpanError`], never a
//! hang, an abort or a panic.
//!
//! ```
//! use citeproof_model::aef::SelectorType;
//! use citeproof_span::{Selector, resolve};
//!
//! let css = Selector::parse(SelectorType::Css, Some("p.lead"), None, None)?;
//! let html = b"<p>one</p><p class=lead>two  words</p>";
//! assert_eq!(resolve(&css, "text/html", html)?, b"two words");
//! let missing = resolve(&css, "text/html", b"<p>none</p>").unwrap_err();
//! assert_eq!(missing.code().as_str(), "aef-span-not-found");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs, unreachable_pub)]

mod compute;
mod css;
mod error;
mod html;
pub mod limits;
pub mod media;
pub mod redaction;
mod resolve;
mod search;
mod selector;
mod text;
mod xml;
mod xpath;

pub use compute::{ComputedSpan, compute_span, parse_span_selector, search_text};
pub use error::SpanError;
pub use resolve::resolve;
pub use selector::{Selector, SelectorError};

/// The private engines, for the fuzz targets (`crates/citeproof-fuzz-bodies`) only: they check
/// properties an engine must have on its own (an XPath node-set and `count()` of it agree, a CSS
/// selector list and the same list doubled match the same elements) that the public API, which
/// only ever returns one span, cannot show. Not a stable API.
#[doc(hidden)]
pub mod engines {
    pub use crate::css::{SyntaxError as CssSyntaxError, check as css_check};
    pub use crate::html::{HtmlDoc, TooDeep};
    pub use crate::xml::{XmlError, parse as parse_xml};
    pub use crate::xpath::{
        EvalError, Expr, SyntaxError, Value, XNode, evaluate, num_to_str, parse as parse_xpath,
        string_value,
    };
}

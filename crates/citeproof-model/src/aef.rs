//! AI Evidence Format v0.1 (seed 001 + `shared/specs/ai-evidence-format`): one evidence object per
//! citation. Unknown members are rejected, as in the published schema.
//!
//! The landing page and the spec disagree on three enums. The generated schema has the spec's
//! values only, like the published one (profile AEF-VOC-001: landing-page values are not Level 1).
//! Both vocabularies deserialize, so that a verifier's opt-in lenient mode can read documents
//! written from the landing page; such values report `is_spec_vocabulary() == false`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{hash::ContentHash, primitives::Rfc3339DateTime};

/// The only version this crate understands.
pub const EVIDENCE_VERSION: &str = "0.1";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "AI Evidence Format v0.1 evidence object")]
pub struct Evidence {
    /// MUST be `"0.1"`.
    #[schemars(extend("const" = "0.1"))]
    pub evidence_version: String,
    #[schemars(length(min = 1))]
    pub evidence_id: String,
    #[schemars(length(min = 1))]
    pub claim_text: String,
    pub source: Source,
    pub span: Span,
    pub retrieval: Retrieval,
    pub verification: Verification,
    pub synthesis_role: SynthesisRole,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// Canonical URI of the source (any scheme: the spec says URI, not URL).
    #[schemars(extend("format" = "uri"))]
    pub uri: String,
    #[serde(rename = "type")]
    pub source_type: SourceType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publisher: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published_at: Option<Rfc3339DateTime>,
    pub fetched_at: Rfc3339DateTime,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SourceType {
    Document,
    Webpage,
    ApiResponse,
    KnowledgeGraph,
    AeoDeclaration,
    Dataset,
    DatabaseRow,
    /// Landing page only (lenient mode; not in the published schema).
    #[schemars(skip)]
    Api,
    /// Landing page only (lenient mode; not in the published schema).
    #[schemars(skip)]
    Book,
    /// Landing page only (lenient mode; not in the published schema).
    #[schemars(skip)]
    Paper,
}

impl SourceType {
    pub fn is_spec_vocabulary(self) -> bool {
        !matches!(self, SourceType::Api | SourceType::Book | SourceType::Paper)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend("allOf" = [{
    "if": { "properties": { "selector_type": { "not": { "const": "none" } } } },
    "then": { "required": ["selector_value"] }
}]))]
pub struct Span {
    pub selector_type: SelectorType,
    /// Required unless `selector_type` is `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector_value: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact_text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surrounding_context: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SelectorType {
    ByteRange,
    LineRange,
    Xpath,
    Css,
    TextQuote,
    ParagraphIndex,
    None,
    /// Landing page only (lenient mode); a synonym of `css`.
    #[schemars(skip)]
    CssSelector,
    /// Landing page only (lenient mode): RFC 5147 / text fragments.
    #[schemars(skip)]
    FragmentIdentifier,
    /// Landing page only (lenient mode): pages of a paginated document.
    #[schemars(skip)]
    PageRange,
}

impl SelectorType {
    /// Every selector type, the spec's vocabulary first (for property tests and fuzzing).
    pub const ALL: [SelectorType; 10] = [
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

    pub fn is_spec_vocabulary(self) -> bool {
        !matches!(
            self,
            SelectorType::CssSelector | SelectorType::FragmentIdentifier | SelectorType::PageRange
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Retrieval {
    pub method: RetrievalMethod,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub confidence: Option<f64>,
    /// JSON Schema `integer` admits `1e30`; a `Number` keeps every value the schema accepts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<u64>", range(min = 1))]
    pub rank: Option<serde_json::Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<u64>")]
    pub freshness_age_seconds: Option<serde_json::Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retriever_id: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RetrievalMethod {
    Vector,
    Keyword,
    Graph,
    Hybrid,
    DirectFetch,
    ModelRecall,
    /// Landing page only (lenient mode); closest spec value is `vector`.
    #[schemars(skip)]
    Semantic,
    /// Landing page only (lenient mode); a synonym of `direct_fetch`.
    #[schemars(skip)]
    Direct,
}

impl RetrievalMethod {
    pub fn is_spec_vocabulary(self) -> bool {
        !matches!(self, RetrievalMethod::Semantic | RetrievalMethod::Direct)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Verification {
    pub content_hash: ContentHash,
    /// Detached JWS (RFC 7515 Appendix F) over the JCS form of the document without
    /// `verification.signature` and `verification.signing_key_uri`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "uri"))]
    pub signing_key_uri: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SynthesisRole {
    Supporting,
    Contradicting,
    Partial,
    Background,
}

#[cfg(test)]
mod tests {
    use super::SelectorType;

    /// `ALL` lists each variant once: the match is exhaustive, so a new variant stops the build
    /// here until it has a place, and the positions must be distinct.
    #[test]
    fn all_selector_types_are_listed_once() {
        let position = |t: SelectorType| match t {
            SelectorType::ByteRange => 0,
            SelectorType::LineRange => 1,
            SelectorType::Xpath => 2,
            SelectorType::Css => 3,
            SelectorType::TextQuote => 4,
            SelectorType::ParagraphIndex => 5,
            SelectorType::None => 6,
            SelectorType::CssSelector => 7,
            SelectorType::FragmentIdentifier => 8,
            SelectorType::PageRange => 9,
        };
        for (i, t) in SelectorType::ALL.into_iter().enumerate() {
            assert_eq!(position(t), i, "{t:?}");
        }
    }
}

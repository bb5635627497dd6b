//! Media types as the profile uses them ("Definitions": media type of a response, textual media
//! type) and the selector/media-type table of AEF-L2-002.

/// The media type used when a response has no usable `Content-Type` (profile "Definitions").
pub const OCTET_STREAM: &str = "application/octet-stream";

/// `type/subtype` of a `Content-Type` value, lowercased, parameters ignored; `None` when the
/// value is not `token/token`.
pub fn essence(content_type: &str) -> Option<String> {
    citeproof_model::token::media_type_essence(content_type)
}

/// Textual media types (profile "Definitions").
pub fn is_textual(media: &str) -> bool {
    media.starts_with("text/")
        || matches!(
            media,
            "application/json"
                | "application/xml"
                | "application/xhtml+xml"
                | "application/javascript"
        )
        || media.ends_with("+json")
        || media.ends_with("+xml")
}

/// Media types whose text the profile reads as HTML (`text/html`, `application/xhtml+xml`).
pub(crate) fn is_html(media: &str) -> bool {
    matches!(media, "text/html" | "application/xhtml+xml")
}

/// Media types an `xpath` selector applies to (AEF-L2-002).
pub(crate) fn is_xml(media: &str) -> bool {
    matches!(
        media,
        "application/xml" | "text/xml" | "application/xhtml+xml"
    ) || media.ends_with("+xml")
}

/// Media types `paragraph_index` applies to (AEF-L2-002), and whether they are read as HTML.
pub(crate) fn paragraph_kind(media: &str) -> Option<ParagraphKind> {
    match media {
        "text/plain" | "text/markdown" => Some(ParagraphKind::Text),
        "text/html" | "application/xhtml+xml" => Some(ParagraphKind::Html),
        _ => None,
    }
}

/// How the paragraphs of a media type are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParagraphKind {
    /// Runs of non-blank lines.
    Text,
    /// `p` elements.
    Html,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textual_types_follow_the_definition() {
        for t in [
            "text/plain",
            "text/csv",
            "application/json",
            "application/ld+json",
            "image/svg+xml",
            "application/javascript",
        ] {
            assert!(is_textual(t), "{t}");
        }
        for t in [
            "application/pdf",
            "image/png",
            "application/octet-stream",
            "application/jsonx",
        ] {
            assert!(!is_textual(t), "{t}");
        }
    }

    #[test]
    fn essence_lowercases_and_drops_parameters() {
        assert_eq!(
            essence("Text/HTML; charset=utf-8").as_deref(),
            Some("text/html")
        );
        assert_eq!(essence("text").as_deref(), None);
        assert_eq!(essence("te xt/html").as_deref(), None);
    }
}

//! ACA-L2-021: the claims of a response's manifests are claims *of this response*. Each claim's
//! text, normalized like the support check (N), must occur in the response body's text.
//!
//! The body's text depends on its media type: every string value of a JSON body (member names
//! excluded), the AEF search text of any other textual body (T(d) for HTML, line endings
//! normalized otherwise). A body that is neither, or not UTF-8, has no text and therefore no
//! trace of any claim.

use super::support::normalize;

/// The normalized text units of an agent response body.
#[derive(Debug, Clone, Default)]
pub struct ResponseText {
    units: Vec<String>,
}

impl ResponseText {
    /// `media_type` is the response's `Content-Type` field value (or `None`).
    pub fn of(media_type: Option<&str>, body: &[u8]) -> ResponseText {
        let media = media_type
            .and_then(citeproof_span::media::essence)
            .unwrap_or_default();
        let units = if media == "application/json" || media.ends_with("+json") {
            match citeproof_model::json::parse_strict(body) {
                Ok(value) => {
                    let mut strings = Vec::new();
                    collect_strings(&value, &mut strings);
                    strings.into_iter().map(normalize).collect()
                }
                Err(_) => Vec::new(),
            }
        } else {
            citeproof_span::search_text(&media, body)
                .map(|t| vec![normalize(&t)])
                .unwrap_or_default()
        };
        ResponseText { units }
    }

    /// Whether the body has any text at all.
    pub fn is_empty(&self) -> bool {
        self.units.iter().all(String::is_empty)
    }

    /// Whether N(`claim`) occurs in one text unit of the body.
    pub fn contains_claim(&self, claim: &str) -> bool {
        let n = normalize(claim);
        !n.is_empty() && self.units.iter().any(|u| u.contains(&n))
    }
}

/// Every string value of a JSON document, in document order, without member names. Iterative,
/// so a deeply nested body cannot exhaust the stack (the strict parser bounds depth anyway).
fn collect_strings<'a>(value: &'a serde_json::Value, out: &mut Vec<&'a str>) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::String(s) => out.push(s),
            serde_json::Value::Array(items) => stack.extend(items.iter().rev()),
            serde_json::Value::Object(members) => stack.extend(members.values().rev()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_are_found_by_media_type() {
        let claim = "AI crawlers revisit pages with stable canonical URLs more often.";
        let html = b"<html><body><p>AI crawlers <b>revisit</b> pages with stable\n canonical URLs more often.</p><script>x</script></body></html>";
        assert!(ResponseText::of(Some("text/html; charset=utf-8"), html).contains_claim(claim));
        let text = b"Answer:\r\nAI CRAWLERS revisit pages with stable canonical URLs more often.";
        assert!(ResponseText::of(Some("text/plain"), text).contains_claim(claim));
        let json = br#"{"answer": "ai crawlers revisit pages with stable canonical urls more often.", "n": 1}"#;
        assert!(ResponseText::of(Some("application/json"), json).contains_claim(claim));
        // A member name is not text of the response.
        let name = br#"{"AI crawlers revisit pages with stable canonical URLs more often.": 1}"#;
        assert!(!ResponseText::of(Some("application/json"), name).contains_claim(claim));
        // The issue's swapped body.
        let moon = b"The moon is made of cheese. Vaccines cause autism.";
        assert!(!ResponseText::of(Some("text/plain"), moon).contains_claim(claim));
        // No text: binary, undeclared, not UTF-8.
        assert!(ResponseText::of(Some("application/octet-stream"), text).is_empty());
        assert!(ResponseText::of(None, text).is_empty());
        assert!(ResponseText::of(Some("text/plain"), b"\xff\xfe").is_empty());
        assert!(!ResponseText::of(Some("text/plain"), b"").contains_claim(""));
    }
}

//! URL equality and origins (profile "Definitions"); the web URL grammar lives in
//! [`citeproof_model::weburl`].
//!
//! URL equality compares WHATWG serializations (the `url` crate implements the WHATWG URL
//! Standard parser).

pub use citeproof_model::weburl::{MAX_WEB_URL_BYTES, is_web_url, web_url_problem};

/// The key under which two URLs compare equal: the WHATWG serialization, or the input itself
/// when the WHATWG parser rejects it (such a URL is only equal to itself).
pub fn equality_key(text: &str) -> String {
    match url::Url::parse(text) {
        Ok(u) => u.into(),
        Err(_) => text.to_owned(),
    }
}

/// URL equality of the profile.
pub fn urls_equal(a: &str, b: &str) -> bool {
    a == b || equality_key(a) == equality_key(b)
}

/// The origin `scheme://host[:port]` (WHATWG, default port omitted) of a URL.
pub fn origin_of(text: &str) -> Option<String> {
    let u = url::Url::parse(text).ok()?;
    let origin = u.origin();
    if !origin.is_tuple() {
        return None;
    }
    Some(origin.ascii_serialization())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_follows_whatwg() {
        assert!(urls_equal(
            "HTTPS://Example.com:443",
            "https://example.com/"
        ));
        assert!(urls_equal("http://a.example/x/../y", "http://a.example/y"));
        assert!(!urls_equal("https://a.example/#x", "https://a.example/"));
        assert!(!urls_equal("https://a.example/A", "https://a.example/a"));
    }
}

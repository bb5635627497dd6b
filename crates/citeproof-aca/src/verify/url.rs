//! URL grammar, equality and origins (profile "Definitions"), from [`citeproof_model::weburl`].

pub use citeproof_model::weburl::{
    MAX_WEB_URL_BYTES, equality_key, is_web_url, origin_of, urls_equal, web_url_problem,
};

use std::collections::HashMap;

/// [`equality_key`] computed once per distinct URL string: a manifest of ten thousand claims
/// usually cites a handful of URLs, and each key is a URL parse.
#[derive(Debug, Default)]
pub(crate) struct EqualityKeys {
    /// Each URL string's index in `keys`: a URL seen before costs one hash lookup.
    index: HashMap<String, usize>,
    keys: Vec<String>,
}

impl EqualityKeys {
    pub(crate) fn key(&mut self, url: &str) -> &str {
        let at = match self.index.get(url) {
            Some(&at) => at,
            None => {
                self.keys.push(equality_key(url));
                self.index.insert(url.to_owned(), self.keys.len() - 1);
                self.keys.len() - 1
            }
        };
        self.keys.get(at).map_or("", String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::{EqualityKeys, equality_key};

    #[test]
    fn memoized_keys_are_the_keys() {
        let mut keys = EqualityKeys::default();
        for u in [
            "https://Example.com:443/a?b#c",
            "https://example.com/a?b",
            "http://example.com/%7e",
            "not a url",
            "https://Example.com:443/a?b#c",
        ] {
            assert_eq!(keys.key(u), equality_key(u), "{u}");
        }
        // Hand-derived (WHATWG serialization): the case of the host and a default port do not
        // count; a fragment does.
        let plain = keys.key("https://example.com/a?b").to_owned();
        assert_eq!(keys.key("https://Example.com:443/a?b"), plain);
        assert_ne!(keys.key("https://example.com/a?b#c"), plain);
    }
}

//! RFC 9110 tokens (§5.6.2), as header fields and media types use them, written once for every
//! crate that reads or writes a header.

/// RFC 9110 `tchar`: ASCII letters and digits and ``!#$%&'*+-.^_`|~``.
pub fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// RFC 9110 `token`: one or more `tchar`.
pub fn is_token(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_tchar)
}

/// `type/subtype` of a `Content-Type` value, lowercased, parameters ignored; `None` when the
/// value is not `token/token` (the media type of a response, profile "Definitions").
pub fn media_type_essence(content_type: &str) -> Option<String> {
    let media = content_type.split(';').next()?.trim_matches([' ', '\t']);
    let (kind, subtype) = media.split_once('/')?;
    (is_token(kind) && is_token(subtype)).then(|| media.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tchar_is_the_rfc_9110_set() {
        // RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
        // "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA.
        let listed: Vec<u8> = (0..=255u8).filter(|&b| is_tchar(b)).collect();
        let mut expected: Vec<u8> = b"!#$%&'*+-.^_`|~".to_vec();
        expected.extend(b'0'..=b'9');
        expected.extend(b'A'..=b'Z');
        expected.extend(b'a'..=b'z');
        expected.sort_unstable();
        assert_eq!(listed, expected);
    }

    #[test]
    fn essences() {
        assert_eq!(
            media_type_essence(" Text/HTML ; charset=utf-8").as_deref(),
            Some("text/html")
        );
        assert_eq!(media_type_essence("text/"), None);
        assert_eq!(media_type_essence("text"), None);
        assert_eq!(media_type_essence("te xt/html"), None);
        assert_eq!(media_type_essence("text/html/x"), None);
        assert!(!is_token(""));
    }
}

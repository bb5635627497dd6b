//! Content hashes: `sha256:` + 64 lowercase hex digits.
//!
//! Two inputs are hashed the same way but prepared differently:
//! - raw bytes, exactly as served (ACA source `hash`, profile ACA-L2-*);
//! - AEF §5 text: UTF-8, CRLF/CR -> LF, one trailing LF stripped.

use std::{fmt, str::FromStr};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The regular expression every serialized content hash matches.
pub const CONTENT_HASH_PATTERN: &str = "^sha256:[0-9a-f]{64}$";

/// A SHA-256 digest written as `sha256:<64 lowercase hex>`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContentHash([u8; 32]);

impl ContentHash {
    pub const fn from_digest(digest: [u8; 32]) -> ContentHash {
        ContentHash(digest)
    }
    pub const fn digest(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sha256:{}", hex::encode(self.0))
    }
}

impl fmt::Debug for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a string is not a content hash.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContentHashParseError {
    #[error("content hash must start with `sha256:`")]
    MissingPrefix,
    #[error("content hash must have exactly 64 hex digits after `sha256:`, found {0} characters")]
    WrongLength(usize),
    #[error("content hash digits must be lowercase hex [0-9a-f]; found {found:?} at index {index}")]
    NotLowercaseHex { index: usize, found: char },
}

impl FromStr for ContentHash {
    type Err = ContentHashParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let digits = s
            .strip_prefix("sha256:")
            .ok_or(ContentHashParseError::MissingPrefix)?;
        // The common case, lower-case hex of the right length, decoded byte by byte; anything
        // else goes through the checks below for its precise error.
        let nibble = |c: u8| match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        };
        if digits.len() == 64 {
            let mut out = [0u8; 32];
            let mut ok = true;
            for (byte, pair) in out.iter_mut().zip(digits.as_bytes().chunks_exact(2)) {
                let hi = pair.first().copied().and_then(nibble);
                let lo = pair.get(1).copied().and_then(nibble);
                let (Some(hi), Some(lo)) = (hi, lo) else {
                    ok = false;
                    break;
                };
                *byte = hi << 4 | lo;
            }
            if ok {
                return Ok(ContentHash(out));
            }
        }
        if digits.len() != 64 {
            return Err(ContentHashParseError::WrongLength(digits.chars().count()));
        }
        if let Some((index, found)) = digits
            .char_indices()
            .find(|(_, c)| !matches!(c, '0'..='9' | 'a'..='f'))
        {
            return Err(ContentHashParseError::NotLowercaseHex {
                index: index + 7,
                found,
            });
        }
        let mut out = [0u8; 32];
        hex::decode_to_slice(digits, &mut out)
            .map_err(|_| ContentHashParseError::WrongLength(digits.len()))?;
        Ok(ContentHash(out))
    }
}

impl Serialize for ContentHash {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ContentHash {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for ContentHash {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "ContentHash".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "pattern": CONTENT_HASH_PATTERN,
            "description": "`sha256:` followed by 64 lowercase hex digits.",
        })
    }
}

/// SHA-256 of the exact bytes given.
pub fn sha256_bytes(bytes: &[u8]) -> ContentHash {
    ContentHash(Sha256::digest(bytes).into())
}

/// The input to an AEF §5 text hash was not UTF-8.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("span content is not valid UTF-8 (first invalid byte at offset {offset})")]
pub struct NotUtf8 {
    pub offset: usize,
}

/// AEF §5 step 2, and the profile's "normalized text" of a textual source: every CRLF and lone
/// CR becomes LF; nothing else changes (no trailing LF is removed: that is step 3). The one
/// definition, shared by the hash below and by span selection (`citeproof-span`).
pub fn normalize_line_endings(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' {
            if chars.peek() == Some(&'\n') {
                chars.next();
            }
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

/// AEF §5 steps 1-3: read as UTF-8, normalize CRLF and lone CR to LF, strip one trailing LF.
pub fn aef_normalize_text(bytes: &[u8]) -> Result<String, NotUtf8> {
    let text = std::str::from_utf8(bytes).map_err(|e| NotUtf8 {
        offset: e.valid_up_to(),
    })?;
    let mut out = normalize_line_endings(text);
    if out.ends_with('\n') {
        out.pop();
    }
    Ok(out)
}

/// AEF §5 content hash of span bytes.
pub fn aef_text_hash(bytes: &[u8]) -> Result<ContentHash, NotUtf8> {
    aef_normalize_text(bytes).map(|text| sha256_bytes(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected digests computed independently with coreutils:
    //   printf '' | sha256sum            -> e3b0c442...b855
    //   printf 'abc' | sha256sum         -> ba7816bf...15ad (also FIPS 180-2 example)
    //   printf 'a\nb' | sha256sum        -> see below
    const EMPTY: &str = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    const ABC: &str = "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    #[test]
    fn raw_hash_matches_fips_180_examples() {
        assert_eq!(sha256_bytes(b"").to_string(), EMPTY);
        assert_eq!(sha256_bytes(b"abc").to_string(), ABC);
    }

    #[test]
    fn line_endings() {
        assert_eq!(normalize_line_endings("a\r\nb\rc\n"), "a\nb\nc\n");
        assert_eq!(normalize_line_endings("\r\r\n\n"), "\n\n\n");
        assert_eq!(normalize_line_endings("é\r"), "é\n");
    }

    #[test]
    fn aef_normalization_follows_section_5() {
        assert_eq!(aef_normalize_text(b"a\r\nb\rc\n").unwrap(), "a\nb\nc");
        // Only one trailing newline is stripped.
        assert_eq!(aef_normalize_text(b"abc\n\n").unwrap(), "abc\n");
        assert_eq!(aef_normalize_text(b"abc\r\n").unwrap(), "abc");
        assert_eq!(aef_text_hash(b"abc\r\n").unwrap().to_string(), ABC);
        assert_eq!(aef_text_hash(b"\n").unwrap().to_string(), EMPTY);
        assert_eq!(aef_text_hash(b"ab\xffc"), Err(NotUtf8 { offset: 2 }));
    }

    #[test]
    fn parse_is_strict() {
        assert!(ABC.parse::<ContentHash>().is_ok());
        assert_eq!(
            ABC.to_uppercase()
                .replace("SHA256", "sha256")
                .parse::<ContentHash>(),
            Err(ContentHashParseError::NotLowercaseHex {
                index: 7,
                found: 'B'
            })
        );
        assert_eq!(
            "sha256:".parse::<ContentHash>(),
            Err(ContentHashParseError::WrongLength(0))
        );
        assert_eq!(
            ABC.replace("sha256:", "sha-256:").parse::<ContentHash>(),
            Err(ContentHashParseError::MissingPrefix)
        );
        assert_eq!(ABC.parse::<ContentHash>().unwrap().to_string(), ABC);
    }

    proptest::proptest! {
        /// The byte-wise decoding agrees with the `hex` crate on lower-case hex and refuses
        /// everything else with the error the slow path gives.
        #[test]
        fn parse_agrees_with_hex(digits in "[0-9a-fA-Fg]{63,65}") {
            let text = format!("sha256:{digits}");
            let lower = digits.len() == 64 && digits.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f'));
            match text.parse::<ContentHash>() {
                Ok(h) => {
                    proptest::prop_assert!(lower);
                    proptest::prop_assert_eq!(h.digest().to_vec(), hex::decode(&digits).unwrap());
                }
                Err(ContentHashParseError::WrongLength(n)) => proptest::prop_assert_eq!(n, digits.len()),
                Err(ContentHashParseError::NotLowercaseHex { index, found }) => {
                    proptest::prop_assert!(!lower);
                    proptest::prop_assert_eq!(text[index..].chars().next(), Some(found));
                }
                Err(e) => proptest::prop_assert!(false, "{e:?}"),
            }
        }
    }
}

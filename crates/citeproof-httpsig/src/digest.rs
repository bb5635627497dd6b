//! RFC 9530 `Content-Digest`.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use sfv::{BareItem, ListEntry};
use sha2::{Digest as _, Sha256, Sha512};

use crate::error::{HttpSigError, Result};
use crate::sf;

/// The `Content-Digest` field value for `body` with SHA-256 (RFC 9530 §2, §5):
/// `sha-256=:<base64 of SHA-256(body)>:`, a one-member sf-dictionary.
pub fn content_digest_sha256(body: &[u8]) -> String {
    format!("sha-256=:{}:", STANDARD.encode(Sha256::digest(body)))
}

/// The `Content-Digest` field value for `body` with SHA-512: `sha-512=:<base64>:`.
pub fn content_digest_sha512(body: &[u8]) -> String {
    format!("sha-512=:{}:", STANDARD.encode(Sha512::digest(body)))
}

/// Checks a `Content-Digest` field value against `body` (RFC 9530 §2).
///
/// The value is parsed as an sf-dictionary (repeated keys rejected). Every `sha-256` and
/// `sha-512` member must be a byte sequence of the right length equal to the digest of `body`;
/// at least one of them must be present. Members with other algorithm keys (including the
/// insecure `md5`, `sha`, `unixsum`, `unixcksum`, `adler`, `crc32c`) are ignored, so a value
/// carrying only those is rejected with [`HttpSigError::DigestUnsupported`].
/// Returns the algorithm keys that were checked.
pub fn check_content_digest(header_value: &str, body: &[u8]) -> Result<Vec<&'static str>> {
    let dict = sf::field_dictionary("Content-Digest", header_value)?;
    let mut checked = Vec::new();
    for (alg, entry) in &dict {
        let (name, expected): (&'static str, Vec<u8>) = match alg.as_str() {
            "sha-256" => ("sha-256", Sha256::digest(body).to_vec()),
            "sha-512" => ("sha-512", Sha512::digest(body).to_vec()),
            _ => continue,
        };
        let ListEntry::Item(item) = entry else {
            return Err(HttpSigError::DigestMalformed {
                detail: format!("{name} is an inner list, not a byte sequence"),
            });
        };
        let BareItem::ByteSequence(got) = &item.bare_item else {
            return Err(HttpSigError::DigestMalformed {
                detail: format!(
                    "{name} is a {}, not a byte sequence",
                    sf::bare_item_kind(&item.bare_item)
                ),
            });
        };
        if got.len() != expected.len() {
            return Err(HttpSigError::DigestMalformed {
                detail: format!(
                    "{name} has {} bytes, expected {}",
                    got.len(),
                    expected.len()
                ),
            });
        }
        if *got != expected {
            return Err(HttpSigError::DigestMismatch { alg: name.into() });
        }
        checked.push(name);
    }
    if checked.is_empty() {
        let found: Vec<&str> = dict.keys().map(|k| k.as_str()).collect();
        return Err(HttpSigError::DigestUnsupported {
            detail: if found.is_empty() {
                "no members".into()
            } else {
                format!(
                    "found only {}; sha-256 or sha-512 is required",
                    found.join(", ")
                )
            },
        });
    }
    Ok(checked)
}
